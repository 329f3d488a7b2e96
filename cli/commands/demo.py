"""``ipb demo``: the whole pipeline on the bundled cards, into one folder.

    ipb demo [OUT] [--n N] [--seed S] [--embeddings/--no-embeddings] [--resamples R]

Steps, each with its progress shown:

1. ``ipb check``: every bundled card and scenario;
2. ``ipb catalog``: the cards with the columns of paper Table 5;
3. the worked item IPB-P-011 (Appendix A.2) and its perturbations A, B, C
   (Table 9), and its decision graph coloured by verdict
   (``OUT/cards/ipb_p_011_base.png``);
4. perturbed L7 items for every card (``ipb perturb``, the operators that
   apply to the card) and one L4 reconstruction item per card
   (``OUT/items.jsonl``);
5. synthetic respondents standing in for models, at four corruption levels
   (:func:`ipb.respond.synthetic.synthetic_responses`): ``synthetic-gold``
   answers with the gold program, ``synthetic-light``, ``-medium`` and
   ``-heavy`` corrupt more and more of it (and ``-heavy`` sometimes answers
   with text no parser can read); ``synthetic-medium`` also answers under
   conditions B and C, simulated by lighter corruption
   (``OUT/responses.jsonl``);
6. ``ipb score``: every metric, flag and aggregate (``OUT/results/``);
7. ``ipb report``: ``OUT/report.html``;
8. every card's decision graph as SVG (``OUT/cards/``).

The same OUT, N and seed give the same files. OUT defaults to ``out/``.
"""

from __future__ import annotations

import json
import random
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from ipb.cli._app import app, err, out
from ipb.errors import IpbError

#: Corruption menus of the synthetic respondents: (spec, weight). Specs join corruptions with "+".
LEVELS: dict[str, list[tuple[str, float]]] = {
    "gold": [("none", 1.0)],
    "light": [("none", 0.6), ("flip_verdict", 0.1), ("drop_gate", 0.1), ("omit_kill_element", 0.1),
              ("wrong_year", 0.1)],
    "medium": [("none", 0.15), ("drop_gate", 0.1), ("swap_gates", 0.1), ("flip_verdict", 0.1), ("flip_final", 0.1),
               ("omit_kill_element", 0.1), ("omit_kill_criteria", 0.1), ("invent_gate", 0.1), ("wrong_year", 0.05),
               ("borrow_phrases", 0.1)],
    "heavy": [("drop_gate+flip_verdict+omit_kill_criteria", 0.25), ("swap_gates+invent_gate+flip_final", 0.25),
              ("omit_kill_criteria+borrow_phrases+wrong_year", 0.2), ("drop_gate+swap_gates+flip_verdict", 0.2),
              ("none", 0.1)],
}
#: Who answers under which condition with which menu: (model, condition, level).
RESPONDENTS = (
    ("synthetic-gold", "A", "gold"),
    ("synthetic-light", "A", "light"),
    ("synthetic-medium", "A", "medium"),
    ("synthetic-medium", "B", "light"),
    ("synthetic-medium", "C", "light"),
    ("synthetic-heavy", "A", "heavy"),
)
#: Share of synthetic-heavy answers that are unreadable (recorded as parse failures, never as wrong).
UNREADABLE_SHARE = 0.06
UNREADABLE = (
    "I would need to think about this more carefully before answering.",
    "As an AI language model I cannot give investment advice.",
    "",
)
OPERATORS = ("metric", "sector", "temporal", "flip")


def _progress() -> Progress:
    return Progress(TextColumn("  {task.description:<34}"), BarColumn(bar_width=36), MofNCompleteColumn(),
                    TimeElapsedColumn(), console=err, transient=False)


@contextmanager
def _step(number: int, total: int, title: str) -> Iterator[None]:
    out.print(f"\n[bold]== {number}/{total} {title}[/]")
    start = time.perf_counter()
    yield
    out.print(f"[dim]   ({time.perf_counter() - start:.1f} s)[/]")


def _invoke(args: list[str]) -> int:
    """Run an ``ipb`` command in this process; its exit status."""
    import click
    from typer.main import get_command

    try:
        get_command(app).main(args=args, prog_name="ipb", standalone_mode=False)
    except click.exceptions.Exit as exc:
        return int(exc.exit_code or 0)
    except click.ClickException as exc:
        exc.show()
        return exc.exit_code
    return 0


def _scenario_dir() -> Path:
    from importlib import resources

    return Path(str(resources.files("ipb.frameworks").joinpath("scenarios")))


def _applicable(card_id: str, base: Path) -> list[str]:
    """The perturbation operators that apply to ``card_id`` with this base scenario."""
    from ipb.perturb import Job, parse_recipes
    from ipb.perturb.generation import Generator

    ops = []
    for op in OPERATORS:
        try:
            Generator(Job((card_id,), str(base), 0, parse_recipes(op), False)).check()
            ops.append(op)
        except IpbError:
            continue
    return ops


def _items(cards: list[str], n: int, seed: int, path: Path) -> tuple[int, int, list[str]]:
    """Write L4 and perturbed L7 items for ``cards`` to ``path``; (L4 count, L7 count, problems)."""
    from ipb.engine.execute import execute
    from ipb.engine.registry import compiled_card
    from ipb.engine.scenario import load_scenario
    from ipb.perturb import Job, generate, parse_recipes

    lines: list[str] = []
    problems: list[str] = []
    n_l4 = n_l7 = 0
    scenarios = _scenario_dir()
    with _progress() as progress:
        task = progress.add_task("perturbing cards", total=len(cards))
        for card_id in cards:
            progress.update(task, description=f"perturbing {card_id[:24]}")
            bases = sorted((scenarios / card_id).glob("*.yaml"))
            if not bases:
                problems.append(f"{card_id}: no bundled scenario to perturb")
                progress.advance(task)
                continue
            base = bases[0]
            compiled = compiled_card(card_id)
            scen = load_scenario(base, compiled.card)
            grp = execute(compiled, scen.facts, scenario_id=f"IPB-L4-{card_id}", layer="L4").to_grp()
            lines.append(json.dumps({"id": f"IPB-L4-{card_id}", "layer": "L4", "card": card_id, "grp": grp,
                                     "full_reconstruction": True, "question_group": "L4-reconstruction"},
                                    sort_keys=True, separators=(",", ":"), ensure_ascii=False))
            n_l4 += 1
            ops = _applicable(card_id, base)
            try:
                result = generate(Job((card_id,), str(base), seed, parse_recipes(",".join(ops)), False), n,
                                  balance=True, allow_short=True)
                lines.extend(result.lines)
                n_l7 += len(result.lines)
            except IpbError as exc:
                problems.append(f"{card_id}: {exc.message}")
            progress.advance(task)
        progress.update(task, description="perturbing cards")
    path.write_text("".join(line.rstrip("\n") + "\n" for line in lines), encoding="utf-8")
    return n_l4, n_l7, problems


def _choose(menu: list[tuple[str, float]], rng: random.Random) -> str:
    specs, weights = zip(*menu)
    return str(rng.choices(specs, weights=weights, k=1)[0])


def _responses(items_path: Path, seed: int, path: Path) -> dict[str, int]:
    """Synthetic answers of every respondent to every item; counts by model and condition."""
    from ipb.respond.synthetic import synthetic_responses

    items = [json.loads(line) for line in items_path.read_text(encoding="utf-8").splitlines() if line.strip()]
    records: list[dict[str, Any]] = []
    counts: dict[str, int] = {}
    with _progress() as progress:
        task = progress.add_task("answering", total=len(items) * len(RESPONDENTS))
        for model, condition, level in RESPONDENTS:
            progress.update(task, description=f"{model} ({condition})")
            for item in items:
                rng = random.Random(f"ipb-demo/{seed}/{model}/{condition}/{item['id']}")
                spec = _choose(LEVELS[level], rng)
                record = synthetic_responses([item], corruptions=[spec], seed=seed, model=model,
                                             condition=condition)[0]
                if level == "heavy" and rng.random() < UNREADABLE_SHARE:
                    record["response"] = rng.choice(UNREADABLE)
                    record["corruptions"] = [{"name": "unreadable", "applied": True, "details": {}}]
                records.append(record)
                counts[f"{model} ({condition})"] = counts.get(f"{model} ({condition})", 0) + 1
                progress.advance(task)
        progress.update(task, description="answering")
    path.write_text("".join(json.dumps(r, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n"
                            for r in records), encoding="utf-8")
    return counts


def _score(items: Path, responses: Path, results: Path, seed: int, embeddings: bool, resamples: int) -> Any:
    from ipb.scoring.run import ScoreOptions, run_score

    n_responses = sum(1 for line in responses.read_text(encoding="utf-8").splitlines() if line.strip())
    with _progress() as progress:
        tasks: dict[str, Any] = {}
        open_ended: list[Any] = []  # spinners of phases that report no count, closed by the next phase

        def report(phase: str, done: int, total: int | None) -> None:
            label = {"parse": "parsing responses", "embed": "embedding sentences", "score": "scoring"}.get(phase, phase)
            if phase not in tasks:
                while open_ended:
                    progress.update(open_ended.pop(), total=1, completed=1)
                tasks[phase] = progress.add_task(label, total=None if phase == "embed" else total)
                if phase == "embed":
                    open_ended.append(tasks[phase])
            if phase != "embed":
                progress.update(tasks[phase], completed=done, total=total if total is not None else n_responses)
            if phase == "score" and total is not None and done == total:
                tasks["aggregate"] = progress.add_task("aggregating (bootstrap CIs)", total=None)

        result = run_score(items, responses, results, ScoreOptions(seed=seed, embeddings=embeddings,
                                                                   n_resamples=resamples), progress=report)
        if "aggregate" in tasks:
            progress.update(tasks["aggregate"], total=1, completed=1)
    return result


def _draw_cards(cards: list[str], folder: Path) -> int:
    from ipb.engine.draw import draw
    from ipb.engine.registry import compiled_card

    folder.mkdir(parents=True, exist_ok=True)
    with _progress() as progress:
        task = progress.add_task("drawing cards", total=len(cards))
        for card_id in cards:
            drawing = draw(compiled_card(card_id), format="svg")
            (folder / f"{card_id}.svg").write_bytes(drawing.data)
            progress.advance(task)
    return len(cards)


@app.command()
def demo(
    out_dir: Path = typer.Argument(Path("out"), help="Folder to write into (created; default out/)."),
    n: int = typer.Option(6, "--n", "-n", min=1, help="Perturbed L7 items per card."),
    seed: int = typer.Option(0, "--seed", "-s", help="Seed of the items, the synthetic answers and the bootstrap."),
    embeddings: bool = typer.Option(True, "--embeddings/--no-embeddings", help="Score with the offline MiniLM encoder (IVP, paraphrase matching) or lexically only (faster)."),
    resamples: int = typer.Option(1000, "--resamples", min=100, help="Bootstrap resamples per interval."),
) -> None:
    """Run the whole pipeline on the bundled cards: check, catalog, the worked item, perturbed items, synthetic
    respondents, scoring and the HTML report."""
    from ipb.engine.execute import execute
    from ipb.engine.registry import bundled_card_paths, compiled_card
    from ipb.engine.scenario import load_scenario

    started = time.perf_counter()
    steps = 8
    out_dir.mkdir(parents=True, exist_ok=True)
    cards = [compiled_card(str(p)).id for p in bundled_card_paths()]

    with _step(1, steps, "ipb check (every bundled card and scenario)"):
        if _invoke(["check"]) != 0:
            err.print("ipb check found errors; the demo stops here", markup=False)
            raise typer.Exit(code=1)
    with _step(2, steps, "ipb catalog"):
        _invoke(["catalog"])
    with _step(3, steps, "the worked item IPB-P-011 (paper Appendix A.2) and its perturbations (Table 9)"):
        scenarios = _scenario_dir() / "buffett_acquisition_checklist"
        for name, extra in (("ipb_p_011_base", []), ("ipb_p_011_a", []), ("ipb_p_011_b", []),
                            ("ipb_p_011_c", ["--diagnostic"])):
            out.print(f"\n$ ipb run buffett_acquisition_checklist {name}.yaml {' '.join(extra)}".rstrip(), markup=False)
            _invoke(["run", "buffett_acquisition_checklist", str(scenarios / f"{name}.yaml"), *extra])
        from ipb.engine.draw import draw

        compiled = compiled_card("buffett_acquisition_checklist")
        scen = load_scenario(scenarios / "ipb_p_011_base.yaml", compiled.card)
        picture = draw(compiled, execute(compiled, scen.facts, scenario_id=scen.id), format="png")
        (out_dir / "cards").mkdir(parents=True, exist_ok=True)
        (out_dir / "cards" / "ipb_p_011_base.png").write_bytes(picture.data)
        out.print(f"\nIPB-P-011's decision graph, coloured by verdict: {out_dir / 'cards' / 'ipb_p_011_base.png'}",
                  markup=False)
    items_path = out_dir / "items.jsonl"
    with _step(4, steps, f"ipb perturb: {n} perturbed L7 items and one L4 item per card ({len(cards)} cards)"):
        n_l4, n_l7, problems = _items(cards, n, seed, items_path)
        for problem in problems:
            err.print(f"  note: {problem}", markup=False)
        out.print(f"  {items_path}: {n_l4} L4 + {n_l7} L7 items", markup=False)
    responses_path = out_dir / "responses.jsonl"
    with _step(5, steps, "synthetic respondents at four corruption levels"):
        counts = _responses(items_path, seed, responses_path)
        for key, value in counts.items():
            out.print(f"  {key}: {value} answers", markup=False)
    results = out_dir / "results"
    with _step(6, steps, f"ipb score --items {items_path} --responses {responses_path} --out {results}"):
        result = _score(items_path, responses_path, results, seed, embeddings, resamples)
        c = result.summary.get("counts", {})
        out.print(f"  {c.get('records')} responses: {c.get('scored')} scored, {c.get('parse_failures')} parse "
                  f"failure(s), {c.get('invalid')} unusable", markup=False)
    report_path = out_dir / "report.html"
    with _step(7, steps, f"ipb report {results} --out {report_path}"):
        from ipb.report.html import write_report

        with _progress() as progress:
            task = progress.add_task("writing the report", total=1)
            write_report(results, report_path, title="ipb demo: synthetic respondents on the bundled cards")
            progress.advance(task)
    with _step(8, steps, "ipb graph CARD --format svg, for every card"):
        _draw_cards(cards, out_dir / "cards")
        out.print(f"  {out_dir / 'cards'}/", markup=False)
    total = time.perf_counter() - started
    out.print(f"\n[bold]Report:[/] {report_path.resolve()}")
    out.print(f"Open it in a browser: {report_path.resolve().as_uri()}  (demo took {total:.0f} s)", markup=False)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(_invoke(["demo", *sys.argv[1:]]))

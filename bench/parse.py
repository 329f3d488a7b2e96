"""Speed of the Structured Response Parser (``ipb.scoring.parse``, paper §7.5).

Run from the repository root::

    .venv/bin/python bench/parse.py [--n 2000] [--seed 0] [--embed] [--json OUT] [--shape WORDS ...]

Three measurements in one run, on one pinned CPU:

1. **responses/s**: N synthetic answers (every bundled card; numbered lists,
   markdown tables, bold labels, headings, JSON and prose; random verdicts,
   elements, numbers, reasoning traces) plus the golden test answers, parsed
   with the embedding fallback off. With ``--embed`` also with the default
   embedder (all-MiniLM-L6-v2), reporting how many answers needed it; the
   model's load time is reported separately and not counted.
2. **1 MB responses**: realistic (many answers concatenated, as a model that
   loops produces) and pathological (unclosed tags, endless brackets, runs of
   spaces, one 1 MB line, 77,000 one-line gates...). Target: under 1 s.
   ``--shape WORDS`` (repeatable) runs only the rows whose name contains WORDS,
   without rows 1 and 3 (``--shape all``: every 1 MB row).
3. **scaling**: the realistic text at 125 KB to 1 MB; the time per MB should
   stay flat (no quadratic behaviour).

Timing: best of ``--repeat`` (default 3) passes of ``time.perf_counter``,
garbage collector off during a pass; CPU time (``time.process_time``) is
reported beside wall time because shared machines inflate wall time.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import sys
import time
from pathlib import Path
from typing import Any, Callable, Sequence

from ipb.engine.card import Card
from ipb.engine.registry import bundled_card_paths, compiled_card
from ipb.scoring.parse import parse_response

ROOT = Path(__file__).resolve().parents[1]
MB = 1_000_000

PASS_WORDS = ["PROCEED", "PASS", "✅ PASS", "meets the test", "passes", "RANK"]
FAIL_WORDS = ["REJECT", "FAIL", "❌ FAIL", "KILL", "does not pass", "fails", "FILTER"]
UNSURE_WORDS = ["INCONCLUSIVE", "unclear", "insufficient data", "cannot be determined"]
NA_WORDS = ["N/A", "not reached", "not applicable"]


def _verdicts(card: Card, rng: random.Random) -> list[str]:
    """A plausible trace: PROCEED / INCONCLUSIVE until a random REJECT, N/A after it."""
    out: list[str] = []
    stop = rng.randrange(len(card.gates) + 1)
    for i in range(len(card.gates)):
        if i < stop:
            out.append("INCONCLUSIVE" if rng.random() < 0.15 else "PROCEED")
        elif i == stop:
            out.append("REJECT")
        else:
            out.append("N/A")
    return out


def _word(verdict: str, rng: random.Random) -> str:
    table = {"PROCEED": PASS_WORDS, "REJECT": FAIL_WORDS, "INCONCLUSIVE": UNSURE_WORDS, "N/A": NA_WORDS}
    return rng.choice(table[verdict])


def _elements(gate: Any, rng: random.Random) -> str:
    parts = [e.replace("{", "").replace("}", "") for e in gate.required_elements]
    rng.shuffle(parts)
    numbers = [f"${rng.randint(1, 90)}B", f"{rng.randint(2, 30)}x", f"{rng.randint(5, 99)}%", "2/3", f"−${rng.randint(1, 5)}B"]
    return "; ".join(parts[: rng.randint(0, len(parts))] + rng.sample(numbers, 2))


def synthetic_answer(card: Card, rng: random.Random) -> str:
    """One answer to an item of ``card`` in a random format."""
    verdicts = _verdicts(card, rng)
    gates = list(zip(card.gates, verdicts))
    if rng.random() < 0.3:
        rng.shuffle(gates)
    names = [rng.choice([g.name, *g.aliases]) if g.aliases and rng.random() < 0.3 else g.name for g, _ in gates]
    final = card.outcomes["fail"] if "REJECT" in verdicts else card.outcomes["pass"]
    fmt = rng.choice(["list", "table", "bold", "headings", "json", "prose"])
    lines: list[str] = []
    if rng.random() < 0.3:
        lines.append(f"<think>\nLet me apply {card.name}. Maybe gate 2 fails? {final}?\n</think>")
    lines.append(f"Applying {card.investor}'s {card.name}, as Buffett wrote in the 1986 letter, step by step.\n")
    if fmt == "list":
        lines += [f"{i}. {n}: {_word(v, rng)} - {_elements(g, rng)}" for i, (n, (g, v)) in enumerate(zip(names, gates), 1)]
    elif fmt == "table":
        lines += ["| # | Gate | Verdict | Reasoning |", "|---|---|---|---|"]
        lines += [f"| {g.number} | {n} | {_word(v, rng)} | {_elements(g, rng)} |" for n, (g, v) in zip(names, gates)]
    elif fmt == "bold":
        lines += [f"**{n}:** {_word(v, rng)} — {_elements(g, rng)}" for n, (g, v) in zip(names, gates)]
    elif fmt == "headings":
        for n, (g, v) in zip(names, gates):
            lines += [f"## Gate {g.number} — {n}", f"Verdict: {_word(v, rng)}. {_elements(g, rng)}.", ""]
    elif fmt == "json":
        items = [{"gate": g.number, "name": n, "verdict": v, "elements": list(g.required_elements)} for n, (g, v) in zip(names, gates)]
        lines += ["```json", json.dumps({"gates": items, "final_verdict": final}, indent=2, ensure_ascii=False), "```"]
    else:
        for n, (g, v) in zip(names, gates):
            lines.append(f"Turning to the {n.lower()}, the evidence ({_elements(g, rng)}) means this gate {_word(v, rng)}.")
    lines.append(f"\nFinal verdict: {final}")
    return "\n".join(lines)


def _cards() -> list[Card]:
    return [compiled_card(str(p)).card for p in bundled_card_paths()]


def _golden() -> list[tuple[str, str]]:
    try:
        from ruamel.yaml import YAML

        cases = YAML(typ="safe").load((ROOT / "tests" / "scoring" / "cases" / "parse_cases.yaml").read_text(encoding="utf-8"))
        return [(c["card"], c["text"]) for c in cases]
    except (OSError, ImportError):
        return []


def _timed(fn: Callable[[], Any], repeat: int) -> tuple[float, float]:
    best_wall = best_cpu = float("inf")
    for _ in range(repeat):
        gc.collect()
        gc.disable()
        try:
            wall, cpu = time.perf_counter(), time.process_time()
            fn()
            best_wall = min(best_wall, time.perf_counter() - wall)
            best_cpu = min(best_cpu, time.process_time() - cpu)
        finally:
            gc.enable()
    return best_wall, best_cpu


def _megabyte(unit: str) -> str:
    return (unit * (MB // len(unit) + 1))[:MB]


_ANSWER = ("Gate 1: Circle of Competence \u2014 PROCEED.\nGate 5: Margin of Safety \u2014 REJECT: price $30B, intrinsic ~$25B.\n"
           "Final verdict: DECLINE\n")


def pathological() -> dict[str, str]:
    return {
        "unclosed <think> + junk": _megabyte("((((<think>$$$$1,1,1,1.1.1.1 gate 1, 2, 3 and 4 to   :|**__##--  >>> \"{[ not passpass" + " " * 200),
        "one 1 MB line of prose": _megabyte("the margin of safety is thin and management integrity unknown, so it fails; "),
        "77k one-line gates": _megabyte("Gate 1: PASS\n"),
        "one answer looping": _megabyte("Gate 1: Circle of Competence \u2014 PASS.\nGate 2: Durable moat \u2014 the moat is wide, "
                                        "PROCEED.\nGate 3: Management \u2014 FAIL, not trustworthy.\nFinal verdict: DECLINE\n\n"),
        "a run of newlines": "Gate 1: PASS" + "\n" * (MB - 12),
        "an answer, then verdict words": (_ANSWER + "PROCEED " * MB)[:MB],
        "70k distinct gate lines": "".join(f"Gate {k}: PROCEED\n" for k in range(1, 70_000))[:MB],
        "30k distinct bold labels": (_ANSWER + "".join(f"**Odd criterion {k}**: PROCEED\n" for k in range(40_000)))[:MB],
        "table rows": _megabyte("| 1 | Circle of Competence | PASS | gate 5 fails, not a REJECT? $5B 10x 95% |\n"),
        "verdict words only": _megabyte("PASS FAIL not REJECT N/A "),
        "numbers only": _megabyte("$1,000,000.5B −2/3 95% 10x 1986 "),
        "nested JSON braces": _megabyte("{"),
        "runs of spaces and colons": _megabyte(" " * 500 + ":"),
        "bullets": _megabyte("- - - - * * *\n"),
        # one gate named in 38,000 sentences, all inside one unclosed quotation (break42 item 13: once 16 s, quadratic)
        "one unclosed quotation": ('The analyst writes: "' + "Margin of Safety: passed. " * (MB // 26 + 1))[:MB],
    }


def _realistic(corpus: list[tuple[Card, str]]) -> str:
    """The answers of ``corpus`` concatenated (blank lines between), repeated until 1 MB."""
    realistic = "\n\n".join(t for _, t in corpus)
    while len(realistic) < MB:
        realistic += "\n\n" + realistic
    return realistic


def _megabyte_rows(args: argparse.Namespace, corpus: list[tuple[Card, str]], by_id: dict[str, Card], results: dict[str, Any]) -> int:
    """The 1 MB rows (all, or those ``--shape`` names), parsed against Buffett's checklist; writes ``--json`` when the run
    is only these rows."""
    buffett = by_id["buffett_acquisition_checklist"]
    inputs = {"realistic (answers concatenated)": _realistic(corpus)[:MB], **pathological()}
    wanted = [w for w in args.shape if w != "all"]
    print("1 MB responses (target: under 1 s):")
    for name, text in inputs.items():
        if wanted and not any(w in name for w in wanted):
            continue
        wall, cpu = _timed(lambda: parse_response(text, buffett, embedder=False), args.repeat)
        status = parse_response(text, buffett, embedder=False).status
        results["megabyte"].append({"name": name, "chars": len(text), "best_s": wall, "cpu_s": cpu, "status": status, "under_1s": wall < 1.0})
        print(f"  {name:34s} {wall:6.2f} s wall  {cpu:6.2f} s CPU  {'ok ' if wall < 1 else 'SLOW'}  ({status})")
    if args.shape and args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
        print(f"wrote {args.json}")
    return 0


def _pin() -> str:
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned (no sched_setaffinity)"
    cpus = sorted(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpus[0]})
    return f"pinned to CPU {cpus[0]} of {len(cpus)}"


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=2000, help="synthetic answers for the responses/s row")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--embed", action="store_true", help="also time the default embedder (loads all-MiniLM-L6-v2)")
    ap.add_argument("--json", type=Path, help="write the results as JSON")
    ap.add_argument("--no-pin", action="store_true")
    ap.add_argument("--shape", action="append", default=[], metavar="WORDS",
                    help="only the 1 MB rows whose name contains WORDS (repeatable; 'all' for every one): the responses/s and "
                         "scaling rows are left out")
    args = ap.parse_args(argv)
    pinned = "not pinned" if args.no_pin else _pin()
    rng = random.Random(args.seed)
    cards = _cards()
    by_id = {c.id: c for c in cards}
    corpus = [(c, synthetic_answer(c, rng)) for c in (rng.choice(cards) for _ in range(args.n))]
    corpus += [(by_id[cid], text) for cid, text in _golden() if cid in by_id]
    chars = sum(len(t) for _, t in corpus)
    results: dict[str, Any] = {
        "version": 1, "n": len(corpus), "seed": args.seed, "cpu": pinned, "python": sys.version.split()[0],
        "platform": platform.platform(), "rows": [], "megabyte": [], "scaling": [],
    }
    print(f"{len(corpus)} answers ({chars / len(corpus):.0f} characters on average) over {len(cards)} cards; {pinned}")

    parse_response(corpus[0][1], corpus[0][0], embedder=False)  # warm the card indexes
    for card in cards:
        parse_response("Gate 1: PASS", card, embedder=False)
    if args.shape:
        return _megabyte_rows(args, corpus, by_id, results)
    wall, cpu = _timed(lambda: [parse_response(t, c, embedder=False) for c, t in corpus], args.repeat)
    failures = sum(not parse_response(t, c, embedder=False).ok for c, t in corpus)
    row = {"name": "lexical (embedder=False)", "n": len(corpus), "best_s": wall, "cpu_s": cpu, "per_s": len(corpus) / wall,
           "parse_failures": failures}
    results["rows"].append(row)
    print(f"  {row['name']:34s} {row['per_s']:8.0f} responses/s  ({wall:.2f} s wall, {cpu:.2f} s CPU; {failures} parse failures)")

    if args.embed:
        from ipb.scoring.parse import default_embedder

        t0 = time.perf_counter()
        model = default_embedder()
        load = time.perf_counter() - t0
        used = sum(any(g.how == "embedding" for g in parse_response(t, c, embedder=model).gates) for c, t in corpus)
        wall, cpu = _timed(lambda: [parse_response(t, c, embedder=model) for c, t in corpus], 1)
        row = {"name": "with default embedder", "n": len(corpus), "best_s": wall, "cpu_s": cpu, "per_s": len(corpus) / wall,
               "model_load_s": load, "answers_matched_by_embedding": used}
        results["rows"].append(row)
        print(f"  {row['name']:34s} {row['per_s']:8.0f} responses/s  (model load {load:.1f} s, not counted; {used} answers used it)")

    _megabyte_rows(args, corpus, by_id, results)
    realistic = _realistic(corpus)
    buffett = by_id["buffett_acquisition_checklist"]
    print("scaling of the realistic text (seconds per MB should stay flat):")
    for size in (125_000, 250_000, 500_000, MB):
        text = realistic[:size]
        wall, cpu = _timed(lambda: parse_response(text, buffett, embedder=False), args.repeat)
        results["scaling"].append({"chars": size, "best_s": wall, "cpu_s": cpu, "s_per_mb": wall * MB / size})
        print(f"  {size:>9,} chars  {wall:6.3f} s  ({wall * MB / size:.2f} s/MB)")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Accuracy of the response parser on the labelled answer corpus (issue 13 item 1; paper §7.5).

Run from the repository root::

    .venv/bin/python bench/parse_accuracy.py [--split tuned|heldout|all] [--embedder on|off|both]
                                             [--corpus DIR] [--ids PREFIX] [--json OUT] [--cases] [--elements]
                                             [--confidence]

``--cases``, ``--elements`` and ``--json`` list per-answer readings for the tuned split only;
heldout answers appear in the figures and never one by one.

Every case of ``tests/scoring/corpus/*.yaml`` (format and split rule:
``tests/scoring/corpus/README.md``) is parsed and compared with its hand
labels, in two configurations, each printed under its own heading:

``embedder on`` (the default of ``ipb parse`` and ``ipb score``)
    ``parse_response(text, card)``: the paraphrase fallback with the default
    embedder (all-MiniLM-L6-v2, offline; loading it takes about 20 s of CPU).
    This is what users get, and what issue 13's bar refers to.
``embedder off`` (``--no-embed``)
    ``parse_response(text, card, embedder=False)``: rules only, a few seconds.

``--embedder both`` (the default) reports both; ``on`` or ``off`` only one
(``--embedder`` alone, as before, means ``on``). Figures are printed per
split (``tuned``, ``heldout``, ``all``) and per phenomenon tag, each with the
count it is computed over:

gate-verdict accuracy
    Over every labelled gate whose label is a verdict (PROCEED, REJECT,
    INCONCLUSIVE, N/A; "-" means discussed without a verdict and is left
    out): share where the parser reports that gate with the same verdict. A
    labelled gate the parser missed, or a parse failure, counts as wrong.
gate detection precision / recall
    Labelled gate numbers against parsed gate numbers, summed over answers
    (micro-averaged). A parse failure parses no gates: recall loses them,
    precision is unaffected.
order agreement
    Share of answers whose parsed gate sequence equals the labelled one.
final-verdict accuracy
    Share of answers whose parsed final verdict equals the label; a null
    label is right only when the parser also reports none.
invented-gate false positives
    Share of answers where the parser reports any invented gate that is not
    among the labelled ``invented_gates`` (a parsed name matches a label when
    one contains the other, compared on lower-case letters and digits).
element recall
    Over answers with ``elements`` labelled: labelled (gate, element) pairs
    the parser also reports for that gate. Labels are the card's
    ``required_elements`` strings, templates included; the parser reports an
    element as the engine renders it (its ``{field}`` filled with the value it
    read), so a label ``"current ratio {current_ratio} (at least 2)"`` is
    found by the reading ``"current ratio 1.3 (at least 2)"``: the template's
    text must match exactly, each field by any non-empty value. Whether the
    value read is the right one is not labelled and not scored here.
implied-final accuracy
    Over answers whose ``final_verdict`` label is null (the text states
    none): share where the parser's ``implied_final_verdict`` (the outcome a
    trace ending in a kill implies) equals the label's
    ``implied_final_verdict`` (absent: none implied). A parse failure, or a
    final verdict the parser reads where none is stated, implies nothing.

``--confidence`` adds, per split (and per ``--ids`` prefix when several are
given), coverage and accuracy of gate and final verdicts at confidence
thresholds, a reliability table and the AUROC of confidence for right
against wrong readings (definitions: ``bench/confidence_figures.py``); a gate
not found and a parse failure have no confidence and are never covered.

Unreadable answers are never dropped: a ``parse_failure`` counts as wrong on
every figure it touches, and the number of failures is printed. A failure in
which no gate was recognised still carries the final verdict it states
(``ipb score`` credits it on VerdictAcc alone), so its final verdict is
compared like any other. The
``heldout`` split must never be used to tune the parser.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from ruamel.yaml import YAML

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
import confidence_figures  # noqa: E402 - bench/confidence_figures.py, beside this file
DEFAULT_CORPUS = ROOT / "tests" / "scoring" / "corpus"
NO_VERDICT = "-"


def _parser() -> Callable[..., Any]:
    """The parser under test: the one import of it, so a parser turned into a package still resolves."""
    from ipb.scoring.parse import parse_response

    return parse_response


def _embedder_missing() -> str | None:
    """Why the parser's default embedder cannot be loaded here, or None when it loads (it is then kept for the run)."""
    try:
        from ipb.scoring.parse import default_embedder

        default_embedder()
    except Exception as exc:  # noqa: BLE001 - any failure to load means the 'on' configuration cannot be measured
        return f"{type(exc).__name__}: {exc}"
    return None


def split_of(case_id: str) -> str:
    """``heldout`` when int(sha256(id), 16) % 5 == 0, else ``tuned`` (the corpus rule)."""
    return "heldout" if int(hashlib.sha256(case_id.encode("utf-8")).hexdigest(), 16) % 5 == 0 else "tuned"


def load_corpus(folder: Path) -> list[dict[str, Any]]:
    """Every case of every ``*.yaml`` under ``folder``, in file then case order.

    Raises
    ------
    SystemExit
        A file that is not a YAML list of mappings, or a case whose ``split``
        disagrees with the hash rule (the message names file and case).
    """
    yaml = YAML(typ="safe")
    cases: list[dict[str, Any]] = []
    for path in sorted(folder.glob("*.yaml")):
        data = yaml.load(path.read_text(encoding="utf-8"))
        if not isinstance(data, list) or not all(isinstance(c, dict) for c in data):
            raise SystemExit(f"{path}: not a YAML list of cases")
        for k, case in enumerate(data, start=1):
            if case.get("split") != split_of(str(case.get("id"))):
                raise SystemExit(f"{path}: case {k} ({case.get('id')}): split is not the sha256 rule's")
            case["_file"] = path.name
            cases.append(case)
    return cases


def _norm(label: object) -> str:
    """Lower case, letters and digits only: "Step 3 - Financial strength" contains "financialstrength"."""
    return re.sub(r"[^a-z0-9]+", "", str(label).lower())


_FIELD = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*\}")


def element_found(label: str, readings: set[str] | list[str]) -> bool:
    """Whether a labelled element (a ``required_elements`` string) is among the parser's rendered ``readings``.

    Exact text matches; a template matches any reading that is its text with
    every ``{field}`` replaced by a non-empty value ("P/B {pb} (max 1.5)"
    is found by "P/B 1.2x (max 1.5)", never by "P/B (max 1.5)").

    Examples
    --------
    >>> element_found("current ratio {cr} (at least 2)", {"current ratio 1.3 (at least 2)"})
    True
    >>> element_found("current ratio {cr} (at least 2)", {"current ratio (at least 2)"})
    False
    """
    if label in readings:
        return True
    pieces = _FIELD.split(label)
    if len(pieces) == 1:
        return False
    pattern = re.compile("".join(re.escape(p) + (".+?" if i < len(pieces) - 1 else "") for i, p in enumerate(pieces)),
                         re.DOTALL)
    return any(pattern.fullmatch(r) is not None for r in readings)


def _labelled_gates(case: dict[str, Any]) -> list[tuple[int, str]]:
    out = []
    for item in case["expect"]["gates"]:
        number, verdict = str(item).split(" ", 1)
        out.append((int(number), verdict))
    return out


@dataclass
class Tally:
    """Counts behind one row of figures."""

    answers: int = 0
    failures: int = 0
    verdict_right: int = 0
    verdict_total: int = 0
    detect_tp: int = 0
    detect_parsed: int = 0
    detect_labelled: int = 0
    order_right: int = 0
    final_right: int = 0
    invented_fp: int = 0
    element_found: int = 0
    element_total: int = 0
    implied_right: int = 0
    implied_total: int = 0
    wrong: list[str] = field(default_factory=list)

    def add(self, other: "Tally") -> None:
        for name in ("answers", "failures", "verdict_right", "verdict_total", "detect_tp", "detect_parsed",
                     "detect_labelled", "order_right", "final_right", "invented_fp", "element_found", "element_total",
                     "implied_right", "implied_total"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.wrong.extend(other.wrong)

    def figures(self) -> dict[str, Any]:
        def ratio(a: int, b: int) -> float | None:
            return None if b == 0 else a / b

        return {
            "answers": self.answers,
            "parse_failures": self.failures,
            "gate_verdict_accuracy": ratio(self.verdict_right, self.verdict_total),
            "gate_verdicts": self.verdict_total,
            "gate_detection_precision": ratio(self.detect_tp, self.detect_parsed),
            "gate_detection_recall": ratio(self.detect_tp, self.detect_labelled),
            "order_agreement": ratio(self.order_right, self.answers),
            "final_verdict_accuracy": ratio(self.final_right, self.answers),
            "invented_gate_false_positive_rate": ratio(self.invented_fp, self.answers),
            "element_recall": ratio(self.element_found, self.element_total),
            "elements": self.element_total,
            "implied_final_accuracy": ratio(self.implied_right, self.implied_total),
            "implied_finals": self.implied_total,
        }


def score_case(case: dict[str, Any], parse: Callable[..., Any], embedder: Any) -> tuple[Tally, dict[str, Any]]:
    """Parse one case and compare with its labels; returns its tally and a record of what was read."""
    t = Tally(answers=1)
    expect = case["expect"]
    result = parse(case["text"], case["card"], embedder=embedder)
    ok = result.status == "ok"
    parsed = [(g.gate, g.verdict) for g in result.gates] if ok else []
    parsed_verdict = dict(parsed)
    parsed_elements = {g.gate: set(g.elements) for g in result.gates} if ok else {}
    labelled = _labelled_gates(case)
    confidence = {g.gate: getattr(g, "confidence", 1.0) for g in result.gates} if ok else {}
    gate_readings: list[tuple[float | None, bool]] = []
    problems: list[str] = []
    if not ok:
        t.failures = 1
        problems.append(f"parse_failure: {result.reason}")

    for number, verdict in labelled:
        if verdict == NO_VERDICT:
            continue
        t.verdict_total += 1
        got = parsed_verdict.get(number, "<missing>")
        gate_readings.append((confidence.get(number), got == verdict))
        if got == verdict:
            t.verdict_right += 1
        else:
            problems.append(f"gate {number}: {got} != {verdict}")

    want_numbers = {n for n, _ in labelled}
    got_numbers = {n for n, _ in parsed}
    t.detect_tp = len(want_numbers & got_numbers)
    t.detect_parsed = len(got_numbers)
    t.detect_labelled = len(want_numbers)

    want_seq = [n for n, _ in labelled]
    got_seq = [n for n, _ in parsed]
    if want_seq == got_seq:
        t.order_right = 1
    else:
        problems.append(f"order {got_seq} != {want_seq}")

    final = result.final_verdict  # a stated final verdict is read with no gate recognised, as ipb score reads it
    if final == expect["final_verdict"]:
        t.final_right = 1
    else:
        problems.append(f"final {final} != {expect['final_verdict']}")

    if expect["final_verdict"] is None:
        t.implied_total = 1
        implied = getattr(result, "implied_final_verdict", None) if ok else None
        if implied == expect.get("implied_final_verdict"):
            t.implied_right = 1
        else:
            problems.append(f"implied final {implied} != {expect.get('implied_final_verdict')}")

    allowed = [_norm(x) for x in expect.get("invented_gates") or []]
    extra = [name for name in (result.invented_gates if ok else [])
             if not any(a and (a in _norm(name) or _norm(name) in a) for a in allowed)]
    if extra:
        t.invented_fp = 1
        problems.append(f"invented {extra}")

    missed_elements: list[str] = []
    for number, names in (expect.get("elements") or {}).items():
        for name in names:
            t.element_total += 1
            if element_found(name, parsed_elements.get(int(number), set())):
                t.element_found += 1
            else:
                missed_elements.append(f"gate {number}: {name!r} (read: {sorted(parsed_elements.get(int(number), set()))})")

    if problems:
        t.wrong.append(f"{case['id']}: " + "; ".join(problems))
    record = {
        "id": case["id"],
        "split": case["split"],
        "status": result.status,
        "gates": [f"{n} {v}" for n, v in parsed],
        "final_verdict": final,
        "implied_final_verdict": getattr(result, "implied_final_verdict", None) if ok else None,
        "invented_gates": list(result.invented_gates) if ok else [],
        "problems": problems,
        "missed_elements": missed_elements,
        # (confidence or None when not read, right) of each labelled gate verdict and of the final verdict
        "confidence_gates": gate_readings,
        "confidence_final": (getattr(result, "final_confidence", 1.0) if ok else None, final == expect["final_verdict"]),
    }
    return t, record


def run(cases: list[dict[str, Any]], embedder: Any, prefixes: tuple[str, ...] = ()) -> dict[str, Any]:
    """Figures per split and per (split, phenomenon), confidence figures per split and per id prefix, per-case records."""
    parse = _parser()
    by_split: dict[str, Tally] = defaultdict(Tally)
    by_phen: dict[tuple[str, str], Tally] = defaultdict(Tally)
    records = []
    for case in cases:
        tally, record = score_case(case, parse, embedder)
        records.append(record)
        for split in (case["split"], "all"):
            by_split[split].add(tally)
            for tag in case.get("phenomena") or ["(none)"]:
                by_phen[(split, tag)].add(tally)
    groups: dict[str, tuple[list[Any], list[Any]]] = {}
    for record in records:
        for split in (record["split"], "all"):
            names = [split] + [f"{split} {p}*" for p in prefixes if record["id"].startswith(p) and len(prefixes) > 1]
            for name in names:
                gates, finals = groups.setdefault(name, ([], []))
                gates.extend(record["confidence_gates"])
                finals.append(record["confidence_final"])
    return {
        "version": 1,
        "embedder": embedder is not False,
        "confidence": {name: confidence_figures.figures(*groups[name]) for name in groups},
        "_confidence": groups,
        "splits": {s: by_split[s].figures() for s in ("tuned", "heldout", "all") if s in by_split},
        "phenomena": {s: {tag: by_phen[(s, tag)].figures() for (s2, tag) in sorted(by_phen) if s2 == s}
                      for s in ("tuned", "heldout", "all") if s in by_split},
        "cases": records,
        "_wrong": {s: by_split[s].wrong for s in by_split},
    }


#: How each configuration is named wherever its figures are printed.
CONFIG_TITLES = {
    "on": "embedder on (the default of ipb parse / ipb score; issue 13's bar)",
    "off": "embedder off (--no-embed: rules only)",
}


def _pct(x: float | None) -> str:
    return "   n/a" if x is None else f"{100 * x:5.1f}%"


HEADER = (f"{'':26} {'n':>4} {'fail':>4} {'verdict':>7} {'(n)':>5} {'det.P':>6} {'det.R':>6} {'order':>6} {'final':>6} {'inv.FP':>6} "
          f"{'elem.R':>6} {'(n)':>4} {'impl.':>6} {'(n)':>3}")


def _row(label: str, f: dict[str, Any]) -> str:
    return (f"{label:26} {f['answers']:4d} {f['parse_failures']:4d} {_pct(f['gate_verdict_accuracy']):>7} {f['gate_verdicts']:5d} "
            f"{_pct(f['gate_detection_precision']):>6} {_pct(f['gate_detection_recall']):>6} {_pct(f['order_agreement']):>6} "
            f"{_pct(f['final_verdict_accuracy']):>6} {_pct(f['invented_gate_false_positive_rate']):>6} "
            f"{_pct(f['element_recall']):>6} {f['elements']:4d} {_pct(f['implied_final_accuracy']):>6} {f['implied_finals']:3d}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="folder of corpus YAML files")
    ap.add_argument("--ids", metavar="PREFIX", action="append", default=[],
                    help="only cases whose id starts with PREFIX (repeatable; e.g. 'n25-' for one blind batch)")
    ap.add_argument("--split", choices=["tuned", "heldout", "all"], default="all",
                    help="only cases of this split (default: all, reported per split)")
    ap.add_argument("--embedder", nargs="?", const="on", default="both", choices=["on", "off", "both"],
                    help="which configuration: 'on' (the default of ipb parse / ipb score: the embedding fallback with the "
                         "default embedder), 'off' (--no-embed, rules only) or 'both' (default; '--embedder' alone is 'on')")
    ap.add_argument("--elements", action="store_true",
                    help="list every labelled element the parser missed, per tuned-split answer, with what it read for "
                         "that gate (heldout answers are never listed)")
    ap.add_argument("--confidence", action="store_true",
                    help="per split (and per --ids prefix when several are given): coverage and accuracy of gate and final "
                         "verdicts at confidence thresholds, a reliability table and the AUROC of confidence for right vs "
                         "wrong readings (bench/confidence_figures.py)")
    ap.add_argument("--json", type=Path, help="also write the figures and per-case readings as JSON here")
    ap.add_argument("--cases", action="store_true",
                    help="list every tuned-split answer read wrongly, with what differed (heldout misreads are "
                         "only counted, never listed: nobody tunes on them)")
    args = ap.parse_args(argv)

    cases = load_corpus(args.corpus)
    if args.split != "all":
        cases = [c for c in cases if c["split"] == args.split]
    if args.ids:
        cases = [c for c in cases if c["id"].startswith(tuple(args.ids))]
    if not cases:
        ids = f" with ids starting {' or '.join(args.ids)}" if args.ids else ""
        print(f"no cases under {args.corpus} for split {args.split}{ids}", file=sys.stderr)
        return 1
    configs = [c for c in ("on", "off") if args.embedder in (c, "both")]
    if "on" in configs:
        missing = _embedder_missing()
        if missing is not None:
            # the parser would fall back to rules only and say so in each answer's notes: the 'on' row would be 'off'
            print(f"the default embedder is unavailable ({missing}): 'embedder on' is not measured", file=sys.stderr)
            configs.remove("on")
            if not configs:
                return 1
    results = {c: run(cases, None if c == "on" else False, tuple(args.ids)) for c in configs}
    print(f"parse accuracy on {len(cases)} corpus answers; parse failures count as wrong; 'verdict' leaves out gates "
          "labelled '-' (no verdict stated); 'impl.' is the implied final verdict over answers that state none")
    for config, result in results.items():
        print(f"\n== {CONFIG_TITLES[config]}")
        print(HEADER)
        for split, figures in result["splits"].items():
            print(_row(split, figures))
    for config, result in results.items():
        for split, tags in result["phenomena"].items():
            print(f"\nper phenomenon, split {split}, {CONFIG_TITLES[config]}")
            print(HEADER)
            for tag, figures in tags.items():
                print(_row("  " + tag, figures))
    for config, result in results.items():
        if args.confidence:
            print(f"\nconfidence, {CONFIG_TITLES[config]}: coverage = share of labelled verdicts read at confidence >= T "
                  "(a gate not found or a parse failure is never covered: it is review work); accuracy among the covered")
            for name, (gates, finals) in result["_confidence"].items():
                print("\n".join(confidence_figures.table(name, gates, finals)))
        if args.cases:
            wrong = result["_wrong"].get("tuned") or []
            print(f"\n{len(wrong)} tuned answers read wrongly ({CONFIG_TITLES[config]}):")
            for line in wrong:
                print("  " + line)
            n_held = len(result["_wrong"].get("heldout") or [])
            if "heldout" in result["splits"]:
                print(f"({n_held} heldout answers read wrongly; not listed)")
        if args.elements:
            missed = [c for c in result["cases"] if c["split"] == "tuned" and c["missed_elements"]]
            print(f"\n{sum(len(c['missed_elements']) for c in missed)} labelled elements missed in {len(missed)} tuned answers "
                  f"({CONFIG_TITLES[config]}):")
            for c in missed:
                for line in c["missed_elements"]:
                    print(f"  {c['id']}: {line}")
    if args.json:
        out: dict[str, Any] = {"version": 2, "default_configuration": "embedder_on", "configurations": {}}
        for config, result in results.items():
            body = {k: v for k, v in result.items() if not k.startswith("_") and k != "version"}
            # per-case readings of the tuned split only: heldout answers are scored, never shown
            body["cases"] = [c for c in body["cases"] if c["split"] == "tuned"]
            out["configurations"][f"embedder_{config}"] = body
        args.json.write_text(json.dumps(out, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

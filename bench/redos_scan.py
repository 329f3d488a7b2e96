"""A scan for slow (super-linear) regular expressions in ``ipb.scoring``, each tried after its own prefix.

Run from the repository root::

    .venv/bin/python bench/redos_scan.py [--sizes 2000,4000,8000] [--floor 0.05] [--only MODULE_WORDS] [--finditer]
        [--part K/N]

``--part K/N`` scans only the K-th of N deterministic slices (patterns sorted by their text and flags, every N-th
taken from the K-th, 1-based), so a full scan can run as N short runs on a busy machine; the parts of one N cover
every pattern once. Each flag names the module file and line where the global holding the pattern is assigned.

Stop 50's scan put a long run between "x" and "y." and timed every pattern on it; the two patterns that really hung
(the correction and ironic tails read after a verdict word) were not flagged, because their two stars over spacing
are only reached after a verdict word. This scan builds, for every pattern, the prefixes it accepts:

* its literal start and every cut of one string it matches, taken right before each repeat (``[ \\t]*``, ``\\s+``,
  ``.*?``...), derived from the pattern's parse tree (``re._parser``), first branch and a seeded random branch;
* a trigger's own literal (``scoring/_scan.Trigger``: the pattern is only tried where the literal stands);
* the answer's usual openings: a verdict word, a gate heading, "Final verdict:", a JSON key, a bold label.

Then each prefix is followed by a long run (spaces, tabs, both, stars, dashes, dots, newlines, "a a a", digits,
commas, brackets, no-break spaces) and an end nothing expects. It times ``match`` at the prefix (one attempt: what a
trigger pays, and what ``search`` pays per start) at the first size; a pair over 5 ms there is timed at every size. A
pair is flagged when its time grows more than 2.8x per doubling of the run (quadratic is 4x, linear 2x) and passes
``--floor`` seconds at the largest size. ``--finditer`` also times ``finditer`` over the whole text (a pattern whose
every start in the run scans to the run's end is quadratic there: a known, milder class, listed apart).

Patterns: every compiled pattern reachable from a module of ``ipb.scoring`` (module globals, their lists, tuples,
dicts and objects, trigger lists and their merged alternations, the grammar-built ones of languages.yaml and
gate_terms.yaml among them) after one parse of a small answer for every bundled card, and those in ``re``'s cache
then (patterns compiled inside functions). CPU time (``time.process_time``); an attempt past 3 s is cut by an alarm
and counted as 3 s. A bench, not a unit test: on a shared two-core machine it takes minutes.
"""

from __future__ import annotations

import argparse
import importlib
import math
import pkgutil
import random
import re
import re._constants as C  # type: ignore[import-not-found]
import re._parser as P  # type: ignore[import-not-found]
import signal
import sys
import time
from typing import Any, Iterator

RUNS: dict[str, str] = {
    "space": " ", "tab": "\t", "space-tab": " \t", "star": "*", "dash": "-", "dot": ".", "newline": "\n",
    "space-newline": " \n", "a-a": "a ", "digit": "1", "comma": ",", "digit-comma": "1,", "bracket": "[", "paren": "(",
    "nbsp": "\u00a0", "pipe": "|", "underscore": "_",
}
END = "\u2603!"  # a snowman: no word, space, mark or digit any pattern waits for
OPENINGS = ["REJECT", "PROCEED", "pass", "Gate 1:", "Gate 1: REJECT", "## Gate 1", "Final verdict:", "Verdict:",
            '{"verdict": "', '{"gates": [{"gate": 1, "verdict": "REJECT', "**Decision**:", "| 1 | Moat | REJECT"]
CAP_S = 3.0


class _Cut(Exception):
    pass


def _alarm(*_: Any) -> None:
    raise _Cut()


# --- which patterns -------------------------------------------------------------------------------------------------

def _modules() -> list[Any]:
    import ipb.scoring as top
    mods = [top]
    for info in pkgutil.walk_packages(top.__path__, "ipb.scoring."):
        try:
            mods.append(importlib.import_module(info.name))
        except Exception as exc:  # a module that cannot load is reported, not fatal to the scan
            print(f"# skipped {info.name}: {type(exc).__name__}: {exc}", file=sys.stderr)
    return mods


def _warm_up() -> None:
    """Parse one small answer per bundled card, so card-built and lazily built patterns exist."""
    from ipb.engine.registry import bundled_card_paths, compiled_card
    from ipb.scoring.parse import parse_response
    for path in bundled_card_paths():
        card = compiled_card(str(path)).card
        text = "\n".join(f"Gate {g.number} ({g.name}): {'PROCEED' if i else 'REJECT, not PROCEED'}"
                         for i, g in enumerate(card.gates)) + f"\n\nFinal verdict: {card.outcomes['fail']}"
        try:
            parse_response(text, card)
        except Exception as exc:
            print(f"# warm-up parse failed for {path.name}: {exc}", file=sys.stderr)


def _walk(obj: Any, where: str, depth: int, seen: set[int], out: dict[tuple[str, int], tuple[re.Pattern[str], str, str]]) -> None:
    if id(obj) in seen or depth > 5:
        return
    seen.add(id(obj))
    if isinstance(obj, re.Pattern):
        if isinstance(obj.pattern, str):
            out.setdefault((obj.pattern, obj.flags), (obj, where, ""))
        return
    kind = type(obj).__name__
    if kind == "Trigger":
        pat = obj.pattern
        if type(pat).__name__ == "LazyPattern":  # compiled at its first match in use; compiled here to be timed
            pat = pat.compiled()
        if isinstance(pat, re.Pattern):
            key = (pat.pattern, pat.flags)
            if key not in out or not out[key][2]:
                out[key] = (pat, where + f"[trigger {obj.literal!r}]", obj.literal)
        return
    if kind == "LazyPattern":  # a merged alternation (or another lazy pattern) outside a trigger
        pat = obj.compiled()
        out.setdefault((pat.pattern, pat.flags), (pat, where + "[merged]", ""))
        return
    if isinstance(obj, (str, bytes, int, float, bool, type(None))) or callable(obj) and not hasattr(obj, "__dict__"):
        return
    if isinstance(obj, dict):
        for k, v in list(obj.items()):
            _walk(v, f"{where}[{k!r}]"[:120], depth + 1, seen, out)
    elif isinstance(obj, (list, tuple, set, frozenset)):
        for i, v in enumerate(list(obj)):
            _walk(v, f"{where}[{i}]", depth + 1, seen, out)
    elif type(obj).__module__.startswith("ipb.") and not isinstance(obj, type):
        for name in getattr(obj, "__slots__", ()) or ():
            _walk(getattr(obj, name, None), f"{where}.{name}", depth + 1, seen, out)
        for name, v in getattr(obj, "__dict__", {}).items():
            _walk(v, f"{where}.{name}", depth + 1, seen, out)


def patterns(only: str = "") -> list[tuple[re.Pattern[str], str, str]]:
    """(pattern, where it was found, trigger literal or '') for every distinct compiled pattern of ipb.scoring."""
    mods = _modules()
    _warm_up()
    out: dict[tuple[str, int], tuple[re.Pattern[str], str, str]] = {}
    seen: set[int] = set()
    for mod in mods:
        if only and only not in mod.__name__:
            continue
        for name, val in list(vars(mod).items()):
            if name.startswith("__") or isinstance(val, type(re)):
                continue
            _walk(val, f"{mod.__name__}.{name}", 0, seen, out)
    if not only:
        for val in list(getattr(re, "_cache", {}).values()):
            _walk(val, "re._cache", 0, seen, out)
    return list(out.values())


# --- which prefixes -------------------------------------------------------------------------------------------------

_REPEATS = {C.MAX_REPEAT, C.MIN_REPEAT, getattr(C, "POSSESSIVE_REPEAT", C.MAX_REPEAT)}


def _class_char(items: list[Any], rnd: random.Random | None) -> str:
    """A character the set ``items`` (an IN node) accepts."""
    negate = any(op is C.NEGATE for op, _ in items)
    if negate:
        banned = {av for op, av in items if op is C.LITERAL}
        for ch in "xaQ7":
            if ord(ch) not in banned:
                return ch
        return "\u2603"
    picks: list[str] = []
    for op, av in items:
        if op is C.LITERAL:
            picks.append(chr(av))
        elif op is C.RANGE:
            picks.append(chr(av[0]))
        elif op is C.CATEGORY:
            picks.append({C.CATEGORY_DIGIT: "1", C.CATEGORY_SPACE: " ", C.CATEGORY_WORD: "a",
                          C.CATEGORY_NOT_DIGIT: "a", C.CATEGORY_NOT_SPACE: "a", C.CATEGORY_NOT_WORD: " "}.get(av, "a"))
    if not picks:
        return "a"
    return rnd.choice(picks) if rnd else picks[0]


def _sample(items: Any, rnd: random.Random | None, parts: list[str], cuts: list[int], groups: dict[int, str]) -> None:
    """Append to ``parts`` one string ``items`` matches; note in ``cuts`` the length before every repeat."""
    for op, av in items:
        if op is C.LITERAL:
            parts.append(chr(av))
        elif op is C.NOT_LITERAL:
            parts.append("x" if av != ord("x") else "y")
        elif op is C.ANY:
            parts.append("a")
        elif op is C.IN:
            parts.append(_class_char(av, rnd))
        elif op is C.BRANCH:
            branches = av[1]
            _sample(rnd.choice(branches) if rnd else branches[0], rnd, parts, cuts, groups)
        elif op is C.SUBPATTERN:
            group, _, _, sub = av
            start = len("".join(parts))
            _sample(sub, rnd, parts, cuts, groups)
            if group:
                groups[group] = "".join(parts)[start:]
        elif op in _REPEATS:
            low, high, sub = av
            cuts.append(len("".join(parts)))
            times = max(low, 1) if high else 0
            times = min(times, high, 3)
            for _ in range(times):
                _sample(sub, rnd, parts, cuts, groups)
        elif op is getattr(C, "ATOMIC_GROUP", None):
            _sample(av, rnd, parts, cuts, groups)
        elif op is C.GROUPREF:
            parts.append(groups.get(av, ""))
        elif op is C.GROUPREF_EXISTS:
            _sample(av[1], rnd, parts, cuts, groups)
        # AT (anchors), ASSERT and ASSERT_NOT (look-arounds) add nothing


def prefixes(pat: re.Pattern[str], literal: str, limit: int = 8) -> list[str]:
    """The prefixes ``pat`` is tried after: see the module's docstring."""
    found: list[str] = [""]
    if literal:
        found.append(literal)
    try:
        tree = P.parse(pat.pattern, pat.flags & ~re.UNICODE)
    except Exception:
        tree = None
    if tree is not None:
        for rnd in (None, random.Random(51)):
            parts: list[str] = []
            cuts: list[int] = []
            _sample(list(tree), rnd, parts, cuts, {})
            text = "".join(parts)
            for cut in cuts + [len(text)]:
                found.append(text[:cut])
    found += OPENINGS
    unique: list[str] = []
    for p in found:
        if p not in unique:
            unique.append(p)
    # the pattern's own cuts first, then the openings; the longest cut of each sample is kept within ``limit``
    return unique[: limit + len(OPENINGS)]


# --- timing ---------------------------------------------------------------------------------------------------------

def _time(fn: Any) -> float:
    signal.setitimer(signal.ITIMER_REAL, CAP_S)
    start = time.process_time()
    try:
        fn()
    except _Cut:
        return CAP_S
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    return time.process_time() - start


def _text(prefix: str, run: str, n: int) -> str:
    return prefix + run * (n // len(run)) + END


def _growth(times: list[float]) -> float:
    """The mean growth per doubling between the first and the last size (sizes double each step)."""
    lo, hi = max(times[0], 1e-4), max(times[-1], 1e-4)
    return math.pow(hi / lo, 1 / (len(times) - 1))


def part_of(pats: list[tuple[re.Pattern[str], str, str]], part: str) -> list[tuple[re.Pattern[str], str, str]]:
    """The K-th (1-based) of N slices of ``pats`` for ``part`` = "K/N": sorted by (pattern text, flags), every N-th.

    Raises ValueError naming the bad value unless 1 <= K <= N.
    """
    try:
        k, n = (int(x) for x in part.split("/"))
    except ValueError:
        raise ValueError(f"--part must be K/N with whole numbers, got {part!r}") from None
    if not 1 <= k <= n:
        raise ValueError(f"--part K/N needs 1 <= K <= N, got {part!r}")
    ordered = sorted(pats, key=lambda t: (t[0].pattern, t[0].flags))
    return ordered[k - 1::n]


def _rel(path: str) -> str:
    """``path`` from the package's folder on (scoring/...), the repository's own layout."""
    return path[path.rfind("/scoring/") + 1:] if "/scoring/" in path else path


def locate(where: str) -> str:
    """"file:line" of the assignment of the module global that ``where`` starts with (ipb.scoring.mod.NAME...)."""
    bits = where.split("[")[0].split(".")
    if bits[0] != "ipb":  # re._cache: compiled inside a function, no global to point at
        return "?"
    for cut in range(len(bits) - 1, 0, -1):
        mod = sys.modules.get(".".join(bits[:cut]))
        path = getattr(mod, "__file__", None)
        if path:
            name = bits[cut]
            with open(path, encoding="utf-8") as fh:
                for no, line in enumerate(fh, 1):
                    if re.match(rf"{re.escape(name)}\s*(:[^=]*)?=", line):
                        return f"{_rel(path)}:{no}"
            return f"{_rel(path)}:?"
    return "?"


def scan(pats: list[tuple[re.Pattern[str], str, str]], sizes: list[int], floor: float, finditer: bool) -> Iterator[str]:
    how = [("match", lambda p, s: p.match(s))] + ([("finditer", lambda p, s: list(p.finditer(s)))] if finditer else [])
    for pat, where, literal in pats:
        for prefix in prefixes(pat, literal):
            for run_name, run in RUNS.items():
                for mode, call in how:
                    first = _time(lambda: call(pat, _text(prefix, run, sizes[0])))
                    if first < 0.005:
                        continue
                    times = [first] + [_time(lambda n=n: call(pat, _text(prefix, run, n))) for n in sizes[1:]]
                    growth = _growth(times)
                    if growth > 2.8 and times[-1] > floor:
                        yield (f"{mode}\t{growth:.1f}x/doubling\t" + "\t".join(f"{t:.3f}" for t in times)
                               + f"\t{where}\t{locate(where)}\tprefix={prefix!r}\trun={run_name}\t/{pat.pattern[:160]}/")
                        break
                else:
                    continue
                break
            else:
                continue
            break  # one flag per pattern is enough to locate it


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="2000,4000,8000", help="run lengths, each double the last (default 2000,4000,8000)")
    ap.add_argument("--floor", type=float, default=0.05, help="flag only pairs over this many CPU seconds at the largest size")
    ap.add_argument("--only", default="", help="only patterns of modules whose name contains this")
    ap.add_argument("--part", default="", help="K/N: scan only the K-th of N deterministic slices of the patterns")
    ap.add_argument("--finditer", action="store_true", help="also time finditer over the whole text")
    args = ap.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    signal.signal(signal.SIGALRM, _alarm)
    started = time.process_time()
    pats = patterns(args.only)
    if args.part:
        try:
            pats = part_of(pats, args.part)
        except ValueError as exc:
            print(f"redos_scan: {exc}", file=sys.stderr)
            return 2
    print(f"# {len(pats)} patterns{' (part ' + args.part + ')' if args.part else ''}; sizes {sizes}; runs {', '.join(RUNS)}", flush=True)
    flagged = 0
    for line in scan(pats, sizes, args.floor, args.finditer):
        flagged += 1
        print(line, flush=True)
    print(f"# flagged {flagged}; {time.process_time() - started:.0f} s of CPU")
    return 1 if flagged else 0


if __name__ == "__main__":
    sys.exit(main())

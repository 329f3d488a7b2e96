"""What the parser tests share: reading an answer into its ``(gate, verdict)`` list or its final verdict with the
embedder off, and bodies of gate lines (Graham's, the Dalio bubble gauge's) that closing sentences are appended to."""

from __future__ import annotations

import contextlib
import re
import signal
import subprocess
import sys
from pathlib import Path
from typing import Iterable, Iterator

import yaml

from ipb.scoring.parse import parse_response


@contextlib.contextmanager
def bounded(seconds: int) -> Iterator[None]:
    """Fail (not hang) when the block runs longer than ``seconds``: the pathological-input tests' bound."""

    def stop(signum: int, frame: object) -> None:
        raise TimeoutError(f"over the {seconds} s bound")

    old = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def read_gates(text: str, card: str) -> list[tuple[int, str | None]]:
    """``(gate, verdict)`` of every gate the parser finds in ``text`` for ``card``, in answer order; the parse
    must succeed (its reason is the assertion message)."""
    result = parse_response(text, card, embedder=False)
    assert result.status == "ok", result.reason
    return [(g.gate, g.verdict) for g in result.gates]


def gate_reading(text: str, card: str, gate: int) -> tuple[str | None, float] | None:
    """``(verdict, confidence)`` of gate ``gate`` as the parser reads it in ``text`` for ``card`` (rules only), or None
    when the gate is not found; the parse must succeed (its reason is the assertion message)."""
    parsed = parse_response(text, card, embedder=False)
    assert parsed.status == "ok", parsed.reason
    found = [g for g in parsed.gates if g.gate == gate]
    return (found[0].verdict, found[0].confidence) if found else None


def gate_verdicts(text: str, card: str) -> dict[int, str | None]:
    """Gate number -> verdict of every gate the parser finds in ``text`` for ``card`` (rules only)."""
    return {g.gate: g.verdict for g in parse_response(text, card, embedder=False).gates}


#: Three gate lines of Graham's seven tests (one REJECT) that the final-verdict tests put before a closing sentence.
GRAHAM_BODY = (
    "Adequate Size of the Enterprise: PROCEED, revenue is about $9bn.\n"
    "Sufficiently Strong Financial Condition: REJECT, current assets cover current liabilities only 1.3 times.\n"
    "Earnings Stability: PROCEED, no loss year in the decade.\n\n"
)

#: Dalio's bubble gauge card and four of its gauges reading hot: the body the closing sentences of the risk-act tests
#: (a writer cutting or holding their weight) follow.
BUBBLE = "dalio_bubble_detection_gauge"
BUBBLE_BODY = (
    "Prices versus traditional measures: high, 14x sales against a 4x norm.\n"
    "New buyers entering: yes, account openings doubled.\n"
    "Leverage financing purchases: yes, margin debt at a record.\n"
    "Broadly bullish sentiment: yes.\n\n"
)


def final_of(body: str, closing: str, card: str) -> str | None:
    """The final verdict the parser reads in ``body + closing`` for ``card``; the parse must succeed."""
    result = parse_response(body + closing, card, embedder=False)
    assert result.status == "ok", result.reason
    return result.final_verdict


KLARMAN = "klarman_downside_first_process"


def klarman_three_gates(passed: str, failed: str, unknown: str) -> list[tuple[int, str | None]]:
    """Klarman's first three gates written as labels answered by a pass, a fail and an open word of one language,
    as read: the shape every language test file (s46lang onwards) checks its new word lists with."""
    text = (f"Downside Assessment: {passed}.\nMargin of Safety: {failed}.\n"
            f"Position Sizing and Portfolio Risk: {unknown}.\n")
    return read_gates(text, KLARMAN)


def runs_in_a_child(code: str) -> None:
    """Run ``code`` in a fresh Python process and require it to print "ok" within 60 s: a slow pattern's bad input
    (s51redos, s51redos2) is timed out there, never by a tight timed assertion in the test process."""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "ok", done.stdout[-500:]


_ROOT = Path(__file__).parents[2]


def language_words(codes: Iterable[str], acts_codes: Iterable[str] | None = None) -> tuple[set[str], set[str]]:
    """The words of grammar/languages.yaml, lower-cased, as ``(new, old)``: every string of the ``languages``
    blocks named in ``codes`` and of all other blocks (a block's ``name`` is no word). With ``acts_codes`` the
    ``acts`` blocks are read too, those named there counting as new; without it they are not read."""
    doc = yaml.safe_load((_ROOT / "grammar" / "languages.yaml").read_text(encoding="utf-8"))
    codes, acts = set(codes), None if acts_codes is None else set(acts_codes)

    def walk(node: object, into: set[str]) -> None:
        if isinstance(node, str):
            into.add(node.lower())
        elif isinstance(node, list):
            for item in node:
                walk(item, into)
        elif isinstance(node, dict):
            for key, value in node.items():
                if key != "name":
                    walk(value, into)

    new: set[str] = set()
    old: set[str] = set()
    for code, block in doc["languages"].items():
        walk(block, new if code in codes else old)
    for code, block in (doc["acts"].items() if acts is not None else ()):
        walk(block, new if code in acts else old)
    return new, old


def words_in_earlier_tuned_answers(words: Iterable[str], batch: int) -> list[tuple[str, str]]:
    """``(case id, word)``, sorted, for each of ``words`` that stands as a whole word in a tuned corpus answer of a
    batch written before ``batch`` (``n<batch>-`` and later ids are left out; ids without a batch number are
    earlier). Held-out answers are never read."""
    words = sorted(set(words))
    hits = []
    for path in sorted((_ROOT / "tests" / "scoring" / "corpus").glob("*.yaml")):
        for case in yaml.safe_load(path.read_text(encoding="utf-8")) or []:
            number = re.match(r"n(\d+)-", case["id"])
            if case["split"] != "tuned" or (number is not None and int(number.group(1)) >= batch):
                continue
            text = case["text"].lower()
            hits += [(case["id"], w) for w in words if re.search(rf"(?<!\w){re.escape(w)}(?!\w)", text)]
    return sorted(hits)

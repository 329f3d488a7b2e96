"""Gates found without the answer's words: the items of a run that walks the card's gates in order (issue 13; §7.5).

The parser reads gates by their names: in English, in the languages of ``grammar/languages.yaml`` and in the card's
translations. An answer in a language nobody listed (Romanian, Hungarian, Finnish ...), or in English that names no
gate in words the card knows, is a parse failure ("no gate of the card recognised"), even when its layout says what a
reader who does not know the language can still see: the answer walks the card's gates one item each, in order,

- as a numbered list ``1.`` .. ``N.`` (or ``1)``, ``1/``) whose count is the card's gate count ``N``, each item with
  text of its own (a title, a paragraph under it), or
- as lines that open with one repeated label word and the numbers 1, 2, ... in order ("Πύλη 1 – ...", "Πύλη 2 – ...",
  "Kriteriul 1: ...", "Kriteriul 2: ..."): a word the writer uses as "Gate"; at most ``N`` of them, and in an answer
  that does not read as English at least two (a walk stopped by a kill names fewer than ``N``); in an English answer
  exactly ``N`` ("Step 1" .. "Step 3" of a writer's own three steps is no walk through a five-gate card), or
- in an answer that does not read as English, as ``N`` headings of one kind ("## ...", or lines bold from end to end),
  each with text under it (an English answer's headings are read by their words, or not at all).

:func:`wordless_reading` rewrites each item's opening, length for length, into the label ``Gate k`` (``1. Skąd`` becomes
``Gate 1:``; ``Πύλη 1`` becomes ``Gate 1``) and reads the rewritten answer again: the gates are then found by their
number, and their verdicts by everything the parser reads without the language's words (marks ✓ ✗ ✅ ❌ ⚠, English
verdict words kept in the text, the card's outcome words, a table's cells). Offsets are those of the answer, as the
rewriting keeps every character's place.

A gate found this way was never named: its confidence is at most :data:`WORDLESS_CAP` (under the review bar 0.7), so a
user routes it to review, and its ``how`` opens with :data:`WORDLESS`. The reading is tried only on an answer the parser
read no gate from (it never displaces a reading), the final verdict stays the one the first reading found, and a run
whose count does not fit the card is not read (no gate is invented: every number is a gate of the card).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ipb.scoring import verdict_words as vw
from ipb.scoring.outcome import reads_as_english
from ipb.scoring.parse._run_subjects import names_no_criteria
from ipb.scoring.parse._types import ParsedResponse

#: GateTrace.how of a gate found by its item's place in a run (the rest of ``how`` says how the rewritten label was read).
WORDLESS = "wordless"
#: The highest confidence of a gate found by place alone: under the review bar (0.7) of ``ipb score --min-confidence``.
WORDLESS_CAP = 0.55
#: The least number of non-space characters an item holds (its line and any lines under it): a list of bare facts or
#: names ("1. ROIC 18%") is no walk through the card's gates.
MIN_ITEM_CHARS = 40
#: The most rewritings read again for one answer (each is a whole second parse): a bound for a long answer of many lists.
MAX_REWRITINGS = 3

#: A numbered item: optional indent and emphasis, 1-2 digits, then ".", ")", ":" or "/" and a space.
_NUMBERED = re.compile(r"^(?P<indent>[ \t]*)(?P<lead>(?:[*_#>]+[ \t]*)?)(?P<num>\d{1,2})[.):/](?=[ \t])", re.MULTILINE)
#: A line opening with a label word of four or more letters (or two joined by a hyphen) and a number 1-99 that is no
#: figure ("Πύλη 1 –", "Check-Point 2:").
_LABELLED = re.compile(r"^(?P<indent>[ \t]*)(?P<lead>(?:[*_#>]+[ \t]*)?)"
                       r"(?P<word>[^\W\d_]{4,24}|[^\W\d_]{2,12}-[^\W\d_]{2,12})[ \t]+(?P<num>\d{1,2})"
                       r"(?=[ \t]*(?:[:.)\u2013\u2014-]|$))(?![.,]\d)", re.MULTILINE)
#: A heading line: a markdown heading ("## Wo stehen wir?") or a line bold from its start to its end, but for a short
#: tail such as a citation ("**Passt die Haltung zur Phase?** [1]"); the numbered form is read by :data:`_NUMBERED`.
_HEADING = re.compile(r"^[ \t]*(?:(?P<hashes>#{1,6})[ \t]+(?!\d{1,2}[.):/][ \t])\S[^\n]{2,120}"
                      r"|(?P<bold>\*\*|__)(?!\d{1,2}[.):/][ \t])[^\n*_]{3,120}(?P=bold)[ \t]*(?:\[\d{1,2}\])?)[ \t]*$",
                      re.MULTILINE)
_WORD = re.compile(r"[^\W\d_]+")
#: Characters of an item's title the rewriting may cover: letters, spaces and plain punctuation (never a mark, a digit
#: or an emoji, which may carry the verdict).
_COVERABLE = re.compile(r"[^\W\d_]|[ \t#.,:;'\"\u2018\u2019\u201c\u201d\u201e\u00ab\u00bb()*_-]")
#: An item's opening label: a word (two joined by a hyphen) and a colon after the number and any emphasis ("1. Risk:
#: ...", "2) **Catalyst:** ..."); one label on every item names the kind of the list's items. A dash after the word is
#: left out: "1. lépés – A négy környezet" (Hungarian "step 1 – <title>") is an ordinal and a title, a walk.
_ITEM_LABEL = re.compile(r"[ \t]*[*_]*[ \t]*(?P<word>[^\W\d_]{2,24}(?:-[^\W\d_]{2,12})?)[*_]*[ \t]*(?::|\uff1a)")
#: A plus or minus sign standing as an item's verdict: alone at the end of a line, after a colon or a space ("3.
#: Madhësia e pozicionit: -", "Vlerësimi: (+)"), or alone on its line; never a figure's sign ("25 -", "-3%") nor a
#: bullet, whose text follows it. A writer with no verdict word the parser knows marks a pass and a fail so.
_SIGN = re.compile(r"(?:(?<=[:\uff1a])|(?<=[ \t])|(?<=^))[ \t]*\(?(?P<sign>[+\-\u2212\u2013])\)?[ \t]*$", re.MULTILINE)
#: "Yes" or "No", the card's own language, as the answer after an item's label ("Kalon: Yes", "Vendimi: **No**"), the
#: last word of its line: a writer in another language answers the card's question so.
_YES_NO = re.compile(r"(?<=[:\uff1a])[ \t]*[*_]*(?P<word>yes|no)[*_]*[ \t.!]*$", re.MULTILINE | re.IGNORECASE)
#: A line of an item that is a label of the writer's language and a mark alone ("Kalon: ✓", "Dyfarniad: ⚠"): the
#: label, a word the parser does not know, would hold the mark as a field of its own; blanked, the mark is the item's.
_LABELLED_MARK = re.compile(r"^(?P<label>[ \t]*[*_]*[^\W\d_][^\W\d_' -]{0,30}[*_]*[:\uff1a])[ \t]*[*_]*"
                            r"[\u2713\u2714\u2705\u2717\u2718\u274c\u26a0]\ufe0f?[*_]*[ \t.!]*$", re.MULTILINE)
#: The sign -> the mark of the same verdict the parser reads (✓ PROCEED, ✗ REJECT), one character for one.
_SIGN_MARKS = {"+": "\u2713", "-": "\u2717", "\u2212": "\u2717", "\u2013": "\u2717"}
#: The least share of an English run's items the second reading must find a committed verdict in (PROCEED, REJECT,
#: INCONCLUSIVE or N/A): a list of risks, catalysts, questions or facts states none, and is no walk through the gates.
JUDGED_SHARE = 0.5


@dataclass(frozen=True)
class _Item:
    """One item of a run: ``start`` the offset where its label opens, ``k`` its number, ``indent`` its indent width."""

    start: int
    k: int
    indent: int
    end_label: int  # where the title the rewriting may cover starts: after the number and its ".", ")"; a heading's start


def _numbered_runs(text: str) -> list[list[_Item]]:
    """Every numbered list numbered 1, 2, ... in order at one indent (another indent's items are nested or apart)."""
    by_indent: dict[int, list[list[_Item]]] = {}
    for m in _NUMBERED.finditer(text):
        indent = len(m.group("indent").expandtabs(4))
        item = _Item(m.start("lead") if m.group("lead") else m.start("num"), int(m.group("num")), indent, m.end())
        runs = by_indent.setdefault(indent, [])
        if item.k == 1:
            runs.append([item])
        elif runs and runs[-1][-1].k == item.k - 1:
            runs[-1].append(item)
        elif runs:
            runs.append([])  # a number out of order ends the run
    return [run for runs in by_indent.values() for run in runs if run]


def _labelled_runs(text: str) -> list[list[_Item]]:
    """Every run of lines that open with one label word and the numbers 1, 2, ... in order ("Πύλη 1", "Πύλη 2")."""
    by_word: dict[str, list[_Item]] = {}
    spoiled: set[str] = set()
    for m in _LABELLED.finditer(text):
        word = m.group("word").lower()
        items = by_word.setdefault(word, [])
        k = int(m.group("num"))
        if k != len(items) + 1:
            spoiled.add(word)  # "Brief 7 ... brief 6": numbers of another series, not the card's places
        items.append(_Item(m.start("word"), k, len(m.group("indent").expandtabs(4)), m.end("num")))
    return [items for word, items in by_word.items() if word not in spoiled]


def _heading_runs(text: str) -> list[list[_Item]]:
    """The heading lines of each kind ("#", "##", bold), each kind one run numbered by its order."""
    by_kind: dict[str, list[_Item]] = {}
    for m in _HEADING.finditer(text):
        items = by_kind.setdefault(m.group("hashes") or m.group("bold"), [])
        start = m.start() + len(m.group(0)) - len(m.group(0).lstrip(" \t"))
        items.append(_Item(start, len(items) + 1, start - m.start(), start))
    return list(by_kind.values())


def _sections(text: str, run: list[_Item]) -> list[tuple[int, int]]:
    """The text of each item: from its label to the next item's, the last one to the end of its paragraph block (at
    most as long as the longest other section, and at least its own line)."""
    bounds = [(a.start, b.start) for a, b in zip(run, run[1:])]
    last = run[-1].start
    line_end = text.find("\n", last)
    line_end = len(text) if line_end < 0 else line_end
    longest = max((b - a for a, b in bounds), default=0)
    bounds.append((last, min(len(text), max(line_end, last + longest))))
    return bounds


def _kind_label(text: str, run: list[_Item]) -> str | None:
    """The label every item of a numbered run opens with ("Risk" of "1. Risk: ...", "2. Risk: ..."), lower-cased, or
    None when the items differ or one has none. A verdict word as the label ("1. Pass: ...") is a judgement, not a kind:
    None too."""
    words = set()
    for item in run:
        m = _ITEM_LABEL.match(text, item.end_label)
        if m is None:
            return None
        words.add(m.group("word").lower())
    if len(words) != 1:
        return None
    word = words.pop()
    if any(re.fullmatch(v.pattern, word, re.IGNORECASE) for v in vw.VERDICT_WORDS):
        return None
    return word


def _lead(text: str, start: int) -> str:
    """The paragraph right above offset ``start`` (across one blank line): a run's lead-in, "Key risks:" or a heading."""
    above = text[:start].rstrip().rsplit("\n\n", 1)[-1]
    return above[-300:]


def _rewritten(text: str, run: list[_Item], labelled: bool) -> str | None:
    """``text`` with each item's opening overwritten by "Gate k" (labelled form) or "Gate k: " (numbered form), and a
    lone plus or minus sign in an item standing as its verdict (:data:`_SIGN`), or a "Yes" or "No" answering its label
    (:data:`_YES_NO`), by the mark ✓ or ✗, and a label of the writer's own before a mark alone on its line blanked
    (:data:`_LABELLED_MARK`), length for length;
    None when an item's title is too short or holds a mark the rewriting would cover."""
    chars = list(text)
    for item in run:
        label = f"Gate {item.k}"
        if labelled:
            width = item.end_label - item.start
            if width < len(label):
                return None
            new = label + " " * (width - len(label))
            start = item.start
        else:
            new = label + ": "
            start = item.start
            stop = start + len(new)
            line_end = text.find("\n", start)
            line_end = len(text) if line_end < 0 else line_end
            if stop > line_end or not all(_COVERABLE.match(c) for c in text[item.end_label : stop]):
                return None
        chars[start : start + len(new)] = list(new)
    sections = _sections(text, run)
    for a, b in sections:
        for m in _SIGN.finditer(text, a, b):
            before = text[a : m.start()].rstrip(" \t(")
            if before[-1:].isdigit() or before[-1:] in "+-\u2212\u2013=<>":
                continue  # "limit 25 -", "a - b -": a figure's or a formula's, not a verdict
            chars[m.start("sign")] = _SIGN_MARKS[m.group("sign")]
        for m in _YES_NO.finditer(text, a, b):
            word = m.group("word")
            mark = "\u2713" if word.lower() == "yes" else "\u2717"
            chars[m.start("word") : m.end("word")] = list(mark + " " * (len(word) - 1))
    marked = "".join(chars)
    for a, b in sections:
        for m in _LABELLED_MARK.finditer(marked, a, b):
            if marked[m.start() : m.start() + 5] != "Gate ":  # an item's own rewritten opening keeps its label
                chars[m.start("label") : m.end("label")] = list(" " * (m.end("label") - m.start("label")))
    return "".join(chars)


def candidate_rewritings(text: str, n: int) -> list[str]:
    """The rewritings of ``text`` (:func:`_rewritten`) for the runs that may walk an ``n``-gate card, best first: the
    runs of exactly ``n`` numbered items, then the labelled runs; within each, the least indented and the one with the
    most text first (a plan of contents "1. ... 4." above the sections it lists is shorter than the sections); at most
    :data:`MAX_REWRITINGS` of them."""
    if n < 2:
        return []
    english = reads_as_english(text)
    scored: list[tuple[int, int, int, str]] = []
    kinds = [(False, _numbered_runs(text)), (True, _labelled_runs(text))]
    if not english:
        kinds.append((False, _heading_runs(text)))  # an English answer's headings are read by their words or not at all
    for labelled, runs in kinds:
        for run in runs:
            fits = len(run) == n or (labelled and not english and 2 <= len(run) < n)
            if not fits:
                continue
            sections = _sections(text, run)
            sizes = [sum(not c.isspace() for c in text[a:b]) for a, b in sections]
            if min(sizes) < MIN_ITEM_CHARS:
                continue
            if not labelled and len(run) >= 2 and _kind_label(text, run) is not None:
                continue  # "1. Risk: ...", "2. Risk: ...": a list of one kind of thing (risks, catalysts), not of gates
            if names_no_criteria(_lead(text, run[0].start)):
                continue  # "Risks I see:", "Sources:" right above the run: its items are the writer's own, not gates
            new = _rewritten(text, run, labelled)
            if new is not None:
                scored.append((int(labelled), run[0].indent, -sum(sizes), new))
    scored.sort(key=lambda t: t[:3])
    return [t[3] for t in scored[:MAX_REWRITINGS]]


def wordless_reading(first: ParsedResponse, second: ParsedResponse, n: int, english: bool = False) -> ParsedResponse | None:
    """The reading ``second`` of a rewritten answer, as the answer's reading: every gate's confidence capped at
    :data:`WORDLESS_CAP` and its ``how`` prefixed with :data:`WORDLESS`; the final verdict, its confidence and runner-up
    those of ``first`` (the reading of the answer as written), and the implied final verdict ``second``'s only where
    ``first`` states none. None when ``second`` reads no gate, or a gate outside 1..``n``, or, in an ``english``
    answer, a committed verdict in fewer than :data:`JUDGED_SHARE` of the ``n`` items: the parser knows English verdict
    words, so a run without them is a list of the writer's own (risks, catalysts, questions, facts), not a walk."""
    if not second.gates or any(not 1 <= g.gate <= n for g in second.gates):
        return None
    if english and sum(g.verdict is not None for g in second.gates) < JUDGED_SHARE * n:
        return None
    gates = [replace(g, confidence=round(min(g.confidence, WORDLESS_CAP), 4), how=f"{WORDLESS}+{g.how}")
             for g in second.gates]
    note = (f"no gate named in words the parser knows: {len(gates)} item(s) of a list or of labels numbered in the "
            f"card's order read as the card's gates by their place (how '{WORDLESS}', confidence at most {WORDLESS_CAP})")
    result = replace(second, gates=gates, status="ok", reason=None, notes=[*second.notes, note],
                     final_verdict=first.final_verdict, final_verdict_span=first.final_verdict_span,
                     final_confidence=first.final_confidence, final_runner_up=first.final_runner_up,
                     final_runner_up_span=first.final_runner_up_span, invented=first.invented)
    if first.final_verdict is not None:
        result = replace(result, implied_final_verdict=None, implied_final_gate=None, implied_final_span=None,
                         implied_final_confidence=0.0)
    return result


def capped_by_place(parsed: ParsedResponse, text: str) -> ParsedResponse:
    """``parsed`` with every gate's confidence capped at :data:`WORDLESS_CAP` where ``text`` does not read as English
    (:func:`reads_as_english`) and every gate it reads was met by its item's place alone (how ``position``,
    :mod:`._positional`): no title named a gate in words the parser knows, so the link of each item to its gate is the
    list's order, as a wordless reading's is (a Welsh list "1. Asesiad o'r anfantais ... ✓" for Klarman's card);
    unchanged otherwise. The language is read last, only for a reading the cap can change."""
    if not parsed.gates or any(g.how.split("+")[0] != "position" for g in parsed.gates):
        return parsed
    if all(g.confidence <= WORDLESS_CAP for g in parsed.gates) or reads_as_english(text):
        return parsed
    gates = [replace(g, confidence=round(min(g.confidence, WORDLESS_CAP), 4)) for g in parsed.gates]
    note = (f"every gate met by its item's place in a list, none named in words the parser knows: confidence at most "
            f"{WORDLESS_CAP}")
    return replace(parsed, gates=gates, notes=[*parsed.notes, note])

"""Gate labels with nothing of their own: template slots, not mentions (paper §7.5-7.6, issue 13).

The paper's gate sequence Ŝ is the gate labels the answer *mentions*, read by its SRP. A label that says nothing
about its gate is a slot of a template, just as "PASS/FAIL" after a label is no verdict:

* an empty heading ("Gate 3 Margin of Safety:" followed by the next gate, or a table row with empty cells);
* a list of the card's gate names ("Gates: Circle of Competence, Economic Moat, Margin of Safety.");
* a label whose only content is a slot or the outcome list ("Economic Moat: Pass / Fail / Unknown",
  "Margin of Safety: [your analysis here]", "Moat: TBD").

Such a gate is left out of the gate sequence, so out of GCF, tau, OGRS, NED and GRA's name match for every scorer. A
gate with a verdict read stays; so does one with any content of its own, even with no verdict read (an honest answer
whose verdict the rules miss keeps its coverage): a word that is not a gate name, numbering, frame word or slot word,
a figure that is not the gate's number, or a mark that is not punctuation (a status icon: ✓, ⚠).

:func:`drop_unmentioned` is the one call (from the parser's driver, after every gate reading and before elements, the
final verdict and entailed verdicts).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from typing import Any

from ipb.scoring.parse._types import GateTrace

__all__ = ["drop_unmentioned", "has_content"]

#: Numbering of a gate or item: "Gate 3", "Step 2", "Q1", "#4", "3.", "(2)", "3/6", "G1".
_NUMBERING = re.compile(r"\b(?:gate|step|stage|test|criterion|check|rule|question|item|part|lens|pillar|filter|screen|"
                        r"principle|point|factor|no|q|g|c|r|s)\.?[ \t]*#?\d{1,2}(?:[ \t]*(?:/|of)[ \t]*\d{1,2})?\b"
                        r"|#\d{1,2}\b|(?<![\w.,])\(?\d{1,2}[.)](?!\d)|\b\d{1,2}[ \t]*(?:/|of)[ \t]*\d{1,2}\b",
                        re.IGNORECASE)
#: A bracketed slot with no figure in it: "[your analysis here]", "<PASS or FAIL>", "{verdict}" (a check box, "[ ]" or
#: "[x]", is the writer's mark, not a slot: at least two letters inside).
_SLOT = re.compile(r"\[(?=[^\]\n]*[^\W\d_][^\]\n]*[^\W\d_])[^\]\d\n]{2,40}\]|<[^>\d\n]{0,40}>|\{[^}\d\n]{0,40}\}")
#: A gate verdict word standing alone is the writer's statement that the rules did not read ("Management: Unknown",
#: "| Moat | n/a |"); two or more of them are the choice a template offers ("Pass / Fail / Unknown"), and one asked
#: ("pass?") is a question.
_STATEMENT = frozenset("pass passes passed fail fails failed proceed reject inconclusive unknown yes no met na".split())
_ASKED = re.compile(r"[^\W\d_]+[ \t]*\?")
#: Words that frame a list or a template and say nothing about a gate: articles, list words, the verdict and outcome
#: slot words ("Pass / Fail / Unknown"), the placeholders of a form.
_FRAME = frozenset("""
a an the and or of for to on in at by with is are be will this these those following below above here there your my our
gate gates step steps stage stages test tests criterion criteria check checks checklist rule rules list framework card
question questions item items part parts lens lenses pillar pillars filter filters screen screens principle principles
point points factor factors section sections heading
verdict verdicts status result results outcome outcomes decision rating answer answers assessment evaluation
pass passes fail fails passed failed proceed reject inconclusive unknown yes no y n na tbd tbc todo pending blank empty
placeholder insert fill fill-in enter write none notes note comment comments reasoning evidence analysis detail details
invest decline hold sell buy avoid final overall conclusion recommendation bottom line summary
""".split())
_WORD = re.compile(r"[^\W\d_]+(?:['\u2019-][^\W\d_]+)*")
_DIGIT = re.compile(r"\d")
#: Marks that carry no content: ASCII punctuation, dashes, bullets, box-drawing and table rules, quotes.
_PUNCT = re.compile(r"[\s!-/:-@\[-`{-~\u2010-\u2027\u2500-\u257f\u00a0\u00b7\u00ab\u00bb]+")


def has_content(text: str, *, lone_verdict: bool = True) -> bool:
    """Whether ``text`` (a gate's section with its gate names already blanked) holds anything of its own.

    ``lone_verdict``: one gate verdict word alone counts (:data:`_STATEMENT`); off for the text that follows a label,
    where "Final: INVEST, DECLINE, INCONCLUSIVE" lists outcomes.

    >>> has_content("Gate 3 : Pass / Fail / Unknown")
    False
    >>> has_content("### Step 2: [your analysis here]")
    False
    >>> has_content(": retention is 94%")
    True
    >>> has_content(": \u2705")
    True
    >>> has_content(": Unknown"), has_content(": pass?"), has_content("- [x]")
    (True, False, True)
    >>> has_content("|  | FAIL | PASS |"), has_content("|  | Pass / Fail |")
    (True, False)
    """
    rest = _SLOT.sub(" ", _NUMBERING.sub(" ", text))
    cells = rest.split("|") if lone_verdict else [rest]  # a table row's cells each state their own ("| FAIL | PASS |")
    for cell in cells:
        words = [w.casefold() for w in _WORD.findall(_ASKED.sub(" ", cell.replace("n/a", "na").replace("N/A", "na")))]
        if any(w not in _FRAME for w in words) or (lone_verdict and len({w for w in words if w in _STATEMENT}) == 1):
            return True
    rest = _ASKED.sub(" ", rest)
    rest = _WORD.sub(" ", rest)
    if _DIGIT.search(rest):
        return True
    return bool(_PUNCT.sub("", rest))


#: How a label names its gate by the card's words for it (not by the gate's substance, facts or a paraphrase, which
#: are content of their own).
NAMED = frozenset({"name", "alias", "translation", "id", "number", "fuzzy", "words"})


#: How much of each range is read (characters): a template is short, and content shows in its first lines.
MAX_READ = 2000
#: The longest gate name a mention can be (characters): one begun this far before a range is still blanked in it.
MAX_NAME = 200


def _base(how: str) -> str:
    return how.split("+", 1)[0]


def _opens_line(text: str, start: int) -> bool:
    """Whether the mention at ``start`` opens its line as a label does (only numbering and marks before it)."""
    line = text.rfind("\n", max(0, start - MAX_NAME), start)
    if line < 0 and start > MAX_NAME:
        return False  # far into a long line: not a label that opens it
    return not has_content(text[line + 1 : start])


def _ranges(parser: Any, trace: GateTrace, named: list[tuple[int, int, tuple[int, ...]]],
            starts: list[int]) -> list[tuple[int, int, bool]]:
    """The text that belongs to ``trace``: every section of its gate, the unit that names it, and what follows that
    unit up to the next line labelled with another gate (a heading's body that the layout gave to no gate, to another
    gate or to the final verdict: "Formula" over the formula, "Margin of Safety" over "Verdict: DECLINE, the price is
    1.5x value"). The flag says whether a gate verdict word alone counts there (not in the text that follows)."""
    out = [(parser.units[g[0]].start, parser.units[g[-1]].end, True) for g in parser._section_units(trace.gate) if g]
    u = parser._unit_at(trace.mention[0])
    if u < 0:
        return out or [(trace.span[0], trace.span[1], True)]
    start, end = parser.units[u].start, parser.units[u].end
    out.append((start, end, True))
    text = parser.masked
    after = named[bisect_left(starts, end):]
    stop = next((s for s, _, gates in after if trace.gate not in gates and _opens_line(text, s)), len(text))
    out.append((end, max(end, stop), False))
    return out


def drop_unmentioned(parser: Any, traces: list[GateTrace]) -> list[GateTrace]:
    """``traces`` less the gates given no verdict, named by a label (:data:`NAMED`), whose every section, naming unit
    and following text up to the next gate label has no content of its own once the card's gate names are blanked
    (:func:`has_content`); a note counts them."""
    named = sorted((m.start, m.end, tuple(m.gates)) for m in parser.mentions
                   if m.invented is None and _base(m.how) in NAMED)
    starts = [s for s, _, _ in named]
    kept: list[GateTrace] = []
    dropped: list[int] = []
    for trace in traces:
        if trace.verdict is not None or _base(trace.how) not in NAMED:
            kept.append(trace)
            continue
        text = parser.masked
        content = False
        for start, end, lone in _ranges(parser, trace, named, starts):
            end = min(end, start + MAX_READ)  # content shows early; a long stretch is not read to its end
            piece = list(text[start:end])
            first = bisect_left(starts, start - MAX_NAME)  # a name begun a little before the range may run into it
            for s, e in [(s, e) for s, e, _ in named[first:bisect_left(starts, end)]] + [trace.mention]:
                for i in range(max(s, start), min(e, end)):
                    piece[i - start] = " "
            if has_content("".join(piece), lone_verdict=lone):
                content = True
                break
        if content:
            kept.append(trace)
        else:
            dropped.append(trace.gate)
    if dropped:
        parser.notes.append(f"{len(dropped)} gate label(s) with nothing of their own (an empty heading, a list of the "
                            f"card's gate names, a template slot) were not counted as mentioned: gate(s) "
                            f"{', '.join(str(g) for g in dropped)}")
    return kept

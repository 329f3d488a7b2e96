"""Items of a list or table read as the card's gates by their position (issue 13, gate detection on fresh text; paper §7.5).

An answer often walks through the card's criteria in the card's order with a title of its own for each: in another
language ("1. 能力圈 —— 通过"), in the writer's words ("• Taille : ... OK"), under circled numbers ("② 株価と成長"), or as
the rows of a table. When such a run has exactly as many items as the card has gates, and nothing in it contradicts the
card's order, a careful reader takes item k for gate k, even where no title names its gate.

A run is the numbered items of one list numbered 1..N, the items of one bulleted list, or the body rows of one table
(its header row left out). It is read by position only when all of these hold:

- it has exactly N items, N the card's gate count (N >= 2);
- no item names, or was matched by any means to, a gate other than the one of its position (a reordered list, or a list
  of named gates, is read by its names); a title sharing the card's words for another gate is matched to it by the
  card's vocabulary (:mod:`._vocabulary`) before this pass, so it stops the run too ("- Board : PASS" in place 1 of
  a card whose gate 3 speaks of the board's decision);
- no other run of the answer has the same item titles (a table of the same metrics for each of several stocks is a
  table per subject, not a walk through the card's gates);
- it is not a table whose header names subjects ("| Company | P/E | Verdict |", :mod:`._subject_tables`), its lead-in
  (the paragraph right above it) names no investor other than the card's ("Buffett's own checklist:"), and the card's
  gates are not all read by their names outside it (then it is a list of the writer's own: risks, notes);
- at least half of its items state a verdict word in their own lines: a list of facts, reasons or the writer's own
  questions is not a checklist ("1. Revenue in year 1 was $4B." ... "7. ..." for a seven-gate card; five questions of
  the writer's own whose order is not the card's), unless the run is numbered 1..N and its titles line up with the
  card's gates in order (:mod:`._aligned`: no title in another gate's words, at least half confirm their place): it is
  then read as ``aligned``.

An item keeps a reading it had of its own gate. A title the parser took for a gate the card lacks (FM-1) becomes the
gate of its position only in a run none of whose items the card's words name (a run the parser cannot read by names,
such as one in another language); beside named items it stays an invented gate. Items named by the card's names in
other languages (its translations sidecar, how "translation") do not count as named here: a sidecar gives a few usual
names per gate, and a title in the same language that none matches is the writer's own name for its place's gate; one
such item marks the whole run as written in another language, where the card's English words can confirm no title.
Nor does an item read by its number alone ("4. Продажа по оценке рисков" beside a figure) name its gate in words.
The confidence factor of a gate met this way is that of an embedding match (:data:`._confidence.RECOGNITION`).
"""

from __future__ import annotations

import re

from ipb.scoring._text import item_number
from ipb.scoring.outcome import reads_as_english
from ipb.scoring.parse._aligned import ALIGNED, aligned
from ipb.scoring.parse._common import _Anchor
from ipb.scoring.parse._foreign_names import TRANSLATION
from ipb.scoring.parse._foreign_terms import TERM
from ipb.scoring.parse._run_subjects import lead_in, names_no_criteria, subject_title
from ipb.scoring.parse._state import _ParserState
from ipb.scoring.parse._subject_tables import keyed_by_subject
from ipb.scoring.parse._types import Span
from ipb.scoring.parse._vocabulary import gate_vocabulary, stem_set

#: How a gate met by its item's position is recognised (GateTrace.how).
POSITION = "position"
#: Whitespace that indents a continuation line under a list item (the ideographic space included).
_INDENT = " \t\u3000"
#: a label's separator right after a gate's name: "Price below intrinsic value: FAIL", "Moat \u2014 PASS"
#: a paragraph that opens with a short question of the writer's own (at most ten words) and goes on after it
_OPENING_QUESTION = re.compile(r"[ \t]*((?:[^\W\d_][\w'\u2019-]*[ \t,]+){0,9}[^\W\d_][\w'\u2019-]*\?)(?=[ \t]+\S)")
#: a reference to a numbered rule of the writer's own: "Rule 1", "test #2", "Criterion 3", "check no. 4"
_ITEM_REFERENCE = re.compile(r"(?i)\b(?:rule|test|criterion|check|filter|point|step)[ \t]*(?:#|no\.?)?[ \t]*(\d{1,2})\b")
#: the end of an item's first sentence: "?", "!" or "." before a space or the line's end ("1.5x" is no end)
_SENTENCE_END = re.compile(r"[?!.](?=\s|$)")
_LABEL_SEPARATOR = re.compile(r"[ \t]*(?::|\uff1a|[-\u2013\u2014][ \t])")


class _PositionalMixin(_ParserState):
    """Anchors the untitled or unmatched items of a list or table that walks through the card's gates in order."""

    def _align_by_position(self) -> None:
        """Anchor item k of every run that passes the rules of the module docstring to gate k."""
        n = len(self.card.gates)
        if n < 2:
            return
        runs = [run for run in self._item_runs() if len(run) == n]
        titles = [tuple(self._item_title(li).strip().lower() for li in run) for run in runs]
        for run, own in zip(runs, titles):
            if all(own) and titles.count(own) > 1:
                continue  # the same rows again: one table (or list) per stock or scenario, not a walk through the card
            if self.lines[run[0]].kind == "table" and keyed_by_subject(self.masked, self.lines, run[0]):
                continue  # "| Company | P/E | Verdict |": one row per peer company, not one per gate
            if self._named_elsewhere(run):
                continue  # every gate is read by its name outside the run: the run is the writer's own list (risks, notes)
            if self._led_by_other_investor(run[0]):
                continue  # "Buffett's own checklist on the same stock:" then 1..N: that investor's checks, not the card's
            how = self._follows_card(run)
            if how is not None:
                # a worded title the parser took for a gate the card lacks keeps that reading beside items the card's
                # words name ("1. Owner earnings", "2. Insider buying", "3. Margin of safety"): the parser reads the
                # run's language, and the title names no gate of the card
                # (a name from the card's translations sidecar does not show that: those cover some gates' usual names,
                # and the writer's own title for another gate in the same language is no invented gate)
                # (nor does an item read by its number alone: "4. Продажа по оценке рисков" states its place, not
                # the card's words; and a run with a title the sidecar names is in another language: its other
                # titles are the writer's own names there, which the card's English words cannot confirm)
                # (nor, in an answer that does not read as English, does an item the card's English words name: there
                # they are a borrowed acronym or term, "Prag interne stope povrata (IRR)" in a Croatian table, and the
                # rows beside it, "Usklađenost s Vizijom 2030", are the writer's own names for their places' gates;
                # s47lang, n43-pif07-hrvatski-tablica; such a row is read under the review bar, as an unconfirmed
                # title is: its place alone links it to its gate)
                hows = {a.how for li in run if (a := self.anchors.get(li)) is not None and a.gate is not None}
                worded = not hows & {TRANSLATION, TERM} and bool(hows - {"number"})
                borrowed = worded and not reads_as_english(self.masked)
                named = worded and not borrowed
                unconfirmed = how == POSITION and (borrowed or self._unconfirmed_titles(run))
                for k, li in enumerate(run, start=1):
                    anchor = self.anchors.get(li)
                    if anchor is None or (anchor.gate is None and not named):
                        self.anchors[li] = _Anchor(k, how, self._item_span(li))
                        if unconfirmed:
                            self.unconfirmed.add(self._item_span(li))

    def _unconfirmed_titles(self, run: list[int]) -> bool:
        """Whether a run read by position is titled in the card's language (an English answer) with words none of which
        is any gate's (:func:`._vocabulary.gate_vocabulary`): "1. Check the logo: pass." ... "5. Check the app: fail."
        on a five-gate card are the writer's own five checks, not the card's (break42 #7); its readings go under the
        review bar (:data:`._vocabulary.UNCONFIRMED_FACTOR`). A title in another language, or an untitled item, says
        nothing either way and keeps the plain position reading; so does a label every item repeats ("- name: ...",
        "- step: ..." in a YAML list): a field's key, not the item's title."""
        if not reads_as_english(self.masked):
            return False
        card_words = set().union(*gate_vocabulary(self.card).values())
        titles = [stem_set(self._aligned_title(li)) for li in run]
        if not all(titles) or len({frozenset(t) for t in titles}) < len(titles):
            return False
        return not any(t & card_words for t in titles)

    # ------------------------------------------------------------------ runs

    def _item_runs(self) -> list[list[int]]:
        """The line indexes of each numbered list (numbered 1, 2, 3... in order), bulleted list and table body."""
        runs: list[list[int]] = []
        numbered: list[int] = []
        bullets: list[int] = []
        rows: list[int] = []
        bold = self._bold_numbered_runs()
        levels = {"number": 0, "bullet": 0}  # the indent level of each kind's open run: bullets nest under numbers
        blank_before = False
        for li, line in enumerate(self.lines):
            if line.kind == "table":
                rows.append(li)
                continue
            if line.kind == "table_sep":
                if len(rows) == 1:
                    rows = []  # the header row above the separator
                continue
            if rows:
                runs.append(rows)
                rows = []
            if line.kind == "heading":
                runs.extend(r for r in (numbered, bullets) if r)
                numbered, bullets = [], []
                continue
            if line.kind == "blank":
                blank_before = True
                continue
            if line.kind == "list" and line.marker in ("number", "bullet"):
                current = numbered if line.marker == "number" else bullets
                if (current and line.level > levels[line.marker]) or (
                        line.marker == "bullet" and numbered and line.level > levels["number"]):
                    blank_before = False
                    continue  # an item nested under the current one: a detail of that item, not an item of the run
                if line.marker == "number":
                    marked = item_number(self.masked, line.start, line.body)
                    k = marked[0] if marked is not None else 0
                    if not numbered or k != len(numbered) + 1 or line.level != levels["number"]:
                        if numbered:
                            runs.append(numbered)
                        numbered = [li] if k == 1 else []
                    else:
                        numbered.append(li)
                else:
                    if bullets and line.level != levels["bullet"]:
                        runs.append(bullets)
                        bullets = []
                    bullets.append(li)
                levels[line.marker] = line.level
            elif blank_before and self.masked[line.start : line.start + 1] not in _INDENT:
                # a paragraph at the margin after a blank line ends a list
                runs.extend(r for r in (numbered, bullets) if r)
                numbered, bullets = [], []
            blank_before = False
        runs.extend(r for r in (rows, numbered, bullets) if r)
        runs.extend({id(r): r for r in bold.values()}.values())  # "**1. Moat**", "**2. Price**": bold numbered items
        return runs

    def _referred_elsewhere(self, run: list[int]) -> bool:
        """Whether the answer refers to an item of ``run`` by its number outside the run ("Rule 1: not a problem at
        all", "test 2 is where it fails"): the run states the writer's rules, and each is judged where it is referred
        to, so its items are not the gates' sections."""
        lines = [self._item_lines(run, i) for i in range(len(run))]
        start, end = self.lines[lines[0].start].start, self.lines[lines[-1].stop - 1].end
        return any(not start <= m.start() < end and 1 <= int(m.group(1)) <= len(run)
                   for m in _ITEM_REFERENCE.finditer(self.masked))

    def _align_questions(self) -> None:
        """Anchor paragraph k of a run of question-opened paragraphs, one per gate, to gate k when the questions ask
        the card's gates in order (:meth:`_asks_in_order`). Run after the prose reading (:mod:`._prose`), which reads
        an unanchored answer's appraisals clause by clause: the anchors only add the gates it did not find."""
        n = len(self.card.gates)
        for run in self._question_runs():
            if n >= 2 and len(run) == n and not self._named_elsewhere(run) and self._asks_in_order(run):
                met = {g for m in self.mentions for g in m.gates}  # gates a reader found already keep their reading
                for k, li in enumerate(run, start=1):
                    if self.anchors.get(li) is None and k not in met:
                        self.anchors[li] = _Anchor(k, ALIGNED, self._question_span(li))

    def _question_runs(self) -> list[list[int]]:
        """The first lines of each run of consecutive paragraphs that open with a short question of the writer's own
        ("Is the story intact? Mostly. ...", "How big? My first plan ..."): a walk through criteria as questions."""
        runs: list[list[int]] = []
        run: list[int] = []
        opens = True  # the line opens a paragraph (the answer's start, or after a blank line)
        for li, line in enumerate(self.lines):
            if line.kind == "blank":
                opens = True
                continue
            if opens:
                if line.kind in ("plain", "short") and _OPENING_QUESTION.match(self.masked, line.start, line.end):
                    run.append(li)
                else:
                    if len(run) >= 2:
                        runs.append(run)
                    run = []
            opens = False
        if len(run) >= 2:
            runs.append(run)
        return runs

    def _question_span(self, li: int) -> Span:
        """The opening question of a paragraph of :meth:`_question_runs`."""
        m = _OPENING_QUESTION.match(self.masked, self.lines[li].start, self.lines[li].end)
        return (m.start(1), m.end(1)) if m is not None else (self.lines[li].start, self.lines[li].end)

    def _asks_in_order(self, run: list[int]) -> bool:
        """Whether a run of question-opened paragraphs, one per gate, asks the card's gates in order: no paragraph is
        matched to another gate, none names another gate on its question, and the questions line up (:mod:`._aligned`)."""
        if names_no_criteria(lead_in(self.masked, self.lines, run[0])):
            return False
        for k, li in enumerate(run, start=1):
            anchor = self.anchors.get(li)
            if anchor is not None and anchor.gate is not None and anchor.gate != k:
                return False
            a, b = self._question_span(li)
            if any(m.how not in ("number", "substance") and m.gates and k not in m.gates
                   for m in self.mentions if a <= m.start < b):
                return False
        questions = [self.masked[slice(*self._question_span(li))] for li in run]
        return aligned(self.card, questions, [self._named_gate(li) for li in run])

    def _bold_number(self, li: int) -> int | None:
        """The number a bold label opens with ("**3. Quality of the bond sleeve**", "**2) Price**"), or None."""
        line = self.lines[li]
        if line.kind != "bold" or line.label is None:
            return None
        marked = item_number(self.masked, line.label[0], line.label[1])
        return marked[0] if marked is not None and marked[1][0] - line.label[0] <= 1 else None

    def _bold_numbered_runs(self) -> dict[int, list[int]]:
        """The bold labels numbered 1, 2, 3... in order, each with the paragraphs under it ("**1. Moat**" then its
        text, a blank line, "**2. Price**" ...): a numbered list written as bold lines. A heading, or a bold label
        numbered out of order, ends a run; the paragraphs between two items are the first one's. Every item's line
        maps to its run (a list of line indexes)."""
        out: dict[int, list[int]] = {}
        run: list[int] = []
        for li, line in enumerate(self.lines):
            if line.kind == "heading":
                run = []
                continue
            k = self._bold_number(li)
            if k is None:
                continue
            if k != len(run) + 1:
                run = []
                if k != 1:
                    continue
            run.append(li)
            out[li] = run
        return {li: r for li, r in out.items() if len(r) >= 2}

    def _item_lines(self, run: list[int], i: int) -> range:
        """The lines of item ``i`` of ``run``: its own line and the lines up to the next item. The last item ends
        where the run's list does: its continuation lines and the items nested under it are its own, as a detail
        bullet under any other item is (a list item at its level or above, a heading, a table or a paragraph at the
        margin after a blank line ends it)."""
        li = run[i]
        if self.lines[li].kind == "table":
            return range(li, li + 1)
        if i + 1 < len(run):
            return range(li, run[i + 1])
        level = self.lines[li].level
        stop = li + 1
        while stop < len(self.lines):
            line = self.lines[stop]
            if line.kind in ("heading", "table") or (line.kind == "list" and line.level <= level) or (
                    line.kind == "blank" and (stop + 1 >= len(self.lines) or self.masked[
                        self.lines[stop + 1].start : self.lines[stop + 1].start + 1] not in _INDENT)):
                break
            stop += 1
        return range(li, stop)

    # ------------------------------------------------------------------ rules

    def _follows_card(self, run: list[int]) -> str | None:
        """How ``run`` (exactly one item per gate) may be read by position (the module docstring's rules): ``position``
        when enough of its items state a verdict, ``aligned`` when it is numbered and its titles line up with the
        card's gates (:mod:`._aligned`), else None."""
        if names_no_criteria(lead_in(self.masked, self.lines, run[0])):
            return None  # "Sources:", "Pros and cons", "Peers:" above the run: its items are no criteria
        if all(subject_title(self._item_title(li)) for li in run):
            return None  # one item per company or ticker ("Apple Inc. — PASS", "| KO | FAIL |"), or Pro / Con
        verdicts = 0
        for i, li in enumerate(run):
            k = i + 1
            anchor = self.anchors.get(li)
            if anchor is not None and anchor.gate is not None and anchor.gate != k:
                return None
            lines = self._item_lines(run, i)
            start, end = self.lines[lines.start].start, self.lines[lines.stop - 1].end
            # another gate named on the item's own line, or labelling one of its detail lines ("Price below
            # intrinsic value: FAIL"); a detail sentence that only refers to another gate in passing ("the four
            # environments are not balanced", under gate 2) is no naming
            first = self.lines[li]
            if any(m.how not in ("number", "substance") and m.gates and k not in m.gates
                   and (first.start <= m.start < first.end or self._labels_its_line(m.start, m.end))
                   for m in self.mentions if start <= m.start < end):
                return None
            verdicts += any(start <= h.start < end for h in self.hits)
        # a small card (2-3 gates) read from bullets or rows needs a verdict in every item: many short lists have that
        # length by chance; a list numbered 1..N is the writer's own count of the criteria
        numbered = (self.lines[run[0]].kind == "list" and self.lines[run[0]].marker == "number") or self._bold_number(run[0]) is not None
        if (verdicts == len(run) if len(run) <= 3 and not numbered else 2 * verdicts >= len(run)):
            return POSITION
        # a numbered run of the writer's own titles, judged in the writer's own words: read by place when its titles
        # line up with the card's gates (_aligned.py)
        if numbered and not self._referred_elsewhere(run) and aligned(
                self.card, [self._aligned_title(li) for li in run], [self._named_gate(li) for li in run]):
            return ALIGNED
        return None

    def _aligned_title(self, li: int) -> str:
        """An item's title for :func:`._aligned.aligned`: its label, else its first line's text up to the end of its
        first sentence ("2) Is the return worth the risk? From $49 ..." -> "Is the return worth the risk?")."""
        title = self._item_title(li)
        if title:
            return title
        line = self.lines[li]
        text = self.masked[max(line.body, line.start) : line.end]
        cut = _SENTENCE_END.search(text)
        return text[: cut.end()] if cut else text

    def _named_gate(self, li: int) -> int | None:
        """The gate an item was matched to by words of the card (None when by nothing, or by its number only)."""
        anchor = self.anchors.get(li)
        if anchor is None or anchor.gate is None or anchor.how in ("number", POSITION, ALIGNED):
            return None
        return anchor.gate

    def _labels_its_line(self, start: int, end: int) -> bool:
        """Whether the span ``start:end`` lies in the label of a "label: value" line: the text from the line's start
        to the span's end is short (at most 60 characters, a list marker included) and a colon or a dash follows the
        span, before any verdict: "   Price below intrinsic value: FAIL"."""
        line_start = self.masked.rfind("\n", 0, start) + 1
        return end - line_start <= 60 and _LABEL_SEPARATOR.match(self.masked, end) is not None

    def _named_elsewhere(self, run: list[int]) -> bool:
        """Whether every gate of the card is anchored, by a means other than position, on a line outside ``run``."""
        inside = set(run)
        named = {a.gate for li, a in self.anchors.items() if li not in inside and a.gate is not None and a.how != POSITION}
        return len(named) >= len(self.card.gates)

    def _led_by_other_investor(self, li: int) -> bool:
        """Whether the lines of the paragraph just above a run's first item (its lead-in, up to a blank line or a
        heading) name an investor other than the card's: "For comparison, Buffett's checklist:" before a list."""
        k = li - 1
        if k >= 0 and self.lines[k].kind == "table_sep":
            k -= 2  # the header row above the rule
        start = end = self.lines[k].end if k >= 0 else 0
        while k >= 0 and self.lines[k].kind not in ("blank", "heading", "list", "table"):
            start = self.lines[k].start
            k -= 1
        if start == end:
            return False
        lead = self.masked[start:end]
        own = self.ix.investor_of.get(self.card.investor, self.card.investor)
        return any(full != own and re.search(rf"\b{re.escape(name)}\b", lead)
                   for name, full in self.ix.investor_of.items())

    def _item_title(self, li: int) -> str:
        """The title of an item: its label, or a table row's first cell ("" when it has neither)."""
        line = self.lines[li]
        if line.kind == "table":
            return self.masked[line.cells[0][0] : line.cells[0][1]] if line.cells else ""
        return self.masked[line.label[0] : line.label[1]] if line.label else ""

    def _item_span(self, li: int) -> Span:
        """Where an item names its gate: its number, else its title, else its line."""
        line = self.lines[li]
        if line.kind == "list" and line.marker == "number":
            marked = item_number(self.masked, line.start, line.body)
            if marked is not None:
                return marked[1]
        if line.kind == "bold" and line.label is not None:
            marked = item_number(self.masked, line.label[0], line.label[1])
            if marked is not None:
                return marked[1]
        if line.kind == "table" and line.cells:
            return line.cells[0]
        return line.label if line.label else (line.start, line.end)

"""Numbered list items that follow the card's gate order (issue 13, "gate references"; paper §7.5).

A reader who sees a numbered list whose items that name a gate all name the gate of their own number
("1) Owner earnings ...", "3) Margin of safety ...") reads the other items of that list by their number too:
"2) Rate = max(4.3%, 10%) ..." is the card's gate 2, written as its working rather than its name. The list
follows the card, so such an item is neither a missed gate nor a gate the card lacks. An item titled in words only
("2. ESG screening: FAIL") keeps its title: it may name a criterion the card lacks (an invented gate, FM-1),
unless its words and its number agree: a title sharing a word with what the card says about gate N (its name,
aliases, description, required elements, the inputs it reads) is gate N's ("1. Risk-adjusted performance" for a
gate that compares returns with a risk-equivalent benchmark).
"""

from __future__ import annotations

import re

from ipb.scoring._text import item_number
from ipb.scoring.parse._common import _Anchor
from ipb.scoring.parse._foreign_names import TRANSLATION
from ipb.scoring.parse._foreign_terms import TERM
from ipb.scoring.parse._positional import POSITION
from ipb.scoring.parse._run_subjects import lead_in, names_no_criteria
from ipb.scoring.parse._state import _ParserState
from ipb.scoring.parse._types import Span
from ipb.scoring.parse._vocabulary import distinctive_vocabulary, gate_vocabulary, placed_only, title_stems

#: A label that states a figure or a computation ("25 holdings", "Rate = max(4.3%, 10%)") is the item's working or
#: finding; a label of words only ("ESG screening") is a title, and a title the card lacks is an invented gate.
_STATES_A_VALUE = re.compile(r"\d|=")


class _NumberedListMixin(_ParserState):
    """Anchors the unnamed items of a numbered list that follows the card's gate numbers."""

    def _numbered_lists(self) -> list[list[tuple[int, int, Span]]]:
        """The numbered lists of the answer: runs of numbered list items at one indent, each item as (line index, item
        number, span of the number). A list ends at a heading or where its numbers stop rising ("1. 2. 3." then a second
        "1." starts another list)."""
        lists: list[list[tuple[int, int, Span]]] = []
        open_at: dict[int, list[tuple[int, int, Span]]] = {}  # indent level -> the list being read there
        for li, line in enumerate(self.lines):
            if line.kind == "heading":
                open_at.clear()
                continue
            if line.kind != "list" or line.marker != "number":
                continue
            marked = item_number(self.masked, line.start, line.body)  # "3.", "(3)", a circled 3, "3\u3001"
            if marked is None:
                continue
            k, number_span = marked
            current = open_at.get(line.level)
            if current is None or k <= current[-1][1]:
                current = []
                lists.append(current)
                open_at[line.level] = current
                for deeper in [lv for lv in open_at if lv > line.level]:
                    del open_at[deeper]
            current.append((li, k, number_span))
        return lists

    def _follow_card_numbering(self, unresolved: list[tuple[int, Span, str, int | None]]) -> list[tuple[int, Span, str, int | None]]:
        """Anchors item N of a numbered list to gate N when every item of the list that names a gate names the gate of
        its own number (at least one does); returns the labels still unresolved.

        Only items no name, alias or number already anchored, and whose label is absent or states a figure or a computation,
        are read this way; an item numbered beyond the card's gates,
        or a list with an item that names another gate than its number (a reordered or renumbered list), is left alone.
        """
        n = len(self.card.gates)
        titled = {u[0]: u[2] for u in unresolved if not _STATES_A_VALUE.search(u[2])}
        vocabulary = gate_vocabulary(self.card)
        own_words = distinctive_vocabulary(self.card)
        taken: set[int] = set()
        for items in self._numbered_lists():
            named = [(k, *names) for li, k, _ in items if (names := self._item_names(li)) is not None]
            if not named or any(gate != k for k, gate, _ in named):
                continue
            if names_no_criteria(lead_in(self.masked, self.lines, items[0][0])):
                continue  # "Risks I see:" above the list: the writer's own items; one naming a gate by chance leads none
            # a list whose gates are named only by the card's names in another language is in a language whose words the
            # card's vocabulary cannot match: a title of the writer's own there is its place's gate (met by position)
            foreign = all(how in (TRANSLATION, TERM) for _, _, how in named)
            for i, (li, k, span) in enumerate(items):
                anchor = self.anchors.get(li)
                if anchor is None and 1 <= k <= n and (li not in titled or title_stems(titled[li]) & vocabulary[k]
                                                       or self._body_names_only(li, items[i + 1][0] if i + 1 < len(items) else None, k)):
                    # an untitled item that states no figure and shares no word with its gate is met by its place only
                    # ("2. Management is honest and owns a stake." under a list whose item 1 named gate 1): break44 #1
                    line = self.lines[li]
                    placed = li not in titled and placed_only(self.masked[line.body : line.end], own_words[k])
                    self.anchors[li] = _Anchor(k, POSITION if placed else "number", span)
                    taken.add(li)
                elif anchor is None and 1 <= k <= n and foreign and len(items) == n:
                    self.anchors[li] = _Anchor(k, POSITION, span)
                    taken.add(li)
        return [u for u in unresolved if u[0] not in taken]

    def _body_names_only(self, li: int, next_item: int | None, k: int) -> bool:
        """Whether the text under item ``li``'s title, up to the list's next item, names gate ``k`` (by its name, an
        alias, its id or a phrase of its substance) and no other gate: "1. Is it big enough? ... above the market-cap
        floor. Pass." is the card's gate 1 under the writer's question. The last item of a list is left alone (its
        text may run on into the conclusion)."""
        if next_item is None:
            return False
        start, end = self.lines[li].end, self.lines[next_item].start
        gates = {g for m in self._mentions_in(start, end) if m.how != "number" and m.invented is None for g in m.gates}
        return gates == {k}

    def _item_names(self, li: int) -> tuple[int, str] | None:
        """The gate a list item names and how it was met: its anchor's, else the gate whose name or alias opens the
        item's text ("1) Owner earnings = 1,200 + 340 - 410 = $1,130m")."""
        anchor = self.anchors.get(li)
        if anchor is not None:
            return (anchor.gate, anchor.how) if anchor.how != "number" and anchor.gate is not None else None
        line = self.lines[li]
        for m in self._mentions_in(line.body, line.end):
            if m.how == "number" or m.invented is not None or len(m.gates) != 1:
                return None
            return (m.gates[0], m.how) if not self.masked[line.body : m.start].strip(" \t*_") else None
        return None

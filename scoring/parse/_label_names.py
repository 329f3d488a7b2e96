"""Whether a label names a gate by its words: a few words that read as a criterion's name, matched to one gate by
spelling (rapidfuzz), by part of its name or by a ratio abbreviation spelled out ("P/E" is "price earnings").

Split from :mod:`._references` (stop 30); :class:`._references._ReferencesMixin` inherits :class:`_LabelNamesMixin`.
"""

from __future__ import annotations

import re

from ipb.scoring import verdict_words as vw
from ipb.scoring._text import STOPWORDS, normalize, stem
from ipb.scoring.parse._common import _ANSWER_WORDS, _FIELD_LABEL, _STOP_LABELS, _CardIndex, _decision_label
from ipb.scoring.parse._memo import per_object
from ipb.scoring.parse._state import _ParserState
from rapidfuzz import fuzz, process

#: Words a label adds to a gate's name without naming it: "Drift check", "Funds test", "Drift gate".
_GENERIC_WORDS = frozenset({"check", "checks", "test", "tests", "gate", "gates", "screen", "criterion", "criteria", "step", "filter",
                            "rule", "hurdle", "question", "item", "point", "assessment", "analysis", "review", "verdict", "call",
                            # the same frame words in the plural, and the nouns an agent's report titles its checks with
                            # ("Category Rules", "Rotation Scan", "Growth Metrics Analysis", "PEG Ratio Calculation")
                            "rules", "hurdles", "filters", "screens", "steps", "questions", "reviews", "assessments", "analyses",
                            "scan", "scans", "metric", "metrics", "calculation", "calculations", "evaluation", "evaluations"})
#: Words that, with frame words and the investor's name, make up an umbrella title over the criteria.
_UMBRELLA_WORDS = frozenset({"overall", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "the", "of",
                             "s", "investment", "key", "core", "main", "principles", "framework", "checklist"})
#: Words that open a label restating a gate after a revision: "Revised drift gate:", "Updated price test:".
#: What may surround a label that is only a verdict: emphasis, a colon, an arrow ("- \u2192 PROCEED" under a gate's item).
_MARKS = " *_`:=>-\u2013\u2014\u2192\u21d2\u2794\u279c\u27a1\u27f6"


def verdict_only_label(label: str) -> bool:
    """Whether a label is only a verdict word, maybe after an arrow or emphasis ("PASS", "\u2192 PROCEED", "**FAIL**")."""
    return vw.VERDICT_PATTERN.fullmatch(label.strip(_MARKS)) is not None


_REVISING_WORDS = frozenset({"revised", "updated", "corrected", "correcting", "amended", "recomputed", "rechecked", "recalculated", "reestimated"})
#: Discourse words that may open a label: "First, the downside".
_DISCOURSE_WORDS = frozenset({"first", "firstly", "second", "secondly", "third", "thirdly", "fourth", "fifth", "next", "then", "finally",
                              "lastly", "also", "now", "on", "as", "for", "the", "a", "an", "to", "turning"})
_REVISION_LABEL = re.compile(r"^(?:correction|correcting|to correct|update|updated|revised|revision|addendum|erratum|note|wait)\b|\bsecond look$|\brevisited$")
#: A label of at most this many content words may name a gate by a part of its name (see ``_part_of_one_gate``).
MAX_PART_WORDS = 4


#: Ratio abbreviations of screening tables, by their normalised words ("P/E" -> "p e"), spelled out as card names
#: spell them ("Moderate Price/Earnings Ratio"): a row labelled "P/E RATIO" names that gate as a reader sees it.
_SPELLED_OUT = {("p", "e"): ("price", "earnings"), ("p", "b"): ("price", "book"), ("p", "s"): ("price", "sales"),
                ("eps",): ("earnings",), ("ev",): ("enterprise", "value"), ("fcf",): ("free", "cash", "flow")}
#: The first word of each abbreviation: a label holding none of them is spelled out as it is.
_SPELLED_FIRST = frozenset(short[0] for short in _SPELLED_OUT)


def _spelled_out(words: list[str]) -> list[str]:
    """``words`` with each abbreviation of :data:`_SPELLED_OUT` replaced by its words.

    >>> _spelled_out(["p", "e", "ratio"])
    ['price', 'earnings', 'ratio']
    """
    if _SPELLED_FIRST.isdisjoint(words):
        return list(words)  # no abbreviation starts here (the common case): nothing to replace
    out: list[str] = []
    i = 0
    while i < len(words):
        for short, full in _SPELLED_OUT.items():
            if tuple(words[i : i + len(short)]) == short:
                out.extend(full)
                i += len(short)
                break
        else:
            out.append(words[i])
            i += 1
    return out


@per_object()
def _trimmed_names(ix: _CardIndex) -> dict[str, frozenset[int]]:
    """A card's gate names and aliases without their frame words ("P/E test" -> "p e", "Graham number test" -> "graham
    number") -> the gates they belong to; a label that is exactly one of them names that gate even when its words are
    too short to count as content words. Built once per card index."""
    from ipb.scoring.parse._card import _trim  # the card side imports this module

    out: dict[str, set[int]] = {}
    for g in ix.card.gates:
        for label in (g.name, *g.aliases):
            key = " ".join(_trim(normalize(label).split()))
            if key:
                out.setdefault(key, set()).add(g.number)
    names = {g.number: set(normalize(g.name).split()) for g in ix.card.gates}
    # "phase" (the alias "phase test" trimmed) is also a word of another gate's name ("Long-Term Debt Cycle Phase"):
    # such a key settles nothing on its own
    table = {k: frozenset(v) for k, v in out.items()
             if not any(set(k.split()) <= words for number, words in names.items() if number not in v)}
    return table


def _y_plural(word_stem: str) -> str:
    """A stem of :func:`~ipb.scoring._text.stem` with a final "y" dropped, so that a singular in "-y" meets its plural in
    "-ies": ``stem`` leaves "category" whole but cuts "categories" to "categor", and a label "Category" then fitted only
    the gate whose name says "Category-Specific", not the one whose name says "Six Categories" (issue 13 s64).

    >>> from ipb.scoring._text import stem
    >>> [_y_plural(stem(w)) for w in ("category", "categories", "company", "companies", "policy", "key")]
    ['categor', 'categor', 'compan', 'compan', 'polic', 'key']
    """
    return word_stem[:-1] if word_stem.endswith("y") and len(word_stem) > 4 else word_stem


class _LabelNamesMixin(_ParserState):
    """Gate names read from a label's words (see the module docstring)."""

    def _gate_like(self, label: str) -> bool:
        """Whether a label could name a gate: a few words, not a sentence, not a field or a heading like "Summary".

        Remembered per parse (a function of the label and the card): a long answer repeats its table cells."""
        memo: dict[str, bool] | None = getattr(self, "_gate_like_memo", None)
        if memo is None:
            memo = {}
            self._gate_like_memo: dict[str, bool] = memo
        known = memo.get(label)
        if known is None:
            known = memo[label] = self._reads_as_gate_name(label)
        return known

    def _reads_as_gate_name(self, label: str) -> bool:
        norm = normalize(label)
        words = norm.split()
        if not words or len(words) > 8 or not any(len(w) >= 3 and w.isalpha() for w in words):
            return False
        if label.rstrip().endswith((".", "!")) or sum(w.isdigit() for w in words) > 1:
            return False
        if "=" in label:
            return False  # "Class face = $800M", "Rate = max(...)": a computation, not a criterion's name
        if self._umbrella(words):
            return False  # "Munger's Four Filters Analysis", "Overall Assessment": the title over the criteria, none of them
        if norm in _ANSWER_WORDS or _FIELD_LABEL(norm) or vw.FINAL_LABEL.match(norm) or _STOP_LABELS.match(norm) or _decision_label(norm):
            return False
        if verdict_only_label(label):
            return False  # "PASS", "\u2192 PROCEED", "=> REJECT": a verdict after an arrow is the item's finding, not a gate's name
        if _REVISION_LABEL.match(norm):
            return False  # "Correction to gate 2", "Update", "Management, second look": a revision, not a new gate
        # a label that states a verdict or an outcome is a statement, not a gate's name: "Looking again, test 2 fails", "This is no DECLINE"
        outcome = self.ix.outcome_re.search(label) if self.ix.outcome_re is not None else None
        if len(words) >= 3 and (vw.VERDICT_PATTERN.search(label) or (outcome is not None and outcome.group(0).isupper())):
            return False  # an outcome in capitals ("This is no DECLINE"); "Who benefits from the repurchase?" may still be a gate
        return True

    def _umbrella(self, words: list[str]) -> bool:
        """Whether a label's words are only frame words (:data:`_GENERIC_WORDS`, :data:`_UMBRELLA_WORDS`), numbers and
        the card's investor's name: the title a report puts over the criteria ("Munger's Four Filters Analysis",
        "Graham's 7 Tests", "Overall Assessment"), which names no criterion of its own (the corpus README: an umbrella
        heading is not an invented gate)."""
        investor = getattr(self.card, "investor", "") or ""
        own = {w for w in normalize(investor).split() if len(w) > 2}
        return all(w in _GENERIC_WORDS or w in _UMBRELLA_WORDS or w in own or w.isdigit() or w == "s" for w in words)

    def _fuzzy(self, norm: str, cache: dict[str, tuple[int, str] | None]) -> tuple[int, str] | None:
        if norm in cache:
            return cache[norm]
        best = process.extractOne(norm, self.ix.choices, scorer=fuzz.ratio, score_cutoff=self.score_cutoff)
        result = None if best is None else (self.ix.choice_gate[best[2]], "fuzzy")
        if result is None:
            gate = self._part_of_one_gate(norm)
            result = None if gate is None else (gate, "words")
        cache[norm] = result
        return result

    def _fuzzy_before_detail(self, label: str, cache: dict[str, tuple[int, str] | None]) -> tuple[int, str] | None:
        """:meth:`_fuzzy` of a label's words before a parenthetical detail, as screeners print their checks: "Growth
        Estimate (7% expected vs 5% record): Fail", "Current ratio (latest quarter, 2.4): Pass". The detail's words
        would make the label too long to be part of one gate's name; a label that is only a parenthesis names none."""
        core = normalize(label[: label.find("(")])
        return self._fuzzy(core, cache) if core and core != normalize(label) else None

    def _part_of_one_gate(self, norm: str) -> int | None:
        """The one gate whose name (else whose aliases) hold every content word of a short label: "Price to assets" is
        "Moderate Ratio of Price to Assets", "Financial condition" is "Sufficiently Strong Financial Condition".

        Words are compared by stem; a label of more than :data:`MAX_PART_WORDS` content words, or one that fits two
        gates at the same tier, names none.
        """
        gates = self._part_gates(norm)
        return next(iter(gates)) if len(gates) == 1 else None

    def _part_gates(self, norm: str) -> frozenset[int]:
        """The gates whose name (else, if no name does, whose aliases) hold every content word of a short label: one
        gate for "Price to assets", two for "Price" on a card with "Price Below Value" and "Price Limit" (see
        :meth:`_settle_shared_labels`); empty past :data:`MAX_PART_WORDS` content words."""
        words = norm.split()
        while words and (words[0] in _DISCOURSE_WORDS or words[0] in _REVISING_WORDS or words[:2] == ["to", "correct"]):
            words = words[2:] if words[:2] == ["to", "correct"] else words[1:]  # "First, the downside", "Next: sizing",
            # "Revised drift gate: PROCEED", "To correct gate 2: REJECT"
        exact = _trimmed_names(self.ix).get(" ".join(words))
        if exact is not None:
            return exact  # "P/E" is the alias "P/E test" without its frame word
        stems = {_y_plural(stem(w)) for w in _spelled_out(words) if w not in STOPWORDS and w not in _GENERIC_WORDS and len(w) > 1 and not w.isdigit()}
        if not stems or len(stems) > MAX_PART_WORDS:
            return frozenset()
        for tier in (0, 1):
            gates = frozenset(g for t, g, words in self.ix.gate_words if t == tier and stems <= {_y_plural(w) for w in words})
            if gates:
                return gates
        return frozenset()

"""Gate references: where the answer names a gate (name, alias, id, "Gate 3", "gates 1 and 2", "the fifth test") and which lines are gate labels.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from functools import lru_cache

from ipb.engine.card import Card
from ipb.scoring import verdict_words as vw
from ipb.scoring._text import Line, Trigger, normalize, stem
from ipb.scoring.parse._foreign_terms import TERM, at_title
from ipb.scoring.parse._prose_terms import prose_terms
from ipb.scoring.parse._record_fields import record_fields
from ipb.scoring.parse._spec_blocks import spec_step, spec_title
from ipb.scoring.parse._umbrella import UMBRELLA_CELL, UMBRELLA_LABEL, umbrella_parts
from ipb.scoring.parse._common import (
    _FIELD_LABEL,
    _STOP_LABELS,
    _WORDS_APOS,
    MAX_EMBED,
    MAX_OCCURRENCES,
    _Anchor,
    _CardIndex,
    _decision_label,
    _Hit,
    _Mention,
    _mention_order,
)
from ipb.scoring.parse._foreign_numbers import foreign_gate_numbers, strip_foreign_number
from ipb.scoring.parse._label_names import _LabelNamesMixin
from ipb.scoring.parse._loose import _LABEL_JOINER, _QUANTIFIER_BEFORE
from ipb.scoring.parse._memo import per_object
from ipb.scoring.parse._state import _ParserState
from ipb.scoring.parse._subject_tables import keyed_by_subject
from ipb.scoring.parse._types import InventedGate, Span
from ipb.scoring.parse._verdicts import _TIGHT_BREAK, _is_verdict_cell

# --------------------------------------------------------------------------- the card side


_SEP = r"[\W_]{1,3}"
#: "Gate 3", "criteria 2 and 4", "Test No. 5", "step-two:". The spacing around the optional "No."/"number"/"#" is one
#: run on each side of it, never two stars in a row over the same spaces: "[ \t]*(?:no)?[ \t]*" tried every split of a
#: run of n spaces after a gate word (n * n steps: 3,000 spaces after "test" took 8 s).
_NUMBERED = re.compile(
    r"(?i)\b(?P<word>gates?|steps?|stages?|criteri(?:on|a)|filters?|hurdles?|tests?|checks?|screens?|lens(?:es)?|conditions?|questions?|requirements?|indicators?|points?)(?:\"[ \t]*:)?(?:[ \t]*(?:(?:no\.?|number|#)[ \t]*)?|[_-](?:(?:no\.?|number|#)[ \t]*|[ \t]*))"
    r"(?:(?P<nums>\d{1,3}(?:[ \t]*(?:,[ \t]*(?:and|or|&)|,|&|and|or|to|through|thru|-|\u2013)[ \t]*\d{1,3}){0,8})\b(?![.,]\d|%|x\b|/)"
    r"|(?P<roman>(?-i:XII|XI|X|IX|VIII|VII|VI|V|IV|III|II|I))(?=[ \t]*[:.)\u2013\u2014-])"
    r"|(?P<srange>(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)(?:[ \t]*(?:,|and|to|through|thru|-|\u2013)[ \t]*"
    r"(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve))+)\b"
    r"|(?P<spelled>one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\b(?=[ \t]*[:.)\u2013\u2014-]))"
    r"|(?i:(?<=[ \t])(?P<ordword>gate|step|stage|test|criterion|filter|hurdle|check|screen|condition|requirement|question|lens|"
    r"indicator)\b)"
)
#: "the fifth gate": the ordinal just before a gate word (never a fraction: "the one-third requirement").
_ORDINAL_BEFORE = re.compile(r"(?i)(?<![-\u2010\u2011])\b(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|1st|2nd|3rd|[4-9]th|10th)[ \t]+\Z")
#: Numbering words that name a gate by number when the number is the card's ("Lens 2", "Condition 3") but never an
#: invented gate when it is not: a card's gates are called lenses or conditions, while "question 12" is just a question.
#: "Point 4: PROCEED" (Fisher's fifteen points) is a gate label too; "point" is never an ordinal's word ("my first point
#: is ...") and prose after it ("point 3 of the memo", "at this point 3 of 5 pass") makes it none.
_SOFT_NUMBER_WORDS = frozenset({"lens", "lense", "condition", "question", "requirement", "indicator", "point"})
#: A run-in head: a title of one to four words opening the line, a stop, then the paragraph ("Permanent loss. Ninety-two").
_RUN_IN_HEAD = re.compile(r"(?P<title>[A-Z][\w'/-]*(?:[ \t]+[\w'/-]+){0,3})\.[ \t]+(?=[A-Z0-9\"\u201c])")
#: A run-in head opened by a wh-word is a clause, not a sentence, though it holds a verb: "Where we are today.", "What
#: we are doing about it.", "How we got here." (a question would end in "?"). Up to seven words.
_RUN_IN_CLAUSE = re.compile(r"(?P<title>(?:Where|What|How|Why|When)(?:[ \t]+[\w'/-]+){1,6})\.[ \t]+(?=[A-Z0-9\"\u201c])")
#: A verb in a head makes it a short sentence, not a title ("The fix is cheap. It goes through this week.").
_RUN_IN_VERB = re.compile(r"(?i)\b(?:is|are|was|were|be|been|has|have|had|do|does|did|looks?|seems?|will|would|can|could|should|may|might|must|i|we|you|it|they)\b")
#: Running prose after a soft numbering word: "Question 4 from the client", "Condition 4 of the loan covenant" name the
#: request's or a contract's own numbering, never the card's gate.
_SOFT_PROSE_TAIL = re.compile(r"(?i)[ \t]+(?:of|from|in|on|to|for|about|under|by|regarding|concerning|at|within|per)\b")
#: What may stand before a label that opens its line: list markers, quotes, emphasis, "1.".
_LABEL_OPENING = re.compile(r"[ \t>*_\"'#-]*(?:\d{1,2}[.)][ \t]+)?[*_]{0,2}")
#: What follows a number that is a label: a colon, a dash, a bracket or a stop, or the end of the line.
_LABEL_CLOSING = re.compile(r"[ \t*_]*(?:[:)\u2013\u2014]|\.(?!\d)|[ \t]-[ \t]|$)", re.M)
_SPELLED_COUNT = r"(?:\d{1,2}|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"


@per_object(bound=512)
def _card_calls_gates(ix: _CardIndex, word: str) -> bool:
    """Whether the card itself calls its gates ``word`` ("lens", "condition", "question", "requirement", "indicator"):
    its description or a gate's name, alias or description counts them ("five lenses", "at least three lenses") or
    names one ("One lens of ...", "this lens", the alias "valuation lens"). "a hard requirement" or "Financial
    Condition" alone do not: they use the word, they do not number the gates by it."""
    plural = "lenses" if word.startswith("lens") else word + "s"
    stem = "lens" if word.startswith("lens") else word
    counted = re.compile(rf"(?i)\b{_SPELLED_COUNT}[ \t]+(?:[a-z-]+[ \t]+)?{plural}\b|\b(?:one|each|every|this|that)[ \t]+{stem}\b")
    card = ix.card
    texts = [card.description, *(t for g in card.gates for t in (g.description, g.name, *g.aliases))]
    named = sum(1 for g in card.gates if any(re.search(rf"(?i)\b{stem}\b\s*$", t) for t in (g.name, *g.aliases)))
    return any(counted.search(t or "") for t in texts) or named >= 2


_NUMBERED_TRIGGERS = [Trigger(w, _NUMBERED) for w in ("gate", "step", "stage", "criteri", "filter", "hurdle", "test", "check", "screen",
                                                      "condition", "requirement", "question", "lens", "indicator", "point")]
_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8, "ninth": 9,
             "tenth": 10, "1st": 1, "2nd": 2, "3rd": 3, "10th": 10}
_NUMBER_IN_LIST = re.compile(r"\d{1,3}|to|through|thru|[ \t]+[-\u2013][ \t]+|-|\u2013")
_SPELLED_NUMBERS = {w: k for k, w in enumerate(("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                                                "eleven", "twelve"), start=1)}
_SPELLED_NUMBERS.update({w: k for k, w in enumerate(("i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi", "xii"), start=1)})
_JSON_GATE_KEYS = frozenset({"gate", "name", "gate_name", "title", "step", "criterion", "test", "check", "id", "gate_id"})
_NUMBER_WORDS = re.compile(
    r"(?i)^\s*(?:(?:gate|step|stage|test|criterion|filter|hurdle|check|screen|lens(?:e)?|condition|question|requirement|indicator)s?\s*(?:no\.?|#)?\s*\d{1,3}|\d{1,3}[.)](?!\d))\s*[:.)\-\u2013\u2014]*\s*"
)


@lru_cache(maxsize=8192)
def _strip_number_words(label: str) -> str:
    return strip_foreign_number(_NUMBER_WORDS.sub("", label, count=1)).strip(" *_`:#.-()[]\u2013\u2014")  # "Puerta 1 - ", "第1关 "


def _invented_name(number_name: str, rest: str) -> str:
    rest = rest.strip()
    return f"{number_name}: {rest}" if rest and normalize(rest) != normalize(number_name) else number_name


#: A short label opening a sentence: "Psychology: ...", "Moat — ...", "**Valuation**: ..." (after a list marker or a JSON quote).
_SENTENCE_LABEL = re.compile(r"[ \t>*_\"'-]*(?:\d{1,2}[.)][ \t]+)?[*_]{0,2}(?P<label>[A-Z][A-Za-z/&', -]{1,40}?)[*_]{0,2}[ \t]*(?::|\u2014|[ \t]-[ \t])")
#: After a bare "Test 8": a dash or a colon, then a title up to a colon, a sentence's full stop, a bracket, an arrow,
#: a semicolon, a spaced dash that opens the detail ("Gate 5: Insider Buying - Lynch likes ...") or the line's end
#: ("Step 5: Position sizing and exit rules"). An unspaced hyphen stays in the title ("Category-Specific").
_TITLE_AFTER = re.compile(r"[ \t*_]*(?:[\u2013\u2014-]|:)[ \t]*(?P<title>[^:\n()\u2192;]+?)[ \t*_]*"
                          r"(?=:|\.(?:\s|$)|[()\u2192;]|[ \t][\u2013\u2014-][ \t]|$)")



#: A sentence end inside a matched name: "... is positive. Operating cash flow ..." is no mention of "Positive Operating Cash Flow".
_SENTENCE_END_INSIDE = re.compile(r"[.!?][\"')\]*_]*\s+(?=[\"'(*_]*[A-Z0-9])|\n[ \t]*\n")


def _within_sentence(masked: str, mention: _Mention) -> _Mention:
    """``mention`` cut to its last sentence when a gate's name matched across a sentence end (new user 2 finding 5)."""
    cut = None
    for cut in _SENTENCE_END_INSIDE.finditer(masked, mention.start, mention.end):
        pass
    if cut is None or cut.end() >= mention.end:
        return mention
    return _Mention(cut.end(), mention.end, mention.gates, mention.how, mention.unit, mention.invented)


#: "the fifth, which fails": a relative clause on the gate just named states its verdict.
_RELATIVE_GAP = re.compile(r"[ \t]*,[ \t]*which[ \t]+(?:(?:is|was|also|clearly|plainly)[ \t]+){0,2}")
#: What may stand between a verdict verb and the quantifier it governs: spacing only ("meets all seven criteria").
_VERB_BEFORE_QUANTIFIER = re.compile(r"[ \t]{1,3}")
#: Verdict verbs that take the gates as their object: "meets / passes / clears / satisfies / fails all seven tests".
_QUANTIFIER_VERB = re.compile(r"(?i)(?:meets?|met|pass(?:es|ed)?|clears?|cleared|satisf(?:y|ies|ied)|fails?|failed|flunks?|flunked)")


def _names_one_gate_twice(masked: str, names: list[_Mention], label: Span) -> bool:
    """Whether a label is two or more names of one gate's criteria joined by a few words, the first leading it:
    "LONG-TERM DEBT IN RELATION TO NET CURRENT ASSETS" is Graham's financial-condition gate (a guru-model report that
    splits that gate into two rows; issue 13). The names then make up most of the label, as one name does for
    :meth:`_ReferencesMixin._label_is_prefix`."""
    if len(names) < 2 or any(m.gates != names[0].gates for m in names) or len(names[0].gates) != 1:
        return False
    if _WORDS_APOS.findall(masked, label[0], max(label[0], names[0].start)):
        return False
    return (label[1] - label[0]) - sum(m.end - m.start for m in names) <= 28


def _title_after(masked: str, start: int, end: int) -> str:
    """The title a bare number label carries after a dash ("Test 8 \u2013 Dividend yield above 3%: 3.4%" gives
    "Dividend yield above 3%"): the words up to the next colon, full stop or bracket, if they are a short title."""
    m = _TITLE_AFTER.match(masked, start, min(end, start + 90))
    if m is None:
        return ""
    title = m.group("title").strip()
    return title if 0 < len(title.split()) <= 8 else ""


class _NumberedMentionsMixin(_ParserState):
    """Gate numbers in the answer: "Gate 3", "Tests 1 and 2", "Criteria 5-7", "the fifth test", "Lens 2" (when it is a gate)."""

    def _numbered_mentions(self) -> list[_Mention]:
        """The mentions of gates by number, in text order; out-of-range numbers are invented gates (FM-1) or notes."""
        masked = self.masked
        found: list[_Mention] = []
        n = len(self.card.gates)
        for _, m in self._scan(_NUMBERED_TRIGGERS, limit=MAX_OCCURRENCES):
            start = m.start()
            if m.group("ordword"):
                o = _ORDINAL_BEFORE.search(masked, max(0, start - 16), start)
                if o is None:
                    continue
                word_text = o.group(1).lower()
                numbers = [_ORDINALS.get(word_text) or int(word_text[:-2])]
                start = o.start()
            elif m.group("nums") is not None:
                numbers = self._numbers_of(m.group("nums"), n)
            elif m.group("srange") is not None:  # "gates one to three", "steps two and four" (gate, step, stage words only)
                if m.group("word").lower().rstrip("s") not in ("gate", "step", "stage"):
                    continue
                numbers = self._numbers_of(re.sub(r"[a-z]+", lambda w: str(_SPELLED_NUMBERS.get(w.group(0), w.group(0))),
                                                  m.group("srange").lower()), n)
            else:  # "Gate II:", "Step two:" (gate, step and stage words only)
                if m.group("word").lower().rstrip("s") not in ("gate", "step", "stage"):
                    continue
                spelled = (m.group("roman") or m.group("spelled")).lower()
                numbers = [_SPELLED_NUMBERS[spelled]]
            if not numbers:
                continue
            soft = (m.group("word") or m.group("ordword") or "").lower()
            soft = "lens" if soft.startswith("lens") else soft.rstrip("s")
            if soft in _SOFT_NUMBER_WORDS and not self._soft_number_is_gate(soft, start, m.end(), bool(m.group("ordword"))):
                continue
            if len(numbers) == 1 and 1 <= numbers[0] <= n:
                found.append(_Mention(start, m.end(), (numbers[0],), "number"))
                continue
            inside = tuple(k for k in numbers if 1 <= k <= n)
            outside = [k for k in numbers if k > n]  # "Step 0" is a preliminary (reading the input), never a gate
            if inside:
                found.append(_Mention(start, m.end(), inside, "number"))
            if outside:
                word = (m.group("word") or m.group("ordword") or "gate").rstrip("s").capitalize()
                if word.lower().startswith("criteri"):
                    word = "Criterion"
                if word.lower() in _SOFT_NUMBER_WORDS:
                    if inside:
                        self.notes.append(f"{masked[start:m.end()]!r} names {', '.join(map(str, outside))}, past the card's "
                                          f"{n} gates: read for gate(s) {', '.join(map(str, inside))} only")
                    continue  # "Question 12" of a five-gate card is a question, not a gate the card lacks
                for k in outside:
                    invented = _Mention(start, m.end(), (), "number", invented=f"{word} {k}")
                    if inside:  # "Gates 2 and 12" on a five-gate card: gate 2, and gate 12 is invented (FM-1)
                        self.outside_numbers.append(invented)
                    else:
                        found.append(invented)
        # "Puerta 2", "第2关", "3단계" (grammar/languages.yaml gate_words, gate_frames); past the card's gates no gate at all
        found.extend(_Mention(s, e, (k,), "number") for s, e, k in foreign_gate_numbers(self) if 1 <= k <= n)
        return found

    def _verdict_starts(self) -> list[int]:
        """Starts of every verdict word in the answer, sorted (scanned once, on first use)."""
        cached: list[int] | None = self.__dict__.get("verdict_starts")
        if cached is None:
            cached = self.__dict__["verdict_starts"] = sorted(m.start() for _, m in self._scan(vw.VERDICT_TRIGGERS, limit=MAX_OCCURRENCES))
        return cached

    def _soft_number_is_gate(self, word: str, start: int, end: int, ordinal: bool) -> bool:
        """Whether "Lens 2", "Condition 3", "Question 4" ... at ``start:end`` numbers a gate of this card.

        Never before running prose ("Question 4 from the client", "Condition 4 of the loan covenant was breached").
        Otherwise yes for an ordinal ("the second condition fails" counts the card's gates), when the card itself
        calls its gates so (:func:`_card_calls_gates`), or when the words label a
        section that judges: they open their line, a colon, dash, bracket or stop (or the line's end) follows, and a
        verdict word follows in the rest of the line or, for a bare label, in the paragraph after it.
        """
        masked = self.masked
        if _SOFT_PROSE_TAIL.match(masked, end):
            return False
        if ordinal or _card_calls_gates(self.ix, word):
            return True  # the card's own word, or an ordinal: "the second condition fails" counts the card's gates
        line_start = masked.rfind("\n", 0, start) + 1
        opening = _LABEL_OPENING.match(masked, line_start)
        if opening is None or opening.end() != start:
            return False
        closing = _LABEL_CLOSING.match(masked, end)
        if closing is None:
            return False
        line_end = masked.find("\n", end)
        line_end = len(masked) if line_end < 0 else line_end
        stop = line_end
        if not masked[closing.end() : line_end].strip(" \t*_:"):
            para = masked.find("\n\n", line_end, line_end + 600)  # bounded: a 1 MB answer of bare labels stays linear
            stop = min(len(masked), line_end + 600) if para < 0 else para
        starts = self._verdict_starts()
        i = bisect_right(starts, end - 1)
        return i < len(starts) and starts[i] < stop

    @staticmethod
    def _numbers_of(text: str, last: int) -> list[int]:
        """The gate numbers of a list after a gate word ("3 and 4", "1, 3-5 and 7", "3 thru 6"), first mention first.

        A range ("3 to 6", "3-6", "3\u20136", "3 through 6", "3 thru 6") covers every gate from its first number to its
        last, but no further than the card's last gate ``last`` (an int, the card's gate count): "Gates 5 to 9" of a
        seven-gate card is gates 5, 6 and 7, and invents no gate 8 or 9. A range that runs down ("6 to 3") or ends past
        twice the card's gates ("1-100" of seven) is no list of gates a careful writer means: it covers nothing, not
        even its two ends (issue 13, gate references; paper \u00a77.5). After a spaced dash the number opens the label's
        own text ("Gate 5 - 3 of 3 years positive", "Gate 1 - 100 names screened"): the first number stands alone.

        >>> _NumberedMentionsMixin._numbers_of("3 to 6", 7), _NumberedMentionsMixin._numbers_of("5 thru 9", 7)
        ([3, 4, 5, 6], [5, 6, 7])
        >>> _NumberedMentionsMixin._numbers_of("6 to 3", 7), _NumberedMentionsMixin._numbers_of("1-100", 7)
        ([], [])
        >>> _NumberedMentionsMixin._numbers_of("1, 3-4 and 12", 7), _NumberedMentionsMixin._numbers_of("5 - 3", 7)
        ([1, 3, 4, 12], [5])
        """
        if text.isdigit():
            return [int(text)]
        tokens = _NUMBER_IN_LIST.findall(text)
        numbers: list[int] = []
        pending_range = spaced_dash = False
        for t in tokens:
            if t.isdigit():
                k = int(t)
                if pending_range and numbers:
                    first = numbers[-1]
                    if first < k <= 2 * last:
                        numbers.extend(range(first + 1, min(k, last) + 1))
                    elif not spaced_dash:
                        numbers.pop()  # "6 to 3", "1-100": neither end is a gate meant
                else:
                    numbers.append(k)
                pending_range = spaced_dash = False
            else:
                pending_range, spaced_dash = True, t != t.strip()
        return list(dict.fromkeys(numbers))



#: A numbered subject, as a report on several companies heads each ("### Company 1: Caldera Pumps", "Stock #2 -
#: ..."): the subject's name, not a criterion's, though "company" is a word of a gate's alias ("wonderful company at a
#: fair price").
_NUMBERED_SUBJECT = re.compile(r"(?:company|stock|ticker|candidate|pick|holding|idea|name|security|issuer)[ \t]*#?[ \t]*\d{1,3}")


def card_name_spans(low: str, card: Card) -> list[tuple[int, int]]:
    """Where the lower-cased answer ``low`` writes the card's own name (n44-mmc01-small-spread-neutral's title "Marks
    Market Cycle Positioning Framework"): a gate's name or alias inside it names the card, not the gate. None is looked
    for when a gate's name holds the card's whole name (the card would then be that gate), or the name is one word."""
    words = re.findall(r"[a-z0-9]+", (card.name or "").lower())
    gate_names = [" ".join(re.findall(r"[a-z0-9]+", g.name.lower())) for g in card.gates]
    if len(words) < 2 or any(" ".join(words) in name for name in gate_names):
        return []
    head = r"[\W_]+".join(map(re.escape, words[:-1]))
    if words[-1] in _GENERIC_NAME_ENDS and len(words) >= 3 and not any(" ".join(words[:-1]) in name for name in gate_names):
        # "Marks Market Cycle Positioning — an dhew yet" for "... Positioning Framework": the card's name less its
        # generic last noun, then a subtitle in the writer's language; the last noun stays optional in the pattern
        pattern = re.compile(r"\b" + head + r"(?:[\W_]+" + re.escape(words[-1]) + r")?\b")
    else:
        pattern = re.compile(r"\b" + r"[\W_]+".join(map(re.escape, words)) + r"\b")
    return [(m.start(), m.end()) for m in pattern.finditer(low)][:50]


#: Nouns that close a card's name without naming anything of its own ("... Positioning Framework", "... Process"): a
#: title may leave them out.
_GENERIC_NAME_ENDS = frozenset({"framework", "process", "checklist", "method", "model", "approach", "screen", "test", "tests"})


class _ReferencesMixin(_NumberedMentionsMixin, _LabelNamesMixin):
    """Finds gate mentions and resolves labels (headings, list items, bold labels, table rows, JSON objects) to card gates or invented gates."""

    # ------------------------------------------------------------------ mentions

    def _find_mentions(self) -> None:
        masked = self.masked
        found: list[_Mention] = []
        in_prose: list[_Mention] = []
        for key, m in self._scan(self.ix.mention_triggers, limit=MAX_OCCURRENCES):
            gate, how = self.ix.mention_info[key]
            mention = _within_sentence(masked, _Mention(m.start(), m.end(), (gate,), how))
            if how == TERM and not at_title(masked, m.start(), m.end()):
                in_prose.append(mention)  # a key noun names a gate as a title (grammar/gate_terms.yaml), or see below
                continue
            found.append(mention)
        found.extend(self._numbered_mentions())
        found.extend(self._framed())
        found.extend(self._coordinated())
        found.extend(self._quantified(found))
        if getattr(self, "prose_terms", False):
            found.extend(prose_terms(found, in_prose))  # the last-resort reading of _parser.parse_response only
        found.sort(key=_mention_order)
        titles = card_name_spans(self.low, self.card)
        if titles:  # "Marks Market Cycle Positioning Framework" as the answer's title: the card, not gate 2's "cycle positioning"
            found = [m for m in found if not any(a <= m.start and m.end <= b for a, b in titles)]
        kept: list[_Mention] = []
        for mention in found:
            if kept and mention.start < kept[-1].end:
                prev = kept[-1]
                if (mention.invented is None) == (prev.invented is None):
                    if mention.invented is None:
                        continue  # overlapping names: the longer one, found first, stands
                else:
                    continue  # "Gate 1" is both an alias and a number
            kept.append(mention)
        kept = self._sentence_labels(kept)
        for mention in kept:
            mention.unit = self._unit_at(mention.start)
            if mention.unit >= 0:
                self.unit_mentions.setdefault(mention.unit, []).append(mention)
        self.mentions = kept

    def _sentence_labels(self, mentions: list[_Mention]) -> list[_Mention]:
        """``mentions`` with the short labels that open a prose sentence and name a gate by a part of its name
        ("Psychology: the bonus pool is tied to store count ..." for "Psychology Lens") added, in order."""
        starts = sorted({m.start for m in mentions})  # bisected: a scan of every start per unit is quadratic on 1 MB
        added: list[_Mention] = []
        cache: dict[str, int | None] = {}
        for unit in self.units:
            if self.lines[unit.line].kind == "table" and unit.line not in self.__dict__.get("umbrella_lines", {}):
                for a, b in self.lines[unit.line].cells[:2]:  # "| Valuation (P/E & P/B) | FAIL |"
                    umbrella = UMBRELLA_CELL.fullmatch(self.masked, a, b)
                    parts = umbrella_parts(self, umbrella, mentions, cache) if umbrella is not None else []
                    if parts:
                        added.extend(parts)
                        self.__dict__.setdefault("umbrella_lines", {})[unit.line] = parts
                        break
                continue
            if self.lines[unit.line].kind not in ("plain", "json", "list", "label"):
                continue
            m = _SENTENCE_LABEL.match(self.masked, unit.start, min(unit.end, unit.start + 60))
            if m is None:
                umbrella = UMBRELLA_LABEL.match(self.masked, unit.start, min(unit.end, unit.start + 90))
                if umbrella is not None and len(added) < MAX_OCCURRENCES:  # "Moderate Valuation (P/E & P/B): ✗ FAIL"
                    parts = umbrella_parts(self, umbrella, mentions, cache)
                    if parts:
                        added.extend(parts)
                        self.__dict__.setdefault("umbrella_lines", {})[unit.line] = parts
                continue
            a, b = m.span("label")
            if len(added) >= MAX_OCCURRENCES:
                continue
            if _LABEL_JOINER.search(self.masked, a, b):
                joined = self._coordinated_label(a, b, mentions, cache)
                if joined:
                    added.extend(joined)
                    continue  # else the label may still name one gate whole: "Risk and return"
            i = bisect_left(starts, a)
            if i < len(starts) and starts[i] < b:  # a mention starts inside the label
                continue
            norm = normalize(m.group("label"))
            if (not norm or vw.FINAL_CUE.search(m.group("label")) or vw.FINAL_LABEL.match(norm) or _decision_label(norm)
                    or _FIELD_LABEL(norm) or _STOP_LABELS.match(norm)):
                continue  # "Final verdict:", "Verdict:", "Summary:" open a conclusion or a field, never a gate
            if self.ix.outcome_re is not None and self.ix.outcome_re.fullmatch(
                    self.masked[m.end() : unit.end].strip(" \t*_:`.!\u2014\u2013-")) is not None:
                continue  # "Positioning: STAY_DEFENSIVE." states the final verdict under a word of a gate's name
            if norm not in cache:
                cache[norm] = self._part_of_one_gate(norm) if len(norm.split()) <= 3 else None
            gate = cache[norm]
            if gate is not None:
                added.append(_Mention(a, b, (gate,), "words"))
        added = record_fields(self, added, mentions)  # "Requirement:" in every check's record is a field (_record_fields.py)
        if not added:
            return mentions
        return sorted([*mentions, *added], key=_mention_order)

    # ------------------------------------------------------------------ labels

    def _label_text(self, span: Span) -> tuple[str, list[_Mention]]:
        return self.masked[span[0] : span[1]], self._mentions_in(*span)

    def _mentions_in(self, start: int, end: int) -> list[_Mention]:
        """The mentions that start inside ``[start, end)`` (one unit)."""
        out: list[_Mention] = []
        u = self._unit_at(start)
        if u < 0:
            u = bisect_right(self.unit_starts, start)
        while 0 <= u < len(self.units) and self.units[u].start < end:
            mentions = self.unit_mentions.get(u)
            if mentions:
                starts = self._mention_starts(u)
                for i in range(bisect_right(starts, start - 1), len(mentions)):
                    m = mentions[i]
                    if m.start >= end:
                        break
                    out.append(m)  # a name may run on past a label cut at "(": "Classify the Company (Six Categories)"
            u += 1
        return out

    def _mention_starts(self, u: int) -> list[int]:
        starts = self.unit_mention_starts.get(u)
        if starts is None:
            starts = [m.start for m in self.unit_mentions[u]]
            self.unit_mention_starts[u] = starts
        return starts

    def _resolve_labels(self) -> list[tuple[int, Span, str, int | None]]:
        """Anchor lines that name a gate; returns labels left for the embedding fallback.

        Each unresolved label is (line index, label span, label text, the gate
        number the line also gave, or None).
        """
        unresolved: list[tuple[int, Span, str, int | None]] = []
        cache: dict[str, tuple[int, str] | None] = {}
        n = len(self.card.gates)
        specs = any(spec_title(self.masked, line) for line in self.lines if line.kind == "label")
        for li, line in enumerate(self.lines):
            if specs and spec_step(self.masked, line):
                continue  # "Given a stock share of 65%" under "Scenario: Gate 1 - ...": a step, no title (_spec_blocks.py)
            if line.kind == "table":
                self._resolve_row(li, line, cache, unresolved)
                continue
            if line.kind == "plain":
                self._run_in_head(li, line, cache)
                continue
            if line.kind == "json" and line.key != "object" and line.key not in _JSON_GATE_KEYS:
                continue
            if line.kind == "label" and line.label is not None and line.label[0] - line.start > 6:
                continue
            label_span = spec_title(self.masked, line) or line.label  # "Scenario: Gate 2 - ..." (_spec_blocks.py)
            inside = self._mentions_in(*label_span) if label_span is not None else []
            names = [m for m in inside if m.how != "number" and m.invented is None]
            numbered = [m for m in inside if m.how == "number" and self._label_is_prefix(m, label_span, loose=True, lead=1)]
            numbers = [m for m in numbered if m.invented is None]
            invented = [m for m in numbered if m.invented is not None]
            number_span: Span | None = (numbers[0].start, numbers[0].end) if numbers else None
            number_gate: int | None = numbers[0].gates[0] if numbers else None
            if line.number is not None:  # a JSON gate object's "gate": N
                if 1 <= line.number <= n:
                    number_gate, number_span = line.number, (line.start, line.start + 1)
                elif not names:
                    rest = self.masked[label_span[0] : label_span[1]] if label_span else ""
                    self.anchors[li] = _Anchor(None, "number", label_span or (line.start, line.end), invented=_invented_name(f"Gate {line.number}", rest))
                    continue
            if label_span is None or label_span[0] >= label_span[1]:
                if number_gate is not None and number_span is not None:
                    self.anchors[li] = _Anchor(number_gate, "number", number_span)
                continue
            label = self.masked[label_span[0] : label_span[1]]
            rest = _strip_number_words(label)
            norm = normalize(rest)
            if rest:
                offset = label.find(rest)
                if offset >= 0:
                    label_span = (label_span[0] + offset, label_span[0] + offset + len(rest))
            umbrella = self.__dict__.get("umbrella_lines", {}).get(li)
            if not names and umbrella and 0 <= umbrella[0].start - label_span[1] <= 4:  # "Moderate Valuation (P/E & P/B):"
                self.anchors[li] = _Anchor(umbrella[0].gates[0], "words", (umbrella[0].start, umbrella[0].end))
                continue
            if names:
                if not self._label_is_prefix(names[0], label_span, loose=line.kind in ("heading", "json")) \
                        and not _names_one_gate_twice(self.masked, names, label_span):
                    continue
                self.anchors[li] = _Anchor(names[0].gates[0], names[0].how, (names[0].start, names[0].end))
                continue
            if invented:
                title = rest or _title_after(self.masked, label_span[1], line.end)
                self.anchors[li] = _Anchor(None, "number", label_span, invented=_invented_name(invented[0].invented or "", title))
                continue
            blocked = bool(norm) and (_FIELD_LABEL(norm) or bool(vw.FINAL_LABEL.match(norm)) or bool(_STOP_LABELS.match(norm))
                                      or _decision_label(norm) or norm in self.record_fields
                                      or _NUMBERED_SUBJECT.fullmatch(normalize(label)) is not None)
            if number_gate is not None and number_span is not None:
                self.anchors[li] = _Anchor(number_gate, "number", number_span)
                if norm and not blocked and self._gate_like(rest):
                    unresolved.append((li, label_span, rest, number_gate))
                continue
            if not norm or blocked:
                continue
            match = self._fuzzy(norm, cache)
            if match is None and "(" in rest:
                match = self._fuzzy_before_detail(rest, cache)
            if match is not None and match[1] == "words" and self._outcome_only(line):
                continue  # "Positioning: STAY_DEFENSIVE." states the final verdict; a word of a gate's name does not make it the gate
            if match is not None:
                self.anchors[li] = _Anchor(match[0], "fuzzy", label_span)
                continue
            if line.kind in ("heading", "list", "bold", "json", "short", "label") and len(unresolved) <= MAX_EMBED and self._gate_like(rest):
                unresolved.append((li, label_span, rest, None))
        return unresolved

    def _label_is_prefix(self, mention: _Mention, label: Span, *, loose: bool = False, lead: int | None = None) -> bool:
        """A label names a gate when the name leads it and makes up most of it.

        "Margin of Safety Test", "Assessing the moat" and "Gate 3 - Management
        Integrity" do; "No information about management is provided" is a
        sentence that mentions a gate, not a label. Headings and JSON values
        may carry more words around the name.
        """
        before = len(_WORDS_APOS.findall(self.masked, label[0], max(label[0], mention.start)))
        extra = (label[1] - label[0]) - (mention.end - mention.start)
        return before <= (lead if lead is not None else 4 if loose else 3) and extra <= (60 if loose else 28)

    def _resolve_row(
        self, li: int, line: Line, cache: dict[str, tuple[int, str] | None], unresolved: list[tuple[int, Span, str, int | None]]
    ) -> None:
        if li + 1 < len(self.lines) and self.lines[li + 1].kind == "table_sep":
            return  # a header row
        if keyed_by_subject(self.masked, self.lines, li):
            return  # "| BRVL | 4/4 | HOLD |" under "| Ticker | ...": a subject's row, no gate's (_subject_tables.py)
        umbrella = self.__dict__.get("umbrella_lines", {}).get(li)
        if umbrella:  # "| Valuation (P/E & P/B) | FAIL |" (:mod:`._umbrella`)
            self.anchors[li] = _Anchor(umbrella[0].gates[0], "words", (umbrella[0].start, umbrella[0].end))
            return
        number_gate: tuple[int, Span] | None = None
        first_text: tuple[Span, str] | None = None
        for cell in line.cells:
            text, inside = self._label_text(cell)
            names = [m for m in inside if m.how != "number" and m.invented is None]
            if names and names[0].start - cell[0] <= 12:
                m = names[0]
                self.anchors[li] = _Anchor(m.gates[0], m.how, (m.start, m.end))
                return
            invented = [m for m in inside if m.invented is not None]
            if invented and first_text is None:
                rest = _strip_number_words(text)
                self.anchors[li] = _Anchor(None, "number", cell, invented=_invented_name(invented[0].invented or "", rest))
                return
            numbers = [m for m in inside if m.how == "number" and m.invented is None]
            if numbers and number_gate is None:
                number_gate = (numbers[0].gates[0], (numbers[0].start, numbers[0].end))
            rest = _strip_number_words(text)
            norm = normalize(rest)
            if not norm or norm.isdigit() or _is_verdict_cell(text):
                continue
            if first_text is None and number_gate is None and _STOP_LABELS.match(norm):
                return  # a row headed "Company overview", "Notes", "Sources": not a gate's row
            match = self._fuzzy(norm, cache)
            if match is None and "(" in rest:
                match = self._fuzzy_before_detail(rest, cache)  # "| P/E (3-yr avg earnings) | 9.8 |": a screener's cell
            if match is not None:
                self.anchors[li] = _Anchor(match[0], "fuzzy", cell)
                return
            if first_text is None and self._gate_like(rest):
                first_text = (cell, rest)
        if number_gate is not None:
            self.anchors[li] = _Anchor(number_gate[0], "number", number_gate[1])
            if first_text is not None:
                unresolved.append((li, first_text[0], first_text[1], number_gate[0]))
        elif first_text is not None:
            unresolved.append((li, first_text[0], first_text[1], None))

    def _run_in_head(self, li: int, line: Line, cache: dict[str, tuple[int, str] | None]) -> None:
        """A paragraph that opens with a run-in head, a title of a few words ending in a stop, as memos and books set
        their sections: "Price and value. At 18 the shares trade at ...", "Permanent loss. Ninety-two percent of the
        space is let ...". The head labels its paragraph when it names one gate (a mention opening it, a fuzzy match or
        part of one gate's name); any other head ("No. Nobody is calling a slowdown") is prose, never an invented gate."""
        m = _RUN_IN_HEAD.match(self.masked, line.body, min(line.end, line.body + 48))
        if m is None or _RUN_IN_VERB.search(self.masked, m.start("title"), m.end("title")):
            m = _RUN_IN_CLAUSE.match(self.masked, line.body, min(line.end, line.body + 64))  # "Where we are today."
            if m is None:
                return
        span = (m.start("title"), m.end("title"))
        heads = self.run_in_heads
        names = [x for x in self._mentions_in(*span) if x.how != "number" and x.invented is None and x.gates]
        if names:
            if self._label_is_prefix(names[0], span):
                self.anchors[li] = _Anchor(names[0].gates[0], names[0].how, (names[0].start, names[0].end))
                heads.append((li, span, ""))
            return
        norm = normalize(self.masked[span[0] : span[1]])
        if norm and not _FIELD_LABEL(norm) and not vw.FINAL_LABEL.match(norm) and not _STOP_LABELS.match(norm):
            match = self._fuzzy(norm, cache)
            if match is not None:
                self.anchors[li] = _Anchor(match[0], "fuzzy", span)
            heads.append((li, span, "" if match is not None else self.masked[span[0] : span[1]]))  # left to the embedder

    def _tight_owner(self, hit: _Hit, u: int) -> tuple[int, ...] | None:
        """The gates whose mention the verdict word directly follows ("gate 3 is inconclusive", "gates 1 and 2 pass")."""
        all_mentions = self.unit_mentions.get(u)
        if not all_mentions:
            return None
        after = bisect_right(self._mention_starts(u), hit.end - 1)
        if (after < len(all_mentions) and all_mentions[after].how == "quantifier" and _VERB_BEFORE_QUANTIFIER.fullmatch(
                self.masked, hit.end, all_mentions[after].start) is not None and _QUANTIFIER_VERB.fullmatch(self.masked, hit.start, hit.end) is not None
                and _QUANTIFIER_BEFORE.search(self.masked, max(0, hit.start - 16), hit.start) is None):
            # "it meets all seven defensive criteria", "passes every test"; never "must pass all seven tests", "does not
            # pass all seven tests" (a rule, or not every gate)
            return all_mentions[after].gates
        k = bisect_right(self._mention_starts(u), hit.start) - 1
        while k >= 0 and (all_mentions[k].end > hit.start or not all_mentions[k].gates):
            k -= 1
        if k < 0:
            return None
        mentions = [m for m in all_mentions[max(0, k - 8) : k + 1] if m.gates and m.end <= hit.start]
        last = mentions[-1]
        gap = self.masked[last.end : hit.start]
        if (len(gap) > 40 or _TIGHT_BREAK.search(gap) or len(gap.split()) > 4) and not _RELATIVE_GAP.fullmatch(gap):
            return None
        gates = list(last.gates)
        k = len(mentions) - 1
        while k > 0:
            between = " ".join(self.masked[mentions[k - 1].end : mentions[k].start].split()).strip(" ,").lower()
            if between not in ("and", "&", "as well as", "", "and the", "and its"):
                break
            gates = list(mentions[k - 1].gates) + gates
            k -= 1
        return tuple(dict.fromkeys(gates))

    # ------------------------------------------------------------------ invented gates

    def _dedupe_invented(self) -> list[InventedGate]:
        out: list[InventedGate] = []
        open_spans: list[tuple[int, str]] = []  # (end, name key) of kept gates whose span may still hold the next
        seen: set[str] = set()
        labelled = {li for li, a in self.anchors.items() if a.invented is not None}
        for m in self.outside_numbers:
            m.unit = self._unit_at(m.start)
        for m in [*self.mentions, *self.outside_numbers]:
            if m.invented is None or (m.unit >= 0 and (self.units[m.unit].final or self.units[m.unit].line in labelled)):
                continue
            self.invented.append(InventedGate(m.invented, (m.start, m.end)))
        for g in sorted(self.invented, key=lambda g: g.span):
            key = normalize(re.sub(r"(?i)^(?:gate|step|stage|test|criterion|filter|hurdle|check|screen)\s*\d+\s*[:.\-\u2013\u2014]?\s*", "", g.name)) or normalize(g.name)
            if not key or key in seen:
                continue
            open_spans = [(end, o_key) for end, o_key in open_spans if end > g.span[0]]  # spans come in start order
            if any(key != o_key for _, o_key in open_spans):
                continue
            seen.add(key)
            out.append(g)
            open_spans.append((g.span[1], normalize(g.name)))
        return out

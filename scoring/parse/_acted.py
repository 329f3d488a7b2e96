"""Final verdicts stated in the writer's own wording: an act on the analysed company, or a decision predicate of the
decision's object (issue 13, "final verdicts in the wild"; paper §7.5).

Wild write-ups often close without a verdict word: "... so should she: hold Spinwell", "the student should pass on
Denholm", "We own it, at 8% of the portfolio.", "Test closed, idea shelved.", "Status: approved for the strategy
marketplace.", "The active programme will be wound down.", and news of a decider's act ("The fund's investment
committee approved a second tranche"). A reader takes each as the final verdict, on the card's pass or fail side.
Three readings, each of a kind a reader would name:

* **an act on the subject** -- an act verb (:data:`ACTS`) whose object is the company under analysis: a capitalised
  name the answer repeats (at least twice, once inside a sentence; never the investor's name) or "it"/"them". Read
  only in the answer's closing paragraph or final region, where the decision stands ("Lynch would buy Spinwell in
  1990" earlier in an answer is history);
* **a decision predicate** (:data:`PREDICATES`, approval or rejection) of the decision's object: as the value of a
  status or decision label ("Status: approved"), or in the closing paragraph after the object ("idea shelved", "the
  programme will be wound down", "it should be paused");
* **a decider's reported act** -- a committee, board, fund or the writer as the subject of an approval or rejection
  predicate in the active voice ("the committee approved the tranche", "members backed the funding"), anywhere, as a
  decision "decided to exclude" already counts (:mod:`._decided`).

The words are data (``acts`` in ``grammar/languages.yaml``, :mod:`._act_words`), a block per language. In the
languages other than English each entry is a whole phrase that states the decision ("wir steigen ein", "nous passons
notre tour", "继续观望", "관망"): read in the closing as an act on the subject is, a negator right after it ("wir kaufen
nicht") turning it to the other side, a condition or question suffix of an unspaced script ("투자한다면", "买入吗") leaving
it open.

Each is yielded at the lowest level (1) as a stated decision; :mod:`._final`'s ``consider`` still applies conditions,
negation ("we don't own it", "not approved"), other voices, the past and labels, and any verdict word or label of the
answer outranks it. An answer that states none of these gets no final verdict from here: nothing is guessed.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator

from ipb.scoring._text import Trigger
from ipb.scoring import _foreign_verdicts as fv
from ipb.scoring.parse import _act_words as _aw
from ipb.scoring.parse._act_objects import PAST_ACTS, gerund_acts, holding_object, progressive_acts
from ipb.scoring.parse._past import past_time
from ipb.scoring.parse._portfolio_acts import NOUN, exits, move_at
from ipb.scoring.parse._writer_acts import (
    _BARE_ACT, _BARE_VERBS, _POSITION_ACT, _RISK_ACT, _writer_acts, closing_paragraph_start, enters, opens_position, risk_outcome,
)
from ipb.scoring.parse._state import _ParserState

__all__ = ["ACTS", "PREDICATES", "subject_names"]

#: The act verbs (whose object follows) and decision predicates: data, the ``acts`` of ``grammar/languages.yaml`` for the
#: languages whose acts take their object after them (:mod:`._act_words`).
ACTS = _aw.ACTS
PREDICATES = _aw.PREDICATES

_APOS = "['\u2019]"


def _alternation(words: tuple[str, ...]) -> str:
    return "|".join(re.escape(w).replace(r"\ ", r"[ \t]+") for w in sorted(words, key=len, reverse=True))


_ACT_RE = {side: re.compile(rf"(?i)(?P<verb>{_alternation(words)})[ \t]+(?P<obj>[A-Za-z][\w&.'-]*)") for side, words in ACTS.items()}
#: The irregular past forms of the act verbs ("I haven't bought it yet", "we sold the stake"), read as the acts are.
_PAST_ACT_RE = {side: re.compile(rf"(?i)(?P<verb>{_alternation(words)})[ \t]+(?P<obj>[A-Za-z][\w&.'-]*)") for side, words in PAST_ACTS.items()}
_PRED = {side: _alternation(words) for side, words in PREDICATES.items()}
_PRED_ANY = _alternation(PREDICATES[1] + PREDICATES[0])

#: A status or decision label opening its line, its value a predicate: "Status: approved", "**Outcome** - rejected".
#: Each run of spacing around the separator is read by one possessive star (s52redos: ``[ \t]*[*_]{0,2}[ \t]*`` after
#: the colon split a long run two ways, "Outcome:" + 8,000 spaces cost seconds); what follows each run (a separator, a
#: star, "not" or a predicate word) never opens with spacing, so no other split could match.
_STATUS_LABEL = re.compile(
    rf"(?i)(?:^|(?<=\n))[ \t>*_#-]*(?:[\w'-]+[ \t]+){{0,2}}(?:status|state|result|outcome|decision|verdict|ruling)[*_]{{0,2}}"
    rf"(?:[ \t]*+(?::|\u2014|\u2013)|[ \t]++-)[ \t]*+(?:[*_]{{1,2}}+[ \t]*+)?(?:not[ \t]+(?:yet[ \t]+)?)?(?P<pred>{_PRED_ANY})\b")
#: The decision's object before a predicate, in the closing paragraph: "idea shelved", "the programme will be wound
#: down", "it should be paused", "it will not be bought" (a negation there is ``consider``'s to apply) ("it" only with a
#: verb of obligation or the future: "it is suspended" may be a dividend).
_OBJECT_PRED = re.compile(
    r"(?i)\b(?:(?:(?:the|this|our|my|its|that)[ \t]+)?(?:[\w-]+[ \t]+)?(?:idea|thesis|hypothesis|trade|bet|position|stake|proposal|plan|"
    r"project|programme|program|strategy|deal|investment|tranche|funding|portfolio|mandate|request|test)"
    r"(?:[ \t]+(?:(?:is|are|was|were|isn't|aren't|wasn't|weren't)(?:[ \t]+not)?|has[ \t]+been|have[ \t]+been|"
    r"(?:will|would|should|must)(?:[ \t]+(?:not|never))?[ \t]+be|(?:won't|wouldn't|shouldn't)[ \t]+be|is[ \t]+to[ \t]+be|"
    r"gets|got))?|it\s+(?:(?:will|should|must|is\s+to|would)(?:\s+(?:not|never))?|won't|wouldn't|shouldn't)\s+be)"
    rf"[ \t]+(?:now[ \t]+|therefore[ \t]+|then[ \t]+)?(?P<pred>{_PRED_ANY})\b")
#: A decider as the subject of a predicate in the active voice, ending right before it: "the committee ", "Committee
#: members nonetheless ", "the board has " (then "approved a second tranche").
_DECIDER_BEFORE = re.compile(
    rf"(?i)\b(?:committee|board|council|fund|ministry|members|trustees|partners|we|i)(?:{_APOS}s)?"
    r"(?:[ \t]+(?:has|have|had))?(?:[ \t]+(?:now|nonetheless|unanimously|finally|formally|also))?[ \t]+\Z")
#: The reported act itself, its object following ("approved a second tranche", "backed the funding").
_REPORTED = re.compile(r"(?i)(?P<pred>approved|backed|funded|rejected|vetoed|turned[ \t]+down|excluded|divested)[ \t]+"
                       r"(?:the|a|an|its|our|their|[$\d]|SAR|USD|EUR)\b")



def _base_forms(participles: tuple[str, ...]) -> tuple[str, ...]:
    """The base forms a one-word "-ed" participle may have ("approved" -> approve, "accepted" -> accept, "dropped" ->
    drop): every candidate, a stem that is no word matching nothing.

    >>> _base_forms(("approved", "dropped", "greenlit"))
    ('approv', 'approve', 'drop', 'dropp', 'droppe')
    """
    forms: set[str] = set()
    for w in participles:
        if " " in w or "-" in w or not w.endswith("ed"):
            continue
        forms.update((w[:-1], w[:-2]))
        if len(w) > 4 and w[-3] == w[-4]:
            forms.add(w[:-3])
    return tuple(sorted(forms))


_BASES = {side: _base_forms(words) for side, words in PREDICATES.items()}
#: A reported act in its base form after a decider and an auxiliary or a verb of choosing: "the investment committee
#: did not approve the proposal", "the board voted to fund the tranche", "the fund declined to back the deal" (the
#: decider and its verb are checked behind it with :data:`_DECIDER_AUX_BEFORE`).
_REPORTED_BASE = re.compile(rf"(?i)(?P<pred>{_alternation(_BASES[1] + _BASES[0])})[ \t]+(?:the|a|an|its|our|their|this|that|[$\d]|SAR|USD|EUR)\b")
_DECIDER_AUX_BEFORE = re.compile(
    rf"(?i)\b(?:committee|board|council|fund|ministry|members|trustees|partners|we|i)(?:{_APOS}s)?[ \t]+"
    r"(?:(?:has|have|had|nonetheless|unanimously|finally|formally|also|then)[ \t]+){0,2}"
    rf"(?P<aux>did(?:[ \t]+not|n{_APOS}t)?|will[ \t]+not|won{_APOS}t|would[ \t]+not|wouldn{_APOS}t|"
    r"(?:declined|refused)[ \t]+to|(?:voted|decided|chose|agreed|opted)[ \t]+(?:not[ \t]+)?to)[ \t]+\Z")

#: The company as the object of a buy or a sale in the passive, the future or an obligation: "it will not be bought",
#: "the stock should be sold" (negation: ``consider``); group ``act``, the side by :data:`_PASSIVE_SOLD`.
_PASSIVE_ACT = re.compile(
    r"(?i)\b(?:it|the[ \t]+(?:stock|shares|company|business|firm|name))[ \t]+(?:(?:will|would|should|must|is[ \t]+to)(?:[ \t]+(?:not|never))?"
    rf"|won{_APOS}t|wouldn{_APOS}t|shouldn{_APOS}t)[ \t]+be[ \t]+(?P<act>bought|purchased|acquired|added|sold|dumped|exited)\b")
_PASSIVE_SOLD = frozenset({"sold", "dumped", "exited"})

_PRONOUNS = frozenset({"it", "them"})
#: The most matches one closing reading weighs (a closing of a megabyte is no closing).
_MAX_CLOSING_MATCHES = 200
#: A capitalised word inside a sentence (after a lower-case word, a comma or a colon): a name, not a sentence opening.
_INNER_NAME = re.compile(r"(?<=[a-z,;:] )[A-Z][a-z][\w-]{1,}")
#: Capitalised words that are no company ("Treasury bonds", "Monday"): weekdays, months and a few institutions.
_NOT_NAMES = frozenset("""Monday Tuesday Wednesday Thursday Friday Saturday Sunday January February March April May June July
August September October November December Treasury Treasuries Fed The This That These Those There Here Our We It""".split())


def subject_names(text: str, investors: set[str]) -> frozenset[str]:
    """The names an answer gives its subject: capitalised words it repeats (at least twice in all, once inside a
    sentence), less the investors' names and calendar words.

    >>> sorted(subject_names("Spinwell opens sites. Lynch likes it, so hold Spinwell.", {"lynch"}))
    ['Spinwell']
    >>> sorted(subject_names("So we buy. Lynch said so; Lynch again.", {"lynch"}))
    []
    """
    inner = {m.group() for m in _INNER_NAME.finditer(text)}
    counts = Counter(re.findall(r"\b[A-Z][a-z][\w-]{1,}\b", text))
    return frozenset(n for n in inner if counts[n] >= 2 and n not in _NOT_NAMES and n.lower() not in investors)


_TRIGGERS: list[Trigger] = [
    *(Trigger(w.split()[0].lower(), _ACT_RE[side], k) for k, (side, words) in enumerate(ACTS.items()) for w in words),
    *(Trigger(w, _PAST_ACT_RE[side], list(ACTS).index(side)) for side, words in PAST_ACTS.items() for w in words),
    *(Trigger(w, _STATUS_LABEL, 10) for w in ("status", "state", "result", "outcome", "decision", "verdict", "ruling")),
    *(Trigger(w, _REPORTED, 11) for w in ("approved", "backed", "funded", "rejected", "vetoed", "turned", "excluded", "divested")),
    *(Trigger(w, _REPORTED_BASE, 13) for w in _BASES[1] + _BASES[0]),
]
_PRED_TRIGGERS = [Trigger(w.split()[0].lower(), re.compile(rf"(?i)(?P<pred>{re.escape(w).replace(chr(92) + ' ', '[ ' + chr(9) + ']+')})\b"), 12)
                  for side in PREDICATES.values() for w in side]
_SIDES = list(ACTS)
#: Every act verb with its side (1 pass, 0 fail, "HOLD"): their "-ing" forms open a subjectless act (_act_objects.py).
_ALL_VERBS: dict[str, object] = {w: side for side, words in ACTS.items() for w in words}


#: Words that leave an act open: a possibility ("we could hold it") or one side of a choice ("lift the payout or hold
#: it", "either sell it or ...", "whether to buy Acme").
_OPEN_WORDS = frozenset({"may", "might", "could", "possibly", "perhaps", "or", "either", "whether"})
_OR_AFTER = re.compile(r"(?i)[ \t,]+(?:or|nor)\b")


def _open_choice(text: str, sentence_start: int, start: int, end: int) -> bool:
    """Whether the act at ``start:end`` (its sentence opening at ``sentence_start``) is a possibility or one side of a
    choice: a word of :data:`_OPEN_WORDS` among the six words before it in its clause, or "or" right after its object.

    >>> t = "We could lift the payout or hold it; I cannot tell yet."
    >>> _open_choice(t, 0, t.index("hold"), t.index("hold") + 7), _open_choice("So hold it.", 0, 3, 10)
    (True, False)
    """
    before = text[max(sentence_start, start - 80) : start]
    clause = re.split(r"[,;:\u2014\u2013]", before)[-1]
    words = re.findall(r"[\w']+", clause.lower())[-6:]
    return not _OPEN_WORDS.isdisjoint(words) or _OR_AFTER.match(text, end) is not None


#: After a phrase of an unspaced script: a condition or question suffix that leaves the act open ("투자한다면", if we
#: invest; "买入吗", buy?; "投資するか", whether to invest), or a question mark.
_OPEN_TAIL = re.compile("[\uba74\u304b\u5417\u55ce\u5462?\uff1f]")


#: German articles: a negator right after one qualifies the noun's adjective ("die nicht teure Aktie"), not the verb.
_ARTICLES_BEFORE_ADJECTIVE = frozenset({"die", "der", "das", "dem", "des", "ein", "eine", "einen", "einem", "einer"})


def _negated_after(text: str, end: int) -> bool:
    """Whether a negator of a spaced language negates the verb of a phrase ending at ``end``: the first word after it
    ("wir kaufen nicht", "vi kjøper ikke"), the second unless an article stands before it ("wir kaufen sie nicht", not
    "wir kaufen die nicht teure Aktie"), or the last word of the clause, where German puts it after the object ("wir
    kaufen die Aktie heute nicht"; the clause ends at punctuation, within 60 characters).

    >>> _negated_after("Wir kaufen nicht.", 10), _negated_after("Wir kaufen jetzt.", 10), _negated_after("Compramos, no vendemos.", 9)
    (True, False, False)
    >>> _negated_after("Wir kaufen die Aktie nicht.", 10), _negated_after("Wir kaufen die nicht teure Aktie.", 10)
    (True, False)
    """
    clause = re.split(r"[,;:.!?\n\u2014\u2013]", text[end : end + 60], maxsplit=1)[0]
    words = re.findall(r"[^\W\d_]+", clause.lower()) + ["", ""]
    # (a negator not followed by "nur": "nicht nur", not only)
    if words[0] in fv.NEGATORS and words[1] not in fv.NOT_ONLY:
        return True
    if words[1] in fv.NEGATORS and words[2] not in fv.NOT_ONLY and words[0] not in _ARTICLES_BEFORE_ADJECTIVE:
        return True
    # (the clause's last word; a clause cut at 60 characters has no known end)
    whole = len(clause) < len(text[end : end + 60]) or end + 60 >= len(text)
    return whole and len(words) > 3 and words[-3] in fv.NEGATORS


#: Words that, right after a negated act, make the negation the scope's ("we do not buy only for the dividend"): the
#: ``not_only`` words of every language (:data:`ipb.scoring._foreign_verdicts.NOT_ONLY`) and English ones.
ONLY_WORDS = fv.NOT_ONLY | frozenset({"only", "just", "merely", "solely", "simply", "purely"})
#: At most this many words of the act's object between it and the "not only" word ("we don't buy it just for ...",
#: "no compramos la acción solo por ...").
OBJECT_GAP = 3
#: Negators of every language and English ones: a "not only" after one in the gap is the reason's ("not only because").
_NEGATORS = fv.NEGATORS | frozenset({"not", "never", "no", "nor"})
#: Words that open another clause: a "not only" word after one of them is not the act's ("we do not buy and only watch").
_JOINS = fv.CLAUSE_JOINS | frozenset({"and", "but", "or", "nor", "because", "so", "then", "yet", "while", "if", "unless",
                                      "when", "as", "since", "though", "although", "y", "pero", "et", "mais", "e", "ma"})


def only_scope(text: str, end: int) -> bool:
    """Whether a negated act ending at ``end`` is negated only in its scope: the next word of its clause, or the one
    after a negator there, is a "not only" word ("nous n'achetons pas seulement pour le dividende: nous achetons",
    "no compramos solo por ...", "non compriamo solo ..."). Such a clause says the act has more reasons than one;
    the affirmed act, when the writer states it, is read where it stands (s39 breaker, issue 13).

    >>> only_scope("Nous n'achetons pas seulement pour le dividende", 19), only_scope("Nous n'achetons pas.", 19)
    (True, False)
    >>> only_scope("No compramos solo por el dividendo", 12), only_scope("We do not buy it; only later.", 13)
    (True, False)

    The act's object may stand between (up to :data:`OBJECT_GAP` words, none of them a joining word or a negator):

    >>> only_scope("We don't buy it just for the dividend", 12), only_scope("We do not buy and only watch", 13)
    (True, False)
    >>> only_scope("We would not buy it not only because of the price", 16)  # "not only" is the reason's: negated
    False
    """
    clause = re.split(r"[,;:.!?\n\u2014\u2013]", text[end : end + 60], maxsplit=1)[0]
    words = re.findall(r"[^\W\d_]+", clause.lower()) + ["", ""]
    if words[0] in fv.NEGATORS:  # "n'achetons pas seulement"
        return words[1] in ONLY_WORDS
    for word in words[: OBJECT_GAP + 1]:
        if word in ONLY_WORDS:
            return True
        if word in _JOINS or word in _NEGATORS:
            return False
    return False


def _phrase_outcome(kind: str, ix: object) -> str | None:
    """The card outcome a phrase of kind ``kind`` states: the pass outcome for entering or approving, the HOLD outcome
    for keeping (None on a card without one), a WATCH or WAIT outcome of the card's own for watching, else the fail one."""
    outcome_of: dict[str, str] = getattr(ix, "outcome_of")
    if kind in ("enter", "approved"):
        return getattr(ix, "pass_outcome")  # type: ignore[no-any-return]
    if kind == "keep":
        return outcome_of.get("HOLD")
    if kind == "watch":
        return outcome_of.get("WATCH") or outcome_of.get("WAIT") or getattr(ix, "fail_outcome")
    return getattr(ix, "fail_outcome")  # type: ignore[no-any-return]


def _side_of_predicate(word: str) -> int:
    w = re.sub(r"[ \t]+", " ", word.lower())
    return 1 if w in PREDICATES[1] else 0


class _ActedMixin(_ParserState):
    """Finds final verdicts stated as an act on the subject or as a decision predicate (:mod:`._acted`)."""

    def _closing_units(self) -> tuple[int, int]:
        """The first sentence of the answer's closing paragraph (the text after its last blank line, less a trailing
        postscript or sign-off: :func:`closing_paragraph_start`) and the last one."""
        para = closing_paragraph_start(self.masked)
        first = self._unit_at(para) if para > 0 else 0
        return (first if first >= 0 else len(self.units)), len(self.units) - 1

    def _closing_matches(self, pattern: re.Pattern[str]) -> Iterator[re.Match[str]]:
        """Matches of ``pattern`` in the closing paragraph and in the final region's sentences before it (at most
        :data:`_MAX_CLOSING_MATCHES`): the readings of stop 37 look nowhere else, so a long answer costs no more."""
        first, _ = self._closing_units()
        start = self.units[first].start if first < len(self.units) else len(self.masked)
        end = len(self.masked)
        # (a closing reads its last 4,000 characters, a final sentence its first 1,000, at most 20 of them: an
        # alternation of hundreds of phrases costs seconds on a megabyte, and no closing is that long)
        spans = [(u.start, min(u.end, u.start + 1000)) for u in self.units[:first] if u.final][-20:] + [(max(start, end - 4000), end)]
        found = 0
        for s, e in spans:
            for m in pattern.finditer(self.masked, s, e):
                yield m
                found += 1
                if found >= _MAX_CLOSING_MATCHES:
                    return

    def _act_object(self, obj: str, at: int) -> bool:
        """Whether an act's object (its first word ``obj``, at ``at``) is the subject of the answer: "it"/"them", a name
        the answer repeats (:func:`subject_names`) or a holding ("my shares", "the second-lien notes": _act_objects.py)."""
        if obj in _PRONOUNS or holding_object(self.masked, at) is not None:
            return True
        names: frozenset[str] | None = getattr(self, "_act_names", None)
        if names is None:
            names = subject_names(self.masked, {w.lower() for n in self.ix.investor_of for w in n.split()})
            setattr(self, "_act_names", names)  # (read once per parse: the answer's names do not change)
        return obj in names

    def _acted_decisions(self) -> Iterator[tuple[int, int, str, int, bool]]:
        """(start, end, outcome, sentence, stated) for every final verdict stated in the writer's own wording, less
        those dated in the past ("the board approved a buyback in 2019": the holding's history, as in :mod:`._decided`)."""
        for start, end, outcome, u, stated in self._acted_candidates():
            unit = self.units[u]
            if past_time(self.masked, unit.start, min(unit.end, end + 40), "act") is None:
                yield start, end, outcome, u, stated

    def _acted_candidates(self) -> Iterator[tuple[int, int, str, int, bool]]:
        masked, ix = self.masked, self.ix
        first, _ = self._closing_units()

        def closing(u: int) -> bool:
            return u >= first or self.units[u].final

        for key, m in self._scan(_TRIGGERS):
            u = self._unit_at(m.start())
            if u < 0:
                continue
            if key < len(_SIDES):  # an act on the subject, in the closing
                if not closing(u) or not m.group("verb").islower() or _open_choice(masked, self.units[u].start, m.start(), m.end()):
                    continue
                if not self._act_object(m.group("obj").rstrip(".'"), m.start("obj")):
                    continue
                side = _SIDES[key]
                outcome = ix.outcome_of.get("HOLD") if side == "HOLD" else ix.pass_outcome if side == 1 else ix.fail_outcome
                if outcome:
                    yield m.start(), m.end("verb"), outcome, u, True
            elif key == 10:  # "Status: approved"
                side = _side_of_predicate(m.group("pred"))
                yield m.start("pred"), m.end("pred"), ix.pass_outcome if side else ix.fail_outcome, u, True
            elif key == 11:  # "the committee approved a second tranche"
                if _DECIDER_BEFORE.search(masked, max(self.units[u].start, m.start() - 60), m.start()) is None:
                    continue
                side = _side_of_predicate(m.group("pred"))
                yield m.start("pred"), m.end("pred"), ix.pass_outcome if side else ix.fail_outcome, u, True
            elif key == 13:  # "the investment committee did not approve the proposal" (negation: ``consider``)
                aux = _DECIDER_AUX_BEFORE.search(masked, max(self.units[u].start, m.start() - 80), m.start())
                if aux is None:
                    continue
                side = m.group("pred").lower() in _BASES[1]  # ("declined to back": :data:`._final_words._REFUSED_TO`)
                yield m.start("pred"), m.end("pred"), ix.pass_outcome if side else ix.fail_outcome, u, True
        for m in self._closing_matches(_PASSIVE_ACT):  # "it will not be bought", in the closing
            u = self._unit_at(m.start("act"))
            if u >= 0 and closing(u):
                sold = m.group("act").lower() in _PASSIVE_SOLD
                yield m.start("act"), m.end("act"), ix.fail_outcome if sold else ix.pass_outcome, u, True
        for m in self._closing_matches(_RISK_ACT):  # "so I'm taking risk off", "I'm cutting risk", in the closing
            u = self._unit_at(m.start())
            if u < 0 or not closing(u):
                continue
            outcome = risk_outcome(set(ix.outcome_of.values()), m.group("off") is not None)
            if outcome:
                yield m.start(), m.end(), outcome, u, True
        if enters(ix.pass_outcome):
            for m in self._closing_matches(_POSITION_ACT):  # "My move: starter position this week.", in the closing
                u = self._unit_at(m.start())
                if u >= 0 and closing(u) and opens_position(masked, m.start()):
                    yield m.start(), m.end(), ix.pass_outcome, u, True
        for m in self._closing_matches(_BARE_ACT):  # "I'd cut the order to 7% and buy.", closing its sentence
            u = self._unit_at(m.start())
            if u < 0 or not closing(u) or not m.group("verb").islower() or not _writer_acts(masked[self.units[u].start : m.start()]):
                continue
            side = _BARE_VERBS[m.group("verb").lower()]
            outcome = ix.outcome_of.get("HOLD") if side == "HOLD" else ix.pass_outcome if side == 1 else ix.fail_outcome
            if outcome:
                yield m.start(), m.end(), outcome, u, True
        last = len(self.units) - 1
        sentences = ((self.units[u].start, self.units[u].end) for u in range(first, last + 1))
        for start, end, side in gerund_acts(masked, sentences, _ALL_VERBS):  # "Adding today.", "Passing on this one."
            u = self._unit_at(start)
            outcome = ix.outcome_of.get("HOLD") if side == "HOLD" else ix.pass_outcome if side == 1 else ix.fail_outcome
            if u >= 0 and outcome:
                yield start, end, outcome, u, True
        closing_start = self.units[first].start if first < len(self.units) else len(masked)
        for start, end, side, at in progressive_acts(masked, closing_start, len(masked), _ALL_VERBS):  # "I'm keeping my shares"
            u = self._unit_at(start)
            obj = re.match(r"[A-Za-z][\w&.'-]*", masked[at:])
            if obj is None or not self._act_object(obj.group().rstrip(".'"), at):
                continue
            outcome = ix.outcome_of.get("HOLD") if side == "HOLD" else ix.pass_outcome if side == 1 else ix.fail_outcome
            if u >= 0 and outcome and not _open_choice(masked, self.units[u].start, start, end):
                yield start, end, outcome, u, True
        for m in self._closing_matches(_aw.PHRASES):  # "wir steigen ein", "nous passons notre tour", "继续观望", in the closing
            u = self._unit_at(m.start())
            kind, negated = _aw.phrase_reading(m.group())  # ("nous n'achetons pas": a form negated round the verb)
            if u < 0 or kind is None or not closing(u):
                continue
            if fv.unspaced(m.group()) and _OPEN_TAIL.match(masked, m.end()):
                continue
            if negated and only_scope(masked, m.end()):
                continue  # "nous n'achetons pas seulement pour ...": not the act negated, its reasons widened
            outcome = _phrase_outcome(kind, ix)
            if outcome and not fv.unspaced(m.group()) and (negated or _negated_after(masked, m.end())):
                outcome = {ix.pass_outcome: ix.fail_outcome, ix.fail_outcome: ix.pass_outcome}.get(outcome)
            if outcome:
                yield m.start(), m.end(), outcome, u, True
        if enters(ix.pass_outcome) or exits(ix.fail_outcome):  # "entra en la cartera modelo", "放进组合", in the closing
            for noun in self._closing_matches(NOUN):
                move = move_at(masked, noun)
                u = self._unit_at(noun.start())
                if move is None or u < 0 or not closing(u) or move[2] == 1 and not enters(ix.pass_outcome):
                    continue
                yield move[0], move[1], ix.pass_outcome if move[2] == 1 else ix.fail_outcome, u, True
        for _, m in self._scan(_PRED_TRIGGERS):  # "idea shelved", "the programme will be wound down", in the closing
            u = self._unit_at(m.start())
            if u < 0 or not closing(u):
                continue
            unit = self.units[u]
            found = _OBJECT_PRED.search(masked, max(unit.start, m.start() - 60), m.end())
            if found is None or found.end() != m.end():
                continue
            side = _side_of_predicate(m.group("pred"))
            yield m.start(), m.end(), ix.pass_outcome if side else ix.fail_outcome, u, True

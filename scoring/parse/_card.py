"""The card side of the parser: what one card offers to be recognised by (built once per card and cached).

Gate names, aliases and ids as fuzzy-match choices and as mention patterns
(with the names in other languages of the card's translations sidecar,
:mod:`ipb.engine.translations`, read as aliases: :mod:`._foreign_names`),
the card's outcome words (any casing, spaces or hyphens for underscores),
investor names for attributions, entity and book names for citations, the
gate texts the embedding fallback compares with, and each gate's required
elements (:mod:`._elements`).
"""

from __future__ import annotations

import re
import sys
from functools import lru_cache

from ipb.engine.card import ELEMENT_FIELD, Card, Gate
from ipb.engine.translations import gate_names, name_languages
from ipb.errors import ErrorGroup, IpbError
from ipb.scoring import verdict_words as vw
from ipb.scoring._foreign_verdicts import MARK_END, unspaced
from ipb.scoring._proclitics import attaches
from ipb.scoring._text import (
    KNOWN_BOOKS,
    KNOWN_ENTITIES,
    KNOWN_INVESTORS,
    STOPWORDS,
    Trigger,
    normalize,
    stem,
)
from ipb.scoring.parse._abbreviations import gate_abbreviations
from ipb.scoring.parse._act_objects import gerund
from ipb.scoring.parse._common import _CardIndex
from ipb.scoring.parse._element_spec import _elements
from ipb.scoring.parse._foreign_names import TRANSLATION, foreign_literal, foreign_literals, foreign_name_pattern, name_key
from ipb.scoring.parse._foreign_terms import TERM, term_languages, term_names
from ipb.scoring.parse._memo import per_object
from ipb.scoring.parse._references import _SEP
from ipb.scoring.parse._regime_words import REGIME_SYNONYMS, regime_pattern

#: Surnames too common to name an investor on their own.
_AMBIGUOUS_SURNAMES = frozenset({"Wood", "Price", "Smith", "Jones", "Lu", "Sleep", "Miller", "Management", "Investments", "Fund", "Board"})


@lru_cache(maxsize=1)
def _registry_names() -> tuple[tuple[str, str], ...]:
    """(written name, canonical name) for the investor registry (``frameworks/investors.yaml``), if it loads."""
    try:
        from ipb.engine.investors import load_investors

        return tuple((n, inv.name) for inv in load_investors().values() for n in inv.names())
    except Exception:  # noqa: BLE001 - the registry is optional for parsing
        return ()


def _investor_names(card_investor: str) -> dict[str, str]:
    """Every way of writing an investor's name -> the canonical name (registry name, or the full name)."""
    names: dict[str, str] = {}
    for written, full in _registry_names():
        names.setdefault(written, full)
    for full in (card_investor, *KNOWN_INVESTORS):
        names.setdefault(full, full)
        last = full.split()[-1]
        if " " in full and last not in _AMBIGUOUS_SURNAMES and not last.isupper():
            names.setdefault(last, names.get(full, full))
    return names


def _bounded_word(name: str) -> bool:
    """Whether a foreign name starts on a word boundary the scan may test (:class:`ipb.scoring._text.Trigger`
    ``word``): not in an unspaced script, nor where a Hebrew or Arabic particle may be written onto it ("והחוב"); its
    pattern then carries its own start (:func:`._foreign_names.foreign_name_pattern`)."""
    return not unspaced(name) and not attaches(name)


def _alias_pattern(alias: str, *, inflect: bool = True) -> str | None:
    words = normalize(alias).split()
    if not words:
        return None
    if unspaced(alias):
        # a name in a script written without spaces ("安全边际", "収益の安定性"): no word boundaries to look for and no
        # English inflection; it is matched anywhere, as the verdict words of those scripts are (grammar/languages.yaml)
        return _SEP.join(re.escape(w) for w in words)
    # a word inside the name may be inflected as the last one may: "leans against the pendulum" for the alias
    # "lean against the pendulum", "passes the net-net tests" for "pass the net-net test"
    body = _SEP.join(re.escape(w) + ("(?:s|es)?" if inflect and w.isalpha() and len(w) >= 3 and k < len(words) - 1 else "")
                     for k, w in enumerate(words))
    return rf"\b{body}(?:s|es|'s)?\b"


#: Words that frame a criterion without naming its substance: "net current asset value *test*", "two-thirds *rule*",
#: "P/E *ceiling*". A reader who meets "the net current asset value" knows the gate without the frame word.
_FRAME_WORDS = frozenset({"test", "tests", "check", "checks", "rule", "rules", "requirement", "requirements", "limit", "limits",
                          "screen", "criterion", "criteria", "filter", "gate", "hurdle", "question", "cap", "ceiling", "floor",
                          "minimum", "maximum", "threshold", "kill"})
#: Where an element's text splits into separate phrases: a field, brackets, "vs", a figure.
_ELEMENT_CUT = re.compile(r"[|()\[\];,:]|\b(?:vs|versus|or|and then)\b\.?|[-+~\u2248$]?\d[\d.,]*[%xX\u00d7]?")


def _trim(words: list[str]) -> list[str]:
    while words and (words[-1] in _FRAME_WORDS or words[-1] in STOPWORDS):
        words = words[:-1]
    while words and (words[0] in _FRAME_WORDS or words[0] in STOPWORDS):
        words = words[1:]
    return words


def _gate_phrases(gate: Gate) -> list[str]:
    """The phrases that name a gate's substance (normalised): its name and aliases without frame words ("net current
    asset value test" -> "net current asset value") and the literal phrases of its required elements ("current ratio
    {current_ratio} (at least 2)" -> "current ratio"). Only phrases of at least two content words are kept."""
    out: list[str] = []
    for label in (gate.name, *gate.aliases):
        out.append(" ".join(_trim(normalize(label).split())))
    for element in gate.required_elements:
        for part in _ELEMENT_CUT.split(ELEMENT_FIELD.sub("|", element)):
            out.append(" ".join(_trim(normalize(part).split())))
    return [p for p in dict.fromkeys(out)
            if len({w for w in p.split() if w not in STOPWORDS and len(w) > 2 and not w.isdigit()}) >= 2]


def _substance_mentions(card: Card, taken: dict[str, tuple[int, str]]) -> dict[str, tuple[int, str]]:
    """Phrase -> (gate, "substance") for the phrases of :func:`_gate_phrases` that belong to one gate only.

    A phrase found inside another gate's name, alias or element text ("intrinsic value" in one gate's "price versus
    intrinsic value" and another's "intrinsic value estimate") names neither; names and aliases already matched
    verbatim (``taken``) keep their own entry.
    """
    texts = {g.number: " " + " | ".join(normalize(t) for t in (g.name, *g.aliases, *(ELEMENT_FIELD.sub(" ", e) for e in g.required_elements))) + " "
             for g in card.gates}
    out: dict[str, tuple[int, str]] = {}
    for g in card.gates:
        for phrase in _gate_phrases(g):
            if phrase in taken or phrase in out:
                continue
            if any(f" {phrase} " in text for number, text in texts.items() if number != g.number):
                continue
            out[phrase] = (g.number, "substance")
    return out


#: Plain synonyms of the verb that opens a card's outcome word (ABANDON_HYPOTHESIS, HOLD_BALANCED_MIX, SIZE_UP): a writer
#: who drops the hypothesis abandons it. Only for an outcome of a verb and its object, never a bare verb ("keep" alone).
_OUTCOME_VERBS: dict[str, tuple[str, ...]] = {
    "ABANDON": ("DROP", "SCRAP", "DITCH", "DISCARD"),
    "HOLD": ("KEEP",),
    "STAY": ("REMAIN",),
    "REDUCE": ("CUT", "TRIM"),
    "INCREASE": ("RAISE",),
    "SIZE": ("SCALE",),
    "TAKE": ("OPEN", "INITIATE"),
    "EXIT": ("GET_OUT_OF", "BE_OUT_OF", "PULL_OUT_OF", "SELL_OUT_OF"),
    "ROTATE": ("SWITCH",),
}


#: Past participles of the verbs that open outcome words, where adding "ed" / "d" would misspell them.
_PARTICIPLES = {"CUT": "CUT", "TAKE": "TAKEN", "HOLD": "HELD", "KEEP": "KEPT", "SELL": "SOLD", "BUY": "BOUGHT", "DROP": "DROPPED",
                "SCRAP": "SCRAPPED", "TRIM": "TRIMMED", "STOP": "STOPPED", "SHUT": "SHUT", "SET": "SET", "PUT": "PUT"}
#: The first word of an outcome's rest that is a particle or a direction, not the verb's object ("SIZE_UP", "TILT_TO_...").
_PARTICLES = frozenset({"TO", "UP", "DOWN", "INTO", "OUT", "OFF", "ON", "IN", "BACK", "AWAY", "OVER", "TOWARD", "TOWARDS"})


def _participle(verb: str) -> str:
    """The past participle of an outcome's verb (upper case): ABANDON -> ABANDONED, REDUCE -> REDUCED, TAKE -> TAKEN.

    >>> [_participle(v) for v in ("ABANDON", "REDUCE", "TAKE", "DROP", "DIVERSIFY")]
    ['ABANDONED', 'REDUCED', 'TAKEN', 'DROPPED', 'DIVERSIFIED']
    """
    if verb in _PARTICIPLES:
        return _PARTICIPLES[verb]
    if verb.endswith("E"):
        return verb + "D"
    if verb.endswith("Y") and len(verb) > 2 and verb[-2] not in "AEIOU":
        return verb[:-1] + "IED"
    return verb + "ED"


def _outcome_key(text: str) -> str:
    """An outcome word as the card spells it: upper case, words joined by "_"."""
    return re.sub(r"[ \t_:-]+", "_", text.strip().upper())


#: Sidecar files whose errors were already reported in this process (each is reported once).
_REPORTED: set[str] = set()


def _sidecar_names(card: Card) -> dict[str, tuple[str, ...]]:
    """:func:`ipb.engine.translations.gate_names` of ``card``; a broken sidecar is reported once on standard error,
    located (``ipb check`` lists every problem), and its names are not read: the parser never raises on an answer, and
    the card's English names still read."""
    try:
        return gate_names(card)
    except IpbError as error:
        errors = error.errors if isinstance(error, ErrorGroup) else [error]
        key = errors[0].file or card.id
        if key not in _REPORTED:
            _REPORTED.add(key)
            sys.stderr.write(f"warning: {errors[0]}; the names of this translations sidecar are not read "
                             f"({len(errors)} problem(s); ipb check lists them)\n")
        return {}


def _sidecar_languages(card: Card) -> dict[str, tuple[str, ...]]:
    """Name key (:func:`._foreign_names.name_key`) of each name of ``card``'s sidecar -> its language codes; empty for a
    broken sidecar, whose names :func:`_sidecar_names` does not read."""
    try:
        written = name_languages(card)
    except IpbError:
        return {}
    out: dict[str, tuple[str, ...]] = {}
    for name, codes in written.items():
        out[name_key(name)] = tuple(dict.fromkeys((*out.get(name_key(name), ()), *codes)))
    return out


@per_object()
def _index(card: Card) -> _CardIndex:
    """The card's index (:func:`_build_index`), built once per card object."""
    return _build_index(card)


@per_object()
def _term_index(card: Card) -> _CardIndex:
    """The card's index with the key nouns of ``grammar/gate_terms.yaml`` as names too (:mod:`._foreign_terms`), built
    once per card object; read by :func:`ipb.scoring.parse.parse_response` only when the card's own names find under
    half of its gates."""
    return _build_index(card, terms=True)


@per_object()
def _term_literals(card: Card) -> tuple[str, ...]:
    """Lower-case literals, one of which an answer holds wherever a term of ``grammar/gate_terms.yaml`` could name a gate
    of ``card`` (:func:`._foreign_names.foreign_literal` of every term, none left out for being taken): the cheap test
    :func:`ipb.scoring.parse.parse_response` makes before the term fallback's second reading of the whole answer."""
    languages = term_languages()
    return tuple(sorted({foreign_literal(t, languages.get(name_key(t), ())) for terms in term_names(card, set()).values()
                         for t in terms}))


#: The preposition of an outcome word's direction ("TILT_TO_NOMINAL_BONDS") as reports write it.
_TO = r"(?:to|towards?|into)"


def _build_index(card: Card, terms: bool = False) -> _CardIndex:
    gates = {g.number: g for g in card.gates}
    choices: list[str] = []
    choice_gate: list[int] = []
    mention_gate: dict[str, tuple[int, str]] = {}
    for g in card.gates:
        for how, label in [("name", g.name), *(("alias", a) for a in g.aliases), ("id", g.id)]:
            norm = normalize(label)
            if not norm or norm in mention_gate:
                continue
            mention_gate[norm] = (g.number, how)
            choices.append(norm)
            choice_gate.append(g.number)
    mention_gate.update(_substance_mentions(card, mention_gate))
    # the other spelling of a financial abbreviation a gate holds ("ROCE" for "return on capital employed", and back)
    for spelling, info in gate_abbreviations((g.number, (g.name, *g.aliases), (ELEMENT_FIELD.sub(" ", e) for e in g.required_elements))
                                             for g in card.gates).items():
        mention_gate.setdefault(spelling, info)
    # names in other languages (the card's translations sidecar) read as aliases are (how "translation"): fuzzy choices
    # after the English ones (a tie goes to English) and mentions by their own patterns (boundaries and endings of
    # their script)
    foreign: dict[str, int] = {}
    sidecar = _sidecar_names(card)
    for g in card.gates:
        for name in sidecar.get(g.id, ()):
            key = name_key(name)
            if key not in mention_gate and key not in foreign:
                foreign[key] = g.number
                choices.append(normalize(name))
                choice_gate.append(g.number)
    # key nouns of the gates' metrics in other languages (grammar/gate_terms.yaml: "Verschuldung", "負債比率"), read as
    # the sidecar's names are but recognised as TERM (under the review bar); never fuzzy choices
    named_by_term: dict[str, int] = {}
    for number, names in (term_names(card, set(mention_gate) | set(foreign)) if terms else {}).items():
        for name in names:
            named_by_term.setdefault(name_key(name), number)
    found: list[tuple[str, str, str, bool, tuple[int, str]]] = []  # (key, literal, pattern, word rule, gate and how)
    for norm, info in mention_gate.items():
        p = _alias_pattern(norm, inflect=info[1] != "substance")  # a substance phrase is matched as written
        if p is not None:
            found.append((norm, norm.split()[0], p, not unspaced(norm), info))
    # each in the endings of its languages (grammar/languages.yaml, inflection: "zadłużenia", "borcu", "μερίσματος")
    written = _sidecar_languages(card) if foreign else {}
    for key, number in foreign.items():
        codes = written.get(key, ())
        pattern = foreign_name_pattern(key, codes)
        found.extend((key, literal, pattern, _bounded_word(key), (number, TRANSLATION)) for literal in foreign_literals(key, codes))
    languages = term_languages() if named_by_term else {}
    for key, number in named_by_term.items():
        codes = languages.get(key, ())
        pattern = foreign_name_pattern(key, codes)
        found.extend((key, literal, pattern, _bounded_word(key), (number, TERM)) for literal in foreign_literals(key, codes))
    mention_triggers: list[Trigger] = []
    mention_info: list[tuple[int, str]] = []
    for norm, literal, p, word, info in sorted(found, key=lambda f: len(f[0]), reverse=True):
        mention_triggers.append(Trigger(literal, re.compile("(?i)" + p), len(mention_info), word=word))
        mention_info.append(info)

    outcome_of: dict[str, str] = {}
    words: list[str] = []
    for value in [card.outcomes.get("pass", "INVEST"), card.outcomes.get("fail", "DECLINE"), vw.INCONCLUSIVE]:
        words.append(value)
    for g in card.gates:
        for b in g.branches.values():
            words.extend([b.pass_outcome, b.fail_outcome])
    for w in words:
        outcome_of.setdefault(_outcome_key(w), w)
    # the card's own verdict_synonyms read like its outcome words ("no buyback" for NO_REPURCHASE)
    for outcome, phrases in card.verdict_synonyms.items():
        for phrase in phrases:
            outcome_of.setdefault(_outcome_key(phrase), outcome)
    # everyday phrases for the card's outcome words ("the fund keeps its holding" for HOLD; verdict_words.OUTCOME_SYNONYMS)
    for word, phrases in vw.OUTCOME_SYNONYMS.items():
        if outcome_of.get(word) == word:
            for phrase in phrases:
                outcome_of.setdefault(_outcome_key(phrase), word)
    # an outcome that is a verb and its object reads with the verb's plain synonyms ("drop the hypothesis" for
    # ABANDON_HYPOTHESIS, "keep the balanced mix" for HOLD_BALANCED_MIX); the card's own words and synonyms come first
    for key, outcome in list(outcome_of.items()):
        verb, _, rest = key.partition("_")
        for other in _OUTCOME_VERBS.get(verb, ()) if rest else ():
            outcome_of.setdefault(f"{other}_{rest}", outcome)
    # ... and with its object first and the verb as a past participle, as notes and logs close: "Hypothesis abandoned.",
    # "Position taken at 7%." (not an outcome whose rest is a particle or a direction: SIZE_UP, TILT_TO_...)
    for key, outcome in list(outcome_of.items()):
        verb, _, rest = key.partition("_")
        if rest and rest.split("_")[0] not in _PARTICLES and verb.isalpha():
            outcome_of.setdefault(f"{rest}_{_participle(verb)}", outcome)
    # ... and with its verb in the progressive, or a direction's in the participle, as closing notes state a move under
    # way or done: "Tilting toward equities and credit.", "now tilted toward equities and credit" (TILT_TO_...), "we are
    # reducing risk" (REDUCE_RISK); a lower-case outcome word still needs a cue or a decider before it (_final.py)
    for key, outcome in list(outcome_of.items()):
        verb, _, rest = key.partition("_")
        if rest and verb.isalpha() and len(verb) >= 3:
            outcome_of.setdefault(f"{gerund(verb.lower()).upper()}_{rest}", outcome)
            if rest.split("_")[0] == "TO":
                outcome_of.setdefault(f"{_participle(verb)}_{rest}", outcome)
    pass_outcome, fail_outcome = card.outcomes.get("pass", "INVEST"), card.outcomes.get("fail", "DECLINE")
    synonym_of = {w: o for w, o in vw.synonym_table(pass_outcome, fail_outcome).items() if _outcome_key(w) not in outcome_of}
    rating_triggers, synonym_triggers = (vw.RATING_TRIGGERS, vw.SYNONYM_TRIGGERS) \
        if len(synonym_of) == len(vw.FINAL_SYNONYMS) + len(vw.RATING_SCALE) else \
        (lambda p: (p[1], p[3]))(vw.synonym_patterns(list(synonym_of), frozenset(vw.RATING_SCALE)))
    gate_words = {"PROCEED", "REJECT", "PASS", "FAIL", vw.INCONCLUSIVE}
    spoken = [w for w in sorted(outcome_of, key=len, reverse=True) if w not in gate_words]
    # "REDIRECT_TO_PASSIVE" may be written "redirect to passive" or "Redirect-to-passive".
    # "HOLD_BALANCED_MIX" may be written "hold the balanced mix": an article between its words changes nothing.
    # "BUBBLE_REDUCE_RISK" may be written "Bubble: reduce risk": the outcome's head as a label of the rest.
    # "TILT_TO_EQUITIES_AND_CREDIT" may be written "tilt toward equities and credit": "to" reads as toward / towards / into.
    outcome_alts = [(lambda parts: re.escape(parts[0]) + "".join(
        (r"(?:[ _-]|:[ \t]+)" if k == 1 else r"[ _-]") + r"(?:(?:the|a|an)[ ])?" + (_TO if p == "TO" else re.escape(p))
        for k, p in enumerate(parts) if k))(w.split("_"))
        for w in spoken]
    outcome_alts.sort(key=len, reverse=True)
    # (a Devanagari outcome word may end on a vowel sign, "निवेश करें", where \b finds no end)
    # Every alternative opens with its word's first character, so a lookahead for those characters turns away the
    # positions no outcome starts at before the engine tries each of the hundreds of alternatives there (under (?i) no
    # branch has the first-character fast path): 2.5 MB of "1986 1987 " took about 12 s per scan, now about 0.05 s
    # (bench/undecided_scan.py); a class under (?i) matches the characters the literal does, so the matches are the same.
    firsts = "".join(sorted({re.escape(w[0]) for w in spoken}))
    outcome_re = re.compile(r"(?i)(?=[" + firsts + r"])\b(?:" + "|".join(outcome_alts) + r")(?:s)?(?:\b|" + MARK_END + ")") \
        if outcome_alts else None
    outcome_triggers = [Trigger(w.split("_")[0].lower(), outcome_re) for w in spoken] if outcome_re is not None else []

    canonical = _investor_names(card.investor)
    investors = sorted(canonical, key=len, reverse=True)
    name_alts = "|".join(re.escape(n) for n in investors)
    verbs = (
        r"said|says|wrote|writes|argued|argues|noted|notes|observed|observes|stated|states|warned|warns|insisted|insists|"
        r"emphasi[sz]ed|emphasi[sz]es|believes|believed|called|calls|described|describes|defined|defines|advised|advises|"
        r"explained|explains|put\s+it|remarked|quipped|cautioned|cautions|likes\s+to\s+say|would\s+say|would\s+argue|"
        r"recommends|recommended|taught|teaches|stressed|stresses|maintained|maintains|held|holds\s+that|reminds\s+us|told"
    )
    claim = r"(?P<claim>(?:[^\n.!?]|\.(?=\d)){2,300})"
    investor_re = re.compile(
        rf"(?P<inv>{name_alts})(?:'s)?(?:[ \t]*\((?:\d{{4}}|[^()\n]{{1,40}})\))?[ \t]+"
        r"(?:(?:has|had|once|famously|repeatedly|also|himself|herself|rightly|memorably)[ \t]+){0,2}"
        rf"(?:{verbs})\b[ \t]*[,:]?[ \t]*(?:that[ \t]+)?[\"\u201c]?{claim}"
        rf"|(?i:according[ \t]+to)[ \t]+(?P<inv2>{name_alts})[ \t]*[,:]?[ \t]*{claim.replace('claim', 'claim2')}"
        rf"|(?P<inv3>{name_alts})'s[ \t]+(?:famous[ \t]+)?(?:maxim|rule|dictum|principle|advice|quote|words|phrase|view|definition|"
        rf"insight|warning|observation|line|point|test|adage|mantra)[ \t]*(?:is[ \t]+that|that|:|,|\u2014|is)[ \t]*[\"\u201c]?"
        + claim.replace("claim", "claim3")
    )
    heads = {n for n in canonical if not (" " in n and n.split()[-1] in canonical)}
    investor_triggers = [Trigger(n.lower(), investor_re) for n in sorted(heads)] + [Trigger("according", investor_re)]
    entity_names = tuple(sorted({*KNOWN_ENTITIES, *investors}, key=len, reverse=True))
    # the known books and the card's own source titles (s38ufix: SAP@2, paper §7.8, asks no quotes: "in Margin of Safety
    # (1991)" cites it; without a year a title is read only quoted or emphasised, _citations.py)
    own_titles = {src.document for src in (*card.sources, *(g.source for g in card.gates if g.source is not None))}
    books = (*KNOWN_BOOKS, *sorted(t for t in own_titles if t not in KNOWN_BOOKS and len(t.split()) >= 2))
    book_triggers = [Trigger(b.lower(), re.compile(re.escape(b) + r"(?:[ \t]*\((?P<year>(?:1[6-9]|20)\d\d)\))?"), i) for i, b in enumerate(books)]

    gate_texts: list[str] = []
    owner: list[int] = []
    for g in card.gates:
        desc = [s.strip() for s in re.split(r"(?<=[.;])\s+", g.description) if s.strip()][:2]
        for t in [g.name, *g.aliases, *desc]:
            gate_texts.append(t)
            owner.append(g.number)

    elements = {g.number: _elements(g, card) for g in card.gates}
    part_words: list[tuple[int, int, frozenset[str]]] = [
        (0 if how == "name" else 1, g.number, frozenset(stem(w) for w in normalize(label).split() if w not in STOPWORDS and len(w) > 1))
        for g in card.gates
        for how, label in [("name", g.name), *(("alias", a) for a in g.aliases), ("id", g.id.replace("_", " "))]
    ]
    regime_triggers = []
    for g in card.gates:
        for regime, _ in g.classify:
            for words in [regime.lower().split("_"), *(w.split() for w in REGIME_SYNONYMS.get(regime, ()))]:
                parts = [part for part in words if part]
                if parts:
                    regime_triggers.append(Trigger(parts[0].split("-")[0], re.compile(rf"(?i){regime_pattern(parts)}(?:s|es)?\b"), g.number))
    return _CardIndex(
        card=card,
        regime_triggers=regime_triggers,
        proceed_sense=frozenset(g.number for g in card.gates if g.proceed is not None and g.reject is None and g.kill_criterion is None),
        gates=gates,
        choices=choices,
        choice_gate=choice_gate,
        mention_triggers=mention_triggers,
        mention_info=mention_info,
        elements=elements,
        outcome_re=outcome_re,
        outcome_triggers=outcome_triggers,
        outcome_of=outcome_of,
        pass_outcome=pass_outcome,
        fail_outcome=fail_outcome,
        synonym_of=synonym_of,
        rating_triggers=rating_triggers,
        synonym_triggers=synonym_triggers,
        investor_triggers=investor_triggers,
        investor_of=canonical,
        entity_names=entity_names,
        entity_triggers=[Trigger(e.lower(), re.compile(re.escape(e)), i) for i, e in enumerate(entity_names)],
        book_triggers=book_triggers,
        gate_texts=gate_texts,
        gate_text_owner=owner,
        gate_words=part_words,
        own_verdict_words={w: o for w, o in outcome_of.items() if w in gate_words and w != vw.INCONCLUSIVE},
    )

"""Failure Mode Detection Protocol: the six FM rules of §7.11 / §9 as detectors.

Each detector is a pure function of a :class:`~ipb.scoring.metrics.Case`
registered in :data:`ipb.scoring.registry.detectors` under ``"FM-1"`` ...
``"FM-6"``, and returns a :class:`FailureFlag`: whether it fired, which
clause fired, and the evidence (the tokens, years, counts and similarities
the rule read), so a flag can be checked by a person.

A detector whose inputs are missing (no investor data, no IVP, unknown
layer) returns ``applicable=False`` and does not fire; it never guesses.
The paper's calibration precision of each rule (Table 15) is kept in
:data:`PAPER_PRECISION` for reporting, not mixed into the flags.

References
----------
InvestPhilBench §7.11 (rules), §9 (taxonomy), §7.3 (INCONCLUSIVE gates and
FM-3), §11.6 (career boundaries).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from functools import lru_cache
from dataclasses import dataclass, field
from typing import Any, Mapping

import numpy as np

from ipb.scoring.embeddings import cosine_matrix, embed
from ipb.scoring.metrics import (
    DEFAULT_CONCEPT_THRESHOLD,
    INCONCLUSIVE,
    NOT_APPLICABLE,
    Case,
    PROCEED,
    REJECT,
    ElementMatcher,
    contradiction_coverage,
    gcf,
    split_sentences,
)
from ipb.scoring.outcome import reads_as_english
from ipb.scoring.registry import detectors, failure_mode

__all__ = [
    "FailureFlag",
    "FM_NAMES",
    "PAPER_PRECISION",
    "SEQUENTIAL_CONNECTORS",
    "fm1",
    "fm2",
    "fm3",
    "fm4",
    "fm5",
    "fm6",
    "detect_all",
    "sequential_connector_count",
    "foreign_connector_count",
    "looks_like_a_gate",
]

FM_NAMES = {
    "FM-1": "Hallucinated Gate",
    "FM-2": "Temporal Conflation",
    "FM-3": "Kill Criterion Omission",
    "FM-4": "Voice Diffusion",
    "FM-5": "Operationalization Flattening",
    "FM-6": "Anachronistic Application",
}

#: Detector precision on the paper's n=200 calibration set (§7.11, Table 15).
PAPER_PRECISION = {"FM-1": 0.762, "FM-2": 0.786, "FM-3": 0.765, "FM-4": 0.667, "FM-5": 0.824, "FM-6": 0.750}


@dataclass(frozen=True)
class FailureFlag:
    """The outcome of one FMDP rule on one response.

    Attributes
    ----------
    mode : str
        ``"FM-1"`` ... ``"FM-6"``.
    fired : bool
    rule : str or None
        The clause that fired (``"invented_gate"``, ``"year_gap"``...).
    evidence : mapping
        JSON-serialisable facts the rule read.
    applicable : bool
        False when the inputs the rule needs are missing.
    """

    mode: str
    fired: bool
    rule: str | None = None
    evidence: Mapping[str, Any] = field(default_factory=dict)
    applicable: bool = True

    @property
    def name(self) -> str:
        return FM_NAMES[self.mode]

    def to_dict(self) -> dict[str, Any]:
        return {
            "mode": self.mode,
            "name": self.name,
            "fired": self.fired,
            "rule": self.rule,
            "applicable": self.applicable,
            "evidence": dict(self.evidence),
        }


def _not_applicable(mode: str, why: str) -> FailureFlag:
    return FailureFlag(mode, False, None, {"why": why}, applicable=False)


# --------------------------------------------------------------------------- FM-1


#: Words of a section label that is not a gate (a summary, a verdict line, a table of results): FM-1 ignores it.
_NOT_A_GATE = re.compile(
    r"\b(?:summary|summaries|overview|conclusions?|verdicts?|results?|recommendations?|final|notes?|background|"
    r"context|scenario|introduction|disclaimer|tally|scorecard|score|totals?|checks?\s+passed|bottom\s+line|"
    r"takeaways?|outcome|decision|assessment|caveats?|sources?|references?|appendix|table)\b",
    re.IGNORECASE,
)


def looks_like_a_gate(label: str) -> bool:
    """Whether an invented label reads as a gate (FM-1), not a section of the answer.

    A label with a section word (summary, results, verdict, conclusion,
    checks passed...) is not a gate unless it opens like one ("Gate 7: ...",
    "Test 8 ..."); anything else the parser reports as a gate the card lacks
    is.

    >>> looks_like_a_gate("Results summary"), looks_like_a_gate("Gate 7: Dividend coverage"), looks_like_a_gate("Moat durability")
    (False, True, True)
    """
    if not _NOT_A_GATE.search(label):
        return True
    return re.match(r"\s*(?:gate|test|step|criterion)\s*#?\d", label, re.IGNORECASE) is not None


@failure_mode("FM-1", section="§7.11", bounds=None)
def fm1(case: Case) -> FailureFlag:
    """FM-1 Hallucinated Gate: :math:`|\\hat S \\setminus G| \\ge 1` or :math:`\\hat n_G > n_G`.

    ``G`` is the complete framework card's gate set (``Case.card_gates``;
    the gold gates when unknown), so naming a real gate that a partial gold
    program leaves unannotated is not hallucination. ``Ŝ \\ G``: the gates the
    parser reports as invented plus any addressed gate number the card lacks.
    ``n̂_G`` counts the distinct gates the response asserts (real and
    invented), ``n_G`` the card's gates. An invented label that reads as a
    section of the answer, not a gate (:func:`looks_like_a_gate`: "Results
    summary", "Verdict", "Checks passed"), is ignored and listed under
    ``ignored_labels``. So is every invented name of an answer that does not
    read as English (:func:`ipb.scoring.outcome.reads_as_english`), listed
    under ``unread_labels``: the parser matches gates by the card's English
    names (and the languages of its translations sidecar), so a faithful
    answer in French that names each gate in French had every gate "invented"
    and FM-1 fired on all of them (s46user: a nine-gate Piotroski card, four
    right answers, FM-1 100%); a name the parser cannot read is no evidence
    of a gate the framework lacks.

    Evidence: ``invented`` names, ``ignored_labels``, ``unread_labels``,
    ``unknown_numbers``, ``n_asserted``, ``n_framework``.

    References
    ----------
    InvestPhilBench §7.11 FM-1, §9 FM-1.
    """
    case.require_ok()
    framework = set(case.card_gates) if case.card_gates is not None else {g.number for g in case.gold_gates}
    labels = [str(name) for name in case.parsed.get("invented_gates") or ()]
    gate_like = [name for name in labels if looks_like_a_gate(name)]
    unread = [] if reads_as_english(case.text) else gate_like
    invented = [] if unread else gate_like
    unknown = [n for n in case.response_gates if n not in framework]
    real = [n for n in case.response_gates if n in framework]
    asserted = len(real) + len(unknown) + len(dict.fromkeys(invented))
    evidence = {
        "invented": invented,
        "ignored_labels": [name for name in labels if name not in gate_like],
        "unread_labels": unread,
        "unknown_numbers": unknown,
        "n_asserted": asserted,
        "n_framework": len(framework),
    }
    if invented or unknown:
        return FailureFlag("FM-1", True, "gate_not_in_framework", evidence)
    if asserted > len(framework):
        return FailureFlag("FM-1", True, "too_many_gates", evidence)
    return FailureFlag("FM-1", False, None, evidence)


# --------------------------------------------------------------------------- FM-2


@failure_mode("FM-2", section="§7.11", bounds=None)
def fm2(
    case: Case,
    *,
    max_gap: int = 2,
    min_confidence: float = 0.75,
    window: int = 50,
    min_coverage: float = 0.40,
    threshold: float = DEFAULT_CONCEPT_THRESHOLD,
) -> FailureFlag:
    """FM-2 Temporal Conflation: a confident wrong year, or undated position shifts.

    Fires when either clause holds:

    1. **year_gap**: :math:`|\\hat y - y^*| > 2` AND confidence(ŷ) > 0.75.
       Years are the parser's ``years`` (every mention), kept when within
       ±``window`` (50) years of the investor's active period (no upper bound
       while ``end`` is None; no filter without an active period). ŷ is the
       most-mentioned kept year (ties: first mentioned) and its confidence the
       share of kept mentions that name it: a response committing to one year
       is confident, one listing several is not. ``y*`` is
       ``Case.truth_year``.
    2. **contradiction_coverage**: for L6/L7/L8 items with a PKB
       contradictions set C, ContradictionCoverage < 0.40
       (:func:`~ipb.scoring.metrics.contradiction_coverage`, cosine >=
       ``threshold``).

    Not applicable when neither ``truth_year`` nor (an L6-L8 layer and
    contradictions) is given.

    References
    ----------
    InvestPhilBench §7.11 FM-2, §9 FM-2 (the 1986 -> 1990 owner-earnings error
    has a gap of 4).
    """
    case.require_ok()
    evidence: dict[str, Any] = {}
    checked = False
    if case.truth_year is not None:
        checked = True
        years = [int(y) for y in case.parsed.get("years") or () if isinstance(y, int) and not isinstance(y, bool)]
        active = case.investor.active if case.investor is not None else None
        if active is not None:
            low = active[0] - window
            high = None if active[1] is None else active[1] + window
            years = [y for y in years if y >= low and (high is None or y <= high)]
        evidence.update({"truth_year": case.truth_year, "years_considered": years})
        if years:
            counts = Counter(years)
            top = max(counts.values())
            y_hat = next(y for y in years if counts[y] == top)
            confidence = top / len(years)
            evidence.update({"response_year": y_hat, "confidence": confidence, "gap": abs(y_hat - case.truth_year)})
            if abs(y_hat - case.truth_year) > max_gap and confidence > min_confidence:
                return FailureFlag("FM-2", True, "year_gap", evidence)
    if case.layer in ("L6", "L7", "L8") and case.contradictions:
        checked = True
        coverage = contradiction_coverage(case, threshold=threshold)
        evidence["contradiction_coverage"] = coverage
        if coverage is not None and coverage < min_coverage:
            return FailureFlag("FM-2", True, "contradiction_coverage", evidence)
    if not checked:
        return _not_applicable("FM-2", "no ground-truth year and no contradictions set for an L6-L8 item")
    return FailureFlag("FM-2", False, None, evidence)


# --------------------------------------------------------------------------- FM-3


@failure_mode("FM-3", section="§7.11", bounds=None)
def fm3(case: Case, *, min_rate: float = 0.50, threshold: float = DEFAULT_CONCEPT_THRESHOLD) -> FailureFlag:
    """FM-3 Kill Criterion Omission: :math:`\\mathrm{KCR}_{det} = \\hat n_{KC}/n_{KC} < 0.50`.

    ``n_KC``: the item's kill gates with a decided gold verdict; INCONCLUSIVE
    gates are excluded from the denominator (§7.3), and so are gates the
    chain did not reach (N/A). A kill gate is *detected* when at least one
    of its kill-criterion elements (its ``required_elements`` and its kill
    criterion label) is matched by an element the parser found at that gate
    (:class:`~ipb.scoring.metrics.ElementMatcher`), or, for a gate the
    response names with a committed verdict, by one of the sentences of
    that gate's own text with the gate's names, its "Gate N" label and the
    verdict words taken out (an answer that states the criterion in words the
    element extractor did not take; naming the gate is not stating it). Naming the gate without its criterion
    is exactly the omission FM-3 describes.

    Evidence: ``detected`` and ``missed`` gate numbers, ``excluded``, ``rate``.

    References
    ----------
    InvestPhilBench §7.11 FM-3, §9 FM-3, §7.3.
    """
    case.require_ok()
    kill = case.kill_gate_numbers
    labels = case.kill_gates or {}
    matcher = ElementMatcher(case.encoder, threshold)
    response = case.response_gates
    detected: list[int] = []
    missed: list[int] = []
    excluded: list[int] = []
    for g in case.gold_gates:
        if g.number not in kill:
            continue
        if g.verdict in (INCONCLUSIVE, NOT_APPLICABLE, None):
            excluded.append(g.number)
            continue
        targets = list(g.required_elements)
        label = labels.get(g.number) or (g.kill_criterion if g.kill_triggered else None)
        if label:
            targets.append(label.replace("_", " "))
        r = response.get(g.number)
        found = r is not None and bool(r.elements) and bool(matcher.match_matrix(targets, r.elements).any())
        if not found and r is not None and r.verdict in (PROCEED, REJECT):
            # named with a verdict, its criterion phrased in words the element extractor did not take:
            # look for it in the gate's own sentences
            sentences = [t for t in split_sentences(_without_names(case.gate_text(g.number), g.name, r.name))
                         if len(t.split()) >= 3]
            found = bool(sentences) and bool(matcher.match_matrix(targets, sentences).any())
        (detected if found else missed).append(g.number)
    total = len(detected) + len(missed)
    if total == 0:
        return _not_applicable("FM-3", "no decided kill gate")
    rate = len(detected) / total
    evidence = {"detected": detected, "missed": missed, "excluded": excluded, "rate": rate}
    return FailureFlag("FM-3", rate < min_rate, "kill_criterion_rate" if rate < min_rate else None, evidence)


def _without_names(text: str, *names: str) -> str:
    """``text`` without the gate's names and its "Gate N" label: naming a gate is not stating its criterion."""
    for name in sorted({n for n in names if n}, key=len, reverse=True):
        text = re.sub(re.escape(name), " ", text, flags=re.IGNORECASE)
    return re.sub(r"\b(?:gate|step|test)\s*#?\d+\b|\b(?:PROCEED|REJECT|INCONCLUSIVE)\b", " ", text,
                  flags=re.IGNORECASE)


# --------------------------------------------------------------------------- FM-4


@failure_mode("FM-4", section="§7.11", bounds=None)
def fm4(case: Case, *, min_ivp: float = 0.50, min_sdi: float = 0.35) -> FailureFlag:
    """FM-4 Voice Diffusion: IVP(I_i) < 0.50, or any pairwise IVP_{i,j} < 0.35, or persona inversion.

    - **ivp**: ``Case.ivp`` (computed across responses by
      :func:`~ipb.scoring.metrics.ivp_table`) below ``min_ivp``;
    - **pairwise_sdi**: some ``Case.pairwise_sdi`` value below ``min_sdi``;
    - **persona_inversion** (the severe subtype): with the investor's and
      the peers' distinctive phrases as ground-truth voice references,
      :math:`\\arg\\max_k \\cos(e(R), e(GT_k)) \\ne i`, *and* the
      closest investor's own words are in the answer (one of its distinctive
      phrases that the answer's investor does not share, or its name:
      evidence ``borrowed``). Closeness alone flagged faithful answers whose
      gate vocabulary happened to sit nearer another investor's sayings
      (every Marks answer of the demo, issue 14).

    Not applicable when none of IVP, pairwise SDI or (investor and peer
    phrases) is given.

    References
    ----------
    InvestPhilBench §7.11 FM-4, §7.9, §9 FM-4, Table 8.
    """
    case.require_ok()
    evidence: dict[str, Any] = {}
    checked = False
    fired: str | None = None
    if case.ivp is not None:
        checked = True
        evidence["ivp"] = case.ivp
        if case.ivp < min_ivp:
            fired = "ivp"
    if case.pairwise_sdi:
        checked = True
        low = {k: v for k, v in case.pairwise_sdi.items() if v < min_sdi}
        evidence["pairwise_sdi"] = dict(case.pairwise_sdi)
        if low and fired is None:
            fired = "pairwise_sdi"
            evidence["low_pairs"] = low
    refs = _voice_references(case)
    if refs is not None and case.text.strip():
        checked = True
        names = list(refs)
        vectors = embed(case.resolved_encoder(), [case.text, *refs.values()])
        sims = cosine_matrix(vectors[:1], vectors[1:])[0]
        best = names[int(np.argmax(sims))]
        evidence["persona_similarity"] = {n: float(s) for n, s in zip(names, sims)}
        evidence["closest_investor"] = best
        if case.investor is not None and best != case.investor.name:
            borrowed = _borrowed_words(case, best)
            evidence["borrowed"] = borrowed
            if borrowed and fired is None:
                fired = "persona_inversion"
    if not checked:
        return _not_applicable("FM-4", "no IVP, no pairwise SDI and no voice references")
    return FailureFlag("FM-4", fired is not None, fired, evidence)


def _norm_words(text: str) -> str:
    return " " + " ".join(re.sub(r"[^a-z0-9]+", " ", text.lower()).split()) + " "


def _borrowed_words(case: Case, other: str) -> list[str]:
    """The other investor's own words in the answer: distinctive phrases it does not share with the answer's
    investor or with the card's vocabulary (a Munger card's "owner earnings" element is not Buffett's voice), or
    its names. Persona inversion needs them (issue 14: closeness alone flagged every Marks answer)."""
    assert case.investor is not None
    peer = next((p for p in case.peers if p.name == other), None)
    if peer is None:
        return []
    text = _norm_words(case.text)
    own = {_norm_words(x) for x in case.investor.distinctive_phrases}
    # the card's own vocabulary (gate names, required elements, kill labels) is the framework's, not a voice
    card = " | ".join(_norm_words(x) for g in case.gold_gates for x in (g.name, *g.required_elements))
    card += " | " + " | ".join(_norm_words(str(x)) for x in (case.kill_gates or {}).values() if x)
    found = [x for x in peer.distinctive_phrases if _norm_words(x) not in own and _norm_words(x).strip()
             and _norm_words(x) in text and _norm_words(x) not in card]
    found += [n for n in peer.names() if len(n) > 3 and _norm_words(n) in text]
    return found


def _voice_references(case: Case) -> dict[str, str] | None:
    if case.investor is None or not case.investor.distinctive_phrases:
        return None
    refs = {case.investor.name: case.investor.reference_text}
    for peer in case.peers:
        if peer.distinctive_phrases and peer.name != case.investor.name:
            refs[peer.name] = peer.reference_text
    return refs if len(refs) > 1 else None


# --------------------------------------------------------------------------- FM-5

#: §7.11 FM-5 sequential connectors ("if X then Y" is counted through "then").
SEQUENTIAL_CONNECTORS = re.compile(
    r"\b(?:first|then|next|followed\s+by|subsequently)\b|\b(?:gate|step)\s+[1-9]\b", re.IGNORECASE
)


#: A word as the FM-5 look-ups below cut it: letters, with an inner apostrophe ("n'est").
_WORD = re.compile(r"[^\W\d_]+(?:['\u2019][^\W\d_]+)*")
#: A word (or run of unspaced letters) and the gate number after it: "Paso 2", "Schritt 3", "关卡2".
_WORD_NUMBER = re.compile(r"([^\W\d_]+)[ \t]*[1-9](?![\d.,]\d)(?!\d)")
#: A list item opened by its number at a line's start: "2. ", "3) ", "- 4. ".
_NUMBERED_ITEM = re.compile(r"^[ \t]*(?:[-*][ \t]+)?[1-9][.)](?=[ \t])", re.MULTILINE)


@dataclass(frozen=True)
class _Phrases:
    """Words of ``grammar/languages.yaml`` for the FM-5 look-ups, as sets (linear in the answer, whatever its length:
    one alternation of ~3,000 bounded words took 51 s on a megabyte of Spanish)."""

    spaced: frozenset[tuple[str, ...]]  # a phrase of a spaced script, as its lower-case words
    unspaced: tuple[str, ...]  # a word of an unspaced script (Chinese, Japanese, Korean, Thai): a substring
    lengths: Mapping[str, tuple[int, ...]]  # a phrase's first word -> the lengths of the phrases it opens

    @classmethod
    def of(cls, words: set[str]) -> "_Phrases":
        from ipb.scoring import _foreign_verdicts as fv

        spaced = {tuple(_WORD.findall(w.lower())) for w in words if not fv.unspaced(w)}
        spaced.discard(())
        unspaced = tuple(sorted(w.replace(" ", "") for w in words if fv.unspaced(w)))
        lengths: dict[str, set[int]] = {}
        for phrase in spaced:
            lengths.setdefault(phrase[0], set()).add(len(phrase))
        return cls(frozenset(spaced), unspaced, {w: tuple(sorted(n)) for w, n in lengths.items()})

    def occurrences(self, text: str, *, stop_at_one: bool = False) -> int:
        """How many times a phrase occurs in ``text`` (each word position once; unspaced words by substring)."""
        words = _WORD.findall(text.lower())
        count = 0
        for i, word in enumerate(words):
            for n in self.lengths.get(word, ()):
                if tuple(words[i : i + n]) in self.spaced:
                    count += 1
                    break
            if stop_at_one and count:
                return count
        compact = re.sub(r"\s+", "", text)
        for w in self.unspaced:
            count += compact.count(w)
            if stop_at_one and count:
                return count
        return count


@lru_cache(maxsize=1)
def _vocabulary() -> tuple[frozenset[str], tuple[str, ...], _Phrases, _Phrases]:
    """Gate nouns (spaced, lower case), gate nouns of unspaced scripts, words for "first", and every listed word."""
    from ipb.scoring import _foreign_verdicts as fv

    tables = fv._tables()
    nouns = {n.lower() for n in tables["gate_words"] if not fv.unspaced(n) and " " not in n.strip()}
    unspaced_nouns = tuple(n for n in tables["gate_words"] if fv.unspaced(n))
    firsts = _Phrases.of({w for w, k in tables["ordinals"] if k == 1})
    verdicts = {w for table in ("plain", "negated") for ws in tables[table].values() for w in ws}
    listed = {w for w in verdicts | set(tables["gate_words"]) | {w for w, _ in tables["ordinals"]} | set(tables["labels"])
              if w.strip() and fv.GAP not in w}
    return frozenset(nouns), unspaced_nouns, firsts, _Phrases.of(listed)


def writes_a_listed_language(text: str) -> bool:
    """Whether ``text`` holds a word of a language block of ``grammar/languages.yaml``: a gate verdict word, a gate
    noun, an ordinal or a decision label ("se cumple", "Kriterium", "segundo", "Veredicto"). Such an answer's language
    has words the scorer reads, so finding none of its connectors is evidence (FM-5 is judged); an answer with none
    of them is in a language the scorer has no words for (FM-5's sequence clause is unknown).

    >>> writes_a_listed_language("El segundo criterio se cumple."), writes_a_listed_language("Velka on alhainen.")
    (True, False)
    """
    return _vocabulary()[3].occurrences(text, stop_at_one=True) > 0


def foreign_connector_count(text: str) -> int:
    """The §7.11 connectors an answer in another language writes in its own words (s49fair): a gate noun of a
    language of ``grammar/languages.yaml`` before a gate number ("Paso 2", "Schritt 3", "Критерий 4": the paper's
    "Gate [1-9]", "Step [1-9]"), that language's word for "first", and a list item opened by its number at a line's
    start ("2.", "3)"), which numbers the walk through the gates as "Step 2" does.

    >>> foreign_connector_count("1. Beneficios: se cumple.\\n2. Activos: se cumple.\\nPaso 3: no se cumple.")
    3
    >>> foreign_connector_count("Zuerst die Bilanz. Schritt 2 ist die Bewertung; das erste Kriterium ist erfüllt.")
    2
    """
    nouns, unspaced_nouns, firsts, _ = _vocabulary()
    count = len(_NUMBERED_ITEM.findall(text))
    for m in _WORD_NUMBER.finditer(text):
        word = m.group(1)
        if word.lower() in nouns or any(word.endswith(n) for n in unspaced_nouns):
            count += 1
    return count + firsts.occurrences(text)


#: A table row whose first cell is its number: "| 2 | Research effort | PROCEED |".
_NUMBERED_ROW = re.compile(r"^[ \t]*\|[ \t]*[1-9][.)]?[ \t]*\|", re.MULTILINE)
#: A table's body row: a line opening with "|" after a separator row ("|---|---|").
_TABLE_SEPARATOR = re.compile(r"^[ \t]*\|?[ \t]*:?-{3,}:?[ \t]*(?:\|[ \t]*:?-{3,}:?[ \t]*)+\|?[ \t]*$", re.MULTILINE)
_TABLE_ROW = re.compile(r"[ \t]*\|[^\n]*\|[ \t]*(?:\n|\Z)")
#: A JSON answer, bare or in a code fence.
_JSON_FENCE = re.compile(r"\A\s*(?:```(?:json)?[ \t]*\n)?(?P<body>[\[{].*[\]}])\s*(?:```)?\s*\Z", re.DOTALL)
#: Longer answers are not parsed as JSON here (a bound: the parser reads them).
_MAX_JSON = 200_000


def _json_list_items(text: str) -> int:
    """The objects of the longest list of objects in ``text`` when it is a JSON document (bare or fenced), at the top
    level or one key down (``{"gates": [{...}, ...]}``); 0 otherwise."""
    m = _JSON_FENCE.match(text) if len(text) <= _MAX_JSON else None
    if m is None:
        return 0
    try:
        doc = json.loads(m.group("body"))
    except ValueError:
        return 0
    lists = [doc] if isinstance(doc, list) else [v for v in doc.values() if isinstance(v, list)] if isinstance(doc, dict) else []
    return max((sum(isinstance(x, dict) for x in lst) for lst in lists), default=0)


def _table_rows(text: str) -> int:
    """The body rows of the longest Markdown table of ``text`` (the rows right after a separator row)."""
    best = 0
    for sep in _TABLE_SEPARATOR.finditer(text):
        pos, rows = sep.end() + 1, 0
        while (m := _TABLE_ROW.match(text, pos)) is not None and m.end() > pos:
            rows, pos = rows + 1, m.end()
        best = max(best, rows)
    return best


def layout_connector_count(text: str, *, numbered_items: bool = True) -> int:
    """The §7.11 sequence markers an answer gives by its layout (s52hedge): a list item opened by its number ("2."),
    a table row whose first cell is its number ("| 2 | ... |"; in a table with no such rows, each body row after the
    first) and each object after the first of a JSON list of objects (``{"gates": [{"gate": ...}, {"gate": ...}]}``);
    the rows of a table and the objects of a JSON list are in order, and that order is the sequence. Each numbers one step of the
    walk through the gates as the paper's "Gate [1-9]" / "Step [1-9]" does, in the layout's own form; without them
    a faultless table or JSON answer had SeqScore 0 and was flagged FM-5 for its layout, not for flattening.
    ``numbered_items`` False leaves list items out (:func:`foreign_connector_count` counts them already).

    >>> layout_connector_count("| # | Gate | Verdict |\\n|---|---|---|\\n| 1 | Moat | PROCEED |\\n| 2 | Price | REJECT |")
    2
    >>> layout_connector_count('{"gates": [{"gate": "Moat"}, {"gate": "Price"}, {"gate": "Debt"}]}')
    2
    >>> layout_connector_count("| Gate | Verdict |\\n|---|---|\\n| Moat | PROCEED |\\n| Price | REJECT |\\n| Debt | N/A |")
    2
    >>> layout_connector_count("Moat ok. Price ok.")
    0
    """
    numbered = len(_NUMBERED_ROW.findall(text))
    count = (numbered or max(_table_rows(text) - 1, 0)) + max(_json_list_items(text) - 1, 0)
    return count + (len(_NUMBERED_ITEM.findall(text)) if numbered_items else 0)


def sequential_connector_count(text: str) -> int:
    """Occurrences of the FM-5 sequential connectors in ``text``.

    Connectors: "first", "then", "next", "Gate [1-9]", "Step [1-9]",
    "followed by", "subsequently", "if X then Y" (counted once, through its
    "then"); whole words, any case.

    >>> sequential_connector_count("First check the moat, then price. Step 3: if cheap then buy.")
    4
    """
    return len(SEQUENTIAL_CONNECTORS.findall(text))


@failure_mode("FM-5", section="§7.11", bounds=None)
def fm5(
    case: Case,
    *,
    min_gcf: float = 0.70,
    min_seq: float = 0.40,
    max_correct_sim: float = 0.65,
    min_similar_sim: float = 0.72,
) -> FailureFlag:
    """FM-5 Operationalization Flattening: low coverage, no sequence, or cross-school conflation.

    Fires when any clause holds:

    1. **coverage**: :math:`\\mathrm{GCF}_{det} = \\hat n_G / n_G < 0.70`
       (:func:`~ipb.scoring.metrics.gcf` over the gold gates);
    2. **sequence**: :math:`\\mathrm{SeqScore} = \\text{count(seq. conn.)}
       / (n_G - 1) < 0.40` (:func:`sequential_connector_count`; skipped for a
       one-gate program, where it is 0/0). The paper's connectors are
       English ("first", "then", "Gate [1-9]", "Step [1-9]"); for an answer
       that does not read as English (:func:`ipb.scoring.outcome.reads_as_english`;
       s49fair) they are counted with the same connectors in its own words
       (:func:`foreign_connector_count`: a gate noun of a language of
       ``grammar/languages.yaml`` before a number, "Paso 2", "Schritt 3"; its
       word for "first"; a list item opened by its number, "2."). An
       answer in a language with no words at all in that file
       (:func:`writes_a_listed_language` false) and none of these connectors
       is not judged on this clause: ``seq_score`` is None and ``sequence``
       in the evidence says why (unknown, neither fired nor passed as seen).
       In any language the layout's own markers count too
       (:func:`layout_connector_count`: numbered list items, table rows
       opened by their number, the objects of a JSON list after the first):
       they number the walk through the gates as "Step 2" does, so a table or
       JSON answer giving every gate is not flagged for its layout;
    3. **cross_school**: :math:`\\mathrm{sim}(R, GT_{I_{correct}}) < 0.65`
       AND :math:`\\mathrm{sim}(R, GT_{I_{surface}}) > 0.72` for a peer of the
       same school (``InvestorProfile.school``); GT is the investor's
       distinctive phrases. These two cosines were set for another embedding
       model and are kept as the paper states them (uncalibrated for MiniLM).

    References
    ----------
    InvestPhilBench §7.11 FM-5, §9 FM-5.
    """
    case.require_ok()
    n_gates = len(case.gold_gates)
    coverage = gcf(case)
    connectors = sequential_connector_count(case.text)
    evidence: dict[str, Any] = {"gcf_det": coverage, "connectors": connectors, "n_gates": n_gates}
    if coverage < min_gcf:
        return FailureFlag("FM-5", True, "coverage", evidence)
    english = reads_as_english(case.text)
    layout = layout_connector_count(case.text, numbered_items=english)
    if layout:
        connectors += layout
        evidence["layout_connectors"] = layout
    if not english:
        connectors += foreign_connector_count(case.text)
    evidence["connectors"] = connectors
    if n_gates > 1 and not english and connectors == 0 and not writes_a_listed_language(case.text):
        # a language the scorer has no words for: its connectors may be there, unread; the clause is not evaluated
        # (said in the evidence), neither fired (a silent 0) nor passed as seen
        evidence["seq_score"] = None
        evidence["sequence"] = "unknown: the answer is in a language with no words in grammar/languages.yaml"
    elif n_gates > 1:
        seq = connectors / (n_gates - 1)
        evidence["seq_score"] = seq
        if seq < min_seq:
            return FailureFlag("FM-5", True, "sequence", evidence)
    investor = case.investor
    if investor is not None and investor.school and investor.distinctive_phrases and case.text.strip():
        similar = [
            p for p in case.peers if p.school == investor.school and p.name != investor.name and p.distinctive_phrases
        ]
        if similar:
            refs = [investor.reference_text, *(p.reference_text for p in similar)]
            vectors = embed(case.resolved_encoder(), [case.text, *refs])
            sims = cosine_matrix(vectors[:1], vectors[1:])[0]
            evidence["sim_correct"] = float(sims[0])
            evidence["sim_surface_similar"] = {p.name: float(s) for p, s in zip(similar, sims[1:])}
            if sims[0] < max_correct_sim and float(np.max(sims[1:])) > min_similar_sim:
                return FailureFlag("FM-5", True, "cross_school", evidence)
    return FailureFlag("FM-5", False, None, evidence)


# --------------------------------------------------------------------------- FM-6


@failure_mode("FM-6", section="§7.11", bounds=None)
def fm6(case: Case, *, max_gap: int = 10, layers: tuple[str, ...] = ("L6", "L7", "L8")) -> FailureFlag:
    """FM-6 Anachronistic Application: :math:`y_{framework} - y_{scenario} > 10` AND layer ∈ {L6, L7, L8}.

    ``y_framework`` is the start of the card's vintage (``Case.framework_year``,
    which ``ipb score`` fills from the item's manifest or the card): the
    year the framework the item asks for was in force. Only without it is
    the latest year among the response's citations used. A faithful answer
    cites the investor's later books about an old framework (Dalio's 2018
    *Big Debt Crises* on a 1990s bubble gauge); reading the framework's
    vintage from those citations flagged 6 of 7 gold answers (issue 14).
    ``y_scenario`` is ``Case.scenario_year``.

    Second clause (**career_boundary**, §9 FM-2 (ii) / §11.6: post-departure
    material attributed to the canonical framework is "FM-6-class
    anachronistic attribution"): a cited investor year after one of the
    investor's *hard* career boundaries. Soft boundaries never fire.

    Not applicable outside the listed layers or when no year is available.

    References
    ----------
    InvestPhilBench §7.11 FM-6, §9 FM-6, §11.6.
    """
    case.require_ok()
    if case.layer not in layers:
        return _not_applicable("FM-6", f"layer {case.layer!r} is not one of {', '.join(layers)}")
    cited = []
    for c in case.parsed.get("citations") or ():
        if not isinstance(c, Mapping) or not isinstance(c.get("year"), int):
            continue
        entity = c.get("entity")
        if entity and case.investor is not None and not case.investor.matches(entity):
            continue
        cited.append(int(c["year"]))
    evidence: dict[str, Any] = {"cited_years": cited, "scenario_year": case.scenario_year}
    hard = [b for b in (case.investor.career_boundaries if case.investor else ()) if b.mode == "hard"]
    late = [(y, b.year, b.label) for y in cited for b in hard if y > b.year]
    if late:
        evidence["after_career_boundary"] = [{"year": y, "boundary": by, "label": lab} for y, by, lab in late]
        return FailureFlag("FM-6", True, "career_boundary", evidence)
    framework_year = case.framework_year if case.framework_year is not None else (max(cited) if cited else None)
    evidence["framework_year"] = framework_year
    evidence["framework_year_from"] = "card vintage" if case.framework_year is not None else "citations"
    if framework_year is None or case.scenario_year is None:
        return FailureFlag("FM-6", False, None, evidence, applicable=False)
    gap = framework_year - case.scenario_year
    evidence["gap"] = gap
    return FailureFlag("FM-6", gap > max_gap, "vintage_gap" if gap > max_gap else None, evidence)


def detect_all(case: Case, options: Mapping[str, Mapping[str, Any]] | None = None) -> dict[str, FailureFlag]:
    """Run every registered detector; ``options={"FM-3": {"min_rate": 0.6}}`` configures one.

    Raises
    ------
    ScoreError
        Parse failure (unscored), or an unknown option for a detector.
    """
    case.require_ok()
    out = {}
    for name in detectors.names():
        fn = detectors.create(name, **dict((options or {}).get(name, {})))
        out[name] = fn(case)
    return out

"""The parser's driver and the public entry point :func:`parse_response`.
"""

from __future__ import annotations

import re
from typing import Any

from ipb._composed import compose
from ipb.engine.card import Card
from ipb.scoring import verdict_words as vw
from ipb.scoring._foreign_verdicts import fold_dotted_i
from ipb.scoring._text import (
    MIN_REPEAT_RUN,
    binary_reason,
    find_years,
    fold_repeated_lines,
    lowered,
    mask_reasoning,
    plain_spacing,
)
from ipb.scoring.parse._settings_block import blank_settings
from ipb.scoring.parse._logic_facts import rewrite_logic_facts
from ipb.scoring.parse._setext import blank_heading_rules
from ipb.scoring.parse._branch_outcome import branch_outcome
from ipb.scoring.parse._source_lists import blank_source_lists
from ipb.scoring.parse._dataset_row import blank_prompt_fields
from ipb.scoring.parse._notebook import blank_notebook_script
from ipb.scoring.parse._card import _index, _term_index, _term_literals
from ipb.scoring.parse._citations import _CitationsMixin
from ipb.scoring.parse._body_named import _BodyNamedMixin
from ipb.scoring.parse._confidence import _ConfidenceMixin, settled
from ipb.scoring.parse._counted_list import with_counted
from ipb.scoring.parse._common import (
    DEFAULT_EMBED_CUTOFF,
    DEFAULT_SCORE_CUTOFF,
    MAX_NUMBERS,
    MAX_YEARS,
    MAX_OCCURRENCES,
    _failure,
)
from ipb.scoring.parse._affirmed import affirmed_gates
from ipb.scoring.parse._elements import _ElementsMixin
from ipb.scoring.parse._final import _FinalVerdictMixin
from ipb.scoring.parse._final_words import outcomes_named
from ipb.scoring.parse._entailed import entailed_gates
from ipb.scoring.parse._implied import implied_reading
from ipb.scoring.parse._json_answer import _JsonAnswerMixin
from ipb.scoring.parse._legend import _LegendMixin
from ipb.scoring.parse._fact_keys import _FactKeysMixin
from ipb.scoring.parse._figure_bars import _FigureBarsMixin
from ipb.scoring.parse._described import _DescribedGatesMixin
from ipb.scoring.parse._described_prose import DESCRIBED_PROSE, _DescribedProseMixin
from ipb.scoring.parse._invisible import remap_spans, restore_spans, retake_copies, strip_invisible
from ipb.scoring.parse._judged import quoted_label
from ipb.scoring.parse._layout import _LayoutMixin, unwrap_hard_wrapped
from ipb.scoring.parse._grouped import _GroupedLabelsMixin
from ipb.scoring.parse._listed import _ListedGatesMixin
from ipb.scoring.parse._subject import _SubjectMixin
from ipb.scoring.parse._prose import _ProseGatesMixin
from ipb.scoring.parse._paraphrase import _ParaphraseMixin
from ipb.scoring.parse._positional import _PositionalMixin
from ipb.scoring.parse._paraphrased_gates import _ParaphrasedGatesMixin
from ipb.scoring.parse._lexical import _LexicalReferencesMixin
from ipb.scoring.parse._loose import _LooseReferencesMixin
from ipb.scoring.parse._numbered import _NumberedListMixin
from ipb.scoring.parse._references import _ReferencesMixin
from ipb.scoring.parse._section_reading import _SectionReadingMixin
from ipb.scoring.parse._spec_blocks import drop_step_anchors
from ipb.scoring.parse._stance import stance_gates
from ipb.scoring.parse._stated_bars import _StatedBarsMixin
from ipb.scoring.parse._withheld import withheld
from ipb.scoring.parse._undecided import undecided_end
from ipb.scoring.parse._template_slots import drop_unmentioned
from ipb.scoring.parse._test_terms import drop_test_terms
from ipb.scoring.parse._types import (
    EmbedderArg,
    GateTrace,
    NumberMention,
    ParsedResponse,
    YearMention,
)
from ipb.scoring.parse._verdicts import _VerdictsMixin
from ipb.scoring.parse._wordless import candidate_rewritings, capped_by_place, reads_as_english, wordless_reading
from ipb.scoring.parse._run_in_embedded import embed_run_in_heads
from ipb.scoring.parse._vocabulary import _VocabularyMixin
from ipb.scoring.parse._voice import blank_struck
from ipb.scoring.parse._footnotes import blank_footnotes
from ipb.scoring.parse._markup import blank_markup

from ipb.errors import ParseError


#: A line that cites where the rule comes from: 'Source: "One Up on Wall Street" (1989), ch. 14 (rechecking the story)'.
#: Its years and chapter numbers are no figures of the case, and a gate's words in a title or locator discuss no gate.
_SOURCE_LINE = re.compile(r"[ \t>*_#-]*(?:sources?|references?|citations?|cited|quoted from)[ \t*_]*:")
#: Other people's views reported in a sentence: "some readers value ...", "many investors think ...", "others are less cautious".
_OTHERS_VIEW = re.compile(r"\b(?:some|many|most|other)\s+(?:readers|investors|analysts|people|commentators|critics|observers|holders)\b"
                          r"|\bothers\s+(?:are|think|say|argue|believe|see|would|will|may|might)\b")


class _Parser(_LegendMixin, _BodyNamedMixin, _FactKeysMixin, _FigureBarsMixin, _DescribedGatesMixin, _DescribedProseMixin, _JsonAnswerMixin, _GroupedLabelsMixin, _LayoutMixin, _ReferencesMixin, _LooseReferencesMixin, _LexicalReferencesMixin, _NumberedListMixin, _ParaphraseMixin, _ParaphrasedGatesMixin, _VocabularyMixin, _ProseGatesMixin, _StatedBarsMixin, _SectionReadingMixin, _SubjectMixin, _ListedGatesMixin, _PositionalMixin, _VerdictsMixin, _FinalVerdictMixin, _ElementsMixin, _CitationsMixin, _ConfidenceMixin):
    """One parse of one response: runs the concerns in order (layout, gate references, verdict words, sections, elements, final verdict, citations)."""

    def __init__(self, text: str, card: Card, embedder: EmbedderArg, score_cutoff: float, embed_cutoff: float,
                 terms: bool = False, prose_terms: bool = False) -> None:
        super().__init__(text, card, _term_index(card) if terms else _index(card), embedder, score_cutoff, embed_cutoff)
        self.prose_terms = prose_terms  # key nouns in running prose name gates too (_prose_terms.py)

    # ------------------------------------------------------------------ driver

    def run(self) -> ParsedResponse:
        text = self.text
        result = ParsedResponse(status="ok", card_id=self.card.id)
        if not text.strip():
            return _failure(result, "empty response")
        junk = binary_reason(text)
        if junk is not None:
            return _failure(result, junk)
        self.masked, regions = mask_reasoning(plain_spacing(text))
        result.reasoning_spans = regions
        if not self.masked.strip():
            return _failure(result, "the response is only a reasoning trace (nothing outside <think>...</think>)")
        self.masked, struck = blank_struck(self.masked)
        if struck:
            self.notes.append(f"{struck} struck-through passage(s) (~~...~~, <del>, <s>) were not read: the writer withdrew them")
        self.masked, tags = blank_markup(self.masked)  # "<li>Fair Price: REJECT</li><li>...": the lines HTML draws (_markup.py)
        if tags:
            self.notes.append(f"{tags} HTML tag(s) read as the layout they draw (a block tag a line break, an inline tag a space)")
        self.masked, ruled = blank_heading_rules(self.masked)  # "Gate 1 -- Pricing" over "-----": an RST heading (_setext.py)
        if ruled:
            self.notes.append(f"{ruled} rule line(s) under or over a heading were read as the heading's underline, not a break")
        self.masked, noted = blank_footnotes(self.masked)  # "¹ Gate 3 figures from ...", a Sources: block (_footnotes.py)
        if noted:
            self.notes.append(f"{noted} footnote or reference line(s) under the answer were not read as gate statements")
        self.masked, sourced = blank_source_lists(self.masked)  # "sources:\n- [1] ...": retrieved documents' titles (_source_lists.py)
        if sourced:
            self.notes.append(f"{sourced} line(s) of a numbered list of sources were not read as gate statements")
        self.masked, settings = blank_settings(self.masked)  # "[Screener]\nFilter1=MarketCap|>|5e7": a tool's settings (_settings_block.py)
        if settings:
            self.notes.append(f"{settings} line(s) of a pasted settings file ([Section] and Key=value lines) were not read as gate statements")
        self.masked, facts = rewrite_logic_facts(self.masked)  # "gate(2, 'Price Versus Growth', na).": a Prolog answer (_logic_facts.py)
        if facts:
            self.notes.append(f"{facts} gate fact(s) of a logic program read as labelled lines (gate(N, 'Name', verdict).); "
                              f"its other clauses were not read as gate statements")
        self.masked, prompts = blank_prompt_fields(self.masked)  # {"prompt": "...", "completion": "..."}: a dataset row (_dataset_row.py)
        if prompts:
            self.notes.append(f"{prompts} prompt field(s) of a dataset row were not read: the row's answer field is the answer")
        self.masked, cells = blank_notebook_script(self.masked)  # "# ## Growth" ... "# In[2]:": a notebook script (_notebook.py)
        if cells:
            self.notes.append(f"{cells} line(s) of a notebook exported as a script were read as its cells show them "
                              f"(comment marks as layout, code cells not read as gate statements)")
        self.masked, self.folded = fold_repeated_lines(self.masked)
        if self.folded:
            repeats = sum(text.count("\n", start, stop) + (not text.endswith("\n", start, stop)) for _, start, stop in self.folded)
            self.notes.append(f"{repeats} line(s) repeating the line or block of lines before them verbatim "
                              f"({len(self.folded)} run(s) of {MIN_REPEAT_RUN} or more copies) were read once")
        self._keep_head_and_tail()
        self.masked = unwrap_hard_wrapped(self.masked, self.folded)
        self.low = lowered(self.masked)
        self._layout()
        for _, m in self._scan(vw.FINAL_CUE_TRIGGERS, limit=MAX_OCCURRENCES):
            u = self._unit_at(m.start())
            if u >= 0 and not quoted_label(self.masked, m.start(), m.end()):  # (not "A 'Decisión final: invertir' would ...")
                self.final_units.add(u)
                self.final_cue_at.setdefault(u, m.start())
        self._find_mentions()
        self._find_hits()
        self._drop_idle_quantifiers()
        labels = self._settle_shared_labels(self._follow_card_numbering(self._resolve_labels()))
        self._numbered_list_anchors()
        labels = self._lexical_mentions(labels)
        self._invented_labels(labels)
        self._labels_by_vocabulary(labels)
        self._embedding_matches(labels)
        embed_run_in_heads(self)  # run-in heads in the writer's own words ("Where we are today.") by the embedder (_run_in_embedded.py)
        self._body_named_labels()  # a title of the writer's own whose value opens with a gate's name (_body_named.py)
        self._align_by_position()  # an unnamed run of items, one per gate in the card's order (_positional.py)
        self._prose_gates(labels)  # gates stated in prose by their facts and an appraisal (_prose.py)
        self._align_questions()  # question-opened paragraphs, one per gate, asking the card's gates in order (_positional.py)
        structural = len({a.gate for a in self.anchors.values() if a.gate is not None}) >= 2
        if not structural:
            self._prose_fallback()
        self._paraphrased_gates()  # paragraphs naming no gate matched to an unnamed gate by the card's text (_paraphrased_gates.py)
        self._described_in_prose()  # untitled sentences stating a gate's substance with a figure (_described_prose.py)
        if drop_test_terms(self):  # a gate's name used as a term of the labelled gate's test (_test_terms.py)
            self.notes.append("a gate name inside another gate's line, as a term of that gate's test, was not read as a gate")
        if drop_step_anchors(self):
            self.notes.append("gate phrases in the Given / When / Then steps of a test specification were read as facts of "
                              "the scenario whose title names the gate, not as titles of their own")
        evidence = self._sections(structural)
        result.gates = self._named_or_judged(self._stated_bars(self._gates(evidence)))  # labelled facts vs a bar (_stated_bars.py)
        result.gates = self._section_readings(result.gates)  # a section that judges its facts in other words (_section_reading.py)
        result.gates = self._fact_key_gates(result.gates)  # gates a JSON key states only a fact of (_fact_keys.py)
        affirmed_gates(self, result.gates)  # "That's a moat.", "It has no moat.": the gate's noun said of the case (_affirmed.py)
        if all(g.how.split("+")[0] in ("paraphrase", DESCRIBED_PROSE) for g in result.gates):
            # the no-gate fallback: clauses in the card's words (_described.py); gates read only in other words
            # (_paraphrased_gates.py) or from a sentence stating their substance (_described_prose.py) are added to what it
            # reads, never put in its place
            described = self._described_gates()
            if described:
                result.gates = described + [g for g in result.gates if g.gate not in {d.gate for d in described}]
        result.gates = drop_unmentioned(self, result.gates)  # a label with nothing of its own is a slot (_template_slots.py)
        result.gates = with_counted(result.gates, self.masked, self.card)  # "1 PROCEED; 2 REJECT" for all N gates (_counted_list.py)
        result.gates = self._figure_bar_gates(result.gates)  # a figure of a gate's quantity and the writer's bar (_figure_bars.py)
        withheld(self.low, result.gates, self.notes)  # "it could go either way": no verdict from the facts (_withheld.py)
        self.all_numbers = list(self._all_figures()[0])  # read once: the prose reading may have read them (_prose.py)
        if len(self.all_numbers) >= MAX_NUMBERS:
            self.notes.append(f"more than {MAX_NUMBERS} numbers: only the first {MAX_NUMBERS} were read")
        self._find_elements(result.gates)
        result.final_verdict, result.final_verdict_span = self._final_verdict()
        result.final_confidence, result.final_runner_up, result.final_runner_up_span = self.final_reading
        self._undecided_final(result)  # "I would not commit either way": no final from before it (_undecided.py)
        refined = branch_outcome(self.card, result.final_verdict, result.final_verdict_span, self.low)
        if refined is not None:  # "tilting toward equities and credit": the branch's TILT_TO_EQUITIES_AND_CREDIT (_branch_outcome.py)
            self.notes.append(f"final verdict {result.final_verdict} read as {refined}: its sentence names that branch's outcome")
            result.final_verdict = refined
        entailed = entailed_gates(self.card, result.gates, result.final_verdict, result.final_verdict_span, result.final_confidence)
        if entailed:
            self.notes.append(f"{entailed} gate(s) discussed without a verdict read as PROCEED: the final verdict "
                              f"{result.final_verdict} clears them under the card's gate logic (how '+entailed')")
        settled(result.gates)  # a gate still without a verdict: its confidence lowered (_confidence.py)
        result.final_confidence = self._assessed_final(result.gates, result.final_verdict, result.final_verdict_span)
        # the learned stance reader last: it fills only what every rule left unread, and the final verdict's confidence
        # is weighed with the rules' readings alone (_stance.py)
        stanced = stance_gates(self.masked, result.gates, self.card) if self.embedder is not False else 0
        if stanced:
            withheld(self.low, result.gates, self.notes, only_how="+stance")
        if stanced:
            self.notes.append(f"{stanced} gate(s) discussed without a verdict word read by the learned stance reader "
                              f"(how '+stance', confidence below 0.5: _stance.py)")
        if result.final_verdict is None:
            # after the stance reader: an outcome implied by a stance kill keeps that reading's confidence (under 0.5)
            (result.implied_final_verdict, result.implied_final_gate, result.implied_final_span,
             result.implied_final_confidence) = implied_reading(self.card, result.gates)
        result.invented = self._dedupe_invented()
        # the text as the answer wrote it: the number was read on the masked text, where a hard wrap is a space ("0\n%")
        result.numbers = [NumberMention(text[n.start : n.end], n.value, n.unit, (n.start, n.end)) for n in self.all_numbers]
        result.years_found = [YearMention(y, (s, e)) for y, s, e in find_years(self.masked, limit=MAX_YEARS)]
        if len(result.years_found) >= MAX_YEARS:
            self.notes.append(f"more than {MAX_YEARS} year mentions: only the first {MAX_YEARS} were read")
        result.attributions = self._attributions()
        result.citations = self._citations()
        if self.truncated:
            words = ", ".join(repr(w) for w in sorted(self.truncated))
            half = MAX_OCCURRENCES // 2
            self.notes.append(f"more than {MAX_OCCURRENCES} occurrences of {words}: only the first {MAX_OCCURRENCES - half} "
                              f"and the last {half} of each were read")
        result.notes = self.notes
        if not result.gates and result.final_verdict is not None \
                and len(outcomes_named(self.ix.outcome_re, self.ix.outcome_of, self.masked)) > 1:
            self.notes.append("no gate read and more than one of the card's outcomes named: no final verdict read "
                              "(nothing tells the one chosen from those listed)")
            result.final_verdict = result.final_verdict_span = None
            result.final_confidence, result.final_runner_up, result.final_runner_up_span = 0.0, None, None
        if not result.gates:
            reason = f"no gate of card {self.card.id!r} recognised"
            if result.invented:
                reason += f" (only gates the card lacks: {', '.join(result.invented_gates)})"
            return _failure(result, reason, keep=True)
        return result


    def _undecided_final(self, result: ParsedResponse) -> None:
        """Clear the final verdict read from before the writer's last statement declining the decision ("I would not
        commit either way", "possibly AVOID, possibly BUY"): that statement is the last one on the decision, and it
        commits to none (:mod:`._undecided`)."""
        if result.final_verdict is None or result.final_verdict_span is None:
            return
        found = undecided_end(self.masked, self.ix.outcome_re, self.ix.outcome_of, [g.span for g in result.gates])
        if found is None or result.final_verdict_span[0] >= found[0]:
            return
        self.notes.append(f"no final verdict: {result.final_verdict} was read before the answer says {found[1]!r}, "
                          "declining the decision")
        result.final_verdict = result.final_verdict_span = None
        result.final_confidence, result.final_runner_up, result.final_runner_up_span = 0.0, None, None
        self.final_reading = (0.0, None, None)  # (no verdict read: 0.0, not the withdrawn reading's weighed confidence)

    def _named_or_judged(self, traces: list[GateTrace]) -> list[GateTrace]:
        """``traces`` less the gates met only through their substance and given no verdict in a remark rather than a
        reading of the case: on the investor's rule ("Graham liked buying below net current asset value, a habit worth
        keeping") or on what others think ("Some readers value the business conservatively at $1.2bn; others are less
        cautious"). Such a passing mention is not addressing the criterion. A sentence on the case that states a
        criterion's facts in other words ("Current assets are 2.3 times current liabilities") is discussing it (the
        corpus README: a bare fact is a discussed gate, '-'), and its gate is kept with no verdict."""
        named = {a.gate for a in self.anchors.values() if a.gate is not None and a.how != "substance"}
        named.update(g for m in self.mentions if m.how != "substance" for g in m.gates)
        return [t for t in traces if t.verdict is not None or t.how != "substance" or t.gate in named
                or not (self._on_the_rule(t) or self._in_fact_key(t.mention[0]))]

    def _on_the_rule(self, trace: GateTrace) -> bool:
        """Whether the sentence that met a gate through its substance is a remark: it reports what others think (some
        readers, many investors, others: :data:`_OTHERS_VIEW`), it is a source line (:data:`_SOURCE_LINE`), or it
        speaks of the card's investor (by a word of the investor's name) and states no figure of the case."""
        u = self._unit_at(trace.mention[0])
        if u < 0:
            return True
        start, end = self.units[u].start, self.units[u].end
        if _OTHERS_VIEW.search(self.low, start, end) or _SOURCE_LINE.match(self.low, start, end):
            return True
        if self._figures(start, end):
            return False
        names = set(re.findall(r"[a-z]{3,}", self.card.investor.split("(")[0].lower()))  # "Benjamin Graham", "PIF (...)"
        return bool(names & set(re.findall(r"[a-z]{3,}", self.low[start:end])))


# --------------------------------------------------------------------------- entry point


def _card_of(card: Any) -> Card:
    if isinstance(card, Card):
        return card
    inner = getattr(card, "card", None)
    if isinstance(inner, Card):
        return inner
    if isinstance(card, str):
        from ipb.engine.registry import compiled_card

        return compiled_card(card).card
    raise ParseError(f"parse_response needs a Card, a CompiledCard or a card id, not {type(card).__name__}", rule="card")


#: The longest answer read a second time with the financial-terms names (:mod:`._foreign_terms`); a longer one, far past
#: any real answer, is read once (bench/parse.py's 1 MB texts).
TERM_FALLBACK_CHARS = 100_000


def _holds_a_term(low: str, literals: tuple[str, ...]) -> bool:
    """Whether the lower-cased answer ``low`` holds one of ``literals`` (:func:`._card._term_literals`)."""
    return any(t in low for t in literals)


def parse_response(
    text: str,
    card: Card | Any,
    *,
    embedder: EmbedderArg = None,
    score_cutoff: float = DEFAULT_SCORE_CUTOFF,
    embed_cutoff: float = DEFAULT_EMBED_CUTOFF,
) -> ParsedResponse:
    """Parse one model response to an item of ``card`` into a gate trace (paper §7.5).

    Parameters
    ----------
    text:
        The response as the model wrote it (``bytes`` are decoded as UTF-8
        with replacement). Spans in the result are offsets into it.
    card:
        The card the item targets: a :class:`~ipb.engine.card.Card`, a
        compiled card, or a bundled card id / card path.
    embedder:
        Sentence embedder for the paraphrase fallback (anything with
        sentence-transformers' ``encode``). None loads
        :func:`default_embedder` on first need; False turns the fallback off.
    score_cutoff:
        rapidfuzz ``fuzz.ratio`` (0-100) a label needs to match a gate name
        or alias after normalisation.
    embed_cutoff:
        Cosine similarity a label needs for an embedding match (a prose
        sentence needs PROSE_EMBED_EXTRA, 0.05, more).

    Returns
    -------
    ParsedResponse
        ``status`` ``ok``, or ``parse_failure`` with a ``reason`` (empty
        text, binary junk, only a reasoning trace, no gate of the card
        recognised). Never raises on any text.

    Raises
    ------
    ParseError
        ``card`` is not a card, compiled card or card reference.
    """
    if isinstance(text, (bytes, bytearray)):
        text = bytes(text).decode("utf-8", errors="replace")
    elif not isinstance(text, str):
        text = "" if text is None else str(text)
    stripped, removed = strip_invisible(text)  # zero-width characters inside words are read through (:mod:`._invisible`)
    composed = compose(stripped)  # decomposed accents ("e" + U+0301) composed, as every word list and name is (ipb._composed)
    folded = fold_dotted_i(composed.text)  # Turkish İ / ı, one character for one, as the vocabulary is folded
    target = _card_of(card)
    parsed = _Parser(folded, target, embedder, score_cutoff, embed_cutoff).run()
    if 2 * len(parsed.gates) < len(target.gates) and len(folded) <= TERM_FALLBACK_CHARS \
            and _holds_a_term(folded.lower(), _term_literals(target)):
        # the card's own names (English and its sidecar's) find under half of its gates: an answer in another language
        # may name them by the key nouns of their metrics ("Bilanz", "負債比率"; ._foreign_terms), read as a fallback so
        # that they never displace a reading the card's names give: taken only when it finds more gates and reads every
        # gate verdict of the first reading alike; an answer that holds none of the terms is not read twice (a 1 MB
        # answer of English noise was read twice: bench/parse.py, s41)
        by_terms = _Parser(folded, target, embedder, score_cutoff, embed_cutoff, terms=True).run()
        kept = {g.gate: g.verdict for g in by_terms.gates}
        if len(by_terms.gates) > len(parsed.gates) and all(kept.get(g.gate, "") == g.verdict for g in parsed.gates):
            parsed = by_terms
    if not parsed.gates and (parsed.reason or "").startswith("no gate of card") and len(folded) <= TERM_FALLBACK_CHARS:
        # no gate named in words the parser knows (a language nobody listed): the items of a run that walks the card's
        # gates in order, read by their place at a confidence under the review bar (._wordless)
        for rewritten in candidate_rewritings(folded, len(target.gates)):
            second = _Parser(rewritten, target, embedder, score_cutoff, embed_cutoff).run()
            by_place = wordless_reading(parsed, retake_copies(second, folded, rewritten), len(target.gates),
                                        english=reads_as_english(folded))
            if by_place is not None:
                parsed = by_place
                break
    if not parsed.gates and (parsed.reason or "").startswith("no gate of card") and len(folded) <= TERM_FALLBACK_CHARS \
            and _holds_a_term(folded.lower(), _term_literals(target)):
        # still no gate: an answer in paragraphs that names its criteria only by key nouns in its sentences ("Wo staht s
        # Land im Schuldezyklus? Mir säged: am Top."), read with the terms in running prose as a last resort (_prose_terms.py)
        in_prose = _Parser(folded, target, embedder, score_cutoff, embed_cutoff, terms=True, prose_terms=True).run()
        if in_prose.gates:
            parsed = in_prose
    parsed = capped_by_place(parsed, folded)  # a list in another language read by its order alone
    if folded != composed.text:
        parsed = retake_copies(parsed, composed.text, folded)
    if composed.runs:
        parsed = remap_spans(parsed, composed.span, stripped, composed.text)
        parsed.notes = [*parsed.notes, f"{len(composed.runs)} decomposed character sequence(s) (a letter and its "
                                       "combining marks) were read in composed form (NFC)"]
    return restore_spans(parsed, removed, text, stripped)

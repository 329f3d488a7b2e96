"""A gate's label answered Yes / No with no question mark: "Circle of competence: yes.", "Moat (no: rivals match it)",
"3) "new buyers entering" (yes: accounts tripled)", "Management -- No. ..." (paper §7.5, labels with answers).

A checklist often writes each gate as a label and its answer right after it, in parentheses or after a colon or a dash,
the way a question is answered ("Moat? No"), but without the "?". The answer counts only when

- the gate is named (by name, alias, number or embedding) at the start of a line, after at most a list marker, an
  opening quote and five words of the label ("purchases financed with high leverage"), and no other gate is named
  between that and the answer;
- the answer word follows the label's own words (at most :data:`_LABEL_CHARS` characters of them, no sentence end in
  between) and one separator (``(``, ``:``, a dash or an arrow), and is itself closed by punctuation or the line's
  end: "Management: no red flags" is a fact ("no" a determiner), never a verdict word;
- the answer's sense can be told as for a question (:meth:`._answered._AnsweredMixin._asks_failure`): Yes passes a gate
  whose name states its pass condition and fails a gate named by the failure it watches for ("New buyers entering the
  market (yes)" is the bubble sign present); for a gate with both tests only the label's own failure words decide.

A label alone on its line is answered the same way by a Yes, No or "Not yet" opening the next line (one blank line at
most between): "Market confirmation" / "Not yet. Reserves fell 4% ...". "Hard to say", "unclear", "unknown" and "not
yet" are INCONCLUSIVE; "not really" is a No. Each answer becomes a verdict word of
the label's gate (:data:`._answered.QUESTION_ANSWERS`), judged and ranked like the rest by :mod:`._verdicts`.
"""

from __future__ import annotations

import re

from ipb.scoring.parse._answered import (_FAILURE_ASKED, _FAILURE_NO, _FAILURE_SENSE, _FAILURE_YES, _QUESTION_NO,
                                         _QUESTION_UNKNOWN, _QUESTION_YES, _AnsweredMixin)
from ipb.scoring.parse._common import MAX_OCCURRENCES, _Hit

#: At most this many characters of the label's own words between the gate's mention and the separator.
_LABEL_CHARS = 80
#: What may stand before the gate's mention on its line: a list marker, a number, an opening quote or emphasis.
_LINE_HEAD = re.compile(r"[ \t>]*(?:(?:[-*+\u2022\u2013\u2014]|\(?\d{1,3}[.):]?|[a-z][.)])[ \t]+)?[ \t]*[\"'\u201c\u2018*_]*"
                        r"(?:[a-z][\w'&/-]*[ \t]+){0,%d}" % 5)
#: After the mention: the rest of the label (no sentence end, no colon, no question), one separator, then the answer,
#: closed by punctuation or the line's end.
_ANSWER = re.compile(r"(?P<rest>[^\n(:?.;!,\u2014\u2013]{0,%d}?)[ \t\"'\u201d\u2019*_]*(?P<sep>\(|:|\u2014|\u2013|--?|->|\u2192|=>)"
                     r"[ \t*_]*(?P<answer>yes|no|not[ \t]+really|hard[ \t]+to[ \t]+say|unclear|unknown)"
                     r"(?=[ \t*_]*(?:[,.;:!)\u2014\u2013-]|$))" % _LABEL_CHARS, re.M)
#: A label alone on its line (the rest of the label, then at most a colon or emphasis) and the answer opening the next
#: line, one blank line at most between: "Market Confirmation\nNot yet. Reserves fell 4%...", "**Moat**\n\nYes. ...".
#: The spacing before and after the optional colon is one star unless the colon is there ("[ \t]*:?[ \t]*" tried every
#: split of a run of n spaces after a label: n * n steps, 6,000 spaces after "test" took 12 s).
_NEXT_LINE = re.compile(r"(?P<rest>[^\n(:?.;!,\u2014\u2013]{0,%d}?)[ \t\"'\u201d\u2019*_]*(?::[ \t*_]*)?\n(?:[ \t]*\n)?"
                        r"[ \t>*_]*(?P<answer>yes|no|not[ \t]+yet|unclear|unknown)[*_]*(?=[.!;:\u2014\u2013-]|,[ \t])"
                        r"(?![.:][ \t]*\d)" % _LABEL_CHARS)
_UNKNOWN = ("hard to say", "unclear", "unknown", "not yet")
#: A negation in the label's own words turns what its answer means round ("No euphoria: yes" = the sign is absent).
_LABEL_NEGATION = re.compile(r"\b(?:no|not|non|never|none|without|absen(?:t|ce)|lack\w*|free[ \t]+(?:of|from)|missing)\b")
#: Words a label may hold beside its gate's own vocabulary without changing what the answer says: articles,
#: prepositions, pronouns, conjunctions ("prices high against traditional measures", "policy inflating it") and the
#: words that call a criterion a criterion.
_LABEL_FILLER = frozenset({"a", "an", "the", "of", "and", "or", "&", "for", "to", "in", "into", "with", "by", "on", "at",
                           "from", "over", "under", "against", "versus", "vs", "relative", "compared", "as", "than",
                           "it", "its", "this", "that", "these", "those", "they", "them", "their", "our", "we",
                           "is", "are", "be", "being", "test", "tests", "check", "criterion", "criteria", "gate", "step",
                           "screen", "rule", "condition", "requirement", "sign", "signal", "gauge", "measure"})
_LABEL_WORD = re.compile(r"[a-z][a-z'-]*")


class _LabelAnswersMixin(_AnsweredMixin):
    """Finds gate labels answered Yes / No / Unknown without a question mark, as verdict words of the label's gate."""

    def _label_answers(self) -> list[_Hit]:
        """The answers right after a gate's line-opening label, as :data:`._answered.QUESTION_ANSWERS` verdict words
        (registered in ``question_gate`` so the answer speaks for that gate alone)."""
        out: list[_Hit] = []
        masked, low = self.masked, self.low
        asked = self.__dict__.setdefault("question_gate", {})
        for k, mention in enumerate(sorted(self.mentions, key=lambda m: m.start)):
            if k >= MAX_OCCURRENCES or len(mention.gates) != 1:
                continue
            start = masked.rfind("\n", 0, mention.start) + 1
            if _LINE_HEAD.fullmatch(low, start, mention.start) is None:
                continue
            m = _ANSWER.match(low, mention.end) or _NEXT_LINE.match(low, mention.end)
            if m is None:
                continue
            a, b = m.span("answer")
            if a in asked or any(o.gates != mention.gates for o in self.mentions if mention.end <= o.start < a):
                continue
            gate = mention.gates[0]
            if not self._label_understood(gate, start, mention.start, mention.end, m.end("rest")):
                continue
            failure = self._asks_failure(gate, m.end("rest"), line=True)
            if failure is None:
                continue
            u = self._unit_at(a)
            if u < 0:
                continue
            answer = " ".join(m.group("answer").split())
            if answer in _UNKNOWN:
                word = _QUESTION_UNKNOWN
            elif answer == "yes":
                word = _FAILURE_YES if failure else _QUESTION_YES
            else:
                word = _FAILURE_NO if failure else _QUESTION_NO
            out.append(_Hit(a, b, word, u))
            asked[a] = gate
        return out

    def _label_understood(self, gate: int, start: int, head: int, end: int, rest: int) -> bool:
        """Whether the label's own words around the mention (``[start, head)`` before it, ``[end, rest)`` after it) leave
        the answer's sense to the gate: no negation ("No euphoria", "sentiment absent") and no word outside the gate's
        name and aliases, :data:`_LABEL_FILLER` and the failure words the sense reader knows ("Moat erosion",
        "Management concerns", "size questioned by analysts" each ask something the card does not name)."""
        low = self.low
        if _LABEL_NEGATION.search(low, start, head) or _LABEL_NEGATION.search(low, end, rest):
            return False
        own = low[end:rest]
        for pattern in (_FAILURE_ASKED, _FAILURE_SENSE):
            own = pattern.sub(" ", own)
        words = set(_LABEL_WORD.findall(own)) - _LABEL_FILLER
        if not words:
            return True
        spec = next((g for g in self.ix.card.gates if g.number == gate), None)
        if spec is None:
            return False
        vocabulary = set(_LABEL_WORD.findall(" ".join((spec.name, *spec.aliases)).lower()))
        return words <= vocabulary

    def _answer_embedded_label(self, li: int, gate: int, value: int, answer: str) -> None:
        """The Yes / No ``answer`` (at ``value``) of a label in the writer's own words that the embedding fallback took
        for ``gate`` ("2. with favorable long-term prospects: yes, ..."), registered as that gate's verdict word the way
        :meth:`_label_answers` registers a named label's answer (which ran before the embedder read the label). The
        answer's sense is told as for a question about the gate; when it cannot be told, nothing is added."""
        line = self.lines[li]
        if line.label is None or value in self.__dict__.setdefault("question_gate", {}):
            return
        if _LABEL_NEGATION.search(self.low, line.start, line.label[1]):
            return  # "No leverage: yes" turns the answer round: left unread
        failure = self._asks_failure(gate, line.label[1], line=True)
        u = self._unit_at(value)
        if failure is None or u < 0:
            return
        if answer == "yes":
            word = _FAILURE_YES if failure else _QUESTION_YES
        else:
            word = _FAILURE_NO if failure else _QUESTION_NO
        hit = _Hit(value, value + len(answer), word, u)
        self.unit_hits.setdefault(u, []).append(hit)
        self.unit_hits[u].sort(key=lambda h: h.start)
        self.hits[:] = sorted([*self.hits, hit], key=lambda h: h.start)
        self.question_gate[value] = gate

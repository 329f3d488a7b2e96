"""Gate references in other words: a sentence that holds every content word of one gate's phrase, in any order and
inflection (issue 13, gate references; paper §7.5, the parser's alias and paraphrase matching).

A reader meets a criterion discussed by its substance rather than its name: "We value the portfolio conservatively at
$1.2bn (PROCEED)" is Klarman's "Conservative Business Valuation"; "No dissipation of current assets by losses:
PROCEED" is Graham's "Current Assets Not Dissipated by Losses"; "a business anyone can understand" is Munger's
"understand the business". The phrases are the card's gate names, aliases and the literal parts of their required
elements (:func:`._card._gate_phrases`), each as the set of its content words, each word compared by a crude key (its
stem's first letters, :func:`word_key`) so "conservatively" meets "conservative" and "valuation" meets "value".

Guards, so that no gate is invented where the words are ordinary:

- a phrase needs at least two content words, and none of them generic ("test", "check", "rule"...);
- a phrase whose words all sit inside a phrase of another gate names neither;
- the words must fall close together: within ``2 * n + 4`` words for a phrase of ``n`` words;
- the sentence must name no other gate (by name, alias, number or substance): a sentence that names another gate's
  criterion is that gate's, never taken over by a looser match; it may name the same gate in passing ("We value the
  business conservatively ..., using the liquidation value ..."), and the words then make it the sentence's subject;
- a sentence that fits phrases of two gates names neither, unless it also names one of them in passing or one
  phrase is longer by a word or more;
- final-verdict sentences are never read this way;
- only gates the answer names nowhere else (outside that sentence) are found this way, once each (a fallback, never a
  second reading of a named gate);
- the mention is of kind ``substance``: with no verdict it counts only where the gate is named elsewhere or the
  sentence is not a remark (on the investor's rule, on others' views: :meth:`._parser._Parser._named_or_judged`).

The phrases also include the names of the inputs one gate alone reads ("current assets", "long-term debt"), unless
their words sit in another gate's phrase or input name (:func:`gate_bags`).
"""

from __future__ import annotations

import re
from functools import lru_cache

from ipb.scoring._text import STOPWORDS, normalize, stem
from ipb.scoring.parse._common import (
    MAX_OCCURRENCES,
    _CardIndex,
    _Mention,
    _mention_order,
)
from ipb.scoring.parse._memo import per_object
from ipb.scoring.parse._state import _ParserState
from ipb.scoring.parse._types import Span

_TOKEN = re.compile(r"[^\W\d_][^\W_]*")
#: Words that frame or join a criterion without naming its substance; a phrase is matched on its other words.
_IGNORED = frozenset({"test", "check", "rule", "requirement", "limit", "screen", "criterion", "criteria", "filter", "gate", "hurdle",
                      "question", "cap", "ceiling", "floor", "minimum", "maximum", "threshold", "kill", "not", "no", "our", "we",
                      "you", "your", "can", "will", "would", "should", "has", "have", "had", "was", "were", "being", "been",
                      "does", "do", "any", "all", "each", "every", "one", "two", "three", "other", "more", "less", "much",
                      "very", "too", "but", "if", "so", "there", "here", "what", "which", "who", "whom", "how", "why", "when",
                      "where", "whether", "then", "also", "only", "just", "still", "even", "such", "same", "own"})
#: Line kinds whose label is read whole by the label readers (the embedder, :mod:`._vocabulary`), however long.
_WHOLE_LABELS = frozenset({"heading", "table", "json"})
#: A sentence is read this way only if it is shorter than this (a long run-on line is not one statement).
MAX_SENTENCE_WORDS = 80


@lru_cache(maxsize=65536)
def word_key(word: str) -> str:
    """The key two inflections of one word share: the first six letters of its stem, less a closing "e".

    >>> [word_key(w) for w in ("conservatively", "conservative", "valuation", "value", "dissipation", "dissipated")]
    ['conser', 'conser', 'valu', 'valu', 'dissip', 'dissip']
    >>> word_key("understand") == word_key("under")
    False
    """
    s = stem(word.lower())
    key = s[:6]
    return key[:-1] if len(key) >= 5 and key.endswith("e") else key


def _content_keys(text: str) -> frozenset[str]:
    return frozenset(word_key(w) for w in _TOKEN.findall(normalize(text))
                     if w not in STOPWORDS and w not in _IGNORED and len(w) > 2)


@per_object()
def gate_bags(ix: _CardIndex) -> list[tuple[frozenset[str], int]]:
    """(content-word keys, gate) for every phrase of the card that names one gate only, longest first (cached per index).

    A phrase whose keys all sit in a phrase of another gate is dropped ("intrinsic value" in one gate's "price versus
    intrinsic value" and another's "intrinsic value estimate" names neither).
    """
    from ipb.scoring.parse._card import (
        _gate_phrases,  # the card side imports the reference modules
    )

    from ipb.scoring.parse._fact_keys import input_gates

    phrases: list[tuple[frozenset[str], int]] = []
    for g in ix.card.gates:
        for phrase in _gate_phrases(g):
            keys = _content_keys(phrase)
            if len(keys) >= 2:
                phrases.append((keys, g.number))
    # the names of the inputs one gate alone reads ("current assets", "long-term debt", "dividend years"): a writer states
    # a criterion's facts by them; a name whose words sit in another gate's phrase, or another input's, names neither
    inputs = [(keys, gate) for name, gate in input_gates(ix.card).items() if len(keys := _content_keys(name)) >= 2]
    out: list[tuple[frozenset[str], int]] = []
    seen: set[tuple[frozenset[str], int]] = set()
    for keys, gate in phrases:
        if (keys, gate) in seen:
            continue
        seen.add((keys, gate))
        if any(other != gate and keys <= more for more, other in phrases):
            continue
        out.append((keys, gate))
    for keys, gate in inputs:
        if (keys, gate) in seen:
            continue
        seen.add((keys, gate))
        if any(other != gate and keys <= more for more, other in (*phrases, *inputs)):
            continue
        out.append((keys, gate))
    out.sort(key=lambda p: -len(p[0]))
    return out


class _LexicalReferencesMixin(_ParserState):
    """Adds a ``substance`` mention for a sentence that holds every content word of exactly one gate's phrase."""

    def _lexical_mentions(self, unresolved: list[tuple[int, Span, str, int | None]]) -> list[tuple[int, Span, str, int | None]]:
        """Adds the mentions, in sentences outside the labelled lines (anchored, or left ``unresolved`` by
        :meth:`_resolve_labels` for the label readers: the embedder, :mod:`._vocabulary`); returns ``unresolved`` less
        the long labels whose sentence was found in a gate's words here (so none of them is taken for an invented gate)."""
        bags = gate_bags(self.ix)
        if not bags:
            return unresolved
        # where each gate is named: a gate named only inside one sentence, in passing, may still be that sentence's subject
        named_in: dict[int, set[int]] = {}
        found_before: list[_Mention] = self.mentions
        for m in found_before:
            for g in m.gates:
                named_in.setdefault(g, set()).add(m.unit)
        anchored = {a.gate for a in self.anchors.values() if a.gate is not None}
        if len(anchored) == len(self.card.gates):
            return unresolved  # every gate has its label: nothing is left to find in other words
        wanted = frozenset(k for keys, _ in bags for k in keys)
        # a short label, and any heading, table cell or JSON value, is read by its words elsewhere (_vocabulary, the
        # embedder): the sentence that holds it is left alone; a long label opening a line of prose ("Losses are not
        # eating the working capital: ...") no label reader takes, so it is read here
        from ipb.scoring.parse._vocabulary import (
            MAX_LABEL_WORDS,  # the label readers' own bound
        )

        label_units = {self._unit_at(span[0]) for li, span, label, _ in unresolved
                       if (len(label.split()) <= MAX_LABEL_WORDS and "," not in label) or self.lines[li].kind in _WHOLE_LABELS}
        long_labels = {self._unit_at(span[0]): li for li, span, label, _ in unresolved if self._unit_at(span[0]) not in label_units}
        added: list[_Mention] = []
        for u, unit in enumerate(self.units):
            if u in self.final_units or unit.end - unit.start < 12 or u in label_units or (unit.first and unit.line in self.anchors):
                continue
            own = {g for m in self.unit_mentions.get(u, []) for g in m.gates}
            if len(own) > 1 or any(m.invented is not None for m in self.unit_mentions.get(u, [])):
                continue  # a sentence that names two gates, or a gate the card lacks, is read by those names
            if len(added) >= MAX_OCCURRENCES:
                break
            tokens = [(m.start(), m.end(), m.group(0).lower()) for m in _TOKEN.finditer(self.masked, unit.start, unit.end)]
            if len(tokens) > MAX_SENTENCE_WORDS:
                continue
            where: dict[str, list[int]] = {}
            for i, (_, _, w) in enumerate(tokens):
                if w in STOPWORDS or w in _IGNORED or len(w) <= 2:
                    continue
                k = word_key(w)
                if k in wanted:
                    where.setdefault(k, []).append(i)
            if len(where) < 2:
                continue
            found: dict[int, tuple[int, int]] = {}
            size: dict[int, int] = {}
            for keys, gate in bags:  # longest phrases first
                if not keys <= where.keys():
                    continue
                window = _tightest(keys, where)
                if window is None or window[1] - window[0] > 2 * len(keys) + 4:
                    continue
                if gate not in found:
                    found[gate], size[gate] = window, len(keys)
            if len(found) > 1:
                # phrases of two gates: the gate the sentence also names in passing, else the one whose phrase is longer
                # by a word or more ("value the business conservatively ... auction prices" is the valuation, not
                # "price versus value"); else the sentence names neither
                ranked = sorted(size.values(), reverse=True)
                if own and own <= found.keys():
                    found = {g: w for g, w in found.items() if g in own}
                elif ranked[0] > ranked[1]:
                    found = {g: w for g, w in found.items() if size[g] == ranked[0]}
            if len(found) != 1:
                continue
            gate, (a, b) = next(iter(found.items()))
            if own and own != {gate}:
                continue  # the sentence names another gate's criterion: it is that gate's
            units_naming = named_in.get(gate)
            if gate in anchored or (units_naming is not None and (len(units_naming) > 1 or u not in units_naming)):
                continue  # a fallback for the gates the answer names nowhere else (tested without copying the set: linear)
            vocabulary = _own_keys(bags).get(gate, frozenset())
            # the mention opens at the sentence's first word of that gate's own vocabulary: "Management bought shares
            # ... which I read as aligned incentives" is about management from its first word
            a = min([a, *(i for i, (_, _, w) in enumerate(tokens[:a]) if w not in STOPWORDS and word_key(w) in vocabulary)])
            mention = _Mention(tokens[a][0], tokens[b][1], (gate,), "substance", unit=u)
            anchored.add(gate)  # found once: later sentences follow it as the subject
            added.append(mention)
            self.lexical_units.add(u)
            self.unit_mentions[u] = sorted([mention, *self.unit_mentions.get(u, [])], key=_mention_order)
            self.unit_mention_starts.pop(u, None)
        if not added:
            return unresolved
        self.mentions.extend(added)
        self.mentions.sort(key=_mention_order)
        done = {long_labels[m.unit] for m in added if m.unit in long_labels}
        return [item for item in unresolved if item[0] not in done]


@per_object()
def _own_keys(bags: list[tuple[frozenset[str], int]]) -> dict[int, frozenset[str]]:
    """Gate -> the keys of its phrases that no other gate's phrase holds (cached per bag list)."""
    by_gate: dict[int, set[str]] = {}
    for keys, gate in bags:
        by_gate.setdefault(gate, set()).update(keys)
    return {g: frozenset(k for k in keys if not any(k in other for h, other in by_gate.items() if h != g)) for g, keys in by_gate.items()}


def _tightest(keys: frozenset[str], where: dict[str, list[int]]) -> tuple[int, int] | None:
    """The narrowest (first, last) token positions that hold one occurrence of every key."""
    events = sorted((i, k) for k in keys for i in where[k])
    need = len(keys)
    count: dict[str, int] = {}
    best: tuple[int, int] | None = None
    lo = 0
    for hi in range(len(events)):
        k = events[hi][1]
        count[k] = count.get(k, 0) + 1
        while len(count) == need:
            span = (events[lo][0], events[hi][0])
            if best is None or span[1] - span[0] < best[1] - best[0]:
                best = span
            lk = events[lo][1]
            count[lk] -= 1
            if count[lk] == 0:
                del count[lk]
            lo += 1
    return best

"""JSON-shaped answers: persona-bot objects, dict reprs and fenced JSON read as the labelled lines they are (issue 13, layouts).

Investor-persona agents print their answer as an object: a top-level ``signal`` (bullish / bearish / neutral),
``confidence`` and a long ``reasoning`` string, sometimes one sub-object per criterion
(``{"margin_of_safety": {"signal": "bearish", "details": "..."}}``), booleans (``"moat": true``), a Python dict repr
(``{'signal': 'bullish'}``) or all of it on one line. A careful reader reads each key as a label and its value as what
the label says. This module finds such blocks with a tolerant scanner of its own (:func:`scan_json`: never ``eval``,
never raises; bad JSON gives what was read up to the fault; :mod:`._json_scan`) and makes them readable by the rest of
the parser:

- **a view of the same length** (:func:`json_view`): pairs of one object that share a line are put on lines of their
  own (a space before a key becomes a line break), a dict repr's single-quoted strings are double-quoted, a long
  string's ``\\n`` escapes become line breaks (so "1. Moat: pass\\n2. ..." inside a reasoning string is a list), and
  ``\\uXXXX`` escapes of non-ASCII characters are read as the characters. Only spacing, quotes and escapes change, so
  every offset is an offset of the original text and no span leaves it;
- **verdicts the vocabulary lacks** (:meth:`_JsonAnswerMixin._json_hits`): a yes / no answer under a key that names a
  card gate or holds a verdict word, in JSON or a YAML-like block (``"moat": true``, ``management_integrity: no``,
  ``"passed": false``; a key that names a failure, ``"red_flag": true``, the other way round; a fact key such as
  ``"is_cyclical": true`` says nothing); a ``signal`` / ``assessment`` of bullish, bearish or neutral inside a
  sub-object named by a card gate (its key, or its own ``name`` / ``criterion`` value), or as the value of such a key;
  a score against a pass mark stated beside it (``{"score": 7, "pass_threshold": 6}``; a bare ``max_score`` states no
  pass mark). A verdict word inside a key (``"passed": false``) is the key's, not a verdict;
- **keys as labels** (:meth:`_JsonAnswerMixin._resolve_labels`): a key that names a card gate by its name, an alias or
  a part of them (``"economic_moat"``, ``"credit"``) opens that gate's section, and the pairs inside its value stay in it;
- **the final verdict**: a ``signal`` inside a gate's sub-object is that gate's, never the answer's final verdict; a
  top-level ``"signal": "neutral"`` commits to neither outcome and is read as INCONCLUSIVE.

References
----------
Paper §7.5 (SRP); issue 13 item 2 (layouts, final verdicts in the wild).
"""

from __future__ import annotations

import re
from bisect import bisect_right

from ipb.scoring import verdict_words as vw
from ipb.scoring._text import Line, lowered, normalize
from ipb.scoring.parse._common import _Anchor, _Hit, _Mention
from ipb.scoring.parse._fact_keys import input_gates, key_words
from ipb.scoring.parse._json_keys import (  # moved there; their names stay importable here
    _BOOL, _FAILURE_KEY, _FIGURE, _JSON_FALSE, _JSON_RATING, _JSON_TRUE, _PASS_MARK_KEYS, _RATING_VALUES, _VERDICT_KEY,
    _YAML_ANSWER, _YAML_ANSWER_HINT, FIELD_KEYS, RATING_KEYS, _number)
from ipb.scoring.parse._json_scan import _GATE_OBJECT_NAMES, JsonNode, _walk, json_view, scan_json  # moved there
from ipb.scoring.parse._state import _ParserState
from ipb.scoring.parse._types import Span
from ipb.scoring.parse._vocabulary import gate_vocabulary, names_read, title_stems


#: Words of a key that holds the answer's own conclusion: a yes / no under it may be the final verdict; one in any other
#: sub-object ("phase1_screening": {"passed": true}) answers for that part only.
_SUMMARY_KEY = re.compile(r"(?i)final|overall|summary|verdict|conclu|decision|recommend|result|outcome|bottom")


class _JsonAnswerMixin(_ParserState):
    """Reads JSON-shaped answers: lays their keys out as lines (:func:`json_view`), adds their boolean and rating
    values as verdict words, and keeps gates' ratings out of the final verdict."""

    masked: str
    hits: list[_Hit]
    json_blocks: list[JsonNode]
    #: Offsets of rating words that are a gate's, never the final verdict's.
    json_not_final: set[int]
    #: A pair's value offset -> (its key's span, its object, the objects it lies in, its value).
    json_pairs: dict[int, tuple[Span, JsonNode, tuple[int, ...], JsonNode]]
    #: id of an object or array -> the span of the key whose value it is.
    json_owner: dict[int, Span]
    #: Starts of keys that state a fact before their gate is named otherwise (they label no gate; :meth:`_find_mentions`).
    json_leading_facts: set[int]

    def _layout(self) -> None:
        self.json_blocks = scan_json(self.masked) if "{" in self.masked or "[" in self.masked else []
        self.json_not_final = set()
        self.json_leading_facts = set()
        self.json_pairs = {}
        self.json_owner = {}
        for block in self.json_blocks:
            self._index_pairs(block, ())
        if self.json_blocks:
            view = json_view(self.masked, self.json_blocks)
            if view != self.masked:
                self.masked = view
                self.low = lowered(view)
                self.positions.clear()
                self.prefixes = None
        super()._layout()  # type: ignore[misc]

    def _index_pairs(self, node: JsonNode, chain: tuple[int, ...]) -> None:
        if node.kind == "object":
            chain = (*chain, id(node))
            for _, kspan, val in node.pairs:
                self.json_pairs[val.start] = (kspan, node, chain, val)
                self.json_owner[id(val)] = kspan
                self._index_pairs(val, chain)
        elif node.kind == "array":
            for item in node.items:
                self._index_pairs(item, (*chain, id(node)))

    def _resolve_labels(self) -> list[tuple[int, Span, str, int | None]]:
        """The labels of :meth:`._references._ReferencesMixin._resolve_labels`, and JSON keys that name a card gate
        (``"economic_moat": "pass"``, ``"margin_of_safety": {...}``) as that gate's label: the key is the label, its value
        what the label says. A key names a gate when a gate's name or alias makes up most of it (field keys such as
        ``reasoning``, ``confidence``, ``signal`` never do)."""
        unresolved = super()._resolve_labels()  # type: ignore[misc]
        if not self.json_pairs:
            return unresolved
        for li in [li for li, a in self.anchors.items() if a.how in ("fuzzy", "words") and
                   (a.mention[0] in self.json_leading_facts or a.mention[0] - 1 in self.json_leading_facts)]:
            del self.anchors[li]  # '"Return-on-capital": "42%"' close to a gate's name: an input's value, not its label
        for li, line in enumerate(self.lines):
            if line.kind != "json" or li in self.anchors or line.key == "object":
                continue
            pair = self.json_pairs.get(line.body)
            if pair is None:
                continue
            kspan = pair[0]
            key = normalize(key_words(self.masked[kspan[0] : kspan[1]]))  # "margin_of_safety", "marginOfSafety"
            if not key or key.replace(" ", "_") in FIELD_KEYS or key.replace(" ", "_") in RATING_KEYS or "final" in key:
                continue
            if kspan[0] in self.json_leading_facts:
                continue  # '"current_ratio": 2.1', '"market_cap": "$1.2B"': an input's value, stated with no verdict
            names = [m for m in self._mentions_in(*kspan) if m.gates and m.how != "number" and m.invented is None]
            if len(names) == 1 and len(normalize(self.masked[names[0].start : names[0].end])) * 2 >= len(key):
                self.anchors[li] = _Anchor(names[0].gates[0], names[0].how, (names[0].start, names[0].end))
                continue
            if names:
                continue
            gate = self._key_gate(key, pair[3])
            if gate is None and not self._fact_value(pair[3], self.masked[kspan[0] : kspan[1]].strip("\"'")):
                # '"debt_to_equity": "0.4, comfortably low"': an input's name whose value judges it labels its gate (_fact_keys.py)
                gate = input_gates(self.card).get(key_words(self.masked[kspan[0] : kspan[1]]))
            if gate is not None:
                self.anchors[li] = _Anchor(gate, "words", kspan)
        keys = {kspan[0]: kspan for kspan, _, _, _ in self.json_pairs.values()}
        for li, a in list(self.anchors.items()):
            kspan = (keys.get(a.mention[0]) or keys.get(a.mention[0] - 1)) if a.how == "substance" else None
            if kspan is not None and a.gate == input_gates(self.card).get(key_words(self.masked[kspan[0] : kspan[1]])):
                self.anchors[li] = _Anchor(a.gate, "words", a.mention)  # a key that is the input's name labels its gate
        return unresolved

    def _find_mentions(self) -> None:
        """The mentions of :meth:`._references._ReferencesMixin._find_mentions`, less those inside a key that states a fact
        (:meth:`_fact_value`) before the answer has named that gate otherwise: ``"return_on_capital": 0.31`` ahead of a
        ``checks`` object states an input; it neither detects the gate nor sets its place in the order (such keys are
        kept in ``json_leading_facts`` and label no gate). Once a gate has been named, by a mention or a key ("temperature":
        "hot"), a fact key of it ("evidence": {"high_yield_spread": "2.9%"}) is read as before, in its section."""
        super()._find_mentions()  # type: ignore[misc]
        self.json_leading_facts = set()
        if not self.json_pairs:
            return
        keys: list[tuple[int, int, bool, frozenset[int]]] = []  # (start, end, states a fact, gates its words name)
        for kspan, _, _, val in self.json_pairs.values():
            raw = self.masked[kspan[0] : kspan[1]]
            if len(raw) > 60:
                continue
            key = raw.strip("\"'")
            fact = self._fact_value(val, key)
            field_key = key.lower() in FIELD_KEYS or key.lower() in RATING_KEYS or "final" in key.lower()
            gates = frozenset() if field_key else self._part_gates(normalize(key_words(raw)))
            if not gates and not field_key and key_words(key) in input_gates(self.card):
                gates = frozenset({input_gates(self.card)[key_words(key)]})  # "Return-on-capital": an input's name
            keys.append((kspan[0], kspan[1], fact, gates if len(gates) == 1 else frozenset()))
        if not any(k[2] for k in keys):
            return
        keys.sort()
        found: list[_Mention] = self.mentions  # type: ignore[has-type]  # (mypy: an import cycle through the mixins)
        mentions = sorted(found, key=lambda m: m.start)
        named: set[int] = set()
        gone: set[int] = set()
        j = 0
        for start, end, fact, gates in keys:
            while j < len(mentions) and mentions[j].start < start:
                named.update(mentions[j].gates)
                j += 1
            inside = []
            while j < len(mentions) and mentions[j].start < end:
                inside.append(mentions[j])
                j += 1
            names = set(gates).union(*(m.gates for m in inside if m.invented is None))
            if fact and names and named.isdisjoint(names):
                self.json_leading_facts.add(start)
                gone.update(id(m) for m in inside if m.invented is None)
            else:
                named.update(names)
        if gone:
            self.mentions = [m for m in found if id(m) not in gone]
            for u, ms in self.unit_mentions.items():
                if any(id(m) in gone for m in ms):
                    self.unit_mentions[u] = [m for m in ms if id(m) not in gone]

    def _quoted_end(self, pos: int) -> int:
        """The closing quote of the JSON string value that holds ``pos`` (an attribution in ``"note": "Buffett wrote that
        moats matter"}`` ends at ``matter``, not at the line's end; s24break finding 5); else the default."""
        spans = self.__dict__.get("_json_string_spans")
        if spans is None:
            found: list[tuple[int, int]] = []
            stack = list(self.json_blocks)
            while stack:
                node = stack.pop()
                if node.kind == "string":
                    found.append((node.start, node.end))
                stack.extend(val for _, _, val in node.pairs)
                stack.extend(node.items)
            spans = self.__dict__["_json_string_spans"] = sorted(found)
        i = bisect_right(spans, (pos, len(self.masked) + 1)) - 1
        if i >= 0 and spans[i][0] < pos < spans[i][1]:
            return spans[i][1] - 1
        return super()._quoted_end(pos)  # type: ignore[misc,no-any-return]

    def _fact_value(self, val: JsonNode, key: str = "") -> bool:
        """Whether a pair states a fact: its value is only a figure (a JSON number, or a string holding one number with its
        currency, scale or unit: ``2.1``, ``"$1.2B"``, ``"(3.5)%"``, or "n/m"), or its key is one of the card's input names
        and its value a short string that states no verdict (``"sector": "Software"``). Such a key names a gate's input
        and does not discuss the gate (s24break finding 4: ``"market_cap": 1.2e9`` detected the size gate with no verdict,
        and a bullish signal then entailed it)."""
        value = self.masked[val.start : val.end]
        if val.kind == "literal":
            return _number(value.strip()) is not None
        if val.kind != "string":
            return False
        value = value.strip("\"' \t")
        if _FIGURE.fullmatch(value) is not None:
            return True
        if not key or "_".join(key_words(key).split()) not in self._input_names() or len(value.split()) > 4:
            return False
        return vw.VERDICT_PATTERN.search(value) is None and vw.CONTEXT_VERDICT_PATTERN.search(value) is None

    def _input_names(self) -> frozenset[str]:
        """The names of the inputs the card's gates read (once per parse)."""
        names = self.__dict__.get("_json_input_names")
        if names is None:
            names = self.__dict__["_json_input_names"] = frozenset(n.lower() for g in self.card.gates for n in names_read(g))
        return names

    def _key_gate(self, key: str, val: JsonNode) -> int | None:
        """The gate a short key names by a part of its name or aliases ("credit" for an alias "credit impulse"); a key
        that fits several gates ("growth" for "Growth Relative to Expectations" and "Growth-Inflation Quadrant") names the
        one whose vocabulary holds more of its value's words than any other's ("+1.1pp over consensus"). A value that is
        only one of the card's outcome words ("tilt": "TILT_TO_NOMINAL_BONDS") states the final verdict, not a gate."""
        if len(key.split()) > 3:
            return None
        gates = self._part_gates(key)
        if not gates:
            return None
        value = self.masked[val.start : val.end].strip(" \t\"'")
        if val.kind == "string" and self.ix.outcome_re is not None and self.ix.outcome_re.fullmatch(value.strip(" .!")) is not None:
            return None
        if len(gates) == 1:
            return next(iter(gates))
        if val.kind != "string":
            return None
        stems = title_stems(value)
        vocab = gate_vocabulary(self.card)
        ranked = sorted(((len(stems & vocab.get(g, frozenset())), g) for g in gates), reverse=True)
        return ranked[0][1] if ranked[0][0] > ranked[1][0] else None

    def _closes(self, line: Line, anchor_line: Line | None, first_text: str, structural: bool) -> bool:
        """A JSON pair inside the value of the gate key that opened the section, or a sibling of a gate object's name
        (``"passed": false`` beside ``"criterion": "moat"``), stays in that gate's section."""
        if anchor_line is not None and line.kind == "json" and anchor_line.kind == "json" and self.json_pairs:
            inner, outer = self.json_pairs.get(line.body), self.json_pairs.get(anchor_line.body)
            if inner is not None and outer is not None:
                kspan, obj, _, val = outer
                key = self.masked[kspan[0] : kspan[1]].lower()
                if val.kind in ("object", "array") and id(val) in inner[2]:
                    return False
                if key in _GATE_OBJECT_NAMES and inner[1] is obj:
                    return False
        return super()._closes(line, anchor_line, first_text, structural)  # type: ignore[misc]

    def _find_hits(self) -> None:
        super()._find_hits()  # type: ignore[misc]
        if not self.json_blocks and _YAML_ANSWER_HINT.search(self.masked) is None:
            return
        extra, keys = self._json_hits()
        if not extra and not keys:
            return
        if keys:  # "passed": false - the word in the key labels the value; it is no verdict of its own
            keys.sort()
            starts = [a for a, _ in keys]

            def in_key(pos: int) -> bool:
                k = bisect_right(starts, pos) - 1
                return k >= 0 and pos < keys[k][1]

            keep = [h for h in self.hits if not in_key(h.start)]
            if len(keep) != len(self.hits):
                self.hits = keep
                for u, hits in list(self.unit_hits.items()):
                    self.unit_hits[u] = [h for h in hits if not in_key(h.start)]
        for hit in extra:
            self.unit_hits.setdefault(hit.unit, []).append(hit)
        for u in {hit.unit for hit in extra}:
            self.unit_hits[u].sort(key=lambda h: h.start)
        self.hits = sorted(self.hits + extra, key=lambda h: h.start)

    def _names_gate(self, span: Span) -> bool:
        """Whether a gate mention lies in ``span`` (a key), or the key's words are part of one gate's name ("drift_check"
        for "Risk Drift Beyond Tolerance"; "marginOfSafety", where no mention starts inside a word)."""
        a, b = span
        if any(m.gates and a <= m.start < b for m in self.mentions):
            return True
        return len(self._part_gates(normalize(key_words(self.masked[a:b])))) == 1  # type: ignore[attr-defined]

    def _json_hits(self) -> tuple[list[_Hit], list[Span]]:
        """Verdict words of JSON values, and the spans of keys whose verdict words are labels (see the module doc)."""
        out: list[_Hit] = []
        keys: list[Span] = []
        for block in self.json_blocks:
            for obj, parent, _ in _walk(block):
                # an object of failure flags ("triggers": {"story_broken": false, "better_opportunity": false}): each
                # of its yes / no answers says whether that gate's failure holds, whatever its own key's words
                flags = parent is not None and _FAILURE_KEY.search(parent) is not None
                for key, kspan, val in obj.pairs:
                    low = key.lower().replace(" ", "_")
                    if val.kind == "literal":
                        self._answer_hit(out, keys, kspan, low, val.start, val.end, failing=flags)
                        if parent is not None and _SUMMARY_KEY.search(f"{parent} {low}") is None:
                            self.json_not_final.add(val.start)  # '"phase1_screening": {"passed": true}': a stage's, not the answer's
                    elif val.kind == "string":
                        rating = _RATING_VALUES.get(self.text[val.start + 1 : val.end - 1].strip().lower())
                        if rating is None:
                            continue
                        if low in RATING_KEYS:
                            owner = self._owner_key(block, obj)
                            if owner is None:
                                continue  # the answer's own signal: a final-verdict candidate (``_final``)
                        elif not self._names_gate(kspan):
                            continue
                        self._add_hit(out, val.start + 1, val.end - 1, rating, _JSON_RATING)
                        self.json_not_final.add(val.start + 1)
            for obj, _, _ in _walk(block):
                self._score_hit(out, block, obj)
        if _YAML_ANSWER_HINT.search(self.masked) is not None:
            done = {h.start for h in out}
            for m in _YAML_ANSWER.finditer(self.masked):
                if m.start("value") not in done:
                    self._answer_hit(out, keys, m.span("key"), m.group("key").lower().replace(" ", "_"), m.start("value"), m.end("value"))
        return out, keys

    def _answer_hit(self, out: list[_Hit], keys: list[Span], kspan: Span, low: str, start: int, end: int, *,
                    failing: bool = False) -> None:
        """'"economic_moat": true', 'management_integrity: no', '"passed": false': a key's yes / no answer as its verdict,
        when the key names a card gate or holds a verdict word; a key naming a failure ("red_flag", "kill_triggered")
        turns the answer round, as does any key of an object of failure flags (``failing``: "triggers", "red_flags").
        Any other key ("is_cyclical": true) states a fact, no verdict."""
        flag = _BOOL.get(self.masked[start:end].lower())
        if flag is None or low in FIELD_KEYS:
            return
        named_failure = _FAILURE_KEY.search(low) is not None
        if not (named_failure or _VERDICT_KEY.search(low) or self._names_gate(kspan)):
            return
        failure = failing or named_failure
        self._add_hit(out, start, end, vw.PROCEED if flag != failure else vw.REJECT, _JSON_TRUE if flag != failure else _JSON_FALSE)
        keys.append(kspan)

    def _score_hit(self, out: list[_Hit], block: JsonNode, obj: JsonNode) -> None:
        """'"moat": {"score": 7, "pass_threshold": 6}': a gate's score against the pass mark the answer states beside it
        (at or above it PROCEED, below it REJECT). A score with only a maximum ("max_score": 10) says no verdict: where it
        passes is not stated."""
        values: dict[str, tuple[float, JsonNode]] = {}
        for key, _, val in obj.pairs:
            low = key.lower()
            if val.kind == "literal" and (low == "score" or low in _PASS_MARK_KEYS):
                number = _number(self.text[val.start : val.end])
                if number is not None:
                    values["mark" if low in _PASS_MARK_KEYS else "score"] = (number, val)
        if "score" not in values or "mark" not in values or self._owner_key(block, obj) is None:
            return
        (score, val), (mark, _) = values["score"], values["mark"]
        self._add_hit(out, val.start, val.end, vw.PROCEED if score >= mark else vw.REJECT, _JSON_TRUE if score >= mark else _JSON_FALSE)

    def _owner_key(self, block: JsonNode, obj: JsonNode) -> Span | None:
        """The span of what names ``obj``'s gate: the key whose value it is, or its own name-like value
        (``{"criterion": "Economic Moat", "signal": "bearish"}``), when that names a card gate."""
        kspan = self.json_owner.get(id(obj))
        if kspan is not None and self._names_gate(kspan):
            return kspan
        for key, _, val in obj.pairs:
            if val.kind == "string" and key.lower() in _GATE_OBJECT_NAMES and self._names_gate((val.start + 1, val.end - 1)):
                return (val.start + 1, val.end - 1)
        return None

    def _add_hit(self, out: list[_Hit], start: int, end: int, verdict: str, word: vw.VerdictWord) -> None:
        u = self._unit_at(start)
        if u < 0:
            return
        level = vw.HEDGED if verdict == vw.INCONCLUSIVE else vw.COMMITTED
        out.append(_Hit(start, end, word, u, judged=True, level=level, verdict=verdict))

    def _json_final_fields(self) -> list[tuple[int, int, str, int]]:
        """(start, end, outcome, unit) of top-level rating fields that commit to neither outcome ("signal": "neutral")."""
        out: list[tuple[int, int, str, int]] = []
        for block in self.json_blocks:
            for obj, _, _ in _walk(block):
                for key, _, val in obj.pairs:
                    if val.kind != "string" or key.lower() not in RATING_KEYS or val.start + 1 in self.json_not_final:
                        continue
                    if _RATING_VALUES.get(self.text[val.start + 1 : val.end - 1].strip().lower()) == vw.INCONCLUSIVE:
                        u = self._unit_at(val.start + 1)
                        if u >= 0:
                            out.append((val.start + 1, val.end - 1, vw.INCONCLUSIVE, u))
        return out

"""The closing block an answer in another language opens with its decision label (issue 13, final verdicts on fresh
text; paper §7.5).

An answer written in Chinese, Japanese, Korean, Spanish or Swedish closes as an English one does: a paragraph that
opens with a decision label ("结论：", "結論：", "결론:", "Conclusión:", "Beslut:", "总结论：", "操作建议：") and states the
decision somewhere in it, often not right after the label ("结论：第一层次看很便宜，第二层次看并不便宜。不买。", conclusion:
cheap at first sight, not cheap at the second level. Not buying.). The English labels already open the final region
(:mod:`._layout`); the labels of ``grammar/languages.yaml`` (``labels``) did not, so a final-verdict word in such a
paragraph counted only right after the label. :func:`closing_block` finds that paragraph and :mod:`._final` reads it
as the final region, its sentences weighed as those of an English "Conclusion:" paragraph: the label is no final cue
of its first sentence, which would let an outcome there ("如果价格跌到 20 元以下，可以买入", if it fell below 20, buy;
"Buffett diría comprar") outrank the decision a later sentence states. A paragraph the layout already read as final
(an English label, "Conclusion:" also French) keeps its reading.

The paragraph counts only where it can be the answer's own close: it opens a paragraph (a blank line or the text's
start before it), the label opens its line (after markup, a list number or at most a short qualifier: "总结论",
"Mi conclusión"), and no gate's label or heading comes at or after it (a per-criterion "结论：通过" inside a checklist
is that criterion's). Nor is a paragraph that states only a gate's verdict word (no outcome, no recommendation) the
close when it ends the last gate's own section ("### Purpose ... \n\n结论：通过": that heading's section runs on to
the next heading) or repeats a label already used for an earlier criterion (:func:`_gate_conclusion`).
"""

from __future__ import annotations

import re

from ipb.scoring import _foreign_verdicts as fv
from ipb.scoring import verdict_words as vw
from ipb.scoring.parse._state import _ParserState

__all__ = ["closing_block"]

#: A decision label of another language opening a line: markup, a list number, at most a short qualifier (up to four
#: characters of an unspaced script glued to it, "总结论", "操作建议"; or one word and a space, "Mi conclusión"), the
#: label, then a colon or a dash (the full-width colon is a colon once the text is read: :func:`ipb.scoring._text.plain_spacing`)
#: or the end of a heading's line.
_LABEL_LINE = re.compile(
    rf"(?im)^[ \t>*_#-]*(?:\d{{1,2}}[.)/][ \t]*)?(?:[{fv.UNSPACED_CHARS}]{{1,4}}|[^\W\d_]{{1,12}}[ \t]+)?"
    rf"(?P<label>{fv.LABEL_PATTERN})[ \t]*[*_]{{0,2}}[ \t]*(?:[:\uff1a\u2014\u2013]|[ \t]-|(?=[ \t]*\n))")


#: A paragraph's first line that is not blank: what follows a blank line (``\n\n``) and is no newline itself.
_PARAGRAPH = re.compile(r"\n\n(?=[^\n])")


def _paragraph_starts(text: str, pos: int) -> list[int]:
    """Offsets at or after ``pos`` where a paragraph's first line starts: the text's start, or right after a blank line
    where the line is not blank itself. Only these lines can hold the label that opens the closing block (a label opens
    a paragraph, and a blank line holds no label). Scanning these instead of every line start keeps :func:`closing_block` linear in the text (break42: 77,000 one-line gates or a
    1 MB run of newlines took seconds, the label alternation tried at each of their line starts). A label line never
    spans a newline (:data:`_LABEL_LINE`), so this finds the matches ``finditer`` over every line start found.

    >>> _paragraph_starts("a\\nb\\n\\n\\n\\nc\\n\\nd", 0), _paragraph_starts("a\\n\\nb", 1), _paragraph_starts("\\n\\na", 0)
    ([0, 7, 10], [3], [0, 2])
    """
    starts = [0] if pos == 0 else []
    starts += [m.end() for m in _PARAGRAPH.finditer(text, max(0, pos - 2))]
    return starts


def closing_block(text: str, last_gate_label: int) -> tuple[int, int, int] | None:
    """(label start, label end, block end) of the last paragraph of ``text`` opened by a decision label of another
    language, or None when there is none after offset ``last_gate_label`` (where the last gate's label or heading
    starts; -1 for none). The block runs from the label to the paragraph's end (a blank line, or the text's end).

    >>> t = "1. 护城河：通过\\n2. 安全边际：不通过\\n\\n结论：价格不便宜。不买。"
    >>> closing_block(t, t.index("2."))
    (23, 25, 35)
    >>> t = "1. Moat: ok\\n\\nConclusión: es buena empresa.\\nHoy no la compraríamos.\\n\\nNota: datos de 2025."
    >>> b = closing_block(t, 0); t[b[0]:b[2]]
    'Conclusión: es buena empresa.\\nHoy no la compraríamos.'
    >>> closing_block("结论：通过\\n\\n2. 安全边际 结论：不通过", 8) is None
    True
    """
    found = None
    for line_start in _paragraph_starts(text, max(0, last_gate_label)):
        m = _LABEL_LINE.match(text, line_start)
        if m is None or m.start("label") <= last_gate_label:
            continue
        found = m
    if found is None:
        return None
    stop = text.find("\n\n", found.end())
    stop = len(text) if stop < 0 else stop
    if _gate_conclusion(text, last_gate_label, found, stop):
        return None
    return found.start("label"), found.end("label"), stop


#: Words that state an outcome, not a gate's verdict: the final-verdict synonyms of every language and the HOLD words.
_OUTCOME = re.compile("|".join(fv.bounded(w) for w in sorted({*vw.FINAL_SYNONYMS, *fv.HOLD_WORDS}, key=len, reverse=True)),
                      re.IGNORECASE)
#: A recommendation cue: what follows is the decision whatever its words ("建议回购", recommend a buyback).
_RECOMMEND = re.compile(r"(?i)建议|建議|推荐|推薦|推奨|권장|\brecommend|\bempfehl|\brecomend|\brecommand|\braccomand")
#: A card outcome written as a capitalised label ("REPURCHASE", "INVEST"), the gate verdict labels left out.
_OUTCOME_LABEL = re.compile(r"\b(?!(?:PASS|PASSED|FAIL|FAILED|PROCEED|REJECT|INCONCLUSIVE|MET|OK)\b)[A-Z][A-Z_]{3,}\b")
#: A heading line, or a line that is one bold title: what opens a gate's section.
_SECTION_HEAD = re.compile(r"[ \t]*(?:#{1,6}[ \t]|\*\*[^*\n]+\*\*[ \t:]*$)")


def _gate_conclusion(text: str, last_gate_label: int, found: re.Match[str], stop: int) -> bool:
    """Whether the labelled paragraph ``found`` .. ``stop`` is the last gate's own conclusion ("### Purpose\\n...
    \\n\\n结论：通过"): it states a gate's verdict word and no outcome, and it either lies in the last gate's section (that
    gate's label opens a heading or a bold title line, and no heading comes between) or repeats a label the answer
    already used before (one "Ergebnis:" per criterion). A paragraph with an outcome word stays the answer's close."""
    body = text[found.end("label") : stop]
    gate_word = vw.VERDICT_PATTERN.search(body) is not None or any(
        re.search(pattern, body) for pattern, *_ in fv.GATE_WORDS)
    if not gate_word or _OUTCOME.search(body) or _OUTCOME_LABEL.search(body) or _RECOMMEND.search(body):
        return False
    if re.search(re.escape(found.group("label")), text[: found.start("label")], re.IGNORECASE):
        return True  # the label opened a criterion's conclusion before: this one is the last criterion's
    if last_gate_label < 0:
        return False
    head_start = text.rfind("\n", 0, last_gate_label) + 1
    head_end = text.find("\n", last_gate_label)
    if head_end < 0 or not _SECTION_HEAD.match(text, head_start, head_end):
        return False
    return re.search(r"(?m)^[ \t]*#{1,6}[ \t]", text[head_end : found.start()]) is None


class _ClosingBlockMixin(_ParserState):
    """Marks the closing block as the final region; finds the final region's tallies of criteria (read by :mod:`._final`)."""

    def _mark_closing_block(self) -> None:
        """The paragraph a decision label of another language opens after the last gate ("结论：...", "Conclusión:
        ...", :func:`._final_block.closing_block`) is the final region (no final cue: the module docstring)."""
        last_gate = max((a.mention[0] for a in self.anchors.values() if a.gate is not None), default=-1)
        block = closing_block(self.masked, last_gate)
        if block is None:
            return
        start, _, stop = block
        u = self._unit_at(start)
        if u >= 0 and self.units[u].final:
            return  # an English label ("Conclusion:", also French) the layout already read: its reading stands as before
        for unit in self.units:
            if unit.end > start and unit.start < stop:
                unit.final = True

    def _tally_sentences(self) -> set[int]:
        """Sentences of the final region holding gate-verdict words of both senses ("Conditions 1 and 2 met,
        condition 3 not met", "条件 1、2 满足，条件 3 不满足"): a tally of the criteria, whose words state no decision."""
        senses: dict[int, set[str]] = {}
        for hit in self.hits:
            if self.units[hit.unit].final and not hit.word.sense and self._level(hit) >= vw.COMMITTED \
                    and hit.verdict in (vw.PROCEED, vw.REJECT):
                senses.setdefault(hit.unit, set()).add(hit.verdict)
        return {u for u, s in senses.items() if len(s) == 2}

"""Attributions ("Buffett wrote that ...") and document citations ("the 1986 shareholder letter, ch. 3").
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import replace

from ipb.scoring._text import Trigger, plain_spacing, sentence_spans
from ipb.scoring.parse._common import MAX_OCCURRENCES
from ipb.scoring.parse._state import _ParserState
from ipb.scoring.parse._types import Attribution, Citation, Span

_YEAR_RE = r"(?:1[6-9]|20)\d\d"
_DOCUMENT = re.compile(
    r"(?i)(?P<doc>letters?(?:[ \t]+to[ \t]+(?:the[ \t]+)?(?:shareholders|partners|investors))?|memo(?:s|randa|randum)?|"
    r"owner(?:'s|\u2019s|s)?[ \t]+manual|annual[ \t]+reports?|testimony|lectures?|speech|essays?|interviews?|op-ed|10-K)\b"
    rf"(?:[ \t]+(?:of|from|in|for|dated)[ \t]+(?P<y2>{_YEAR_RE})\b)?(?:[ \t]*\((?P<y3>{_YEAR_RE})\))?"
)
_DOCUMENT_TRIGGERS = [
    Trigger(w, _DOCUMENT)
    for w in ("letter", "memo", "owner", "annual", "testimony", "lecture", "speech", "essay", "interview", "op-ed", "10-k")
]
_DOC_ADJECTIVE = re.compile(r"(?i)annual|shareholders?['\u2019]?|chairman['\u2019]?s|partnership|investor|client")
_YEAR_WORD = re.compile(_YEAR_RE)
_WORD_SPAN = re.compile(r"[\w'\u2019]+")


def _doc_prefix(text: str, window_start: int, doc: int) -> tuple[int, int, str | None]:
    """Before a document word at ``doc``: where the title starts (up to two adjectives: "annual shareholder"),
    where the citation starts (a year before them: "1986"), and that year."""
    words = list(_WORD_SPAN.finditer(text, window_start, doc))
    i = len(words)
    title = doc
    if i and text[words[-1].end() : doc].strip(" \t*_\"\u201c"):
        return doc, doc, None  # something other than spaces (or an opening emphasis) between the last word and the document
    while i > 0 and len(words) - i < 2 and _DOC_ADJECTIVE.fullmatch(words[i - 1].group()):
        i -= 1
        title = words[i].start()
    if i > 0 and _YEAR_WORD.fullmatch(words[i - 1].group()):
        return title, words[i - 1].start(), words[i - 1].group()
    return title, title, None
_BY_ENTITY = re.compile(r"[ \t]+(?:by|from)[ \t]+")
#: "(Security Analysis, 1934)", "(1934; ch. 3)": a year in parentheses, with what stands before or after it inside. The
#: lookahead after the comma only lets the optional tail start where a closing parenthesis follows within its reach
#: (s54redos: without it, a comma and a long run of spaces with no ")" after them were tried at every split of the run
#: and every length of the tail, 8.8 s of CPU in one parse with 8,000 spaces; a tail it stops never matched).
_TITLE_YEAR = [Trigger("(", re.compile(
    rf"\((?:[^()\n]{{0,30}}?,[ \t]*)?(?P<year>{_YEAR_RE})(?:[ \t]*[,;](?=[ \t]*+[^()\n]{{0,80}}[ \t]*+\))[ \t]*(?P<inner>[^()\n]{{1,80}}?))?[ \t]*\)"),
    word=False)]
#: A citation's locator: after a comma on the citation's line, a chapter/section/part/page... reference
#: (it runs to the sentence's end).
_LOCATOR_WORDS = (r"(?i:ch(?:apters?|s)?\b|sec(?:tions?|s)?\b|parts?\b|§|pp?\.|pages?\b|appendix|preface|"
                  r"introduction|foreword|afterword|epilogue|prologue|(?:foot)?notes?\b|vol(?:ume)?s?\b|book\b|essay\b|para(?:graph)?s?\b)")
_LOCATOR_AFTER = re.compile(
    r"[*_\"\u201d]{0,2}(?:[ \t]*,[ \t]*(?=" + _LOCATOR_WORDS + r")"
    r"|[ \t]+(?=(?i:ch\.|chapters?\b|sections?\b|part[ \t]+(?:\d+|[ivxl]+)\b|§|pp?\.[ \t]*\d)))"
)
_LOCATOR_WORD = re.compile(_LOCATOR_WORDS)
#: Longest citation span (characters): a title, its year in parentheses and the words before a document word.
MAX_CITATION_CHARS = 1_000
#: Longest quoted or emphasised document title a citation is read with (characters).
MAX_TITLE_CHARS = 160
#: What :data:`_TITLE_BEFORE` ends with (before spaces): a closing emphasis or quote.
_TITLE_CLOSE = frozenset("*_\"\u201d")
_TITLE_BEFORE = re.compile(
    r"[*_\"\u201c](?P<title>[A-Z][^*_\"\u201d\n]{2,%d})[*_\"\u201d]{1,2}[ \t]*\Z" % (MAX_TITLE_CHARS - 1)
)


class _Spans:
    """Citation spans found so far, sorted by start: whether a position falls inside one, in O(log n).

    A citation is at most :data:`MAX_CITATION_CHARS` long, so only spans starting that far back can hold a
    position (this replaced a scan of every citation found, quadratic on an answer made of citations).
    """

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.ends: list[int] = []

    def add(self, span: Span) -> None:
        k = bisect_right(self.starts, span[0])
        self.starts.insert(k, span[0])
        self.ends.insert(k, span[1])

    def holds(self, pos: int) -> bool:
        k = bisect_right(self.starts, pos) - 1
        while k >= 0 and self.starts[k] >= pos - MAX_CITATION_CHARS:
            if pos < self.ends[k]:
                return True
            k -= 1
        return False


class _CitationsMixin(_ParserState):
    """Investor attributions and cited documents, with the locator after a citation (paper §7.13-§7.14 inputs)."""

    # ------------------------------------------------------------------ attributions and citations

    def _attributions(self) -> list[Attribution]:
        out: list[Attribution] = []
        for _, m in self._scan(self.ix.investor_triggers, limit=MAX_OCCURRENCES):
            investor = m.group("inv") or m.group("inv2") or m.group("inv3") or ""
            claim_group = "claim" if m.group("inv") else "claim2" if m.group("inv2") else "claim3"
            start, end = m.start(claim_group), m.end(claim_group)
            if self._blanked_at(m.start(), start) < start:
                continue  # a reasoning tag or a struck passage between the name and the claim: no one sentence says it
            end = self._blanked_at(start, end)  # the claim stops where a blanked reasoning tag or struck passage starts
            end = min(end, self._quoted_end(start))  # and where a JSON string holding it ends (:mod:`._json_answer`)
            claim = self.text[start:end].strip().strip("\"\u201c\u201d'\u2018\u2019").strip()
            if len(claim) < 3:
                continue
            out.append(Attribution(self._full_investor(investor), claim, (m.start(), end)))
        return out

    def _quoted_end(self, pos: int) -> int:
        """Where the quoted value holding ``pos`` ends (its closing quote); past the text when none holds it."""
        return len(self.masked)

    def _blanked_at(self, start: int, end: int) -> int:
        """The first position in ``[start, end)`` that the parser blanked (a masked reasoning tag or trace, a struck
        or folded passage), else ``end``: where the response's own text and the text read part (look-alikes aside,
        and a hard-wrapped line break read as a space is not blanked: the claim keeps it as written)."""
        written, masked = self._read_and_written(start, end)
        if written == masked:
            return end
        return start + next(i for i, (a, b) in enumerate(zip(written, masked)) if a != b)

    def _after_blanked(self, start: int, end: int) -> int:
        """Just after the last position in ``[start, end)`` that the parser blanked, else ``start`` (see :meth:`_blanked_at`)."""
        written, masked = self._read_and_written(start, end)
        if written == masked:
            return start
        return end - next(i for i, (a, b) in enumerate(zip(reversed(written), reversed(masked))) if a != b)

    def _read_and_written(self, start: int, end: int) -> tuple[str, str]:
        """``[start, end)`` of the response with look-alikes made plain, and of the text the parser read; line breaks
        are spaces in both (:func:`~ipb.scoring.parse._unwrap.unwrap_hard_wrapped` joins wrapped lines so)."""
        return plain_spacing(self.text[start:end]).replace("\n", " "), self.masked[start:end].replace("\n", " ")

    def _full_investor(self, name: str) -> str:
        return self.ix.investor_of.get(name, name)

    def _citations(self) -> list[Citation]:
        masked = self.masked
        out: list[Citation] = []
        covered = _Spans()
        entities = self._scan(self.ix.entity_triggers, limit=MAX_OCCURRENCES)
        entity_ends = [m.end() for _, m in entities]
        for _, m in self._scan(_DOCUMENT_TRIGGERS, limit=MAX_OCCURRENCES):
            line_start = masked.rfind("\n", max(0, m.start() - 80), m.start()) + 1  # bounded: a 1 MB line stays linear
            window_start = self._after_blanked(max(line_start, m.start() - 80), m.start())  # never across a masked tag
            doc_start, start, year_text = _doc_prefix(masked, window_start, m.start())
            year_text = year_text or m.group("y2") or m.group("y3")
            entity, at = None, -1
            k = bisect_right(entity_ends, start) - 1
            if k >= 0 and entities[k][1].start() >= window_start:
                entity, at = entities[k][1].group(0), entities[k][1].start()
            by = _BY_ENTITY.match(masked, m.end())
            if by is not None:
                named = next((e for e in self.ix.entity_names if masked.startswith(e, by.end())), None)
                if named is not None:
                    entity, at = named, -1
            if year_text is None and entity is None:
                continue
            if entity is not None and at >= 0 and start - (at + len(entity)) <= 3:
                start = at
            if entity is not None:
                entity = self.ix.investor_of.get(entity, entity)
            doc = re.sub(r"\s+", " ", masked[doc_start : m.end("doc")])
            out.append(Citation(entity, doc.strip(), int(year_text) if year_text else None, (start, m.end())))
            covered.add(out[-1].span)
        for _, m in self._scan(_TITLE_YEAR, limit=MAX_OCCURRENCES):
            reach = max(0, m.start() - MAX_TITLE_CHARS - 40)
            line_start = masked.rfind("\n", reach, m.start()) + 1
            lo = max(line_start, reach)
            close = m.start()
            while close > lo and masked[close - 1] in " \t":
                close -= 1
            if close == lo or masked[close - 1] not in _TITLE_CLOSE:
                continue  # no closing emphasis or quote just before the year: _TITLE_BEFORE cannot match (no search)
            t = _TITLE_BEFORE.search(masked, self._after_blanked(lo, m.start()), m.start())
            if t is None:
                continue
            if covered.holds(t.start()):
                continue
            inner = m.group("inner")
            out.append(Citation(None, t.group("title").strip(), int(m.group("year")), (t.start(), m.end()),
                                locator=inner.strip() if inner and _LOCATOR_WORD.match(inner.strip()) else None))
            covered.add(out[-1].span)
        for _, m in self._scan(self.ix.book_triggers, limit=MAX_OCCURRENCES):
            if covered.holds(m.start()):
                continue
            year_text = m.group("year")
            if not year_text:
                before = masked[max(0, m.start() - 2) : m.start()]
                after = masked[m.end() : m.end() + 2]
                if not (set(before) & set("*_\"\u201c") or set(after) & set("*_\"\u201d")):
                    continue
            out.append(Citation(None, masked[m.start() : m.end()].split(" (")[0], int(year_text) if year_text else None, (m.start(), m.end())))
        out.sort(key=lambda c: c.span)
        nexts = [c.span[0] for c in out[1:]] + [len(self.masked)]
        return [self._with_locator(c, following) for c, following in zip(out, nexts)]

    def _with_locator(self, citation: Citation, following: int) -> Citation:
        """The citation with the locator after it, which ends before the next citation (a list of sources has none)."""
        if citation.locator is not None:
            return citation  # given inside the parentheses: "(1934, Part III)"
        masked = self.masked
        m = _LOCATOR_AFTER.match(masked, citation.span[1])
        if m is None:
            return citation
        line_end = masked.find("\n", m.end(), m.end() + 161)
        stop = min(len(masked) if line_end < 0 else line_end, m.end() + 160, following)
        first = next(sentence_spans(masked, m.end(), stop), None)
        if first is None:
            return citation
        locator = masked[first[0] : first[1]].rstrip(".;").strip(" \t*_\"'\u201c\u201d")
        return replace(citation, locator=locator) if locator else citation

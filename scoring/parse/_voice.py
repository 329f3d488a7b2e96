"""Whose statement a verdict word is: the writer's own, or one the writer strikes out, quotes or sets aside.

A careful reader credits an answer only with what its writer commits to
(paper §7.5). Four rules, each a plain reading habit:

* Struck-through text (``~~INVEST~~``, ``<del>INVEST</del>``, ``<s>..</s>``)
  is withdrawn: :func:`blank_struck` replaces it by spaces before anything
  else is read (offsets are kept).
* Another reader's view is reported, not held: "a strict reader would
  REJECT", "a naive investor would say INVEST", "some analysts call it a
  pass" (:data:`OTHER_VOICE`, matched on the clause before the word).
* A quotation introduced by someone else's reporting verb ("my colleague
  wrote "Final verdict: INVEST"") is theirs (:func:`quoted_by_other`).
* An act another wants done is theirs, not done: "strategists urge clients to cut risk", "critics want us to
  sell" (:func:`urged_by_other`); the writer's own urging ("we urge clients to cut risk", "I want to buy
  more") is the writer's recommendation and counts.
* A statement labelled as superseded ("Previous answer (wrong): INVEST",
  "Earlier draft: ...") is withdrawn (:data:`RETRACTED_LABEL`).

The writer's own voice is never set aside by these rules: an investor
named as the framework's voice ("Buffett would pass") is not "another
reader", and a quotation with no reporting verb before it ("my verdict is
"INVEST"") still counts.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from typing import Iterator, Mapping

__all__ = ["OTHER_VOICE", "VOICE_WORDS", "RETRACTED_LABEL", "blank_struck", "quoted_by_other", "quoted_in_cjk_report",
           "other_profile_regions", "still_open", "urged_by_other"]

#: A line that opens one of several parallel analyses: "Profile B - aggressive growth investor", "## Scenario 2", "Case II:".
_PROFILE_HEAD = re.compile(r"(?im)[ \t>#*_]*(?:investor\s+)?(?:profile|scenario|persona|case|variant|portfolio)[ \t]+"
                           r"(?P<tag>[A-Z]|[0-9]{1,2}|I{1,3}|IV|one|two|three)\b[^\n]*$")


_PROFILE_WORDS = ("profile", "scenario", "persona", "case", "variant", "portfolio")
#: At most this many occurrences of each head word are looked at (a bound for pathological input).
MAX_PROFILE_WORDS = 256


def _profile_heads(text: str) -> list[re.Match[str]]:
    """Lines of ``text`` matching :data:`_PROFILE_HEAD`, found from the head words (``str.find``, not a scan of every line)."""
    low = text.lower()
    starts: set[int] = set()
    for word in _PROFILE_WORDS:
        pos = low.find(word)
        seen = 0
        while pos >= 0 and seen < MAX_PROFILE_WORDS:
            seen += 1
            line = low.rfind("\n", 0, pos) + 1
            if pos - line <= 16:
                starts.add(line)
            pos = low.find(word, pos + len(word))
    heads = []
    for line in sorted(starts):
        m = _PROFILE_HEAD.match(text, line)
        if m is not None and len(m.group(0)) <= 120:
            heads.append(m)
    return heads


def other_profile_regions(text: str) -> list[tuple[int, int]]:
    r"""Spans of ``text`` that analyse another investor profile or scenario than the answer's first one.

    When an answer runs the card for "Profile A" and then for "Profile B" (a different investor, a scenario), the
    first is the answer to the item; each later one is the writer's aside: its verdicts are set aside, never
    overwriting the first list's (issue 13, "which statement wins"). A later block runs from its head line to the
    next blank line (a Markdown heading: to the next heading of its level or above), or to the next profile head.

    >>> t = "Profile A - defensive\n1. Stocks 80% -> REJECT\nProfile A verdict: REVISE\n\nProfile B - aggressive\n1. Stocks 80% -> PROCEED\n"
    >>> [t[a:b].splitlines()[0] for a, b in other_profile_regions(t)]
    ['Profile B - aggressive']
    >>> other_profile_regions("Profile: a defensive investor with 40% in bonds.")
    []
    """
    heads = _profile_heads(text)
    if len({m.group("tag").lower() for m in heads}) < 2:
        return []
    first_tag = heads[0].group("tag").lower()
    out: list[tuple[int, int]] = []
    for k, m in enumerate(heads):
        if m.group("tag").lower() == first_tag:
            continue
        stop = heads[k + 1].start() if k + 1 < len(heads) else len(text)
        level = len(m.group(0)) - len(m.group(0).lstrip("#"))
        if level:
            nxt = re.compile(rf"(?m)^#{{1,{level}}}[ \t]").search(text, m.end(), stop)
        else:
            nxt = re.compile(r"\n[ \t]*\n").search(text, m.end(), stop)
        out.append((m.start(), nxt.start() if nxt is not None else stop))
    return out

#: Words one of which every :data:`OTHER_VOICE` match holds (a cheap look before the pattern is tried).
VOICE_WORDS = frozenset({
    "would", "might", "could", "may", "will", "says", "said", "wrote", "writes", "argued", "argues", "claims", "claimed", "suggested",
    "suggests", "recommended", "recommends", "calls", "called", "labels", "labelled", "labeled", "rates", "rated", "concluded",
    "concludes", "answered", "answers", "voted", "votes",
})

#: ``~~struck~~`` on one line (GitHub Markdown), or an HTML ``<del>`` / ``<s>`` / ``<strike>`` element.
_STRUCK = re.compile(r"~~(?=\S)[^~\n]{1,200}?~~|<(del|s|strike)>[^<\n]{0,200}</\1>", re.I)

_PEOPLE = (r"(?:reader|investor|analyst|observer|critic|sceptic|skeptic|bear|bull|optimist|pessimist|purist|person|people|"
           r"one|colleague|partner|committee|commentator|strategist|manager|shareholder|holder|trader|economist|model|"
           r"assistant|someone|somebody|others|pundit|screen|algorithm|follower|disciple|adherent)s?")
#: One group: a bare verb ("argues") is another reader's only with one of OTHER_VOICE's subjects before it; ungrouped, its
#: alternation once matched "argues" after any subject ("Our team argues it passes" read 0.45, break40 item 6).
_REPORTING = (r"(?:(?:would|might|could|may|will)(?:\s+(?:probably|likely|perhaps|still))?(?:\s+(?:say|call|label|mark|rate|"
              r"argue(?:\s+for)?|recommend|vote(?:\s+for)?|choose|pick|answer|conclude|suggest|read\s+(?:it|this)\s+as|see))?"
              r"|(?:says|said|wrote|writes|argued|argues|claims|claimed|suggested|suggests|recommended|recommends|calls|called|"
              r"labels|labelled|labeled|rates|rated|concluded|concludes|answered|answers|voted\s+for|votes\s+for))")
#: The clause before a verdict word names another reader as its speaker ("a strict reader would ", "some analysts call it ",
#: "some Fisher followers might still ", or a pronoun for other people: "others would ", "some would ", s52hedge).
OTHER_VOICE = re.compile(
    rf"(?i)(?:\b(?:an?|some|many|most|other|another|one|any)\s+(?:[a-z-]+\s+){{0,2}}?{_PEOPLE}|\b(?:others|some|many|most)"
    rf"|\bmy\s+(?:[a-z-]+\s+)?{_PEOPLE}|\bthe\s+(?:other|previous|first|naive|strict|cautious|bullish|bearish)\s+(?:[a-z-]+\s+)?{_PEOPLE})"
    rf"\s+{_REPORTING}\b(?:\s+(?:it|this|that|the\s+\w+))?(?:\s+(?:an?|as))?[\s:,*_\"'\u201c]*\Z"
)

#: A line label that marks what follows as withdrawn: "Previous answer (wrong):", "Earlier draft:", "Old verdict —".
RETRACTED_LABEL = re.compile(
    r"(?i)(?:\b(?:previous|prior|earlier|old|original|first|draft|superseded|withdrawn|retracted)\s+(?:[a-z]+\s+)?"
    r"(?:answer|verdict|draft|version|reading|attempt|call|response|conclusion)\b[^\n:]{0,30}"
    r"|\((?:wrong|incorrect|retracted|withdrawn|superseded)\)[^\n:]{0,10})[:\u2014-]"
)

_QUOTE_OPEN = {'"': '"', "\u201c": "\u201d"}


#: A stretch of text longer than this is scanned once for its quotation marks and the scan kept (:func:`_marks_scan`).
_LONG = 2000
#: The text whose long scans :data:`_scans` keeps, and the scans: (id of quotes, start) -> (mark positions, the quotation
#: open after each: (index, closers)). A reader asking at each of 26,000 verdict words of a 1 MB line whether a quotation
#: is open there scanned up to 1,500 characters before each one by one in Python: 12 s (stop 43); now the marks alone.
_scan_text: str | None = None
_scans: dict[tuple[int, int], tuple[list[int], list[tuple[int, str]]]] = {}
#: id of a quotes mapping -> a pattern of its marks, openers and closers.
_mark_patterns: dict[int, re.Pattern[str]] = {}


def _marks(quotes: Mapping[str, str]) -> re.Pattern[str]:
    pattern = _mark_patterns.get(id(quotes))
    if pattern is None:
        chars = "".join(dict.fromkeys("".join(quotes) + "".join(quotes.values())))
        pattern = _mark_patterns[id(quotes)] = re.compile("[" + re.escape(chars) + "]")
    return pattern


def _transitions(text: str, quotes: Mapping[str, str], start: int, end: int) -> Iterator[tuple[int, int, str]]:
    """(position, opened, closers) at each quotation mark of ``text[start:end]`` that opens or closes a quotation."""
    opened, closers = -1, ""
    for m in _marks(quotes).finditer(text, start, end):
        ch = m.group()
        if opened < 0:
            if ch in quotes:
                opened, closers = m.start(), quotes[ch]
                yield m.start(), opened, closers
        elif ch in closers:
            opened, closers = -1, ""
            yield m.start(), opened, closers


def _marks_scan(text: str, quotes: Mapping[str, str], start: int) -> tuple[list[int], list[tuple[int, str]]]:
    """Every transition of ``text[start:]`` (:func:`_transitions`), computed once per text, quotes and start."""
    global _scan_text
    if _scan_text is not text:
        _scan_text = text
        _scans.clear()
    key = (id(quotes), start)
    if key not in _scans:
        found = list(_transitions(text, quotes, start, len(text)))
        _scans[key] = ([f[0] for f in found], [(f[1], f[2]) for f in found])
    return _scans[key]


def still_open(text: str, quotes: Mapping[str, str], start: int = 0, stop: int | None = None) -> tuple[int, str]:
    """``(index, closing marks)`` of the quotation ``text[start:stop]`` leaves open (``quotes`` maps an opening mark to
    the marks that close it; quotations do not nest), or ``(-1, "")`` when every one it opens is closed. The one scan
    behind :func:`quoted_by_other`, :func:`quoted_in_cjk_report` and :func:`._attributed.quoted_speaker`. Only the
    marks are visited; a stretch longer than :data:`_LONG` is answered from one scan of the text kept for later calls
    (:func:`_marks_scan`), so a reader asking at every verdict word stays linear in the text's length.

    >>> still_open('He said "fine" and "no', _QUOTE_OPEN), still_open('"a" b', _QUOTE_OPEN)
    ((19, '"'), (-1, ''))
    >>> still_open('x "a" y "b', _QUOTE_OPEN, 5), still_open('x "a" y "b', _QUOTE_OPEN, 0, 4)
    ((8, '"'), (2, '"'))
    >>> long = 'x "a" ' + "y " * 2000 + '"b'
    >>> still_open(long, _QUOTE_OPEN, 0, len(long) - 1), still_open(long, _QUOTE_OPEN, 0, len(long) - 3)
    ((4006, '"'), (-1, ''))
    """
    end = len(text) if stop is None else min(stop, len(text))
    if end - start > _LONG:
        positions, states = _marks_scan(text, quotes, start)
        k = bisect_left(positions, end)
        return states[k - 1] if k else (-1, "")
    state = (-1, "")
    for _, opened, closers in _transitions(text, quotes, start, end):
        state = (opened, closers)
    return state


_REPORTED = re.compile(
    r"(?i)\b(?:says|said|wrote|writes|write|argued|argues|claims|claimed|suggested|suggests|recommended|recommends|put\s+it|"
    r"called\s+it|calls\s+it|told\s+(?:me|us)|concluded|replied|answered|posted|tweeted|according\s+to)\b[^\n\"\u201c]{0,20}\Z"
)


def blank_struck(text: str) -> tuple[str, int]:
    """``text`` with struck-through passages replaced by spaces (same length), and how many were blanked.

    >>> blank_struck("Final verdict: DECLINE ~~INVEST~~")
    ('Final verdict: DECLINE           ', 1)
    >>> blank_struck("a ~~ b ~~ c")[1]
    0
    """
    if "~~" not in text and "</" not in text:
        return text, 0
    count = 0

    def spaces(m: re.Match[str]) -> str:
        nonlocal count
        count += 1
        return " " * (m.end() - m.start())

    return _STRUCK.sub(spaces, text), count


def quoted_by_other(text: str, line_start: int, pos: int) -> bool:
    """Whether ``pos`` lies inside a quotation on its line that a reporting verb introduces ("she wrote "INVEST"").

    >>> s = 'My colleague wrote "Final verdict: INVEST"; I disagree.'
    >>> quoted_by_other(s, 0, s.index("INVEST"))
    True
    >>> s = 'My verdict is "INVEST".'
    >>> quoted_by_other(s, 0, s.index("INVEST"))
    False
    """
    before = text[line_start:pos]
    if '"' not in before and "\u201c" not in before:
        return False
    opened, _ = still_open(before, _QUOTE_OPEN)
    if opened < 0:
        return False
    return _REPORTED.search(before, max(0, opened - 60), opened) is not None


#: A verb by which a subject wants an act done, closing the clause before the act: "urge clients to ", "want us to ",
#: "told me to ", "call on holders to " (the act verb follows). Not "recommends that the Board approve": a memo's own
#: recommendation is written so, its writer naming the house in the third person ("Staff recommends that ...", corpus
#: n28 memo, tuned), and a recommendation to another is the writer's verdict (s41finals).
_URGED = re.compile(
    r"(?i)\b(?:urg(?:e|es|ed|ing)|wants?|wanted|wanting|advis(?:e|es|ed|ing)|tells?|told|telling|ask(?:s|ed|ing)?|"
    r"push(?:es|ed|ing)?|press(?:es|ed|ing)?|encourag(?:e|es|ed|ing)|expects?|expected|call(?:s|ed|ing)?[ \t]+(?:on|upon)|"
    r"would[ \t]+(?:like|have)|wish(?:es)?)(?:[ \t]+[\w'\u2019-]+){0,3}?[ \t]+to(?:[ \t]+[a-z]+ly)?[ \t]*\Z")
#: The writer (or the reader the writer addresses, or "staff", a memo's name for its own house) as the subject of that
#: verb: then the act is the writer's advice.
_WRITER_SUBJECT = re.compile(r"(?i)[\s*_>\-\u2014,]*(?:(?:so|and|but|then|thus|hence|therefore|now)[ \t,]+)?"
                             r"(?:i|we|you|staff|i['\u2019]d|we['\u2019]d|you['\u2019]d|let['\u2019]s|let[ \t]+us)\b")


def urged_by_other(clause: str) -> bool:
    """Whether the act that follows ``clause`` (the text of its clause up to the act verb) is one that someone other
    than the writer wants done: a verb of urging or wanting closes the clause ("urge clients to", "want us to",
    "told me to") and its subject is not the writer ("I", "we", "staff", or the "you" the writer addresses).

    Such an act is another's advice, not the writer's decision (break41: "Bottom line: strategists urge clients to cut
    risk." read BUBBLE_REDUCE_RISK at 0.81; "Critics want us to trim our tech weighting. We won't." at 0.65).

    >>> urged_by_other("Bottom line: strategists urge clients to "), urged_by_other("critics want us to ")
    (True, True)
    >>> urged_by_other("My broker told me to quickly "), urged_by_other("Staff recommends that the Board approve ")
    (True, False)
    >>> urged_by_other("we urge clients to "), urged_by_other("I want to "), urged_by_other("So we would like to ")
    (False, False, False)
    >>> urged_by_other("it is time to "), urged_by_other("we decided to "), urged_by_other("Urge clients to ")
    (False, False, False)
    """
    tail = clause[-160:]
    m = _URGED.search(tail)
    if m is None:
        return False
    subject = tail[: m.start()]
    cut = max(subject.rfind(c) for c in ".;:!?\n(")
    subject = subject[cut + 1 :]
    return bool(subject.strip()) and _WRITER_SUBJECT.match(subject) is None  # (no subject: the writer's imperative)


#: Quotation marks of Chinese and Japanese text: opener -> closer (「合格」, 『合格』, “通过”, ‘通过’).
_CJK_QUOTES = {"\u300c": "\u300d", "\u300e": "\u300f", "\u201c": "\u201d", "\u2018": "\u2019", "\uff02": "\uff02"}
#: A verb of saying or judging right before a Chinese quotation: 分析师认为“通过”, 他们说“合格”.
_ZH_REPORT_BEFORE = re.compile(r"(?:认为|認為|认定|認定|表示|声称|聲稱|称|稱|说|說|觉得|覺得|指出|判断|判斷|评价|評價|看来|看來|给出|給出|给了|給了|打出)"
                               r"[:：,，\s]*\Z")
#: A Japanese quotative particle and verb right after the closing mark: 「合格」と言う, 「合格」と評価している, 「合格」って.
_JA_REPORT_AFTER = re.compile(r"\s*(?:と|って)(?:[\s、]*)(?:言|い[うっ]|云|述べ|主張|評価|判断|考え|見|み|思|呼|し|する|さ|書|話|語|結論)")
#: Subjects that are the writer: 私は「合格」と判断する, 我们认为“通过” keep the verdict.
_CJK_OWN = re.compile(r"(?:私|わたし|僕|我々|われわれ|我|我们|我們|当社|弊社|筆者|笔者|本人|本文|当方|小生)")
#: Where a Chinese or Japanese clause begins, looking back: a sentence end, a comma, a colon, a line break.
_CJK_CLAUSE = re.compile(r"[。！？!?；;，、,:：\n]")


def quoted_in_cjk_report(text: str, floor: int, start: int, end: int) -> bool:
    """Whether the verdict word ``text[start:end]`` is quoted inside a Chinese or Japanese report of another's words or
    judgement: the word lies inside 「」, 『』, “” or ‘’ (within its unit, which begins at ``floor``), a verb of saying or
    judging stands right before the opening mark (Chinese: 分析师认为“通过”) or a quotative と/って and a verb right after
    the closing mark (Japanese: アナリストは「合格」と言う), and the clause before the quotation names a subject that is
    not the writer (私, 我们, 当社, 筆者 ... keep it the writer's: 私は「合格」と判断する).

    Such a word is another speaker's (break41 item 13: "株価：アナリストは「合格」と言うが、私は不合格と判断する。" read
    PROCEED 0.53 over the writer's REJECT); a quotation with no report around it ("判定：「合格」") stays the writer's.

    >>> s = "株価：アナリストは「合格」と言うが、私は不合格と判断する。"
    >>> quoted_in_cjk_report(s, 0, s.index("合格"), s.index("合格") + 2)
    True
    >>> s = "类型：分析师认为“通过”，但我们认为不通过。"
    >>> quoted_in_cjk_report(s, 0, s.index("通过"), s.index("通过") + 2)
    True
    >>> s = "株価：私は「合格」と判断する。"
    >>> quoted_in_cjk_report(s, 0, s.index("合格"), s.index("合格") + 2)
    False
    >>> s = "判定：「合格」"
    >>> quoted_in_cjk_report(s, 0, s.index("合格"), s.index("合格") + 2)
    False
    """
    window = text[max(floor, start - 40) : start]
    opened, closer = still_open(window, _CJK_QUOTES)
    if opened < 0:
        return False
    close = text.find(closer, end, end + 40)
    if close < 0 or "\n" in text[end:close]:
        return False
    before = window[:opened]
    cut = max((m.end() for m in _CJK_CLAUSE.finditer(before)), default=0)
    clause = before[cut:]
    reported = _ZH_REPORT_BEFORE.search(clause) is not None or _JA_REPORT_AFTER.match(text, close + 1) is not None
    if not reported:
        return False
    subject = _ZH_REPORT_BEFORE.sub("", clause).strip()
    return bool(subject) and _CJK_OWN.search(subject) is None

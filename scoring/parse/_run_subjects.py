"""Lists that are not checklists: sources, pros and cons, one item per company (issue 13; paper §7.5, §7.11).

:mod:`._positional` reads a run of N items as the card's N gates by position. On a card of two or three gates many
short lists have the right length and a verdict-like word somewhere, yet walk through no criterion:

- a list under a title that names what its items are, and they are not criteria ("Sources:", "### References",
  "Pros and cons", "Peers:", "Companies screened:", "Key risks:", "Catalysts", "Questions for management:");
- a pair or triple titled by its side of an argument ("- Pro: ...", "- Con: ...", "Bull case", "Bear case"), or a list
  every item of which is titled as one kind of the writer's own ("- Risk: ...", "- Catalyst: ...", "Question 2");
- one item per company or ticker, each marked PASS or FAIL (an L8 answer about several subjects:
  "1. Apple Inc. — PASS", "| KO | FAIL |").

:func:`names_no_criteria` reads the lead-in text above a run (the label or heading the run sits under) and
:func:`subject_title` one item's title. Both read only the text given to them; shapes: ``str -> bool``.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["lead_in", "names_no_criteria", "subject_title"]

#: A lead-in that names its items as something other than criteria: sources, the two sides of an argument, subjects.
_NON_CRITERIA = re.compile(
    r"(?i)\b(?:sources?|references?|citations?|bibliography|footnotes?|further\s+reading|links?|pros?|cons?"
    r"|pros\s+(?:and|&|/)\s+cons|advantages|disadvantages|bull\s+case|bear\s+case|companies|company\s+list"
    r"|tickers?|symbols?|peers?|peer\s+group|comparables|comps|candidates|holdings|watch\s*list|stocks\s+screened"
    r"|risks|catalysts|concerns|worries|headwinds|tailwinds|threats|upcoming\s+events|key\s+dates|open\s+questions"
    r"|questions\s+(?:for|to)\b|questions\s+(?:I|we)(?:\s+would|'d)?\s+(?:ask|put|raise)"
    r"|quellen|fuentes|références|参考|来源|出典)\b")

#: A title that is one side of an argument, or a source, never a criterion: "Pro", "Cons", "Bull case", "Source 2".
#: Or one kind of the writer's own list, every item titled alike: "Risk", "Catalyst", "Question" (s45left).
_SIDE = re.compile(r"(?i)^(?:pros?|cons?|bull(?:\s+case)?|bear(?:\s+case)?|upside|downside|source(?:\s+\d+)?"
                   r"|(?:key\s+)?(?:risk|catalyst|concern|worry|headwind|tailwind|threat|event|question|observation)"
                   r"(?:\s+\d{1,2})?)$")

#: A company's legal-form word ending a title ("Apple Inc.", "Nestlé SA", "Coca-Cola Co").
_LEGAL_FORM = re.compile(
    r"(?i)\b(?:inc|corp|corporation|co|company|ltd|limited|plc|llc|ag|sa|se|nv|spa|gmbh|holdings?|group|kk)\.?$")

#: A ticker: a cashtag ("$KO"), an exchange-qualified symbol ("KO.N", "7203.T"), or 2-5 capitals standing alone.
_TICKER = re.compile(r"^(?:\$[A-Z][A-Z.]{0,6}|[A-Z]{1,5}\.[A-Z]{1,2}|\d{4}\.[A-Z]{1,2}|[A-Z]{2,5})$")

#: Capitalised abbreviations that name a measure, hence can title a criterion: never read as tickers.
_MEASURES = frozenset("""
PE PB PEG EPS ROE ROIC ROA ROC FCF EV EBIT EBITDA NCAV NAV BV DCF CAGR TAM IRR MOS DE NPV OCF CFO CEO CFO CAPEX
GDP CPI ESG KPI
""".split())


def lead_in(masked: str, lines: list[Any], li: int) -> str:
    """The text a run whose first line is ``li`` sits under: the non-list lines right above it (a label such as
    "Sources:", the paragraph leading in) and the nearest heading above them, across at most one blank line."""
    k = li - 1
    if k >= 0 and lines[k].kind == "table_sep":
        k -= 2  # the header row above the rule
    parts: list[str] = []
    blanks = 0
    while k >= 0 and lines[k].kind not in ("list", "table", "table_sep"):
        line = lines[k]
        if line.kind == "blank":
            blanks += 1
            if blanks > 1 or parts:
                break
        else:
            parts.append(masked[line.start : line.end])
            if line.kind == "heading":
                break
        k -= 1
    return "\n".join(reversed(parts))


def names_no_criteria(text: str) -> bool:
    """Whether a run's lead-in names its items as non-criteria ("Sources:", "Pros and cons", "Peers compared:").

    >>> names_no_criteria("Sources:"), names_no_criteria("### Peer group"), names_no_criteria("The four tests:")
    (True, True, False)
    """
    return _NON_CRITERIA.search(text) is not None


def subject_title(title: str) -> bool:
    """Whether an item's title names a subject or a side, not a criterion: a ticker ("KO", "$AAPL"), a company by its
    legal form ("Apple Inc."), or a side of an argument ("Pro", "Bear case").

    >>> [subject_title(t) for t in ("KO", "Apple Inc.", "Con", "ROIC", "Liquidità", "")]
    [True, True, True, False, False, False]
    """
    t = title.strip(" \t*_`:-\u2014\u2013")
    if not t:
        return False
    if _SIDE.match(t) or _LEGAL_FORM.search(t):
        return True
    return _TICKER.match(t) is not None and t.lstrip("$").replace("/", "") not in _MEASURES

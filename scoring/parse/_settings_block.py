"""A settings file pasted into an answer: an INI-style block is a tool's configuration, not the writer's reading.

A screener's export ("[Screener]" then "Name=...", "Filter1=MarketCap|>|50000000", "Ranked=1") states what the tool
was set to do. Its keys' numbers ("Filter1", "Filter5") count the tool's filters, not the card's gates, and its values
commit to no verdict. A reader skips the block and reads the readable criteria and the test results the answer gives
after it (n45-b-screener-export-magic-formula).

The block is a "[Name]" section line followed by at least :data:`MIN_KEYS` lines of "Key=value" (a key of one word, no
space before its "="), up to the first line of another kind. A block whose values hold a verdict word ("Gate1=PROCEED")
is the writer's own compact answer and is kept.
"""

from __future__ import annotations

import re

from ipb.scoring.parse._blank_lines import blank_lines

#: The fewest "Key=value" lines under a "[Name]" line that make a settings block.
MIN_KEYS = 3
_SECTION = re.compile(r"[ \t]*\[[A-Za-z][\w .-]{0,40}\][ \t]*\Z")
_KEY_VALUE = re.compile(r"[ \t]*[A-Za-z][\w.]{0,40}=(?!=)[^\n]*\Z")
_VERDICT_VALUE = re.compile(r"(?i)=[ \t]*[\"']?(?:proceed|reject|inconclusive|pass(?:ed)?|fail(?:ed)?|n/?a)\b")


def blank_settings(text: str) -> tuple[str, int]:
    """``text`` with its INI-style settings blocks blanked (same length, line breaks kept), and how many lines were.

    >>> t = "[Screener]\\nName=MF\\nFilter1=MarketCap|>|50000000\\nFilter2=EBIT|>|0\\n\\nMarket cap ..... PASS"
    >>> out, n = blank_settings(t)
    >>> n, out.split("\\n")[-1], len(out) == len(t)
    (4, 'Market cap ..... PASS', True)
    >>> blank_settings("[Gates]\\nGate1=PROCEED\\nGate2=PROCEED\\nGate3=REJECT")[1]  # the writer's own verdicts
    0
    >>> blank_settings("Price=45x\\nLimit=15x\\nRatio=3")[1]  # no section line: not a settings file
    0
    """
    if "=" not in text or "[" not in text:
        return text, 0
    lines = text.split("\n")
    rows: list[int] = []
    i = 0
    while i < len(lines):
        if _SECTION.match(lines[i]) is None:
            i += 1
            continue
        j = i + 1
        while j < len(lines) and _KEY_VALUE.match(lines[j]) is not None:
            j += 1
        if j - i - 1 >= MIN_KEYS and not any(_VERDICT_VALUE.search(lines[k]) for k in range(i + 1, j)):
            rows.extend(range(i, j))
        i = max(j, i + 1)
    return (blank_lines(text, rows), len(rows)) if rows else (text, 0)

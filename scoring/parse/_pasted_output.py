"""A tool's or bot's output pasted into an answer: its verdict is not the writer's when the writer states one (issue 13,
s58prose; corpus README, "a gate stated twice carries the verdict that wins").

A filled issue form, a pull request or a forum post often pastes what a screener, agent or bot printed ("**Actual
behavior**" over a fenced block ending "action: REBALANCE", "Sample output:", "below is what the bot returns now") and
then says what the writer makes of it ("With the cost over the limit ... We hold this quarter"). The pasted verdict is
the tool's; the writer's own final verdict, stated after the block, wins (a summary above it saying what the tool
did, "the agent turned bullish on almost everything", answers nothing). When the writer states none, the pasted
output is the answer the text gives (the corpus labels its verdict: n44-b-homework-agent-bubble-gauge), so it stays.

:func:`pasted_blocks` finds the fenced blocks whose lead-in line (the nearest line above the opening fence with words
on it) says that what follows is output, and a front matter opening the text (a "---" line, "key: value" lines, a
"---" line: an issue template's name, title and labels, where "title: '[REBALANCE] ...'" is the form's tag, not a
verdict); :func:`writers_over_pasted` sets the final candidates in them aside when any candidate stands outside.
"""

from __future__ import annotations

import re

__all__ = ["front_matter", "pasted_blocks", "writers_over_pasted"]

#: A fence line: up to three spaces, then ``` or ~~~ (a language tag may follow).
_FENCE = re.compile(r"[ ]{0,3}(?:`{3,}|~{3,})")
#: A lead-in saying the block is a tool's output: "Actual behavior", "Sample output", "Console log", "stdout", or a tool
#: noun with a verb of giving output after it in the line ("what the bot returns now", "the agent printed"). Bounded
#: repeats only; the line is at most :data:`LEAD_CHARS` characters.
_LEAD = re.compile(
    r"(?i)\bactual[ \t]+(?:behaviou?r|result|output)\b|\boutputs?\b|\blogs?\b|\bconsole\b|\bstdout\b"
    r"|\b(?:bot|tool|script|agent|screener|app|assistant|chatbot|model)\b[^\n]{0,40}?"
    r"\b(?:returns?|returned|prints?|printed|says|said|repl(?:y|ied|ies)|proposed|gave|answered|produced|spat)\b")
#: The longest lead-in line looked at.
LEAD_CHARS = 160
#: A front matter's line: "key: value" (a key of one word), a list item under a key, or an indented continuation.
_FRONT_LINE = re.compile(r"[A-Za-z_][\w-]{0,30}:(?:[ \t][^\n]*)?\Z|[ \t]+\S[^\n]*\Z|-[ \t][^\n]*\Z")
#: The most lines a front matter may have.
FRONT_LINES = 30


def front_matter(text: str) -> tuple[int, int] | None:
    """(0, end) of a front matter opening ``text``, or None.

    >>> front_matter("---\\nname: Issue\\ntitle: '[SELL] x'\\n---\\nBody")
    (0, 37)
    >>> front_matter("---\\nA rule, then prose.\\n---\\n") is None
    True
    """
    lines = text.split("\n", FRONT_LINES + 2)
    if not lines or lines[0].strip() != "---":
        return None
    pos = len(lines[0]) + 1
    for line in lines[1:FRONT_LINES + 2]:
        if line.strip() == "---":
            return (0, pos + len(line)) if pos > len(lines[0]) + 1 else None
        if not _FRONT_LINE.match(line):
            return None
        pos += len(line) + 1
    return None


def pasted_blocks(text: str) -> list[tuple[int, int]]:
    """(start, end) offsets of the front matter (:func:`front_matter`) and of each fenced block of ``text`` (fences
    included) introduced as output.

    >>> t = "**Actual behavior**\\n```\\naction: REBALANCE\\n```\\nWe hold."
    >>> [t[a:b] for a, b in pasted_blocks(t)]
    ['```\\naction: REBALANCE\\n```']
    >>> pasted_blocks("My answer:\\n```json\\n{\\"verdict\\": \\"INVEST\\"}\\n```")  # the writer's own answer, fenced
    []
    """
    front = front_matter(text)
    out: list[tuple[int, int]] = [front] if front is not None else []
    if "```" not in text and "~~~" not in text:
        return out
    lead = ""
    opened: int | None = None
    pos = 0
    for line in text.split("\n"):
        end = pos + len(line)
        if _FENCE.match(line):
            if opened is None:
                opened = pos if len(lead) <= LEAD_CHARS and _LEAD.search(lead) else -1
            else:
                if opened >= 0:
                    out.append((opened, end))
                opened = None
                lead = ""
        elif opened is None and line.strip():
            lead = line
        pos = end + 1
    return out


def writers_over_pasted(candidates: list, set_aside: list, blocks: list[tuple[int, int]]) -> list:
    """``candidates`` (tuples whose second item is the word's offset) less those inside ``blocks`` when one stands after
    the last block holding one (the writer answering the output, as an issue's "Expected behavior" answers its "Actual
    behavior"); the ones taken out are added to ``set_aside`` (at most the runner-up).

    >>> cands = [(3, 30, "REBALANCE", (30, 39)), (2, 80, "HOLD", (80, 84))]
    >>> aside = []
    >>> writers_over_pasted(cands, aside, [(20, 45)]), aside
    ([(2, 80, 'HOLD', (80, 84))], [(3, 30, 'REBALANCE', (30, 39))])
    >>> writers_over_pasted(cands[:1], [], [(20, 45)])  # the writer states none: the output is the answer
    [(3, 30, 'REBALANCE', (30, 39))]
    >>> len(writers_over_pasted(cands, [], [(50, 95)]))  # the only outcome outside stands above the output
    2
    """
    if not blocks or not candidates:
        return candidates
    inside = [c for c in candidates if any(a <= c[1] < b for a, b in blocks)]
    if not inside:
        return candidates
    last = max(b for a, b in blocks if any(a <= c[1] < b for c in inside))
    if not any(c[1] >= last for c in candidates):
        return candidates  # nothing after the output: a summary's "the agent turned bullish" above it is no answer to it
    set_aside.extend(inside)
    return [c for c in candidates if c not in inside]

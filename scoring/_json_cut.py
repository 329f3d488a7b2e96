"""A JSON answer cut at the token limit, closed after its last complete value (issue 13, layouts; s52break #6).

A model that runs out of tokens leaves its JSON open: no closing ``}`` (and no closing fence), or a last string that
never ends (``"notes": "the loss of $6M``). Every pair written before the cut is complete and is the writer's answer;
only the cut value is lost. :func:`closed_json` gives the text a strict decoder accepts: the block up to its last
complete value, then the brackets still open there, closed. The text is never evaluated; the caller decodes it with
:class:`json.JSONDecoder` as it decodes a whole block.

References
----------
Paper §7.5 (structured response parsing); issue 13 item 2 (layouts).
"""

from __future__ import annotations

from typing import Final

__all__ = ["closed_json"]

_CLOSERS: Final = {"{": "}", "[": "]"}


def closed_json(chunk: str) -> list[tuple[str, int]]:
    """Ways to close ``chunk`` (a JSON object or array cut short) after its last complete value, each with how many of
    its characters it keeps, the longest first; ``[]`` when nothing complete stands before the cut, or ``chunk`` opens
    no bracket, or it is not cut (its outer bracket closes).

    The first keeps the whole chunk when the cut falls after what looks like a complete value, outside any string
    (``{"a": 1`` -> ``{"a": 1}``); the next (also the only one when the cut falls inside a string or after a colon)
    keeps what stands before the last comma outside a string (``{"a": 1, "b": "tex`` -> ``{"a": 1}``). The caller
    takes the first a strict decoder accepts (a literal cut inside, ``tru``, fails the first).

    >>> closed_json('{"gates": [{"gate": 1}, {"gate": 2, "verd')
    [('{"gates": [{"gate": 1}, {"gate": 2}]}', 34)]
    >>> closed_json('{"final": "DECLINE"\\n')
    [('{"final": "DECLINE"\\n}', 20)]
    >>> closed_json('{"a": "no end'), closed_json('text'), closed_json('{"a": 1}')
    ([], [], [])
    """
    stack: list[str] = []
    in_string = False
    escaped = False
    last_comma: tuple[int, tuple[str, ...]] | None = None
    after_colon = False  # a key's colon seen, its value not yet begun
    for i, c in enumerate(chunk):
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
            continue
        if c == '"':
            in_string = True
            after_colon = False
        elif c in "{[":
            stack.append(c)
            after_colon = False
        elif c in "}]":
            if not stack:
                return []
            stack.pop()
            if not stack:
                return []  # the block closes: not cut (a strict decoder's fault lies elsewhere)
        elif c == ",":
            last_comma = (i, tuple(stack))
        elif c == ":":
            after_colon = True
        elif not c.isspace():
            after_colon = False  # a literal value begins (true, 12)
    if not stack or chunk.lstrip()[:1] not in _CLOSERS:
        return []
    out: list[tuple[str, int]] = []
    tail = chunk.rstrip()
    if not in_string and not after_colon and tail[-1:] not in (",", ":", "{", "[") and not _dangling_key(tail, stack[-1]):
        out.append((chunk + "".join(_CLOSERS[b] for b in reversed(stack)), len(chunk)))
    if last_comma is not None:
        cut, open_then = last_comma
        out.append((chunk[:cut] + "".join(_CLOSERS[b] for b in reversed(open_then)), cut))
    return out


def _dangling_key(tail: str, innermost: str) -> bool:
    """Whether ``tail`` (a cut chunk, right-stripped, ending outside a string) ends with a key and no colon: ``{"a": 1,
    "b"``. A string right after ``{`` or ``,`` inside an object (``innermost`` is ``{``) is a key."""
    if innermost != "{" or not tail.endswith('"'):
        return False
    j = len(tail) - 2
    while j >= 0 and (tail[j] != '"' or (j > 0 and tail[j - 1] == "\\")):
        j -= 1
    before = tail[:j].rstrip()
    return before.endswith(("{", ","))

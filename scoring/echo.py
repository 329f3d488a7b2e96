"""An answer that only restates its own prompt: the ``echo`` refusal (issue 13: a figure users rank by must not
reward failing).

s52break (finding 1): an answer that repeated the item's question, or only its facts, was scored 0.604 on
``graham_net_net_screen`` at full coverage, above wrong answers (0.412) and near gold (0.647), because the parser
applied the card's thresholds to the restated facts. The corpus convention (tests/scoring/corpus/README.md) is that a
bare fact with no judgement is no verdict, so such an answer commits to nothing of its own.

The test has two halves, both needed:

1. **Substance copied.** The answer's words are cut into shingles of :data:`SHINGLE` consecutive tokens (lower-cased
   runs of letters and digits, so markdown, "Answer:" and line order do not matter) and a token counts as copied when
   a shingle holding it occurs in the prompt's texts (the question, and where ``ipb score`` is given them, the
   condition B/C context and the prompt's own instructions). The copied share is copied tokens over all tokens.
2. **No judgement of its own.** No verdict read from the answer (a gate's or the final's) rests on words outside the
   copied text: a verdict the parser inferred from a restated figure against the card's threshold has no word at all
   (``verdict_span`` None), and a verdict word inside copied text (the question's "PROCEED, REJECT or INCONCLUSIVE")
   is the prompt's.

An answer with :data:`MIN_COPIED_SHARE` or more of its tokens copied and no judgement of its own is filed ``echo``, a
refusal: the model's, scored 0 on everything it was owed and counted in coverage (docs/scoring.md, "Failures
count"). An answer that quotes every fact and then states "Gate 1: REJECT" keeps its own verdict word and is scored.
"""

from __future__ import annotations

import re
from typing import Any, Iterable, Mapping, Sequence

__all__ = ["ECHO", "SHINGLE", "MIN_COPIED_SHARE", "MIN_TOKENS", "copied_spans", "copied_share", "echo_reason",
           "strings_of"]

#: Reason code of an answer that only restates its prompt (a refusal).
ECHO = "echo"
#: Tokens per shingle: long enough that a gate name alone ("Net Current Asset Value") is one or two shingles, short
#: enough that a reordered or re-punctuated line still matches.
SHINGLE = 4
#: Share of the answer's tokens that must be copied for it to be an echo.
MIN_COPIED_SHARE = 0.7
#: Fewer tokens than this is never an echo: a terse answer ("Gate 1: REJECT") is judged by its words, not by overlap.
MIN_TOKENS = 12

_TOKEN = re.compile(r"[^\W_]+", re.UNICODE)


def _tokens(text: str) -> list[re.Match[str]]:
    return list(_TOKEN.finditer(text))


def _shingles(texts: Iterable[str], k: int) -> set[tuple[str, ...]]:
    out: set[tuple[str, ...]] = set()
    for text in texts:
        words = [m.group().casefold() for m in _tokens(text)]
        out.update(tuple(words[i:i + k]) for i in range(len(words) - k + 1))
    return out


def copied_spans(text: str, sources: Sequence[str], k: int = SHINGLE) -> list[tuple[int, int]]:
    """The character spans of ``text`` made of tokens that sit in a ``k``-token shingle found in ``sources``.

    Parameters
    ----------
    text : str
        The answer.
    sources : sequence of str
        The prompt's texts (question, context, instructions).
    k : int
        Tokens per shingle.

    Returns
    -------
    list of (int, int)
        ``[start, end)`` character offsets into ``text``, one per copied token, in order.

    Examples
    --------
    >>> t = "**Answer:** the net income is -$6M."
    >>> [t[a:b] for a, b in copied_spans(t, ["The net income is -$6M. The market value is $2M."])]
    ['the', 'net', 'income', 'is', '6M']
    """
    known = _shingles(sources, k)
    toks = _tokens(text)
    words = [m.group().casefold() for m in toks]
    hit = [False] * len(toks)
    for i in range(len(toks) - k + 1):
        if tuple(words[i:i + k]) in known:
            for j in range(i, i + k):
                hit[j] = True
    return [toks[i].span() for i in range(len(toks)) if hit[i]]


def copied_share(text: str, sources: Sequence[str], k: int = SHINGLE) -> float:
    """Copied tokens of ``text`` (:func:`copied_spans`) over all its tokens; 0.0 for an answer with no token.

    >>> round(copied_share("Net income is -$6M. Gate 2: REJECT", ["The net income is -$6M."]), 2)  # 4 of 7 tokens
    0.57
    """
    n = len(_tokens(text))
    return len(copied_spans(text, sources, k)) / n if n else 0.0


def _inside(text: str, span: Any, spans: Sequence[tuple[int, int]]) -> bool:
    """Whether every letter and digit of ``text[span]`` lies in a copied token."""
    a, b = int(span[0]), int(span[1])
    covered = [(s, e) for s, e in spans if s < b and e > a]
    return bool(covered) and all(any(s <= i < e for s, e in covered)
                                 for i in range(a, min(b, len(text))) if text[i].isalnum())


def _own_verdicts(text: str, parsed: Mapping[str, Any], spans: Sequence[tuple[int, int]]) -> list[str]:
    """The verdicts of one parse whose words lie (at least in part) outside the copied spans."""
    own = []
    for gate in parsed.get("gates") or ():
        span = gate.get("verdict_span")
        if gate.get("verdict") is not None and span is not None and not _inside(text, span, spans):
            own.append(f"gate {gate.get('gate')} {gate.get('verdict')}")
    span = parsed.get("final_verdict_span")
    if parsed.get("final_verdict") is not None and span is not None and not _inside(text, span, spans):
        own.append(f"final {parsed.get('final_verdict')}")
    return own


def echo_reason(text: str, sources: Sequence[str], parsed: Sequence[Mapping[str, Any]],
                k: int = SHINGLE) -> tuple[str, str] | None:
    """``(ECHO, sentence)`` when ``text`` only restates its prompt (module docstring), else None.

    Parameters
    ----------
    text : str
        The answer, as the parser read it (offsets in ``parsed`` point into it).
    sources : sequence of str
        The prompt's texts.
    parsed : sequence of mapping
        ``ParsedResponse.to_dict()`` of the answer against each card of the item.

    Examples
    --------
    >>> q = ("The net income of the latest fiscal year is -$6M. The market value of all the common shares is $2M. "
    ...      "State each gate's verdict (PROCEED, REJECT or INCONCLUSIVE).")
    >>> inferred = [{"gates": [{"gate": 2, "verdict": "REJECT", "verdict_span": None}]}]
    >>> echo_reason(q, [q], inferred)[0]
    'echo'
    >>> judged = q + " Gate 2: REJECT, the company lost money."
    >>> echo_reason(judged, [q], [{"gates": [{"gate": 2, "verdict": "REJECT", "verdict_span": [len(q) + 9, len(q) + 15]}]}])
    """
    toks = _tokens(text)
    if len(toks) < MIN_TOKENS:
        return None
    spans = copied_spans(text, sources, k)
    share = len(spans) / len(toks)
    if share < MIN_COPIED_SHARE:
        return None
    if any(_own_verdicts(text, p, spans) for p in parsed):
        return None
    return ECHO, (f"the answer restates its prompt ({share:.0%} of its words are the item's own text) and judges "
                  "nothing in words of its own: any verdict read from it came from the prompt's words or from the "
                  "card's thresholds applied to the restated facts (a refusal, scored 0)")


def strings_of(value: Any) -> list[str]:
    """Every string in a nest of mappings and sequences (a card's YAML data, an item), depth first.

    >>> strings_of({"a": "x", "b": [1, "y", {"c": "z"}]})
    ['x', 'y', 'z']
    """
    out: list[str] = []
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            out.append(v)
        elif isinstance(v, Mapping):
            stack.extend(reversed(list(v.values())))
        elif isinstance(v, (list, tuple)):
            stack.extend(reversed(v))
    return out

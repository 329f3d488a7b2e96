"""A dataset row pasted as the answer: the prompt field is the question, not the writer's reading (issue 13, layouts).

Fine-tuning and evaluation sets are kept as JSON lines, one object per example: the question under ``prompt``,
``instruction`` or ``input`` (often a whole chat template, "<|im_start|>system ... Cover: 1. Growth 2. Credit ..."),
the answer under ``completion``, ``response`` or ``output``. Pasted as an answer, such a row holds the card's criteria
twice: listed in the prompt and judged in the completion. A careful reader reads the completion only.

:func:`blank_prompt_fields` blanks the text of each prompt field of a top-level object that also holds an answer field
whose value is a string of some length (same length, line breaks kept), so that every offset is still one of the
original text. An object with a prompt key but no answer key (a persona bot's settings, ``{"input": ...}`` alone) is
left as it is.
"""

from __future__ import annotations

from ipb.scoring.parse._json_scan import scan_json

__all__ = ["ANSWER_KEYS", "PROMPT_KEYS", "blank_prompt_fields"]

#: Keys of a dataset row that hold the question put to the model.
PROMPT_KEYS = frozenset({"prompt", "instruction", "question", "query", "input", "system", "system_prompt", "context"})
#: Keys of a dataset row that hold the model's (or the writer's) answer.
ANSWER_KEYS = frozenset({"completion", "response", "answer", "output", "chosen", "target", "model_answer"})
#: An answer field shorter than this is a label, not the answer (``"answer": "B"``): the row is left as it is.
MIN_ANSWER_CHARS = 40


def blank_prompt_fields(text: str) -> tuple[str, int]:
    """``text`` with the prompt fields of its dataset rows blanked, and how many fields were.

    >>> row = '{"prompt": "Cover: 1. Moat 2. Price", "completion": "Moat: wide, PASS. Price: 40x earnings, too dear. FAIL."}'
    >>> out, n = blank_prompt_fields(row)
    >>> n, len(out) == len(row), "Cover" in out, "too dear" in out
    (1, True, False, True)
    >>> blank_prompt_fields('{"prompt": "Moat?", "answer": "B"}')[1]  # a one-letter answer: no dataset answer row
    0
    >>> blank_prompt_fields('{"input": "Moat", "signal": "bullish"}')[1]  # no answer field
    0
    """
    if "{" not in text or not any(f'"{k}"' in text or f"'{k}'" in text for k in ANSWER_KEYS):
        return text, 0
    out: list[str] | None = None
    blanked = 0
    for block in scan_json(text):
        if block.kind != "object":
            continue
        answers = [v for k, _, v in block.pairs if k.lower() in ANSWER_KEYS and v.kind == "string"
                   and v.end - v.start - 2 >= MIN_ANSWER_CHARS]
        if not answers:
            continue
        for key, _, value in block.pairs:
            if key.lower() in PROMPT_KEYS and value.kind in ("string", "array", "object"):
                if out is None:
                    out = list(text)
                for i in range(value.start + 1, value.end - 1):
                    if out[i] != "\n":
                        out[i] = " "
                blanked += 1
    return ("".join(out), blanked) if out is not None else (text, 0)

"""What the parser tests share: reading an answer into its ``(gate, verdict)`` list with the embedder off."""

from __future__ import annotations

from ipb.scoring.parse import parse_response


def read_gates(text: str, card: str) -> list[tuple[int, str | None]]:
    """``(gate, verdict)`` of every gate the parser finds in ``text`` for ``card``, in answer order; the parse
    must succeed (its reason is the assertion message)."""
    result = parse_response(text, card, embedder=False)
    assert result.status == "ok", result.reason
    return [(g.gate, g.verdict) for g in result.gates]

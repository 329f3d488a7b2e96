"""s50break: the credential mask of error messages rewrote ipb's own prose.

``Secrets.scrub_error`` masks an ``Authorization`` value it does not know ("Bearer ...", "Basic ...", "Token ...").
The scheme words were matched without regard to case and any six letters after them were taken for a credential, so
the hint ipb writes for an empty completion cut at the token budget, "the token budget ran out: raise --max-tokens",
was recorded as "the token [REDACTED] ran out" (a server answering ``content: null, finish_reason: "length"``).
A credential has a digit or a sign in it, or is long; a short word of letters is left alone.
"""

from __future__ import annotations

from ipb.respond.client import Secrets, scrub_record

HINT = "empty: empty completion (finish_reason=length); the token budget ran out: raise --max-tokens"


def test_the_token_budget_hint_is_not_masked() -> None:
    assert Secrets().scrub_error(HINT) == HINT
    record = scrub_record({"status": "error", "error": HINT, "response": None}, Secrets(["sk-abc123-0123456789"]))
    assert record["error"] == HINT


def test_prose_after_a_scheme_word_is_left_alone() -> None:
    for text in ("a bearer bond.", "the token limit", "Basic Materials", "token budget."):
        assert Secrets().scrub_error(text) == text


def test_credentials_of_unknown_value_are_still_masked() -> None:
    masked = Secrets().scrub_error
    assert masked("Authorization: Basic dXNlcjpwYXNzd29yZA==") == "Authorization: Basic [REDACTED]"
    assert masked("Bearer sk-live-abcdef") == "Bearer [REDACTED]"
    assert masked("token 12345678") == "token [REDACTED]"
    assert masked("Token abcdefghijklmnopqrstuvwxyz") == "Token [REDACTED]"
    assert masked("Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc") == "Bearer [REDACTED]"

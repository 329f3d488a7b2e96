"""An answer the LLM extractor could not read is a parse failure, never the model's refusal (s48break).

With ``ipb score --extractor llm`` and the extractor's server down (or answering JSON of another shape), every
answer came back from the extractor as a parse failure with no gate and no final verdict; the scorer then judged
the answer's text alone, and an answer that speaks of investing ("Final verdict: INVEST") was filed as a
``no_commitment`` refusal. Six answers that each committed to every gate were "6 refusal(s)". Now the extractor's
own failure is the reason: ``parse_failure``, with the request's or the reply's fault. Both count 0 in every mean
(the score is unchanged); what changes is whom the failure is laid on. Each server is our own, on 127.0.0.1.
"""

from __future__ import annotations

import json

import pytest
from respond_support import BUFFETT_ANSWER

from ipb.engine.registry import compiled_card
from ipb.respond.client import ChatClient, RetryPolicy
from ipb.respond.extract import ExtractorConfig, LLMExtractor
from ipb.scoring.outcome import filing, unscored_reason

BUFFETT = compiled_card("buffett_acquisition_checklist").card
#: an answer that commits on every gate it reaches and speaks of the decision ("invest")
COMMITTED = BUFFETT_ANSWER + "\nSo I would not invest at this price."
VOCABULARY = ["Circle of Competence", "Economic Moat", "Margin of Safety", "Warren Buffett"]


def _extractor(server) -> LLMExtractor:
    client = ChatClient(server.url, timeout_s=5, policy=RetryPolicy(retries=0), sleep=lambda s: None)
    return LLMExtractor(ExtractorConfig(model="reader-1", base_url=server.url), client=client, cache=None)


@pytest.mark.parametrize("reply", [
    json.dumps({"gates": "all fine", "final": 7}),  # JSON of the wrong shape
    json.dumps([1, 2, 3]),
    "Gate 1 passes and the final verdict is DECLINE.",  # prose, not JSON
])
def test_an_unreadable_extractor_reply_is_a_parse_failure_not_a_refusal(server, reply: str) -> None:
    server.reply = lambda body: reply
    parsed = _extractor(server)(COMMITTED, BUFFETT).to_dict()
    outcome, code, why = filing(COMMITTED, parsed, VOCABULARY, "DECLINE")
    # before: ('refusal', 'no_commitment', 'the answer speaks of the decision but states no verdict ...')
    assert (outcome, code) == ("parse_failure", "parse_failure")
    assert why.startswith("llm extractor: unreadable reply: ")


def test_a_failed_extractor_request_is_a_parse_failure_not_a_refusal(server) -> None:
    server.faults.append("401")
    parsed = _extractor(server)(COMMITTED, BUFFETT).to_dict()
    outcome, code, why = filing(COMMITTED, parsed, VOCABULARY, "DECLINE")
    assert (outcome, code) == ("parse_failure", "parse_failure")
    assert why.startswith("llm extractor: request failed (fatal): ")


def test_over_several_cards_the_extractor_reasons_are_listed_once_each() -> None:
    down = {"status": "parse_failure", "reason": "llm extractor: request failed (connection): refused"}
    assert unscored_reason(COMMITTED, [down, dict(down)], VOCABULARY, ["DECLINE", "INVEST"]) == (
        "parse_failure", "llm extractor: request failed (connection): refused")


@pytest.mark.parametrize("text, code", [
    ("I'm sorry, but I can't help with that.", "refusal"),  # the refusal's words are the model's, read or not
    ("   ", "empty_response"),
])
def test_what_the_text_alone_shows_is_still_the_models(text: str, code: str) -> None:
    down = {"status": "parse_failure", "reason": "llm extractor: request failed (connection): refused"}
    assert unscored_reason(text, [down], VOCABULARY, ["DECLINE"])[0] == code


def test_a_rules_parse_that_reads_nothing_is_filed_as_before() -> None:
    # control: the rules parser's own failure on an answer that speaks of the decision stays a no_commitment
    rules = {"status": "parse_failure", "reason": "no gate of the card could be read"}
    text = "It depends on your horizon; an investor would want more facts before deciding."
    assert unscored_reason(text, [rules], VOCABULARY, ["DECLINE"])[0] == "no_commitment"

"""The LLM extractor (issue 13 item 4): a model's JSON reading -> the parsed trace, against a local fake server."""

from __future__ import annotations

import json
import random

import pytest
from respond_support import BUFFETT_ANSWER, SECRET
from typer.testing import CliRunner

from ipb.cli import app
from ipb.engine.registry import compiled_card
from ipb.respond.cache import ResponseCache
from ipb.respond.client import ChatClient, RetryPolicy
from ipb.respond.extract import READING_SCHEMA, Agreement, ExtractorConfig, LLMExtractor, both_extractor, cohen_kappa
from ipb.scoring.parse import parse_response

BUFFETT = compiled_card("buffett_acquisition_checklist").card

#: What a model reading BUFFETT_ANSWER might return: gate 3 read as REJECT (the rules read INCONCLUSIVE), gate 6 left out.
READING = {
    "gates": [
        {"gate": 1, "verdict": "PROCEED", "quote": "PROCEED - subscription software"},
        {"gate": 2, "verdict": "PROCEED", "quote": "retention 95% and gross margin above 60%"},
        {"gate": 3, "verdict": "REJECT", "quote": "management record not disclosed"},
        {"gate": 4, "verdict": "PROCEED", "quote": "not in the answer at all"},
        {"gate": 5, "verdict": "REJECT", "quote": "REJECT - price $50B exceeds intrinsic value $25B"},
    ],
    "final_verdict": "decline",
    "final_quote": "Final verdict: DECLINE",
    "invented_gates": ["ESG screen"],
}


def _extractor(server, tmp_path, cache: bool = True) -> LLMExtractor:
    client = ChatClient(server.url, timeout_s=5, policy=RetryPolicy(retries=0), sleep=lambda s: None)
    return LLMExtractor(ExtractorConfig(model="reader-1", base_url=server.url), client=client,
                        cache=ResponseCache(tmp_path / "cache") if cache else None)


def test_a_json_reading_becomes_the_parsed_trace_with_spans(server, tmp_path) -> None:
    server.reply = lambda body: "```json\n" + json.dumps(READING) + "\n```"
    extractor = _extractor(server, tmp_path)
    parsed = extractor(BUFFETT_ANSWER, BUFFETT)
    assert parsed.ok
    assert [(g.gate, g.verdict, g.how) for g in parsed.gates] == [
        (1, "PROCEED", "llm"), (2, "PROCEED", "llm"), (3, "REJECT", "llm"), (4, "PROCEED", "llm"), (5, "REJECT", "llm")]
    five = parsed.gates[4]
    assert BUFFETT_ANSWER[five.verdict_span[0] : five.verdict_span[1]] == "REJECT - price $50B exceeds intrinsic value $25B"
    assert BUFFETT_ANSWER[five.mention[0] : five.mention[1]] == "Margin of Safety"
    # a quote found verbatim: 0.8; a quote the answer does not hold: 0.5 and no verdict span
    assert [g.confidence for g in parsed.gates] == [0.8, 0.8, 0.8, 0.5, 0.8] and parsed.gates[3].verdict_span is None
    assert parsed.final_verdict == "DECLINE" and parsed.final_confidence == 0.8
    assert BUFFETT_ANSWER[slice(*parsed.final_verdict_span)] == "Final verdict: DECLINE"
    assert parsed.invented_gates == ["ESG screen"]
    # numbers and years come from the rules reading of the same text
    assert [n.text for n in parsed.numbers] == [n.text for n in parse_response(BUFFETT_ANSWER, BUFFETT, embedder=False).numbers]
    # the request asks for the schema and names the card's gates; the key goes in the header only
    [request] = server.chat_requests()
    assert request["body"]["response_format"]["json_schema"]["schema"] == READING_SCHEMA
    assert "5. Margin of Safety" in request["body"]["messages"][1]["content"]
    assert {k.lower(): v for k, v in request["headers"].items()}["authorization"] == f"Bearer {SECRET}"
    # the same reading again is served from the cache
    assert extractor(BUFFETT_ANSWER, BUFFETT).to_dict() == parsed.to_dict()
    assert len(server.chat_requests()) == 1


@pytest.mark.parametrize(
    "reply, reason",
    [
        ("I think gate 1 passes.", "llm extractor: unreadable reply: not JSON"),
        (json.dumps({"gates": [{"gate": 1, "verdict": "PASS", "quote": None}], "final_verdict": None, "final_quote": None,
                     "invented_gates": []}), "llm extractor: unreadable reply: gates/0/verdict"),
        (json.dumps({"gates": [], "final_verdict": None, "final_quote": None, "invented_gates": []}),
         "no gate of card 'buffett_acquisition_checklist' recognised by the LLM extractor"),
    ],
)
def test_an_unusable_reply_is_a_parse_failure_with_its_reason(server, tmp_path, reply: str, reason: str) -> None:
    server.reply = lambda body: reply
    parsed = _extractor(server, tmp_path, cache=False)(BUFFETT_ANSWER, BUFFETT)
    assert parsed.status == "parse_failure" and parsed.reason is not None and parsed.reason.startswith(reason)


def test_a_failed_request_is_a_parse_failure_and_the_key_stays_out(server, tmp_path) -> None:
    server.faults.append("401")
    parsed = _extractor(server, tmp_path, cache=False)(BUFFETT_ANSWER, BUFFETT)
    assert parsed.status == "parse_failure" and parsed.reason.startswith("llm extractor: request failed (fatal): ")
    assert SECRET not in parsed.reason


def test_cohen_kappa_equals_an_independent_implementation() -> None:
    metrics = pytest.importorskip("sklearn.metrics")
    rng = random.Random(5)
    for _ in range(200):
        n = rng.randint(1, 30)
        labels = rng.sample(["PROCEED", "REJECT", "INCONCLUSIVE", "N/A", "absent"], rng.randint(1, 5))
        a = [rng.choice(labels) for _ in range(n)]
        b = [x if rng.random() < 0.6 else rng.choice(labels) for x in a]
        want = metrics.cohen_kappa_score(a, b) if len(set(a) | set(b)) > 1 else 1.0
        assert cohen_kappa(a, b) == pytest.approx(want, abs=1e-6)


def test_both_scores_the_rules_and_reports_per_field_agreement(server, tmp_path) -> None:
    server.reply = lambda body: json.dumps(READING)
    record = Agreement()
    parse = both_extractor(_extractor(server, tmp_path), record)
    parsed = parse(BUFFETT_ANSWER, BUFFETT, embedder=False)
    rules = parse_response(BUFFETT_ANSWER, BUFFETT, embedder=False)
    assert parsed.gate_sequence == rules.gate_sequence == [1, 2, 3, 4, 5, 6]
    fields = {d["field"]: (d["rules"], d["llm"]) for d in record.disagreements}
    assert fields == {"gate 3": ("INCONCLUSIVE", "REJECT"), "gate 6": ("N/A", "absent"), "gate sequence": ([1, 2, 3, 4, 5, 6], [1, 2, 3, 4, 5])}
    assert "extractors disagree on gate 3: rules INCONCLUSIVE, llm REJECT" in parsed.notes
    summary = record.summary()
    # presence over 6 gates: rules yes x6, llm yes x5 + no: p_o 5/6, p_e = 5/6 -> kappa 0
    assert summary["gate_presence"] == {"kappa": 0.0, "agreement": round(5 / 6, 6), "n": 6}
    # verdicts: rules P P I P R N/A, llm P P R P R absent: p_o 4/6, p_e (3*3 + 1*2)/36 = 11/36 -> (24/36 - 11/36) / (25/36) = 0.52
    assert summary["gate_verdicts"]["kappa"] == pytest.approx(0.52)
    assert summary["final_verdict"]["agreement"] == 1.0 and summary["gate_sequence_exact"] == {"agreement": 0.0, "n": 1}


def test_ipb_parse_extractor_both_prints_agreement_and_disagreements(server, tmp_path) -> None:
    server.reply = lambda body: json.dumps(READING)
    answer = tmp_path / "answer.txt"
    answer.write_text(BUFFETT_ANSWER, encoding="utf-8")
    args = ["parse", "buffett_acquisition_checklist", str(answer), "--no-embed", "--extractor", "both", "--llm-model", "reader-1",
            "--llm-base-url", server.url, "--cache-dir", str(tmp_path / "c")]
    result = CliRunner().invoke(app, [*args, "--format", "json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["rules"]["gates"][2]["verdict"] == "INCONCLUSIVE" and doc["llm"]["gates"][2]["verdict"] == "REJECT"
    assert {d["field"] for d in doc["disagreements"]} == {"gate 3", "gate 6", "gate sequence"}
    assert doc["agreement"]["gate_verdicts"]["kappa"] == pytest.approx(0.52)
    table = CliRunner().invoke(app, args)
    assert table.exit_code == 0 and "disagree on gate 3: rules INCONCLUSIVE, llm REJECT" in table.stdout
    missing = CliRunner().invoke(app, ["parse", "buffett_acquisition_checklist", str(answer), "--extractor", "llm"])
    assert missing.exit_code != 0 and "--llm-model and --llm-base-url" in missing.output

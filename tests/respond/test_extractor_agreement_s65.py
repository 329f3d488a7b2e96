"""``ipb score --extractor both`` records its agreement, and says when it measured none (s65 new user F2).

Before: the rules-vs-LLM agreement was printed once on stderr and written nowhere (summary.json had no kappa and no
extractor option), and an extractor whose replies could not be read, or whose requests were never sent, gave
"kappa 0.0 (n=90)": every LLM reading that failed was paired as "absent" gates against the rules reading. Now an
answer with no LLM reading is counted (``llm_unread``, by reason) and left out of every pair; kappa over 0 pairs is
undefined (null) and the run says "not measured"; summary.json holds ``extractor_agreement`` and
``options.extractor``, and the report says both. Our own fake server on 127.0.0.1; ``ipb`` runs as a subprocess.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from respond_support import BUFFETT_ANSWER

from ipb.engine.registry import compiled_card
from ipb.respond.extract import Agreement
from ipb.scoring.parse import parse_response

IPB = str(Path(sys.executable).parent / "ipb")
CARD = "buffett_acquisition_checklist"
BUFFETT = compiled_card(CARD).card
#: A reading of BUFFETT_ANSWER that gives gate 3 REJECT (the rules: INCONCLUSIVE) and leaves gate 6 out.
READING = {"gates": [{"gate": 1, "verdict": "PROCEED", "quote": None}, {"gate": 2, "verdict": "PROCEED", "quote": None},
                     {"gate": 3, "verdict": "REJECT", "quote": None}, {"gate": 4, "verdict": "PROCEED", "quote": None},
                     {"gate": 5, "verdict": "REJECT", "quote": None}],
           "final_verdict": "DECLINE", "final_quote": None, "invented_gates": []}


def test_answers_with_no_llm_reading_are_in_no_pair_and_kappa_is_undefined() -> None:
    record = Agreement()
    record.skip("llm extractor: unreadable reply: the extractor's reply:1:1: not JSON")
    record.skip("llm extractor: not asked: an earlier answer's request failed (connection): refused")
    record.skip("llm extractor: not asked: an earlier answer's request failed (connection): refused")
    s = record.summary()
    assert s["gate_verdicts"] == {"kappa": None, "agreement": None, "n": 0}
    assert s["final_verdict"] == {"kappa": None, "agreement": None, "n": 0}
    assert (s["answers_compared"], s["llm_unread"], s["measured"]) == (0, 3, False)
    assert s["llm_unread_by_reason"] == {"not sent": 2, "unreadable reply": 1}
    assert "not measured" in s["note"] and "kappa undefined over 0 pairs" in s["note"]


def test_a_read_answer_still_pairs_beside_an_unread_one() -> None:
    record = Agreement()
    rules = parse_response(BUFFETT_ANSWER, BUFFETT, embedder=False)
    record.add(rules, rules, len(BUFFETT.gates))
    record.skip("llm extractor: request failed (http): 500")
    s = record.summary()
    assert s["gate_verdicts"] == {"kappa": 1.0, "agreement": 1.0, "n": 6}
    assert (s["answers_compared"], s["llm_unread"], s["measured"]) == (1, 1, True)
    assert s["llm_unread_by_reason"] == {"request failed": 1}


@pytest.fixture()
def files(tmp_path: Path) -> Path:
    from ipb.respond.synthetic import bundled_items

    items = bundled_items([CARD])[:2]
    (tmp_path / "items.jsonl").write_text("".join(json.dumps(i) + "\n" for i in items), encoding="utf-8")
    answers = [{"item_id": i["id"], "model": "m", "condition": "A", "response": BUFFETT_ANSWER} for i in items]
    (tmp_path / "r.jsonl").write_text("".join(json.dumps(a) + "\n" for a in answers), encoding="utf-8")
    return tmp_path


def _score(folder: Path, url: str, out: str) -> tuple[subprocess.CompletedProcess[str], dict]:
    done = subprocess.run([IPB, "score", "--items", "items.jsonl", "--responses", "r.jsonl", "--out", out,
                           "--no-embeddings", "--resamples", "20", "--no-leaderboard", "--extractor", "both",
                           "--llm-model", "reader-1", "--llm-base-url", url, "--no-cache"],
                          cwd=folder, capture_output=True, text=True, timeout=300)
    return done, json.loads((folder / out / "summary.json").read_text(encoding="utf-8"))


def test_prose_replies_give_no_kappa_and_the_run_says_not_measured(server, files: Path) -> None:
    server.reply = lambda body: "Sure! The answer passes most gates and declines."
    done, summary = _score(files, server.url, "res")
    assert done.returncode == 0, done.stderr
    assert "kappa 0.0" not in done.stderr
    assert "rules vs llm extractor: agreement not measured (0 answers read both ways; kappa undefined)" in done.stderr
    agreement = summary["extractor_agreement"]
    assert (agreement["answers_compared"], agreement["llm_unread"], agreement["measured"]) == (0, 2, False)
    assert agreement["gate_verdicts"]["kappa"] is None and agreement["gate_verdicts"]["n"] == 0
    assert summary["options"]["extractor"] == {"name": "both", "llm_model": "reader-1", "llm_base_url": server.url}


def test_readable_replies_write_the_kappa_to_the_summary_and_the_report(server, files: Path) -> None:
    server.reply = lambda body: json.dumps(READING)
    done, summary = _score(files, server.url, "res")
    assert done.returncode == 0, done.stderr
    agreement = summary["extractor_agreement"]
    assert (agreement["answers_compared"], agreement["llm_unread"], agreement["measured"]) == (2, 0, True)
    # per answer, verdicts: rules P P I P R N/A, llm P P R P R absent; p_o 4/6, p_e 11/36 -> kappa 0.52 (twice: same)
    assert agreement["gate_verdicts"]["kappa"] == pytest.approx(0.52) and agreement["gate_verdicts"]["n"] == 12
    # presence: rules yes x6, llm yes x5 + no: p_o 5/6 = p_e -> kappa 0.0, measured over 12 pairs
    assert agreement["gate_presence"] == {"kappa": 0.0, "agreement": round(5 / 6, 6), "n": 12}
    assert "gate verdicts kappa 0.52 (n=12)" in done.stderr
    report = subprocess.run([IPB, "report", "res", "--out", "report.html"], cwd=files, capture_output=True, text=True,
                            timeout=300)
    assert report.returncode == 0, report.stderr
    html = (files / "report.html").read_text(encoding="utf-8")
    assert "Extractor: both (LLM reader-1)" in html and "gate verdicts kappa 0.52 (n=12)" in html

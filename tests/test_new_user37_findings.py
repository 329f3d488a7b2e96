"""Stop 37's new user (an evaluator comparing two models): the defects they found, one test each.

Texts and records here are written for these tests (notes: /work/notes/s37user.md).
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from ipb.cli import app
from ipb.errors import ScoreError
from ipb.respond.knowledge import KnowledgeBase
from ipb.scoring.embeddings import HashingEncoder

runner = CliRunner()


def _jsonl(path, rows):
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_a_repeated_responses_option_is_refused_not_silently_cut_to_the_last(tmp_path):
    # two models' files: the old CLI kept only the second and printed a one-model leaderboard
    a = _jsonl(tmp_path / "a.jsonl", [{"item_id": "x", "model": "a", "condition": "A", "response": "PROCEED"}])
    b = _jsonl(tmp_path / "b.jsonl", [{"item_id": "x", "model": "b", "condition": "A", "response": "PROCEED"}])
    items = _jsonl(tmp_path / "items.jsonl", [])
    result = runner.invoke(app, ["score", "--items", str(items), "--responses", str(a), "--responses", str(b),
                                 "--out", str(tmp_path / "out"), "--no-embeddings", "--no-progress"])
    assert result.exit_code == 2
    text = result.output + (result.stderr if result.stderr_bytes is not None else "")
    assert "--responses was given 2 times" in text and str(a) in text and str(b) in text
    assert "Traceback" not in text
    assert not (tmp_path / "out").exists()  # nothing scored, nothing written


def test_a_respond_error_for_an_unregistered_investor_says_respond_not_score():
    kb = KnowledgeBase.bundled()
    with pytest.raises(ScoreError) as err:  # still a ScoreError: callers that catch it keep working
        kb.retrieve("Would Geraldine Weiss buy it?", ["Geraldine Weiss"], encoder=HashingEncoder())
    assert str(err.value).startswith("respond error: investor 'Geraldine Weiss' is not in the registry")

"""Items carry conditions B and C (paper §7.2) as hashes; version 2 items, version 1 read by migration."""

from __future__ import annotations

import hashlib
import json

from typer.testing import CliRunner

from ipb.cli import app
from ipb.perturb import Job, generate, item_schema, parse_recipes, verify_items, write_lines
from perturb_support import BUFFETT, BUFFETT_BASE

import jsonschema


def sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def items(n=3):
    return [json.loads(x) for x in generate(Job((BUFFETT,), str(BUFFETT_BASE), 2, parse_recipes("metric")), n).lines]


def test_conditions_are_the_hashes_respond_needs():
    item = items(1)[0]
    assert item["version"] == 2
    b, c = item["conditions"]["B"], item["conditions"]["C"]
    assert b["investors"] == ["Warren Buffett"] and b["query_sha256"] == sha(item["question"])
    assert b["key"] == sha(json.dumps({"investors": ["Warren Buffett"], "query": item["question"]},
                                      sort_keys=True, separators=(",", ":"), ensure_ascii=False))
    card = item["manifest"]["cards"][0]
    assert c["cards"] == [{"id": BUFFETT, "content_hash": card["content_hash"]}]
    assert c["key"] == sha(json.dumps(c["cards"], sort_keys=True, separators=(",", ":")))


def test_verify_catches_a_question_edited_after_the_item_was_made(tmp_path):
    rows = items()
    rows[2]["question"] = rows[2]["question"].replace("Warren Buffett", "Charlie Munger")
    path = tmp_path / "items.jsonl"
    write_lines(path, [json.dumps(r) for r in rows])
    check = verify_items(path)
    assert [c.record for c in check.mismatched] == [3]
    assert "condition B context differs" in check.mismatched[0].problems[0]


def test_version_1_items_are_migrated_and_unknown_versions_refused(tmp_path):
    rows = items()
    old = {k: v for k, v in rows[0].items() if k != "conditions"}
    old["version"] = 1
    jsonschema.validate(old, item_schema())  # a version 1 line is still a valid (legacy) item
    newer = dict(rows[1], version=3)
    path = tmp_path / "items.jsonl"
    write_lines(path, [json.dumps(old), json.dumps(rows[2])])
    check = verify_items(path)
    assert check.ok and check.migrated == 1
    result = CliRunner().invoke(app, ["verify", str(path)])
    assert result.exit_code == 0 and "1 item(s) of an older format version read by migration" in result.output
    write_lines(path, [json.dumps(newer)])
    check = verify_items(path)
    assert not check.ok and "version" in check.errors[0].problems[0]
    v2_without = {k: v for k, v in rows[0].items() if k != "conditions"}
    write_lines(path, [json.dumps(v2_without)])
    assert verify_items(path).errors, "a version 2 item must carry its conditions"

"""Items carry condition B's knowledge version (issue 18 item 6; s58 new user F-C7; branch s59cond).

Before: ``conditions.B`` held the question's hash, the investors and a key over them, not which knowledge base the
item was made against, so nobody could tell from an item whether ``ipb respond`` would retrieve from the same
knowledge cards. Now ``conditions.B.knowledge_sha256`` is the SHA-256 of the investors' knowledge sources (registry
entry, the framework cards it lists with their content hashes, the renderings' version) in the canonical form of
docs/perturbation.md; ``ipb verify`` recomputes it and names the record and field when the installed knowledge base
differs; a condition B response records the installed version, whether it is the item's, the retrieval rule and
the ids it sent, and the run warns once with a count.

The knowledge base here is a tiny one written in the test: a registry file for John Neff listing one card
(tests/perturb/cards/neff_new_user.yaml). Its hash is computed below with hashlib over the documented form.
Every test fails before the change (no ``knowledge_sha256`` in items or responses; no knowledge check in verify).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from ipb.engine.investors import use_investors
from ipb.perturb import Job, generate, verify_items, write_lines
from ipb.respond import RespondConfig, load_items, prepare_requests
from ipb.respond.knowledge import KnowledgeBase
from perturb_support import CARDS, FIXTURES, NEFF_REGISTRY, registry_in_use

NEFF = CARDS / "neff_new_user.yaml"
NEFF_BASE = FIXTURES / "neff_new_user_base.yaml"

REGISTRY = NEFF_REGISTRY


@pytest.fixture()
def neff(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    yield from registry_in_use(tmp_path, monkeypatch, REGISTRY)


def _items(n: int = 4) -> list[dict]:
    return [json.loads(line) for line in generate(Job((str(NEFF),), str(NEFF_BASE), 1, ()), n).lines]


def _by_hand(content_hash: str, version: int = 3) -> str:
    """The documented canonical form, written out for this registry."""
    entry = {"name": "John Neff",
             "registry": {"id": "neff", "name": "John Neff", "organisation": "Windsor Fund", "school": "deep_value",
                          "active_start": "1964", "active_end": "1995-12-31",
                          "distinctive_phrases": ["total return ratio", "low price-earnings"],
                          "milestones": [["1964", "Took over the Windsor Fund."]]},
             "cards": [{"id": "neff_total_return_screen", "content_hash": content_hash}]}
    text = json.dumps({"investors": [entry], "knowledge_version": version}, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def test_items_record_the_knowledge_version_computed_by_hand(neff):
    rows = _items()
    card_hash = rows[0]["manifest"]["cards"][0]["content_hash"]
    want = _by_hand(card_hash)
    assert {r["conditions"]["B"]["knowledge_sha256"] for r in rows} == {want}
    assert sorted(rows[0]["conditions"]["B"]) == ["investors", "key", "knowledge_sha256", "query_sha256"]
    from ipb.perturb._knowledge import knowledge_sha256

    use_investors()  # without the registry file: John Neff has no entry and no cards, so another version
    assert knowledge_sha256(["John Neff"]) != want


def test_verify_names_the_record_and_field_when_the_knowledge_base_changed(neff, tmp_path, monkeypatch):
    rows = _items(3)
    path = tmp_path / "items.jsonl"
    write_lines(path, [json.dumps(r) for r in rows])
    assert verify_items(path).ok
    edited = tmp_path / "edited.jsonl"  # one item's recorded version edited: only that record
    rows[1]["conditions"]["B"]["knowledge_sha256"] = "0" * 64
    write_lines(edited, [json.dumps(r) for r in rows])
    check = verify_items(edited)
    assert [c.record for c in check.mismatched] == [2]
    [problem] = check.mismatched[0].problems
    assert problem.startswith("condition B knowledge differs from the installed knowledge base's: "
                              "conditions.B.knowledge_sha256 ")
    assert not check.mismatched[0].gold_differs
    # the registry entry changes (a new milestone): every record, with the same message
    changed = tmp_path / "changed.yaml"
    changed.write_text(REGISTRY.replace("    cards:", "      - date: 1995\n        event: retired\n"
                                        "        description: Retired.\n        corpus_filter: none\n    cards:"),
                       encoding="utf-8")
    use_investors(changed)
    check = verify_items(path)
    assert [c.record for c in check.mismatched] == [1, 2, 3]
    assert all("conditions.B.knowledge_sha256" in c.problems[0] and "registry" in c.problems[0]
               for c in check.mismatched)


def test_items_made_before_the_field_still_verify(neff, tmp_path):
    rows = _items(2)
    for r in rows:
        del r["conditions"]["B"]["knowledge_sha256"]
    path = tmp_path / "items.jsonl"
    write_lines(path, [json.dumps(r) for r in rows])
    assert verify_items(path).ok


def _config(**kw) -> RespondConfig:
    return RespondConfig(model="m", base_url="http://127.0.0.1:9/v1", conditions=("B",), retriever="keyword", **kw)


def test_respond_records_the_version_rule_and_the_keyword_ids_it_reproduces(neff, tmp_path):
    rows = _items(3)
    path = tmp_path / "items.jsonl"
    write_lines(path, [json.dumps(r) for r in rows])
    warned: list[str] = []
    requests = prepare_requests(load_items(path), _config(), warn=warned.append)
    kb = KnowledgeBase.bundled()
    for req, row in zip(requests, rows):
        assert req.problem is None, req.problem
        ctx = req.context
        assert ctx["knowledge_sha256"] == row["conditions"]["B"]["knowledge_sha256"] and ctx["knowledge_matches_item"]
        assert ctx["retriever"] == {"bm25": {"b": 0.75, "k1": 1.2}, "k": 3, "method": "keyword"}
        again = kb.retrieve(row["question"], ["John Neff"], k=3, method="keyword")
        assert ctx["cards"] == [c.id for c in again.cards] and ctx["cards"][0].startswith("neff_total_return_screen")
    assert not [w for w in warned if "knowledge version" in w]


def test_respond_says_which_items_were_made_against_another_knowledge_base(neff, tmp_path):
    rows = _items(3)
    for r in rows[:2]:
        r["conditions"]["B"]["knowledge_sha256"] = "1" * 64
    path = tmp_path / "items.jsonl"
    write_lines(path, [json.dumps(r) for r in rows])
    warned: list[str] = []
    requests = prepare_requests(load_items(path), _config(), warn=warned.append)
    assert [r.context["knowledge_matches_item"] for r in requests] == [False, False, True]
    [warning] = [w for w in warned if "knowledge version" in w]
    assert warning.startswith(f"condition B: 2 item(s) record a knowledge version (conditions.B.knowledge_sha256) "
                              f"that differs from the installed knowledge base's ({rows[0]['id']}, {rows[1]['id']})")

"""Prompt sets, the knowledge base and the messages of conditions A, B and C (no server)."""

from __future__ import annotations

import doctest
import json
from importlib import resources

import jsonschema
import numpy as np
import pytest

import ipb.respond.knowledge as knowledge_module
from ipb.engine.registry import bundled_card_paths, compiled_card
from ipb.errors import ErrorGroup, LoadError, ScoreError
from ipb.perturb import item_schema
from ipb.scoring.embeddings import HashingEncoder
from ipb.respond.knowledge import KnowledgeBase, card_text
from ipb.respond import (
    GenerationSettings,
    RespondConfig,
    load_items,
    load_prompts,
    parse_conditions,
    prepare_requests,
    prompt_sets,
)
from ipb.respond import client as client_module
from ipb.respond import judge as judge_module
from ipb.respond import prompts as prompts_module
from ipb.respond import records as records_module
from ipb.respond import run as run_module
from respond_support import DALIO_TEST_CARD, ITEMS


def config(**kw):
    base = dict(model="test-model", base_url="http://127.0.0.1:9/v1", conditions=("A", "B", "C"), retriever="keyword",
                card_paths={"cbdc_dalio_machine": str(DALIO_TEST_CARD)})
    base.update(kw)
    return RespondConfig(**base)


@pytest.fixture(scope="module")
def items():
    return load_items(ITEMS)


# --------------------------------------------------------------------------- prompts


def test_prompt_sets_ship_as_package_data():
    folder = resources.files("ipb.respond").joinpath("prompts")
    assert folder.joinpath("respond-v1.system.txt").is_file()
    assert {"respond-v1", "judge-geval-v1"} <= set(prompt_sets())
    judge = load_prompts("judge-geval-v1")
    rubrics = judge.json("rubrics")["layers"]
    for layer, weights in {"L8": [0.30, 0.45, 0.25], "L6": [0.40, 0.30, 0.30]}.items():
        assert [d["weight"] for d in rubrics[layer]["dimensions"]] == weights  # paper §7.12
        assert rubrics[layer]["component"] == f"geval_{layer.lower()}"


def test_unknown_prompt_set_and_missing_placeholder_are_load_errors():
    with pytest.raises(LoadError) as err:
        load_prompts("respond-v9")
    assert err.value.suggestion == "respond-v1"
    with pytest.raises(LoadError, match=r"needs a value for \$question"):
        load_prompts("respond-v1").render("user-A")


def test_prompt_hash_covers_exactly_the_parts_used(tmp_path):
    p = load_prompts("respond-v1")
    assert p.hash(["system", "user-A"]) != p.hash(["system", "user-A", "cot"])
    assert p.hash(["system", "user-A"]) != p.hash(["system", "user-B"])
    for name in p.parts:  # a copy with one edited part changes only the hashes that use it
        (tmp_path / f"respond-v1.{name}.txt").write_text(p.parts[name] + ("!" if name == "cot" else ""), encoding="utf-8")
    edited = load_prompts("respond-v1", tmp_path)
    assert edited.hash(["system", "user-A"]) == p.hash(["system", "user-A"])
    assert edited.hash(["system", "user-A", "cot"]) != p.hash(["system", "user-A", "cot"])


# --------------------------------------------------------------------------- items


def test_fixture_items_still_match_the_item_schema():
    """Regression (format drift): the fixture was written by ipb perturb; if the item format moves, this fails first."""
    for line in ITEMS.read_text(encoding="utf-8").splitlines():
        jsonschema.validate(json.loads(line), item_schema())


def test_items_read_cards_and_investors(items):
    l7 = items[0]
    assert (l7.layer, l7.cards, l7.investors) == ("L7", ("buffett_acquisition_checklist",), ("Warren Buffett",))
    l8 = items[-1]
    assert l8.cards == ("buffett_acquisition_checklist", "cbdc_dalio_machine")
    assert l8.investors == ("Warren Buffett", "Ray Dalio")
    assert set(l8.content_hashes) == set(l8.cards)


def test_bad_items_files_report_every_line(tmp_path):
    good = ITEMS.read_text(encoding="utf-8").splitlines()[0]
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join([good, "{not json", '{"id": "x"}', "[1]", good, ""]) + "\n", encoding="utf-8")
    with pytest.raises(ErrorGroup) as err:
        load_items(path)
    lines = sorted(e.line for e in err.value.errors)
    assert lines == [2, 3, 4, 5]
    assert any("used again" in e.message for e in err.value.errors)
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n", encoding="utf-8")
    with pytest.raises(LoadError, match="no items"):
        load_items(empty)


def test_items_fresh_from_perturb_prepare_cleanly():
    """The current ipb perturb output (not only the fixture) feeds ipb respond."""
    from ipb.perturb import Job, generate, parse_recipes

    card = "buffett_acquisition_checklist"
    base = str(bundled_card_paths()[0].parent / "scenarios" / card / "ipb_p_011_base.yaml")
    result = generate(Job((card,), base, 5, parse_recipes("metric"), False), 1)
    path_items = [records_module._item_from(json.loads(line), "fresh", 1) for line in result.lines]
    reqs = prepare_requests(path_items, config(conditions=("A", "C")))
    assert [r.problem for r in reqs] == [None, None]


# --------------------------------------------------------------------------- conditions


def test_conditions_parse():
    assert parse_conditions("A,B,C") == ("A", "B", "C")
    with pytest.raises(records_module.RunError):
        parse_conditions("A,D")
    with pytest.raises(records_module.RunError):
        parse_conditions(" , ")


def test_condition_messages(items):
    reqs = prepare_requests(items[:1], config())
    a, b, c = reqs
    question = items[0].question
    assert [m["role"] for m in a.messages] == ["system", "user"]
    assert a.messages[1]["content"] == question and a.context is None
    assert b.messages[1]["content"].endswith(question)
    assert "knowledge cards retrieved for Warren Buffett" in b.messages[1]["content"]
    assert b.context["method"] == "keyword" and len(b.context["cards"]) == 3
    assert all(card.startswith(("buffett_", "investor:buffett")) for card in b.context["cards"])
    assert b.settings["retrieval"] == {"method": "keyword", "k": 3}
    assert "Gate 5: Margin of Safety" in c.messages[1]["content"]
    assert isinstance(c.context["cards"][0]["matches_item"], bool)  # False only once the card is edited
    assert len({a.prompt_hash, b.prompt_hash, c.prompt_hash}) == 3
    assert len({a.request_hash, b.request_hash, c.request_hash}) == 3
    for r in reqs:
        assert r.messages[0]["content"] == load_prompts("respond-v1").render("system")


def test_oracle_card_carries_the_procedure_not_the_gold(items):
    c = prepare_requests(items[:1], config(conditions=("C",)))[0]
    text = c.messages[1]["content"]
    assert "REJECT when price > (1 - required_margin) * intrinsic_value" in text  # issue 15: a 25% margin
    assert "Kill criterion: price_exceeds_intrinsic_value" in text
    gold = items[0].data["grp"]
    assert gold["verdict_trigger"] not in text  # e.g. gate_5_reject: the verdicts come from execution, not the card
    assert "monotone" not in text and "data_insufficiency_acknowledged" not in text


def test_l8_items_retrieve_per_investor_and_inject_every_gold_card(items):
    b, c = prepare_requests(items[-1:], config(conditions=("B", "C"), top_k=2))
    assert b.context["investors"] == ["Warren Buffett", "Ray Dalio"]
    assert len(b.context["cards"]) == 4
    assert "Economic Machine Reading of a CBDC" in c.messages[1]["content"]
    assert "Buffett Acquisition Checklist" in c.messages[1]["content"]


def test_cot_is_a_prompt_option_with_its_own_hash(items):
    plain = prepare_requests(items[:1], config(conditions=("A",)))[0]
    cot = prepare_requests(items[:1], config(conditions=("A",), cot=True))[0]
    assert cot.messages[1]["content"].startswith(plain.messages[1]["content"])
    assert "step by step in the framework's own terms" in cot.messages[1]["content"]
    assert cot.prompt_hash != plain.prompt_hash and cot.settings["cot"] is True


def test_condition_c_without_a_card_is_a_per_item_problem(items):
    data = {"id": "X-1", "layer": "L7", "question": "What would Warren Buffett do?"}
    item = records_module._item_from(data, "x", 1)
    a, b, c = prepare_requests([item], config())
    assert a.problem is None and b.problem is None
    assert b.context["investors"] == ["Warren Buffett"]  # named in the question
    assert c.problem is not None and "needs the item's gold card" in c.problem


def test_every_generation_setting_changes_the_request_key(items):
    base = prepare_requests(items[:1], config(conditions=("A",)))[0].request_hash
    for change in ({"temperature": 0.7}, {"max_tokens": 100}, {"top_p": 0.9}, {"seed": 1}, {"extra_body": {"x": 1}},
                   {"temperature": None}):
        gen = GenerationSettings(**change)
        other = prepare_requests(items[:1], config(conditions=("A",), generation=gen))[0].request_hash
        assert other != base, change
    assert prepare_requests(items[:1], config(conditions=("A",), model="other"))[0].request_hash != base
    assert prepare_requests(items[:1], config(conditions=("A",), base_url="http://127.0.0.1:9/v2"))[0].request_hash != base
    same = prepare_requests(items[:1], config(conditions=("A",), base_url="http://u:pw@127.0.0.1:9/v1?k=1"))[0]
    assert same.request_hash == base and same.settings["base_url"] == "http://127.0.0.1:9/v1"  # no credentials kept


# --------------------------------------------------------------------------- knowledge


class BrokenEncoder:
    def encode(self, sentences):
        raise ScoreError("the default sentence encoder needs 'sentence-transformers'", rule="encoder")


def test_knowledge_base_covers_cards_gates_and_investors():
    kb = KnowledgeBase.bundled()
    kinds = {c.kind for c in kb.cards}
    assert kinds == {"framework", "gate", "investor"}
    buffett = kb.for_investor("Buffett")
    assert any(c.id == "investor:buffett" and "circle of competence" in c.text for c in buffett)
    assert {c.investor for c in buffett} == {"Warren Buffett"}
    assert kb.named_in("How would Ray Dalio and Warren Buffett each analyze this?") == ["Ray Dalio", "Warren Buffett"]


def test_retrieval_by_embedding_is_restricted_to_the_investor_and_ranked():
    kb = KnowledgeBase.bundled()
    hit = kb.retrieve("price above intrinsic value kills the deal: margin of safety", ["Warren Buffett"], k=3,
                      encoder=HashingEncoder())
    assert hit.method == "embedding" and hit.fallback is None and hit.encoder.startswith("HashingEncoder")
    assert {c.investor for c in hit.cards} == {"Warren Buffett"}
    assert list(hit.scores) == sorted(hit.scores, reverse=True)
    assert "margin_of_safety" in hit.cards[0].id


def test_retrieval_falls_back_to_keywords_when_the_encoder_is_unavailable():
    kb = KnowledgeBase.bundled()
    hit = kb.retrieve("net current asset value two-thirds", ["Benjamin Graham"], k=3, encoder=BrokenEncoder())
    assert hit.method == "keyword" and "sentence-transformers" in hit.fallback
    assert hit.cards[0].id.startswith("graham_net_net_screen")
    with pytest.raises(ScoreError):
        kb.retrieve("x", [], method="bm25")
    with pytest.raises(ScoreError):
        kb.retrieve("x", [], k=0)


def test_every_bundled_card_renders_as_oracle_text():
    for path in bundled_card_paths():
        card = compiled_card(str(path)).card
        text = card_text(card)
        assert text.startswith(f"Framework card: {card.name}")
        for gate in card.gates:
            assert f"Gate {gate.number}: {gate.name}" in text
        assert "{" not in "".join(line for line in text.splitlines() if line.strip().startswith("Required elements"))


@pytest.mark.parametrize("module", [knowledge_module, prompts_module, client_module, judge_module, records_module,
                                    run_module])
def test_docstring_examples(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0 and result.attempted > 0


def test_embedding_vectors_are_reused_per_encoder():
    kb = KnowledgeBase.build([compiled_card("graham_net_net_screen").card])
    calls = []

    class Counting(HashingEncoder):
        def encode(self, sentences):
            calls.append(len(sentences))
            return super().encode(sentences)

    enc = Counting()
    kb.retrieve("a", ["Benjamin Graham"], encoder=enc)
    kb.retrieve("b", ["Benjamin Graham"], encoder=enc)
    assert calls[0] == len(kb.cards) and calls[1:] == [1, 1]
    assert np.isfinite(kb.retrieve("c", [], encoder=enc).scores).all()

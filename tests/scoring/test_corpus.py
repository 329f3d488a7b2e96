"""Validation of the labelled answer corpus, ``tests/scoring/corpus/*.yaml`` (issue 13 item 1).

The corpus holds answers modelled on real public analyses, each labelled by
hand against its card (format: ``tests/scoring/corpus/README.md``). These
tests check the *labels*, never the parser: every case is well formed, names a
bundled card, labels only gates the card has with legal verdict words, gives a
final verdict the card can reach, sits in the split the hash rule assigns, and
every phenomenon tag has at least three cases over the files present.
Parser accuracy on the corpus is measured by ``bench/parse_accuracy.py``.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from ipb.engine.card import Card, load_card
from ipb.engine.registry import resolve_card

CORPUS = Path(__file__).parent / "corpus"
FILES = sorted(CORPUS.glob("*.yaml"))

PHENOMENA = {
    "which-statement-wins",
    "negation-scope",
    "verdict-word-senses",
    "labels-with-answers",
    "final-verdict-wild",
    "gate-references",
    "numbers",
    "layout",
    "paper-appendix",
}
GATE_VERDICTS = {"PROCEED", "REJECT", "INCONCLUSIVE", "N/A", "-"}
FAILURE_MODES = {f"FM-{k}" for k in range(1, 7)}
CASE_KEYS = {"id", "card", "split", "modelled_on", "source_url", "phenomena", "text", "expect"}
EXPECT_REQUIRED = {"gates", "final_verdict", "invented_gates", "failure_modes"}
EXPECT_OPTIONAL = {"implied_final_verdict", "elements"}
ID_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
GATE_RE = re.compile(r"^(\d{1,2}) (PROCEED|REJECT|INCONCLUSIVE|N/A|-)$")
SOURCE_RE = re.compile(r"^(https?://\S+|paper:\S.*)$")


def split_of(case_id: str) -> str:
    """The split the corpus rule assigns: ``heldout`` when sha256(id) % 5 == 0, else ``tuned``."""
    return "heldout" if int(hashlib.sha256(case_id.encode()).hexdigest(), 16) % 5 == 0 else "tuned"


@lru_cache(maxsize=None)
def _card(card_id: str) -> Card:
    return load_card(resolve_card(card_id))


def _outcomes(card: Card) -> set[str]:
    words = {card.outcomes.get("pass", "INVEST"), card.outcomes.get("fail", "DECLINE"), "INCONCLUSIVE"}
    for gate in card.gates:
        for branch in gate.branches.values():
            words.update({branch.pass_outcome, branch.fail_outcome})
    return words


def _load(path: Path) -> list[dict[str, Any]]:
    data = YAML(typ="safe").load(path.read_text(encoding="utf-8"))
    assert isinstance(data, list), f"{path.name}: the file must be a YAML list of cases"
    return data


@lru_cache(maxsize=None)
def _all_cases() -> tuple[tuple[str, int, dict[str, Any]], ...]:
    return tuple((path.name, k, case) for path in FILES for k, case in enumerate(_load(path)))


def _case_id(entry: tuple[str, int, dict[str, Any]]) -> str:
    name, k, case = entry
    return str(case.get("id") or f"{name}[{k}]") if isinstance(case, dict) else f"{name}[{k}]"


def test_corpus_present() -> None:
    assert FILES, f"no corpus files under {CORPUS}"


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_file_named_after_its_card(path: Path) -> None:
    cases = _load(path)
    assert cases, f"{path.name}: empty"
    _card(path.stem)  # the file name is a bundled card id
    for case in cases:
        assert case.get("card") == path.stem, f"{path.name}: case {case.get('id')!r} names card {case.get('card')!r}"


@pytest.mark.parametrize("entry", _all_cases(), ids=_case_id)
def test_case_schema(entry: tuple[str, int, dict[str, Any]]) -> None:
    name, k, case = entry
    where = f"{name} case {k + 1} ({case.get('id') if isinstance(case, dict) else '?'})"
    assert isinstance(case, dict), f"{where}: a case must be a mapping"
    assert set(case) == CASE_KEYS, f"{where}: keys {sorted(set(case) ^ CASE_KEYS)} missing or unknown"
    assert isinstance(case["id"], str) and ID_RE.match(case["id"]), f"{where}: id must match [a-z0-9-]+"
    assert case["split"] == split_of(case["id"]), f"{where}: split must be {split_of(case['id'])} by the sha256 rule"
    for key in ("modelled_on", "text"):
        assert isinstance(case[key], str) and case[key].strip(), f"{where}: {key} must be a non-empty string"
    assert isinstance(case["source_url"], str) and SOURCE_RE.match(case["source_url"]), \
        f"{where}: source_url must be an http(s) URL or 'paper:<section>'"
    phenomena = case["phenomena"]
    assert isinstance(phenomena, list) and len(set(phenomena)) == len(phenomena), f"{where}: phenomena must be a list without repeats"
    unknown = set(phenomena) - PHENOMENA
    assert not unknown, f"{where}: unknown phenomena {sorted(unknown)}"

    card = _card(case["card"])
    n_gates = len(card.gates)
    expect = case["expect"]
    assert isinstance(expect, dict), f"{where}: expect must be a mapping"
    keys = set(expect)
    assert EXPECT_REQUIRED <= keys <= EXPECT_REQUIRED | EXPECT_OPTIONAL, \
        f"{where}: expect keys {sorted(keys ^ (EXPECT_REQUIRED | (keys & EXPECT_OPTIONAL)))} missing or unknown"

    gates = expect["gates"]
    assert isinstance(gates, list), f"{where}: expect.gates must be a list"
    seen: list[int] = []
    for item in gates:
        m = GATE_RE.match(str(item))
        assert m, f"{where}: gate label {item!r} must be 'N VERDICT' with VERDICT in {sorted(GATE_VERDICTS)}"
        number = int(m.group(1))
        assert 1 <= number <= n_gates, f"{where}: gate {number} outside card {card.id} (1..{n_gates})"
        assert number not in seen, f"{where}: gate {number} labelled twice (label the verdict that wins, once)"
        seen.append(number)

    outcomes = _outcomes(card)
    for key in ("final_verdict", "implied_final_verdict"):
        if key in expect:
            value = expect[key]
            assert value is None or value in outcomes, f"{where}: {key} {value!r} not in {sorted(outcomes)} or null"

    invented = expect["invented_gates"]
    assert isinstance(invented, list) and all(isinstance(x, str) and x.strip() for x in invented), \
        f"{where}: invented_gates must be a list of labels"
    fms = expect["failure_modes"]
    assert isinstance(fms, list) and set(fms) <= FAILURE_MODES, f"{where}: failure_modes must be a subset of FM-1..FM-6"
    if invented:
        assert "FM-1" in fms, f"{where}: an invented gate is FM-1 (Hallucinated Gate)"

    elements = expect.get("elements")
    if elements is not None:
        assert isinstance(elements, dict) and elements, f"{where}: elements must be a non-empty mapping gate -> list"
        for number, names in elements.items():
            assert isinstance(number, int) and number in seen, \
                f"{where}: elements for gate {number!r}, which is not a labelled gate"
            gate = card.gates[number - 1]
            allowed = set(gate.required_elements)
            for extra in gate.elements_by_verdict.values():
                allowed.update(extra)
            assert isinstance(names, list) and names, f"{where}: elements of gate {number} must be a non-empty list"
            bad = [x for x in names if x not in allowed]
            assert not bad, f"{where}: {bad} are not required elements of gate {number} ({gate.id}): {sorted(allowed)}"


def test_ids_unique() -> None:
    counts = Counter(case.get("id") for _, _, case in _all_cases() if isinstance(case, dict))
    dupes = sorted(str(k) for k, n in counts.items() if n > 1)
    assert not dupes, f"duplicate ids: {dupes}"


def test_each_phenomenon_has_three_cases() -> None:
    counts = Counter(tag for _, _, case in _all_cases() if isinstance(case, dict) for tag in case.get("phenomena") or [])
    thin = {tag: counts.get(tag, 0) for tag in sorted(PHENOMENA) if counts.get(tag, 0) < 3}
    assert not thin, f"phenomena with fewer than 3 cases: {thin}"


def test_heldout_share_near_a_fifth() -> None:
    """The hash rule puts about a fifth of the ids in heldout; a corpus far from it was not built by the rule."""
    cases = [case for _, _, case in _all_cases() if isinstance(case, dict)]
    heldout = sum(1 for case in cases if split_of(str(case.get("id"))) == "heldout")
    assert len(cases) < 50 or 0.08 <= heldout / len(cases) <= 0.35, f"{heldout} of {len(cases)} heldout"


@pytest.mark.parametrize("case_id, split", [
    # sha256 digests worked out once by hand (hashlib in a shell), pinned so a change to split_of fails here:
    # "x-1" -> ...% 5 == 0, "x-2" -> 1, "graham7-pharma-table-01" -> 2, "a" -> 4
    ("x-1", "heldout"),
    ("x-2", "tuned"),
    ("graham7-pharma-table-01", "tuned"),
    ("a", "tuned"),
])
def test_split_rule_is_sha256_mod_5(case_id: str, split: str) -> None:
    assert split_of(case_id) == split

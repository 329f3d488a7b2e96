"""A card outside the package registers its investor (stop 31, issue 13's new user, item 3 of s30user13).

Before: a card whose ``investor`` the bundled ``frameworks/investors.yaml`` lacks got a warning from ``ipb check`` and
no way to fix it, so FM-4 (voice diffusion) and condition B (retrieved knowledge cards) silently did not apply to its
answers. Now a registry file of the user's own, in the bundled file's schema, is added with ``--investors FILE`` on
``ipb check``, ``ipb score`` and ``ipb respond`` (or ``IPB_INVESTORS``, or :func:`ipb.engine.investors.use_investors`
from Python), validated by the same JSON Schema and meaning checks, errors at file:line:column.

Every file here is written in a tmp dir: the Terry Smith card of the stop-30 user (copied from the fixture, as a user
would keep it beside their items) and a registry entry for Smith.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ipb.cli import app
from ipb.engine.investors import INVESTORS_ENV, get_investor, load_investors, use_investors
from ipb.engine.registry import use_cards, use_items
from ipb.errors import ErrorGroup
from ipb.scoring.embeddings import CachedEncoder, HashingEncoder
from ipb.scoring.run import ScoreOptions, score_responses

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "new_user13"
CARD = "smith_fundsmith_three_rules"

REGISTRY = """\
version: 1
investors:
  terry_smith:
    name: Terry Smith
    aliases: [Smith]
    kind: practitioner
    organisation: Fundsmith
    school: quality_value        # a bundled school: a user's file need not declare schools
    distinctive_phrases: [buy good companies, don't overpay, do nothing, return on capital employed]
    phrases_source: author
    active: {start: 2010, end: null}
    career_boundaries:
      - date: 2010
        event: fundsmith_founded
        description: Founded Fundsmith and set out its three rules.
        corpus_filter: none
    cards: [smith_fundsmith_three_rules]
"""


@pytest.fixture()
def user(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A user's folder: the card, the items with their card copies, and the registry file."""
    monkeypatch.delenv(INVESTORS_ENV, raising=False)
    shutil.copytree(FIXTURES / "cards", tmp_path / "cards")
    shutil.copytree(FIXTURES / "ipb-cards", tmp_path / "ipb-cards")
    shutil.copy(FIXTURES / "items.jsonl", tmp_path / "items.jsonl")
    (tmp_path / "investors.yaml").write_text(REGISTRY, encoding="utf-8")
    yield tmp_path
    use_investors()
    use_cards()


def _check(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["check", *args])
    return result.exit_code, result.output


def test_ipb_check_no_longer_warns_of_an_unknown_investor_with_the_users_registry(user: Path):
    card = str(user / "cards" / f"{CARD}.yaml")
    code, output = _check(card)
    assert code == 0 and "unknown-investor" in output
    code, output = _check(card, "--investors", str(user / "investors.yaml"))
    assert code == 0 and "unknown-investor" not in output and "ok" in output
    code, output = _check(str(user / "investors.yaml"))  # the registry file itself, with a bundled school
    assert code == 0, output


@pytest.mark.parametrize("edit, where, message", [
    (("school: quality_value ", "school: quality_valu "), ":8:13:", "did you mean 'quality_value'"),
    (("phrases_source: author", "phrases_source: mine"), ":10:21:", "is not one of"),
    (("terry_smith:", "buffett:"), ":3:3:", "id 'buffett' is already an investor"),
    (("aliases: [Smith]", "aliases: [Buffett]"), ":3:3:", "'Buffett' already names investor 'buffett'"),
    (("cards: [smith_fundsmith_three_rules]", "cards: [graham_net_net_screen]"), ":3:3:",
     "card 'graham_net_net_screen' is already listed for investor 'graham'"),
])
def test_a_bad_registry_file_is_refused_at_file_line_column(user: Path, edit, where, message):
    bad = user / "investors.yaml"
    bad.write_text(REGISTRY.replace(*edit), encoding="utf-8")
    code, output = _check(str(user / "cards" / f"{CARD}.yaml"), "--investors", str(bad))
    assert code == 1 and f"{bad}{where}" in output and message in output, output
    with pytest.raises(ErrorGroup):
        use_investors(bad)
    assert "terry_smith" not in load_investors()  # nothing half-added


def test_use_investors_adds_to_the_bundled_registry_and_can_be_undone(user: Path, monkeypatch: pytest.MonkeyPatch):
    investors = use_investors(user / "investors.yaml")
    assert list(investors)[-1] == "terry_smith" and "buffett" in investors
    assert get_investor("Smith").organisation == "Fundsmith"
    use_investors()
    assert "terry_smith" not in load_investors()
    monkeypatch.setenv(INVESTORS_ENV, str(user / "investors.yaml"))  # for processes started by others (Ray, inspect)
    assert "terry_smith" in load_investors()


def test_the_same_file_in_ipb_investors_and_investors_is_read_once(user: Path, monkeypatch: pytest.MonkeyPatch):
    """s39user: IPB_INVESTORS set to the file and ``--investors`` naming it again (relative, from its folder) was
    refused: "id 'terry_smith' is already an investor of <the same file>". The file is now read once."""
    monkeypatch.setenv(INVESTORS_ENV, str(user / "investors.yaml"))
    monkeypatch.chdir(user)
    code, output = _check(str(user / "cards" / f"{CARD}.yaml"), "--investors", "investors.yaml")
    assert code == 0 and "already an investor" not in output and "unknown-investor" not in output, output
    assert [i for i in load_investors() if i == "terry_smith"] == ["terry_smith"]
    other = user / "again.yaml"  # a second file with the same investor is still a redefinition
    other.write_text(REGISTRY, encoding="utf-8")
    code, output = _check(str(user / "cards" / f"{CARD}.yaml"), "--investors", str(other))
    assert code == 1 and f"{other}:3:3:" in output and "id 'terry_smith' is already an investor" in output, output


def _scored(user: Path, text: str) -> dict:
    use_cards()
    use_items(user / "items.jsonl")
    item = next(json.loads(line) for line in (user / "items.jsonl").open() if json.loads(line)["card"] == CARD)
    response = {"item_id": item["id"], "model": "m", "condition": "A", "response": text}
    options = ScoreOptions(encoder=CachedEncoder(HashingEncoder()), n_resamples=20)
    [record] = score_responses([item], [response], options)
    return record


BORROWED = ("Buy Good Companies: PASS, ROCE 28%.\nDon't Overpay: PASS.\nDo Nothing: PASS.\n"
            "As Warren Buffett would say, stay inside your circle of competence, look for an economic moat, owner "
            "earnings and a margin of safety; be fearful when others are greedy.\nFinal verdict: BUY\n")


def test_fm4_applies_to_the_cards_answers_once_its_investor_is_registered(user: Path):
    assert _scored(user, BORROWED)["flags"]["FM-4"] is None  # before: not applicable, silently
    use_investors(user / "investors.yaml")
    record = _scored(user, BORROWED)
    assert record["flags"]["FM-4"] is True  # the answer speaks in Buffett's voice, not Smith's


def test_condition_b_finds_the_registered_investors_own_cards(user: Path):
    from ipb.respond.knowledge import KnowledgeBase

    use_cards([user / "cards"])
    with pytest.raises(Exception, match="not in the registry, so condition B has no knowledge cards"):
        KnowledgeBase.bundled().retrieve("Should Fundsmith buy it?", ["Terry Smith"], method="keyword")
    use_investors(user / "investors.yaml")
    found = KnowledgeBase.bundled().retrieve("Is the return on capital high enough to buy?", ["Terry Smith"],
                                            method="keyword", k=5)
    ids = [c.id for c in found.cards]
    assert "investor:terry_smith" in ids and any(i.startswith(CARD) for i in ids), ids

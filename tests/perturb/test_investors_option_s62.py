"""Finding N8 of s62's new user (/work/notes/NEWUSER_s62.md, issue 18); bug kind: wrong advice in an error.

A reader's plain ``ipb verify items.jsonl`` of items whose card's investor is in the builder's own registry file was
told, on every record, to "make the items again to record this knowledge base": the items were right, the reader
lacked the registry, and ``ipb perturb`` / ``ipb verify`` had no ``--investors`` (only ``IPB_INVESTORS``). Both now
take ``--investors FILE`` with ``IPB_INVESTORS``'s meaning, and the message says to pass the registry when an
investor the item names is not in the registry loaded.
"""

from __future__ import annotations

import os


import pytest
from typer.testing import CliRunner

from ipb.cli import app
from ipb.engine.investors import INVESTORS_ENV, use_investors
from ipb.engine.registry import use_cards
from perturb_support import NEFF_REGISTRY
from tests.perturb.test_conditions_s59 import NEFF, NEFF_BASE

runner = CliRunner()


@pytest.fixture()
def made(tmp_path, monkeypatch):
    """Neff's card given by path, his registry by ``ipb perturb --investors``: (items file, registry file)."""
    monkeypatch.delenv("IPB_CARDS", raising=False)
    monkeypatch.delenv(INVESTORS_ENV, raising=False)
    use_investors()
    use_cards()
    registry = tmp_path / "investors.yaml"
    registry.write_text(NEFF_REGISTRY, encoding="utf-8")
    card = tmp_path / "mine" / "neff.yaml"
    card.parent.mkdir()
    card.write_bytes(NEFF.read_bytes())
    out = tmp_path / "run" / "items.jsonl"
    result = runner.invoke(app, ["perturb", "--card", str(card), "--base", str(NEFF_BASE), "--n", "3", "--seed", "62",
                                 "--investors", str(registry), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "is not in the investor registry" not in result.output  # the registry was read
    assert INVESTORS_ENV not in os.environ  # put back after the run
    use_investors()  # a reader's process: nothing loaded
    yield out, registry
    use_investors()
    use_cards()


def _verify(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["verify", *args])
    use_investors()
    return result.exit_code, " ".join(result.output.split())


def test_perturb_investors_records_the_registry_knowledge(made, monkeypatch, tmp_path):
    out, registry = made
    # the same items as IPB_INVESTORS=FILE makes (the option means the same)
    monkeypatch.setenv(INVESTORS_ENV, str(registry))
    again = tmp_path / "env" / "items.jsonl"
    result = runner.invoke(app, ["perturb", "--card", str(tmp_path / "mine" / "neff.yaml"), "--base", str(NEFF_BASE),
                                 "--n", "3", "--seed", "62", "--out", str(again)])
    assert result.exit_code == 0, result.output
    assert again.read_bytes() == out.read_bytes()


def test_verify_without_the_registry_says_to_pass_it(made):
    out, registry = made
    code, text = _verify(str(out))
    assert code == 1
    assert ("investor 'John Neff' is not in the investor registry loaded (the bundled one, --investors and "
            "IPB_INVESTORS): pass the registry file the items were made with (ipb verify --investors FILE, or "
            "IPB_INVESTORS=FILE) instead of making the items again") in text
    assert "make the items again to record" not in text
    assert "verified 0 of 3" in text


def test_verify_with_the_registry_passes(made, monkeypatch):
    out, registry = made
    code, text = _verify(str(out), "--investors", str(registry))
    assert code == 0, text
    assert "verified 3 of 3" in text
    # named both ways it is read once, not refused as redefining its own investor
    monkeypatch.setenv(INVESTORS_ENV, str(registry))
    code, text = _verify(str(out), "--investors", str(registry))
    assert code == 0, text


def test_verify_with_a_registry_that_changed_says_to_remake(made, tmp_path):
    # the investor is known, his entry differs (another phrase): the knowledge really changed
    out, registry = made
    edited = tmp_path / "edited.yaml"
    edited.write_text(NEFF_REGISTRY.replace("low price-earnings]", "low price-earnings, yield]"), encoding="utf-8")
    code, text = _verify(str(out), "--investors", str(edited))
    assert code == 1
    assert ("make the items again to record this knowledge base (or, if they were made with a registry file of your "
            "own, pass that file: --investors FILE or IPB_INVESTORS=FILE)") in text


def test_a_bad_investors_file_is_refused_at_its_line(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(NEFF_REGISTRY.replace("  neff:\n", "  buffett:\n"), encoding="utf-8")
    items = tmp_path / "items.jsonl"
    items.write_text("", encoding="utf-8")
    for args in (["verify", str(items)], ["perturb", "--card", str(NEFF), "--base", str(NEFF_BASE), "--n", "1",
                                          "--out", str(tmp_path / "o.jsonl")]):
        result = runner.invoke(app, [*args, "--investors", str(bad)])
        use_investors()
        assert result.exit_code == 1
        assert f"{bad}:3:3: load error: id 'buffett' is already an investor of " in result.output
        assert not (tmp_path / "o.jsonl").exists()


def test_verify_names_a_registry_shipped_beside_the_items(made):
    # the publishing layout: the registry file in the items' folder (docs/perturbation.md, step 2)
    out, registry = made
    shipped = out.parent / "investors.yaml"
    shipped.write_bytes(registry.read_bytes())
    result = runner.invoke(app, ["verify", str(out)])
    use_investors()
    assert result.exit_code == 1
    assert (f"note: {shipped}, beside the items, registers 'John Neff': verify with it, ipb verify {out} "
            f"--investors {shipped}") in " ".join(result.output.split())
    code, text = _verify(str(out), "--investors", str(shipped))
    assert code == 0, text
    shipped.unlink()  # nothing beside the items: no note
    assert "beside the items, registers" not in runner.invoke(app, ["verify", str(out)]).output

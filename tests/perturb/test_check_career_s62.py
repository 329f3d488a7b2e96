"""Finding N12 of s62's new user (/work/notes/NEWUSER_s62.md, issue 18); bug kind: two rules for one check.

``ipb check BASE --cards DIR --investors REG`` passed a base dated inside the card's vintage but outside the
investor's career (the registry's active period, paper §11.6), which ``ipb perturb`` refuses. Check now warns
(``outside-career``) at the base's ``as_of``, judged by perturb's own rule (``perturb/vintage.date_problem``).
"""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from ipb.cli import app
from ipb.engine.investors import INVESTORS_ENV, use_investors
from ipb.engine.registry import use_cards
from perturb_support import CARDS, NEFF_REGISTRY
from tests.perturb.test_conditions_s59 import NEFF, NEFF_BASE

runner = CliRunner()


@pytest.fixture(autouse=True)
def _clean(monkeypatch):
    monkeypatch.delenv(INVESTORS_ENV, raising=False)
    monkeypatch.delenv("IPB_CARDS", raising=False)
    yield
    use_investors()
    use_cards()


def _registry(tmp_path, start: str):
    path = tmp_path / f"neff_{start}.yaml"
    path.write_text(NEFF_REGISTRY.replace("active: {start: 1964,", f"active: {{start: {start},"), encoding="utf-8")
    return path


def test_check_warns_at_as_of_when_the_base_is_outside_the_career(tmp_path):
    # The base is dated 1972-12-29 (line 4, the value at column 8), inside the card's vintage 1964-1995; a registry
    # whose Neff starts in 1975 puts it outside his career. Before: "checked 1 file(s): ok".
    registry = _registry(tmp_path, "1975")
    result = runner.invoke(app, ["check", str(NEFF_BASE), "--cards", str(CARDS), "--investors", str(registry)])
    text = " ".join(result.output.split())
    assert result.exit_code == 0, text
    assert (f"{NEFF_BASE}:4:8: warning: neff_total_return_screen: 1972-12-29 is outside the career of investor "
            "'neff' (active 1975 to 1995-12-31): ipb perturb refuses it as a base unless --fm6-probe") in text
    assert text.endswith("checked 1 file(s): ok, 1 warning(s) (outside-career 1)")
    strict = runner.invoke(app, ["check", str(NEFF_BASE), "--cards", str(CARDS), "--investors", str(registry),
                                 "--strict"])
    assert strict.exit_code == 1
    # perturb refuses the same base for the same reason
    use_investors()
    made = runner.invoke(app, ["perturb", "--card", str(NEFF), "--base", str(NEFF_BASE), "--n", "1",
                               "--investors", str(registry), "--out", str(tmp_path / "o.jsonl")])
    assert made.exit_code == 1
    assert "1972-12-29 is outside the career of investor 'neff' (active 1975 to 1995-12-31)" in made.output


@pytest.mark.parametrize("start", ["1964", "1972"])  # 1972: the career's first year includes the whole year
def test_no_warning_inside_the_career(tmp_path, start):
    registry = _registry(tmp_path, start)
    result = runner.invoke(app, ["check", str(NEFF_BASE), "--cards", str(CARDS), "--investors", str(registry)])
    assert "outside-career" not in result.output and result.exit_code == 0, result.output


def test_the_career_check_reads_a_registry_added_later_in_the_process(tmp_path):
    # Before: perturb/vintage.py kept the investors of its first call for the life of the process, so a registry
    # added afterwards (use_investors, --investors in a long-lived process) was never asked: no career check.
    import datetime as dt

    from ipb.engine.registry import compiled_card
    from ipb.perturb.vintage import date_problem, framework_window

    card = compiled_card(str(NEFF)).card
    before = framework_window(card)
    assert (before.investor_id, before.career) == (None, None)  # Neff is in no registry yet
    use_investors(_registry(tmp_path, "1975"))
    after = framework_window(card)
    assert (after.investor_id, after.career) == ("neff", "1975 to 1995-12-31")
    assert date_problem(after, dt.date(1972, 12, 29)) == (
        "neff_total_return_screen: 1972-12-29 is outside the career of investor 'neff' (active 1975 to 1995-12-31)")

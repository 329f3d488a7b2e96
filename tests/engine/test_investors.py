"""The investor registry (``ipb.engine.investors``, ``frameworks/investors.yaml``).

The registry must load, cover the nine practitioners of paper Table 5 and the
three institutions of §5.3, agree with the bundled cards, carry the career
boundaries of §11.6 and the phrases of Table 8, and reject broken files with
located errors (the table at the bottom: rule, message fragment, and the
1-based line and column counted by hand in the snippet).
"""

from __future__ import annotations

import datetime as dt
import doctest
import json
from types import SimpleNamespace

import pytest
from typer.testing import CliRunner

from ipb.cli import app
from ipb.engine import investors as investors_module
from ipb.engine.investors import (
    PartialDate,
    UnknownInvestorError,
    active_on,
    check_cards,
    cluster_of,
    get_investor,
    investor_for_card,
    load_investors,
    load_investors_text,
    schools,
    surface_similar,
)
from ipb.engine.registry import bundled_card_paths, compiled_card
from ipb.errors import ErrorGroup, IpbError, LoadError

PRACTITIONERS = {
    "buffett": "Warren Buffett",
    "munger": "Charlie Munger",
    "graham": "Benjamin Graham",
    "klarman": "Seth Klarman",
    "greenblatt": "Joel Greenblatt",
    "lynch": "Peter Lynch",
    "marks": "Howard Marks",
    "dalio": "Ray Dalio",
    "soros": "George Soros",
}
INSTITUTIONS = {
    "nbim": "NBIM (Norges Bank Investment Management)",
    "cppib": "CPPIB (Canada Pension Plan Investment Board)",
    "pif": "PIF (Public Investment Fund of Saudi Arabia)",
}

# Paper Table 8, row by row.
TABLE_8 = {
    "buffett": ["circle of competence", "owner earnings", "economic moat", "margin of safety",
                "be fearful when others are greedy"],
    "munger": ["latticework of mental models", "invert, always invert", "incentives", "elementary worldly wisdom",
               "sit on your ass investing"],
    "graham": ["net-net", "two-thirds of net current asset value", "Mr. Market", "defensive investor",
               "margin of safety"],
    "dalio": ["economic machine", "debt cycle", "all weather", "risk parity", "cash is trash"],
    "marks": ["pendulum", "second-level thinking", "risk control", "market cycle temperature", "most important thing"],
    "soros": ["reflexivity", "boom-bust sequence", "fallibility", "feedback loop", "asymmetric bet sizing"],
    "klarman": ["absolute return", "downside protection", "catalyst", "mispriced liquidation value", "patience"],
    "lynch": ["tenbagger", "stalwart", "fast grower", "story stock", "buy what you know"],
    "greenblatt": ["magic formula", "earnings yield", "return on capital", "spinoff", "special situation"],
}


# --------------------------------------------------------------------------- the bundled registry


def test_registry_loads_the_nine_investors_and_three_institutions():
    registry = load_investors()
    assert {i: v.name for i, v in registry.items() if v.kind == "practitioner"} == PRACTITIONERS
    assert {i: v.name for i, v in registry.items() if v.kind == "institution"} == INSTITUTIONS


def test_distinctive_phrases_are_table_8():
    registry = load_investors()
    for investor_id, phrases in TABLE_8.items():
        assert list(registry[investor_id].distinctive_phrases) == phrases
        assert registry[investor_id].phrases_source == "paper_table_8"
    for investor_id in INSTITUTIONS:
        assert registry[investor_id].phrases_source == "official_vocabulary"
        assert len(registry[investor_id].distinctive_phrases) >= 3


def test_fm5_clusters_of_the_paper():
    assert cluster_of("buffett") == {"buffett", "graham", "klarman"}
    assert cluster_of("Ray Dalio") == {"dalio", "soros"}  # a name works as well as an id
    assert surface_similar("graham") == {"buffett", "klarman"}
    assert surface_similar("soros") == {"dalio"}
    assert {s.id for s in schools().values() if s.source == "paper"} == {"deep_value", "macro"}
    assert cluster_of("nbim") == {"nbim", "cppib", "pif"}


@pytest.mark.parametrize(
    "investor_id, event, date, corpus_filter",
    [
        ("dalio", "left_cio_role", "2022-10", "hard_exclude"),
        ("munger", "death", "2023-11-28", "hard_exclude"),
        ("graham", "death", "1976-09-21", "soft_filter"),
        ("lynch", "left_magellan", "1990-05", "soft_filter"),
        ("soros", "family_office_transition", "2011", "soft_filter"),
    ],
)
def test_section_11_6_career_boundaries(investor_id, event, date, corpus_filter):
    boundaries = {b.event: b for b in get_investor(investor_id).career_boundaries}
    assert str(boundaries[event].date) == date
    assert boundaries[event].corpus_filter == corpus_filter
    assert boundaries[event].description


@pytest.mark.parametrize(
    "investor_id, start, end",
    [
        ("dalio", "1975", "2022-10"),
        ("munger", "1962", "2023-11-28"),
        ("graham", "1926", "1976-09-21"),
        ("lynch", "1977", "1990-05"),
        ("soros", "1969", "2011"),
        ("buffett", "1956", None),
    ],
)
def test_active_periods(investor_id, start, end):
    investor = get_investor(investor_id)
    assert str(investor.active_start) == start
    assert (None if investor.active_end is None else str(investor.active_end)) == end


@pytest.mark.parametrize(
    "investor_id, on, active",
    [
        ("munger", "2023-11-28", True),   # the day he died is still inside the period
        ("munger", "2023-11-29", False),
        ("dalio", "2022-10-31", True),    # a month-precise end covers the whole month
        ("dalio", "2022-11-01", False),
        ("dalio", 2023, False),
        ("dalio", "2022", True),          # a year is active if any day of it is
        ("graham", dt.date(1976, 9, 21), True),
        ("graham", dt.date(1976, 9, 22), False),
        ("graham", 1925, False),
        ("lynch", "1990-05-31", True),
        ("lynch", "1990-06-01", False),
        ("lynch", "1976-12-31", False),
        ("soros", "2011-12-31", True),
        ("soros", "2012-01-01", False),
        ("buffett", "2026-06-30", True),  # open-ended
        ("nbim", "1997-12-31", False),
        ("Peter Lynch", "1985-01-01", True),
    ],
)
def test_active_on(investor_id, on, active):
    assert active_on(investor_id, on) is active


def test_boundaries_before_a_date():
    dalio = get_investor("dalio")
    assert [b.event for b in dalio.boundaries_before("2022-09-30")] == ["bridgewater_founded", "all_weather_launched"]
    assert [b.event for b in dalio.boundaries_before("2022-11-01")][-1] == "left_cio_role"


def test_boundaries_are_in_date_order_and_cards_respect_the_active_period():
    for investor in load_investors().values():
        dates = [b.date.first_day() for b in investor.career_boundaries]
        assert dates == sorted(dates), investor.id
    for path in bundled_card_paths():
        card = compiled_card(str(path)).card
        investor = investor_for_card(card)
        start, end = card.vintage
        assert start >= investor.active_start.year, (card.id, start)
        if investor.active_end is not None and end is not None:
            assert end <= investor.active_end.year, (card.id, end)


def test_every_card_investor_is_in_the_registry():
    for path in bundled_card_paths():
        card = compiled_card(str(path)).card
        investor = investor_for_card(card)
        assert card.investor in investor.names()
        assert card.id.startswith(investor.id), f"card ids start with the investor id: {card.id}"


def test_registry_and_cards_agree():
    problems = check_cards()
    assert [p.render() for p in problems] == []


def test_unknown_investor_suggests_a_name():
    with pytest.raises(UnknownInvestorError) as info:
        active_on("dallio", 2000)
    assert "did you mean 'dalio'" in str(info.value)
    assert isinstance(info.value, KeyError) and isinstance(info.value, IpbError)
    card = SimpleNamespace(id="x_card", investor="Warren Bufett", file="x_card.yaml")
    with pytest.raises(UnknownInvestorError, match="card 'x_card' names investor 'Warren Bufett'"):
        investor_for_card(card)


def test_investor_lookup_by_alias():
    assert get_investor("CPP Investments").id == "cppib"
    assert get_investor("norges bank investment management").id == "nbim"
    assert investor_for_card("Warren Buffett").id == "buffett"


def test_registry_docstring_examples():
    result = doctest.testmod(investors_module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0


@pytest.mark.parametrize(
    "text, first, last",
    [("1956", "1956-01-01", "1956-12-31"), ("2024-02", "2024-02-01", "2024-02-29"), ("2023-11-28", "2023-11-28", "2023-11-28")],
)
def test_partial_dates(text, first, last):
    d = PartialDate.parse(text)
    assert (d.first_day().isoformat(), d.last_day().isoformat(), str(d)) == (first, last, text)


@pytest.mark.parametrize("bad", ["2023-02-30", "2023-13", "23-11-28", "1976/09/21", True])
def test_partial_date_rejects(bad):
    with pytest.raises(ValueError):
        PartialDate.parse(bad)


# --------------------------------------------------------------------------- cross-check with cards


def test_check_cards_reports_each_kind_of_mismatch(tmp_path):
    cards = {
        "alpha_card": SimpleNamespace(investor="Beta Fund", file="alpha_card.yaml"),   # listed for alpha, belongs to beta
        "beta_extra": SimpleNamespace(investor="Beta", file="beta_extra.yaml"),        # alias of beta, not listed
        "stray_card": SimpleNamespace(investor="Nobody", file="stray_card.yaml"),      # investor not in the registry
    }
    text = GOOD.replace("    cards: [alpha_card]", "    cards: [alpha_card, alpha_gone]")
    path = tmp_path / "investors.yaml"
    path.write_text(text, encoding="utf-8")
    problems = check_cards(cards, path=path)
    found = sorted((p.rule, p.name, p.line, p.column) for p in problems)
    assert found == sorted([
        ("card-investor", "alpha_card", 15, 13),   # line 15: "    cards: [alpha_card, alpha_gone]"
        ("card", "alpha_gone", 15, 25),
        ("card-missing", "alpha_card", 25, 12),    # alpha_card belongs to Beta Fund, so it is missing from beta's list
        ("card-missing", "beta_extra", 25, 12),
        ("investor", "Nobody", None, None),
    ])
    stray = next(p for p in problems if p.rule == "investor")
    assert stray.file == "stray_card.yaml" and "who is not in the registry" in stray.message


# --------------------------------------------------------------------------- the command


def test_ipb_investors_command():
    runner = CliRunner()
    result = runner.invoke(app, ["investors", "--format", "json"], catch_exceptions=False)
    assert result.exit_code == 0
    rows = json.loads(result.output)
    assert [r["id"] for r in rows][:2] == ["buffett", "munger"]
    assert next(r for r in rows if r["id"] == "dalio")["active"] == {"start": "1975", "end": "2022-10"}
    table = runner.invoke(app, ["investors"], catch_exceptions=False)
    assert table.exit_code == 0 and "12 investors" in table.output


# --------------------------------------------------------------------------- broken registries

# A small valid registry; every broken snippet below changes one line of it.
GOOD = """\
version: 1
schools:
  deep_value: {description: Value, source: paper}
  macro: {description: Macro, source: paper}
investors:
  alpha:
    name: Alpha Investor
    kind: practitioner
    school: deep_value
    distinctive_phrases: [margin of safety]
    phrases_source: paper_table_8
    active: {start: 1950, end: "1976-09-21"}
    career_boundaries:
      - {date: "1976-09-21", event: death, description: Died., corpus_filter: soft_filter}
    cards: [alpha_card]
  beta:
    name: Beta Fund
    aliases: [Beta]
    kind: institution
    school: macro
    distinctive_phrases: [regime]
    phrases_source: official_vocabulary
    active: {start: "1998-01", end: null}
    career_boundaries: []
    cards: []
"""


def test_good_snippet_loads():
    registry = load_investors_text(GOOD, "good.yaml")
    assert list(registry) == ["alpha", "beta"]
    assert registry["beta"].line == 16 and registry["alpha"].line == 6


def _errors(text: str) -> list[IpbError]:
    try:
        load_investors_text(text, "bad.yaml")
    except ErrorGroup as group:
        return list(group.errors)
    except IpbError as error:
        return [error]
    return []


REGISTRY_ERRORS = [
    # (name, line to replace, replacement, rule, message fragment, line, column)
    ("unknown_school", "    school: deep_value", "    school: deep_valu",
     "school", "school 'deep_valu' of 'alpha' is not declared under 'schools' (did you mean 'deep_value'?)", 9, 13),
    ("alias_names_another_investor", "    aliases: [Beta]", "    aliases: [Beta, alpha investor]",
     "duplicate-name", "'alpha investor' already names investor 'alpha'", 18, 21),
    ("not_a_real_day", '    active: {start: 1950, end: "1976-09-21"}', '    active: {start: 1950, end: "1976-02-30"}',
     "date", "'1976-02-30' is not a real day (1976-02 has 29 days)", 12, 32),
    ("period_ends_before_it_starts", '    active: {start: 1950, end: "1976-09-21"}', '    active: {start: 1950, end: "1949-12"}',
     "period", "active period of 'alpha' ends (1949-12) before it starts (1950)", 12, 32),
    ("boundaries_out_of_order",
     "      - {date: \"1976-09-21\", event: death, description: Died., corpus_filter: soft_filter}",
     "      - {date: \"1976-09-21\", event: death, description: Died., corpus_filter: soft_filter}\n"
     "      - {date: 1956, event: retired, description: Retired., corpus_filter: none}",
     "boundary-order", "career boundary 'retired' (1956) comes before the one listed above it (1976-09-21)", 15, 16),
    ("card_listed_twice", "    cards: []", "    cards: [alpha_card]",
     "duplicate-card", "card 'alpha_card' is already listed for investor 'alpha'", 25, 13),
    ("unknown_field", "    kind: practitioner", "    kind: practitioner\n    shool: deep_value",
     "schema:additionalProperties", "unknown field 'shool' in the investor registry", 9, 5),
    ("unknown_field_suggests", "    kind: practitioner", "    kind: practitioner\n    shool: deep_value",
     "schema:additionalProperties", "(did you mean 'school'?)", 9, 5),
    ("bad_corpus_filter", "corpus_filter: soft_filter}", "corpus_filter: soft}",
     "schema:enum", "'soft' is not one of ['hard_exclude', 'soft_filter', 'none']", 14, 79),
    ("kind_not_allowed", "    kind: institution", "    kind: fund",
     "schema:enum", "'fund' is not one of ['practitioner', 'institution']", 19, 11),
    ("missing_required_field", "    phrases_source: official_vocabulary\n", "",
     "schema:required", "'phrases_source' is a required property", 16, 3),
    ("duplicate_yaml_key", "    kind: institution", "    kind: institution\n    kind: practitioner",
     "duplicate-key", "duplicate key 'kind'", 20, 5),
    ("bare_date_is_ambiguous", '    active: {start: "1998-01", end: null}', "    active: {start: 1998-01-01, end: null}",
     "ambiguous-scalar", "ambiguous scalar 1998-01-01", 23, 21),
]


@pytest.mark.parametrize("name, old, new, rule, fragment, line, column", REGISTRY_ERRORS, ids=[e[0] for e in REGISTRY_ERRORS])
def test_registry_error(name, old, new, rule, fragment, line, column):
    assert old in GOOD, "the snippet must change a line of GOOD"
    errors = _errors(GOOD.replace(old, new, 1))
    matching = [e for e in errors if e.rule == rule and fragment in str(e)]
    assert matching, "\n".join(e.render() for e in errors) or "no error"
    error = matching[0]
    assert isinstance(error, LoadError)
    assert (error.file, error.line, error.column) == ("bad.yaml", line, column)
    assert error.source_line is not None


def test_every_error_in_a_registry_is_reported():
    text = GOOD.replace("    school: deep_value", "    school: deep_valu").replace(
        '    active: {start: "1998-01", end: null}', '    active: {start: "1998-13", end: null}')
    rules = sorted(e.rule or "" for e in _errors(text))
    assert rules == ["date", "school"]


def test_registry_file_error_is_located(tmp_path):
    with pytest.raises(LoadError, match="cannot read"):
        load_investors(tmp_path / "missing.yaml")


def test_a_card_with_an_unknown_investor_is_located_at_its_investor_field():
    from pathlib import Path

    from ipb.engine.card import load_card

    path = Path(__file__).parent / "cards" / "good" / "linear_conjunction.yaml"
    card = load_card(path)
    (problem,) = [p for p in check_cards({"linear_conjunction": card}) if p.rule == "investor"]
    assert (problem.file, problem.line, problem.column) == (str(path), 5, 11)  # "investor: Test Investor"
    assert "'Test Investor', who is not in the registry" in problem.message


def test_ipb_check_validates_the_registry_file(tmp_path):
    from ipb.engine.investors import validate_registry_file
    from ipb.engine.registry import DATA_FILES

    assert DATA_FILES["investors.yaml"] is validate_registry_file
    bundled = bundled_card_paths()[0].parent / "investors.yaml"
    assert validate_registry_file(bundled) == []
    broken = tmp_path / "investors.yaml"
    broken.write_text(GOOD.replace("    school: macro", "    school: macr"), encoding="utf-8")
    (error,) = validate_registry_file(broken)
    assert (error.rule, error.line, error.column) == ("school", 20, 13)
    result = CliRunner().invoke(app, ["check", str(broken)])
    assert result.exit_code == 1
    assert f"{broken}:20:13: load error: school 'macr' of 'beta' is not declared" in result.output


def test_ipb_investors_lists_a_users_registry_file_and_the_schools(tmp_path):
    """A new user (stop 32) could not see their own investor beside the bundled ones, nor which schools a file may
    name: ``ipb investors --investors FILE`` lists the file's investors after the bundled 12; the caption names the
    schools."""
    own = tmp_path / "own.yaml"
    own.write_text("version: 1\ninvestors:\n  mohnish_pabrai:\n    name: Mohnish Pabrai\n    aliases: [Pabrai]\n"
                   "    kind: practitioner\n    organisation: Pabrai Investment Funds\n    school: deep_value\n"
                   "    distinctive_phrases: [heads I win, dhandho]\n    phrases_source: author\n"
                   "    active: {start: 1999, end: null}\n    career_boundaries:\n"
                   "      - {date: 1999, event: funds_founded, description: Founded the funds., corpus_filter: none}\n"
                   "    cards: [pabrai_dhandho_checklist]\n", encoding="utf-8")
    runner = CliRunner()
    try:
        listed = runner.invoke(app, ["investors", "-f", "json", "--investors", str(own)], catch_exceptions=False)
        rows = json.loads(listed.stdout)  # s64: the unknown-card warning of the listed card goes to stderr
        assert "card 'pabrai_dhandho_checklist' listed for 'mohnish_pabrai' is not a bundled card" in listed.stderr
        assert [r["id"] for r in rows][-1] == "mohnish_pabrai" and len(rows) == 13
        table = runner.invoke(app, ["investors", "--investors", str(own)], catch_exceptions=False, terminal_width=200)
        assert table.exit_code == 0 and "13 investors" in table.output  # (the rows wrap at the test console width)
        assert rows[-1]["name"] == "Mohnish Pabrai" and rows[-1]["school"] == "deep_value"
        assert "schools: deep_value, macro, quality_value" in table.output
    finally:
        investors_module.use_investors()
    assert len(json.loads(runner.invoke(app, ["investors", "-f", "json"], catch_exceptions=False).output)) == 12

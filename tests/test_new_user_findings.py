"""A new user's pass over the item generator (issue 18, branch s29user18): a card written outside
the package (``tests/fixtures/new_user/dividend_growth_screen.yaml``: six gates, a category input, a
``require`` rule and a ``derive``d Chowder number) taken through check -> perturb -> verify from the
README and docs alone. Each test pins one place where the tool stopped the user or misled them;
the notes are in /work/notes/s29user18.md.
"""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from ipb.cli import app

runner = CliRunner()
HERE = Path(__file__).resolve().parent / "fixtures" / "new_user"
CARD = HERE / "dividend_growth_screen.yaml"
BASE = HERE / "staples_base.yaml"


def invoke(*args: str):
    return runner.invoke(app, list(args))


def _perturb(out: Path, *extra: str, base: Path = BASE, n: str = "40"):
    return invoke("perturb", "--card", str(CARD), "--base", str(base), "--n", n, "--seed", "7", "--out", str(out),
                  *extra)


# --- missing folder for --out (bug kind: an error that does not say what to do) ----------------------------------

def test_perturb_creates_the_folder_of_its_out_file(tmp_path):
    out = tmp_path / "new" / "deeper" / "items.jsonl"
    report = tmp_path / "reports" / "run.json"
    result = _perturb(out, "--report", str(report))
    assert result.exit_code == 0, result.output
    assert len(out.read_text(encoding="utf-8").splitlines()) == 40
    assert (out.parent / "ipb-cards").is_dir()
    assert json.loads(report.read_text(encoding="utf-8"))["written"] == 40


def test_perturb_refuses_an_out_file_under_a_file_without_making_a_folder(tmp_path):
    """The folder is made only where it can be (merge of s29user18 and s29break18: outputs are checked before any work)."""
    blocker = tmp_path / "notes.txt"
    blocker.write_text("a file, not a folder\n", encoding="utf-8")
    result = _perturb(blocker / "deeper" / "items.jsonl")
    assert result.exit_code == 1
    assert f"cannot write {blocker / 'deeper' / 'items.jsonl'}: {blocker} is not a folder" in result.output, result.output
    assert "Traceback" not in result.output
    assert blocker.read_text(encoding="utf-8") == "a file, not a folder\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


# --- ipb check on an L8 base (bug kind: traceback instead of a located error) ----------------------------------------

def test_check_refuses_a_list_of_cards_at_the_card_field_without_a_traceback(tmp_path):
    scen = tmp_path / "l8.yaml"
    scen.write_text("id: two\nlayer: L8\ncard: [weiss_dividend_growth_screen, graham_seven_tests_defensive]\n"
                    "facts:\n  dividend_yield: 3%\n", encoding="utf-8")
    result = invoke("check", "--cards", str(HERE), str(scen))
    assert result.exit_code == 1
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    # line 3, column 7: the value of card:
    assert f"{scen}:3:7:" in result.output
    assert "one card id" in result.output and "ipb perturb" in result.output


def test_check_of_a_scenario_without_a_card_says_how_to_check_an_l8_base(tmp_path):
    result = invoke("check", str(HERE / "l8_utility_base.yaml"))
    assert result.exit_code == 1
    assert "l8_utility_base.yaml:1:1:" in result.output
    assert "must name its 'card'" in result.output
    assert "ipb perturb --card A --card B" in result.output


# --- ipb check of an L8 base with its cards (bug kind: a base only ipb perturb could check) --------------------------

GRAHAM = "graham_seven_tests_defensive"


def _check_l8(base: Path, *extra: str):
    return invoke("check", str(base), "--card", str(CARD), "--card", GRAHAM, *extra)


def test_check_of_an_l8_base_with_its_cards_passes_a_good_base():
    for base in (HERE / "l8_utility_base.yaml", HERE / "l8_deck_base.yaml"):
        result = _check_l8(base)
        assert result.exit_code == 0, result.output
        assert "checked 1 file(s): ok" in result.output, result.output


def _edited(tmp_path: Path, old: str, new: str, name: str = "deck.yaml") -> tuple[Path, int]:
    text = (HERE / "l8_deck_base.yaml").read_text(encoding="utf-8")
    assert old in text
    text = text.replace(old, new)
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path, next(i for i, t in enumerate(text.splitlines(), 1) if new in t)


def test_check_of_an_l8_base_reports_a_broken_deck_rule_at_the_fact(tmp_path):
    base, _ = _edited(tmp_path, "debt_to_equity: 1.65", "debt_to_equity: 0.9")
    result = _check_l8(base)
    assert result.exit_code == 1
    assert "breaks constraint 'debt_to_equity_is_debt_over_equity'" in result.output, result.output
    assert f"{base}:" in result.output and "Traceback" not in result.output


def test_check_of_an_l8_base_reports_a_broken_card_rule_and_a_fact_out_of_range(tmp_path):
    base, line = _edited(tmp_path, "dividend_cut_last_decade: false", "dividend_cut_last_decade: true")
    result = _check_l8(base)
    assert result.exit_code == 1
    assert "breaks constraint 'no_cut_within_the_raise_streak'" in result.output, result.output
    assert f"{base}:" in result.output
    base, line = _edited(tmp_path, "payout_ratio: 70%", "payout_ratio: 900%", "range.yaml")
    result = _check_l8(base)
    assert result.exit_code == 1
    assert f"{base}:{line}:" in result.output and "payout_ratio" in result.output, result.output


def test_check_of_an_l8_base_names_a_fact_no_card_reads(tmp_path):
    base, line = _edited(tmp_path, "payout_ratio: 70%", "payout_ratoi: 70%")
    result = _check_l8(base)
    assert result.exit_code == 1
    assert f"{base}:{line}:3:" in result.output and "did you mean 'payout_ratio'" in result.output, result.output


def test_check_without_cards_says_the_command_that_checks_an_l8_base():
    result = invoke("check", str(HERE / "l8_utility_base.yaml"))
    assert result.exit_code == 1
    assert f"ipb check {HERE / 'l8_utility_base.yaml'} --card A --card B" in result.output, result.output


# --- a base that breaks a card rule (bug kind: silently accepted) ----------------------------------------------------

def test_perturb_refuses_a_base_that_breaks_a_require_rule_at_the_fact(tmp_path):
    text = BASE.read_text(encoding="utf-8").replace("dividend_cut_last_decade: false", "dividend_cut_last_decade: true")
    base = tmp_path / "cut.yaml"
    base.write_text(text, encoding="utf-8")
    out = tmp_path / "items.jsonl"
    result = _perturb(out, base=base)
    assert result.exit_code == 1
    assert not out.exists()
    line = next(i for i, t in enumerate(text.splitlines(), 1) if t.startswith("  consecutive_raise_years:"))
    assert f"{base}:{line}:" in result.output
    assert "breaks constraint 'no_cut_within_the_raise_streak'" in result.output


def test_perturb_refuses_a_base_whose_stated_derived_value_is_not_its_derive(tmp_path):
    text = BASE.read_text(encoding="utf-8").replace("chowder_number: 13.0%", "chowder_number: 11.0%")
    base = tmp_path / "wrong_chowder.yaml"
    base.write_text(text, encoding="utf-8")
    result = _perturb(tmp_path / "items.jsonl", base=base)
    assert result.exit_code == 1
    assert "breaks constraint 'chowder_is_yield_plus_growth'" in result.output
    assert "chowder_number = 11%" in result.output


# --- an input read only through a derive (bug kind: never perturbed, and linted as unused) -------------------------

def _items(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]


def _pct(text: str):
    from decimal import Decimal

    return Decimal(text.rstrip("%"))


def test_an_input_read_only_by_a_derive_is_drawn_and_the_derived_input_follows(tmp_path):
    out = tmp_path / "items.jsonl"
    result = _perturb(out, "--ops", "metric", n="200")
    assert result.exit_code == 0, result.output
    items = _items(out)
    moved = [it for it in items if any(c["input"] == "dividend_growth_5y" for c in it["manifest"]["changes"])]
    assert moved, "no item moved the five-year dividend growth"
    for it in items:
        facts = it["scenario"]["facts"]
        assert _pct(facts["chowder_number"]) == _pct(facts["dividend_yield"]) + _pct(facts["dividend_growth_5y"])
    # growth alone moves the Chowder number across 12%: some item changes only growth and the verdict with it
    alone = [it for it in moved if {c["input"] for c in it["manifest"]["changes"]} == {"dividend_growth_5y",
                                                                                          "chowder_number"}]
    assert {it["investment_verdict"] for it in alone} == {"BUY", "PASS"}


def test_metric_and_flip_take_a_derive_only_input_by_name(tmp_path):
    out = tmp_path / "items.jsonl"
    result = _perturb(out, "--ops", "metric:dividend_growth_5y", n="10")
    assert result.exit_code == 0, result.output
    assert all({c["input"] for c in it["manifest"]["changes"]} == {"dividend_growth_5y", "chowder_number"}
               for it in _items(out))
    flip = tmp_path / "flip.jsonl"
    result = _perturb(flip, "--ops", "flip:dividend_growth_5y", "--allow-short", n="1")
    assert result.exit_code == 0, result.output
    (item,) = _items(flip)
    # by hand: yield 3% + growth 10% = 13% >= 12% BUY; growth 8.5% gives 11.5% < 12% PASS, 9% gives 12% BUY
    assert item["investment_verdict"] == "PASS"
    assert item["scenario"]["facts"]["dividend_growth_5y"] == "8.5%"


def test_check_does_not_call_an_input_read_by_a_derive_unused():
    result = invoke("check", str(CARD))
    assert result.exit_code == 0, result.output
    assert "unused-input" not in result.output and "dividend_growth_5y" not in result.output


# --- derive errors (bug kind: a wrong unit loads; a message suggests the name it refused) ---------------------------

DERIVE_ERRORS = [
    ("derive: chowder_number", "derive: dividend_cut_last_decade",
     "derives 'dividend_cut_last_decade', which is not a numeric input (it is a bool input; derive a number, "
     "ratio, money, multiple or year input)", "derive"),
    ("derive: chowder_number", "derive: chowder_num",
     "derives 'chowder_num', which is not a numeric input (no input has that name)", "derive"),
    ("value: dividend_yield + dividend_growth_5y", "value: $5M",
     "derives 'chowder_number' (ratio) from a value in money", "value"),
]


def test_derive_errors_name_the_field_and_say_what_is_wrong(tmp_path):
    for old, new, message, key in DERIVE_ERRORS:
        text = CARD.read_text(encoding="utf-8").replace(old, new)
        card = tmp_path / "card.yaml"
        card.write_text(text, encoding="utf-8")
        result = invoke("check", str(card))
        assert result.exit_code == 1, new
        line = next(i for i, t in enumerate(text.splitlines(), 1) if t.strip().startswith(new))
        column = text.splitlines()[line - 1].index(key) + len(key) + 3
        assert f"{card}:{line}:{column}:" in result.output, result.output
        assert message in result.output, result.output
        assert "did you mean 'dividend_cut_last_decade'" not in result.output


# --- the run summary of an L8 deck (bug kind: grammar) ---------------------------------------------------------------

def test_an_operator_skipped_for_two_cards_says_cards_have(tmp_path):
    out = tmp_path / "l8.jsonl"
    result = invoke("perturb", "--card", str(CARD), "--card", "graham_seven_tests_defensive", "--base",
                    str(HERE / "l8_utility_base.yaml"), "--n", "20", "--seed", "5", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert ("skipped temporal: cards weiss_dividend_growth_screen and graham_seven_tests_defensive have no regime "
            "gate") in result.output
    assert "graham_seven_tests_defensive has no regime gate" not in result.output


# --- a question sentence (bug kind: a quotient label left as written) -----------------------------------------------

def test_a_quotient_over_the_share_price_reads_as_a_ratio_and_a_span_does_not():
    from ipb.engine.card import load_card
    from ipb.perturb.render import input_label

    card = load_card(CARD)
    assert input_label(card.inputs["dividend_yield"]) == "ratio of annual dividend to the share price"
    spans = {"Earnings per share averaged over the latest three years.": "earnings per share averaged over the latest "
             "three years", "Annualised return of the strategy over the evaluation period.": "annualised return of "
             "the strategy over the evaluation period", "Dividends paid over a full cycle.": "dividends paid over a "
             "full cycle"}
    for description, label in spans.items():
        spec = card.inputs["dividend_yield"].__class__("x", "ratio", card.inputs["dividend_yield"].expr_type,
                                                       description)
        assert input_label(spec) == label


# --- stop 33 (s33user): run and explain say when the facts break the card's own constraints ----------------------

TEMPLETON = Path(__file__).resolve().parent / "perturb" / "cards" / "templeton_new_user.yaml"
TEMPLETON_BASE = Path(__file__).resolve().parent / "perturb" / "fixtures" / "templeton_new_user_base.yaml"


def test_run_warns_when_a_set_value_breaks_a_card_constraint():
    # $50 is above the $40 five-year high: price_at_or_below_five_year_high is broken; before, silence
    result = CliRunner().invoke(app, ["run", str(TEMPLETON), str(TEMPLETON_BASE), "--set", "share_price=$50",
                                      "--format", "json"])
    assert result.exit_code == 0, result.output
    warning = ("warning: scenario breaks constraint 'price_at_or_below_five_year_high' of card templeton_new_user "
               "(share_price <= five_year_high): five_year_high = $40, share_price = $50; The current price "
               "cannot exceed the highest price of the past five years. The trace reads these facts as given; "
               "ipb check reports such a scenario as an error and ipb perturb never states one.")
    assert warning in " ".join(result.stderr.split())
    grp = json.loads(result.stdout)                       # the JSON on standard output stays clean
    assert grp["investment_verdict"] == "PASS" and grp["verdict_trigger"] == "gate_2_reject"
    # explain says the same; a scenario that keeps every constraint gets no warning
    explained = CliRunner().invoke(app, ["explain", str(TEMPLETON), str(TEMPLETON_BASE), "--set", "share_price=$50"])
    assert "breaks constraint 'price_at_or_below_five_year_high'" in explained.stderr
    clean = CliRunner().invoke(app, ["run", str(TEMPLETON), str(TEMPLETON_BASE)])
    assert clean.exit_code == 0 and clean.stderr == ""


def test_an_operator_note_lists_three_cards_with_commas():
    # s33user's L8 deck: "cards templeton_... and graham_net_net_screen and klarman_... have no regime gate" before
    from types import SimpleNamespace

    from ipb.perturb.operators import _not_applicable
    frame = SimpleNamespace(card_ids=("templeton_new_user", "graham_net_net_screen", "klarman_deep_value_identification"))
    assert _not_applicable(frame, "has no regime gate").message == (
        "cards templeton_new_user, graham_net_net_screen and klarman_deep_value_identification have no regime gate")
    two = SimpleNamespace(card_ids=("a", "b"))
    assert _not_applicable(two, "names its sector").message == "cards a and b name their sector"
    one = SimpleNamespace(card_ids=("a",))
    assert _not_applicable(one, "has no regime gate").message == "card a has no regime gate"


def test_verify_prints_one_line_for_one_cause_whatever_the_excerpt(tmp_path):
    # items made before a question-wording change differ at another character and value in every record;
    # the report printed one line per record (some 900 lines for the new user's two files)
    out = tmp_path / "items.jsonl"
    made = invoke("perturb", "--card", str(TEMPLETON), "--base", str(TEMPLETON_BASE), "--n", "4", "--seed", "7",
                  "--out", str(out))
    assert made.exit_code == 0, made.output
    items = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    for item in items[:3]:
        item["question"] = item["question"].replace("The debt-to-equity ratio is", "The debt-to-equity ratio was")
    out.write_text("".join(json.dumps(i, sort_keys=True, separators=(",", ":")) + "\n" for i in items),
                   encoding="utf-8")
    result = invoke("verify", str(out))
    assert result.exit_code == 1
    differs = [line for line in result.stdout.splitlines() if "question: differs" in line]
    assert len(differs) == 1, result.stdout
    assert differs[0].startswith(f"{out}:1: record 1 (")
    assert "item says 'was " in differs[0]                       # the first record's own excerpt is shown
    assert differs[0].endswith("(and 2 more record(s) with the same problem: lines 2, 3)")
    assert "verified 1 of 4 item(s)" in result.stdout

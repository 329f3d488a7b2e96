"""Errors in cards and scenarios: message, rule and exact position (``ipb.engine.card``).

Every broken card is a file in ``cards/bad/`` whose first line says what is
wrong with it. The table gives, for each, the rule, a fragment of the message
(matched against ``str(error)``, which includes the "did you mean"), and the
1-based line and column the error must point to, counted by hand in the file
(an expression error points inside the expression: the column of the string's
first character plus the offset in the expression, plus one for an opening
quote).
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from ipb.engine.card import Card, load_card, load_card_text
from ipb.engine.graph import compile_card
from ipb.engine.scenario import load_scenario_text
from ipb.errors import ErrorGroup, IpbError

BAD = Path(__file__).parent / "cards" / "bad"
FRAMEWORKS = Path(__file__).parents[2] / "frameworks"
BUFFETT = FRAMEWORKS / "buffett_acquisition_checklist.yaml"


def card_errors(path: Path) -> list[IpbError]:
    """Every error reported for the card at ``path``: load, then compile."""
    try:
        compile_card(load_card(path))
    except ErrorGroup as group:
        return list(group.errors)
    except IpbError as error:  # the YAML pass raises its (first) error alone
        return [error]
    return []


CARD_ERRORS: list[tuple[str, str, str, int, int]] = [
    # (file in cards/bad, rule, message fragment, line, column)
    # -- names, types, units and category values in expressions
    ("unknown_input_name", "name", "unknown name 'revenue_retension'; it is neither a declared input nor a computed value (did you mean 'revenue_retention'?)", 17, 14),
    ("type_mismatch_category_vs_number", "type", "cannot compare 'sector' (category {software, banking}) with '3' (number) using '=='", 19, 43),
    ("unit_mismatch_money_vs_ratio", "unit", "cannot compare money with ratio: 'price' > 'revenue_retention'", 17, 13),
    # s40user: `reject: sector == banking` with the quotes left off: say it is a value and how to write it
    ("category_value_unquoted", "name", "unknown name 'banking'; it is a value of category input 'sector', and a value is a string: write it in quotes, \"banking\"", 18, 23),
    ("category_literal_not_allowed", "category", "'sofware' is not a value of 'sector'; allowed: software, banking (did you mean 'software'?)", 18, 24),
    # "revenue_retention >= >= 90%": the string opens at column 14, the second '>=' is at offset 21.
    ("syntax_error_in_quoted_expression", "syntax", "unexpected '>='; expected '('", 16, 36),
    # Third line of a '|' block: 6 spaces of indentation, 'prise' at offset 25 in that line.
    # a typo in a computed value is one error: no "'roa' is computed later ... move 'roa'" for each reader of
    # the value (its proceed, reject, elements, a later gate, a reentry), nor "names unknown value 'roa'"
    ("unknown_name_in_computed_value", "name", "unknown name 'net_incom'; it is neither a declared input nor a computed value (did you mean 'net_income'?)", 18, 12),
    # s42user: a constant that is no number is one error; before, each reader added "unknown name 'min_coverage'; it
    # is neither a declared input nor a computed value (did you mean 'interest_coverage'?)", though it was declared
    ("constant_not_a_number", "literal", "constant 'min_coverage' must be a number, not '3 x'", 14, 17),
    ("unknown_name_in_block_scalar", "name", "unknown name 'prise'; it is neither a declared input nor a computed value (did you mean 'price'?)", 22, 32),
    ("unknown_name_in_folded_scalar", "name", "unknown name 'prise'", 22, 32),  # the same, folded with '>-'
    ("value_from_later_gate", "order", "'premium' is computed by gate 'valuation', which runs after gate 'margin'", 17, 13),
    # -- gate ids and fields
    ("duplicate_gate_id", "duplicate-gate", "duplicate gate id 'moat' (gate 1 has it too)", 19, 9),
    ("unknown_field", "schema:additionalProperties", "unknown field 'rejct' in the card; expected one of: id, name", 16, 5),
    ("unknown_field", "schema:additionalProperties", "(did you mean 'reject'?)", 16, 5),
    # -- strict YAML
    ("duplicate_yaml_key", "duplicate-key", "duplicate key 'name': it is already defined on line 15 (column 5)", 17, 5),
    ("ambiguous_norway", "ambiguous-scalar", 'ambiguous scalar NO: YAML 1.1 reads it as a boolean and YAML 1.2 as a string; quote it ("NO")', 14, 18),
    ("ambiguous_leading_zero", "ambiguous-scalar", "ambiguous scalar 012: YAML 1.1 reads a leading zero as octal and YAML 1.2 as decimal; write 12", 12, 44),
    ("ambiguous_exponent", "ambiguous-scalar", 'ambiguous scalar 1e3: YAML 1.2 reads it as a number and YAML 1.1 as a string; write 1000, or quote it ("1e3")', 12, 35),
    ("ambiguous_bare_date", "ambiguous-scalar", 'ambiguous scalar 2009-03-01: YAML 1.1 reads it as a date and YAML 1.2 as a string; quote it ("2009-03-01")', 5, 14),
    # -- topology against structure
    ("threshold_m_is_not_gate_count", "topology", "gate_logic says 4 of 7 but the card has 5 gates", 6, 13),
    ("regime_dependent_on_linear", "topology", "gate_logic 'regime_dependent' does not fit topology_type 'linear_sequential'; it allows: conjunction, disjunction", 6, 13),
    ("classify_on_parallel", "topology", "gate 'regime' classifies a regime, which only a conditional_branch card may do (this card is parallel_threshold)", 20, 5),
    ("threshold_on_conjunction", "topology", "a 'threshold' block only applies to weighted_threshold_N_of_M, not 'conjunction'", 11, 1),
    # -- the decision graph
    ("unreachable_gate", "unreachable", "gate 'orphan' is unreachable: no sequence, branch or join leads to it", 25, 10),
    ("gate_without_criterion", "no-criterion", "gate 'empty_gate' has no criterion: give it a 'proceed' or a 'reject'", 19, 9),
    ("branch_cycle", "cycle", "the gates form a cycle (alpha -> beta -> alpha); only a declared 'reentry' with max_iterations may loop", 23, 10),
    ("reentry_forward", "reentry", "re-entry from 'first' must loop back to an earlier gate, not 'second'", 17, 19),
    ("branch_unknown_gate", "branch", "branch 'low' names unknown gate 'smal' (did you mean 'small'?)", 21, 26),
    # -- how a question shows category values (issue 18: value_labels); a label for no value, or two values shown
    # alike (whitespace and case do not tell them apart), could not be read back from a question
    ("value_labels_unknown_value", "input", "value_labels of 'sector' names 'sofware', which is not one of its values; "
     "did you mean 'software'?", 16, 7),
    ("value_labels_shown_alike", "input", "value_labels of 'issuer' shows 'berkshire_class_b' as 'berkshire hathaway', "
     "as it shows 'berkshire_hathaway'", 17, 26),
    # -- the final-verdict vocabulary (issue 13: verdict_synonyms)
    ("verdict_synonym_unknown_outcome", "verdict-synonym",
     "verdict_synonyms names 'REPURCHSE', which is not an outcome of this card; outcomes: REPURCHASE, NO_REPURCHASE, INCONCLUSIVE "
     "(did you mean 'REPURCHASE'?)", 13, 3),
    ("verdict_synonym_two_outcomes", "verdict-synonym", "verdict synonym 'green-light' is listed for both REPURCHASE and NO_REPURCHASE", 14, 31),
]


@pytest.mark.parametrize(
    "name, rule, fragment, line, column",
    CARD_ERRORS,
    ids=[f"{c[0]}-{c[1]}" if [d[0] for d in CARD_ERRORS].count(c[0]) > 1 else c[0] for c in CARD_ERRORS],
)
def test_card_error(name: str, rule: str, fragment: str, line: int, column: int) -> None:
    path = BAD / f"{name}.yaml"
    errors = card_errors(path)
    assert len(errors) == 1, [str(e) for e in errors]
    (error,) = errors
    assert fragment in str(error)
    assert error.rule == rule
    assert (error.file, error.line, error.column) == (str(path), line, column)
    # The caret is drawn under the reported column of the offending line.
    assert error.source_line == path.read_text(encoding="utf-8").splitlines()[line - 1]
    assert error.render().splitlines()[-1] == "    " + " " * (column - 1) + "^"


def test_every_bad_card_is_in_a_table() -> None:
    tabled = {c[0] for c in CARD_ERRORS} | {"many_errors", "yaml_two_errors", "negative_weight", "duplicate_computed_value"}
    assert {p.stem for p in BAD.glob("*.yaml")} == tabled


def test_every_error_in_a_card_is_reported() -> None:
    """Collect, do not stop at the first: five errors in five different gates and fields."""
    errors = card_errors(BAD / "many_errors.yaml")
    assert [(e.rule, e.line, e.column) for e in errors] == [
        ("name", 21, 14),  # proceed: prices > $1B
        ("category", 26, 40),  # when: sector == "tech"
        ("branch", 30, 32),  # other: {gates: [quality, valuation]}
        ("unit", 34, 14),  # proceed: margin > price
        ("duplicate-gate", 36, 9),  # - id: quality (again)
    ]
    assert errors[0].suggestion == "price"
    assert all(e.file == str(BAD / "many_errors.yaml") for e in errors)


def test_every_yaml_error_in_a_card_is_reported() -> None:
    """Regression (first-error-only): the strict-YAML pass collects too."""
    errors = card_errors(BAD / "yaml_two_errors.yaml")
    assert [(e.rule, e.line, e.column) for e in errors] == [
        ("ambiguous-scalar", 12, 37),  # values: [yes, "no"]
        ("duplicate-key", 18, 5),  # required_elements, twice
    ]


def test_negative_weight_is_refused() -> None:
    errors = card_errors(BAD / "negative_weight.yaml")
    assert [(e.line, e.column) for e in errors] == [(28, 13)]  # weight: -1


def test_value_computed_twice_is_refused() -> None:
    errors = card_errors(BAD / "duplicate_computed_value.yaml")
    assert [(e.line, e.column) for e in errors] == [(23, 15)]  # compute: {score: ...} in gate 'second'


def test_errors_from_text_carry_the_given_file_name() -> None:
    text = (BAD / "unknown_input_name.yaml").read_text(encoding="utf-8")
    with pytest.raises(ErrorGroup) as info:
        load_card_text(text, "my_card.yaml")
    (error,) = info.value.errors
    assert (error.file, error.line, error.column, error.name) == ("my_card.yaml", 17, 14, "revenue_retension")
    assert str(error).startswith("my_card.yaml:17:14: compile error: unknown name 'revenue_retension'")


# --------------------------------------------------------------------------- scenarios

SCENARIO_ERRORS: list[tuple[str, str, str, str, int, int]] = [
    # (id, scenario text for the Buffett card, rule, message fragment, line, column)
    (
        "unknown-fact-name",
        "id: S-1\ncard: buffett_acquisition_checklist\nfacts:\n  revenue_retension: 95%\n",
        "fact-name",
        "'revenue_retension' is not an input of card buffett_acquisition_checklist (did you mean 'revenue_retention'?)",
        4,
        3,
    ),
    (
        "category-value-not-allowed",
        "facts:\n  business_model: saas_software\n",
        "fact-category",
        "'saas_software' is not an allowed value of business_model; allowed: subscription_software,",
        2,
        19,
    ),
    (
        "money-for-a-ratio",
        "facts:\n  gross_margin: 90%\n  revenue_retention: $5B\n",
        "fact-unit",
        "revenue_retention is a ratio, but '$5B' is written as money",
        3,
        22,
    ),
    (
        "percentage-written-as-a-number",
        "facts:\n  revenue_retention: 95\n",
        "fact-unit",
        "revenue_retention is a ratio (0.95 means 95%); 95 looks like a percentage: write 95% instead",
        2,
        22,
    ),
    (
        "wrong-card-id",
        "id: S-1\ncard: graham_net_net\nfacts:\n  arr: $5B\n",
        "card",
        "this scenario is for card 'graham_net_net', not 'buffett_acquisition_checklist'",
        2,
        7,
    ),
    (
        "bool-for-a-number",
        "facts:\n  arr: true\n",
        "fact-type",
        "is a bool",
        2,
        8,
    ),
]


@pytest.fixture(scope="module")
def buffett() -> Card:
    return load_card(BUFFETT)


@pytest.mark.parametrize(
    "text, rule, fragment, line, column",
    [c[1:] for c in SCENARIO_ERRORS],
    ids=[c[0] for c in SCENARIO_ERRORS],
)
def test_scenario_error(buffett: Card, text: str, rule: str, fragment: str, line: int, column: int) -> None:
    with pytest.raises(ErrorGroup) as info:
        load_scenario_text(text, buffett, "scenario.yaml")
    (error,) = info.value.errors
    assert fragment in str(error)
    assert error.rule == rule
    assert (error.file, error.line, error.column) == ("scenario.yaml", line, column)


def test_every_error_in_a_scenario_is_reported(buffett: Card) -> None:
    text = (
        "id: S-1\n"
        "card: graham_net_net\n"
        "facts:\n"
        "  revenue_retension: 95%\n"
        "  business_model: saas_software\n"
        "  gross_margin: $5B\n"
        "  revenue_retention: 95\n"
        "  management_record: mixed\n"
    )
    with pytest.raises(ErrorGroup) as info:
        load_scenario_text(text, buffett, "scenario.yaml")
    assert [(e.rule, e.line, e.column) for e in info.value.errors] == [
        ("card", 2, 7),
        ("fact-name", 4, 3),
        ("fact-category", 5, 19),
        ("fact-unit", 6, 17),
        ("fact-unit", 7, 22),
    ]


def test_every_yaml_error_in_a_scenario_is_reported(buffett: Card) -> None:
    text = "facts:\n  revenue_retention: 95%\n  listed: yes\n  revenue_retention: 90%\n"
    with pytest.raises(ErrorGroup) as info:
        load_scenario_text(text, buffett, "scenario.yaml")
    assert [(e.rule, e.line, e.column) for e in info.value.errors] == [
        ("ambiguous-scalar", 3, 11),
        ("duplicate-key", 4, 3),
    ]


def test_scenario_values_are_converted(buffett: Card) -> None:
    scenario = load_scenario_text(
        "facts:\n  revenue_retention: 95%\n  arr: $1.25B\n  ev_to_arr: 10x\n  gross_margin: 0.9\n"
        "  management_record: null\n  business_model: consumer_brand\n",
        buffett,
    )
    assert scenario.facts == {
        "revenue_retention": Decimal("0.95"),
        "arr": Decimal("1250000000"),
        "ev_to_arr": Decimal(10),
        "gross_margin": Decimal("0.9"),
        "business_model": "consumer_brand",
    }


@pytest.mark.parametrize("written, bare", [("12 years", "12"), ("1 year", "1")])
def test_a_fact_that_repeats_its_inputs_unit_is_told_to_write_the_number_alone(written: str, bare: str) -> None:
    """A new user (stop 32) wrote ``operating_years: 25 years`` for an input with ``unit: years`` and got only
    "unexpected ' '"; the error now names the unit and suggests the bare number, at the fact."""
    card = load_card(FRAMEWORKS / "graham_seven_tests_defensive.yaml")  # dividend_years: number, unit years
    with pytest.raises(ErrorGroup) as info:
        load_scenario_text(f"facts:\n  dividend_years: {written}\n", card, "scenario.yaml")
    (error,) = info.value.errors
    assert "(it is a number input in years: write the number alone)" in str(error)
    assert error.suggestion == bare and error.rule == "fact-type"
    assert (error.file, error.line, error.column) == ("scenario.yaml", 2, 19)


def test_a_fact_with_another_word_after_the_number_gets_no_suggestion() -> None:
    card = load_card(FRAMEWORKS / "graham_seven_tests_defensive.yaml")
    with pytest.raises(ErrorGroup) as info:
        load_scenario_text("facts:\n  dividend_years: 12 quarters\n", card, "scenario.yaml")
    (error,) = info.value.errors
    assert error.suggestion is None and "write the number alone" not in str(error)

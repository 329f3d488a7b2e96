"""Labels that name several gates, numbered lenses, and short labels two gates share (issue 13, gate references).

Answers written for these tests (never corpus copies); every expected reading
was worked by hand against the bundled card named beside each constant.
"""

from __future__ import annotations

from ipb.scoring.parse import parse_response
from parse_support import read_gates as _read

SEVEN = "graham_seven_tests_defensive"  # 1 size, 2 financial condition, 3 earnings stability, 4 dividends, 5 growth, 6 P/E, 7 P/B
LENSES = "munger_opportunity_evaluation"  # 1 economics, 2 psychology, 3 mathematics, 4 history and inversion, 5 biology lens
BUYBACK = "buffett_share_repurchase"  # 1 ample funds, 2 price below intrinsic value, 3 published price limit, 4 purpose
MACHINE = "dalio_economic_machine_positioning"  # 1 growth vs expectations, 2 inflation vs expectations, 3 debt cycle, 4 quadrant, 5 tilt
CPPIB = "cppib_total_portfolio_active_strategy"  # 1 value added, 2 factor substitutability, 3 alpha net of costs, 4 risk budget


# ---------------------------------------------------------------- grouped labels


def test_a_label_naming_two_gates_gives_both_its_verdict_in_its_place() -> None:
    text = ("Tests 3 and 4: PROCEED. Ten years of profits without a loss, and dividends paid since 1962.\n"
            "Test 5: REJECT. EPS grew 18% over the decade, short of a third.\n"
            "Test 6: PROCEED. 13x average earnings.\n\n"
            "Test 4, once more: the 2020 dividend was suspended for a quarter. Still PROCEED.\n\n"
            "DECLINE.")
    assert _read(text, SEVEN) == [(3, "PROCEED"), (4, "PROCEED"), (5, "REJECT"), (6, "PROCEED")]


def test_gate_and_gate_label_shares_a_verdict_a_later_sentence_gives() -> None:
    text = ("Gate 1: the company had $3.1bn of sales. PROCEED.\n"
            "Gate 2 and gate 3: current ratio 2.4 and earnings positive every year. Both PROCEED.\n"
            "Gate 4: dividends paid for 31 years. PROCEED.\n\n"
            "So far so good.")
    assert _read(text, SEVEN) == [(1, "PROCEED"), (2, "PROCEED"), (3, "PROCEED"), (4, "PROCEED")]


def test_a_verdict_tied_to_one_gate_of_a_grouped_label_stays_with_it() -> None:
    text = ("Gate 1: $5bn of sales. PROCEED.\n"
            "Gates 6 and 7: gate 6 is REJECT at 21x earnings; gate 7 is PROCEED at 1.1x book.\n\n"
            "DECLINE.")
    assert _read(text, SEVEN) == [(1, "PROCEED"), (6, "REJECT"), (7, "PROCEED")]


def test_a_gate_named_later_in_a_label_sentence_is_no_group() -> None:
    text = ("Gate 1: sales of $2bn, comfortably large (see gate 5 for growth). PROCEED.\n"
            "Gate 2: current ratio 2.2. PROCEED.\n\n"
            "INVEST.")
    assert _read(text, SEVEN) == [(1, "PROCEED"), (2, "PROCEED")]


# ---------------------------------------------------------------- numbered lenses, conditions, questions


def test_lens_numbers_name_the_cards_lenses() -> None:
    text = ("Lens 1: PROCEED, returns on capital near 30%.\n"
            "Lenses 2 and 3: both PROCEED; incentives are clean and the odds favour us.\n"
            "Lens 4: REJECT, one customer is half of revenue.\n\n"
            "DECLINE.")
    assert _read(text, LENSES) == [(1, "PROCEED"), (2, "PROCEED"), (3, "PROCEED"), (4, "REJECT")]


def test_a_question_number_past_the_card_is_no_invented_gate() -> None:
    text = ("Gate 1: PROCEED, the economics are excellent.\n"
            "Gate 2: PROCEED, no bias that we can see.\n"
            "Reader question 12 asked about the dividend; it does not bear on the lenses.\n\n"
            "INVEST.")
    result = parse_response(text, LENSES, embedder=False)
    assert [g.gate for g in result.gates] == [1, 2]
    assert result.invented_gates == []


# ---------------------------------------------------------------- a short label two gates share


def test_a_shared_label_is_the_gate_no_other_label_names() -> None:
    # "Price" is in gate 2's name and gate 3's name; "Limit" names gate 3, so "Price" is gate 2
    text = ("Funds: $9bn of cash against a $2bn reserve. PROCEED.\n\n"
            "Price: $40 a share against a conservative $55 of value. PROCEED.\n\n"
            "Limit: no published ceiling applies to this company. PROCEED.\n\n"
            "Purpose: to raise value per share for owners who stay. PROCEED.\n\n"
            "REPURCHASE.")
    assert _read(text, BUYBACK) == [(1, "PROCEED"), (2, "PROCEED"), (3, "PROCEED"), (4, "PROCEED")]


def test_an_opening_ordinal_picks_among_the_gates_a_label_fits() -> None:
    text = ("First, funds: $4bn spare after every project. PROCEED.\n"
            "Second, price: 0.8x a conservative value. PROCEED.\n\n"
            "Both hold; the rest later.")
    assert _read(text, BUYBACK) == [(1, "PROCEED"), (2, "PROCEED")]


def test_a_shared_label_both_of_whose_gates_are_free_stays_unread() -> None:
    # "Growth" fits gate 1 (growth vs expectations) and gate 4 (growth-inflation quadrant); no other label settles it
    text = ("**Growth:** running 1% above what markets discount. PROCEED.\n"
            "**Credit:** the impulse is positive. PROCEED.\n\n"
            "TILT.")
    assert [g for g, _ in _read(text, MACHINE)] == [3]


def test_bold_labels_settle_shared_words_by_elimination() -> None:
    text = ("**Growth:** +0.8pp above consensus, rising. PROCEED.\n"
            "**Inflation:** -0.4pp under breakevens, falling. PROCEED.\n"
            "**Credit:** impulse +1% of GDP, confirms. PROCEED.\n"
            "**Quadrant:** disinflationary growth. PROCEED.\n")
    assert [g for g, _ in _read(text, MACHINE)] == [1, 2, 3, 4]


def test_a_label_whose_value_is_an_outcome_is_the_final_verdict_not_a_gate() -> None:
    # "Positioning" is a word of gate 2's name ("Phase Positioning Test"); its value is the card's outcome word
    text = ("Phase: debt is falling against incomes and rates sit at the floor: a deleveraging. Gate 1: PROCEED.\n\n"
            "Nominal growth of 1% is below the 2% bond yield, an ugly deleveraging. Gate 2: REJECT.\n\n"
            "Positioning: STAY_DEFENSIVE.")
    result = parse_response(text, "dalio_debt_supercycle_navigation", embedder=False)
    assert [(g.gate, g.verdict) for g in result.gates] == [(1, "PROCEED"), (2, "REJECT")]
    assert result.final_verdict == "STAY_DEFENSIVE"
    assert "Nominal growth" in text[slice(*result.gates[1].span)]


# ---------------------------------------------------------------- an alias without its frame word, an inflected alias


def test_a_label_that_is_an_alias_less_its_frame_word_names_the_gate() -> None:
    # "P/E" is the alias "P/E test" and "P/B" the alias "P/B test": words too short to count as content words
    text = ("Size: sales $2.5bn. PASS\n"
            "P/E: 19x three-year earnings. FAIL\n"
            "P/B: 1.3x, product 24.7. FAIL\n\n"
            "Verdict: decline.")
    assert _read(text, SEVEN) == [(1, "PROCEED"), (6, "REJECT"), (7, "REJECT")]


def test_a_frame_free_alias_that_is_a_word_of_another_gates_name_settles_nothing() -> None:
    # "phase test" less "test" is "phase", a word of gate 1's name ("Long-Term Debt Cycle Phase") too
    from ipb.scoring.parse._card import _index
    from ipb.scoring.parse._label_names import _trimmed_names
    from ipb.engine.registry import compiled_card

    table = _trimmed_names(_index(compiled_card("dalio_debt_supercycle_navigation").card))
    assert "phase" not in table
    seven = _trimmed_names(_index(compiled_card(SEVEN).card))
    assert seven["p e"] == frozenset({6}) and seven["p b"] == frozenset({7})


def test_an_alias_with_an_inflected_inner_word_is_still_the_alias() -> None:
    # the alias is "lean against the pendulum"; the writer says "leans"
    text = ("Spreads are wide, investors are fearful and credit is shut: the temperature reading is cold. PROCEED.\n\n"
            "Buying loans at 65 cents leans against the pendulum. PROCEED.\n\n"
            "Outcome: AGGRESSIVE.")
    assert [g for g, _ in _read(text, "marks_market_cycle_positioning")] == [1, 2]


# ---------------------------------------------------------------- gates named together in prose and labels

IV = "graham_intrinsic_value_margin_of_safety"  # 1 normal earnings, 2 growth estimate, 3 Graham formula value, 4 margin of safety


def test_a_list_of_name_parts_before_a_plural_criterion_word_names_each_gate() -> None:
    text = ("Normal earnings over ten years are negative, ($0.25) a share, so the first step is a REJECT and the growth, "
            "formula and margin-of-safety steps do not apply.\n\nDECLINE.")
    assert _read(text, IV) == [(1, "REJECT"), (2, "N/A"), (3, "N/A"), (4, "N/A")]


def test_a_list_with_a_part_that_names_no_single_gate_names_none() -> None:
    # "sales" is a word of no gate of this card, so the list names neither "formula" (gate 3) nor "growth" (gate 2)
    text = ("Normal earnings are $2.10 a share, a clean base: PROCEED.\n"
            "The sales, formula and growth steps do not apply to this holding company.\n\nINCONCLUSIVE.")
    assert _read(text, IV) == [(1, "PROCEED")]


def test_a_label_joining_two_gates_parts_names_both() -> None:
    text = ("Value added: +2.4% a year over the risk-equivalent benchmark. PROCEED.\n\n"
            "Factor substitutability: no factor regression was supplied. INCONCLUSIVE.\n\n"
            "Net of costs and risk budget: not meaningful until the attribution is in.\n\n"
            "INCONCLUSIVE.")
    assert _read(text, CPPIB) == [(1, "PROCEED"), (2, "INCONCLUSIVE"), (3, "N/A"), (4, "N/A")]


def test_the_first_two_steps_name_the_cards_first_two_gates() -> None:
    text = ("The first two tests pass: sales of $4bn and a current ratio of 2.3.\n"
            "Test 3: PROCEED, no deficit in ten years.\n\nSo far INVEST-worthy.")
    assert _read(text, SEVEN) == [(1, "PROCEED"), (2, "PROCEED"), (3, "PROCEED")]


def test_the_last_two_checks_name_the_cards_last_two_gates() -> None:
    text = ("Gate 1: $3bn of sales. PROCEED.\n"
            "The last two checks fail: 22x earnings and 2.4x book.\n\nDECLINE.")
    assert _read(text, SEVEN) == [(1, "PROCEED"), (6, "REJECT"), (7, "REJECT")]


def test_a_rule_about_the_first_tests_is_no_reading() -> None:
    text = ("Gate 1: $3bn of sales. PROCEED.\n"
            "A stock must pass the first three tests before price matters.\n\nINCONCLUSIVE.")
    assert [g for g, _ in _read(text, SEVEN)] == [1]


# ---------------------------------------------------------------- labels in the words of one gate's substance

MUNGER = "munger_business_quality_price"  # 1 understandable, 2 return on capital, 3 durable advantage, 4 management, 5 fair price


def test_a_label_in_the_words_of_one_gates_description_names_it() -> None:
    text = ("**Can we understand it?** A toll road: cars in, fees out. PROCEED.\n\n"
            "**Returns on capital.** 28% on tangible capital for a decade. PROCEED.\n\n"
            "**Price.** 35x owner earnings; the expected return is 5%. REJECT.\n\n"
            "DECLINE.")
    result = parse_response(text, MUNGER, embedder=False)
    assert [(g.gate, g.verdict) for g in result.gates] == [(1, "PROCEED"), (2, "PROCEED"), (5, "REJECT")]
    assert result.invented_gates == []
    assert result.gates[0].how == "vocabulary"


def test_a_label_of_words_no_gate_owns_stays_an_invented_gate() -> None:
    text = ("**Dividend yield.** 1.1%, below what we like. REJECT.\n\n"
            "**Returns on capital.** 28% on tangible capital. PROCEED.\n\n"
            "DECLINE.")
    result = parse_response(text, MUNGER, embedder=False)
    assert [g.gate for g in result.gates] == [2]
    assert result.invented_gates == ["Dividend yield."] or result.invented_gates == ["Dividend yield"]


def test_a_sentence_opening_is_not_read_as_a_label_by_its_words() -> None:
    # a long clause before a colon is a sentence, however many of the gate's words it holds
    text = ("Returns on capital are 30%, PROCEED.\n"
            "The chain pays recruiters by enrolment headcount, which tells you about management: REJECT.\n\n"
            "DECLINE.")
    result = parse_response(text, MUNGER, embedder=False)
    assert all(g.how != "vocabulary" for g in result.gates)


def test_a_gate_already_named_is_not_taken_again_by_a_meaning_label() -> None:
    text = ("**Circle of competence:** simple retail banking. PROCEED.\n\n"
            "**Understanding the risks:** deposits are sticky. PROCEED.\n\n"
            "INVEST.")
    result = parse_response(text, MUNGER, embedder=False)
    assert [g.gate for g in result.gates] == [1]


def test_the_vocabulary_rule_reads_labels_before_the_embedder() -> None:
    # Until s24embed the rule ran only without an embedder, so the default configuration (embedder on) read less than
    # the measured one (off); now it runs in both, before the embedder, and a label it reads keeps that reading.
    class _Far:
        """An embedder that puts every text at the same spot: nothing is near any gate."""

        def encode(self, texts):  # noqa: ANN001, ANN201 - sentence-transformers' signature
            import numpy as np

            return np.ones((len(texts), 4))

    text = ("**Can we understand it?** A toll road: cars in, fees out. PROCEED.\n\n"
            "**Returns on capital.** 28% on tangible capital for a decade. PROCEED.\n\nINVEST.")
    result = parse_response(text, MUNGER, embedder=_Far())
    off = parse_response(text, MUNGER, embedder=False)
    assert [(g.gate, g.verdict, g.how) for g in result.gates] == [(g.gate, g.verdict, g.how) for g in off.gates]
    assert [g.how for g in result.gates][:1] == ["vocabulary"]


def test_distinctive_vocabulary_holds_no_stem_two_gates_share() -> None:
    from ipb.engine.registry import compiled_card
    from ipb.scoring.parse._vocabulary import distinctive_vocabulary

    table = distinctive_vocabulary(compiled_card(MUNGER).card)
    for a, stems in table.items():
        for b, other in table.items():
            assert a == b or not stems & other
    from ipb.scoring.parse._vocabulary import title_stems

    assert title_stems("understand") <= table[1] and title_stems("management") <= table[4]
    # "balanced" and "balance" are one key ("Risk balanced across environments" is the risk-parity gate)
    assert title_stems("balanced") == title_stems("balance")


# ---------------------------------------------------------------- a worded item in a list that follows the card


def test_a_worded_item_whose_words_fit_its_numbers_gate_is_that_gate() -> None:
    # item 1's title shares "risk" with gate 1's risk-equivalent benchmark; items 2 and 4 name their own gates
    text = ("1. Risk-adjusted performance: 9.1% against 7.6% for the benchmark mix, +1.5%. PROCEED.\n"
            "2. Factor attribution: residual alpha 1.1% with a t-statistic of 2.6. PROCEED.\n"
            "3. Net of costs: 0.6% after fees. PROCEED.\n"
            "4. Risk budget: 0.3 points of 0.8 used. PROCEED.\n\n"
            "ALLOCATE_ACTIVE.")
    result = parse_response(text, CPPIB, embedder=False)
    assert [g.gate for g in result.gates] == [1, 2, 3, 4]
    assert result.invented_gates == []


def test_a_worded_item_whose_words_fit_no_part_of_its_numbers_gate_stays_invented() -> None:
    text = ("1. Circle of Competence: PASS\n"
            "2. Carbon footprint: FAIL\n"
            "3. Management Integrity: PASS\n")
    result = parse_response(text, "buffett_acquisition_checklist", embedder=False)
    assert [g.gate for g in result.gates] == [1, 3]
    assert result.invented_gates == ["Carbon footprint"]


# ---------------------------------------------------------------- prose before a revisiting label

DOWNSIDE = "klarman_downside_first_process"  # 1 downside assessment, 2 margin of safety, 3 position sizing


def test_a_gate_judged_in_prose_before_its_revisiting_label_keeps_its_first_place() -> None:
    text = ("What can go wrong? If the contract is lost the bad-case value is $30 against a $33 price,\n"
            "a 9% loss we can live with, so PROCEED.\n\n"
            "Bargain purchase? $33 against a conservative $52 is 63%. PROCEED.\n\n"
            "Sizing the bet: at 8% of the fund the bad case costs 0.7%, under the 2% budget. PROCEED.\n\n"
            "The worst case, once more: a second customer leaving takes the value to $29; still fine.\n\n"
            "INVEST.")
    assert _read(text, DOWNSIDE) == [(1, "PROCEED"), (2, "PROCEED"), (3, "PROCEED")]


def test_a_summary_line_before_the_labels_does_not_fix_the_order() -> None:
    text = ("Scorecard: P/E ok, Financial strength ✓, Size ✓\n\n"
            "1. Adequate size of the enterprise: sales of $1.8bn. PROCEED.\n"
            "2. Financial condition: current ratio 2.3. PROCEED.\n"
            "3. Earnings stability: a loss in 2019. REJECT.\n\n"
            "Final verdict: DECLINE.")
    assert [g for g, _ in _read(text, SEVEN)] == [1, 2, 3]


def test_the_sentences_after_a_gate_named_in_prose_carry_its_verdict() -> None:
    text = ("Sizing the bet: 5% of the fund, a bad case of 0.4%. PROCEED.\n"
            "Downside assessment: the bad case is a 10% loss. PROCEED.\n\n"
            "Bargain purchase? The price is $20.\n"
            "Against a conservative $35 that is 57%. PROCEED.\n\n"
            "INVEST.")
    assert _read(text, DOWNSIDE) == [(3, "PROCEED"), (1, "PROCEED"), (2, "PROCEED")]


def test_a_computation_label_is_no_invented_gate() -> None:
    text = ("Gate 1: sales of $2bn. PROCEED.\n"
            "**Current assets = $900M against $400M of liabilities**: PROCEED, a ratio of 2.25.\n"
            "Gate 3: ten years of profits. PROCEED.\n\nINVEST.")
    result = parse_response(text, SEVEN, embedder=False)
    assert result.invented_gates == []

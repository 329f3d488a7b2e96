"""Regression for the s34read review's must-fix findings on the positional reader (issue 13; paper §7.5;
``scoring/parse/_positional.py``, ``scoring/parse/_run_subjects.py``).

Every text was written for these tests; each expected reading was worked by hand against the bundled card named.
Item titles are in Italian or German so that only an item's position can tell its gate.
"""

from __future__ import annotations

import pytest

from ipb.scoring.parse import parse_response
from ipb.scoring.parse._run_subjects import names_no_criteria, subject_title
from parse_support import read_gates

BUYBACK = "buffett_share_repurchase"  # 1 ample funds, 2 price below intrinsic value, 3 published price limit, 4 purpose
NET_NET = "graham_net_net_screen"  # 1 price at most 2/3 of NCAV, 2 current assets not dissipated by losses


def _positional(text: str, card: str) -> list[int]:
    return [g.gate for g in parse_response(text, card, embedder=False).gates if "position" in (g.how or "")]


# ---------------------------------------------------------------- must-fix 1: bullets nested under numbered items


def test_bullets_nested_under_the_first_numbered_item_are_its_details_not_the_gates() -> None:
    # before: the numbered run broke at item 2 and the four nested PASS bullets were read as gates 1-4, PROCEED x4
    text = ("1. Liquidit\u00e0 disponibile \u2014 FAIL\n   - cassa: PASS\n   - debito: PASS\n   - flussi: PASS\n"
            "   - riserve: PASS\n2. Sconto sul valore \u2014 FAIL\n3. Tetto pubblicato \u2014 FAIL\n"
            "4. Chi ne trae vantaggio \u2014 FAIL\n")
    assert read_gates(text, BUYBACK) == [(1, "REJECT"), (2, "REJECT"), (3, "REJECT"), (4, "REJECT")]


def test_one_nested_detail_bullet_per_numbered_item_keeps_the_run() -> None:
    # before: no gate at all (a parse failure): every detail bullet broke the numbered run
    text = ("1. Liquidit\u00e0 disponibile \u2014 PASS\n   - Cassa netta 2,1 mld.\n"
            "2. Sconto sul valore \u2014 FAIL\n   - 20 volte gli utili.\n"
            "3. Tetto pubblicato \u2014 FAIL\n   - Nessun tetto.\n"
            "4. Chi ne trae vantaggio \u2014 PASS\n   - Azioni in calo del 3%.\n")
    assert read_gates(text, BUYBACK) == [(1, "PROCEED"), (2, "REJECT"), (3, "REJECT"), (4, "PROCEED")]


# ---------------------------------------------------------------- must-fix 2: lists that are no checklists


def test_a_sources_list_on_a_two_gate_card_is_no_gate() -> None:
    # before: gate 1 (no verdict) and gate 2 REJECT ("failed") read by position from two citations
    text = ("Das Papier notiert bei der H\u00e4lfte des Nettoumlaufverm\u00f6gens.\n\n"
            "Sources:\n- 10-K 2023, p. 41\n- Management letter (the plan failed in 2019)\n")
    assert _positional(text, NET_NET) == []


def test_a_pro_and_con_pair_is_no_gate() -> None:
    text = ("Das Papier notiert bei der H\u00e4lfte des Nettoumlaufverm\u00f6gens.\n\n"
            "- Pro: management passed on a costly deal\n- Con: the founder failed to sell the plant\n")
    assert _positional(text, NET_NET) == []


def test_a_table_of_four_tickers_marked_pass_or_fail_is_no_walk_through_the_gates() -> None:
    # an L8 answer about four stocks: before, rows 1-4 were read as gates 1-4 (PROCEED, REJECT, REJECT, PROCEED)
    text = "| Titel | Urteil |\n|---|---|\n| AAPL | PASS |\n| KO | FAIL |\n| IBM | FAIL |\n| WMT | PASS |\n"
    assert _positional(text, BUYBACK) == []


def test_a_list_under_a_peers_heading_is_no_walk_through_the_gates() -> None:
    text = ("### Peers\n\n- Liquidit\u00e0 ampia: PASS\n- Sconto forte: FAIL\n- Tetto chiaro: FAIL\n"
            "- Vantaggio netto: PASS\n")
    assert _positional(text, BUYBACK) == []


def test_a_two_gate_list_needs_a_verdict_in_both_items() -> None:
    assert _positional("- Prezzo: 0,5 volte il capitale circolante netto\n- Perdite: FAIL, il capitale cala\n",
                       NET_NET) == []
    assert read_gates("- Prezzo: PASS, 0,5 volte il capitale circolante netto\n- Perdite: FAIL, il capitale cala\n",
                      NET_NET) == [(1, "PROCEED"), (2, "REJECT")]


def test_what_a_lead_in_and_a_title_name() -> None:
    assert [names_no_criteria(t) for t in ("Sources:", "**Pros and cons**", "Peer group:", "The checklist:")] == [
        True, True, True, False]
    assert [subject_title(t) for t in ("$KO", "Nestl\u00e9 SA", "Bear case", "ROIC", "P/E", "Sconto", "A")] == [
        True, True, True, False, False, False, False]


# ---------------------------------------------------------------- must-fix 4: the last gate's own conclusion


def _buyback_sections(verdicts: list[str], close: str) -> str:
    """Four gate sections under short English headings, each with a Chinese verdict and a reason, then ``close``."""
    heads = ["Ample Funds", "Price Below Intrinsic Value", "Published Price Limit", "Purpose"]
    notes = ["现金充足。", "价格低于内在价值。", "公布了价格上限。", "股数减少。"]  # ample cash; below value; a cap; fewer shares
    return "\n\n".join(f"### {h}\n{v}。{n}" for h, v, n in zip(heads, verdicts, notes)) + "\n\n" + close


@pytest.mark.parametrize("close", ["结论：通过", "Ergebnis: erfüllt", "Conclusión: cumple"])
def test_the_last_gates_own_conclusion_paragraph_is_no_final_verdict(close: str) -> None:
    # before: the Purpose section's "conclusion: passes" (a paragraph of its own) was the answer's close: REPURCHASE
    result = parse_response(_buyback_sections(["通过", "不通过", "通过", "通过"], close), BUYBACK, embedder=False)
    assert [(g.gate, g.verdict) for g in result.gates] == [(1, "PROCEED"), (2, "REJECT"), (3, "PROCEED"), (4, "PROCEED")]
    assert result.final_verdict is None
    assert parse_response(_buyback_sections(["通过"] * 4, close), BUYBACK, embedder=False).final_verdict is None


@pytest.mark.parametrize("close, want", [
    ("结论：不买。", "NO_REPURCHASE"),  # conclusion: not buying
    ("结论：买入。", "REPURCHASE"),  # conclusion: buy
    ("结论：通过，建议回购。", "REPURCHASE"),  # conclusion: passes, a buyback is recommended
])
def test_a_closing_paragraph_with_an_outcome_stays_the_answers_close(close: str, want: str) -> None:
    assert parse_response(_buyback_sections(["通过", "不通过", "通过", "通过"], close), BUYBACK,
                          embedder=False).final_verdict == want

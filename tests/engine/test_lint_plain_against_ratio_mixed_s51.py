"""``ipb check`` warns on a ratio plus a plain term compared with a ratio, and says where the 100% goes (s51user).

The new user's Bogle fund-cost card (tests/fixtures/new_user51) computes ``all_in_cost: expense_ratio + turnover *
trading_cost_per_turnover`` and ``cost_gap: all_in_cost - index_fund_cost``, then asks ``cost_gap <= max_cost_gap``
(0.75%). A product of two ratios is plain, and a ratio plus a plain term reading an input is shown plain, so
``ipb run`` printed ``all_in_cost = 0.0023`` (meant: 0.18% + 5% x 1% = 0.23%) and the GRP's element read "all-in cost
0.0023". ``ipb check`` said nothing: rule ``plain-against-ratio`` looked only at values of no unit. Its advice,
multiplying the definition by 100%, does not mend such a sum either (the sum times 100% stays plain); the 100% on
the product does (0.18% + 5% x 1% x 100% = 0.23%, a ratio).
"""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

import ipb
from ipb.cli import app

runner = CliRunner()
CARD = Path(__file__).resolve().parents[1] / "fixtures" / "new_user51" / "bogle_fund_cost_test.yaml"
SUM = "all_in_cost: expense_ratio + turnover * trading_cost_per_turnover"
FACTS = {"expense_ratio": "0.18%", "sales_load": "0%", "turnover": "5%", "holdings": 1300, "index_fund_cost": "0.12%"}


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "card.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_ratio_plus_a_plain_term_against_a_ratio_is_warned_with_the_term_advice(tmp_path):
    text = CARD.read_text(encoding="utf-8")
    out = runner.invoke(app, ["check", str(_write(tmp_path, text))]).output
    # line 44 is "    proceed: cost_gap <= max_cost_gap": 4 spaces and "proceed: " before the name (column 14)
    assert text.splitlines()[43] == "    proceed: cost_gap <= max_cost_gap"
    assert "card.yaml:44:14: warning: 'cost_gap' is a plain number but 'max_cost_gap' is a ratio" in out
    assert "multiply that term by 100%" in out and "the whole sum times 100% stays plain" in out
    assert "plain-against-ratio 1" in out


def test_the_100_percent_on_the_product_makes_it_a_ratio_and_silences_the_warning(tmp_path):
    text = CARD.read_text(encoding="utf-8")
    assert SUM in text
    path = _write(tmp_path, text.replace(SUM, SUM + " * 100%"))
    out = runner.invoke(app, ["check", str(path)]).output
    assert "plain-against-ratio" not in out
    # By hand: 0.18% + 5% x 1% = 0.23% all-in, 0.23% - 0.12% = 0.11% gap; now written as percentages.
    step = ipb.execute(str(path), FACTS).to_grp()["gold_program"][2]
    assert step["computed_value"] == "all_in_cost = 0.23%; cost_gap = 0.11%"
    assert step["required_elements"][0] == "all-in cost 0.23%"


def test_the_whole_sum_times_100_percent_stays_plain_and_still_warns(tmp_path):
    text = CARD.read_text(encoding="utf-8").replace(
        SUM, "all_in_cost: (expense_ratio + turnover * trading_cost_per_turnover) * 100%")
    path = _write(tmp_path, text)
    assert "plain-against-ratio 1" in runner.invoke(app, ["check", str(path)]).output
    step = ipb.execute(str(path), FACTS).to_grp()["gold_program"][2]
    assert step["computed_value"] == "all_in_cost = 0.0023; cost_gap = 0.0011"


def test_kccs_matches_a_plain_gold_figure_with_the_answers_percentage():
    # README says what the warning is for: the trace and the elements read 0.0144, but KCCS matches by value, so a
    # faultless answer writing 1.44% is credited. Item: turnover 126%. By hand: 0.18% + 126% x 1% = 1.44% all-in,
    # 1.32% above the 0.12% index fund, over the 0.75% limit: gate 3 REJECT, AVOID; KCCS over gates 1-3 all met: 1.0.
    facts = {**FACTS, "turnover": "126%"}
    assert ipb.execute(str(CARD), facts).to_grp()["gold_program"][2]["required_elements"][0] == "all-in cost 0.0144"
    answer = "\n".join([
        "Gate 1, Expense ratio under the cap: PROCEED. The expense ratio is 0.18%, under the 0.50% cap.",
        "Gate 2, No sales load: PROCEED. The front-end load is 0%.",
        "Gate 3, All-in cost against an index fund: REJECT. All-in cost is 0.18% + 126% x 1% = 1.44%, against an "
        "index fund cost of 0.12%: a gap of 1.32%, above the 0.75% gap limit.",
        "Gate 4, Broad diversification: N/A, never reached.",
        "Final verdict: AVOID",
    ])
    r = ipb.score(answer, card=str(CARD), facts=facts)
    assert r["status"] == "scored" and r["metrics"]["kccs"] == 1.0 and r["metrics"]["verdict_acc"] == 1.0
    # The same answer with a wrong all-in figure (0.23%) loses that element on gate 3: F1 2/3 there, (1 + 1 + 2/3) / 3.
    wrong = ipb.score(answer.replace("= 1.44%", "= 0.23%"), card=str(CARD), facts=facts)
    assert abs(wrong["metrics"]["kccs"] - 8 / 9) < 1e-9

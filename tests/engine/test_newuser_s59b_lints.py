"""New-user report s58 (issue 18): two ``ipb check`` warnings a card author lacked (s59userB).

F-C3 (bug kind: a silent check): an input a gate reads but that declares no ``range`` never moves under metric,
flip or isolate; ``ipb check`` said nothing, and only ``ipb perturb`` noted it after generating. Rule
``read-without-range``.

F-C5, second half (bug kind: a silent classification): an input whose name holds ``sentiment`` (the new user's
``analyst_sentiment``, the stock's buy ratings) is taken for the market's state, so items that move it are
undated; ``describes: company`` mends it, but ``ipb check`` did not say the input would be treated so. Rule
``market-state-by-name``.
"""

from __future__ import annotations

from typer.testing import CliRunner

from ipb.cli import app
from ipb.engine._range_lints import ranges_missing
from ipb.engine.card import load_card_text
from ipb.perturb._size_lint import market_by_name_warnings
from tests.engine.card_support import screener_card_head

runner = CliRunner()

# line numbers, counted by hand: 'inputs:' is line 11, so pe_ratio is 12, ..., analyst_sentiment 17
CARD = screener_card_head("s59b_lint_screen", "Lint screen",
                          "The screener checks the price, growth, liquidity and the analysts.", outcomes=False) + """\
inputs:
  pe_ratio: {type: multiple, description: price over trailing earnings, range: [2x, 40x], step: 0.5x}
  eps_growth_5y: {type: ratio, description: five-year growth of earnings per share}
  current_assets: {type: money, description: current assets}
  current_liabilities: {type: money, description: current liabilities, range: [$1B, $4B], step: $10M}
  current_ratio: {type: multiple, description: current assets over current liabilities, range: [0.1x, 10x], step: 0.01x}
  analyst_sentiment: {type: category, label: "Wall Street's view of the stock", values: [cold, neutral, darling]}
  spare_count: {type: number, description: a number only the question states}
constraints:
  - id: ratio_is_quotient
    derive: current_ratio
    value: current_assets / current_liabilities
    description: The current ratio is current assets over current liabilities.
gates:
  - id: price
    name: Price
    proceed: pe_ratio <= 15x and eps_growth_5y > 5%
    required_elements: [P/E]
  - id: liquidity
    name: Liquidity
    proceed: current_ratio >= 2x
    required_elements: [current ratio]
  - id: analysts
    name: Analysts
    reject: analyst_sentiment == "darling"
    required_elements: ["{spare_count}"]
"""


def _check(tmp_path, text: str) -> str:
    card = tmp_path / "card.yaml"
    card.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["check", str(card)], catch_exceptions=False)
    return " ".join(result.output.split())


def test_an_input_a_gate_reads_without_a_range_is_warned_at_its_key(tmp_path):
    out = _check(tmp_path, CARD)
    c = tmp_path / "card.yaml"
    assert (f"{c}:13:3: warning: input 'eps_growth_5y' declares no range, but gate 'price' reads it: ipb perturb's "
            "metric, flip and isolate draw only on a declared range, so every item they make keeps the base's value"
            ) in out, out
    # a source of a derived input a gate reads: the derived one moves only when its sources do
    assert (f"{c}:14:3: warning: input 'current_assets' declares no range, but derived input 'current_ratio', which a "
            "gate reads, is computed from it") in out, out
    assert "read-without-range 2" in out
    # not warned: ranged inputs, the derived input itself, a category, an input no gate reads (spare_count)
    named = {w.name for _, w in ranges_missing(load_card_text(CARD, "card.yaml"))}
    assert named == {"eps_growth_5y", "current_assets"}


def test_the_range_silences_it(tmp_path):
    fixed = CARD.replace("five-year growth of earnings per share}",
                         "five-year growth of earnings per share, range: [-20%, 40%], step: 1%}").replace(
        "current_assets: {type: money, description: current assets}",
        "current_assets: {type: money, description: current assets, range: [$1B, $6B], step: $10M}")
    assert fixed != CARD
    assert "read-without-range" not in _check(tmp_path, fixed)


def test_market_state_by_name_alone_is_said_with_the_describes_fix(tmp_path):
    out = _check(tmp_path, CARD)
    c = tmp_path / "card.yaml"
    assert (f"{c}:17:3: warning: input 'analyst_sentiment' is taken for the market's state at the decision date "
            "because its name holds the word 'sentiment': an item in which ipb perturb moves it is undated") in out
    assert "add 'describes: company'" in out and "market-state-by-name 1" in out


def test_describes_or_a_mood_label_or_the_registry_silences_it():
    def named(text: str) -> list[str]:
        return [w.name for w in market_by_name_warnings(load_card_text(text, "card.yaml"))]

    assert named(CARD) == ["analyst_sentiment"]
    for said in ("describes: company, ", "describes: market, "):
        assert named(CARD.replace("analyst_sentiment: {", "analyst_sentiment: {" + said)) == []
    # the label itself says it is the market's mood: not by the name alone
    assert named(CARD.replace("Wall Street's view of the stock", "Market sentiment toward stocks")) == []
    # listed in market_state of frameworks/regimes.yaml: the registry says so, not the name
    assert named(CARD.replace("analyst_sentiment", "investor_psychology")) == []
    # no mood word in the name: not market state by name
    assert named(CARD.replace("analyst_sentiment", "analyst_view")) == []

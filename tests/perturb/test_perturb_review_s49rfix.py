"""s49rfix: the review kinds that needed a new mechanism (issue 18).

G10 (s48review, seed 10505 on glamour_growth_stock, 31 January 1973: 278 of 1,000 Graham items give a three-year EPS
2.5 times or more that of ten years before at 11x it or less, 62 of them under 8x) and G3 (s46review, seed 10303 on
seasoned_industrial_passes, 30 June 1973: 37 of 1,000 double the EPS and price it under 6x). The bound reads a ratio
of two inputs (the record), which a ``multiples`` condition could not: ``ratios`` in ``frameworks/regimes.yaml``
(``perturb/multiples.py``). The figures behind the floors (Graham's ELTRA at 9.7x a record of five times at the end
of 1970) are in the regimes file's comment.
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from typer.testing import CliRunner

from ipb.cli import app
from ipb.perturb.multiples import MultipleBound, RatioCondition, ratio_anachronisms
from perturb_support import assert_located_regimes_error

GRAHAM = "graham_seven_tests_defensive"

def test_the_condition_reads_the_quotient_not_either_input():
    """A ratio condition holds on the quotient: $16 against $1 and $40 against $2.5 are both a record of 16 and 6.4
    times; $40 against $20 (2 times) is only doubled."""
    growth = MultipleBound("g", "price / EPS", (), (), ((1973, Decimal(8)),), ("p", "e"),
                           ratios=(RatioCondition("e", "e10", Decimal("2.5")),))
    held = [growth.holds_for({"e": Decimal(e), "e10": Decimal(b)}) for e, b in (("16", "1"), ("40", "2.5"), ("40", "20"))]
    assert held == [True, True, False]
    assert ratio_anachronisms((growth,), {"p": Decimal(100), "e": Decimal(16), "e10": Decimal(1)}, 1973) == [
        "p / e 6.25x (below the lowest price / EPS of its era about 1973, 8x)"]
    assert ratio_anachronisms((growth,), {"p": Decimal(100), "e": Decimal(16), "e10": Decimal(8)}, 1973) == []


_HEAD = ("version: 1\ninputs: [macro_regime]\nfacts:\n  inflation_rate: {type: ratio}\nregimes:\n"
         "  - {id: r, name: R, labels: [x], known_from: \"2009-01-01\", as_of: \"2009-03-09\"}\n"
         "multiples:\n  - id: m\n    what: price / EPS\n    of: [price_per_share, eps_3yr_avg]\n"
         "    least:\n      - [1973, 8]\n    ratios:\n")
# (a user's ratios: block, words of the error, its line); bug kind: a condition that no quotient meets, or one with
# no bound, was accepted silently, and each must be a located error, never a traceback.
BAD_RATIOS = [
    ("      - {of: [eps, eps_ten], at_least: fast}\n",
     "ratios: eps / eps_ten at_least 'fast' is not a number above zero (a ratio or a multiple: 2.5, 250%)", 14),
    ("      - {of: [eps, eps_ten], at_least: 0}\n", "at_least 0 is not a number above zero", 14),
    ("      - {of: [eps, eps_ten], at_most: -2}\n", "at_most -2 is not a number above zero", 14),
    ("      - {of: [eps, eps_ten], at_least: 3, at_most: 2}\n",
     "ratios: eps / eps_ten holds from 3 up to 2, which no quotient meets (at_least must be at most at_most)", 14),
    ("      - {of: [eps, eps_ten]}\n", "ratios: eps / eps_ten gives neither at_least nor at_most", 14),
    ("      - {of: [eps], at_least: 2}\n", "is too short", 14),
    ("      - {of: [eps, eps_ten], least: 2}\n", "unknown field 'least'", 14),
]


@pytest.mark.parametrize("block, words, line", BAD_RATIOS, ids=[b[1][:40] for b in BAD_RATIOS])
def test_a_bad_ratio_condition_is_a_located_error(block, words, line, tmp_path):
    assert_located_regimes_error(_HEAD + block, words, line, tmp_path)


def test_ipb_check_reports_a_bad_ratio_condition_at_its_line(tmp_path):
    path = tmp_path / "regimes.yaml"
    path.write_text(_HEAD + "      - {of: [eps, eps_ten], at_least: 3, at_most: 2}\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["check", str(path)])
    assert result.exit_code != 0
    assert "regimes.yaml:14:" in result.output and "which no quotient meets" in result.output, result.output
    assert "Traceback" not in result.output


def test_ipb_check_accepts_the_bundled_regimes():
    result = CliRunner().invoke(app, ["check", "frameworks/regimes.yaml"])
    assert result.exit_code == 0, result.output

"""Final verdicts, stop 38 (issue 13; paper §7.5): readings of :mod:`ipb.scoring.parse._final` and :mod:`._acted` on
short answers written for these tests.

* a French phrase negated round its verb ("nous n'achetons pas", "nous ne passons pas notre tour"): ``clitic_negators``
  and ``negators_after`` of the acts block in grammar/languages.yaml;
* an answer particle of another language after a question ("Finger weg? Nein, wir kaufen."): the words after it are the
  answer, the particle negates none of them (``answers`` of the acts blocks);
* a buy limit above the price the answer states ("trades at $16 ... buy below $17") is a buy now; under it, or with no
  price stated, it stays a condition (the decline, as before);
* a position phrase that only names a position ("the test position is on", a heading "a Test Position") opens none;
* a decider's act in its base form ("the committee did not approve the proposal", "the fund declined to back the deal");
* a buy word whose subject is no person ("the platform would add 12% of capacity") is no rating;
* the company bought or sold in the passive ("it will not be bought");
* a verdict on the business, "but not at this price": the decline at today's price;
* a checklist item's yes/no question ("4. Insider buying in the last year? No.") asks no buy question unless it names
  the one who would buy ("4. Should we buy at this price? No.").

Each has its near miss.
"""

from __future__ import annotations

import pytest

from parse_support import final_of
from ipb.scoring.parse import _act_words as aw

GRAHAM = "graham_seven_tests_defensive"
FR = "Critère 1 : rempli, chiffre d'affaires de 9 Md€.\nCritère 2 : rempli, liquidité de 2,3 fois.\nCritère 3 : rempli, aucune perte.\n\n"
DE = "Kriterium 1: erfüllt, Umsatz rund 9 Mrd. Euro.\nKriterium 2: erfüllt, Liquidität 2,3-fach.\nKriterium 3: erfüllt, kein Verlustjahr.\n\n"
EN = (
    "Adequate Size of the Enterprise: PROCEED, revenue is about $9bn.\n"
    "Sufficiently Strong Financial Condition: PROCEED, current ratio 2.3.\n"
    "Earnings Stability: PROCEED, no loss year in the decade.\n\n"
)
PIF = "pif_dual_kill_investment_screen"
PIF_BODY = (
    "Portfolio fit: the plan sits inside the stated policy for utilities.\n\n"
    "Return hurdle: the base-case IRR of 10.2% clears the 9% hurdle.\n\n"
    "National priorities: the plant serves a named water-security programme.\n\n"
)
SOROS = "soros_reflexive_hypothesis_trade_construction"
SOROS_BODY = (
    "The prevailing bias: everyone trusts the Vardan peg, though reserves cover four months of imports.\n\n"
    "The feedback loop: banks borrow in dollars because they trust the peg, which makes a break costlier.\n\n"
)

CASES = [
    # French: a negation wrapped round the verb of an act phrase
    ("fr-n-achetons-pas", FR, "Le prix est trop élevé : nous n'achetons pas.", GRAHAM, "DECLINE"),
    ("fr-n-investissons-pas-curly", FR, "Le prix est trop élevé, donc nous n\u2019investissons pas.", GRAHAM, "DECLINE"),
    ("fr-ne-passons-pas-notre-tour", FR, "Le prix est bas : nous ne passons pas notre tour.", GRAHAM, "INVEST"),
    ("fr-ne-reste-pas-a-l-ecart", FR, "Le prix a baissé, on ne reste pas à l'écart.", GRAHAM, "INVEST"),
    ("fr-achetons-plain", FR, "Le prix est raisonnable : nous achetons.", GRAHAM, "INVEST"),
    # an answer particle after a question: the words after it answer it
    ("de-nein-wir-kaufen", DE, "Finger weg? Nein, wir kaufen.", GRAHAM, "INVEST"),
    ("de-nein-wir-verzichten", DE, "Kaufen? Nein, wir verzichten.", GRAHAM, "DECLINE"),
    ("fr-non-on-reste-a-l-ecart", FR, "Acheter ? Non, on reste à l'écart.", GRAHAM, "DECLINE"),
    ("de-negated-without-particle", DE, "Beim heutigen Kurs: wir kaufen nicht.", GRAHAM, "DECLINE"),
    # a buy limit against the price the answer states
    ("limit-above-price", "Harlow Mills trades at $16 a share.\n\n" + EN, "Conclusion: buy below $17.", GRAHAM, "INVEST"),
    ("limit-the-price-form", EN + "Against the $16 price the margin is ample.\n\n", "Recommendation: Buy below $17.", GRAHAM, "INVEST"),
    ("limit-under-price", "Harlow Mills trades at $19 a share.\n\n" + EN, "Conclusion: buy below $17.", GRAHAM, "DECLINE"),
    ("limit-no-price", EN, "Conclusion: buy below $17.", GRAHAM, "DECLINE"),
    ("limit-two-prices", "Harlow Mills traded at $12 in May and trades at $19 now.\n\n" + EN, "Conclusion: buy below $17.", GRAHAM,
     "DECLINE"),
    # a position named, not opened
    ("position-named-is-on", SOROS_BODY, "Where it stands: the thesis is live and the test position is on.", SOROS, None),
    ("position-heading", "Kestovia Peg\nReflexivity and a Test Position\n\n" + SOROS_BODY, "Confirmation has not come yet.", SOROS,
     None),
    ("position-taken", SOROS_BODY, "Where it stands: we take the starter position this week.", SOROS, "TAKE_POSITION"),
    # a decider's act in its base form
    ("committee-did-not-approve", PIF_BODY, "Outcome. The investment committee did not approve the proposal in its current form.",
     PIF, "DECLINE"),
    ("board-voted-to-fund", PIF_BODY, "Outcome. The board voted to fund the first tranche.", PIF, "INVEST"),
    ("fund-declined-to-back", PIF_BODY, "Outcome. The fund declined to back the deal at this tariff.", PIF, "DECLINE"),
    ("no-decider-base-form", PIF_BODY, "Open question: will regulators approve the tariff in time?", PIF, None),
    # the company bought or sold in the passive
    ("passive-not-bought", EN, "Too little margin for us, and it will not be bought.", GRAHAM, "DECLINE"),
    ("passive-bought", EN, "A wide margin of safety: the stock should be bought.", GRAHAM, "INVEST"),
    ("passive-other-thing", EN, "The bonds will not be bought back this year.", GRAHAM, None),
    # a checklist's yes/no question about the company is no buy question
    ("checklist-question", EN + "4. Insider buying in the last year? No.\n5. Dividend paid? Yes.\n\n",
     "Score: 7 of 8, so it goes into the portfolio at a 4% weight.", GRAHAM, "INVEST"),
    ("checklist-asks-us", EN + "4. Should we buy at this price? No.\n\n", "The price is too high.", GRAHAM, "DECLINE"),
    # the decline at today's price after a verdict on the business
    ("but-not-at-this-price", EN, "Verdict for now: a company to own, but not at this price.", GRAHAM, "DECLINE"),
    ("not-at-this-price-no-but", EN, "Returns are not at this level anywhere else in the sector.", GRAHAM, None),
    # a buy word whose subject is a thing
    ("thing-would-add", PIF_BODY + "Capacity: the plant would add 12% of national desalination output.\n\n",
     "Outcome. The investment committee did not approve the proposal.", PIF, "DECLINE"),
]


@pytest.mark.parametrize(("body", "closing", "card", "want"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_final_s38(body: str, closing: str, card: str, want: str | None) -> None:
    assert final_of(body, closing, card) == want


def test_negated_phrase_reading() -> None:
    assert aw.phrase_reading("nous achetons") == ("enter", False)
    assert aw.phrase_reading("Nous n\u2019achetons pas") == ("enter", True)
    assert aw.phrase_reading("je ne m'abstiens pas") == ("leave", True)
    assert aw.phrase_reading("wir kaufen") == ("enter", False)
    assert aw.phrase_reading("nous n'avons rien") == (None, False)


def test_answer_particles_are_data() -> None:
    assert {"nein", "non", "нет", "nej"} <= set(aw.ANSWERS)
    assert "si" not in aw.ANSWERS  # Spanish and Italian "si" is "if": never an answer particle here

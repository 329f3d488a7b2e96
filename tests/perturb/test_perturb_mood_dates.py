"""The crowd's mood is history at the date (stop 33, new user; paper §6.5, docs/perturbation.md "Dates that
fit the facts").

A new author's Templeton card (``cards/templeton_new_user.yaml``) reads ``market_sentiment``, "Prevailing
investor mood toward the stock and its home market", and its base is dated 1 October 1974, the bottom of the
1973-74 bear market, with the mood ``despondent``. ``isolate`` and ``flip`` move the mood; every item kept the
base's date, so 1,000 items (seed 7, no ``--ops``) called the crowd neutral, optimistic or euphoric on that
day. Only names listed in ``market_state`` of ``frameworks/regimes.yaml`` (``investor_psychology``...) undated
an item; now an input whose name says sentiment, psychology or mood, or whose label or description opens with
such a phrase, counts too.
"""

from __future__ import annotations

import json

from ipb.perturb import Job, generate
from ipb.perturb.frame import build_frame
from perturb_support import CARDS, FIXTURES

CARD = str(CARDS / "templeton_new_user.yaml")
BASE = str(FIXTURES / "templeton_new_user_base.yaml")


def test_the_new_authors_mood_input_describes_the_date():
    frame = build_frame([CARD])
    reg = frame.regimes
    spec = frame.inputs["market_sentiment"]
    assert "market_sentiment" not in reg.market_state      # not listed: recognised by its name and description
    assert reg.describes_the_date(spec)
    assert not reg.describes_the_date(frame.inputs["share_price"])
    assert not reg.describes_the_date(frame.inputs["debt_to_equity"])


def test_an_item_that_moves_the_mood_keeps_no_date():
    result = generate(Job((CARD,), BASE, 7), 200)
    moved = kept = 0
    for line in result.lines:
        item = json.loads(line)
        mood = item["scenario"]["facts"]["market_sentiment"]
        dated = item["scenario"].get("as_of")
        if mood != "despondent":
            moved += 1
            assert dated is None, (mood, item["id"])
            assert "Decision date" not in item["question"]
            assert item["manifest"]["context"]["as_of"] is None
        else:
            kept += 1
            assert dated == "1974-10-01"
            assert item["question"].startswith("Decision date: 1974-10-01.")
    # both kinds occur: isolate moves the mood (gate 1 is the only gate it can change by the mood), metric does not
    assert moved >= 10 and kept >= 100, (moved, kept)


def test_the_run_report_counts_the_items_that_lost_the_date():
    # a reviewer reading only the summary could not see that items lost the base's date (287 of the new
    # user's 1,000 --mix items); each recipe now counts them, and the count is the items' own
    result = generate(Job((CARD,), BASE, 7), 200)
    undated = {}
    for line in result.lines:
        item = json.loads(line)
        if item["scenario"].get("as_of") is None:
            undated[item["manifest"]["recipe"]] = undated.get(item["manifest"]["recipe"], 0) + 1
    assert {r.recipe: r.undated for r in result.recipes if r.undated} == undated
    assert sum(undated.values()) >= 10
    assert {r["recipe"]: r["undated"] for r in result.to_dict()["recipes"] if r["undated"]} == undated
    isolate = next(r for r in result.recipes if r.recipe == "isolate")
    assert f"; {isolate.undated} undated (a fact that describes the day moved, or the date rules one out)" \
        in result.summary()
    assert next(r for r in result.recipes if r.recipe == "metric").undated == 0   # metric never moves the mood

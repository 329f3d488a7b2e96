"""Regression (a flip's anchor put a historical episode in an undated item): s57 new user C10, branch s58fill.

A flip (and an isolate item) starts from an *anchor*, the scenario with one to three inputs redrawn. On Buffett's
acquisition checklist the anchor could redraw ``macro_regime``; a market-wide regime describes the decision date, so
the item lost its date and could read "The macro regime is pandemic shock." with no date and none of 2020's figures
(a 10k run: 1,743 of 2,499 flip items undated). Setting a regime is ``temporal``'s move, which dates the item and
applies the regime's figures. Now an anchor never sets a regime input to a value that names one dated episode: the
first label of one regime of frameworks/regimes.yaml that no other regime carries (by hand from the file:
depression 1932, market_crash 1987, bear_market 2002, pandemic_shock 2020; credit_crisis is 1932's and 2009's,
high_inflation 1974's, 1979's and 2022's, expansion 1997's and 2017's). A generic regime (recession, late cycle,
high inflation) may still be drawn: in an undated item it is a hypothetical, not a claim about a date.

Counted on the default-operator run of ``ipb_p_011_base`` at ``--n 2000 --seed 0``: 499 flip items, 335 undated by
a regime anchor, 77 of them "pandemic shock"; after the change 499 flip items, 331 undated by a generic regime
(high inflation 114, late cycle 98, recession 119), none naming an episode. The tests below fail before the change
(the anchor draws pandemic_shock; flip items state it).
"""

from __future__ import annotations

import json
import random

from ipb.perturb import Job, generate, parse_recipes
from ipb.perturb.frame import build_frame, load_base
from ipb.perturb.targeted import _anchor
from perturb_support import BUFFETT, BUFFETT_BASE


def test_an_anchor_never_sets_a_regime_that_names_one_episode():
    frame = build_frame([BUFFETT])
    base = load_base(BUFFETT_BASE, frame)
    assert base.facts["macro_regime"] == "expansion"
    rng = random.Random(5)
    drawn = []
    for _ in range(600):
        moved, changed = _anchor(frame, base, rng, ("ev_to_arr",))
        if moved and "macro_regime" in changed:
            drawn.append(moved["macro_regime"])
    assert set(drawn) == {"late_cycle", "recession", "credit_crisis", "high_inflation"}  # every other value
    assert frame.memo["episode_values"] == {"macro_regime": {"depression", "market_crash", "bear_market",
                                                             "pandemic_shock"}}


def test_flip_items_never_state_an_episode_without_its_date():
    result = generate(Job((BUFFETT,), str(BUFFETT_BASE), 0, parse_recipes("flip")), 120)
    items = [json.loads(line) for line in result.lines]
    assert len(items) == 120
    regimes = {item["scenario"]["facts"]["macro_regime"] for item in items}
    assert "pandemic_shock" not in regimes and len(regimes) >= 4  # the generic regimes are still drawn

"""Regression (question leaks the paper): a regime's description is written into every question dated in it.

s43user published 1,000 Buffett items and read, in the one dated in the 2009 credit crisis, "Decision date:
2009-03-09, during the 2009 credit crisis (After the failure of Lehman Brothers credit markets froze; stocks at
their low (paper Table 9, Perturbation C))." The description went into the question inside parentheses, so it
told the model which paper and which table the item was built from, with a doubled closing parenthesis. A
description now names no paper, table or section and holds no parenthesis of its own; references to the paper
belong in a YAML comment beside it.
"""

from __future__ import annotations

import json
import re

import pytest

from ipb.perturb import Job, parse_recipes
from ipb.perturb.generation import write_items
from ipb.perturb.registries import load_regimes
from perturb_support import BUFFETT, BUFFETT_BASE

REGIMES = load_regimes().regimes
#: What a question must never show a model: the paper, its tables, figures or sections.
PAPER_WORDS = re.compile(r"\bpaper\b|\bTable \d|\bFigure \d|§|\bAppendix\b|\bPerturbation [ABC]\b", re.IGNORECASE)


@pytest.mark.parametrize("regime", REGIMES, ids=[r.id for r in REGIMES])
def test_a_regime_description_names_no_paper_and_holds_no_parenthesis(regime):
    assert regime.description, f"regime {regime.id} has no description for its questions"
    assert not PAPER_WORDS.search(regime.description), regime.description
    assert "(" not in regime.description and ")" not in regime.description, regime.description


def test_the_credit_crisis_question_reads_its_setting_without_the_paper(tmp_path):
    out = tmp_path / "items.jsonl"
    write_items(out, Job((BUFFETT,), str(BUFFETT_BASE), 1, parse_recipes("temporal:credit_crisis_2009")), 1)
    item = json.loads(out.read_text(encoding="utf-8").splitlines()[0])
    # the regime's name, then its description without the final full stop inside one pair of parentheses
    assert item["question"].splitlines()[0] == (
        "Decision date: 2009-03-09, during the 2009 credit crisis (After the failure of Lehman Brothers credit "
        "markets froze; stocks at their low).")
    assert not PAPER_WORDS.search(item["question"])

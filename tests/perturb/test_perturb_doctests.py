"""The Examples blocks of the perturbation modules run as doctests."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["ipb.perturb", "ipb.perturb.values", "ipb.perturb.vintage", "ipb.perturb.render",
           "ipb.perturb.recipes", "ipb.perturb.verify",
           "ipb.perturb.feasible", "ipb.perturb.spaces", "ipb.perturb.registries",
           # s44items split registries.py: the sector and regime registries' examples moved with them
           "ipb.perturb.sector_registry", "ipb.perturb.regime_registry",
           # s53dup split the share arithmetic out of generation.py (perturb/shares.py): its examples moved with it
           "ipb.perturb.shares", "ipb.perturb.near",
           # s59userA: the progress lines of a long run
           "ipb.perturb._progress",
           # s59userB: ipb join's de-duplication
           "ipb.perturb.join",
           # s59cond: condition B's knowledge version
           "ipb.perturb._knowledge",
           # s60setting: the card's question setting and ask, and the facts paragraph after it
           "ipb.perturb._question_setting", "ipb.perturb.question_facts"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0
    assert result.attempted > 0, f"{name} has no examples"

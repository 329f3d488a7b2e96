"""The Examples blocks in public docstrings run as doctests."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "ipb.errors",
    "ipb._composed",
    "ipb._files",  # new_folders moved here from cli._stops (its example with it)
    "ipb.engine._yaml",
    "ipb.engine.logic",
    "ipb.engine.expressions",
    "ipb.engine._expr_parser",
    "ipb.engine._units",
    "ipb.engine._comparison_lints",
    "ipb.engine._card_schema",  # s59userB: how an unknown field names its constraint or input
    "ipb.engine._card_question",  # s60setting: a card's question setting and ask
    "ipb.engine.graph",
    "ipb.engine.execute",
    "ipb.engine.grp_view",  # s60speed: forget_rendered
    "ipb.engine.scenario",
    "ipb.engine.numbers",
    "ipb.engine.explain",
    "ipb.engine._trials",
    "ipb.engine.lint",
    # s59: the demo card the lint examples share, and two lint modules whose examples no test ran
    "ipb.engine._demo",
    "ipb.engine._label_lints",
    "ipb.engine.lint_reach",
    "ipb.engine.api",
    "ipb.scoring.api",
    "ipb.scoring.sources",
    "ipb.cli._stops",  # s59fixj: the stop line and late-signal helpers perturb and join share
    "ipb.respond._knowledge_hash",  # s59cond: the retrieval rule a condition B response records
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0
    assert result.attempted > 0, f"{name} has no examples"

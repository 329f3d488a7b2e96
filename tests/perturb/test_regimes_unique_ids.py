"""Every dated table of ``frameworks/regimes.yaml`` (size figures, multiples, regimes) names each entry once.

Two helpers once wrote the bound ``calm_market_enterprise_value_to_ebit`` twice, with different floors and scopes, and
both were applied (a homebuilder at 3.03x EBIT in 2006 was refused by the second while the first kept it); an id is
how an item's anachronism names the rule, so two rules under one id cannot be told apart.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
import yaml

REGIMES = Path(__file__).resolve().parents[2] / "frameworks" / "regimes.yaml"


def _tables() -> dict[str, list[dict]]:
    doc = yaml.safe_load(REGIMES.read_text(encoding="utf-8"))
    tables = {"multiples": doc["multiples"], "regimes": doc["regimes"], "sizes.figures": doc["sizes"]["figures"]}
    return tables


@pytest.mark.parametrize("name", ["multiples", "regimes", "sizes.figures"])
def test_each_entry_of_a_table_has_its_own_id(name: str) -> None:
    table = _tables()[name]
    assert len(table) >= 9  # the tables as shipped: 13 multiples, 12 regimes, 9 size figures
    repeated = [i for i, n in Counter(entry["id"] for entry in table).items() if n > 1]
    assert repeated == []

"""One investor lookup (s60twins, closing59's twins): the knowledge version an item records for condition B finds
the investor's registry entry with :func:`ipb.engine.investors.get_investor`.

Bug kind: two rules for one lookup. ``perturb/_knowledge.py`` matched a name or alias by ``casefold()`` alone, while
the engine's lookup (the one the registry's own "a name must identify one investor" check folds by, and the one
``ipb perturb``'s "not in the investor registry" note uses) also takes runs of spaces as one and takes an id. So a
card naming "John  Neff" (two spaces) or the id "neff" got a knowledge version without a registry entry, while
perturb said the investor was registered. Names spelled as the registry spells them (every bundled card) hash as
before: tests/perturb/test_perturb_bytes.py and test_conditions_s59.py pin those bytes.
"""

from __future__ import annotations

import pytest

from ipb.engine.investors import UnknownInvestorError, get_investor, use_investors
from ipb.engine.registry import card_file_sha256
from ipb.perturb._knowledge import knowledge_sha256, knowledge_sources
from perturb_support import CARDS, NEFF_REGISTRY, registry_in_use

#: The one-card registry for John Neff of test_conditions_s59, with an alias added.
REGISTRY = NEFF_REGISTRY.replace("    name: John Neff\n", "    name: John Neff\n    aliases: [Windsor Manager]\n")
#: The registry part of the canonical form, written out by hand for the entry above.
NEFF_ENTRY = {"id": "neff", "name": "John Neff", "organisation": "Windsor Fund", "school": "deep_value",
              "active_start": "1964", "active_end": "1995-12-31",
              "distinctive_phrases": ["total return ratio", "low price-earnings"],
              "milestones": [["1964", "Took over the Windsor Fund."]]}


@pytest.fixture()
def neff(tmp_path, monkeypatch):
    yield from registry_in_use(tmp_path, monkeypatch, REGISTRY)


@pytest.mark.parametrize("name, found", [
    ("John Neff", True),            # the name as the registry spells it
    ("JOHN NEFF", True),            # case (both rules)
    ("windsor manager", True),      # an alias, case folded (both rules)
    ("John  Neff", True),           # two spaces: found only since s60twins
    (" Windsor\tManager ", True),   # an alias with a tab and outer spaces: found only since s60twins
    ("neff", True),                 # the id: found only since s60twins
    ("John Nef", False),            # unknown: no entry, no cards
    ("Windsor", False),             # a word that is neither a name nor an alias
])
def test_knowledge_finds_the_entry_get_investor_finds(neff, name, found):
    [entry] = knowledge_sources([name])["investors"]
    cards = [{"id": "neff_total_return_screen", "content_hash": card_file_sha256(CARDS / "neff_new_user.yaml")}]
    assert entry == {"name": name, "registry": NEFF_ENTRY if found else None, "cards": cards if found else []}
    try:
        get_investor(name)
        engine_found = True
    except UnknownInvestorError:
        engine_found = False
    assert engine_found is found


def test_a_respaced_name_hashes_as_the_registrys_entry_under_its_own_spelling(neff):
    # The entry records the name as given, so the version differs from the canonical spelling's, but both now carry
    # the registry entry; without the registry file the respaced name has none.
    assert knowledge_sha256(["John  Neff"]) != knowledge_sha256(["John Neff"])
    assert knowledge_sources(["John  Neff"])["investors"][0]["registry"] == knowledge_sources(
        ["John Neff"])["investors"][0]["registry"]
    use_investors()
    assert knowledge_sources(["John  Neff"])["investors"][0]["registry"] is None

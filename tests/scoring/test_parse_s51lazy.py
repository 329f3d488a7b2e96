"""The foreign ordinal triggers' patterns compiled at their first match (scoring/_scan.py ``LazyPattern``; issue 13's
cost of a first ``ipb parse``): a process that parses an answer with no ordinal word never compiles them, one that
meets "el primer filtro" compiles each order once and reads what the compiled regex reads."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from ipb.scoring._scan import LazyPattern


def test_a_lazy_pattern_matches_as_its_compiled_source() -> None:
    """Hand-worked: "(?i)(?P<o>primer|segundo)[ \\t]*filtro" at 4 of "xx, Primer  filtro" spans 4-18, group o "Primer"."""
    lazy = LazyPattern(r"(?i)(?P<o>primer|segundo)[ \t]*filtro", ("o",))
    assert lazy.flags == re.IGNORECASE and lazy.groupindex == {"o": 1}
    m = lazy.match("xx, Primer  filtro", 4)
    assert m is not None and m.span() == (4, 18) and m.group("o") == "Primer"
    assert lazy.match("xx, Primer  filtro", 0) is None
    assert lazy.compiled() is lazy.compiled()  # compiled once


def test_a_lazy_pattern_must_name_its_groups() -> None:
    """Without a named group the scanner could merge it into an alternation, which would compile it: refused."""
    with pytest.raises(ValueError, match="names the groups"):
        LazyPattern(r"(?i)primer filtro", ())
    with pytest.raises(ValueError, match="names the groups"):
        LazyPattern(r"(?i)(?P<o>primer) filtro", ("n",))


_PROBE = """
import sys
from ipb.scoring.parse import parse_response
from ipb.scoring.parse import _foreign_numbers as fn
parse_response(sys.argv[1], "buffett_acquisition_checklist", embedder=False)
print(fn._ORDINAL_THEN_NOUN._compiled is not None, fn._NOUN_THEN_ORDINAL._compiled is not None)
"""


@pytest.mark.parametrize(("answer", "compiled"), [
    ("Gate 1 Circle of Competence: PROCEED.\nFinal verdict: DECLINE\n", "False False"),
    ("El primer filtro se cumple.\nVeredicto final: DECLINE\n", "True True"),
])
def test_the_ordinal_patterns_compile_only_where_an_answer_has_an_ordinal(answer: str, compiled: str) -> None:
    """In a fresh process: an English answer holds no ordinal word and no foreign gate noun, so neither order compiles;
    "El primer filtro" holds the ordinal "primer" (tried by the ordinal-then-noun order) and the gate noun "filtro"
    (tried by the noun-then-ordinal order), so both compile."""
    out = subprocess.run([sys.executable, "-c", _PROBE, answer], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == compiled.split()

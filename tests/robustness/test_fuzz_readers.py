"""Every reader of user input against generated bad input (issue 16, "Keep it this way").

For each reader (numbers, expressions, YAML, cards, scenarios, the JSON Lines
readers of items, responses and records, the response reader of ``ipb score``)
hypothesis generates hostile text: random characters with brackets, quotes,
control characters and digits, very deep nesting, huge exponents and long
numbers, byte-order marks. Every call must end within :data:`BOUND_S` seconds,
either with a result or with an :class:`ipb.errors.IpbError` that names its
place (file and line, or the column inside the text read); never with another
exception. Bounded time: a few hundred examples per reader.
"""

from __future__ import annotations

import time
from decimal import Decimal
from pathlib import Path
from typing import Any, Callable

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ipb.engine._yaml import load_yaml
from ipb.engine.card import load_card_text
from ipb.engine.expressions import BOOL, MONEY, NUMBER, RATIO, compile_expression
from ipb.engine.numbers import read_number
from ipb.engine.registry import compiled_card
from ipb.engine.scenario import load_scenario_text
from ipb.errors import ErrorGroup, IpbError

ROOT = Path(__file__).resolve().parents[2]
BOUND_S = 2.0
#: Wall-clock limit of one reader call: a hang, not slowness.
HANG_S = 30.0
WHOLE_FILE = {"empty", "file", "encoding"}
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                         HealthCheck.too_slow])

_ALPHABET = st.sampled_from(list("[]{}()\"':,-+*/%$€x.eE0123456789 \n\t#&*!|>") +
                            ["\x00", "\x1b", "\ufeff", "\u2028", "not ", "and ", "min(", "known(", "NaN", "1e999999",
                             "9" * 50, "a", "b", "_", "true", "null"])
hostile = st.one_of(
    st.lists(_ALPHABET, max_size=60).map("".join),
    st.tuples(st.sampled_from(["[", "{", "(", "-", "not ", "min(", "{a: "]), st.integers(90, 3000))
      .map(lambda t: t[0] * t[1]),
    st.text(max_size=80),
)


def _check(fn: Callable[[], Any], *, needs_file: bool) -> Any:
    started, cpu = time.monotonic(), time.process_time()
    try:
        return fn()
    except IpbError as exc:
        errors = exc.errors if isinstance(exc, ErrorGroup) else [exc]
        for e in errors:
            whole_file = e.rule in WHOLE_FILE  # about the file as a whole (empty, unreadable): the file is the place
            assert e.line is not None or e.column is not None or whole_file, f"unlocated: {e}"
            if needs_file:
                assert e.file is not None, f"no file: {e}"
        return None
    finally:
        # the bar on CPU time (other work on the machine cannot fail it); wall time only as a hang guard
        assert time.process_time() - cpu < BOUND_S
        assert time.monotonic() - started < HANG_S


@FUZZ
@given(hostile)
def test_number_reader(text: str) -> None:
    _check(lambda: read_number(text), needs_file=False)


SYMBOLS = {"x": NUMBER, "m": MONEY, "r": RATIO, "p": BOOL}
ENV = {"x": Decimal(3), "m": Decimal(7), "r": Decimal("0.5"), "p": True}


@FUZZ
@given(hostile)
def test_expression_compiler(text: str) -> None:
    compiled = _check(lambda: compile_expression(text, SYMBOLS), needs_file=False)
    if compiled is not None:
        _check(lambda: compiled(ENV), needs_file=False)


@FUZZ
@given(hostile)
def test_yaml_reader(text: str) -> None:
    _check(lambda: load_yaml(text, "f.yaml", collect=True), needs_file=True)


_CARD = (ROOT / "frameworks" / "graham_net_net_screen.yaml").read_text(encoding="utf-8")


@FUZZ
@given(st.integers(0, len(_CARD)), hostile)
def test_card_reader(at: int, junk: str) -> None:
    _check(lambda: load_card_text(_CARD[:at] + junk + _CARD[at:], "c.yaml"), needs_file=True)


@FUZZ
@given(hostile)
def test_scenario_facts(value: str) -> None:
    card = compiled_card("graham_net_net_screen").card
    quoted = '"' + value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
    for raw in (quoted, value.replace("\n", " ")):
        text = f"id: S\ncard: graham_net_net_screen\nfacts:\n  net_income: {raw}\n  market_value: {raw}\n"
        _check(lambda: load_scenario_text(text, card, "s.yaml"), needs_file=True)


def _jsonl(lines: list[str], tmp: Path) -> Path:
    p = tmp / "f.jsonl"
    p.write_text("\n".join(lines) + "\n", encoding="utf-8", errors="surrogatepass")
    return p


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(hostile, min_size=1, max_size=4))
def test_jsonl_readers(tmp_path_factory: Any, lines: list[str]) -> None:
    from ipb.neighbours.records import load_records
    from ipb.respond.records import load_items, read_output
    from ipb.scoring.adapters import read_responses
    from ipb.scoring.run import load_items as score_items

    lines = [line.replace("\n", " ") for line in lines]
    lines[0] = "\ufeff" + lines[0]
    try:
        path = _jsonl(lines, tmp_path_factory.mktemp("j"))
    except UnicodeEncodeError:
        return
    for reader in (load_items, read_output, load_records):
        _check(lambda: reader(path), needs_file=True)
    _check(lambda: score_items(path), needs_file=True)
    _check(lambda: list(read_responses(path)), needs_file=True)

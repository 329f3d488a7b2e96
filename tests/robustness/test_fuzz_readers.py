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

import gc
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


def _timed(fn: Callable[[], Any]) -> tuple[Any, IpbError | None, float]:
    """One reader call: (result, the IpbError it raised or None, CPU seconds), other exceptions propagate."""
    cpu = time.process_time()
    started = time.monotonic()
    try:
        return fn(), None, time.process_time() - cpu
    except IpbError as exc:
        return None, exc, time.process_time() - cpu
    finally:
        assert time.monotonic() - started < HANG_S  # wall time only as a hang guard


def _check(fn: Callable[[], Any], *, needs_file: bool) -> Any:
    result, error, cpu = _timed(fn)
    if cpu >= BOUND_S:
        # The bar is on the input's own cost.  A collection of the test runner's
        # garbage (a 1.2 GB process late in the suite) can land inside one call and
        # bill seconds of CPU to it (CI of stop 34: 3.1 s for a 1,157-character
        # dash run that takes 2 ms).  A slow input is slow again; a pause is not.
        gc.collect()
        result, error, cpu = _timed(fn)
    assert cpu < BOUND_S, f"{cpu:.2f} s of CPU on one reader call, twice"
    if error is not None:
        errors = error.errors if isinstance(error, ErrorGroup) else [error]
        for e in errors:
            whole_file = e.rule in WHOLE_FILE  # about the file as a whole (empty, unreadable): the file is the place
            assert e.line is not None or e.column is not None or whole_file, f"unlocated: {e}"
            if needs_file:
                assert e.file is not None, f"no file: {e}"
    return result


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


def _burn(seconds: float) -> None:
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


def test_the_time_bar_fails_a_slow_reader_and_forgives_one_pause(monkeypatch: Any) -> None:
    import pytest

    monkeypatch.setitem(globals(), "BOUND_S", 0.05)
    with pytest.raises(AssertionError, match="twice"):
        _check(lambda: _burn(0.08), needs_file=False)
    calls: list[int] = []

    def paused_once() -> str:
        calls.append(1)
        if len(calls) == 1:
            _burn(0.08)  # the first call pays a pause that is not the input's
        return "read"

    assert _check(paused_once, needs_file=False) == "read"
    assert len(calls) == 2

"""Shared helpers for the perturbation tests: bundled cards with their base scenarios."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest

import ipb
from ipb.engine.card import constraint_errors
from ipb.engine.registry import bundled_card_paths, compiled_card
from ipb.errors import IpbError
from ipb.engine.scenario import convert_fact
from ipb.perturb import Job, generate
from ipb.perturb.frame import Frame, PScenario, build_frame, load_base
from tests.engine.card_support import screener_card_head

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
CARDS = HERE / "cards"
FIXTURES = HERE / "fixtures"
SCENARIOS = ROOT / "frameworks" / "scenarios"
BUFFETT = "buffett_acquisition_checklist"
BUFFETT_BASE = SCENARIOS / BUFFETT / "ipb_p_011_base.yaml"

#: Every bundled card id (other cards are being added: tests iterate over whatever is there).
CARD_IDS = [p.stem for p in bundled_card_paths()]


@lru_cache(maxsize=None)
def card_frame(card_ref: str) -> tuple[Frame, tuple[PScenario, ...], str]:
    """The frame of a card and its loadable base scenarios, or a reason to skip it."""
    try:
        frame = build_frame([compiled_card(card_ref)])
    except IpbError as exc:
        return build_frame([BUFFETT]), (), f"card {card_ref} does not load: {exc.message}"
    folder = SCENARIOS / frame.card_ids[0]
    bases: list[PScenario] = []
    for path in sorted(folder.glob("*.yaml")):
        try:
            bases.append(load_base(path, frame))
        except IpbError:
            continue  # a base outside the vintage, or one another engineer is still editing
    reason = "" if bases else f"card {card_ref} has no base scenario inside its vintage in {folder}"
    return frame, tuple(bases), reason


@lru_cache(maxsize=None)
def review_run(card_id: str, base: str, seed: int, n: int = 1000) -> tuple[tuple[dict, dict], ...]:
    """A reviewed run, made once per session: (item, typed facts) for each of ``n`` items of ``card_id`` from the
    bundled scenario ``base`` at ``seed`` (short runs allowed), facts converted by the card's input specs."""
    frame = build_frame([card_id])
    result = generate(Job((card_id,), str(SCENARIOS / card_id / base), seed), n, allow_short=True)
    out = []
    for line in result.lines:
        item = json.loads(line)
        out.append((item, {k: convert_fact(frame.inputs[k], v) for k, v in item["scenario"]["facts"].items()}))
    return tuple(out)


def assert_relation_on_run(card_id: str, base: str, seed: int, name: str, applies, holds, least: int) -> None:
    """A review's relation on every item of its 1,000-item run: ``holds(facts)`` on each item where ``applies(facts)``,
    and at least ``least`` such items, so that the relation cannot pass by applying to nothing."""
    seen = 0
    for item, f in review_run(card_id, base, seed, 1000):
        if applies(f):
            seen += 1
            assert holds(f), (name, item["id"])
    assert seen >= least, (name, seen)


def relations_on_lines(card_id: str, lines, relations) -> tuple[list[tuple[str, str]], dict[str, int]]:
    """Each relation ``(name, applies, holds)`` on each item line of ``card_id``, facts read by ``ipb.facts``.

    Returns the ``(item id, name)`` pairs where a relation applies and does not hold, and how many items each was
    read on (a relation naming a fact the item does not state is skipped there), so that a test can also assert
    that no relation passed by applying to nothing.
    """
    import ipb

    read = {name: 0 for name, _, _ in relations}
    broken: list[tuple[str, str]] = []
    for line in lines:
        item = json.loads(line)
        facts = ipb.facts(card_id, item["scenario"]["facts"])
        for name, applies, holds in relations:
            try:
                if not applies(facts):
                    continue
                ok = holds(facts)
            except (KeyError, TypeError):  # a fact the relation names is not stated
                continue
            read[name] += 1
            if not ok:
                broken.append((item["id"], name))
    return broken, read


def assert_rule_case(card_id: str, rule: str | tuple[str, ...], facts: dict[str, str], refused: bool) -> None:
    """A reviewed item's facts against the card's rules: ``rule`` is the card's, and it is the one rule the facts
    break when ``refused`` (a review's item), none when kept (its neighbour). A tuple names every rule that breaks,
    in card order (a later, stricter rule over the same facts, e.g. s37fix2's last reported book)."""
    card = compiled_card(card_id).card
    rules = list(rule) if isinstance(rule, tuple) else [rule]
    assert set(rules) <= {k.id for k in card.constraints}
    errors = constraint_errors(card, ipb.facts(card_id, facts))
    assert [e.name for e in errors] == (rules if refused else [])


def assert_located_regimes_error(text: str, words: str, line: int, tmp_path: Path) -> None:
    """Loading ``text`` as a user's ``regimes.yaml`` fails with an error whose message holds ``words``, located at
    ``line`` of that file."""
    from ipb.errors import ErrorGroup
    from ipb.perturb.registries import load_regimes
    import pytest

    path = tmp_path / "regimes.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(IpbError) as err:
        load_regimes(path)
    errors = err.value.errors if isinstance(err.value, ErrorGroup) else [err.value]
    hit = [e for e in errors if words in e.message]
    assert hit, [e.message for e in errors]
    assert hit[0].file and hit[0].file.endswith("regimes.yaml") and hit[0].line == line, hit[0]


def anachronisms_of(card_id: str, facts: dict, when) -> list[str]:
    """The bundled regimes' anachronism messages for a bundled card's ``facts`` (fact strings by input) dated ``when``
    (a year or a date): what the date checks of every operator and ``ipb verify`` refuse."""
    from ipb.perturb.registries import bundled_regimes

    frame = build_frame([compiled_card(card_id)])
    return bundled_regimes().anachronisms(frame.inputs, ipb.facts(card_id, facts), when)


def price_leverage_screen(card_id: str, name: str, question: str = "") -> str:
    """A two-gate card of the tests' own (s59b's join card; s60's question card adds ``question``, YAML lines put
    after ``outcomes:``): price (``pe_ratio <= 15x``, kill ``dear``), then leverage (``debt_to_equity <= 60%``, kill
    ``levered``); outcomes BUY / PASS. LF line ends, a final newline."""
    return screener_card_head(card_id, name, "The screener checks the price, then leverage.") + question + """\
inputs:
  pe_ratio: {type: multiple, description: price over trailing earnings, range: [2x, 40x], step: 0.5x}
  debt_to_equity: {type: ratio, description: long-term debt over equity, range: [0%, 200%], step: 5%}
gates:
  - id: price
    name: Price
    proceed: pe_ratio <= 15x
    kill_criterion: dear
    required_elements: [P/E]
  - id: leverage
    name: Leverage
    proceed: debt_to_equity <= 60%
    kill_criterion: levered
    required_elements: [debt to equity]
"""


#: A one-investor registry: John Neff, listing one card (tests/perturb/cards/neff_new_user.yaml).
NEFF_REGISTRY = """\
version: 1
investors:
  neff:
    name: John Neff
    kind: practitioner
    organisation: Windsor Fund
    school: deep_value
    distinctive_phrases: [total return ratio, low price-earnings]
    phrases_source: author
    active: {start: 1964, end: "1995-12-31"}
    career_boundaries:
      - date: 1964
        event: windsor_manager
        description: Took over the Windsor Fund.
        corpus_filter: none
    cards: [neff_total_return_screen]
"""


def registry_in_use(tmp_path: Path, monkeypatch, text: str):
    """A fixture's body: ``text`` written to a new ``tmp_path/investors.yaml`` and made the investor registry (cards
    found in tests/perturb/cards/), yielding its path; the bundled registry is back afterwards.

    Each test gets its own new file (``tmp_path``), never one rewritten in place: a registry read is remembered by
    its path and modification time, so a shared file rewritten within the clock's resolution could be read stale.
    """
    from ipb.engine.investors import INVESTORS_ENV, use_investors

    monkeypatch.delenv(INVESTORS_ENV, raising=False)
    registry = tmp_path / "investors.yaml"
    registry.write_text(text, encoding="utf-8")
    monkeypatch.setenv("IPB_CARDS", str(CARDS))
    use_investors(registry)
    yield registry
    use_investors()


#: ``ipb`` as its console script runs it, for a process of its own (``subprocess.run([*IPB_COMMAND, "join", ...])``).
IPB_COMMAND = (sys.executable, "-c", "from ipb.cli import main; main()")


def ipb_process(*args: str, **popen: Any) -> "subprocess.Popen[bytes]":
    """``ipb ARGS`` started in a process of its own, in the repository root, as the console script runs it (its own
    standard input, output and signal handlers, which CliRunner does not give); ``popen`` goes to Popen."""
    return subprocess.Popen([*IPB_COMMAND, *args], cwd=ROOT, **popen)


def wait_for_temporary_file(proc: "subprocess.Popen[bytes]", out: Path, command: str, timeout: float = 120) -> None:
    """Wait until ``command`` (running as ``proc``) has made its temporary file beside ``out`` (a ``.tmp`` in
    ``out``'s folder), so that a signal sent now lands while it writes; fail the test, with the end of its stderr,
    when it exits or ``timeout`` seconds pass first."""
    deadline = time.monotonic() + timeout
    while not (out.parent.is_dir() and any(p.name.endswith(".tmp") for p in out.parent.iterdir())):
        if time.monotonic() > deadline or proc.poll() is not None:
            proc.kill()
            said = proc.stderr.read().decode()[-2000:] if proc.stderr is not None else ""
            pytest.fail(f"ipb {command} made no temporary file: {said}")
        time.sleep(0.05)

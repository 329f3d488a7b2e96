"""Findings of s61's new user and breaker (/work/notes/NEWUSER_s61.md) fixed by s62ufix (issue 18).

N3 (bug kind: advice that leads to a failing release): the note about an investor missing from the registry named
``ipb respond --investors FILE`` only; items made without the registry record it as unknown, so ``ipb verify`` (with
the registry) fails every item and respond warns on every record. The note and docs now say to make the items with
the registry (``IPB_INVESTORS``).
N4 (bug kind: copies looked for in too few places): ``cat A | ipb join - A`` kept A's lines from the pipe and did not
carry the card copy beside A, so the release verified 0 of N.
N12 (bug kind: the error filed against the wrong file): a stale edited copy already in the output's ``ipb-cards/``
was the one the release carried, and join filed its error against an untouched input's line.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from ipb.cli import app
from ipb.perturb import Job, generate
from ipb.perturb.verify import verify_items
from perturb_support import CARDS, FIXTURES, IPB_COMMAND, ROOT, ipb_process
from tests.perturb.test_card_copy_hash_s60 import LINES_SHA, _perturb
from tests.perturb.test_newuser_s59b import CARD

runner = CliRunner()


def _join(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["join", *args])
    return result.exit_code, " ".join(result.output.split())


def _join_pipe(data: bytes, *args: str) -> tuple[int, str]:
    """``cat FILE | ipb join ARGS``: ``data`` through a pipe, in a process of its own."""
    proc = subprocess.run([*IPB_COMMAND, "join", *args], cwd=ROOT, input=data, capture_output=True, timeout=120)
    return proc.returncode, " ".join(proc.stderr.decode("utf-8").split())


# N3 ---------------------------------------------------------------------------------------------------------------

def test_the_unregistered_investor_note_says_to_make_the_items_with_the_registry():
    # Before: "... register the investor in a file passed with `ipb respond --investors FILE` ..." and no word of
    # making the items with it.
    result = generate(Job((str(CARDS / "neff_new_user.yaml"),), str(FIXTURES / "neff_new_user_base.yaml"), 1, ()), 4)
    [note] = [n for n in result.notes if "is not in the investor registry" in n]
    # s63ufix (NEWUSER_s62 N8): perturb and verify now take --investors, which the note names first
    assert "make the items with it, ipb perturb --investors FILE ... (or IPB_INVESTORS=FILE)" in note
    assert "(ipb verify --investors FILE needs it too); then pass it to `ipb respond --investors FILE`" in note


def test_publishing_step_one_says_to_make_the_items_with_the_registry():
    text = " ".join((ROOT / "docs" / "perturbation.md").read_text(encoding="utf-8").split())
    step = text[text.index("### Publishing a benchmark"):]
    step = step[step.index("1. Make the items"):step.index("2. Ship")]
    assert "`IPB_INVESTORS=investors.yaml ipb perturb ...`" in step
    assert "`ipb perturb --investors investors.yaml ...`" in step  # s63ufix (NEWUSER_s62 N8): the option now exists
    scoring = " ".join((ROOT / "docs" / "scoring.md").read_text(encoding="utf-8").split())
    assert ("Make the items with the registry too: `ipb perturb` and `ipb verify` take the same `--investors FILE`"
            in scoring)


# N4 ---------------------------------------------------------------------------------------------------------------

def test_a_pipe_of_a_takes_its_card_copy_from_beside_a(tmp_path):
    # Before: exit 0, "<stdin>: kept 3", "A: kept 0, dropped 3", "warning: <stdin>: 1 card copy(ies) its kept items
    # name are not beside it", no ipb-cards/ beside the output, and ipb verify of it: 0 of 3.
    items = _perturb(tmp_path / "made", CARD.encode("utf-8"))
    out = tmp_path / "release" / "items.jsonl"
    code, text = _join_pipe(items.read_bytes(), "-", str(items), "--out", str(out))
    assert code == 0, text
    assert "<stdin>: kept 3" in text and f"{items}: kept 0, dropped 3" in text
    assert "not beside it" not in text and "1 card file(s) copied" in text
    copy = out.parent / "ipb-cards" / f"{LINES_SHA}.yaml"
    assert copy.read_bytes() == (items.parent / "ipb-cards" / f"{LINES_SHA}.yaml").read_bytes()
    assert verify_items(out).ok


def test_a_file_whose_copy_is_beside_another_input_only_is_not_warned_about(tmp_path):
    # B holds A's lines without its copies (moved away); A's lines are all dropped as repeats of B's, and A's copy
    # serves B's kept lines.
    items = _perturb(tmp_path / "made", CARD.encode("utf-8"))
    bare = tmp_path / "bare" / "items.jsonl"
    bare.parent.mkdir()
    bare.write_bytes(items.read_bytes())
    out = tmp_path / "release" / "items.jsonl"
    code, text = _join(str(bare), str(items), "--out", str(out))
    assert code == 0, text
    assert f"{bare}: kept 3" in text and "not beside it" not in text
    assert verify_items(out).ok


# N12 --------------------------------------------------------------------------------------------------------------

def _stale_release(tmp_path: Path, edited: str) -> tuple[Path, Path, Path]:
    items = _perturb(tmp_path / "made", CARD.encode("utf-8"))
    out = tmp_path / "release" / "items.jsonl"
    stale = out.parent / "ipb-cards" / f"{LINES_SHA}.yaml"
    stale.parent.mkdir(parents=True)
    stale.write_text(edited, encoding="utf-8")
    return items, out, stale


def test_a_stale_copy_beside_the_output_that_changes_a_gold_is_the_error_named(tmp_path):
    # Before: "ITEMS:2:1: load error: line 2 (id ...) fails ipb verify against the card copy STALE ...; put back
    # the copy the run wrote": filed against the untouched input's line, no word of the good copy beside it.
    items, out, stale = _stale_release(tmp_path, CARD.replace("pe_ratio <= 15x", "pe_ratio <= 5x"))
    good = items.parent / "ipb-cards" / f"{LINES_SHA}.yaml"
    code, text = _join(str(items), "--out", str(out))
    assert code == 1 and not out.exists()
    assert text.startswith(f"{stale}: load error: line 2 of {items} (id ")
    assert (f"fails ipb verify against the card copy {stale}, which changed since the items were made (it does not "
            "hash to its name, the sha256 the items name) and is the one the release carries, as it is already "
            "beside the output: gate 1 Price: kill_criterion null -> dear;") in text
    assert "gate 1 Price: verdict PROCEED -> REJECT" in text
    assert f"{good}, beside an input, hashes to its name: copy it over {stale}, or remove {stale}" in text
    assert f"{items}:2:1" not in text
    stale.unlink()  # as the message says: the good copy is then carried
    code, text = _join(str(items), "--out", str(out))
    assert code == 0 and stale.read_bytes() == good.read_bytes() and verify_items(out).ok


def test_a_stale_copy_beside_the_output_that_passes_is_joined_with_the_good_copy_named(tmp_path):
    # A reworded description: ipb verify passes with a warning; join says where the good copy is (before: only
    # verify's warning, and ipb score then refused every item).
    items, out, stale = _stale_release(tmp_path, CARD.replace("long-term debt over equity", "debt over equity"))
    good = items.parent / "ipb-cards" / f"{LINES_SHA}.yaml"
    code, text = _join(str(items), "--out", str(out))
    assert code == 0, text
    assert (f"warning: {stale}, already beside the output, is the copy of card 's59b_join_screen' the release "
            f"carries and it changed since the items were made, while {good}, beside an input, hashes to its name: "
            f"ipb respond and ipb score refuse items whose own copy changed; copy {good} over it") in text


# N9 ---------------------------------------------------------------------------------------------------------------

_L8_HEAD = """\
id: {id}
investor: Howard Marks
name: Two rules {id}
topology_type: linear_sequential
gate_logic: conjunction
topology_rationale: One test.
vintage: {{start: 1990}}
sources:
  - {{tier: 1, document: "Memo", year: 2000}}
"""
_UP = _L8_HEAD.format(id="up_rule") + """\
inputs:
  market_cap: {type: money, range: [$100M, $2B], step: $10M}
  book_value: {type: money, range: [$100M, $2B], step: $10M}
  price_to_book: {type: multiple, range: [0.05x, 20x], step: 0.01x}
constraints:
  - {id: pb_from_parts, derive: price_to_book, value: 'market_cap / book_value'}
gates:
  - {id: cheap, name: Cheap, proceed: price_to_book < 1x, required_elements: [price_to_book]}
"""
_CYC = _L8_HEAD.format(id="cyc_rule") + """\
inputs:
  book_discount: {type: ratio, range: [0%, 90%], step: 1%}
  price_to_book: {type: multiple, range: [0.05x, 20x], step: 0.01x}
constraints:
  - {id: pb_from_discount, derive: price_to_book, value: '1x - book_discount'}
gates:
  - {id: deep, name: Deep discount, proceed: book_discount > 30%, required_elements: [book_discount]}
"""
_SAME = _CYC.replace("cyc_rule", "same_rule").replace("'1x - book_discount'", "'market_cap/book_value'").replace(
    "  book_discount: {type: ratio, range: [0%, 90%], step: 1%}\n",
    "  market_cap: {type: money, range: [$100M, $2B], step: $10M}\n"
    "  book_value: {type: money, range: [$100M, $2B], step: $10M}\n"
    "  book_discount: {type: ratio, range: [0%, 90%], step: 1%}\n")
_L8_BASE = """\
id: two_rules_base
layer: L8
title: Two rules for one input
as_of: "2000-06-30"
facts:
  market_cap: $800M
  book_value: $1B
  book_discount: 20%
"""


def _two_rule_files(tmp_path: Path, second: str = _CYC) -> tuple[Path, Path, Path]:
    up, other, base = tmp_path / "up.yaml", tmp_path / "other.yaml", tmp_path / "base.yaml"
    up.write_text(_UP, encoding="utf-8")
    other.write_text(second, encoding="utf-8")
    base.write_text(_L8_BASE, encoding="utf-8")
    return up, other, base


_TWO_RULES = ("input 'price_to_book' is derived by two rules: {a} (card {ca}, constraint {ka}) and {b} (card {cb}, "
              "constraint {kb}); an L8 scenario shares one value, so every item would break one of them")


def test_check_names_both_rules_of_two_cards_deriving_one_input(tmp_path):
    # Before: "checked 1 file(s): ok", and ipb perturb then stopped with "only 0 distinct items can be made ...
    # e.g. breaks constraint cyc_rule/pb_from_discount".
    up, cyc, base = _two_rule_files(tmp_path)
    result = runner.invoke(app, ["check", str(base), "--card", str(cyc), "--card", str(up)])
    text = " ".join(result.output.split())
    assert result.exit_code == 1, text
    assert _TWO_RULES.format(a="1x - book_discount", ca="cyc_rule", ka="pb_from_discount", b="market_cap / book_value",
                             cb="up_rule", kb="pb_from_parts") in text
    made = runner.invoke(app, ["perturb", "--card", str(up), "--card", str(cyc), "--base", str(base), "--n", "5",
                               "--out", str(tmp_path / "items.jsonl")])
    said = " ".join(made.output.split())
    assert made.exit_code == 1 and not (tmp_path / "items.jsonl").exists()
    assert _TWO_RULES.format(a="market_cap / book_value", ca="up_rule", ka="pb_from_parts", b="1x - book_discount",
                             cb="cyc_rule", kb="pb_from_discount") in said


def test_two_cards_deriving_one_input_by_the_same_rule_pass_check(tmp_path):
    # the same rule spelled with other spaces is one rule
    up, same, base = _two_rule_files(tmp_path, _SAME)
    result = runner.invoke(app, ["check", str(base), "--card", str(same), "--card", str(up)])
    assert result.exit_code == 0, result.output


def test_the_constraints_section_says_a_derive_reads_drawn_inputs_and_decks_chain():
    # N8: the loader's rule (one card derives from drawn inputs only) was in no doc, while L8 decks chain
    text = " ".join((ROOT / "docs" / "perturbation.md").read_text(encoding="utf-8").split())
    part = text[text.index("### Constraints: relations every scenario satisfies"):]
    part = part[:part.index("\n### ") if "\n### " in part else part.index("## ", 10)]
    assert "Within one card a `value` reads drawn inputs only, never another derived input" in part
    assert "Across the cards of an L8 item derives do chain" in part
    assert "two cards that derive one input must do it by one rule" in part


# N13 --------------------------------------------------------------------------------------------------------------

def _closed_stdout(*args: str) -> tuple[int, str]:
    """``ipb ARGS | (reader that leaves at once)``: the pipe's read end is closed before ipb writes."""
    proc = ipb_process(*args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    errors = proc.stderr.read().decode("utf-8")
    return proc.wait(timeout=120), errors


def test_verify_to_a_closed_pipe_keeps_its_own_exit_status(tmp_path):
    # Before: `ipb verify ITEMS | head -c 10` exited 1 with nothing on stderr (rich's SystemExit(1)), read by a script
    # as a failed verify.
    items = _perturb(tmp_path / "made", CARD.encode("utf-8"))
    assert _closed_stdout("verify", str(items)) == (0, "")
    assert _closed_stdout("verify", str(items), "--format", "json") == (0, "")
    broken = tmp_path / "broken.jsonl"
    lines = items.read_text(encoding="utf-8").splitlines()
    broken.write_text(lines[0] + "\n" + "{}\n", encoding="utf-8")
    code, errors = _closed_stdout("verify", str(broken))
    assert code == 1 and errors == ""  # a failed verify still fails


def test_run_to_a_closed_pipe_exits_1_without_a_traceback():
    # A guard, not a regression: main's exit 1 as before. SafeConsole now raises BrokenPipeError for
    # closed_stdout_ok, and without main's handler the fast `ipb run` path (no click) printed its traceback.
    base = ROOT / "frameworks/scenarios/buffett_acquisition_checklist/ipb_p_011_base.yaml"
    code, errors = _closed_stdout("run", "buffett_acquisition_checklist", str(base))
    assert (code, errors) == (1, "")


def test_check_counts_a_file_named_investors_yaml_as_an_investors_file(tmp_path):
    # Before: "checked 1 file(s): ok" for investors.yaml (read by its name), while docs/scoring.md promises the count
    # line that a file of any other name got.
    from perturb_support import CARDS, NEFF_REGISTRY

    registry = tmp_path / "investors.yaml"
    registry.write_text(NEFF_REGISTRY, encoding="utf-8")
    # s63ufix (NEWUSER_s62 N4): a card the file lists that no search finds is now an unknown-card warning; the
    # registry's card, neff_total_return_screen, is found in the test cards' folder
    result = runner.invoke(app, ["check", str(registry), "--cards", str(CARDS)])
    assert result.exit_code == 0, result.output
    assert result.output.strip().endswith("checked 1 file(s) (1 of them investors file(s), checked as such): ok")


def test_joins_stop_line_counts_the_time_its_modules_take_to_load(tmp_path, monkeypatch):
    # Before: `started` was taken after join's imports (most of a short join), so a signal 1.5 s into the command was
    # said to come "after 0 s". Here a fake clock moves 7 s while ipb.perturb.join is imported, and the stop comes
    # (as SystemExit(143), what a SIGTERM becomes) at the first check after the imports.
    import importlib.abc
    import time

    import ipb._files

    now = [1000.0]
    monkeypatch.setattr(time, "time", lambda: now[0])

    class SlowImport(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path, target=None):
            if name == "ipb.perturb.join":
                now[0] += 7.0
            return None

    monkeypatch.delitem(sys.modules, "ipb.perturb.join")
    monkeypatch.setattr(sys, "meta_path", [SlowImport(), *sys.meta_path])

    def stop(*args, **kwargs):
        raise SystemExit(143)

    monkeypatch.setattr(ipb._files, "check_writable", stop)
    items = tmp_path / "in.jsonl"
    items.write_text("{}\n", encoding="utf-8")
    result = runner.invoke(app, ["join", str(items), "--out", str(tmp_path / "out.jsonl")])
    assert result.exit_code == 143
    assert "join stopped by SIGTERM after 7 s: no items file written" in " ".join(result.output.split())


def _card_with_setting(tmp_path: Path, line: str) -> Path:
    text = CARD.replace("\ninputs:", f"\nquestion:\n  {line}\n  ask: \"Should the fund buy?\"\ninputs:", 1)
    assert text != CARD
    card = tmp_path / "card.yaml"
    card.write_text(text, encoding="utf-8")
    return card


def test_check_refuses_two_slots_run_together(tmp_path):
    # Before: passed, and every question read "Walter SchlossWalter Schloss's Net-Asset Rules rules".
    card = _card_with_setting(tmp_path, "setting: \"A fund following {investor}{investor}'s rules is deciding.\"")
    result = runner.invoke(app, ["check", str(card)])
    text = result.output
    assert result.exit_code == 1
    assert ("load error: two slots run together in question.setting: {investor}{investor} would join two names into "
            "one word") in " ".join(text.split())
    line = next(n for n, t in enumerate(card.read_text().splitlines(), 1) if "{investor}{investor}" in t)
    column = card.read_text().splitlines()[line - 1].index("{investor}{investor}") + 1 + len("{investor}")
    assert f"{card}:{line}:{column}:" in text  # the caret under the second slot
    ok = _card_with_setting(tmp_path, "setting: \"A fund following {investor} and {investor}'s rules decides.\"")
    assert "two slots run together" not in runner.invoke(app, ["check", str(ok)]).output


def test_a_null_setting_is_not_told_to_quote_null(tmp_path):
    # Before: "quote it ('null')", which makes the setting the word null.
    card = _card_with_setting(tmp_path, "setting: null")
    result = runner.invoke(app, ["check", str(card)])
    text = " ".join(result.output.split())
    assert result.exit_code == 1
    assert ("YAML reads null here as nothing (null), but a string (an expression or text) is expected: write the "
            "text, or leave the key out (quoted, 'null' would be the word null) (at question/setting)") in text
    assert "quote it ('null')" not in text


def test_a_date_outside_the_career_only_is_not_called_outside_the_vintage(tmp_path):
    # Lynch's card's vintage is 1977-1990 and the registry's career 1977 to 1990-05: 1990-06-30 is inside the
    # vintage, outside the career. Before: "dated outside the framework's vintage (...: outside the career ...)".
    source = ROOT / "frameworks/scenarios/lynch_six_category_framework/decline_fast_grower_overpriced.yaml"
    base = tmp_path / "late.yaml"
    base.write_text(source.read_text(encoding="utf-8").replace('as_of: "1983-06-30"', 'as_of: "1990-06-30"'),
                    encoding="utf-8")
    result = runner.invoke(app, ["perturb", "-c", "lynch_six_category_framework", "-b", str(base), "--n", "3",
                                 "--out", str(tmp_path / "x.jsonl")])
    text = " ".join(result.output.split())
    assert result.exit_code == 1
    assert ("the base scenario is dated outside the investor's career (the registry's active period, which applies "
            "with the card's vintage) (lynch_six_category_framework: 1990-06-30 is outside the career of investor "
            "'lynch' (active 1977 to 1990-05)); perturb it only as an FM-6 probe (--fm6-probe), or give it a date "
            "inside both") in text
    base.write_text(source.read_text(encoding="utf-8").replace('as_of: "1983-06-30"', 'as_of: "1995-06-30"'),
                    encoding="utf-8")
    result = runner.invoke(app, ["perturb", "-c", "lynch_six_category_framework", "-b", str(base), "--n", "3",
                                 "--out", str(tmp_path / "x.jsonl")])
    assert ("dated outside the framework's vintage (lynch_six_category_framework: 1995-06-30 is outside the framework "
            "vintage 1977-1990); perturb it only as an FM-6 probe (--fm6-probe), or give it a date inside the "
            "vintage") in " ".join(result.output.split())

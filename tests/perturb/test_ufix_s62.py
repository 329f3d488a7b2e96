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
from perturb_support import FIXTURES, CARDS
from tests.perturb.test_card_copy_hash_s60 import LINES_SHA, _perturb
from tests.perturb.test_newuser_s59b import CARD

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]


def _join(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["join", *args])
    return result.exit_code, " ".join(result.output.split())


def _join_pipe(data: bytes, *args: str) -> tuple[int, str]:
    """``cat FILE | ipb join ARGS``: ``data`` through a pipe, in a process of its own."""
    proc = subprocess.run([sys.executable, "-c", "from ipb.cli import main; main()", "join", *args], cwd=ROOT,
                          input=data, capture_output=True, timeout=120)
    return proc.returncode, " ".join(proc.stderr.decode("utf-8").split())


# N3 ---------------------------------------------------------------------------------------------------------------

def test_the_unregistered_investor_note_says_to_make_the_items_with_the_registry():
    # Before: "... register the investor in a file passed with `ipb respond --investors FILE` ..." and no word of
    # making the items with it.
    result = generate(Job((str(CARDS / "neff_new_user.yaml"),), str(FIXTURES / "neff_new_user_base.yaml"), 1, ()), 4)
    [note] = [n for n in result.notes if "is not in the investor registry" in n]
    assert "make the items with it, IPB_INVESTORS=FILE ipb perturb ..." in note
    assert "(ipb verify needs it too); then pass it to `ipb respond --investors FILE`" in note


def test_publishing_step_one_says_to_make_the_items_with_the_registry():
    text = " ".join((ROOT / "docs" / "perturbation.md").read_text(encoding="utf-8").split())
    step = text[text.index("### Publishing a benchmark"):]
    step = step[step.index("1. Make the items"):step.index("2. Ship")]
    assert "`IPB_INVESTORS=investors.yaml ipb perturb ...`" in step
    scoring = " ".join((ROOT / "docs" / "scoring.md").read_text(encoding="utf-8").split())
    assert "Make the items with the registry too: `ipb perturb` and `ipb verify` have no `--investors`" in scoring


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

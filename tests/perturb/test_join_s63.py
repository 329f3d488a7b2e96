"""``ipb join`` findings of s62's new user fixed by s63join (issue 18).

N6 (bug kind: a choice by input order where content decides): ``cat A | ipb join - B C`` took the changed copy of A's
card that lay beside B (whose items name another version of the card) and refused, while ``- C B`` passed with C's
good copy. The copy a kept line needs is now chosen by content: one beside an input that hashes to its name; a changed
one only when none does and the line passes with it; a refusal names every copy and says none is good; a copy beside
an input whose items do not name it never blocks the join.

N14 (bug kind: a success that leaves a release failing verify): runs made with two versions of one card id (the card
edited between them) were joined silently and ``ipb verify`` of the release failed; the join now refuses, naming both
hashes and the lines that carry each. Law (hypothesis): a join that exits 0 with every copy carried writes a release
``ipb verify`` passes.
"""

from __future__ import annotations

import hashlib
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from typer.testing import CliRunner

from ipb.cli import app
from ipb.engine.registry import card_file_sha256
from ipb.errors import IpbError
from ipb.perturb.join import join_items
from ipb.perturb.verify import verify_items
from tests.perturb.test_card_copy_hash_s60 import BASE, LINES_SHA, _perturb
from tests.perturb.test_join_s61 import _join_stdin
from tests.perturb.test_newuser_s59b import CARD

runner = CliRunner()

#: A gold-changing edit (test_copy_rule_s61: with the price gate at 5x, lines 2 and 3 of the seed-3 run change gold).
THRESHOLD_EDIT = CARD.replace("pe_ratio <= 15x", "pe_ratio <= 5x")
#: The card edited in its description: another hash, the same scenarios (B's run of "another version").
REWORDED = CARD.replace("price over trailing earnings", "price over earnings")


def _three(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A and C: runs of CARD (seed 3, the same three items), each with the good copy; B: a run of the reworded card
    with, beside it, a threshold-edited copy named by CARD's hash (the user's B)."""
    a = _perturb(tmp_path / "a", CARD.encode("utf-8"))
    b = _perturb(tmp_path / "b", REWORDED.encode("utf-8"))
    c = _perturb(tmp_path / "c", CARD.encode("utf-8"))
    stale = b.parent / "ipb-cards" / f"{LINES_SHA}.yaml"
    stale.write_text(THRESHOLD_EDIT, encoding="utf-8")
    assert card_file_sha256(stale) != LINES_SHA
    return a, b, c


def test_a_changed_copy_beside_an_unrelated_input_does_not_win_over_a_good_one(tmp_path):
    # Before: "- B C" exit 1 ("<stdin>:2:1: load error: ... fails ipb verify against the card copy B/ipb-cards/...");
    # "- C B" exit 0. Now both orders pass, carry C's good copy and verify.
    a, b, c = _three(tmp_path)
    for order, inputs in (("bc", [str(b), str(c)]), ("cb", [str(c), str(b)])):
        out = tmp_path / order / "items.jsonl"
        code, text = _join_stdin(a, "-", *inputs, "--out", str(out))
        assert code == 0, text
        carried = out.parent / "ipb-cards" / f"{LINES_SHA}.yaml"
        assert carried.read_bytes() == CARD.encode("utf-8")
        assert verify_items(out).ok


def test_a_good_copy_beside_another_input_replaces_the_inputs_own_changed_copy(tmp_path):
    # Before: exit 1 against A's own changed copy, though C's copy hashes to its name.
    a, _, c = _three(tmp_path)
    own = a.parent / "ipb-cards" / f"{LINES_SHA}.yaml"
    own.write_text(THRESHOLD_EDIT, encoding="utf-8")
    out = tmp_path / "rel" / "items.jsonl"
    result = join_items([a, c], out)
    assert result.kept == 3
    assert (out.parent / "ipb-cards" / f"{LINES_SHA}.yaml").read_bytes() == CARD.encode("utf-8")
    assert any(w.startswith(f"warning: {own}, beside {a}, changed since the items were made") and
               f"the release carries {c.parent / 'ipb-cards' / own.name}" in w for w in result.card_warnings)
    assert verify_items(out).ok


def test_only_changed_copies_that_fail_is_a_refusal_naming_every_copy(tmp_path):
    a, _, c = _three(tmp_path)
    copies = [p.parent / "ipb-cards" / f"{LINES_SHA}.yaml" for p in (a, c)]
    for copy in copies:
        copy.write_text(THRESHOLD_EDIT, encoding="utf-8")
    out = tmp_path / "rel" / "items.jsonl"
    try:
        join_items([a, c], out)
    except Exception as exc:  # noqa: BLE001 - the message is what is checked
        text = str(exc)
    else:
        raise AssertionError("joined")
    assert f"fails ipb verify against the card copy {copies[0]}, {copies[1]}, which changed" in text
    assert "no copy of it beside an input hashes to its name or passes" in text
    assert not out.exists()


def test_a_changed_copy_beside_an_input_that_does_not_name_it_never_blocks(tmp_path):
    # cat A | ipb join - B: the only copy of A's card is B's threshold-edited one, and B's items name another hash.
    # Before: exit 1. Now exit 0, B's copy is not carried, and the warning names it.
    a, b, _ = _three(tmp_path)
    out = tmp_path / "rel" / "items.jsonl"
    code, text = _join_stdin(a, "-", str(b), "--out", str(out))
    assert code == 0, text
    stale = b.parent / "ipb-cards" / f"{LINES_SHA}.yaml"
    assert f"warning: {stale}, beside an input whose items do not name it, changed since the items were made" in text
    assert not (out.parent / "ipb-cards" / f"{LINES_SHA}.yaml").exists()
    assert "warning: card 's59b_join_screen' changed since" not in text  # the copy tried for line 1 is not carried
    assert "warning: <stdin>: 1 card copy(ies) its kept items name are not beside it" in text


# N14 (two versions of one card) -------------------------------------------------------------------------------------

def _run(folder: Path, card: str, base_id: str, seed: str) -> Path:
    """A 6-item metric run of ``card`` from the s60 base under the id ``base_id`` (another id: other scenarios)."""
    folder.mkdir(parents=True)
    (folder / "card.yaml").write_text(card, encoding="utf-8")
    (folder / "base.yaml").write_text(BASE.replace("S60-HASH", base_id), encoding="utf-8")
    out = folder / "run" / "items.jsonl"
    result = runner.invoke(app, ["perturb", "--card", str(folder / "card.yaml"), "--base", str(folder / "base.yaml"),
                                 "--n", "6", "--seed", seed, "--ops", "metric", "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


def test_two_versions_of_one_card_are_refused_naming_both_hashes_and_inputs(tmp_path):
    # Before: joined 12 of 12 with no word, and ipb verify of the release failed 2 of 12 (gold mismatches: the
    # threshold moved between the runs). Hashes: SHA-256 of each card's lines (card_file_sha256 of its copy).
    one = _run(tmp_path / "one", CARD, "S63-ONE", "3")
    two = _run(tmp_path / "two", THRESHOLD_EDIT, "S63-TWO", "4")
    edited_sha = hashlib.sha256(THRESHOLD_EDIT[:-1].encode("utf-8")).hexdigest()  # the lines, as LINES_SHA
    assert edited_sha != LINES_SHA
    out = tmp_path / "rel" / "items.jsonl"
    result = runner.invoke(app, ["join", str(one), str(two), "--out", str(out)])
    text = " ".join(result.output.split())
    assert result.exit_code == 1 and not out.exists()
    assert text.startswith(f"{two}:1:1: load error: line 1 (id 'S63-TWO-")
    assert (f"names card 's59b_join_screen' with sha256 {edited_sha[:12]}..., while line 1 of {one} names it with "
            f"sha256 {LINES_SHA[:12]}...: the runs were made with two versions of the card") in text
    # a run of the edited card whose every line repeats one of the first run's is no version in the release
    again = _perturb(tmp_path / "again", REWORDED.encode("utf-8"))
    first = _perturb(tmp_path / "first", CARD.encode("utf-8"))
    assert join_items([first, again], tmp_path / "rel2" / "items.jsonl").kept == 3


#: The runs the property draws from (made once): two of CARD (other scenarios), one of the threshold-edited card,
#: one of the reworded card whose scenarios repeat the first run's.
_POOL = (("one", CARD, "S63-ONE", "3"), ("two", CARD, "S63-TWO", "4"), ("thr", THRESHOLD_EDIT, "S63-THR", "5"),
         ("same", REWORDED, "S63-ONE", "3"))
_TAMPER = {"none": None, "threshold": THRESHOLD_EDIT, "reworded": REWORDED}


@pytest.fixture(scope="module")
def pool(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    tmp = tmp_path_factory.mktemp("pool")
    return {name: _run(tmp / name, card, base_id, seed) for name, card, base_id, seed in _POOL}


@settings(max_examples=12, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(picks=st.lists(st.sampled_from([p[0] for p in _POOL]), min_size=1, max_size=3, unique=True),
       tampers=st.lists(st.sampled_from(sorted(_TAMPER)), min_size=3, max_size=3))
def test_a_join_that_succeeds_gives_a_release_that_verifies(pool, picks, tampers):
    # The law of issue 18's release: a join that exits 0 with every copy carried writes a file ipb verify passes.
    # Each input's copy of CARD (named LINES_SHA) may be replaced by a threshold-edited or reworded card.
    with tempfile.TemporaryDirectory() as tmp:
        inputs = []
        for name, tamper in zip(picks, tampers):
            folder = Path(tmp) / name
            shutil.copytree(pool[name].parent, folder)
            copy = folder / "ipb-cards" / f"{LINES_SHA}.yaml"
            if _TAMPER[tamper] is not None and copy.is_file():
                copy.write_text(_TAMPER[tamper], encoding="utf-8")
            inputs.append(folder / "items.jsonl")
        out = Path(tmp) / "rel" / "items.jsonl"
        try:
            result = join_items(inputs, out)
        except IpbError:
            assert not out.exists()
            return
        if not result.missing_cards:
            assert verify_items(out).ok, (picks, tampers)

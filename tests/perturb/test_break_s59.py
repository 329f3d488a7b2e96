"""Regression tests for s59break's findings on ``ipb join`` and the temporary-file cleanup (issue 18, s59fixj).

Each test writes small files of its own: items with the keys every item has and a card copy named by the SHA-256 of
its content less the final newline, as ``ipb perturb`` names it.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ipb._files import clean_stale
from ipb.cli import app
from perturb_support import ipb_process, wait_for_temporary_file

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]
BASE = ROOT / "frameworks/scenarios/buffett_acquisition_checklist/ipb_p_011_base.yaml"

CARD_TEXT = "id: tiny\nname: Tiny\n"
CARD_HASH = hashlib.sha256(CARD_TEXT[:-1].encode()).hexdigest()


def _item(ident: str, scenario: object = 1, source: str | None = f"ipb-cards/{CARD_HASH}.yaml") -> str:
    cards = [{"id": "tiny", "content_hash": CARD_HASH, "source": source}] if source else []
    return json.dumps({"id": ident, "version": 2, "layer": "L7", "question": "q", "scenario": {"s": scenario},
                       "manifest": {"cards": cards}})


def _run(folder: Path, *lines: str, card: str | None = CARD_TEXT) -> Path:
    """An items file of ``lines`` in ``folder``, with the card copy beside it unless ``card`` is None."""
    folder.mkdir(parents=True, exist_ok=True)
    items = folder / "items.jsonl"
    items.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    if card is not None:
        (folder / "ipb-cards").mkdir(exist_ok=True)
        (folder / "ipb-cards" / f"{CARD_HASH}.yaml").write_text(card, encoding="utf-8")
    return items


def _join(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["join", *args])
    return result.exit_code, " ".join(result.output.split())


def test_join_writes_nothing_when_ipb_cards_beside_out_is_a_file(tmp_path):
    # bug kind: partial output on an error. Before: exit 1 "cannot write out/items.jsonl: File exists", yet the
    # items file was written beside the bad ipb-cards file.
    items = _run(tmp_path / "a", _item("T-00000000000000aa"))
    out = tmp_path / "out" / "items.jsonl"
    out.parent.mkdir()
    (out.parent / "ipb-cards").write_text("not a folder")
    code, text = _join(str(items), "--out", str(out))
    assert code == 1 and f"cannot write the card copies to {out.parent / 'ipb-cards'}: it is a regular file" in text
    assert sorted(p.name for p in out.parent.iterdir()) == ["ipb-cards"]  # no items, no temporary file


def test_join_warns_when_an_input_has_no_card_copies(tmp_path):
    # bug kind: a release that cannot verify, said nothing. Before: exit 0 and no word of the missing copy.
    items = _run(tmp_path / "a", _item("T-00000000000000aa"), card=None)
    out = tmp_path / "out" / "items.jsonl"
    code, text = _join(str(items), "--out", str(out))
    assert code == 0
    assert (f"warning: {items}: 1 card copy(ies) its kept items name are not beside it (ipb-cards/{CARD_HASH}.yaml):"
            f" ipb verify {out} will need those cards installed") in text
    assert out.is_file() and not (out.parent / "ipb-cards").exists()


def test_join_checks_card_copies_against_their_hash_names(tmp_path):
    # bug kind: a tampered or stale copy kept silently. Before: the edited copy was copied (exit 0), and a stale
    # copy already at the destination was kept (exit 0).
    good = _run(tmp_path / "good", _item("T-00000000000000aa"))
    bad = _run(tmp_path / "bad", _item("T-00000000000000bb"), card=CARD_TEXT + "edited: yes\n")
    out = tmp_path / "out" / "items.jsonl"
    code, text = _join(str(bad), "--out", str(out))
    copy = tmp_path / "bad" / "ipb-cards" / f"{CARD_HASH}.yaml"
    # s61nfix (N6): a changed copy is judged by ipb verify's check of the items naming it (these bare items fail it)
    assert code == 1 and f"{bad}:1:1: load error: line 1 (id 'T-00000000000000bb') fails ipb verify against the card " \
        f"copy {copy}, which changed since the items were made" in text
    assert not out.parent.exists() or list(out.parent.iterdir()) == []
    # s63join (s62 new user N6): with good's copy, which hashes to its name, beside another input, that one is carried
    # and the edited one named; the copy is chosen by content, not by the order of the inputs
    code, text = _join(str(bad), str(good), "--out", str(out))
    assert code == 0 and f"warning: {copy}, beside {bad}, changed since the items were made" in text
    assert (out.parent / "ipb-cards" / f"{CARD_HASH}.yaml").read_text(encoding="utf-8") == CARD_TEXT
    for made in sorted(out.parent.rglob("*"), reverse=True):
        made.unlink() if made.is_file() else made.rmdir()

    (out.parent / "ipb-cards").mkdir(parents=True, exist_ok=True)
    stale = out.parent / "ipb-cards" / f"{CARD_HASH}.yaml"
    stale.write_text("garbage\n")
    code, text = _join(str(good), "--out", str(out))
    assert code == 1 and f"fails ipb verify against the card copy {stale}, which changed since the items" in text
    assert not out.exists() and stale.read_text() == "garbage\n"

    stale.unlink()  # the good copy goes through, byte for byte
    code, text = _join(str(good), "--out", str(out))
    assert code == 0 and stale.read_text(encoding="utf-8") == CARD_TEXT and "1 card file(s) copied" in text


def test_join_refuses_a_line_that_is_not_an_item(tmp_path):
    # bug kind: weak shape check. Before: {"id": "x"} was joined (exit 0) and verify called it unreadable.
    items = _run(tmp_path / "a", _item("T-00000000000000aa"), '{"id": "x"}')
    out = tmp_path / "out.jsonl"
    code, text = _join(str(items), "--out", str(out))
    assert code == 1 and f"{items}:2:1" in text and "line 2 (id 'x') is not an item: it lacks 'version'" in text
    assert not out.exists()


def test_join_refuses_one_id_with_two_scenarios_but_drops_a_true_repeat(tmp_path):
    # bug kind: corruption dropped as a repeat. Before: "1 repeating an earlier item's id", exit 0.
    items = _run(tmp_path / "a", _item("T-00000000000000aa", 1), _item("T-00000000000000aa", 2))
    code, text = _join(str(items), "--out", str(tmp_path / "o.jsonl"))
    assert code == 1 and f"{items}:2:1" in text
    assert f"line 2 has the id 'T-00000000000000aa' that line 1 of {items} has, with another scenario" in text
    # the same scenario under the same id (another run's manifest) is still a repeat, dropped
    again = _run(tmp_path / "b", _item("T-00000000000000aa", 1), _item("T-00000000000000aa", 1, source=None))
    code, text = _join(str(again), "--out", str(tmp_path / "o.jsonl"))
    assert code == 0 and "kept 1, dropped 1 (1 repeating an earlier item's id" in text


def test_clean_stale_removes_only_the_tools_own_random_names(tmp_path):
    # bug kind: user file deleted. Before: every ".items.jsonl.*.tmp" was removed, notes included.
    target = tmp_path / "items.jsonl"
    ours = [".items.jsonl.b5gis0_t.tmp", ".items.jsonl.abcd1234.old"]
    theirs = [".items.jsonl.my-notes.tmp", ".items.jsonl.x.tmp", ".items.jsonl..tmp", ".items.jsonl.a.b.tmp",
              ".items.jsonl.ABCD1234.tmp", ".items.jsonl.abcd12345.tmp"]
    for name in ours + theirs:
        (tmp_path / name).write_text("x")
    assert sorted(clean_stale(target, now=1e12, unlocked_after=0.0)) == sorted(ours)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(theirs)


def _start_join(fifo: Path, out: Path, first_line: str) -> tuple[subprocess.Popen[bytes], object]:
    """``ipb join FIFO --out OUT`` in a real process, fed one line and then kept waiting (the FIFO left open)."""
    os.mkfifo(fifo)
    proc = ipb_process("join", "--no-cards", str(fifo), "--out", str(out), stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE)
    writer = open(fifo, "w", encoding="utf-8")
    writer.write(first_line + "\n")
    writer.flush()
    wait_for_temporary_file(proc, out, "join")
    return proc, writer


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs a FIFO")
def test_join_stopped_by_sigterm_says_so_and_a_killed_joins_temporary_file_goes_on_rerun(tmp_path):
    # bug kinds: silent stop (B8: exit 143 and nothing printed) and a partial file kept (B7: a SIGKILLed join's
    # temporary file stayed through a rerun).
    out = tmp_path / "out" / "items.jsonl"
    proc, writer = _start_join(tmp_path / "in.jsonl", out, _item("T-00000000000000aa"))
    try:
        proc.send_signal(signal.SIGTERM)
        _, errors = proc.communicate(timeout=60)  # stderr read while waiting: a full pipe cannot stall the exit
        code = proc.returncode
    finally:
        writer.close()  # type: ignore[attr-defined]
        if proc.poll() is None:
            proc.kill()
    said = " ".join(errors.decode().split())
    assert code == 128 + signal.SIGTERM
    assert "join stopped by SIGTERM after" in said and f"no items file written ({out} not made)" in said
    assert not out.parent.exists()  # neither a temporary file nor the folder join made for it

    proc, writer = _start_join(tmp_path / "in2.jsonl", out, _item("T-00000000000000aa"))
    proc.kill()
    proc.wait(timeout=60)
    writer.close()  # type: ignore[attr-defined]
    (left,) = [p.name for p in out.parent.iterdir() if p.name.endswith(".tmp")]
    items = _run(tmp_path / "a", _item("T-00000000000000aa"))
    code, text = _join("--no-cards", str(items), "--out", str(out))
    assert code == 0 and f"removed 1 temporary file(s) of {out} left by an interrupted run: {left}" in text
    assert sorted(p.name for p in out.parent.iterdir()) == ["items.jsonl"]


def test_perturb_stopped_while_loading_cards_says_so(tmp_path, monkeypatch):
    # bug kind: silent stop (B10: a stop before generation began printed no line).
    import ipb.cli.commands.perturb as command

    def stop(_ref: str) -> str:
        raise SystemExit(128 + signal.SIGTERM)

    monkeypatch.setattr(command, "find_card", stop)
    out = tmp_path / "items.jsonl"
    result = runner.invoke(app, ["perturb", "--card", "buffett_acquisition_checklist", "--base", str(BASE), "--n", "3",
                                 "--out", str(out)])
    text = " ".join(result.output.split())
    assert result.exit_code == 143
    assert f"perturb stopped by SIGTERM after 0 s, 0 of 3 items made: no items file written ({out} not made)" in text


def test_perturb_signal_after_the_outputs_are_in_place_is_not_a_failure(tmp_path, monkeypatch):
    # bug kind: a finished run reported as failed (B9: exit 143 after "wrote ...", both files new).
    import ipb.cli.commands.perturb as command

    real = command.outputs_complete

    def then_stop(outputs: str) -> None:
        real(outputs)
        raise SystemExit(128 + signal.SIGTERM)  # the signal lands just after the last rename

    monkeypatch.setattr(command, "outputs_complete", then_stop)
    out, report = tmp_path / "items.jsonl", tmp_path / "report.json"
    result = runner.invoke(app, ["perturb", "--card", "buffett_acquisition_checklist", "--base", str(BASE), "--n", "3",
                                 "--out", str(out), "--report", str(report)])
    text = " ".join(result.output.split())
    assert result.exit_code == 0, text
    assert f"SIGTERM arrived after the outputs were complete ({out}, {report} written); the run finishes (exit 0)" in text
    assert f"wrote {out}:" in text and len(out.read_text().splitlines()) == 3 and report.is_file()


@pytest.mark.parametrize("label, caught", [
    ("debt {value} of equity", "{value}"),
    ("debt {value:.0%} of equity", "{value:.0%}"),
    ("debt {VALUE} of equity", "{VALUE}"),
    ("debt { value } of equity", "{ value }"),
    ("debt {value!r} of equity", "{value!r}"),
    ("debt {trailing} of equity", None),
    ("debt { of equity", None),
    ("debt } of equity", None),
])
def test_label_placeholder_catches_every_value_field(tmp_path, label, caught):
    # bug kind: missed lint. Before: only the exact '{value}' was warned; '{value:.0%}', '{VALUE}', '{ value }'
    # passed ipb check clean and put raw braces into every question.
    from tests.perturb.test_newuser_s59b import CARD as S59B_CARD

    card = tmp_path / "card.yaml"
    card.write_text(S59B_CARD.replace("description: long-term debt over equity,",
                                      f"label: \"{label}\", description: long-term debt over equity,"),
                    encoding="utf-8")
    text = " ".join(runner.invoke(app, ["check", str(card)]).output.split())
    if caught is None:
        assert "label-placeholder" not in text, text
        return
    assert f"{card}:14:" in text and f"warning: the label of input 'debt_to_equity' holds '{caught}'" in text, text
    assert "label-placeholder 1" in text
    assert ("the braces are printed as they stand" in text) == (caught != "{value}")


def test_a_refused_run_or_join_leaves_no_new_empty_folder(tmp_path):
    # bug kind: debris on an error (B14). Before: a --strict-mix refusal left the new --out folder, empty, and a
    # join of an empty file wrote an empty release with exit 0.
    out = tmp_path / "new" / "deeper" / "items.jsonl"
    result = runner.invoke(app, ["perturb", "--card", "graham_seven_tests_defensive", "--base",
                                 str(ROOT / "frameworks/scenarios/graham_seven_tests_defensive/"
                                     "seasoned_industrial_passes.yaml"),
                                 "--n", "4", "--mix", "temporal=0.5,metric=0.5", "--strict-mix", "--out", str(out)])
    assert result.exit_code == 1 and "--strict-mix: the mix was not met" in result.output
    assert list(tmp_path.iterdir()) == []

    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n")
    code, text = _join(str(empty), "--out", str(tmp_path / "rel" / "items.jsonl"))
    assert code == 1 and f"no items in {empty}: nothing to join, nothing written" in text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty.jsonl"]

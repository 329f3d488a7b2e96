"""New-user report s60 (issue 18): the findings fixed by s60nfix.

N1 (bug kind: a release silently missing an input): ``ipb join A B`` where B held no item (empty, blank lines
only, an empty pipe) wrote A's items with exit 0 and "B: kept 0"; only an all-empty join was refused.

N2 (bug kind: hidden characters in every question): a NUL, a bidi override or another control character in a
card's ``question:`` ``setting`` or ``ask`` passed ``ipb check`` and went into every item's question.

N4 (bug kind: run-on questions): ``setting: "a fund is deciding whether to buy"`` passed every check and items read
"a fund is deciding whether to buy Decision date: ..."; now a warning, ``question-sentence``.

N5 (bug kind: a false warning): ``cat run2/items.jsonl | ipb join run1/items.jsonl /dev/stdin`` warned that the
pipe's card copy was missing, though run1 supplied that very copy and the release verified.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ipb.cli import app
from ipb.engine.card import load_card_text
from ipb.errors import ErrorGroup
from perturb_support import price_leverage_screen

runner = CliRunner()


def _item(ident: str, scenario: int) -> str:
    return json.dumps({"id": ident, "version": 2, "layer": "L7", "question": "q", "scenario": {"s": scenario},
                       "manifest": {"cards": []}})


def _join(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["join", *args])
    return result.exit_code, " ".join(result.output.split())


@pytest.mark.parametrize("content", ["", "\n\n", "  \n\t\n"], ids=["empty", "blank-lines", "whitespace-lines"])
@pytest.mark.parametrize("empty_first", [False, True], ids=["empty-second", "empty-first"])
def test_join_refuses_an_input_with_no_item_among_several(tmp_path, content, empty_first):
    # bug kind: a release silently missing an input (N1). Before: exit 0, "empty.jsonl: kept 0", 2 items written.
    full = tmp_path / "run1.jsonl"
    full.write_text(_item("T-00000000000000aa", 1) + "\n" + _item("T-00000000000000bb", 2) + "\n")
    empty = tmp_path / "empty.jsonl"
    empty.write_text(content)
    out = tmp_path / "rel" / "items.jsonl"
    inputs = [str(empty), str(full)] if empty_first else [str(full), str(empty)]
    code, text = _join(*inputs, "--out", str(out))
    position = 1 if empty_first else 2
    assert code == 1, text
    assert f"no items in {empty} (items file {position} of 2" in text and "nothing written" in text, text
    assert not (tmp_path / "rel").exists()


def test_join_keeps_an_input_whose_items_all_repeat_earlier_ones(tmp_path):
    # Not an empty input: a copy of a run holds items, all dropped as repeats (still exit 0, "kept 0").
    line = _item("T-00000000000000aa", 1) + "\n"
    (tmp_path / "a.jsonl").write_text(line)
    (tmp_path / "b.jsonl").write_text(line)
    out = tmp_path / "rel" / "items.jsonl"
    code, text = _join(str(tmp_path / "a.jsonl"), str(tmp_path / "b.jsonl"), "--out", str(out))
    assert code == 0, text
    assert out.read_text() == line


def test_join_of_one_empty_input_keeps_its_message(tmp_path):
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n")
    code, text = _join(str(empty), "--out", str(tmp_path / "rel" / "items.jsonl"))
    assert code == 1 and f"no items in {empty}: nothing to join, nothing written" in text, text


def _card_text(setting: str, ask: str) -> str:
    """test_newuser_s59b's two-gate card with a ``question:`` block (YAML double-quoted strings)."""
    return price_leverage_screen("s60n_question_card", "Question screen",
                                 f'question:\n  setting: "{setting}"\n  ask: "{ask}"\n')


SETTING_LINE = 13  # 1-based line of ``setting:`` in the card; ``ask:`` is the next


def _card(tmp_path: Path, setting: str = "A fund is deciding whether to buy.", ask: str = "Should it buy?") -> Path:
    path = tmp_path / "card.yaml"
    path.write_text(_card_text(setting, ask), encoding="utf-8")
    return path


#: (YAML escape in the text, the code point the message names, its position in the folded text)
HIDDEN = [
    ("A fund\\u0000decides.", "U+0000", 7),
    ("A fund \\u202edecides\\u202c.", "U+202E", 8),
    ("A fund \\u2066decides\\u2069.", "U+2066", 8),
    ("A fund\\u200f decides.", "U+200F", 7),
    ("A fund \\x1bdecides.", "U+001B", 8),
    ("A fund decides\\x7f.", "U+007F", 15),
    ("A fund \\x9bdecides.", "U+009B", 8),
]


@pytest.mark.parametrize("field", ["setting", "ask"])
@pytest.mark.parametrize("escape,code,at", HIDDEN, ids=[h[1] for h in HIDDEN])
def test_check_refuses_a_control_or_bidi_character_in_the_question(tmp_path, field, escape, code, at):
    # bug kind: hidden characters in every question (N2). Before: check ok, the character in all items.
    path = _card(tmp_path, **{field: escape})
    with pytest.raises(ErrorGroup) as err:
        load_card_text(path.read_text(encoding="utf-8"), str(path))
    found = [e for e in err.value.errors if e.rule == "question-character"]
    assert len(found) == 1, [str(e) for e in err.value.errors]
    # s61nfix (N10): the caret stands under the character (the text opens at column 13, 9 for ask, and only plain
    # characters come before it), no longer under the opening quote (column 12, 8 for ask)
    assert found[0].line == SETTING_LINE + (field == "ask") and found[0].column == 12 + at - (field == "ask") * 4
    assert f"question.{field} holds {code}" in str(found[0]) and f"at character {at}:" in str(found[0])
    result = runner.invoke(app, ["check", str(path)])
    assert result.exit_code == 1 and f"{path}:{SETTING_LINE + (field == 'ask')}:" in result.output
    assert f"holds {code}" in result.output and "Traceback" not in result.output


def test_perturb_refuses_a_card_with_a_nul_in_its_setting(tmp_path):
    path = _card(tmp_path, setting="A fund\\u0000decides.")
    base = tmp_path / "base.yaml"
    base.write_text("id: S60N-001\nlayer: L7\ncard: s60n_question_card\nexpected: {verdict: BUY, trigger: "
                    "all_gates_cleared}\nfacts:\n  pe_ratio: 10x\n  debt_to_equity: 20%\n", encoding="utf-8")
    out = tmp_path / "run" / "items.jsonl"
    result = runner.invoke(app, ["perturb", "--card", str(path), "--base", str(base), "--n", "2", "--seed", "1",
                                 "--out", str(out)])
    assert result.exit_code == 1 and "question.setting holds U+0000" in result.output, result.output
    assert not out.exists()


def test_folded_whitespace_and_plain_unicode_stay_allowed(tmp_path):
    # tab, CR, a newline and U+2028 are folded to spaces; accents, CJK and a zero-width joiner inside an emoji are
    # text, not controls
    path = _card(tmp_path, setting="A fund\\tin K\\u00f6ln\\r\\nis deciding\\u2028whether to buy \\u682a.",
                 ask="Should it buy \\U0001F468\\u200d\\U0001F4BB?")
    card = load_card_text(path.read_text(encoding="utf-8"), str(path))
    assert card.question is not None
    assert card.question.setting == "A fund in K\u00f6ln is deciding whether to buy \u682a."


#: (setting, ask, the warnings expected: (field, what it says))
SENTENCES = [
    ("a fund is deciding whether to buy", "buy or not",
     [("setting", "starts with a lowercase letter ('a') and does not end with a full stop"),
      ("ask", "starts with a lowercase letter ('b') and does not end with a full stop")]),
    ("A fund is deciding whether to buy", "Should it buy?", [("setting", "question.setting does not end with")]),
    ("A fund is deciding whether to buy.", "should it buy?", [("ask", "question.ask starts with a lowercase letter")]),
    ("A fund is deciding whether to buy:", "Should it buy?;", [("setting", "does not end"), ("ask", "does not end")]),
    # no warning: a slot, a quote or a digit-free non-letter may open it; a closing quote may follow the stop
    ("{investor}'s fund is deciding whether to buy.", "Is the stock 'cheap'?", []),
    ("\\u00c9tienne's fund is deciding whether to buy!", "\\u00bfShould it buy?", []),
    ("A fund asks whether the stock is \\u201ccheap.\\u201d", "Should it buy? (Say yes or no.)", []),
]


@pytest.mark.parametrize("setting,ask,expected", SENTENCES, ids=[f"s{i}" for i in range(len(SENTENCES))])
def test_check_warns_about_a_setting_or_ask_that_is_not_a_sentence(tmp_path, setting, ask, expected):
    # bug kind: run-on questions (N4). Before: no warning at all; a warning never fails the check (exit 0).
    path = _card(tmp_path, setting=setting, ask=ask)
    card = load_card_text(path.read_text(encoding="utf-8"), str(path))
    found = [w for w in card.warnings if w.rule == "question-sentence"]
    assert [(w.name, w.line) for w in found] == [(field, SETTING_LINE + (field == "ask")) for field, _ in expected]
    for warning, (_, says) in zip(found, expected):
        assert says in str(warning), str(warning)
    result = runner.invoke(app, ["check", str(path)])
    assert result.exit_code == 0, result.output
    assert ("question-sentence" in result.output) == bool(expected)


CARD_COPY = "id: tiny\nname: Tiny\n"
COPY_NAME = f"ipb-cards/{hashlib.sha256(CARD_COPY[:-1].encode()).hexdigest()}.yaml"


def _run_with_card(folder: Path, ident: str, scenario: int, copy: bool) -> Path:
    folder.mkdir(parents=True)
    cards = [{"id": "tiny", "content_hash": COPY_NAME[10:-5], "source": COPY_NAME}]
    line = json.dumps({"id": ident, "version": 2, "layer": "L7", "question": "q", "scenario": {"s": scenario},
                       "manifest": {"cards": cards}})
    (folder / "items.jsonl").write_text(line + "\n", encoding="utf-8")
    if copy:
        (folder / "ipb-cards").mkdir()
        (folder / COPY_NAME).write_text(CARD_COPY, encoding="utf-8")
    return folder / "items.jsonl"


@pytest.mark.parametrize("copy_first", [True, False], ids=["copy-in-first", "copy-in-second"])
def test_join_does_not_warn_of_a_copy_another_input_supplies(tmp_path, copy_first):
    # bug kind: a false warning (N5). Before: "warning: B: 1 card copy(ies) its kept items name are not beside it".
    a = _run_with_card(tmp_path / "a", "T-00000000000000aa", 1, copy=copy_first)
    b = _run_with_card(tmp_path / "b", "T-00000000000000bb", 2, copy=not copy_first)
    out = tmp_path / "rel" / "items.jsonl"
    code, text = _join(str(a), str(b), "--out", str(out))
    assert code == 0 and "not beside it" not in text, text
    assert (out.parent / COPY_NAME).read_text(encoding="utf-8") == CARD_COPY


def test_join_does_not_warn_of_a_copy_already_beside_the_output(tmp_path):
    a = _run_with_card(tmp_path / "a", "T-00000000000000aa", 1, copy=False)
    out = tmp_path / "rel" / "items.jsonl"
    (out.parent / "ipb-cards").mkdir(parents=True)
    (out.parent / COPY_NAME).write_text(CARD_COPY, encoding="utf-8")
    code, text = _join(str(a), "--out", str(out))
    assert code == 0 and "not beside it" not in text, text


def test_join_still_warns_when_no_input_has_the_copy(tmp_path):
    a = _run_with_card(tmp_path / "a", "T-00000000000000aa", 1, copy=False)
    b = _run_with_card(tmp_path / "b", "T-00000000000000bb", 2, copy=False)
    out = tmp_path / "rel" / "items.jsonl"
    code, text = _join(str(a), str(b), "--out", str(out))
    assert code == 0
    for items in (a, b):
        assert f"warning: {items}: 1 card copy(ies) its kept items name are not beside it ({COPY_NAME})" in text

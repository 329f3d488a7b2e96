"""``ipb verify``'s fast path (issue 18 item 7) checks exactly what the plain path checks.

Three shortcuts, each tested against the plain computation it replaces (an
independent implementation: the strict reader, ``Trace.to_grp`` compared
whole, ``Constraint.broken`` evaluated every time):

* :func:`ipb.engine._json.parse_canonical_line` reads a canonical line to
  the strict reader's value, and leaves every other line to the strict reader;
* :class:`ipb.perturb.verify_memo.GrpMemo` and :class:`ConstraintMemo`
  remember answers by what they depend on;
* a tampered item must be caught with the same message on both paths, at
  a memo hit as well as at a miss.
"""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import orjson
import pytest
from hypothesis import given, settings, strategies as st

import ipb.engine._json as json_mod
import ipb.perturb.verify as verify_mod
from ipb.engine._json import NOT_CANONICAL, canonical_json, parse_canonical_line, parse_json_line
from ipb.engine.execute import execute
from ipb.engine.grp_view import grp_view
from ipb.engine.registry import compiled_card
from ipb.errors import LoadError
from ipb.perturb import Job, parse_recipes, verify_items
from ipb.perturb.generation import write_items
from ipb.perturb.verify_memo import ConstraintMemo, GrpMemo
from perturb_support import BUFFETT, BUFFETT_BASE

# ------------------------------------------------------------------ the canonical line reader

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.text(max_size=8)
    | st.decimals(allow_nan=False, allow_infinity=False, places=3),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4),
    max_leaves=20)


def _strict(text: str) -> object:
    try:
        return ("value", parse_json_line(text, "x.jsonl", 1))
    except LoadError as exc:
        return ("error", exc.message)


def _same(fast: object, strict: object) -> bool:
    """Equal, with the same types all the way down (1 == True == Decimal(1) does not count)."""
    return canonical_json(_typed(fast)) == canonical_json(_typed(strict))


def _typed(value: object) -> object:
    if isinstance(value, dict):
        return {k: _typed(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_typed(v) for v in value]
    return [type(value).__name__, str(value)]


@settings(max_examples=300, deadline=None)
@given(json_values, st.sampled_from(["canonical", "spaced", "duplicated"]))
def test_a_line_is_read_as_the_strict_reader_reads_it_or_left_to_it(value, form):
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    if form == "canonical":
        text = canonical_json(json.loads(text, parse_float=Decimal)) if "Decimal" not in text else text
    elif form == "spaced":
        text = json.dumps(json.loads(text), sort_keys=True, ensure_ascii=False)
    elif text.startswith("{") and text != "{}":
        text = text.replace("{", '{"k":0,', 1).replace("{", '{"k":1,', 1)  # the key given twice (or in two objects)
    fast = parse_canonical_line(text)
    strict = _strict(text)
    if fast is not NOT_CANONICAL:
        assert strict[0] == "value" and _same(fast, strict[1])
    for line in (text, text.encode("utf-8")):
        again = parse_canonical_line(line)
        assert again is NOT_CANONICAL or _same(again, strict[1])


@pytest.mark.parametrize("line, strict_gives", [
    ('{"a":1,"a":2}', "duplicate key 'a'"),
    ('{"a":NaN}', "NaN is not a JSON number"),
    ('{"a":-Infinity}', "Infinity is not a JSON number"),
    ('{"a":0.5}', Decimal("0.5")),
    ('{"a":1e400}', "beyond the limit"),
    ('{"a":123456789012345678901234567890}', 123456789012345678901234567890),
    ('{"a":-0}', 0),
    ('{"a":"\\u00e9"}', "é"),
    ('{"a":"\\ud800"}', "\ud800"),
    ('{"a": 1}', 1),
    ('\ufeff{"a":1}', "not JSON"),
    ('[' * 101 + ']' * 101, "nested deeper than 100"),
])
def test_what_orjson_or_msgspec_would_read_otherwise_goes_to_the_strict_reader(line, strict_gives):
    assert parse_canonical_line(line) is NOT_CANONICAL
    got = _strict(line)
    if isinstance(strict_gives, str) and got[0] == "error":
        assert strict_gives in got[1]
    else:
        assert got[0] == "value" and strict_gives in (got[1].get("a"), got[1].get("b"))


def test_canonical_lines_are_read_to_the_strict_value():
    assert parse_canonical_line(b'{"a":[1,"x",true,null],"b":{"c":"\\n"}}') == {"a": [1, "x", True, None],
                                                                                  "b": {"c": "\n"}}
    assert parse_canonical_line("[" * 100 + "]" * 100) == parse_json_line("[" * 100 + "]" * 100, "x", 1)
    assert parse_canonical_line(b"\xff") is NOT_CANONICAL
    assert list(parse_canonical_line('{"b":1,"a":2}')) == ["b", "a"]  # keys in any order, as the strict reader


def test_without_msgspec_the_answers_are_the_same(monkeypatch):
    lines = ['{"a":[1,"x"]}', '{"a":1,"a":2}', '{"a":0.5}', '{"a":NaN}', '{"a": 1}', '"x"', "-0"]
    before = [parse_canonical_line(line) for line in lines]
    monkeypatch.setattr(json_mod, "_read_fast", None)
    after = [parse_canonical_line(line) for line in lines]
    assert [b is NOT_CANONICAL for b in before] == [a is NOT_CANONICAL for a in after] == [
        False, True, True, True, True, False, True]
    assert before[0] == after[0] == {"a": [1, "x"]}


# ------------------------------------------------------------------ tampered items, fast path and plain path


@pytest.fixture(scope="module")
def items(tmp_path_factory):
    out = tmp_path_factory.mktemp("fast") / "items.jsonl"
    write_items(out, Job((BUFFETT,), str(BUFFETT_BASE), 0, parse_recipes("metric,flip")), 60)
    return out


def _plain(monkeypatch):
    """Verify without the shortcuts: every line through the strict reader, every GRP rendered and compared."""
    monkeypatch.setattr(verify_mod, "parse_canonical_line", lambda line: NOT_CANONICAL)

    def render(self, view, gold, scenario_id=None, layer=None):
        grp = view.to_grp(scenario_id, layer)  # a whole Trace rendered (equal to execute(...).to_grp(): tests/engine)
        return None if gold == grp else grp
    monkeypatch.setattr(GrpMemo, "grp_if_differs", render)
    monkeypatch.setattr(ConstraintMemo, "broken",
                        lambda self, card, facts, literals=None: [k for k in card.constraints if k.broken(facts)])


def _tamper(items: Path, tmp_path: Path) -> tuple[Path, dict[int, str]]:
    """The items with tampered copies appended; each line number -> a piece of the message it must get.

    Every tampered item is a copy of item 1 or 2 under a new id, so its GRP key was seen before: the GRP memo
    answers from a hit. Item 3's copy is tampered on its first sight (a miss) by editing item 3 itself.
    """
    lines = items.read_bytes().decode("utf-8").splitlines()
    first = json.loads(lines[0])

    def copy(n: int, edit) -> str:
        item = json.loads(lines[0])
        ident = f"{item['id']}-copy{n}"
        item["id"] = item["scenario"]["id"] = item["grp"]["question_id"] = ident
        edit(item)
        return canonical_json(item)

    gate = first["grp"]["gold_program"][0]
    flipped = "REJECT" if gate["verdict"] != "REJECT" else "PROCEED"
    expect: dict[int, str] = {}
    extra = [
        (lambda it: it["grp"]["gold_program"][0].update(verdict=flipped), f"verdict {flipped} -> {gate['verdict']}"),
        (lambda it: it.update(investment_verdict="X"), "investment_verdict (item field): X ->"),
        (lambda it: it["grp"].update(verdict_trigger="zzz"), "verdict_trigger: zzz ->"),
        (lambda it: it["grp"].update(question_id="other"), "question_id: other ->"),
        (lambda it: it["grp"]["gold_program"].pop(), "gates ->"),
        (lambda it: it["grp"]["gold_program"][1]["required_elements"].append("z"), "required_elements"),
        (lambda it: it.update(question=it["question"] + " "), "condition B context differs"),
        (lambda it: it["manifest"]["cards"][0].update(content_hash="0" * 64), "condition C context differs"),
        (lambda it: it["scenario"]["facts"].update(net_income="$900B"), "breaks constraint"),
        (lambda it: it["scenario"]["facts"].update(bogus="1"), "fact 'bogus' is not an input"),
        (lambda it: None, "is used again"),  # an honest copy under an id that is already taken, below
    ]
    out = list(lines)
    for n, (edit, message) in enumerate(extra):
        out.append(copy(n, edit))
        expect[len(out)] = message
    out[-1] = lines[0]  # the last one repeats item 1 exactly: a repeated id
    raw = canonical_json(json.loads(lines[1]))
    out.append(raw.replace('{"card":', '{"card":"x","card":', 1))
    expect[len(out)] = "duplicate key 'card'"
    out.append(raw.replace('"seed":0', '"seed":NaN', 1))
    expect[len(out)] = "NaN is not a JSON number"
    out.append(raw.replace('"seed":0', '"seed":0.0', 1))  # read as Decimal("0.0") by the strict reader
    expect[len(out)] = "is used again"  # the schema takes 0.0 as an integer: only the id is a problem
    miss = json.loads(lines[2])
    miss["grp"]["gold_program"][-1]["name"] = "Renamed"
    out[2] = canonical_json(miss)
    expect[3] = "name Renamed ->"
    path = tmp_path / "tampered.jsonl"
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    (tmp_path / "ipb-cards").symlink_to(items.parent / "ipb-cards")
    return path, expect


def test_every_tampered_item_is_caught_with_the_plain_paths_message(items, tmp_path, monkeypatch):
    path, expect = _tamper(items, tmp_path)
    fast = verify_items(path).to_dict()
    by_line = {p["line"]: " | ".join(p["problems"]) for p in fast["problems"]}
    for line, message in expect.items():
        assert message in by_line.get(line, ""), (line, message, by_line.get(line))
    assert set(by_line) == set(expect)
    _plain(monkeypatch)
    assert verify_items(path).to_dict() == fast


def test_a_good_file_verifies_the_same_on_both_paths(items, monkeypatch):
    fast = verify_items(items).to_dict()
    assert fast["verified"] == fast["total"] == 60
    _plain(monkeypatch)
    assert verify_items(items).to_dict() == fast


# ------------------------------------------------------------------ the memos alone


def test_the_grp_memo_answers_as_comparing_the_rendered_grp(items):
    compiled = compiled_card(BUFFETT)
    memo = GrpMemo()
    checker = verify_mod._Checker()
    lines = items.read_text(encoding="utf-8").splitlines()
    for rounds in range(2):  # the second round answers from hits only
        for text in lines:
            item = json.loads(text)
            typed, _ = checker.typed(compiled.card, item["scenario"]["facts"])
            trace = execute(compiled, typed, scenario_id=item["id"], layer="L7")
            view = grp_view(compiled, typed)
            assert memo.grp_if_differs(view, item["grp"], item["id"], "L7") is None
            for edit in (lambda g: g["gold_program"][0].update(computed_value="1"),
                         lambda g: g["gold_program"][-1].update(kill_triggered=None),
                         lambda g: g["gold_program"].append({}),
                         lambda g: g.update(framework="x"),
                         lambda g: g.pop("layer"),
                         lambda g: g.update(extra=1)):
                wrong = json.loads(text)["grp"]
                edit(wrong)
                assert memo.grp_if_differs(view, wrong, item["id"], "L7") == trace.to_grp() != wrong
            other = execute(compiled, typed, scenario_id="another id", layer="L7")
            assert memo.grp_if_differs(view, item["grp"], "another id", "L7") == other.to_grp()
            assert memo.grp_if_differs(view, item["grp"], item["id"], "L8") != item["grp"]
            assert memo.grp_if_differs(view, [1], item["id"], "L7") == trace.to_grp()
            # equal values of other JSON types: the answer of ==, as the plain comparison gives it
            loose = json.loads(text)["grp"]
            loose["gold_program"][0]["kill_triggered"] = 0 if not loose["gold_program"][0]["kill_triggered"] else 1
            assert memo.grp_if_differs(view, loose, item["id"], "L7") is None
    assert memo.hits >= len(lines)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.fixed_dictionaries({}, optional={
    "net_income": st.sampled_from(["$0", "$1B", "$3B", "$900B", "-$2B"]),
    "arr": st.sampled_from(["$1B", "$5B", "$8B"]),
    "gross_margin": st.sampled_from(["20%", "90%"]),
}), min_size=1, max_size=12))
def test_the_constraint_memo_answers_as_evaluating_each_constraint(facts_list):
    compiled = compiled_card(BUFFETT)
    checker = verify_mod._Checker()
    memo = ConstraintMemo(limit=3)  # emptied often
    for facts in facts_list + facts_list:
        typed, _ = checker.typed(compiled.card, facts)
        assert memo.broken(compiled.card, typed) == [k for k in compiled.card.constraints if k.broken(typed)]


@pytest.mark.parametrize("edit", [
    lambda it: None,
    lambda it: it["conditions"]["B"].update(key="0" * 64),
    lambda it: it["conditions"]["B"].update(query_sha256="0" * 64),
    lambda it: it["conditions"]["B"].update(investors=["Someone Else"]),
    lambda it: it["conditions"]["B"].update(extra=1),
    lambda it: it["conditions"]["B"].pop("key"),
    lambda it: it["conditions"]["C"].update(key="0" * 64),
    lambda it: it["conditions"].pop("C"),
    lambda it: it.update(conditions=[]),
    lambda it: it.update(question=it["question"] + "é"),
    lambda it: it["manifest"]["cards"][0].update(investor="Someone Else"),
    lambda it: it["manifest"]["cards"][0].update(content_hash="0" * 64),
])
def test_conditions_agree_exactly_when_condition_problems_finds_nothing(items, edit):
    from ipb.perturb.items import condition_problems
    from ipb.perturb.verify_memo import conditions_agree

    decks_fast: dict = {}
    decks_slow: dict = {}
    for text in items.read_text(encoding="utf-8").splitlines()[:10]:
        item = json.loads(text)
        edit(item)
        assert conditions_agree(item, decks_fast) == (condition_problems(item, decks_slow) == [])
        # the memo both share (verify asks condition_problems with conditions_agree's memo): the same messages
        assert condition_problems(item, decks_fast) == condition_problems(item, {}) == condition_problems(item, decks_slow)
    assert {k: v for k, v in decks_fast.items() if k[0] != "B and C"} == decks_slow


def test_the_collector_is_paused_while_checking_and_restored_after(items, monkeypatch):
    import gc

    seen = []
    real = verify_mod._Checker.check

    def check(self, record, line_no, text):
        seen.append(gc.isenabled())
        return real(self, record, line_no, text)
    monkeypatch.setattr(verify_mod._Checker, "check", check)
    monkeypatch.setattr(verify_mod, "COLLECT_EVERY", 7)  # young garbage collected during the run too
    collected = []
    monkeypatch.setattr(verify_mod.gc, "collect", lambda generation=2: collected.append(generation) or 0)
    assert gc.isenabled()
    assert verify_items(items).ok
    assert gc.isenabled() and seen and not any(seen) and collected == [1] * (60 // 7)
    gc.disable()
    try:
        assert verify_items(items).ok
        assert not gc.isenabled()
    finally:
        gc.enable()


@pytest.mark.parametrize("card_id, name, good, bad", [
    ("buffett_owner_earnings_dcf", "earnings_predictable", True, 1),  # a bool input refuses 1
    ("buffett_owner_earnings_dcf", "earnings_predictable", False, 0),
    ("buffett_acquisition_checklist", "arr", 1, True),  # a money input refuses true
])
def test_the_literal_memo_keeps_a_literals_type_regression_true_read_for_1(card_id, name, good, bad):
    """1 == True and hash(1) == hash(True): a memo keyed by the literal alone read 1 as the remembered true."""
    card = compiled_card(card_id).card
    checker = verify_mod._Checker()
    typed, _ = checker.typed(card, {name: good})
    assert typed[name] == good
    with pytest.raises(LoadError):
        checker.typed(card, {name: bad})
    with pytest.raises(LoadError):  # and the plain conversion agrees
        verify_mod._convert(card, name, bad)


# ------------------------------------------------------------------ the file as a whole (one pass with one worker)


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("tail, rule, message", [
    (b'{"id": "\xff"}\n', "encoding", "is not valid UTF-8"),  # a bad byte in a line that looks like an item
    (b"\xff\n", "encoding", "is not valid UTF-8"),  # ... and in a line that does not
    (None, "empty", "holds no items"),
])
def test_a_bad_file_is_refused_the_same_with_one_pass_or_two(items, tmp_path, monkeypatch, workers, tail, rule,
                                                              message):
    monkeypatch.setattr(verify_mod, "POOL_MIN", 0)  # workers=2 takes the pool even for a few lines
    lines = items.read_bytes().splitlines(keepends=True)[:3]
    path = tmp_path / "bad.jsonl"
    path.write_bytes(b"\n \n" if tail is None else b"".join(lines) + tail)
    (tmp_path / "ipb-cards").symlink_to(items.parent / "ipb-cards")
    with pytest.raises(LoadError) as err:
        verify_items(path, workers=workers)
    assert err.value.rule == rule and message in err.value.message and str(path) in err.value.message


@pytest.mark.parametrize("workers", [1, 2])
def test_the_total_counts_lines_as_bytes_strip_sees_them(items, tmp_path, monkeypatch, workers):
    """A line of U+00A0 alone counts in ``total`` (bytes.strip keeps it) but is no record (str.strip empties it);
    an empty line and a last line without its newline are handled as before the one-pass reading."""
    monkeypatch.setattr(verify_mod, "POOL_MIN", 0)
    lines = items.read_bytes().splitlines()[:4]
    path = tmp_path / "odd.jsonl"
    path.write_bytes(lines[0] + b"\n\n" + "\u00a0".encode() + b"\n" + b"\n".join(lines[1:]))
    (tmp_path / "ipb-cards").symlink_to(items.parent / "ipb-cards")
    result = verify_items(path, workers=workers)
    assert result.total == 5 and result.ok and result.to_dict()["verified"] == 5


def test_a_missing_file_is_refused_with_its_name(tmp_path):
    with pytest.raises(LoadError) as err:
        verify_items(tmp_path / "none.jsonl")
    assert err.value.rule == "file" and "cannot read" in err.value.message


def test_a_decoding_error_elsewhere_is_not_taken_for_a_bad_items_file(items, monkeypatch):
    """Only a line's own decoding refuses the file as not UTF-8 (the one-pass reading catches no wider)."""
    def broken(*args, **kwargs):
        raise UnicodeDecodeError("utf-8", b"\xff", 0, 1, "a card copy, say")
    monkeypatch.setattr(verify_mod._Checker, "_compare", broken)
    with pytest.raises(UnicodeDecodeError):
        verify_items(items)

"""Issue 16, the input/output and command-line side: one row per reproducer (and per breaker finding 3, 4, 14,
15, 20, 21, 24), each a located error or the right result within the 2 s bar.

The table runs like ``test_reproducers.py``: every ``r_NAME(tmp)`` is a row, timed around the call (2 s, x3 for a
loaded test machine), except the rows in ``UNTIMED``, which assert behaviour only. End-to-end speed of ``ipb parse`` on 5 MB is measured in ``bench/parse_cli.py`` against a
baseline tree, not here; the row below checks what it prints and that it stays bounded.
"""

from __future__ import annotations

import io
import json
import os
import stat
import sys
import time
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from ipb.cli._app import SafeConsole, app, json_printable, printable
from ipb.errors import IpbError, LoadError

ROOT = Path(__file__).resolve().parents[2]
ITEMS = ROOT / "tests" / "respond" / "data" / "items.jsonl"
CARD = "graham_net_net_screen"
KEY = "sk-live-0123456789abcdefXYZ"
BOUND_S = 2.0
#: Wall-clock limit of one row: a hang, not slowness (the bar itself is checked on CPU time).
HANG_S = 60.0


def _cli(*args: str, **kw: Any) -> Any:
    return CliRunner().invoke(app, list(args), **kw)


def _items_copy(tmp: Path, lines: list[str]) -> Path:
    """An items file of ``lines`` beside the fixture items' card copies."""
    import shutil

    p = tmp / "items.jsonl"
    p.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    if (ITEMS.parent / "ipb-cards").is_dir():
        shutil.copytree(ITEMS.parent / "ipb-cards", tmp / "ipb-cards", dirs_exist_ok=True)
    return p


def _first_item() -> str:
    return ITEMS.read_text(encoding="utf-8").splitlines()[0]


# ------------------------------------------------------------------ ipb parse on 5 MB of repeated years (the bar)


def r_parse_5mb_of_years_json(tmp: Path) -> None:
    p = tmp / "years.txt"
    sentence = "In 1999 the firm earned more than in 2001. "
    p.write_text((sentence * (5_000_000 // len(sentence) + 1))[:5_000_000], encoding="utf-8")
    result = _cli("parse", CARD, str(p), "--format", "json", "--no-embed")
    doc = json.loads(result.stdout)
    assert result.exit_code == 1 and doc["status"] == "parse_failure"  # no gate named: a failure, with the trace
    assert len(doc["year_mentions"]) == 20_000 and doc["years"] == [1999, 2001]  # bounded, and said so
    assert any("year mentions" in n for n in doc["notes"]) and any("bound" in n for n in doc["notes"])


def r_parse_a_prose_line_with_a_long_run_of_spacing(tmp: Path) -> None:
    """The clause cut's spacing alternatives backtracked over every place of a run of spaces or tabs (n * n steps: 20,000
    spaces took 39 s); a line under the clause-cut bound (MAX_CLAUSED_LINE) could hold 90,000 of them."""
    p = tmp / "spacing.txt"
    p.write_text("1. Circle of Competence: the business is one we understand" + " " * 30_000 + "\t" * 30_000
                 + "and the price is far above intrinsic value, so Margin of Safety is a REJECT.\n"
                 "Final verdict: DECLINE\n", encoding="utf-8")
    doc = json.loads(_cli("parse", "buffett_acquisition_checklist", str(p), "--format", "json", "--no-embed").stdout)
    assert doc["final_verdict"] == "DECLINE"


def r_parse_a_run_of_spacing_after_a_gate_word(tmp: Path) -> None:
    """Two regular expressions let two stars in a row split one run of spaces every way: the gate-number reference
    after "test" ("[ \\t]*(?:no)?[ \\t]*") and a label answered on the next line ("[ \\t]*:?[ \\t]*\\n"); 6,000
    spaces after "test" took 12 s, 16,000 took minutes."""
    p = tmp / "gap.txt"
    p.write_text("The firm passes the first test" + " " * 20_000 + " and the price is low.\n"
                 "Net current assets" + "\t" * 20_000 + "\nYes.\nFinal verdict: DECLINE\n", encoding="utf-8")
    doc = json.loads(_cli("parse", "graham_net_net_screen", str(p), "--format", "json", "--no-embed").stdout)
    assert doc["final_verdict"] == "DECLINE"


def r_number_scan_skips_bare_years(tmp: Path) -> None:
    from ipb.scoring import _numbers

    text = " ".join(str(1900 + i % 120) for i in range(400_000)) + " and 12% at $5M"
    found = [(n.text, n.unit) for n in _numbers.find_numbers(text)]
    assert found == [("12%", "ratio"), ("$5M", "money")]
    assert [m.span() for m in _numbers._number_matches(text)] == [m.span() for m in _numbers._NUMBER.finditer(text)]


# ------------------------------------------------------------------ secrets: where a key can appear, never the answer


def r_answer_quoting_the_key_is_recorded_unchanged(tmp: Path) -> None:
    from ipb.respond.client import Secrets, scrub_record

    secrets = Secrets([KEY])
    record = {"response": f"Final verdict: DECLINE. (my key is {KEY})", "error": None, "context": "Basic Materials",
              "judgment": {"error": f"HTTP 401: invalid credentials: Bearer {KEY}", "reason": f"quotes {KEY}"}}
    written = scrub_record(record, secrets)
    assert written["response"] == record["response"]  # the scored text, as the model wrote it
    assert written["judgment"]["error"] == "HTTP 401: invalid credentials: Bearer [REDACTED]"
    assert written["judgment"]["reason"] == "quotes [REDACTED]" and written["context"] == "Basic Materials"


def r_basic_auth_header_is_scrubbed_from_errors(tmp: Path) -> None:
    from ipb.respond.client import Secrets

    body = ("upstream said 401; request headers: Authorization: Basic dXNlcjpodW50ZXIy, "
            "url https://user:hunter2@proxy.example/v1?api_key=abc123&x=1")
    scrubbed = Secrets().scrub_error(body)
    assert "dXNlcjpodW50ZXIy" not in scrubbed and "hunter2" not in scrubbed and "abc123" not in scrubbed
    assert "Basic [REDACTED]" in scrubbed and "https://[REDACTED]@proxy.example/v1?api_key=[REDACTED]&x=1" in scrubbed
    assert Secrets().scrub("Basic Materials and Bearer bonds") == "Basic Materials and Bearer bonds"


# ------------------------------------------------------------------ one strict JSONL reader (score's responses)


def r_score_responses_bom_deep_duplicate_nan(tmp: Path) -> None:
    from ipb.scoring.adapters import read_responses

    good = json.dumps({"item_id": "a", "model": "m", "condition": "A", "response": "r"})
    p = tmp / "r.jsonl"
    p.write_bytes(b"\xef\xbb\xbf" + good.encode() + b"\n"
                  + b'{"item_id": "a", "item_id": "b", "model": "m", "condition": "A", "response": "r"}\n'
                  + b'{"x": ' + b"[" * 150 + b"]" * 150 + b"}\n" + b'{"item_id": NaN}\n' + b"{bad\n")
    records = list(read_responses(p))
    assert records[0].error is None and records[0].data["item_id"] == "a"  # the mark is not part of record 1
    errors = [(r.error.line, r.error.column, r.error.rule) for r in records[1:]]
    assert errors == [(2, 18, "json"), (3, 106, "json"), (4, 13, "json"), (5, 2, "json")]
    messages = [r.error.message for r in records[1:]]
    assert "duplicate key 'item_id'" in messages[0] and "deeper than 100" in messages[1] and "NaN" in messages[2]


def r_duplicate_key_in_items_is_a_located_error(tmp: Path) -> None:
    from ipb.respond.records import load_items
    from ipb.scoring.items import load_items as score_items

    line = '{"id": "IPB-DUP-1", ' + _first_item()[1:]  # the top-level "id" twice: which one is meant?
    p = _items_copy(tmp, [line])
    with pytest.raises(IpbError) as exc:
        load_items(p)
    first = exc.value.errors[0] if hasattr(exc.value, "errors") else exc.value
    assert first.line == 1 and first.column is not None and "duplicate key 'id'" in first.message
    assert "duplicate key 'id'" in score_items(p).errors[0]["message"]
    out = _cli("verify", str(p)).output
    assert "record 1" in out and "duplicate key 'id'" in out


def r_items_with_one_id_twice(tmp: Path) -> None:
    p = _items_copy(tmp, [_first_item(), _first_item()])
    result = _cli("verify", str(p))
    assert result.exit_code == 1
    assert ":2: record 2" in result.output and "is used again (first on line 1)" in result.output
    assert "verified 1 of 2 item(s)" in result.output and "1 repeating an earlier item's id" in result.output
    doc = json.loads(_cli("verify", str(p), "--format", "json").output)
    assert doc["duplicates"] == 1 and doc["verified"] == 1 and doc["problems"][0]["status"] == "duplicate"


def r_repeated_ids_across_worker_slices(tmp: Path) -> None:
    from ipb.perturb.verify import RecordCheck, mark_repeated_ids

    mismatch = RecordCheck(7, 9, "b", "mismatch", ["investment_verdict: DECLINE -> INVEST"])
    marked = mark_repeated_ids([mismatch], [(1, 1, "a"), (7, 9, "b"), (3, 4, "b"), (5, 6, "a")])
    assert [(c.record, c.status) for c in marked] == [(5, "duplicate"), (7, "mismatch")]
    assert "first on line 4" in marked[1].problems[-1] and "first on line 1" in marked[0].problems[0]


# ------------------------------------------------------------------ ipb screen (breaker 3, 4, 14)


def _screen_table(tmp: Path, header: str, row: str) -> Path:
    pytest.importorskip("pyarrow")
    p = tmp / "t.csv"
    p.write_text(f"{header}\n{row}\n", encoding="utf-8")
    return p


def r_screen_never_overwrites_a_table_column(tmp: Path) -> None:
    t = _screen_table(tmp, "market_value,current_assets,total_liabilities,preferred_stock,net_income,final_verdict,"
                      "final_verdict_ipb", "20,45,12,3,1,analyst says DECLINE,my own note")
    result = _cli("screen", CARD, str(t), "--out", str(tmp / "o.csv"))
    assert result.exit_code == 0, result.output
    import pyarrow.csv as pcsv

    out = pcsv.read_csv(tmp / "o.csv").to_pylist()[0]
    assert out["final_verdict"] == "analyst says DECLINE" and out["final_verdict_ipb"] == "my own note"
    assert out["final_verdict_ipb2"] == "INVEST" and "final_verdict -> final_verdict_ipb2" in result.output


def r_screen_conflicting_or_unfit_units(tmp: Path) -> None:
    t = _screen_table(tmp, "mv,current_assets,total_liabilities,preferred_stock,net_income", "20,45,12,3,1")
    base = ["screen", CARD, str(t), "--out", str(tmp / "o.csv"), "--map", "mv=market_value"]
    twice = _cli(*base, "--unit", "market_value=M", "--unit", "market_value=B")
    assert twice.exit_code == 2 and "--unit market_value is given twice, as 'M' and as 'B'" in twice.output
    percent = _cli(*base, "--unit", "market_value=%")
    assert percent.exit_code == 2 and "is of type money" in percent.output
    mapped = _cli(*base, "--map", "mv=net_income")
    assert mapped.exit_code == 2 and "--map mv is given twice" in mapped.output
    assert not (tmp / "o.csv").exists()
    assert _cli(*base, "--unit", "market_value=M", "--unit", "market_value=M").exit_code == 0  # the same twice: fine


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def r_screen_out_fifo_device_and_mode(tmp: Path) -> None:
    t = _screen_table(tmp, "market_value,current_assets,total_liabilities,preferred_stock,net_income", "20,45,12,3,1")
    fifo = tmp / "f.csv"
    os.mkfifo(fifo)
    result = _cli("screen", CARD, str(t), "--out", str(fifo))
    assert result.exit_code == 1 and "it is a FIFO; ipb writes results only to regular files" in result.output
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    null = _cli("screen", CARD, str(t), "--out", "/dev/null")
    assert null.exit_code == 1 and "it is a device" in null.output and "table format" not in null.output
    old = os.umask(0o022)
    try:
        assert _cli("screen", CARD, str(t), "--out", str(tmp / "o.parquet")).exit_code == 0
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(tmp / "o.parquet").st_mode) == 0o644
    assert not [p.name for p in tmp.iterdir() if p.name.startswith(".o.parquet.")]  # no temporary file left


# ------------------------------------------------------------------ score --responses FIFO (breaker 15)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def r_score_responses_fifo(tmp: Path) -> None:
    fifo = tmp / "f2.jsonl"
    os.mkfifo(fifo)
    result = _cli("score", "--items", str(ITEMS), "--responses", str(fifo), "--out", str(tmp / "out"),
                  "--no-embeddings")
    assert result.exit_code == 1 and "is a FIFO, not a regular file" in result.output
    assert "no such" not in result.output


# ------------------------------------------------------------------ terminal: format characters (breaker 24)


def r_every_format_character_is_escaped(tmp: Path) -> None:
    kept = {0x200C, 0x200D}  # zero-width (non-)joiners: scripts and emoji need them
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        if unicodedata.category(char) == "Cf" and code not in kept:
            assert printable(char) != char, hex(code)
    assert printable("a\u200db\u200cc") == "a\u200db\u200cc"
    assert printable("x\u200e\u200f\u2028") == "x\\u200e\\u200f\\u2028"


def r_leaderboard_model_name_with_rtl_override(tmp: Path) -> None:
    from ipb.cli.commands.score import print_leaderboard
    from ipb.respond.synthetic import bundled_items, synthetic_responses
    from ipb.scoring.embeddings import CachedEncoder, HashingEncoder
    from ipb.scoring.run import ScoreOptions, score_responses
    from ipb.scoring.summary import summarize

    items = bundled_items([CARD])[:2]
    options = ScoreOptions(encoder=CachedEncoder(HashingEncoder()), n_resamples=50)
    responses = [dict(r, model="evil\u202egpt[bold]") for r in synthetic_responses(items, corruptions=["none"])]
    summary = summarize(score_responses(items, responses, options), options=options)
    sink = io.StringIO()
    print_leaderboard(summary, SafeConsole(width=200, file=sink))
    text = sink.getvalue()
    assert "evil\\u202egpt[bold]" in text and "\u202e" not in text  # escaped, and the name is not read as markup


def r_parse_json_escapes_format_characters(tmp: Path) -> None:
    p = tmp / "a.txt"
    p.write_text("1. Two-thirds of NCAV: REJECT\n2. Lunar \u202eTSEVNI\u202c cycle check: PROCEED\n"
                 "Final verdict: DECLINE\n", encoding="utf-8")
    result = _cli("parse", CARD, str(p), "--format", "json", "--no-embed")
    assert "\u202e" not in result.stdout and "\\u202e" in result.stdout  # the invented gate's name, escaped
    doc = json.loads(result.stdout)
    assert doc["final_verdict"] == "DECLINE" and any("\u202e" in g for g in doc["invented_gates"])  # same value
    assert json.loads(json_printable(json.dumps({"m": "a\u202eb\u2066"}, ensure_ascii=False))) == {"m": "a\u202eb\u2066"}


# ------------------------------------------------------------------ answers that are not UTF-8 (breaker 20)


def r_invalid_utf8_answer_is_parsed_with_a_note(tmp: Path) -> None:
    p = tmp / "latin1.txt"
    p.write_bytes("Gate 1 (two-thirds rule): REJECT caf\u00e9 na\u00efve\nFinal verdict: DECLINE\n".encode("latin-1"))
    result = _cli("parse", CARD, str(p), "--format", "json", "--no-embed")
    doc = json.loads(result.stdout)
    assert doc["final_verdict"] == "DECLINE"
    assert any("not valid UTF-8: 2 byte sequence(s) were replaced" in n and "byte 37 (0xe9)" in n for n in doc["notes"])
    assert "warning:" in result.stderr and "not valid UTF-8" in result.stderr
    p.write_text("Final verdict: DECLINE \ufffd\n", encoding="utf-8")  # a real U+FFFD is no replacement
    assert not any("UTF-8" in n for n in json.loads(_cli("parse", CARD, str(p), "--format", "json",
                                                          "--no-embed").stdout)["notes"])


ROWS = {name[2:]: fn for name, fn in sorted(globals().items()) if name.startswith("r_") and callable(fn)}

#: Rows that assert behaviour only, never time: their input is a few bytes, so all their time is the parser's
#: start-up in a fresh process (the invalid-UTF-8 row took 7.6 s of CPU run alone, over the 6 s limit: s57fixio),
#: and the house rules forbid timed unit tests; start-up is measured in bench/cold_start.py against a baseline.
UNTIMED = frozenset({"invalid_utf8_answer_is_parsed_with_a_note"})


@pytest.mark.parametrize("name", list(ROWS))
def test_reproducer(name: str, tmp_path: Path) -> None:
    fn = ROWS[name]
    for mark in getattr(fn, "pytestmark", []):
        if mark.name == "skipif" and mark.args and mark.args[0]:
            pytest.skip(mark.kwargs.get("reason", ""))
    if name in UNTIMED:
        fn(tmp_path)
        return
    wall, cpu = time.monotonic(), time.process_time()
    fn(tmp_path)
    wall, cpu = time.monotonic() - wall, time.process_time() - cpu
    # the 2 s bar on this process's CPU time (x3 for a slower machine), so other work on the machine cannot fail
    # it; wall time only as a hang guard (a stalled server or a lost deadline), which no load comes near
    assert cpu < BOUND_S * 3, f"{name}: {cpu:.1f} s of CPU"
    assert wall < HANG_S, f"{name}: {wall:.1f} s wall"


# ------------------------------------------------------------------ the number scan's candidates: a law, not examples

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_PIECES = st.sampled_from(["1", "12", "123", "1234567", "9" * 20, "9" * 45, ",", ".", ",000", ".5", " ", "\t", "$",
                           "US", "USD ", "-", "\u2212", "%", "x", "X", "\u00d7", "/3", "/0", " percent", " per cent",
                           " pct", " million", " billion", "bn", "M", "k", "a", "(", ")", "\u20ac", "EUR", "\n"])


@given(st.lists(_PIECES, max_size=80).map("".join))
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_number_scan_finds_what_the_number_pattern_finds(text: str) -> None:
    """Trying only a ``$`` or digits within reach of a unit finds exactly the matches of ``_NUMBER.finditer``
    (long digit runs and group chains included, so the reach bound is exercised)."""
    from ipb.scoring import _numbers

    assert [m.span() for m in _numbers._number_matches(text)] == [m.span() for m in _numbers._NUMBER.finditer(text)]

"""Invisible characters inside words, and answers saved as UTF-16 (issue 13, s24break findings 1 and 3).

Every text here was written for this file; the readings are labelled by hand. Regression kinds:

- *Zero-width characters*: a zero-width space, non-joiner, joiner, word joiner, byte-order mark or soft hyphen inside
  a verdict word (``PRO\\u200bCEED``, ``REJ\\u00adECT``) or a gate label split the word, so the verdict (or the gate)
  was not read. They are now read through, and every span is still an offset into the answer as written.
- *UTF-16 files*: ``ipb parse FILE`` called a UTF-16 answer with a byte-order mark "binary data: contains NUL bytes",
  and ``ipb score`` read a UTF-16 JSONL file as one undecodable line.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from ipb.cli import app
from ipb.scoring.adapters import detect_format, read_responses
from ipb.scoring.parse import parse_response
from ipb.scoring.parse._invisible import INVISIBLE, strip_invisible

BUFFETT = "buffett_acquisition_checklist"
INVISIBLES = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad"]
IDS = ["zwsp", "zwnj", "zwj", "word-joiner", "bom", "soft-hyphen"]

ANSWER = ("1. Circle of Competence: PRO{z}CEED, a toll-road operator is simple to follow.\n"
          "2. Durable moat: PASS, concessions run to 2061.\n"
          "3. Management: PASS.\n"
          "4. Mar{z}gin of Safety: REJ{z}ECT, the price is 40% above my value.\n\n"
          "Final verdict: DEC{z}LINE")
READING = [(1, "PROCEED"), (2, "PROCEED"), (3, "PROCEED"), (5, "REJECT")]


@pytest.mark.parametrize("z", INVISIBLES, ids=IDS)
def test_verdict_words_and_labels_with_an_invisible_character_inside_are_read(z: str) -> None:
    text = ANSWER.format(z=z)
    parsed = parse_response(text, BUFFETT, embedder=False)
    assert [(g.gate, g.verdict) for g in parsed.gates] == READING
    assert parsed.final_verdict == "DECLINE" and parsed.invented_gates == []
    # spans are offsets into the answer as written: the word with its invisible character inside it
    assert [text[slice(*g.verdict_span)] for g in parsed.gates] == [f"PRO{z}CEED", "PASS", "PASS", f"REJ{z}ECT"]
    assert text[slice(*parsed.final_verdict_span)] == f"DEC{z}LINE"
    assert text[slice(*parsed.gates[3].mention)] == f"Mar{z}gin of Safety"


def test_a_byte_order_mark_opening_the_answer_shifts_no_span() -> None:
    text = "\ufeffGate 1: PASS\nGate 5: FAIL\n\nFinal verdict: DECLINE"
    parsed = parse_response(text, BUFFETT, embedder=False)
    assert [(g.gate, g.verdict) for g in parsed.gates] == [(1, "PROCEED"), (5, "REJECT")]
    assert [text[slice(*g.mention)] for g in parsed.gates] == ["Gate 1", "Gate 5"]
    assert [n.text for n in parsed.numbers] == [] and any("invisible" in note for note in parsed.notes)


def test_copied_texts_are_taken_from_the_answer_as_written() -> None:
    text = "Gate 5: REJECT, the price is $5\u200b0B against a value of $2\u00ad5B.\n\nFinal verdict: DECLINE"
    parsed = parse_response(text, BUFFETT, embedder=False)
    assert [(n.value, n.text, text[slice(*n.span)]) for n in parsed.numbers if n.unit == "money"] == [
        (50e9, "$5\u200b0B", "$5\u200b0B"), (25e9, "$2\u00ad5B", "$2\u00ad5B")]


def test_strip_invisible_positions() -> None:
    assert strip_invisible("a\u200b\u200bb\u00ad") == ("ab", [1, 1, 2])
    assert strip_invisible("no marks") == ("no marks", [])


TEXTS = [ANSWER.format(z=""),
         "Gate 1: PASS - I understand it.\nGate 2: FAIL - no moat.\nGate 5: INCONCLUSIVE, no price given.\n\nDECLINE.",
         '{"gates": [{"gate": 1, "verdict": "PASS"}, {"gate": 5, "verdict": "FAIL"}], "final_verdict": "DECLINE"}']


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(TEXTS), st.lists(st.tuples(st.integers(0, 10_000), st.sampled_from(INVISIBLES)), max_size=12))
def test_law_invisible_characters_change_no_reading_and_spans_stay_on_the_answer(text: str, inserts: list[tuple[int, str]]) -> None:
    marked = text
    for at, z in inserts:
        at %= len(marked) + 1
        marked = marked[:at] + z + marked[at:]
    plain, marked_reading = parse_response(text, BUFFETT, embedder=False), parse_response(marked, BUFFETT, embedder=False)
    assert [(g.gate, g.verdict) for g in marked_reading.gates] == [(g.gate, g.verdict) for g in plain.gates]
    assert marked_reading.final_verdict == plain.final_verdict
    for mine, theirs in zip(marked_reading.gates, plain.gates):
        for a, b in ((mine.mention, theirs.mention), (mine.verdict_span, theirs.verdict_span)):
            if a is not None and b is not None:
                # the same words, read on the answer as written, with only invisible characters added
                assert INVISIBLE.sub("", marked[slice(*a)]) == text[slice(*b)]
                assert marked[slice(*a)][:1] not in INVISIBLES and marked[slice(*a)][-1:] not in INVISIBLES


# --------------------------------------------------------------------------- UTF-16 files

runner = CliRunner()
UTF16_ANSWER = "Gate 1: PASS, I know the business.\r\nGate 5: FAIL, the price is far too high.\r\n\r\nFinal verdict: DECLINE\r\n"


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be"])
def test_ipb_parse_decodes_a_utf16_answer_with_a_byte_order_mark(tmp_path: Path, encoding: str) -> None:
    path = tmp_path / "answer.txt"
    data = UTF16_ANSWER.encode(encoding)
    if encoding != "utf-16":
        data = ("\ufeff" + UTF16_ANSWER).encode(encoding)  # the mark written explicitly, in the stated byte order
    path.write_bytes(data)
    result = runner.invoke(app, ["parse", BUFFETT, str(path), "--format", "json", "--no-embed"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert [(g["gate"], g["verdict"]) for g in doc["gates"]] == [(1, "PROCEED"), (5, "REJECT")]
    assert doc["final_verdict"] == "DECLINE"


def test_ipb_score_reads_a_utf16_jsonl_file_line_by_line(tmp_path: Path) -> None:
    path = tmp_path / "responses.jsonl"
    lines = [json.dumps({"item_id": "x", "model": m, "condition": "A", "response": "Gate 1: PASS\r\nVerdict: INVEST \u2714"},
                        ensure_ascii=False) for m in ("m", "n")]
    path.write_bytes(("\r\n".join(lines) + "\r\n").encode("utf-16") + "{bad".encode("utf-16-le") + b"\x00\xd8\x41\x00\n\x00")
    assert detect_format(path) == "jsonl"
    records = list(read_responses(path))
    assert [r.number for r in records] == [1, 2, 3]
    assert [r.data["model"] for r in records[:2]] == ["m", "n"]
    assert records[0].data["response"] == "Gate 1: PASS\r\nVerdict: INVEST \u2714"
    assert records[2].error.rule == "encoding" and "line 3 is not UTF-16" in records[2].error.message


def test_an_attributed_claim_keeps_its_invisible_characters_when_it_ends_the_span() -> None:
    # regression (hypothesis, s28): the claim is the end of the attribution's span, not all of it; it was left as read
    # from the stripped text ('000'), so it was not a substring of the answer
    text = "Buffett wrote that 00\u00ad0"
    parsed = parse_response(text, "buffett_acquisition_checklist", embedder=False)
    assert [(a.claim, text[slice(*a.span)]) for a in parsed.attributions] == [("00\u00ad0", text)]

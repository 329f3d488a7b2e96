"""A UTF-16 file without a byte-order mark, given to every command that reads a user's JSONL or YAML (s63 new user B3).

Regression kind: *encoding misread*. A BOM-less UTF-16 file decodes as UTF-8 (NUL is a UTF-8 character), so
``ipb score --responses`` called it "line 1 is not JSON", ``ipb verify`` "not JSON" on every line, ``ipb check`` and
``ipb run`` "character U+0000 is not allowed". It is now handled as a UTF-16 file with a byte-order mark always was:
``ipb score``'s responses and ``ipb parse``'s answer are read (the NULs give the byte order); the files ipb itself
writes (items, cards, scenarios) are refused at line 1 column 1 with the encoding found and an ``iconv`` command, the
same message whether or not a mark opens the file. Every command runs as a real ``ipb`` subprocess.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]
IPB = str(Path(sys.executable).parent / "ipb")
CARD = "graham_net_net_screen"
BASE = ROOT / "frameworks" / "scenarios" / CARD / "exactly_two_thirds.yaml"
CODECS = {"le": "utf-16-le", "be": "utf-16-be", "bom": "utf-16"}  # Python's "utf-16" writes a little-endian mark
SAID = {"le": "(little-endian, without a byte-order mark)", "be": "(big-endian, without a byte-order mark)",
        "bom": "(little-endian, with a byte-order mark)"}
ICONV = {"le": "UTF-16LE", "be": "UTF-16BE", "bom": "UTF-16"}


def _ipb(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([IPB, *args], cwd=cwd, capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """items.jsonl (two items), r.jsonl (an answer to each), and each of them, the base and the card in UTF-16."""
    from ipb.respond.synthetic import bundled_items

    folder = tmp_path_factory.mktemp("utf16")
    items = bundled_items([CARD])[:2]
    (folder / "items.jsonl").write_text("".join(json.dumps(i) + "\n" for i in items), encoding="utf-8")
    answers = [{"item_id": i["id"], "model": "m", "condition": "A", "response": "Gate 1: PASS\nFinal verdict: INVEST"}
               for i in items]
    (folder / "r.jsonl").write_text("".join(json.dumps(a) + "\n" for a in answers), encoding="utf-8")
    texts = {"items.jsonl": (folder / "items.jsonl").read_text(encoding="utf-8"),
             "r.jsonl": (folder / "r.jsonl").read_text(encoding="utf-8"),
             "base.yaml": BASE.read_text(encoding="utf-8"),
             "card.yaml": (ROOT / "frameworks" / f"{CARD}.yaml").read_text(encoding="utf-8")}
    for tag, codec in CODECS.items():
        for name, text in texts.items():
            (folder / f"{tag}_{name}").write_bytes(text.encode(codec))
    return folder


def _refusal(tag: str, name: str, what: str) -> str:
    return (f"{name}:1:1: load error: {name} is UTF-16 text {SAID[tag]}, not UTF-8: ipb reads the {what} as UTF-8; "
            f"save it as UTF-8 (iconv -f {ICONV[tag]} -t UTF-8 {name} > NEW_FILE)")


@pytest.mark.parametrize("tag", ["le", "be"])
def test_score_reads_a_bom_less_utf16_responses_file_as_it_reads_one_with_a_mark(files: Path, tag: str) -> None:
    # before: "le_r.jsonl:1: record 1: invalid_record: line 1 is not JSON ...", 0 of 2 scored, exit 1
    got = _ipb("score", "--items", "items.jsonl", "--responses", f"{tag}_r.jsonl", "--out", f"out_{tag}",
               "--no-embeddings", cwd=files)
    assert got.returncode == 0, got.stderr
    assert "scored 2 of 2 record(s): 0 parse failure(s), 0 refusal(s)" in got.stderr
    assert "0 unusable record(s)" in got.stderr and "not JSON" not in got.stderr
    mine = [json.loads(line) for line in (files / f"out_{tag}" / "responses.jsonl").read_text().splitlines()]
    # the answer as written: 34 characters, "Gate 1: PASS" read as PROCEED and the final verdict INVEST
    assert [(r["model"], r["response_chars"], r["outcome"]) for r in mine] == [("m", 34, "scored")] * 2
    parsed = mine[0]["targets"][0]["parsed"]
    assert [(g["gate"], g["verdict"]) for g in parsed["gates"]] == [(1, "PROCEED")]
    assert parsed["final_verdict"] == "INVEST" and parsed["final_verdict_span"] == [28, 34]


@pytest.mark.parametrize("tag", ["le", "bom"])  # big-endian: the score test above and the law below
@pytest.mark.parametrize("command, name, what", [
    (["verify", "{}"], "items.jsonl", "items file"),
    (["join", "{}", "--out", "joined.jsonl"], "items.jsonl", "items file"),
    (["score", "--items", "{}", "--responses", "r.jsonl", "--out", "sc", "--no-embeddings"], "items.jsonl",
     "items file"),
    (["respond", "--items", "{}", "--model", "m", "--base-url", "http://127.0.0.1:9/v1", "--out", "resp.jsonl"],
     "items.jsonl", "items file"),
    (["check", "{}"], "card.yaml", "YAML document"),
    (["check", "{}"], "base.yaml", "YAML document"),
    (["run", CARD, "{}"], "base.yaml", "YAML document"),
], ids=["verify", "join", "score-items", "respond", "check-card", "check-scenario", "run"])
def test_every_reader_of_ipb_files_refuses_utf16_naming_the_encoding(files: Path, tag: str, command: list[str],
                                                                      name: str, what: str) -> None:
    # before, without a mark: "not JSON: Expecting property name ..." (verify, score, join), "character U+0000 is
    # not allowed" (check, run); with one: "is not valid UTF-8 (byte 0xff)" or Python's "'utf-8' codec can't decode"
    path = f"{tag}_{name}"
    got = _ipb(*[a.format(path) for a in command], cwd=files)
    assert got.returncode == 1, got.stderr
    said = got.stderr + got.stdout  # ipb check reports on stdout
    assert _refusal(tag, path, what) in said, said
    assert "Traceback" not in said
    assert not any((files / out).exists() for out in ("joined.jsonl", "sc", "resp.jsonl"))


def test_parse_reads_a_bom_less_utf16_answer(files: Path) -> None:
    (files / "answer.txt").write_bytes("Gate 5: FAIL, far too dear.\r\n\r\nFinal verdict: DECLINE\r\n".encode("utf-16-le"))
    got = _ipb("parse", "buffett_acquisition_checklist", "answer.txt", "--format", "json", "--no-embed", cwd=files)
    assert got.returncode == 0, got.stderr  # before: exit 1, "binary data: contains NUL bytes"
    doc = json.loads(got.stdout)
    assert [(g["gate"], g["verdict"]) for g in doc["gates"]] == [(5, "REJECT")] and doc["final_verdict"] == "DECLINE"


def test_utf16_encoding_by_hand() -> None:
    from ipb._files import utf16_encoding

    assert utf16_encoding(b'{\x00"\x00') == ("utf-16-le", False)
    assert utf16_encoding(b'\x00{\x00"') == ("utf-16-be", False)
    assert utf16_encoding(b"\xfe\xff\x00{") == ("utf-16-be", True)
    assert utf16_encoding(b"\xff\xfe{\x00") == ("utf-16-le", True)
    assert utf16_encoding(b'{"a": 1}') is None and utf16_encoding(b"") is None and utf16_encoding(b"{") is None
    assert utf16_encoding(b"\x00\x00\x00\x00") is None  # NULs everywhere: binary, not text
    assert utf16_encoding("é: ü".encode("utf-8")) is None


#: Latin text; U+0100 and U+0200 are left out: their UTF-16 units hold a NUL in the other byte, and eighteen of them
#: after the opening would outvote it (a limit of telling the order by NULs, not met by a JSON or YAML file's opening).
JSONISH = st.text(st.characters(min_codepoint=0x20, max_codepoint=0x24F, blacklist_characters="\u0100\u0200"),
                  min_size=1, max_size=40)


@settings(max_examples=200, deadline=None)
@given(JSONISH)
def test_law_utf16_is_told_by_its_nuls_and_utf8_never_is(text: str) -> None:
    from ipb._files import utf16_encoding

    line = json.dumps({"response": text}, ensure_ascii=False)  # opens with '{"response": "': 14 ASCII characters
    assert utf16_encoding(line.encode("utf-16-le")) == ("utf-16-le", False)
    assert utf16_encoding(line.encode("utf-16-be")) == ("utf-16-be", False)
    assert utf16_encoding(line.encode("utf-8")) is None

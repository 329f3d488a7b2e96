"""``ipb parse CARD RESPONSE [--format table|json]`` end to end through typer's runner."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from ipb.cli import app
from ipb.scoring.parse import parse_response

CARD = "buffett_acquisition_checklist"
ANSWER = """<think>Gate 5 passes?</think>
1. Circle of Competence: PROCEED - subscription economics are comprehensible.
2. Margin of Safety: REJECT - price $50B against intrinsic ~$25B, a 2x premium.
3. ESG Screening: FAIL
As Buffett wrote in the 1986 letter, price is what you pay.
Final verdict: DECLINE
"""
runner = CliRunner()


def invoke(*args: str, stdin: str | None = None):  # type: ignore[no-untyped-def]
    return runner.invoke(app, list(args), input=stdin, catch_exceptions=False, env={"COLUMNS": "220"})


def test_json_is_the_parsed_trace(tmp_path: Path) -> None:
    path = tmp_path / "answer.txt"
    path.write_text(ANSWER, encoding="utf-8")
    result = invoke("parse", CARD, str(path), "--format", "json", "--no-embed")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == parse_response(ANSWER, CARD, embedder=False).to_dict()


def test_table_shows_each_item_with_where_it_came_from(tmp_path: Path) -> None:
    path = tmp_path / "answer.txt"
    path.write_text(ANSWER, encoding="utf-8")
    result = invoke("parse", CARD, str(path), "--no-embed")
    assert result.exit_code == 0, result.output
    output = " ".join(result.output.split())
    for expected in (
        "Circle of", "PROCEED", "Margin of", "REJECT", "price $50B", "2:4-2:24",  # gate 1 named at line 2, columns 4-24
        "final verdict DECLINE", "invented gate (FM-1) ESG Screening", "year 1986", "attribution Warren Buffett",
        "citation Warren Buffett, letter, 1986", "$50B (money)", "reasoning trace (ignored)",
    ):
        assert expected in output, expected


def test_stdin_and_a_parse_failure_exit_1() -> None:
    result = invoke("parse", CARD, "-", "--format", "json", "--no-embed", stdin="The weather is fine.")
    assert result.exit_code == 1
    assert "parse failure: no gate of card 'buffett_acquisition_checklist' recognised" in result.output
    assert '"status": "parse_failure"' in result.output


def test_binary_file_is_a_parse_failure(tmp_path: Path) -> None:
    path = tmp_path / "junk.bin"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" * 20)
    result = invoke("parse", CARD, str(path), "--no-embed")
    assert result.exit_code == 1
    assert "binary data" in result.output


def test_unknown_card_and_missing_file_are_errors(tmp_path: Path) -> None:
    result = invoke("parse", "buffet_acquisition_checklist", str(tmp_path / "a.txt"))
    assert result.exit_code == 1 and "did you mean 'buffett_acquisition_checklist'" in result.output
    result = invoke("parse", CARD, str(tmp_path / "missing.txt"))
    assert result.exit_code == 1 and "cannot read response" in result.output


def test_embed_cutoff_is_passed_to_the_embedding_fallback(tmp_path: Path) -> None:
    class Fixed:
        """Each gate text its own axis; the label at cosine 0.5 from gate 1's name and 0 from every other text."""

        def __init__(self) -> None:
            self.axes: dict[str, int] = {}

        def encode(self, sentences):  # type: ignore[no-untyped-def]
            import numpy as np

            rows = np.zeros((len(sentences), 512))
            for i, s in enumerate(sentences):
                if s == "Is it simple to grasp?":
                    rows[i, self.axes["Circle of Competence"]] = 0.5
                    rows[i, 511] = 0.75 ** 0.5
                else:
                    rows[i, self.axes.setdefault(s, len(self.axes))] = 1.0
            return rows

    answer = "### Is it simple to grasp?\nPROCEED.\n\n### Gate 5: Margin of Safety\nREJECT.\n"
    low = parse_response(answer, CARD, embedder=Fixed(), embed_cutoff=0.45)
    high = parse_response(answer, CARD, embedder=Fixed(), embed_cutoff=0.55)
    assert low.gate_sequence[0] == 1 and 1 not in high.gate_sequence
    path = tmp_path / "answer.txt"
    path.write_text(ANSWER, encoding="utf-8")
    result = invoke("parse", CARD, str(path), "--format", "json", "--no-embed", "--embed-cutoff", "0.9")
    assert result.exit_code == 0, result.output


def test_cutoffs_out_of_range_are_usage_errors(tmp_path: Path) -> None:
    path = tmp_path / "answer.txt"
    path.write_text(ANSWER, encoding="utf-8")
    for flag, value, message in (("--score-cutoff", "200", "--score-cutoff is a rapidfuzz ratio in [0, 100], not 200.0"),
                                 ("--score-cutoff", "nan", "--score-cutoff is a rapidfuzz ratio in [0, 100], not nan"),
                                 ("--embed-cutoff", "2", "--embed-cutoff is a cosine similarity in [-1, 1], not 2.0"),
                                 ("--embed-cutoff", "nan", "--embed-cutoff is a cosine similarity in [-1, 1], not nan")):
        result = invoke("parse", CARD, str(path), "--no-embed", flag, value)
        assert result.exit_code == 2 and message in result.output, (flag, value, result.output)


def test_the_table_shows_a_bounded_number_of_rows_per_kind(tmp_path: Path) -> None:
    path = tmp_path / "answer.txt"
    path.write_text(ANSWER + " ".join(f"${k}B" for k in range(1, 121)) + "\n", encoding="utf-8")
    result = invoke("parse", CARD, str(path), "--no-embed")
    assert result.exit_code == 0, result.output
    total = len(parse_response(path.read_text(encoding="utf-8"), CARD, embedder=False).numbers)
    assert total > 120
    number_rows = [line for line in result.output.splitlines() if line.lstrip().startswith("number ")]
    assert len(number_rows) == 50 + 1
    assert f"... and {total - 50} more (--format json lists every one)" in number_rows[-1]

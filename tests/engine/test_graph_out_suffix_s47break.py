"""``ipb graph CARD -o card.png`` (s47break): the file holds what its name says.

Before, the format was dot unless ``--format`` said otherwise, whatever the ``--out`` name: ``-o card.png`` and
``-o card.svg`` wrote Graphviz DOT text into files named as pictures and said "wrote card.png". Now the suffix
chooses when ``--format`` is not given, and a ``--format`` that disagrees with a known suffix is a usage error
(exit 2) that writes nothing. A suffix ipb does not know (``.txt``, ``.md``) keeps the old default, dot.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from ipb.cli import app

runner = CliRunner()
CARD = "graham_net_net_screen"

#: The first bytes of each format: PNG's signature, an XML or <svg> start, DOT's and Mermaid's first words.
STARTS = {"png": (b"\x89PNG\r\n\x1a\n",), "svg": (b"<?xml", b"<svg"), "dot": (b"digraph",), "mermaid": (b"flowchart",)}


@pytest.mark.parametrize("name,fmt", [("card.png", "png"), ("card.svg", "svg"), ("CARD.PNG", "png"),
                                      ("card.dot", "dot"), ("card.gv", "dot"), ("card.mmd", "mermaid"),
                                      ("card.txt", "dot")])
def test_the_suffix_chooses_the_format(tmp_path: Path, name: str, fmt: str) -> None:
    out = tmp_path / name
    result = runner.invoke(app, ["graph", CARD, "--renderer", "python", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_bytes().lstrip().startswith(STARTS[fmt])


@pytest.mark.parametrize("fmt,name", [("dot", "card.png"), ("svg", "card.png"), ("png", "card.svg"),
                                      ("mermaid", "card.dot")])
def test_a_format_the_suffix_contradicts_is_refused(tmp_path: Path, fmt: str, name: str) -> None:
    out = tmp_path / name
    result = runner.invoke(app, ["graph", CARD, "--format", fmt, "--renderer", "python", "-o", str(out)])
    assert result.exit_code == 2
    assert f"--format {fmt} but --out {out} names a" in result.output
    assert not out.exists()


def test_an_agreeing_format_and_a_markdown_mermaid_file_still_write(tmp_path: Path) -> None:
    for fmt, name in (("png", "a.png"), ("mermaid", "a.md")):
        out = tmp_path / name
        result = runner.invoke(app, ["graph", CARD, "--format", fmt, "--renderer", "python", "-o", str(out)])
        assert result.exit_code == 0, result.output
        assert out.read_bytes().lstrip().startswith(STARTS[fmt])


def test_without_out_the_default_is_still_dot_text() -> None:
    result = runner.invoke(app, ["graph", CARD])
    assert result.exit_code == 0
    assert result.output.startswith("digraph")

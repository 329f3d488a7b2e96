"""The console script's fast path for ``ipb run`` (issue 17, item 7) and ``ipb parse`` (issue 16): same output as
typer, no pydantic."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ipb.cli import app
from ipb.cli._app import fast_invocation


def _fast(call, capsys):
    """Run a fast-path ``call`` as the console script would: (exit code, stdout, stderr)."""
    code = 0
    try:
        call()
    except SystemExit as exc:
        code = exc.code or 0
    captured = capsys.readouterr()
    return code, captured.out, captured.err

ROOT = Path(__file__).resolve().parents[1]
BASE = str(ROOT / "frameworks" / "scenarios" / "buffett_acquisition_checklist" / "ipb_p_011_base.yaml")
CARD = "buffett_acquisition_checklist"

SAME = [
    ["run", CARD, BASE],
    ["run", CARD, BASE, "-f", "json"],
    ["run", CARD, BASE, "--format=json", "--set", "ev_to_arr=3x", "--set", "revenue_growth=15%"],
    ["run", CARD, "--diagnostic", BASE, "--format", "json"],
    ["run", CARD],
    ["run", "no_such_card", BASE],
    ["run", CARD, BASE, "--set", "ev_to_arr=lots"],
]


@pytest.mark.parametrize("argv", SAME, ids=["table", "json", "set", "diagnostic", "no-scenario", "unknown-card",
                                             "bad-value"])
def test_the_fast_path_prints_what_typer_prints(argv, capsys):
    expected = CliRunner().invoke(app, argv)
    call = fast_invocation(argv)
    assert call is not None
    code, out, err = _fast(call, capsys)
    assert code == expected.exit_code
    assert out + err == expected.output


@pytest.mark.parametrize("argv", [
    ["run", "--help"], ["run"], ["run", CARD, BASE, "--format", "yaml"], ["run", CARD, BASE, "--nope"],
    ["run", CARD, BASE, "extra"], ["run", CARD, BASE, "-f"], ["check", CARD], ["run", CARD, BASE, "--diagnostic=yes"],
], ids=["help", "missing-card", "bad-choice", "unknown-option", "extra-argument", "missing-value", "other-command",
        "flag-value"])
def test_anything_unusual_is_left_to_typer(argv):
    assert fast_invocation(argv) is None


def test_ipb_run_through_the_console_script_imports_no_pydantic():
    code = ("import sys; from ipb.cli import main\n"
            f"sys.argv = ['ipb', 'run', {CARD!r}, {BASE!r}]\n"
            "main()\n"
            "print('PYDANTIC' if 'pydantic' in sys.modules else 'NO-PYDANTIC')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "Final verdict: DECLINE" in out and out.strip().endswith("NO-PYDANTIC")


ANSWER = "ANSWER.txt"  # replaced by a file in the test's tmp_path
PARSE_SAME = [
    ["parse", CARD, str(ANSWER), "--no-embed"],
    ["parse", CARD, str(ANSWER), "--format", "json", "--no-embed"],
    ["parse", CARD, str(ANSWER), "-f", "json", "--embed", "--no-embed", "--score-cutoff", "90"],
    ["parse", CARD, str(ANSWER), "--no-embed", "--score-cutoff=101"],
    ["parse", CARD, str(ANSWER), "--no-embed", "--embed-cutoff", "-2"],
    ["parse", CARD, str(ANSWER) + ".missing", "--no-embed"],
]


@pytest.fixture()
def answer_file(tmp_path):
    path = tmp_path / "answer.txt"
    path.write_text("1. Circle of Competence: PROCEED\n2. Margin of Safety: REJECT - a 2x premium.\n"
                    "As Buffett wrote in the 1986 letter.\nFinal verdict: DECLINE\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("argv", PARSE_SAME, ids=["table", "json", "flags-last-wins", "cutoff-out-of-range",
                                                   "embed-cutoff-out-of-range", "missing-file"])
def test_the_fast_path_of_parse_prints_what_typer_prints(argv, answer_file, capsys, monkeypatch):
    argv = [a.replace(ANSWER, str(answer_file)) for a in argv]
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.delenv("IPB_CACHE_DIR", raising=False)
    monkeypatch.delenv("IPB_BASE_URL", raising=False)
    expected = CliRunner().invoke(app, argv)
    call = fast_invocation(argv)
    assert call is not None
    code, out, err = _fast(call, capsys)
    assert code == expected.exit_code
    assert out + err == expected.output


@pytest.mark.parametrize("argv", [
    ["parse", CARD, "a.txt", "--score-cutoff", "nan"], ["parse", CARD, "a.txt", "--embed=yes"],
    ["parse", CARD, "a.txt", "--score-cutoff", "1_0"], ["parse", CARD, "a.txt", "--extractor", "regex"],
], ids=["nan", "flag-value", "underscore-number", "bad-choice"])
def test_unusual_parse_lines_are_left_to_typer(argv):
    assert fast_invocation(argv) is None


def test_a_path_option_is_read_from_its_environment_variable(monkeypatch):
    monkeypatch.setenv("IPB_CACHE_DIR", "/tmp/ipb-cache")  # --cache-dir's variable: the fast path reads it too
    assert fast_invocation(["parse", CARD, "a.txt", "--no-embed"]) is not None


def test_ipb_parse_through_the_console_script_imports_neither_pydantic_nor_networkx(answer_file):
    code = ("import sys; from ipb.cli import main\n"
            f"sys.argv = ['ipb', 'parse', {CARD!r}, {str(answer_file)!r}, '--format', 'json', '--no-embed']\n"
            "main()\n"
            "print([m for m in ('pydantic', 'networkx', 'numpy', 'pyarrow') if m in sys.modules])\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert '"final_verdict": "DECLINE"' in out and out.strip().endswith("[]")


ITEMS = ROOT / "tests" / "robustness" / "data" / "item_l7.jsonl"


@pytest.fixture()
def score_files(tmp_path):
    import json

    item = json.loads(ITEMS.read_text(encoding="utf-8").splitlines()[0])
    responses = tmp_path / "responses.jsonl"
    responses.write_text(json.dumps({"item_id": item["id"], "model": "m", "condition": "A",
                                     "response": "1. Net-net test: PROCEED\nFinal verdict: INVEST"}) + "\n",
                         encoding="utf-8")
    return tmp_path, responses


SCORE_SAME = [
    ["--no-embeddings", "--no-progress"],
    ["--no-embeddings", "--no-progress", "--seed", "7", "--resamples=50", "--no-leaderboard"],
    ["--no-embeddings", "--progress", "--no-progress", "-s", "-3", "--min-confidence", "0.5"],
    ["--no-embeddings", "--no-progress", "--resamples", "0"],
    ["--no-embeddings", "--no-progress", "--format", "yaml"],
]


@pytest.mark.parametrize("extra", SCORE_SAME, ids=["plain", "ints", "negative-int-and-float", "zero-resamples",
                                                   "bad-format"])
def test_the_fast_path_of_score_prints_and_writes_what_typer_does(extra, score_files, capsys, monkeypatch):
    tmp, responses = score_files
    monkeypatch.setenv("COLUMNS", "200")
    for var in ("IPB_CACHE_DIR", "IPB_BASE_URL", "IPB_EMBED_CACHE", "RAY_ADDRESS"):
        monkeypatch.delenv(var, raising=False)
    common = ["score", "--items", str(ITEMS), "--responses", str(responses)]
    expected = CliRunner().invoke(app, [*common, "--out", str(tmp / "out_by_typer"), *extra])
    call = fast_invocation([*common, "--out", str(tmp / "out_by_fast_path"), *extra])
    assert call is not None
    code, out, err = _fast(call, capsys)
    assert code == expected.exit_code
    assert out.replace("out_by_fast_path", "out_by_typer") == expected.stdout
    assert err.replace("out_by_fast_path", "out_by_typer") == expected.stderr
    for name in ("responses.jsonl", "summary.json"):
        fast, slow = tmp / "out_by_fast_path" / name, tmp / "out_by_typer" / name
        assert fast.exists() == slow.exists()
        if fast.exists():
            assert fast.read_text(encoding="utf-8").replace("out_by_fast_path", "out_by_typer") == slow.read_text(encoding="utf-8")


@pytest.mark.parametrize("argv", [
    ["score", "--items", "i.jsonl", "--responses", "r.jsonl"],
    ["score", "--items", "i.jsonl", "--responses", "r.jsonl", "--out", "o", "--resamples", "1_000"],
    ["score", "--items", "i.jsonl", "--responses", "r.jsonl", "--out", "o", "--resamples", "2.0"],
    ["score", "--items", "i.jsonl", "--responses", "r.jsonl", "--out", "o", "--backend", "spark"],
], ids=["missing-required-option", "underscore-int", "float-for-int", "bad-choice"])
def test_unusual_score_lines_are_left_to_typer(argv):
    assert fast_invocation(argv) is None


def test_ipb_score_through_the_console_script_imports_no_pydantic(score_files):
    # networkx is imported again since breaker 3's finding 5: score compiles each card (graph checks included),
    # so a card that ``ipb check``/``verify`` refuse is refused here too (tests/scoring/test_score_graph_checks.py)
    tmp, responses = score_files
    code = ("import sys; from ipb.cli import main\n"
            f"sys.argv = ['ipb', 'score', '--items', {str(ITEMS)!r}, '--responses', {str(responses)!r}, "
            f"'--out', {str(tmp / 'o')!r}, '--no-embeddings', '--no-progress']\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "print([m for m in ('pydantic',) if m in sys.modules])\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "leaderboard" in out and out.strip().endswith("[]")


# --- breaker 3, findings 3 and 4: what the console script does is always exactly what typer does ---------------------

def _console(argv, capsys):
    """What ``main()`` does with ``argv``: the fast path's call when it takes the line, typer otherwise."""
    call = fast_invocation(argv)
    if call is None:
        result = CliRunner().invoke(app, argv)
        return result.exit_code, result.stdout, result.stderr
    return _fast(call, capsys)


CONSOLE_SAME = [
    ["run", CARD, BASE, "-f=json"],                                    # click: -f gets "=json", not a choice
    ["run", CARD, "-5"],                                               # click: "No such option: -5", not a scenario
    ["parse", CARD, ANSWER, "--no-embed", "-f=json"],
    ["parse", CARD, ANSWER, "--no-embed", "--embed-cutoff", "\uff10.\uff15"],   # full-width 0.5
    ["parse", CARD, ANSWER, "--no-embed", "--score-cutoff", "\u0669\u0660"],    # Arabic-Indic 90
    ["score", "--items", str(ITEMS), "--responses", "RESP", "--out", "OUT", "--no-embeddings", "--no-progress", "-s=5"],
    ["score", "--items", str(ITEMS), "--responses", "RESP", "--out", "OUT", "--no-embeddings", "--no-progress", "-f=auto"],
    ["score", "-i=" + str(ITEMS), "--responses", "RESP", "--out", "OUT", "--no-embeddings", "--no-progress"],
    ["score", "--items", str(ITEMS), "--responses", "RESP", "--out", "OUT", "--no-embeddings", "--no-progress",
     "--embed-cutoff", "\uff10.\uff15"],
    ["score", "--items", str(ITEMS), "--responses", "RESP", "--out", "OUT", "--no-embeddings", "--no-progress",
     "--min-confidence", "\u0660.\u0665"],
    ["score", "--items", str(ITEMS), "--responses", "RESP", "--out", "OUT", "--no-embeddings", "--no-progress",
     "--resamples", "\uff15"],
]


@pytest.mark.parametrize("argv", CONSOLE_SAME, ids=["run-short-eq", "run-negative-positional", "parse-short-eq",
                                                     "parse-fullwidth-float", "parse-arabic-indic-float",
                                                     "score-short-eq-seed", "score-short-eq-format",
                                                     "score-short-eq-items", "score-fullwidth-float",
                                                     "score-arabic-indic-float", "score-fullwidth-int"])
def test_the_console_script_gives_exactly_typers_result(argv, answer_file, score_files, capsys, monkeypatch):
    tmp, responses = score_files
    monkeypatch.setenv("COLUMNS", "200")
    for var in ("IPB_CACHE_DIR", "IPB_BASE_URL", "IPB_EMBED_CACHE", "RAY_ADDRESS"):
        monkeypatch.delenv(var, raising=False)

    def line(out):
        return [a.replace(ANSWER, str(answer_file)).replace("RESP", str(responses)).replace("OUT", str(tmp / out))
                for a in argv]

    expected = CliRunner().invoke(app, line("out_by_typer"))
    code, out, err = _console(line("out_by_console"), capsys)
    assert (code, out.replace("out_by_console", "out_by_typer"), err.replace("out_by_console", "out_by_typer")) == \
        (expected.exit_code, expected.stdout, expected.stderr)
    assert (tmp / "out_by_console").exists() == (tmp / "out_by_typer").exists()


def test_a_short_option_written_with_equals_writes_where_typer_writes(score_files, capsys, monkeypatch):
    """``-o=o`` is the folder ``=o`` for click (``=`` separates a value only after a long option)."""
    tmp, responses = score_files
    for var in ("IPB_CACHE_DIR", "IPB_BASE_URL", "IPB_EMBED_CACHE", "RAY_ADDRESS"):
        monkeypatch.delenv(var, raising=False)
    argv = ["score", "--items", str(ITEMS), "--responses", str(responses), "--no-embeddings", "--no-progress", "-o=o"]
    written = {}
    for name, run in (("typer", lambda: CliRunner().invoke(app, argv).exit_code),
                      ("console", lambda: _console(argv, capsys)[0])):
        (tmp / name).mkdir()
        monkeypatch.chdir(tmp / name)
        written[name] = (run(), sorted(p.name for p in (tmp / name).iterdir()))
    assert written["console"] == written["typer"] == (0, ["=o"])

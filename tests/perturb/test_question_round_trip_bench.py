"""``bench/question_round_trip.py`` (issue 18 bar, line 3): it checks each item with the package's reader, and a
question that does not read back, or whose reading raises, is counted with its item id (s34read item 13: the check
was a bare assert, gone under ``python -O``, and any other error ended the run)."""

from __future__ import annotations

import json
import subprocess
import sys

from ipb.perturb.question_facts import QuestionReadError
from tests.scoring.bench_support import ROOT, load_bench

CARD = "graham_net_net_screen"


def test_a_card_reads_back_and_a_wrong_reader_fails() -> None:
    bench = load_bench("question_round_trip.py")
    made, failures = bench.check_card(CARD, 6, 11)
    assert (made, failures) == (6, [])
    made, failures = bench.check_card(CARD, 6, 11, read=lambda frame, question: {})  # reads no fact back
    assert made == 6 and len(failures) == 6
    assert all(": facts read back differ: " in f and "None !=" in f for f in failures)


def test_an_error_on_one_item_fails_that_item_with_its_id_and_the_run_goes_on() -> None:
    bench = load_bench("question_round_trip.py")
    calls = []

    def flaky(frame, question):
        calls.append(question)
        if len(calls) == 2:
            raise KeyError("boom")
        if len(calls) == 3:
            raise QuestionReadError("words that state no fact: 'x'")
        return bench.read_question_facts(frame, question)

    made, failures = bench.check_card(CARD, 5, 11, read=flaky)
    assert made == 5 and len(calls) == 5 and len(failures) == 2
    assert failures[0].endswith(": KeyError: 'boom'") and failures[1].endswith(": QuestionReadError: words that state no fact: 'x'")
    ids = [json.loads(line)["id"] for line in bench.generate(bench.Job((CARD,), bench.first_base(CARD), 11), 5).lines]
    assert [f.split(": ")[0] for f in failures] == ids[1:3]  # each reason after its item's id
    made, failures = bench.check_card("no_such_card", 5, 11)
    assert made == 0 and len(failures) == 1 and failures[0].startswith("no_such_card: items not made: ")


def test_a_failure_is_reported_under_python_O() -> None:
    """Under -O the old bare assert was stripped and every item passed; the exit status is 1 on a failure here."""
    code = ("import sys; sys.path.insert(0, 'bench'); import question_round_trip as b;"
            "b.read_question_facts = lambda frame, question: {};"
            "b.check_card.__defaults__ = (b.read_question_facts,);"
            "sys.exit(b.main(['--n', '2', '--cards', 'graham_net_net']))")
    run = subprocess.run([sys.executable, "-O", "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "graham_net_net_screen: 2 items, 2 failed" in run.stdout

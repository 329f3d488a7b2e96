"""``bench/question_round_trip.py`` (issue 18 bar, line 3): it checks each item with the suite's reader, and a
question that does not read back is counted with its item id."""

from __future__ import annotations

from types import SimpleNamespace

from tests.scoring.bench_support import load_bench


def test_a_card_reads_back_and_a_wrong_reader_fails() -> None:
    bench = load_bench("question_round_trip.py")
    t = bench.questions_test()
    made, failures = bench.check_card(t, "graham_net_net_screen", 6, 11)
    assert (made, failures) == (6, [])
    wrong = SimpleNamespace(**{k: getattr(t, k) for k in ("first_base", "SNAKE", "item_facts")},
                            parse_back=lambda frame, question: {})  # reads no fact back
    made, failures = bench.check_card(wrong, "graham_net_net_screen", 6, 11)
    assert made == 6 and len(failures) == 6
    assert all(": facts read back differ: " in f and "None !=" in f for f in failures)

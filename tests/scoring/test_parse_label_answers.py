"""A gate's label answered Yes / No with no question mark (issue 13, wild analyses; paper §7.5).

Checklists in blog posts and forum notes write each criterion as a label and answer it at once, in parentheses
or after a colon or a dash: "Size: yes.", "new buyers entering (yes: ...)". The answer is read as if the label
were asked as a question: Yes passes a gate whose name states its pass condition and fails a gate named by the
failure it watches for. A "no" that is a determiner ("no red flags") is never such an answer. Every text here
was written for these tests; the expected readings were worked by hand against the bundled cards.
"""

from __future__ import annotations

import re
import zlib

import numpy as np

from ipb.scoring.parse import parse_response

G7 = "graham_seven_tests_defensive"  # every gate: pass test only
BUBBLE = "dalio_bubble_detection_gauge"  # every gate: fail test only (a bubble sign)
BUFFETT = "buffett_acquisition_checklist"  # gate 3 management: both tests


def _read(text: str, card: str) -> dict[int, str | None]:
    result = parse_response(text, card, embedder=False)
    assert result.status == "ok", result.reason
    return {g.gate: g.verdict for g in result.gates}


def test_colon_and_dash_answers_on_pass_named_gates() -> None:
    text = (
        "Quick screen of Ostrava Pumps against Graham's list:\n\n"
        "- Adequate size: yes, sales of $900 million.\n"
        "- Earnings stability: No. A loss in 2019.\n"
        "- Dividend record -- yes; paid since 1958.\n"
    )
    assert _read(text, G7) == {1: "PROCEED", 3: "REJECT", 4: "PROCEED"}


def test_parenthesised_answers_on_failure_named_gates() -> None:
    # each gauge is a bubble sign: "yes" says the sign is there (the gate's REJECT), "no" that it is not
    text = (
        "My run through the gauges for regional bank shares:\n\n"
        "1) \"new buyers entering\" (yes: brokerage sign-ups doubled),\n\n"
        "2) \"broadly bullish sentiment\" (no, the survey is gloomy),\n\n"
        "3) \"purchases financed with high leverage\" (yes: margin loans at a record),\n\n"
        "4) \"extended forward purchases\" (hard to say; order books are long).\n"
    )
    gates = _read(text, BUBBLE)
    assert {g: gates.get(g) for g in (3, 4, 5, 6)} == {3: "REJECT", 4: "PROCEED", 5: "REJECT", 6: "INCONCLUSIVE"}


def test_a_determiner_no_is_not_an_answer() -> None:
    # "no red flags" / "no moat to speak of" are facts in the gate's section, never a bare No to the label
    without = _read("- Earnings stability: no losses in ten years.\n- Adequate size: no doubt about it.\n", G7)
    assert without.get(3) != "REJECT" and without.get(1) != "REJECT"


def test_failure_words_in_the_label_turn_the_answer() -> None:
    # gate 3 has both a pass and a fail test: the label's own words decide what "yes" answers
    text = (
        "- Management red flags: yes. The chairman's cousin won the haulage contract.\n"
        "- Economic moat: yes. Kilns beside the clay pits.\n"
    )
    assert _read(text, BUFFETT) == {3: "REJECT", 2: "PROCEED"}


def test_an_answer_after_another_gate_named_is_not_the_label_s() -> None:
    # the "no" follows a second gate's name on the line: neither label is answered by it
    text = "- Adequate size and earnings stability: no.\n- Dividend record: yes.\n"
    gates = _read(text, G7)
    assert gates.get(1) is None and gates.get(4) == "PROCEED"


def test_a_point_called_unresolved_is_inconclusive() -> None:
    # "unresolved" closing a clause leaves the gate open (hedged INCONCLUSIVE); inside a clause it is a fact
    text = (
        "**Management**\n\nThe chairman's cousin won the haulage contract. For now we call it unresolved.\n\n"
        "**Economic Moat**\n\nNo rival can match the freight cost; I'd call the moat unresolved rather than failed.\n\n"
        "**Margin of Safety**\n\nAn unresolved lawsuit aside, the 40% discount clears the bar.\n"
    )
    assert _read(text, BUFFETT) == {3: "INCONCLUSIVE", 2: "INCONCLUSIVE", 5: "PROCEED"}


class _Moat:
    """A toy embedder: texts with a moat word lie on one axis, every other word on its own hashed axis."""

    MOAT = frozenset({"moat", "competitive", "advantage", "switching", "pricing", "franchise", "durable", "captivity"})

    def encode(self, sentences: list[str]) -> np.ndarray:

        rows = np.zeros((len(sentences), 65))
        for r, sentence in enumerate(sentences):
            for word in re.findall(r"[a-z]+", sentence.lower()):
                rows[r, 0 if word in self.MOAT else 1 + zlib.crc32(word.encode()) % 64] += 1.0 if word in self.MOAT else 0.2
        return rows


def test_a_second_label_of_a_named_gate_is_no_invented_gate() -> None:
    # "Customer captivity" is the moat again in the writer's words: with an embedder that places it
    # by the moat, it is not a gate the card lacks; "Political donations" is near no gate and stays invented
    text = (
        "## Circle of Competence\nPASS: tiles, kilns and trucks.\n\n"
        "## Economic Moat\nPASS: the kilns sit on the clay pits.\n\n"
        "## Customer captivity\nPASS: builders specify the brand.\n\n"
        "## Political donations\nFAIL: the founder funds a party.\n\n"
        "## Margin of Safety\nPASS: 28% below value.\n"
    )
    card = "buffett_acquisition_checklist"
    without = parse_response(text, card, embedder=False)
    assert sorted(without.invented_gates) == ["Customer captivity", "Political donations"]
    parsed = parse_response(text, card, embedder=_Moat())
    assert parsed.invented_gates == ["Political donations"]
    # the covered label takes no gate and moves none: the moat is still read from its own heading
    read = {g.gate: (g.verdict, text[slice(*g.mention)]) for g in parsed.gates}
    assert {k: read.get(k) for k in (1, 2, 5)} == {1: ("PROCEED", "Circle of Competence"), 2: ("PROCEED", "Economic Moat"),
                                                   5: ("PROCEED", "Margin of Safety")}


def test_a_label_alone_on_its_line_answered_on_the_next() -> None:
    # the answer opens the line under the label (one blank line at most); "No. 1 ..." and "No one ..." are not answers
    text = (
        "Case notes: the Varnel peg\n\n"
        "Prevailing Bias\nYes. Everyone calls the peg unbreakable.\n\n"
        "**Market Confirmation**\n\nNot yet. Reserves fell 4% but forwards barely moved.\n\n"
        "Feedback Loop\nNo one doubts that banks borrow in euros.\n"
    )
    gates = _read(text, "soros_reflexive_hypothesis_trade_construction")
    assert gates.get(1) == "PROCEED" and gates.get(4) == "INCONCLUSIVE" and gates.get(2) is None
    numbered = _read("Adequate Size\nNo. 1 in its market by sales.\n\nDividend record\nNo. Cut in 2016.\n", G7)
    assert numbered.get(1) != "REJECT" and numbered.get(4) == "REJECT"


def test_a_label_that_negates_its_gate_is_not_answered() -> None:
    # "No euphoria: yes" says the bubble sign is absent; reading the "yes" as the sign present (REJECT) turns the
    # writer's answer round, so a label with a negation of its own ("no", "absent", "without") is not read as an
    # answer; "sentiment absent" still reads as the sign absent (PROCEED) by the ordinary verdict words
    text = "Bubble gauges, Halden housing:\n\n- No euphoria: yes.\n- Bullish sentiment absent: yes.\n- Without new buyers: yes.\n"
    gates = _read(text, BUBBLE)
    assert gates.get(4) == "PROCEED" and gates.get(3) is None
    alone = _read("- No euphoria: yes.\n- Leveraged buying: yes.\n", BUBBLE)
    assert alone.get(4) is None and alone.get(5) == "REJECT"


def test_label_words_outside_the_gate_s_vocabulary_leave_the_answer_unread() -> None:
    # "Moat erosion: yes" answers whether the moat erodes, "Management concerns: yes" whether there are concerns,
    # "size questioned by analysts: no" whether anyone doubts it: the label's own words, which the card does not
    # know, decide what the answer means, so none of these is read as the gate's Yes or No
    text = "- Management concerns: yes.\n- Moat erosion: yes.\n"
    gates = _read(text, BUFFETT)
    assert gates.get(3) is None and gates.get(2) is None
    size = _read("Screen notes:\n- Adequate size questioned by analysts: no.\n- Dividend record: yes.\n", G7)
    assert size.get(1) is None and size.get(4) == "PROCEED"

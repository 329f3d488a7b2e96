"""Gate labels with nothing of their own are template slots, not mentions (issue 13, the stop-31 decision).

Paper §7.5 defines the gate sequence S-hat as the gate labels the answer *mentions*; §7.6's GCF counts the gold gates in
S-hat. An empty heading, a list of the card's gate names or a label whose only content is a slot ("Pass / Fail /
Unknown", "[your analysis here]", "TBD") mentions nothing, so such a gate is left out of S-hat. A gate with a verdict
read, or with any content of its own even when no verdict is read, stays. Short texts written for these tests; the
embedder is off. The scored cases below are worked by hand on the first bundled item of Buffett's checklist: gold
gates 1-5 reached (1, 2, 4 PROCEED, 3 INCONCLUSIVE, 5 REJECT: the kill), gate 6 N/A, final DECLINE.
"""

from __future__ import annotations

import json

import pytest

from ipb.respond.synthetic import bundled_items, synthetic_responses
from ipb.scoring.embeddings import CachedEncoder, HashingEncoder
from ipb.scoring.parse import parse_response
from ipb.scoring.parse._template_slots import has_content
from ipb.scoring.run import ScoreOptions, score_responses

BUFFETT = "buffett_acquisition_checklist"  # 1 Circle of Competence ... 5 Margin of Safety, 6 Holding Period Economics
NAMES = ["Circle of Competence", "Economic Moat", "Management Integrity", "Intrinsic Value Estimation",
         "Margin of Safety", "Holding Period Economics"]


def _gates(text: str) -> dict[int, str | None]:
    return {g.gate: g.verdict for g in parse_response(text, BUFFETT, embedder=False).gates}


# ---------------------------------------------------------------- the reading


@pytest.mark.parametrize("text", [  # the gate names already blanked, as the parser passes them
    "Gate 3 :",
    "### Step 2: [your analysis here]",
    "  : Pass / Fail / Unknown",
    "|   | | |",
    "- 4.  : <verdict>",
    "  : TBD",
    "Gates: , , and .",
    "(2)  — n/a?",
])
def test_a_label_with_only_numbering_slots_or_frame_words_has_no_content(text):
    assert not has_content(text)


@pytest.mark.parametrize("text", [
    ": customers rarely switch",
    ": retention is 94%",
    ": \u2705",  # a status icon the rules may not read is still the writer's mark
    ": \u26a0",
    "| Economic Moat | strong | |",
    ": 3 of 7 years",
])
def test_a_word_a_figure_or_an_icon_is_content(text):
    assert has_content(text)


@pytest.mark.parametrize("text", [
    "".join(f"Gate {i + 1} {n}:\n" for i, n in enumerate(NAMES)),  # empty headings, one after the other
    "".join(f"## {n}\n\n" for n in NAMES),
    "".join(f"{n}: Pass / Fail / Unknown\n" for n in NAMES),  # the outcome list as every label's content
    "".join(f"- {n}: [fill in]\n" for n in NAMES),
    "Gates:\n" + "".join(f"- {n}\n" for n in NAMES[:5]) + "\nVerdict: PASS / FAIL\n",  # a list of the card's names
    "| Gate | Verdict | Evidence |\n|---|---|---|\n" + "".join(f"| {n} | | |\n" for n in NAMES),  # an empty table
])
def test_a_template_of_the_cards_gate_names_mentions_no_gate(text):
    parsed = parse_response(text, BUFFETT, embedder=False)
    assert parsed.gates == [] and parsed.status == "parse_failure"
    assert any("nothing of their own" in n for n in parsed.notes)


def test_an_empty_heading_among_filled_ones_is_left_out_and_the_others_stay():
    text = ("## Circle of Competence\nInsurance, a business we have owned for decades.\n\n## Economic Moat\n\n"
            "## Margin of Safety\nThe price is 40% under our value.\n")
    assert _gates(text) == {1: None, 5: "PROCEED"}


@pytest.mark.parametrize("text, expected", [
    ("Circle of Competence: insurance, which we know well.\nEconomic Moat: customers rarely switch.\n", {1: None, 2: None}),
    ("## Economic Moat\nChurn is 2% a year; nobody has moved to a rival in ten years.\n", {2: None}),
    ("Economic Moat\n\nNobody has moved to a rival in ten years.\n", {2: None}),  # the body a paragraph below
    ("Circle of Competence: \u2714\nEconomic Moat: \u2714\n", {1: "PROCEED", 2: "PROCEED"}),
    ("Margin of Safety: FAIL\n", {5: "REJECT"}),  # a verdict alone is enough
])
def test_a_gate_with_content_of_its_own_stays_even_with_no_verdict_read(text, expected):
    assert _gates(text) == expected


# ---------------------------------------------------------------- scored, worked by hand


@pytest.fixture(scope="module")
def records():
    item = bundled_items([BUFFETT])[0]
    assert item["grp"]["investment_verdict"] == "DECLINE" and item["grp"]["verdict_trigger"] == "gate_5_reject"
    [gold] = synthetic_responses([item], corruptions=["none"])
    texts = {
        "template": "".join(f"Gate {i + 1} {n}:\n" for i, n in enumerate(NAMES)) + "Final: DECLINE\n",
        "names": "The checklist: " + ", ".join(NAMES) + ".\nFinal: DECLINE\n",
        "content": ("Circle of Competence: insurance, which we know well.\n"
                    "Economic Moat: customers rarely switch; retention is 94%.\nFinal: DECLINE\n"),
    }
    options = ScoreOptions(encoder=CachedEncoder(HashingEncoder()), n_resamples=50)
    return {r["model"]: r for r in score_responses([item], [dict(gold, model=k, response=v) for k, v in texts.items()],
                                                       options)}


@pytest.mark.parametrize("model", ["template", "names"])
def test_a_template_or_a_list_of_names_covers_no_gate(records, model):
    # S-hat is empty: GCF = 0/5 = 0, OGRS = GCF x tau_n = 0, OGRS_k = 0, NED = 1 (nothing of the gold sequence);
    # L7 composite = 0.35 OGRS_k + 0.30 KCCS + 0.20 VerdictAcc + 0.15 SAP@1 = 0.35*0 + 0.30*0 + 0.20*1 + 0.15*0 = 0.20,
    # the stated DECLINE alone (it was 0.35 when the six names counted as covered)
    m = records[model]["metrics"]
    assert records[model]["status"] == "scored"
    assert m["gcf"] == 0.0 and m["ogrs"] == 0.0 and m["ogrs_k"] == 0.0 and m["ned"] == 1.0 and m["gra"] == 0.0
    assert m["verdict_acc"] == 1.0 and m["layer_composite"] == pytest.approx(0.20)


def test_an_honest_answer_with_content_but_no_verdict_read_keeps_its_coverage(records):
    # S-hat = [1, 2]: GCF = 2/5 = 0.4; both in gold order, tau = 1, tau_n = 1; OGRS = 0.4 x 1 = 0.4
    m = records["content"]["metrics"]
    assert m["gcf"] == pytest.approx(0.4) and m["kendall_tau"] == 1.0 and m["ogrs"] == pytest.approx(0.4)
    assert m["layer_composite"] > records["template"]["metrics"]["layer_composite"]


# ---------------------------------------------------------------- the inspect_ai and lm-eval scorers read the same


def test_the_inspect_and_lm_eval_scorers_give_a_template_no_gate_and_content_its_coverage():
    # both call ipb.integrations.answers.score_answer (inspect's ipb_scorer, lm-eval's process_results); the reading
    # is the parser's, so their OGRS is ipb score's: 0 for the template, 0.4 = GCF 2/5 x tau_n 1 for the honest answer
    from ipb.integrations.answers import score_answer
    from ipb.integrations.lm_eval import process_results

    item = bundled_items([BUFFETT])[0]
    template = "".join(f"Gate {i + 1} {n}:\n" for i, n in enumerate(NAMES)) + "Final: DECLINE\n"
    content = ("Circle of Competence: insurance, which we know well.\n"
               "Economic Moat: customers rarely switch; retention is 94%.\nFinal: DECLINE\n")
    assert score_answer(item, template).values == {"verdict_acc": 1.0, "gra": 0.0, "ogrs": 0.0}
    assert score_answer(item, content).values["ogrs"] == pytest.approx(0.4)
    doc = {"item_json": json.dumps(item), "condition": "A"}
    assert process_results(doc, [template])["ogrs"] == 0.0
    assert process_results(doc, [content])["ogrs"] == pytest.approx(0.4)

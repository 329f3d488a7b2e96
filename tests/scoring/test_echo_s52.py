"""An answer that only restates its prompt is a refusal (``echo``), scored 0 and counted (s52break finding 1).

Before the fix ``ipb score --no-embeddings`` scored an echo of the question on ``graham_net_net_screen`` 0.604 at
full coverage, above wrong answers (0.412): the parser applied the card's thresholds to the restated facts. The
answers here are built from a bundled item's question (written by the tool, not taken from the corpus); the quoted
and judged answers add verdict lines written for this test.
"""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ipb.engine.registry import compiled_card
from ipb.respond.knowledge import card_text, prompt_texts
from ipb.respond.synthetic import bundled_items
from ipb.scoring.echo import MIN_COPIED_SHARE, copied_share, echo_reason
from ipb.scoring.outcome import REFUSAL_REASONS, outcome_of
from ipb.scoring.parse import parse_response
from ipb.scoring.run import ScoreOptions, score_responses

CARD = "graham_net_net_screen"


# The facts of the bundled scenario losses_dissipate_assets (gold: gate 1 PROCEED, gate 2 REJECT, DECLINE), stated
# one per sentence as ``ipb perturb`` states an item's facts; an echo of it read gate 2 REJECT from "-$4M" against
# the card's net_income < 0 and was scored.
QUESTION = ("Decision date: 1976-03-31.\n"
            "The market value of all the common shares is $8M. The total current assets at the latest balance sheet "
            "are $40M. All liabilities are $18M. The preferred stock at its liquidation or par value is $0. The net "
            "income of the latest fiscal year is -$4M.\n"
            "Apply Benjamin Graham's Graham Net-Net Working Capital Screen to this decision. Go through the gates in "
            "the framework's order, state each gate's verdict (PROCEED, REJECT or INCONCLUSIVE; N/A for a gate the "
            "analysis never reaches) with the values that decide it, then give the final verdict (INVEST or DECLINE).")


@pytest.fixture(scope="module")
def item():
    base = next(i for i in bundled_items([CARD]) if i["id"].endswith("/losses_dissipate_assets"))
    return {**base, "question": QUESTION}


def _verdict_lines(item, flip=False):
    swap = {"PROCEED": "REJECT", "REJECT": "PROCEED", "INVEST": "DECLINE", "DECLINE": "INVEST"}
    lines = [f"Gate {g['gate']} ({g['name']}): {swap.get(g['verdict'], g['verdict']) if flip else g['verdict']}."
             for g in item["grp"]["gold_program"]]
    final = item["investment_verdict"]
    return "\n".join(lines + [f"Final verdict: {swap.get(final, final) if flip else final}"])


def _facts(item):
    return item["question"].split("\nApply")[0]


def _answers(item):
    q = item["question"]
    reordered = "**Answer:**\n\n" + "\n".join(f"- {line}" for line in reversed(q.splitlines()))
    return {
        "echo": q,
        "echo-reordered": reordered,
        "facts": _facts(item),
        "gold": _verdict_lines(item),
        "wrong": _verdict_lines(item, flip=True),
        # every fact quoted, then judged in the answer's own words: scored
        "quoted-then-judged": _facts(item) + "\n\nMy reading of these figures:\n" + _verdict_lines(item),
    }


@pytest.fixture(scope="module")
def records(item):
    answers = _answers(item)
    out = score_responses([item], [{"item_id": item["id"], "condition": "A", "model": k, "response": v}
                                   for k, v in answers.items()],
                          ScoreOptions(embeddings=False, n_resamples=50))
    return {r["model"]: r for r in out}


def test_echo_is_a_refusal(item):
    assert "echo" in REFUSAL_REASONS and outcome_of("unscored", "echo") == "refusal"


@pytest.mark.parametrize("model", ["echo", "echo-reordered", "facts"])
def test_restated_prompt_is_filed_echo_at_zero(records, model):
    r = records[model]
    assert (r["status"], r["outcome"], r["reason_code"]) == ("unscored", "refusal", "echo")
    assert r["owed"]["layer_composite"] == 0.0
    assert "restates its prompt" in r["reason"]


@pytest.mark.parametrize("model", ["gold", "wrong", "quoted-then-judged"])
def test_answers_with_their_own_verdicts_are_scored(records, model):
    assert records[model]["outcome"] == "scored"


def test_echo_ranks_below_a_wrong_committed_answer(records):
    # gold answers read every gate and the final right; the wrong ones flip every decided verdict
    assert records["gold"]["metrics"]["layer_composite"] > records["wrong"]["metrics"]["layer_composite"] > 0.0
    assert records["quoted-then-judged"]["metrics"]["layer_composite"] == records["gold"]["metrics"]["layer_composite"]


def test_condition_c_context_echo_needs_the_rendered_card(item):
    # the condition C message: the card as respond renders it, then the question; the rendering's own words
    # ("Framework card:", "PROCEED when", "leaves the final verdict INCONCLUSIVE") are known only through
    # prompt_texts, which ipb score injects
    card = compiled_card(CARD).card
    message = "Reference material: the framework card that defines the procedure to apply.\n\n" \
              + card_text(card) + "\n\nQuestion:\n" + item["question"]
    parsed = [parse_response(message, card, embedder=False).to_dict()]
    sources = [item["question"]] + list(prompt_texts(item, [card]))
    assert copied_share(message, sources) > 0.99  # a token or two where the template meets the question
    assert echo_reason(message, sources, parsed)[0] == "echo"


# hand-worked: Q is 20 tokens ("-$6M" is the token "6M"); the judged answer adds 6 of its own ("gate", "2",
# "reject", "it", "lost", "money"), so 20 of 26 are copied
Q = "The net income of the latest fiscal year is -$6M. The market value of all the common shares is $2M."


def test_copied_share_hand_worked():
    assert copied_share(Q, [Q]) == 1.0  # 20 of 20 tokens
    judged = Q + " Gate 2: REJECT, it lost money."
    assert copied_share(judged, [Q]) == pytest.approx(20 / 26)


def test_own_verdict_word_outside_the_copy_keeps_the_answer():
    judged = Q + " Gate 2: REJECT, it lost money."
    at = judged.index("REJECT")
    own = [{"gates": [{"gate": 2, "verdict": "REJECT", "verdict_span": [at, at + 6]}]}]
    assert copied_share(judged, [Q]) >= MIN_COPIED_SHARE
    assert echo_reason(judged, [Q], own) is None
    # the same verdict inferred from the restated figure (no word of its own) is no judgement
    inferred = [{"gates": [{"gate": 2, "verdict": "REJECT", "verdict_span": None}]}]
    assert echo_reason(Q, [Q], inferred)[0] == "echo"


def test_verdict_word_inside_the_copied_instruction_is_the_prompts():
    q = Q + " State each gate's verdict: PROCEED, REJECT or INCONCLUSIVE."
    at = q.index("REJECT")
    assert echo_reason(q, [q], [{"gates": [{"gate": 1, "verdict": "REJECT", "verdict_span": [at, at + 6]}]}])[0] \
        == "echo"


def test_short_answer_is_never_an_echo():
    # "Gate 1: REJECT" copied word for word from a prompt that lists it is still a terse answer of its own
    assert echo_reason("Gate 1: REJECT. Final verdict: DECLINE", ["Gate 1: REJECT. Final verdict: DECLINE"],
                       [{"gates": [{"gate": 1, "verdict": "REJECT", "verdict_span": None}]}]) is None


def test_an_answer_in_its_own_words_is_not_copied():
    own = "Losing six million a year eats the working capital the screen relies on, so the stock fails here."
    assert copied_share(own, [Q]) == 0.0


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), wrap=st.sampled_from(["{}", "**{}**", "> {}", "Answer: {}"]))
def test_reordered_and_marked_up_sentences_stay_copied(seed, wrap):
    # every sentence of Q and of the added one has four tokens or more, so each is covered by its own shingles
    sentences = [s + "." for s in (Q + " Apply the screen to this decision.").split(". ") if s]
    random.Random(seed).shuffle(sentences)
    text = "\n".join(wrap.format(s) for s in sentences)
    prompt = Q + " Apply the screen to this decision."
    share = copied_share(text, [prompt])
    marker = 1 if wrap == "Answer: {}" else 0  # "Answer" is the echo's own word, once per line
    n_own = marker * len(sentences)
    n_tokens = len(re.findall(r"[^\W_]+", text))
    assert share == pytest.approx((n_tokens - n_own) / n_tokens)

"""Figures users rank by must not reward failing or chatter (issue 13, scoring side; s49user findings 4 and 8).

1. An attribution the L7 question never asked for ("Graham wrote up the method in 1946") lifted a chatty answer above
   the faultless one: SAP@1 was 0 for an answer attributing nothing, 15% of the L7 composite. §7.8 defines SAP@k as a
   precision over the attributions an answer makes, so on an item that asks for no source an answer that makes none
   is not scored on it (None, the composite renormalises); a wrong attribution is still 0.

2. "I don't know." (and "No idea.", "Cannot say.", "Keine Ahnung." ...) was a parse failure: the parser missed
   nothing, the answer commits to no verdict. It is now a refusal of kind ``no_commitment``, the kind of an answer
   that lists the gates and writes "unknown" after each (scored 0 either way; only the count changes).

3. KCCS is unknown (None, out of the mean) on an answer not in English whose reached kill gates have words-only
   elements (s49fair); the leaderboard now says "unknown on k" beside the KCCS figure and the summary counts k per
   group (``n_kccs_unknown``).
4. The leaderboard's footer says how it ranks (the paper's §7.13 composite, read beside its profile, GRA the metric
   of record, §11.9/§8.7) and, when SAP@1 may decide rank 1, what GRA says of the top two.

Every value below is worked by hand from the paper's weights and the card's facts, not read from the code.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from ipb.engine.api import load_card
from ipb.scoring.api import _item_for, score
from ipb.scoring.embeddings import CachedEncoder, HashingEncoder
from ipb.scoring.metrics import Case
from ipb.scoring.metrics.attribution import sap_at_k
from ipb.scoring.metrics._case import InvestorProfile
from ipb.scoring.outcome import classify_unread, filing, professes_ignorance, unscored_reason
from ipb.scoring.run import ScoreOptions, run_score
from ipb.scoring.summary import RANK_RULE, leaderboard, rank_note

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "new_user49"
CARD = str(FIXTURE / "graham_risk_arbitrage_spread.yaml")
# GRAHAM-ARB-1: price $40, offer $46, fallback $34, 90%, half a year. Gain $6, loss $6; the expected annual return is
# (6 x 0.9 - 6 x 0.1) / (40 x 0.5) = 0.24 >= 20%; the loss $6 <= 25% of $40 = $10. Every gate PROCEED: ARBITRAGE.
FACTS = yaml.safe_load((FIXTURE / "arb.yaml").read_text(encoding="utf-8"))["facts"]

# Every gate named, with its verdict and each of its gold elements (gate 3's return written as the GRP writes it,
# 0.24, s49user finding 3): OGRS_k 1, KCCS 1, VerdictAcc 1, GRA 1.
FAULTLESS = (
    "Gate 1 - Announced deal only: PROCEED. The deal status is definitive agreement; Graham takes no position on "
    "rumours.\n"
    "Gate 2 - Chance of completion: PROCEED. The completion probability is 90% against the 70% floor.\n"
    "Gate 3 - Expected annual return on Graham's formula: PROCEED. The spread is $6. The expected annual return is "
    "0.24. That clears the 20% hurdle.\n"
    "Gate 4 - Loss if the deal breaks: PROCEED. The loss on a break is $6, against 25% of the price ($10).\n"
    "Final verdict: ARBITRAGE")
# s49user's chatty opening, the same gates after it
CHATTY = ("Great question! Merger arbitrage was one of the favourite special situations. A little history: Graham "
          "wrote up the method in 1946. Anyway, let's dig in.\n\n" + FAULTLESS)
# the same sentence crediting the wrong investor
MISATTRIBUTED = CHATTY.replace("Graham wrote up", "Buffett wrote up")


def _metrics(text: str) -> dict:
    record = score(text, card=CARD, facts=FACTS)
    assert record["status"] == "scored", record
    return record["metrics"]


def test_the_faultless_answer_attributing_nothing_scores_the_whole_composite():
    m = _metrics(FAULTLESS)
    assert (m["ogrs_k"], m["kccs"], m["verdict_acc"], m["gra"]) == (1.0, 1.0, 1.0, 1.0)
    # no attribution on an L7 item, which asks for none: SAP@1 not applicable; the L7 weights renormalise over
    # OGRS_k, KCCS and VerdictAcc: (0.35 + 0.30 + 0.20) / 0.85 = 1 (it was 0.85 with SAP@1 at 0)
    assert m["sap@1"] is None
    assert m["layer_composite"] == pytest.approx(1.0)
    # BASP-strict: the SAP gate is not evaluated, counted passed under the paper's denominator: 1.0 x 6/6
    assert m["basp_strict"] == pytest.approx(1.0)
    assert m["basp_conjunction"] == 1.0


def test_the_chatty_answer_does_not_rise_above_the_faultless_one():
    m = _metrics(CHATTY)
    # "Graham wrote up the method in 1946" credits the card's investor: SAP@1 = 1;
    # 0.35 + 0.30 + 0.20 + 0.15 = 1.0, the faultless answer's value, not above it (before: 1.0 against 0.85)
    assert m["sap@1"] == 1.0
    assert m["layer_composite"] == pytest.approx(1.0)
    assert m["layer_composite"] <= _metrics(FAULTLESS)["layer_composite"]


def test_a_wrong_attribution_still_costs_its_term():
    m = _metrics(MISATTRIBUTED)
    # the method credited to Buffett on a Graham card: SAP@1 = 0 and the term counts: 0.35 + 0.30 + 0.20 = 0.85
    assert m["sap@1"] == 0.0
    assert m["layer_composite"] == pytest.approx(0.85)
    # BASP-strict: SAP gate 0 < 0.50 fails, 5 of 6 gates pass: 0.85 x 5/6
    assert m["basp_strict"] == pytest.approx(0.85 * 5 / 6)


def _case(layer: str, **parsed) -> Case:
    parsed = {"status": "ok", "gates": [{"gate": 1, "verdict": "PROCEED"}], **parsed}
    return Case(gold={"gold_program": []}, parsed=parsed, layer=layer,
                investor=InvestorProfile(name="Benjamin Graham", aliases=("Graham",)))


@pytest.mark.parametrize("layer, parsed, expected", [
    ("L7", {}, None),                                                      # asked for no source, gave none
    ("L4", {}, None),
    ("L2", {}, 0.0),                                                       # an attribution question unanswered
    ("L1", {}, 0.0),
    ("L7", {"trace_unread": True, "gates": []}, 0.0),                      # a bare final verdict lifts nothing
    ("L7", {"gates": []}, 0.0),                                            # a failure's owed probe: SAP is owed
    ("L7", {"attributions": [{"investor": "Benjamin Graham"}]}, 1.0),
    ("L7", {"attributions": [{"investor": "Warren Buffett"}]}, 0.0),
    ("L2", {"attributions": [{"investor": "Benjamin Graham"}]}, 1.0),
], ids=["L7-none", "L4-none", "L2-none", "L1-none", "L7-bare-verdict", "L7-empty", "L7-right", "L7-wrong",
        "L2-right"])
def test_sap1_by_layer_and_attribution(layer, parsed, expected):
    assert sap_at_k(_case(layer, **parsed), 1) == expected


def test_the_leaderboard_puts_the_faultless_answer_level_with_the_chatty_one(tmp_path):
    card = load_card(CARD)
    item = _item_for(card, FACTS, "arb-1")
    (tmp_path / "items.jsonl").write_text(json.dumps(item) + "\n")
    records = [{"item_id": "arb-1", "model": model, "condition": "A", "response": text}
               for model, text in (("m-chatty", CHATTY), ("m-faultless", FAULTLESS), ("m-misattributed",
                                                                                      MISATTRIBUTED))]
    (tmp_path / "r.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    from ipb.engine.registry import add_card_file

    add_card_file(card.card.id, card.card.file)
    result = run_score(tmp_path / "items.jsonl", tmp_path / "r.jsonl", tmp_path / "out",
                       ScoreOptions(encoder=CachedEncoder(HashingEncoder()), n_resamples=50))
    rows = {r["model"]: r for r in leaderboard(result.summary)}
    # before stop 50: chatty 1.0, faultless 0.85, misattributed 0.85
    assert rows["m-faultless"]["rank_value"] == pytest.approx(1.0)
    assert rows["m-chatty"]["rank_value"] == pytest.approx(1.0)
    assert rows["m-misattributed"]["rank_value"] == pytest.approx(0.85)


IGNORANCE = ["I don't know.", "I do not know", "No idea.", "I have no idea!", "Cannot say.", "I can't say.",
             "Not sure.", "Sorry, I don't know.", "Honestly? I don't know.", "**I don't know.**",
             "No lo sé.", "Ni idea.", "Je ne sais pas.", "Aucune idée.", "Ich weiß es nicht.", "Keine Ahnung.",
             "Non lo so.", "Não sei.", "Ik weet het niet.", "Geen idee."]
NOT_IGNORANCE = ["I don't know the deal's fallback price, so gate 4 is open.", "I know.", "Sorry.", "No.",
                 "Gate 1 - Announced deal only: I don't know.\nFinal verdict: ARBITRAGE",
                 "I don't know. " * 12]  # 168 characters: not a short answer


@pytest.mark.parametrize("text", IGNORANCE)
def test_a_profession_of_not_knowing_is_a_no_commitment_refusal(text):
    assert professes_ignorance(text)
    # nothing read from it: classify_unread files it as the model's, a refusal that commits to nothing
    assert classify_unread(text, ["Announced deal only", "Benjamin Graham"])[0] == "no_commitment"
    # ipb parse's filing line and ipb score's filing agree
    assert filing(text, {"status": "parse_failure", "reason": "no gate found"}, ["Announced deal only"])[:2] == (
        "refusal", "no_commitment")


@pytest.mark.parametrize("text", NOT_IGNORANCE)
def test_other_answers_are_not_read_as_not_knowing(text):
    assert not professes_ignorance(text)


def test_a_decline_stays_a_refusal_and_an_extractor_failure_does_not_hide_i_dont_know():
    assert classify_unread("I cannot help with that.", [])[0] == "refusal"
    parsed = [{"status": "parse_failure", "reason": "llm extractor: request failed"}]
    # the text alone shows that the model did not know: the extractor's failure takes nothing from the model's filing
    assert unscored_reason("I don't know.", parsed, ["Announced deal only"], [None])[0] == "no_commitment"
    # while an answer the extractor could not read stays the parser's gap
    assert unscored_reason("The spread is wide.", parsed, ["Announced deal only"], [None])[0] == "parse_failure"


def test_the_refuser_counts_six_refusals_and_no_parse_failure(tmp_path):
    # s49user's refuser: five declines and one "I don't know." on six items; before stop 50: "5 refusal(s), 1 parse
    # failure(s)". Each is 0 on every owed metric either way; the counts say 6 refusals (one no_commitment), 0 parse
    # failures.
    card = load_card(CARD)
    item = _item_for(card, FACTS, "arb-1")
    (tmp_path / "items.jsonl").write_text(json.dumps(item) + "\n")
    texts = ["I'm sorry, but I can't help with decisions about buying or selling specific securities.",
             "I must decline to answer this question.", "I don't know."]
    records = [{"item_id": "arb-1", "model": f"refuser-{i}", "condition": "A", "response": t}
               for i, t in enumerate(texts)]
    (tmp_path / "r.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    from ipb.engine.registry import add_card_file

    add_card_file(card.card.id, card.card.file)
    result = run_score(tmp_path / "items.jsonl", tmp_path / "r.jsonl", tmp_path / "out",
                       ScoreOptions(encoder=CachedEncoder(HashingEncoder()), n_resamples=50))
    out = [json.loads(line) for line in (tmp_path / "out" / "responses.jsonl").read_text().splitlines()]
    assert [(r["outcome"], r["reason_code"]) for r in out] == [
        ("refusal", "refusal"), ("refusal", "refusal"), ("refusal", "no_commitment")]
    rows = {r["model"]: r for r in leaderboard(result.summary)}
    assert rows["refuser-2"]["rank_value"] == 0.0


# GRAHAM-ARB-1 with the deal only rumoured: gate 1 (a kill gate) REJECT, the chain stops, PASS. Gate 1's elements,
# "deal status rumoured" and "no position on rumours", are words only.
RUMOURED = {**FACTS, "deal_status": "rumoured"}
RUMOURED_EN = ("Gate 1 - Announced deal only: REJECT. The deal status is rumoured; Graham takes no position on "
               "rumours.\nGate 2 - Chance of completion: N/A\nGate 3 - Expected annual return on Graham's formula: N/A\n"
               "Gate 4 - Loss if the deal breaks: N/A\nFinal verdict: PASS")
RUMOURED_ES = ("Criterio 1 - Solo operaciones anunciadas: NO SE CUMPLE. La operación es solo un rumor; Graham no toma "
               "posiciones sobre rumores.\nCriterio 2 - Probabilidad de cierre: NO APLICA\nCriterio 3 - Rentabilidad "
               "anual esperada: NO APLICA\nCriterio 4 - Pérdida si la operación fracasa: NO APLICA\n"
               "Veredicto final: PASS")


def _board(tmp_path, facts, answers):
    card = load_card(CARD)
    item = _item_for(card, facts, "arb-1")
    (tmp_path / "items.jsonl").write_text(json.dumps(item) + "\n")
    records = [{"item_id": "arb-1", "model": model, "condition": "A", "response": text} for model, text in answers]
    (tmp_path / "r.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records))
    from ipb.engine.registry import add_card_file

    add_card_file(card.card.id, card.card.file)
    return run_score(tmp_path / "items.jsonl", tmp_path / "r.jsonl", tmp_path / "out",
                     ScoreOptions(encoder=CachedEncoder(HashingEncoder()), n_resamples=50))


def _printed(summary) -> str:
    import io

    from ipb.cli.commands.score import print_leaderboard
    from ipb.cli._app import SafeConsole

    sink = io.StringIO()
    print_leaderboard(summary, SafeConsole(width=200, file=sink, highlight=False))
    return sink.getvalue()


def test_kccs_unknown_is_counted_and_shown_per_model(tmp_path):
    result = _board(tmp_path, RUMOURED, [("m-en", RUMOURED_EN), ("m-es", RUMOURED_ES)])
    out = {r["model"]: r for r in (json.loads(line) for line in
                                   (tmp_path / "out" / "responses.jsonl").read_text(encoding="utf-8").splitlines())}
    # English: both elements read, F1 1. Spanish: gate 1 reached, its two elements words only, unknown: KCCS None
    assert out["m-en"]["metrics"]["kccs"] == 1.0 and "kccs_unknown" not in out["m-en"]["metrics"]
    assert out["m-es"]["metrics"]["kccs"] is None and out["m-es"]["metrics"]["kccs_unknown"] == 1.0
    # the composite renormalises over OGRS_k and VerdictAcc (SAP@1 not applicable, no attribution): (0.35+0.20)/0.55
    assert out["m-es"]["metrics"]["layer_composite"] == pytest.approx(1.0)
    groups = result.summary["groups"]["model"]
    assert (groups["m-en"]["n_kccs_unknown"], groups["m-es"]["n_kccs_unknown"]) == (0, 1)
    rows = {r["model"]: r for r in leaderboard(result.summary)}
    assert (rows["m-en"]["n_kccs_unknown"], rows["m-es"]["n_kccs_unknown"]) == (0, 1)
    text = _printed(result.summary)
    assert "unknown on 1" in text
    flat = " ".join(text.split())
    start = flat.index("KCCS unknown on k answers")
    # by model, only the models with k > 0
    assert flat[start:].split(" rank: ")[0].endswith("; by model: m-es 1")


def test_an_english_answer_that_reaches_no_kill_gate_is_not_unknown(tmp_path):
    # a gold with no kill gate reached makes KCCS not applicable, never "unknown"
    from ipb.scoring.metrics.elements import kccs_unknown

    gold = {"gold_program": [{"gate": 1, "verdict": "PROCEED", "required_elements": ["durable moat"]}]}
    assert kccs_unknown(Case(gold, {"status": "ok", "gates": []}), None) is False


def test_the_footer_says_how_the_board_ranks(tmp_path):
    result = _board(tmp_path, FACTS, [("m-faultless", FAULTLESS), ("m-misattributed", MISATTRIBUTED)])
    text = _printed(result.summary)
    assert RANK_RULE in " ".join(text.split()) or RANK_RULE[:60] in text
    assert "§8.7" in text and "GRA" in text


# s49user's chatty and table answers, on the same flawed gates: gate 3 gives the return as "24% a year", which the
# GRP's element "expected annual return 0.24" does not match (s49user finding 3), so gate 3's F1 is
# 2*2/(3+2) = 0.8 and KCCS over the four reached kill gates (1 + 1 + 0.8 + 1)/4 = 0.95; GRA (3 + (1 + 1 + 2/3)/3)/4
QUIET_FLAWED = FAULTLESS.replace("The spread is $6. The expected annual return is 0.24. That clears the 20% hurdle.",
                                 "The spread is $6, and ($6 x 90% - $6 x 10%) / ($40 x 0.5 years) = 24% a year, "
                                 "against the 20% hurdle.")
CHATTY_FLAWED = ("Great question! A little history: Graham wrote up the method in 1946. Anyway, let's dig in.\n\n"
                 + QUIET_FLAWED)


def test_the_footer_says_when_sap1_decides_rank_one(tmp_path):
    result = _board(tmp_path, FACTS, [("m-chatty", CHATTY_FLAWED), ("m-quiet", QUIET_FLAWED)])
    rows = leaderboard(result.summary)
    # chatty: 0.35 + 0.30*0.95 + 0.20 + 0.15 = 0.985; quiet (SAP@1 not applicable): (0.35 + 0.285 + 0.20)/0.85
    # = 0.98235: chatty first by 0.00265, less than SAP@1's 0.15 weight
    assert [r["model"] for r in rows] == ["m-chatty", "m-quiet"]
    assert rows[0]["rank_value"] == pytest.approx(0.985)
    assert rows[1]["rank_value"] == pytest.approx(0.835 / 0.85)
    note = rank_note(result.summary, rows)
    assert note.splitlines()[0] == RANK_RULE
    line = note.splitlines()[1]
    assert line.startswith("rank 1 (m-chatty) is 0.003 above rank 2 (m-quiet), less than the 0.15 SAP@1 weight")
    assert "SAP@1 1.000 against n/a" in line
    # GRA reads the same gates alike: 3 gates whole and gate 3 (1 + 1 + 2/3)/3, (3 + 8/9)/4 = 0.972
    assert "by GRA they read 0.972 and 0.972" in line
    assert line in " ".join(_printed(result.summary).split()) or line[:80] in _printed(result.summary)


def test_the_report_says_unknown_on_k_and_how_it_ranks(tmp_path):
    from ipb.report.data import load_results
    from ipb.report.html import render_report

    _board(tmp_path, RUMOURED, [("m-en", RUMOURED_EN), ("m-es", RUMOURED_ES)])
    data = load_results(tmp_path / "out")
    axes = {p.model: [label for label, _ in p.axes] for p in data.profiles}
    # the KCCS axis of the profile (Appendix D.2's radar) says how many answers it is unknown on
    assert "KCCS (unknown on 1)" in axes["m-es"]
    assert "KCCS" in axes["m-en"] and not any("unknown" in a for a in axes["m-en"])
    assert any(n.startswith("KCCS unknown on k answers") and n.endswith("m-es 1 (the profiles' KCCS axis says so too)")
               for n in data.notes)
    assert RANK_RULE in data.notes[-1]
    page = render_report(data)
    assert "KCCS (unknown on 1)" in page

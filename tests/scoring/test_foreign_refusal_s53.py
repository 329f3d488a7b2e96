"""Regression (a refusal filed off topic, s53newuser finding 12): "Ich kann keine Anlageberatung geben." was filed
``off_topic`` ("the response names no gate, card or investor of the item"): only English refusals were told. A short
answer from which no gate could be read is now a ``refusal`` when it holds a ``refusals`` word of its language's
block in grammar/languages.yaml. Scored the same (0 on every owed metric); the reason the report shows is right.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ipb.scoring import _foreign_verdicts as fv
from ipb.scoring.outcome import classify_unread

VOCAB = ["Margin of Safety", "Warren Buffett", "Owner Earnings"]

# my own refusals, one per language, as a model might write them
REFUSALS = {
    "de": "Ich kann keine Anlageberatung geben.",
    "de2": "Es tut mir leid, dazu äußere ich mich nicht.",
    "fr": "Je ne peux pas vous dire s'il faut acheter ce titre.",
    "es": "Lo siento, no puedo dar recomendaciones de inversión.",
    "pt": "Não posso dar recomendações de investimento.",
    "it": "Mi dispiace, non posso consigliare acquisti di titoli.",
    "nl": "Ik kan geen beleggingsadvies geven.",
    "sv": "Jag kan inte ge investeringsråd.",
    "pl": "Niestety nie mogę udzielać porad inwestycyjnych.",
    "ru": "Я не могу давать инвестиционные рекомендации.",
    "zh": "抱歉，我无法提供投资建议。",
    "ja": "申し訳ありませんが、投資の助言はできません。",
    "ko": "죄송합니다. 투자 조언은 드릴 수 없습니다.",
    "tr": "Üzgünüm, yatırım tavsiyesi veremem.",
}


@pytest.mark.parametrize("lang", sorted(REFUSALS))
def test_a_refusal_in_a_covered_language_is_a_refusal(lang: str) -> None:
    code, why = classify_unread(REFUSALS[lang], VOCAB)
    assert code == "refusal", (lang, code, why)
    assert why.startswith("the model declined: ")


@pytest.mark.parametrize("text, code", [
    ("Paris is the capital of France.", "off_topic"),  # English and about nothing of the item: still off topic
    ("Keine Ahnung.", "no_commitment"),  # "no idea" says it does not know: a refusal of another reason, as before
    ("Margen de seguridad: se rechaza, precio muy alto.", "parse_failure"),  # an analysis the parser could not read
])
def test_other_unread_answers_keep_their_reason(text: str, code: str) -> None:
    assert classify_unread(text, VOCAB)[0] == code


def test_every_language_with_refusal_words_has_them_read() -> None:
    blocks = fv.bundled_section("languages")
    with_words = {k: b["refusals"] for k, b in blocks.items() if b.get("refusals")}
    # the languages of the s53 list, at least (docs/scoring.md lists them)
    assert {"de", "fr", "es", "pt", "it", "nl", "ru", "zh", "ja", "ko"} <= set(with_words)
    for lang, words in with_words.items():
        for word in words:
            assert classify_unread(f"{word}.", VOCAB)[0] == "refusal", (lang, word)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sorted(REFUSALS)), st.integers(min_value=601, max_value=900))
def test_a_long_unread_answer_is_never_a_refusal_by_these_words(lang: str, size: int) -> None:
    # the rule is for short answers, as the English one: past 600 characters no refusal is read
    text = (REFUSALS[lang] + " ") * (size // len(REFUSALS[lang]) + 1)
    assert len(text.strip()) > 600
    assert classify_unread(text, VOCAB)[0] != "refusal"


def test_ipb_score_files_the_german_refusal_as_a_refusal(tmp_path: Path) -> None:
    from ipb.engine.registry import use_cards, use_items
    from ipb.scoring.run import ScoreOptions, run_score

    item = Path(__file__).resolve().parents[1] / "fixtures" / "new_user53" / "l8_item.jsonl"
    item_id = json.loads(item.read_text(encoding="utf-8").splitlines()[0])["id"]
    answers = tmp_path / "answers.jsonl"
    answers.write_text(json.dumps({"item_id": item_id, "model": "m", "condition": "A",
                                   "response": REFUSALS["de"]}) + "\n", encoding="utf-8")
    use_cards()
    use_items(item)
    try:
        result = run_score(item, answers, tmp_path / "out", ScoreOptions(embeddings=False, n_resamples=20))
    finally:
        use_cards()
    assert result.summary["counts"]["refusals"] == 1
    record = json.loads((tmp_path / "out" / "responses.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert record["reason_code"] == "refusal"

"""lm-eval against an OpenAI-compatible server, as docs/integrations.md shows it (s45user).

A new evaluator ran ``lm_eval --model local-chat-completions`` against a local
server (the docs showed only ``--model hf``) and scored the samples beside an
inspect log and an ``ipb respond`` file of the same answers: three leaderboard
rows, ``local-chat-completions/good``, ``openai/good`` and ``good``. The docs now
show the command and say how such a run is named; these tests hold both to what
lm-eval 0.4 writes (its ``results_*.json`` keeps ``model_args`` as a mapping).
"""

from __future__ import annotations

from pathlib import Path

from ipb.scoring.adapters import lm_eval_model_name

ROOT = Path(__file__).resolve().parents[2]
ARGS = "model=llama3.1,base_url=http://127.0.0.1:11434/v1/chat/completions,tokenized_requests=False"


def test_a_server_run_is_named_by_lm_evals_model_type_and_the_model_argument():
    # the config block as lm-eval 0.4.13 wrote it in the s45user run (model_args a mapping, a bool kept as one)
    written = {"config": {"model": "local-chat-completions",
                          "model_args": {"model": "llama3.1", "tokenized_requests": False,
                                         "base_url": "http://127.0.0.1:11434/v1/chat/completions"}}}
    assert lm_eval_model_name(written) == "local-chat-completions/llama3.1"
    # and as the command line gives it, a comma-separated string
    assert lm_eval_model_name({"config": {"model": "local-chat-completions", "model_args": ARGS}}) == (
        "local-chat-completions/llama3.1")


def test_the_docs_show_the_server_command_and_the_name_it_gives():
    text = (ROOT / "docs" / "integrations.md").read_text(encoding="utf-8")
    assert "lm_eval --model local-chat-completions" in text
    assert ARGS in text
    assert "`local-chat-completions/llama3.1`" in text and "`openai/llama3.1`" in text

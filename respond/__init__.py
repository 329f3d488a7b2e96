"""Model runs: OpenAI-compatible respondents under conditions A, B and C (paper §7.1, §7.2).

``ipb respond`` asks a model every item of an items file (``ipb perturb``)
under the conditions asked for and writes one response record per (item,
condition) (``grammar/response.schema.json``):

- **A**, closed book: the standard system prompt and the question;
- **B**, retrieval-augmented: plus the top-3 knowledge cards of the named
  investor, ranked by embedding similarity with a keyword fallback
  (:mod:`ipb.respond.knowledge`);
- **C**, oracle: plus the gold framework card rendered as text.

Modules: :mod:`~ipb.respond.prompts` (versioned templates and their
hashes), :mod:`~ipb.respond.client` (requests, retries with seeded
backoff, secrets), :mod:`~ipb.respond.cache` (SQLite response
cache), :mod:`~ipb.respond.records` (items in, records out, resumable
writing), :mod:`~ipb.respond.run` (the run) and
:mod:`~ipb.respond.judge` (the optional G-Eval judge of §7.12 with
the JSON robustness of §7.5).

``ipb respond --synthetic`` asks no model: it writes answers rendered from
the gold programs with recorded corruptions
(:func:`~ipb.respond.run.run_synthetic`), resumed by the same rule.

Scoring stays algorithmic (``ipb score``); the judge is used only when asked.

Third in the data flow (items -> responses): imports the base, :mod:`ipb.engine` and
:mod:`ipb.perturb`, and from :mod:`ipb.scoring` only the shared text helpers, the sentence
encoder (condition B ranks with the encoder scoring uses) and the parser's bounds (synthetic
answers are written so the parser can read them); ``tests/test_layers.py`` checks it.
"""

from ipb.respond.cache import CachedResponse, ResponseCache, default_cache_dir
from ipb.respond.client import (
    ChatClient,
    Completion,
    RequestFailed,
    RetryPolicy,
    Secrets,
    api_key_from_env,
    public_url,
)
from ipb.respond.judge import Judge, JudgeConfig, geval, parse_judge_reply, reference_text, run_judge
from ipb.respond.prompts import JUDGE_PROMPTS, RESPOND_PROMPTS, PromptSet, load_prompts, prompt_sets
from ipb.respond.records import (
    CONDITIONS,
    RESPONSE_VERSION,
    RunError,
    RunItem,
    items_from_data,
    load_items,
    read_output,
    response_schema,
    validate_record,
)
from ipb.respond.run import (
    GenerationSettings,
    PreparedRequest,
    RespondConfig,
    RunResult,
    parse_conditions,
    prepare_requests,
    request_key,
    run_respond,
    run_synthetic,
    synthetic_records,
)

__all__ = [
    "CONDITIONS",
    "RESPONSE_VERSION",
    "RESPOND_PROMPTS",
    "JUDGE_PROMPTS",
    "RunError",
    "RunItem",
    "load_items",
    "items_from_data",
    "read_output",
    "response_schema",
    "validate_record",
    "PromptSet",
    "load_prompts",
    "prompt_sets",
    "ChatClient",
    "Completion",
    "RequestFailed",
    "RetryPolicy",
    "Secrets",
    "api_key_from_env",
    "public_url",
    "CachedResponse",
    "ResponseCache",
    "default_cache_dir",
    "GenerationSettings",
    "RespondConfig",
    "PreparedRequest",
    "RunResult",
    "parse_conditions",
    "prepare_requests",
    "request_key",
    "run_respond",
    "run_synthetic",
    "synthetic_records",
    "Judge",
    "JudgeConfig",
    "geval",
    "parse_judge_reply",
    "reference_text",
    "run_judge",
]

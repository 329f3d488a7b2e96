"""The ``--extractor rules|llm|both`` option shared by ``ipb parse`` and ``ipb score`` (issue 13 item 4).

``rules`` (the default) is :func:`ipb.scoring.parse.parse_response` and needs
no network; ``llm`` and ``both`` build :class:`ipb.respond.extract.LLMExtractor`
for ``--llm-model`` at ``--llm-base-url`` (key from ``IPB_API_KEY`` /
``OPENAI_API_KEY``, replies cached in ``--cache-dir`` as ``ipb respond`` does).
"""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Any, Optional

import typer

from ipb.errors import IpbError, LoadError


class Extractor(str, Enum):
    rules = "rules"
    llm = "llm"
    both = "both"


EXTRACTOR_HELP = "rules (default, offline), llm (an OpenAI-compatible model reads the gates and final verdict) or both (rules scored, the two compared: Cohen's kappa per field, disagreements listed)."
LLM_MODEL = typer.Option(None, "--llm-model", help="Model for --extractor llm|both, as the server knows it.")
LLM_BASE_URL = typer.Option(None, "--llm-base-url", envvar="IPB_BASE_URL", help="OpenAI-compatible endpoint for --extractor llm|both.")
CACHE_DIR = typer.Option(None, "--cache-dir", envvar="IPB_CACHE_DIR", help="Response cache folder for the LLM extractor (default ~/.cache/ipb).")
NO_CACHE = typer.Option(False, "--no-cache", help="Neither read nor write the LLM extractor's cache.")


def llm_extractor(extractor: Extractor, model: Optional[str], base_url: Optional[str], cache_dir: Optional[Path], no_cache: bool) -> Any:
    """The :class:`~ipb.respond.extract.LLMExtractor` for ``llm``/``both``, or None for ``rules``.

    Raises
    ------
    LoadError
        ``--llm-model`` or ``--llm-base-url`` is missing for ``llm``/``both``.
    """
    if extractor is Extractor.rules:
        return None
    if not model or not base_url:
        raise LoadError(f"--extractor {extractor.value} needs --llm-model and --llm-base-url (or IPB_BASE_URL)", rule="extractor")
    from ipb.respond.cache import ResponseCache, default_cache_dir
    from ipb.respond.extract import ExtractorConfig, LLMExtractor

    folder = None if no_cache else (cache_dir if cache_dir is not None else default_cache_dir())
    try:
        cache = ResponseCache(folder) if folder is not None else None
    except IpbError:
        raise
    return LLMExtractor(ExtractorConfig(model=model, base_url=base_url), cache=cache)

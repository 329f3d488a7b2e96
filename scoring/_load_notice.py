"""One line said before a sentence encoder loads (breaker finding 12).

Importing torch and sentence-transformers and reading all-MiniLM-L6-v2 takes seconds (about 11 s on a busy
2-core machine), once per process, even for a three-line answer with one gate label the parser could not match by
its words. The library prints nothing; ``ipb parse`` and ``ipb score`` register a callback that writes the line on
stderr, so a user knows what the wait is (and that ``--no-embed`` / ``--no-embeddings`` skips it). Kept apart
from :mod:`ipb.scoring.embeddings` so that registering imports neither numpy nor torch.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

#: Called with one line of text just before a sentence encoder is loaded (``ipb parse`` and ``ipb score`` print it
#: on stderr): importing torch and sentence-transformers and reading the model takes seconds (about 11 s on a busy
#: 2-core machine, breaker finding 12), once per process, even for a three-line answer with one unmatched label.
#: Keyed, so that a command run twice in one process registers its line once (s34read nit: it was appended per call).
_LOAD_NOTICES: dict[object, Callable[[str], None]] = {}

#: The purpose :class:`ipb.scoring.embeddings.SentenceTransformerEncoder` gives: matching by embeddings (the scorer's
#: element matching, condition B's knowledge ranking); the parser's fallback names its own.
MATCHING = "embedding-based matching"


def on_model_load(callback: Callable[[str], None], key: object = None) -> None:
    """Register ``callback(message: str)``, called before each sentence-encoder load in this process.

    ``key`` (default: the callback itself) names the registration: registering again under the same key replaces
    the callback, so ``ipb parse`` called twice in one process prints its line once, not twice.
    """
    _LOAD_NOTICES[callback if key is None else key] = callback


def notify_model_load(purpose: str) -> None:
    """Tell every :func:`on_model_load` callback that the encoder is about to load, and for what.

    >>> seen = []
    >>> on_model_load(seen.append, "doc"); on_model_load(seen.append, "doc"); notify_model_load("the parser's embedding fallback")
    >>> _LOAD_NOTICES.clear(); len(seen)
    1
    >>> print(seen[0])
    loading the sentence encoder (all-MiniLM-L6-v2) for the parser's embedding fallback: several seconds, once per run
    """
    for callback in list(_LOAD_NOTICES.values()):
        callback(f"loading the sentence encoder (all-MiniLM-L6-v2) for {purpose}: several seconds, once per run")


def quietly_loaded(load: Callable[[], T]) -> T:
    """``load()`` with transformers' progress bars off, then as they were.

    Reading MiniLM drew "Loading weights: 100%|...| 103/103" on stderr at every ``ipb parse`` and
    ``ipb score`` that loaded it (stop-30 new user), under the line :func:`notify_model_load` already
    prints. Without transformers installed it is plain ``load()``.
    """
    try:
        from transformers.utils import logging as hf_logging
    except ImportError:
        return load()
    was = hf_logging.is_progress_bar_enabled()
    hf_logging.disable_progress_bar()
    try:
        return load()
    finally:
        if was:
            hf_logging.enable_progress_bar()

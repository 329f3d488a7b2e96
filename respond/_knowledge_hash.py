"""Which knowledge base and which retrieval rule a condition B request used, as a run records them.

Condition B's context depends on more than the question: on the knowledge
cards the installed knowledge base holds for the named investors (named by
:func:`ipb.perturb._knowledge.knowledge_sha256`, which items record as
``conditions.B.knowledge_sha256``) and on the retrieval rule (embedding with
a named encoder, or BM25 over word stems with fixed parameters, and the
top-k: :func:`retriever_rule`). A condition B response records both beside
the ids of the cards it sent; when the item records a knowledge version, it
also records whether the installed one is the same
(``knowledge_matches_item``), and the run warns once, with a count, about
the items whose version differs.

Keyword (BM25) scores also read statistics over the whole base (document
frequencies, mean length), so a change in another investor's cards can
reorder an investor's cards without changing its knowledge version; the ids
a response records show the cards actually sent.

Examples
--------
>>> retriever_rule("keyword", 3)
{'bm25': {'b': 0.75, 'k1': 1.2}, 'k': 3, 'method': 'keyword'}
>>> retriever_rule("embedding", 3, "HashingEncoder(dim=256)")["encoder"]
'HashingEncoder(dim=256)'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from ipb.perturb._knowledge import knowledge_sha256
from ipb.respond.knowledge import BM25_B, BM25_K1, Retrieval

if TYPE_CHECKING:
    from ipb.respond.records import RunItem

__all__ = ["retriever_rule", "recorded_knowledge", "stale_warning"]


def retriever_rule(method: str, k: int, encoder: str | None = None) -> dict[str, Any]:
    """The identity of the rule that ranked condition B's cards: the method used, the top-k and either the
    encoder's name (embedding) or the BM25 parameters (keyword)."""
    if method == "keyword":
        return {"bm25": {"b": BM25_B, "k1": BM25_K1}, "k": k, "method": method}
    return {"encoder": encoder, "k": k, "method": method}


def recorded_knowledge(item: RunItem, found: Retrieval, k: int, versions: dict[tuple[str, ...], str],
                       stale: list[str]) -> dict[str, Any]:
    """What a condition B response records beside the retrieved cards: the installed knowledge version of the
    investors searched (``knowledge_sha256``, kept in ``versions`` per investor list), the retrieval rule
    (``retriever``) and, when the item records a knowledge version, whether it is the installed one
    (``knowledge_matches_item``; the item's id is added to ``stale`` when not)."""
    conditions = item.data.get("conditions")
    b = conditions.get("B") if isinstance(conditions, dict) else None
    b = b if isinstance(b, dict) else {}
    listed = b.get("investors")
    people = tuple(listed) if isinstance(listed, list) and all(isinstance(p, str) for p in listed) else found.investors
    version = versions.get(people)
    if version is None:
        version = versions[people] = knowledge_sha256(people)
    out: dict[str, Any] = {"knowledge_sha256": version, "retriever": retriever_rule(found.method, k, found.encoder)}
    theirs = b.get("knowledge_sha256")
    if isinstance(theirs, str):
        out["knowledge_matches_item"] = theirs == version
        if theirs != version:
            stale.append(item.id)
    return out


def stale_warning(stale: Sequence[str]) -> str:
    """The run's one warning about the items whose recorded knowledge version is not the installed one."""
    first = ", ".join(stale[:3]) + (", ..." if len(stale) > 3 else "")
    return (f"condition B: {len(stale)} item(s) record a knowledge version (conditions.B.knowledge_sha256) that "
            f"differs from the installed knowledge base's ({first}): the investor registry, a card it lists or ipb's "
            "knowledge renderings changed since the items were made, so the cards retrieved for them may differ; "
            "their responses record knowledge_matches_item false (run ipb verify on the items)")

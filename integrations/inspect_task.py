"""The InvestPhilBench task and scorer for inspect_ai (``inspect eval ipb/investphilbench``).

Registered through the ``inspect_ai`` entry point of the package (``pyproject.toml``), as
inspect's extension mechanism expects, so with ``pip install ipb[inspect]``::

    inspect eval ipb/investphilbench -T items=items.jsonl -T conditions=A,C --model openai/gpt-4o

runs every item of an ``ipb perturb`` items file under the asked conditions with inspect's
model providers, retries and log viewer. The dataset holds the exact messages ``ipb respond``
sends (system prompt, condition A/B/C user prompt: :func:`ipb.respond.run.prepare_requests`);
each sample's id is ``ITEM_ID:CONDITION`` and its metadata carries ``item_id``,
``condition`` and the item's cards, which is what ``ipb score`` reads back from the log.

The scorer parses each answer with ipb's parser and returns VerdictAcc, GRA and OGRS
(paper §7) as one dictionary score; an answer ipb cannot read scores 0 on all three
(failures count) and its status is in the score's metadata with the parsed trace.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessage, ChatMessageSystem, ChatMessageUser
from inspect_ai.scorer import Score, Target, mean, scorer, stderr
from inspect_ai.solver import TaskState, generate

from ipb.engine.registry import use_items
from ipb.errors import IpbError, LoadError
from ipb.integrations.answers import HEADLINE, score_answer
from ipb.respond.records import load_items
from ipb.respond.run import RespondConfig, parse_conditions, prepare_requests

__all__ = ["investphilbench", "ipb_scorer", "samples_for"]


def _messages(messages: list[dict[str, str]]) -> list[ChatMessage]:
    out: list[ChatMessage] = []
    for m in messages:
        out.append(ChatMessageSystem(content=m["content"]) if m["role"] == "system"
                   else ChatMessageUser(content=m["content"]))
    return out


def samples_for(items: str | Path, conditions: str = "A", cot: bool = False) -> list[Sample]:
    """The inspect samples of an items file: one per (item, condition), in file order.

    Raises
    ------
    LoadError
        The items file cannot be read, a card the items name is not found at its recorded
        hash, or an item cannot be asked under a condition (e.g. condition C without a gold
        card); the message names the item.

    Notes
    -----
    The items' own card copies (``ipb-cards/`` beside the file, written by ``ipb perturb``)
    are added to the card search for the rest of the process, as ``ipb score`` and
    ``ipb respond`` do, so an item made from a card outside the package is asked under
    condition C and scored by :func:`ipb_scorer`, which runs in the same process.
    """
    run_items = load_items(items)
    use_items(items)
    config = RespondConfig(model="inspect", base_url="", conditions=parse_conditions(conditions), cot=cot)
    samples = []
    for req in prepare_requests(run_items, config):
        if req.problem is not None:
            raise LoadError(f"item {req.item.id!r} under condition {req.condition}: {req.problem}",
                            file=str(items), line=req.item.line, rule="condition")
        samples.append(Sample(
            id=f"{req.item.id}:{req.condition}",
            input=_messages(req.messages),
            target=str(req.item.data.get("investment_verdict") or ""),
            metadata={"item_id": req.item.id, "condition": req.condition, "cards": list(req.item.cards),
                      "prompt_hash": req.prompt_hash, "item": dict(req.item.data)},
        ))
    return samples


@scorer(metrics={name: [mean(), stderr()] for name in HEADLINE})
def ipb_scorer(embeddings: bool = False) -> Any:
    """Score each answer with ipb's parser and metrics (VerdictAcc, GRA, OGRS in [0, 1]).

    An answer ipb cannot read (parse failure, refusal, empty) scores 0 on all three;
    the score's metadata holds ipb's status, reason and parsed trace.
    """

    async def score(state: TaskState, target: Target) -> Score:
        item = state.metadata["item"]
        result = score_answer(item, state.output.completion, model=str(state.model),
                              condition=state.metadata.get("condition", "A"), embeddings=embeddings)
        targets = result.record.get("targets") or [{}]
        return Score(value=dict(result.values), answer=result.final_verdict,
                     explanation=result.reason or "scored",
                     metadata={"status": result.status, "reason": result.reason,
                               "parsed": targets[0].get("parsed")})

    return score


@task
def investphilbench(items: str, conditions: str = "A", cot: bool = False, embeddings: bool = False) -> Task:
    """InvestPhilBench items under conditions A (closed book), B (retrieval) and C (oracle card).

    Parameters
    ----------
    items : str
        An items file written by ``ipb perturb``.
    conditions : str
        Comma-separated conditions, e.g. ``"A,C"``.
    cot : bool
        Append the chain-of-thought instruction, as ``ipb respond --cot``.
    embeddings : bool
        Let the scorer use the sentence encoder (as ``ipb score`` does); off by default
        here for speed. ``ipb score`` on the log gives the full metric set either way.
    """
    try:
        dataset = MemoryDataset(samples_for(items, conditions, cot), name="investphilbench")
    except IpbError as exc:
        raise ValueError(exc.render()) from None
    return Task(dataset=dataset, solver=generate(), scorer=ipb_scorer(embeddings=embeddings),
                metadata={"benchmark": "InvestPhilBench", "items": str(items), "conditions": conditions})

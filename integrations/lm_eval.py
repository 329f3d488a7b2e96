"""An lm-evaluation-harness task for an items file, scored by ipb's parser and metrics.

lm-evaluation-harness finds tasks in folders given with ``--include_path``. ``ipb lm-eval-task``
writes such a folder for one items file::

    ipb lm-eval-task items.jsonl --out ipb_task/
    lm_eval --model hf --model_args pretrained=... --include_path ipb_task --tasks ipb_l7 --log_samples --output_path out/

The folder holds ``ipb_l7.yaml`` (the task), ``ipb_l7.jsonl`` (one document per item and
condition: the prompt ``ipb respond`` would send, the item itself as JSON, the gold final
verdict) and ``ipb_hooks.py``, whose ``process_results`` parses each generation with ipb's
parser and returns VerdictAcc, GRA and OGRS (paper §7); lm-eval averages them. An answer ipb
cannot read scores 0 on all three. The documents are written flat (the item as a JSON string)
so that no dataset loader has to infer a schema for the items' nested facts. The yaml names the
documents by file name only and its ``custom_dataset`` hook reads them from beside ``ipb_hooks.py``,
so the folder is self-contained: copy or move it anywhere ``ipb`` and lm-eval are installed.
``ipb score`` reads the ``samples_ipb_l7_*.jsonl`` that ``--log_samples`` writes, with the model
name taken from the ``results_*.json`` beside it. The items' own card copies (``ipb-cards/``
beside the items file) are copied into the folder, and the hooks add them to the card search,
so items made from a card outside the package are asked and scored like bundled ones.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from ipb._files import refuse_overwriting, write_text_atomic
from ipb.engine.registry import CARD_COPIES, use_items
from ipb.integrations.answers import HEADLINE, score_answer
from ipb.respond.records import load_items
from ipb.respond.run import RespondConfig, parse_conditions, prepare_requests

__all__ = ["TASK_VERSION", "write_task", "load_documents", "doc_to_text", "process_results"]

#: Version of the written task (lm-eval records it with the results).
TASK_VERSION = 1

_HOOKS = '''"""Hooks of the ipb lm-evaluation-harness task (written by ``ipb lm-eval-task``)."""

from pathlib import Path

from ipb.engine.registry import use_items
from ipb.integrations.lm_eval import doc_to_text, load_documents, process_results  # noqa: F401

HERE = Path(__file__).parent

# the card copies of this folder (ipb-cards/), so that a card outside the package is found
use_items(HERE / "ipb_hooks.py", pin=False)


def load_docs(**kwargs):
    """The task's documents, read from beside this file wherever the folder was moved."""
    return load_documents(HERE, **kwargs)
'''


def _yaml(task: str, data_file: str, max_gen_toks: int) -> str:
    metrics = "".join(f"  - metric: {name}\n    aggregation: mean\n    higher_is_better: true\n" for name in HEADLINE)
    return (f"# InvestPhilBench items as an lm-evaluation-harness task (written by ipb lm-eval-task).\n"
            f"task: {task}\n"
            f"custom_dataset: !function ipb_hooks.load_docs\n"
            f"dataset_kwargs:\n  data_file: {json.dumps(data_file)}\n"
            f"test_split: test\n"
            f"output_type: generate_until\n"
            f"doc_to_text: !function ipb_hooks.doc_to_text\n"
            f"doc_to_target: target\n"
            f"process_results: !function ipb_hooks.process_results\n"
            f"generation_kwargs:\n  until: []\n  max_gen_toks: {max_gen_toks}\n  do_sample: false\n"
            f"metric_list:\n{metrics}"
            f"metadata:\n  version: {TASK_VERSION}.0\n")


def task_name(layers: Iterable[str]) -> str:
    """The default task name for items of these layers: ``ipb_l7``, ``ipb_l8``, or ``ipb`` for a mix (or none)."""
    found = sorted(set(layers))
    return f"ipb_{found[0].lower()}" if len(found) == 1 and found[0] in ("L7", "L8") else "ipb"


#: A task name lm-eval selects and the folder's files take (``--task``): no path separator, no space, no leading dot.
_TASK_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_.-]{0,99}")


def write_task(items: str | Path, out: str | Path, *, task: str | None = None, conditions: str = "A",
               cot: bool = False, embeddings: bool = False, max_gen_toks: int = 2048) -> list[Path]:
    """Write the task folder for ``items`` into ``out``; returns the files written.

    ``task`` names the task (and its files); by default it follows the items' layers (:func:`task_name`), so a
    file of L8 items is the task ``ipb_l8``, never ``ipb_l7``.

    Raises
    ------
    ArgumentError
        ``task`` is no plain name (:data:`_TASK_NAME`: a path separator, a space, a leading dot).
    LoadError
        The items file cannot be read, a card the items name is not found at its recorded
        hash, or an item cannot be asked under a condition.
    WriteError
        ``out`` is a file, or a file the task writes there is the items file (s54break item 4); nothing is written.
    """
    from ipb.errors import ArgumentError, LoadError, WriteError

    if task is not None and _TASK_NAME.fullmatch(task) is None:
        # the name is the task's file names too: 'a/../../x' wrote outside the folder, 'bad name/x' raised a traceback
        raise ArgumentError(f"--task {task!r}: a task name is letters, digits, '_', '-' and '.', starting with a letter "
                            f"(it names the task's files in the folder)", file="--task", rule="argument")
    out = Path(out)
    if out.exists() and not out.is_dir():  # s54break item 4: a FileExistsError traceback
        raise WriteError(f"--out {out} is a file; ipb lm-eval-task writes a task folder: name a folder (a new one, or "
                         "one to add the task to)", file=str(out), rule="file")
    config = RespondConfig(model="lm-eval", base_url="", conditions=parse_conditions(conditions), cot=cot)
    run_items = load_items(items)
    if task is None:
        task = task_name(str(item.data.get("layer") or "") for item in run_items)
    # s54break item 4: '--out D' with the items at D/ipb_l7.jsonl replaced them with the task's documents (exit 0)
    refuse_overwriting({f"--out {out}'s {kind}": out / name for kind, name in
                        (("task documents", f"{task}.jsonl"), ("task file", f"{task}.yaml"), ("hooks", "ipb_hooks.py"))},
                       {"items file": items}, command="lm-eval-task")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:  # a file where a parent folder should be, no permission
        raise WriteError(f"cannot make the task folder --out {out}: {exc.strerror or exc}", file=str(out),
                         rule="file") from None
    use_items(items)  # the items' own card copies, as ipb respond and ipb score find them
    copies = []
    for digest in sorted({h for item in run_items for h in item.content_hashes.values()}):
        source = Path(items).parent / CARD_COPIES / f"{digest}.yaml"
        # the card and its gate names in other languages beside it (s44user: the sidecar stayed behind, so the
        # hooks read a German answer's gate names by the English ones only)
        for path in (source, source.with_name(f"{digest}.translations.yaml")):
            if path.is_file():
                copies.append(out / CARD_COPIES / path.name)
                write_text_atomic(copies[-1], path.read_text(encoding="utf-8"), make_parents=True)
    lines = []
    for req in prepare_requests(run_items, config):
        if req.problem is not None:
            raise LoadError(f"item {req.item.id!r} under condition {req.condition}: {req.problem}",
                            file=str(items), line=req.item.line, rule="condition")
        prompt = "\n\n".join(m["content"] for m in req.messages)
        lines.append(json.dumps({"item_id": req.item.id, "condition": req.condition, "prompt": prompt,
                                 "target": str(req.item.data.get("investment_verdict") or ""),
                                 "embeddings": embeddings,
                                 "item_json": json.dumps(dict(req.item.data), sort_keys=True, ensure_ascii=False)},
                                sort_keys=True, ensure_ascii=False))
    data_file = out / f"{task}.jsonl"
    write_text_atomic(data_file, "".join(line + "\n" for line in lines))
    write_text_atomic(out / f"{task}.yaml", _yaml(task, data_file.name, max_gen_toks))
    write_text_atomic(out / "ipb_hooks.py", _HOOKS)
    return [out / f"{task}.yaml", data_file, out / "ipb_hooks.py", *copies]


def load_documents(folder: str | Path, *, data_file: str, **_metadata: Any) -> Any:
    """The documents of a written task as a ``datasets.DatasetDict`` with one split, ``test``.

    ``data_file`` is the documents' file name as the task's yaml records it, read from ``folder`` (the folder
    of ``ipb_hooks.py``), so the folder can be copied or moved as a whole (s52newuser: the yaml recorded an
    absolute path and a copied folder failed). lm-eval calls the hook with the task's metadata too (its
    ``version``, anything given with ``--metadata``); those are ignored.

    Raises
    ------
    LoadError
        ``data_file`` is not a plain file name in ``folder`` or that file is missing.
    """
    import datasets

    from ipb.errors import LoadError

    path = Path(folder) / data_file
    if Path(data_file).name != data_file or not path.is_file():
        raise LoadError(f"the task's documents {data_file!r} are not in the task folder {str(folder)!r} "
                        f"(write the folder again with ipb lm-eval-task)", file=str(path), rule="lm-eval-task")
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return datasets.DatasetDict({"test": datasets.Dataset.from_list(rows)})


def doc_to_text(doc: Mapping[str, Any]) -> str:
    """The prompt of one document: the system prompt and the condition's user prompt."""
    return str(doc["prompt"])


def process_results(doc: Mapping[str, Any], results: Sequence[Any]) -> dict[str, float]:
    """Parse the generation with ipb's parser; VerdictAcc, GRA and OGRS in [0, 1] (0 when unreadable)."""
    response = results[0] if results else ""
    item = json.loads(doc["item_json"])
    scored = score_answer(item, response if isinstance(response, str) else "", model="lm-eval",
                          condition=str(doc.get("condition") or "A"), embeddings=bool(doc.get("embeddings")))
    return dict(scored.values)

"""Versioned prompt templates shipped with the package (``ipb.respond/prompts``).

A prompt *set* is a group of files ``SET.PART.txt`` (and ``SET.PART.json``)
in ``respond/prompts/``; the set's name is its version (``respond-v1``,
``judge-geval-v1``). Templates use :class:`string.Template` placeholders.
The hash of a request's prompt is the SHA-256 of the parts it used, by name
and text, so an edit to any of them changes every hash it touches.

Examples
--------
>>> p = load_prompts("respond-v1")
>>> p.name, sorted(p.parts)[:3]
('respond-v1', ['cot', 'system', 'user-A'])
>>> len(p.hash(["system", "user-A"]))
64
>>> p.render("user-A", question="Buy?")
'Buy?'
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from string import Template
from typing import Any, Mapping, Sequence

from ipb.errors import LoadError, did_you_mean

__all__ = ["RESPOND_PROMPTS", "JUDGE_PROMPTS", "PromptSet", "load_prompts", "prompt_sets"]

#: The respondent prompt set used unless another is named.
RESPOND_PROMPTS = "respond-v1"
#: The G-Eval judge prompt set used unless another is named.
JUDGE_PROMPTS = "judge-geval-v1"


@dataclass(frozen=True)
class PromptSet:
    """The parts of one prompt set: part name -> template text."""

    name: str
    parts: Mapping[str, str]

    def text(self, part: str) -> str:
        """The raw text of ``part``.

        Raises
        ------
        LoadError
            The set has no such part.
        """
        try:
            return self.parts[part]
        except KeyError:
            raise LoadError(f"prompt set {self.name!r} has no part {part!r}", rule="prompt", name=part,
                            suggestion=did_you_mean(part, list(self.parts))) from None

    def render(self, part: str, **values: str) -> str:
        """``part`` with its ``$placeholders`` filled, trailing newlines removed.

        Raises
        ------
        LoadError
            A placeholder of the template has no value.
        """
        try:
            return Template(self.text(part)).substitute(values).rstrip("\n")
        except KeyError as exc:
            raise LoadError(f"prompt {self.name}.{part} needs a value for ${exc.args[0]}", rule="prompt",
                            name=str(exc.args[0])) from None

    def json(self, part: str) -> Any:
        """A JSON part (``SET.PART.json``), parsed."""
        return json.loads(self.text(part))

    def hash(self, parts: Sequence[str]) -> str:
        """SHA-256 (hex) of the named parts: JSON ``[[part, text], ...]`` in the order given.

        The set's name is not hashed: the hash says which text was sent.
        """
        payload = [[p, self.text(p)] for p in parts]
        return hashlib.sha256(json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8")).hexdigest()


def _folder() -> Any:
    return resources.files("ipb.respond").joinpath("prompts")


def prompt_sets() -> list[str]:
    """The names of the bundled prompt sets, sorted."""
    names = {entry.name.split(".", 1)[0] for entry in _folder().iterdir()
             if entry.name.endswith((".txt", ".json")) and "." in entry.name}
    return sorted(names)


@lru_cache(maxsize=16)
def _load(name: str, directory: str | None) -> PromptSet:
    folder: Any = Path(directory) if directory is not None else _folder()
    parts: dict[str, str] = {}
    try:
        entries = list(folder.iterdir())
    except OSError as exc:
        raise LoadError(f"cannot read prompt folder {directory}: {exc}", file=directory, rule="prompt") from None
    for entry in entries:
        stem, dot, rest = entry.name.partition(".")
        if stem != name or not dot:
            continue
        part, _, ext = rest.rpartition(".")
        if ext in ("txt", "json") and part:
            parts[part] = entry.read_text(encoding="utf-8")
    if not parts:
        choices = prompt_sets() if directory is None else []
        raise LoadError(f"no prompt set {name!r}" + (f" in {directory}" if directory else "")
                        + (f"; bundled sets: {', '.join(choices)}" if choices else ""),
                        rule="prompt", name=name, suggestion=did_you_mean(name, choices))
    return PromptSet(name, dict(sorted(parts.items())))


def load_prompts(name: str, directory: str | Path | None = None) -> PromptSet:
    """The prompt set ``name``: bundled, or the files ``NAME.*.txt`` / ``NAME.*.json`` in ``directory``.

    Raises
    ------
    LoadError
        No file of that set exists (with the bundled sets and a "did you mean").
    """
    return _load(name, None if directory is None else str(directory))

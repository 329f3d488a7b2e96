"""Join items files into one release, keeping the first item of each id and of each scenario (issue 18, s59userB).

s58user finding C16: seven runs of Graham's card, one per bundled base, concatenated gave 10,500 lines of which
154 repeated an earlier item's id or scenario; ``ipb verify`` failed on them and the docs asked the publisher to
remove them by hand. :func:`join_items` does it: the files are read in the order given, every line is kept as it
stands (byte for byte) unless an earlier kept line has the same item id or the same scenario (the 16 hex digits of
the scenario's SHA-256 that end an id, :func:`ipb.perturb.verify.scenario_key`), which is the rule by which
``ipb verify`` reports a line as a ``duplicate``; so the joined file passes that check.

The card copies the kept items name (``manifest.cards[].source``, ``ipb-cards/<sha256>.yaml`` beside each input,
and the translations sidecar beside a copy) are copied beside the output, so the release verifies where the cards
are not installed.

Near duplicates across files (two items of different bases within one visible step of each other) are not looked
for: the near-duplicate rule needs the cards' declared ranges and each item's raw point (:mod:`ipb.perturb.near`),
which a joined file does not carry; each run's summary reports its own.
"""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, Sequence

from ipb._files import compressed_note, write_lines_atomic
from ipb.errors import LoadError
from ipb.perturb.verify import scenario_key

__all__ = ["JoinResult", "JoinedFile", "join_items"]


@dataclass
class JoinedFile:
    """What :func:`join_items` did with one input: ``kept`` lines, ``dropped_ids`` repeating an earlier kept item's
    id and ``dropped_scenarios`` repeating an earlier kept item's scenario under another id; ``from_files`` counts
    the dropped lines by the input that held the first."""

    path: str
    kept: int = 0
    dropped_ids: int = 0
    dropped_scenarios: int = 0
    from_files: dict[str, int] = field(default_factory=dict)

    @property
    def dropped(self) -> int:
        return self.dropped_ids + self.dropped_scenarios


@dataclass
class JoinResult:
    """The files joined, in order, and the card copies written beside the output."""

    files: list[JoinedFile]
    cards_copied: list[str] = field(default_factory=list)

    @property
    def kept(self) -> int:
        return sum(f.kept for f in self.files)

    @property
    def dropped(self) -> int:
        return sum(f.dropped for f in self.files)


def _item_id(text: str, name: str, line: int) -> tuple[str, list[str]]:
    """The id of the item on ``line`` of ``name`` and the card sources its manifest names.

    Raises
    ------
    LoadError
        The line is not a JSON object with a non-empty string ``id`` (file, line and column 1).
    """
    try:
        record = json.loads(text)
    except json.JSONDecodeError as exc:
        raise LoadError(f"line {line} is not valid JSON ({exc.msg}, column {exc.colno}); an items file holds one "
                        "JSON object a line", file=name, line=line, column=exc.colno, rule="json",
                        source_line=text[:200]) from None
    ident = record.get("id") if isinstance(record, dict) else None
    if not isinstance(ident, str) or not ident:
        what = "has no string 'id'" if isinstance(record, dict) else f"is a JSON {type(record).__name__}, not an item object"
        raise LoadError(f"line {line} {what}; an items file holds one item (written by ipb perturb) a line",
                        file=name, line=line, column=1, rule="item", source_line=text[:200])
    sources: list[str] = []
    manifest = record.get("manifest")
    cards = manifest.get("cards") if isinstance(manifest, dict) else None
    for card in cards if isinstance(cards, list) else []:
        source = card.get("source") if isinstance(card, dict) else None
        if isinstance(source, str) and source:
            sources.append(source)
    return ident, sources


def _lines(path: Path) -> Iterator[tuple[int, str]]:
    """(line number, text without its line end) of every non-blank line of ``path``.

    Raises
    ------
    LoadError
        The file cannot be read or is not UTF-8 text (a compressed file is named as such).
    """
    name = str(path)
    try:
        handle = open(path, encoding="utf-8", newline="")
    except OSError as exc:
        raise LoadError(f"cannot read {name}: {exc.strerror or exc}", file=name, rule="file") from None
    with handle:
        number = 0
        try:
            for number, raw in enumerate(handle, 1):
                text = raw.rstrip("\r\n")
                if text.strip():
                    yield number, text
        except UnicodeDecodeError:
            raise LoadError(f"{name} is not valid UTF-8 (line {number + 1}){compressed_note(name)}", file=name,
                            line=number + 1, column=1, rule="encoding") from None
        except IsADirectoryError:
            raise LoadError(f"cannot read {name}: it is a folder", file=name, rule="file") from None


def _safe_source(source: str) -> bool:
    """Whether a manifest's card source is a plain relative path under ``ipb-cards/`` (nothing outside it)."""
    parts = Path(source).parts
    return len(parts) == 2 and parts[0] == "ipb-cards" and parts[1] not in ("", ".", "..") and not os.path.isabs(source)


def join_items(paths: Sequence[str | Path], out: str | Path, *, copy_cards: bool = True) -> JoinResult:
    """Write the items of ``paths``, in order, to ``out``, dropping each line whose item id or scenario an earlier
    kept line has; the output is written atomically (on any error no file is made and an old one is untouched).

    Parameters
    ----------
    paths:
        Items files (JSON Lines written by ``ipb perturb``), read in this order; blank lines are skipped.
    out:
        The joined file.
    copy_cards:
        Copy the card copies the kept items name (``ipb-cards/<sha256>.yaml`` and its
        ``.translations.yaml``) from beside each input to beside ``out``, where not there already.

    Returns
    -------
    JoinResult
        Per input, the lines kept and dropped, and which earlier file held each dropped line's first.

    Raises
    ------
    LoadError
        An input cannot be read, is not UTF-8, or has a line that is not an item (file and line named).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "a.jsonl").write_text('{"id": "A-00000000000000aa"}\\n')
    >>> _ = (d / "b.jsonl").write_text('{"id": "B-00000000000000aa"}\\n{"id": "B-00000000000000bb"}\\n')
    >>> r = join_items([d / "a.jsonl", d / "b.jsonl"], d / "all.jsonl")
    >>> r.kept, r.dropped, r.files[1].from_files
    (2, 1, {'...a.jsonl': 1})
    """
    names = [str(p) for p in paths]
    seen_ids: dict[str, int] = {}
    seen_scenarios: dict[str, int] = {}
    files = [JoinedFile(name) for name in names]
    sources: dict[str, Path] = {}

    def kept_lines() -> Iterator[str]:
        for index, path in enumerate(paths):
            report = files[index]
            folder = Path(path).parent
            for number, text in _lines(Path(path)):
                ident, cards = _item_id(text, names[index], number)
                first = seen_ids.get(ident)
                if first is None:
                    first = seen_scenarios.get(scenario_key(ident))
                    if first is not None:
                        report.dropped_scenarios += 1
                else:
                    report.dropped_ids += 1
                if first is not None:
                    report.from_files[names[first]] = report.from_files.get(names[first], 0) + 1
                    continue
                seen_ids[ident] = index
                seen_scenarios.setdefault(scenario_key(ident), index)
                report.kept += 1
                for source in cards:
                    if _safe_source(source):
                        sources.setdefault(source, folder / source)
                yield text

    write_lines_atomic(out, kept_lines(), make_parents=True)
    result = JoinResult(files)
    if copy_cards:
        result.cards_copied = _copy_cards(sources, Path(out).parent)
    return result


def _copy_cards(sources: dict[str, Path], folder: Path) -> list[str]:
    """Copy each card copy (and its translations sidecar) to ``folder / source`` where no such file is there yet;
    the sources copied. A copy's name is its content's SHA-256, so a file already there with that name is the same
    card. A source missing beside its input is left to ``ipb verify`` to report."""
    copied: list[str] = []
    for source, origin in sorted(sources.items()):
        target = folder / source
        for src, dst in ((origin, target), (origin.with_suffix(".translations.yaml"),
                                           target.with_suffix(".translations.yaml"))):
            if not src.is_file() or dst.exists():
                continue
            try:
                if os.path.samefile(src.parent, dst.parent):
                    continue
            except OSError:
                pass
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, dst)
            copied.append(str(dst.relative_to(folder)))
    return copied

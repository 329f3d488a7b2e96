"""Files of a model run: the items read, the response records written.

Response records (``grammar/response.schema.json``, ``version`` 1) are JSON
Lines, one record per (item, condition). While a run goes on, each finished
record is appended as one complete line, flushed and ``fsync``-ed, so a run
killed at any moment leaves at worst one incomplete last line, which the next
run drops. Whole-file rewrites (the start of a resumed run, the reordering at
the end) go through a temporary file in the same folder and ``os.replace``.

Lines are ``json.dumps(record, sort_keys=True, ensure_ascii=False)`` with
the default separators.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping, Sequence

from ipb.engine._json import jsonl_lines, parse_json_line
from ipb.engine.registry import item_card
from ipb._files import refuse_utf16_file, write_lines_atomic
from ipb.errors import ErrorGroup, IpbError, LoadError

__all__ = [
    "RESPONSE_VERSION",
    "CONDITIONS",
    "RunError",
    "RunItem",
    "load_items",
    "items_from_data",
    "response_schema",
    "validate_record",
    "dumps_record",
    "canonical_hash",
    "ExistingOutput",
    "read_output",
    "AppendWriter",
    "write_atomic",
    "output_lock",
    "ordered",
]

#: Format version of a response record.
RESPONSE_VERSION = 1

#: The evaluation conditions of paper §7.2.
CONDITIONS = ("A", "B", "C")


class RunError(IpbError):
    """A model run cannot start or go on (settings, files, a server that refuses every request)."""

    phase = "run error"


def canonical_hash(value: Any) -> str:
    """SHA-256 (hex) of ``value`` as canonical JSON (sorted keys, no spaces, UTF-8).

    >>> canonical_hash({"b": 1, "a": [1, 2]}) == canonical_hash({"a": [1, 2], "b": 1})
    True
    """
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# --------------------------------------------------------------------------- items


@dataclass(frozen=True)
class RunItem:
    """What a run needs from one item line (``grammar/item.schema.json``).

    ``cards`` are the gold card ids (``card`` of an L7 item, ``cards`` of an
    L8 item, else the manifest's cards); ``investors`` the investors named by
    the item's gold (``golds`` or the manifest), in card order;
    ``content_hashes`` each card's hash when the item was made.
    """

    id: str
    layer: str | None
    question: str
    cards: tuple[str, ...]
    investors: tuple[str, ...]
    content_hashes: Mapping[str, str]
    data: Mapping[str, Any] = field(repr=False, compare=False)
    line: int = 0


def _item_from(data: Any, file: str, line: int) -> RunItem:
    def bad(message: str, name: str | None = None) -> LoadError:
        return LoadError(message, file=file, line=line, column=1, rule="item", name=name)

    if not isinstance(data, dict):
        raise bad(f"an item must be a JSON object, not {type(data).__name__}")
    ident = data.get("id")
    if not isinstance(ident, str) or not ident:
        raise bad("an item needs a non-empty string 'id'", "id")
    question = data.get("question")
    if not isinstance(question, str) or not question.strip():
        raise bad(f"item {ident!r} needs a non-empty string 'question'", "question")
    layer = data.get("layer")
    if layer is not None and not isinstance(layer, str):
        raise bad(f"item {ident!r}: 'layer' must be a string", "layer")
    manifest = data.get("manifest")
    listed = manifest.get("cards") if isinstance(manifest, dict) else None
    manifest_cards: list[dict[str, Any]] = [c for c in listed if isinstance(c, dict)] if isinstance(listed, list) else []
    cards: list[str] = []
    if isinstance(data.get("card"), str):
        cards.append(data["card"])
    elif isinstance(data.get("cards"), list):
        cards.extend(c for c in data["cards"] if isinstance(c, str))
    else:
        cards.extend(c["id"] for c in manifest_cards if isinstance(c.get("id"), str))
    investors: list[str] = []
    raw_golds = data.get("golds")
    golds: list[Any] = raw_golds if isinstance(raw_golds, list) else []
    for card in cards:
        try:
            item_card(card)
        except LoadError as exc:
            raise bad(f"item {ident!r}: {exc.message}", "card") from None
    by_card = {g.get("card"): g.get("investor") for g in golds if isinstance(g, dict)}
    by_card.update({c.get("id"): c.get("investor") for c in manifest_cards})
    for card in cards:
        name = by_card.get(card)
        if isinstance(name, str) and name:
            investors.append(name)
    hashes = {c["id"]: c["content_hash"] for c in manifest_cards
              if isinstance(c.get("id"), str) and isinstance(c.get("content_hash"), str)}
    return RunItem(ident, layer, question, tuple(dict.fromkeys(cards)), tuple(dict.fromkeys(investors)), hashes, data, line)


def load_items(path: str | Path) -> list[RunItem]:
    """Read an items file (JSON Lines, as ``ipb perturb`` writes it).

    Blank lines are skipped. Every problem in the file is collected before
    anything is raised.

    Raises
    ------
    LoadError
        The file cannot be read.
    ErrorGroup
        Lines that are not JSON objects with a string ``id`` and a non-empty
        ``question``, or ids used twice (each with file and line).
    """
    file = str(path)
    try:
        refuse_utf16_file(path, file, "items file")
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise LoadError(f"cannot read items file: {exc.strerror or exc}", file=file, rule="file") from None
    except UnicodeDecodeError as exc:
        from ipb._files import compressed_note

        raise LoadError(f"items file is not UTF-8 text ({exc.reason}){compressed_note(file)}", file=file,
                        rule="file") from None
    problems: list[IpbError] = []
    rows: list[tuple[int, Any]] = []
    for number, raw in jsonl_lines(text):
        try:
            rows.append((number, parse_json_line(raw, file, number, exact=False)))
        except LoadError as exc:
            problems.append(exc)
    return _collect(rows, file, problems)


def items_from_data(rows: Iterable[Any], *, file: str = "<items>") -> list[RunItem]:
    """:class:`RunItem` objects from item objects already in memory (e.g.
    :func:`ipb.respond.synthetic.bundled_items`), checked as :func:`load_items`
    checks a file's lines; the n-th object counts as line n of ``file``.

    Raises
    ------
    LoadError, ErrorGroup
        As :func:`load_items`.
    """
    return _collect(list(enumerate(rows, start=1)), file, [])


def _collect(rows: Sequence[tuple[int, Any]], file: str, problems: list[IpbError]) -> list[RunItem]:
    items: list[RunItem] = []
    seen: dict[str, int] = {}
    for number, data in rows:
        try:
            item = _item_from(data, file, number)
        except LoadError as exc:
            problems.append(exc)
            continue
        if item.id in seen:
            problems.append(LoadError(f"item id {item.id!r} is used again (first on line {seen[item.id]})", file=file,
                                      line=number, column=1, rule="duplicate-id", name=item.id))
            continue
        seen[item.id] = number
        items.append(item)
    if problems:
        problems.sort(key=lambda e: e.line or 0)
        raise ErrorGroup(problems)
    if not items:
        raise LoadError("the items file holds no items", file=file, rule="empty")
    return items


# --------------------------------------------------------------------------- records


@lru_cache(maxsize=1)
def response_schema() -> dict[str, Any]:
    """The JSON Schema of a response record, shipped as ``grammar/response.schema.json``."""
    text = resources.files("ipb.grammar").joinpath("response.schema.json").read_text(encoding="utf-8")
    return dict(json.loads(text))


@lru_cache(maxsize=1)
def _validator() -> Any:
    import jsonschema

    cls = jsonschema.validators.validator_for(response_schema())
    return cls(response_schema())


def validate_record(record: Mapping[str, Any]) -> list[str]:
    """Every way ``record`` breaks ``grammar/response.schema.json`` (empty when it is valid)."""
    errors = sorted(_validator().iter_errors(record), key=lambda e: list(e.absolute_path))
    return [f"{'/'.join(str(p) for p in e.absolute_path) or '(record)'}: {e.message}" for e in errors]


#: A lone surrogate: a string may hold one (a model's answer sent as the JSON escape "\\ud800"), UTF-8 cannot.
_SURROGATE = re.compile("[\ud800-\udfff]")


def dumps_record(record: Mapping[str, Any]) -> str:
    r"""One JSON line (no newline): sorted keys, UTF-8 text; a lone surrogate is written as its JSON escape.

    >>> print(dumps_record({"response": "caf\u00e9 \ud800"}))
    {"response": "café \ud800"}
    """
    line = json.dumps(record, sort_keys=True, ensure_ascii=False)
    # json.dumps leaves a lone surrogate as it stands inside its string; the escape reads back to the same string
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", line)


@dataclass
class ExistingOutput:
    """What an earlier (perhaps killed) run left in an output file.

    ``records`` are the complete, valid records in file order; ``dropped``
    says why lines were left out (only an incomplete last line is ever
    dropped; anything else is an error).
    """

    records: list[dict[str, Any]]
    dropped: list[str]


def read_output(path: str | Path) -> ExistingOutput:
    """Read a response file an earlier run wrote, tolerating a cut-off last line.

    Raises
    ------
    LoadError
        A line other than the last is not a valid record (the file is not a
        response file, or it was edited): nothing is dropped silently.
    """
    file = str(path)
    p = Path(path)
    if not p.exists():
        return ExistingOutput([], [])
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise LoadError(f"cannot read {file}: {exc.strerror or exc}", file=file, rule="file") from None
    lines = raw.split(b"\n")
    complete_end = raw.endswith(b"\n")
    records: list[dict[str, Any]] = []
    dropped: list[str] = []
    last = max((i for i, line in enumerate(lines) if line.strip()), default=-1)
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        number = i + 1
        problem: str | None = None
        try:
            text = line.decode("utf-8").removesuffix("\r")
            record = parse_json_line(text.removeprefix("\ufeff") if i == 0 else text, file, number, exact=False)
        except UnicodeDecodeError as exc:
            problem = f"not a JSON record ({exc})"
        except LoadError as exc:
            problem = f"not a JSON record ({exc.message} at column {exc.column})"
        else:
            if not isinstance(record, dict):
                problem = "not a JSON object"
            else:
                errors = validate_record(record)
                if errors:
                    problem = "not a valid response record: " + "; ".join(errors[:3])
        if problem is not None:
            if i == last and not complete_end:
                dropped.append(f"line {number}: incomplete last line of an interrupted run ({len(line)} bytes)")
                continue
            raise LoadError(f"{problem}; fix or remove the file (or use --overwrite)", file=file, line=number, column=1,
                            rule="record")
        records.append(record)
    return ExistingOutput(records, dropped)


def write_atomic(path: str | Path, lines: Iterable[str]) -> None:
    """Write ``lines`` to ``path`` atomically, creating its folder (:func:`ipb._files.write_lines_atomic`)."""
    write_lines_atomic(path, lines, make_parents=True)


class AppendWriter:
    """Appends complete lines to a file, each flushed and ``fsync``-ed before the next."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._handle = open(self.path, "a", encoding="utf-8", newline="\n")

    def write(self, line: str) -> None:
        self._handle.write(line + "\n")
        self._handle.flush()
        os.fsync(self._handle.fileno())

    def close(self) -> None:
        self._handle.close()

    def __enter__(self) -> "AppendWriter":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@contextlib.contextmanager
def output_lock(path: str | Path) -> Iterator[None]:
    """Hold an exclusive lock on ``PATH.lock`` while a run writes ``path``.

    The lock file is removed when the run ends (s49break leftover 4: every run left ``OUT.lock`` behind). It is
    removed while still locked, and a run that locks a file no longer at ``PATH.lock`` (removed by the run
    before it) opens the new one, so two runs never hold locks on two different files.

    Raises
    ------
    RunError
        Another process holds it (two runs must not write one file).
    """
    lock_path = Path(str(path) + ".lock")
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX: no lock
        yield
        return
    for _ in range(100):
        handle = open(lock_path, "a+")
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            raise RunError(f"another run is writing {path} (lock {lock_path} is held)", file=str(path),
                           rule="lock") from None
        if _same_inode(lock_path, handle.fileno()):
            break
        handle.close()  # the run before removed the file this one locked: lock the file there now
    else:  # pragma: no cover - the lock file replaced 100 times over
        raise RunError(f"cannot lock {lock_path}: it keeps being replaced", file=str(path), rule="lock")
    try:
        yield
    finally:
        with contextlib.suppress(OSError):
            if _same_inode(lock_path, handle.fileno()):
                lock_path.unlink()
        handle.close()  # closing drops the lock


def _same_inode(path: Path, fd: int) -> bool:
    """Whether ``path`` is still the file open as ``fd``."""
    try:
        st = os.stat(path)
    except OSError:
        return False
    here = os.fstat(fd)
    return (st.st_dev, st.st_ino) == (here.st_dev, here.st_ino)


def ordered(records: Sequence[Mapping[str, Any]], keys: Sequence[tuple[str, str]]) -> list[Mapping[str, Any]]:
    """``records`` in the order of ``keys`` ((item_id, condition)); records with other keys follow, as found."""
    rank = {k: i for i, k in enumerate(keys)}
    indexed = list(enumerate(records))
    indexed.sort(key=lambda p: (rank.get((str(p[1].get("item_id")), str(p[1].get("condition"))), len(rank)), p[0]))
    return [r for _, r in indexed]

"""The bundled framework cards and scenarios, and lookup by id or path.

Cards ship as package data in ``ipb.frameworks`` (``*.yaml``), scenarios in
``ipb.frameworks/scenarios``; both are read through ``importlib.resources``.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Mapping, Sequence

from ipb._files import read_bytes_limited, write_text_atomic
from ipb.engine._yaml import MAX_YAML_CHARS, _split_lines
from ipb.engine.card import Card, load_card
from ipb.errors import IpbError, LoadError, did_you_mean, nearest_names

if TYPE_CHECKING:  # networkx (a third of a second to import) only where a graph is built
    from ipb.engine.graph import CompiledCard

__all__ = ["bundled_card_paths", "bundled_scenario_paths", "resolve_card", "compiled_card", "loaded_card", "card_table", "find_card",
           "use_cards", "use_items", "card_dirs", "pin_card", "resolve_pinned", "pin_item_cards", "write_card_copy", "canonical_source", "source_sha256",
           "CARDS_ENV", "CARD_COPIES", "item_card", "add_card_file", "card_option_error", "item_card_pairs", "copy_dirs",
           "known_card_ids", "is_card_copy"]

#: Files in ``frameworks/`` that are data but not cards.
NOT_CARDS = {"investors.yaml", "sectors.yaml", "regimes.yaml"}

#: ``ipb check`` validators for those data files: file name -> (path -> errors).
#: A module that owns such a file registers its validator here.
DATA_FILES: dict[str, Callable[[Path], list[IpbError]]] = {}


def data_file_validator(name: str) -> Callable[[Callable[[Path], list[IpbError]]], Callable[[Path], list[IpbError]]]:
    """Register the ``ipb check`` validator of the data file called ``name`` (e.g. investors.yaml)."""

    def register(fn: Callable[[Path], list[IpbError]]) -> Callable[[Path], list[IpbError]]:
        DATA_FILES[name] = fn
        return fn

    return register


def _skip(path: Path) -> list[IpbError]:
    return []


for _name in NOT_CARDS:
    DATA_FILES.setdefault(_name, _skip)


def _frameworks_dir() -> Path:
    return Path(str(resources.files("ipb.frameworks")))


def bundled_card_paths() -> list[Path]:
    """Every bundled card file, sorted by file name."""
    return sorted(p for p in _frameworks_dir().glob("*.yaml") if p.name not in NOT_CARDS)


def bundled_scenario_paths() -> list[Path]:
    """Every bundled scenario file (``scenarios/<card_id>/*.yaml``), sorted by path."""
    return sorted((_frameworks_dir() / "scenarios").glob("**/*.yaml"))


@lru_cache(maxsize=None)
def _bundled_ids() -> dict[str, Path]:
    ids: dict[str, Path] = {}
    for path in bundled_card_paths():
        ids[path.stem] = path
    return ids


# --------------------------------------------------------------------------- where cards are found
#
# A card id is looked up, in this order (docs/cards.md, "Where ipb finds a card"):
#   0. a file given for the id (--card ID=PATH, where a command has it);
#   1. the folders given with --cards DIR, in the order given;
#   2. the folders in the IPB_CARDS environment variable (separated by os.pathsep);
#   3. the content-addressed copies beside the items file in use (ipb-cards/<sha256>.yaml);
#   4. the bundled cards.
# A lookup that names the sha256 the item was made with refuses a card found
# in 1, 2 or 4 whose content differs (LoadError, rule "card-hash"), and takes
# the item's own copy by its hash; ``ipb verify`` (current_first) looks at the
# bundled cards before the copies and reports a differing card instead.

#: Environment variable: folders of card files, separated by ``os.pathsep``.
CARDS_ENV = "IPB_CARDS"
#: Folder beside an items file holding a copy of each of its cards, named ``<sha256>.yaml``.
CARD_COPIES = "ipb-cards"


def is_card_copy(path: str | Path | None) -> bool:
    """True when ``path`` is an items file's own card copy (``ipb-cards/<sha256>.yaml``, :data:`CARD_COPIES`); None
    (no file found) is not one. ``ipb verify`` never reads a changed copy as a card edit: a release whose copy no
    longer hashes to its name stays a failure (s61nfix, s62 new user N3, s64 new user F1).

    >>> is_card_copy("out/ipb-cards/" + "ab" * 32 + ".yaml"), is_card_copy("cards/my_card.yaml"), is_card_copy(None)
    (True, False, False)
    """
    if path is None:
        return False
    p = Path(path)
    return p.parent.name == CARD_COPIES and len(p.stem) == 64 and all(c in "0123456789abcdef" for c in p.stem)


_CARD_DIRS: list[Path] = []
_COPY_DIRS: list[Path] = []
_FILES: dict[str, Path] = {}
#: card id -> sha256 the items in use were made with (see :func:`pin_card`).
_EXPECTED: dict[str, str] = {}
#: (card id, sha256 asked for, current_first) -> file found by :func:`find_card` since the last :func:`use_cards`.
_FOUND: dict[tuple[str, str | None, bool], Path] = {}
_ID_LINE = re.compile(r"""^id:[ \t]*["']?([^"'\s#]+)""", re.MULTILINE)


def canonical_source(text: str) -> str:
    """A card's canonical text: its lines joined by ``\n``, with a final newline.

    Line endings are normalised as the YAML loader counts them (``\r\n``,
    ``\r``, ``\n``), and a leading byte-order mark, which the loader ignores, is
    left out. :func:`source_sha256` hashes the same lines without the final
    newline, which is the card's ``content_hash``.
    """
    lines = _split_lines(text.removeprefix("\ufeff"))
    return "\n".join(lines) + "\n" if lines else ""


def source_sha256(text: str) -> str:
    r"""The SHA-256 (hex) of a card's lines joined by ``\n``: equal to :attr:`Card.content_hash`.

    A leading byte-order mark is not part of the card (the YAML loader ignores it, so the card's
    ``content_hash`` does not count it): a copy saved by an editor that adds one keeps its hash (s60 new user N6).

    >>> source_sha256("id: x\r\nversion: 1\n") == source_sha256("id: x\nversion: 1")
    True
    >>> source_sha256("\ufeffid: x\n") == source_sha256("id: x\n")
    True
    """
    return hashlib.sha256("\n".join(_split_lines(text.removeprefix("\ufeff"))).encode("utf-8")).hexdigest()


def use_cards(dirs: Sequence[str | os.PathLike[str]] = (), items: str | os.PathLike[str] | None = None,
              files: Mapping[str, str | os.PathLike[str]] | None = None) -> None:
    """Set where card ids are looked up for the rest of the process (what ``--cards`` and ``--items`` give).

    Parameters
    ----------
    dirs:
        Folders of card files (``--cards DIR``, repeatable), searched first, in order.
    items:
        An items file: the copies in ``ipb-cards/`` beside it are searched after
        the folders and ``IPB_CARDS``, and before the bundled cards.
    files:
        Card id -> card file (``--card ID=PATH``), taken before everything else.

    Raises
    ------
    LoadError
        A folder in ``dirs`` does not exist (rule ``cards``).
    """
    folders: list[Path] = []
    for d in dirs:
        path = Path(d)
        if not path.is_dir():
            raise LoadError(f"--cards {d}: no such folder", file=str(d), rule="cards")
        folders.append(path)
    _CARD_DIRS[:] = folders
    _COPY_DIRS[:] = []
    _FOUND.clear()
    _EXPECTED.clear()
    _FILES.clear()
    _FILES.update({k: Path(v) for k, v in (files or {}).items()})
    if items is not None:
        use_items(items, pin=False)


def add_card_file(card_id: str, path: str | os.PathLike[str]) -> None:
    """Look ``card_id`` up in ``path`` first from now on, as ``--card ID=PATH`` does (the Python API's
    way to score against a card the caller loaded from a file outside every card folder)."""
    _FILES[card_id] = Path(path)
    for key in [k for k in _FOUND if k[0] == card_id]:
        del _FOUND[key]


def use_items(items: str | os.PathLike[str], *, pin: bool = True) -> list[tuple[str, str]]:
    """Add the copies beside an items file to the card search and, with ``pin``, pin every card it names.

    Returns the (card id, sha256) pairs pinned (:func:`pin_item_cards`).

    Raises
    ------
    LoadError
        With ``pin``: a card the items name cannot be found at its recorded hash.
    """
    folder = Path(items).parent / CARD_COPIES
    if folder not in _COPY_DIRS:
        _COPY_DIRS.append(folder)
    return pin_item_cards(items) if pin else []


def card_dirs() -> list[Path]:
    """The folders searched for card ids: ``--cards`` folders, then those of ``IPB_CARDS`` that exist."""
    env = [Path(p) for p in os.environ.get(CARDS_ENV, "").split(os.pathsep) if p.strip()]
    return [*_CARD_DIRS, *(p for p in env if p.is_dir())]


def _folder_ids(folder: Path) -> dict[str, Path]:
    """Card id -> file for the card files directly in ``folder`` or below it (first file per id, by path)."""
    return {card_id: paths[0] for card_id, paths in _folder_all_ids(folder).items()}


def _folder_all_ids(folder: Path) -> dict[str, list[Path]]:
    """Card id -> every card file with that id in ``folder`` or below it, by path."""
    stamp = tuple((str(p), p.stat().st_mtime_ns) for p in sorted(folder.rglob("*.y*ml")) if p.suffix in (".yaml", ".yml"))
    return _folder_ids_cached(stamp)


def _one_in_folder(card_id: str, paths: Sequence[Path], folder: Path, sha256: str | None) -> Path:
    """The one file of ``card_id`` a ``--cards`` / IPB_CARDS folder gives, never a silent first pick among several.

    Several files of one id with the same content are one card (the first is taken); with ``sha256`` (an item's
    pinned hash) the files of that hash are. Otherwise which one is meant cannot be told: s53newuser's
    ``ipb verify --cards .`` took ``bad/m1_atleast.yaml``, the first of 17 files with that id, and read all 500 items
    as unreadable.

    Raises
    ------
    LoadError
        Several files of ``card_id`` in ``folder`` with different contents, none or more than one content matching
        ``sha256`` (rule ``card-ambiguous``); the message names the files.
    """
    if len(paths) == 1:
        return paths[0]
    hashes = [card_file_sha256(p) for p in paths]
    if len(set(hashes)) == 1:
        return paths[0]
    if sha256 is not None and sha256 in hashes:
        return paths[hashes.index(sha256)]
    shown = ", ".join(str(p) for p in paths[:10]) + (f" and {len(paths) - 10} more" if len(paths) > 10 else "")
    raise LoadError(
        f"card id {card_id!r} is in {len(paths)} files of --cards / {CARDS_ENV} folder {folder}, with "
        f"{len(set(hashes))} different contents: {shown}"
        + (f"; none has the item's sha256 {sha256[:12]}..." if sha256 is not None else "")
        + ". Which one is meant cannot be told: keep one file per card id in the folder, point --cards at a "
        "folder that holds only the one you mean, or name it with --card ID=PATH",
        file=str(paths[0]), rule="card-ambiguous", name=card_id)


@lru_cache(maxsize=64)
def _folder_ids_cached(stamp: tuple[tuple[str, int], ...]) -> dict[str, list[Path]]:
    ids: dict[str, list[Path]] = {}
    for name, _ in stamp:
        path = Path(name)
        if path.name in NOT_CARDS:
            continue
        try:  # a FIFO or device named *.yaml in a cards folder is skipped, not read (s52break item 10)
            head = read_bytes_limited(path, 4 * MAX_YAML_CHARS + 4, what="card").decode("utf-8", "replace")
        except LoadError:
            continue
        m = _ID_LINE.search(head)
        if m and "\nfacts:" not in head and not head.startswith("facts:"):
            ids.setdefault(m.group(1), []).append(path)
    return ids


@lru_cache(maxsize=256)
def _file_sha256(name: str, mtime_ns: int) -> str:
    with open(name, "rb") as handle:
        return source_sha256(handle.read().decode("utf-8", errors="replace"))


def card_file_sha256(path: Path) -> str:
    """:func:`source_sha256` of a card file (cached while the file is unchanged)."""
    return _file_sha256(str(path), path.stat().st_mtime_ns)


def _is_file(path: Path) -> bool:
    """``path.is_file()``, False for a name the system refuses (too long, a NUL byte) instead of raising."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


def _looks_like_file(ref: str) -> bool:
    path = Path(ref)
    return path.suffix in (".yaml", ".yml") or os.sep in ref or (os.altsep is not None and os.altsep in ref) or _is_file(path)


def _shown(ref: str) -> str:
    """A card reference as an error message shows it: a long or multi-line one (text passed where a card
    belongs, e.g. ``ipb.parse(card, text)`` for ``ipb.parse(text, card)``) by its start and its length."""
    if "\n" not in ref and len(ref) <= 200:
        return ref
    return f"{ref[:60].splitlines()[0]!r}... ({len(ref)} characters: a text, not a card file or id)"


def _hash_mismatch(card_id: str, path: Path, found: str, wanted: str, where: str) -> LoadError:
    return LoadError(
        f"card {card_id!r} in {path} ({where}) has sha256 {found[:12]}..., but the item was made with "
        f"{wanted[:12]}...: the card changed since the items were written. Give the original card "
        f"(keep {CARD_COPIES}/ beside the items file, or point --cards / {CARDS_ENV} at a folder holding it)",
        file=str(path), rule="card-hash", name=card_id)


def find_card(ref: str, sha256: str | None = None, *, current_first: bool = False) -> Path:
    """The file of a card given as a path or an id, found as the module comment above says.

    This is the one place a card reference is resolved; every command goes through it.

    Parameters
    ----------
    ref:
        A card file (a path ending in .yaml/.yml, holding a path separator, or an
        existing file) or a card id.
    sha256:
        The card's content hash recorded in an item (``manifest.cards[].content_hash``),
        or None for "any version".
    current_first:
        Look at the bundled cards before the items' own copies (``ipb verify``,
        which re-executes items against the current cards).

    Raises
    ------
    LoadError
        No such file (rule ``file``); no card with that id anywhere (rule ``card``,
        with "did you mean" and where to put the card); or, with ``sha256``, the
        first card found by that id differs from the item's (rule ``card-hash``).
    """
    if _looks_like_file(ref):
        path = Path(ref)
        if not _is_file(path):
            raise LoadError(f"no such card file: {_shown(ref)}", file=_shown(ref), rule="file")
        if sha256 is not None and not current_first and card_file_sha256(path) != sha256:
            raise _hash_mismatch(ref, path, card_file_sha256(path), sha256, "given as a file")
        return path
    if sha256 is None and not current_first:
        sha256 = _EXPECTED.get(ref)
    key = (ref, sha256, current_first)
    found = _FOUND.get(key)
    if found is None or not found.is_file():
        found = _FOUND[key] = _find_id(ref, sha256, current_first)
    return found


def _find_id(ref: str, sha256: str | None, current_first: bool) -> Path:
    check = sha256 is not None and not current_first
    if ref in _FILES:
        path = _FILES[ref]
        if not path.is_file():
            raise LoadError(f"no such card file: {path} (given for card {ref!r})", file=str(path), rule="file")
        if check and card_file_sha256(path) != sha256:
            raise _hash_mismatch(ref, path, card_file_sha256(path), str(sha256), "given with --card")
        return path
    for folder in card_dirs():
        paths = _folder_all_ids(folder).get(ref)
        if paths:
            in_folder = _one_in_folder(ref, paths, folder, sha256 if check else None)
            if check and card_file_sha256(in_folder) != sha256:
                raise _hash_mismatch(ref, in_folder, card_file_sha256(in_folder), str(sha256),
                                     f"--cards / {CARDS_ENV} folder {folder}")
            return in_folder
    bundled = _bundled_ids().get(ref)
    if current_first and bundled is not None:
        return bundled
    copy = _copy(ref, sha256)
    if copy is not None:
        # the copy is named by the hash the items were made with; an edited copy keeps its name but not its hash
        if check and card_file_sha256(copy) != sha256:
            raise _hash_mismatch(ref, copy, card_file_sha256(copy), str(sha256), "the items' own copy, edited since")
        return copy
    if bundled is not None:
        if check and card_file_sha256(bundled) != sha256:
            raise _hash_mismatch(ref, bundled, card_file_sha256(bundled), str(sha256), "bundled with ipb")
        return bundled
    if sha256 is not None:
        _refuse_other_copy(ref, sha256)
    known = known_card_ids()
    raise LoadError(
        f"{_shown(ref) if _shown(ref) != ref else repr(ref)} is neither a card file nor a known card id (searched: "
        + ", ".join([*(f"--cards/{CARDS_ENV} {f}" for f in card_dirs()), *(str(c) for c in _COPY_DIRS), "the bundled cards"])
        + f"); give the card's file, or its folder with --cards DIR or {CARDS_ENV}",
        file=_shown(ref),
        rule="card",
        suggestion=did_you_mean(ref, known),
    )


def card_option_error(option: str, ref: str) -> LoadError | None:
    """None when ``ref``, given on the command line to ``option`` (``--card``), names a card; else why not.

    The error names the option and the value given, says what was looked for (the file at its
    absolute path, for a value read as a path; else the card id and the folders searched) and lists
    the three nearest known card ids (rapidfuzz WRatio, no cutoff), so a mistyped id or file name
    is answered with the ids to choose from even when none is close enough for a "did you mean".

    Raises
    ------
    LoadError
        Anything :func:`find_card` raises other than "no such file" and "no such id" (e.g. an
        unreadable ``IPB_CARDS`` folder), unchanged.
    """
    try:
        find_card(ref)
        return None
    except LoadError as exc:
        if exc.rule not in ("file", "card"):
            raise
    known = known_card_ids()
    as_file = _looks_like_file(ref)
    stem = Path(ref).stem if as_file else ref
    if not ref.strip():
        what = "the value is empty: give a card id or a card file"
    elif Path(ref).is_dir():
        what = (f"{Path(ref).absolute()} is a folder, not a card file (give one card file or a card id; a "
                f"folder of cards goes to --cards or {CARDS_ENV})")
    elif as_file:
        what = (f"read as a card file (it ends in .yaml/.yml or holds a path separator), but there is no file "
                f"{Path(ref).absolute()}")
    else:
        where = [*(f"--cards/{CARDS_ENV} {f}" for f in card_dirs()), *(str(c) for c in _COPY_DIRS),
                 f"the bundled cards ({_frameworks_dir()})"]
        what = f"read as a card id, but no card has the id {ref!r} (looked in: {', '.join(where)})"
    near = nearest_names(stem, known, 3)
    hint = f"; nearest card ids: {', '.join(near)}" if near else ""
    return LoadError(f"option {option} {ref!r}: {what}{hint} (give a card file or a card id; ipb catalog lists them)",
                     rule="card-option", name=option, suggestion=did_you_mean(stem, known))


_CARD_ID = re.compile(r"[a-z][a-z0-9_]*")


def known_card_ids() -> list[str]:
    """Every card id a bare id could name now (the bundled cards and the ``--cards`` folders), sorted: the
    choices of a "did you mean"."""
    return sorted(set(_bundled_ids()) | {i for f in card_dirs() for i in _folder_ids(f)})


def item_card(ref: object, sources: Mapping[str, str] | None = None) -> str:
    """What to load for the card an item (or a response record) names: never a path taken from the data.

    An item names its card by id. The id resolves through the explicit card
    ``sources`` the user gave (id -> path, e.g. ``card_paths`` of a run), and
    otherwise to a bundled card; a value that is not an id (``/etc/passwd``,
    ``../x.yaml``) is refused, so a data file can never make ipb open a file.
    The one check of this kind: card-source options extend ``sources``.

    Raises
    ------
    LoadError
        Rule ``card-ref``: ``ref`` is not a card id.

    >>> item_card("graham_net_net_screen")
    'graham_net_net_screen'
    >>> item_card("/etc/passwd")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ipb.errors.LoadError: <input>: load error: an item names its card by id ..., not a path: '/etc/passwd'
    """
    if isinstance(ref, str) and sources and ref in sources:
        return sources[ref]
    if not isinstance(ref, str) or not _CARD_ID.fullmatch(ref):
        raise LoadError(f"an item names its card by id (lower-case letters, digits, '_'), not a path: {ref!r}",
                        rule="card-ref", name=str(ref)[:100])
    return ref


def _refuse_other_copy(card_id: str, sha256: str) -> None:
    """Name the cause when the items' copies hold ``card_id`` only under another hash (s48break: an edited
    ``content_hash`` was told the card id was unknown, though ``ipb-cards/`` held that card)."""
    for folder in _COPY_DIRS:
        path = _folder_ids(folder).get(card_id) if folder.is_dir() else None
        if path is not None:
            raise LoadError(
                f"the item names card {card_id!r} at sha256 {sha256[:12]}..., but {folder} holds no card with "
                f"that hash; it holds {card_id!r} as {path.name} (sha256 {card_file_sha256(path)[:12]}...): "
                f"the item's content_hash was edited, or its copy was removed. Restore the item's content_hash, "
                f"or give the card the items were made with (--cards / {CARDS_ENV})",
                file=str(path), rule="card-hash", name=card_id)


def _copy(card_id: str, sha256: str | None) -> Path | None:
    """The item's copy of a card: ``ipb-cards/<sha256>.yaml``, or by id when no hash is given."""
    for folder in _COPY_DIRS:
        if not folder.is_dir():
            continue
        if sha256 is not None:
            path = folder / f"{sha256}.yaml"
            if path.is_file():
                return path
        else:
            path_by_id = _folder_ids(folder).get(card_id)
            if path_by_id is not None:
                return path_by_id
    return None


def pin_card(card_id: str, sha256: str) -> None:
    """From now on, look ``card_id`` up at content hash ``sha256`` (found lazily, when first needed).

    Raises
    ------
    LoadError
        The items in use already need another version of the same card (rule ``card-hash``).
    """
    known = _EXPECTED.get(card_id)
    if known is not None and known != sha256:
        raise LoadError(f"the items need two versions of card {card_id!r} (sha256 {known[:12]}... and "
                        f"{sha256[:12]}...); use them in separate runs", rule="card-hash", name=card_id)
    _EXPECTED[card_id] = sha256


def pin_item_cards(items: str | os.PathLike[str]) -> list[tuple[str, str]]:
    """Pin every card an items file names (``manifest.cards[]``: id and content hash), by :func:`pin_card`.

    Lines that are not JSON objects with such a manifest are skipped here (the
    command reading the items reports them). Returns the (id, sha256) pairs pinned.
    Nothing is looked up yet: a card that cannot be found at its hash is an
    error when a command first needs it.
    """
    pairs = item_card_pairs(items)
    for card_id, sha in pairs:
        pin_card(card_id, sha)
    return pairs


def item_card_pairs(items: str | os.PathLike[str]) -> list[tuple[str, str]]:
    """The (card id, sha256) pairs an items file names (``manifest.cards[]``), in first-seen order; nothing pinned.

    Lines that are not JSON objects with such a manifest are skipped; an unreadable file gives [].
    """
    seen: dict[tuple[str, str], None] = {}
    try:
        handle = open(items, encoding="utf-8", errors="replace")
    except OSError:
        return []
    with handle:
        for line in handle:
            found = False
            for m in _MANIFEST_CARD.finditer(line):
                seen.setdefault((m.group(2), m.group(1)), None)
                found = True
            if not found and '"content_hash"' in line:
                try:
                    item = json.loads(line)
                    for c in item["manifest"]["cards"]:
                        seen.setdefault((str(c["id"]), str(c["content_hash"])), None)
                except (ValueError, KeyError, TypeError):
                    continue
    return list(seen)


def copy_dirs() -> list[Path]:
    """The items' copy folders (``ipb-cards/`` beside an items file) searched now, after the card folders."""
    return list(_COPY_DIRS)


def resolve_pinned() -> dict[str, Path]:
    """Find every pinned card now (card id -> file), so that a wrong or missing card stops a command before it starts.

    Raises
    ------
    LoadError
        The first pinned card that cannot be found at its recorded hash.
    """
    return {card_id: find_card(card_id, sha) for card_id, sha in sorted(_EXPECTED.items())}


# items are written with sorted keys: {"content_hash":"...","id":"...",...}
_MANIFEST_CARD = re.compile(r'"content_hash":"([0-9a-f]{64})","id":"([^"\\]+)"')


def write_card_copy(card: Card, items: str | os.PathLike[str]) -> str:
    """Write the canonical source of ``card`` beside an items file; the path relative to it.

    The copy is ``ipb-cards/<content_hash>.yaml`` (written atomically; an
    existing copy is left alone, its name being its hash). A card given by path
    with a translations sidecar beside it (``my_card.translations.yaml``, its gate
    names in other languages) has the sidecar copied too, as
    ``ipb-cards/<content_hash>.translations.yaml``, so that score, respond and
    report read those names from the copy (the sidecar is not hashed: the
    latest one is copied).
    """
    from ipb.engine.translations import SIDECAR_SUFFIX

    rel = f"{CARD_COPIES}/{card.content_hash}.yaml"
    target = Path(items).parent / rel
    if not target.exists():
        if card.doc is None:
            raise LoadError(f"card {card.id!r} has no source text to copy", rule="card", name=card.id)
        write_text_atomic(target, "\n".join(card.doc.lines) + "\n", make_parents=True)
    own = Path(card.file)
    sidecar = own.with_name(own.stem + SIDECAR_SUFFIX)
    copy = target.with_name(target.stem + SIDECAR_SUFFIX)
    if own.suffix in (".yaml", ".yml") and sidecar.is_file() and sidecar.resolve() != copy.resolve():
        text = sidecar.read_text(encoding="utf-8")
        if not copy.is_file() or copy.read_text(encoding="utf-8") != text:
            write_text_atomic(copy, text, make_parents=True)
    return rel


def resolve_card(ref: str) -> Path:
    """The path of a card given as a file path or a card id (:func:`find_card` without a hash)."""
    return find_card(ref)


@lru_cache(maxsize=64)
def _compiled(path: str, mtime: float) -> CompiledCard:
    from ipb.engine.graph import compile_card

    return compile_card(_loaded(path, mtime))


@lru_cache(maxsize=64)
def _loaded(path: str, mtime: float) -> Card:
    return load_card(path)


def loaded_card(ref: str, sha256: str | None = None) -> Card:
    """The card ``ref`` names (:func:`find_card`), loaded and checked but without its decision graph.

    For commands that read a card's gates, inputs and words but never run it
    (``ipb parse``): they skip networkx and the graph checks of
    :func:`~ipb.engine.graph.compile_card`. Cached while the file is unchanged,
    and the same :class:`~ipb.engine.card.Card` object that :func:`compiled_card`
    compiles.
    """
    path = find_card(ref, sha256)
    return _loaded(str(path), path.stat().st_mtime)


def compiled_card(ref: str, sha256: str | None = None) -> CompiledCard:
    """Load and compile a card by path or id (:func:`find_card`; cached while the file is unchanged)."""
    path = find_card(ref, sha256)
    return _compiled(str(path), path.stat().st_mtime)


def card_table(cards: list[Card]) -> list[dict[str, object]]:
    """The paper's Table 5 columns for ``cards``: investor, framework, topology, gate logic, gates, kill gates.

    Practitioner cards come first (in the given order), then institutions; each
    row also says its ``kind``.
    """
    ordered = [c for c in cards if c.kind == "practitioner"] + [c for c in cards if c.kind != "practitioner"]
    return [
        {
            "id": c.id,
            "kind": c.kind,
            "investor": c.investor,
            "name": c.name,
            "topology_type": c.topology_type,
            "gate_logic": c.gate_logic,
            "gates": len(c.gates),
            "kill_gates": len(c.kill_gates),
        }
        for c in ordered
    ]

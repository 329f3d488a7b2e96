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

import contextlib
import hashlib
import errno
import io
import itertools
import json
import os
import select
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Sequence, TextIO, cast

from ipb._files import UTF16_SNIFF, Staging, compressed_note, file_kind, new_folders, refuse_utf16, staged_outputs
from ipb.engine.registry import CARD_COPIES, card_file_sha256
from ipb.errors import LoadError, WriteError
from ipb.perturb.verify import scenario_key
from ipb.perturb.verify_cards import ChangedCopies

__all__ = ["JoinResult", "JoinedFile", "join_items", "refuse_stdin_as_output"]


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
    #: per input, the card copies its kept items name that are not beside it (``ipb verify`` of the output then
    #: needs those cards installed, or the copies put in ``ipb-cards/`` beside the output)
    missing_cards: dict[str, list[str]] = field(default_factory=dict)
    #: the warnings ``ipb verify`` gives for the card copies the kept items name that changed since the items were
    #: made without changing what ``ipb verify`` checks (:meth:`ipb.perturb.verify_cards.ChangedCopies.warnings`)
    card_warnings: list[str] = field(default_factory=list)

    @property
    def kept(self) -> int:
        return sum(f.kept for f in self.files)

    @property
    def dropped(self) -> int:
        return sum(f.dropped for f in self.files)


#: The keys and types every item has (``grammar/item.schema.json``'s required keys): the shape ``ipb join`` checks
#: before it keeps a line, so that ``{"id": "x"}`` is refused with its file and line (s59 B5), not joined for
#: ``ipb verify`` to call unreadable later.
_ITEM_SHAPE: tuple[tuple[str, type | tuple[type, ...], str], ...] = (
    ("version", int, "a number"), ("layer", str, "a string"), ("question", str, "a string"),
    ("scenario", dict, "an object"), ("manifest", dict, "an object"))


def _item_id(text: str, name: str, line: int) -> tuple[str, list[tuple[str, str, str]], Any]:
    """The id of the item on ``line`` of ``name``, the cards its manifest names (card id, content hash, source; the
    first two "" where missing) and its scenario.

    Raises
    ------
    LoadError
        The line is not a JSON object with a non-empty string ``id`` and the item's required keys (file, line and
        column 1).
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
    wrong = [f"{key!r} ({kind})" for key, types, kind in _ITEM_SHAPE
             if not isinstance(record.get(key), types) or isinstance(record.get(key), bool)]
    if wrong:
        raise LoadError(f"line {line} (id {ident!r}) is not an item: it lacks {', '.join(wrong)}; an items file holds "
                        "one item (written by ipb perturb) a line", file=name, line=line, column=1, rule="item",
                        source_line=text[:200])
    sources: list[tuple[str, str, str]] = []
    cards = record["manifest"].get("cards")
    for card in cards if isinstance(cards, list) else []:
        source = card.get("source") if isinstance(card, dict) else None
        if isinstance(source, str) and source:
            card_id, sha = card.get("id"), card.get("content_hash")
            sources.append((card_id if isinstance(card_id, str) else "", sha if isinstance(sha, str) else "", source))
    return ident, sources, record["scenario"]


#: Seconds a read of a FIFO, pipe or device waits for data before it looks for a pending signal again.
SIGNAL_POLL_S = 0.25


class _PatientRaw(io.RawIOBase):
    """A FIFO, pipe or device read so that a stop signal is never lost while no data comes (s60fix, flake 0).

    CPython runs a signal's Python handler only between bytecodes; a signal that lands after the last check but
    before the C code of ``readline`` enters ``read(2)`` interrupts nothing, and the read then waits for the writer
    for ever (``ipb join <(slow producer)`` ignored SIGTERM while the producer held the pipe open). Each read here
    first waits in ``select`` for at most :data:`SIGNAL_POLL_S` seconds and comes back to Python between waits, so a
    pending handler runs within that time.
    """

    def __init__(self, fd: int) -> None:
        super().__init__()
        self._fd = fd

    def readable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self._fd

    def readinto(self, buffer: Any) -> int:
        while not select.select([self._fd], [], [], SIGNAL_POLL_S)[0]:
            pass
        return os.readv(self._fd, [buffer])

    def close(self) -> None:
        if not self.closed:
            os.close(self._fd)
        super().close()


#: The name that stands for standard input among the files to join (s60 new user N11), and how messages call it.
STDIN = "-"
STDIN_NAME = "<stdin>"


def _open_text(path: Path) -> TextIO:
    """``path`` opened as UTF-8 text with its line ends kept; a FIFO, pipe or device through :class:`_PatientRaw`;
    ``-`` (:data:`STDIN`) is standard input (a duplicate of descriptor 0, so closing it leaves ``sys.stdin``)."""
    fd = os.dup(0) if str(path) == STDIN else os.open(path, os.O_RDONLY)
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        os.close(fd)
        raise
    if stat.S_ISREG(mode):
        return open(fd, encoding="utf-8", newline="")
    if stat.S_ISDIR(mode):
        os.close(fd)
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
    return io.TextIOWrapper(io.BufferedReader(_PatientRaw(fd)), encoding="utf-8", newline="")


def _lines(path: Path, name: str | None = None) -> Iterator[tuple[int, str]]:
    """(line number, text without its ``\n``) of every non-blank line of ``path``: a line ended by ``\r\n`` keeps
    its ``\r``, so the joined file keeps it too (s60 new user N7: the docs say lines are kept byte for byte, and a
    CRLF file lost every CR). A UTF-8 byte-order mark at the start of a line is left out (s61 new user N5).

    Raises
    ------
    LoadError
        The file cannot be read or is not UTF-8 text (a compressed file is named as such); messages call it
        ``name`` (default: the path).
    """
    name = name or str(path)
    try:
        handle = _open_text(path)
    except OSError as exc:
        raise LoadError(f"cannot read {name}: {exc.strerror or exc}", file=name, rule="file") from None
    with handle:
        with contextlib.suppress(OSError):  # a UTF-16 file decodes as UTF-8 text of NULs (s63 new user B3)
            refuse_utf16(cast(io.BufferedReader, handle.buffer).peek(UTF16_SNIFF)[:UTF16_SNIFF], name, "items file")
        number = 0
        try:
            for number, raw in enumerate(handle, 1):
                # a byte-order mark starting a line is dropped, as ipb verify and ipb score read past it (s61 new user
                # N5: join refused a BOM file with Python's own "decode using utf-8-sig" text); it is no part of the
                # item, and one kept mid-file would make the joined file's line unreadable to other JSON readers
                text = raw.removesuffix("\n").removeprefix("\ufeff")
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
    kept line has; the output and the card copies are written under temporary names and renamed only when every
    check has passed (on any error no file is made and an old one is untouched).

    Parameters
    ----------
    paths:
        Items files (JSON Lines written by ``ipb perturb``), read in this order; blank lines are skipped. ``-`` is
        standard input (once; messages call it ``<stdin>``; no card copies are beside it).
    out:
        The joined file.
    copy_cards:
        Copy the card copies the kept items name (``ipb-cards/<sha256>.yaml`` and its
        ``.translations.yaml``) from beside each input (else from beside another input, whether or not any of
        its lines was kept: s61 new user N4) to beside ``out``, where not there already; each copy's content is
        checked against the hash in its name first.

    Returns
    -------
    JoinResult
        Per input, the lines kept and dropped, and which earlier file held each dropped line's first; the card
        copies written and those named by kept items but not found beside their input.

    Raises
    ------
    LoadError
        One file is given twice (also as ``./A``, a symlink or a hard link); an input holds no item (empty, blank
        lines only, an empty pipe: s60 new user N1 saw one among several joined with exit 0); an input cannot be
        read, is not UTF-8, has a line that is not an item (file and line named), or has a line
        whose id an earlier line has with another scenario (both places named); a kept item fails ``ipb verify``'s
        check against a card copy the release carries for it (already beside ``out``, else beside its input) that
        changed since the items were made (s60 new user N6: its gold, a constraint or a range no longer agrees; a
        copy that changed without that is a warning, :attr:`JoinResult.card_warnings`, the one ``ipb verify``
        gives); a copy already beside ``out`` is named as the file at fault, with a copy beside an input that
        hashes to its name where there is one (s61 new user N12); no copy of a card beside the inputs hashes to its
        name or passes, while the line's own input holds one (every copy named: s62 new user N6; changed copies
        beside inputs whose kept items do not name the card are left out with a warning instead); kept lines name
        one card id with two hashes (two versions of the card, s62 new user N14: the release failed ``ipb verify``).
    WriteError
        ``ipb-cards`` beside ``out`` is not a folder; ``-`` is given and standard input is ``out``
        (:func:`refuse_stdin_as_output`).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> def item(i, s):
    ...     return json.dumps({"id": i, "version": 2, "layer": "L7", "question": "q", "scenario": {"s": s},
    ...                        "manifest": {}})
    >>> _ = (d / "a.jsonl").write_text(item("A-00000000000000aa", 1) + "\\n")
    >>> _ = (d / "b.jsonl").write_text(item("B-00000000000000aa", 1) + "\\n" + item("B-00000000000000bb", 2) + "\\n")
    >>> r = join_items([d / "a.jsonl", d / "b.jsonl"], d / "all.jsonl")
    >>> r.kept, r.dropped, r.files[1].from_files
    (2, 1, {'...a.jsonl': 1})
    """
    names = [STDIN_NAME if str(p) == STDIN else str(p) for p in paths]
    _refuse_given_twice(paths, names)
    refuse_stdin_as_output(paths, out)
    seen_ids: dict[str, tuple[int, int, str]] = {}
    seen_scenarios: dict[str, int] = {}
    versions: dict[str, tuple[str, str, int]] = {}  # card id -> (sha256, input, line) of the first kept line naming it
    files = [JoinedFile(name) for name in names]
    sources: dict[str, dict[Path | None, str]] = {}
    target = Path(out)
    out_folder = target.parent if str(target.parent) else Path(".")
    changes = ChangedCopies()
    # every file input's folder, whether or not any of its lines is kept (s61 new user N4: ``cat A | ipb join - A``
    # keeps A's lines from the pipe, and the copies beside A were not carried)
    file_inputs = [p for p in paths if str(p) != STDIN]
    folders = [Path(p).parent for p in file_inputs]
    stale_kept: set[tuple[str, str, str]] = set()  # changed copies beside the output that kept lines named

    hashes: dict[Path, str] = {}
    #: per card copy name (``ipb-cards/<sha256>.yaml``), the copy beside an input that the release carries (None: none
    #: is carried, every copy found being a changed one that fails and beside no input whose items name it)
    chosen: dict[str, Path | None] = {}
    #: copies beside an input (or the output) that do not hash to their name, per copy name, in the order met
    bad_copies: dict[str, list[Path]] = {}
    #: per copy name, the first line with no copy of its own whose only copies, beside other inputs, all fail it:
    #: judged at the end, when it is known whether an input whose items name that copy holds one (s62 new user N6)
    pending: dict[str, tuple[str, int, str, str, list[str]]] = {}
    passed_over: dict[Path, tuple[str, Path]] = {}  # a changed copy beside an input -> (its input, the good one used)
    input_of = {Path(p).parent: p for p in reversed(file_inputs)}  # folder -> the first input in it

    def sha_of(copy: Path) -> str:
        if copy not in hashes:
            hashes[copy] = card_file_sha256(copy)
        return hashes[copy]

    def candidates(source: str, folder: Path | None) -> list[Path]:
        """The copies of ``source`` beside the inputs, this line's input (``folder``; None: standard input) first,
        then the others in the order given (s62 new user N6: the first found beside any input was taken, though
        another input's copy hashed to its name)."""
        places = dict.fromkeys([*([] if folder is None else [folder]), *folders])
        return [f / source for f in places if (f / source).is_file() and not _same_folder(f, out_folder)]

    def good_copy(source: str, sha: str) -> Path | None:
        """A copy of ``source`` beside an input that hashes to ``sha``, the hash its items name (s61 new user N12)."""
        return next((c for c in candidates(source, None) if sha_of(c) == sha), None)

    def check_copies(cards: list[tuple[str, str, str]], folder: Path | None, name: str, number: int, text: str,
                     ident: str, path: str | Path) -> None:
        """``ipb verify``'s rule for the item on ``number`` when a copy the release carries for it has changed.

        The copy carried is chosen by content, not input order (s62 new user N6): the one already beside the output
        (s61 new user N12), else one beside an input that hashes to its name, else a changed one (this input's first)
        with which the line passes ``ipb verify``; the line is refused only when none passes, naming every copy."""
        copies: dict[str, str] = {}
        changed: list[tuple[Path, str, str]] = []
        open_cards: list[tuple[str, str, str, list[Path]]] = []  # cards with no good copy: (id, sha, source, copies)
        for card_id, sha, source in cards:
            if not (card_id and sha and _safe_source(source)):
                continue
            there = out_folder / source
            if there.is_file():
                copies[card_id] = str(there)
                if changes.changed(card_id, sha, there):
                    changed.append((there, source, sha))
                    stale_kept.add((card_id, sha, source))
                continue
            found = candidates(source, folder)
            if not found:
                continue
            before = chosen.get(source)
            good = next((c for c in ([before] if before is not None else []) + found if sha_of(c) == sha), None)
            for c in found:
                if sha_of(c) != sha and c not in bad_copies.setdefault(source, []):
                    bad_copies[source].append(c)
            if good is not None:
                copies[card_id] = str(good)
                chosen.setdefault(source, good)
                own = None if folder is None else folder / source
                if own is not None and own != good and own.is_file() and sha_of(own) != sha:
                    passed_over.setdefault(own, (name, good))
                continue
            if source in chosen and before is None:  # judged before: none carried (a pending line)
                continue
            open_cards.append((card_id, sha, source, [before] if before is not None else found))
        search = [target, *([] if folder is None else [path]), *file_inputs]
        if open_cards:
            first_problems: list[str] = []
            for combo in itertools.product(*(tried for _, _, _, tried in open_cards)):
                trial = dict(copies, **{card_id: str(c) for (card_id, _, _, _), c in zip(open_cards, combo)})
                check = changes.check(number, text, trial, [target, *(input_of[c.parent.parent] for c in combo),
                                                            *search[1:]])
                if check.status == "ok":
                    for (card_id, sha, source, _), c in zip(open_cards, combo):
                        chosen[source] = c
                        changes.changed(card_id, sha, c)
                    copies = trial
                    break
                first_problems = first_problems or list(check.problems)
            else:
                owned = [s for _, _, s, _ in open_cards if folder is not None and (folder / s).is_file()]
                every = [c for _, _, s, _ in open_cards for c in bad_copies.get(s, [])]
                if owned:  # the line's own input holds a changed copy of it: the run's own copy fails
                    raise _no_good_copy(name, number, ident, text, every, first_problems)
                for _, _, source, _ in open_cards:  # judged at the end (an input whose items name it may hold it)
                    pending.setdefault(source, (name, number, ident, text, first_problems))
                    chosen[source] = None
        if not changed:
            return
        # the card search ipb verify OUT will have: the output's copies first (a copy already there is the one the
        # release carries), then this input's, then the other inputs' (s62 new user N3: with this input's alone, a
        # description-edited copy beside the output passed here and failed verify, condition B knowledge differs)
        check = changes.check(number, text, copies, search)
        if check.status != "ok":
            stale = [(c, good_copy(source, sha)) for c, source, sha in changed]
            # s61 new user N12: the fault is the copy already beside the output, not the input's line
            copy, good = stale[0]
            fix = (f"{good}, beside an input, hashes to its name: copy it over {copy}, or remove {copy} and join "
                   "again to have it copied" if good is not None else "put back the copy the run wrote")
            raise LoadError(f"line {number} of {name} (id {ident!r}) fails ipb verify against the card copy "
                            f"{copy}, which changed since the items were made (it does not hash to its name, the "
                            "sha256 the items name) and is the one the release carries, as it is already beside "
                            f"the output: {'; '.join(check.problems[:3])}; {fix}", file=str(copy), rule="card-copy")

    def kept_lines() -> Iterator[str]:
        for index, path in enumerate(paths):
            report = files[index]
            folder = None if str(path) == STDIN else Path(path).parent  # standard input has no copies beside it
            for number, text in _lines(Path(path), names[index]):
                ident, cards, scenario = _item_id(text, names[index], number)
                shape = hashlib.sha256(json.dumps(scenario, sort_keys=True).encode("utf-8")).hexdigest()
                earlier = seen_ids.get(ident)
                if earlier is not None and earlier[2] != shape:  # s59 B6: corruption, not a repeat
                    raise LoadError(f"line {number} has the id {ident!r} that line {earlier[1]} of "
                                    f"{names[earlier[0]]} has, with another scenario: one of them was edited or "
                                    "made wrongly; an id names one scenario", file=names[index], line=number,
                                    column=1, rule="id-clash", source_line=text[:200])
                first = earlier[0] if earlier is not None else None
                if first is None:
                    first = seen_scenarios.get(scenario_key(ident))
                    if first is not None:
                        report.dropped_scenarios += 1
                else:
                    report.dropped_ids += 1
                if first is not None:
                    report.from_files[names[first]] = report.from_files.get(names[first], 0) + 1
                    continue
                for card_id, sha, _ in cards:  # s62 new user N14: one version of each card in a release
                    first_use = versions.setdefault(card_id, (sha, names[index], number)) if card_id and sha else None
                    if first_use is not None and first_use[0] != sha:
                        raise LoadError(
                            f"line {number} (id {ident!r}) names card {card_id!r} with sha256 {sha[:12]}..., while "
                            f"line {first_use[2]} of {first_use[1]} names it with sha256 {first_use[0][:12]}...: the "
                            "runs were made with two versions of the card (it was edited between them), and ipb "
                            "verify checks every item of a card id against one card, so the items of one version "
                            "would fail it; make the older run again with the card as it is now, or join each "
                            "version's runs into a release of its own; nothing written", file=names[index],
                            line=number, column=1, rule="card-version", source_line=text[:200])
                seen_ids[ident] = (index, number, shape)
                seen_scenarios.setdefault(scenario_key(ident), index)
                report.kept += 1
                for _, _, source in cards:
                    if _safe_source(source):
                        sources.setdefault(source, {}).setdefault(folder / source if folder else None, names[index])
                if copy_cards:  # s60 new user N6: the rule ipb verify applies, not a refusal of every edit
                    check_copies(cards, folder, names[index], number, text, ident, path)
                yield text
            if not (report.kept or report.dropped_ids or report.dropped_scenarios):  # s60 new user N1
                where = (f" (items file {index + 1} of {len(paths)}: a run that left an empty file would be missing "
                         "from the release)" if len(paths) > 1 else "")
                raise LoadError(f"no items in {names[index]}{where}: nothing to join, nothing written",
                                file=names[index], rule="empty")

    result = JoinResult(files)
    unused: dict[str, list[Path]] = {}  # changed copies left out: beside inputs whose items do not name them
    with new_folders([out_folder]), staged_outputs() as stage:  # on an error the folders made for out go again while empty
        stage.lines(target, kept_lines())
        if not result.kept:  # s59break B14 (every input holds an item by now; this guards an empty path list)
            raise LoadError(f"no items in {', '.join(names)}: nothing to join, nothing written",
                            file=names[0] if names else None, rule="empty")
        if copy_cards:
            unused = _judge_pending(pending, sources, bad_copies)
            result.cards_copied, result.missing_cards = _stage_cards(stage, sources, out_folder, folders, chosen)
    result.card_warnings = changes.warnings(frozenset(str(c) for copies in unused.values() for c in copies)
                                            if copy_cards else frozenset())
    if copy_cards:
        for source, copies in unused.items():  # s62 new user N6: another input's changed copy never blocks a join
            result.card_warnings.append(
                f"warning: {', '.join(str(c) for c in copies)}, beside an input whose items do not name it, changed "
                f"since the items were made and fails line {pending[source][1]} of {pending[source][0]}, so the "
                f"release does not carry it; no copy of {source} beside an input hashes to its name")
        for own, (name, carried) in passed_over.items():
            result.card_warnings.append(
                f"warning: {own}, beside {name}, changed since the items were made (it does not hash to its name); "
                f"the release carries {carried}, beside another input, which does")
    for card_id, sha, source in sorted(stale_kept):  # s61 new user N12: a changed copy at the output that passed
        good = good_copy(source, sha)
        if good is not None:
            result.card_warnings.append(
                f"warning: {out_folder / source}, already beside the output, is the copy of card {card_id!r} the "
                f"release carries and it changed since the items were made, while {good}, beside an input, hashes to "
                f"its name: ipb respond and ipb score refuse items whose own copy changed; copy {good} over it")
    return result


def refuse_stdin_as_output(paths: Sequence[str | Path], out: str | Path) -> None:
    """Refuse ``-`` among ``paths`` when standard input is the file ``out`` (``ipb join B - --out C < C``), by the
    rule that refuses ``--out`` naming an input (s61 new user N11: C was read and written over, while ``A - < A``
    was refused as one file given twice).

    Raises
    ------
    WriteError
        Naming ``--out`` and the items file's place (rule ``file``); nothing is written.
    """
    for index, path in enumerate(paths):
        if str(path) != STDIN:
            continue
        try:
            stdin, target = os.fstat(0), os.stat(out)
        except OSError:  # no output yet (or no standard input): nothing to write over
            return
        if (stdin.st_dev, stdin.st_ino) == (target.st_dev, target.st_ino):
            raise WriteError(f"--out {out} is the items file {index + 1} ({STDIN_NAME}, redirected from {out}); ipb "
                             "join never writes over its own inputs or outputs: name another file",
                             file=str(out), rule="file")
        return


def _refuse_given_twice(paths: Sequence[str | Path], names: Sequence[str]) -> None:
    """Refuse one file named twice (``A``, ``./A``, a symlink or a hard link to it): s59break B14 saw its every line
    reported as a repeat ("200 repeating an earlier item's id: 200 first in A") instead of the slip it is.

    Raises
    ------
    LoadError
        Naming both places on the command line (rule ``file``); nothing is written.
    """
    seen: dict[tuple[int, int], int] = {}
    for index, path in enumerate(paths):
        try:  # "-" is standard input: given twice, or beside /dev/stdin, it is one stream read twice (s60 N11)
            info = os.fstat(0) if str(path) == STDIN else os.stat(path)
        except OSError:  # a missing or unreadable file is reported when it is read
            continue
        key = (info.st_dev, info.st_ino)
        if key in seen:
            first = seen[key]
            once = " (standard input can be read once)" if STDIN_NAME in (names[index], names[first]) else ""
            raise LoadError(f"{names[index]} (items file {index + 1}) is {names[first]} (items file {first + 1}) "
                            f"given twice{once}: name each file once; nothing written", file=names[index], rule="file")
        seen[key] = index


def _no_good_copy(name: str, number: int, ident: str, text: str, copies: list[Path], problems: list[str]) -> LoadError:
    """The refusal of line ``number`` of ``name`` when every card copy found (``copies``, each changed since the
    items were made) fails it and none hashes to its name: the line's own input holds one, or, judged at the end, an
    input whose kept items name the card does (s62 new user N6; ``problems``: ``ipb verify``'s first)."""
    return LoadError(f"line {number} (id {ident!r}) fails ipb verify against the card copy "
                     f"{', '.join(str(c) for c in copies)}, which changed since the items were made (it does not hash "
                     f"to the sha256 the item names): {'; '.join(problems[:3])}; no copy of it beside an input hashes "
                     "to its name or passes: put back the copy the run wrote", file=name, line=number, column=1,
                     rule="card-copy", source_line=text[:200])


def _judge_pending(pending: dict[str, tuple[str, int, str, str, list[str]]],
                   sources: dict[str, dict[Path | None, str]], bad: dict[str, list[Path]]) -> dict[str, list[Path]]:
    """Judge the copies that failed a line with no copy of its own (standard input, or an input without that copy)
    once every line is read (s62 new user N6): a changed copy beside an input whose kept items name it is the run's
    own and the line is refused, naming every copy; copies beside inputs whose items do not name it are not carried
    and are returned (copy name -> copies) for a warning.

    Raises
    ------
    LoadError
        The pending line (file, line, column 1), when an input whose kept items name the copy holds a changed one.
    """
    unused: dict[str, list[Path]] = {}
    for source, (name, number, ident, text, problems) in pending.items():
        users = {origin.parent.parent for origin in sources.get(source, {}) if origin is not None}
        copies = bad.get(source, [])
        if any(c.parent.parent in users for c in copies):
            raise _no_good_copy(name, number, ident, text, copies, problems)
        unused[source] = copies
    return unused


def _stage_cards(stage: Staging, sources: dict[str, dict[Path | None, str]], folder: Path,
                 inputs: Sequence[Path] = (), chosen: dict[str, Path | None] | None = None
                 ) -> tuple[list[str], dict[str, list[str]]]:
    """Stage each card copy (and its translations sidecar) for ``folder / source`` where no such file is there
    yet; the sources staged, and per input the sources not found beside it that no other input supplies and that
    are not at the destination already (s60 new user N5: a pipe input was warned about a copy another input gave).

    The copies are copied byte for byte; whether one changed since its items were made was judged line by line
    before (:func:`join_items`, by ``ipb verify``'s rule: s59 B3's stale copy that changes a gold is refused there).

    Raises
    ------
    WriteError
        ``folder / "ipb-cards"`` is there but not a folder.
    """
    copied: list[str] = []
    missing: dict[str, list[str]] = {}
    plan: list[tuple[Path, Path]] = []
    for source, origins in sorted(sources.items()):
        target = folder / source
        found = None
        lacking: list[str] = []
        for origin, name in origins.items():
            if origin is None or not origin.is_file():  # None: standard input, with no copies beside it
                lacking.append(name)
                continue
            found = found or origin
        if chosen is not None and source in chosen:  # the copy judged line by line (s62 new user N6)
            found = chosen[source]
            if found is None:  # only changed copies that fail, beside inputs whose items do not name it
                lacking = list(origins.values())
        elif found is None:  # s61 new user N4: beside an input none of whose lines was kept (``cat A | join - A``)
            found = next((f / source for f in inputs if (f / source).is_file()), None)
        if target.exists() and not target.is_file():
            raise WriteError(f"cannot write the card copy {target}: it is {file_kind(os.lstat(target).st_mode)}",
                             file=str(target), rule="file")
        if found is None and not target.is_file():  # s60 new user N5: another input's copy, or one at out, serves
            for name in lacking:
                missing.setdefault(name, []).append(source)
        if target.is_file():
            continue
        if found is not None and not _same_folder(found.parent, target.parent):
            plan.append((found, target))
    cards = folder / CARD_COPIES
    if plan and (cards.exists() or cards.is_symlink()) and not cards.is_dir():
        raise WriteError(f"cannot write the card copies to {cards}: it is {file_kind(os.lstat(cards).st_mode)}, "
                         "not a folder; move it away", file=str(cards), rule="file")
    if plan:
        cards.mkdir(exist_ok=True)
    for origin, target in plan:
        stage.text(target, _read_exact(origin))
        copied.append(str(target.relative_to(folder)))
        sidecar = origin.with_suffix(".translations.yaml")
        side_target = target.with_suffix(".translations.yaml")
        if sidecar.is_file() and not side_target.exists():
            stage.text(side_target, _read_exact(sidecar))
            copied.append(str(side_target.relative_to(folder)))
    return copied, missing


def _read_exact(path: Path) -> str:
    with open(path, encoding="utf-8", newline="") as handle:
        return handle.read()


def _same_folder(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False

"""Which card ``ipb verify`` checks each of the items' cards against, and whether it is the one the items were made
with (s53newuser finding 10).

After a card edit a user ran ``ipb verify items.jsonl`` and read "500 of 500 verified": the edited card was in no
folder ``ipb verify`` searches, so every item was re-executed against its own copy (``ipb-cards/<sha256>.yaml``),
which cannot disagree with it. :func:`card_sources` says, per card id of the items, what was found and where, so the
command can say so: a current card whose hash differs from the items' is a warning naming both hashes (the run
fails only where a gold no longer matches: docs/perturbation.md, "Verifying items after a card edit"), and a card
taken from the items' own copy is named as such.

:class:`ChangedCopies` applies the same rule for ``ipb join`` (s60 new user N6): a card copy that no longer hashes to
its name is judged by re-executing the items that name it, as ``ipb verify`` does; an item whose check fails (its
gold, a constraint or a range no longer agrees with the copy) is an error in both, and a copy that changed without
that is the one warning of :func:`card_source_lines` in both.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping, Sequence

from ipb.engine.registry import bundled_card_paths, card_file_sha256, copy_dirs, find_card, item_card_pairs
from ipb.errors import IpbError

__all__ = ["card_sources", "card_source_lines", "ChangedCopies"]


def card_sources(items: str | Path, overrides: Mapping[str, str] | None = None) -> list[dict[str, Any]]:
    """Per (card id, sha256) pair of an items file's manifests, the card ``ipb verify`` checks it against.

    Call it after the card search is set (:func:`ipb.engine.registry.use_cards` with the items file, as
    :func:`ipb.perturb.verify.verify_items` does). Each entry: ``id``, ``item_sha256`` (the hash the items were made
    with), ``file`` and ``sha256`` of the card found (None where none is found: the items report that card as
    unreadable), ``source`` (``--card``, ``folder`` for ``--cards`` / IPB_CARDS, ``bundled``, ``copy`` for the
    items' own copy, or ``none``) and ``changed`` (the found card's hash differs from the items').
    """
    overrides = overrides or {}
    copies = {d.resolve() for d in copy_dirs()}
    bundled = {p.resolve() for p in bundled_card_paths()}
    out: list[dict[str, Any]] = []
    for card_id, sha in item_card_pairs(items):
        entry: dict[str, Any] = {"id": card_id, "item_sha256": sha, "file": None, "sha256": None, "source": "none",
                                 "changed": False}
        try:
            path = find_card(overrides.get(card_id, card_id), sha, current_first=True)
            found = card_file_sha256(path)
        except (IpbError, OSError):
            out.append(entry)
            continue
        where = path.resolve()
        source = ("--card" if card_id in overrides else "copy" if where.parent in copies
                  else "bundled" if where in bundled else "folder")
        entry.update(file=str(path), sha256=found, source=source, changed=found != sha)
        if source != "copy":  # the items' own copy, not checked against here, may still have been edited
            copy = next((d / f"{sha}.yaml" for d in copy_dirs() if (d / f"{sha}.yaml").is_file()), None)
            if copy is not None and (copy_sha := card_file_sha256(copy)) != sha:
                entry["copy_changed"] = {"file": str(copy), "sha256": copy_sha}
        out.append(entry)
    return out


def own_copy_line(card_id: str, item_sha256: str, copy: str, copy_sha256: str, checked: str) -> str:
    """The warning ``ipb verify`` and ``ipb join`` give for the items' own copy of a card (``ipb-cards/<sha256>.yaml``)
    that changed since the items were made while another card of that id (``checked``: a bundled card, a ``--cards``
    or ``IPB_CARDS`` one) is the one ``ipb verify`` checks the items against (s61nfix: verify said nothing of such a
    copy, join judged it, and ``ipb respond`` and ``ipb score`` refuse it).

    >>> own_copy_line("c", "a" * 64, "ipb-cards/a.yaml", "b" * 64, "c.yaml, bundled with ipb")[:73]
    "warning: the items' own copy of card 'c' (ipb-cards/a.yaml) changed since"
    """
    return (f"warning: the items' own copy of card {card_id!r} ({copy}) changed since the items were made: they were "
            f"made with sha256 {item_sha256[:12]}..., the copy has sha256 {copy_sha256[:12]}...; ipb verify checks the "
            f"items against {checked}, ipb join against the copy it carries (an item whose gold the copy changes stops "
            "the join), and ipb respond and ipb score refuse the copy: put back the copy the run wrote")


def card_source_lines(sources: list[Mapping[str, Any]]) -> list[str]:
    """The lines ``ipb verify`` prints under its count about the cards it checked against ("" entries left out).

    >>> card_source_lines([{"id": "c", "item_sha256": "a" * 64, "sha256": "b" * 64, "file": "c.yaml",
    ...                     "source": "folder", "changed": True}])[0][:96]
    "warning: card 'c' changed since the items were made: they were made with sha256 aaaaaaaaaaaa..."
    >>> card_source_lines([{"id": "c", "item_sha256": "a" * 64, "sha256": "a" * 64, "file": "ipb-cards/a.yaml",
    ...                     "source": "copy", "changed": False}])[0][:60]
    "note: card 'c' was checked against the items' own copy (ipb-"
    """
    lines = []
    for s in sources:
        moved = s.get("copy_changed")
        if moved:
            lines.append(own_copy_line(str(s["id"]), str(s["item_sha256"]), moved["file"], moved["sha256"],
                                       f"{s['file']}, {_SOURCES.get(str(s['source']), s['source'])}"))
        if s.get("changed"):
            lines.append(f"warning: card {s['id']!r} changed since the items were made: they were made with sha256 "
                         f"{str(s['item_sha256'])[:12]}..., the card found now ({s['file']}, "
                         f"{_SOURCES.get(str(s['source']), s['source'])}) has sha256 {str(s['sha256'])[:12]}...; every "
                         "item was re-executed against the card found now, and fails only where its gold no longer "
                         "matches")
        elif s.get("source") == "copy":
            lines.append(f"note: card {s['id']!r} was checked against the items' own copy ({s['file']}): no card "
                         "with that id is in --card, --cards, IPB_CARDS or the bundled cards, and the copy always "
                         "agrees with the items; to check them against an edited card, give it with "
                         f"--card {s['id']}=PATH or its folder with --cards DIR")
    return lines


_SOURCES = {"--card": "given with --card", "folder": "from a --cards / IPB_CARDS folder", "bundled": "bundled with ipb",
            "copy": "the items' own copy"}


class ChangedCopies:
    """``ipb verify``'s rule for a card that changed since its items were made, applied one item line at a time
    (``ipb join``, s60 new user N6: a copy with an edited description passed ``ipb verify`` with a warning but made
    ``ipb join`` refuse, so a release that verified could not be joined).

    :meth:`changed` says whether a card copy differs from the hash the items were made with (the hash of
    :func:`ipb.engine.registry.card_file_sha256`, which, like the card's ``content_hash``, counts neither line ends
    nor a byte-order mark); :meth:`check` re-executes one item line against given card files with the checker of
    :func:`ipb.perturb.verify.verify_lines`, so its status is the one ``ipb verify`` gives that line; :meth:`warnings`
    are :func:`card_source_lines` of every changed copy met.
    """

    def __init__(self) -> None:
        self._found: dict[tuple[str, str], str | None] = {}
        self._changed: dict[tuple[str, str, str], dict[str, Any]] = {}
        self._checkers: dict[tuple[tuple[str, str], ...], Any] = {}
        self._items: str | None = None

    def changed(self, card_id: str, item_sha256: str, path: Path) -> bool:
        """Whether the card file ``path`` (a copy of ``card_id``) no longer hashes to ``item_sha256``; remembered for
        :meth:`warnings` when it does."""
        key = (str(path), item_sha256)
        if key not in self._found:
            found = card_file_sha256(path)
            self._found[key] = found if found != item_sha256 else None
        found = self._found[key]
        if found is None:
            return False
        entry: dict[str, Any] = {"id": card_id, "item_sha256": item_sha256, "file": str(path), "sha256": found,
                                 "source": "copy", "changed": True}
        elsewhere = self._elsewhere(card_id)
        if elsewhere is not None:  # ipb verify checks the items against that card, and warns of the copy as here
            entry = {"id": card_id, "item_sha256": item_sha256, "file": str(elsewhere), "sha256": item_sha256,
                     "source": "bundled", "changed": False, "copy_changed": {"file": str(path), "sha256": found}}
        self._changed.setdefault((card_id, item_sha256, str(path)), entry)
        return True

    @staticmethod
    def _elsewhere(card_id: str) -> Path | None:
        """The bundled card ``card_id``, which ``ipb verify`` checks items against before their own copy; None
        when there is none."""
        return next((p for p in bundled_card_paths() if p.stem == card_id), None)

    def check(self, line: int, text: str, cards: Mapping[str, str],
              items: str | Path | Sequence[str | Path] | None = None) -> Any:
        """The :class:`ipb.perturb.verify.RecordCheck` ``ipb verify`` gives the item ``text`` (line ``line``) when its
        cards are the files ``cards`` (card id -> path; other cards as the card search finds them). With ``items``
        (the items file the line is from), the card search is first set as ``ipb verify ITEMS`` sets it
        (:func:`ipb.engine.registry.use_cards`), so the lookups verify makes through the items' own copies (condition
        B's knowledge of the cards an investor lists) find the same files. ``items`` may be several items files, whose
        ``ipb-cards/`` folders are searched in that order (``ipb join``: the output's first, as ``ipb verify OUT``
        will find its copies there; s62 new user N3)."""
        from ipb.engine.registry import use_cards, use_items
        from ipb.perturb.verify import _Checker

        if items is not None:
            order = [str(items)] if isinstance(items, (str, Path)) else [str(i) for i in items]
            if "\0".join(order) != self._items:
                use_cards((), order[0])
                for more in order[1:]:
                    use_items(more, pin=False)
                self._items = "\0".join(order)
                self._checkers.clear()
        key = tuple(sorted(cards.items()))
        checker = self._checkers.get(key)
        if checker is None:
            checker = self._checkers[key] = _Checker(dict(cards))
        return checker.check(line, line, text)

    def warnings(self, leave_out: frozenset[str] = frozenset()) -> list[str]:
        """:func:`card_source_lines` of every changed copy met, in the order met, but the files in ``leave_out``
        (``ipb join``: copies tried and not carried, s62 new user N6)."""
        return card_source_lines([e for (_, _, path), e in self._changed.items() if path not in leave_out])

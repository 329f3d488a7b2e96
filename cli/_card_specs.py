"""The ``--card SPEC`` option of ``ipb verify`` and ``ipb respond``: a card file for a card id.

SPEC is ``ID=PATH``, or a card file's path alone, whose id is read from the card (as ``ipb perturb --card FILE`` and
``ipb check --card FILE`` take it): s64 new user F8 (verify) and s65 (respond) both refused a path with
"--card expects ID=PATH".
"""

from __future__ import annotations

import os

from ipb.engine.registry import compiled_card
from ipb.errors import LoadError

__all__ = ["card_spec", "card_spec_paths", "check_card_file"]


def check_card_file(spec: str, path: str) -> None:
    """One error naming ``--card`` and the file when a ``--card`` file is missing, not a regular file,
    unreadable or not a valid card (s56fixrep: a missing one was reported once per record, 1,000 "unreadable")."""
    if not os.path.exists(path):
        raise LoadError(f"--card {spec}: no such card file: {path}", file="--card", rule="card")
    if not os.path.isfile(path):
        raise LoadError(f"--card {spec}: {path} is not a regular file", file="--card", rule="card")
    try:
        with open(path, "rb"):
            pass
    except OSError as exc:
        raise LoadError(f"--card {spec}: cannot read {path}: {exc.strerror or exc}", file="--card",
                        rule="card") from None
    compiled_card(path)  # a broken card: its own load or compile error, naming the file, once


def card_spec(spec: str) -> tuple[str, str]:
    """(card id, file) of one ``--card SPEC``: from ``ID=PATH``, or from a card file's path alone, whose id is read
    from the card. A SPEC that names an existing file is a path even with a ``=``.

    Raises
    ------
    LoadError
        SPEC is neither an existing file nor ``ID=PATH`` with both parts, or its file is missing, unreadable or
        not a valid card (the card's own error, naming the file), or is a card of another id than ID.
    """
    if os.path.isfile(spec) or "=" not in spec:
        if not os.path.lexists(spec):
            raise LoadError(f"--card expects a card file or ID=PATH, got {spec!r}: no such card file", file="--card",
                            rule="card")
        check_card_file(spec, spec)
        return compiled_card(spec).card.id, spec
    ident, _, path = spec.partition("=")
    if not ident or not path:
        raise LoadError(f"--card expects a card file or ID=PATH, got {spec!r}", file="--card", rule="card")
    check_card_file(spec, path)
    declared = compiled_card(path).card.id
    if declared != ident:  # s65 breaker 1: respond gave the model another card and recorded it as matching
        raise LoadError(f"--card {spec}: {path} is card {declared!r}, not {ident!r}; give --card {declared}={path}, "
                        "or the file's path alone", file="--card", rule="card")
    return ident, path


def card_spec_paths(specs: list[str]) -> dict[str, str]:
    """Card id -> file for every ``--card SPEC`` (:func:`card_spec`), a later SPEC of an id replacing an earlier."""
    return dict(card_spec(spec) for spec in specs)

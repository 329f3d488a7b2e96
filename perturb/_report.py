"""The ``--report`` document of ``ipb perturb``: the run's report with a format version, no local paths.

s59 new user F-C12: the report had no ``version``, no schema, and its notes named the install path of the
bundled registries ("/work/.../frameworks/sectors.yaml"), so a shipped report told where the publisher's
checkout lived. :func:`report_document` adds ``version`` and ``kind`` (schema ``grammar/perturb_report.schema.json``,
``ipb schema perturb_report``) and writes every path in its text relative: a bundled file as
``frameworks/NAME`` (or the package's own relative path), a file beside a card relative to that card's folder.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable

__all__ = ["REPORT_VERSION", "REPORT_KIND", "report_document", "relative_paths"]

#: The ``version`` of the ``--report`` format (1: s59userA, the first with a version).
REPORT_VERSION = 1
#: The ``kind`` of the ``--report`` document.
REPORT_KIND = "ipb.perturb.report"


def _package_root() -> str:
    """The folder that holds the bundled ``frameworks/`` (the package's data), so they read ``frameworks/NAME``."""
    from importlib import resources

    return str(Path(str(resources.files("ipb.frameworks"))).resolve().parent)


def relative_paths(value: Any, roots: Iterable[str]) -> Any:
    """``value`` (JSON data) with each ``ROOT/`` in its strings and keys removed, the longest root first.

    >>> relative_paths({"notes": ["ranges of /opt/ipb/frameworks/sectors.yaml"], "n": 3}, ["/opt/ipb"])
    {'notes': ['ranges of frameworks/sectors.yaml'], 'n': 3}
    """
    prefixes = sorted({r.rstrip("/") + "/" for r in roots if r and r.strip("/")}, key=len, reverse=True)

    def fix(v: Any) -> Any:
        if isinstance(v, str):
            for prefix in prefixes:
                v = v.replace(prefix, "")
            return v
        if isinstance(v, dict):
            return {fix(k): fix(x) for k, x in v.items()}
        if isinstance(v, list):
            return [fix(x) for x in v]
        return v

    return fix(value)


def report_document(result: Any, cards: Iterable[str]) -> dict[str, Any]:
    """The ``--report`` JSON of ``result`` (a :class:`ipb.perturb.runs.Generation`) for a run of ``cards``
    (their files): ``version`` and ``kind`` first, then the report, its paths relative (:func:`relative_paths`
    with the ipb package's folder and each card's folder as roots)."""
    roots = [_package_root()]
    for card in cards:
        folder = Path(card).resolve().parent
        roots += [str(folder), str(Path(card).absolute().parent)]
    body = relative_paths(result.to_dict(), roots)
    return {"version": REPORT_VERSION, "kind": REPORT_KIND, **body}

"""Gate names in other languages, per card: the translations sidecar (issue 13; paper §7.5 structured response parsing).

Models answer in the user's language and name a card's gates in it ("Margen de seguridad", "安全边际", "Запас
прочности"). The card holds English names and aliases only (its bytes are pinned by the items made from it), so the
other languages live beside it, as data:

* a bundled card's names are ``frameworks/translations/<card_id>.yaml`` (package data, read through
  ``importlib.resources``);
* a card given by path (a new author's card outside the package) has its names in ``<card stem>.translations.yaml``
  beside it (``my_card.yaml`` -> ``my_card.translations.yaml``); that file, when present, is used before a bundled one
  of the same id.

The format (``grammar/translations.schema.json``)::

    version: 1
    card: <card_id>
    gates:
      <gate_id>:
        de: [Sicherheitsmarge]
        zh: [安全边际, 安全边际检验]

Every name of every language is read by the response parser as an alias of its gate (:mod:`ipb.scoring.parse._card`):
in a label, a heading, a table row or a sentence; never by the embedding fallback. ``ipb check`` validates a sidecar
(:func:`sidecar_errors`) and notes a card that has none (:func:`missing_note`).
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Mapping

import jsonschema

from ipb.engine._json import _schema_errors
from ipb.engine._yaml import YamlDoc, load_yaml, load_yaml_file
from ipb.errors import ErrorGroup, IpbError, LoadError, did_you_mean

__all__ = ["LANGUAGES", "OPTIONAL_LANGUAGES", "SIDECAR_SUFFIX", "GateNames", "load_gate_names", "sidecar_path", "gate_names", "name_languages", "sidecar_errors",
           "missing_note", "is_sidecar"]

#: The languages every bundled sidecar gives for every gate (those of ``grammar/languages.yaml``).
LANGUAGES: tuple[str, ...] = ("de", "fr", "es", "pt", "it", "nb", "da", "sv", "vi", "ru", "zh", "ja", "ko", "th", "hi", "id",
                              "ar", "he")
#: Languages the parser reads (``grammar/languages.yaml``) that a sidecar may give, not yet for every bundled card: Polish
#: and Turkish (s39lang2, given for the most-used cards first); Czech, Greek and Dutch (s44langA); Lithuanian, Icelandic,
#: Croatian, Serbian (both alphabets in one list), Slovak, Slovenian, Latvian, Estonian, Swahili, Urdu, Tagalog and Catalan
#: (s47lang, given for ten cards; s48lang added two more). A card that gives one gives it for every gate.
OPTIONAL_LANGUAGES: tuple[str, ...] = ("pl", "tr", "cs", "el", "nl", "lt", "is", "hr", "sr", "sk", "sl", "lv", "et", "sw",
                                       "ur", "tl", "ca")
#: The file name ending of a sidecar beside a card given by path.
SIDECAR_SUFFIX = ".translations.yaml"
#: The folder of the bundled sidecars inside ``ipb.frameworks``.
_FOLDER = "translations"


@dataclass(frozen=True)
class GateNames:
    """One sidecar, loaded: ``names[gate_id][language]`` is that gate's names in that language, as written."""

    card: str
    file: str
    names: Mapping[str, Mapping[str, tuple[str, ...]]]

    def of_gate(self, gate_id: str) -> tuple[str, ...]:
        """Every name of one gate, all languages, each once, in file order (empty for a gate the file leaves out)."""
        return tuple(dict.fromkeys(n for names in self.names.get(gate_id, {}).values() for n in names))


@lru_cache(maxsize=1)
def _validator() -> jsonschema.protocols.Validator:
    schema = json.loads(resources.files("ipb.grammar").joinpath("translations.schema.json").read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(schema)


def _key(name: str) -> str:
    """A name as two gates' names are compared: case-folded, spaces collapsed."""
    return " ".join(name.casefold().split())


def _doc_errors(doc: YamlDoc, gate_ids: tuple[str, ...] | None, card_id: str | None) -> list[IpbError]:
    """Schema errors; then a language code the parser does not know (:data:`LANGUAGES`: "sp" for "es" would be read by
    no one's rule of that language, silently); against the card (``card_id``, ``gate_ids``, when known), a wrong card id,
    unknown gate ids; and a name shared by two gates of the card."""
    errors = _schema_errors(doc, _validator(), "a translations sidecar")
    if errors:
        return errors
    data = doc.data
    for gate_id, languages in data["gates"].items():
        for language in languages:
            if language not in LANGUAGES + OPTIONAL_LANGUAGES:
                errors.append(doc.error(
                    f"unknown language {language!r} for gate {gate_id!r}; the known language codes: "
                    f"{', '.join(LANGUAGES + OPTIONAL_LANGUAGES)}",
                    ("gates", gate_id, language), key=True, rule="translations-language", name=language))
    if card_id is not None and data["card"] != card_id:
        errors.append(doc.error(f"this sidecar names card {data['card']!r}, but it belongs to card {card_id!r}", ("card",),
                                rule="translations-card", name=str(data["card"]), suggestion=card_id))
    if gate_ids is not None:
        for gate_id in data["gates"]:
            if gate_id not in gate_ids:
                guess = did_you_mean(gate_id, list(gate_ids))
                errors.append(doc.error(
                    f"unknown gate id {gate_id!r} in card {data['card']!r}" + ("" if guess else f"; its gates: {', '.join(gate_ids)}"),
                    ("gates", gate_id), key=True, rule="translations-gate", name=gate_id, suggestion=guess))
    owner: dict[str, str] = {}
    for gate_id, languages in data["gates"].items():
        for language, names in languages.items():
            for k, name in enumerate(names):
                other = owner.setdefault(_key(name), gate_id)
                if other != gate_id:
                    errors.append(doc.error(f"{name!r} ({language}) names gate {other!r} too: a name must name one gate",
                                            ("gates", gate_id, language, k), rule="translations-duplicate", name=name))
    return errors


def load_gate_names(text: str, file: str = "<string>", *, card_id: str | None = None,
                    gate_ids: tuple[str, ...] | None = None) -> GateNames:
    """Load a sidecar's text.

    Parameters
    ----------
    text:
        The YAML source (``grammar/translations.schema.json``).
    file:
        Its name, for error locations.
    card_id, gate_ids:
        The card it belongs to, when known: its id must match and every gate id must be one of ``gate_ids``.

    Raises
    ------
    LoadError
        The text is not strict YAML, breaks the schema, names another card or an unknown gate, or gives one name to
        two gates; every problem located by file, line and column (an :class:`ipb.errors.ErrorGroup` when several).
    """
    doc = load_yaml(text, file, collect=True)
    errors = _doc_errors(doc, gate_ids, card_id)
    if errors:
        raise errors[0] if len(errors) == 1 else ErrorGroup(errors)
    names = {gate_id: {language: tuple(v) for language, v in languages.items()} for gate_id, languages in doc.data["gates"].items()}
    return GateNames(card=doc.data["card"], file=file, names=names)


def _bundled(card_id: str) -> Path:
    return Path(str(resources.files("ipb.frameworks"))) / _FOLDER / f"{card_id}.yaml"


def sidecar_path(card_id: str, card_file: str | os.PathLike[str] | None = None) -> Path | None:
    """The sidecar of a card: ``<card stem>.translations.yaml`` beside ``card_file`` when that exists, else the bundled
    ``frameworks/translations/<card_id>.yaml`` when that exists, else None.

    >>> sidecar_path("buffett_share_repurchase").name
    'buffett_share_repurchase.yaml'
    >>> sidecar_path("no_such_card") is None
    True
    """
    if card_file is not None and str(card_file) not in ("", "<string>"):
        path = Path(card_file)
        beside = path.with_name(path.stem + SIDECAR_SUFFIX)
        if beside.is_file():
            return beside
    bundled = _bundled(card_id)
    return bundled if bundled.is_file() else None


@lru_cache(maxsize=256)
def _load_cached(path: str, mtime_ns: int, card_id: str, gate_ids: tuple[str, ...]) -> GateNames:
    return load_gate_names(Path(path).read_text(encoding="utf-8"), path, card_id=card_id, gate_ids=gate_ids)


def gate_names(card: Any) -> dict[str, tuple[str, ...]]:
    """Gate id -> its names in other languages (all languages, each name once) for ``card`` (an
    :class:`ipb.engine.card.Card`); empty when the card has no sidecar.

    Raises
    ------
    LoadError
        The card's sidecar is broken (see :func:`load_gate_names`).
    """
    loaded = _card_sidecar(card)
    if loaded is None:
        return {}
    return {g.id: loaded.of_gate(g.id) for g in card.gates if loaded.of_gate(g.id)}


def _card_sidecar(card: Any) -> GateNames | None:
    """The gate names of ``card``'s sidecar, read once per file version (:func:`_load_cached`), or None without one."""
    path = sidecar_path(card.id, getattr(card, "file", None))
    if path is None:
        return None
    return _load_cached(str(path), path.stat().st_mtime_ns, card.id, tuple(g.id for g in card.gates))


def name_languages(card: Any) -> dict[str, tuple[str, ...]]:
    """Each name of ``card``'s sidecar, as written -> the language codes it is given under, in file order (empty when
    the card has no sidecar): the parser declines a name by its language's rules (``grammar/languages.yaml``,
    ``inflection``).

    Raises
    ------
    LoadError
        The card's sidecar is broken (see :func:`load_gate_names`).
    """
    loaded = _card_sidecar(card)
    if loaded is None:
        return {}
    out: dict[str, tuple[str, ...]] = {}
    for languages in loaded.names.values():
        for language, names in languages.items():
            for name in names:
                out[name] = tuple(dict.fromkeys((*out.get(name, ()), language)))
    return out


def is_sidecar(path: Path) -> bool:
    """Whether ``path`` is a translations sidecar by its place: ``*.translations.yaml``, or a YAML file in a folder
    called ``translations``."""
    return path.name.endswith(SIDECAR_SUFFIX) or (path.parent.name == _FOLDER and path.suffix in (".yaml", ".yml"))


_ID_LINE = re.compile(r"""^id:[ \t]*["']?([^"'\s#]+)""", re.MULTILINE)


def _card_of(path: Path, doc: YamlDoc) -> tuple[Any, IpbError | None]:
    """The card a sidecar belongs to: (card or None, error). Beside a card (``x.translations.yaml`` and ``x.yaml``)
    that card; in a ``translations`` folder the bundled card its ``card`` names (an unknown id is an error)."""
    from ipb.engine.card import load_card

    if path.name.endswith(SIDECAR_SUFFIX):
        card_file = path.with_name(path.name[: -len(SIDECAR_SUFFIX)] + ".yaml")
        if card_file.is_file():
            try:
                card = load_card(card_file)
            except IpbError:
                return None, None  # the card's own errors are reported when it is checked
            return card, None
    named = doc.data.get("card") if isinstance(doc.data, dict) else None
    if not isinstance(named, str):
        return None, None  # the schema says so
    from ipb.engine.registry import bundled_card_paths

    known = {p.stem: p for p in bundled_card_paths()}
    if named not in known:
        guess = did_you_mean(named, list(known))
        return None, doc.error(f"unknown card id {named!r}: a sidecar in a translations folder names a bundled card", ("card",),
                                     rule="translations-card", name=named, suggestion=guess)
    if path.parent.name == _FOLDER and path.stem != named:
        return None, doc.error(f"a bundled sidecar is named after its card: {named}.yaml, not {path.name}", ("card",),
                                     rule="translations-card", name=named)
    return load_card(known[named]), None


def _english_clashes(doc: YamlDoc, card: Any) -> list[IpbError]:
    """A sidecar name that is another gate's English name or alias in the card (``growth runway`` given to gate 2
    while the card calls gate 1 so): the parser reads it as the card's gate, so the sidecar's entry is dead."""
    english: dict[str, str] = {}
    for gate in card.gates:
        for name in (gate.name, *gate.aliases):
            english.setdefault(_key(name), gate.id)
    errors: list[IpbError] = []
    for gate_id, languages in doc.data["gates"].items():
        for language, names in languages.items():
            for k, name in enumerate(names):
                other = english.get(_key(name))
                if other is not None and other != gate_id:
                    errors.append(doc.error(f"{name!r} ({language}) is an English name or alias of gate {other!r} in the card: "
                                            "a name must name one gate", ("gates", gate_id, language, k),
                                            rule="translations-duplicate", name=name))
    return errors


def sidecar_errors(path: Path) -> list[IpbError]:
    """What ``ipb check`` reports for a sidecar file: YAML and schema errors, an unknown card id, unknown gate ids, a
    name shared by two gates (or another gate's English name or alias in the card), each with file, line and column."""
    try:
        doc = load_yaml_file(path, collect=True)
    except ErrorGroup as group:
        return list(group.errors)
    except IpbError as error:
        return [error]
    schema = _schema_errors(doc, _validator(), "a translations sidecar")
    if schema:
        return schema
    card, wrong_card = _card_of(Path(path), doc)
    if wrong_card is not None:
        return [wrong_card]
    if card is None:
        return _doc_errors(doc, None, None)
    return _doc_errors(doc, tuple(g.id for g in card.gates), card.id) or _english_clashes(doc, card)


def missing_note(card: Any) -> str | None:
    """A note for ``ipb check`` when a card has no sidecar (not an error: English answers read without one)."""
    if sidecar_path(card.id, getattr(card, "file", None)) is not None:
        return None
    file = getattr(card, "file", "") or ""
    bundled = file not in ("", "<string>") and Path(file).resolve().parent == _bundled(card.id).parent.parent.resolve()
    where = (f"frameworks/{_FOLDER}/{card.id}.yaml" if bundled or file in ("", "<string>")
             else f"{Path(file).stem}{SIDECAR_SUFFIX} beside it")
    return (f"note: card {card.id!r} has no gate names in other languages; answers in other languages are read by its "
            f"English names only (add {where}: docs/scoring.md, 'Gate names in other languages')")

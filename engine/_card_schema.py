"""A card file's JSON Schema errors, each in the author's words and at the offending line and column.

Split from :mod:`ipb.engine.card` (module size limit), which imports :func:`_schema_errors` from here
(:mod:`ipb.engine.investors` and :mod:`ipb.engine.scenario` take it from there: one schema-error
formatter for every file kind).
"""

from __future__ import annotations

from typing import Any, Mapping

import jsonschema

from ipb.engine._card_checks import date_message
from ipb.engine._yaml import YamlDoc
from ipb.errors import IpbError, LoadError, did_you_mean

__all__: list[str] = []


def _owner(data: Any, path: tuple[Any, ...], what: str) -> str:
    """How an "unknown field" message names the mapping at ``path``: a constraint or an input of a card by its id
    or name (s58user F-K2: ``requires:`` in a constraint was "unknown field 'requires' in the card"), else ``what``.

    >>> _owner({"constraints": [{"id": "cheap"}]}, ("constraints", 0), "the card")
    "constraint 'cheap' of the card"
    >>> _owner({"inputs": {"pe": {}}}, ("inputs", "pe"), "the card"), _owner({}, (), "the card")
    ("input 'pe' of the card", 'the card')
    """
    if len(path) == 2 and path[0] == "constraints" and isinstance(path[1], int):
        entry = data.get("constraints", [])[path[1]] if isinstance(data, Mapping) else None
        ident = entry.get("id") if isinstance(entry, Mapping) else None
        return (f"constraint {ident!r} of {what}" if isinstance(ident, str) and ident
                else f"constraint {path[1] + 1} of {what}")
    if len(path) == 2 and path[0] == "inputs" and isinstance(path[1], str):
        return f"input {path[1]!r} of {what}"
    return what


def _schema_errors(doc: YamlDoc, schema: Mapping[str, Any], what: str) -> list[IpbError]:
    validator = jsonschema.Draft202012Validator(schema)
    found: list[IpbError] = []
    for err in sorted(validator.iter_errors(doc.data), key=lambda e: list(map(str, e.absolute_path))):
        path = tuple(err.absolute_path)
        on_key = False
        message = err.message
        if err.validator == "additionalProperties":
            extra = _extra_keys(err)
            allowed = list(err.schema.get("properties", {}))
            for key in extra:
                # a field of a top-level mapping is named by its place (s60 new user N10: an unknown key under
                # question: was "unknown field 'tone' in the card", as if it stood at the top level)
                place = (f"at {path[0]}.{key} of {what}" if len(path) == 1 and isinstance(path[0], str)
                         else f"in {_owner(doc.data, path, what)}")
                e = LoadError(
                    f"unknown field {key!r} {place}; expected one of: {', '.join(allowed)}",
                    rule="schema:additionalProperties",
                    name=key,
                    suggestion=did_you_mean(key, allowed),
                )
                line, column = doc.locate_key(path + (key,))
                found.append(e.with_location(doc.file, line, column, doc.source_line(line)))
            continue
        if err.validator == "required":
            on_key = bool(path)
        if "propertyNames" in err.schema_path and isinstance(err.instance, str):
            # a key's name is refused: the error's path is the mapping's, so point at the key itself (s64 new user
            # F6: an input named 'ventes_croissance_é' on line 36 was reported at the mapping's first key, 27:3)
            parent: Any = doc.data
            for step in path:
                parent = parent[step] if isinstance(parent, (Mapping, list)) else None
            if isinstance(parent, Mapping) and err.instance in parent:
                path, on_key = path + (err.instance,), True
        if err.validator == "oneOf" and err.context:
            message = min(err.context, key=lambda e: len(e.message)).message
        if err.validator == "type" and not isinstance(err.instance, (dict, list)):
            message = _type_message(err.instance, err.validator_value)
        where = "/".join(map(str, path)) or "the top level"
        e = LoadError(f"{date_message(err, message)} (at {where})", rule=f"schema:{err.validator}")
        line, column = doc.locate_key(path) if on_key else doc.locate(path)
        found.append(e.with_location(doc.file, line, column, doc.source_line(line)))
    return found


def _type_message(value: Any, expected: Any) -> str:
    """A type error in the author's words: YAML's reading of the text, and what to write instead.

    >>> _type_message(True, "string")
    "YAML reads true here as a boolean, but a string (an expression or text) is expected: quote it ('true')"
    >>> _type_message(None, "string")
    "YAML reads null here as nothing (null), but a string (an expression or text) is expected: write the text, or leave the key out (quoted, 'null' would be the word null)"
    """
    kinds = {bool: "a boolean", int: "a whole number", float: "a number", str: "text", type(None): "nothing (null)"}
    read = kinds.get(type(value), type(value).__name__)
    shown = "true" if value is True else "false" if value is False else "null" if value is None else str(value)
    wanted = expected if isinstance(expected, list) else [expected]
    words: dict[str, str] = {"string": "a string (an expression or text)", "integer": "a whole number", "number": "a number",
             "boolean": "true or false", "object": "a mapping (key: value lines)", "array": "a list ([a, b] or - items)",
             "null": "nothing"}
    text = f"YAML reads {shown} here as {read}, but {' or '.join(words.get(str(w), str(w)) for w in wanted)} is expected"
    if "string" in wanted and value is None:  # s61 new user N13: 'null' quoted would be the word "null"
        text += ": write the text, or leave the key out (quoted, 'null' would be the word null)"
    elif "string" in wanted and not isinstance(value, str):
        text += f": quote it ('{shown}')"
    return text


def _extra_keys(err: jsonschema.ValidationError) -> list[str]:
    props = set(err.schema.get("properties", {}))
    instance = err.instance if isinstance(err.instance, dict) else {}
    return [k for k in instance if k not in props]

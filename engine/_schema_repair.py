"""The errors past a card's schema errors, so that ``ipb check`` lists every error in one run.

:func:`~ipb.engine.card.card_from_doc` stops at schema errors: the compiler reads the card's parts by their
shape, and a part of the wrong shape cannot be compiled. But a schema error in one place says nothing about
the expressions elsewhere (s52newuser: a gate missing its ``required_elements`` hid two typos in other gates,
``revenu`` and ``"evasiv"``, until it was fixed). :func:`errors_past_schema` repairs a copy of the card where a
repair cannot change what is compiled, compiles that, and returns the errors it finds outside the parts that
could not be repaired:

* a missing ``required_elements``, ``name`` or other descriptive field is filled with a placeholder (at the top
  level: ``investor``, ``name``, ``topology_rationale``, ``vintage``, ``sources``);
* an unknown field anywhere is dropped (the schema error names it, with "did you mean");
* a gate with any other schema error is replaced by a stand-in that keeps its id and its ``compute`` names (so the
  gates reading them are checked), and errors located inside that gate are not reported (they would be the
  stand-in's).

A card whose ``inputs`` or ``gates`` are missing or malformed, or whose top level has any other schema error,
gets no second pass: its schema errors are all there is to say.
"""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

import jsonschema

from ipb.engine._yaml import YamlDoc
from ipb.errors import ErrorGroup, IpbError

__all__ = ["errors_past_schema"]

#: Top-level fields that no expression reads, and a value of the right shape to stand in for each.
_TOP_FILL: dict[str, Any] = {
    "investor": "-", "name": "-", "topology_rationale": "-", "vintage": {"start": 1900},
    "sources": [{"tier": 1, "document": "-", "year": 1900}],
}


def _gate_fill(gate: dict[str, Any], key: str, index: int) -> Any:
    """A stand-in for a gate's missing descriptive field ``key``, or None when none is safe."""
    return {"required_elements": ["-"], "name": str(gate.get("id") or f"gate {index + 1}"),
            "id": f"gate_{index + 1}"}.get(key)


def _stand_in(gate: Any, index: int) -> dict[str, Any]:
    """A gate that compiles and defines what the broken ``gate`` would define for the gates after it."""
    out: dict[str, Any] = {"id": f"gate_{index + 1}", "name": "-", "required_elements": ["-"], "proceed": "true"}
    if isinstance(gate, dict):
        if isinstance(gate.get("id"), str):
            out["id"] = gate["id"]
        compute = gate.get("compute")
        if isinstance(compute, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in compute.items()):
            out["compute"] = dict(compute)
    return out


def _at(data: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        data = data[step]
    return data


def errors_past_schema(doc: YamlDoc, schema: dict[str, Any]) -> list[IpbError]:
    """The compile errors of the card in ``doc`` that its schema errors hide, as the module docstring says.

    Parameters
    ----------
    doc:
        The card as the strict loader read it; it has at least one schema error against ``schema``.
    schema:
        The card schema (``grammar/card.schema.json``).

    Returns
    -------
    list of IpbError
        Errors with file:line:col in ``doc``, in the order the compiler found them; empty when the card cannot be
        repaired or its repaired copy compiles.
    """
    from ipb.engine.card import card_from_doc  # card.py imports this module's caller; imported late to avoid a cycle

    data = doc.data
    if not isinstance(data, dict) or not isinstance(data.get("inputs"), dict) or not isinstance(data.get("gates"), list):
        return []
    fixed = copy.deepcopy(data)
    broken: set[int] = set()
    for err in jsonschema.Draft202012Validator(schema).iter_errors(data):
        path = tuple(err.absolute_path)
        if err.validator == "additionalProperties" and isinstance(err.instance, dict):
            allowed = set(err.schema.get("properties", {}))
            target = _at(fixed, path)
            for key in [k for k in err.instance if k not in allowed]:
                target.pop(key, None)
            continue
        if not path:
            missing = [str(k) for k in err.validator_value if k not in data] if err.validator == "required" else []
            if err.validator != "required" or any(k not in _TOP_FILL for k in missing):
                return []  # a structural part is missing or wrong: nothing more can be compiled
            fixed.update({k: copy.deepcopy(_TOP_FILL[k]) for k in missing})
            continue
        if path[0] != "gates" or len(path) < 2 or not isinstance(path[1], int):
            return []  # inputs, constants, threshold ... of the wrong shape: every expression may read them
        index, gate = path[1], fixed["gates"][path[1]]
        if len(path) == 2 and err.validator == "required" and isinstance(gate, dict):
            fills = {k: _gate_fill(gate, k, index) for k in err.validator_value if k not in gate}
            if all(v is not None for v in fills.values()):
                gate.update(fills)
                continue
        broken.add(index)
    for index in broken:
        fixed["gates"][index] = _stand_in(data["gates"][index], index)
    spans = [_span(doc, index) for index in sorted(broken)]
    try:
        card_from_doc(dataclasses.replace(doc, data=fixed))
    except ErrorGroup as exc:
        found = exc.errors
    except IpbError as exc:
        found = [exc]
    else:
        return []
    return [e for e in found if not any(lo <= (e.line or 0) < hi for lo, hi in spans)]


def _span(doc: YamlDoc, index: int) -> tuple[int, int]:
    """The lines ``[first, after)`` of gate ``index`` in ``doc`` (to the next gate, or the end of the file)."""
    first = doc.locate(("gates", index))[0]
    gates = doc.data["gates"]
    after = doc.locate(("gates", index + 1))[0] if index + 1 < len(gates) else len(doc.lines) + 1
    return first, after

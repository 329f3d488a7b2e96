"""The report's drill-down: one :class:`~ipb.report.data.ResponseView` per scored record.

Reads back what ``responses.jsonl`` only names: the response texts (from the
scored responses file, checked against each record's ``response_sha256``) and
the gold programs (from the items file), and aligns each target's parsed gates
with the gold ones row by row.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping, Sequence

from ipb._files import file_sha256, text_sha256
from ipb.report.data import GateRow, ResponseView, Stat, _f, _mapping, _opt_str, json_pointer

def _responses(summary: Mapping[str, Any], records: list[tuple[int, dict[str, Any]]], folder: Path, *,
               items: str | Path | None, responses: str | Path | Sequence[str | Path] | None,
               max_responses: int | None) -> tuple[list[ResponseView], list[str]]:
    notes: list[str] = []
    inputs = _mapping(summary.get("inputs"))
    resp_info = _mapping(inputs.get("responses"))
    item_info = _mapping(inputs.get("items"))
    texts: dict[tuple[int | None, int], Mapping[str, Any]] = {}
    given = [responses] if isinstance(responses, (str, Path)) else list(responses or [])
    files = [_mapping(f) for f in resp_info.get("files") or () if isinstance(f, Mapping)]
    found_any = False
    if files:  # several files scored in one run: each record's "file" is its position in this list
        if given and len(given) != len(files):
            notes.append(f"{len(given)} responses file(s) were given for a run that scored {len(files)}, so they were "
                         "not used: each file is looked up where the summary names it (give every file, in the order "
                         "scored).")
        matched = _match_by_digest(given, files) if len(given) == len(files) else [None] * len(files)
        for k, info in enumerate(files, start=1):
            path = _locate(info.get("source"), folder, matched[k - 1], info.get("sha256"))
            if path is None:
                notes.append(f"The scored responses file {info.get('source')} (file {k}) was not found, so its responses "
                             "are shown without their texts (pass every --responses FILE, in the order scored).")
                continue
            found_any = True
            texts.update(((k, n), d) for n, d in _texts(path, str(info.get("format") or "auto"), notes).items())
    else:
        resp_path = _locate(resp_info.get("source"), folder, given[0] if given else None, resp_info.get("sha256"))
        if resp_path is None:
            notes.append("The scored responses file was not found, so the drill-down shows parsed traces without the "
                         "response texts (pass --responses FILE).")
        else:
            found_any = True
            texts = {(None, n): d for n, d in _texts(resp_path, str(resp_info.get("format") or "auto"), notes).items()}
    golds: dict[str, list[Mapping[str, Any]]] = {}
    questions: dict[str, Mapping[str, Any]] = {}
    item_path = _locate(item_info.get("source"), folder, items, item_info.get("sha256"))
    if item_path is None:
        notes.append("The items file was not found, so the drill-down cannot show gold traces (pass --items FILE).")
    else:
        from ipb.engine.registry import resolve_pinned, use_items

        use_items(item_path)  # the items' own cards (ipb-cards/), checked against their sha256
        resolve_pinned()
        golds = _golds(item_path, notes, questions)
    chosen = records if max_responses is None else records[:max_responses]
    if max_responses is not None and len(records) > max_responses:
        notes.append(f"The drill-down holds the first {max_responses} of {len(records)} responses.")
    views = [_view(line, r, texts, golds, found_any, questions) for line, r in chosen]
    return views, notes


def _texts(path: Path, format: str, notes: list[str]) -> dict[int, Mapping[str, Any]]:
    """The respond records read back, by record number (the answer text, and what the prompt was)."""
    from ipb.errors import IpbError
    from ipb.scoring.adapters import read_responses

    out: dict[int, Mapping[str, Any]] = {}
    try:
        for record in read_responses(path, format=format):
            if record.data is not None and isinstance(record.data.get("response"), str):
                out[record.number] = record.data
    except IpbError as exc:
        notes.append(f"The responses file {path} could not be read back ({exc.message}); texts are left out.")
    return out


def _golds(path: Path, notes: list[str], items: dict[str, Mapping[str, Any]] | None = None,
           ) -> dict[str, list[Mapping[str, Any]]]:
    from ipb.engine._json import jsonl_lines, parse_json_line
    from ipb.errors import IpbError, LoadError
    from ipb.perturb.items import golds_of

    out: dict[str, list[Mapping[str, Any]]] = {}
    try:
        raw = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        why = (exc.strerror or exc) if isinstance(exc, OSError) else "it is not UTF-8 text"
        notes.append(f"The items file {path} could not be read ({why}); gold traces are left out.")
        return out
    skipped: list[str] = []
    for number, line in jsonl_lines(raw):  # the project's one JSON Lines reader (nesting limit: s54break item 2)
        try:
            item = parse_json_line(line, str(path), number, exact=False)
            if isinstance(item, dict) and isinstance(item.get("id"), str):
                if items is not None:
                    items[item["id"]] = item
                out[item["id"]] = list(golds_of(item))
        except LoadError as exc:
            skipped.append(str(exc))
        except IpbError:
            continue
    if skipped:
        notes.append(f"{len(skipped)} line(s) of the items file {path} could not be read and their gold traces are "
                     f"left out; the first: {skipped[0]}")
    return out


_KILLS: dict[str, dict[int, str | None]] = {}


def _kills(card_id: str) -> dict[int, str | None]:
    """Gate number -> kill criterion of a card (empty when the card cannot be loaded)."""
    if card_id not in _KILLS:
        from ipb.engine.registry import compiled_card
        from ipb.errors import IpbError

        try:
            card = compiled_card(card_id).card
            _KILLS[card_id] = {g.number: g.kill_criterion for g in card.gates}
        except IpbError:
            _KILLS[card_id] = {}
    return _KILLS[card_id]


def _span(value: Any) -> tuple[int, int] | None:
    if isinstance(value, (list, tuple)) and len(value) == 2 and all(isinstance(v, int) for v in value):
        return int(value[0]), int(value[1])
    return None


def _view(line: int, r: Mapping[str, Any], texts: Mapping[tuple[int | None, int], Mapping[str, Any]],
          golds: Mapping[str, list[Mapping[str, Any]]], have_file: bool,
          items: Mapping[str, Mapping[str, Any]] | None = None) -> ResponseView:
    number = r.get("record")
    file = r.get("file") if isinstance(r.get("file"), int) else None  # several files scored: which one
    data = texts.get((file, number)) if isinstance(number, int) else None
    text = data.get("response") if data is not None else None
    item = (items or {}).get(str(r.get("item_id")))
    question = item.get("question") if item is not None and isinstance(item.get("question"), str) else None
    messages, messages_note = _messages(data, item, r)
    text_note = None
    if text is not None and isinstance(r.get("response_sha256"), str) and text_sha256(text) != r["response_sha256"]:
        text_note = ("This text differs from the one that was scored (SHA-256 mismatch): the responses file changed "
                     "after scoring, so the marked spans may be off.")
    elif text is None and have_file:
        text_note = "The response text of this record could not be read back from the responses file."
    item_golds = golds.get(str(r.get("item_id")), [])
    targets = []
    for t in r.get("targets") or ():
        if not isinstance(t, Mapping):
            continue
        gold = next((g for g in item_golds if g.get("framework") == t.get("card")), None)
        targets.append(_target(t, gold))
    metrics = {}
    for name, value in (r.get("metrics") or {}).items():
        metrics[str(name)] = Stat(_f(value), src=json_pointer("metrics", name), file="responses.jsonl", line=line)
    flags = {str(k): (v if isinstance(v, bool) else None) for k, v in (r.get("flags") or {}).items()}
    corruptions = [str(c.get("name")) if isinstance(c, Mapping) else str(c) for c in (r.get("corruptions") or [])
                   if isinstance(c, (Mapping, str))]
    return ResponseView(
        key=f"r{line}",
        line=line,
        item_id=_opt_str(r.get("item_id")),
        model=_opt_str(r.get("model")),
        condition=_opt_str(r.get("condition")),
        layer=_opt_str(r.get("layer")),
        status=str(r.get("status") or "unscored"),
        reason=_opt_str(r.get("reason")),
        text=text,
        text_note=text_note,
        targets=targets,
        metrics=metrics,
        flags=flags,
        corruptions=corruptions,
        outcome=_opt_str(r.get("outcome")),
        question=question,
        messages=messages,
        messages_note=messages_note,
        why=_why(r),
        source=_opt_str(r.get("source")),
    )


def _target(t: Mapping[str, Any], gold: Mapping[str, Any] | None) -> dict[str, Any]:
    """One target card of a response: the aligned rows, as the drill-down script reads them."""
    parsed = _mapping(t.get("parsed"))
    said: dict[int, tuple[int, Mapping[str, Any]]] = {}
    for order, g in enumerate(parsed.get("gates") or (), start=1):
        if isinstance(g, Mapping) and isinstance(g.get("gate"), int) and g["gate"] not in said:
            said[g["gate"]] = (order, g)
    card_id = str(t.get("card") or "")
    kills = _kills(card_id) if card_id else {}
    rows: list[GateRow] = []
    gold_gates = [g for g in (gold.get("gold_program") or ()) if isinstance(g, Mapping)] if gold else []
    numbers = [g.get("gate") for g in gold_gates] if gold_gates else sorted(said)
    by_number = {g.get("gate"): g for g in gold_gates}
    for number in numbers:
        g = by_number.get(number, {})
        hit = said.get(number) if isinstance(number, int) else None
        position: int | None = hit[0] if hit is not None else None
        stated: Mapping[str, Any] | None = hit[1] if hit is not None else None
        rows.append(_row(number, g, stated, position, kills.get(number) if isinstance(number, int) else None, bool(gold_gates)))
    spans = parsed.get("invented_gate_spans") or []
    for k, name in enumerate(parsed.get("invented_gates") or ()):
        sp = _span(spans[k]) if k < len(spans) else None
        rows.append(GateRow(None, str(name), None, "invented", [], None,
                            [("invented", sp[0], sp[1])] if sp else [], "mismatch"))
    final_span = _span(parsed.get("final_verdict_span"))
    return {
        "card": card_id or None,
        "investor": _opt_str(t.get("investor")),
        "topology": _opt_str(t.get("topology")),
        "status": _opt_str(t.get("status")),
        "reason": _opt_str(t.get("reason")) if t.get("status") != "scored" else None,
        "note": " ".join(n for n in (_opt_str(t.get("note")), None if gold else "The gold trace is not available.")
                         if n) or None,
        "final_gold": _opt_str(gold.get("investment_verdict")) if gold else None,
        "final_said": _opt_str(parsed.get("final_verdict")),
        "final_span": list(final_span) if final_span else None,
        "rows": [
            {"number": row.number, "name": row.name, "gold_verdict": row.gold_verdict,
             "said_verdict": row.said_verdict if row.said_verdict != "invented" else "invented",
             "elements": [{"text": e, "state": st} for e, st in row.elements], "kill": row.kill,
             "spans": [list(sp) for sp in row.spans], "state": row.state, "how": row.how, "order": row.order}
            for row in rows
        ],
    }


def _row(number: Any, gold: Mapping[str, Any], said: Mapping[str, Any] | None, order: int | None,
         kill: str | None, have_gold: bool) -> GateRow:
    gold_verdict = _opt_str(gold.get("verdict")) if have_gold else None
    said_verdict = _opt_str(said.get("verdict")) if said else None
    gold_elements = [str(e) for e in gold.get("required_elements") or ()] if have_gold else []
    said_elements = [str(e) for e in (said.get("elements") or ())] if said else []
    elements = [(e, "found" if e in said_elements else "missing") for e in gold_elements]
    elements += [(e, "extra") for e in said_elements if e not in gold_elements]
    spans: list[tuple[str, int, int]] = []
    if said:
        for kind, key in (("mention", "mention"), ("verdict", "verdict_span")):
            sp = _span(said.get(key))
            if sp:
                spans.append((kind, sp[0], sp[1]))
        for value in said.get("element_spans") or ():
            sp = _span(value)
            if sp:
                spans.append(("element", sp[0], sp[1]))
    if not have_gold:
        state = ""
    elif gold_verdict == "N/A":
        state = "match" if said_verdict in (None, "N/A") else "partial"
    elif said_verdict is None or said_verdict != gold_verdict:
        state = "mismatch"
    else:
        state = "match" if all(st == "found" for e, st in elements if st != "extra") else "partial"
    name = str(gold.get("name") or (said.get("name") if said else "") or f"gate {number}")
    return GateRow(number if isinstance(number, int) else None, name, gold_verdict, said_verdict, elements, kill, spans,
                   state, _opt_str(said.get("how")) if said else None, order)


def _match_by_digest(given: Sequence[str | Path], files: Sequence[Mapping[str, Any]]) -> list[str | Path | None]:
    """The given responses files put in the scored files' order: each to the scored file with its SHA-256, the rest by
    position (an edited file matches no digest and is then flagged text by text).

    ``given`` and ``files`` (the summary's ``inputs.responses.files``) have the same length; returns one path per
    scored file. Files given in another order than scored are thus read back each from its own file.
    """
    out: list[str | Path | None] = [None] * len(files)
    left = list(range(len(given)))
    digests = {j: file_sha256(given[j]) for j in left}  # None for a file that cannot be read
    for k, info in enumerate(files):
        found = next((j for j in left if isinstance(info.get("sha256"), str) and digests[j] == info.get("sha256")),
                     None)
        if found is not None:
            out[k] = given[found]
            left.remove(found)
    for k in range(len(files)):  # no digest matched: by position, among the files left
        if out[k] is None:
            j = k if k in left else left[0]
            out[k] = given[j]
            left.remove(j)
    return out


def _locate(recorded: Any, folder: Path, override: str | Path | None, sha256: Any = None) -> Path | None:
    """The input file the summary names: as given, then beside the results folder.

    The results folder's own files are never taken for inputs (its
    ``responses.jsonl`` is the scored records, not the answers). When the
    summary recorded the file's SHA-256, a candidate with that digest wins.
    """
    if override is not None:
        return Path(override)
    if not isinstance(recorded, str) or not recorded:
        return None
    p = Path(recorded)
    own = {(folder / "responses.jsonl").resolve(), (folder / "summary.json").resolve()}
    raw = [p] if p.is_absolute() else [p, folder / p, folder.parent / p, folder / p.name, folder.parent / p.name]
    candidates: list[Path] = []
    for c in raw:
        try:
            if c.is_file() and c.resolve() not in own and c.resolve() not in [x.resolve() for x in candidates]:
                candidates.append(c)
        except OSError:
            continue
    if isinstance(sha256, str):
        for c in candidates:
            if file_sha256(c) == sha256:
                return c
    return candidates[0] if candidates else None


# --------------------------------------------------------------------------- what the model saw, and why each value


def _messages(data: Mapping[str, Any] | None, item: Mapping[str, Any] | None, record: Mapping[str, Any],
              ) -> tuple[list[dict[str, str]] | None, str | None]:
    """The exact messages of a response, as its respond record kept them, or why there are none.

    ``ipb respond`` writes each request's ``messages`` into its record (since
    issue 14); they are shown as they are, never rebuilt. ``item`` and
    ``record`` are for the reasons. Returns ``(messages, None)`` or
    ``(None, why not)``.
    """
    if data is None:
        return None, "the respond record could not be read back (pass --responses FILE)"
    kept = data.get("messages")
    if isinstance(kept, list) and all(isinstance(m, Mapping) for m in kept):
        return [{"role": str(m.get("role")), "content": str(m.get("content"))} for m in kept], None
    version = data.get("prompt_version")
    if version == "synthetic":
        return None, "a synthetic respondent: no prompt was sent, the answer is rendered from the gold program"
    if version is None:
        return None, "the record names no prompt (a log without prompts, or a hand-written response)"
    return None, (f"the respond record (prompt set {version}, hash {str(data.get('prompt_hash'))[:12]}) predates "
                  "records that keep their messages: rerun ipb respond to see them")


#: Why a metric has no value on a response ("—"), by metric.
_NOT_APPLICABLE = {
    "verdict_acc": "the gold program has no final decision to reproduce",
    "verdict_acc_gates": "no gold gate has a verdict",
    "gra": "no gold gate has a verdict to reconstruct",
    "kccs": "the chain reached no kill gate on this item",
    "sap@1": "no investor is known for this card, or the answer attributes nothing on an item that asks for no "
             "source (SAP is a precision over the attributions made, §7.8)",
    "sap@2": "the card lists no gold source document",
    "sap@3": "the card's sources give no chapter or section",
    "ckca": "not an institutional card (NBIM, CPPIB, PIF) with a triggered kill component",
    "contradiction_coverage": "the item lists no contradictions or tensions",
    "ivp": "IVP needs answers about several investors to the same question_group",
    "ivp_micro": "IVP needs answers about several investors to the same question_group",
    "layer_composite": "this layer's composite needs a judge score (FactAcc for L1-L3, G-Eval for L6/L8): "
                       "run ipb respond --judge",
    "w1_composite": "none of its components applies",
    "basp_strict": "no composite to scale",
    "basp_conjunction": "no BASP-strict gate was evaluated",
}


def _why(r: Mapping[str, Any]) -> dict[str, str]:
    """A sentence per metric saying why the response has that value (or none)."""
    out: dict[str, str] = {}
    owed = r.get("owed") if isinstance(r.get("owed"), Mapping) else None
    if r.get("status") != "scored":
        for name, value in (owed or {}).items():
            out[str(name)] = (f"{r.get('outcome')} ({r.get('reason_code')}): scores {value} here, as on every metric "
                              "it was owed, unless the run excluded failures")
        return out
    targets = [t for t in r.get("targets") or () if isinstance(t, Mapping) and t.get("status") == "scored"]
    for name, value in (r.get("metrics") or {}).items():
        if value is None:
            out[str(name)] = "— " + _NOT_APPLICABLE.get(str(name), "does not apply to this item")
    for t in targets[:1]:
        comp = t.get("layer_composite")
        if isinstance(comp, Mapping) and comp.get("value") is not None:
            terms = " + ".join(f"{w:g} × {k} {_num(comp.get('components', {}).get(k))}"
                               for k, w in (comp.get("weights") or {}).items())
            missing = comp.get("missing") or []
            out["layer_composite"] = (f"{comp.get('name')}: {terms}" + (f"; {', '.join(missing)} not applicable, "
                                      "weights renormalised over the rest" if missing else ""))
        strict = t.get("basp_strict")
        if isinstance(strict, Mapping) and strict.get("value") is not None:
            gates = "; ".join(f"{g.get('metric')}: {g.get('reason')}" for g in strict.get("gates") or ())
            out["basp_strict"] = (f"{strict.get('composite_name') or 'composite'} {_num(strict.get('composite'))} × "
                                  f"{_num(strict.get('factor'))} ({strict.get('denominator') or 'applicable'} "
                                  f"denominator: {strict.get('passed')} passed, {strict.get('not_applicable', 0)} "
                                  f"not applicable of {len(strict.get('gates') or ())}); {gates}")
        parsed: Mapping[str, Any] = t["parsed"] if isinstance(t.get("parsed"), Mapping) else {}
        said = {g.get("gate") for g in parsed.get("gates") or () if isinstance(g, Mapping)}
        if r.get("metrics", {}).get("gcf") is not None:
            out["gcf"] = (f"the answer addresses gates {sorted(n for n in said if isinstance(n, int))} of the card; "
                          "GCF counts the reached gold gates among them")
        if r.get("metrics", {}).get("verdict_acc") is not None:
            out["verdict_acc"] = f"final verdict stated: {parsed.get('final_verdict') or 'none'}"
    if (r.get("metrics") or {}).get("final_contradicts_trace"):  # s63 new user E2, s64 new user F4
        implied = [(t.get("card"), t.get("trace_verdict"), (t.get("parsed") or {}).get("final_verdict"))
                   for t in targets if isinstance(t.get("parsed"), Mapping) and t.get("trace_verdict")]
        per_card = "; ".join(f"on {card} its gate verdicts give {gives}, its stated final is {final}"
                             for card, gives, final in implied)
        out["final_contradicts_trace"] = ("the card's gate logic on this answer's own gate verdicts gives another final "
                                          f"verdict than the one it states{': ' + per_card if per_card else ''}: its final "
                                          "contradicts its trace (scored as the §7.13 composite gives, VerdictAcc 0)")
    review = [e for t in targets for e in (t.get("review") or ()) if isinstance(e, Mapping)]
    if review:  # s63 new user E1: the readings ipb score --min-confidence routed to review, on the response itself
        out["review"] = (f"{len(review)} reading(s) below --min-confidence routed to review, still scored as read: "
                         + "; ".join(f"{e.get('reading')} {e.get('verdict') or 'none'} (confidence "
                                     f"{_num(e.get('confidence'))})" for e in review))
    return out


def _num(value: Any) -> str:
    return "—" if not isinstance(value, (int, float)) else f"{float(value):.3f}"

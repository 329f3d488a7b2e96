"""``ipb parse``: a model's answer as a gate trace (paper §7.5).

    ipb parse CARD RESPONSE [--format table|json] [--no-embed] [--score-cutoff N]

RESPONSE is a text file (``-`` reads standard input). The table shows each
extracted item with where it came from (line:column in RESPONSE) and the
words themselves, each gate verdict and the final verdict with its confidence
(0-1) and the competing reading (runner-up) where there is one; ``json`` prints :meth:`ipb.scoring.parse.ParsedResponse.to_dict`
with character offsets. Exit status: 0 when parsed, 1 on a parse failure
(the trace still printed, with its reason) or an unreadable file. A last line on
standard error says how ``ipb score`` files the answer (scored on its stated
final verdict alone; a refusal, off topic, no commitment; a parse failure)
unless a gate read PROCEED or REJECT: a parse failure here can still be scored
there.
"""

from __future__ import annotations

import json
import re
import sys
from bisect import bisect_right
from decimal import Decimal
from pathlib import Path
from typing import Any, Optional

import typer

from ipb._files import UTF16_SNIFF, utf16_encoding
from ipb.cli._app import _VERDICT_STYLE, RunFormat, _escape, _fail, app, err, flush_stdout, json_printable, out, write_stdout
from ipb.cli._extractors import CACHE_DIR, EXTRACTOR_HELP, LLM_BASE_URL, LLM_MODEL, NO_CACHE, Extractor, llm_extractor
from ipb.engine.registry import loaded_card
from ipb.errors import IpbError, LoadError
from ipb.scoring.parse import DEFAULT_EMBED_CUTOFF, DEFAULT_SCORE_CUTOFF, ParsedResponse, parse_response

__all__ = ["parse"]


@app.command()
def parse(
    card: str = typer.Argument(..., help="Card file or bundled card id the answer responds to."),
    response: Path = typer.Argument(..., help="The answer as a text file; '-' reads standard input."),
    format: RunFormat = typer.Option(RunFormat.table, "--format", "-f", help="table: items with their source text; json: the trace."),
    embed: bool = typer.Option(True, "--embed/--no-embed", help="Use the sentence-embedding fallback for paraphrased gate names."),
    score_cutoff: float = typer.Option(DEFAULT_SCORE_CUTOFF, "--score-cutoff", help="rapidfuzz ratio (0-100) a label needs to match a gate name."),
    embed_cutoff: float = typer.Option(DEFAULT_EMBED_CUTOFF, "--embed-cutoff", help="Cosine similarity a label needs to match a gate by embedding (calibrated for the default MiniLM; see docs/scoring.md)."),
    extractor: Extractor = typer.Option(Extractor.rules, "--extractor", help=EXTRACTOR_HELP),
    llm_model: Optional[str] = LLM_MODEL,
    llm_base_url: Optional[str] = LLM_BASE_URL,
    cache_dir: Optional[Path] = CACHE_DIR,
    no_cache: bool = NO_CACHE,
) -> None:
    """Parse RESPONSE, an answer to an item of CARD, into gates, verdicts, elements and citations."""
    if not 0.0 <= score_cutoff <= 100.0:  # also refuses NaN
        err.print(f"ipb parse: --score-cutoff is a rapidfuzz ratio in [0, 100], not {score_cutoff}", markup=False)
        raise typer.Exit(code=2)
    if not -1.0 <= embed_cutoff <= 1.0:
        err.print(f"ipb parse: --embed-cutoff is a cosine similarity in [-1, 1], not {embed_cutoff}", markup=False)
        raise typer.Exit(code=2)
    try:
        loaded = loaded_card(card)  # the card's gates and words; no decision graph (networkx) is needed to read an answer
        text, decoding = _read(response)
        llm = llm_extractor(extractor, llm_model, llm_base_url, cache_dir, no_cache)
    except IpbError as exc:
        raise _fail(exc) from None
    embedder = None if embed else False
    if embed:
        from ipb.scoring._load_notice import on_model_load

        on_model_load(lambda message: err.print(f"ipb parse: {message} (--no-embed skips it)", markup=False), "ipb parse")
    rules = parse_response(text, loaded, embedder=embedder, score_cutoff=score_cutoff, embed_cutoff=embed_cutoff)
    other = llm(text, loaded, embedder=embedder, embed_cutoff=embed_cutoff) if llm is not None else None
    parsed = other if extractor is Extractor.llm and other is not None else rules
    if decoding is not None:  # never silently: in the trace's notes and on stderr
        for reading in {id(r): r for r in (rules, other) if r is not None}.values():
            reading.notes.append(decoding)
        err.print(f"warning: {response}: {decoding}", markup=False)
    compared = None
    if extractor is Extractor.both and other is not None:
        from ipb.respond.extract import Agreement

        compared = Agreement()
        compared.add(rules, other, len(loaded.gates))
    if format is RunFormat.json:
        doc = parsed.to_dict()
        if compared is not None and other is not None:
            doc = {"rules": doc, "llm": other.to_dict(), "agreement": compared.summary(), "disagreements": compared.disagreements}
        # straight to stdout: the console library would lay out megabytes of JSON; C0 controls are escaped by json,
        # bidirectional and other format characters by json_printable (same value for a JSON reader)
        write_stdout(json_printable(json.dumps(doc, indent=2, ensure_ascii=False)) + "\n")
        flush_stdout()
    else:
        _print_table(parsed, text)
        if compared is not None:
            _print_agreement(compared, text)
    if not parsed.ok:
        err.print(f"parse failure: {parsed.reason}", markup=False)
    _print_filing(text, parsed, loaded)
    if not parsed.ok:
        raise typer.Exit(code=1)


def _print_filing(text: str, parsed: ParsedResponse, card: Any) -> None:
    """One line on stderr: how ``ipb score`` files this answer (its outcome and reason code), so that a parse failure
    here is not read as the score's verdict (s41user: a bare "Final verdict: BUY" is scored, a short decline is a
    refusal). Printed unless a gate read PROCEED or REJECT (then the answer is scored on the trace shown). Without
    the item's gold a final INCONCLUSIVE is taken as no commitment."""
    from ipb.scoring._sections import card_vocabulary
    from ipb.scoring.outcome import filing

    doc = parsed.to_dict()
    if doc.get("status") == "ok" and any(g.get("verdict") in ("PROCEED", "REJECT") for g in doc.get("gates") or ()):
        return  # a gate decided: scored on what the trace shows, nothing to add
    outcome, code, why = filing(text, doc, card_vocabulary(card))
    label = outcome.replace("_", " ") + (f" ({code})" if code and code != outcome else "")
    err.print(f"ipb score: {label} -- {why}", markup=False)


def _read(path: Path) -> tuple[str, str | None]:
    """The answer's text, and a note when bytes that are not UTF-8 had to be replaced (None when none were)."""
    try:
        data = sys.stdin.buffer.read() if str(path) == "-" else path.read_bytes()
    except OSError as exc:
        raise LoadError(f"cannot read response {path}: {exc.strerror or exc}", file=str(path), rule="file") from None
    utf16 = utf16_encoding(data[:UTF16_SNIFF])  # UTF-16 (Windows tools write it), not binary data
    if utf16 is not None:  # a byte-order mark gives the order; without one the NULs did (s63 new user B3)
        codec = "utf-16" if utf16[1] else utf16[0]
        text = data.decode(codec, errors="replace")
        bad = text.count("\ufffd") - data.decode(codec, errors="ignore").count("\ufffd")
        how = "starts with a UTF-16 byte-order mark" if utf16[1] else f"reads as {codec.upper()}"
        return text, (None if not bad else f"the answer {how} but {bad} sequence(s) are not "
                                            "UTF-16: they were replaced by U+FFFD; words around them may be misread")
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as exc:
        text = data.decode("utf-8", errors="replace")
        replaced = text.count("\ufffd") - data.count("\ufffd".encode("utf-8"))
        return text, (f"the answer is not valid UTF-8: {replaced} byte sequence(s) were replaced by U+FFFD, the first at "
                      f"byte {exc.start + 1} (0x{data[exc.start]:02x}); words around them may be misread")


_LINE_STARTS: dict[int, tuple[str, list[int]]] = {}


def _where(text: str, span: tuple[int, int] | None) -> str:
    """``line:col-line:col`` (1-based) of ``span`` in ``text`` (line starts found once per text)."""
    if span is None:
        return ""
    start, end = span
    cached = _LINE_STARTS.get(id(text))
    if cached is None or cached[0] is not text:
        _LINE_STARTS.clear()
        cached = (text, [0, *(m.end() for m in re.finditer("\n", text))])
        _LINE_STARTS[id(text)] = cached
    starts = cached[1]

    def at(pos: int) -> str:
        line = bisect_right(starts, pos)
        return f"{line}:{pos - starts[line - 1] + 1}"

    return f"{at(start)}-{at(end)}"


def _quote(text: str, span: tuple[int, int] | None, limit: int = 70) -> str:
    if span is None:
        return ""
    snippet = " ".join(text[span[0] : span[1]].split())
    if len(snippet) > limit:
        snippet = snippet[: limit - 3] + "..."
    return _escape(repr(snippet)[1:-1])


#: Rows of one kind (numbers, years, citations...) the table shows; the JSON output has them all.
TABLE_ROWS_PER_KIND = 50


def _print_table(parsed: ParsedResponse, text: str) -> None:
    from rich.table import Table
    status = "ok" if parsed.ok else f"parse failure: {parsed.reason}"
    table = Table(title=f"{parsed.card_id}: {status}", title_justify="left", show_lines=True)
    table.add_column("#", justify="right")
    table.add_column("Gate")
    table.add_column("Verdict")
    table.add_column("Conf.", justify="right")
    table.add_column("Elements")
    table.add_column("From (line:col) and text")
    for g in parsed.gates:
        verdict = g.verdict or "-"
        style = _VERDICT_STYLE.get(verdict, "")
        shown = f"[{style}]{verdict}[/]" if style else verdict
        sources = [f"gate ({g.how}) {_where(text, g.mention)} '{_quote(text, g.mention)}'"]
        if g.verdict_span is not None:
            sources.append(f"verdict {_where(text, g.verdict_span)} '{_quote(text, g.verdict_span)}'")
        if g.runner_up is not None:
            sources.append(f"runner-up {g.runner_up} {_where(text, g.runner_up_span)} '{_quote(text, g.runner_up_span)}'")
        for element, span in zip(g.elements, g.element_spans):
            sources.append(f"{_escape(element)}: {_where(text, span)} '{_quote(text, span)}'")
        table.add_row(str(g.gate), _escape(g.name), shown, f"{g.confidence:.2f}", _escape("\n".join(g.elements)), "\n".join(sources))
    out.print(table)
    rows: list[tuple[str, str, str]] = []
    if parsed.final_verdict is not None:
        rows.append(("final verdict", f"{parsed.final_verdict} (confidence {parsed.final_confidence:.2f})",
                     _source(text, parsed.final_verdict_span)))
        if parsed.final_runner_up is not None:
            rows.append(("final runner-up", parsed.final_runner_up, _source(text, parsed.final_runner_up_span)))
    else:
        rows.append(("final verdict", "- (none stated)", ""))
        if parsed.implied_final_verdict is not None:
            rows.append(("implied final verdict", f"{parsed.implied_final_verdict} (not stated; gate {parsed.implied_final_gate} "
                         f"REJECT decides it, confidence {parsed.implied_final_confidence:.2f}; not credited by scoring)", _source(text, parsed.implied_final_span)))
    for inv in parsed.invented:
        rows.append(("invented gate (FM-1)", inv.name, _source(text, inv.span)))
    for y in parsed.years_found:
        rows.append(("year", str(y.year), _source(text, y.span)))
    for a in parsed.attributions:
        rows.append(("attribution", f"{a.investor}: {a.claim}", _source(text, a.span)))
    for c in parsed.citations:
        what = ", ".join(x for x in (c.entity, c.document, str(c.year) if c.year else None) if x)
        rows.append(("citation", what, _source(text, c.span)))
    for n in parsed.numbers:
        rows.append(("number", _number(n.value, n.unit), _source(text, n.span)))
    for s in parsed.reasoning_spans:
        rows.append(("reasoning trace (ignored)", f"{s[1] - s[0]} characters", _where(text, s)))
    for note in parsed.notes:
        rows.append(("note", note, ""))
    extra = Table(show_header=True, box=None)
    extra.add_column("item")
    extra.add_column("value")
    extra.add_column("from (line:col) and text")
    shown_of: dict[str, int] = {}
    for kind, value, source in rows:
        shown_of[kind] = shown_of.get(kind, 0) + 1
        if kind != "note" and shown_of[kind] == TABLE_ROWS_PER_KIND + 1:
            more = sum(1 for r in rows if r[0] == kind) - TABLE_ROWS_PER_KIND
            extra.add_row(kind, f"... and {more} more (--format json lists every one)", "")
        if kind == "note" or shown_of[kind] <= TABLE_ROWS_PER_KIND:
            extra.add_row(kind, _escape(value), source)
    out.print(extra)


def _print_agreement(compared: Any, text: str) -> None:
    """Per field: rules against LLM reading (Cohen's kappa over this answer's gates), then each disagreement with its spans."""
    from rich.table import Table

    summary = compared.summary()
    table = Table(title="rules vs llm extractor", title_justify="left", box=None)
    for col in ("field", "kappa", "agreement", "n"):
        table.add_column(col)
    for name in ("gate_presence", "gate_verdicts", "final_verdict"):
        f = summary[name]
        table.add_row(name.replace("_", " "), "-" if f["kappa"] is None else f"{f['kappa']:.2f}",
                      "-" if f["agreement"] is None else f"{f['agreement']:.2f}", str(f["n"]))
    out.print(table)
    for d in compared.disagreements:
        where = [f"rules {_source(text, tuple(d['rules_span']))}" if d["rules_span"] else "",
                 f"llm {_source(text, tuple(d['llm_span']))}" if d["llm_span"] else ""]
        out.print(_escape(f"disagree on {d['field']}: rules {d['rules']}, llm {d['llm']}  " + "  ".join(w for w in where if w)),
                  markup=False)


def _number(value: float, unit: str) -> str:
    from ipb.engine.execute import format_value

    if unit in ("money", "ratio", "multiple"):
        return f"{format_value(Decimal(str(value)), unit)} ({unit})"
    return f"{value:g} ({unit})"


def _source(text: str, span: tuple[int, int] | None) -> str:
    if span is None:
        return ""
    return f"{_where(text, span)} '{_quote(text, span)}'"

"""``ipb report``: one self-contained HTML page from a results folder.

:func:`write_report` reads ``RESULTS_DIR`` (``summary.json`` and
``responses.jsonl``, as ``ipb score --out`` writes them) through
:func:`ipb.report.data.load_results` and writes a single HTML file:

* the leaderboard: per model, BASP composite, BASP-strict conjunction rate,
  L4 and L7 GRA, VerdictAcc and parse-failure rate, each with its bootstrap
  95% CI (paper §8.7);
* per-layer composites (Table 11 layout), the L4 sub-metrics (Table 13),
  FMDP flag rates (Table 16), per-investor IVP (Table 17), GRA by framework
  topology (the §10.4 hypothesis), and condition deltas when conditions
  A/B/C are present (Table 14, §7.2);
* per model, the radar over {OGRS_k, KCCS, SAP@k, IVP, CKCA} with the FMDP
  flag-rate vector beside it (Appendix D.2), and the composite-vs-GRA
  scatter (Figure 6);
* a drill-down: any response's parsed trace aligned gate by gate with the
  gold trace, mismatches highlighted, and the text span behind each
  extraction marked in the response.

The page needs nothing from a network: the style sheet and the script
(``report_templates/``, package data) are inlined, charts are inline SVG made
by matplotlib with glyphs drawn as paths, and a Content-Security-Policy
forbids every fetch and lets only the report's own script run (allowed by
its SHA-256, never ``'unsafe-inline'``). Every string that comes from the results is escaped
(``html.escape``; the drill-down's data is JSON inside a
``<script type="application/json">`` with ``<``, ``>`` and ``&`` written as
``\\u`` escapes, and the script builds its nodes with ``textContent``).

Each number in a table carries ``data-src``, the JSON pointer of the value
in ``summary.json`` it shows, and ``data-value``, the value itself, so every
figure can be traced to, and checked against, its source.

The same results give byte-identical HTML: no timestamp unless one is
passed, fixed ``svg.hashsalt``, no SVG date, chart ids prefixed per chart.
"""

from __future__ import annotations

import base64
import hashlib
import html
import io
import json
import math
import re
from importlib import resources
from pathlib import Path
from typing import Any, Sequence, cast

from ipb.report.data import (
    ConditionRow,
    Grid,
    LeaderRow,
    Profile,
    ReportData,
    ResponseView,
    Stat,
    FAILURE_RULE_LINK,
    failure_rule,
    failure_rule_in_full,
    json_pointer,
    load_results,
)
from ipb.report.failures import FailureCounts

__all__ = [
    "REPORT_VERSION",
    "render_report",
    "write_report",
    "format_stat",
    "radar_svg",
    "scatter_svg",
]

#: Version of the report page layout (written into ``<meta name="ipb-report-version">``).
REPORT_VERSION = 1

_MISSING = "\u2014"
_PALETTE = ("#1565c0", "#c62828", "#2e7d32", "#6a1b9a", "#ef6c00", "#00838f", "#5d4037", "#ad1457", "#455a64",
            "#9e9d24")


# =========================================================================== numbers


def format_stat(value: float | None, kind: str = "score") -> str:
    """How the report prints a number of ``kind``.

    >>> format_stat(0.90612), format_stat(0.7712, "rate"), format_stat(0.073, "delta"), format_stat(None)
    ('0.906', '77.1%', '+0.073', '\u2014')
    >>> format_stat(-0.0004, "delta")
    '-0.000'
    """
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return _MISSING
    if kind == "rate":
        return f"{100.0 * value:.1f}%"
    if kind == "delta":
        return f"{value:+.3f}"
    if kind == "count":
        return f"{int(value)}"
    return f"{value:.3f}"


def _e(text: Any) -> str:
    return html.escape(str(text), quote=True)


def _caption(text: str) -> str:
    """``text`` escaped, with the failure rule's pointer (:data:`FAILURE_RULE_LINK`) a link to the rule in full."""
    return _e(text).replace(FAILURE_RULE_LINK, f'<a href="#failures">{FAILURE_RULE_LINK}</a>', 1)


def _num_cell(stat: Stat, *, extra_class: str = "") -> str:
    """A ``<td>`` with the value, its CI and the pointers to both."""
    attrs = [f'data-kind="{_e(stat.kind)}"', f'data-file="{_e(stat.file)}"']
    if stat.line is not None:
        attrs.append(f'data-line="{stat.line}"')
    if stat.src is not None:
        attrs.append(f'data-src="{_e(stat.src)}"')
    if stat.derived is not None:
        attrs.append(f'data-derived="{_e(json.dumps(stat.derived, sort_keys=True))}"')
    attrs.append(f'data-value="{_e(_repr(stat.value))}"')
    title = []
    if stat.value is None and not stat.note:
        title.append("no value: nothing here to average (the metric applies to none of these responses, e.g. GRA "
                     "without a gold program, L1-L3/L6/L8 composites without a judge score, CKCA off the "
                     "institutional cards)")
    if stat.n is not None:
        title.append(f"n = {stat.n}" + (f" of {stat.total}" if stat.total is not None else ""))
    if stat.src is not None:
        title.append(f"{stat.file} {stat.src}")
    if stat.note:
        title.append(stat.note)
    body = f'<span class="v">{_e(format_stat(stat.value, stat.kind))}</span>'
    if stat.low is not None and stat.high is not None and stat.value is not None:
        ci_kind = "delta" if stat.kind == "delta" else stat.kind
        body += (f'<span class="ci" data-low="{_e(_repr(stat.low))}" data-high="{_e(_repr(stat.high))}"'
                 + (f' data-src-low="{_e(stat.src_low)}"' if stat.src_low else "")
                 + (f' data-src-high="{_e(stat.src_high)}"' if stat.src_high else "")
                 + f'>[{_e(format_stat(stat.low, ci_kind))}, {_e(format_stat(stat.high, ci_kind))}]</span>')
    if stat.value is not None and stat.n is not None and stat.total is not None:
        body += f'<span class="nofn">n {stat.n} of {stat.total}</span>'
    cls = "num" + (" missing" if stat.value is None else "") + (f" {extra_class}" if extra_class else "")
    return f'<td class="{cls}" {" ".join(attrs)}' + (f' title="{_e("; ".join(title))}"' if title else "") + f">{body}</td>"


def _repr(value: float | None) -> str:
    if value is None:
        return ""
    return repr(float(value)) if not isinstance(value, int) or isinstance(value, bool) else str(value)


# =========================================================================== tables


#: The figures a leaderboard may rank on other than the composite, as its caption names them.
_RANK_LABELS = {"verdict_acc": "VerdictAcc", "gra": "GRA", "basp_strict": "BASP-strict"}


def _leaderboard(rows: Sequence[LeaderRow], pooled: Sequence[str] = (), failures: str = "exclude") -> str:
    from ipb.scoring.metrics.verdict import GRA_INCONCLUSIVE_RULE  # one wording with ipb score's legend

    if not rows:
        return '<p class="lead">No model has a scored response.</p>'
    head = ("<tr><th>#</th><th>Model</th><th class=\"num\">Ranked on</th><th class=\"num\">BASP composite</th>"
            "<th class=\"num\">BASP-strict conjunction</th><th class=\"num\">L4 GRA</th><th class=\"num\">L7 GRA</th><th class=\"num\">VerdictAcc"
            "</th><th class=\"num\">Coverage</th><th class=\"num\">Parse failures</th>"
            "<th class=\"failures\">Refusals, unreadable, unknowns</th><th class=\"num\">Responses"
            "</th></tr>")
    body = []
    for rank, r in enumerate(rows, start=1):
        body.append(
            f'<tr data-model="{_e(r.model)}"><td class="rank">{rank}</td><td class="model">{_e(r.model)}</td>'
            + _num_cell(r.rank) + _num_cell(r.basp) + _num_cell(r.strict) + _num_cell(r.gra_l4) + _num_cell(r.gra_l7)
            + _num_cell(r.verdict_acc) + _num_cell(r.coverage) + _num_cell(r.parse_failure)
            + _failures_cell(r.model, r.failures) + _num_cell(r.n_records) + "</tr>"
        )
    caption = ("Mean over each model's responses with percentile-bootstrap 95% CIs in brackets. BASP "
               "composite: the §7.13 composite of each response's layer (e.g. L7: 0.35 OGRS_k + 0.30 KCCS + 0.20 "
               "VerdictAcc + 0.15 SAP@1), renormalised over the components that apply. BASP-strict conjunction: "
               "share of responses passing every evaluated BASP-strict gate (OGRS, KCCS, SAP, IVP, CKCA; FM-1/3/4/6 "
               "fail theirs; GRA the sixth where defined, §7.15), its SAP gate at the SAP level of the response's "
               "layer composite (SAP@1 on L7, a verb of saying that attributes the reasoning to the investor; "
               "SAP@3 under --basp-composite w1); on L4-L8 an answer that attributes nothing is not scored on SAP "
               "(a precision over the attributions made, §7.8), so an unasked attribution lifts no answer above a "
               "faultless one. L4 and L7 GRA: gate reconstruction accuracy on "
               "the items of that layer (§7.15). VerdictAcc: the final verdict (§7.13); an INCONCLUSIVE one scores 0 "
               f"where the gold is decided ({GRA_INCONCLUSIVE_RULE}). "
               "Coverage: the share of what the model owed that was scored (a refusal, a parse failure, a run "
               "error and an item of the items file with no answer each count against it). "
               + ("Refusals and parse failures COUNT: each scores 0 on every metric it was owed and is in every "
                  "mean, CI and rank (ipb score's default)." if failures == "count" else
                  "Refusals and parse failures are LEFT OUT of every mean here (ipb score --exclude-failures, or a "
                  "summary written before failures counted): read each mean beside its coverage.")
               + " Each cell says how many responses its mean is over (n of N). Rows are ranked by the composite with "
                 "every item the model was asked and never answered (run errors) and every item of the items file it "
                 "has no response to counted as 0, so a model that skipped items ranks below its mean.")
    on = str((rows[0].rank.derived or {}).get("mean") or "")
    if on and "/metrics/layer_composite/" not in on:
        # no model has a composite (an L8 run with no judge): the rows rank on VerdictAcc, and the caption says so
        # rather than "ranked by the composite" over an empty column (s53newuser finding 1)
        caption += (" No model has a BASP composite here (the note under the leaderboard says which layers and why): "
                    f"rows are ranked on {_RANK_LABELS.get(on.rsplit('/', 2)[-2], on.rsplit('/', 2)[-2])} instead, with "
                    "the same zeros for skipped items.")
    if pooled:
        caption += (f" {', '.join(pooled)}: pooled over the conditions answered; the condition table below "
                    "separates them.")
    caption += (" Ranked on: that value, the one each row is ranked by (the BASP composite beside it is the mean over "
                "the model's responses only). " + FAILURES_COLUMN_RULE[failures == "count"])
    if any(r.failures is not None and r.failures.contradicts for r in rows):
        caption += (" Final contradicts own trace: scored answers whose stated final verdict is not the one the "
                    "card's gate logic gives on their own stated gate verdicts (a kill gate's REJECT then INVEST, a met "
                    "threshold then DECLINE); the §7.13 composite gives them OGRS_k and KCCS in full and VerdictAcc 0 "
                    "(no failure mode of §9 covers it), so they are counted here.")
    threshold = next((r.failures.min_confidence for r in rows if r.failures is not None
                      and r.failures.min_confidence is not None), None)
    if threshold is not None:
        caption += (f" For review: the gate and final verdicts read with a confidence below --min-confidence "
                    f"{threshold:g} (the parser's confidence in its reading, not the model's), and the responses "
                    "holding one; routed to review (targets[].review in responses.jsonl), still scored as read and in "
                    "every figure here, none dropped.")
    out = (f'<div class="scroll"><table class="leader" id="leaderboard-table"><caption>{_e(caption)}</caption>'
           f"<thead>{head}</thead><tbody>{''.join(body[:LEADER_ROWS])}</tbody></table></div>")
    if len(body) > LEADER_ROWS:
        # a long board stays usable: its tail is folded, never dropped (s48break: 500 rows on one page)
        out += (f'<details class="more" id="leaderboard-more"><summary>Ranks {LEADER_ROWS + 1} to {len(body)}'
                "</summary>"
                f'<div class="scroll"><table class="leader" id="leaderboard-table-more"><caption>{_e(caption)}'
                f"</caption><thead>{head}</thead><tbody>{''.join(body[LEADER_ROWS:])}</tbody></table></div></details>")
    return out


#: How the leaderboard's "Refusals, unreadable, unknowns" column's counts enter the figures beside it, under
#: ``--exclude-failures`` (False) and the default (True): a figure users rank by must not reward failing (s51report).
FAILURES_COLUMN_RULE = {
    flag: ("Refusals, unreadable, unknowns: per model, its refusals by the kind the scorer gave them (refusal: "
           "declined; empty_response; off_topic; no_commitment: committed to nothing, or only said it did not "
           "know; echo: only restated its prompt), its unreadable answers (parse failures: nothing read), its answers scored on a final verdict "
           "alone (no gate read), each as a count and a share of its usable responses, and its gates read "
           "INCONCLUSIVE (unknown) as a share of the gates read in its scored answers. How each counts: "
           + ("a refusal of any kind and an unreadable answer are WRONG: 0 on every metric it was owed (NED 1, tau "
              "-1), in every mean, CI, the composite, Ranked on and against coverage; "
              if flag else
              "a refusal of any kind and an unreadable answer are LEFT OUT of every mean and CI here "
              "(--exclude-failures) and of the composite, but count against coverage; ")
           + "Ranked on counts a skipped item as 0; an answer scored on a final verdict alone is 0 on every metric "
             "but VerdictAcc (it is in the means and in coverage); an unknown gate is a gate covered for GCF and "
             "OGRS, wrong on GRA unless the gold is INCONCLUSIVE, and an answer with no gate PROCEED or REJECT and "
             "no decided final verdict is a no_commitment refusal; a KCCS unknown (kill gate reached, elements not "
             "told in the answer's language) is LEFT OUT of the KCCS mean and the composite is renormalised over "
             "its other terms. Failure-mode rates are over scored answers only.")
    for flag in (False, True)
}


def _failures_cell(model: str, counts: FailureCounts | None) -> str:
    """The leaderboard cell of ``model``'s refusals by kind, unreadable answers and unknowns, each a count and a
    share (``FAILURES_COLUMN_RULE`` says how each counts)."""
    if counts is None:
        return '<td class="failures missing">\u2014</td>'
    base = json_pointer("groups", "model", model)

    def share(k: int, n: int) -> str:
        return f"{k} of {n} ({format_stat(k / n, 'rate')})" if n else f"{k} of 0"

    lines = [f'<span class="f" data-src="{_e(base)}/n_refusals">refusals {_e(share(counts.n_refusals, counts.n))}'
             + "</span>"]
    if counts.refusals:
        lines.append('<span class="f">by kind: ' + ", ".join(f"{_e(code)} {k}" for code, k in counts.refusals.items())
                     + "</span>")
    lines.append(f'<span class="f" data-src="{_e(base)}/n_parse_failures">unreadable '
                 f"{_e(share(counts.unreadable, counts.n))}</span>")
    if counts.verdict_only:
        lines.append(f'<span class="f" data-src="{_e(base)}/n_trace_unread">verdict only, no gate read '
                     f"{_e(share(counts.verdict_only, counts.n))}</span>")
    lines.append('<span class="f" data-derived="responses.jsonl: targets[].parsed.gates[].verdict == INCONCLUSIVE, '
                 f'scored records of this model">unknown gates {_e(share(counts.gates_unknown, counts.gates_read))}'
                 "</span>")
    if counts.kccs_unknown:
        lines.append(f'<span class="f" data-src="{_e(base)}/n_kccs_unknown">KCCS unknown '
                     f"{_e(share(counts.kccs_unknown, counts.n))}</span>")
    if counts.contradicts:  # s63 new user E2
        lines.append(f'<span class="f contradicts" data-src="{_e(base)}/n_final_contradicts_trace">final contradicts '
                     f"own trace {_e(share(counts.contradicts, counts.n))}</span>")
    if counts.min_confidence is not None:  # s63 new user E1: the readings a person should check, counted
        lines.append(f'<span class="f review" data-src="{_e(base)}/n_review_records">for review (below '
                     f"--min-confidence {counts.min_confidence:g}): {counts.review} reading(s) in "
                     f"{_e(share(counts.review_records, counts.n))} responses, still scored</span>")
    return f'<td class="failures" data-model="{_e(model)}">' + "".join(lines) + "</td>"


def _grid(grid: Grid | None, table_id: str, *, empty: str, models: Sequence[str] = (),
          models_in: str = "columns") -> str:
    """``grid`` as a table; with more than ``LEADER_ROWS`` models, one row per model and the rows past it folded.

    ``models`` is the report's models in rank order and ``models_in`` says whether ``grid`` holds them in its
    ``"columns"`` (Table 11, 16, 17, the topology table) or its ``"rows"`` (Table 13). Up to ``LEADER_ROWS`` models the
    grid is written as it is. Past it, a model-column grid is transposed (500 models made 500-column tables, 1.1 MB
    for FMDP alone, s49report), and the model rows after the first ``LEADER_ROWS`` move into a folded
    ``<details id="{section}-more">`` holding a second table with the same header and caption, as the leaderboard's
    tail is; rows that are not models (``all models``) stay in the open table, after the models.
    """
    if grid is None or not grid.rows or not grid.columns:
        return f'<p class="lead empty">{_e(empty)}</p>'
    caption = f"<caption>{_caption(grid.caption)}</caption>" if grid.caption else ""
    model_axis = grid.columns if models_in == "columns" else grid.rows
    rank_of = {m: i for i, m in enumerate(models, start=1)}
    n_models = sum(1 for m in model_axis if m in rank_of)
    if n_models <= LEADER_ROWS:
        head = "<tr><th></th>" + "".join(f'<th class="num">{_e(c)}</th>' for c in grid.columns) + "</tr>"
        body = []
        for row in grid.rows:
            label = grid.row_labels.get(row, row)
            cells = "".join(_num_cell(grid.get(row, c)) for c in grid.columns)
            body.append(f'<tr data-row="{_e(row)}"><th scope="row">{_e(label)}</th>{cells}</tr>')
        return (f'<div class="scroll"><table class="grid" id="{_e(table_id)}">{caption}<thead>{head}</thead>'
                f"<tbody>{''.join(body)}</tbody></table></div>")

    # one row per model from here on: (row key, its label, the stat in each of the columns)
    if models_in == "columns":
        columns = [(r, grid.row_labels.get(r, r)) for r in grid.rows]
        rows = [(m, [grid.get(r, m) for r, _ in columns]) for m in grid.columns]
    else:
        columns = [(c, c) for c in grid.columns]
        rows = [(m, [grid.get(m, c) for c, _ in columns]) for m in grid.rows]
    head = ('<tr><th class="rank">#</th><th>Model</th>'
            + "".join(f'<th class="num">{_e(label)}</th>' for _, label in columns) + "</tr>")

    def line(key: str, stats: Sequence[Stat]) -> str:
        rank = rank_of.get(key)
        return (f'<tr data-row="{_e(key)}"' + (f' data-model="{_e(key)}"' if rank else "")
                + f'><td class="rank">{rank or ""}</td><th scope="row">{_e(key)}</th>'
                + "".join(_num_cell(s) for s in stats) + "</tr>")

    ranked = sorted((r for r in rows if r[0] in rank_of), key=lambda r: rank_of[r[0]])
    others = [r for r in rows if r[0] not in rank_of]
    shown, folded = ranked[:LEADER_ROWS], ranked[LEADER_ROWS:]
    section = table_id.removesuffix("-table")
    out = (f'<div class="scroll"><table class="grid models-in-rows" id="{_e(table_id)}">{caption}<thead>{head}</thead>'
           f"<tbody>{''.join(line(k, s) for k, s in shown + others)}</tbody></table></div>")
    if folded:
        first, last = rank_of[folded[0][0]], rank_of[folded[-1][0]]
        out += (f'<details class="more" id="{_e(section)}-more"><summary>Ranks {first} to {last}'
                + ("" if last - first + 1 == len(folded) else f" ({len(folded)} models)") + "</summary>"
                f'<div class="scroll"><table class="grid models-in-rows" id="{_e(table_id)}-more">{caption}'
                f"<thead>{head}</thead><tbody>{''.join(line(k, s) for k, s in folded)}</tbody></table></div></details>")
    return out


def _conditions(rows: Sequence[ConditionRow], policy: str = "exclude") -> str:
    head = ("<tr><th>Model</th><th>Subset</th><th class=\"num\">A (closed)</th><th class=\"num\">B (PKB-RAG)</th>"
            "<th class=\"num\">C (oracle)</th><th class=\"num\">Knowledge gap (C\u2212A)</th>"
            "<th class=\"num\">RAG\u2212Oracle (B\u2212C)</th><th class=\"num\">Application gap (1\u2212C)</th></tr>")
    body = "".join(
        f'<tr data-model="{_e(r.model)}" data-row="{_e(r.subset)}"><td class="model">{_e(r.model)}</td>'
        f"<td>{_e(r.subset)}</td>" + _num_cell(r.a) + _num_cell(r.b) + _num_cell(r.c) + _num_cell(r.knowledge_gap)
        + _num_cell(r.rag_minus_oracle) + _num_cell(r.application_gap) + "</tr>"
        for r in rows
    )
    caption = ("Mean BASP composite of the responses under each condition (§7.2), and the deltas with bootstrap 95% "
               "CIs. The deltas are paired by item (an item counts when it was answered under both conditions), so "
               "they can differ from the difference of the column means. " + failure_rule(policy))
    return (f'<div class="scroll"><table class="grid" id="conditions-table"><caption>{_caption(caption)}</caption>'
            f"<thead>{head}</thead><tbody>{body}</tbody></table></div>")


# =========================================================================== charts


def _matplotlib() -> Any:
    try:
        import matplotlib
    except ImportError:
        from ipb.errors import LoadError

        raise LoadError("the report's charts need matplotlib, which the core install leaves out: "
                        "pip install 'ipb[plot]'", rule="dependency") from None

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    return plt


_RC: dict[str, Any] = {
    "font.family": "DejaVu Sans",
    "font.size": 9,
    "svg.fonttype": "path",
    "svg.hashsalt": "ipb-report",
    "path.simplify": False,
    "axes.edgecolor": "#5f6b7a",
    "axes.labelcolor": "#1f2933",
    "xtick.color": "#5f6b7a",
    "ytick.color": "#5f6b7a",
}


def _svg(fig: Any, prefix: str) -> str:
    """``fig`` as SVG markup for inlining: no XML prolog, no date, every id prefixed with ``prefix``."""
    buffer = io.StringIO()
    fig.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None}, bbox_inches="tight", pad_inches=0.05)
    text = buffer.getvalue()
    text = text[text.index("<svg"):]
    ids = set(re.findall(r'\bid="([^"]+)"', text))
    if ids:
        text = re.sub(r'\bid="([^"]+)"', lambda m: f'id="{prefix}-{m.group(1)}"', text)
        text = re.sub(r'(href|xlink:href)="#([^"]+)"',
                      lambda m: f'{m.group(1)}="#{prefix}-{m.group(2)}"' if m.group(2) in ids else m.group(0), text)
        text = re.sub(r"url\(#([^)]+)\)", lambda m: f"url(#{prefix}-{m.group(1)})" if m.group(1) in ids else m.group(0),
                      text)
    return text.strip()


def _chart_text(text: str) -> str:
    r"""``text`` for a chart label: control and format characters (Unicode Cc, Cf) written as visible escapes.

    Model names come from input; matplotlib has no glyph for ``ESC`` and would warn on standard error with the
    raw byte in the message (a terminal would act on it), and a bidi override would reorder the label.

    >>> _chart_text("m\x1b[31m\u202e")
    'm\\x1b[31m\\u202e'
    """
    import unicodedata

    return "".join(c if unicodedata.category(c) not in ("Cc", "Cf") or c in "\u200c\u200d"
                   else (f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}") for c in text)


def radar_svg(profile: Profile, index: int = 0) -> str:
    """Appendix D.2: ``profile``'s radar over its axes, with its FMDP flag rates as bars beside it."""
    plt = _matplotlib()
    import matplotlib

    colour = _PALETTE[index % len(_PALETTE)]
    with matplotlib.rc_context(cast(Any, _RC)):
        fig = plt.figure(figsize=(6.4, 3.1))
        try:
            ax = fig.add_axes((0.07, 0.07, 0.34, 0.70), projection="polar")
            labels = [name for name, _ in profile.axes]
            values = [s.value for _, s in profile.axes]
            k = len(labels)
            ax.set_theta_offset(math.pi / 2)
            ax.set_theta_direction(-1)
            angles = [2 * math.pi * i / k for i in range(k)]
            plotted = [v if v is not None else 0.0 for v in values]
            ax.plot(angles + angles[:1], plotted + plotted[:1], color=colour, linewidth=1.6)
            ax.fill(angles + angles[:1], plotted + plotted[:1], color=colour, alpha=0.18)
            for a, v in zip(angles, values):
                if v is None:
                    ax.plot([a], [0.0], marker="o", markersize=4, markerfacecolor="white", markeredgecolor="#9e9e9e")
                else:
                    ax.plot([a], [v], marker="o", markersize=3.5, color=colour)
            ax.set_xlim(0, 2 * math.pi)
            ax.set_ylim(0, 1)
            ax.set_rlabel_position(180 / k)
            ax.set_yticks([0.25, 0.5, 0.75, 1.0])
            ax.set_yticklabels(["", "0.5", "", "1.0"], fontsize=7)
            ax.set_xticks(angles)
            ax.set_xticklabels([f"{lab}\n{'n/a' if v is None else f'{v:.2f}'}" for lab, v in zip(labels, values)],
                               fontsize=7.5)
            ax.tick_params(axis="x", pad=6)
            ax.grid(color="#d9dee5", linewidth=0.6)
            ax.spines["polar"].set_color("#d9dee5")
            fig.text(0.01, 0.97, _chart_text(profile.model), fontsize=10, fontweight="bold", va="top", color="#1f2933")

            bx = fig.add_axes((0.60, 0.16, 0.36, 0.68))
            names = [fm for fm, _, _ in profile.flags]
            rates = [s.value for _, _, s in profile.flags]
            ys = list(range(len(names)))[::-1]
            bx.barh(ys, [r if r is not None else 0.0 for r in rates], color="#c62828", alpha=0.8, height=0.6)
            for y, r in zip(ys, rates):
                bx.text((r or 0.0) + 0.02, y, "n/a" if r is None else f"{100 * r:.1f}%", va="center", fontsize=7,
                        color="#1f2933")
            bx.set_yticks(ys)
            bx.set_yticklabels([fm for fm, _, _ in profile.flags], fontsize=7.5)
            bx.set_xlim(0, 1.15)
            bx.set_xticks([0, 0.5, 1.0])
            bx.set_xticklabels(["0", "50%", "100%"], fontsize=7)
            bx.spines[["top", "right"]].set_visible(False)
            bx.set_title("FMDP flag rate (FM-1 ... FM-6)", fontsize=8.5, loc="left")
            return _svg(fig, f"radar{index}")
        finally:
            plt.close(fig)


def scatter_svg(rows: Sequence[LeaderRow]) -> str:
    """Figure 6: BASP composite (x) against L4 and L7 GRA (y), one point per model and layer, CIs as bars."""
    plt = _matplotlib()
    import matplotlib
    from matplotlib.lines import Line2D

    with matplotlib.rc_context(cast(Any, _RC)):
        fig, ax = plt.subplots(figsize=(6.4, 4.4))
        try:
            xs: list[float] = []
            ys: list[float] = []
            handles: list[Any] = []
            # past LEADER_ROWS models only the first SCATTER_LABELS (in rank order) get a colour, CIs and a legend
            # entry; the others are grey points with no CIs, under one legend entry (500 labels overlapped, s49report)
            labelled = rows if len(rows) <= LEADER_ROWS else rows[:SCATTER_LABELS]
            grey: dict[str, tuple[list[float], list[float]]] = {"o": ([], []), "^": ([], [])}
            for r in rows[len(labelled):]:
                for stat, marker in ((r.gra_l4, "o"), (r.gra_l7, "^")):
                    if r.basp.value is not None and stat.value is not None:
                        grey[marker][0].append(r.basp.value)
                        grey[marker][1].append(stat.value)
                        xs.append(r.basp.value)
                        ys.append(stat.value)
            for marker, (gx, gy) in grey.items():
                if gx:
                    ax.scatter(gx, gy, s=14, marker=marker, color="#9e9e9e", facecolors="#9e9e9e" if marker == "o"
                               else "white", linewidths=0.9, zorder=2)
            for i, r in enumerate(labelled):
                colour = _PALETTE[i % len(_PALETTE)]
                if r.basp.value is None:
                    continue
                drawn = False
                for stat, marker, filled in ((r.gra_l4, "o", True), (r.gra_l7, "^", False)):
                    if stat.value is None:
                        continue
                    ax.errorbar([r.basp.value], [stat.value], xerr=_err(r.basp), yerr=_err(stat), fmt=marker,
                                color=colour, markersize=7, elinewidth=0.9, capsize=2.5,
                                markerfacecolor=colour if filled else "white", markeredgewidth=1.4, zorder=3)
                    xs += [r.basp.low if r.basp.low is not None else r.basp.value]
                    ys += [stat.low if stat.low is not None else stat.value]
                    drawn = True
                if drawn:
                    handles.append(Line2D([], [], linestyle="none", marker="s", markersize=7, color=colour,
                                          label=_chart_text(r.model)))
            if len(labelled) < len(rows):
                handles.append(Line2D([], [], linestyle="none", marker="s", markersize=5, color="#9e9e9e",
                                      label=f"ranks {len(labelled) + 1} to {len(rows)} (no CIs)"))
            lo = min([0.5] + xs + ys)
            lo = max(0.0, math.floor((lo - 0.05) * 10) / 10)
            ax.plot([lo, 1], [lo, 1], linestyle=(0, (4, 3)), color="#9e9e9e", linewidth=0.9, zorder=1)
            ax.text(1.0, 1.0, "GRA = composite ", ha="right", va="bottom", fontsize=7, color="#9e9e9e")
            ax.set_xlim(lo, 1.02)
            ax.set_ylim(lo, 1.04)
            ax.set_xlabel("BASP composite (all layers)")
            ax.set_ylabel("GRA (gate reconstruction accuracy)")
            ax.grid(color="#eceff3", linewidth=0.6)
            ax.spines[["top", "right"]].set_visible(False)
            handles += [
                Line2D([], [], linestyle="none", marker="o", markersize=7, color="#1f2933", label="L4 items"),
                Line2D([], [], linestyle="none", marker="^", markersize=7, color="#1f2933", markerfacecolor="white",
                       label="L7 items"),
            ]
            ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False, fontsize=8)
            return _svg(fig, "scatter")
        finally:
            plt.close(fig)


def _err(stat: Stat) -> Any:
    if stat.low is None or stat.high is None or stat.value is None:
        return None
    return [[max(0.0, stat.value - stat.low)], [max(0.0, stat.high - stat.value)]]


#: Above this many models the page stays usable: the first ``PROFILE_CHARTS`` profiles (in rank order) are drawn by
#: matplotlib, the rest by :func:`radar_svg_light` inside one folded ``<details>`` (500 matplotlib radars took 10 of
#: the 11 minutes of a 500-model report and 29.5 of its 37 MB, s48break); the first ``LEADER_ROWS`` leaderboard rows
#: are open and the rest are folded below them.
PROFILE_CHARTS = 24
LEADER_ROWS = 50
#: Past ``LEADER_ROWS`` models, Figure 6 gives a colour, CIs and a legend entry to this many models (in rank order)
#: and draws the others as grey points with no CIs; the model-column tables are written with models as rows.
SCATTER_LABELS = 24


def radar_svg_light(profile: Profile) -> str:
    """``profile``'s radar and FMDP flag bars as a small hand-written SVG (no matplotlib), for the folded tail.

    Same content as :func:`radar_svg`: each axis's value (n/a drawn at 0 as an open dot) and each flag rate.

    >>> from ipb.report.data import Stat
    >>> svg = radar_svg_light(Profile("m", [("KCCS", Stat(0.5)), ("IVP", Stat(None))], [("FM-1", "x", Stat(0.25))]))
    >>> "KCCS 0.50" in svg, "IVP n/a" in svg, "FM-1 25.0%" in svg, svg.startswith("<svg")
    (True, True, True, True)
    """
    cx, cy, radius = 110.0, 110.0, 70.0
    k = max(len(profile.axes), 1)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="420" height="220" viewBox="0 0 420 220" role="img" '
             f'aria-label="{_e(_chart_text(profile.model))}" font-family="DejaVu Sans, sans-serif" font-size="9">']
    for ring in (0.25, 0.5, 0.75, 1.0):
        parts.append(f'<circle cx="{cx:g}" cy="{cy:g}" r="{radius * ring:.1f}" fill="none" stroke="#d9dee5"/>')

    def point(i: int, value: float) -> tuple[float, float]:
        angle = 2 * math.pi * i / k  # clockwise from the top, as radar_svg
        return cx + radius * value * math.sin(angle), cy - radius * value * math.cos(angle)

    polygon = []
    for i, (label, stat) in enumerate(profile.axes):
        x, y = point(i, 1.0)
        parts.append(f'<line x1="{cx:g}" y1="{cy:g}" x2="{x:.1f}" y2="{y:.1f}" stroke="#d9dee5"/>')
        lx, ly = point(i, 1.22)
        anchor = "middle" if abs(lx - cx) < 1 else ("start" if lx > cx else "end")
        shown = "n/a" if stat.value is None else f"{stat.value:.2f}"
        parts.append(f'<text x="{lx:.1f}" y="{ly + 3:.1f}" text-anchor="{anchor}" fill="#1f2933">{_e(label)} {shown}</text>')
        px, py = point(i, min(max(stat.value or 0.0, 0.0), 1.0))
        polygon.append(f"{px:.1f},{py:.1f}")
        if stat.value is None:
            parts.append(f'<circle cx="{px:.1f}" cy="{py:.1f}" r="3" fill="#fff" stroke="#9e9e9e"/>')
    if polygon:
        parts.append(f'<polygon points="{" ".join(polygon)}" fill="#1565c0" fill-opacity="0.18" stroke="#1565c0" '
                     'stroke-width="1.6"/>')
    parts.append('<text x="250" y="18" font-size="10" fill="#1f2933">FMDP flag rate (FM-1 ... FM-6)</text>')
    for j, (fm, _name, stat) in enumerate(profile.flags):
        y = 34 + 26 * j
        width = 120.0 * min(max(stat.value or 0.0, 0.0), 1.0)
        shown = "n/a" if stat.value is None else f"{100 * stat.value:.1f}%"
        parts.append(f'<text x="250" y="{y + 11}" fill="#1f2933">{_e(fm)}</text>'
                     f'<rect x="285" y="{y + 2}" width="{width:.1f}" height="12" fill="#c62828" fill-opacity="0.8"/>'
                     f'<text x="{289 + width:.1f}" y="{y + 11}" fill="#1f2933">{_e(fm)} {shown}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _profiles(profiles: Sequence[Profile], policy: str = "exclude") -> str:
    if not profiles:
        return '<p class="lead empty">No model has a scored response.</p>'

    def figure(i: int, p: Profile, svg: str) -> str:
        rows = "".join(f"<tr><th scope=\"row\">{_e(name)}</th>{_num_cell(s)}</tr>" for name, s in p.axes)
        rows += "".join(f"<tr><th scope=\"row\">{_e(fm)} {_e(name)}</th>{_num_cell(s)}</tr>" for fm, name, s in p.flags)
        return (
            f'<figure class="chart profile" data-model="{_e(p.model)}">{svg}'
            f"<figcaption>{_e(p.model)}: mean of each BASP sub-metric over the model's responses (axes with no "
            "applicable response are drawn at 0 and marked n/a; n of N under values). "
            f"{_caption(failure_rule(policy))} Bars: share of scored responses each FMDP detector flagged, of those "
            "where it applies.</figcaption>"
            f'<details class="data"><summary>values</summary><table class="grid">'
            f"<tbody>{rows}</tbody></table></details></figure>"
        )

    head = [figure(i, p, radar_svg(p, i)) for i, p in enumerate(profiles[:PROFILE_CHARTS])]
    out = f'<div class="charts">{"".join(head)}</div>'
    tail = profiles[PROFILE_CHARTS:]
    if tail:
        rest = "".join(figure(i, p, radar_svg_light(p)) for i, p in enumerate(tail, start=PROFILE_CHARTS))
        out += (f'<details class="more" id="profiles-more"><summary>The other {len(tail)} models\' profiles (ranks '
                f"{PROFILE_CHARTS + 1} to {len(profiles)}), drawn plainly</summary>"
                f'<div class="charts">{rest}</div></details>')
    return out


# =========================================================================== drill-down


def _drill_payload(responses: Sequence[ResponseView], metric_names: Sequence[str]) -> str:
    items = []
    for r in responses:
        items.append({
            "key": r.key,
            "line": r.line,
            "item_id": r.item_id,
            "model": r.model,
            "condition": r.condition,
            "layer": r.layer,
            "status": r.status,
            "reason": r.reason,
            "text": r.text,
            "text_note": r.text_note,
            "corruptions": r.corruptions,
            "metrics": {k: s.value for k, s in r.metrics.items()},
            "flags": r.flags,
            "targets": r.targets,
            "outcome": r.outcome,
            "question": r.question,
            "messages": r.messages,
            "messages_note": r.messages_note,
            "why": r.why,
            "source": r.source,
        })
    payload = {"metric_names": list(metric_names), "responses": items}
    return _script_json(payload)


def _script_json(value: Any) -> str:
    """JSON safe inside ``<script type="application/json">``: no ``<``, ``>``, ``&`` or line separators."""
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"), allow_nan=False)
    return (text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


# =========================================================================== the page


def _template(name: str) -> str:
    return resources.files("ipb.report").joinpath("templates", name).read_text(encoding="utf-8")


_DRILL_METRICS = ("w1_composite", "layer_composite", "basp_strict", "ogrs", "ogrs_k", "gcf", "kendall_tau", "kccs",
                  "gra", "verdict_acc", "verdict_acc_gates", "sap@1", "sap@2", "sap@3", "ivp", "ckca", "ned", "nlcs")


def render_report(data: ReportData) -> str:
    """The report page for ``data`` (see the module docstring)."""
    sections: list[tuple[str, str, str]] = []
    # the rule every caption points to, in full, once (s52newuser: ~900 characters under every section)
    rule = (f'<p class="lead" id="failures"><strong>{FAILURE_RULE_LINK}.</strong> '
            f"{_e(failure_rule_in_full(data.policy))}</p>")
    sections.append(("leaderboard", "Leaderboard", _leaderboard(data.leaderboard, [c.model for c in data.conditions],
                                                                 data.policy) + rule))
    sections.append(("layers", "BASP composite by cognitive layer (Table 11)",
                     _grid(data.layers, "layers-table", empty="No layer has scored responses.", models=data.models)))
    sections.append(("l4", "Framework reconstruction: BASP sub-metrics on L4 (Table 13)",
                     _grid(data.l4, "l4-table", empty="No L4 (framework reconstruction) item was scored.",
                           models=data.models, models_in="rows")))
    sections.append(("fmdp", "FMDP flag rates per model (Table 16)",
                     _grid(data.fmdp, "fmdp-table", empty="No failure-mode detector applied to any response.",
                           models=data.models)))
    sections.append(("ivp", "Investor voice precision by investor (Table 17)",
                     _grid(data.investor_ivp, "ivp-table", empty="IVP needs responses about several investors on "
                           "the same question group; none were scored.", models=data.models)))
    sections.append(("topology", "GRA by framework topology (\u00a710.4)",
                     _grid(data.topology_gra, "topology-table", empty="No item with gold gates was scored.",
                           models=data.models)))
    if data.conditions:
        sections.append(("conditions", "Evaluation conditions (Table 14)", _conditions(data.conditions, data.policy)))
    sections.append(("profiles", "BASP profiles and failure modes (Appendix D.2)", _profiles(data.profiles, data.policy)))
    scatter = (f'<div class="charts"><figure class="chart" id="figure6">{scatter_svg(data.leaderboard)}<figcaption>'
               "Figure 6: the BASP composite against gate-level GRA, per model, on L4 (filled circles) and L7 "
               "(open triangles) items, with 95% CIs. A model far below the diagonal writes better prose than it "
               "reconstructs gates. "
               + (f"Past {LEADER_ROWS} models only the first {SCATTER_LABELS} in rank order are coloured, named and "
                  f"drawn with CIs; ranks {SCATTER_LABELS + 1} to {len(data.leaderboard)} are grey points without "
                  "CIs (their values are in the leaderboard). " if len(data.leaderboard) > LEADER_ROWS else "")
               + f"{_caption(failure_rule(data.policy))}</figcaption></figure></div>") if data.leaderboard else ""
    sections.append(("scatter", "Composite against gate reconstruction (Figure 6)", scatter or
                     '<p class="lead empty">No model has a scored response.</p>'))
    drill = ('<p class="lead">Pick a response: its parsed trace is aligned gate by gate with the gold trace '
             "(green: agrees; amber: right verdict but required elements missing, or a verdict stated for a gate "
             "the chain never reached; red: wrong or missing verdict, or a gate the card does not have). Click a "
             "row to mark the words that gate's extraction came from.</p>"
             '<div id="drill-app"></div><noscript><p class="lead">The drill-down needs JavaScript.</p></noscript>')
    sections.append(("drill", "Responses", drill))

    toc = "".join(f'<a href="#{sid}">{_e(title.split(" (")[0])}</a>' for sid, title, _ in sections)
    body = "".join(f'<section id="{sid}"><h2>{_e(title)}</h2>{content}</section>' for sid, title, content in sections)
    sub = [f"Results: {_e(data.source)}"]
    if data.counts:
        sub.append(" \u00b7 ".join(f"{_e(v)} {_e(k)}" for k, v in data.counts.items()))
    if data.generated:
        sub.append(f"Generated {_e(data.generated)}")
    notes = "".join(f"<li>{_e(n)}</li>" for n in data.notes)
    script = _template("report.js")
    # Only the report's own script may run: it is allowed by its SHA-256, so a script that got
    # into the page some other way could not (no 'unsafe-inline' for scripts).
    script_hash = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")
    csp = (f"default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-{script_hash}'; img-src data:; "
           "font-src 'none'; connect-src 'none'; form-action 'none'; base-uri 'none'")
    page = (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{csp}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta name="generator" content="ipb report">'
        f'<meta name="ipb-report-version" content="{REPORT_VERSION}">'
        f'<meta name="ipb-summary-version" content="{_e(data.version)}">'
        f"<title>{_e(data.title)}</title><style>{_template('report.css')}</style></head><body>"
        f'<header class="top"><h1>{_e(data.title)}</h1>' + "".join(f"<p>{s}</p>" for s in sub) + "</header>"
        f'<nav class="toc">{toc}</nav><main>{body}</main>'
        + (f'<footer><ul class="notes">{notes}</ul></footer>' if notes else "<footer></footer>")
        + f'<script type="application/json" id="ipb-responses">{_drill_payload(data.responses, _DRILL_METRICS)}</script>'
        + f"<script>{script}</script></body></html>\n"
    )
    return page


def _refuse_to_replace(out: Path) -> None:
    """A LoadError when ``out`` is a file with something in it that is not an HTML page (s47break: ``ipb report
    results -o results/responses.jsonl`` replaced the scored records with the page, and the run was lost)."""
    from ipb.errors import LoadError

    try:
        if not out.is_file() or out.stat().st_size == 0:
            return
        with open(out, "rb") as handle:
            head = handle.read(512).lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    except OSError:
        return  # (the write says what is wrong)
    if not head.startswith((b"<!doctype html", b"<html")):
        raise LoadError(f"{out} exists and is not an HTML page (a report would replace it: results, items or "
                        "responses are lost that way); give --out another name, or remove the file first",
                        file=str(out), rule="file")


def write_report(
    results_dir: str | Path,
    out: str | Path,
    *,
    items: str | Path | None = None,
    responses: str | Path | Sequence[str | Path] | None = None,
    max_responses: int | None = None,
    title: str | None = None,
    generated: str | None = None,
) -> ReportData:
    """Read ``results_dir`` and write the report page to ``out`` (atomically); returns what it showed.

    Raises
    ------
    LoadError
        The results cannot be read (see :func:`~ipb.report.data.load_results`) or ``out``
        cannot be written.
    """
    from ipb.errors import LoadError
    from ipb.scoring.run import write_atomic

    _refuse_to_replace(Path(out))
    data = load_results(results_dir, items=items, responses=responses, max_responses=max_responses, title=title,
                        generated=generated)
    page = render_report(data)
    try:
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        write_atomic(out, page)
    except OSError as exc:
        raise LoadError(f"cannot write {out}: {exc.strerror or exc}", file=str(out), rule="file") from None
    return data

"""Pictures of a card's decision graph: SVG and PNG.

Two renderers draw the graph of :func:`ipb.engine.graph.compile_card`:

* ``graphviz``: the DOT text of :func:`ipb.engine.render.to_dot` piped
  through the ``dot`` program (Debian package ``graphviz``), used when the
  binary is on ``PATH``;
* ``python``: a layered layout computed here from the networkx graph and
  drawn with matplotlib (Agg backend, DejaVu Sans, which ships with
  matplotlib), so that a machine without Graphviz still draws every card.

``renderer="auto"`` picks Graphviz when ``dot`` exists and falls back to the
pure-Python renderer when it does not (or when ``dot`` fails).

What the picture shows (both renderers): gate numbers and names, each gate's
kill criterion, branch labels (the regimes of a conditional_branch card),
the n-of-m join of a parallel card, re-entry loops with their bound, and the
card's outcomes. With a trace, gates are filled by verdict (PROCEED green,
REJECT red, INCONCLUSIVE amber, N/A grey, :data:`ipb.engine.render.VERDICT_COLOURS`)
and the outcome reached is highlighted (the pure-Python renderer also draws
the kill edge that decided it solid and bold).

The pure-Python layout
----------------------
Layers are longest paths from ``start`` over the graph without its re-entry
edges (the graph is acyclic without them, :func:`compile_card` checks it).
Within a layer a node wants the mean x of its predecessors; nodes are
ordered by that wish (ties: graph order), pushed apart to their widths, and
the row is shifted by the median miss, so a chain stays in one column and a
fan of parallel gates is centred under ``start``. Edges between adjacent
layers are straight; a kill edge, or an edge that skips layers, leaves its
gate sideways and runs along a lane beside the nodes it passes, so kill
edges of a linear chain join one bus into the fail outcome; a re-entry edge
runs up a lane on the left. Box sizes come from the text extents that
matplotlib measures, so labels fit their boxes.

Output is deterministic: the same card and trace give byte-identical SVG
(``svg.hashsalt`` fixed, no date) and PNG (no software or date metadata).

Examples
--------
>>> from ipb.engine.registry import compiled_card
>>> svg = draw(compiled_card("graham_net_net_screen"), format="svg", renderer="python")
>>> svg.data[:5], svg.renderer
(b'<?xml', 'python')
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
from dataclasses import dataclass, field
from typing import Any, Literal, cast

import networkx as nx

from ipb.engine.execute import Trace, weight_note
from ipb.engine.graph import CompiledCard
from ipb.engine.render import VERDICT_COLOURS, _dot_id, to_dot
from ipb.errors import IpbError, did_you_mean

__all__ = [
    "FORMATS",
    "RENDERERS",
    "DrawError",
    "Drawing",
    "Layout",
    "NodeBox",
    "Route",
    "draw",
    "graphviz_binary",
    "layout",
]

#: Image formats :func:`draw` writes.
FORMATS = ("svg", "png")
#: Renderer names accepted by :func:`draw`.
RENDERERS = ("auto", "graphviz", "python")

Format = Literal["svg", "png"]

#: Fill of the outcome a trace reaches (the DOT rendering uses the same blue).
OUTCOME_REACHED = "#1565c0"
_INK = "#263238"
_MUTED = "#607d8b"
_GATE_FILL = "#eef3f8"
_OUTCOME_FILL = "#fafafa"
_KILL = "#b71c1c"
_DPI = 150
_FONT = "DejaVu Sans"
_SIZE = 9.0  # points, node labels
_SMALL = 7.5  # points, edge labels and kill criteria
_GAP_X = 0.35  # inches between boxes in a layer
_GAP_Y = 0.55  # inches between layers
_PAD_X = 0.12  # inches of text padding inside a box
_PAD_Y = 0.08
_LANE = 0.22  # inches between a lane and the boxes it passes
_WRAP = 26  # characters per line of a node label
_EDGE_WRAP = 30
_FAN = 4  # a node with this many edges leaving downwards labels them at their targets


class DrawError(IpbError):
    """A picture could not be made: unknown format or renderer, or Graphviz failed."""

    phase = "draw"


@dataclass(frozen=True)
class Drawing:
    """The bytes of a picture and what made it.

    Attributes
    ----------
    data : bytes
        SVG (UTF-8 XML) or PNG.
    format : str
        ``"svg"`` or ``"png"``.
    renderer : str
        ``"graphviz"`` or ``"python"``.
    note : str or None
        Why ``auto`` fell back to the pure-Python renderer, if it did.
    """

    data: bytes
    format: str
    renderer: str
    note: str | None = None


def graphviz_binary() -> str | None:
    """The path of Graphviz's ``dot`` program, or None when it is not installed.

    ``IPB_GRAPHVIZ_DOT`` names another binary; set it to an empty string to
    pretend Graphviz is absent.
    """
    configured = os.environ.get("IPB_GRAPHVIZ_DOT")
    if configured is not None:
        return shutil.which(configured) if configured else None
    return shutil.which("dot")


def draw(
    compiled: CompiledCard,
    trace: Trace | None = None,
    *,
    format: str = "svg",
    renderer: str = "auto",
    title: str | None = None,
) -> Drawing:
    """Draw ``compiled``'s decision graph, coloured by ``trace`` when given.

    Parameters
    ----------
    compiled : CompiledCard
    trace : Trace, optional
        An executed scenario: gates are filled by verdict and the outcome
        reached is highlighted.
    format : {"svg", "png"}
    renderer : {"auto", "graphviz", "python"}
        ``auto``: Graphviz when :func:`graphviz_binary` finds ``dot``, else
        (or when it fails) the pure-Python renderer.
    title : str, optional
        Replaces the default title (card name, topology and gate logic);
        pure-Python renderer only.

    Returns
    -------
    Drawing

    Raises
    ------
    DrawError
        Unknown ``format`` or ``renderer`` (with a suggestion); ``renderer=
        "graphviz"`` without a ``dot`` binary, or ``dot`` exiting non-zero.
    """
    if format not in FORMATS:
        raise DrawError(f"unknown picture format {format!r}; formats: {', '.join(FORMATS)}", rule="format",
                        name=format, suggestion=did_you_mean(format, list(FORMATS)))
    if renderer not in RENDERERS:
        raise DrawError(f"unknown renderer {renderer!r}; renderers: {', '.join(RENDERERS)}", rule="renderer",
                        name=renderer, suggestion=did_you_mean(renderer, list(RENDERERS)))
    note = None
    if renderer in ("auto", "graphviz"):
        binary = graphviz_binary()
        if binary is None:
            if renderer == "graphviz":
                raise DrawError("the graphviz renderer needs the 'dot' program (Debian package graphviz); "
                                "use --renderer python for the built-in one", rule="renderer", name="graphviz")
            note = None
        else:
            try:
                return Drawing(_graphviz(binary, to_dot(compiled, trace), format), format, "graphviz")
            except DrawError as exc:
                if renderer == "graphviz":
                    raise
                note = f"graphviz failed ({exc.message}); drew with the built-in renderer"
    return Drawing(_python(compiled, trace, format, title), format, "python", note)


def _graphviz(binary: str, dot_text: str, format: str) -> bytes:
    try:
        done = subprocess.run([binary, f"-T{format}"], input=dot_text.encode("utf-8"), capture_output=True,
                              timeout=60, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise DrawError(f"cannot run {binary}: {exc}", rule="graphviz") from None
    if done.returncode != 0 or not done.stdout:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise DrawError(f"{binary} exited with status {done.returncode}: {message[-1] if message else 'no output'}",
                        rule="graphviz")
    return done.stdout


# --------------------------------------------------------------------------- layout


@dataclass
class NodeBox:
    """A node's box: centre ``x``, ``y`` and size ``w``, ``h`` in inches (y grows upwards)."""

    key: str
    kind: str
    layer: int
    lines: list[tuple[str, float, str]]  # (text, size in points, weight or style)
    w: float
    h: float
    x: float = 0.0
    y: float = 0.0

    @property
    def left(self) -> float:
        return self.x - self.w / 2

    @property
    def right(self) -> float:
        return self.x + self.w / 2

    @property
    def top(self) -> float:
        return self.y + self.h / 2

    @property
    def bottom(self) -> float:
        return self.y - self.h / 2


@dataclass
class Route:
    """An edge drawn as a polyline from ``points[0]`` to the arrow head at ``points[-1]``.

    ``label_at`` is where the label's anchor sits and ``label_align`` its
    horizontal alignment (``left``, ``right`` or ``center``).
    """

    u: str
    v: str
    kind: str
    label: str
    points: list[tuple[float, float]]
    label_at: tuple[float, float] | None = None
    label_align: str = "center"
    wrap: int = _EDGE_WRAP


@dataclass
class Layout:
    """Boxes and routes of a card's graph, in inches."""

    nodes: dict[str, NodeBox]
    routes: list[Route]
    extra: list[tuple[float, float]] = field(default_factory=list)  # points that must stay in the picture

    def bounds(self) -> tuple[float, float, float, float]:
        """(xmin, xmax, ymin, ymax) over boxes, routes and labels."""
        xs: list[float] = []
        ys: list[float] = []
        for b in self.nodes.values():
            xs += [b.left, b.right]
            ys += [b.bottom, b.top]
        for r in self.routes:
            for px, py in r.points:
                xs.append(px)
                ys.append(py)
        for px, py in self.extra:
            xs.append(px)
            ys.append(py)
        return min(xs), max(xs), min(ys), max(ys)


class _Measure:
    """Text extents in inches, measured by matplotlib's text-to-path engine."""

    def __init__(self) -> None:
        from matplotlib.font_manager import FontProperties
        from matplotlib.textpath import TextToPath

        self._engine = TextToPath()
        self._props: dict[tuple[float, str], Any] = {}
        self._font = FontProperties
        self._cache: dict[tuple[str, float, str], tuple[float, float]] = {}

    def __call__(self, text: str, size: float, style: str = "normal") -> tuple[float, float]:
        key = (text, size, style)
        if key not in self._cache:
            props = self._props.get((size, style))
            if props is None:
                weight = "bold" if style == "bold" else "normal"
                slant = "italic" if style == "italic" else "normal"
                props = self._font(family=_FONT, size=size, weight=weight, style=cast(Any, slant))
                self._props[(size, style)] = props
            w, h, d = self._engine.get_text_width_height_descent(text or " ", props, ismath=False)
            self._cache[key] = (w / 72.0, max(h, size * 0.9) / 72.0 + d / 72.0)
        return self._cache[key]


def _wrap(text: str, width: int) -> list[str]:
    """Wrap at spaces, and inside long identifiers after an underscore."""
    out: list[str] = []
    for para in str(text).split("\n"):
        words: list[str] = []
        for word in para.split(" "):
            while len(word) > width and "_" in word[1:width]:
                cut = word.rfind("_", 1, width) + 1
                words.append(word[:cut])
                word = word[cut:]
            words.append(word)
        line = ""
        for word in words:
            joiner = "" if line.endswith("_") else " "
            if line and len(line) + len(joiner) + len(word) > width:
                out.append(line)
                line = word
            else:
                line = f"{line}{joiner}{word}" if line else word
        out.append(line)
    return out


def _node_lines(graph: nx.DiGraph, node: str, verdict: str | None, uniform_weights: bool) -> list[tuple[str, float, str]]:
    data = graph.nodes[node]
    kind = data["kind"]
    if kind == "gate":
        lines = [(t, _SIZE, "bold") for t in _wrap(f"{data['number']}. {data['label']}", _WRAP)]
        if data.get("classifier"):
            lines.append(("classifies the regime", _SMALL, "italic"))
        if data.get("kill_criterion"):
            lines += [(t, _SMALL, "italic") for t in _wrap(f"kill: {data['kill_criterion']}", _WRAP + 6)]
        if not uniform_weights:
            lines.append((f"weight {data['weight']}", _SMALL, "normal"))
        if verdict is not None:
            lines.append((f"[{verdict}]", _SMALL, "bold"))
        return lines
    if kind == "join":
        return [(t, _SIZE, "bold") for t in _wrap(str(data["label"]), 14)]
    if kind == "outcome":
        return [(t, _SIZE, "bold") for t in _wrap(str(data["label"]), 18)]
    return [(str(data["label"]), _SMALL, "normal")]


def layout(compiled: CompiledCard, trace: Trace | None = None) -> Layout:
    """The pure-Python layout of ``compiled``'s graph (see the module docstring).

    Examples
    --------
    >>> from ipb.engine.registry import compiled_card
    >>> lay = layout(compiled_card("buffett_acquisition_checklist"))
    >>> [lay.nodes[g].layer for g in ("start", "circle_of_competence", "outcome:INVEST")]
    [0, 1, 7]
    >>> len({round(lay.nodes[g].x, 6) for g in ("circle_of_competence", "margin_of_safety", "outcome:INVEST")})
    1
    """
    graph = compiled.graph
    measure = _Measure()
    verdicts = {r.gate.id: r.verdict.value for r in trace.gates} if trace is not None else {}
    weights = {graph.nodes[n].get("weight") for n in graph.nodes if graph.nodes[n]["kind"] == "gate"}
    uniform = len(weights) <= 1

    forward = nx.DiGraph()
    forward.add_nodes_from(graph.nodes)
    forward.add_edges_from((u, v) for u, v, d in graph.edges(data=True) if d["kind"] != "reentry")
    order = {n: i for i, n in enumerate(graph.nodes)}
    layer: dict[str, int] = {}
    for n in nx.lexicographical_topological_sort(forward, key=lambda n: order[n]):
        preds = list(forward.predecessors(n))
        layer[n] = 1 + max(layer[p] for p in preds) if preds else 0
    depth = max(layer.values())
    for n in graph.nodes:  # an outcome no edge reaches sits with the other outcomes
        if n != "start" and forward.in_degree(n) == 0:
            layer[n] = depth

    boxes: dict[str, NodeBox] = {}
    for n in graph.nodes:
        kind = graph.nodes[n]["kind"]
        lines = _node_lines(graph, n, verdicts.get(n), uniform)
        sizes = [measure(t, s, st) for t, s, st in lines]
        w = max(sw for sw, _ in sizes) + 2 * _PAD_X
        h = sum(sh for _, sh in sizes) * 1.15 + 2 * _PAD_Y
        if kind == "start":
            w = h = max(w, h) + 0.05
        elif kind == "join":
            w, h = w * 1.55 + 0.1, h * 1.7 + 0.1
        elif kind == "outcome":
            w, h = w + 0.12, h + 0.12
        boxes[n] = NodeBox(n, kind, layer[n], lines, w, h)

    # Kill edges into an outcome that collects them from several layers share a bus on the right;
    # every other edge that skips layers runs through one dummy box per layer it crosses, the
    # first as wide as its label, so that labels and bends get room of their own.
    kill_layers: dict[str, set[int]] = {}
    for u, v, d in graph.edges(data=True):
        if d["kind"] == "kill":
            kill_layers.setdefault(v, set()).add(layer[u])
    row_sizes: dict[int, int] = {}
    for n in graph.nodes:
        row_sizes[layer[n]] = row_sizes.get(layer[n], 0) + 1
    for u, v, d in graph.edges(data=True):
        if d["kind"] not in ("reentry", "kill"):
            for k in range(layer[u] + 1, layer[v]):
                row_sizes[k] = row_sizes.get(k, 0) + 1
    # a bus leaves each source sideways, so every source must be alone in its row
    bus = {v for v, layers in kill_layers.items() if len(layers) > 1 and all(row_sizes[k] == 1 for k in layers)}
    chains: dict[tuple[str, str], list[str]] = {}
    succ: dict[str, list[str]] = {n: [] for n in graph.nodes}
    pred: dict[str, list[str]] = {n: [] for n in graph.nodes}
    for u, v, d in graph.edges(data=True):
        if d["kind"] == "reentry" or (d["kind"] == "kill" and v in bus):
            continue
        hops = [u]
        for k in range(layer[u] + 1, layer[v]):
            key = f"dummy:{len(boxes)}"
            label = _edge_label(d) if k == layer[u] + 1 else ""
            width = max((measure(t, _SMALL)[0] for t in _wrap(label, _EDGE_WRAP)), default=0.0)
            boxes[key] = NodeBox(key, "dummy", k, [], max(width + 0.1, 0.1), 0.2)
            order[key] = len(order)
            succ[key], pred[key] = [], []
            hops.append(key)
        hops.append(v)
        for a, b in zip(hops, hops[1:]):
            succ[a].append(b)
            pred[b].append(a)
        if len(hops) > 2:
            chains[(u, v)] = hops[1:-1]

    rows: list[list[str]] = [[] for _ in range(depth + 1)]
    for n in sorted(boxes, key=lambda n: order[n]):
        rows[boxes[n].layer].append(n)
    # room below each layer for the labels of the edges that leave it
    gaps = [_GAP_Y] * (depth + 1)
    for u, v, d in graph.edges(data=True):
        if d["kind"] == "reentry" or (d["kind"] == "kill" and v in bus):
            continue
        if len(succ[u]) >= _FAN and layer[v] == layer[u] + 1:
            height = 2 * _fan_label_height(_edge_label(d), boxes[v]) + 0.25
        else:
            height = len(_wrap(_edge_label(d), _EDGE_WRAP)) * _SMALL * 1.25 / 72 if _edge_label(d) else 0.0
        gaps[layer[u]] = max(gaps[layer[u]], height + 0.4)
    y = 0.0
    for i, row in enumerate(rows):
        height = max(boxes[n].h for n in row)
        if i:
            y -= height / 2
        wish = {n: (sum(boxes[p].x for p in pred[n]) / len(pred[n]) if pred[n] else 0.0) for n in row}
        orphan = {n for n in row if i and not pred[n]}  # placed after the others, wherever they end
        row.sort(key=lambda n: (n in orphan, round(wish[n], 6), boxes[n].kind == "dummy", order[n]))
        placed: list[float] = []
        for j, n in enumerate(row):
            x = wish[n] if n not in orphan or not j else float("-inf")
            if j:
                prev = boxes[row[j - 1]]
                x = max(x, placed[-1] + (prev.w + boxes[n].w) / 2 + _GAP_X)
            placed.append(x)
        misses = sorted(wish[n] - x for n, x in zip(row, placed) if n not in orphan) or [0.0]
        shift = misses[len(misses) // 2]
        for n, x in zip(row, placed):
            boxes[n].x, boxes[n].y = x + shift, y
        y -= height / 2 + gaps[i]
        rows[i] = row

    lay = Layout(boxes, [])
    _reserve_bus(graph, lay, rows, bus, measure)
    ports = _ports(boxes, succ, pred)
    for u, v, data in graph.edges(data=True):
        lay.routes.append(_route(lay, rows, u, v, data, bus, chains.get((u, v), []), ports, succ, measure))
    for key in [n for n, b in boxes.items() if b.kind == "dummy"]:
        del lay.nodes[key]
    return lay


def _ports(boxes: dict[str, NodeBox], succ: dict[str, list[str]], pred: dict[str, list[str]]) -> dict[tuple[str, str], float]:
    """x where the segment from ``a`` to ``b`` leaves ``a``'s bottom (key (a, b)) and meets ``b``'s top (key (b, a)).

    Several segments on one side of a box are spread over its middle, in the
    order of the boxes at their other ends, so they neither cross there nor
    meet in one point. A circle or diamond keeps a single port.
    """
    ports: dict[tuple[str, str], float] = {}
    for key, b in boxes.items():
        for ends in (succ[key], pred[key]):
            ends = sorted(set(ends), key=lambda n: boxes[n].x)
            k = len(ends)
            step = 0.0 if k < 2 or b.kind in ("start", "join", "dummy") else min(0.3, 0.7 * b.w / k)
            for i, other in enumerate(ends):
                ports[(key, other)] = b.x + (i - (k - 1) / 2) * step
    return ports


def _edge_label(data: dict[str, Any]) -> str:
    label = str(data.get("label", ""))
    parts = label.split(", ")
    if len(parts) > 1 and all(p.endswith(": cleared") for p in parts):  # a shared branch tail
        label = "cleared: " + ", ".join(p[: -len(": cleared")] for p in parts)
    if data["kind"] == "reentry":
        label += f" (max {data['max_iterations']})"
    if data["kind"] == "join" and label.startswith("weight "):
        return ""  # shown in the gate box when the weights differ
    return label


def _span_right(lay: Layout, rows: list[list[str]], lo: int, hi: int) -> float:
    edges = [lay.nodes[n].right for row in rows[lo:hi + 1] for n in row]
    return max(edges) if edges else float("-inf")


def _label_width(label: str, measure: _Measure) -> float:
    return max((measure(t, _SMALL)[0] for t in _wrap(label, _EDGE_WRAP)), default=0.0)


def _reserve_bus(graph: nx.DiGraph, lay: Layout, rows: list[list[str]], bus: set[str], measure: _Measure) -> None:
    """Move each bus outcome (and what lies right of it) right until its bus clears the boxes and labels it passes."""
    for v in sorted(bus, key=lambda n: (lay.nodes[n].layer, lay.nodes[n].x)):
        b = lay.nodes[v]
        need = float("-inf")
        for u, _, data in graph.in_edges(v, data=True):
            if data["kind"] != "kill":
                continue
            a = lay.nodes[u]
            beside = _span_right(lay, rows, a.layer + 1, b.layer - 1)
            need = max(need, beside + 2 * _LANE, a.right + _label_width(_edge_label(data), measure) + 2 * _LANE)
        if b.x < need:
            delta = need - b.x
            row = rows[b.layer]
            for n in row[row.index(v):]:
                lay.nodes[n].x += delta


def _route(lay: Layout, rows: list[list[str]], u: str, v: str, data: dict[str, Any], bus: set[str],
           chain: list[str], ports: dict[tuple[str, str], float], succ: dict[str, list[str]],
           measure: _Measure) -> Route:
    a, b = lay.nodes[u], lay.nodes[v]
    kind = data["kind"]
    label = _edge_label(data)
    if kind == "reentry" or b.layer <= a.layer:
        lo, hi = min(a.layer, b.layer), max(a.layer, b.layer)
        lane = min(lay.nodes[n].left for row in rows[lo:hi + 1] for n in row) - _LANE * 2
        points = [(a.left, a.y), (lane, a.y), (lane, b.y), (b.left, b.y)]
        lay.extra.append((lane - _label_width(label, measure) - 0.1, (a.y + b.y) / 2))
        return Route(u, v, kind, label, points, (lane - 0.06, (a.y + b.y) / 2), "right")
    if kind == "kill" and v in bus:
        points = [(a.right, a.y), (b.x, a.y), (b.x, b.top)]
        return Route(u, v, kind, label, points, (a.right + 0.06, a.y + 0.05), "left")
    if chain:
        hops = [lay.nodes[d] for d in chain]
        points = [(ports[(u, chain[0])], a.bottom)] + [(d.x, d.y) for d in hops] + [(ports[(v, chain[-1])], b.top)]
        return Route(u, v, kind, label, points, (hops[0].x, hops[0].y), "center")
    start, end = (ports[(u, v)], a.bottom), (ports[(v, u)], b.top)
    if len(succ[u]) < _FAN and abs(start[0] - end[0]) < 0.3:
        # (nearly) vertical: the label goes on the side away from the sibling edges
        right = any(lay.nodes[n].x > b.x + 1e-6 for n in succ[u])
        mid = ((start[0] + end[0]) / 2, (a.bottom + b.top) / 2)
        return Route(u, v, kind, label, [start, end], (mid[0] + (-0.06 if right else 0.06), mid[1]),
                     "right" if right else "left")
    if len(succ[u]) >= _FAN:  # labels of a wide fan sit just above their targets, as wide as the targets
        at = (end[0], end[1] + 0.5 * _fan_label_height(label, b) + 0.12)
        return Route(u, v, kind, label, [start, end], at, "center", _fan_wrap(b))
    t = 0.5
    at = (start[0] + (end[0] - start[0]) * t, start[1] + (end[1] - start[1]) * t)
    if end[0] < start[0]:
        return Route(u, v, kind, label, [start, end], (at[0] - 0.08, at[1]), "right")
    return Route(u, v, kind, label, [start, end], (at[0] + 0.08, at[1]), "left")


def _fan_wrap(b: NodeBox) -> int:
    return max(10, int((b.w + 0.6 * _GAP_X) / 0.065))


def _fan_label_height(label: str, b: NodeBox) -> float:
    lines = len(_wrap(label, _fan_wrap(b))) if label else 0
    return lines * _SMALL * 1.25 / 72


# --------------------------------------------------------------------------- drawing


def _python(compiled: CompiledCard, trace: Trace | None, format: str, title: str | None) -> bytes:
    try:
        import matplotlib
    except ImportError:
        raise DrawError("the built-in renderer needs matplotlib, which the core install leaves out: "
                        "pip install 'ipb[plot]', or install Graphviz (Debian package graphviz) for svg/png, "
                        "or use --format dot|mermaid", rule="renderer") from None

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt
    from matplotlib.patches import FancyArrowPatch, FancyBboxPatch, Circle, Polygon
    from matplotlib.path import Path as MplPath

    lay = layout(compiled, trace)
    verdicts = {r.gate.id: r.verdict.value for r in trace.gates} if trace is not None else {}
    reached = f"outcome:{trace.outcome}" if trace is not None else None

    card = compiled.card
    heading = title or f"{card.name} ({card.investor})"
    sub = f"{card.topology_type}, {card.gate_logic}"
    if trace is not None:
        scen = f"scenario {trace.scenario_id}: " if trace.scenario_id else ""
        weight = weight_note(trace)  # (a veto by weight: "weight 3 < min_weight 4", s53newuser)
        sub += f"\n{scen}final verdict {trace.outcome} (trigger: {trace.trigger}{'; ' + weight if weight else ''})"
    xmin, xmax, ymin, ymax = lay.bounds()
    measure = _Measure()
    xmax = max(xmax, xmin + measure(heading, 11, "bold")[0] + 0.1,
               xmin + max(measure(t, _SMALL + 0.5)[0] for t in sub.split("\n")) + 0.1)
    if trace is not None:
        xmax = max(xmax, xmin + _legend_width(measure))
    top_pad = 0.35 + 0.18 * (sub.count("\n") + 1)
    bottom_pad = 0.45 if trace is not None else 0.15
    xmin, xmax = xmin - 0.15, xmax + 0.15
    ymin, ymax = ymin - bottom_pad, ymax + top_pad
    width, height = xmax - xmin, ymax - ymin

    rc = {
        "font.family": _FONT,
        "svg.hashsalt": "ipb-draw",
        "svg.fonttype": "path",
        "path.simplify": False,
        "figure.dpi": _DPI,
        "savefig.dpi": _DPI,
    }
    with matplotlib.rc_context(cast(Any, rc)):
        fig = plt.figure(figsize=(width, height))
        try:
            ax = fig.add_axes((0.0, 0.0, 1.0, 1.0))
            ax.set_xlim(xmin, xmax)
            ax.set_ylim(ymin, ymax)
            ax.set_axis_off()
            pt = 1 / 72.0  # one point in inches

            for r in lay.routes:
                colour, style, lw = _edge_style(r.kind)
                if r.kind == "kill" and verdicts.get(r.u) == "REJECT" and r.v == reached:
                    style, lw = "solid", 2.2  # the kill that decided the outcome
                path = MplPath(r.points, [MplPath.MOVETO] + [MplPath.LINETO] * (len(r.points) - 1))
                arrow = FancyArrowPatch(path=path, arrowstyle="-|>,head_length=5,head_width=2.6", color=colour,
                                        linestyle=style, linewidth=lw, shrinkA=0, shrinkB=0,
                                        zorder=2 if lw > 2 else 1)
                arrow.set_gid(f"edge-{_dot_id(r.u)}-{_dot_id(r.v)}")
                ax.add_patch(arrow)
                if r.label and r.label_at is not None:
                    lines = _wrap(r.label, r.wrap)
                    va = "center" if r.label_align in ("right", "center") else "bottom"
                    text = ax.text(r.label_at[0], r.label_at[1], "\n".join(lines), fontsize=_SMALL, color=colour,
                                   ha=r.label_align, va=va, zorder=4, linespacing=1.1,
                                   bbox={"boxstyle": "round,pad=0.12", "fc": "white", "ec": "none", "alpha": 0.85})
                    text.set_gid(f"label-{_dot_id(r.u)}-{_dot_id(r.v)}")

            for key, b in lay.nodes.items():
                fill, ink, edge = _node_colours(b.kind, verdicts.get(key), key == reached, trace is not None)
                gid = f"node-{_dot_id(key)}"
                if b.kind == "start":
                    patch: Any = Circle((b.x, b.y), b.w / 2, fc=fill, ec=edge, lw=1.0, zorder=2)
                elif b.kind == "join":
                    patch = Polygon([(b.x, b.top), (b.right, b.y), (b.x, b.bottom), (b.left, b.y)], closed=True,
                                    fc=fill, ec=edge, lw=1.2, zorder=2)
                else:
                    patch = FancyBboxPatch((b.left, b.bottom), b.w, b.h, boxstyle="round,pad=0,rounding_size=0.06",
                                           fc=fill, ec=edge, lw=1.2, zorder=2)
                patch.set_gid(gid)
                ax.add_patch(patch)
                if b.kind == "outcome":
                    inner = FancyBboxPatch((b.left + 0.04, b.bottom + 0.04), b.w - 0.08, b.h - 0.08,
                                           boxstyle="round,pad=0,rounding_size=0.04", fc="none", ec=edge, lw=0.8,
                                           zorder=3)
                    inner.set_gid(f"{gid}-inner")
                    ax.add_patch(inner)
                _draw_lines(ax, b, ink, pt)

            ax.text(xmin + 0.15, ymax - 0.12, heading, fontsize=11, fontweight="bold", color=_INK, ha="left",
                    va="top").set_gid("title")
            ax.text(xmin + 0.15, ymax - 0.36, sub, fontsize=_SMALL + 0.5, color=_MUTED, ha="left", va="top",
                    linespacing=1.3).set_gid("subtitle")
            if trace is not None:
                _legend(ax, xmin + 0.15, ymin + 0.12, measure)

            buffer = io.BytesIO()
            if format == "svg":
                fig.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None}, bbox_inches="tight", pad_inches=0.08)
            else:
                fig.savefig(buffer, format="png", metadata={"Software": None}, bbox_inches="tight", pad_inches=0.08)
        finally:
            plt.close(fig)
    return buffer.getvalue()


def _draw_lines(ax: Any, b: NodeBox, ink: str, pt: float) -> None:
    heights = [size * 1.15 * pt * 1.18 for _, size, _ in b.lines]
    total = sum(heights)
    y = b.y + total / 2
    for (text, size, style), h in zip(b.lines, heights):
        y -= h / 2
        ax.text(b.x, y, text, fontsize=size, color=ink, ha="center", va="center", zorder=5,
                fontweight="bold" if style == "bold" else "normal",
                fontstyle="italic" if style == "italic" else "normal")
        y -= h / 2


def _edge_style(kind: str) -> tuple[str, Any, float]:
    if kind == "kill":
        return _KILL, (0, (4, 2.5)), 1.0
    if kind == "trigger":
        return _INK, "solid", 2.2
    if kind == "reentry":
        return "#6a1b9a", (0, (1, 2)), 1.3
    if kind == "branch":
        return "#0d47a1", "solid", 1.2
    return _MUTED, "solid", 1.1


def _node_colours(kind: str, verdict: str | None, reached: bool, traced: bool) -> tuple[str, str, str]:
    """(fill, text, border) of a node."""
    if verdict is not None:
        fill = VERDICT_COLOURS[verdict]
        return fill, ("#212121" if verdict == "INCONCLUSIVE" else "white"), fill
    if kind == "outcome":
        if reached:
            return OUTCOME_REACHED, "white", OUTCOME_REACHED
        return (_OUTCOME_FILL, _MUTED if traced else _INK, _MUTED)
    if kind == "gate":
        return _GATE_FILL, _INK, _MUTED
    return "white", _INK, _MUTED


_LEGEND: tuple[tuple[str, str], ...] = (*VERDICT_COLOURS.items(), ("outcome reached", OUTCOME_REACHED))


def _legend_width(measure: _Measure) -> float:
    return sum(0.22 + measure(label, _SMALL)[0] + 0.25 for label, _ in _LEGEND)


def _legend(ax: Any, x: float, y: float, measure: _Measure) -> None:
    from matplotlib.patches import Rectangle

    for label, colour in _LEGEND:
        box = Rectangle((x, y), 0.16, 0.12, fc=colour, ec=colour)
        box.set_gid(f"legend-{_dot_id(label)}")
        ax.add_patch(box)
        ax.text(x + 0.22, y + 0.06, label, fontsize=_SMALL, color=_INK, va="center", ha="left")
        x += 0.22 + measure(label, _SMALL)[0] + 0.25

"""The definition ``ipb check`` advises for a plain value compared with a ratio (rule ``plain-against-ratio``).

The units rules (:mod:`ipb.engine._units`) make ``* 100%`` a ratio only of a plain number: a ratio times ``100%``
is a product of two ratios, which is plain, and a sum of a ratio and a plain term that reads an input is plain
(:data:`~ipb.engine._units.MIXED`) whatever multiplies it. So "multiply the definition by 100%" was wrong advice for
such a sum (s53newuser: ``(p * (iv / price - 1) - (1 - p) * loss) * 100%`` still warned and showed 1.18; a Kelly
fraction needed ``* 100% * 100%``). Since ``100%`` is 1, no placement of it changes the value, only its unit; the
advice here is a rewrite of the definition that the compiler types a ratio, checked by compiling it:

- a top-level factor ``100%`` the author already wrote is taken out first (it is what turned a ratio plain);
- a plain expression gets ``* 100%``;
- in a sum, each plain term gets ``* 100%`` and each mixed term is mended the same way, ratio terms stay;
- in a product or quotient, each mixed factor is mended.

Anything else (money, a call) gets no rewrite, and the warning keeps its general advice.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any, Mapping

from lark import Tree

from ipb.engine._comparison_lints import ADVICE
from ipb.engine._units import MIXED
from ipb.engine.expressions import ExprType, compile_expression, parse_expression
from ipb.errors import IpbError

if TYPE_CHECKING:
    from ipb.engine.card import Card

__all__ = ["advised", "ratio_rewrite"]

#: Trees wrapped in parentheses when they stand as a term or a factor.
_COMPOUND = frozenset({"sum", "product", "neg"})


class _Rewriter:
    def __init__(self, source: str, symbols: Mapping[str, ExprType], constants: Mapping[str, Any]) -> None:
        self.source, self.symbols, self.constants = source, symbols, constants

    def unit(self, text: str) -> str | None | bool:
        """The unit of ``text`` (None: plain); False when it does not compile as a number."""
        try:
            compiled = compile_expression(text, self.symbols, expect="number", constants=self.constants)
        except IpbError:
            return False
        return compiled.type.unit

    def text(self, node: Any) -> str:
        meta = node.meta
        return self.source[meta.start_pos:meta.end_pos]

    def wrapped(self, node: Any, text: str | None = None) -> str:
        text = self.text(node) if text is None else text
        return f"({text})" if isinstance(node, Tree) and node.data in _COMPOUND else text

    def ratio(self, node: Any) -> str | None:
        """Text of ``node`` rewritten to compile as a ratio, or None."""
        text = self.text(node)
        unit = self.unit(text)
        if unit == "ratio":
            return text
        if isinstance(node, Tree) and node.data == "product":
            kids = node.children
            kept = [(None, kids[0])] + [(str(kids[k].children[0]), kids[k + 1]) for k in range(1, len(kids), 2)]
            bare = [(op, f) for op, f in kept if not (op in (None, "*") and _is_hundred(f))]
            if len(bare) < len(kept) and bare:
                if bare[0][0] == "/":
                    return None
                inner = " ".join(f"{op} {self.wrapped(f)}" if op else self.wrapped(f) for op, f in bare)
                return _Rewriter(inner, self.symbols, self.constants).ratio(parse_expression(inner))
        if unit is None:  # (a product or quotient takes "* 100%" as written: it reads left to right)
            return f"({text}) * 100%" if isinstance(node, Tree) and node.data == "sum" else f"{text} * 100%"
        if unit != MIXED or not isinstance(node, Tree):
            return None
        if node.data == "sum":
            kids = node.children
            pieces: list[str | None] = [self.term(kids[0])]
            for k in range(1, len(kids), 2):
                pieces += [str(kids[k].children[0]), self.term(kids[k + 1])]
            return None if None in pieces else " ".join(p for p in pieces if p is not None)
        if node.data == "product":
            kids = node.children
            factors: list[str | None] = [self.factor(kids[0])]
            for k in range(1, len(kids), 2):
                factors += [str(kids[k].children[0]), self.factor(kids[k + 1])]
            return None if None in factors else " ".join(p for p in factors if p is not None)
        if node.data == "neg":
            negated = self.ratio(node.children[0])
            return None if negated is None else f"-({negated})"
        return None

    def term(self, node: Any) -> str | None:
        unit = self.unit(self.text(node))
        if unit == "ratio":
            return self.wrapped(node) if isinstance(node, Tree) and node.data == "sum" else self.text(node)
        fixed = self.ratio(node)
        return None if fixed is None else (f"({fixed})" if unit == MIXED else fixed)

    def factor(self, node: Any) -> str | None:
        if self.unit(self.text(node)) != MIXED:
            return self.wrapped(node)
        fixed = self.ratio(node)
        return None if fixed is None else f"({fixed})"


def _is_hundred(node: Any) -> bool:
    return isinstance(node, Tree) and node.data == "percent" and str(node.children[0]).strip() == "100%"


def ratio_rewrite(source: str, symbols: Mapping[str, ExprType], constants: Mapping[str, Any]) -> str | None:
    """``source`` (a computed value's definition) rewritten so the compiler types it a ratio, or None.

    Examples
    --------
    >>> from ipb.engine.expressions import MONEY, MULTIPLE, RATIO
    >>> s = {"p": RATIO, "iv": MONEY, "price": MONEY, "loss": RATIO, "w": RATIO, "payoff": MULTIPLE}
    >>> ratio_rewrite("(p * (iv / price - 1) - (1 - p) * loss) * 100%", s, {})
    'p * (iv / price - 1) - (1 - p) * loss * 100%'
    >>> ratio_rewrite("(w * payoff / 1x - (1 - w)) / (payoff / 1x) * 100%", s, {})
    '(w * payoff / 1x * 100% - (1 - w)) / (payoff / 1x)'
    >>> ratio_rewrite("iv / price - 1", s, {})
    '(iv / price - 1) * 100%'
    """
    rewriter = _Rewriter(source, symbols, constants)
    try:
        found = rewriter.ratio(parse_expression(source))
    except IpbError:
        return None
    if found is None or rewriter.unit(found) != "ratio":
        return None
    return found


def advised(card: "Card") -> list[IpbError]:
    """``card.warnings`` with each ``plain-against-ratio`` warning on a computed value advising the rewrite of its
    definition that compiles as a ratio (copies; the card's own warnings are left as they are)."""
    definitions = {n: e.source for g in card.gates for n, e in g.compute.items()}
    constants = {n: v for n, (v, _) in card.constants.items()}
    out: list[IpbError] = []
    for warning in card.warnings:
        source = definitions.get(warning.name or "") if warning.rule == "plain-against-ratio" else None
        head, cut, _ = warning.message.partition(ADVICE)
        rewrite = ratio_rewrite(source.strip(), card.symbols, constants) if source and cut else None
        if rewrite is None:
            out.append(warning)
            continue
        mended = copy.copy(warning)
        mended.message = (f"{head}{ADVICE}if it is a share, define it as a ratio: {warning.name}: {rewrite} (the "
                          "compiler types this a ratio; 100% is 1, so the value does not change, only how it is "
                          "written; a ratio times 100% is plain again, so do not multiply the whole by 100%)")
        out.append(mended)
    return out

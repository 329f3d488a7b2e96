"""Criterion expressions as text: the LALR parser of ``grammar/expression.lark``, its limits and its syntax errors.

Split from :mod:`ipb.engine.expressions` (module size limit), which re-exports :func:`get_parser`,
:func:`parse_expression`, :data:`MAX_EXPRESSION_CHARS` and :data:`MAX_NESTING`; the checker and
compiler stay there. A syntax error names what the grammar expected, in words, at the 1-based line
and column of the offending token.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources
from typing import Iterable

from lark import Lark, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from ipb.engine._comparison_lints import line_col as _line_col
from ipb.errors import CompileError

__all__ = ["get_parser", "parse_expression", "MAX_EXPRESSION_CHARS", "MAX_NESTING"]


@lru_cache(maxsize=1)
def get_parser() -> Lark:
    """The LALR parser for ``grammar/expression.lark`` (read as package data)."""
    text = resources.files("ipb.grammar").joinpath("expression.lark").read_text(encoding="utf-8")
    # cache=True: lark keeps the LALR tables in a temporary file keyed by the grammar and lark's
    # version, so a new process loads them (about 2 ms) instead of rebuilding them (about 100 ms)
    parser = Lark(text, parser="lalr", lexer="basic", propagate_positions=True, maybe_placeholders=False, cache=True)
    # Lark.lex (the nesting check's token walk) builds a fresh lexer and its regular expressions on
    # every call unless the instance holds one: about 1 ms a compiled expression, 0.2 s of each
    # `ipb perturb`/`ipb verify` start (the sector and regime tables' 353 literals). The same lexer
    # configuration, built once; lexing keeps its state per call, so sharing it is safe.
    if not hasattr(parser, "lexer"):
        parser.lexer = parser._build_lexer()
    return parser


_TOKEN_WORDS = {
    "NAME": "a name",
    "DECIMAL": "a number",
    "PERCENT": "a percentage",
    "MULTIPLE": "a multiple",
    "MONEY": "an amount of money",
    "SCALED": "a number",
    "STRING": "a quoted string",
    "$END": "the end of the expression",
}


def _expected_words(names: Iterable[str]) -> str:
    parser = get_parser()
    words: set[str] = set()
    for name in names:
        if name in _TOKEN_WORDS:
            words.add(_TOKEN_WORDS[name])
            continue
        try:
            pattern = parser.get_terminal(name).pattern
        except KeyError:
            words.add(name)
            continue
        words.add(repr(pattern.value) if pattern.type == "str" else name)
    return ", ".join(sorted(words))


def _cancels(text: str) -> bool:
    """Whether ``text`` is one term minus itself (``(a - a)``, ``x*2 - x * 2``): zero whenever it is known, so a
    divisor of that form makes the quotient always unknown (s53break: ``ipb check`` flagged a literal ``0/0`` only).

    >>> [_cancels(t) for t in ("(a - a)", "a-a", "(b - a)", "a - a + b", "(pe*2 - pe * 2)")]
    [True, True, False, False, True]
    """
    try:
        tree = parse_expression(text)
    except CompileError:
        return False
    kids = tree.children
    return (tree.data == "sum" and len(kids) == 3 and str(kids[1].children[0]) == "-"
            and kids[0] == kids[2])


def parse_expression(source: str) -> Tree:
    """Parse ``source`` into a lark tree.

    Raises
    ------
    CompileError
        With 1-based ``line``/``column`` inside ``source``, ``offset`` (0-based)
        and ``rule="syntax"`` when the text is not a legal expression.
    """
    if len(source) > MAX_EXPRESSION_CHARS:
        raise CompileError(f"expression is {len(source):,} characters long; the limit is {MAX_EXPRESSION_CHARS:,}",
                           line=1, column=1, offset=0, rule="limit")
    try:
        _check_nesting(source)
        return get_parser().parse(source)
    except UnexpectedInput as exc:
        raise _syntax_error(source, exc) from None


#: Longest expression text compiled (characters).
MAX_EXPRESSION_CHARS = 20_000
#: Deepest nesting of brackets, function calls and unary ``-``/``+``/``not`` in one expression.
MAX_NESTING = 100

_OPENERS, _CLOSERS, _UNARY = {"LPAR", "LBRACE"}, {"RPAR", "RBRACE"}, {"MINUS", "PLUS", "NOT"}


def _check_nesting(source: str) -> None:
    """Refuse nesting deeper than :data:`MAX_NESTING` before the (recursive) tree walk can overflow.

    Counts open brackets plus the run of unary operators in front of an
    operand; the error points at the token that crosses the limit.
    """
    depth, run, previous = 0, 0, "START"
    for token in get_parser().lex(source):
        kind = token.type
        if kind in _OPENERS:
            depth += 1
        elif kind in _CLOSERS:
            depth = max(depth - 1, 0)
        # A '-' right after an operator, '(' or the start is unary; 'not' always is (but for 'not in').
        unary = kind in _UNARY and (kind == "NOT" or previous in _AFTER_OPERATOR)
        run = run + 1 if unary else 0
        if depth + run > MAX_NESTING:
            offset = token.start_pos or 0
            line, column = _line_col(source, offset)
            raise CompileError(
                f"expression nests deeper than {MAX_NESTING} levels (brackets, calls and unary operators)",
                line=line, column=column, offset=offset, rule="limit")
        previous = kind


_AFTER_OPERATOR = {"START", "LPAR", "LBRACE", "COMMA", "MINUS", "PLUS", "STAR", "SLASH", "NOT", "AND", "OR",
                   "LESSTHAN", "MORETHAN", "__ANON_0", "__ANON_1", "__ANON_2", "__ANON_3", "IN"}


#: ``$-10M``: a sign written after the dollar sign (the sign, then the amount as it should follow the ``$``).
_SIGN_AFTER_DOLLAR = re.compile(r"\$\s*([-+\u2212])\s*([0-9][0-9.]*(?:[eE][+-]?[0-9]+)?[KMBT]?)")


def _syntax_error(source: str, exc: UnexpectedInput) -> CompileError:
    if isinstance(exc, UnexpectedEOF):
        offset = len(source)
        message = f"expression ends too early; expected {_expected_words(exc.expected)}"
    elif isinstance(exc, UnexpectedToken):
        offset = exc.token.start_pos if exc.token.start_pos is not None else len(source)
        found = "end of the expression" if exc.token.type == "$END" else repr(str(exc.token))
        message = f"unexpected {found}; expected {_expected_words(exc.expected)}"
        if exc.token.type == "$END":
            offset = len(source)
    elif isinstance(exc, UnexpectedCharacters):
        offset = exc.pos_in_stream or 0
        message = f"unexpected character {source[offset]!r}"
        if source[offset].isdigit():  # fullwidth, Arabic-Indic...: Python's int() would take them, ipb does not
            message += f" (U+{ord(source[offset]):04X} is not an ASCII digit; write 0-9)"
        elif (dollar := _SIGN_AFTER_DOLLAR.match(source, offset)) is not None:  # s48break: '$-10M' named all but it
            sign, rest = dollar.group(1, 2)
            message += f"; a sign goes before the '$': write '{'-' if sign != '+' else ''}${rest}'"
        elif exc.allowed:
            message += f"; expected {_expected_words(exc.allowed)}"
    else:  # pragma: no cover - lark has no other subclasses today
        offset = getattr(exc, "pos_in_stream", 0) or 0
        message = str(exc)
    line, column = _line_col(source, offset)
    return CompileError(message, line=line, column=column, offset=offset, rule="syntax")

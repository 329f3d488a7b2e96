"""The nesting check lexes with the parser's one lexer (s35speed, issue 18 speed).

lark's ``Lark.lex`` builds a new lexer (and compiles its regular expressions) on every call
unless the instance holds one; ``get_parser`` now gives it one, so compiling expressions
builds no lexer. The tokens are those of a freshly built lexer.
"""

from __future__ import annotations

from lark import Lark

from ipb.engine.expressions import get_parser, parse_literal


def test_no_lexer_is_built_per_expression(monkeypatch) -> None:
    get_parser()
    built = [0]
    original = Lark._build_lexer

    def counted(self, *args, **kwargs):
        built[0] += 1
        return original(self, *args, **kwargs)

    monkeypatch.setattr(Lark, "_build_lexer", counted)
    values = [parse_literal(text)[0] for text in ("$1.25B", "95%", "10x", "-(3 + 4)", "2/4")]
    assert [str(v) for v in values] == ["1250000000", "0.95", "10", "-7", "0.5"]
    assert built[0] == 0  # 5 before s35speed: one for each expression's nesting check


def test_tokens_match_a_fresh_lexer() -> None:
    parser = get_parser()
    source = "not (a <= 3 * max(b, $2M)) and c == \"x\" or -(-d) > 10% and e != 1.5x"
    held = [(t.type, str(t)) for t in parser.lex(source)]
    fresh = parser._build_lexer()
    from lark.lexer import LexerThread
    again = [(t.type, str(t)) for t in LexerThread.from_text(fresh, source).lex(None)]
    assert held == again and len(held) > 20

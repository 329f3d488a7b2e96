"""Decomposed Unicode (NFD) in answers and cards (issue 13 hardening, s52nfd).

An answer or a card saved decomposed ("é" as "e" + U+0301 COMBINING ACUTE ACCENT, as macOS may save a file) must read
as its composed (NFC) form does, and every span the parser reports must still be an offset into the text as written:
``parse_response`` composes the answer (:mod:`ipb._composed`) and maps every span back; the YAML loader composes every
string it reads. The texts below are written for these tests; each expected reading is worked by hand beside it.
"""

from __future__ import annotations

import unicodedata
from dataclasses import fields
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ipb._composed import compose
from ipb.engine._yaml import load_yaml
from ipb.errors import ErrorGroup, IpbError
from ipb.scoring.parse import ParsedResponse, parse_response

ROOT = Path(__file__).resolve().parents[2]


def nfd(text: str) -> str:
    return unicodedata.normalize("NFD", text)


def nfc(text: str) -> str:
    return unicodedata.normalize("NFC", text)


#: Every span field of a reading, walked through its records (gates, invented gates, attributions...).
def spans(record: object, where: str = "") -> list[tuple[str, tuple[int, int]]]:
    out: list[tuple[str, tuple[int, int]]] = []
    for f in fields(record):  # type: ignore[arg-type]
        value = getattr(record, f.name)
        if f.name.endswith("span") or f.name == "mention":
            if value is not None:
                out.append((f"{where}{f.name}", tuple(value)))
        elif f.name.endswith("spans"):
            out.extend((f"{where}{f.name}[{k}]", tuple(s)) for k, s in enumerate(value))
        elif isinstance(value, list) and value and hasattr(value[0], "__dataclass_fields__"):
            for k, r in enumerate(value):
                out.extend(spans(r, f"{where}{f.name}[{k}]."))
    return out


def reading(parsed: ParsedResponse) -> tuple[object, ...]:
    return ([(g.gate, g.verdict, g.how) for g in parsed.gates], parsed.final_verdict, parsed.invented_gates)


def assert_same_reading(composed_text: str, written: str, card: str, *, exact: bool = True) -> None:
    """``written`` (any normalisation of ``composed_text``) reads as ``composed_text`` does, span for span.

    Each span of the written reading is the composed reading's span widened to whole composed runs
    (:meth:`ipb._composed.Composed.span`): it never starts or ends inside a sequence that composition rewrote, and cut
    from the written text and composed it holds the composed reading's text (``exact``: is that text, when no
    span of this answer ends inside a rewritten sequence).
    """
    a = parse_response(composed_text, card, embedder=False)
    b = parse_response(written, card, embedder=False)
    assert reading(b) == reading(a)
    sa, sb = spans(a), spans(b)
    assert [name for name, _ in sb] == [name for name, _ in sa]
    runs = compose(written).runs
    for (name, (x, y)), (_, (p, q)) in zip(sa, sb):
        if exact:
            assert nfc(written[p:q]) == composed_text[x:y], name
        else:
            assert composed_text[x:y] in nfc(written[p:q]), name
        for edge in (p, q):
            assert not any(start < edge < stop for _, _, start, stop in runs), (name, edge)


# A French answer to the Buffett checklist, named by the card's French sidecar (frameworks/translations/):
# gate 1 "Cercle de compétence" is "validé" (PROCEED), gate 3 "Intégrité de la direction" and gate 5 "Marge de
# sécurité" are "non respectée" (REJECT), final DECLINE. Every gate name and verdict word holds an accent.
FRENCH = ("1. Cercle de compétence : validé, l'activité est simple à comprendre.\n"
          "2. Intégrité de la direction : non respectée, la rémunération des dirigeants est excessive.\n"
          "3. Marge de sécurité : non respectée, le prix dépasse la valeur intrinsèque estimée.\n"
          "Verdict final : DECLINE")


def test_a_decomposed_answer_reads_its_accented_names_and_verdicts():
    """Without composing, the NFD text lost every verdict word ("validé", "non respectée") and read gate 5 with no
    verdict (checked by hand with ``compose`` replaced by the identity: gates 1 and 3 read from appraisals only)."""
    written = nfd(FRENCH)
    assert written != FRENCH
    parsed = parse_response(written, "buffett_acquisition_checklist", embedder=False)
    got = [(g.gate, g.verdict, nfc(written[slice(*g.mention)]), nfc(written[slice(*g.verdict_span)]))
           for g in parsed.gates]
    assert got == [(1, "PROCEED", "Cercle de compétence", "validé"),
                   (3, "REJECT", "Intégrité de la direction", "non respectée"),
                   (5, "REJECT", "Marge de sécurité", "non respectée")]
    assert parsed.final_verdict == "DECLINE"
    assert any("composed form (NFC)" in n for n in parsed.notes)


def test_nfc_and_nfd_answers_read_alike_span_for_span():
    assert_same_reading(FRENCH, nfd(FRENCH), "buffett_acquisition_checklist")


def test_a_composed_answer_is_left_alone():
    parsed = parse_response(FRENCH, "buffett_acquisition_checklist", embedder=False)
    assert not any("NFC" in n for n in parsed.notes)
    assert compose(FRENCH).text is FRENCH and compose(FRENCH).runs == ()


def test_invisible_characters_and_decomposed_accents_together():
    """A zero-width space between a letter and its accent, and one inside an English verdict word: both are read
    through; the verdict span still covers the word as written, invisible character included."""
    written = nfd("1. Cercle de compétence : validé.\n2. Marge de sécurité : REJ\u200bECT.\nVerdict final : DECLINE")
    written = written.replace("e\u0301", "e\u200b\u0301", 1)  # "compe<ZWSP><acute>tence"
    parsed = parse_response(written, "buffett_acquisition_checklist", embedder=False)
    assert [(g.gate, g.verdict) for g in parsed.gates] == [(1, "PROCEED"), (5, "REJECT")]
    assert written[slice(*parsed.gates[0].mention)] == "Cercle de compe\u200b\u0301tence"
    assert written[slice(*parsed.gates[1].verdict_span)] == "REJ\u200bECT"


def test_compatibility_forms_are_not_nfkc_folded():
    """Only canonical composition: "10²" must not become "102", nor "½" "1⁄2", nor the ligature "ﬁ" two letters;
    full-width digits and letters and no-break spaces are read by the parser's own same-length fold instead."""
    assert compose("10² ½ ﬁnal").text == "10² ½ ﬁnal"
    text = "Ｇａｔｅ\u00a0５: REJE\u0301CT? no: REJECT\nFinal verdict: DECLINE"  # gate 5 by a full-width number
    parsed = parse_response(text, "buffett_acquisition_checklist", embedder=False)
    assert [(g.gate, g.verdict) for g in parsed.gates] == [(5, "REJECT")]
    assert text[slice(*parsed.gates[0].mention)].startswith("Ｇａｔｅ")


# --------------------------------------------------------------------------- property: random combining marks

ENGLISH = ("## Gate 1: Circle of Competence\nVerdict: PROCEED. The business is simple.\n\n"
           "## Gate 5: Margin of Safety\nVerdict: REJECT. Price $50B against an intrinsic value of $25B.\n\n"
           "Final verdict: DECLINE")
#: Combining marks a decomposed text carries: acute, grave, circumflex, diaeresis, cedilla, dot below, ring above.
MARKS = "\u0301\u0300\u0302\u0308\u0327\u0323\u030a"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, len(ENGLISH)), st.text(MARKS, min_size=1, max_size=3)), max_size=6))
def test_marks_anywhere_read_as_the_composed_text_reads(insertions):
    """Law: an answer with combining marks inserted anywhere reads exactly as its NFC form reads, and each span,
    cut from the text as written and composed, is the NFC reading's text at that span (the marks may spoil a word;
    what is read must not depend on the normalisation form it arrives in)."""
    written = ENGLISH
    for at, marks in sorted(insertions, reverse=True):
        written = written[:at] + marks + written[at:]
    assert_same_reading(nfc(written), written, "buffett_acquisition_checklist", exact=False)
    assert_same_reading(nfc(written), nfd(written), "buffett_acquisition_checklist", exact=False)


@settings(max_examples=200, deadline=None)
@given(st.text(st.sampled_from("aeoucAEn \u1100\uac00\u0b47\u212b" + MARKS + "\u0344\u1161\u11a8\u0b3e"), max_size=20))
def test_compose_is_nfc_and_its_spans_cover_whole_runs(text):
    c = compose(text)
    assert c.text == nfc(text)
    for a in range(len(c.text) + 1):
        for b in range(a, len(c.text) + 1):
            p, q = c.span((a, b))
            assert 0 <= p <= q <= len(text)
            assert c.text[a:b] in nfc(text[p:q])


# --------------------------------------------------------------------------- cards saved decomposed

def _net_net_card(tmp_path: Path, gate_names: tuple[str, str], form: str = "NFD") -> Path:
    src = (ROOT / "frameworks" / "graham_net_net_screen.yaml").read_text(encoding="utf-8")
    src = src.replace("name: Price at Most Two-Thirds of Net Current Asset Value", f"name: {gate_names[0]}")
    src = src.replace("name: Current Assets Not Dissipated by Losses", f"name: {gate_names[1]}")
    path = tmp_path / "graham_net_net_screen.yaml"
    path.write_text(unicodedata.normalize(form, src), encoding="utf-8")
    return path


def test_a_card_saved_decomposed_loads_composed_and_reads_answers(tmp_path):
    from ipb.engine.card import load_card

    path = _net_net_card(tmp_path, ("Décote sur la Valeur Nette", "Actifs Non Dissipés"))
    assert "e\u0301" in path.read_text(encoding="utf-8")
    card = load_card(path)
    assert [g.name for g in card.gates[:2]] == ["Décote sur la Valeur Nette", "Actifs Non Dissipés"]
    for text in ("Décote sur la Valeur Nette: PASS\nActifs Non Dissipés: FAIL\nFinal verdict: DECLINE",
                 nfd("Décote sur la Valeur Nette: PASS\nActifs Non Dissipés: FAIL\nFinal verdict: DECLINE")):
        parsed = parse_response(text, card, embedder=False)
        assert [(g.gate, g.verdict, g.how) for g in parsed.gates] == [(1, "PROCEED", "name"), (2, "REJECT", "name")]
        assert parsed.final_verdict == "DECLINE"


def test_ipb_check_is_quiet_on_a_decomposed_card(tmp_path, capsys):
    from ipb.cli import main

    path = _net_net_card(tmp_path, ("Décote sur la Valeur Nette", "Actifs Non Dissipés"))
    with pytest.raises(SystemExit) as stop:
        import sys
        sys.argv = ["ipb", "check", str(path)]
        main()
    out = capsys.readouterr()
    assert stop.value.code in (0, None), out
    assert "warning" not in (out.out + out.err).replace("0 warning(s)", "")


def test_two_gate_names_that_differ_only_by_normalisation_are_one_name(tmp_path):
    """Gate 2's name is gate 1's written decomposed: the card gives it to two gates, an error at gate 2's name
    (line 86, column 11 of the bundled card's layout: '    name: ' is ten characters)."""
    from ipb.engine.card import load_card

    path = _net_net_card(tmp_path, ("Décote Nette", nfd("Décote Nette")), form="NFC")
    with pytest.raises((IpbError, ErrorGroup)) as caught:
        load_card(path)
    errors = getattr(caught.value, "errors", None) or [caught.value]
    assert [(e.line, e.column) for e in errors if "already" in str(e)] == [(86, 11)]


def test_keys_that_differ_only_by_normalisation_are_duplicates():
    with pytest.raises((IpbError, ErrorGroup)) as caught:
        load_yaml('a: 1\n"\u00e9t\u00e9": 2\n"e\u0301te\u0301": 3\n', "keys.yaml")
    errors = getattr(caught.value, "errors", None) or [caught.value]
    assert [(e.rule, e.line, e.column) for e in errors] == [("duplicate-key", 3, 1)]


def test_positions_inside_a_decomposed_string_point_at_the_file():
    """The loaded string is composed ("été > 1", 7 characters); its ">" is character 4 there, character 6 in the
    file's decomposed spelling, which starts at column 8 ("rule: '"): column 8 + 6 = 14."""
    doc = load_yaml(nfd("rule: 'été > 1'\n"), "rule.yaml")
    assert doc.data["rule"] == "été > 1"
    assert doc.locate_in_string(("rule",), doc.data["rule"].index(">")) == (1, 14)

"""Whether a financial term at a title heads its label or is a word of a noun phrase about something else (issue 13,
class G-C; paper §7.5; break41 item 12).

A writer heads a criterion with its key noun, alone or with a complement about the company: "Bewertung", "Preis der
Aktie", "Categoría de la empresa", "会社の株価". The same noun heads labels about other things: "Categoría de riesgo del
fondo" (the fund's risk class), "Preis der Studie" (the study's price), "Dimensione del campione" (the sample's size),
"ファンドの価格". Each language joins a noun to its complement in its own way, and this module reads the two common
ones:

* a complement after the term, opened by a linking word (Romance "de"/"del"/"di"/"della", German genitive article
  or "von", Scandinavian "av"/"for"/"på", English "of"): every content word of the complement must be about the
  company (:data:`COMPANY_WORDS`) or a financial term of ``grammar/gate_terms.yaml``; otherwise the label is about
  something else and the term names no gate;
* a modifier before the term joined by Japanese "の": it must be about the company (Chinese "的" also makes
  adjectives, "永久的损失", and is not read).

A German compound is one word, so "Studienpreis" never holds the term "Preis" (terms match whole words).
"""

from __future__ import annotations

import re
from functools import lru_cache

__all__ = ["COMPANY_WORDS", "heads_label"]

#: Words of a complement that keep a term the label's head: the company, its stock, its business, in each language.
COMPANY_WORDS = frozenset({
    # de
    "unternehmen", "unternehmens", "firma", "gesellschaft", "aktie", "aktien", "konzern", "konzerns", "emittent",
    "emittenten", "geschäft", "geschäfts",
    # fr
    "entreprise", "société", "action", "actions", "titre", "titres", "groupe", "émetteur",
    # es
    "empresa", "compañía", "sociedad", "acción", "acciones", "título", "títulos", "grupo", "emisor", "negocio",
    # pt
    "companhia", "ação", "ações", "negócio", "emissor",
    # it
    "azienda", "società", "impresa", "azione", "azioni", "titolo", "titoli", "gruppo", "emittente",
    # nb, da, sv
    "selskap", "selskapet", "selskapets", "selskab", "selskabet", "selskabets", "bolag", "bolaget", "bolagets",
    "aksje", "aksjen", "aksjens", "aktien", "aktiens", "virksomhed", "virksomheden", "virksomhedens", "foretaget",
    "konsernet", "koncernen",
    # en
    "company", "company's", "stock", "share", "shares", "business", "firm",
})
#: Words that join a noun to its complement after it: Romance "de"/"di" and their contractions, German genitive
#: articles and "von", Scandinavian "av"/"for"/"på"/"til", English "of". Articles inside the complement are skipped.
_LINKERS = frozenset({
    "de", "del", "della", "dello", "dei", "degli", "delle", "dell", "di", "des", "du", "d", "do", "da", "dos", "das",
    "der", "von", "vom", "av", "for", "på", "til", "of",
})
_ARTICLES = frozenset({
    "la", "las", "los", "el", "le", "les", "l", "il", "lo", "gli", "i", "o", "a", "os", "as", "the", "dem", "den", "die",
    "einer", "eines", "un", "une", "una", "uno", "um", "uma", "ein", "eine", "en", "et", "ett", "this", "its",
    "dieser", "dieses", "questa", "questo", "esta", "este", "cette", "ce",
})
_WORD = re.compile(r"[^\W\d_]+")
#: A modifier joined before the term in Japanese: "ファンドの" + term. Not Chinese 的 nor a Japanese 〜的 word: they
#: also make adjectives ("永久的損失", permanent loss: corpus n34-mrr-nihongo-dokusho-noto, tuned, lost its gate 3).
_CJK_MODIFIER = re.compile(r"([\u3040-\u30ff\u3400-\u9fff]{1,8})の\s*\Z")
#: Modifiers that keep the term about the company: the company or its stock, or today ("今の株価", the current price).
_CJK_COMPANY = re.compile(r"(?:会社|企業|同社|当社|株式|銘柄|公司|企业|该公司|該公司|本公司|个股|個股|股票|事業|业务|業務|今|現在|足元|直近|今期|当期)\Z")


@lru_cache(maxsize=1)
def _term_words() -> frozenset[str]:
    """Every word of every term of the bundled terms table, lower-cased (a financial complement: "Crescita degli utili
    netti" keeps its head when "utili" is a term word)."""
    from ipb.scoring.parse._foreign_terms import _bundled  # the table's one reader

    return frozenset(w.lower() for _, terms in _bundled() for t in terms for w in _WORD.findall(t))


def heads_label(text: str, line_start: int, start: int, end: int, label_end: int) -> bool:
    """Whether the term at ``text[start:end]`` heads its label ``text[line_start:label_end]`` (rules in the module
    docstring): False when a linked complement after it, or a の/的 modifier before it, is about something else.

    >>> t = "Categoría de riesgo del fondo: 4 de 7"
    >>> heads_label(t, 0, 0, 9, t.index(":"))
    False
    >>> t = "Categoría de la empresa: stalwart"
    >>> heads_label(t, 0, 0, 9, t.index(":"))
    True
    >>> t = "Preis der Studie: kostenlos"
    >>> heads_label(t, 0, 0, 5, t.index(":")), heads_label("Preis der Aktie: fair", 0, 0, 5, 15)
    (False, True)
    >>> t = "Dimensione del campione: 500 titoli"
    >>> heads_label(t, 0, 0, 10, t.index(":")), heads_label("Dimensione: grande", 0, 0, 10, 10)
    (False, True)
    >>> t = "ファンドの株価：高い"
    >>> heads_label(t, 0, 5, 7, 7), heads_label("会社の株価：高い", 0, 3, 5, 5)
    (False, True)
    """
    modifier = _CJK_MODIFIER.search(text, line_start, start)
    if modifier is not None and not modifier.group(1).endswith("的") and _CJK_COMPANY.search(modifier.group(1)) is None:
        return False  # "ファンドの株価": the fund's price
    words = [w.lower() for w in _WORD.findall(text, end, label_end)]
    if not words or words[0] not in _LINKERS:
        return True  # the term alone, or followed by its own words ("Bilanz und Verschuldung", "Bewertung (KGV)")
    content = [w for w in words if w not in _LINKERS and w not in _ARTICLES]
    known = COMPANY_WORDS | _term_words()
    return all(w in known for w in content)

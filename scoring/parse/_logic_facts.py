"""An answer written as logic-program facts: ``gate(2, 'Price Versus Growth', na).`` is gate 2's N/A (issue 13, layout).

A model asked for a machine-readable answer sometimes writes it as a Prolog (or Datalog) program: the case as facts, one
``gate/3`` fact per gate with a lower-case verdict atom, and a ``final_verdict/2`` fact (n56-a-lsc-frontier-prolog). A
reader takes each such fact as the labelled line it stands for, "Gate 2: Price Versus Growth: N/A", and the program's
other clauses (``category(X, turnaround) :- distressed(X).``, ``cash(co, 20.0e6).``) as code, not as labels: their
functor names are the program's words, never gate titles or verdicts. Comments (``% Gate 4: ...``) stay as they are.

:func:`rewrite_logic_facts` does this in place, keeping the text's length and line breaks so every offset stays an
offset of the original answer:

* a line that is one ``gate(N, 'Name', atom).`` fact (the name, quoted with ``'`` or ``"``, may be left out) becomes
  ``Gate N: Name: VERDICT``, space-padded, where VERDICT is the atom upper-cased (``na``, ``n_a`` and
  ``not_applicable`` are ``N/A``); an atom that is no verdict word of the parser's (:data:`VERDICT_ATOMS`) leaves the
  line as it is;
* a line that is one ``final_verdict(Subject, atom).`` or ``final_verdict(atom).`` fact becomes
  ``Final verdict: ATOM``;
* once a text holds at least one such gate fact, its other clause lines (a fact or a rule ending in a full stop, and
  ``?-`` queries) are blanked.

Every pattern is anchored at a line's start and has no nested repetition, so the scan is linear in the text.

References
----------
Paper §7.5 (SRP); issue 13 (labels with answers, layout); corpus README (labelling conventions).
"""

from __future__ import annotations

import re

#: Verdict atoms and the words they stand for; anything else is not read as a verdict.
VERDICT_ATOMS = {
    "proceed": "PROCEED", "reject": "REJECT", "inconclusive": "INCONCLUSIVE", "na": "N/A", "n_a": "N/A",
    "not_applicable": "N/A", "pass": "PASS", "passed": "PASSED", "fail": "FAIL", "failed": "FAILED",
    "unknown": "UNKNOWN",
}
#: ``gate(2, 'Price Versus Growth', na).`` on a line of its own (the name optional).
_GATE_FACT = re.compile(r"(?m)^[ \t]*gate\([ \t]*(?P<n>\d{1,2})[ \t]*,[ \t]*"
                        r"(?:(?:'(?P<q1>[^'\n]{1,80})'|\"(?P<q2>[^\"\n]{1,80})\")[ \t]*,[ \t]*)?"
                        r"'?(?P<atom>[A-Za-z_/]{1,20})'?[ \t]*\)[ \t]*\.[ \t]*$")
#: ``final_verdict(co, decline).`` or ``final_verdict(decline).`` on a line of its own.
_FINAL_FACT = re.compile(r"(?m)^[ \t]*final_verdict\((?:[ \t]*[a-z][A-Za-z0-9_]{0,30}[ \t]*,)?[ \t]*"
                         r"'?(?P<atom>[A-Za-z_]{1,40})'?[ \t]*\)[ \t]*\.[ \t]*$")
#: Another clause of the program on a line of its own: a fact, a rule's head (``survives(X) :- ...``) or a query.
_CLAUSE = re.compile(r"(?m)^[ \t]*(?:\?-|[a-z][A-Za-z0-9_]{0,40}\()[^\n]*$")


def _padded(new: str, old: str) -> str:
    return new + " " * (len(old) - len(new))


def rewrite_logic_facts(text: str) -> tuple[str, int]:
    """``text`` with its ``gate/3`` and ``final_verdict`` facts read as labelled lines and its other clauses blanked
    (same length, line breaks kept), and how many gate facts were rewritten (0: the text is returned unchanged).

    Parameters
    ----------
    text:
        The answer (or its masked copy), any length.

    Returns
    -------
    tuple[str, int]
        The rewritten text, ``len`` equal to ``len(text)``, and the number of gate facts read.

    Examples
    --------
    >>> t = "cash(co, 20.0e6).\\ngate(2, 'Price Versus Growth', na).\\nfinal_verdict(co, decline)."
    >>> out, n = rewrite_logic_facts(t)
    >>> n, out.split("\\n"), len(out) == len(t)
    (1, ['                 ', 'Gate 2: Price Versus Growth: N/A   ', 'Final verdict: DECLINE     '], True)
    >>> rewrite_logic_facts("gate(3, 'Moat', maybe).")[1]  # no verdict atom: left as written
    0
    """
    if "gate(" not in text:
        return text, 0
    spans: list[tuple[int, int, str]] = []
    for m in _GATE_FACT.finditer(text):
        verdict = VERDICT_ATOMS.get(m.group("atom").lower())
        if verdict is None:
            continue
        name = m.group("q1") or m.group("q2")
        new = f"Gate {m.group('n')}: {name}: {verdict}" if name else f"Gate {m.group('n')}: {verdict}"
        old = text[m.start() : m.end()]
        if len(new) <= len(old):
            spans.append((m.start(), m.end(), _padded(new, old)))
    if not spans:
        return text, 0
    facts = len(spans)
    taken = [(s, e) for s, e, _ in spans]
    for m in _FINAL_FACT.finditer(text):
        new = f"Final verdict: {m.group('atom').upper()}"
        old = text[m.start() : m.end()]
        if len(new) <= len(old):
            spans.append((m.start(), m.end(), _padded(new, old)))
            taken.append((m.start(), m.end()))
    for m in _CLAUSE.finditer(text):
        if not any(s <= m.start() < e for s, e in taken):
            spans.append((m.start(), m.end(), " " * (m.end() - m.start())))
    out = []
    at = 0
    for s, e, new in sorted(spans):
        out.append(text[at:s])
        out.append(new)
        at = e
    out.append(text[at:])
    return "".join(out), facts

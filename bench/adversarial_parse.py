"""Adversarial answers written by the s32break review, read by the rule parser against a careful human reading.

Run from the repository root::

    .venv/bin/python bench/adversarial_parse.py [--embedder] [PREFIX ...]

Each case is (id, card, answer, the gate verdicts a careful reader takes from it, the final verdict or "ANY"); a set
means any of its readings is right. Families: negation scope (``neg-``), verdict words in other senses (``sense-``),
gate references (``ref-``), tables (``tab-``), JSON answers (``json-``), truncated answers (``trunc-``), two lists
(``two-``), refusals (``refuse-``), very long input (``long-``), unicode tricks (``uni-``), final verdicts and other
layouts (``final-``, ...); stop 33 added 41 more over six cards (families listed where they start). The answers are
this review's own. Cases still misread are listed in
/work/notes/s32break.md (stop 32); the script prints one line per case and the count of misreads (exit 0 always: a
measurement, not a test; fixed cases have unit tests of their own under tests/scoring/).
"""

from __future__ import annotations

import sys
import time
from typing import Any

from ipb.scoring.parse import parse_response

B = "buffett_acquisition_checklist"
L6 = ["Circle of Competence", "Economic Moat", "Management Integrity", "Intrinsic Value Estimation", "Margin of Safety", "Holding Period Economics"]
def std(v, final="DECLINE", sep="\n"):
    lines = [f"Gate {i+1} ({n}): {v[i]}." for i, n in enumerate(L6)]
    return sep.join(lines) + sep + f"Final verdict: {final}" + sep
P, R, I = "PROCEED", "REJECT", "INCONCLUSIVE"
BASE = [P, P, P, P, R, P]
EXP = {i + 1: v for i, v in enumerate(BASE)}
C = []
def case(cid, text, gates, final="ANY", card=B):
    C.append((cid, card, text, gates, final))

# --- negation scope
case("neg-not-a-reject", "Gate 1 (Circle of Competence): PROCEED.\nGate 2 (Economic Moat): not a REJECT, but I would not call it a clear PROCEED either: INCONCLUSIVE.\n", {1: P, 2: I})
case("neg-no-reason-to-reject", "Circle of Competence: I see no reason to reject; it passes.\nMargin of Safety: fails.\n", {1: P, 5: R})
case("neg-does-not-pass", "Circle of Competence: passes.\nMargin of Safety: It does not pass.\n", {1: P, 5: R})
case("neg-not-only-passes", "Circle of Competence: passes.\nMargin of Safety: Not only does it pass, it passes comfortably.\n", {1: P, 5: P})
case("neg-no-one-could-say-fails", "Circle of Competence: passes.\nEconomic Moat: No one could say this gate fails; it clearly passes.\n", {1: P, 2: P})
case("neg-never-failed-audit", "Circle of Competence: passes.\nManagement Integrity: They have never failed an audit and never restated earnings. PROCEED.\n", {1: P, 3: P})
case("neg-not-below-value-fails", "Circle of Competence: passes.\nMargin of Safety: The price is not below intrinsic value, so this gate fails.\n", {1: P, 5: R})
case("neg-neither", "Circle of Competence: passes.\nEconomic Moat: I cannot say it fails, nor that it passes: INCONCLUSIVE.\n", {1: P, 2: I})
case("neg-fails-to-fail", "Circle of Competence: PROCEED.\nEconomic Moat: The bear case fails to convince me; the moat holds. PROCEED.\n", {1: P, 2: P})
# --- verdict words in other senses
case("sense-rejected-bids", "Circle of Competence: The company has rejected two takeover bids, but the business is easy to understand. Verdict: PROCEED.\nMargin of Safety: REJECT.\n", {1: P, 5: R})
case("sense-proceeded-buyback", "Circle of Competence: PROCEED.\nManagement Integrity: Management proceeded with a buyback last year and failed to hit one target, but their record is honest. Pass.\n", {1: P, 3: P})
case("sense-competitors-failed", "Circle of Competence: PROCEED.\nEconomic Moat: Three competitors failed trying to copy it. PROCEED.\n", {1: P, 2: P})
case("sense-declined-comment", "Circle of Competence: PROCEED.\nMargin of Safety: The board declined to comment. At $18B against $20B of value the margin is only 10%: REJECT.\nFinal verdict: DECLINE\n", {1: P, 5: R}, "DECLINE")
case("sense-earlier-draft", std(BASE[:4] + [P, P], "INVEST") + "(An earlier draft of this note said DECLINE; that was wrong.)\n", {5: P}, "INVEST")
case("sense-decline-to-view-g6", std(BASE, "DECLINE").replace("Gate 6 (Holding Period Economics): PROCEED.", "Gate 6 (Holding Period Economics): I decline to give a view on this one.") , {5: R, 6: {None, I}}, "DECLINE")
case("sense-pass-through", "Circle of Competence: PROCEED.\nEconomic Moat: Cost pass-through clauses protect margins; this gate passes.\nMargin of Safety: REJECT.\n", {1: P, 2: P, 5: R})
# --- gate references
case("ref-gates-3-and-4", "Gates 3 and 4 pass; gate 5 fails. Final verdict: DECLINE.", {3: P, 4: P, 5: R}, "DECLINE")
case("ref-ranges", "Gates 1-3: PROCEED.\nGates 4 through 6: REJECT.\nFinal verdict: DECLINE\n", {1: P, 2: P, 3: P, 4: R, 5: R, 6: R}, "DECLINE")
case("ref-all-but-fifth", "All six gates pass except the fifth, which fails. Final verdict: DECLINE.", {1: P, 2: P, 3: P, 4: P, 5: R, 6: P}, "DECLINE")
case("ref-see-gate-2", "Gate 1: PROCEED.\nGate 5 fails (see Gate 2 for the moat discussion).\n", {1: P, 5: R, 2: None})
case("ref-gate-7-invented", "Gate 1: PROCEED.\nGate 7 (Dividend Policy): PROCEED.\nGate 5: REJECT.\n", {1: P, 5: R})
case("ref-gate-10", "Gate 1: PROCEED\nGate 2: PROCEED\nGate 10: REJECT\n", {1: P, 2: P})
case("ref-comma-list", "Gate 1: PROCEED.\nGates 2, 3, and 6 all clear.\nGate 5: REJECT.\n", {1: P, 2: P, 3: P, 6: P, 5: R})
case("ref-steps-fail", "Step 2 and Step 4 fail. Step 1 passes.", {1: P, 2: R, 4: R})
case("ref-gate-numbers-in-money", "Gate 1: PROCEED. The firm has 5 gates at its plant and 3 factories.\nGate 5: REJECT.\n", {1: P, 5: R, 3: None})
# --- tables
case("tab-icon-vs-word", "| Gate | Status | Verdict |\n|---|---|---|\n| Circle of Competence | ✅ | PROCEED |\n| Margin of Safety | ✅ | REJECT |\n\nFinal: DECLINE\n", {1: P, 5: {R, I}}, "DECLINE")
case("tab-icons-only", "| Gate | Result |\n|---|---|\n| Circle of Competence | ✅ |\n| Economic Moat | ❌ |\n| Management Integrity | ⚠️ |\n", {1: P, 2: R, 3: I})
case("tab-swapped-cols", "| Verdict | Gate |\n|---|---|\n| PROCEED | Circle of Competence |\n| REJECT | Margin of Safety |\n", {1: P, 5: R})
case("tab-notes-fail", "| Gate | Verdict | Notes |\n|---|---|---|\n| Economic Moat | PROCEED | rivals failed to copy it |\n| Margin of Safety | REJECT | would pass below $15B |\n", {2: P, 5: R})
case("tab-no-pipes-outer", "Gate | Verdict\n--- | ---\nCircle of Competence | PASS\nMargin of Safety | FAIL\n", {1: P, 5: R})
# --- JSON
case("json-plain", '{"gates": [{"gate": "Circle of Competence", "verdict": "PROCEED"}, {"gate": "Margin of Safety", "verdict": "REJECT"}], "final_verdict": "DECLINE"}', {1: P, 5: R}, "DECLINE")
case("json-odd-keys", '{"Gate_1": "pass", "gate-5": "FAIL", "finalVerdict": "DECLINE"}', {1: P, 5: R}, "DECLINE")
case("json-nested", '{"results": {"Margin of Safety": {"outcome": "reject"}, "Economic Moat": {"outcome": "proceed"}}, "decision": "DECLINE"}', {2: P, 5: R}, "DECLINE")
case("json-trailing-comma", '```json\n{"gates": [{"gate": 1, "verdict": "PROCEED"}, {"gate": 5, "verdict": "REJECT"},], "final": "DECLINE",}\n```', {1: P, 5: R}, "DECLINE")
case("json-booleans", '{"Circle of Competence": true, "Margin of Safety": false, "invest": false}', {1: P, 5: R})
case("json-notes-word", '{"gates": [{"name": "Margin of Safety", "verdict": "PROCEED", "notes": "would REJECT if the price rose above $15B"}]}', {5: P})
case("json-verdict-null", '{"gates": [{"name": "Circle of Competence", "verdict": null}, {"name": "Margin of Safety", "verdict": "REJECT"}]}', {1: {None, I}, 5: R})
case("json-deep", '{"a": ' * 200 + '"x"' + '}' * 200, {}, None)
# --- truncated
case("trunc-mid-word", "Gate 1 (Circle of Competence): PROCEED.\nGate 2 (Economic Moat): PRO", {1: P, 2: None})
case("trunc-mid-sentence", "Gate 1 (Circle of Competence): PROCEED.\nGate 5 (Margin of Safety): The price of $18B against a value of $20B gives a margin of", {1: P, 5: None})
case("trunc-final", std(BASE).rsplit("Final verdict", 1)[0] + "Final verdict: INV", EXP, None)
case("trunc-json", '{"gates": [{"gate": "Circle of Competence", "verdict": "PROCEED"}, {"gate": "Margin of Safety", "verd', {1: P, 5: None})
# --- two lists
case("two-investors", "Under Buffett's checklist:\n1. Circle of Competence: PROCEED\n2. Economic Moat: PROCEED\n3. Margin of Safety: REJECT\n\nUnder Graham's net-net screen:\n1. Price at most two-thirds of NCAV: REJECT\n2. Current assets not dissipated: PROCEED\n\nFinal verdict (Buffett): DECLINE\n", {1: P, 2: P, 5: R}, "DECLINE")
case("two-analysts", "Analyst A (bull):\n- Economic Moat: PROCEED\n- Margin of Safety: PROCEED\n\nMy own view:\n- Economic Moat: PROCEED\n- Margin of Safety: REJECT\n\nFinal verdict: DECLINE\n", {2: P, 5: R}, "DECLINE")
# --- refusals
case("refuse-sorry", "I'm sorry, but I can't provide investment advice on this. Please consult a licensed financial advisor.", {i: None for i in range(1, 7)}, None)
case("refuse-decline-word", "Thank you for the question. While I appreciate the detail, I must respectfully decline to assess whether Berkshire should invest.", {i: None for i in range(1, 7)}, None)
case("refuse-wont-proceed", "I would rather not approve or reject this; I don't have enough information, so I won't proceed with an evaluation.", {i: None for i in range(1, 7)}, None)
case("refuse-unknown-all", "\n".join(f"{n}: unknown" for n in L6) + "\nFinal verdict: unknown\n", {i: {None, I} for i in range(1, 7)}, "INCONCLUSIVE")
# --- long
case("long-filler", std(BASE) + ("Lorem ipsum dolor sit amet, consectetur adipiscing elit. " * 4000), EXP, "DECLINE")
case("long-one-line", std(BASE, sep=" ") + ("word " * 100000), EXP, "DECLINE")
# --- unicode
case("uni-zwsp", std(BASE).replace("PROCEED", "PRO\u200bCEED").replace("Margin of Safety", "Mar\u200bgin of Safety"), EXP, "DECLINE")
case("uni-fullwidth-digits", "Gate \uff11: PROCEED\nGate \uff15: REJECT\nFinal verdict: DECLINE\n", {1: P, 5: R}, "DECLINE")
case("uni-rtl", "\u200fGate 1\u200f: PROCEED\n\u202bGate 5\u202c: REJECT\nFinal verdict: DECLINE\n", {1: P, 5: R}, "DECLINE")
case("uni-homoglyph", "Gate 1: \u0420ROCEED\nGate 5 (\u041cargin of Safety): REJE\u0421T\nFinal verdict: DECLINE\n", {1: P, 5: R}, "DECLINE")
case("uni-crlf", std(BASE, sep="\r\n"), EXP, "DECLINE")
case("uni-cr-only", std(BASE, sep="\r"), EXP, "DECLINE")
case("uni-nbsp", std(BASE).replace(" ", "\u00a0"), EXP, "DECLINE")
case("uni-fullwidth-letters", "Gate 1: \uff30\uff32\uff2f\uff23\uff25\uff25\uff24\nGate 5: \uff32\uff25\uff2a\uff25\uff23\uff34\n", {1: P, 5: R})
case("uni-soft-hyphen", std(BASE).replace("Margin", "Mar\u00adgin").replace("REJECT", "RE\u00adJECT"), EXP, "DECLINE")
case("uni-bom", "\ufeff" + std(BASE), EXP, "DECLINE")
case("uni-nfd", std(BASE).replace("Final verdict", "Final verdi\u0301ct"), EXP, "DECLINE")
case("uni-lsep", std(BASE, sep="\u2028"), EXP, "DECLINE")
# --- other
case("final-first", "Bottom line: DECLINE.\n\n" + std(BASE).rsplit("Final", 1)[0], EXP, "DECLINE")
case("final-not-invest", std(BASE).rsplit("Final", 1)[0] + "Final verdict: not INVEST.\n", EXP, "DECLINE")
case("final-leaning", std(BASE).rsplit("Final", 1)[0] + "Final verdict: I was leaning INVEST, but DECLINE until the price falls.\n", EXP, "DECLINE")
case("final-proceed-word", std([P]*6).rsplit("Final", 1)[0] + "Final verdict: PROCEED\n", {i: P for i in range(1, 7)}, "INVEST")
case("strike", "**Gate 1 — Circle of Competence:** PROCEED\n**Gate 5 — Margin of Safety:** ~~PROCEED~~ REJECT\n", {1: P, 5: R})
case("counterfactual", "Gate 1: PROCEED.\nGate 5: REJECT (if the price were below $15B it would PROCEED).\n", {1: P, 5: R})
case("quoted-other", "Gate 1: PROCEED.\nGate 2 (Economic Moat): A skeptic would say \"REJECT\" here, but I say PROCEED.\n", {1: P, 2: P})
case("all-caps", std(BASE).upper(), EXP, "DECLINE")
case("question-then-answer", "Gate 1: PROCEED.\nGate 5: REJECT? No, on reflection PROCEED.\n", {1: P, 5: P})
case("emoji-prose", "Circle of Competence ✅\nEconomic Moat ✅\nMargin of Safety ❌\n", {1: P, 2: P, 5: R})
# --- gaming the reader: every verdict at once states none
NONE = {i: None for i in range(1, 7)}
case("game-and", "".join(f"Gate {i+1} ({n}): PROCEED and REJECT\n" for i, n in enumerate(L6)) + "Final verdict: INVEST and DECLINE\n", NONE, None)
case("game-list", "".join(f"Gate {i+1} ({n}): PROCEED, REJECT, INCONCLUSIVE\n" for i, n in enumerate(L6)) + "Final verdict: INVEST, DECLINE\n", NONE, None)
case("game-slash", "".join(f"Gate {i+1} ({n}): PROCEED / REJECT\n" for i, n in enumerate(L6)) + "Final verdict: INVEST / DECLINE\n", NONE, None)
case("game-either", "".join(f"Gate {i+1} ({n}): either PROCEED or REJECT\n" for i, n in enumerate(L6)) + "Final verdict: either INVEST or DECLINE\n", NONE, None)

# --- stop 33 (s33break): 41 more, over six cards. Families: other languages (``lang-``), tables with merged, missing or
# extra cells (``mtab-``), nested lists (``nest-``), cross-references (``xref-``), rhetorical questions (``rhet-``),
# sarcasm (``sarc-``), the prompt quoted back (``prompt-``), two scenarios each with a final verdict (``scen-``; the first
# is the answer's, as a second list for another profile never overwrites it), ranges and exceptions (``range-``).
G7 = "graham_seven_tests_defensive"
MU = "munger_business_quality_price"
KL = "klarman_downside_first_process"
GB = "greenblatt_magic_formula_screen"
MK = "marks_risk_return_assessment"
case("lang-de-words", "Gate 1 (Circle of Competence): BESTANDEN \u2013 das Gesch\u00e4ft ist leicht zu verstehen.\nGate 5 (Margin of Safety): NICHT BESTANDEN, der Preis liegt \u00fcber dem Wert.\nEndg\u00fcltiges Urteil: DECLINE\n", {1: P, 5: R}, "DECLINE")
case("lang-es-labels", "C\u00edrculo de competencia (Circle of Competence): PROCEED\nMargen de seguridad (Margin of Safety): REJECT \u2014 el precio no deja colch\u00f3n.\nVeredicto final: DECLINE\n", {1: P, 5: R}, "DECLINE")
case("lang-fr-inline", "Gate 2 (Economic Moat) : l'avantage est durable, donc PROCEED.\nGate 5 (Margin of Safety) : le prix est trop \u00e9lev\u00e9 \u2014 REJECT.\nVerdict final : DECLINE\n", {2: P, 5: R}, "DECLINE")
case("lang-zh-mixed", "\u7b2c1\u9879 Circle of Competence\uff1a\u901a\u8fc7 (PROCEED)\n\u7b2c5\u9879 Margin of Safety\uff1a\u4e0d\u901a\u8fc7 (REJECT)\n\u6700\u7ec8\u7ed3\u8bba\uff1aDECLINE\n", {1: P, 5: R}, "DECLINE")
case("lang-de-graham", "Test 6 (Moderate Price/Earnings Ratio): erf\u00fcllt \u2014 KGV 12.\nTest 7 (Moderate Ratio of Price to Assets): nicht erf\u00fcllt \u2014 KBV 2,9.\nFazit: DECLINE\n", {6: P, 7: R}, "DECLINE", card=G7)
case("lang-ja-klarman", "\u4e0b\u65b9\u30ea\u30b9\u30af (Downside Assessment): PROCEED \u2014 \u8cc7\u7523\u3067\u5341\u5206\u30ab\u30d0\u30fc\u3002\n\u5b89\u5168\u57df (Margin of Safety): REJECT \u2014 \u5272\u5f15\u306f5%\u3057\u304b\u306a\u3044\u3002\n\u6700\u7d42\u5224\u65ad: DECLINE\n", {1: P, 2: R}, "DECLINE", card=KL)
case("mtab-two-gates-one-cell", "| Gate | Verdict |\n|---|---|\n| Circle of Competence, Economic Moat | PROCEED |\n| Margin of Safety | REJECT |\n", {1: P, 2: P, 5: R})
case("mtab-missing-cell", "| Gate | Evidence | Verdict |\n|---|---|---|\n| Economic Moat | PROCEED |\n| Margin of Safety | $18B price vs $20B value | REJECT |\n", {2: P, 5: R})
case("mtab-extra-cell", "| Gate | Evidence | Verdict |\n|---|---|---|\n| Economic Moat | switching costs | | PROCEED |\n| Margin of Safety | 10% | | REJECT |\n", {2: P, 5: R})
case("mtab-rowspan-blank", "| Gate | Verdict | Why |\n|---|---|---|\n| Circle of Competence | PROCEED | simple retailer |\n| | | still simple after the merger |\n| Margin of Safety | REJECT | 5% discount |\n", {1: P, 5: R})
case("mtab-graham-umbrella-row", "| Test | Result |\n|---|---|\n| Dividend Record | PASS |\n| Valuation (P/E & P/B) | FAIL |\n", {4: P, 6: R, 7: R}, card=G7)
case("mtab-greenblatt-ragged", "| Check | Verdict |\n|---|---|\n| Market-Capitalisation Floor | PASS | $2.1bn |\n| Excluded Sectors | FAIL \u2014 it is a utility |\n", {1: P, 2: R}, card=GB)
case("nest-buffett", "- Quality\n  - Circle of Competence: PROCEED\n  - Economic Moat: PROCEED\n- Price\n  - Margin of Safety: REJECT\n    - (it would pass below $15B)\n\nFinal verdict: DECLINE\n", {1: P, 2: P, 5: R}, "DECLINE")
case("nest-lettered", "1. Business\n   a. Circle of Competence \u2014 pass\n   b. Economic Moat \u2014 pass\n2. People\n   a. Management Integrity \u2014 fail: two restatements in three years\n", {1: P, 2: P, 3: R})
case("nest-graham-marks", "* Balance sheet\n    * Sufficiently Strong Financial Condition: \u2713 (current ratio 2.4)\n* Record\n    * Earnings Stability: \u2713\n    * Dividend Record: \u2717 (skipped 2009)\n", {2: P, 3: P, 4: R}, card=G7)
case("xref-see-gate-5", "Gate 1 (Circle of Competence): PROCEED.\nGate 2 (Moat) -- see gate 5.\nGate 5 (Margin of Safety): REJECT.\n", {1: P, 2: None, 5: R})
case("xref-see-then-verdict", "Gate 4 (Intrinsic Value Estimation): see gate 5 for the figures; PROCEED.\nGate 5 (Margin of Safety): REJECT.\n", {4: P, 5: R})
case("xref-munger", "Durable Competitive Advantage -- see Fair Price below; on its own it is a PASS.\nFair Price: FAIL at 45 times earnings.\n", {3: P, 5: R}, card=MU)
case("rhet-answered", "Economic Moat: Is the moat wide? Absolutely. PROCEED.\nMargin of Safety: Would anyone call an 8% discount a margin of safety? Hardly. REJECT.\n", {2: P, 5: R})
case("rhet-who-could-fail", "Circle of Competence: PROCEED.\nManagement Integrity: Who could fail a team that returned every dollar it promised?\n", {1: P, 3: {P, None}})
case("rhet-does-it-pass", "Circle of Competence: PROCEED.\nMargin of Safety: Does it pass? No. At $19B against $20B there is no cushion.\n", {1: P, 5: R})
case("rhet-munger", "Understandable Business: Can I say in one sentence how it makes money? Yes: it rents cranes. PROCEED.\nFair Price: REJECT.\n", {1: P, 5: R}, card=MU)
case("rhet-marks", "Second-Level Thinking: What does the consensus miss? Nothing I can find; this is first-level thinking. FAIL.\n", {4: R}, card=MK)
case("sarc-another-pass-not", "Circle of Competence: PROCEED.\nEconomic Moat: great, another PASS... not. Rivals copy the product within a year.\n", {1: P, 2: R})
case("sarc-oh-sure", "Circle of Competence: PROCEED.\nMargin of Safety: Oh sure, a 3% discount is a huge margin of safety. REJECT.\n", {1: P, 5: R})
case("sarc-yeah-right", "Circle of Competence: Biotech pipelines are easy to value \u2014 yeah, right. FAIL.\nEconomic Moat: PROCEED.\n", {1: R, 2: P})
case("sarc-munger-bargain", "Trustworthy Management with Aligned Incentives: PROCEED.\nFair Price: 45x earnings, what a bargain. Not. REJECT.\n", {4: P, 5: R}, card=MU)
case("prompt-quoted-instructions", "> For each gate answer PROCEED, REJECT or INCONCLUSIVE, then give INVEST or DECLINE.\n\nGate 1 (Circle of Competence): PROCEED\nGate 5 (Margin of Safety): REJECT\nFinal verdict: DECLINE\n", {1: P, 5: R}, "DECLINE")
case("prompt-quoted-example", "You gave the example \"Gate 1: REJECT\"; here is my own reading.\nGate 1 (Circle of Competence): PROCEED\nGate 5 (Margin of Safety): REJECT\n", {1: P, 5: R})
case("prompt-template-echoed", "Template:\nGate 5 (Margin of Safety): <PROCEED|REJECT|INCONCLUSIVE>\nFinal verdict: <INVEST|DECLINE>\n\nAnswer:\nGate 5 (Margin of Safety): REJECT\nFinal verdict: DECLINE\n", {5: R}, "DECLINE")
case("prompt-klarman-bear-note", "\"Downside Assessment: REJECT\" is what the bear note says. My reading: Downside Assessment: PROCEED.\nMargin of Safety: PROCEED.\n", {1: P, 2: P}, card=KL)
case("scen-a-b", "Scenario A (price $18B):\nGate 5 (Margin of Safety): REJECT\nFinal verdict: DECLINE\n\nScenario B (price $14B):\nGate 5 (Margin of Safety): PROCEED\nFinal verdict: INVEST\n", {5: R}, "DECLINE")
case("scen-today-vs-lower", "Gate 1 (Circle of Competence): PROCEED\nGate 5 (Margin of Safety): REJECT\nFinal verdict (as priced today): DECLINE.\nFinal verdict (if the price fell to $14B): INVEST.\n", {1: P, 5: R}, "DECLINE")
case("scen-klarman-stress", "Base case:\nDownside Assessment: PROCEED\nMargin of Safety: PROCEED\nPosition Sizing and Portfolio Risk: PROCEED\nFinal verdict: INVEST\n\nStress case (credit markets shut):\nMargin of Safety: REJECT\nFinal verdict: DECLINE\n", {1: P, 2: P, 3: P}, "INVEST", card=KL)
case("range-en-dash", "Gates 1\u20134: PROCEED\nGates 5\u20136: REJECT\nFinal verdict: DECLINE\n", {1: P, 2: P, 3: P, 4: P, 5: R, 6: R}, "DECLINE")
case("range-words", "Gates one to three pass; gates four through six fail.\n", {1: P, 2: P, 3: P, 4: R, 5: R, 6: R})
case("range-first-last", "The first three gates pass. The last three fail.\n", {1: P, 2: P, 3: P, 4: R, 5: R, 6: R})
case("range-graham-tests", "Tests 1 through 5: all pass.\nTests 6 and 7: fail \u2014 P/E 24, P/B 3.\nVerdict: DECLINE\n", {1: P, 2: P, 3: P, 4: P, 5: P, 6: R, 7: R}, "DECLINE", card=G7)
case("range-except-by-name", "All seven tests are met except the dividend record, which fails (a cut in 2009).\n", {1: P, 2: P, 3: P, 4: R, 5: P, 6: P, 7: P}, card=G7)
case("range-except-before-verb", "Every gate except gates 2 and 5 passes. Gate 2 fails; gate 5 fails.\n", {1: P, 2: R, 3: P, 4: P, 5: R, 6: P})
case("range-greenblatt", "Checks 1\u20133 pass; check 4 fails (rank 4,812 of 3,000).\n", {1: P, 2: P, 3: P, 4: R}, card=GB)


def main(argv: list[str]) -> int:
    embedder: Any = None if "--embedder" in argv else False
    only = [a for a in argv if not a.startswith("--")]
    chosen = [c for c in C if not only or any(c[0].startswith(o) for o in only)]
    wrong = 0
    for cid, card, text, gates, final in chosen:
        t = time.perf_counter()
        parsed = parse_response(text, card, embedder=embedder)
        seconds = time.perf_counter() - t
        got = {g.gate: g.verdict for g in parsed.gates}
        misses = [f"gate {n}: want {want} got {got.get(n)}" for n, want in gates.items()
                  if not (got.get(n) in want if isinstance(want, set) else got.get(n) == want)]
        if final != "ANY" and parsed.final_verdict != final:
            misses.append(f"final: want {final} got {parsed.final_verdict}")
        wrong += bool(misses)
        print(f"{'MISS' if misses else 'ok  '} {cid:28s} {seconds:5.2f}s {parsed.status:13s} {'; '.join(misses)}")
    print(f"misread {wrong} of {len(chosen)} (embedder {'on' if embedder is None else 'off'})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""What the report says about how refusals, parse failures and flags enter its figures: captions and notes.

Split from :mod:`ipb.report.data` (module size limit), which re-exports :data:`FLAG_RULE`,
:data:`UNREAD_FLAG_RULE`, :data:`FM5_RULE`, :data:`FAILURE_RULE_LINK`, :func:`failure_rule` and
:func:`failure_rule_in_full` (``report/html.py`` and tests import them from there).
"""

from __future__ import annotations

from typing import Any, Mapping

__all__ = ["FLAG_RULE", "UNREAD_FLAG_RULE", "FM5_RULE", "FAILURE_RULE_LINK", "failure_rule", "failure_rule_in_full"]


#: What the report says beside every failure-mode rate (flags are rates among scored responses, as in the summary).
FLAG_RULE = ("Refusals and parse failures are not in the failure-mode rates, which are over scored responses only "
             "(an unread answer has no reasoning to flag); the leaderboard's coverage column says how many there "
             "were.")

#: Why a model answering on final verdicts alone shows "—" for FM-3 and FM-5 (s53newuser finding 12).
UNREAD_FLAG_RULE = ("—: no answer of the model where the detector applies. An answer scored on its final verdict alone "
                    "(no gate read) is flagged by no detector, as a parse failure is not: FM-3 and FM-5 are read off "
                    "the gates an answer states (§7.11, KCR_det and GCF_det), and its empty trace is already at its "
                    "failure value on every gate metric (GCF, KCCS, OGRS_k, GRA 0).")
#: What the FMDP caption says of FM-5 (s45user: it flagged 3 of 3 German answers and 0 of 3 English ones laid out alike,
#: the English naming "Gate 1", "Gate 2"...; docs/scoring.md, "Notes on individual metrics").
FM5_RULE = ("FM-5's sequence clause counts English connectors (first, then, next, Gate N, Step N, followed by, "
            "subsequently) and a layout's numbered items, numbered table rows and JSON list objects, and fires when "
            "they are fewer than 0.40 (n_G - 1), n_G every gate of the card, reached or not (§7.11): so it fires on "
            "faithful prose that walks the gates in other words (s54newuser: first ... too ... But on a 5-gate card, "
            "1/4 = 0.25), not on a numbered list or table. In an answer in another language it also counts that "
            "language's gate nouns before a number (Paso 2) and its word for first, and it is not judged on an "
            "answer in a language with no word lists (s49fair).")


#: The words of :func:`failure_rule` that the page links to the full rule (``report/html.py``).
FAILURE_RULE_LINK = "How failures count"


def failure_rule(policy: str) -> str:
    """The sentence every caption carries: how refusals and parse failures enter the means beside it, in short.

    The rule in full (:func:`failure_rule_in_full`, about 900 characters) is on the page once, under the leaderboard;
    each caption says the gist and points there (s52newuser: the full paragraph under every section).

    >>> failure_rule("count")[:46]
    'Refusals and parse failures count in each mean'
    """
    rest = (" Skipped items (asked and never answered) are in no mean; the leaderboard ranks each as 0. A KCCS unknown "
            "is left out of the KCCS mean and its composite is renormalised, never 0 or 1. In full: "
            f"{FAILURE_RULE_LINK}, under the leaderboard.")
    if policy == "count":
        return ("Refusals and parse failures count in each mean, CI and rank at the value they were owed (0; NED 1, "
                "tau -1), refusals of every kind (committed to nothing included)." + rest)
    return ("Refusals and parse failures are LEFT OUT of each mean here (ipb score --exclude-failures, or a summary "
            "written before failures counted): read each mean beside its coverage." + rest)


def failure_rule_in_full(policy: str) -> str:
    """How refusals, parse failures, skipped items and KCCS unknowns enter the means: said once, under the leaderboard.

    >>> failure_rule_in_full("count")[:46]
    'Refusals and parse failures count in each mean'
    """
    unread = (" An answer with no gate read but a stated final verdict is scored and in coverage: VerdictAcc reads its "
              "verdict, every other metric is at its failure value.")
    # a figure users rank by must not reward failing: say where skipped items went, beside every mean (s49report)
    unread += (" Skipped items (asked and never answered: run errors; or in the items file with no response) are in "
               "no mean here: the leaderboard ranks each as 0 (its Ranked on column) and its coverage counts them.")
    # unknowns count too, and say how where a composite or KCCS is shown (s51report: only the notes and the profiles'
    # axis said it, not the tables' captions)
    unread += (" Refusals are of every kind the scorer gives (declined, empty, off-topic, committed to nothing); a "
               "KCCS unknown (a kill gate reached, its elements not told in the answer's language) is left out of "
               "the KCCS mean and its composite is renormalised over the other terms, never 0 or 1.")
    if policy == "count":
        return ("Refusals and parse failures count in each mean, CI and rank: each is in it at the value it was owed "
                "(0; NED 1, tau -1), as in the leaderboard; each cell says how many (n of N, and in its tooltip)." + unread)
    return ("Refusals and parse failures are LEFT OUT of each mean here (ipb score --exclude-failures, or a summary "
            "written before failures counted): read each mean beside its coverage." + unread)


def _option_notes(options: Mapping[str, Any], policy: str = "exclude") -> list[str]:
    notes = []
    if policy == "count":
        notes.append("Failures count: refusals and parse failures score 0 on every metric they were owed (NED 1, "
                     "tau -1) and are in every mean, CI and rank; coverage is the share of what was owed that was "
                     "scored (a refusal, a parse failure, a run error and an item of the items file with no answer "
                     "each count against it).")
    else:
        notes.append("Failures excluded: refusals and parse failures are left out of every mean and CI here "
                     "(ipb score --exclude-failures, or a summary written before failures counted), but the rank "
                     "counts each as 0; coverage shows how many there were.")
    rules = options.get("rules") if isinstance(options.get("rules"), Mapping) else None
    if rules:
        notes.append("Paper rules: " + "; ".join(f"{k} = {v}" for k, v in rules.items()) + " (docs/scoring.md).")
    if options:
        notes.append(
            f"Intervals: percentile bootstrap, {options.get('n_resamples', '?')} resamples, seed "
            f"{options.get('seed', '?')}, confidence {options.get('confidence', '?')}. Encoder: "
            f"{options.get('encoder', '?')}.")
    notes.append("Each number's source is in its tooltip: a JSON pointer into summary.json, or how it was derived "
                 "from responses.jsonl where the summary has no such breakdown.")
    return notes


def _extractor_notes(options: Mapping[str, Any], agreement: Any) -> list[str]:
    """The report's line on how gate traces were read (``options.extractor``) and, for ``--extractor both``, the
    rules-vs-LLM agreement (``extractor_agreement``; s65 F2: it was on stderr only). Nothing for a summary written
    before either was recorded.

    >>> _extractor_notes({"extractor": {"name": "both", "llm_model": "m"}},
    ...                  {"answers_compared": 0, "llm_unread": 3, "measured": False, "gate_verdicts": {"kappa": None, "n": 0}})
    ['Extractor: both (LLM m). Rules vs LLM agreement: not measured (0 answers read both ways, kappa undefined; 3 answer(s) had no LLM reading).']
    """
    ext = options.get("extractor") if isinstance(options.get("extractor"), Mapping) else None
    if not ext:
        return []
    line = f"Extractor: {ext.get('name', '?')}" + (f" (LLM {ext['llm_model']})" if ext.get("llm_model") else "") + "."
    if isinstance(agreement, Mapping):
        unread = int(agreement.get("llm_unread") or 0)
        tail = f"; {unread} answer(s) had no LLM reading" if unread else ""
        if not agreement.get("measured"):
            line += f" Rules vs LLM agreement: not measured (0 answers read both ways, kappa undefined{tail})."
        else:
            parts = []
            for key in ("gate_presence", "gate_verdicts", "final_verdict"):
                f = agreement.get(key)
                if isinstance(f, Mapping):
                    k = f.get("kappa")
                    parts.append(f"{key.replace('_', ' ')} kappa {'undefined' if k is None else round(float(k), 3)} "
                                 f"(n={f.get('n')})")
            line += (f" Rules vs LLM agreement over {agreement.get('answers_compared')} answer(s): " + "; ".join(parts)
                     + f"; {agreement.get('disagreements', 0)} disagreement(s){tail} (summary.json extractor_agreement).")
    return [line]

"""The keys and values of JSON-shaped answers the parser knows (:mod:`._json_answer` reads them; moved here unchanged).

Field keys (an answer's data about itself), rating keys and the persona bots' rating values, the keys that name a
failure or hold a verdict word, yes / no answers on key-value lines, pass marks beside a score, and a string value
that is one figure.
"""

from __future__ import annotations

import math
import re

from ipb.scoring import verdict_words as vw
from ipb.scoring.parse._question_columns import APPROVAL_KEY

#: Keys that hold the answer's data about itself, never a criterion (never an invented gate, never a gate's verdict).
FIELD_KEYS = frozenset({
    "signal", "confidence", "reasoning", "reason", "rationale", "details", "detail", "explanation", "summary", "analysis",
    "notes", "note", "comment", "comments", "score", "max_score", "ticker", "symbol", "company", "name", "agent", "date",
    "thesis", "value", "values", "data", "metrics", "weight", "id", "item", "strategy", "portfolio", "instrument",
})
#: Keys whose value is a rating: at the top a final-verdict candidate, inside a gate's sub-object that gate's verdict.
RATING_KEYS = frozenset({"signal", "recommendation", "rating", "action", "stance", "call", "verdict", "decision", "assessment",
                         "result", "status", "outcome"})
#: Rating values of persona bots: bullish -> PROCEED, bearish -> REJECT, neutral -> INCONCLUSIVE.
_RATING_VALUES = {"bullish": vw.PROCEED, "positive": vw.PROCEED, "bearish": vw.REJECT, "negative": vw.REJECT,
                  "neutral": vw.INCONCLUSIVE, "mixed": vw.INCONCLUSIVE}
#: A key that names a failure or a kill: its ``true`` says the gate fails ("kill_triggered": true, "red_flag": true).
_FAILURE_KEY = re.compile(r"(?i)fail|trigger|breach|violat|red[ _-]?flag|kill|exclu|warning|flag")
_BOOL = {"true": True, "false": False, "yes": True, "no": False}
#: A key that holds a verdict word: its yes / no answer is a verdict ("passed": false, "meets_test": true).
#: A key naming the approving state ("favourable", "posture_fits", "story_intact") holds one too (:mod:`._question_columns`).
_VERDICT_KEY = re.compile(r"(?i)pass|(?<![a-z])met(?![a-z])|meet|satisf|clear|qualif|eligible|(?<![a-z])ok(?![a-z])|" + APPROVAL_KEY.pattern)
#: A key-value line whose whole value is a yes / no answer, in a YAML-like block or a JSON object:
#: "economic_moat: true", "  - management_integrity: no", '"moat": "yes",'. The tail after the value is possessive
#: (s54redos: a run of spaces after "true" was split two ways around the optional brackets on every line start).
_YAML_ANSWER = re.compile(r"(?im)^[ \t>]*(?:[-*][ \t]+)?[\"']?(?P<key>[A-Za-z_][\w /-]{0,40}?)[\"']?[ \t]*:[ \t]*[\"']?"
                          r"(?P<value>true|false|yes|no)[\"']?[ \t]*+[,}\]]{0,4}+[ \t]*+$")
_YAML_ANSWER_HINT = re.compile(r"(?i):[ \t]*[\"']?(?:true|false|yes|no)\b")
#: Keys that state a score's pass mark beside it.
_PASS_MARK_KEYS = frozenset({"pass_threshold", "threshold", "passing_score", "pass_score", "pass_mark", "min_score", "minimum_score",
                             "required_score", "min_pass", "cutoff", "pass_at"})


def _number(token: str) -> float | None:
    try:
        value = float(token)
    except ValueError:
        return None
    return value if math.isfinite(value) else None

_JSON_TRUE = vw.VerdictWord(r"(?!)", vw.PROCEED, (), negatable=False)
_JSON_FALSE = vw.VerdictWord(r"(?!)", vw.REJECT, (), negatable=False)
_JSON_RATING = vw.VerdictWord(r"(?!)", vw.PROCEED, (), negatable=False)

#: A string value that is one figure: an optional sign or bracket, currency, digits, a scale or unit ("$1.2B", "(3.5)%",
#: "2.3x", "EUR 40m", "14 %"). Each run of spacing is possessive (s54redos: "(" and 8,000 spaces split two ways, 1.8 s).
_FIGURE = re.compile(r"(?i)[-+(]?[ \t]*+(?:[$\u20ac\u00a3\u00a5]|usd|eur|gbp|jpy)?[ \t]*+[-+]?\d[\d,.]*(?:e[-+]?\d+)?\)?[ \t]*+"
                     r"(?:%|x|bps?|bp|[kmbt]n?|mm|bn|tn|million|billion|trillion|thousand|times|years?)?\)?|n/m|not\s+meaningful")

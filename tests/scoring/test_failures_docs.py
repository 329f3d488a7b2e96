"""Regression (docs contradicting the tool): no page says a parse failure is "never a zero".

newuser3 found docs/scoring.md saying an unreadable answer is recorded "as
unscored ... never as a zero", while its own "Failures count" section, the
README and ``ipb score`` score it 0 on every metric it was owed. Every
paragraph of README.md and docs/ that speaks of parse failures (or
unreadable answers) must not say they are kept out of the means or never
zero, unless it is describing ``--exclude-failures`` (or the judge's own
unreadable samples, §7.5 placeholders, which are not the model's failure).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ipb.scoring.run import ScoreOptions
from ipb.scoring.summary import summarize

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
ABOUT_FAILURES = re.compile(r"parse failure|cannot (be )?(read|parse)|unreadable", re.I)
CONTRADICTS = re.compile(r"never (as )?a zero|not (as )?a zero|never (scored|counted) (as )?0|"
                         r"(excluded|left out) (from|of) (the |every )?means?", re.I)


def _paragraphs(path: Path) -> list[str]:
    return [" ".join(p.split()) for p in re.split(r"\n\s*\n", path.read_text(encoding="utf-8"))]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_no_page_says_a_parse_failure_is_left_out_of_the_means(page: Path) -> None:
    for paragraph in _paragraphs(page):
        if "judge" in paragraph.lower():  # the judge's unreadable samples (§7.5 placeholders) are not the model's
            continue
        if ABOUT_FAILURES.search(paragraph) and CONTRADICTS.search(paragraph):
            assert "--exclude-failures" in paragraph or 'failures="exclude"' in paragraph, (page.name, paragraph[:300])


def test_the_parser_section_says_what_the_tool_does_with_a_parse_failure() -> None:
    text = " ".join((ROOT / "docs" / "scoring.md").read_text(encoding="utf-8").split())
    sentence = text[text.index("An answer the parser cannot read is a parse failure"):][:400]
    assert "never as a zero" not in sentence and "scores it 0 on every metric it was owed" in sentence
    # and that is what the tool does: a parse failure's owed 0 is in the mean
    records = [{"model": "m", "status": "scored", "metrics": {"gra": 1.0}},
               {"model": "m", "status": "unscored", "reason_code": "parse_failure", "owed": {"gra": 0.0}}]
    gra = summarize(records, options=ScoreOptions(n_resamples=50, embeddings=False))["groups"]["model"]["m"]
    assert gra["metrics"]["gra"]["mean"] == 0.5 and gra["n_parse_failures"] == 1

"""The report opens in headless Chromium without console errors, and its first screen shows the leaderboard.

Needs Debian's ``chromium`` (``apt-get install -y chromium``); skipped, with
that reason, only when no Chromium binary is installed. Set
``IPB_REPORT_SCREENSHOT=PATH`` to keep the screenshot.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from report_chromium import Browser, chromium_binary

pytestmark = pytest.mark.skipif(
    chromium_binary() is None,
    reason="no Chromium binary: install Debian's chromium (apt-get install -y chromium) to run the browser tests",
)

WIDTH, HEIGHT = 1400, 1000


def test_report_opens_without_console_errors_and_shows_the_leaderboard(report_path: Path, tmp_path: Path) -> None:
    from PIL import Image

    with Browser(width=WIDTH, height=HEIGHT) as browser:
        page = browser.open(report_path)
        assert page.errors == [], page.errors
        assert page.evaluate("document.documentElement.getAttribute('data-drill-ready')") not in (None, "0")
        box = page.evaluate(
            "(() => { const r = document.getElementById('leaderboard-table').getBoundingClientRect();"
            " return [r.left, r.top, r.right, r.bottom]; })()")
        rows = page.evaluate("document.querySelectorAll('#leaderboard-table tbody tr').length")
        visible = page.evaluate(
            "(() => { const t = document.getElementById('leaderboard-table'); const s = getComputedStyle(t);"
            " return s.display !== 'none' && s.visibility !== 'hidden' && t.offsetHeight > 0; })()")
        png = page.screenshot()
        assert page.errors == [], page.errors
    keep = os.environ.get("IPB_REPORT_SCREENSHOT")
    (Path(keep) if keep else tmp_path / "report.png").write_bytes(png)

    assert rows >= 3 and visible
    left, top, right, bottom = box
    assert 0 <= left < right <= WIDTH and 0 <= top < HEIGHT, box
    image = Image.open(io.BytesIO(png)).convert("L")
    assert image.size == (WIDTH, HEIGHT)
    # the leaderboard's part of the screen holds text: dark pixels on the light page
    region = image.crop((int(left), int(top), int(right), int(min(bottom, HEIGHT))))
    dark = sum(region.histogram()[:100])
    assert dark > 0.01 * region.size[0] * region.size[1], dark


def test_drill_down_marks_the_text_behind_each_extraction(report_path: Path) -> None:
    with Browser(width=WIDTH, height=HEIGHT) as browser:
        page = browser.open(report_path)
        # the first response with a gate mismatch is selected on load
        assert page.evaluate("document.querySelectorAll('#drill-detail table.align tr.mismatch').length") > 0
        marks = page.evaluate("document.querySelectorAll('#drill-detail pre.text mark').length")
        assert marks > 0
        # clicking a row marks that gate's spans
        page.evaluate("document.querySelector('#drill-detail table.align tbody tr').click()")
        assert page.evaluate("document.querySelectorAll('#drill-detail mark.active').length") >= 1
        # filters: one model, then the unscored answers, whose text is shown as text
        page.evaluate(
            "(() => { const s = document.getElementById('drill-status'); s.value = 'unscored';"
            " s.dispatchEvent(new Event('change')); })()")
        listed = page.evaluate("document.querySelectorAll('#drill-app .list tbody tr').length")
        assert listed >= 1
        page.evaluate("document.querySelector('#drill-app .list tbody tr').click()")
        assert page.evaluate("window.__pwned === undefined")
        assert page.evaluate("document.querySelectorAll('#drill-detail img, #drill-detail b').length") == 0
        page.settle()
        assert page.errors == [], page.errors


def test_a_response_shows_its_question_prompt_and_transcript(report_path: Path, run_dir: Path) -> None:
    """Issue 14 item 5: per response, the question, the exact prompt messages and the answer."""
    import json

    PROMPTED_MODEL = "model-prompted"  # tests/report/conftest.py names it; "import conftest" may find another folder's
    from ipb.respond.prompts import RESPOND_PROMPTS, load_prompts

    scored = (run_dir / "results" / "responses.jsonl").read_text(encoding="utf-8").split("\n")
    records = [json.loads(line) for line in scored if line.strip()]
    record = next(r for r in records if r["model"] == PROMPTED_MODEL)
    lines = (run_dir / "items.jsonl").read_text(encoding="utf-8").split("\n")
    items = {i["id"]: i for i in (json.loads(line) for line in lines if line.strip())}
    question = items[record["item_id"]]["question"]
    system = load_prompts(RESPOND_PROMPTS).render("system")
    with Browser(width=WIDTH, height=HEIGHT) as browser:
        page = browser.open(report_path)
        page.evaluate(
            "(() => { const s = document.getElementById('drill-model'); s.value = %s;"
            " s.dispatchEvent(new Event('change')); })()" % json.dumps(PROMPTED_MODEL))
        page.evaluate("document.querySelector('#drill-app .list tbody tr').click()")
        roles = page.evaluate("Array.from(document.querySelectorAll('#drill-prompt pre.message'))"
                              ".map(p => p.getAttribute('data-role'))")
        texts = page.evaluate("Array.from(document.querySelectorAll('#drill-prompt pre.message')).map(p => p.textContent)")
        shown_question = page.evaluate("document.querySelector('#drill-detail pre.question').textContent")
        transcript = page.evaluate("Array.from(document.querySelectorAll('#drill-detail pre.text'))"
                                   ".map(p => p.textContent).pop()")
        why = page.evaluate("document.querySelectorAll('#drill-why li').length")
        visible = page.evaluate("document.getElementById('drill-prompt').offsetHeight > 0")
        assert page.errors == [], page.errors
    assert roles == ["system", "user"] and visible
    assert texts[0] == system and question.strip() in texts[1]
    assert shown_question == question
    assert transcript == record_text(run_dir, record)
    assert why > 0


def record_text(run_dir: Path, record: dict) -> str:
    """The answer text of a scored record, read back from the responses file it came from."""
    import json

    line = (run_dir / "responses.jsonl").read_text(encoding="utf-8").split("\n")[record["record"] - 1]
    return json.loads(line)["response"]


def test_the_browser_leaves_nothing_in_the_temporary_folder(report_path: Path, request: pytest.FixtureRequest,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Chromium's own org.chromium.Chromium.* folders and the profile go when the browser closes."""
    import shutil
    import tempfile

    outer = Path(tempfile.mkdtemp(prefix="ipbt-", dir="/tmp"))  # short: Chromium's socket path is bounded
    request.addfinalizer(lambda: shutil.rmtree(outer, ignore_errors=True))
    monkeypatch.setenv("TMPDIR", str(outer))
    monkeypatch.setattr(tempfile, "tempdir", str(outer))
    with Browser(width=WIDTH, height=HEIGHT) as browser:
        page = browser.open(report_path)
        assert page.errors == [], page.errors
        assert any(outer.iterdir())  # the profile is there while the browser runs
    assert sorted(p.name for p in outer.iterdir()) == []

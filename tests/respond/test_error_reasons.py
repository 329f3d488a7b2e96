"""``ipb respond`` says why records failed, not only how many (s34user).

A new user's run ended "120 record(s), 100 ok, 20 error(s)" and exit 1; the reason (condition B
refused an investor the registry lacks) was only in each record's ``error`` field. The closing
lines now group the failed records by condition and error text, most frequent first.
"""

from __future__ import annotations

from pathlib import Path

from ipb.respond.jobs import RunResult, _count

UNKNOWN = "investor 'John Neff' is not in the registry, so condition B has no knowledge cards for it"


def _run(records):
    result = RunResult(out=Path("r.jsonl"), total=len(records))
    for record in records:
        _count(result, record)
    return result


def test_failed_records_grouped_by_condition_and_reason():
    records = ([{"status": "ok", "condition": "A"}] * 3
               + [{"status": "error", "condition": "B", "error": UNKNOWN}] * 2
               + [{"status": "error", "condition": "C", "error": "server: HTTP 500:\n  boom (after 7 attempts)"}])
    result = _run(records)
    assert (result.ok, result.errors) == (3, 3)
    assert result.error_lines() == [f"2 x condition B: {UNKNOWN}", "1 x condition C: server: HTTP 500: boom (after 7 attempts)"]


def test_beyond_the_limit_the_rest_is_counted():
    records = [{"status": "error", "condition": "A", "error": f"reason {k}"} for k in range(5)]
    lines = _run(records).error_lines(limit=2)
    assert lines[:2] == ["1 x condition A: reason 0", "1 x condition A: reason 1"]
    assert lines[2].startswith("... and 3 record(s) failing for 3 other reason(s)")


def test_no_errors_no_lines():
    assert _run([{"status": "ok", "condition": "A"}]).error_lines() == []


def test_an_html_error_page_is_one_short_reason():
    """A proxy's 502 page (about 2 kB of HTML) under every failed record: one line, its tags gone, shortened
    (s34read nit: it was printed whole)."""
    page = ("<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title><script>var x = 1;</script></head>\n"
            "<body><center><h1>502 Bad Gateway</h1></center>" + "<p>" + "filler " * 300 + "</p></body></html>")
    records = [{"status": "error", "condition": "A", "error": f"server: HTTP 502: {page}"}] * 4
    [line] = _run(records).error_lines()
    assert line.startswith("4 x condition A: server: HTTP 502: 502 Bad Gateway 502 Bad Gateway filler filler")
    assert "<" not in line and "var x" not in line
    assert len(line) == len("4 x condition A: ") + 300 and line.endswith("...")


def test_an_html_pages_entities_are_read_s35break():
    """s35break: the tags went but the entities stayed ('Service&nbsp;Unavailable &amp; retry'); a reason that is no
    HTML page keeps its text as written (an API's JSON saying 'must be < 4096' or '&amp;')."""
    from ipb.respond.jobs import error_reason

    page = "HTTP 503: <html><body><p>Service&nbsp;Unavailable &amp; retry&#33;</p></body></html>"
    assert error_reason(page) == "HTTP 503: Service Unavailable & retry!"
    assert error_reason('HTTP 400: {"error": "max_tokens must be < 4096 &amp; > 0"}') == \
        'HTTP 400: {"error": "max_tokens must be < 4096 &amp; > 0"}'

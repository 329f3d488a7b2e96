"""Decision-time evidence (``ipb.neighbours.evidence``, seed 003 Appendix B.2) and the shared JSON reader.

The cutoff rule: a version is eligible when its availability strictly
precedes min(cutoff, access limit); a date-only stamp becomes available when
its date ends (so a cutoff given as a date means the end of that date, and a
record dated on the cutoff day is not eligible).
"""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
from decimal import Decimal
from functools import lru_cache
from importlib import resources
from pathlib import Path

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from ipb.cli import app
from ipb.engine._json import load_json_text
from ipb.engine.decision_time import (
    decision_time_violations,
    eligible_before,
    is_available,
    parse_stamp,
    require_decision_time,
)
from ipb.neighbours.evidence import EvidenceStore
from ipb.errors import ErrorGroup, IpbError, LoadError, PerturbError

FIX = Path(__file__).parents[1] / "fixtures" / "issue8" / "evidence"
runner = CliRunner()
UTC = dt.timezone.utc


@lru_cache(maxsize=1)
def output_validator() -> jsonschema.Draft202012Validator:
    text = resources.files("ipb.grammar").joinpath("neighbouring_outputs.schema.json").read_text(encoding="utf-8")
    return jsonschema.Draft202012Validator(json.loads(text))


# --------------------------------------------------------------------------- stamps and the cutoff rule


@pytest.mark.parametrize(
    "text, zone, expected, precision",
    [
        ("2026-03-31", "UTC", "2026-04-01T00:00:00.000000Z", "date"),  # available when the date ends
        ("2026-03-31", "America/New_York", "2026-04-01T04:00:00.000000Z", "date"),  # EDT, UTC-4
        ("2026-01-15", "America/New_York", "2026-01-16T05:00:00.000000Z", "date"),  # EST, UTC-5
        ("2026-03-31T16:00:00-04:00", "UTC", "2026-03-31T20:00:00.000000Z", "datetime"),
        ("2026-03-31T20:00:00Z", "UTC", "2026-03-31T20:00:00.000000Z", "datetime"),
        ("2026-03-31T20:00:00.25+00:00", "UTC", "2026-03-31T20:00:00.250000Z", "datetime"),
    ],
)
def test_parse_stamp(text, zone, expected, precision):
    stamp = parse_stamp(text, date_timezone=zone)
    assert (stamp.key, stamp.precision, stamp.text) == (expected, precision, text)


@pytest.mark.parametrize(
    "value, fragment",
    [
        ("2026-03-31T16:00:00", "has no time zone"),
        (dt.datetime(2026, 3, 31, 16), "has no time zone"),
        ("2026-02-30", "is not a calendar date"),
        ("31/03/2026", "is not an ISO date"),
        (20260331, "must be an ISO date"),
    ],
)
def test_parse_stamp_refuses_ambiguous_or_malformed_values(value, fragment):
    with pytest.raises(LoadError, match=fragment) as info:
        parse_stamp(value)
    assert info.value.rule == "timestamp"


def test_unknown_zone_is_an_error():
    with pytest.raises(LoadError, match="unknown time zone 'Mars/Olympus'"):
        parse_stamp("2026-03-31", date_timezone="Mars/Olympus")


def test_availability_must_strictly_precede_the_bound():
    assert is_available("2026-03-31T19:59:59.999999Z", "2026-03-31T20:00:00Z")
    assert not is_available("2026-03-31T20:00:00Z", "2026-03-31T20:00:00Z")
    # date-only against a date-only cutoff: the day before is in, the day itself is out
    assert is_available("2026-03-30", "2026-03-31") and not is_available("2026-03-31", "2026-03-31")
    # date-only record, instant cutoff: only once its day is over
    assert not is_available("2026-03-31", "2026-03-31T23:59:59Z") and is_available("2026-03-31", "2026-04-01T00:00:01Z")
    # a time on the cutoff day itself is in
    assert is_available("2026-03-31T10:00:00Z", "2026-03-31")


def test_the_access_limit_binds_when_earlier():
    assert eligible_before("2026-03-31", "2026-03-01").text == "2026-03-01"
    assert eligible_before("2026-03-01", "2026-03-31").text == "2026-03-01"
    assert not is_available("2026-03-15", "2026-03-31", access_limit="2026-03-10")
    assert is_available("2026-03-05", "2026-03-31", access_limit="2026-03-10")


# --------------------------------------------------------------------------- the perturbation API


def test_decision_time_violations_for_a_perturbed_scenario():
    facts = {"q1_revenue": "2024-04-23", "q2_deliveries": "2024-07-02", "guidance": "2024-06-30T14:00:00Z",
             "same_day": "2024-06-30"}
    found = decision_time_violations(facts, "2024-06-30")
    assert [v.name for v in found] == ["q2_deliveries", "same_day"]
    assert "not before the decision-time bound 2024-06-30" in found[0].message
    assert decision_time_violations(facts, "2024-07-05", access_limit="2024-06-30") == found


def test_require_decision_time_refuses_look_ahead():
    require_decision_time({"q1": "2024-04-23"}, "2024-06-30")  # nothing raised
    with pytest.raises(PerturbError) as info:
        require_decision_time({"q1": "2024-04-23", "q2": "2024-07-25", "q3": "2024-10-23"}, "2024-06-30")
    assert (info.value.rule, info.value.name) == ("look-ahead", "q2")
    assert "'q2'" in info.value.message and "'q3'" in info.value.message


# --------------------------------------------------------------------------- the store


@pytest.fixture
def store() -> EvidenceStore:
    s = EvidenceStore()
    s.import_file(FIX / "tesla.jsonl")
    return s


def versions(found) -> list[tuple[str, str]]:
    return [(d.doc_id, d.version) for d in found]


def test_latest_mode_takes_the_latest_eligible_version(store):
    # v0 (13:00Z on July 2) precedes v1, which is dated July 2 and so available from July 3, 00:00Z.
    assert versions(store.query("2024-07-02T12:00:00Z")) == [("tsla-10k-2023", "v1")]
    assert versions(store.query("2024-07-02T23:00:00Z")) == [("tsla-10k-2023", "v1"), ("tsla-q2-deliveries", "v0")]
    assert versions(store.query("2024-07-03")) == [("tsla-10k-2023", "v1"), ("tsla-q2-deliveries", "v1")]
    # the 10-Q came out July 23, 20:05 EDT = July 24, 00:05Z
    assert ("tsla-10q-q2", "v1") not in versions(store.query("2024-07-23"))
    assert ("tsla-10q-q2", "v1") in versions(store.query("2024-07-24T00:06:00Z"))


def test_history_mode_returns_every_eligible_version_in_time_order(store):
    found = store.query("2024-07-05", history=True, doc_ids=["tsla-q2-deliveries"])
    assert [d.version for d in found] == ["v0", "v1"]
    assert [d.version for d in store.query("2024-07-02T23:00:00Z", history=True, doc_ids=["tsla-q2-deliveries"])] == ["v0"]


def test_access_limit_and_filters(store):
    assert versions(store.query("2024-12-31", access_limit="2024-02-01")) == [("tsla-10k-2023", "v1")]
    assert versions(store.query("2024-12-31", category="filing")) == [("tsla-10k-2023", "v1"), ("tsla-10q-q2", "v1")]
    assert versions(store.query("2024-12-31", search="GROSS MARGIN")) == [("tsla-10q-q2", "v1")]
    assert store.latest("tsla-10q-q2", "2024-12-31").metadata == {"form": "10-Q"}
    assert store.latest("tsla-10q-q2", "2024-07-01") is None


def test_equal_availability_is_broken_by_collection_order():
    s = EvidenceStore()
    s.add("d", "first", "2024-01-01T00:00:00Z")
    s.add("d", "second", "2024-01-01T00:00:00Z")
    assert s.latest("d", "2024-02-01").version == "second"
    assert [d.version for d in s.query("2024-02-01", history=True)] == ["first", "second"]


def test_a_file_is_imported_whole_or_not_at_all(store):
    before = store.versions()
    with pytest.raises(ErrorGroup) as info:
        store.import_file(FIX / "bad_evidence.jsonl")
    assert store.versions() == before
    found = [(e.rule, e.line, e.column) for e in info.value.errors]
    assert found == [
        ("timestamp", 1, 46),  # no time zone
        ("timestamp", 2, 46),  # February 30
        ("schema:additionalProperties", 3, 57),  # 'titel', did you mean 'title'
        ("duplicate-version", 5, 24),
    ]
    assert all(str(e).split(": ")[2].startswith("record ") for e in info.value.errors)


def test_reopening_a_store_keeps_its_zone(tmp_path):
    path = tmp_path / "ev.db"
    with EvidenceStore(path, date_timezone="America/New_York") as s:
        s.add("d", "v1", "2024-03-01")
    with EvidenceStore(path) as s:
        assert s.date_timezone == "America/New_York"
        assert s.latest("d", "2024-03-02T04:59:00Z") is None and s.latest("d", "2024-03-02T05:01:00Z") is not None
    with pytest.raises(LoadError, match="was created with date_timezone 'America/New_York'"):
        EvidenceStore(path, date_timezone="UTC")


def test_a_foreign_database_is_refused(tmp_path):
    path = tmp_path / "other.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        db.execute("INSERT INTO meta VALUES ('store_version', '99')")
    with pytest.raises(LoadError, match="version 99"):
        EvidenceStore(path)
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database at all" * 100)
    with pytest.raises(LoadError, match="is not an evidence store"):
        EvidenceStore(junk)


# --------------------------------------------------------------------------- the property


def _stamp_text(draw_value: tuple[int, int, bool, int]) -> str:
    minutes, offset_hours, date_only, _ = draw_value
    moment = dt.datetime(2024, 1, 1, tzinfo=UTC) + dt.timedelta(minutes=minutes)
    if date_only:
        return moment.date().isoformat()
    return moment.astimezone(dt.timezone(dt.timedelta(hours=offset_hours))).isoformat()


stamp_strategy = st.tuples(
    st.integers(0, 60 * 24 * 20),  # within twenty days, to the minute
    st.integers(-12, 14),  # written in some zone
    st.booleans(),  # or as a bare date
    st.integers(0, 3),  # which document
).map(lambda t: (_stamp_text(t), f"doc{t[3]}"))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(stamp_strategy, min_size=1, max_size=12), stamp_strategy, st.one_of(st.none(), stamp_strategy))
def test_cutoff_queries_never_return_a_version_available_after_the_cutoff(entries, cutoff, limit):
    s = EvidenceStore()
    for i, (text, doc) in enumerate(entries):
        s.add(doc, f"v{i}", text)
    cutoff_text = cutoff[0]
    limit_text = None if limit is None else limit[0]
    bound = min(parse_stamp(cutoff_text).instant, parse_stamp(limit_text).instant if limit_text else parse_stamp(cutoff_text).instant)
    history = s.query(cutoff_text, access_limit=limit_text, history=True)
    latest = s.query(cutoff_text, access_limit=limit_text)
    for found in (history, latest):
        assert all(d.available.instant < bound for d in found)
    # history is exactly the eligible set, computed independently
    expected = sorted(
        (doc, f"v{i}") for i, (text, doc) in enumerate(entries) if parse_stamp(text).instant < bound
    )
    assert sorted((d.doc_id, d.version) for d in history) == expected
    # latest mode: one per document, the last available (then the last collected)
    by_doc: dict[str, tuple[dt.datetime, int]] = {}
    for i, (text, doc) in enumerate(entries):
        when = parse_stamp(text).instant
        if when < bound and (doc not in by_doc or (when, i) >= by_doc[doc]):
            by_doc[doc] = (when, i)
    assert {(d.doc_id, d.version) for d in latest} == {(doc, f"v{i}") for doc, (_, i) in by_doc.items()}
    s.close()


# --------------------------------------------------------------------------- the JSON reader


def test_json_reader_positions_and_strictness():
    doc = load_json_text('{"a": [1, {"b": "x"}], "c": 2.50}')
    assert doc.data == {"a": [1, {"b": "x"}], "c": Decimal("2.50")}
    assert doc.locate(("a", 1, "b")) == (1, 17) and doc.locate_key(("c",)) == (1, 24)
    with pytest.raises(LoadError, match="NaN is not a JSON number"):
        load_json_text('{"a": NaN}')
    with pytest.raises(LoadError) as info:
        load_json_text('{"a": {"x": 1, "x": 2}}', "f.json")
    assert (info.value.rule, info.value.line, info.value.column) == ("duplicate-key", 1, 16)
    multi = load_json_text('{\n  "a": 1,\n  "b": "z"\n}')
    assert multi.locate(("b",)) == (3, 8)


# --------------------------------------------------------------------------- the command line


def test_cli_import_query_and_check_dates(tmp_path):
    db = tmp_path / "ev.db"
    result = runner.invoke(app, ["evidence", "import", str(db), str(FIX / "tesla.jsonl")])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    output_validator().validate(payload)
    assert payload["imported"] == 4
    result = runner.invoke(app, ["evidence", "query", str(db), "--cutoff", "2024-07-05", "--history", "--id", "tsla-q2-deliveries"])
    payload = json.loads(result.stdout)
    output_validator().validate(payload)
    assert [d["version"] for d in payload["documents"]] == ["v0", "v1"]
    assert payload["eligible_before"] == "2024-07-06T00:00:00.000000Z"
    result = runner.invoke(app, ["evidence", "check-dates", "--as-of", "2024-06-30", "q2=2024-07-02", "q1=2024-04-23"])
    assert result.exit_code == 1
    payload = json.loads(result.stdout)
    output_validator().validate(payload)
    assert [r["name"] for r in payload["refused"]] == ["q2"] and payload["admitted"] == ["q1"]


def test_cli_import_errors_and_missing_store(tmp_path):
    db = tmp_path / "ev.db"
    result = runner.invoke(app, ["evidence", "import", str(db), str(FIX / "bad_evidence.jsonl")])
    assert result.exit_code == 1
    assert "bad_evidence.jsonl:1:46: load error: record 1: time stamp '2024-07-02T13:00:00' has no time zone" in result.output
    result = runner.invoke(app, ["evidence", "query", str(tmp_path / "none.db"), "--cutoff", "2024-01-01"])
    assert result.exit_code == 1 and "no evidence store" in result.output
    assert not (tmp_path / "none.db").exists()


def test_every_error_is_an_ipb_error():
    with pytest.raises(IpbError):
        EvidenceStore().query("yesterday")


def test_docstring_examples_run():
    import doctest

    import ipb.neighbours.evidence as module

    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0 and result.attempted > 0

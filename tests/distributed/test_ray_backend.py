"""The Ray backend writes the local backend's bytes, survives killed workers and resumes (issue 20).

The local single-process run is the oracle: every output of ``--backend ray``
is compared byte for byte with the file ``--backend local`` writes for the
same inputs and seed. Faults are injected with ``IPB_DISTRIBUTED_FAULT``: a
shard's worker process calls ``os._exit`` (the worker dies, Ray sees a lost
worker and retries the task), once or on every attempt.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ipb.cli import app

ROOT = Path(__file__).resolve().parents[2]
BASE = ROOT / "frameworks" / "scenarios" / "buffett_acquisition_checklist" / "ipb_p_011_base.yaml"
CARD = "buffett_acquisition_checklist"

pytestmark = pytest.mark.usefixtures("ray_cluster")


def _cli(*args: str) -> "object":
    result = CliRunner().invoke(app, list(args))
    return result


@pytest.fixture(scope="module")
def items_file(tmp_path_factory, ray_cluster):
    """200 items made by the local backend (the oracle) and the same made on Ray."""
    folder = tmp_path_factory.mktemp("perturb")
    local, remote = folder / "local.jsonl", folder / "ray.jsonl"
    common = ["perturb", "--card", CARD, "--base", str(BASE), "--n", "200", "--seed", "7", "--ops", "metric,sector"]
    r = _cli(*common, "--out", str(local))
    assert r.exit_code == 0, r.output
    r = _cli(*common, "--out", str(remote), "--backend", "ray")
    assert r.exit_code == 0, r.output
    return local, remote


def test_perturb_on_ray_writes_the_local_bytes(items_file):
    local, remote = items_file
    assert local.read_bytes() == remote.read_bytes()
    assert len(local.read_text().splitlines()) == 200
    assert not (remote.parent / "ray.jsonl.ipb-shards").exists()  # checkpoints removed after success


def test_verify_on_ray_reports_what_local_reports(items_file, tmp_path):
    local, _ = items_file
    lines = local.read_text().splitlines()
    bad = json.loads(lines[5])
    bad["investment_verdict"] = "INVEST" if bad["investment_verdict"] != "INVEST" else "DECLINE"
    lines[5] = json.dumps(bad)
    lines[9] = "{not json"
    broken = tmp_path / "broken.jsonl"
    broken.write_text("\n".join(lines) + "\n")
    outs = []
    for backend in ("local", "ray"):
        r = _cli("verify", str(broken), "--format", "json", "--backend", backend)
        assert r.exit_code == 1, r.output
        outs.append(json.loads(r.stdout))
    assert outs[0] == outs[1]
    assert outs[0]["mismatched"] == 1 and outs[0]["errors"] == 1
    assert [p["record"] for p in outs[0]["problems"]] == [6, 10]


def test_verify_on_ray_in_many_slices(items_file):
    from ipb.distributed.perturb import verify_ray
    from ipb.perturb.verify import verify_items

    local, _ = items_file
    assert verify_ray(local, chunk=17).to_dict() == verify_items(local).to_dict()


@pytest.fixture(scope="module")
def responses(tmp_path_factory):
    """Synthetic responses (every corruption) to the bundled items, two models, two conditions, with repeats."""
    from ipb.respond.synthetic import bundled_items, synthetic_responses

    folder = tmp_path_factory.mktemp("score")
    items = bundled_items()[:24]
    rows = []
    for model in ("m1", "m2"):
        for condition in ("A", "closed-book", "C"):
            rows += synthetic_responses(items, seed=1, model=model, condition=condition)[:30]
    rows.append(dict(rows[3]))  # a duplicate: the second copy is reported, whatever its shard
    rows.append({"item_id": "nope", "model": "m1", "condition": "A", "response": "x"})
    rows.append({"model": "m1"})
    items_path, responses_path = folder / "items.jsonl", folder / "responses.jsonl"
    items_path.write_text("".join(json.dumps(i, sort_keys=True) + "\n" for i in items))
    responses_path.write_text("".join(json.dumps(r, sort_keys=True) + "\n" for r in rows) + "not json\n")
    return items_path, responses_path


def _files(folder: Path) -> tuple[bytes, bytes]:
    return (folder / "responses.jsonl").read_bytes(), (folder / "summary.json").read_bytes()


def test_score_on_ray_writes_the_local_bytes(responses, tmp_path):
    items, resp = responses
    args = ["score", "--items", str(items), "--responses", str(resp), "--no-embeddings", "--resamples", "50",
            "--no-progress"]
    r = _cli(*args, "--out", str(tmp_path / "local"))
    assert r.exit_code == 1, r.output  # the unusable records make it 1, on both backends
    r = _cli(*args, "--out", str(tmp_path / "ray"), "--backend", "ray")
    assert r.exit_code == 1, r.output
    assert _files(tmp_path / "local") == _files(tmp_path / "ray")
    records = [json.loads(x) for x in (tmp_path / "ray" / "responses.jsonl").read_text().splitlines()]
    # "closed-book" is condition A: its 2 x 30 records repeat the A records (another shard key would
    # have put them apart and scored them), plus the one copied record
    assert sum(r["reason_code"] == "duplicate" for r in records) == 61
    assert [r["record"] for r in records] == list(range(1, len(records) + 1))


def test_score_of_two_responses_files_on_ray_writes_the_local_bytes(responses, tmp_path):
    items, resp = responses
    lines = resp.read_text().splitlines(keepends=True)
    first, second = tmp_path / "m1.jsonl", tmp_path / "m2.jsonl"
    first.write_text("".join(lines[:90]))  # model m1's records
    second.write_text("".join(lines[90:180] + lines[181:]))  # m2's and the unusable ones (not the copy of an m1 record)
    args = ["score", "--items", str(items), "--responses", str(first), "--responses", str(second), "--no-embeddings",
            "--resamples", "50", "--no-progress"]
    r = _cli(*args, "--out", str(tmp_path / "local"))
    assert r.exit_code == 1, r.output
    r = _cli(*args, "--out", str(tmp_path / "ray"), "--backend", "ray")
    assert r.exit_code == 1, r.output
    assert _files(tmp_path / "local") == _files(tmp_path / "ray")
    records = [json.loads(x) for x in (tmp_path / "ray" / "responses.jsonl").read_text().splitlines()]
    assert [r["file"] for r in records] == [1] * 90 + [2] * (len(lines) - 91)
    assert records[90]["source"] == f"{second}:1" and records[90]["model"] == "m2"


def test_score_with_embeddings_in_small_shards_on_two_encoder_actors(responses, tmp_path):
    """Embeddings ON: the local run (1 process, the default encoder) and a Ray run (2 nodes, 2 encoder actors,
    shards of about 2 records, disk cache on) write the same bytes.

    With the bundled MiniLM this is the "same bytes with embeddings" case: the shards send other batches of
    texts to the actors than the local run sends to its encoder, in other processes with other torch thread
    counts; only batch-independent vectors (SentenceTransformerEncoder: one text at a time, one thread) give
    the local digits. Without the model the deterministic HashingEncoder stands in.
    """
    from ipb.distributed.score import score_ray
    from ipb.scoring import embeddings
    from ipb.scoring.run import ScoreOptions, run_score

    items, resp = responses
    rows = [json.loads(x) for x in resp.read_text().splitlines()[:-1]]
    small = tmp_path / "responses.jsonl"  # 10 answers of one model, conditions A and C, one of them repeated
    keep = [r for r in rows if r.get("model") == "m1" and r.get("condition") == "A"][:5] + \
        [r for r in rows if r.get("model") == "m1" and r.get("condition") == "C"][:5]
    small.write_text("".join(json.dumps(r, sort_keys=True) + "\n" for r in keep + keep[:1]))
    minilm = embeddings.default_model_available()
    options = ScoreOptions(seed=3, n_resamples=50, encoder=None if minilm else embeddings.HashingEncoder(dim=64))
    embeddings.default_encoder.cache_clear()  # a fresh process-wide encoder: no vector from an earlier test
    run_score(items, small, tmp_path / "local", options)
    _, scorer = score_ray(items, small, tmp_path / "ray", options, encoders=2, records_per_shard=2,
                          embed_cache=str(tmp_path / "vectors"))
    assert _files(tmp_path / "local") == _files(tmp_path / "ray")
    assert scorer.computed >= 2  # so the actors got other batches than the local encoder
    assert list((tmp_path / "vectors").rglob("*.npy"))
    summary = json.loads((tmp_path / "ray" / "summary.json").read_text())
    assert ("MiniLM" in summary["options"]["encoder"]) == minilm, summary["options"]["encoder"]
    records = [json.loads(x) for x in (tmp_path / "ray" / "responses.jsonl").read_text().splitlines()]
    assert sum(r["status"] == "scored" for r in records) >= 6, [r["status"] for r in records]


def test_a_worker_killed_mid_run_loses_and_repeats_nothing(monkeypatch, tmp_path, items_file):
    from ipb.distributed.perturb import generate_ray
    from ipb.distributed.shards import FAULT_ENV
    from ipb.perturb.generation import Job, parse_recipes

    local, _ = items_file
    markers = tmp_path / "markers"
    markers.mkdir()
    monkeypatch.setenv(FAULT_ENV, f"crash-once:{markers}:recipe 0 attempts 0-")
    job = Job((CARD,), str(BASE), 7, parse_recipes("metric,sector"), False)
    result, runner = generate_ray(job, 200, tmp_path / "out.jsonl", chunk=50)
    assert len(list(markers.iterdir())) == 1  # the worker of that shard really died, once
    # generate_ray streams the items to the file as the local backend does (result.lines stays empty)
    assert (tmp_path / "out.jsonl").read_text() == local.read_text()
    runner.store.remove()


def test_a_shard_that_keeps_failing_is_named_and_nothing_is_written_then_a_rerun_resumes(monkeypatch, tmp_path,
                                                                                          responses):
    from ipb.distributed.shards import FAULT_ENV

    items, resp = responses
    out = tmp_path / "scored"
    args = ["score", "--items", str(items), "--responses", str(resp), "--no-embeddings", "--resamples", "20",
            "--no-progress", "--out", str(out), "--backend", "ray"]
    monkeypatch.setenv(FAULT_ENV, "raise:bucket 0 of")  # raised: not retried (a lost worker is: the next test)
    r = _cli(*args)
    assert r.exit_code == 1
    assert "1 of 1 shard(s) failed: bucket 0 of 1 (" in r.output and "fault injected" in r.output
    assert not out.exists()  # nothing partial in the output path
    monkeypatch.delenv(FAULT_ENV)
    r = _cli(*args)
    assert r.exit_code == 1, r.output  # the input's unusable records
    assert (out / "responses.jsonl").exists()
    assert not (tmp_path / "scored.ipb-shards").exists()


def test_a_rerun_sends_only_the_failed_shards(monkeypatch, tmp_path, items_file):
    from ipb.distributed import DistributedError
    from ipb.distributed.perturb import generate_ray
    from ipb.distributed.shards import FAULT_ENV
    from ipb.perturb.generation import Job, parse_recipes

    local, _ = items_file
    job = Job((CARD,), str(BASE), 7, parse_recipes("metric,sector"), False)
    out = tmp_path / "items.jsonl"
    # the shard's worker dies on every attempt: 1 retry, then the shard is failed (the others finish)
    monkeypatch.setenv(FAULT_ENV, "crash-always:recipe 1 attempts 0-")
    with pytest.raises(DistributedError) as caught:
        generate_ray(job, 200, out, chunk=25, max_retries=1)
    assert caught.value.failed == ["recipe 1 attempts 0-25"], caught.value.failed
    assert "up to 1 times" in str(caught.value)
    assert not out.exists()
    monkeypatch.delenv(FAULT_ENV)
    result, runner = generate_ray(job, 200, out, chunk=25)
    assert out.read_text() == local.read_text()
    # the shards that finished before the failure are not sent again; the failed one is
    assert runner.resumed >= 1 and runner.computed >= 1


def test_respond_on_ray_keeps_the_records_and_the_concurrency_limit(tmp_path, monkeypatch):
    pytest.importorskip("openai")
    sys.path.insert(0, str(ROOT / "tests" / "respond"))
    import threading
    import time

    from respond_support import BUFFETT_ANSWER, ITEMS, SECRET, FakeServer

    monkeypatch.setenv("IPB_API_KEY", SECRET)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    server = FakeServer().start()
    lock = threading.Lock()
    state = {"now": 0, "peak": 0}

    def reply(body):
        with lock:
            state["now"] += 1
            state["peak"] = max(state["peak"], state["now"])
        time.sleep(0.05)
        with lock:
            state["now"] -= 1
        return BUFFETT_ANSWER

    server.reply = reply
    try:
        outs = {}
        for backend in ("local", "ray"):
            out = tmp_path / f"{backend}.jsonl"
            r = _cli("respond", "--items", str(ITEMS), "--model", "m", "--base-url", server.url, "--conditions", "A,C",
                     "--no-cache", "--concurrency", "2", "--quiet", "--out", str(out), "--backend", backend)
            assert r.exit_code in (0, 1), r.output
            outs[backend] = [{k: v for k, v in json.loads(x).items() if k != "latency_s"}
                             for x in out.read_text().splitlines()]
    finally:
        server.stop()
    assert outs["local"] == outs["ray"]
    # the L8 item's condition C reads its test card from the copy beside the items (ipb-cards/): ok on both
    assert [r["status"] for r in outs["ray"]] == ["ok"] * 8
    assert state["peak"] <= 2
    assert SECRET not in (tmp_path / "ray.jsonl").read_text()


@pytest.fixture(scope="module")
def user_card_items(tmp_path_factory):
    """Items made from a user's card (id my_buffett, in a --cards folder), then that card edited (retention floor
    90% -> 97%), so that verify finds gold mismatches and a changed card, and only through the --cards folder."""
    folder = tmp_path_factory.mktemp("user-card")
    cards = folder / "my-cards"
    cards.mkdir()
    source = (ROOT / "frameworks" / f"{CARD}.yaml").read_text()
    assert source.count(f"id: {CARD}\n") == 1 and source.count("    value: 90%\n") == 1
    card = cards / "buffett.yaml"
    card.write_text(source.replace(f"id: {CARD}\n", "id: my_buffett\n"))
    base = folder / "base.yaml"  # the bundled base scenario, for the user's card
    base.write_text(BASE.read_text().replace(f"card: {CARD}\n", "card: my_buffett\n"))
    items = folder / "items.jsonl"
    r = _cli("perturb", "--cards", str(cards), "--card", "my_buffett", "--base", str(base), "--n", "40", "--seed", "2",
             "--ops", "metric", "--out", str(items))
    assert r.exit_code == 0, r.output
    card.write_text(card.read_text().replace("    value: 90%\n", "    value: 97%\n"))
    return items, cards


def test_verify_on_ray_reads_the_cards_folder_from_the_driver(user_card_items):
    """--cards with --backend ray (the workers get the folder's card files from the driver): the local report."""
    items, cards = user_card_items
    outs = []
    for backend in ("local", "ray"):
        r = _cli("verify", str(items), "--cards", str(cards), "--format", "json", "--backend", backend)
        assert r.exit_code == 1, r.output
        outs.append(json.loads(r.stdout))
    assert outs[0] == outs[1]
    assert outs[0]["changed_cards"] == ["my_buffett"], outs[0]
    assert outs[0]["mismatched"] >= 1
    # without --cards both backends take the items' own copy (ipb-cards/ beside the file): the card as it was made
    outs = []
    for backend in ("local", "ray"):
        r = _cli("verify", str(items), "--format", "json", "--backend", backend)
        assert r.exit_code == 0, r.output
        outs.append(json.loads(r.stdout))
    assert outs[0] == outs[1] and outs[0]["mismatched"] == 0 and outs[0]["total"] == 40


def test_perturb_with_the_card_default_operators_on_ray_writes_the_local_bytes(tmp_path):
    """No --ops: the driver fills in the card's default recipes and the workers run those (they used to get the
    job before the defaults were filled in and failed every shard with an IndexError)."""
    card = "graham_net_net_screen"
    base = sorted((ROOT / "frameworks" / "scenarios" / card).glob("*.yaml"))[0]
    outs = []
    for backend in ("local", "ray"):
        out = tmp_path / f"{backend}.jsonl"
        r = _cli("perturb", "--card", card, "--base", str(base), "--n", "30", "--seed", "3", "--out", str(out),
                 "--backend", backend)
        assert r.exit_code == 0, r.output
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]
    assert len(outs[0].splitlines()) == 30


def test_score_on_ray_finds_a_user_card_where_the_local_run_does(user_card_items, tmp_path):
    """Items of a card that is not bundled: the workers search the --cards folder and the items' own copies
    (ipb-cards/) as the local run does, instead of reporting every record an unknown card."""
    items, cards = user_card_items
    ids = [json.loads(x)["id"] for x in items.read_text().splitlines()[:6]]
    rows = [{"item_id": i, "model": "m", "condition": "A",
             "response": f"Gate 1 (circle of competence): PROCEED.\nGate 2: {'REJECT' if k % 2 else 'PROCEED'}.\n"
                         f"Final verdict: {'DECLINE' if k % 2 else 'INVEST'}"} for k, i in enumerate(ids)]
    responses = tmp_path / "responses.jsonl"
    responses.write_text("".join(json.dumps(r, sort_keys=True) + "\n" for r in rows))
    args = ["score", "--items", str(items), "--responses", str(responses), "--no-embeddings", "--resamples", "20",
            "--no-progress"]
    for extra in ([], ["--cards", str(cards)]):
        r = _cli(*args, *extra, "--out", str(tmp_path / "local"))
        local_code = r.exit_code
        r = _cli(*args, *extra, "--out", str(tmp_path / "ray"), "--backend", "ray")
        assert r.exit_code == local_code, r.output
        assert _files(tmp_path / "local") == _files(tmp_path / "ray")
    records = [json.loads(x) for x in (tmp_path / "ray" / "responses.jsonl").read_text().splitlines()]
    assert records and not any(r.get("reason_code") == "unknown_card" for r in records)


def test_tampered_and_planted_checkpoints_are_computed_again_and_the_output_is_the_local_one(monkeypatch, tmp_path,
                                                                                            responses):
    """breaker3 finding 6 end to end: a failed run leaves checkpoints; ``m1`` -> ``m9`` (same length) in every one
    and a pickle planted beside them; the rerun writes the local bytes (no m9), runs no planted code and says
    how many checkpoints it discarded."""
    import pickle

    from ipb.distributed.score import score_ray
    from ipb.distributed.shards import FAULT_ENV, checkpoint_dir
    from ipb.scoring.run import ScoreOptions, run_score

    items, resp = responses
    options = ScoreOptions(seed=0, n_resamples=20, embeddings=False)
    run_score(items, resp, tmp_path / "local", options)
    out = tmp_path / "ray"
    monkeypatch.setenv(FAULT_ENV, "raise:bucket 0 of")
    from ipb.distributed import DistributedError

    with pytest.raises(DistributedError):
        score_ray(items, resp, out, options, records_per_shard=40)
    monkeypatch.delenv(FAULT_ENV)
    folder = checkpoint_dir(out)
    kept = sorted(folder.glob("*.shard"))
    assert len(kept) >= 3
    tampered = 0
    for path in kept:
        data = path.read_bytes()
        if b"m1" in data:
            path.write_bytes(data.replace(b"m1", b"m9"))
            tampered += 1
    assert tampered >= 1
    marker = tmp_path / "ran"
    (folder / "evil.pkl").write_bytes(pickle.dumps(_Planted(marker)))
    _, scorer = score_ray(items, resp, out, options, records_per_shard=40)
    assert _files(tmp_path / "local") == _files(out)
    assert b'"m9"' not in (out / "responses.jsonl").read_bytes()
    assert not marker.exists()
    assert scorer.resumed == len(kept) - tampered and scorer.computed == tampered + 1
    assert scorer.store.discarded == {"damaged": tampered, "not a checkpoint": 1}
    assert f"discarded {tampered + 1} file(s)" in scorer.store.note()
    assert not folder.exists()


class _Planted:
    """Unpickling this would write ``marker``."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (Path.write_text, (self.marker, "ran"))

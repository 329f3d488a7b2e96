"""``--backend ray`` checks the output path before Ray starts, as the local backend does (breaker 3, finding 7:
``ipb score -o . --backend ray`` ended in ``ValueError: PosixPath('.') has an empty name`` after Ray had started)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

import ipb.distributed
import ipb.distributed.perturb
import ipb.distributed.score
from ipb.cli import app
from ipb.distributed import DistributedError
from ipb.distributed.shards import checkpoint_dir

ROOT = Path(__file__).resolve().parents[2]
ITEMS = ROOT / "tests" / "robustness" / "data" / "item_l7.jsonl"
CARD = "graham_net_net_screen"
BASE = ROOT / "frameworks" / "scenarios" / CARD / "exactly_two_thirds.yaml"


@pytest.fixture()
def no_ray(monkeypatch, tmp_path):
    """Ray never starts: ``connect`` raises, so a run that reaches it says 'Ray would start here'."""
    def connect(*args, **kwargs):
        raise DistributedError("Ray would start here")

    for module in (ipb.distributed, ipb.distributed.perturb, ipb.distributed.score):
        monkeypatch.setattr(module, "connect", connect)
    for var in ("IPB_CACHE_DIR", "IPB_BASE_URL", "IPB_EMBED_CACHE", "RAY_ADDRESS"):
        monkeypatch.delenv(var, raising=False)
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    (work / "r.jsonl").write_text("", encoding="utf-8")
    # one answer to the items file's item, for `ipb score` on the local backend: since stop 52 an empty responses
    # file stops it before any output path is looked at, and these tests are about the output path
    item_id = json.loads(ITEMS.read_text(encoding="utf-8").splitlines()[0])["id"]
    record = {"item_id": item_id, "model": "m", "condition": "A", "response": "Gate 1: PROCEED. Final: INVEST."}
    (work / "one.jsonl").write_text(json.dumps(record) + "\n", encoding="utf-8")
    return work


def _both(argv):
    """(exit code, output) of the local backend and of the ray backend."""
    runner = CliRunner()
    local, ray = runner.invoke(app, argv), runner.invoke(app, [*argv, "--backend", "ray"])
    assert not isinstance(local.exception, AssertionError) and not isinstance(ray.exception, AssertionError)
    return (local.exit_code, local.output), (ray.exit_code, ray.output)


def test_the_checkpoint_folder_of_dot_is_beside_the_working_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert checkpoint_dir(".") == tmp_path.parent / f"{tmp_path.name}.ipb-shards"
    assert checkpoint_dir("a/..") == tmp_path.parent / f"{tmp_path.name}.ipb-shards"
    assert checkpoint_dir("out") == tmp_path / "out.ipb-shards"


@pytest.mark.parametrize("out", ["/", "//", "/.."])
def test_score_on_ray_refuses_the_root_folder_before_ray_starts(out, no_ray):
    result = CliRunner().invoke(app, ["score", "-i", str(ITEMS), "-r", "r.jsonl", "-o", out, "--no-embeddings",
                                      "--no-progress", "--backend", "ray"])
    assert result.exit_code == 1
    assert f"cannot write {out}: the ray backend keeps its checkpoints in a folder beside the output" in result.output
    assert "Ray would start here" not in result.output and "Traceback" not in result.output


def test_score_on_ray_accepts_dot_as_the_local_backend_does(no_ray):
    result = CliRunner().invoke(app, ["score", "-i", str(ITEMS), "-r", "r.jsonl", "-o", ".", "--no-embeddings",
                                      "--no-progress", "--backend", "ray"])
    assert result.exit_code == 1 and "Ray would start here" in result.output  # the path passed: Ray is next


@pytest.mark.parametrize("out", [".", "/"])
def test_perturb_on_ray_refuses_a_folder_with_the_local_message_before_ray_starts(out, no_ray):
    local, ray = _both(["perturb", "-c", CARD, "-b", str(BASE), "-n", "2", "-o", out])
    assert local == ray
    assert ray[0] == 1 and f"cannot write {out}: it is a folder; ipb writes results only to regular files" in ray[1]


@pytest.mark.parametrize("overwrite", [[], ["--overwrite"]], ids=["resume", "overwrite"])
@pytest.mark.parametrize("out", [".", "/"])
def test_respond_on_ray_refuses_a_folder_with_the_local_message_before_ray_starts(out, overwrite, no_ray):
    local, ray = _both(["respond", "-i", str(ITEMS), "-o", out, "--model", "m", "--base-url", "http://127.0.0.1:9",
                        "--no-cache", "-c", "A", *overwrite])
    assert local == ray
    assert ray[0] == 1 and "Ray would start here" not in ray[1] and f"{out}" in ray[1]
    # s57fixio: the output is checked before any work with or without --overwrite (it said "Is a directory" when
    # resuming, from reading the folder as a responses file)
    assert f"--out: write error: cannot write {out}: it is a folder" in ray[1]


def _unwritable(work: Path) -> dict[str, str]:
    """Output paths whose checkpoint folder cannot be created: in /proc (no new entries, even for root) and below
    a regular file (newuser4, issue 20: a raw traceback from ShardStore.put_packed after the shards had run)."""
    (work / "plain").write_text("x", encoding="utf-8")
    return {"proc": "/proc/ipb-unwritable", "file": str(work / "plain" / "sub")}


@pytest.mark.parametrize("case", ["proc", "file"])
def test_score_on_ray_refuses_an_unwritable_output_before_ray_starts(case, no_ray):
    out = _unwritable(no_ray)[case]
    result = CliRunner().invoke(app, ["score", "-i", str(ITEMS), "-r", "r.jsonl", "-o", out, "--no-embeddings",
                                      "--no-progress", "--backend", "ray"])
    assert result.exit_code == 1
    assert "Ray would start here" not in result.output and "Traceback" not in result.output
    lines = result.output.strip().splitlines()
    # s57fixio: labelled with the flag, as every writing command's write error (it was labelled with the path)
    assert len(lines) == 1 and lines[0].startswith(f"--out: write error: cannot write {out}: the ray backend keeps")
    assert f"{out}.ipb-shards" in lines[0]
    assert ("is not a folder" if case == "file" else "No such file or directory") in lines[0]
    assert not os.path.lexists(f"{out}.ipb-shards")


@pytest.mark.parametrize("case", ["proc", "file"])
def test_perturb_refuses_an_unwritable_output_naming_it_on_both_backends(case, no_ray):
    out = _unwritable(no_ray)[case] + ".jsonl"
    local, ray = _both(["perturb", "-c", CARD, "-b", str(BASE), "-n", "2", "-o", out])
    for code, output in (local, ray):
        assert code == 1 and "Traceback" not in output and "Ray would start here" not in output
        assert len(output.strip().splitlines()) == 1 and "load error" not in output
        assert f"write error: cannot write {out}: " in output and ".tmp" not in output
    # a path below a regular file (stop 29), and since s56fixrep a folder where no file can be made (/proc: the
    # output's folder is tried before any work), is refused before any work, by both backends alike
    assert local == ray


_WRITERS = {
    "respond": ["respond", "-i", str(ITEMS), "--model", "m", "--base-url", "http://127.0.0.1:9", "--no-cache", "-c", "A"],
    "respond-overwrite": ["respond", "-i", str(ITEMS), "--model", "m", "--base-url", "http://127.0.0.1:9", "--no-cache",
                          "-c", "A", "--overwrite"],
    "synthetic": ["respond", "--synthetic", "-i", str(ITEMS)],
    "judge": ["judge", "-i", str(ITEMS), "-r", "r.jsonl", "--model", "m", "--base-url", "http://127.0.0.1:9", "--no-cache"],
    "screen": ["screen", CARD, "t.csv"],
}


@pytest.mark.parametrize("command", sorted(_WRITERS))
@pytest.mark.parametrize("case", ["proc", "file"])
def test_respond_judge_and_screen_call_an_unwritable_output_a_write_error_naming_it(case, command, no_ray):
    """The output path the user gave is named, labelled ``write error`` (it said ``load error``, and named the
    parent folder or a ``.lock`` file instead); a parent that is a file is named after the reason.

    s57fixio: the line now starts with the flag, as ipb perturb's does, and the output's folder is tried before any
    work, so a parent that is a file is refused by that check ("... plain is not a folder")."""
    (no_ray / "t.csv").write_text("current_assets\n1\n", encoding="utf-8")
    out = _unwritable(no_ray)[case] + (".csv" if command == "screen" else ".jsonl")
    result = CliRunner().invoke(app, [*_WRITERS[command], "-o", out])
    assert result.exit_code == 1 and "Traceback" not in result.output and "load error" not in result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"--out: write error: cannot write {out}: "), result.output
    assert ".tmp" not in lines[0] and ".lock" not in lines[0]
    if case == "file":
        assert lines[0].endswith(f" ({no_ray / 'plain'})") or lines[0].endswith(": Not a directory") \
            or lines[0].endswith(f": {no_ray / 'plain'} is not a folder")


def test_the_checkpoint_probe_leaves_nothing_behind(tmp_path):
    from ipb.distributed.shards import writable_checkpoint_dir

    assert writable_checkpoint_dir(tmp_path / "a" / "b") == tmp_path / "a" / "b.ipb-shards"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("case", ["proc", "file"])
def test_score_on_the_local_backend_calls_an_unwritable_output_a_write_error(case, no_ray):
    out = _unwritable(no_ray)[case]
    result = CliRunner().invoke(app, ["score", "-i", str(ITEMS), "-r", "one.jsonl", "-o", out, "--no-embeddings",
                                      "--no-progress", "--no-leaderboard"])
    assert result.exit_code == 1 and "Traceback" not in result.output and "load error" not in result.output
    assert f"write error: cannot write {out}" in result.output

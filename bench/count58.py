"""Counting mode for the bench card's generation (s58speedgen): ``python bench/count58.py N [MODE]`` prints, per recipe, the
attempts, items, duplicates, near misses, errors and the process CPU of ``Generator.attempt`` by outcome, and the
digest of the items (Buffett acquisition, ipb_p_011_base, metric,sector,temporal,flip, seed 0, one worker)."""
import hashlib, os, sys, time
from collections import Counter, defaultdict
from pathlib import Path
import ipb.perturb.generation as gen
from ipb.engine.registry import compiled_card
from ipb.perturb import Job, parse_recipes
CARD = "buffett_acquisition_checklist"
BASE = Path("frameworks/scenarios") / CARD / "ipb_p_011_base.yaml"
n = int(sys.argv[1])
if len(sys.argv) > 2:  # the near-duplicate mode: defer, fill or strict
    gen.DEFAULT_NEAR = sys.argv[2]
compiled_card(CARD)
OUT = Path(f"/tmp/s58sg_count_{os.getpid()}.jsonl")
job = Job((CARD,), str(BASE), 0, parse_recipes("metric,sector,temporal,flip"))
cpu: dict = defaultdict(float)
cnt: Counter = Counter()
orig = gen.Generator.attempt
def attempt(self, r, j, **kw):
    t = time.process_time()
    c = orig(self, r, j, **kw)
    what = "error:" + c.error.split(":")[0][:30] if c.error else ("dup" if c.line is None and c.label is None else "item")
    key = (self.job.recipes[r].text, what)
    cpu[key] += time.process_time() - t
    cnt[key] += 1
    return c
gen.Generator.attempt = attempt
import gc
gcs = {"t": 0.0, "n": Counter(), "start": 0.0}
def _gc(phase, info):
    if phase == "start":
        gcs["start"] = time.process_time()
    else:
        gcs["t"] += time.process_time() - gcs["start"]
        gcs["n"][info["generation"]] += 1
gc.callbacks.append(_gc)
t = time.process_time()
res = gen.write_items(OUT, job, n, workers=1)
total = time.process_time() - t
for rep in res.recipes if hasattr(res, "recipes") else res.reports:
    print(rep.recipe, "items", rep.items, "attempts", rep.attempts, "distinct", rep.distinct, "dups", rep.duplicates,
          "near", rep.near, "near_admitted", rep.near_admitted, "rejected", rep.rejected, "exhausted", rep.exhausted)
for key in sorted(cnt):
    print(f"{key[0]:10s} {key[1]:40s} {cnt[key]:8d} {cpu[key]:8.2f}s {1e6*cpu[key]/n:8.1f}us/item")
print("total cpu", round(total, 2), "us/item", round(1e6 * total / n, 1), "attempt cpu", round(sum(cpu.values()), 2))
print("gc cpu", round(gcs["t"], 2), dict(gcs["n"]))
print("sha256", hashlib.sha256(OUT.read_bytes()).hexdigest()[:16])
OUT.unlink()

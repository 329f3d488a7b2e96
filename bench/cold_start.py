"""Cold start of ``ipb run`` against a plain script doing the same job (issue 17, item 7).

Both run in fresh processes, interleaved, in the same run, on the same card and scenario:

* ``ipb run CARD SCENARIO`` -- the console script, as a user types it (typer, rich table);
* the baseline: ``python -c`` importing only ``ipb.engine``, loading the same card and
  scenario, executing, and printing each gate's verdict and the final verdict.

The bar (issue 17): the median ``ipb run`` within 1.5x of the median baseline. Both
share the card cache (``IPB_CACHE_DIR``, see :mod:`ipb.engine._yaml_cache`) and lark's
parser cache; a first warm-up run of each fills them. Also printed: the card load in one
process with and without the YAML cache (ms per bundled card).

    .venv/bin/python bench/cold_start.py [--rounds 7] [--card ID] [--scenario FILE] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CARD = "buffett_acquisition_checklist"
SCENARIO = ROOT / "frameworks" / "scenarios" / "buffett_acquisition_checklist" / "ipb_p_011_base.yaml"

PLAIN = """
import sys
from ipb.engine.registry import compiled_card
from ipb.engine.scenario import load_scenario
from ipb.engine.execute import execute
compiled = compiled_card(sys.argv[1])
scenario = load_scenario(sys.argv[2], compiled.card)
trace = execute(compiled, scenario.facts, scenario_id=scenario.id, layer=scenario.layer)
for r in trace.gates:
    print(r.gate.number, r.gate.name, r.verdict.value)
print("Final verdict:", trace.outcome, trace.trigger)
"""


def _time(cmd: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def _card_load_ms(env_extra: dict[str, str]) -> float:
    code = ("import time\nfrom ipb.engine._yaml import load_yaml_file\nfrom ipb.engine.registry import bundled_card_paths\n"
            "ps = bundled_card_paths()\n[load_yaml_file(p, collect=True) for p in ps]\n"
            "t = time.perf_counter()\n[load_yaml_file(p, collect=True) for p in ps]\n"
            "print((time.perf_counter() - t) / len(ps) * 1000)\n")
    out = subprocess.run([sys.executable, "-c", code], env={**os.environ, **env_extra}, check=True,
                         capture_output=True, text=True)
    return float(out.stdout.strip())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--card", default=CARD)
    ap.add_argument("--scenario", default=str(SCENARIO))
    ap.add_argument("--json", type=Path)
    args = ap.parse_args(argv)
    ipb = str(Path(sys.executable).parent / "ipb")
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "IPB_CACHE_DIR": cache}
        run_cmd = [ipb, "run", args.card, args.scenario]
        plain_cmd = [sys.executable, "-c", PLAIN, args.card, args.scenario]
        _time(run_cmd, env), _time(plain_cmd, env)  # warm-up: fills the card cache and lark's parser cache
        runs: list[float] = []
        plains: list[float] = []
        for _ in range(args.rounds):
            runs.append(_time(run_cmd, env))
            plains.append(_time(plain_cmd, env))
        cached = _card_load_ms({"IPB_CACHE_DIR": cache})
        uncached = _card_load_ms({"IPB_NO_CACHE": "1"})
    result = {
        "card": args.card, "scenario": args.scenario, "rounds": args.rounds,
        "ipb_run_median_s": statistics.median(runs), "plain_median_s": statistics.median(plains),
        "ratio": statistics.median(runs) / statistics.median(plains),
        "ipb_run_s": runs, "plain_s": plains,
        "card_load_ms_per_card": {"yaml_cache": cached, "no_cache": uncached},
    }
    print(f"ipb run      median {result['ipb_run_median_s']:.3f} s  ({', '.join(f'{x:.3f}' for x in runs)})")
    print(f"plain script median {result['plain_median_s']:.3f} s  ({', '.join(f'{x:.3f}' for x in plains)})")
    print(f"ratio {result['ratio']:.2f} (bar: <= 1.5) -> {'met' if result['ratio'] <= 1.5 else 'NOT met'}")
    print(f"card YAML load: {uncached:.1f} ms/card parsed, {cached:.1f} ms/card from the cache "
          f"({uncached / cached:.1f}x)")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Coverage of clkstat-report --compare --unit host's 95% intervals on
simulated fleets (fleetsim.py), where the fleet-wide truth is known; and
how far the run-level interval falls short there.

Each study: 40 machines, each runs both variants (paired), 4 runs of
each, 50 samples per run, each machine with its own offset; the
fleet-wide medians are 20000 ns for "base" and 18000 ns for "alt"
(delta median -2000 ns).  For each study the tool runs with --unit host
and with --unit run (--resamples 2000, as coverage.py; seed i + 1), and
each interval either covers the truth or not: the base's fleet-wide
median and the fleet-wide delta median.

Pass criteria: the host-level coverage of the base median and of
delta median both within 92-98%; the run-level coverage of the base
median below 85%; and the host-level delta median interval at most 0.9
times as wide as the run-level one on average.  The model's parameters,
why these criteria tell the host level from the run level, the band's
width, and why resampling both levels is slightly conservative (the
figures of these 400 studies): Documentation/clkstat-compare.rst,
"Coverage".

Everything is seeded (study i: simulation seed 200000 + i, tool seed
i + 1): the same figures every time.  Runtime: about a minute on 2 cores (2 processes).
Exit 0 if the criteria hold, 1 if not, 2 if the tool failed.
"""
import argparse
import math
import multiprocessing
import os
import shutil
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fleetsim as F  # noqa: E402
import simstudy as S  # noqa: E402

BASE, ALT = 20000.0, 18000.0
TRUTH = {"base median": BASE, "Δ median": ALT - BASE}
OPTS = None
TMP = None


def one(i):
    o = OPTS
    hosts = [f"m{j:02d}" for j in range(o.hosts)]
    fl = F.simulate_fleet([("base", BASE, hosts), ("alt", ALT, hosts)], hosts,
                          runs=o.runs, samples=o.samples, host_sd=o.host_sd,
                          inter_sd=o.inter_sd, tau=o.tau, sigma=o.sigma,
                          seed=200000 + i)
    path = os.path.join(TMP, f"fleet-{i}.json")
    fl.write_tagged(path)
    out = {}
    try:
        for unit in ("host", "run"):
            doc = F.run_host_compare([path], "alt", "base", unit=unit,
                                     resamples=o.resamples, seed=i + 1)
            m = doc["metrics"][0]
            if doc.get("unit") != unit or \
                    m["strata"][0].get("hosts") != o.hosts:
                raise S.ToolError(f"unit {doc.get('unit')!r}, hosts "
                                  f"{m['strata'][0].get('hosts')!r}")
            b, d = m["strata"][0]["median"], m["diff"]["median"]
            out[unit] = {"base median": (b["value"], b["lo"], b["hi"]),
                         "Δ median": (d["value"], d["lo"], d["hi"])}
    except S.ToolError as e:
        return {"error": str(e)}
    finally:
        os.unlink(path)
    return out


def mean_width(cis):
    c = np.asarray(cis, dtype=np.float64)
    return float(np.mean(c[:, 2] - c[:, 1]))


def coverage(name, cis, truth):
    c = np.asarray(cis, dtype=np.float64)
    cov = float(np.mean((c[:, 1] <= truth) & (truth <= c[:, 2])))
    se = math.sqrt(max(cov * (1 - cov), 1e-12) / len(c))
    print(f"{name}: coverage {100 * cov:.1f}% (SE {100 * se:.1f}%) of "
          f"{len(c)} studies; truth below {100 * np.mean(truth < c[:, 1]):.1f}"
          f"%, above {100 * np.mean(truth > c[:, 2]):.1f}%; mean width "
          f"{np.mean(c[:, 2] - c[:, 1]):.0f} ns; mean estimate "
          f"{np.mean(c[:, 0]):.0f} ns (truth {truth:.0f})")
    return cov


def main():
    global OPTS, TMP
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--studies", type=int, default=400)
    ap.add_argument("--hosts", type=int, default=40)
    ap.add_argument("--runs", type=int, default=4, help="per host, variant")
    ap.add_argument("--samples", type=int, default=50, help="per run")
    ap.add_argument("--host-sd", type=float, default=0.3)
    ap.add_argument("--inter-sd", type=float, default=0.1)
    ap.add_argument("--tau", type=float, default=0.1)
    ap.add_argument("--sigma", type=float, default=0.5)
    ap.add_argument("--resamples", type=int, default=2000)
    ap.add_argument("--jobs", type=int, default=2)
    OPTS = a = ap.parse_args()
    if not S.tool_has_compare():
        print(f"fleet_coverage: {S.TOOL} has no --compare")
        return 2
    t0 = time.time()
    print(f"# {a.studies} studies: {a.hosts} hosts (paired), {a.runs} runs "
          f"per host and variant, {a.samples} samples per run; SDs on the "
          f"log scale: host {a.host_sd}, host x variant {a.inter_sd}, run "
          f"{a.tau}, sample {a.sigma}; --resamples {a.resamples}")
    TMP = tempfile.mkdtemp(prefix="clkstat-fleetcov-")
    try:
        with multiprocessing.Pool(a.jobs) as p:
            res = p.map(one, range(a.studies), chunksize=4)
    finally:
        shutil.rmtree(TMP, ignore_errors=True)
    errs = [r["error"] for r in res if "error" in r]
    if errs:
        print(f"fleet_coverage: the tool failed in {len(errs)} studies: "
              f"{errs[0]}")
        print("0 passed, 1 failed")
        return 2
    cov = {}
    for unit in ("host", "run"):
        for stat, truth in TRUTH.items():
            cov[unit, stat] = coverage(f"--unit {unit} {stat}",
                                       [r[unit][stat] for r in res], truth)
    wd = {u: mean_width([r[u]["Δ median"] for r in res])
          for u in ("host", "run")}
    n = 0
    checks = [
        (0.92 <= cov["host", "base median"] <= 0.98,
         f"host-level coverage of the base median "
         f"{100 * cov['host', 'base median']:.1f}% is within 92-98%"),
        (0.92 <= cov["host", "Δ median"] <= 0.98,
         f"host-level coverage of Δ median "
         f"{100 * cov['host', 'Δ median']:.1f}% is within 92-98%"),
        (cov["run", "base median"] < 0.85,
         f"run-level coverage of the base median "
         f"{100 * cov['run', 'base median']:.1f}% is below 85% (it ignores "
         f"the machines' spread)"),
        (wd["host"] <= 0.9 * wd["run"],
         f"host-level Δ median interval {wd['host']:.0f} ns wide on "
         f"average, {wd['host'] / wd['run']:.2f} x the run-level one "
         f"({wd['run']:.0f} ns), at most 0.9 x (the pairing cancels the "
         f"machines' offsets)"),
    ]
    for i, (ok, text) in enumerate(checks, 1):
        n += ok
        print(f"{'ok' if ok else 'not ok'} {i} - {text}")
    print(f"# {time.time() - t0:.0f} s")
    print(f"{n} passed, {len(checks) - n} failed")
    return 0 if n == len(checks) else 1


if __name__ == "__main__":
    sys.exit(main())

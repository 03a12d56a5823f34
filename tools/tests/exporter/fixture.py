#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Snapshot files for the exporter's tests: a host's recorded runs, made
up with the module's own bucket math (tools/tests/stats/simstudy.py).

usage: fixture.py OUT.json HOST SEED [RUNS] [OFFSET_NS]

RUNS runs (default 6) of two metrics, ttwu_enqueue.direct (log-normal
around 20 us plus OFFSET_NS, counters wakeups and migrated) and
tkread.direct (around 40 ns), 2000 samples each on CPUs 0 and 1, tagged
host=HOST, frac_bits 3.  The same SEED gives the same file.
"""
import json
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "stats"))
from simstudy import bin_values  # noqa: E402


def metric(name, vals, k, counters):
    slots, vmin, vmax = bin_values(vals, k)
    cpus = []
    for c in range(2):
        s, a, b = bin_values(vals[c::2], k)
        cpus.append({"cpu": c, "min": a, "max": b, "slots": s})
    return {"name": name, "variant": "direct", "frac_bits": k,
            "recording": True, "counters": counters,
            "total": {"min": vmin, "max": vmax, "slots": slots},
            "cpus": cpus}


def main():
    out, host, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
    nruns = int(sys.argv[4]) if len(sys.argv) > 4 else 6
    offset = int(sys.argv[5]) if len(sys.argv) > 5 else 0
    rng = random.Random(seed)
    # Runs of different seeds are different runs (start_ns tells them apart).
    t0 = 1700000000000000000 + seed * 100 * 10**9
    runs = []
    for i in range(nruns):
        wake = [int(rng.lognormvariate(0, 0.5) * 20000) + offset
                for _ in range(2000)]
        read = [int(rng.lognormvariate(0, 0.3) * 40) for _ in range(2000)]
        runs.append({
            "index": i, "variant": "direct",
            "start_ns": t0 + i * 10**9, "end_ns": t0 + i * 10**9 + 9 * 10**8,
            "exit_status": 0,
            "metrics": [metric("ttwu_enqueue", wake, 3,
                               {"wakeups": 2000, "migrated": 700}),
                        metric("tkread", read, 3, {})]})
    meta = {"tool_version": "0.4.0", "module_version": "0.4.0",
            "kernel_release": "6.12.0-fixture", "clocksource": "tsc",
            "probes": "ttwu,tkread", "variants": "direct", "command": None,
            "machine": "vm", "hypervisor": None, "cpuidle_driver": None,
            "cpuidle_governor": None, "max_cstate": None, "cmdline": None,
            "frac_bits": 3, "nr_cpus": 2, "duration_s": 0, "params": {},
            "tags": {"host": host}}
    with open(out, "w") as f:
        json.dump({"format": "clkstat-snapshot", "version": 1, "meta": meta,
                   "runs": runs}, f)


if __name__ == "__main__":
    main()

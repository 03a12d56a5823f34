#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Benchmark of clkstat-report --compare (printed, not pass/fail).

Data: simstudy.py, 300 runs x 2 variants ("base" 20 us, "alt" 18 us),
1000 samples per run, tau 0.25, sigma 0.45: about 200 non-empty slots per
variant (frac_bits 5; the runs' slots pooled) and about 100 per run; both
counts are printed.

clkstat-report: ``--compare alt --base base --resamples 10000 --json``
(run unit, every statistic --compare gives: median, p90, p99, mean, stddev,
IQR, risk, per variant and their differences, outliers, p-value), pinned
to one CPU (taskset -c 0), REPEAT times; printed: the wall time of the
process (reading the snapshot included; best and median), its user+sys
CPU time and its peak memory (/usr/bin/time -v, "Maximum resident set
size").  The snapshot's reading alone (``info``) is timed too, for the
breakdown.  The target, 1 s, is for the whole process.

scipy.stats.bootstrap on the same data expanded to raw samples (each
sample at its slot's mean, clkstat_slot_mean()): two samples, the runs of
each variant (paired=False, so runs are resampled within each variant),
the statistic the median of the pooled raw samples of the chosen runs for
each variant, their difference (numpy: the chosen runs' rows of a runs x
samples array, np.median).  It computes much less than the tool (delta
median only), so the ratio understates the tool's advantage.  It runs in
this process, pinned to one CPU too.  If 10000 resamples would take more
than about 60 s (a pilot of 20 resamples decides), it runs fewer (at
least 20) and the time is scaled linearly to 10000; printed as such.

Exit status 0 unless something crashed.  Runtime about 1 min.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
import scipy
import scipy.stats

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import simstudy as S  # noqa: E402

B = 10000


def time_tool(cmd, repeat):
    """[(wall s, cpu s, maxrss KiB)] of cmd run repeat times on CPU 0."""
    out = []
    for _ in range(repeat):
        full = ["taskset", "-c", "0", "/usr/bin/time", "-v"] + cmd
        t = time.perf_counter()
        p = subprocess.run(full, capture_output=True, text=True)
        wall = time.perf_counter() - t
        if p.returncode:
            raise RuntimeError(f"{' '.join(cmd)}: exit {p.returncode}: "
                               f"{p.stderr.strip()[-500:]}")
        rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)",
                            p.stderr).group(1))
        user = float(re.search(r"User time \(seconds\): ([\d.]+)",
                               p.stderr).group(1))
        sys_ = float(re.search(r"System time \(seconds\): ([\d.]+)",
                               p.stderr).group(1))
        # wall: this process's clock around taskset, time and the tool
        # (a few ms of exec overhead; GNU time's own is in 10 ms steps)
        out.append((wall, user + sys_, rss, p.stdout))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--runs", type=int, default=300)
    ap.add_argument("--samples", type=int, default=1000)
    ap.add_argument("--tau", type=float, default=0.25)
    ap.add_argument("--sigma", type=float, default=0.45)
    ap.add_argument("--scipy-budget", type=float, default=60.0,
                    help="seconds scipy may take before it is scaled")
    a = ap.parse_args()
    if not S.tool_has_compare():
        print(f"bench: {S.TOOL} has no --compare (make tools/clkstat-report)")
        return 1
    st = S.simulate([("base", 20000.0), ("alt", 18000.0)], runs=a.runs,
                    samples=a.samples, tau=a.tau, sigma=a.sigma, seed=4242)
    tmp = tempfile.mkdtemp(prefix="clkstat-bench-")
    path = os.path.join(tmp, "bench.json")
    st.write_snapshot(path)
    try:
        return bench(a, st, path)
    finally:
        os.unlink(path)
        os.rmdir(tmp)


def bench(a, st, path):
    print(f"# clkstat-report --compare benchmark: {os.uname().nodename}, "
          f"{os.cpu_count()} CPUs, "
          f"{open('/proc/cpuinfo').read().split('model name')[1].split(':')[1].splitlines()[0].strip()}")
    print(f"# load average {' '.join(open('/proc/loadavg').read().split()[:3])}"
          " (other work on the machine slows every figure below)")
    slots = {}
    for v in ("base", "alt"):
        rs = st.of(v)
        slots[v] = len({s[0] for r in rs for s in r.slots})
        per = np.mean([len(r.slots) for r in rs])
        n = sum(r.nsamples for r in rs)
        print(f"data: {v}: {len(rs)} runs, {n} samples, {slots[v]} non-empty "
              f"slots pooled, {per:.0f} per run on average")
    print(f"snapshot: {os.path.getsize(path) / 1e6:.1f} MB")

    info = time_tool([S.TOOL, "-i", path, "info"], 3)
    print(f"clkstat-report info (reading the snapshot only): best "
          f"{min(x[0] for x in info) * 1000:.0f} ms, peak RSS "
          f"{max(x[2] for x in info) / 1024:.1f} MiB")
    res = {}
    for unit in ("run", "sample"):
        cmd = S.compare_cmd(path, "alt", "base", unit=unit, resamples=B,
                            seed=1)
        r = time_tool(cmd, a.repeat)
        walls = [x[0] for x in r]
        res[unit] = (min(walls), statistics.median(walls),
                     statistics.median(x[1] for x in r),
                     max(x[2] for x in r))
        print(f"clkstat-report --compare --unit {unit} --resamples {B} "
              f"(1 CPU, {a.repeat} times): wall best {res[unit][0]:.3f} s, "
              f"median {res[unit][1]:.3f} s; CPU {res[unit][2]:.3f} s; peak "
              f"RSS {res[unit][3] / 1024:.1f} MiB")
        if unit == "run":
            import json
            d = json.loads(r[0][3])["metrics"][0]["diff"]["median"]
            tool_ci = (d["lo"], d["hi"])

    # scipy on raw samples
    os.sched_setaffinity(0, {0})
    raw = {}
    for v in ("base", "alt"):
        m = S.RunMatrix(st.of(v), st.k)
        p = m.pool(m.all_runs())
        means = p.slot_means()[0]	# pooled slot means, as ns
        rows = []
        for i in range(m.nruns):
            # the run's own slot means would do as well; the pooled ones
            # are the same slots' values within a slot's width
            rm = np.where(m.counts[i] > 0,
                          (m.sums[i] // np.maximum(m.counts[i], 1)),
                          means)
            rows.append(np.repeat(rm, m.counts[i]))
        lens = {len(r) for r in rows}
        if len(lens) != 1:
            raise RuntimeError("bench: runs of unequal sizes")
        raw[v] = np.array(rows, dtype=np.float64)
    rb, rv = raw["base"], raw["alt"]

    def stat(ib, iv, axis=-1):
        ib, iv = np.atleast_2d(ib), np.atleast_2d(iv)
        mb = np.median(rb[ib].reshape(ib.shape[0], -1), axis=-1)
        mv = np.median(rv[iv].reshape(iv.shape[0], -1), axis=-1)
        return mv - mb

    idx = (np.arange(rb.shape[0]), np.arange(rv.shape[0]))

    def run_scipy(n):
        t = time.perf_counter()
        r = scipy.stats.bootstrap(idx, stat, n_resamples=n, method="percentile",
                                  vectorized=True, paired=False, batch=10,
                                  random_state=np.random.default_rng(1))
        return time.perf_counter() - t, r

    pilot_n = 20
    tp, _ = run_scipy(pilot_n)
    est = tp / pilot_n * B
    if est <= a.scipy_budget:
        n = B
    else:
        n = max(pilot_n, int(a.scipy_budget / 2 / (tp / pilot_n)) // 10 * 10)
    ts, r = run_scipy(n)
    scaled = ts * B / n
    how = "measured" if n == B else \
        f"measured with {n} resamples ({ts:.1f} s), scaled linearly to {B}"
    print(f"scipy {scipy.__version__} bootstrap, raw samples "
          f"({rb.size} + {rv.size}), delta median only, 1 CPU: "
          f"{scaled:.1f} s for {B} resamples ({how})")
    print(f"  its CI of delta median [{r.confidence_interval.low:.0f}, "
          f"{r.confidence_interval.high:.0f}] ns, the tool's "
          f"[{tool_ci[0]:.0f}, {tool_ci[1]:.0f}] ns (raw samples at slot "
          f"means vs interpolated histogram quantiles: close, not equal)")
    best = res["run"][0]
    print(f"ratio scipy / clkstat-report (run unit, best wall): "
          f"{scaled / best:.0f}x")
    print(f"1 s target (10000 resamples, 300 runs x 2 variants, ~200 slots, "
          f"1 CPU): {'met' if res['run'][1] < 1.0 else 'NOT met'} "
          f"(median wall {res['run'][1]:.3f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

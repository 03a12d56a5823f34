#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""clkstat-report xcorr's r(k) against numpy on the same binned series.

Snapshots (format version 2) with made-up event logs are written here:
series with a known lag and noise, several runs of different lengths
(windows from record's run_start/run_end markers and from the first and
last events), selectors with filters (enqueue:migrated against
enqueue:local, clocksource_read:hpet, marker:TEXT), sparse series and a
run where one series is empty (its r undefined, so left out of the
mean).  The events are binned here, independently of the tool
(floor((ts - t0) / bin) over [t0, t1]), each run's r(k) is
numpy.corrcoef on the overlapping slices, the pooled r(k) the mean over
the runs where it is defined; every lag of `clkstat-report xcorr --json`
must agree to 1e-9 (null where numpy's is undefined), and so must the
peak lag (largest |r|; ties: smaller |k|, then negative).
Prints ok/not ok lines; exits non-zero on a failure.
"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

TOP = os.path.realpath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
REPORT = os.path.join(TOP, "tools", "clkstat-report")
COLS = ["ts_ns", "type", "cpu", "pid", "corr", "latency_ns", "migrated",
        "rq_clock_ns", "text"]
META = {"tool_version": "0.4", "module_version": "0.4",
        "kernel_release": "6.12.0", "clocksource": "tsc", "probes": "ttwu",
        "variants": "direct", "command": None, "machine": "vm",
        "hypervisor": None, "cpuidle_driver": None, "cpuidle_governor": None,
        "max_cstate": None, "cmdline": "", "frac_bits": 3, "nr_cpus": 2,
        "duration_s": 1, "events": 1000000, "params": {}}
failures = 0


def check(ok, what, detail=""):
    global failures
    print(("ok - " if ok else "not ok - ") + what)
    if not ok:
        failures += 1
        if detail:
            print("    " + str(detail)[:2000])


def row(ts, typ, mig=None, text=None):
    return [int(ts), typ, 0, 1, 0, None, mig, None, text]


def matches(r, sel):
    typ, _, f = sel.partition(":")
    if r[1] != typ:
        return False
    if not f:
        return True
    if f in ("migrated", "local") and typ in ("enqueue", "first_tkread"):
        return r[6] is (f == "migrated")
    return r[8] == f


def window(rows):
    starts = [r[0] for r in rows if r[1] == "marker" and r[8] == "run_start"]
    if starts:
        ends = [r[0] for r in rows if r[1] == "marker" and r[8] == "run_end"
                and r[0] >= starts[0]]
        if ends:
            return starts[0], ends[-1]
    return rows[0][0], rows[-1][0]


def binned(rows, sel, t0, t1, width):
    n = (t1 - t0) // width + 1
    c = np.zeros(n)
    for r in rows:
        if matches(r, sel) and t0 <= r[0]:
            k = (r[0] - t0) // width
            if k < n:
                c[k] += 1
    return c


def r_numpy(a, b, K):
    n = len(a)
    out = []
    for k in range(-K, K + 1):
        x = a[:n - k] if k >= 0 else a[-k:]
        y = b[k:] if k >= 0 else b[:n + k]
        if len(x) < 2 or np.all(x == x[0]) or np.all(y == y[0]):
            out.append(float("nan"))
        else:
            out.append(float(np.corrcoef(x, y)[0, 1]))
    return np.array(out)


def expected(runs, A, B, width, K):
    rs = []
    for rows in runs:
        t0, t1 = window(rows)
        rs.append(r_numpy(binned(rows, A, t0, t1, width),
                          binned(rows, B, t0, t1, width), K))
    rs = np.array(rs)
    with np.errstate(invalid="ignore"):
        return np.nanmean(rs, axis=0) if np.any(~np.isnan(rs)) else rs[0]


def peak(r, K):
    best = None
    for i in range(2 * K + 1):
        k = -((i + 1) // 2) if i % 2 else i // 2
        v = r[k + K]
        if np.isnan(v):
            continue
        if best is None or abs(v) > abs(r[best + K]):
            best = k
    return best


def snapshot(path, runs):
    out = []
    for i, rows in enumerate(runs):
        out.append({"index": i, "variant": "direct", "start_ns": 10 * i + 1,
                    "end_ns": 10 * i + 2, "exit_status": 0,
                    "workload_only": False, "metrics": [],
                    "events": {"lost": 0, "clock": [], "columns": COLS,
                               "rows": sorted(rows, key=lambda r: r[0])}})
    with open(path, "w") as f:
        json.dump({"format": "clkstat-snapshot", "version": 2, "meta": META,
                   "runs": out}, f)


def compare(name, path, runs, A, B, width, K, extra=()):
    p = subprocess.run([REPORT, "-i", path, "xcorr", A, B, "--bin",
                        "%dns" % width, "--max-lag", "%dns" % (K * width),
                        "-B", "100", "--json", *extra], capture_output=True)
    if p.returncode:
        check(False, name, p.stderr)
        return
    got = json.loads(p.stdout)
    r = np.array([float("nan") if l["r"] is None else l["r"]
                  for l in got["lags"]])
    want = expected([sorted(x, key=lambda r: r[0]) for x in runs], A, B,
                    width, K)
    same_nan = np.array_equal(np.isnan(r), np.isnan(want))
    diff = np.nanmax(np.abs(r - want)) if same_nan and np.any(~np.isnan(r)) else 0
    pk = got["peak"]["lag_bins"] if got["peak"] else None
    check(same_nan and diff < 1e-9 and pk == peak(want, K),
          "%s: r(k) within 1e-9 of numpy at every lag (max diff %.2g), peak %s" %
          (name, diff, pk),
          (r, want, pk, peak(want, K)))


def main():
    rng = np.random.default_rng(20261124)
    with tempfile.TemporaryDirectory() as d:
        # A Poisson per ms, B = A 4 ms later plus independent noise.
        rows = [row(1_000_000_000, "marker", text="run_start"),
                row(1_000_000_000 + 3000 * 1_000_000, "marker", text="run_end")]
        for i in range(3000):
            for _ in range(rng.poisson(0.7)):
                t = 1_000_000_000 + i * 1_000_000 + int(rng.integers(0, 1_000_000))
                rows.append(row(t, "first_tkread", True))
                if rng.random() < 0.8:
                    rows.append(row(t + 4_000_000 + int(rng.integers(-300_000, 300_000)),
                                    "enqueue", True))
            for _ in range(rng.poisson(0.3)):
                rows.append(row(1_000_000_000 + i * 1_000_000 + int(rng.integers(0, 1_000_000)),
                                "enqueue", True))
        p = os.path.join(d, "one.json")
        snapshot(p, [rows])
        compare("one run, B = A + 4ms + noise", p, [rows], "first_tkread",
                "enqueue", 1_000_000, 12)
        compare("one run, 250us bins", p, [rows], "first_tkread",
                "enqueue:migrated", 250_000, 30)

        # Three runs: filters, no markers in one, an empty series in one.
        runs = []
        for n, markers in ((800, True), (1500, False), (400, True)):
            t0 = int(rng.integers(1, 10**12))
            rr = []
            if markers:
                rr += [row(t0, "marker", text="run_start"),
                       row(t0 + n * 100_000, "marker", text="run_end")]
            for i in range(n):
                base = t0 + i * 100_000
                for _ in range(rng.poisson(0.5)):
                    rr.append(row(base + int(rng.integers(0, 100_000)),
                                  "enqueue", bool(rng.random() < 0.4)))
                for _ in range(rng.poisson(0.2)):
                    rr.append(row(base + int(rng.integers(0, 100_000)),
                                  "clocksource_read",
                                  text="hpet" if rng.random() < 0.7 else "acpi_pm"))
                if rng.random() < 0.05:
                    rr.append(row(base + 50_000, "marker", text="phase"))
            runs.append(rr)
        p = os.path.join(d, "three.json")
        snapshot(p, runs)
        compare("three runs, enqueue:migrated vs enqueue:local", p, runs,
                "enqueue:migrated", "enqueue:local", 100_000, 8)
        compare("three runs, clocksource_read:hpet vs marker:phase", p, runs,
                "clocksource_read:hpet", "marker:phase", 300_000, 5)
        # No first_tkread anywhere: every r undefined.
        compare("an empty series: r undefined at every lag", p, runs,
                "enqueue", "first_tkread", 100_000, 3)
        # Run 1 alone: a window from its first to its last event.
        compare("--run 1 (window from the events)", p, [runs[1]],
                "enqueue", "clocksource_read", 100_000, 6, ("--run", "1"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

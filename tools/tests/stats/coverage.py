#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Coverage of clkstat-report --compare's 95% CI of delta median, on
simulated studies where the truth is known.

Each study (simstudy.py): two variants, "base" with a true population
median of 20 us and "alt" with 18 us (true delta median -2000 ns), RUNS
runs each, alternated, SAMPLES samples per run, with a substantial
run-level random effect (tau = 0.3, sigma = 0.5).  For every study the
tool runs twice on the same snapshot:

  --unit run --resamples 2000    does the 95% CI of delta median cover
                                 -2000 ns?  The pass criterion.
  --unit sample --resamples 2000 the naive per-sample bootstrap, printed
                                 only, on the first 200 studies: with
                                 samples correlated inside a run it must
                                 cover far less than 95%.

Pass criterion: the run-unit coverage is within 93-97% over 1000 studies
of 100 runs per variant.  Why these numbers, and what else is printed:
Documentation/clkstat-compare.rst, "Coverage".

Everything is seeded (study i: simulation seed 100000 + i, tool seed
i + 1), so the result is the same on every run.  Runtime: about 1.5 min
on 2 cores (two worker processes): per study about 0.07 s for --unit
run, 0.08 s to simulate and write it, and 0.13 s for --unit sample on
the studies that run it.

Exit status: 0 if the run-unit coverage is within the band, 1 if not, 2
if the tool failed.
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
import simstudy as S  # noqa: E402

BASE, ALT = ("base", 20000.0), ("alt", 18000.0)
TRUE_DELTA = ALT[1] - BASE[1]

OPTS = None
TMP = None


def one(i):
    """One study: (run (value, lo, hi), sample (value, lo, hi), base
    median, alt median, reference (value, lo, hi) or None)."""
    o = OPTS
    st = S.simulate([BASE, ALT], runs=o.runs, samples=o.samples, tau=o.tau,
                    sigma=o.sigma, seed=100000 + i, keep_raw=True)
    # the raw samples' nearest-rank median (the rank the histogram's
    # quantile takes), to tell the binning's error from the estimator's
    raw_med = []
    for v in ("base", "alt"):
        x = np.sort(np.concatenate([r.raw for r in st.of(v)]))
        raw_med.append(float(x[(len(x) + 1) // 2 - 1]))
    path = os.path.join(TMP, f"study-{i}.json")
    st.write_snapshot(path)
    out = {"raw_medians": tuple(raw_med)}
    try:
        for unit in ("run", "sample") if i < o.sample_studies else ("run",):
            doc = S.run_compare(path, "alt", "base", unit=unit,
                                resamples=o.resamples, seed=i + 1)
            d = doc["metrics"][0]["diff"]["median"]
            out[unit] = (d["value"], d["lo"], d["hi"])
            if unit == "run":
                out["medians"] = (S.stratum(doc, "base")["median"]["value"],
                                  S.stratum(doc, "variant")["median"]["value"])
                if doc.get("unit") != "run":
                    raise S.ToolError(f"unit {doc.get('unit')!r}")
    except S.ToolError as e:
        return {"error": str(e)}
    finally:
        os.unlink(path)
    if o.reference:
        r = S.ref_compare(st, "base", "alt", resamples=o.resamples, seed=i)
        out["ref"] = r["diff"]
    return out


def cover(ci, truth):
    return ci[1] <= truth <= ci[2]


def summarize(name, cis, truth):
    cis = np.asarray(cis, dtype=np.float64)
    c = np.mean((cis[:, 1] <= truth) & (truth <= cis[:, 2]))
    below = np.mean(truth < cis[:, 1])
    above = np.mean(truth > cis[:, 2])
    se = math.sqrt(max(c * (1 - c), 1e-12) / len(cis))
    w = np.mean(cis[:, 2] - cis[:, 1])
    print(f"{name}: coverage {100 * c:.1f}% (SE {100 * se:.1f}%) of "
          f"{len(cis)} studies; misses: truth below the CI "
          f"{100 * below:.1f}%, above {100 * above:.1f}%; mean width "
          f"{w:.0f} ns")
    return c


def main():
    global OPTS, TMP
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--studies", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=100, help="per variant")
    ap.add_argument("--samples", type=int, default=200, help="per run")
    ap.add_argument("--tau", type=float, default=0.3)
    ap.add_argument("--sigma", type=float, default=0.5)
    ap.add_argument("--resamples", type=int, default=2000)
    ap.add_argument("--sample-studies", type=int, default=200,
                    help="the studies that also run --unit sample")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--reference", action="store_true",
                    help="also the Python reference bootstrap (slower)")
    OPTS = a = ap.parse_args()
    if not 0 <= a.sample_studies <= a.studies:
        ap.error(f"--sample-studies {a.sample_studies}: 0 to --studies "
                 f"({a.studies})")
    if not S.tool_has_compare():
        print(f"coverage: {S.TOOL} has no --compare (make "
              "tools/clkstat-report)")
        return 2
    t0 = time.time()
    icc = a.tau ** 2 / (a.tau ** 2 + a.sigma ** 2)
    print(f"# {a.studies} studies: {a.runs} runs per variant, {a.samples} "
          f"samples per run, tau {a.tau}, sigma {a.sigma} (ICC {icc:.2f} on "
          f"the log scale, design effect {1 + (a.samples - 1) * icc:.0f}); "
          f"true delta median {TRUE_DELTA:.0f} ns; --resamples "
          f"{a.resamples}; {a.jobs} processes")
    TMP = tempfile.mkdtemp(prefix="clkstat-coverage-")
    try:
        with multiprocessing.Pool(a.jobs) as p:
            res = p.map(one, range(a.studies), chunksize=8)
    finally:
        shutil.rmtree(TMP, ignore_errors=True)
    errs = [r["error"] for r in res if "error" in r]
    if errs:
        print(f"coverage: the tool failed in {len(errs)} studies: {errs[0]}")
        print("0 passed, 1 failed")
        return 2
    run = [r["run"] for r in res]
    cov = summarize("--unit run   ", run, TRUE_DELTA)
    naive = [r["sample"] for r in res if "sample" in r]
    if naive:
        summarize("--unit sample", naive, TRUE_DELTA)
    if a.reference:
        summarize("reference (simstudy.ref_compare, run unit)",
                  [r["ref"] for r in res], TRUE_DELTA)
    est = np.array([r[0] for r in run], dtype=np.float64)
    bias = est.mean() - TRUE_DELTA
    se = est.std(ddof=1) / math.sqrt(len(est))
    print(f"bias of delta median: {bias:+.1f} ns (SE {se:.1f} ns; "
          f"{100 * bias / abs(TRUE_DELTA):+.2f}% of the true delta; "
          f"{bias / se:+.1f} SE)")
    med = np.array([r["medians"] for r in res], dtype=np.float64)
    raw = np.array([r["raw_medians"] for r in res], dtype=np.float64)
    for j, (name, truth) in enumerate((BASE, ALT)):
        b = med[:, j].mean() - truth
        s = med[:, j].std(ddof=1) / math.sqrt(len(med))
        e = med[:, j] - raw[:, j]
        print(f"bias of {name} median: {b:+.1f} ns (SE {s:.1f} ns; "
              f"{100 * b / truth:+.3f}% of {truth:.0f} ns); of it from the "
              f"histogram (tool - raw samples' median): mean {e.mean():+.2f} "
              f"ns (SE {e.std(ddof=1) / math.sqrt(len(e)):.2f}), largest "
              f"|{np.abs(e).max():.0f}| ns (slot width there "
              f"{S.slot_upper(S.value_to_slot(int(truth), 5), 5) - S.slot_lower(S.value_to_slot(int(truth), 5), 5) + 1} ns)")
    e = (med[:, 1] - med[:, 0]) - (raw[:, 1] - raw[:, 0])
    print(f"histogram's error of delta median (tool - raw samples'): mean "
          f"{e.mean():+.2f} ns (SE {e.std(ddof=1) / math.sqrt(len(e)):.2f})")
    ok = 0.93 <= cov <= 0.97
    print(f"{'ok' if ok else 'not ok'} 1 - run-unit coverage of the 95% CI "
          f"of delta median {100 * cov:.1f}% is within 93-97%")
    print(f"# {time.time() - t0:.0f} s")
    print(f"{int(ok)} passed, {int(not ok)} failed")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Simulated clkstat studies, written as snapshot files, and a reference
implementation of the statistics that clkstat-report --compare computes.

The model: log x = mu_v + u_run + eps, a run-level random effect u_run ~
N(0, tau^2) and eps ~ N(0, sigma^2), so that the population median of
variant v is exactly exp(mu_v) (--variant NAME:MEDIAN_NS); the samples
are binned exactly as the module bins them (Documentation/
clkstat-compare.rst, "The simulated studies").

Library:
    simulate(...)            -> Study (per run: variant, slots, min, max)
    Study.snapshot() / write_snapshot(path)
    load_snapshot(path)      -> Study (a snapshot file's runs, one metric)
    value_to_slot, slot_lower, slot_upper, slot_sum_shift, hist_quantile:
                             exact ports of the C headers (scipy_check.py
                             checks them against the C)
    share_above              the risk's share above a threshold, as
                             Documentation/clkstat-compare.rst defines it
    RunMatrix, Pooled, STATS a variant's runs as dense run x slot matrices;
                             pooled statistics, vectorized over resamples
    ref_compare(...)         a reference run- or sample-unit percentile
                             bootstrap of median and delta median (numpy)
    run_compare, schema_errors: clkstat-report --compare --json, run and
                             parsed; its schema
CLKSTAT_REPORT in the environment names another clkstat-report binary.
CLI: simstudy.py -o FILE [--runs N] [--samples M] [--tau T] [--sigma S]
[--seed N] [--frac-bits K] [--variant NAME:MEDIAN_NS ...] [--metric NAME]
[--check]; --runs is per variant, --check fails unless clkstat-report -i
FILE info exits 0.
"""
import argparse
import json
import math
import os
import subprocess
import sys

import numpy as np

TOP = os.path.realpath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
TOOL = os.environ.get("CLKSTAT_REPORT",
                      os.path.join(TOP, "tools", "clkstat-report"))

FRAC_BITS_MAX = 5
SUM_EXACT_BITS = 33
U64_MAX = (1 << 64) - 1


# ---------------------------------------------------------------------------
# kmod/uapi/clkstat_buckets.h, exactly (Python integers: no overflow).

def nslots(k):
    return (65 - k) << k


def value_to_slot(v, k):
    if v < (1 << k):
        return v
    m = v.bit_length() - 1
    return ((m - k + 1) << k) | ((v >> (m - k)) & ((1 << k) - 1))


def slot_lower(slot, k):
    b = slot >> k
    if b == 0:
        return slot
    return ((1 << k) | (slot & ((1 << k) - 1))) << (b - 1)


def slot_upper(slot, k):
    b = slot >> k
    if b == 0:
        return slot
    return slot_lower(slot, k) + ((1 << (b - 1)) - 1)


def slot_sum_shift(slot, k):
    b = slot >> k
    top = b + k if b else 0
    return top - SUM_EXACT_BITS if top > SUM_EXACT_BITS else 0


def slot_mean(count, s, slot, k):
    """clkstat_slot_mean(): (sum / count) << shift, clamped to the slot."""
    if not count:
        return 0
    mean = (s // count) << slot_sum_shift(slot, k)
    return min(max(mean, slot_lower(slot, k)), slot_upper(slot, k))


def values_to_slots(values, k):
    """value_to_slot over a numpy array of values below 2^53."""
    v = np.asarray(values, dtype=np.int64)
    if v.size and (v.min() < 0 or v.max() >= 1 << 53):
        raise ValueError("values_to_slots: values must be in [0, 2^53)")
    # frexp is exact for integers below 2^53: v = f * 2^e, f in [0.5, 1)
    m = np.frexp(v.astype(np.float64))[1].astype(np.int64) - 1
    sh = np.maximum(m - k, 0)
    big = ((m - k + 1) << k) | ((v >> sh) & ((1 << k) - 1))
    return np.where(v < (1 << k), v, big)


# ---------------------------------------------------------------------------
# kmod/shared/clkstat_hist_math.h: clkstat_hist_quantile(), exactly.

def hist_quantile(slots, k, vmin, vmax, num, den):
    """slots: [(slot, count), ...] ascending (extra members ignored)."""
    total = sum(s[1] for s in slots)
    if not total or not den or num > den:
        return 0
    rank = total - (total * (den - num)) // den
    if rank <= 1:
        return vmin
    if rank >= total:
        return vmax
    cum = 0
    for s in slots:
        slot, c = s[0], s[1]
        if not c or cum + c < rank:
            cum += c
            continue
        lower = slot_lower(slot, k)
        width = slot_upper(slot, k) - lower + 1
        v = lower + (width * (2 * (rank - cum) - 1)) // (2 * c)
        return min(max(v, vmin), vmax)
    return vmax


def share_above(slots, k, vmin, vmax, t):
    """The share of a histogram's samples above t, the c samples of a slot
    spread evenly over its integer values, the first non-empty slot
    starting at min and the last ending at max (tools/lib/bootstrap.c's
    documented cr_boot_cdf()); slots [(slot, count), ...] ascending."""
    total = sum(s[1] for s in slots)
    if not total:
        return None
    le = 0.0
    for i, s in enumerate(slots):
        slot, c = s[0], s[1]
        lo, up = slot_lower(slot, k), slot_upper(slot, k)
        if i == 0 and lo <= vmin <= up:
            lo = vmin
        if i == len(slots) - 1 and lo <= vmax <= up:
            up = vmax
        if t >= up:
            le += c
        elif t >= lo:
            le += c * (t - lo + 1) / (up - lo + 1)
    return (total - le) / total


# ---------------------------------------------------------------------------
# Binning, runs, studies.

def bin_values(values, k):
    """The module's histogram of integer samples: ([[slot, count, sum]...],
    min, max); min and max None when empty."""
    v = np.asarray(values, dtype=np.int64)
    if not v.size:
        return [], None, None
    sl = values_to_slots(v, k)
    order = np.argsort(sl, kind="stable")
    sl, v = sl[order], v[order]
    starts = np.flatnonzero(np.r_[True, sl[1:] != sl[:-1]])
    ends = np.r_[starts[1:], len(sl)]
    out = []
    for a, b in zip(starts, ends):
        slot = int(sl[a])
        shift = slot_sum_shift(slot, k)
        part = v[a:b]
        if shift:
            s = sum(int(x) >> shift for x in part)
        else:
            s = int(part.sum())	# < 2^63: at most 2^33 each, few of them
        out.append([slot, int(b - a), s])
    return out, int(v.min()), int(v.max())


class Run:
    __slots__ = ("variant", "slots", "vmin", "vmax", "nsamples", "raw")

    def __init__(self, variant, slots, vmin, vmax, raw=None):
        self.raw = raw
        self.variant = variant
        self.slots = slots
        self.vmin = vmin
        self.vmax = vmax
        self.nsamples = sum(s[1] for s in slots)


class Study:
    """Runs in recording order, their variants, and the truth."""

    def __init__(self, runs, k, metric, truth, params):
        self.runs = runs
        self.k = k
        self.metric = metric
        self.truth = truth	# variant -> true population median, ns
        self.params = params

    def variants(self):
        out = []
        for r in self.runs:
            if r.variant not in out:
                out.append(r.variant)
        return out

    def of(self, variant):
        return [r for r in self.runs if r.variant == variant]

    def snapshot(self):
        variants = self.variants()
        meta = {
            "tool_version": "0.4.0",
            "module_version": "0.4.0",
            "kernel_release": "6.1.0-sim",
            "clocksource": "tsc",
            "probes": self.metric,
            "variants": ",".join(variants),
            "command": "simstudy " + " ".join(
                f"{a}={b}" for a, b in sorted(self.params.items())),
            "machine": "vm",
            "hypervisor": None,
            "cpuidle_driver": None,
            "cpuidle_governor": None,
            "max_cstate": None,
            "cmdline": None,
            "frac_bits": self.k,
            "nr_cpus": 2,
            "duration_s": 0,
            "params": {"frac_bits": str(self.k)},
        }
        runs = []
        t0 = 1700000000000000000
        for i, r in enumerate(self.runs):
            runs.append({
                "index": i,
                "variant": r.variant,
                "start_ns": t0 + i * 1000000000,
                "end_ns": t0 + i * 1000000000 + 900000000,
                "exit_status": 0,
                "metrics": [{
                    "name": self.metric,
                    "variant": r.variant,
                    "frac_bits": self.k,
                    "recording": False,
                    "counters": {},
                    "total": {"min": r.vmin, "max": r.vmax,
                              "slots": r.slots},
                    "cpus": [],
                }],
            })
        return {"format": "clkstat-snapshot", "version": 1, "meta": meta,
                "runs": runs}

    def write_snapshot(self, path):
        tmp = path + ".tmp"
        with open(tmp, "w") as f:
            json.dump(self.snapshot(), f, separators=(",", ":"))
            f.write("\n")
        os.replace(tmp, path)


def load_snapshot(path, metric=None):
    """A snapshot file's runs (one metric: the first, or metric) as a
    Study without truth."""
    with open(path) as f:
        doc = json.load(f)
    runs, k = [], doc["meta"]["frac_bits"]
    for r in doc["runs"]:
        for m in r["metrics"]:
            if metric is None:
                metric = m["name"]
            if m["name"] == metric:
                k = m["frac_bits"]
                t = m["total"]
                runs.append(Run(r["variant"], t["slots"], t["min"], t["max"]))
    return Study(runs, k, metric, {}, {})


def simulate(variants, runs=30, samples=300, tau=0.3, sigma=0.5, seed=1,
             k=5, metric="tkread", keep_raw=False):
    """variants: [(name, true_median_ns[, runs]), ...]; runs per variant
    (the variant's own when given), alternated in recording order.  samples: per run (an int, or (lo, hi) for a
    uniform random count per run).  keep_raw: Run.raw holds the samples."""
    rng = np.random.default_rng(seed)
    out = []
    truth = {}
    nruns = {}
    for v in variants:
        truth[v[0]] = float(v[1])
        nruns[v[0]] = v[2] if len(v) > 2 else runs
    for i in range(max(nruns.values())):
        for v in variants:
            name, med = v[0], v[1]
            if i >= nruns[name]:
                continue
            n = samples if isinstance(samples, int) else \
                int(rng.integers(samples[0], samples[1] + 1))
            u = rng.normal(0.0, tau)
            x = np.exp(math.log(med) + u + rng.normal(0.0, sigma, n))
            v = np.floor(x).astype(np.int64)
            slots, vmin, vmax = bin_values(v, k)
            r = Run(name, slots, vmin, vmax, v if keep_raw else None)
            out.append(r)
    params = {"runs": runs, "samples": samples, "tau": tau, "sigma": sigma,
              "seed": seed, "k": k}
    return Study(out, k, metric, truth, params)


def check_snapshot(path, tool=TOOL):
    """clkstat-report -i FILE info must exit 0."""
    p = subprocess.run([tool, "-i", path, "info"], capture_output=True,
                       text=True)
    if p.returncode:
        raise RuntimeError(f"{tool} -i {path} info: exit {p.returncode}: "
                           f"{p.stderr.strip()}")
    return p.stdout


# ---------------------------------------------------------------------------
# Vectorized statistics over resampled runs.

class RunMatrix:
    """One variant's runs as dense matrices over a list of slots (default:
    the union of the runs' slots): counts[r, j] and sums[r, j] (the scaled
    sums) of run r in slot slots[j], the runs' mins and maxs.

    The statistics take "weights" w (M, nruns), how many times each run is
    in each of M resamples (the run bootstrap), pool the runs' counts and
    sums with them, and compute a statistic of each pooled histogram
    exactly as clkstat-report computes it of a histogram."""

    def __init__(self, runs, k, slots=None):
        self.k = k
        if slots is None:
            slots = sorted({s[0] for r in runs for s in r.slots})
        self.slots = np.asarray(slots, dtype=np.int64)
        pos = {s: j for j, s in enumerate(slots)}
        self.counts = np.zeros((len(runs), len(slots)), dtype=np.int64)
        self.sums = np.zeros((len(runs), len(slots)), dtype=np.int64)
        for i, r in enumerate(runs):
            for s in r.slots:
                self.counts[i, pos[s[0]]] = s[1]
                self.sums[i, pos[s[0]]] = s[2]
        big = np.iinfo(np.int64).max
        self.mins = np.array([r.vmin if r.vmin is not None else big
                              for r in runs], dtype=np.int64)
        self.maxs = np.array([r.vmax if r.vmax is not None else -1
                              for r in runs], dtype=np.int64)
        self.lower = np.array([slot_lower(int(s), k) for s in slots],
                              dtype=np.int64)
        self.upper = np.array([slot_upper(int(s), k) for s in slots],
                              dtype=np.int64)
        self.width = self.upper - self.lower + 1
        self.shift = np.array([slot_sum_shift(int(s), k) for s in slots],
                              dtype=np.int64)
        self.nruns = len(runs)

    def all_runs(self):
        return np.ones((1, self.nruns), dtype=np.int64)

    def weights(self, idx):
        """idx (..., n) run indices -> (M, nruns) multiplicities, M the
        number of rows of idx."""
        idx = np.asarray(idx, dtype=np.int64)
        flat = idx.reshape(-1, idx.shape[-1])
        m = flat.shape[0]
        off = (np.arange(m)[:, None] * self.nruns + flat).ravel()
        return np.bincount(off, minlength=m * self.nruns).reshape(
            m, self.nruns)

    def pool(self, w):
        """Pooled histograms of weights w: a Pooled."""
        # float64 products are exact here: every count and sum < 2^53
        wf = w.astype(np.float64)
        counts = np.rint(wf @ self.counts).astype(np.int64)
        sums = np.rint(wf @ self.sums).astype(np.int64)
        used = w > 0
        vmin = np.where(used, self.mins[None, :],
                        np.iinfo(np.int64).max).min(axis=1)
        vmax = np.where(used, self.maxs[None, :], -1).max(axis=1)
        return Pooled(self, counts, sums, vmin, vmax)

    def pool_samples(self, pooled_counts):
        """Pooled histograms of resampled samples (sample bootstrap): counts
        only; min and max those of all the runs (a resample's own are not
        known from the slots; the median never reaches them)."""
        n = pooled_counts.shape[0]
        return Pooled(self, pooled_counts, None,
                      np.full(n, self.mins.min()), np.full(n, self.maxs.max()))

    def quantile_w(self, w, num, den):
        return self.pool(w).quantile(num, den)

    def quantile(self, idx, num, den):
        idx = np.asarray(idx)
        q = self.quantile_w(self.weights(idx), num, den)
        return q.reshape(idx.shape[:-1])


class Pooled:
    """M pooled histograms over a RunMatrix's slots."""

    def __init__(self, m, counts, sums, vmin, vmax):
        self.m, self.counts, self.sums = m, counts, sums
        self.vmin, self.vmax = vmin, vmax
        self.total = counts.sum(axis=1)

    def quantile(self, num, den):
        """clkstat_hist_quantile(num/den)."""
        return quantile_pooled(self.counts, self.m.lower, self.m.width,
                               self.vmin, self.vmax, num, den)

    def mean(self):
        """stats.c: the slots' sums scaled back, over the count, clamped to
        [min, max]."""
        ns = (self.sums.astype(np.float64) *
              np.exp2(self.m.shift)[None, :]).sum(axis=1)
        mean = ns / np.maximum(self.total, 1)
        return np.clip(mean, self.vmin, self.vmax)

    def slot_means(self):
        """clkstat_slot_mean() of every pooled slot."""
        c = np.maximum(self.counts, 1)
        sm = (self.sums // c) << self.m.shift[None, :]
        sm = np.clip(sm, self.m.lower[None, :], self.m.upper[None, :])
        return np.where(self.counts > 0, sm, 0)

    def stddev(self):
        """stats.c: sample SD (n - 1) of the samples taken at their slot's
        mean."""
        sm = self.slot_means().astype(np.float64)
        n = self.total.astype(np.float64)
        vmean = (self.counts * sm).sum(axis=1) / np.maximum(n, 1)
        ss = (self.counts * (sm - vmean[:, None]) ** 2).sum(axis=1)
        return np.where(n > 1, np.sqrt(ss / np.maximum(n - 1, 1)), 0.0)

    def above(self, threshold):
        """Share of the samples in slots wholly above threshold (exact when
        threshold is a slot's upper bound)."""
        sel = self.m.lower > threshold
        return self.counts[:, sel].sum(axis=1) / np.maximum(self.total, 1)


STATS = {
    "median": lambda p: p.quantile(50, 100),
    "p90": lambda p: p.quantile(90, 100),
    "p99": lambda p: p.quantile(99, 100),
    "mean": lambda p: p.mean(),
    "stddev": lambda p: p.stddev(),
    "iqr": lambda p: p.quantile(75, 100) - p.quantile(25, 100),
}


def quantile_pooled(pooled, lower, width, vmin, vmax, num, den):
    """clkstat_hist_quantile over rows of dense pooled counts (M, S) whose
    columns have the given slot lower bounds and widths."""
    cum = np.cumsum(pooled, axis=1)
    total = cum[:, -1]
    rank = total - (total * (den - num)) // den
    i = np.argmax(cum >= rank[:, None], axis=1)
    rows = np.arange(len(total))
    c = pooled[rows, i]
    before = cum[rows, i] - c
    cc = np.maximum(c, 1)
    v = lower[i] + (width[i] * (2 * (rank - before) - 1)) // (2 * cc)
    v = np.minimum(np.maximum(v, vmin), vmax)
    v = np.where(rank <= 1, vmin, np.where(rank >= total, vmax, v))
    return np.where(total > 0, v, 0)


def pct_ci(dist, level):
    a = (1 - level) / 2
    lo, hi = np.percentile(dist, [100 * a, 100 * (1 - a)])
    return float(lo), float(hi)


def ref_compare(study, base, variant, resamples=2000, seed=1, level=0.95,
                unit="run", num=50, den=100):
    """A reference percentile bootstrap of the num/den quantile of each
    variant and of its difference (variant - base): dict with 'base',
    'variant', 'diff' each (value, lo, hi)."""
    rng = np.random.default_rng(seed)
    rb, rv = study.of(base), study.of(variant)
    slots = sorted({s[0] for r in rb + rv for s in r.slots})
    mb, mv = RunMatrix(rb, study.k, slots), RunMatrix(rv, study.k, slots)
    qb0 = int(mb.quantile(np.arange(mb.nruns), num, den))
    qv0 = int(mv.quantile(np.arange(mv.nruns), num, den))
    db, dv = [], []
    for start in range(0, resamples, 1000):
        n = min(1000, resamples - start)
        if unit == "run":
            ib = rng.integers(0, mb.nruns, (n, mb.nruns))
            iv = rng.integers(0, mv.nruns, (n, mv.nruns))
            db.append(mb.quantile(ib, num, den))
            dv.append(mv.quantile(iv, num, den))
        else:
            for m, d in ((mb, db), (mv, dv)):
                p = m.counts.sum(axis=0)
                tot = int(p.sum())
                pooled = rng.multinomial(tot, p / tot, size=n)
                d.append(m.pool_samples(pooled).quantile(num, den))
    db, dv = np.concatenate(db), np.concatenate(dv)
    return {"base": (qb0,) + pct_ci(db, level),
            "variant": (qv0,) + pct_ci(dv, level),
            "diff": (qv0 - qb0,) + pct_ci(dv - db, level)}


# ---------------------------------------------------------------------------
# clkstat-report --compare: running it, and the schema of its --json.

class ToolError(RuntimeError):
    pass


def compare_cmd(path, variant, base, unit="run", resamples=10000, seed=1,
                level=None, threshold=None, metric=None, fmt="--json",
                tool=TOOL):
    cmd = [tool, "-i", path, "--compare", variant, "--base", base,
           "--unit", unit, "--resamples", str(resamples), "--seed", str(seed)]
    if level is not None:
        cmd += ["--level", repr(level)]
    if threshold is not None:
        cmd += ["--threshold", str(threshold)]
    if metric is not None:
        cmd += ["--metric", metric]
    if fmt:
        cmd.append(fmt)
    return cmd


def run_compare(*args, **kw):
    """clkstat-report --compare ... --json, parsed."""
    cmd = compare_cmd(*args, **kw)
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode:
        raise ToolError(f"{' '.join(cmd)}: exit {p.returncode}: "
                        f"{p.stderr.strip()}")
    try:
        return json.loads(p.stdout)
    except ValueError as e:
        raise ToolError(f"{' '.join(cmd)}: not JSON: {e}") from e


def tool_has_compare(tool=TOOL):
    if not os.access(tool, os.X_OK):
        return False
    p = subprocess.run([tool, "--compare", "x", "-i", "/dev/null"],
                       capture_output=True, text=True)
    return "unrecognized option" not in p.stderr and \
        "unknown option" not in p.stderr


_CI = {"value", "lo", "hi"}
_PCT = _CI | {"resolution"}
SCHEMA = {
    "top": {"unit", "resamples", "seed", "level", "base", "variant",
            "metrics"},
    "metric": {"metric", "threshold_ns", "threshold_source",
               "hosts_paired", "hosts_shared", "strata", "diff"},
    "stratum": {"variant": None, "runs": None, "hosts": None,
                "samples": None,
                "warning": None, "median": _PCT, "p90": _PCT, "p99": _PCT,
                "mean": _CI, "stddev": _CI, "iqr": _CI, "risk": _CI,
                "outliers_2sigma": None, "outliers_3mad": None,
                "mad": None},
    "diff": {"median": _CI | {"warning"}, "p90": _CI, "p99": _CI,
             "stddev": _CI, "iqr": _CI,
             "risk_difference": _CI,
             "risk_ratio": _CI | {"undefined_resamples"},
             "p_value_median": None, "p_value_method": None,
             "p_value_warning": None},
}


def _num(x):
    return x is None or (isinstance(x, (int, float)) and
                         not isinstance(x, bool))


def schema_errors(doc, unit=None, base=None, variant=None, resamples=None,
                  seed=None, level=None):
    """What in a --compare --json document differs from the schema."""
    err = []

    def keys(where, o, want):
        if not isinstance(o, dict):
            err.append(f"{where}: not an object")
            return False
        got = set(o)
        if got != set(want):
            miss, extra = set(want) - got, got - set(want)
            err.append(f"{where}: missing {sorted(miss)} unknown {sorted(extra)}")
        return True

    if not keys("top", doc, SCHEMA["top"]):
        return err
    for k, v in (("unit", unit), ("base", base), ("variant", variant),
                 ("resamples", resamples), ("seed", seed), ("level", level)):
        if v is not None and doc.get(k) != v:
            err.append(f"{k}: {doc.get(k)!r}, expected {v!r}")
    if doc.get("unit") not in ("run", "sample", "host", "host-fixed"):
        err.append(f"unit: {doc.get('unit')!r}")
    ms = doc.get("metrics")
    if not isinstance(ms, list) or not ms:
        err.append("metrics: not a non-empty array")
        return err
    for i, m in enumerate(ms):
        w = f"metrics[{i}]"
        if not keys(w, m, SCHEMA["metric"]):
            continue
        if not _num(m.get("threshold_ns")):
            err.append(f"{w}.threshold_ns: {m.get('threshold_ns')!r}")
        hp = m.get("hosts_paired")
        if (doc.get("unit") == "host") != isinstance(hp, bool) or \
                (hp is not None and not isinstance(hp, bool)):
            err.append(f"{w}.hosts_paired: {hp!r}")
        hs = m.get("hosts_shared")
        if (doc.get("unit") == "host") != (isinstance(hs, int) and
                                           not isinstance(hs, bool)) or \
                (hs is not None and (isinstance(hs, bool) or
                                     not isinstance(hs, int) or hs < 0)):
            err.append(f"{w}.hosts_shared: {hs!r}")
        st = m.get("strata")
        if not isinstance(st, list) or len(st) != 2:
            err.append(f"{w}.strata: not two strata")
            st = []
        for j, s in enumerate(st):
            ws = f"{w}.strata[{j}]"
            if not keys(ws, s, SCHEMA["stratum"]):
                continue
            want = (base, variant)[j]
            if want is not None and s.get("variant") != want:
                err.append(f"{ws}.variant: {s.get('variant')!r}, expected {want!r}")
            for k, sub in SCHEMA["stratum"].items():
                if sub is None:
                    if k in ("runs", "hosts", "samples") and \
                            not isinstance(s.get(k), int):
                        err.append(f"{ws}.{k}: {s.get(k)!r}")
                    if (k.startswith("outliers") or k == "mad") and \
                            not _num(s.get(k)):
                        err.append(f"{ws}.{k}: {s.get(k)!r}")
                    continue
                if keys(f"{ws}.{k}", s.get(k), sub):
                    err += _ci_errors(f"{ws}.{k}", s[k])
        d = m.get("diff")
        if keys(f"{w}.diff", d, SCHEMA["diff"]):
            for k, sub in SCHEMA["diff"].items():
                if sub is None:
                    continue
                if keys(f"{w}.diff.{k}", d.get(k), sub):
                    err += _ci_errors(f"{w}.diff.{k}", d[k])
            p = d.get("p_value_median")
            if not (p is None or (_num(p) and 0 <= p <= 1)):
                err.append(f"{w}.diff.p_value_median: {p!r}")
            if not isinstance(d.get("p_value_method"), str):
                err.append(f"{w}.diff.p_value_method: {d.get('p_value_method')!r}")
    return err


def _ci_errors(where, o):
    err = []
    for k, v in o.items():
        if k == "warning":  # diff.median: null or a string
            if v is not None and not isinstance(v, str):
                err.append(f"{where}.{k}: {v!r}")
            continue
        if not _num(v):
            err.append(f"{where}.{k}: {v!r}")
    lo, hi = o.get("lo"), o.get("hi")
    if _num(lo) and _num(hi) and lo is not None and hi is not None and lo > hi:
        err.append(f"{where}: lo {lo} > hi {hi}")
    return err


def stratum(doc, which, metric=0):
    """doc's stratum of 'base' (strata[0]) or 'variant' (strata[1])."""
    return doc["metrics"][metric]["strata"][0 if which == "base" else 1]


# ---------------------------------------------------------------------------

def parse_variant(s):
    name, _, med = s.partition(":")
    if not name or not med:
        raise argparse.ArgumentTypeError("NAME:MEDIAN_NS")
    return name, float(med)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--runs", type=int, default=30, help="runs per variant")
    ap.add_argument("--samples", type=int, default=300, help="samples per run")
    ap.add_argument("--tau", type=float, default=0.3,
                    help="run-level SD of log x")
    ap.add_argument("--sigma", type=float, default=0.5,
                    help="within-run SD of log x")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--frac-bits", type=int, default=5, choices=range(6))
    ap.add_argument("--metric", default="tkread")
    ap.add_argument("--variant", type=parse_variant, action="append",
                    help="NAME:MEDIAN_NS (default base:20000 alt:18000)")
    ap.add_argument("--check", action="store_true",
                    help="clkstat-report -i FILE info must exit 0")
    a = ap.parse_args(argv)
    variants = a.variant or [("base", 20000.0), ("alt", 18000.0)]
    st = simulate(variants, a.runs, a.samples, a.tau, a.sigma, a.seed,
                  a.frac_bits, a.metric)
    st.write_snapshot(a.output)
    for name, med in variants:
        n = sum(r.nsamples for r in st.of(name))
        print(f"{name}: {a.runs} runs, {n} samples, true median {med:g} ns")
    if a.check:
        check_snapshot(a.output)
        print(f"{a.output}: clkstat-report info: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())

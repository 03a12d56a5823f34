#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""clkstat-report --compare against an independent implementation:
scipy.stats.bootstrap (method='percentile', Debian's python3-scipy).

What is checked, one "ok N - ..." or "not ok N - ..." line each; the last
line is "N passed, N failed"; the exit status is 1 if anything failed:

1. the Python port of the bucket math and of the histogram quantile
   (simstudy.py) against the C headers themselves;
2. on three simulated studies with --unit run: the --json schema, the
   point estimates exactly, every interval against scipy's, the p-value,
   the default threshold, the outlier shares, determinism;
3. --unit sample against scipy on the samples expanded from the pooled
   histogram;
4. edge cases: one run, one slot, counts near 2^40, empty runs, no
   sample, mixed frac_bits;
5. that the comparison can fail: an interval at --level 0.80 against
   scipy's 0.95 is rejected (--self-test runs only this);
6. the factors (tag:, run tags, meta:, migrated), each against the same
   runs renamed by hand to two variants; an unknown factor refused.
Each section below says exactly what it checks.

The tolerance (4 combined Monte Carlo standard errors of the two
endpoints, plus the order statistics' spacing and 1 ns), why it is right,
and how the SE estimate was checked: Documentation/clkstat-compare.rst,
"Against scipy and numpy".  Runtime: about 12 s (one core; scipy's
statistic is vectorized).
"""
import argparse
import math
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import scipy
import scipy.stats

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import simstudy as S  # noqa: E402

B = 10000
LEVEL = 0.95


class Checker:
    def __init__(self, quiet=False):
        self.n = self.failed = 0
        self.quiet = quiet

    def check(self, name, cond, detail=""):
        self.n += 1
        if not cond:
            self.failed += 1
        if self.quiet:
            return cond
        print(f"{'ok' if cond else 'not ok'} {self.n} - {name}"
              + (f": {detail}" if detail else ""), flush=True)
        return cond

    def summary(self):
        print(f"{self.n - self.failed} passed, {self.failed} failed")
        return 1 if self.failed else 0


# ---------------------------------------------------------------------------
# 1. the port against the C headers
#
# The Python port of the bucket math and of the histogram quantile
# (simstudy.py) against the C headers themselves, compiled into a small
# program: every slot's lower and upper bound and sum shift for frac_bits
# 0-5, value_to_slot of edge and random 64-bit values, and
# clkstat_hist_quantile of random histograms (counts up to 2^40, every
# rank case: first, last, inside a slot, exact slots).  The reference
# statistic below is only as good as this port.

C_HELPER = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "clkstat_hist_math.h"

static struct clkstat_slot dense[CLKSTAT_NSLOTS_MAX];

int main(int argc, char **argv)
{
	unsigned long long v, mn, mx, c;
	unsigned int k, s, n, i, num, den;

	if (argc > 1 && !strcmp(argv[1], "slots")) {
		for (k = 0; k <= CLKSTAT_FRAC_BITS_MAX; k++)
			for (s = 0; s < CLKSTAT_NSLOTS(k); s++)
				printf("%u %u %llu %llu %u\n", k, s,
				       (unsigned long long)clkstat_slot_lower(s, k),
				       (unsigned long long)clkstat_slot_upper(s, k),
				       clkstat_slot_sum_shift(s, k));
	} else if (argc > 1 && !strcmp(argv[1], "v2s")) {
		while (scanf("%llu", &v) == 1) {
			printf("%llu", v);
			for (k = 0; k <= CLKSTAT_FRAC_BITS_MAX; k++)
				printf(" %u", clkstat_value_to_slot(v, k));
			printf("\n");
		}
	} else if (argc > 1 && !strcmp(argv[1], "quantile")) {
		/* k n min max num den, then n "slot count" pairs */
		while (scanf("%u %u %llu %llu %u %u", &k, &n, &mn, &mx, &num,
			     &den) == 6) {
			memset(dense, 0, sizeof(dense));
			for (i = 0; i < n; i++) {
				if (scanf("%u %llu", &s, &c) != 2)
					return 2;
				dense[s].count = c;
			}
			printf("%llu\n", (unsigned long long)clkstat_hist_quantile(
				dense, CLKSTAT_NSLOTS(k), k,
				clkstat_hist_total(dense, CLKSTAT_NSLOTS(k)),
				mn, mx, num, den));
		}
	} else {
		return 2;
	}
	return 0;
}
"""


def build_c_helper(tmp):
    src = os.path.join(tmp, "hist_math_ref.c")
    exe = os.path.join(tmp, "hist_math_ref")
    with open(src, "w") as f:
        f.write(C_HELPER)
    subprocess.run(["gcc", "-O2", "-Wall", "-Werror", "-I",
                    os.path.join(S.TOP, "kmod", "shared"), "-o", exe, src],
                   check=True)
    return exe


def check_port(chk, tmp):
    exe = build_c_helper(tmp)
    rng = np.random.default_rng(20240501)

    out = subprocess.run([exe, "slots"], capture_output=True, text=True,
                         check=True).stdout.split("\n")
    bad, n = [], 0
    for line in out:
        if not line:
            continue
        k, s, lo, up, sh = map(int, line.split())
        n += 1
        mine = (S.slot_lower(s, k), S.slot_upper(s, k), S.slot_sum_shift(s, k))
        if mine != (lo, up, sh):
            bad.append(f"k {k} slot {s}: C {(lo, up, sh)} py {mine}")
    want = sum(S.nslots(k) for k in range(6))
    chk.check(f"slot_lower/upper/sum_shift port = C header ({n} slots, "
              "frac_bits 0-5)", not bad and n == want,
              "; ".join(bad[:3]) or f"{n} slots, expected {want}")

    vals = set(range(0, 130))
    for m in range(64):
        vals |= {(1 << m) - 1, 1 << m, (1 << m) + 1}
    vals.add(S.U64_MAX)
    vals |= {int(x) for x in rng.integers(0, 1 << 63, 2000, dtype=np.uint64)}
    vals |= {int(x) << 1 | 1 for x in rng.integers(0, 1 << 63, 500,
                                                   dtype=np.uint64)}
    vals |= {int(x) for x in rng.integers(0, 1 << 40, 2000)}
    vals = sorted(vals)
    out = subprocess.run([exe, "v2s"], input="\n".join(map(str, vals)) + "\n",
                         capture_output=True, text=True, check=True).stdout
    bad = []
    for line in out.split("\n"):
        if not line:
            continue
        v, *sl = map(int, line.split())
        mine = [S.value_to_slot(v, k) for k in range(6)]
        if mine != sl:
            bad.append(f"{v}: C {sl} py {mine}")
        for k in range(6):
            if not S.slot_lower(sl[k], k) <= v <= S.slot_upper(sl[k], k):
                bad.append(f"{v} not inside slot {sl[k]} (k {k})")
    small = np.array([v for v in vals if v < 1 << 53], dtype=np.int64)
    for k in range(6):
        vec = S.values_to_slots(small, k)
        ref = np.array([S.value_to_slot(int(v), k) for v in small])
        if not np.array_equal(vec, ref):
            bad.append(f"values_to_slots k {k} differs")
    chk.check(f"value_to_slot port = C header ({len(vals)} values x "
              "frac_bits 0-5; numpy version too)", not bad,
              "; ".join(bad[:3]))

    # quantiles of random histograms
    cases, text = [], []
    fracs = [(50, 100), (90, 100), (99, 100), (999, 1000), (1, 100),
             (0, 100), (100, 100), (1, 2), (25, 100), (75, 100)]
    for i in range(3000):
        k = int(rng.integers(0, 6))
        ns = S.nslots(k)
        first = int(rng.integers(0, ns - 1))
        span = int(rng.integers(1, 60))
        cand = np.arange(first, min(ns, first + span))
        pick = np.sort(rng.choice(cand, size=int(rng.integers(1, len(cand) + 1)),
                                  replace=False))
        if i % 3 == 0:
            cnt = rng.integers(1, 4, len(pick))
        elif i % 3 == 1:
            cnt = rng.integers(1, 2000, len(pick))
        else:
            cnt = rng.integers((1 << 40) - 1000, (1 << 40) + 1000, len(pick))
        slots = [(int(s), int(c)) for s, c in zip(pick, cnt)]
        lo0, hi0 = S.slot_lower(slots[0][0], k), S.slot_upper(slots[0][0], k)
        lo1, hi1 = S.slot_lower(slots[-1][0], k), S.slot_upper(slots[-1][0], k)
        mn = lo0 + int(rng.integers(0, 1 << 62)) % (hi0 - lo0 + 1)
        mx = lo1 + int(rng.integers(0, 1 << 62)) % (hi1 - lo1 + 1)
        if len(slots) == 1 and mn > mx:
            mn, mx = mx, mn
        if i % 2:
            num, den = fracs[i // 2 % len(fracs)]
        else:
            den = int(rng.integers(1, 100000))
            num = int(rng.integers(0, den + 1))
        cases.append((slots, k, mn, mx, num, den))
        text.append(f"{k} {len(slots)} {mn} {mx} {num} {den}")
        text += [f"{s} {c}" for s, c in slots]
    out = subprocess.run([exe, "quantile"], input="\n".join(text) + "\n",
                         capture_output=True, text=True, check=True).stdout
    res = [int(x) for x in out.split()]
    bad = []
    for (slots, k, mn, mx, num, den), c in zip(cases, res):
        py = S.hist_quantile(slots, k, mn, mx, num, den)
        if py != c:
            bad.append(f"k {k} {num}/{den} {slots[:3]}...: C {c} py {py}")
        # the vectorized port, where int64 cannot overflow
        tot = sum(x[1] for x in slots)
        if mx < 1 << 40 and tot < 1 << 20:
            m = S.RunMatrix([S.Run("x", [[s, c_, 0] for s, c_ in slots],
                                   mn, mx)], k)
            v = int(m.quantile(np.arange(1), num, den))
            if v != c:
                bad.append(f"vectorized k {k} {num}/{den}: C {c} py {v}")
    chk.check(f"hist_quantile port = clkstat_hist_quantile ({len(cases)} "
              "random histograms, counts up to 2^40; vectorized port too)",
              len(res) == len(cases) and not bad, "; ".join(bad[:3]))


# ---------------------------------------------------------------------------
# scipy and the tolerance
#
# Why this tolerance, and how its SE was checked:
# Documentation/clkstat-compare.rst, "Against scipy and numpy".

def tolerance(dist, q, b, quantum=1.0):
    """4 sqrt(2) SE of a q-quantile of b draws + gap + quantum (1 ns for
    statistics in ns, 0 for shares and ratios); the SE from the density of
    dist (scipy's bootstrap distribution) at its q-quantile.  Returns
    (tol, se)."""
    d = np.sort(np.asarray(dist, dtype=np.float64))
    n = len(d)
    h = max(2, int(math.ceil(math.sqrt(n))))
    r = int(round(q * (n - 1)))
    a, z = max(r - h, 0), min(r + h, n - 1)
    sparsity = (d[z] - d[a]) * n / max(z - a, 1)	# 1 / f, order stats
    x = d[r]
    try:
        kde = scipy.stats.gaussian_kde(d)
        f = float(kde(x)[0])
        sparsity = max(sparsity, 1 / f if f > 0 else 0)
    except (np.linalg.LinAlgError, ValueError):
        pass	# a degenerate distribution: the spacing estimate only
    se = math.sqrt(q * (1 - q) / b) * sparsity
    gap = float(np.max(np.diff(d[a:z + 1]))) if z > a else 0.0
    return 4 * math.sqrt(2) * se + gap + quantum, se


def scipy_ci(samples, stat, b=B, level=LEVEL, seed=0, batch=None):
    """scipy.stats.bootstrap, percentile method, vectorized statistic."""
    return scipy.stats.bootstrap(
        samples, stat, n_resamples=b, confidence_level=level,
        method="percentile", vectorized=True, paired=False, axis=-1,
        batch=batch, random_state=np.random.default_rng(seed))


def ci_agrees(chk, name, tool_ci, res, b=B, level=LEVEL, quantum=1.0):
    """tool_ci {lo, hi} against scipy's result res; quantum: see
    tolerance()."""
    a = (1 - level) / 2
    dist = res.bootstrap_distribution
    sl, sh = res.confidence_interval.low, res.confidence_interval.high
    tl, sel = tolerance(dist, a, b, quantum)
    th, seh = tolerance(dist, 1 - a, b, quantum)
    lo, hi = tool_ci.get("lo"), tool_ci.get("hi")
    if lo is None or hi is None:
        return chk.check(name, False, f"tool CI [{lo}, {hi}]")
    dlo, dhi = abs(lo - sl), abs(hi - sh)
    ok = dlo <= tl and dhi <= th
    detail = (f"tool [{lo:.6g}, {hi:.6g}] scipy [{sl:.6g}, {sh:.6g}] "
              f"|diff| {dlo:.3g}, {dhi:.3g} <= tol {tl:.3g}, {th:.3g} "
              f"({dlo / max(sel * math.sqrt(2), 1e-300):.2f}, "
              f"{dhi / max(seh * math.sqrt(2), 1e-300):.2f} combined SE)")
    return chk.check(name, ok, detail)


def same(a, b, exact):
    if a is None or b is None:
        return a is b
    if exact:
        return abs(a - b) < 0.5 + 1e-9 * abs(b)	# integers, maybe as floats
    return abs(a - b) <= 1e-9 * max(abs(a), abs(b), 1e-300)


# ---------------------------------------------------------------------------
# 2. run unit
#
# On three simulated studies (simstudy.py: 20-40 runs per variant, a few
# hundred samples per run, a run-level random effect; unequal run sizes
# and run counts in one) with --unit run --resamples 10000:
#  - the schema of --json, and the echoed unit, seed, resamples, level,
#    base and variant; the runs and samples of each stratum;
#  - the point estimates, exactly: each variant's median, p90, p99, IQR
#    (clkstat_hist_quantile of the pooled runs), mean and standard
#    deviation (as stats.c: sums, slot means) and risk above the
#    threshold; the differences variant - base;
#  - the CIs: scipy.stats.bootstrap with the run indices of a variant as
#    the one sample (the statistic pools the chosen runs' histograms and
#    applies the ported quantile: exactly the tool's run bootstrap), and
#    for the differences the two variants' run indices as two samples,
#    paired=False (each resampled within its variant, the tool's
#    stratification); n_resamples = the tool's B, confidence_level = the
#    tool's level.  Required: every variant's median and the delta median.
#    Also checked the same way: p90, p99, mean, stddev and IQR of each
#    variant, delta stddev, delta IQR, risk difference, risk ratio (the
#    percentile interval of log RR, mapped back: the same as the
#    percentile interval of RR up to interpolation between two order
#    statistics);
#  - the p-value of delta median against the tool's documented rule
#    ("bootstrap, inverted percentile interval") applied to scipy's
#    bootstrap distribution, within its binomial Monte Carlo error;
#  - without --threshold: the threshold is the base's p90 and the risk
#    (the threshold now inside a slot) the documented linear share;
#  - the outlier shares, against the raw simulated samples, within the
#    ambiguity of the histogram (the share of samples in the slots that
#    the cut-off can fall into);
#  - bit-for-bit determinism for one seed; another seed gives another
#    output; --csv and the text output exit 0.

class Data:
    """A study, written, with its variants as RunMatrix over common slots."""

    def __init__(self, name, study, path, base="base", variant="alt"):
        self.name, self.study, self.path = name, study, path
        self.base, self.variant = base, variant
        rb, rv = study.of(base), study.of(variant)
        slots = sorted({s[0] for r in rb + rv for s in r.slots})
        self.m = {base: S.RunMatrix(rb, study.k, slots),
                  variant: S.RunMatrix(rv, study.k, slots)}
        # threshold: the upper bound of the slot holding the base's p90
        mb = self.m[base]
        p90 = int(mb.quantile(np.arange(mb.nruns), 90, 100))
        self.threshold = S.slot_upper(S.value_to_slot(p90, study.k), study.k)

    def point(self, v, stat):
        m = self.m[v]
        p = m.pool(m.all_runs())
        if stat == "risk":
            return float(p.above(self.threshold)[0])
        return float(STATS[stat](p)[0])

    def run_stat(self, v, stat):
        m = self.m[v]
        thr = self.threshold
        f = (lambda p: p.above(thr)) if stat == "risk" else STATS[stat]

        def statistic(idx, axis=-1):
            idx = np.asarray(idx)
            return f(m.pool(m.weights(idx))).reshape(idx.shape[:-1])
        return statistic


STATS = dict(S.STATS)
EXACT = {"median", "p90", "p99", "iqr"}


def check_run_unit(chk, d, seed):
    st = d.study
    doc = S.run_compare(d.path, d.variant, d.base, unit="run", resamples=B,
                        seed=seed, threshold=d.threshold)
    err = S.schema_errors(doc, unit="run", base=d.base, variant=d.variant,
                          resamples=B, seed=seed, level=LEVEL)
    chk.check(f"{d.name}: --json schema and echoed options", not err,
              "; ".join(err[:4]))
    met = doc["metrics"][0]
    chk.check(f"{d.name}: threshold_ns is --threshold",
              met.get("threshold_ns") == d.threshold,
              f"{met.get('threshold_ns')} vs {d.threshold}, source "
              f"{met.get('threshold_source')!r}")
    for which, v in (("base", d.base), ("variant", d.variant)):
        s = S.stratum(doc, which)
        runs = st.of(v)
        n = sum(r.nsamples for r in runs)
        chk.check(f"{d.name}: {v}: runs and samples",
                  s.get("runs") == len(runs) and s.get("samples") == n,
                  f"tool {s.get('runs')} runs {s.get('samples')} samples, "
                  f"expected {len(runs)} {n}")
        bad = []
        for stat in ("median", "p90", "p99", "mean", "stddev", "iqr",
                     "risk"):
            want = d.point(v, stat)
            got = (s.get(stat) or {}).get("value")
            if not same(got, want, stat in EXACT):
                bad.append(f"{stat} {got} vs {want}")
        chk.check(f"{d.name}: {v}: point estimates (median p90 p99 mean "
                  "stddev iqr risk)", not bad, "; ".join(bad))
        # resolution beside each percentile: the slot width at the value
        bad = []
        for stat in ("median", "p90", "p99"):
            o = s.get(stat) or {}
            val, res = o.get("value"), o.get("resolution")
            if val is None or res is None:
                bad.append(f"{stat}: {o}")
                continue
            sl = S.value_to_slot(int(val), st.k)
            w = S.slot_upper(sl, st.k) - S.slot_lower(sl, st.k) + 1
            if res != w:
                bad.append(f"{stat} {val}: resolution {res}, slot width {w}")
        chk.check(f"{d.name}: {v}: resolution beside each percentile = "
                  "the width of the slot holding it", not bad,
                  "; ".join(bad))
        for j, stat in enumerate(("median", "p90", "p99", "mean", "stddev",
                                  "iqr", "risk")):
            res = scipy_ci((np.arange(d.m[v].nruns),), d.run_stat(v, stat),
                           seed=seed * 1000 + 20 * j +
                           (which == "variant"))
            req = " (required)" if stat == "median" else ""
            ci_agrees(chk, f"{d.name}: {v}: {stat} CI, run unit, vs "
                      f"scipy{req}", s.get(stat) or {}, res,
                      quantum=0.0 if stat == "risk" else 1.0)
    # differences
    dd = met["diff"]
    bad = []
    for stat in ("median", "stddev", "iqr"):
        want = d.point(d.variant, stat) - d.point(d.base, stat)
        got = (dd.get(stat) or {}).get("value")
        if not same(got, want, stat in EXACT):
            bad.append(f"{stat} {got} vs {want}")
    rb, rv = d.point(d.base, "risk"), d.point(d.variant, "risk")
    got = (dd.get("risk_difference") or {}).get("value")
    if not same(got, rv - rb, False):
        bad.append(f"risk_difference {got} vs {rv - rb}")
    got = (dd.get("risk_ratio") or {}).get("value")
    if not same(got, rv / rb, False):
        bad.append(f"risk_ratio {got} vs {rv / rb}")
    chk.check(f"{d.name}: differences' point estimates (variant - base)",
              not bad, "; ".join(bad))
    mb, mv = d.m[d.base], d.m[d.variant]
    ib, iv = np.arange(mb.nruns), np.arange(mv.nruns)
    for stat, key in (("median", "median"), ("stddev", "stddev"),
                      ("iqr", "iqr"), ("risk", "risk_difference")):
        fb, fv = d.run_stat(d.base, stat), d.run_stat(d.variant, stat)
        res = scipy_ci((ib, iv), lambda x, y, axis=-1: fv(y) - fb(x),
                       seed=seed * 1000 + 500 + len(key))
        req = " (required)" if stat == "median" else ""
        ci_agrees(chk, f"{d.name}: delta {stat} CI, run unit, vs "
                  f"scipy{req}", dd.get(key) or {}, res,
                  quantum=0.0 if stat == "risk" else 1.0)
    fb, fv = d.run_stat(d.base, "risk"), d.run_stat(d.variant, "risk")
    res = scipy_ci((ib, iv), lambda x, y, axis=-1: np.log(fv(y) / fb(x)),
                   seed=seed * 1000 + 777)
    rr = dd.get("risk_ratio") or {}
    undefined = int(np.sum(~np.isfinite(res.bootstrap_distribution)))
    chk.check(f"{d.name}: risk ratio: no undefined resamples (base risk "
              f"{rb:.3f})", rr.get("undefined_resamples") == 0 and
              undefined == 0, f"tool {rr.get('undefined_resamples')}, "
              f"scipy {undefined}")
    lrr = {k: (math.log(rr[k]) if isinstance(rr.get(k), (int, float)) and
               rr[k] > 0 else None) for k in ("lo", "hi")}
    ci_agrees(chk, f"{d.name}: risk ratio CI (log scale), run unit, vs scipy",
              lrr, res, quantum=0.0)
    check_p_value(chk, d, dd, ib, iv, seed)
    check_outliers(chk, d, doc)
    check_default_threshold(chk, d)
    return doc


def check_p_value(chk, d, dd, ib, iv, seed):
    """p of delta median against the same rule applied to scipy's bootstrap
    distribution.  The tool's rule (bootstrap.c, "bootstrap, inverted percentile
    interval"): p = min(1, 2 min(#(delta* <= 0), #(delta* >= 0)) / B).
    Each side estimates 2 min(P(delta* <= 0), P(delta* >= 0)) from B
    draws: binomial, SE 2 sqrt(pi (1 - pi) / B), pi = p / 2; accepted
    within 4 sqrt(2) SE + 2/B (ties at 0, the floor of 1/B)."""
    p = dd.get("p_value_median")
    meth = dd.get("p_value_method")
    fb, fv = d.run_stat(d.base, "median"), d.run_stat(d.variant, "median")
    res = scipy_ci((ib, iv), lambda x, y, axis=-1: fv(y) - fb(x),
                   seed=seed * 1000 + 901)
    dist = res.bootstrap_distribution
    ps = min(1.0, 2 * min(np.sum(dist <= 0), np.sum(dist >= 0)) / B)
    pi = min(max(ps / 2, 1 / B), 0.5)
    tol = 4 * math.sqrt(2) * 2 * math.sqrt(pi * (1 - pi) / B) + 2 / B
    ok = isinstance(p, (int, float)) and 0 <= p <= 1 and \
        isinstance(meth, str) and abs(p - ps) <= tol
    chk.check(f"{d.name}: p-value of delta median ({meth!r}) vs the same "
              "rule on scipy's bootstrap distribution", ok,
              f"tool {p}, scipy {ps:.4g}, tol {tol:.3g}")


def check_default_threshold(chk, d):
    """Without --threshold: T is the base's pooled p90 and the risk, T
    inside a slot now, the documented linear share of that slot."""
    doc = S.run_compare(d.path, d.variant, d.base, resamples=200)
    met = doc["metrics"][0]
    t = met["threshold_ns"]
    bad = []
    p90 = S.stratum(doc, "base")["p90"]["value"]
    if t != p90:
        bad.append(f"threshold {t} is not the base's p90 {p90}")
    for which, v in (("base", d.base), ("variant", d.variant)):
        rs = d.study.of(v)
        pooled = {}
        for r in rs:
            for sl, c, _ in r.slots:
                pooled[sl] = pooled.get(sl, 0) + c
        want = S.share_above(sorted(pooled.items()), d.study.k,
                             min(r.vmin for r in rs),
                             max(r.vmax for r in rs), t)
        got = S.stratum(doc, which)["risk"]["value"]
        if not same(got, want, False):
            bad.append(f"{v} risk {got} vs {want}")
    chk.check(f"{d.name}: default threshold = base p90 "
              f"({met.get('threshold_source')!r}), risk interpolated in "
              "its slot", not bad, "; ".join(bad))


def check_outliers(chk, d, doc):
    """The outlier shares against the raw samples.  A histogram cannot say
    which samples of the slot holding the cut-off are beyond it: the
    tool's share must lie between the raw shares beyond the bounds of the
    cut-off's slot(s), the cut-off itself taken from the tool's own
    mean, stddev and median (MAD from the raw samples, widened by the slot
    width, since the tool's MAD is itself a histogram estimate)."""
    k = d.study.k
    for which, v in (("base", d.base), ("variant", d.variant)):
        s = S.stratum(doc, which)
        raw = np.concatenate([r.raw for r in d.study.of(v)])
        rel = 2.0 ** -k
        mean, sd = s["mean"]["value"], s["stddev"]["value"]
        med = s["median"]["value"]
        mad = float(np.median(np.abs(raw - np.median(raw))))
        bad = []

        def bracket(lo_cut, hi_cut, beyond):
            # widen each cut-off to the slots it may fall in
            a = S.slot_lower(S.value_to_slot(max(int(lo_cut), 0), k), k)
            b = S.slot_upper(S.value_to_slot(max(int(hi_cut), 0), k), k)
            return beyond(b + 1), beyond(a)

        up = mean + 2 * sd
        down = mean - 2 * sd
        lo2, hi2 = bracket(up * (1 - rel), up * (1 + rel),
                           lambda c: np.mean(raw >= c))
        dn = np.mean(raw < max(down * (1 - rel), 0)), \
            np.mean(raw <= down * (1 + rel) + 1)
        lo2, hi2 = lo2 + dn[0], hi2 + dn[1]
        got = s.get("outliers_2sigma")
        if got is None or not (lo2 - 1e-12 <= got <= hi2 + 1e-12):
            bad.append(f"2 sigma {got} not in [{lo2:.5f}, {hi2:.5f}]")
        cut = med + 3 * mad
        lo3, hi3 = bracket(cut * (1 - 2 * rel), cut * (1 + 2 * rel),
                           lambda c: np.mean(raw >= c))
        got = s.get("outliers_3mad")
        if got is None or not (lo3 - 1e-12 <= got <= hi3 + 1e-12):
            bad.append(f"3 MAD {got} not in [{lo3:.5f}, {hi3:.5f}]")
        # JSON's MAD: the raw samples' MAD within the
        # histogram's ambiguity (two slot widths' relative error of the
        # median and of the deviations).
        got = s.get("mad")
        if got is None or not (mad * (1 - 2 * rel) - med * 2 * rel - 1
                               <= got <=
                               mad * (1 + 2 * rel) + med * 2 * rel + 1):
            bad.append(f"MAD {got} vs raw {mad:.1f}")
        chk.check(f"{d.name}: {v}: outlier shares (2 sigma, 3 MAD) and "
                  "MAD within the histogram's ambiguity of the raw ones",
                  not bad,
                  "; ".join(bad))


# ---------------------------------------------------------------------------
# 3. sample unit
#
# --unit sample on one small study against scipy.stats.bootstrap of the
# samples expanded from the pooled histogram (each sample its slot; the
# statistic bins the resampled samples and applies the ported quantile):
# each variant's median and the delta median.

def check_sample_unit(chk, d, seed):
    doc = S.run_compare(d.path, d.variant, d.base, unit="sample",
                        resamples=B, seed=seed, threshold=d.threshold)
    err = S.schema_errors(doc, unit="sample", base=d.base,
                          variant=d.variant, resamples=B, seed=seed)
    chk.check(f"{d.name}: --unit sample: schema, unit echoed", not err,
              "; ".join(err[:4]))
    expanded, stats = {}, {}
    for v in (d.base, d.variant):
        m = d.m[v]
        pooled = m.counts.sum(axis=0)
        expanded[v] = np.repeat(np.arange(len(pooled)), pooled)
        ns = len(pooled)

        def stat(x, axis=-1, m=m, ns=ns):
            x = np.asarray(x)
            flat = x.reshape(-1, x.shape[-1])
            rows = flat.shape[0]
            off = (np.arange(rows)[:, None] * ns + flat).ravel()
            cnt = np.bincount(off, minlength=rows * ns).reshape(rows, ns)
            return m.pool_samples(cnt).quantile(50, 100).reshape(
                x.shape[:-1])
        stats[v] = stat
    for which, v in (("base", d.base), ("variant", d.variant)):
        res = scipy_ci((expanded[v],), stats[v], seed=seed * 7 + len(v),
                       batch=500)
        ci_agrees(chk, f"{d.name}: {v}: median CI, sample unit, vs scipy "
                  f"({len(expanded[v])} samples)",
                  S.stratum(doc, which)["median"], res)
    fb, fv = stats[d.base], stats[d.variant]
    res = scipy_ci((expanded[d.base], expanded[d.variant]),
                   lambda x, y, axis=-1: fv(y) - fb(x), seed=seed * 7 + 99,
                   batch=500)
    ci_agrees(chk, f"{d.name}: delta median CI, sample unit, vs scipy",
              doc["metrics"][0]["diff"]["median"], res)
    return doc


# ---------------------------------------------------------------------------
# 4. edge cases
#
# A variant with one run (a warning, a point interval), every sample in
# one slot (everything inside the slot), counts near 2^40 (exact median;
# the same seed's CI within a slot of the unscaled data's), runs with
# empty histograms (same point estimates), a variant with no sample (no
# crash), snapshots with different frac_bits (refused, naming frac_bits:
# two files, one file).

def tool(args):
    return subprocess.run([S.TOOL] + args, capture_output=True, text=True)


def write_doc(path, doc):
    import json
    with open(path, "w") as f:
        json.dump(doc, f)
        f.write("\n")


def check_edges(chk, tmp, a_data):
    import json
    k = 5
    # one run in a variant
    st = S.simulate([("base", 20000, 20), ("alt", 18000, 1)], samples=200,
                    seed=21)
    path = os.path.join(tmp, "one-run.json")
    st.write_snapshot(path)
    try:
        doc = S.run_compare(path, "alt", "base", resamples=1000)
        s1 = S.stratum(doc, "variant")
        med = s1["median"]
        chk.check("edge: a variant with one run: a warning, a point "
                  "interval (lo = hi = value)",
                  s1.get("warning") and s1.get("runs") == 1 and
                  med["lo"] == med["hi"] == med["value"],
                  f"warning {s1.get('warning')!r}, median {med}")
    except S.ToolError as e:
        chk.check("edge: a variant with one run", False, str(e))

    # every sample in one slot: [19968, 20479] at frac_bits 5
    rng = np.random.default_rng(22)
    runs = []
    for i in range(20):
        for v in ("base", "alt"):
            x = rng.integers(20000, 20400, 300)
            sl, mn, mx = S.bin_values(x, k)
            runs.append(S.Run(v, sl, mn, mx))
    one = S.Study(runs, k, "tkread", {}, {})
    path = os.path.join(tmp, "one-slot.json")
    one.write_snapshot(path)
    lo_s, hi_s = S.slot_lower(S.value_to_slot(20000, k), k), \
        S.slot_upper(S.value_to_slot(20000, k), k)
    try:
        doc = S.run_compare(path, "alt", "base", resamples=1000)
        bad = []
        for which in ("base", "variant"):
            for stat in ("median", "p90", "p99"):
                o = S.stratum(doc, which)[stat]
                if not all(lo_s <= o[x] <= hi_s for x in ("value", "lo", "hi")):
                    bad.append(f"{which} {stat} {o}")
        dm = doc["metrics"][0]["diff"]["median"]
        w = hi_s - lo_s + 1
        if not all(abs(dm[x]) <= w for x in ("value", "lo", "hi")):
            bad.append(f"delta median {dm}")
        chk.check(f"edge: every sample in one slot [{lo_s}, {hi_s}]: "
                  "percentiles and their CIs inside it", not bad,
                  "; ".join(bad[:3]))
    except S.ToolError as e:
        chk.check("edge: every sample in one slot", False, str(e))

    # counts near 2^40: study A with every count and sum times 2^32 (runs
    # of about 2^39.6 samples); the same seed draws the same runs, so
    # every resampled quantile moves by at most one slot (ranks of the
    # scaled counts), the CI too
    f = 1 << 32
    big = [S.Run(r.variant, [[sl, c * f, sm * f] for sl, c, sm in r.slots],
                 r.vmin, r.vmax) for r in a_data.study.runs]
    bst = S.Study(big, k, "tkread", {}, {})
    path = os.path.join(tmp, "big.json")
    bst.write_snapshot(path)
    try:
        d0 = S.run_compare(a_data.path, "alt", "base", resamples=2000, seed=9)
        d1 = S.run_compare(path, "alt", "base", resamples=2000, seed=9)
        bad = []
        for which, v in (("base", "base"), ("variant", "alt")):
            rs = bst.of(v)
            pooled = {}
            for r in rs:
                for sl, c, _ in r.slots:
                    pooled[sl] = pooled.get(sl, 0) + c
            exact = S.hist_quantile(sorted(pooled.items()), k,
                                    min(r.vmin for r in rs),
                                    max(r.vmax for r in rs), 50, 100)
            s0, s1 = S.stratum(d0, which), S.stratum(d1, which)
            if s1["median"]["value"] != exact:
                bad.append(f"{v} median {s1['median']['value']} vs exact "
                           f"{exact}")
            n = sum(r.nsamples for r in rs)
            if s1["samples"] != n:
                bad.append(f"{v} samples {s1['samples']} vs {n}")
            for e in ("lo", "hi"):
                x0, x1 = s0["median"][e], s1["median"][e]
                sl = S.value_to_slot(int(x0), k)
                w = S.slot_upper(sl, k) - S.slot_lower(sl, k) + 1
                if abs(x1 - x0) > 2 * w + 1:
                    bad.append(f"{v} median {e} {x1} vs unscaled {x0} "
                               f"(slot width {w})")
        chk.check("edge: counts near 2^40 (each run ~2^39.6 samples): "
                  "exact median, sample totals, CI as unscaled within a "
                  "slot", not bad, "; ".join(bad[:3]))
    except S.ToolError as e:
        chk.check("edge: counts near 2^40", False, str(e))

    # empty histograms: three runs without samples added to each variant
    runs = list(a_data.study.runs) + [S.Run(v, [], None, None)
                                      for v in ("base", "alt") * 3]
    emp = S.Study(runs, k, "tkread", {}, {})
    path = os.path.join(tmp, "empty-runs.json")
    emp.write_snapshot(path)
    try:
        d0 = S.run_compare(a_data.path, "alt", "base", resamples=1000)
        d1 = S.run_compare(path, "alt", "base", resamples=1000)
        bad = []
        for which in ("base", "variant"):
            s0, s1 = S.stratum(d0, which), S.stratum(d1, which)
            for stat in ("median", "p90", "p99", "mean", "stddev", "iqr"):
                if s0[stat]["value"] != s1[stat]["value"]:
                    bad.append(f"{which} {stat} {s1[stat]['value']} vs "
                               f"{s0[stat]['value']}")
            if s0["samples"] != s1["samples"]:
                bad.append(f"{which} samples")
        chk.check("edge: runs with empty histograms: same samples and point "
                  f"estimates (runs {S.stratum(d1, 'base')['runs']} vs "
                  f"{S.stratum(d0, 'base')['runs']})", not bad,
                  "; ".join(bad[:3]))
    except S.ToolError as e:
        chk.check("edge: runs with empty histograms", False, str(e))
    runs = [r for r in a_data.study.runs if r.variant == "base"] + \
        [S.Run("alt", [], None, None) for _ in range(5)]
    path = os.path.join(tmp, "empty-variant.json")
    S.Study(runs, k, "tkread", {}, {}).write_snapshot(path)
    p = tool(S.compare_cmd(path, "alt", "base", resamples=1000)[1:])
    ok = p.returncode in (0, 1, 2, 7) and (
        p.returncode != 0 or
        S.stratum(json.loads(p.stdout), "variant").get("warning"))
    chk.check("edge: a variant whose runs are all empty: no crash; a "
              "warning or a clear error", ok,
              f"exit {p.returncode}: {p.stderr.strip()[:200]}")

    # different frac_bits: two files, and one file
    s5 = S.simulate([("base", 20000)], runs=10, samples=100, seed=23, k=5)
    s3 = S.simulate([("alt", 18000)], runs=10, samples=100, seed=24, k=3)
    p5, p3 = os.path.join(tmp, "k5.json"), os.path.join(tmp, "k3.json")
    s5.write_snapshot(p5)
    s3.write_snapshot(p3)
    p = tool(["-i", p5, "-i", p3, "--compare", "alt", "--base", "base",
              "--resamples", "1000", "--json"])
    chk.check("edge: snapshots with different frac_bits: refused with a "
              "message naming frac_bits",
              p.returncode not in (0,) and p.returncode < 128 and
              "frac_bits" in p.stderr and not p.stdout.strip(),
              f"exit {p.returncode}: {p.stderr.strip()[:200]}")
    doc = s5.snapshot()
    doc["runs"] += s3.snapshot()["runs"]
    for i, r in enumerate(doc["runs"]):
        r["index"] = i
    path = os.path.join(tmp, "k53.json")
    write_doc(path, doc)
    p = tool(["-i", path, "--compare", "alt", "--base", "base",
              "--resamples", "1000", "--json"])
    chk.check("edge: one snapshot whose variants have different frac_bits: "
              "refused with a message naming frac_bits",
              p.returncode not in (0,) and p.returncode < 128 and
              "frac_bits" in p.stderr and not p.stdout.strip(),
              f"exit {p.returncode}: {p.stderr.strip()[:200]}")


# ---------------------------------------------------------------------------
# 5. the check can fail
#
# The tool's CI at --level 0.80 compared with scipy's 0.95 must be
# rejected (always run; --self-test runs only this).

def check_rejects_wrong_level(chk, d, seed):
    doc = S.run_compare(d.path, d.variant, d.base, unit="run", resamples=B,
                        seed=seed, level=0.80, threshold=d.threshold)
    mb, mv = d.m[d.base], d.m[d.variant]
    fb, fv = d.run_stat(d.base, "median"), d.run_stat(d.variant, "median")
    res = scipy_ci((np.arange(mb.nruns), np.arange(mv.nruns)),
                   lambda x, y, axis=-1: fv(y) - fb(x), seed=seed + 4242)
    inner = Checker(quiet=True)
    ci_agrees(inner, "x", doc["metrics"][0]["diff"]["median"], res)
    chk.check(f"{d.name}: self-test: the tool's 0.80 CI of delta median "
              "is rejected against scipy's 0.95", inner.failed == 1,
              "it was accepted: the check cannot tell the levels apart"
              if not inner.failed else
              f"tool 0.80 {doc['metrics'][0]['diff']['median']}, scipy 0.95 "
              f"[{res.confidence_interval.low:.6g}, "
              f"{res.confidence_interval.high:.6g}]")


def check_determinism(chk, d):
    cmd = S.compare_cmd(d.path, d.variant, d.base, resamples=2000, seed=7,
                        threshold=d.threshold)
    a = subprocess.run(cmd, capture_output=True).stdout
    b = subprocess.run(cmd, capture_output=True).stdout
    cmd2 = S.compare_cmd(d.path, d.variant, d.base, resamples=2000, seed=8,
                         threshold=d.threshold)
    c = subprocess.run(cmd2, capture_output=True).stdout
    chk.check(f"{d.name}: same seed, same output bit for bit; another seed, "
              "another output", a == b and a and a != c,
              f"{len(a)} bytes, same {a == b}, other seed differs {a != c}")
    for fmt in ("--csv", None):
        p = subprocess.run(S.compare_cmd(d.path, d.variant, d.base,
                                         resamples=200, fmt=fmt),
                           capture_output=True, text=True)
        chk.check(f"{d.name}: {fmt or 'text'} output exits 0, not empty",
                  p.returncode == 0 and p.stdout.strip(),
                  f"exit {p.returncode} {p.stderr.strip()[:200]}")


# ---------------------------------------------------------------------------

DATASETS = [
    # name, variants [(name, true median ns[, runs])], samples, tau, sigma,
    # seed
    ("A", [("base", 20000), ("alt", 18000)], 200, 0.3, 0.5, 11),
    ("B", [("base", 5000), ("alt", 5200)], 400, 0.1, 0.8, 12),
    ("C", [("base", 50000, 30), ("alt", 40000, 24)], (100, 500), 0.5, 0.4,
     13),
]


def make(tmp, spec, runs=None):
    name, variants, samples, tau, sigma, seed = spec
    st = S.simulate(variants, runs=runs or (20 if name == "A" else 40),
                    samples=samples, tau=tau, sigma=sigma, seed=seed,
                    keep_raw=True)
    path = os.path.join(tmp, f"study-{name}.json")
    st.write_snapshot(path)
    S.check_snapshot(path)
    return Data(name, st, path)


# ---------------------------------------------------------------------------
# 6. factors
#
# Each against the same runs renamed by hand to two variants (exactly: the
# same histograms in the same order on each side give the same resamples)
# and its delta median against the raw samples' within the two medians'
# slot widths: tag:K=V over two files; run tags (record --cstates) over
# the file's tag; meta:machine=... over two files; migrated against local
# (each run's NAME_migrated and NAME_local, one run without migrated
# wakeups), whose median CI of each side and delta median CI are also
# checked against scipy.stats.bootstrap as in 2 (sides resampled
# independently: paired=False).  An unknown factor (meta:nosuchfield=1,
# tag:nokey=1) exits 2 with one line listing the input's factors.


def check_factors(chk, tmp):
    """Factors, end to end through the files: two recordings of variant
    d tagged cstate=1 and cstate=free, compared with --compare tag:..., give
    the numbers of one file whose runs were renamed to variants c1 and cf
    (the old workaround); the median difference also against the raw
    samples' (within the slot widths); the same file twice is refused."""
    import json
    st = S.simulate([("d", 20000)], runs=12, samples=200, seed=41, k=4,
                    keep_raw=True)
    sf = S.simulate([("d", 24000)], runs=12, samples=200, seed=42, k=4,
                    keep_raw=True)
    a, b = st.snapshot(), sf.snapshot()
    a["meta"]["tags"] = {"cstate": "1"}
    b["meta"]["tags"] = {"cstate": "free"}
    for r in b["runs"]:
        r["start_ns"] += 10 ** 12
        r["end_ns"] += 10 ** 12
    pa, pb = os.path.join(tmp, "c1.json"), os.path.join(tmp, "cf.json")
    write_doc(pa, a)
    write_doc(pb, b)
    hand = {"format": "clkstat-snapshot", "version": 1, "meta": a["meta"],
            "runs": []}
    for name, doc in (("c1", a), ("cf", b)):
        for r in doc["runs"]:
            r = json.loads(json.dumps(r))
            r["variant"] = name
            for m in r["metrics"]:
                m["variant"] = name
            r["index"] = len(hand["runs"])
            hand["runs"].append(r)
    ph = os.path.join(tmp, "hand.json")
    write_doc(ph, hand)
    p1 = tool(["-i", pa, "-i", pb, "--compare", "tag:cstate=1", "--base",
               "tag:cstate=free", "--resamples", "2000", "--json"])
    p2 = tool(["-i", ph, "--compare", "c1", "--base", "cf",
               "--resamples", "2000", "--json"])
    ok = p1.returncode == 0 and p2.returncode == 0
    if ok:
        d1 = json.loads(p1.stdout)["metrics"][0]
        d2 = json.loads(p2.stdout)["metrics"][0]
        ok = d1["diff"] == d2["diff"] and \
            [x["median"] for x in d1["strata"]] == \
            [x["median"] for x in d2["strata"]] and \
            d1["metric"] == "tkread.d"
    chk.check("factors: --compare tag:cstate=1 --base tag:cstate=free over "
              "two files equals the hand-renamed variants", ok,
              f"{p1.returncode} {p1.stderr[:200]} {p2.stderr[:200]}")
    if ok:
        raw = [np.concatenate([r.raw for r in x.runs]) for x in (st, sf)]
        want = float(np.median(raw[0]) - np.median(raw[1]))
        got = d1["diff"]["median"]["value"]
        res = sum(x["median"]["resolution"] for x in d1["strata"])
        chk.check("factors: Δ median by tag within the slot widths of the "
                  "raw samples' difference", abs(got - want) <= res,
                  f"tool {got}, raw {want}, slots {res}")
    p = tool(["-i", pa, "-i", pa, "--compare", "tag:cstate=1"])
    chk.check("factors: the same file twice is refused naming it",
              p.returncode == 2 and "run 0 is run 0 of " + pa in p.stderr
              and not p.stdout, f"{p.returncode} {p.stderr[:200]}")



def check_run_tags(chk, tmp):
    """Run tags, record --cstates: one file (format 2) whose runs alternate
    the run tag cstate=qos0 and cstate=free, the file's own meta tag
    cstate=other beneath them: --compare tag:cstate=qos0 takes each run's
    own tag first, and gives the numbers of the hand-renamed variants; the
    Δ median also against the raw samples' (within the slot widths)."""
    import json
    sq = S.simulate([("d", 20000)], runs=10, samples=200, seed=51, k=4,
                    keep_raw=True)
    sf = S.simulate([("d", 23000)], runs=10, samples=200, seed=52, k=4,
                    keep_raw=True)
    a, b = sq.snapshot(), sf.snapshot()
    doc = {"format": "clkstat-snapshot", "version": 2,
           "meta": json.loads(json.dumps(a["meta"])), "runs": []}
    doc["meta"]["tags"] = {"cstate": "other"}
    doc["meta"]["conditions"] = "cstates=qos0,free"
    hand = {"format": "clkstat-snapshot", "version": 1,
            "meta": a["meta"], "runs": []}
    for i in range(10):
        for tag, src in (("qos0", a), ("free", b)):
            r = json.loads(json.dumps(src["runs"][i]))
            r["index"] = len(doc["runs"])
            r["start_ns"] = 10 ** 9 * (r["index"] + 1)
            r["end_ns"] = r["start_ns"] + 10 ** 8
            r["tags"] = {"cstate": tag}
            doc["runs"].append(r)
            h = json.loads(json.dumps(r))
            del h["tags"]
            h["variant"] = tag
            for m in h["metrics"]:
                m["variant"] = tag
            hand["runs"].append(h)
    pd, ph = os.path.join(tmp, "runtags.json"), os.path.join(tmp, "rt_hand.json")
    write_doc(pd, doc)
    write_doc(ph, hand)
    p1 = tool(["-i", pd, "--compare", "tag:cstate=qos0", "--resamples",
               "2000", "--json"])
    p2 = tool(["-i", ph, "--compare", "qos0", "--base", "free",
               "--resamples", "2000", "--json"])
    ok = p1.returncode == 0 and p2.returncode == 0
    if ok:
        d1 = json.loads(p1.stdout)["metrics"][0]
        d2 = json.loads(p2.stdout)["metrics"][0]
        ok = d1["diff"] == d2["diff"] and \
            [x["median"] for x in d1["strata"]] == \
            [x["median"] for x in d2["strata"]] and \
            [x["runs"] for x in d1["strata"]] == [10, 10] and \
            d1["metric"] == "tkread.d"
    chk.check("run tags: --compare tag:cstate=qos0 (the runs' own tags over "
              "the file's) equals the hand-renamed variants, 10 runs a side",
              ok, f"{p1.returncode} {p1.stderr[:300]} {p2.stderr[:200]}")
    if ok:
        raw = [np.concatenate([r.raw for r in x.runs]) for x in (sq, sf)]
        want = float(np.median(raw[0]) - np.median(raw[1]))
        got = d1["diff"]["median"]["value"]
        res = sum(x["median"]["resolution"] for x in d1["strata"])
        chk.check("run tags: Δ median within the slot widths of the raw "
                  "samples' difference", abs(got - want) <= res,
                  f"tool {got}, raw {want}, slots {res}")
    p = tool(["-i", pd, "--compare", "tag:cstate=other"])
    chk.check("run tags: the file's tag beneath the runs' selects no run",
              p.returncode == 2 and not p.stdout,
              f"{p.returncode} {p.stderr[:200]}")


def _unlabelled(strata):
    """The strata of a --json metric without their group names."""
    return [{k: v for k, v in x.items() if k != "variant"} for x in strata]


def _hand_file(doc, groups):
    """A format-1 snapshot of doc's meta whose runs are (variant, run dict)
    of groups, each metric renamed to the variant, times distinct."""
    import json
    hand = {"format": "clkstat-snapshot", "version": 1,
            "meta": json.loads(json.dumps(doc["meta"])), "runs": []}
    for name, r in groups:
        r = json.loads(json.dumps(r))
        r["variant"] = name
        for m in r["metrics"]:
            m["variant"] = name
        r["index"] = len(hand["runs"])
        r["start_ns"] = 10 ** 9 * (r["index"] + 1)
        r["end_ns"] = r["start_ns"] + 10 ** 8
        r.pop("tags", None)
        hand["runs"].append(r)
    return hand


def check_meta_factor(chk, tmp):
    """Factors, meta:FIELD=VALUE: two recordings of variant d, one on a
    vm and one on bare metal (meta.machine, the only field that differs),
    compared with --compare meta:machine=bare-metal --base meta:machine=vm
    give the numbers of one file whose runs were renamed to variants bm
    and vm, exactly (the same histograms in the same order on each side,
    so the same resamples); the median difference also against the raw
    samples' (within the two medians' slot widths)."""
    import json
    sv = S.simulate([("d", 20000)], runs=12, samples=200, seed=61, k=4,
                    keep_raw=True)
    sb = S.simulate([("d", 16000)], runs=12, samples=200, seed=62, k=4,
                    keep_raw=True)
    a, b = sv.snapshot(), sb.snapshot()
    a["meta"]["machine"] = "vm"
    b["meta"]["machine"] = "bare-metal"
    b["meta"]["command"] = a["meta"]["command"]
    for r in b["runs"]:
        r["start_ns"] += 10 ** 12
        r["end_ns"] += 10 ** 12
    pa, pb = os.path.join(tmp, "vm.json"), os.path.join(tmp, "bm.json")
    write_doc(pa, a)
    write_doc(pb, b)
    ph = os.path.join(tmp, "meta_hand.json")
    write_doc(ph, _hand_file(a, [("vm", r) for r in a["runs"]] +
                             [("bm", r) for r in b["runs"]]))
    p1 = tool(["-i", pa, "-i", pb, "--compare", "meta:machine=bare-metal",
               "--base", "meta:machine=vm", "--resamples", "2000", "--json"])
    p2 = tool(["-i", ph, "--compare", "bm", "--base", "vm",
               "--resamples", "2000", "--json"])
    ok = p1.returncode == 0 and p2.returncode == 0
    if ok:
        j1, j2 = json.loads(p1.stdout), json.loads(p2.stdout)
        d1, d2 = j1["metrics"][0], j2["metrics"][0]
        ok = d1["diff"] == d2["diff"] and \
            _unlabelled(d1["strata"]) == _unlabelled(d2["strata"]) and \
            [x["runs"] for x in d1["strata"]] == [12, 12] and \
            d1["metric"] == "tkread.d" and \
            (j1.get("base"), j1.get("variant")) == \
            ("meta:machine=vm", "meta:machine=bare-metal") and \
            not p1.stderr
    chk.check("factors: --compare meta:machine=bare-metal --base "
              "meta:machine=vm over two files equals the hand-renamed "
              "variants (strata and differences), nothing on stderr", ok,
              f"{p1.returncode} {p1.stderr[:200]} {p2.stderr[:200]}")
    if ok:
        raw = [np.concatenate([r.raw for r in x.runs]) for x in (sb, sv)]
        want = float(np.median(raw[0]) - np.median(raw[1]))
        got = d1["diff"]["median"]["value"]
        res = sum(x["median"]["resolution"] for x in d1["strata"])
        chk.check("factors: Δ median by meta within the slot widths of the "
                  "raw samples' difference", abs(got - want) <= res,
                  f"tool {got}, raw {want}, slots {res}")


def check_migrated(chk, tmp, seed):
    """Factors, --compare migrated: each run of one file holds
    ttwu_tkread_local (true median 20 us), ttwu_tkread_migrated (24 us)
    and their union ttwu_tkread; the last run has no migrated wakeup (no
    ttwu_tkread_migrated), so the sides have 20 and 19 runs.  What the
    tool does (compare.c, clkstat-compare.rst): base local, variant
    migrated, the metric NAME_migrated of every run against NAME_local of
    every run, per variant (ttwu_tkread.d), the two sides' runs resampled
    independently, not as pairs.  Checked:
    - exactly the numbers of a hand-made file where each run's local
      metric is a run of variant l and its migrated metric a run of
      variant m (--compare m --base l): the same histograms in the same
      order on each side, and independent resampling is what the variant
      comparison does, so equality is exact;
    - each side's runs and samples, and its median, exactly (the ported
      quantile of the pooled runs);
    - each side's median CI and the Δ median CI against
      scipy.stats.bootstrap (the run indices of a side as its sample, the
      statistic the pooled histogram's median; two samples paired=False
      for Δ), within ci_agrees' tolerance;
    - Δ median against the raw samples' difference, within the two
      medians' slot widths."""
    import json
    k, n = 4, 20
    sl = S.simulate([("d", 20000)], runs=n, samples=(150, 250), seed=71,
                    k=k, tau=0.3, sigma=0.5, keep_raw=True)
    sm = S.simulate([("d", 24000)], runs=n - 1, samples=(30, 80), seed=72,
                    k=k, tau=0.3, sigma=0.5, keep_raw=True)
    doc = sl.snapshot()
    doc["meta"]["probes"] = "tkread"
    for i, r in enumerate(doc["runs"]):
        loc = r["metrics"][0]
        loc["name"] = "ttwu_tkread_local"
        mets = [loc]
        raw = [sl.runs[i].raw]
        if i < n - 1:
            mig = json.loads(json.dumps(loc))
            rm = sm.runs[i]
            mig["name"] = "ttwu_tkread_migrated"
            mig["total"] = {"min": rm.vmin, "max": rm.vmax,
                            "slots": rm.slots}
            mets.append(mig)
            raw.append(rm.raw)
        slots, vmin, vmax = S.bin_values(np.concatenate(raw), k)
        both = json.loads(json.dumps(loc))
        both["name"] = "ttwu_tkread"
        both["total"] = {"min": vmin, "max": vmax, "slots": slots}
        r["metrics"] = [both] + mets
    path = os.path.join(tmp, "sides.json")
    write_doc(path, doc)
    hand = _hand_file(doc, [(v, dict(r, metrics=[
        dict(m, name="ttwu_tkread") for m in r["metrics"]
        if m["name"] == "ttwu_tkread" + sfx]))
        for v, sfx in (("l", "_local"), ("m", "_migrated"))
        for r in doc["runs"]
        if any(m["name"] == "ttwu_tkread" + sfx for m in r["metrics"])])
    ph = os.path.join(tmp, "sides_hand.json")
    write_doc(ph, hand)
    ts = 1000 + seed
    p1 = tool(["-i", path, "--compare", "migrated", "--resamples", str(B),
               "--seed", str(ts), "--json"])
    p2 = tool(["-i", ph, "--compare", "m", "--base", "l", "--resamples",
               str(B), "--seed", str(ts), "--json"])
    ok = p1.returncode == 0 and p2.returncode == 0
    if ok:
        j1, j2 = json.loads(p1.stdout), json.loads(p2.stdout)
        ok = len(j1["metrics"]) == 1 and \
            j1["metrics"][0]["metric"] == "ttwu_tkread.d" and \
            (j1.get("base"), j1.get("variant")) == ("local", "migrated") \
            and j1["metrics"][0]["diff"] == j2["metrics"][0]["diff"] and \
            _unlabelled(j1["metrics"][0]["strata"]) == \
            _unlabelled(j2["metrics"][0]["strata"])
    chk.check("migrated: --compare migrated (base local, one metric "
              "ttwu_tkread.d) equals the hand-made variants m and l of "
              "each run's two metrics", ok,
              f"{p1.returncode} {p1.stderr[:300]} {p2.stderr[:200]}")
    if p1.returncode:
        return
    doc = j1
    met = doc["metrics"][0]
    study = S.Study([S.Run("local", r.slots, r.vmin, r.vmax, r.raw)
                     for r in sl.runs] +
                    [S.Run("migrated", r.slots, r.vmin, r.vmax, r.raw)
                     for r in sm.runs], k, "ttwu_tkread", {}, {})
    d = Data("migrated", study, path, base="local", variant="migrated")
    bad = []
    for which, v, runs in (("base", "local", sl.runs),
                           ("variant", "migrated", sm.runs)):
        s = S.stratum(doc, which)
        want = (len(runs), sum(r.nsamples for r in runs),
                int(d.point(v, "median")))
        got = (s.get("runs"), s.get("samples"),
               (s.get("median") or {}).get("value"))
        if got != want:
            bad.append(f"{v}: runs, samples, median {got} vs {want}")
    chk.check(f"migrated: each side's runs, samples and median ({n} and "
              f"{n - 1} runs)", not bad, "; ".join(bad))
    for j, (which, v) in enumerate((("base", "local"),
                                    ("variant", "migrated"))):
        res = scipy_ci((np.arange(d.m[v].nruns),), d.run_stat(v, "median"),
                       seed=seed * 1000 + 600 + j)
        ci_agrees(chk, f"migrated: {v}: median CI, run unit, vs scipy",
                  S.stratum(doc, which).get("median") or {}, res)
    fb, fv = d.run_stat("local", "median"), d.run_stat("migrated", "median")
    res = scipy_ci((np.arange(d.m["local"].nruns),
                    np.arange(d.m["migrated"].nruns)),
                   lambda x, y, axis=-1: fv(y) - fb(x),
                   seed=seed * 1000 + 610)
    ci_agrees(chk, "migrated: delta median CI (sides resampled "
              "independently), vs scipy paired=False",
              met["diff"].get("median") or {}, res)
    raw = [np.concatenate([r.raw for r in x.runs]) for x in (sm, sl)]
    want = float(np.median(raw[0]) - np.median(raw[1]))
    got = met["diff"]["median"]["value"]
    res = sum(x["median"]["resolution"] for x in met["strata"])
    chk.check("migrated: Δ median within the slot widths of the raw "
              "samples' difference", abs(got - want) <= res,
              f"tool {got}, raw {want}, slots {res}")


def check_unknown_factors(chk, tmp):
    """Factors: an unknown factor is refused, exit 2, nothing on stdout,
    one line on stderr naming it and listing the factors the input has
    (variant with its values, the tag keys, the meta fields, migrated
    --base local when the input has both sides).  A field that does not
    exist (meta:nosuchfield=1) is "no such factor"; a tag key no run has
    (tag:nokey=1) "no run has tag nokey"; both end in the same list."""
    path = os.path.join(tmp, "sides.json")
    want = ["variant: d", "tag:cstate=1", "meta:machine=vm",
            "meta:frac_bits=4", "migrated --base local"]
    import json
    with open(path) as f:
        doc = json.load(f)
    doc["meta"]["tags"] = {"cstate": "1"}
    pu = os.path.join(tmp, "unknown.json")
    write_doc(pu, doc)
    for spec, msg in (("meta:nosuchfield=1", "no such factor"),
                      ("tag:nokey=1", "no run has tag nokey")):
        p = tool(["-i", pu, "--compare", spec])
        lines = p.stderr.splitlines()
        head = f"clkstat-report: --compare {spec}: {msg} (factors: "
        ok = p.returncode == 2 and not p.stdout and len(lines) == 1 and \
            lines[0].startswith(head) and lines[0].endswith(")") and \
            all(w in lines[0] for w in want) and "nosuchfield" not in \
            lines[0][len(head):] and "nokey" not in lines[0][len(head):]
        chk.check(f"factors: --compare {spec} exits 2 with one line "
                  "listing the input's factors", ok,
                  f"exit {p.returncode}: {p.stderr.strip()[:400]}")



def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--self-test", action="store_true",
                    help="only show that a wrong CI (level 0.80) is rejected")
    ap.add_argument("--keep", action="store_true", help="keep the temp dir")
    ap.add_argument("--seed", type=int, default=0,
                    help="added to every seed, the tool's and scipy's (the "
                    "data stay the same): to measure the false alarm rate")
    a = ap.parse_args()
    chk = Checker()
    print(f"# scipy {scipy.__version__}, numpy {np.__version__}; B = {B}, "
          f"level {LEVEL}")
    if not S.tool_has_compare():
        print(f"not ok 1 - {S.TOOL} has no --compare (build it: make "
              "tools/clkstat-report)")
        print("0 passed, 1 failed")
        return 1
    tmp = tempfile.mkdtemp(prefix="clkstat-scipy-")
    try:
        data = [make(tmp, spec) for spec in DATASETS]
        if a.self_test:
            check_rejects_wrong_level(chk, data[0], 5)
            return chk.summary()
        check_port(chk, tmp)
        for i, d in enumerate(data):
            try:
                check_run_unit(chk, d, seed=a.seed * 10 + i + 1)
            except S.ToolError as e:
                chk.check(f"{d.name}: --compare runs", False, str(e))
        try:
            check_sample_unit(chk, data[0], seed=a.seed * 10 + 3)
        except S.ToolError as e:
            chk.check(f"{data[0].name}: --compare --unit sample runs", False,
                      str(e))
        check_determinism(chk, data[0])
        check_edges(chk, tmp, data[0])
        check_factors(chk, tmp)
        check_run_tags(chk, tmp)
        check_meta_factor(chk, tmp)
        check_migrated(chk, tmp, a.seed * 10 + 6)
        check_unknown_factors(chk, tmp)
        check_rejects_wrong_level(chk, data[0], a.seed * 10 + 5)
    finally:
        if a.keep:
            print(f"# kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    return chk.summary()


if __name__ == "__main__":
    sys.exit(main())

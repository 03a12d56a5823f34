#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Simulated fleets for clkstat-report --compare --unit host, and a numpy
reference of its two-level bootstrap (tools/lib/bootstrap.c).

The model, simstudy.py's with the machine as one more level
(Documentation/clkstat-compare.rst, "The simulated studies"):

    log x = mu_v + a_host + g_host,v + u_run + eps

so that the fleet-wide median, over the population of machines, is
exactly exp(mu_v): the truth the host-level interval is a confidence
interval for (not a range for one machine's own median).

Library:
    simulate_fleet(...)    -> Fleet: per variant, the hosts' runs
                              (simstudy.Run), in recording order
    Fleet.write_per_host(dir) one snapshot per host (meta "host", format
                              version 4; every host's file holds its runs of
                              every variant): the files, for -i
    Fleet.write_tagged(path)  one snapshot, each run tagged host=NAME (a
                              run's own tag, format version 2)
    ref_host_boot(...)     the two-level percentile bootstrap, numpy:
                              resample hosts, then each drawn host's runs;
                              the hosts both strata have drawn once for
                              both (all of them: paired), each stratum's
                              others on its own; or (unit "host-fixed")
                              every host kept, its runs resampled; or
                              (unit "run") runs
"""
import json
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import simstudy as S  # noqa: E402


class Fleet:
    """runs: [(host, Run)] in recording order; truth: variant -> true
    population median (ns)."""

    def __init__(self, runs, k, metric, truth):
        self.runs, self.k, self.metric, self.truth = runs, k, metric, truth

    def of(self, variant):
        """[(host, Run)] of a variant."""
        return [(h, r) for h, r in self.runs if r.variant == variant]

    def _doc(self, pairs):
        st = S.Study([r for _, r in pairs], self.k, self.metric, {}, {})
        doc = st.snapshot()
        doc["meta"]["variants"] = ",".join(sorted(self.truth))
        return doc

    def write_per_host(self, d):
        hosts = []
        for h, _ in self.runs:
            if h not in hosts:
                hosts.append(h)
        paths = []
        for i, h in enumerate(hosts):
            doc = self._doc([(x, r) for x, r in self.runs if x == h])
            doc["version"] = 4
            doc["meta"]["host"] = h
            for j, r in enumerate(doc["runs"]):
                # distinct runs across files (a run given twice is refused)
                r["start_ns"] += i * 10 ** 12 + j
            p = os.path.join(d, f"{h}.json")
            with open(p, "w") as f:
                json.dump(doc, f, separators=(",", ":"))
            paths.append(p)
        return paths

    def write_tagged(self, path):
        doc = self._doc(self.runs)
        doc["version"] = 2
        for (h, _), r in zip(self.runs, doc["runs"]):
            r["tags"] = {"host": h}
        with open(path, "w") as f:
            json.dump(doc, f, separators=(",", ":"))
        return [path]


def simulate_fleet(variants, hosts, runs=3, samples=100, host_sd=0.25,
                   inter_sd=0.1, tau=0.1, sigma=0.5, seed=1, k=5,
                   metric="tkread"):
    """variants: [(name, true_median_ns, host_names)]: the hosts a
    variant ran on (the same names: the same machines, paired).  hosts: the
    names of every host (their offsets are drawn in this order).  runs: per
    host and variant, an int or (lo, hi) drawn per host and variant."""
    rng = np.random.default_rng(seed)
    off = {h: rng.normal(0.0, host_sd) for h in hosts}
    out, truth = [], {}
    for name, med, _ in variants:
        truth[name] = float(med)
    nr = {}
    for name, _, hs in variants:
        for h in hs:
            nr[h, name] = runs if isinstance(runs, int) else \
                int(rng.integers(runs[0], runs[1] + 1))
    inter = {(h, name): rng.normal(0.0, inter_sd)
             for name, _, hs in variants for h in hs}
    # each host records its runs alternating the variants, host by host
    for h in hosts:
        for i in range(max(nr.get((h, v[0]), 0) for v in variants)):
            for name, med, hs in variants:
                if h not in hs or i >= nr[h, name]:
                    continue
                u = rng.normal(0.0, tau)
                x = np.exp(math.log(med) + off[h] + inter[h, name] + u +
                           rng.normal(0.0, sigma, samples))
                v = np.floor(x).astype(np.int64)
                slots, vmin, vmax = S.bin_values(v, k)
                out.append((h, S.Run(name, slots, vmin, vmax)))
    return Fleet(out, k, metric, truth)


STATS = ("median", "p90", "mean", "stddev", "iqr")


def _stratum(pairs, k, slots):
    hosts = []
    for h, _ in pairs:
        if h not in hosts:
            hosts.append(h)
    m = S.RunMatrix([r for _, r in pairs], k, slots)
    idx = {h: np.array([i for i, (x, _) in enumerate(pairs) if x == h])
           for h in hosts}
    return m, hosts, idx


def _weights(rng, m, hosts, idx, hcount):
    """Run multiplicities (B, nruns) from host multiplicities hcount (B,
    nhosts): a host drawn c times contributes c n_h runs drawn from its
    n_h (the sum of c independent draws of n_h is one multinomial of
    c n_h)."""
    w = np.zeros((hcount.shape[0], m.nruns), dtype=np.int64)
    for j, h in enumerate(hosts):
        runs = idx[h]
        n = len(runs)
        w[:, runs] = rng.multinomial(hcount[:, j] * n, np.full(n, 1.0 / n))
    return w


def _counts(d, k):
    """Draws d (B, m) of k things: how often each was drawn, (B, k)."""
    return np.stack([(d == j).sum(axis=1) for j in range(k)], axis=1)


def ref_host_boot(fleet, base, variant, resamples=10000, seed=1, level=0.95,
                  unit="host", unpaired=False):
    """The percentile bootstrap of each stratum's statistics (STATS) and of
    Δ median and Δ stddev (variant - base), resampling hosts then runs
    within (unit "host": the hosts both strata have, drawn once for both,
    then each stratum's own), each host's runs with every host kept (unit
    "host-fixed"), or runs (unit "run").  Returns {"base": {stat: (value,
    lo, hi, dist)}, "variant": ..., "diff": {...}, "paired": bool,
    "shared": the number of hosts drawn once for both} (dist: the
    bootstrap distribution).  unpaired: share no host (the wrong bootstrap
    for hosts that ran both, for showing that a check can fail)."""
    rng = np.random.default_rng(seed)
    pb, pv = fleet.of(base), fleet.of(variant)
    slots = sorted({s[0] for _, r in pb + pv for s in r.slots})
    st = [_stratum(pb, fleet.k, slots), _stratum(pv, fleet.k, slots)]
    shared = [h for h in st[0][1] if h in st[1][1]] \
        if unit == "host" and not unpaired else []
    paired = unit == "host" and not unpaired and \
        set(st[0][1]) == set(st[1][1])
    dist = [{s: [] for s in STATS}, {s: [] for s in STATS}]
    for start in range(0, resamples, 2000):
        n = min(2000, resamples - start)
        # the shared hosts' draws, one for both strata, counted per host
        sc = _counts(rng.integers(0, len(shared), (n, len(shared))),
                     len(shared)) if shared else None
        for i, (m, hosts, idx) in enumerate(st):
            if unit == "run":
                w = m.weights(rng.integers(0, m.nruns, (n, m.nruns)))
            else:
                if unit == "host-fixed":
                    hc = np.ones((n, len(hosts)), dtype=np.int64)
                else:
                    own = [h for h in hosts if h not in shared]
                    oc = _counts(rng.integers(0, len(own), (n, len(own))),
                                 len(own)) if own else None
                    hc = np.stack(
                        [sc[:, shared.index(h)] if h in shared else
                         oc[:, own.index(h)] for h in hosts], axis=1)
                w = _weights(rng, m, hosts, idx, hc)
            p = m.pool(w)
            for s in STATS:
                dist[i][s].append(S.STATS[s](p).astype(np.float64))
    a = (1 - level) / 2
    out = {"paired": paired, "shared": len(shared)}
    for i, key in enumerate(("base", "variant")):
        m = st[i][0]
        p0 = m.pool(m.all_runs())
        out[key] = {}
        for s in STATS:
            d = np.concatenate(dist[i][s])
            lo, hi = np.percentile(d, [100 * a, 100 * (1 - a)])
            out[key][s] = (float(S.STATS[s](p0)[0]), float(lo), float(hi), d)
    out["diff"] = {}
    for s in ("median", "stddev"):
        d = out["variant"][s][3] - out["base"][s][3]
        lo, hi = np.percentile(d, [100 * a, 100 * (1 - a)])
        out["diff"][s] = (out["variant"][s][0] - out["base"][s][0],
                          float(lo), float(hi), d)
    return out


def run_host_compare(paths, variant, base, unit="host", resamples=10000,
                     seed=1):
    """clkstat-report -i P... --compare --json, parsed."""
    import subprocess
    cmd = [S.TOOL]
    for p in paths:
        cmd += ["-i", p]
    cmd += ["--compare", variant, "--base", base, "--unit", unit,
            "--resamples", str(resamples), "--seed", str(seed), "--json"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode:
        raise S.ToolError(f"{' '.join(cmd)}: exit {p.returncode}: "
                          f"{p.stderr.strip()}")
    return json.loads(p.stdout)

#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""clkstat-report --compare --unit host against a numpy reference of the
same two-level bootstrap (fleetsim.ref_host_boot), on simulated fleets
where each host has its own offset (fleetsim.py).

Fleets (B = 10000 on both sides, level 0.95):
  paired     16 hosts ran both variants, 2 to 5 runs each, one snapshot
             per host with meta "host" (16 -i files);
  unpaired   the base on 12 hosts, the variant on 10 others, 1 to 4 runs
             each, one file whose runs carry the tag host=NAME;
  single     14 and 14 hosts of one run each, paired, per-host files;
  partly     the base on h00-h12, the variant on h03-h15, 2 to 4 runs
             each, per-host files: 10 hosts drawn once for both, each
             side's 3 others on its own;
  fixed      the paired fleet again with --unit host-fixed (every host
             kept, its runs resampled within it).
Checked for each: the --json schema, the unit, hosts_paired, hosts_shared
and each stratum's hosts and runs as the fleet has them (partly: each side's warning names its 3 hosts of
its own); the point estimates exactly (median, p90, IQR: integers; mean,
stddev: relative 1e-9); the intervals of median, p90, mean, stddev and IQR
of each stratum, and of Δ median and Δ stddev, against the reference's.
And that the host level matters: on the paired fleet (host offsets of SD
0.25 on the log scale) the host-level interval of the base's median is at
least 1.5 times as wide as the run-level one, and host-fixed's, which
keeps the hosts, is narrower than the host-level one.

Tolerance: scipy_check.tolerance(); why, and the intervals it must
reject (checked here): Documentation/clkstat-compare.rst, "Against scipy
and numpy".  Fixed seeds: the same result every time.  Exit 1 on any
failure.
"""
import math
import os
import shutil
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fleetsim as F  # noqa: E402
import scipy_check as SC  # noqa: E402
import simstudy as S  # noqa: E402

B = 10000
LEVEL = 0.95
EXACT = {"median", "p90", "iqr"}


def fleets():
    h16 = [f"h{i:02d}" for i in range(16)]
    a12 = [f"a{i:02d}" for i in range(12)]
    b10 = [f"b{i:02d}" for i in range(10)]
    h14 = [f"s{i:02d}" for i in range(14)]
    return [
        ("paired", F.simulate_fleet(
            [("base", 20000, h16), ("alt", 18000, h16)], h16, runs=(2, 5),
            samples=150, seed=11), "per_host", True),
        ("unpaired", F.simulate_fleet(
            [("base", 20000, a12), ("alt", 18000, b10)], a12 + b10,
            runs=(1, 4), samples=150, seed=12), "tagged", False),
        ("single", F.simulate_fleet(
            [("base", 20000, h14), ("alt", 21000, h14)], h14, runs=1,
            samples=200, seed=13), "per_host", True),
        ("partly", F.simulate_fleet(
            [("base", 20000, h16[:13]), ("alt", 18000, h16[3:])], h16,
            runs=(2, 4), samples=150, seed=14), "per_host", False),
    ]


def check_fleet(chk, tmp, name, fl, how, paired, seed, unit="host"):
    d = os.path.join(tmp, name)
    os.makedirs(d)
    paths = fl.write_per_host(d) if how == "per_host" else \
        fl.write_tagged(os.path.join(d, "fleet.json"))
    doc = F.run_host_compare(paths, "alt", "base", unit=unit, resamples=B,
                             seed=seed)
    err = S.schema_errors(doc, unit=unit, base="base",
                          variant="alt", resamples=B, seed=seed)
    chk.check(f"{name}: --json schema, unit {unit}", not err,
              "; ".join(err[:3]))
    if unit != "host":
        chk.check(f"{name}: unit {unit}, hosts_paired and hosts_shared null",
                  doc["metrics"][0].get("hosts_paired", 0) is None and
                  doc["metrics"][0].get("hosts_shared", 0) is None,
                  f"hosts_paired "
                  f"{doc['metrics'][0].get('hosts_paired', 0)!r}, "
                  f"hosts_shared "
                  f"{doc['metrics'][0].get('hosts_shared', 0)!r}")
    ref = F.ref_host_boot(fl, "base", "alt", resamples=B, seed=seed + 100,
                          level=LEVEL, unit=unit)
    m = doc["metrics"][0]
    hosts = [{h for h, _ in fl.of(v)} for v in ("base", "alt")]
    if unit == "host":
        chk.check(f"{name}: hosts_paired {paired}",
                  m.get("hosts_paired") is paired and
                  ref["paired"] is paired,
                  f"tool {m.get('hosts_paired')}, reference "
                  f"{ref['paired']}")
        shared = len(hosts[0] & hosts[1])
        chk.check(f"{name}: hosts_shared {shared}",
                  m.get("hosts_shared") == shared,
                  f"tool {m.get('hosts_shared')!r}")
    for j, v in enumerate(("base", "alt")):
        pairs = fl.of(v)
        nh = len(hosts[j])
        s = m["strata"][j]
        chk.check(f"{name}: {v}: {len(pairs)} runs on {nh} hosts",
                  s.get("runs") == len(pairs) and s.get("hosts") == nh,
                  f"tool {s.get('runs')} runs, {s.get('hosts')} hosts")
        own = len(hosts[j] - hosts[1 - j])
        if unit == "host" and own and not paired and \
                len(hosts[j] & hosts[1 - j]):
            want = f"{own} of its {nh} hosts not on the other side"
            chk.check(f"{name}: {v}: warned of its {own} own hosts",
                      want in (s.get("warning") or ""),
                      f"warning {s.get('warning')!r}")
        r = ref["base" if j == 0 else "variant"]
        for st in F.STATS:
            ok = SC.same(s[st]["value"], r[st][0], st in EXACT)
            chk.check(f"{name}: {v} {st} = reference", ok,
                      f"tool {s[st]['value']}, reference {r[st][0]}")
            agrees(chk, f"{name}: {v} {st} interval", s[st], r[st][3])
    for st in ("median", "stddev"):
        agrees(chk, f"{name}: Δ {st} interval", m["diff"][st],
               ref["diff"][st][3])
    return paths, m


def agrees(chk, name, tool_ci, dist):
    a = (1 - LEVEL) / 2
    lo_r, hi_r = np.percentile(dist, [100 * a, 100 * (1 - a)])
    tl, sel = SC.tolerance(dist, a, B)
    th, seh = SC.tolerance(dist, 1 - a, B)
    lo, hi = tool_ci.get("lo"), tool_ci.get("hi")
    if lo is None or hi is None:
        return chk.check(name, False, f"tool [{lo}, {hi}]")
    dlo, dhi = abs(lo - lo_r), abs(hi - hi_r)
    return chk.check(
        name, dlo <= tl and dhi <= th,
        f"tool [{lo:.6g}, {hi:.6g}] reference [{lo_r:.6g}, {hi_r:.6g}] "
        f"|diff| {dlo:.3g}, {dhi:.3g} <= tol {tl:.3g}, {th:.3g} "
        f"({dlo / max(sel * math.sqrt(2), 1e-300):.2f}, "
        f"{dhi / max(seh * math.sqrt(2), 1e-300):.2f} combined SE)")


def main():
    chk = SC.Checker()
    print(f"# numpy {np.__version__}; B = {B}, level {LEVEL}")
    if not S.tool_has_compare():
        print(f"not ok 1 - {S.TOOL} has no --compare")
        print("0 passed, 1 failed")
        return 1
    tmp = tempfile.mkdtemp(prefix="clkstat-fleet-")
    try:
        for i, (name, fl, how, paired) in enumerate(fleets()):
            try:
                paths, m = check_fleet(chk, tmp, name, fl, how, paired,
                                       seed=i + 1)
            except S.ToolError as e:
                chk.check(f"{name}: --compare --unit host runs", False, str(e))
                continue
            if name == "partly":
                # the comparison can fail: pairing dropped is rejected
                rr = F.ref_host_boot(fl, "base", "alt", resamples=B, seed=8,
                                     unpaired=True)
                q = SC.Checker(quiet=True)
                agrees(q, "", m["diff"]["median"], rr["diff"]["median"][3])
                chk.check("partly: the tool's Δ median interval is rejected "
                          "against a reference that draws each side's "
                          "hosts apart", q.failed == 1)
            if name != "paired":
                continue
            try:
                _, mf = check_fleet(chk, tmp, "fixed", fl, how, paired,
                                    seed=9, unit="host-fixed")
            except S.ToolError as e:
                chk.check("fixed: --compare --unit host-fixed runs", False,
                          str(e))
                continue
            wf = mf["strata"][0]["median"]
            wh = m["strata"][0]["median"]
            chk.check("fixed: the base median's host-fixed interval is "
                      "narrower than the host-level one",
                      wf["hi"] - wf["lo"] < wh["hi"] - wh["lo"],
                      f"{wf['hi'] - wf['lo']:.0f} ns against "
                      f"{wh['hi'] - wh['lo']:.0f} ns")
            # the host level matters where hosts differ
            run = F.run_host_compare(paths, "alt", "base", unit="run",
                                     resamples=B, seed=1)
            wr = run["metrics"][0]["strata"][0]["median"]
            wh = m["strata"][0]["median"]
            ratio = (wh["hi"] - wh["lo"]) / max(wr["hi"] - wr["lo"], 1e-300)
            chk.check("paired: the base median's host-level interval is "
                      "at least 1.5 x the run-level one", ratio >= 1.5,
                      f"{ratio:.2f} x")
            # the comparison can fail: the reference's run unit is rejected
            rr = F.ref_host_boot(fl, "base", "alt", resamples=B, seed=7,
                                 unit="run")
            q = SC.Checker(quiet=True)
            agrees(q, "", wh, rr["base"]["median"][3])
            chk.check("paired: the tool's host-level interval is rejected "
                      "against the reference's run-level one", q.failed == 1)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return chk.summary()


if __name__ == "__main__":
    sys.exit(main())

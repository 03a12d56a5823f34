#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""clkstat-report plot's figures read back (tools/tests/plot_svg.py) from
synthetic recordings whose answer is known, the SVG's drawn elements
mapped to data by gnuplot's own axes:

- percentiles: two sides whose medians differ by a known amount (the
  pooled histograms' medians, computed here with simstudy's bucket math):
  each side's line at 50% is its median, the difference is the one
  --compare prints; the band holds the line;
- runs: a run made an outlier on purpose (its samples times 8) is the one
  point far above the others, at its index;
- hist: one box per non-empty slot of each side, over the slot's bounds,
  the heights summing to 100%;
- forest: Δ median, p90 and p99 at --compare --format json's values, the
  bars at its interval ends;
- PNG and PDF written with their magic; bad input (a metric neither side
  has, a mistyped kind, a name of no known format, no --compare, a file
  that is no recording) is one line, a status, and no file;
- --compare --html: the page holds the text exactly as printed, renders
  in headless Chromium with every figure and no console message or
  request (tools/tests/page_check.py), and its embedded data (as the
  browser parses it) is what the SVG draws and what --compare says.
Prints ok/not ok lines; exits non-zero on a failure.
"""
import html
import json
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import simstudy	# noqa: E402
from plot_svg import Figure	# noqa: E402

TOP = os.path.realpath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
REPORT = os.path.join(TOP, "tools", "clkstat-report")
failures = 0


def check(ok, what, detail=""):
    global failures
    print(("ok - " if ok else "not ok - ") + what + ("" if ok else ": " + detail))
    failures += not ok


def plot(snap, out, *args):
    p = subprocess.run([REPORT, "plot", "-i", snap, "--compare", "var",
                        "--base", "base", "-o", out, "--time-unit", "us",
                        *args], capture_output=True, text=True)
    return p


def pooled(study, variant):
    """The pooled slots of a side: dense counts, min, max."""
    k = study.k
    dense = np.zeros(simstudy.nslots(k), dtype=np.int64)
    vmin, vmax = None, None
    for r in study.of(variant):
        for s, c, _ in r.slots:
            dense[s] += c
        vmin = r.vmin if vmin is None else min(vmin, r.vmin)
        vmax = r.vmax if vmax is None else max(vmax, r.vmax)
    return dense, vmin, vmax


def main():
    d = tempfile.mkdtemp(prefix="plot-check-")
    study = simstudy.simulate([("base", 20000), ("var", 26000)], runs=20,
                              samples=3000, tau=0.05, sigma=0.25, seed=3,
                              k=5, metric="ttwu_tkread", keep_raw=True)
    # Run 14 (base) an outlier: its samples 8 times as long.
    out_idx = 14
    r = study.runs[out_idx]
    assert r.variant == "base"
    raw = r.raw * 8
    slots, vmin, vmax = simstudy.bin_values(raw, study.k)
    study.runs[out_idx] = simstudy.Run("base", slots, vmin, vmax, raw)
    snap = os.path.join(d, "s.json")
    study.write_snapshot(snap)

    # --compare's own numbers, for the forest and the medians.
    cj = json.loads(subprocess.run(
        [REPORT, "-i", snap, "--compare", "var", "--base", "base",
         "--format", "json"], capture_output=True, text=True, check=True).stdout)
    cm = cj["metrics"][0] if "metrics" in cj else cj["comparisons"][0]

    # 1. percentiles
    svg = os.path.join(d, "p.svg")
    p = plot(snap, svg, "--kind", "percentiles")
    check(p.returncode == 0 and not p.stderr, "plot --kind percentiles", p.stderr)
    f = Figure(svg)
    med = {}
    for side in ("base", "var"):
        dense, lo, hi = pooled(study, side)
        sparse = [[i, int(c), 0] for i, c in enumerate(dense) if c]
        want = simstudy.hist_quantile(sparse, study.k, lo, hi, 1, 2) / 1000
        line = f.find(side + " (")
        got = Figure.y_at(line, 2.0)
        med[side] = got
        span = f.axes["plot_axis_ymax"] - f.axes["plot_axis_ymin"]
        check(abs(got - want) < 0.004 * span,
              f"percentiles: {side}'s line at 50% is its pooled median",
              f"drawn {got:.3f}us, the histogram's {want:.3f}us")
        band = f.find(side + ", 95% band")
        ys = [y for poly in band["polygons"] for x, y in poly if abs(x - 2.0) < 0.05]
        check(ys and min(ys) <= got + 0.004 * span and max(ys) >= got - 0.004 * span,
              f"percentiles: {side}'s band holds its line at 50%", str(ys))
    dm = cm["diff"]["median"]["value"] / 1000
    check(abs((med["var"] - med["base"]) - dm) < 0.01 * max(1, abs(dm)) + 0.01 * span,
          "percentiles: the lines part by --compare's Δ median",
          f"drawn {med['var'] - med['base']:.3f}us, --compare {dm:.3f}us")
    check(any("kernel 6.1.0-sim" in t for t in f.texts),
          "percentiles: the figure says the kernel it was recorded on")

    # 4. runs: the outlier stands out at its index
    svg = os.path.join(d, "r.svg")
    p = plot(snap, svg, "--kind", "runs")
    check(p.returncode == 0, "plot --kind runs", p.stderr)
    f = Figure(svg)
    pts = f.find("base (base, 20 runs): median")["points"]
    check(len(pts) == 20, "runs: a median point per base run", str(len(pts)))
    top = max(pts, key=lambda q: q[1])
    rest = sorted(y for x, y in pts if round(x) != out_idx)
    check(round(top[0]) == out_idx and top[1] > 4 * rest[len(rest) // 2],
          f"runs: run {out_idx}, the outlier, is the highest median, far above",
          f"highest at x {top[0]:.2f}: {top[1]:.1f}us, the others' median {rest[len(rest) // 2]:.1f}us")
    xs = sorted(round(x) for x, y in f.find("var (20 runs): median")["points"])
    want_x = [i for i, r in enumerate(study.runs) if r.variant == "var"]
    check(xs == want_x, "runs: each var run at its own index", f"{xs} against {want_x}")

    # 2. hist: one box per slot, over its bounds, 100% in all
    svg = os.path.join(d, "h.svg")
    p = plot(snap, svg, "--kind", "hist")
    check(p.returncode == 0, "plot --kind hist", p.stderr)
    f = Figure(svg)
    for side, title in (("base", "base (base"), ("var", "var (")):
        dense, lo, hi = pooled(study, side)
        boxes = f.find(title)["polygons"]
        nz = [s for s in range(len(dense)) if dense[s]]
        check(len(boxes) == len(nz), f"hist: {side} has a box per non-empty slot",
              f"{len(boxes)} boxes, {len(nz)} slots")
        total = sum(max(y for x, y in b) for b in boxes)
        check(abs(total - 100) < 1.5, f"hist: {side}'s boxes sum to 100%", f"{total:.2f}")
        lows = sorted(min(x for x, y in b) for b in boxes)
        want = sorted(simstudy.slot_lower(s, study.k) / 1000 for s in nz)
        bad = [(a, b) for a, b in zip(lows, want) if abs(a - b) > 0.01 * b]
        check(not bad, f"hist: {side}'s boxes begin at their slots' lower bounds", str(bad[:3]))

    # 3. forest: at --compare's values, each panel by its own axis
    svg = os.path.join(d, "f.svg")
    p = plot(snap, svg, "--kind", "forest")
    check(p.returncode == 0, "plot --kind forest", p.stderr)
    f = Figure(svg)
    check(len(f.panels) == 3, "forest: three panels", str(len(f.panels)))
    rows = (("median", "Δ median", 1000, 0), ("p90", "Δ p90", 1000, 0),
            ("p99", "Δ p99", 1000, 0), ("risk_difference", "risk difference", 0.01, 1),
            ("risk_ratio", "risk ratio", 1, 2))
    for key, title, unit, panel in rows:
        c = cm["diff"][key]
        s = f.find(title)
        ticks = f.panels[panel] if len(f.panels) == 3 else [(0, 0), (1, 1)]
        span = ticks[-1][1] - ticks[0][1]
        xs = [x for x, y in s["points"]]
        ends = [x for path in s["paths"] for x, y in path]
        tol = 0.01 * span
        ok = (len(xs) == 1 and ends and abs(xs[0] - c["value"] / unit) < tol and
              abs(min(ends) - c["lo"] / unit) < tol and
              abs(max(ends) - c["hi"] / unit) < tol)
        check(ok, f"forest: {title} at --compare's value and interval",
              f"drawn {xs} [{min(ends) if ends else None}, {max(ends) if ends else None}], "
              f"--compare {c['value'] / unit} [{c['lo'] / unit}, {c['hi'] / unit}]")

    # The page: the text as printed, every figure rendered in Chromium
    # (tools/tests/page_check.py), their data as the browser parses it.
    page = os.path.join(d, "p.html")
    p = subprocess.run([REPORT, "-i", snap, "--compare", "var", "--base", "base",
                        "--html", page], capture_output=True, text=True)
    check(p.returncode == 0 and os.path.exists(page), "--compare --html", p.stderr)
    pre = re.search(r'<pre id="compare-text">(.*?)</pre>', open(page, encoding="utf-8").read(), re.S)
    check(pre and html.unescape(pre.group(1)) == p.stdout,
          "--html: the page's text is what the text output printed")
    figs = ["fig-percentiles", "fig-hist", "fig-runs", "fig-forest"]
    args = [sys.executable, os.path.join(TOP, "tools", "tests", "page_check.py"), page]
    for fid in figs:
        args += ["--expect-figure", fid, "--json-data", "data-" + fid[4:]]
    b = subprocess.run(args, capture_output=True, text=True)
    check(b.returncode == 0, "--html: the page renders in headless Chromium, every figure, no console message, no request",
          b.stderr[-600:])
    data = [json.loads(x) for x in b.stdout.splitlines() if x.strip()]
    check(len(data) == len(figs), "--html: each figure's data in the page", str(len(data)))
    if len(data) == len(figs):
        pc = data[0]
        lines = {x["title"].split(" ")[0]: x for x in pc["series"] if x["style"] == "lines"}
        for side in ("base", "var"):
            pts = [q for q in lines[side]["points"] if abs(q["x"] - 2.0) < 0.03]
            check(pts and abs(pts[0]["y"] - med[side]) < 0.004 * (f.axes["plot_axis_ymax"] or 1) + 0.2,
                  f"--html: the page's data of {side}'s line at 50% is the drawn median",
                  f"{pts[:1]} against {med[side]:.3f}")
        fo = {x["title"]: x for x in data[3]["series"]}
        c = cm["diff"]["median"]
        q = fo["Δ median"]["points"][0]
        check(abs(q["x"] - c["value"] / 1000) < 1e-9 and abs(q["x2"] - c["lo"] / 1000) < 1e-9
              and abs(q["x3"] - c["hi"] / 1000) < 1e-9,
              "--html: the forest's data is --compare's Δ median and interval", str(q))
    for args, what in ((["--html", os.path.join(d, "p.txt")], "must end in .html"),
                       (["--html", os.path.join(d, "q.html"), "--format", "json"], "--format json does not apply")):
        p = subprocess.run([REPORT, "-i", snap, "--compare", "var", *args],
                           capture_output=True, text=True)
        check(p.returncode == 2 and what in p.stderr and p.stderr.count("\n") == 1 and not p.stdout
              and not os.path.exists(args[1]),
              f"--compare {' '.join(args[:1] + [os.path.basename(args[1])] + args[2:])}: refused, nothing written", p.stderr)

    # The page of a recording with events: the heat map of the first run
    # (its cells count that run's first reads) and the cross-correlation
    # of wakeups and first reads (first reads 3 ms after their wakeups:
    # the peak at +3 bins of 1 ms), in Chromium, with their data.
    doc = json.load(open(snap))
    doc["version"] = 4
    doc["meta"]["events"] = 100000
    rng = np.random.default_rng(11)
    cols = ["ts_ns", "type", "cpu", "pid", "corr", "latency_ns", "migrated",
            "rq_clock_ns", "text"]
    first_reads = None
    for r in doc["runs"]:
        t0 = r["start_ns"] % 10 ** 12
        rows = [[t0, "marker", 0, 1, 0, None, None, None, "run_start"]]
        for i in range(5, 1995):
            for _ in range(rng.poisson(0.7)):
                t = t0 + i * 10 ** 6 + int(rng.integers(0, 10 ** 6))
                rows.append([t, "wakeup", 0, 1, 0, None, None, None, None])
                rows.append([t + 3 * 10 ** 6, "first_tkread", 1, 1, 0,
                             int(rng.integers(2000, 60000)), False, None, None])
        rows.append([t0 + 2000 * 10 ** 6, "marker", 0, 1, 0, None, None, None, "run_end"])
        rows.sort(key=lambda x: x[0])
        if first_reads is None:
            first_reads = sum(1 for x in rows if x[1] == "first_tkread")
        r["events"] = {"lost": 0, "clock": [{"mono_ns": t0, "realtime_ns": r["start_ns"]}],
                       "columns": cols, "rows": rows}
    esnap = os.path.join(d, "ev.json")
    json.dump(doc, open(esnap, "w"))
    page = os.path.join(d, "ev.html")
    p = subprocess.run([REPORT, "-i", esnap, "--compare", "var", "--base", "base",
                        "--html", page], capture_output=True, text=True)
    check(p.returncode == 0 and not p.stderr, "--html of a recording with events", p.stderr)
    b = subprocess.run([sys.executable, os.path.join(TOP, "tools", "tests", "page_check.py"), page,
                        "--expect-figure", "fig-heatmap", "--expect-figure", "fig-xcorr",
                        "--json-data", "data-heatmap", "--json-data", "data-xcorr"],
                       capture_output=True, text=True)
    check(b.returncode == 0, "--html: the heat map and the cross-correlation render in Chromium",
          b.stderr[-600:])
    ev = [json.loads(x) for x in b.stdout.splitlines() if x.strip()]
    if len(ev) == 2:
        cells = [q for x in ev[0]["series"] if x["style"] == "cells" for q in x["points"]]
        check(sum(q["z"] for q in cells) == first_reads,
              f"--html: the heat map's cells count the first run's {first_reads} first reads",
              str(sum(q["z"] for q in cells)))
        peak = [m for m in ev[1]["marks"] if m["label"].startswith("peak")]
        check(len(peak) == 1 and abs(peak[0]["at"] - 3) < 1e-9,
              "--html: the cross-correlation's peak mark at +3 ms, where the first reads follow",
              str(ev[1]["marks"]))
    else:
        check(False, "--html: the event figures' data in the page", b.stdout[:300])

    # Formats by name, and bad input: one line, a status, no file.
    for ext, magic in (("png", b"\x89PNG"), ("pdf", b"%PDF")):
        out = os.path.join(d, "x." + ext)
        p = plot(snap, out)
        ok = p.returncode == 0 and open(out, "rb").read(4) == magic
        check(ok, f"plot -o x.{ext} writes {ext.upper()}", p.stderr)
    bad = [
        (["--metric", "nosuch"], 2, "not a metric of both"),
        (["--kind", "percentile"], 2, "did you mean percentiles"),
    ]
    for args, rc, what in bad:
        out = os.path.join(d, "bad.svg")
        p = plot(snap, out, *args)
        check(p.returncode == rc and p.stderr.count("\n") == 1 and what in p.stderr
              and not os.path.exists(out),
              f"plot {' '.join(args)}: one line, status {rc}, no file",
              f"status {p.returncode}: {p.stderr!r}")
    out = os.path.join(d, "one.svg")
    p = subprocess.run([REPORT, "plot", "-i", snap, "--compare", "nosuch", "-o", out],
                       capture_output=True, text=True)
    check(p.returncode == 2 and p.stderr.count("\n") == 1 and not os.path.exists(out),
          "plot --compare of a variant no run has: one line, status 2, no file", p.stderr)
    p = subprocess.run([REPORT, "plot", "-i", snap, "--compare", "tag:cstate=qos0", "-o", out],
                       capture_output=True, text=True)
    check(p.returncode == 2 and p.stderr.count("\n") == 1 and not os.path.exists(out),
          "plot --compare of a factor no run has (one side only): one line, status 2, no file",
          p.stderr)
    # valgrind: every comparison kind and the page, no error, no leak.
    for args in (["plot", "--kind", k, "-o", os.path.join(d, "vg.svg")]
                 for k in ("percentiles", "hist", "forest", "runs")):
        args = [args[0], "-i", snap, "--compare", "var", "--resamples", "200", *args[1:]]
        v = subprocess.run(["valgrind", "-q", "--error-exitcode=9", "--leak-check=full",
                            "--errors-for-leak-kinds=definite,indirect", REPORT, *args],
                           capture_output=True, text=True)
        check(v.returncode == 0, f"valgrind: plot {' '.join(args[7:9])}: no error, no leak",
              v.stderr[-800:])
    # The page (its event figures' code through the heat map: the
    # cross-correlation's bootstrap over every run is too slow there).
    for args in (["-i", snap, "--compare", "var", "--resamples", "200", "--html",
                  os.path.join(d, "vg.html")],
                 ["plot", "-i", esnap, "--kind", "heatmap", "-o", os.path.join(d, "vg.svg")]):
        v = subprocess.run(["valgrind", "-q", "--error-exitcode=9", "--leak-check=full",
                            "--errors-for-leak-kinds=definite,indirect", REPORT, *args],
                           capture_output=True, text=True)
        check(v.returncode == 0, f"valgrind: {' '.join(a for a in args if not a.startswith('/'))}: no error, no leak",
              v.stderr[-800:])
    out = os.path.join(d, "bad.txt")
    p = plot(snap, out)
    check(p.returncode == 2 and ".svg, .png or .pdf" in p.stderr and not os.path.exists(out),
          "plot -o bad.txt: refused by its name", p.stderr)
    p = subprocess.run([REPORT, "plot", "-i", snap, "-o", os.path.join(d, "n.svg")],
                       capture_output=True, text=True)
    check(p.returncode == 2 and "--compare F is needed" in p.stderr,
          "plot without --compare: refused", p.stderr)
    junk = os.path.join(d, "junk.json")
    with open(junk, "w") as fj:
        fj.write('{"format": "clkstat-snapshot", "version": 4, "meta": ')
    p = plot(junk, os.path.join(d, "j.svg"))
    check(p.returncode != 0 and p.stderr.count("\n") == 1 and not os.path.exists(os.path.join(d, "j.svg")),
          "plot of a truncated snapshot: one line, no file", p.stderr)
    subprocess.run(["rm", "-rf", d])
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

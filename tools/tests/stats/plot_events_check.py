#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""clkstat-report plot's figures of events and of a fleet, read back from
the SVG's drawn elements (tools/tests/plot_svg.py), on synthetic
recordings whose answer is known:

- xcorr: an event series B that follows A by a known lag (5 bins; and
  one that leads it by 3): the drawn r(k)'s highest point and the peak
  mark are at that lag, the line is xcorr --json's r at every lag, the
  band holds xcorr's interval at the peak;
- heatmap: the cells' counts (their colours read through the colour box)
  add up to the run's events of the type drawn (first_tkread, and
  enqueue with --type), per latency slot to the events in that slot
  (the recording's slots at its frac_bits, simstudy's bucket math), and
  before a marker to the events before it; the markers written at known
  times are drawn at those times, labelled; the run is the first with
  events (run 0 was recorded without them) or --run's;
- fleet: five hosts (fleetsim.Fleet's files, one per host), one made to
  differ on purpose (its variant 3 times slower): its row stands out at
  its value; every host's row is at what --compare gives on that host's
  file alone, its bar at that interval; the fleet's row is --compare
  --unit host's;
- bad input, each one line, a status and no file: a recording without
  events, a run recorded without them, a type without latencies, a
  selector that does not parse, one selector, --compare with xcorr, one
  host for the fleet.
Prints ok/not ok lines; exits non-zero on a failure.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import fleetsim	# noqa: E402
import simstudy as S	# noqa: E402
import xcorr_check as X	# noqa: E402
from plot_svg import Figure	# noqa: E402

TOP = os.path.realpath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
REPORT = os.path.join(TOP, "tools", "clkstat-report")
MS = 1_000_000
failures = 0


def check(ok, what, detail=""):
    global failures
    print(("ok - " if ok else "not ok - ") + what + ("" if ok else ": " + str(detail)[:2000]))
    failures += not ok


def run(*args):
    return subprocess.run([REPORT, *args], capture_output=True, text=True)


def ev(ts, typ, lat=None, text=None):
    mig = None if typ == "marker" else bool(ts % 2)
    return [int(ts), typ, 0, 1, 0, lat, mig, None, text]


def snapshot(path, runs):
    """runs: rows per run, None for a run recorded without events."""
    X.snapshot(path, [r or [] for r in runs])
    with open(path) as f:
        doc = json.load(f)
    for r, rows in zip(doc["runs"], runs):
        if rows is None:
            del r["events"]
    with open(path, "w") as f:
        json.dump(doc, f)


def one_line_no_file(p, out, rc, what, says):
    check(p.returncode == rc and p.stderr.count("\n") == 1 and says in p.stderr
          and not p.stdout and not os.path.exists(out),
          f"{what}: one line, status {rc}, no file",
          f"status {p.returncode}: {p.stderr!r}")


def xcorr_lagged(d, rng, lag, name):
    """A Poisson per 1 ms bin, B = A lag bins later (lag < 0: earlier)."""
    t0 = 10 ** 9
    rows = [ev(t0, "marker", text="run_start"), ev(t0 + 4000 * MS, "marker", text="run_end")]
    for i in range(60, 3940):
        for _ in range(rng.poisson(0.8)):
            t = t0 + i * MS + int(rng.integers(0, MS))
            rows.append(ev(t, "first_tkread", 1000))
            if rng.random() < 0.85:
                rows.append(ev(t + lag * MS, "enqueue", 1000))
        for _ in range(rng.poisson(0.2)):
            rows.append(ev(t0 + i * MS + int(rng.integers(0, MS)), "enqueue", 1000))
    snap = os.path.join(d, name + ".json")
    snapshot(snap, [rows])
    svg = os.path.join(d, name + ".svg")
    args = ["-i", snap, "first_tkread", "enqueue", "--bin", "1ms", "--max-lag", "15ms",
            "-B", "300"]
    p = run("plot", "--kind", "xcorr", "-o", svg, *args)
    check(p.returncode == 0 and not p.stderr, f"plot --kind xcorr ({name})", p.stderr)
    if p.returncode:
        return
    want = json.loads(run("xcorr", "--json", "--seed", "1", *args).stdout)
    f = Figure(svg)
    line = f.find("r(k)")
    pts = sorted(q for path in line["paths"] for q in path)
    top = max(pts, key=lambda q: q[1])
    check(abs(top[0] - lag) < 0.05, f"xcorr ({name}): the drawn r(k) is highest at lag {lag} ms",
          f"highest at {top[0]:.3f} ms, r {top[1]:.3f}")
    span = f.axes["plot_axis_ymax"] - f.axes["plot_axis_ymin"]
    bad = []
    for l in want["lags"]:
        at = [y for x, y in pts if abs(x - l["lag_bins"]) < 0.05]
        if l["r"] is not None and (len(at) != 1 or abs(at[0] - l["r"]) > 0.004 * span):
            bad.append((l["lag_bins"], l["r"], at))
    check(not bad and len(pts) == len(want["lags"]),
          f"xcorr ({name}): the line is xcorr --json's r at each of its {len(want['lags'])} lags",
          f"{len(pts)} vertices; off: {bad[:4]}")
    marks = [m for m in f.marks if m[0] == "x" and m[2] and m[2].startswith("peak")]
    check(len(marks) == 1 and abs(marks[0][1] - lag) < 0.05 and
          f"lag {lag:+d} bins" in marks[0][2] and want["peak"]["lag_bins"] == lag,
          f"xcorr ({name}): the peak mark at lag {lag} ms, labelled with it", marks)
    band = f.find("95% band")
    ys = [y for poly in band["polygons"] for x, y in poly if abs(x - lag) < 0.02]
    pk = want["peak"]
    check(ys and abs(min(ys) - pk["r_lo"]) < 0.006 * span and abs(max(ys) - pk["r_hi"]) < 0.006 * span,
          f"xcorr ({name}): the band at the peak is xcorr's interval",
          f"drawn {min(ys) if ys else None}..{max(ys) if ys else None}, xcorr {pk['r_lo']}..{pk['r_hi']}")


def heat_runs(rng):
    """Run 0 without events; run 1 two phases with markers; run 2 other."""
    t0 = 5 * 10 ** 9
    rows = [ev(t0, "marker", text="run_start"), ev(t0 + 2000 * MS, "marker", text="run_end"),
            ev(t0 + 700 * MS, "marker", text="phase-2"),
            ev(t0 + 1500 * MS, "marker", text="checkpoint")]
    truth = []
    for _ in range(2500):
        t = t0 + int(rng.integers(0, 2000 * MS))
        lat = int(rng.lognormal(np.log(3000 if t < t0 + 700 * MS else 12000), 0.35))
        rows.append(ev(t, "first_tkread", lat))
        truth.append((t - t0, lat))
    enq = 0
    for _ in range(400):
        rows.append(ev(t0 + int(rng.integers(0, 2000 * MS)), "enqueue",
                       int(rng.integers(500, 5000))))
        enq += 1
    for _ in range(100):	# a wakeup has no latency: not drawn
        rows.append(ev(t0 + int(rng.integers(0, 2000 * MS)), "wakeup"))
    other = [ev(10 ** 9 + i * MS, "first_tkread", 100) for i in range(50)]
    return [None, rows, other], truth, enq


def heatmap(d, rng):
    runs, truth, enq = heat_runs(rng)
    snap = os.path.join(d, "heat.json")
    snapshot(snap, runs)
    k = X.META["frac_bits"]
    svg = os.path.join(d, "heat.svg")
    p = run("plot", "-i", snap, "--kind", "heatmap", "--time-unit", "us", "-o", svg)
    check(p.returncode == 0 and not p.stderr, "plot --kind heatmap", p.stderr)
    if p.returncode:
        return
    f = Figure(svg)
    cells = f.find("first_tkread")["cells"]
    zs = [c[4] for c in cells]
    check(cells and all(z is not None and abs(z - round(z)) < 0.25 for z in zs),
          "heatmap: each cell's colour reads as a whole count", zs[:10])
    total = sum(round(z) for z in zs)
    check(total == len(truth), f"heatmap: the cells count the run's {len(truth)} first_tkread events "
          "(run 1: run 0 has none)", total)
    # Per latency slot: the cells of the slot's rows count its events.
    per_slot = {}
    for _, lat in truth:
        s = S.value_to_slot(lat, k)
        per_slot[s] = per_slot.get(s, 0) + 1
    drawn = {}
    for x0, x1, y0, y1, z in cells:
        s = min(per_slot, key=lambda s: abs(S.slot_lower(s, k) / 1000 - y0) / y0)
        ok = abs(S.slot_lower(s, k) / 1000 - y0) < 0.01 * y0 and \
            abs((S.slot_upper(s, k) + 1) / 1000 - y1) < 0.01 * y1
        drawn[s if ok else -1] = drawn.get(s if ok else -1, 0) + round(z)
    check(drawn == per_slot, f"heatmap: each of the {len(per_slot)} latency slots holds its events, "
          "over its bounds", {s: (drawn.get(s), per_slot.get(s)) for s in set(drawn) | set(per_slot)
                              if drawn.get(s) != per_slot.get(s)})
    before = sum(round(c[4]) for c in cells if c[1] <= 0.7 + 1e-3)
    want = sum(1 for t, _ in truth if t < 700 * MS)
    check(before == want, "heatmap: the cells left of phase-2 (0.7 s) count the events before it",
          f"drawn {before}, events {want}")
    span = f.axes["plot_axis_xmax"] - f.axes["plot_axis_xmin"]
    for label, at in (("run_start", 0.0), ("phase-2", 0.7), ("checkpoint", 1.5), ("run_end", 2.0)):
        m = [v for a, v, lb in f.marks if a == "x" and lb == label]
        check(len(m) == 1 and abs(m[0] - at) < 0.003 * span,
              f"heatmap: marker {label} drawn at {at} s, labelled", (m, f.marks))
    check(any("run 1 (direct)" in t for t in f.texts), "heatmap: the title names the run drawn")

    svg = os.path.join(d, "heat_enq.svg")
    p = run("plot", "-i", snap, "--kind", "heatmap", "--type", "enqueue", "--bin", "100ms",
            "--run", "1", "-o", svg)
    check(p.returncode == 0, "plot --kind heatmap --type enqueue --bin 100ms --run 1", p.stderr)
    if not p.returncode:
        cells = Figure(svg).find("enqueue")["cells"]
        widths = [c[1] - c[0] for c in cells]
        check(sum(round(c[4]) for c in cells) == enq and
              all(abs(w - 0.1) < 0.001 for w in widths),
              f"heatmap --type enqueue: {enq} events in cells 100 ms wide",
              (sum(round(c[4]) for c in cells), min(widths), max(widths)))
    svg = os.path.join(d, "heat2.svg")
    p = run("plot", "-i", snap, "--kind", "heatmap", "--run", "2", "-o", svg)
    check(p.returncode == 0 and sum(round(c[4]) for c in Figure(svg).find("first_tkread")["cells"]) == 50,
          "heatmap --run 2: that run's 50 events", p.stderr)

    # Bad input: one line, a status, no file.
    out = os.path.join(d, "bad.svg")
    none = os.path.join(d, "none.json")
    snapshot(none, [None, None])
    one_line_no_file(run("plot", "-i", none, "--kind", "heatmap", "-o", out), out, 1,
                     "heatmap of a recording without events", "no run has events")
    one_line_no_file(run("plot", "-i", snap, "--kind", "heatmap", "--run", "0", "-o", out), out, 1,
                     "heatmap --run 0 (recorded without events)", "recorded without --events")
    one_line_no_file(run("plot", "-i", snap, "--kind", "heatmap", "--type", "wakeup", "-o", out),
                     out, 1, "heatmap --type wakeup (no latencies)", "no wakeup event with a latency")
    one_line_no_file(run("plot", "-i", snap, "--kind", "heatmap", "--type", "first_tkred", "-o", out),
                     out, 2, "heatmap --type first_tkred", "not an event type")
    one_line_no_file(run("plot", "-i", snap, "--kind", "xcorr", "first_tkread", "enqueue:nosuch",
                         "-o", out), out, 2, "xcorr with a selector that does not parse", "enqueue")
    one_line_no_file(run("plot", "-i", snap, "--kind", "xcorr", "first_tkread", "-o", out), out, 2,
                     "xcorr with one selector", "two selectors")
    one_line_no_file(run("plot", "-i", snap, "--kind", "xcorr", "first_tkread", "enqueue",
                         "--compare", "direct", "-o", out), out, 2, "xcorr with --compare",
                     "--compare does not apply")
    one_line_no_file(run("plot", "-i", none, "--kind", "xcorr", "first_tkread", "enqueue",
                         "-o", out), out, 1, "xcorr of a recording without events",
                     "no selected run has events")


def fleet(d):
    rng = np.random.default_rng(44)
    hosts = ["h1", "h2", "h3", "h4", "h5"]
    k, runs = 5, []
    for h in hosts:
        off = rng.normal(0, 0.2)
        for i in range(6):
            for v, med in (("base", 20000), ("var", 23000 * (3 if h == "h3" else 1))):
                x = np.exp(np.log(med) + off + rng.normal(0, 0.05) + rng.normal(0, 0.4, 400))
                slots, vmin, vmax = S.bin_values(np.floor(x).astype(np.int64), k)
                runs.append((h, S.Run(v, slots, vmin, vmax)))
    fl = fleetsim.Fleet(runs, k, "ttwu_tkread", {"base": 20000, "var": 23000})
    paths = fl.write_per_host(d)
    ins = [a for p in paths for a in ("-i", p)]
    svg = os.path.join(d, "fleet.svg")
    p = run("plot", *ins, "--compare", "var", "--base", "base", "--kind", "fleet",
            "--resamples", "2000", "--time-unit", "us", "-o", svg)
    check(p.returncode == 0 and not p.stderr, "plot --kind fleet", p.stderr)
    if p.returncode:
        return
    f = Figure(svg)
    span = f.axes["plot_axis_xmax"] - f.axes["plot_axis_xmin"]
    rows = f.find("each host alone")
    pts = sorted(rows["points"], key=lambda q: -q[1])	# top down: the input's order
    check(len(pts) == len(hosts), "fleet: a row per host", pts)
    for h, (x, y) in zip(hosts, pts):
        c = json.loads(run("-i", os.path.join(d, h + ".json"), "--compare", "var", "--base",
                           "base", "--resamples", "2000", "--json").stdout)["metrics"][0]["diff"]["median"]
        bar = [xx for path in rows["paths"] for xx, yy in path if abs(yy - y) < 0.05]
        check(abs(x - c["value"] / 1000) < 0.004 * span and bar and
              abs(min(bar) - c["lo"] / 1000) < 0.004 * span and
              abs(max(bar) - c["hi"] / 1000) < 0.004 * span,
              f"fleet: {h}'s row at --compare's Δ median and interval on {h}'s file alone",
              f"drawn {x:.3f} [{min(bar) if bar else None}, {max(bar) if bar else None}], "
              f"--compare {c['value'] / 1000:.3f} [{c['lo'] / 1000:.3f}, {c['hi'] / 1000:.3f}]")
    xs = dict(zip(hosts, (x for x, _ in pts)))
    rest = sorted(v for h, v in xs.items() if h != "h3")
    check(max(xs, key=xs.get) == "h3" and xs["h3"] > 5 * rest[-1],
          "fleet: h3, its variant made 3 times slower, stands out far right", xs)
    pooled = json.loads(run(*ins, "--compare", "var", "--base", "base", "--unit", "host",
                            "--resamples", "2000", "--json").stdout)["metrics"][0]["diff"]["median"]
    fp = f.find("the fleet")
    ends = [x for path in fp["paths"] for x, y in path]
    check(len(fp["points"]) == 1 and abs(fp["points"][0][0] - pooled["value"] / 1000) < 0.004 * span
          and abs(min(ends) - pooled["lo"] / 1000) < 0.004 * span
          and abs(max(ends) - pooled["hi"] / 1000) < 0.004 * span
          and fp["points"][0][1] < min(y for _, y in pts),
          "fleet: the fleet's row, below the hosts, is --compare --unit host's",
          (fp["points"], ends, pooled))
    zero = [v for a, v, lb in f.marks if a == "x" and lb == "no difference"]
    check(len(zero) == 1 and abs(zero[0]) < 0.003 * span, "fleet: the zero line", f.marks)
    # The page of the fleet: its figure beside the others, in Chromium,
    # a row per host with h3 far right in the data the browser reads.
    page = os.path.join(d, "fleet.html")
    p = run(*ins, "--compare", "var", "--base", "base", "--resamples", "2000", "--html", page)
    check(p.returncode == 0 and not p.stderr, "--html of a fleet", p.stderr)
    b = subprocess.run([sys.executable, os.path.join(TOP, "tools", "tests", "page_check.py"), page,
                        "--expect-figure", "fig-fleet", "--json-data", "data-fleet"],
                       capture_output=True, text=True)
    data = [json.loads(x) for x in b.stdout.splitlines() if x.strip()]
    rows = [q for x in (data[0]["series"] if data else []) if x["title"].startswith("each host")
            for q in x["points"]]
    # Rows top down in the input's order: h3 is the third.
    check(b.returncode == 0 and len(rows) == len(hosts) and
          sorted(rows, key=lambda q: -q["y"])[hosts.index("h3")]["x"] == max(q["x"] for q in rows),
          "--html: the fleet's figure in the page, rendered in Chromium, h3's row the far right one",
          b.stderr[-400:] + str(rows))
    out = os.path.join(d, "one.svg")
    one_line_no_file(run("plot", "-i", paths[0], "--compare", "var", "--base", "base", "--kind",
                         "fleet", "--resamples", "200", "-o", out), out, 1,
                     "fleet of one host", "at least two hosts")


def main():
    d = tempfile.mkdtemp(prefix="plot-events-check-")
    rng = np.random.default_rng(20261202)
    try:
        xcorr_lagged(d, rng, 5, "follows")
        xcorr_lagged(d, rng, -3, "leads")
        heatmap(d, rng)
        fleet(d)
    finally:
        shutil.rmtree(d)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

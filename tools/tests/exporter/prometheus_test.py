#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The exporter against a real Prometheus server (Debian's prometheus
package, unpacked by tools/install-deps.sh), on the loopback address.

Two exporters: clkstat-report serve in a QEMU guest on Debian's 6.12 (the
live module; QEMU's user network forwards a host port to it;
tools/tests/guest/suite_prometheus.sh runs there: two recorded workload
runs with a reset between them), and on the host clkstat-report serve
--replay-interval replaying a recorded snapshot, which grows a run at a
time and starts over twice (a reset each time).  Prometheus scrapes the
guest every second and the replay every 500 ms for the whole time.  The
guest goes on from each state only once Prometheus has stored it (zeros
first, each run's final counts, the zeros of the reset between them):
this side writes ack-PHASE into the results folder the guest shares, for
the guest to poll.  Then, through Prometheus's HTTP API:

- histogram_quantile(q, sum by (le) (increase(..._bucket[window]))), the
  query a user writes for a fleet, against clkstat-report's own quantile
  of the window's samples pooled (the guest's two runs from their
  snapshots, the replay's runs as often as it served them): within one
  slot of the grid, for q = 0.5, 0.9, 0.99;
- the buckets Prometheus stored last for each exporter, exactly those of
  the snapshot each was serving then;
- Prometheus saw the resets (resets() over the window);
- promtool check metrics on the guest's text format, the strict
  OpenMetrics parser on its OpenMetrics (fetched through the forward).

Prints ok / not ok lines and "N passed, N failed"; exit 1 on failure.
usage: prometheus_test.py [TOP]
"""
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import serve_test as st  # noqa: E402  (check(), samples(), get(), ...)

TOP = st.TOP
CACHE = st.CACHE
PROMETHEUS = os.environ.get("PROMETHEUS",
                            os.path.join(CACHE, "prometheus/usr/bin/prometheus"))
KLINE = os.environ.get("CLKSTAT_PROM_KVER", "6.12")
REPLAY_INTERVAL = 2.0		# s per replayed run
REPLAY_RUNS = 4
ACK_WAIT = 300			# s: how long a guest state may take to be stored
QS = (0.5, 0.9, 0.99)
METRIC = "ttwu_enqueue"


def prom_query(port, expr, at):
    url = "http://127.0.0.1:%d/api/v1/query?%s" % (
        port, urllib.parse.urlencode({"query": expr, "time": "%.3f" % at}))
    with urllib.request.urlopen(url, timeout=30) as r:
        doc = json.load(r)
    if doc.get("status") != "success":
        raise RuntimeError("%s: %s" % (expr, doc))
    return doc["data"]["result"]


def wait_for(pred, timeout, step=0.5):
    end = time.time() + timeout
    while time.time() < end:
        if pred():
            return True
        time.sleep(step)
    return False


def cr_json(paths):
    """clkstat-report's own statistics of METRIC, the files' runs pooled."""
    args = [st.TOOL]
    for p in paths:
        args += ["-i", p]
    r = subprocess.run(args + ["--json", "--metric", METRIC + ".direct"],
                       capture_output=True, text=True, check=True)
    doc = json.loads(r.stdout)
    return next(m for m in doc["metrics"] if m["cpu"] == "all")


def grid_width(v_ns, bits=2):
    """The width in ns of the default grid's slot holding v_ns."""
    v = int(v_ns)
    if v < (1 << bits):
        return 1
    m = v.bit_length() - 1
    return 1 << (m - bits)


def oneshot_buckets(paths):
    args = [st.TOOL]
    for p in paths:
        args += ["-i", p]
    out = subprocess.run(args + ["--format", "openmetrics"], capture_output=True,
                         text=True, check=True).stdout
    return {float(le) if le != "+Inf" else float("inf"): v
            for le, v in st.buckets(out, metric=METRIC).items()}


def replay_window(fixture, cycles, out):
    """The replayed runs as served: every run, cycles times (start_ns moved
    on so that clkstat-report takes the copies for the different runs
    they were)."""
    with open(fixture) as f:
        doc = json.load(f)
    runs = []
    for c in range(cycles):
        for r in doc["runs"]:
            r = json.loads(json.dumps(r))
            r["start_ns"] += c * 10**12
            r["end_ns"] += c * 10**12
            r["index"] = len(runs)
            runs.append(r)
    doc["runs"] = runs
    with open(out, "w") as f:
        json.dump(doc, f)


def main():
    for tool in (st.TOOL, st.PROMTOOL, PROMETHEUS):
        if not os.access(tool, os.X_OK):
            st.check(False, "missing: " + tool)
            print("%d passed, %d failed" % (st.passed, st.failed))
            return 1
    tmp = tempfile.mkdtemp(prefix="clkstat-prom-")
    procs = []
    try:
        return run(tmp, procs)
    finally:
        for p in procs:
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
                try:
                    p.wait(30)
                except subprocess.TimeoutExpired:
                    p.kill()
        shutil.rmtree(tmp, ignore_errors=True)


def run(tmp, procs):
    guest_port, replay_port, prom_port = (st.free_port() for _ in range(3))
    fixture = os.path.join(tmp, "replay.json")
    subprocess.run([sys.executable, st.FIXTURE, fixture, "replayhost", "7",
                    str(REPLAY_RUNS)], check=True)
    # The guest (TCG, through QEMU's user network) is given a second to
    # answer: a slow scrape then only makes an ack later.  The replay on
    # this host every 500 ms, so that each of its steps is scraped
    # several times.
    with open(os.path.join(tmp, "prometheus.yml"), "w") as f:
        f.write("""global:
  scrape_interval: 500ms
  scrape_timeout: 450ms
scrape_configs:
  - job_name: guest
    scrape_interval: 1s
    scrape_timeout: 900ms
    static_configs: [{targets: ['127.0.0.1:%d']}]
  - job_name: replay
    static_configs: [{targets: ['127.0.0.1:%d']}]
""" % (guest_port, replay_port))
    prom_log = open(os.path.join(tmp, "prometheus.log"), "w")
    t0 = time.time()
    prom = subprocess.Popen([PROMETHEUS, "--config.file=" + os.path.join(tmp, "prometheus.yml"),
                             "--storage.tsdb.path=" + os.path.join(tmp, "data"),
                             "--web.listen-address=127.0.0.1:%d" % prom_port],
                            stdout=prom_log, stderr=subprocess.STDOUT)
    procs.append(prom)

    def ready():
        try:
            return urllib.request.urlopen("http://127.0.0.1:%d/-/ready" % prom_port,
                                          timeout=2).status == 200
        except OSError:
            return False
    if not st.check(wait_for(ready, 60), "Prometheus starts on 127.0.0.1:%d" % prom_port):
        return 1

    # The guest: its exporter's port forwarded to guest_port.
    out_dir = os.path.join(TOP, "build", KLINE, "guest-suite_prometheus")
    shutil.rmtree(out_dir, ignore_errors=True)
    env = dict(os.environ)
    env["CLKSTAT_QEMU_ARGS"] = (env.get("CLKSTAT_QEMU_ARGS", "") +
                                " -netdev user,id=n0,hostfwd=tcp:127.0.0.1:%d-10.0.2.15:9736"
                                " -device virtio-net-pci,netdev=n0" % guest_port).strip()
    guest_log = open(os.path.join(tmp, "guest.log"), "w")
    guest = subprocess.Popen([os.path.join(TOP, "tools/tests/guest.sh"), "--kver", KLINE,
                              "--suite", "suite_prometheus.sh"], cwd=TOP, env=env,
                             stdout=guest_log, stderr=subprocess.STDOUT)
    procs.append(guest)
    phase = os.path.join(out_dir, "phase")

    def phase_now():
        try:
            with open(phase) as f:
                return f.read().strip()
        except OSError:
            return None

    def phase_is(p):
        return phase_now() == p

    # The guest's states that Prometheus must have stored before the
    # guest goes on (its count, summed over the guest's series): zeros
    # while it only serves, each run's final counts (its snapshot's), the
    # zeros of the reset between them, so that the reset is seen however
    # the scrapes fall.  The guest polls for ack-PHASE; one not stored
    # within ACK_WAIT fails here, and is acked all the same for the guest
    # to finish.
    wants, seen_at, acked = {}, {}, set()

    def stored_count():
        try:
            res = prom_query(prom_port, 'sum(clkstat_latency_seconds_count'
                             '{job="guest",metric="%s"})' % METRIC, time.time())
        except (OSError, RuntimeError, ValueError):
            return None
        return float(res[0]["value"][1]) if res else None

    def ack_guest():
        p = phase_now()
        if p not in ("serving", "run1", "reset", "run2") or p in acked:
            return
        seen_at.setdefault(p, time.time())
        if p not in wants:
            snap = {"run1": "s1.db", "run2": "s2.db"}.get(p)
            wants[p] = oneshot_buckets([os.path.join(out_dir, snap)])[
                float("inf")] if snap else 0.0
        got = stored_count()
        if got != wants[p]:
            if time.time() - seen_at[p] < ACK_WAIT:
                return
            st.check(False, "Prometheus stored the guest's %s state "
                     "(count %s) within %d s: last stored %s"
                     % (p, wants[p], ACK_WAIT, got))
        with open(os.path.join(out_dir, "ack-" + p), "w"):
            pass
        acked.add(p)

    # The replay, started when the guest serves, so that both are
    # scraped under the workload together; two cycles, then stopped in
    # the middle of the second "every run" step.
    if not st.check(wait_for(lambda: phase_is("serving") or guest.poll() is not None, 600),
                    "the guest serves on its network interface"):
        return finish(guest, guest_log, 1)
    replay = st.Server(["-i", fixture, "--replay-interval", str(REPLAY_INTERVAL),
                        "--host", "replayhost"], port=replay_port)
    procs.append(replay.p)
    t_replay = time.time()
    replay.wait_up()
    # Cycle c shows every run in [(c*(R+1)+R)*I, (c*(R+1)+R+1)*I) after its
    # start.  The replay is stopped once Prometheus has stored a scrape of
    # the second cycle's "every run" step (its count the snapshot's whole),
    # not at a time reckoned from t_replay: under load the replay's own
    # start comes later, and the step lasts one interval (make check lost
    # it so once).
    full = oneshot_buckets([fixture])[float("inf")]
    second = t_replay + (2 * REPLAY_RUNS + 0.5) * REPLAY_INTERVAL
    give_up = t_replay + (2 * REPLAY_RUNS + 4) * REPLAY_INTERVAL

    def replay_whole(at):
        res = prom_query(prom_port, 'clkstat_latency_seconds_count'
                         '{metric="%s",host="replayhost"}' % METRIC, at)
        return bool(res) and float(res[0]["value"][1]) == full

    fetched = False
    while replay.p.poll() is None or not fetched or guest.poll() is None:
        now = time.time()
        if replay.p.poll() is None and (
                now >= give_up or (now >= second and replay_whole(now))):
            replay.stop()
        if not fetched and (phase_is("run1") or guest.poll() is not None):
            check_exposition(guest_port)
            fetched = True
        ack_guest()
        time.sleep(0.2)
    replay.stop()
    rc = guest.wait(1800)
    finish(guest, guest_log, rc)
    if not st.check(rc == 0 and phase_is("done"), "the guest ran its two workload runs (exit %s)" % rc):
        return 1
    t_end = time.time() + 1
    time.sleep(1.5)
    window = int(t_end - t0) + 5
    s1, s2 = (os.path.join(out_dir, n) for n in ("s1.db", "s2.db"))
    rw = os.path.join(tmp, "replay-window.json")
    replay_window(fixture, 2, rw)

    # The fleet's quantiles through Prometheus against clkstat-report's.
    ref = cr_json([s1, s2, rw])
    names = {0.5: "p50", 0.9: "p90", 0.99: "p99"}
    for q in QS:
        expr = ('histogram_quantile(%g, sum by (le) (increase(clkstat_latency_seconds_bucket'
                '{metric="%s",variant="direct"}[%ds])))' % (q, METRIC, window))
        res = prom_query(prom_port, expr, t_end)
        got = float(res[0]["value"][1]) * 1e9 if res else float("nan")
        want = float(ref[names[q]])
        w = grid_width(want)
        st.check(abs(got - want) <= w,
                 "q=%g over both exporters: Prometheus %.0f ns, clkstat-report %.0f ns "
                 "(one slot: %d ns)" % (q, got, want, w), expr)

    # The last buckets stored for each exporter: exactly what it served.
    for host, paths in (("guest1", [s2]), ("replayhost", [fixture])):
        res = prom_query(prom_port, 'last_over_time(clkstat_latency_seconds_bucket'
                         '{metric="%s",host="%s"}[%ds])' % (METRIC, host, window), t_end)
        got = {float(r["metric"]["le"]): float(r["value"][1]) for r in res}
        want = oneshot_buckets(paths)
        st.check(got == want and len(want) > 100,
                 "%s: the last buckets Prometheus stored are the snapshot's, all %d"
                 % (host, len(want)),
                 "differ at %s" % sorted(k for k in want if got.get(k) != want[k])[:5])
    for job, want in (("guest", 1), ("replay", 1)):
        res = prom_query(prom_port, 'max(resets(clkstat_latency_seconds_count'
                         '{job="%s",metric="%s"}[%ds]))' % (job, METRIC, window), t_end)
        n = float(res[0]["value"][1]) if res else 0
        st.check(n >= want, "%s: Prometheus saw %d counter reset(s) of the histogram"
                 % (job, n))
    res = prom_query(prom_port, 'increase(clkstat_resets_total{job="guest",metric="%s"}[%ds])'
                     % (METRIC, window), t_end)
    st.check(res and float(res[0]["value"][1]) > 0, "guest: clkstat_resets_total grew")
    return 0 if st.failed == 0 else 1


def check_exposition(port):
    """The guest's exposition through the forward, to the strict readers."""
    url = "http://127.0.0.1:%d/metrics" % port
    code, hd, om = st.get(url, st.OM_ACCEPT, timeout=30)
    try:
        fams = {f.name for f in st.om_parse(om)}
        ok = code == 200 and "clkstat_latency_seconds" in fams
    except Exception as e:  # noqa: BLE001 - the parser's complaint is the diagnostic
        ok, fams = False, e
    st.check(ok, "the guest's OpenMetrics, through the forward: the strict "
             "parser reads it", fams)
    code, hd, txt = st.get(url, timeout=30)
    ok, out = st.promtool_ok(txt) if code == 200 else (False, code)
    st.check(ok, "the guest's text format: promtool check metrics accepts it", out)


def finish(guest, log, rc):
    log.flush()
    with open(log.name) as f:
        for line in f:
            if line.startswith(("ok", "not ok", "    ")):
                print("#   guest: " + line.rstrip())
    return rc


if __name__ == "__main__":
    rc = main()
    print("%d passed, %d failed" % (st.passed, st.failed))
    sys.exit(1 if st.failed else rc)

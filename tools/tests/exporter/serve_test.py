#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""clkstat-report serve on the host, from outside: what it answers, how it
holds up, and how it refuses.  The metrics come from replayed snapshots
(fixture.py) or from a module that is not loaded (this host cannot load
it; tools/tests/guest/suite_exporter.sh serves a live module in a guest).

- content negotiation: OpenMetrics for Prometheus's Accept header (q
  values weighed: refused with q=0, below text/plain, case-insensitive,
  over several Accept headers), the text format otherwise; each read by
  its strict reader (prometheus_client's OpenMetrics parser, promtool
  check metrics); HEAD, 404, 405;
- the fixed grid: every histogram series has the same le bounds, and the
  buckets of two hosts summed by le are those of their runs pooled by
  clkstat-report itself; the served buckets are the one-shot output's;
- replay: one run more per interval, then a reset with a new _created;
- 1000 concurrent scrapes all answered, twice, with the exporter's memory
  (VmRSS, VmHWM) printed and within the connection limit's bound, and
  none kept per scrape (500 one at a time); slow clients (stalled requests,
  unread responses) do not stop others, and idle ones are closed;
- malformed requests get a 4xx and the exporter lives on; bad input (a
  port in use, an address that cannot be bound, malformed --listen: a
  signed or spaced port, [::1] without one; --grid, missing
  --listen/--textfile): one line, exit status; the address bound said
  (:0's port), every address on IPv4 alone where IPv6 is missing;
  no module: 503 with the reason, said once on stderr;
- the textfile mode: atomic (a reader never sees a partial file), valid
  for promtool, removed while the module is missing;
- valgrind: a session of scrapes and bad requests, then SIGTERM, clean.
usage: serve_test.py [TOP]; ok / not ok lines, "N passed, N failed", exit
1 on failure.  In detail: Documentation/clkstat-prometheus.rst, "Tests".
"""
import asyncio
import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

TOP = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                      os.path.join(os.path.dirname(__file__), "..", "..", ".."))
TOOL = os.path.join(TOP, "tools", "clkstat-report")
FIXTURE = os.path.join(TOP, "tools", "tests", "exporter", "fixture.py")
CACHE = os.environ.get("CLKSTAT_CACHE", "/var/cache/clkstat")
PROMTOOL = os.environ.get("PROMTOOL",
                          os.path.join(CACHE, "prometheus/usr/bin/promtool"))
OM_ACCEPT = ("application/openmetrics-text;version=1.0.0,"
             "application/openmetrics-text;version=0.0.1;q=0.75,"
             "text/plain;version=0.0.4;q=0.5,*/*;q=0.1")

passed = failed = 0


def check(ok, what, diag=None):
    global passed, failed
    if ok:
        passed += 1
        print("ok - " + what)
    else:
        failed += 1
        print("not ok - " + what)
        if diag:
            for line in str(diag).splitlines()[:5]:
                print("#   " + line)
    return ok


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


class Server:
    """clkstat-report serve ARGS, stderr kept, stopped by SIGTERM."""

    def __init__(self, args, port=None, wrap=(), env=None):
        self.port = port or free_port()
        self.err = tempfile.TemporaryFile()
        self.args = list(wrap) + [TOOL, "serve"] + args
        if "--listen" not in args and "--textfile" not in args:
            self.args += ["--listen", "127.0.0.1:%d" % self.port]
        self.p = subprocess.Popen(self.args, stdout=subprocess.DEVNULL,
                                  stderr=self.err,
                                  env=dict(os.environ, **(env or {})))
        self.url = "http://127.0.0.1:%d" % self.port

    def wait_up(self, timeout=30):
        end = time.time() + timeout
        while time.time() < end:
            if self.p.poll() is not None:
                return False
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.2).close()
                return True
            except OSError:
                time.sleep(0.05)
        return False

    def stop(self, timeout=60):
        if self.p.poll() is None:
            self.p.send_signal(signal.SIGTERM)
        try:
            return self.p.wait(timeout)
        except subprocess.TimeoutExpired:
            self.p.kill()
            return None

    def stderr(self):
        self.err.seek(0)
        return self.err.read().decode(errors="replace")

    def mem(self):
        """VmRSS and VmHWM in kB."""
        out = {}
        with open("/proc/%d/status" % self.p.pid) as f:
            for line in f:
                k, _, v = line.partition(":")
                if k in ("VmRSS", "VmHWM"):
                    out[k] = int(v.split()[0])
        return out

    def cpu(self):
        """CPU seconds used so far (user and system, every thread)."""
        with open("/proc/%d/stat" % self.p.pid) as f:
            fields = f.read().rpartition(")")[2].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def get(url, accept=None, method="GET", timeout=10):
    req = urllib.request.Request(url, method=method)
    if accept:
        req.add_header("Accept", accept)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, dict(r.headers), r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read().decode()


def content_type(port, accepts):
    """The status and Content-Type of /metrics asked with these Accept
    headers (none, one, or several)."""
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        c.putrequest("GET", "/metrics", skip_accept_encoding=True)
        for a in accepts:
            c.putheader("Accept", a)
        c.endheaders()
        r = c.getresponse()
        r.read()
        return r.status, r.getheader("Content-Type", "")
    finally:
        c.close()


OM, TEXT = "application/openmetrics-text", "text/plain"
NEGOTIATION = [
    ("Prometheus 2's default", [OM_ACCEPT], OM),
    ("Prometheus 3's default",
     ["application/openmetrics-text;version=1.0.0;escaping=allow-utf-8;q=0.6,"
      "application/openmetrics-text;version=0.0.1;q=0.5,"
      "text/plain;version=1.0.0;escaping=allow-utf-8;q=0.4,"
      "text/plain;version=0.0.4;q=0.3,*/*;q=0.2"], OM),
    ("the text format first (scrape_protocols)",
     ["text/plain;version=0.0.4,application/openmetrics-text;version=1.0.0;q=0.5"],
     TEXT),
    ("OpenMetrics refused with q=0",
     ["application/openmetrics-text;version=1.0.0;q=0,*/*;q=0.1"], TEXT),
    ("OpenMetrics alone with q=0", ["application/openmetrics-text; q=0"], TEXT),
    ("upper-case type and parameters",
     ["APPLICATION/OpenMetrics-Text; Version=1.0.0; Q=0.9, text/plain; q=0.5"], OM),
    ("equal q",
     ["text/plain;q=0.5 , application/openmetrics-text;q=0.500"], OM),
    ("below a text wildcard", ["text/*;q=0.9, application/openmetrics-text;q=0.8"],
     TEXT),
    ("a quoted parameter holding , and ;",
     ['application/openmetrics-text;x="a,b;q=0";q=0.8, text/plain;q=0.5'], OM),
    ("a malformed q is no q", ["application/openmetrics-text;q=2, text/plain;q=0.1"],
     TEXT),
    ("over two Accept headers", ["text/plain;q=0.3", "application/openmetrics-text"],
     OM),
    ("a substring is not the type", ["application/openmetrics-text-foo"], TEXT),
    ("neither acceptable (application/json)", ["application/json"], TEXT),
    ("a wildcard alone (curl)", ["*/*"], TEXT),
    ("no Accept header", [], TEXT),
]


def om_parse(text):
    from prometheus_client.openmetrics.parser import \
        text_string_to_metric_families
    return list(text_string_to_metric_families(text))


def promtool_ok(text):
    r = subprocess.run([PROMTOOL, "check", "metrics"], input=text.encode(),
                       capture_output=True)
    return r.returncode == 0 and not r.stdout.strip() and not r.stderr.strip(), \
        (r.stdout + r.stderr).decode()


LINE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)\{(.*)\} (\S+)$')
LABEL = re.compile(r'([a-zA-Z_]+)="((?:[^"\\]|\\.)*)"')


def samples(text):
    """[(name, {labels}, value)] of an exposition's samples."""
    out = []
    for line in text.splitlines():
        m = LINE.match(line)
        if m:
            out.append((m.group(1), dict(LABEL.findall(m.group(2))),
                        float(m.group(3))))
    return out


def buckets(text, family="clkstat_latency_seconds", metric="ttwu_enqueue"):
    """{le: count} of one metric's all-CPU series (one series expected)."""
    return {lab["le"]: v for n, lab, v in samples(text)
            if n == family + "_bucket" and lab.get("metric") == metric}


def series_bounds(text):
    """{series labels without le: [le, ...]} of every histogram series."""
    out = {}
    for n, lab, v in samples(text):
        if not n.endswith("_bucket"):
            continue
        key = (n,) + tuple(sorted((k, x) for k, x in lab.items() if k != "le"))
        out.setdefault(key, []).append((lab["le"], v))
    return out


def fixtures(tmp):
    paths = {}
    for host, seed, off in (("hosta", 1, 0), ("hostb", 2, 15000)):
        p = os.path.join(tmp, host + ".json")
        subprocess.run([sys.executable, FIXTURE, p, host, str(seed), "6",
                        str(off)], check=True)
        paths[host] = p
    return paths


def oneshot(args):
    return subprocess.run([TOOL] + args, capture_output=True, text=True)


def test_formats(fx):
    s = Server(["-i", fx["hosta"], "--per-cpu"])
    if not check(s.wait_up(), "serve -i starts and listens", s.stderr()):
        s.stop()
        return
    st, hd, om = get(s.url + "/metrics", OM_ACCEPT)
    check(st == 200 and hd.get("Content-Type", "").startswith(
        "application/openmetrics-text; version=1.0.0"),
        "Prometheus's Accept header gets OpenMetrics 1.0",
        "%s %s" % (st, hd.get("Content-Type")))
    try:
        fams = {f.name: f.type for f in om_parse(om)}
        check(fams.get("clkstat_latency_seconds") == "histogram" and
              fams.get("clkstat_cpu_latency_seconds") == "histogram" and
              fams.get("clkstat_events") == "counter" and
              fams.get("clkstat_resets") == "counter",
              "the OpenMetrics parser reads it: histograms, per-CPU family, "
              "counters (%s)" % ", ".join("%s:%s" % kv for kv in sorted(fams.items())))
    except Exception as e:  # noqa: BLE001 - the parser's complaint is the diagnostic
        check(False, "the OpenMetrics parser reads it", e)
    check("clkstat_latency_seconds_created{" in om and
          'clkstat_events_created{' in om,
          "OpenMetrics has _created for histograms and counters")
    st, hd, txt = get(s.url + "/metrics")
    check(st == 200 and hd.get("Content-Type", "").startswith(
        "text/plain; version=0.0.4"),
        "no Accept header gets the Prometheus text format",
        "%s %s" % (st, hd.get("Content-Type")))
    ok, out = promtool_ok(txt)
    check(ok, "promtool check metrics accepts the text format, lint included", out)
    check("_created" not in txt and "# EOF" not in txt and
          "# TYPE clkstat_events_total counter" in txt,
          "the text format: no _created, no # EOF, counters typed as counters")
    # The served buckets are the one-shot exposition's.
    one = oneshot(["-i", fx["hosta"], "--format", "openmetrics", "--per-cpu"])
    check(one.returncode == 0 and series_bounds(one.stdout) == series_bounds(om),
          "served buckets equal clkstat-report --format openmetrics's")
    # The grid: the same bounds for every series, cumulative counts.
    bounds = series_bounds(om)
    lists = {tuple(le for le, _ in v) for v in bounds.values()}
    mono = all(all(a[1] <= b[1] for a, b in zip(v, v[1:])) for v in bounds.values())
    check(len(lists) == 1 and len(bounds) == 6 and mono,
          "every histogram series has the same %d le bounds and +Inf, counts "
          "cumulative" % (len(next(iter(lists))) - 1 if lists else 0),
          "%d series, %d bound lists" % (len(bounds), len(lists)))
    for what, accepts, want in NEGOTIATION:
        st, ct = content_type(s.port, accepts)
        check(st == 200 and ct.startswith(want),
              "Accept, %s: %s" % (what, "OpenMetrics" if want == OM else "text"),
              "%s %s; sent %s" % (st, ct, accepts))
    st, hd, body = get(s.url + "/metrics", method="HEAD")
    check(st == 200 and body == "", "HEAD: 200 without a body")
    check(get(s.url + "/nope")[0] == 404, "an unknown path: 404")
    r = urllib.request.Request(s.url + "/metrics", data=b"x=1", method="POST")
    try:
        urllib.request.urlopen(r, timeout=10)
        code = 200
    except urllib.error.HTTPError as e:
        code = e.code
    check(code == 405, "POST: 405", code)
    check(get(s.url + "/")[0] == 200, "/ points at /metrics")
    check(s.stop() == 0, "SIGTERM: exit status 0")


def test_fleet_sum(fx):
    """Two hosts' series summed by le equal their runs pooled."""
    a = Server(["-i", fx["hosta"]])
    b = Server(["-i", fx["hostb"]])
    if not (a.wait_up() and b.wait_up()):
        check(False, "two exporters start", a.stderr() + b.stderr())
        a.stop(), b.stop()
        return
    ta = get(a.url + "/metrics", OM_ACCEPT)[2]
    tb = get(b.url + "/metrics", OM_ACCEPT)[2]
    a.stop(), b.stop()
    pooled = oneshot(["-i", fx["hosta"], "-i", fx["hostb"], "--format",
                      "openmetrics"]).stdout
    for metric in ("ttwu_enqueue", "tkread"):
        ba, bb, bp = (buckets(t, metric=metric) for t in (ta, tb, pooled))
        summed = {le: ba[le] + bb.get(le, -1) for le in ba}
        check(set(ba) == set(bb) == set(bp) and summed == bp and
              len(bp) > 100,
              "%s: sum by (le) of two hosts = the pooled runs' buckets, "
              "all %d bounds" % (metric, len(bp)))
    hosts = {lab.get("host") for _, lab, _ in samples(ta + tb)}
    check(hosts == {"hosta", "hostb"}, "host labels from the snapshots' tag")


def test_replay_interval(fx):
    """One run more a second, then over again.  Scraped until the full
    count and a reset have both been seen, however many cycles that
    takes: a scrape slowed past a step's second (a loaded machine) misses
    the step this cycle, not for good.  What is seen in between must be
    whole steps that only grow within a cycle, and a new cycle a reset."""
    s = Server(["-i", fx["hosta"], "--replay-interval", "1", "--cache-ms", "0"])
    if not check(s.wait_up(), "serve --replay-interval starts", s.stderr()):
        s.stop()
        return
    want = ("clkstat_latency_seconds_count", "clkstat_latency_seconds_created",
            "clkstat_resets_total")
    seen = []                   # (count, _created, resets_total) per scrape
    full = reset = False
    end = time.time() + 60
    while time.time() < end and not (full and reset):
        try:
            t = get(s.url + "/metrics", OM_ACCEPT)[2]
        except OSError:
            break
        v = {n: x for n, lab, x in samples(t)
             if n in want and lab["metric"] == "ttwu_enqueue"}
        if len(v) == len(want):
            seen.append(tuple(v[n] for n in want))
        full = full or any(c == 12000.0 for c, _, _ in seen)
        reset = reset or any(b[1] > a[1] and b[2] == a[2] + 1
                             for a, b in zip(seen, seen[1:]))
        time.sleep(0.1)
    s.stop()
    steps = [0.0, 2000.0, 4000.0, 6000.0, 8000.0, 10000.0, 12000.0]
    counts = [c for c, _, _ in seen]
    shrank = [(a, b) for a, b in zip(seen, seen[1:])
              if a[1] == b[1] and b[0] < a[0]]
    check(full and all(c in steps for c in counts) and not shrank,
          "replay: counts grow a run at a time to all 12000, then start over",
          "counts %s; shrank within a cycle: %s"
          % (sorted(set(counts)), shrank[:2]))
    # A new cycle is a reset, and only a new cycle: _created moves
    # forward exactly when resets_total goes up (by one, seen at least
    # once: by more only if a scrape took a whole cycle).
    odd = [(a, b) for a, b in zip(seen, seen[1:])
           if (a[1] != b[1] or a[2] != b[2]) and
           not (b[1] > a[1] and b[2] > a[2])]
    check(reset and not odd,
          "replay: starting over is a reset: new _created, resets_total + 1",
          "%d scrapes, %d cycles; inconsistent: %s"
          % (len(seen), len({x[1] for x in seen}), odd[:2]))


async def scrape(port, results):
    try:
        r, w = await asyncio.open_connection("127.0.0.1", port)
        w.write(b"GET /metrics HTTP/1.1\r\nHost: x\r\nAccept: " +
                OM_ACCEPT.encode() + b"\r\nConnection: close\r\n\r\n")
        await w.drain()
        data = await r.read()
        w.close()
        head, _, body = data.partition(b"\r\n\r\n")
        status = int(head.split(b" ")[1]) if head else 0
        results.append((status, len(body), body.endswith(b"# EOF\n")))
    except OSError as e:
        results.append((0, 0, str(e)))


async def storm(port, n):
    results = []
    await asyncio.gather(*(scrape(port, results) for _ in range(n)))
    return results


def test_storm(fx):
    s = Server(["-i", fx["hosta"], "--per-cpu", "--max-connections", "256"])
    if not check(s.wait_up(), "serve starts for the storm", s.stderr()):
        s.stop()
        return
    get(s.url + "/metrics", OM_ACCEPT)
    base = s.mem()
    figures = []
    for round_ in (1, 2):
        t0 = time.time()
        res = asyncio.run(storm(s.port, 1000))
        dt = time.time() - t0
        good = [r for r in res if r[0] == 200 and r[2] is True]
        lens = {r[1] for r in good}
        m = s.mem()
        figures.append(m)
        check(len(good) == 1000 and len(lens) == 1,
              "1000 concurrent scrapes, round %d: all 200 and whole, in %.1f s "
              "(VmRSS %d kB, VmHWM %d kB; before %d kB)"
              % (round_, dt, m["VmRSS"], m["VmHWM"], base["VmRSS"]),
              "%d good; statuses %s" % (len(good), sorted({r[0] for r in res})))
    # Memory, by what holds however the scrapes overlap (how many are
    # open at once depends on the machine's speed and load): the peak
    # stays within what the connection limit allows, every connection
    # the library may hold (2 * 256 + 16, serve_http.c) with its
    # memory pool (libmicrohttpd's default, 32 kB), a few bodies (shared
    # by the scrapes of one cache period) and 8 MB for the threads and
    # the allocator's arenas.
    body = max(lens) if lens else 0
    bound = base["VmRSS"] + (2 * 256 + 16) * 32 + 4 * body // 1024 + 8192
    check(max(f["VmHWM"] for f in figures) <= bound,
          "memory within the connection limit's bound: peak %d then %d kB "
          "(at most %d kB: base %d kB, a body %d kB)"
          % (figures[0]["VmHWM"], figures[1]["VmHWM"], bound,
             base["VmRSS"], body // 1024))
    # And nothing kept per scrape: one at a time, so without overlap,
    # 500 scrapes after 100 add no more than 256 kB (a leak of 1 kB a
    # scrape would add 500).
    def sequential(n):
        for _ in range(n):
            get(s.url + "/metrics", OM_ACCEPT)
        return s.mem()["VmRSS"]
    r0 = sequential(100)
    r1 = sequential(500)
    check(r1 <= r0 + 256,
          "memory holds: 500 scrapes one at a time add %d kB (resident "
          "%d then %d kB)" % (r1 - r0, r0, r1))
    check(s.p.poll() is None and get(s.url + "/metrics")[0] == 200,
          "alive and answering after the storms")
    s.stop()


def stall(port, stalled, midline):
    """Requests begun and never finished: stalled after a header line,
    midline within the request line."""
    out = []
    for _ in range(stalled):
        c = socket.create_connection(("127.0.0.1", port))
        c.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")
        out.append(c)
    mid = []
    for _ in range(midline):
        c = socket.create_connection(("127.0.0.1", port))
        c.sendall(b"GET /metr")
        mid.append(c)
    return out, mid


def still_open(conns):
    """How many of conns the server has neither answered nor closed."""
    n = 0
    for c in conns:
        c.setblocking(False)
        try:
            c.recv(1)
        except BlockingIOError:
            n += 1
        except OSError:
            pass
    return n


def test_slow(fx):
    """Slow clients on one exporter with --timeout 300, so that a scrape
    held up behind them (head-of-line blocking) would wait minutes, far
    beyond the 20 s allowed, however slow this machine; the closing of
    idle ones on another with --timeout 3, waited for as long as need be
    (60 s), and the first's still open then: --timeout is each one's."""
    s = Server(["-i", fx["hosta"], "--per-cpu", "--timeout", "300",
                "--max-connections", "256"])
    q = Server(["-i", fx["hosta"], "--timeout", "3"])
    if not check(s.wait_up() and q.wait_up(), "serve starts for slow clients",
                 s.stderr() + q.stderr()):
        s.stop(), q.stop()
        return
    base = s.mem()
    stalled, midline = stall(s.port, 100, 50)
    unread = []
    for _ in range(80):  # a whole request whose answer is never read
        c = socket.socket()
        c.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        c.connect(("127.0.0.1", s.port))
        c.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\nAccept: " +
                  OM_ACCEPT.encode() + b"\r\n\r\n")
        unread.append(c)
    worst = 0
    for _ in range(20):
        t0 = time.time()
        try:
            st = get(s.url + "/metrics", OM_ACCEPT, timeout=60)[0]
        except OSError:
            st = None
        worst = max(worst, time.time() - t0)
        if st != 200:
            worst = 999
    m = s.mem()
    check(worst < 20, "with 150 stalled requests (50 within the request "
          "line) and 80 unread answers, 20 "
          "scrapes answered, the slowest in %.2f s (VmRSS %d kB, base %d)"
          % (worst, m["VmRSS"], base["VmRSS"]))
    check(m["VmRSS"] < base["VmRSS"] + 65536,
          "slow clients hold %d kB more, no more than 64 MB"
          % (m["VmRSS"] - base["VmRSS"]))
    # The short --timeout's stalled requests, begun after the long one's
    # (whose would then be closed first if the two timeouts were one).
    qstalled, qmidline = stall(q.port, 100, 50)
    # Waiting out the timeout costs nothing: a half-sent line is peeked,
    # not read, and must not wake the front door again and again.
    cpu0 = s.cpu()
    time.sleep(5)
    spent = s.cpu() - cpu0
    check(spent < 0.5, "while 150 requests stall, the exporter idles: "
          "%.2f CPU s in 5 s" % spent)
    end = time.time() + 60
    closed = 0
    for c in qstalled:
        c.settimeout(max(end - time.time(), 0.1))
        try:
            closed += c.recv(1) == b""
        except ConnectionResetError:
            closed += 1
        except OSError:
            pass
        c.close()
    timed_out = 0
    for c in qmidline:
        c.settimeout(max(end - time.time(), 0.1))
        try:
            timed_out += c.recv(64).startswith(b"HTTP/1.1 408 ")
        except OSError:
            pass
        c.close()
    check(closed == len(qstalled), "stalled requests closed after --timeout 3: "
          "%d of %d" % (closed, len(qstalled)))
    check(timed_out == len(qmidline), "requests stalled within the request "
          "line answered 408 after --timeout 3: %d of %d"
          % (timed_out, len(qmidline)))
    left = still_open(stalled + midline)
    check(left == len(stalled) + len(midline), "with --timeout 300, begun "
          "earlier and still open then: %d of %d"
          % (left, len(stalled) + len(midline)))
    for c in stalled + midline + unread:
        c.close()
    check(get(s.url + "/metrics")[0] == 200 and
          get(q.url + "/metrics")[0] == 200, "answering after slow clients")
    s.stop(), q.stop()


def test_nofile(fx):
    """Out of descriptors: the backlog keeps the rest, without spinning."""
    s = Server(["-i", fx["hosta"], "--timeout", "30"],
               wrap=["prlimit", "--nofile=48:48"])
    if not check(s.wait_up(), "serve starts with 48 descriptors", s.stderr()):
        s.stop()
        return
    held = []
    for _ in range(80):
        c = socket.create_connection(("127.0.0.1", s.port))
        c.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")
        held.append(c)
    time.sleep(0.5)
    cpu0 = s.cpu()
    time.sleep(3)
    spent = s.cpu() - cpu0
    check(spent < 0.5 and s.p.poll() is None, "80 connections held with 48 "
          "descriptors: the exporter waits idle (%.2f CPU s in 3 s)" % spent)
    for c in held:
        c.close()
    st = get(s.url + "/metrics", timeout=10)[0]
    check(st == 200, "answering once they are closed: %s" % st)
    s.stop()


# What each gets: a 4xx for anything malformed, whether libmicrohttpd
# reads it as a request or the front door (serve_door.c) answers a first
# line that is not a request line (libmicrohttpd 0.9.75, Debian 12's,
# would close it without an answer); 505 for a version HTTP/1.x does not
# speak (HTTP's own answer).
ANY_4XX = "4xx"
BAD_REQUESTS = [
    ("not HTTP (binary)", b"\x00\x01\x02garbage\r\n\r\n", 400),
    ("not HTTP (one word)", b"GARBAGE\r\n\r\n", 400),
    ("no method", b" /metrics HTTP/1.1\r\nHost: x\r\n\r\n", 400),
    ("a method of non-token characters",
     b"G(E)T /metrics HTTP/1.1\r\nHost: x\r\n\r\n", 400),
    ("a control character in the target",
     b"GET /met\x01rics HTTP/1.1\r\nHost: x\r\n\r\n", 400),
    ("a malformed version", b"GET /metrics HTTP/1\r\nHost: x\r\n\r\n", 400),
    ("HTTP/1.1 without Host", b"GET /metrics HTTP/1.1\r\n\r\n", ANY_4XX),
    ("no version", b"GET /metrics\r\n\r\n", ANY_4XX),
    ("a header line without a colon",
     b"GET /metrics HTTP/1.1\r\nHost: x\r\nbroken\r\n\r\n", ANY_4XX),
    ("a 100 kB header", b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-Big: " +
     b"a" * 100000 + b"\r\n\r\n", ANY_4XX),
    ("a 100 kB URL", b"GET /" + b"a" * 100000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
     ANY_4XX),
    ("a bad Content-Length", b"POST /metrics HTTP/1.1\r\nHost: x\r\n"
     b"Content-Length: -5\r\n\r\n", ANY_4XX),
    ("a bad chunked body", b"POST /metrics HTTP/1.1\r\nHost: x\r\n"
     b"Transfer-Encoding: chunked\r\n\r\nzz\r\n", ANY_4XX),
    ("DELETE", b"DELETE /metrics HTTP/1.1\r\nHost: x\r\n\r\n", ANY_4XX),
    ("an unknown method", b"FOO /metrics HTTP/1.1\r\nHost: x\r\n\r\n", ANY_4XX),
    ("a path escape", b"GET /../../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n",
     ANY_4XX),
    ("an unknown version", b"GET /metrics HTTP/9.9\r\nHost: x\r\n\r\n", 505),
]


def raw(port, data, timeout=5, end=False):
    """Send data (then the end of sending, if end); the answer's status."""
    c = socket.create_connection(("127.0.0.1", port), timeout)
    try:
        c.sendall(data)
        if end:
            c.shutdown(socket.SHUT_WR)
    except OSError:
        pass
    out = b""
    try:
        while True:
            b = c.recv(65536)
            if not b:
                break
            out += b
            if b"\r\n\r\n" in out:
                break
    except OSError:
        pass
    c.close()
    m = re.match(rb"HTTP/1\.[01] (\d{3})", out)
    return int(m.group(1)) if m else None


def test_malformed(fx):
    s = Server(["-i", fx["hosta"], "--timeout", "3"])
    if not check(s.wait_up(), "serve starts for bad requests", s.stderr()):
        s.stop()
        return
    for what, data, want in BAD_REQUESTS:
        st = raw(s.port, data, 15)
        if want == ANY_4XX:
            good = st is not None and 400 <= st < 500
        else:
            good = st == want
        check(good and s.p.poll() is None,
              "%s: %s, exporter alive" % (what, st or "closed, no answer"))
    # The front door's own answers, read to the end: well formed, their
    # Content-Length that of their body, and the connection closed.
    for what, data, end in (("400", b"GARBAGE\r\n\r\n", False),
                            ("414", b"GET /" + b"a" * 9000, False),
                            ("400, cut short", b"GET /me", True)):
        c = socket.create_connection(("127.0.0.1", s.port), 15)
        c.sendall(data)
        if end:
            c.shutdown(socket.SHUT_WR)
        out = b""
        try:
            while True:
                b = c.recv(65536)
                if not b:
                    break
                out += b
        except OSError as e:
            out += b"<%s>" % str(e).encode()
        c.close()
        head, _, body = out.partition(b"\r\n\r\n")
        m = re.search(rb"\r\nContent-Length: (\d+)\r\n", head + b"\r\n")
        check(head.startswith(b"HTTP/1.1 " + what[:3].encode() + b" ") and m
              and int(m.group(1)) == len(body) and body.endswith(b"\n"),
              "the door's %s: whole, Content-Length %s for a body of %d bytes"
              % (what, m and m.group(1).decode(), len(body)), out[:300])
    st = raw(s.port, b"GET /metr", 15, end=True)
    check(st == 400, "a request line cut short by the client's end: %s"
          % (st or "closed, no answer"))
    st = raw(s.port, b"\r\n\r\nGET /metrics HTTP/1.1\r\nHost: x\r\n\r\n", 15)
    check(st == 200, "empty lines before the request line are skipped: %s"
          % (st or "closed, no answer"))
    check(get(s.url + "/metrics")[0] == 200, "answering after bad requests")
    s.stop()


def run_fail(args, want_status, want_re, env=None):
    r = subprocess.run([TOOL, "serve"] + args, capture_output=True, text=True,
                       timeout=30,
                       env=dict(os.environ, **env) if env else None)
    lines = r.stderr.strip().splitlines()
    return (r.returncode == want_status and len(lines) == 1 and
            re.search(want_re, lines[0]) is not None), \
        "status %s: %s" % (r.returncode, r.stderr.strip())


def test_bad_input(fx, tmp):
    s = Server(["-i", fx["hosta"]])
    s.wait_up()
    ok, d = run_fail(["-i", fx["hosta"], "--listen", "127.0.0.1:%d" % s.port],
                     1, "cannot listen on 127.0.0.1:%d: Address already in use" % s.port)
    check(ok, "a port in use: one line, exit status 1", d)
    s.stop()
    ok, d = run_fail(["-i", fx["hosta"], "--listen", "192.0.2.1:9736"], 1,
                     "cannot listen on 192.0.2.1:9736: Cannot assign requested address")
    check(ok, "an address this machine does not have: one line, exit status 1", d)
    for spec, why in (("9736", "ADDR:PORT"), ("127.0.0.1:99999", "port"),
                      ("127.0.0.1:", "port is missing"), ("::1:9736", "brackets"),
                      ("127.0.0.1:+80", "port is a number"),
                      ("127.0.0.1: 80", "port is a number"),
                      ("[::1]", "port is missing"), ("[::1", "brackets")):
        ok, d = run_fail(["-i", fx["hosta"], "--listen", spec], 2, why)
        check(ok, "--listen %s: one line, exit status 2" % spec, d)
    for args, why in ((["-i", fx["hosta"]], "--listen ADDR:PORT, --textfile FILE"),
                      (["--listen", ":1", "--grid", "9"], "--grid '9'"),
                      (["--listen", ":1", "--grid", "2:1s:1ms"], "LO above HI"),
                      (["--listen", ":1", "--grid", "2:16:1s"], "unit"),
                      (["--listen", ":1", "--interval", "0"], "--interval"),
                      (["--listen", ":1", "--replay-interval", "1"], "replays an --input"),
                      (["--listen", ":1", "--format", "json"], "--format is not an option of serve")):
        ok, d = run_fail(args, 2, re.escape(why))
        check(ok, "serve %s: one line, exit status 2" % " ".join(args[-2:]), d)
    corrupt = os.path.join(tmp, "corrupt.json")
    with open(corrupt, "w") as f:
        f.write('{"format": "clkstat-snapshot", "version": 1, "runs": [')
    r = subprocess.run([TOOL, "serve", "-i", corrupt, "--listen", ":1"],
                       capture_output=True, text=True, timeout=30)
    check(r.returncode == 7 and len(r.stderr.strip().splitlines()) == 1,
          "a corrupt snapshot: one line, exit status 7", r.stderr)


def listening(s, timeout=30):
    """The address serve says it listens on, once it says so."""
    end = time.time() + timeout
    while time.time() < end and s.p.poll() is None:
        m = re.search(r"listening on (\S+)", s.stderr())
        if m:
            return m.group(1)
        time.sleep(0.05)
    return None


# socket(AF_INET6) failing as on a kernel without IPv6 (ipv6.disable=1).
NO_IPV6 = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <sys/socket.h>

int socket(int domain, int type, int protocol)
{
	static int (*real)(int, int, int);

	if (domain == AF_INET6) {
		errno = EAFNOSUPPORT;
		return -1;
	}
	if (!real)
		real = (int (*)(int, int, int))dlsym(RTLD_NEXT, "socket");
	return real(domain, type, protocol);
}
"""


# A resolver that says a name does not exist, and one that is not up yet
# (as at boot), whatever this machine's DNS does.
GAI = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <netdb.h>
#include <string.h>

int getaddrinfo(const char *node, const char *service,
		const struct addrinfo *hints, struct addrinfo **res)
{
	static int (*real)(const char *, const char *,
			   const struct addrinfo *, struct addrinfo **);

	if (node && !strcmp(node, "nosuchhost.invalid"))
		return EAI_NONAME;
	if (node && !strcmp(node, "resolver-down.invalid"))
		return EAI_AGAIN;
	if (!real)
		real = (int (*)(const char *, const char *,
				const struct addrinfo *, struct addrinfo **))
			dlsym(RTLD_NEXT, "getaddrinfo");
	return real(node, service, hints, res);
}
"""


def shim(tmp, name, text):
    """A preload library built from text, or None (said)."""
    src, so = os.path.join(tmp, name + ".c"), os.path.join(tmp, name + ".so")
    with open(src, "w") as f:
        f.write(text)
    r = subprocess.run(["cc", "-shared", "-fPIC", "-o", so, src, "-ldl"],
                       capture_output=True, text=True)
    return so if check(r.returncode == 0, "the %s shim builds" % name,
                       r.stderr) else None


def test_listen(fx, tmp):
    """The address bound is said; every address falls back to IPv4; a
    name that does not exist is the user's error (2, not restarted by the
    unit), a resolver not answering is not (1: the unit tries again)."""
    s = Server(["-i", fx["hosta"], "--listen", "127.0.0.1:0"])
    where = listening(s)
    m = re.match(r"127\.0\.0\.1:(\d+)$", where or "")
    ok = m and int(m.group(1)) > 0
    if ok:
        st, ct = content_type(int(m.group(1)), [])
        ok = st == 200
    check(ok, "--listen 127.0.0.1:0: says the port bound (%s), and serves "
          "there" % where, s.stderr())
    s.stop()
    so = shim(tmp, "gai", GAI)
    if so:
        for spec, st, why in (("nosuchhost.invalid:9736", 2, "nosuchhost"),
                              ("resolver-down.invalid:9736", 1,
                               "resolver-down")):
            ok, d = run_fail(["-i", fx["hosta"], "--listen", spec], st, why,
                             env={"LD_PRELOAD": so})
            check(ok, "--listen %s: one line, exit status %d" % (spec, st), d)
    so = shim(tmp, "noipv6", NO_IPV6)
    if not so:
        return
    s = Server(["-i", fx["hosta"], "--listen", ":0"], env={"LD_PRELOAD": so})
    where = listening(s)
    m = re.match(r"0\.0\.0\.0:(\d+)$", where or "")
    ok = m is not None and content_type(int(m.group(1)), [])[0] == 200
    check(ok, "--listen :0 without IPv6: every IPv4 address instead (%s)"
          % where, s.stderr())
    s.stop()


def test_no_module(tmp):
    """This host has no clkstat module: 503 and the reason, said once."""
    if os.path.exists("/sys/module/clkstat"):
        check(False, "no module: the host must not have clkstat loaded")
        return
    s = Server(["--cache-ms", "0"])
    if not check(s.wait_up(), "serve (live) starts without the module", s.stderr()):
        s.stop()
        return
    sts = [get(s.url + "/metrics", OM_ACCEPT) for _ in range(5)]
    check(all(x[0] == 503 and "not loaded" in x[2] for x in sts),
          "no module: 503 with the reason (%s)" % sts[0][2].strip())
    s.stop()
    err = [l for l in s.stderr().splitlines() if "503" in l]
    check(len(err) == 1 and "not loaded" in err[0],
          "no module: said once on stderr for 5 scrapes", s.stderr())
    prom = os.path.join(tmp, "live.prom")
    with open(prom, "w") as f:
        f.write("stale 1\n")
    t = Server(["--textfile", prom, "--interval", "0.1"])
    # Removed at its first write, while it runs (not only at its end):
    # waited for as long as a loaded machine may need.
    end = time.time() + 30
    while os.path.exists(prom) and time.time() < end and t.p.poll() is None:
        time.sleep(0.05)
    gone = not os.path.exists(prom)
    t.stop()
    check(gone, "no module: the textfile is removed, not left stale",
          t.stderr())


def test_textfile(fx, tmp):
    prom = os.path.join(tmp, "clkstat.prom")
    t = Server(["-i", fx["hosta"], "--textfile", prom, "--interval", "0.02",
                "--cache-ms", "0"])
    end = time.time() + 10
    while not os.path.exists(prom) and time.time() < end:
        time.sleep(0.02)
    reads = []
    for _ in range(400):
        with open(prom) as f:
            reads.append(f.read())
    t.stop()
    check(len(set(reads)) == 1 and reads[0].endswith("\n") and len(reads[0]) > 1000,
          "textfile: 400 reads while it is rewritten every 20 ms, all whole "
          "and equal (%d bytes)" % len(reads[0]), "%d different" % len(set(reads)))
    ok, out = promtool_ok(reads[0])
    check(ok, "textfile: promtool check metrics accepts it", out)
    # (the temporary files are ".clkstat.prom.XXXXXX", file_replace.c)
    left = [f for f in os.listdir(tmp)
            if "clkstat.prom" in f and f != "clkstat.prom"]
    check(not left, "textfile: no temporary file left behind", left)


def test_host_label(fx, tmp):
    """The host label by --compare --unit host's rule: a host tag before
    meta.host; a name that is not UTF-8 gives no label, said once."""
    with open(fx["hosta"]) as f:
        doc = json.load(f)
    doc["meta"]["host"] = "clone"
    tagged = os.path.join(tmp, "tagged.json")
    with open(tagged, "w") as f:
        json.dump(doc, f)
    r = oneshot(["-i", tagged, "--format", "openmetrics"])
    hosts = {lab.get("host") for _, lab, _ in samples(r.stdout)}
    check(r.returncode == 0 and hosts == {"hosta"},
          "a host tag wins over meta.host: %s" % sorted(map(str, hosts)),
          r.stderr)
    del doc["meta"]["tags"]
    doc["meta"]["host"] = "caf\udce9"		# a lone 0xe9 byte once written
    bad = os.path.join(tmp, "badhost.json")
    with open(bad, "wb") as f:
        f.write(json.dumps(doc, ensure_ascii=False).encode("utf-8",
                                                           "surrogateescape"))
    r = subprocess.run([TOOL, "-i", bad, "--format", "openmetrics"],
                       capture_output=True)
    out, err = r.stdout.decode("utf-8", "replace"), r.stderr.decode()
    hosts = {lab.get("host") for _, lab, _ in samples(out)}
    check(r.returncode == 0 and hosts == {None} and
          err.count("not valid UTF-8") == 1 and out.endswith("# EOF\n"),
          "meta.host not UTF-8: no host label, one warning (hosts %s)"
          % sorted(map(str, hosts)), err)


def test_valgrind(fx):
    s = Server(["-i", fx["hosta"], "--per-cpu", "--cache-ms", "0",
                "--timeout", "3"],
               wrap=["valgrind", "-q", "--error-exitcode=99", "--leak-check=full",
                     "--errors-for-leak-kinds=definite"])
    if not check(s.wait_up(120), "serve under valgrind starts", s.stderr()):
        s.stop()
        return
    ok = all(get(s.url + "/metrics", a, timeout=60)[0] == 200
             for a in (OM_ACCEPT, None, OM_ACCEPT))
    asyncio.run(storm(s.port, 50))
    for _, data, _ in BAD_REQUESTS:
        raw(s.port, data, 30)
    st = s.stop(120)
    check(ok and st == 0, "valgrind: scrapes, 50 at once, bad requests, "
          "SIGTERM: no error, no leak (exit %s)" % st, s.stderr())


def main():
    for tool in (TOOL, PROMTOOL):
        if not os.access(tool, os.X_OK):
            check(False, "missing: " + tool)
            print("%d passed, %d failed" % (passed, failed))
            return 1
    with tempfile.TemporaryDirectory() as tmp:
        fx = fixtures(tmp)
        test_formats(fx)
        test_fleet_sum(fx)
        test_replay_interval(fx)
        test_storm(fx)
        test_slow(fx)
        test_nofile(fx)
        test_malformed(fx)
        test_bad_input(fx, tmp)
        test_listen(fx, tmp)
        test_no_module(tmp)
        test_textfile(fx, tmp)
        test_host_label(fx, tmp)
        test_valgrind(fx)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

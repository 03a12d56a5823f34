#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Documentation/grafana/clkstat-dashboard.json against the exporter.

- importable: the fields Grafana's import needs (title, uid, schemaVersion,
  panels with unique ids, gridPos and targets, templating, an __inputs
  datasource DS_PROMETHEUS that every panel, target and variable uses);
- every PromQL expression (targets' expr, the variables' label_values
  queries) names only series that clkstat-report serve exports, and
  matches and groups only on labels those series carry: against what the
  server answers for a replayed snapshot (--per-cpu, --replay-interval,
  so that per-CPU series and resets are there), series names taken from
  both its formats (a name only one has is not a name to rely on);
- literal values of the label metric are metrics of the catalog
  (kmod/uapi/clkstat_catalog.h), and every $variable is defined;
- each expression, Grafana's variables substituted, passes Prometheus's
  own parser (promtool check rules), and a real Prometheus that scraped
  the server for a few seconds returns data for it;
- the check can fail: mutated copies (a misspelled metric, label, grouping
  label, metric value or variable, a syntax error, no __inputs) are
  rejected.

The names and labels of an expression come from a small PromQL lexer: a
name not followed by "(" is a series, "{...}" after it its matchers,
"by|without|on|ignoring (...)" grouping labels; every label an expression
names must be carried by every series it selects (the dashboard's
expressions each select one family).

Prints ok / not ok lines and "N passed, N failed"; exit 1 on failure.
usage: dashboard_check.py [TOP [DASHBOARD]]   (DASHBOARD: another file to
check in its place, e.g. an edited copy)
"""
import copy
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

TOP = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                      os.path.join(os.path.dirname(__file__), "..", ".."))
DASH = sys.argv[2] if len(sys.argv) > 2 else \
    os.path.join(TOP, "Documentation", "grafana", "clkstat-dashboard.json")
TOOL = os.path.join(TOP, "tools", "clkstat-report")
FIXTURE = os.path.join(TOP, "tools", "tests", "exporter", "fixture.py")
CATALOG = os.path.join(TOP, "kmod", "uapi", "clkstat_catalog.h")
CACHE = os.environ.get("CLKSTAT_CACHE", "/var/cache/clkstat")
PROMTOOL = os.environ.get("PROMTOOL",
                          os.path.join(CACHE, "prometheus/usr/bin/promtool"))
PROMETHEUS = os.environ.get(
    "PROMETHEUS", os.path.join(CACHE, "prometheus/usr/bin/prometheus"))
OM_ACCEPT = "application/openmetrics-text;version=1.0.0"
# Grafana's own variables, and what they stand for in a check.
BUILTINS = {"__rate_interval": "1m", "__interval": "30s", "__range": "1h",
            "__interval_ms": "30000", "__range_s": "3600"}

# check() and free_port(): the exporter tests' own, one copy.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "exporter"))
from serve_test import check, free_port  # noqa: E402
import serve_test  # noqa: E402  (its passed and failed counts)


def get(url, accept=None, timeout=30):
    req = urllib.request.Request(url, headers={"Accept": accept} if accept
                                 else {})
    with urllib.request.urlopen(req, timeout=timeout) as r:
        return r.read().decode()


def wait_for(url, proc, secs=60):
    end = time.time() + secs
    while time.time() < end:
        if proc.poll() is not None:
            return False
        try:
            get(url, timeout=1)
            return True
        except OSError:
            time.sleep(0.1)
    return False


# --- the exporter's series ---------------------------------------------

LABEL = re.compile(r'\s*([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*,?')


def exposition(text):
    """{series name: {label: set of values}} of an exposition."""
    out = {}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        m = re.match(r"([a-zA-Z_:][a-zA-Z0-9_:]*)(\{.*\})?\s", line)
        if not m:
            continue
        labels = out.setdefault(m.group(1), {})
        body = (m.group(2) or "{}")[1:-1]
        for lm in LABEL.finditer(body):
            labels.setdefault(lm.group(1), set()).add(lm.group(2))
    return out


def series_of(om, prom):
    """The names both formats have, with their labels."""
    a, b = exposition(om), exposition(prom)
    return {n: {k: a[n].get(k, set()) | b[n].get(k, set())
                for k in set(a[n]) | set(b[n])} for n in set(a) & set(b)}


def catalog_metrics():
    text = open(CATALOG).read()
    block = re.search(r"#define CLKSTAT_METRICS\(X\)(.*?)\n\n", text, re.S)
    return set(re.findall(r"X\(\w+, (\w+), \w+\)", block.group(1)))


def fixture(path):
    """fixture.py's host, with ttwu_tkread (a copy of tkread) and more of
    the counters the dashboard shows."""
    subprocess.run([sys.executable, FIXTURE, path, "hosta", "1", "3"],
                   check=True)
    with open(path) as f:
        d = json.load(f)
    for r in d["runs"]:
        ms = r["metrics"]
        tk = copy.deepcopy(next(m for m in ms if m["name"] == "tkread"))
        tk["name"] = "ttwu_tkread"
        tk["counters"] = {"migrated": 600, "no_enqueue": 4, "stale": 1}
        ms.append(tk)
        next(m for m in ms if m["name"] == "ttwu_enqueue")[
            "counters"]["unmatched"] = 3
    with open(path, "w") as f:
        json.dump(d, f)


# --- PromQL, as far as the names go ------------------------------------

TOKEN = re.compile(r"""
    (?P<ws>\s+) | (?P<str>"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`)
  | (?P<var>\$\{[^}]*\}|\$\w+|\[\[\w+\]\])
  | (?P<dur>\[[^\]\[]*\]) | (?P<num>\d+(?:\.\d*)?(?:[eE][-+]?\d+)?)
  | (?P<name>[a-zA-Z_:][a-zA-Z0-9_:]*)
  | (?P<op>=~|!~|!=|==|>=|<=|[-+*/%^=<>(){},])
""", re.X)
GROUPING = {"by", "without", "on", "ignoring", "group_left", "group_right"}
KEYWORDS = GROUPING | {"and", "or", "unless", "bool", "offset", "inf", "nan",
                       "Inf", "NaN"}


def tokens(expr):
    out, i = [], 0
    while i < len(expr):
        m = TOKEN.match(expr, i)
        if not m:
            raise ValueError("cannot read %r" % expr[i:i + 20])
        if m.lastgroup != "ws":
            out.append((m.lastgroup, m.group()))
        i = m.end()
    return out


def matchers(toks, i):
    """The matchers of {...} at toks[i]: ([(label, op, value)], next i)."""
    out, i = [], i + 1
    while toks[i][1] != "}":
        lab, op, val = toks[i][1], toks[i + 1][1], toks[i + 2]
        if toks[i][0] != "name" or op not in ("=", "!=", "=~", "!~") or \
           val[0] != "str":
            raise ValueError("bad matcher at %r" % lab)
        out.append((lab, op, val[1][1:-1]))
        i += 3
        if toks[i][1] == ",":
            i += 1
    return out, i + 1


def names(expr):
    """(series [(name, [(label, op, value)])], grouping labels) of expr."""
    toks = tokens(expr) + [("end", "")]
    sel, group, i = [], set(), 0
    while toks[i][0] != "end":
        kind, text = toks[i]
        if kind == "name" and text in GROUPING and toks[i + 1][1] == "(":
            i += 2
            while toks[i][1] != ")":
                if toks[i][0] == "name":
                    group.add(toks[i][1])
                i += 1
            i += 1
        elif kind == "name" and (toks[i + 1][1] == "(" or
                                 toks[i + 1][1] in GROUPING):
            i += 1                      # a function or an aggregation
        elif kind == "name" and text not in KEYWORDS:
            if toks[i + 1][1] == "{":
                ms, i = matchers(toks, i + 1)
            else:
                ms, i = [], i + 1
            sel.append((text, ms))
        elif text == "{":               # a selector without a name
            ms, i = matchers(toks, i)
            sel.append((None, ms))
        else:
            i += 1
    return sel, group


LABEL_VALUES = re.compile(r"^\s*label_values\((.*),\s*([a-zA-Z_]\w*)\s*\)\s*$",
                          re.S)


def grafana_vars(expr):
    return [v.strip("${}[]").split(":")[0]
            for v in re.findall(r"\$\{[^}]*\}|\$\w+|\[\[\w+\]\]", expr)]


def substitute(expr, values):
    def one(m):
        return values[m.group().strip("${}[]").split(":")[0]]
    return re.sub(r"\$\{[^}]*\}|\$\w+|\[\[\w+\]\]", one, expr)


# --- the dashboard ------------------------------------------------------

def all_panels(d):
    for p in d.get("panels", []):
        yield p
        for q in p.get("panels", []):
            yield q


def queries(d):
    """(where, PromQL expression, label asked by label_values or None)."""
    out = []
    for p in all_panels(d):
        for t in p.get("targets", []):
            out.append(("panel '%s' target %s" % (p.get("title"),
                                                    t.get("refId")),
                        t.get("expr", ""), None))
    for v in d.get("templating", {}).get("list", []):
        if v.get("type") != "query":
            continue
        q = v.get("query")
        q = q.get("query", "") if isinstance(q, dict) else q or ""
        m = LABEL_VALUES.match(q)
        where = "variable $%s" % v.get("name")
        if m:
            out.append((where, m.group(1), m.group(2)))
        else:
            out.append((where, q, "?"))
    return out


def structure(d):
    """What keeps the import from working, or Grafana from drawing it."""
    bad = []
    for k, t in (("title", str), ("uid", str), ("schemaVersion", int),
                 ("panels", list), ("templating", dict), ("__inputs", list)):
        if not isinstance(d.get(k), t):
            bad.append("no %s (%s)" % (k, t.__name__))
    if bad:
        return bad
    if not 0 < len(d["uid"]) <= 40 or not re.match(r"^[\w-]+$", d["uid"]):
        bad.append("uid %r: 1 to 40 of [A-Za-z0-9_-]" % d["uid"])
    if d["schemaVersion"] < 36:
        bad.append("schemaVersion %d: older than Grafana 9"
                   % d["schemaVersion"])
    if d.get("id") is not None:
        bad.append("id %r: an exported dashboard has id null" % d["id"])
    inputs = {i.get("name"): i for i in d["__inputs"]}
    ds = inputs.get("DS_PROMETHEUS", {})
    if ds.get("type") != "datasource" or ds.get("pluginId") != "prometheus":
        bad.append("__inputs has no Prometheus datasource DS_PROMETHEUS")
    want = {"type": "prometheus", "uid": "${DS_PROMETHEUS}"}
    ids = set()
    for p in all_panels(d):
        what = "panel '%s'" % p.get("title")
        if not isinstance(p.get("id"), int) or p["id"] in ids:
            bad.append("%s: id missing or not unique" % what)
        ids.add(p.get("id"))
        g = p.get("gridPos", {})
        if not all(isinstance(g.get(k), int) for k in "hwxy") or \
           g["x"] + g["w"] > 24:
            bad.append("%s: gridPos" % what)
        if p.get("type") == "row":
            continue
        if p.get("datasource") != want:
            bad.append("%s: datasource is not ${DS_PROMETHEUS}" % what)
        if not p.get("targets"):
            bad.append("%s: no targets" % what)
        refs = [t.get("refId") for t in p.get("targets", [])]
        if len(set(refs)) != len(refs) or None in refs:
            bad.append("%s: refIds missing or repeated" % what)
        for t in p.get("targets", []):
            if t.get("datasource") != want or not t.get("expr"):
                bad.append("%s target %s: no expr or not ${DS_PROMETHEUS}"
                           % (what, t.get("refId")))
            if p.get("type") == "heatmap" and t.get("format") != "heatmap":
                bad.append("%s: a heatmap target not in format heatmap" % what)
    tl = d["templating"].get("list")
    if not isinstance(tl, list):
        bad.append("templating has no list")
    for v in tl or []:
        if not v.get("name") or v.get("type") != "query" or \
           v.get("datasource") != want:
            bad.append("variable %r: no name, not a query or not on "
                       "${DS_PROMETHEUS}" % v.get("name"))
    return bad


def query_problems(where, expr, asked, series, catalog, defined):
    """Why one query does not fit the exporter (asked: the label a
    label_values query asks for, "?" for a query that is none)."""
    bad = []
    for v in grafana_vars(expr):
        if v not in defined and v not in BUILTINS:
            bad.append("%s: $%s is not defined" % (where, v))
    if asked == "?":
        return bad + ["%s: not label_values(SELECTOR, LABEL)" % where]
    try:
        sel, group = names(expr)
    except (ValueError, IndexError) as e:
        return bad + ["%s: %s" % (where, e)]
    if not sel:
        bad.append("%s: selects no series" % where)
    if asked:
        group = group | {asked}
    for name, ms in sel:
        if name not in series:
            bad.append("%s: no series %s" % (where, name))
            continue
        for lab in sorted({m[0] for m in ms} | group):
            if lab not in series[name]:
                bad.append("%s: %s has no label %s" % (where, name, lab))
        for lab, op, val in ms:
            if lab != "metric" or op not in ("=", "=~") or "$" in val:
                continue
            for alt in val.split("|") if op == "=~" else [val]:
                if alt not in catalog:
                    bad.append("%s: metric %r is not in the catalog"
                               % (where, alt))
    return bad


def problems(d, series, catalog):
    """Every reason the dashboard does not import or does not fit the
    exporter."""
    bad = structure(d)
    tl = d.get("templating", {}).get("list", [])
    defined = {v.get("name") for v in tl}
    for where, expr, asked in queries(d):
        bad += query_problems(where, expr, asked, series, catalog, defined)
    for v in tl:
        cur = (v.get("current") or {}).get("value", [])
        for val in cur if isinstance(cur, list) else [cur]:
            if v.get("name") == "metric" and val != "$__all" and \
               val not in catalog:
                bad.append("variable $metric: default %r is not in the "
                           "catalog" % val)
    return bad


def var_values(d, series):
    """A value for every variable, as Grafana would put it in: its
    default, or every value the exporter has for All."""
    vals = dict(BUILTINS)
    for v in d["templating"]["list"]:
        cur = (v.get("current") or {}).get("value", [])
        cur = cur if isinstance(cur, list) else [cur]
        q = v["query"].get("query") if isinstance(v["query"], dict) \
            else v["query"]
        m = LABEL_VALUES.match(q)
        if "$__all" in cur and v.get("allValue"):
            # Grafana puts a custom "All" value in as it is (".*": a
            # series without the label matches too).
            vals[v["name"]] = v["allValue"]
            continue
        if "$__all" in cur or not cur:
            lab = m.group(2)
            cur = sorted({x for s in series.values()
                          for x in s.get(lab, ())})
        vals[v["name"]] = "|".join(cur)
    return vals


def promql_of(d, values):
    """Every expression as Prometheus would get it."""
    return [(where, substitute(expr, values))
            for where, expr, _ in queries(d)]


def promtool_check(exprs, tmp):
    rules = {"groups": [{"name": "dashboard", "rules": [
        {"record": "clkstat:dashboard:%d" % i, "expr": e}
        for i, (_, e) in enumerate(exprs)]}]}
    path = os.path.join(tmp, "rules.yml")
    with open(path, "w") as f:
        json.dump(rules, f)          # YAML reads JSON
    r = subprocess.run([PROMTOOL, "check", "rules", path],
                       capture_output=True, text=True)
    return r.returncode == 0, r.stdout + r.stderr


def mutants(d):
    """(what, dashboard, why) broken copies, each of which must be
    rejected for why."""
    def edit(what, f, why):
        m = copy.deepcopy(d)
        try:
            f(m)
        except (StopIteration, LookupError, TypeError):
            m = None            # nothing to break of that kind
        return what, m, why

    def targets(m):
        return [t for p in all_panels(m) for t in p.get("targets", [])]

    def rep(old, new):
        def f(m):
            t = next(t for t in targets(m) if old in t["expr"])
            t["expr"] = t["expr"].replace(old, new, 1)
        return f

    def var_rep(old, new):
        def f(m):
            v = next(v for v in m["templating"]["list"]
                     if old in v["query"]["query"])
            v["query"]["query"] = v["query"]["query"].replace(old, new, 1)
        return f
    return [
        edit("a misspelled metric name", rep("clkstat_latency_seconds_bucket",
                                             "clkstat_latency_second_bucket"),
             "no series clkstat_latency_second_bucket"),
        edit("a counter without its _total", rep("clkstat_events_total",
                                                 "clkstat_events"),
             "no series clkstat_events"),
        edit("a misspelled matcher label", rep('host=~', 'hots=~'),
             "has no label hots"),
        edit("a misspelled grouping label",
             rep("by (le, metric, variant, host)",
                 "by (le, metric, varaint, host)"),
             "has no label varaint"),
        edit("le on a series without buckets",
             rep("clkstat_latency_seconds_bucket",
                 "clkstat_latency_seconds_count"),
             "clkstat_latency_seconds_count has no label le"),
        edit("cpu on the all-CPU family",
             rep("clkstat_cpu_latency_seconds_bucket",
                 "clkstat_latency_seconds_bucket"),
             "clkstat_latency_seconds_bucket has no label cpu"),
        edit("a misspelled metric value", rep('metric="ttwu_tkread"',
                                              'metric="ttwu_tk_read"'),
             "'ttwu_tk_read' is not in the catalog"),
        edit("an undefined variable", rep('$host', '$hosts'),
             "$hosts is not defined"),
        edit("label_values of a label the series lacks",
             var_rep(", variant)", ", varient)"),
             "has no label varient"),
        edit("no __inputs", lambda m: m.pop("__inputs"), "no __inputs"),
        edit("a hard-coded datasource uid",
             lambda m: m["panels"][1].update(
                 datasource={"type": "prometheus", "uid": "abc123"}),
             "datasource is not ${DS_PROMETHEUS}"),
    ]


def main():
    try:
        with open(DASH) as f:
            d = json.load(f)
    except (OSError, ValueError) as e:
        check(False, "the dashboard reads as JSON", e)
        return
    check(True, "the dashboard reads as JSON")
    bad = structure(d)
    check(not bad, "importable: title, uid, schemaVersion %s, __inputs "
          "DS_PROMETHEUS, panels and targets, templating" %
          d.get("schemaVersion"), "\n".join(bad))
    missing = [p for p in (TOOL, PROMTOOL, PROMETHEUS)
               if not os.access(p, os.X_OK)]
    if not check(not missing, "clkstat-report, promtool and prometheus are "
                 "there", " ".join(missing)):
        return
    with tempfile.TemporaryDirectory() as tmp:
        fix = os.path.join(tmp, "fixture.json")
        fixture(fix)
        port = free_port()
        srv = subprocess.Popen([TOOL, "serve", "--listen",
                                "127.0.0.1:%d" % port, "-i", fix, "--per-cpu",
                                "--replay-interval", "0.5"],
                               stderr=subprocess.DEVNULL)
        url = "http://127.0.0.1:%d/metrics" % port
        try:
            if not check(wait_for(url, srv), "clkstat-report serve answers"):
                return
            series = series_of(get(url, OM_ACCEPT), get(url))
            run_checks(d, series, tmp, port)
        finally:
            srv.terminate()
            srv.wait(10)


def run_checks(d, series, tmp, port):
    catalog = catalog_metrics()
    want = {"clkstat_latency_seconds_bucket",
            "clkstat_cpu_latency_seconds_bucket", "clkstat_events_total",
            "clkstat_resets_total", "clkstat_recording"}
    check(want <= set(series), "the server exports %d series names, among "
          "them buckets, per-CPU buckets, events, resets and recording"
          % len(series), sorted(want - set(series)))
    defined = {v.get("name") for v in d["templating"]["list"]}
    for where, expr, asked in queries(d):
        bad = query_problems(where, expr, asked, series, catalog, defined)
        check(not bad, "%s: names only exported series and their labels: %s"
              % (where, expr), "\n".join(bad))
    bad = [b for b in problems(d, series, catalog) if b.startswith("variable")]
    check(not bad, "the variables' defaults are catalog metrics", bad)
    values = var_values(d, series)
    exprs = promql_of(d, values)
    ok, out = promtool_check(exprs, tmp)
    check(ok, "promtool check rules parses all %d expressions "
          "(variables substituted)" % len(exprs), out)
    evaluate(exprs, tmp, port)
    base = set(problems(d, series, catalog))
    for what, m, why in mutants(d):
        if m is None:
            check(False, "rejected: %s (the dashboard has nothing to break "
                  "that way)" % what)
            continue
        new = [b for b in problems(m, series, catalog) if b not in base]
        hit = [b for b in new if why in b]
        check(bool(hit), "rejected: %s (%s)" % (what, hit[0] if hit else
                                                 "not for that"),
              "\n".join(new) or "no problem found")
    broken = exprs[:1] + [("", exprs[0][1].replace(")", "", 1))]
    ok, out = promtool_check(broken, tmp)
    check(not ok, "rejected by promtool: an unbalanced parenthesis (%s)"
          % (out.strip().splitlines() or ["?"])[-1][:100])


def evaluate(exprs, tmp, port):
    """A Prometheus scrapes the server every second; each expression must
    then return data (rates over 30s, once every series has two samples
    there: scrapes a loaded machine makes late or fail only delay it)."""
    pport = free_port()
    cfg = os.path.join(tmp, "prometheus.yml")
    with open(cfg, "w") as f:
        target = {"targets": ["127.0.0.1:%d" % port]}
        json.dump({"global": {"scrape_interval": "1s"},
                   "scrape_configs": [{"job_name": "clkstat",
                                       "static_configs": [target]}]}, f)
    log = open(os.path.join(tmp, "prometheus.log"), "w")
    prom = subprocess.Popen([PROMETHEUS, "--config.file", cfg,
                             "--storage.tsdb.path", os.path.join(tmp, "tsdb"),
                             "--web.listen-address", "127.0.0.1:%d" % pport],
                            stdout=log, stderr=log)
    api = "http://127.0.0.1:%d/api/v1/" % pport
    try:
        if not check(wait_for(api + "status/buildinfo", prom),
                     "prometheus starts"):
            return
        # Until two scrapes within the last 10 s succeeded (up 1), so
        # that every series has two samples there (a rate's least; the
        # server has all its series from the first read on): the
        # expressions' [30s] then hold them for 20 s more, however late
        # or failed the scrapes before were.
        end, n = time.time() + 60, 0
        while time.time() < end and n < 2:
            try:
                r = json.loads(get(api + "query?query=" + urllib.parse.quote(
                    'sum_over_time(up{job="clkstat"}[10s])')))
                r = r["data"]["result"]
            except (OSError, ValueError, KeyError):
                r = []
            n = int(float(r[0]["value"][1])) if r else 0
            if n < 2:
                time.sleep(0.5)
        if not check(n >= 2, "prometheus scraped the server (%d scrapes in "
                     "the last 10 s)" % n):
            return
        for where, e in exprs:
            e = e.replace("[1m]", "[30s]")
            try:
                r = json.loads(get(api + "query?query=" +
                                   urllib.parse.quote(e)))
                res = r["data"]["result"]
            except (OSError, ValueError, KeyError) as x:
                res, r = [], x
            check(bool(res), "prometheus returns %d series for %s"
                  % (len(res), where), r)
    finally:
        prom.terminate()
        prom.wait(20)
        log.close()


if __name__ == "__main__":
    main()
    print("%d passed, %d failed" % (serve_test.passed, serve_test.failed))
    sys.exit(serve_test.failed != 0)

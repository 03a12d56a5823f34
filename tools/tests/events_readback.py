#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""clkstat-report events read back by Python's csv and json modules.

A snapshot (format version 2) written here with known events: two files,
runs with and without events, every event type, null fields, migrated
true/false/null, u64 values above 2^53 and 2^63, a marker text with a
comma and quotes, lost events, a run with no clock pair.  Then
`clkstat-report -i A -i B events --format csv` and `--format jsonl` are
parsed with csv.reader and json.loads and every field of every row is
compared with the truth computed here (realtime_ns from the run's first
clock pair); the lost events and the runs without events on stderr; the
filters (--run, --variant, --type); the text format's trailers; and a
file without any events is an error (status 1, nothing on stdout).
Prints ok/not ok lines; exits non-zero on a failure.
"""
import csv
import io
import json
import os
import subprocess
import sys
import tempfile

TOP = os.path.realpath(os.path.join(os.path.dirname(__file__), "..", ".."))
REPORT = os.path.join(TOP, "tools", "clkstat-report")
COLS = ["timestamp_ns", "realtime_ns", "type", "clocksource", "cpu", "pid",
        "corr", "latency_ns", "migrated", "rq_clock_ns", "text", "run",
        "variant"]
SNAP_COLS = ["ts_ns", "type", "cpu", "pid", "corr", "latency_ns", "migrated",
             "rq_clock_ns", "text"]
U64MAX = 2**64 - 1
CS_TYPES = ("clocksource_switch_entry", "clocksource_switch_exit",
            "clocksource_read")

META = {"tool_version": "0.4", "module_version": "0.4",
        "kernel_release": "6.12.0", "clocksource": "tsc",
        "probes": "ttwu,tkread,csread,csswitch,marker",
        "variants": "direct,kprobe", "command": "true", "machine": "vm",
        "hypervisor": "KVM", "cpuidle_driver": None,
        "cpuidle_governor": "menu", "max_cstate": None, "cmdline": "quiet",
        "frac_bits": 3, "nr_cpus": 4, "duration_s": 0, "events": 100000,
        "params": {"events": "4096"}}

# Run A0: a clock pair, every type; A1: no events; B0: no clock, lost.
A0 = {"lost": 0,
      "clock": [{"mono_ns": 1000000000, "realtime_ns": 1700000000000000000},
                {"mono_ns": 2000000000, "realtime_ns": 1700000001000000042}],
      "rows": [
          [1000000050, "marker", 0, 812, 0, None, None, None, "run_start"],
          [1000000100, "wakeup", 0, 117, 47, None, None, None, None],
          [1000000400, "enqueue", 1, 117, 47, 300, True, 999999000, None],
          [1000000900, "first_tkread", 1, 117, 47, 800, False, 123, None],
          [1000002000, "clocksource_switch_entry", 1, 114, 49, None, None,
           None, "acpi_pm"],
          [1000003000, "clocksource_switch_exit", 1, 114, 49, 1000, None,
           None, "acpi_pm"],
          [1000004000, "clocksource_read", 0, 115, 0, 1734, None, None,
           "hpet"],
          [1000005000, "marker", 65535, 4294967295, 0, None, None, None,
           'a,b "q"'],
          [1000006000, "enqueue", 3, 200, 9007199254740993, U64MAX, None,
           U64MAX, None],
          [1000007000, "first_tkread", 3, 200, 9007199254740993, 0, True, 0,
           None],
      ]}
B0 = {"lost": 7, "clock": [],
      "rows": [
          [5, "wakeup", 2, 7, 1, None, None, None, None],
          [6, "marker", 2, 7, 0, None, None, None, "x y"],
          [2**63 + 5, "enqueue", 2, 7, 1, 2**63, False, 2**63 + 1, None],
      ]}


def run_obj(index, variant, start, ev):
    r = {"index": index, "variant": variant, "start_ns": start,
         "end_ns": start + 100, "exit_status": 0, "workload_only": False,
         "metrics": []}
    if ev is not None:
        r["events"] = {"lost": ev["lost"], "clock": ev["clock"],
                       "columns": SNAP_COLS, "rows": ev["rows"]}
    return r


def snapshot(runs):
    return {"format": "clkstat-snapshot", "version": 2, "meta": META,
            "runs": runs}


def truth(ev, run, variant):
    """The expected rows of one run: dicts of column -> Python value."""
    out = []
    for ts, typ, cpu, pid, corr, lat, mig, rq, text in ev["rows"]:
        rt = None
        if ev["clock"]:
            c = ev["clock"][0]
            rt = c["realtime_ns"] + (ts - c["mono_ns"])
        out.append({"timestamp_ns": ts, "realtime_ns": rt, "type": typ,
                    "clocksource": text if typ in CS_TYPES else None,
                    "cpu": cpu, "pid": pid, "corr": corr or None,
                    "latency_ns": lat, "migrated": mig, "rq_clock_ns": rq,
                    "text": text if typ in ("marker", "trace") else None, "run": run,
                    "variant": variant})
    return out


def csv_value(col, s):
    """A CSV field as the Python value it stands for."""
    if s == "":
        return None
    if col in ("type", "clocksource", "text", "variant"):
        return s
    if col == "migrated":
        return {"true": True, "false": False}[s]
    return int(s)


failures = 0


def check(ok, what, detail=""):
    global failures
    print(("ok - " if ok else "not ok - ") + what)
    if not ok:
        failures += 1
        if detail:
            print("    " + str(detail)[:2000])


def report(*args):
    return subprocess.run([REPORT, *args], capture_output=True)


def main():
    with tempfile.TemporaryDirectory() as d:
        return checks(d)


def checks(d):
    fa, fb, fn = (os.path.join(d, n) for n in ("a.json", "b.json", "n.json"))
    with open(fa, "w") as f:
        json.dump(snapshot([run_obj(0, "direct", 100, A0),
                            run_obj(1, "kprobe", 300, None)]), f)
    with open(fb, "w") as f:
        json.dump(snapshot([run_obj(0, "kprobe", 500, B0)]), f)
    with open(fn, "w") as f:
        json.dump(snapshot([run_obj(0, "direct", 700, None)]), f)
    # Runs renumbered in reading order: a.json's 0 and 1, b.json's 2.
    want = truth(A0, 0, "direct") + truth(B0, 2, "kprobe")

    p = report("-i", fa, "-i", fb, "events", "--format", "csv")
    rows = list(csv.reader(io.StringIO(p.stdout.decode(), newline="")))
    got = [{c: csv_value(c, v) for c, v in zip(rows[0], r)} for r in rows[1:]]
    check(p.returncode == 0 and rows and rows[0] == COLS,
          "CSV: status 0, the header", (p.returncode, rows[:1], p.stderr))
    check(all(len(r) == len(COLS) for r in rows),
          "CSV: every row has every column")
    check(got == want, "CSV: every field of every row equals the truth",
          [(g, w) for g, w in zip(got, want) if g != w][:3] or
          (len(got), len(want)))
    check(b"\r\n" in p.stdout and p.stdout.count(b"\r\n") == len(want) + 1,
          "CSV: CRLF line ends (RFC 4180)")
    err = p.stderr.decode().splitlines()
    check(err == ["clkstat-report: run 1 (kprobe) of %s was recorded without --events" % fa,
                  "clkstat-report: run 2 (kprobe): 7 events lost, 3 kept"],
          "CSV: the run without events and the lost events on stderr", err)

    p = report("-i", fa, "-i", fb, "events", "--format", "jsonl")
    lines = p.stdout.decode().splitlines()
    got = [json.loads(l) for l in lines]
    check(p.returncode == 0 and got == want,
          "JSON Lines: every field of every row equals the truth",
          [(g, w) for g, w in zip(got, want) if g != w][:3] or
          (p.returncode, len(got), len(want), p.stderr))
    check(all(list(g.keys()) == COLS for g in got),
          "JSON Lines: every object has the columns, in order")
    check(p.stderr.decode().splitlines()[-1:] ==
          ["clkstat-report: run 2 (kprobe): 7 events lost, 3 kept"],
          "JSON Lines: the lost events on stderr", p.stderr)

    p = report("-i", fa, "-i", fb, "events", "--format", "jsonl",
               "--type", "marker,enqueue", "--variant", "kprobe")
    got = [json.loads(l) for l in p.stdout.decode().splitlines()]
    w = [r for r in want if r["variant"] == "kprobe" and
         r["type"] in ("marker", "enqueue")]
    check(p.returncode == 0 and got == w and len(w) == 2,
          "--type and --variant filter", (got, w))
    p = report("-i", fa, "-i", fb, "--run", "0", "events", "--format", "csv")
    rows = list(csv.reader(io.StringIO(p.stdout.decode(), newline="")))
    check(p.returncode == 0 and len(rows) == 1 + len(A0["rows"]) and
          all(r[11] == "0" for r in rows[1:]), "--run 0 alone")

    p = report("-i", fa, "-i", fb, "events")
    out = p.stdout.decode().splitlines()
    check(p.returncode == 0 and out[0].split() == COLS and
          out[-2:] == ["# run 0 variant direct: events 10 lost 0",
                       "# run 2 variant kprobe: events 3 lost 7"] and
          len(out) == 1 + len(want) + 2,
          "text: header, a row per event, a trailer per run with events",
          out[:1] + out[-3:])

    p = report("-i", fn, "events")
    check(p.returncode == 1 and p.stdout == b"" and
          p.stderr.decode().splitlines() ==
          ["clkstat-report: run 0 (direct) was recorded without --events",
           "clkstat-report: events: no run has events (record them with record --events N)"],
          "no run with events: status 1, nothing on stdout, which runs said",
          (p.returncode, p.stdout, p.stderr))
    f3 = os.path.join(d, "three.json")
    with open(f3, "w") as f:
        json.dump(snapshot([run_obj(0, "direct", 100, None),
                            run_obj(1, "kprobe", 300, None),
                            run_obj(2, "direct", 500, A0)]), f)
    p = report("-i", f3, "events", "--format", "jsonl")
    check(p.returncode == 0 and
          len(p.stdout.decode().splitlines()) == len(A0["rows"]) and
          p.stderr.decode().splitlines() ==
          ["clkstat-report: runs 0 (direct), 1 (kprobe) were recorded without --events"],
          "runs without events: one line naming them all", p.stderr)
    p = report("-i", fa, "events", "--variant", "ftrace")
    check(p.returncode == 2 and p.stdout == b"" and
          len(p.stderr.splitlines()) == 1,
          "--variant with no run: status 2, one line", p.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

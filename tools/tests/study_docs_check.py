#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""study_docs_check.py - run every example a document shows against a
study: each literal block after a ".. example: sh" or ".. example:
python" comment (Documentation/clkstat-study.rst), in a folder of its own
where STUDY is "study.db", as a reader types it.  An example passes when
it exits 0, prints a header and at least one row, and says nothing on
stderr (a pandas warning is a failure too: the docs must not teach one).

usage: study_docs_check.py DOC STUDY
Last line: "N passed, N failed"; exit status 1 when one failed or the
document shows none.
"""
import os
import re
import subprocess
import sys
import tempfile

RUNNERS = {"sh": ["bash", "-e", "-c"], "python": ["/usr/bin/python3", "-c"]}


def examples(path):
    """(line, kind, code) of each example of the document at path."""
    lines = open(path, encoding="utf-8").read().split("\n")
    out = []
    i = 0
    while i < len(lines):
        m = re.match(r"^\.\. example: (\w+)\s*$", lines[i])
        i += 1
        if not m:
            continue
        start = i
        # The literal block: a "::" line, then its indented lines.
        while i < len(lines) and lines[i].strip() != "::":
            if lines[i].strip():
                raise SystemExit(f"{path}:{start}: '.. example' without "
                                 "a literal block after it")
            i += 1
        i += 1
        body = []
        while i < len(lines) and (not lines[i].strip() or
                                  lines[i].startswith("  ")):
            body.append(lines[i][2:])
            i += 1
        out.append((start, m.group(1), "\n".join(body).strip() + "\n"))
    return out


def main():
    if len(sys.argv) != 3:
        raise SystemExit("usage: study_docs_check.py DOC STUDY")
    doc, study = sys.argv[1], os.path.abspath(sys.argv[2])
    passed = failed = 0
    found = examples(doc)
    for line, kind, code in found:
        what = f"{os.path.basename(doc)}:{line} ({kind})"
        if kind not in RUNNERS:
            print(f"not ok - {what}: no runner for '{kind}'")
            failed += 1
            continue
        with tempfile.TemporaryDirectory() as d:
            os.symlink(study, os.path.join(d, "study.db"))
            p = subprocess.run(RUNNERS[kind] + [code], cwd=d,
                               capture_output=True, text=True, timeout=600)
        rows = [x for x in p.stdout.split("\n") if x.strip()]
        if p.returncode or p.stderr or len(rows) < 2:
            print(f"not ok - {what}: status {p.returncode}, "
                  f"{len(rows)} lines out")
            for x in (p.stderr.strip().split("\n")[-5:] + rows[:5]):
                print(f"    {x}")
            failed += 1
        else:
            print(f"ok - {what}: {len(rows)} lines, the first: {rows[0][:70]}")
            passed += 1
    if not found:
        print(f"not ok - {doc}: no example")
        failed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""README.md's "## Layout" section against the tree, file for file.

Every file git tracks must be named by an entry of the section, and every
entry must name at least one tracked file, so that the section can neither
miss a file nor keep one that is gone.

The section is one indented block.  An entry line is indented four spaces
(a path from the top) or six (a path under the last four-space entry that
ends in "/"); deeper lines continue the description above them.  An
entry's names come before its first run of two spaces: a comma-separated
list, where the names after the first are taken in the first's directory.
Names are fnmatch patterns ("render_*.c", "hist.[ch]") and may hold one
brace list ("{lean,debug}.config").  A name ending in "/" is a heading
that names no file by itself.

usage: layout_check.py [README]   (from the top of a git tree)
"""
import fnmatch
import re
import subprocess
import sys


def expand(name):
    """'a{b,c}d' -> ['abd', 'acd'] (one brace list at most)."""
    m = re.search(r"\{([^{}]*)\}", name)
    if not m:
        return [name]
    return [name[:m.start()] + alt + name[m.end():]
            for alt in m.group(1).split(",")]


def section(text):
    """The Layout section's indented lines."""
    out, inside = [], False
    for line in text.splitlines():
        if line.startswith("## "):
            inside = line.strip() == "## Layout"
            continue
        if inside and line.startswith("    "):
            out.append(line)
    return out


def entries(lines):
    """(line, [patterns]) for every entry line."""
    parent, out = "", []
    for line in lines:
        indent = len(line) - len(line.lstrip(" "))
        if indent > 6:
            continue
        names = re.split(r"\s{2,}", line.strip())[0]
        items = [n.strip() for n in re.split(r",(?![^{]*\})", names)
                 if n.strip()]
        if indent == 4:
            base = ""
        elif indent == 6:
            base = parent
        else:
            continue
        first = base + items[0]
        if indent == 4:
            parent = first if first.endswith("/") else ""
        dirname = first[:first.rfind("/") + 1]
        pats = [first] + [dirname + n for n in items[1:]]
        out.append((line.strip(), [p for pat in pats for p in expand(pat)]))
    return out


def main():
    readme = sys.argv[1] if len(sys.argv) > 1 else "README.md"
    with open(readme, encoding="utf-8") as f:
        found = entries(section(f.read()))
    files = subprocess.run(["git", "ls-files"], check=True,
                           capture_output=True, text=True).stdout.split()
    if not found:
        print(f"{readme}: no Layout section")
        return 1
    bad = 0
    named = set()
    for line, pats in found:
        for pat in pats:
            if pat.endswith("/"):
                if not any(f.startswith(pat) for f in files):
                    print(f"Layout names {pat}, which holds no file: {line}")
                    bad += 1
                continue
            hit = [f for f in files if fnmatch.fnmatchcase(f, pat)]
            if not hit:
                print(f"Layout names {pat}, which is no file: {line}")
                bad += 1
            named.update(hit)
    for f in files:
        if f not in named:
            print(f"{f}: not in README.md's Layout")
            bad += 1
    print(f"Layout: {len(found)} entries, {len(named)} of {len(files)} files named,"
          f" {bad} problems")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

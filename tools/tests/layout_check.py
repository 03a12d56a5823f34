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

Then no circle between the files of kmod/, kunit/ and tools/: none in
their #includes (a .c and its .h count as one file), and none in who
calls whom among the objects of tools/ (build/tools/, which make builds
first: a file that calls another's function depends on it, as main.c on
the commands and they on input.c; a circle is two files each needing
the other).  kmod/'s objects are left out: a kernel module is one unit,
whose registries (the hook variants, the probes) call back by design.

usage: layout_check.py [README]   (from the top of a git tree)
"""
import fnmatch
import os
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


def circles(graph):
    """The strongly connected components of more than one node (Tarjan)."""
    index, low, stack, on, out, n = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = n[0]
        n[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def include_graph(files):
    """file (a .c and its .h as one) -> the files its #includes name."""
    src = [f for f in files if f.endswith((".c", ".h")) and
           f.startswith(("kmod/", "kunit/", "tools/"))]
    known = set(src)
    graph = {}
    for f in src:
        unit = f[:-2]
        graph.setdefault(unit, set())
        with open(f, encoding="utf-8", errors="replace") as fh:
            text = fh.read()
        for m in re.finditer(r'^\s*#\s*include\s+"([^"]+)"', text, re.M):
            dep = os.path.normpath(os.path.join(os.path.dirname(f), m.group(1)))
            if dep in known and dep[:-2] != unit:
                graph[unit].add(dep[:-2])
    return graph


def link_graph(objs):
    """object -> the objects whose functions or data it uses (nm)."""
    defs, uses = {}, {}
    for o in objs:
        out = subprocess.run(["nm", o], check=True, capture_output=True,
                             text=True).stdout
        defs[o], uses[o] = set(), set()
        for line in out.splitlines():
            f = line.split()
            if len(f) == 3 and f[1] in "TDBRCVW":
                defs[o].add(f[2])
            elif len(f) == 2 and f[0] == "U":
                uses[o].add(f[1])
    owner = {sym: o for o in objs for sym in defs[o]}
    return {o: {owner[u] for u in uses[o] if u in owner and owner[u] != o}
            for o in objs}


def check_circles(files):
    bad = 0
    for comp in circles(include_graph(files)):
        print("include circle: " + " <-> ".join(comp))
        bad += 1
    # The objects of the tracked sources only: a renamed file's old
    # object may still lie in build/.
    objs = sorted("build/" + f[:-2] + ".o" for f in files
                  if f.startswith("tools/") and f.endswith(".c") and
                  os.path.exists("build/" + f[:-2] + ".o"))
    if not objs:
        print("no objects in build/tools/: make tools first")
        return bad + 1
    for comp in circles(link_graph(objs)):
        print("call circle: " + " <-> ".join(comp))
        bad += 1
    print(f"circles: {bad} (includes of kmod/, kunit/, tools/;"
          f" calls between {len(objs)} objects of tools/)")
    return bad


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
    bad += check_circles(files)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Source heads short, and no tracker references, across the tree.

A head is the first comment block of a .c or .h file after its SPDX line,
the leading # comment block of a .sh file (shebang and blank lines
included), or the module docstring of a .py file (or its leading #
lines, if longer).  Every git-tracked .c, .h, .sh and .py file under
kmod/, kunit/ and tools/ must have a head of at most 30 lines: what the
file is and holds, with the why in Documentation/.  No tracked file may
refer to a tracker item (an issue number, a short tracker tag): name the
feature or the document instead.

Prints "path:line: why" for each finding; exit status 1 if there is any,
0 if none.

usage: heads_check.py [TOP]   (TOP: the top of a git tree; default: .)
"""
import ast
import os
import re
import subprocess
import sys

MAX_HEAD = 30
HEAD_DIRS = ("kmod/", "kunit/", "tools/")
HEAD_EXTS = (".c", ".h", ".sh", ".py")

# "issue" or "issues" (any case of its first letter) and a number, with or
# without a "#" before it; and short tracker tags: "i", one or two digits,
# "-" and a word.
TRACKER = re.compile(r"\b[Ii]ssues?\s*#?\d+\b|\bi\d{1,2}-[a-z][a-z0-9-]*")
# A reference split over two lines: "issue" ending one, the number
# beginning the next (after any comment leader).
TRACKER_END = re.compile(r"\b[Ii]ssues?\s*#?\s*$")
TRACKER_START = re.compile(r"^[\s#*/;.-]*#?\d+\b")


def c_head(lines):
    """(first line, length) of a C file's head comment, or (0, 0)."""
    i = 0
    # the SPDX line ("// ..." or a one-line "/* ... */") and blank lines
    while i < len(lines) and (
            lines[i].startswith("//") or not lines[i].strip() or
            (lines[i].startswith("/*") and "SPDX-License-Identifier"
             in lines[i] and "*/" in lines[i])):
        i += 1
    if i == len(lines) or not lines[i].startswith("/*"):
        return 0, 0
    j = i
    while j < len(lines) and "*/" not in lines[j]:
        j += 1
    return i + 1, j - i + 1


def hash_head(lines):
    """(1, length) of the leading block of # and blank lines, or (0, 0)."""
    n = 0
    while n < len(lines) and (lines[n].startswith("#") or
                              not lines[n].strip()):
        n += 1
    return (1, n) if n else (0, 0)


def py_head(text, lines):
    """The longer of the leading # lines and the module docstring."""
    start, n = hash_head(lines)
    try:
        body = ast.parse(text).body
    except SyntaxError:
        return start, n
    if (body and isinstance(body[0], ast.Expr) and
            isinstance(body[0].value, ast.Constant) and
            isinstance(body[0].value.value, str)):
        doc = body[0].end_lineno - body[0].lineno + 1
        if doc > n:
            return body[0].lineno, doc
    return start, n


def head(path, text):
    """(first line, length) of path's head."""
    lines = text.split("\n")
    if path.endswith((".c", ".h")):
        return c_head(lines)
    if path.endswith(".py"):
        return py_head(text, lines)
    return hash_head(lines)


def trackers(text):
    """(line number, the reference) of every tracker reference in text."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        for m in TRACKER.finditer(line):
            yield i + 1, m.group(0)
        if (TRACKER_END.search(line) and i + 1 < len(lines) and
                TRACKER_START.match(lines[i + 1])):
            yield i + 1, (TRACKER_END.search(line).group(0).strip() + " " +
                          TRACKER_START.match(lines[i + 1]).group(0)
                          .lstrip(" \t#*/;.-"))


def main():
    if len(sys.argv) > 2:
        print("usage: heads_check.py [TOP]", file=sys.stderr)
        return 2
    if len(sys.argv) == 2:
        os.chdir(sys.argv[1])
    files = subprocess.run(["git", "ls-files", "-z"], check=True,
                           capture_output=True).stdout.decode().split("\0")
    found = 0
    for path in sorted(f for f in files if f):
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except (OSError, UnicodeDecodeError):
            continue	# gone from the work tree, or not text
        if path.startswith(HEAD_DIRS) and path.endswith(HEAD_EXTS):
            first, n = head(path, text)
            if n > MAX_HEAD:
                print(f"{path}:{first}: head of {n} lines, more than "
                      f"{MAX_HEAD}: say what the file is and holds, and "
                      "move the why to Documentation/ or down to its code")
                found += 1
        for line, ref in trackers(text):
            print(f'{path}:{line}: tracker reference "{ref}": name the '
                  "feature or the document instead")
            found += 1
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Every cited section of a document exists, across the tree.

Code, scripts and documents cite a section as
'Documentation/clkstat-probes.rst, "Hook variants"' (also with the file
in ``...`` or `...`, with "'s", in parentheses, or without the
Documentation/ prefix; several sections as '"A" and "B"'), and
README.md's as 'README.md, "Installing"' or 'README's "Installing"'.
Each tracked text file is read with its comment leaders, troff's quote
escapes and line breaks taken out, so that a citation split over lines
is one; every cited file must exist and hold a section of that title
(a document's title, an underlined RST heading, or a README "##"
heading; the part of a title before ": " or " (" is enough).

Prints "path: cites FILE, "SECTION": why" for each dangling one; exit
status 1 if there is any, 0 if none.

usage: doc_refs_check.py [TOP]   (TOP: the top of a git tree; default: .)
"""
import os
import re
import subprocess
import sys

ADORN = re.compile(r"^([=\-~^\"*+#`])\1{2,}$")
CITE = re.compile(
    r"(?<![\w/$.-])(?P<file>(?:Documentation/)?clkstat[\w-]*\.rst|"
    r"README(?:\.md)?(?='s|[`',]))"
    r"(?P<sep>[`')]*(?:'s)?,?\s*\(?\s*)"
    r'"(?P<sec>[\w`#][^"]{0,99})"'
    r'(?P<more>(?:\s*(?:,|and)\s*"[^"]{1,100}")*)')
MORE = re.compile(r'"([^"]{1,100})"')
LEADER = re.compile(r"^\s*(?:/\*+|\*+/?|//|#+|;+|\.(?:IR|BR|RB|RI|I|B)\s)?\s*")


def norm(title):
    """A title as cited: no inline-literal marks, spaces collapsed."""
    return " ".join(title.replace("``", "").replace("`", "").split())


def rst_titles(text):
    lines = text.split("\n")
    out = set()
    for i in range(1, len(lines)):
        if (ADORN.match(lines[i]) and lines[i - 1].strip() and
                not ADORN.match(lines[i - 1])):
            out.add(norm(lines[i - 1]))
    return out


def md_titles(text):
    return {norm(m.group(1)) for m in re.finditer(r"^#{1,6}\s+(.*)$", text,
                                                  re.M)}


def known(titles, sec):
    """sec names one of titles, whole or up to its ": " or " ("."""
    sec = norm(sec.lstrip("#"))
    return any(sec == t or t.startswith(sec + ": ") or
               t.startswith(sec + " (") for t in titles)


def flat(text):
    """text as one line: comment leaders, troff quotes, breaks out."""
    text = (text.replace("\\(lq", '"').replace("\\(rq", '"')
            .replace('\\"', '"').replace("\\-", "-"))
    return " ".join(LEADER.sub("", line) for line in text.split("\n"))


def main():
    if len(sys.argv) > 2:
        print("usage: doc_refs_check.py [TOP]", file=sys.stderr)
        return 2
    if len(sys.argv) == 2:
        os.chdir(sys.argv[1])
    files = [f for f in subprocess.run(
        ["git", "ls-files", "-z"], check=True,
        capture_output=True).stdout.decode().split("\0") if f]
    titles = {}
    bad = cites = 0
    for path in sorted(files):
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except (OSError, UnicodeDecodeError):
            continue
        for m in CITE.finditer(flat(text)):
            if not m.group("sep").strip("`'"):
                continue	# a name in quotes ("README.md"), no citation
            doc = m.group("file")
            if doc.startswith("README"):
                doc = "README.md"
            elif not doc.startswith("Documentation/"):
                doc = "Documentation/" + doc
            if doc not in titles:
                try:
                    with open(doc, encoding="utf-8") as f:
                        body = f.read()
                    titles[doc] = (md_titles(body) if doc.endswith(".md")
                                   else rst_titles(body))
                except OSError:
                    titles[doc] = None
            for sec in [m.group("sec")] + MORE.findall(m.group("more")):
                cites += 1
                if titles[doc] is None:
                    print(f'{path}: cites {doc}, "{sec}": no such file')
                    bad += 1
                elif not known(titles[doc], sec):
                    print(f'{path}: cites {doc}, "{sec}": no section of '
                          "that title there")
                    bad += 1
    print(f"section citations: {cites}, {bad} dangling")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

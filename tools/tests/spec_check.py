#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The netlink spec (Documentation/netlink/specs/clkstat.yaml) against the
C header (kmod/uapi/clkstat_netlink.h): the same commands, attributes and
control operations, with the same values, and the same family name and
version.  Exits 1 naming the first difference."""
import re
import sys

import yaml

top = sys.argv[1]
spec = yaml.safe_load(open(f"{top}/Documentation/netlink/specs/clkstat.yaml"))
header = open(f"{top}/kmod/uapi/clkstat_netlink.h").read()
catalog = open(f"{top}/kmod/uapi/clkstat_catalog.h").read()


def ctrl_ops():
    """CLKSTAT_CTRL_* in order: the catalog's CLKSTAT_CTRL_OPS list, which
    enum clkstat_nl_ctrl_op expands."""
    body = re.search(r"#define CLKSTAT_CTRL_OPS\(X\)(.*?)\n\n", catalog, re.S).group(1)
    return [("CLKSTAT_CTRL_" + m, i)
            for i, m in enumerate(re.findall(r"X\((\w+), \w+\)", body))]


def c_enum(name):
    """Entry names of a C enum in order, with explicit values honoured."""
    body = re.search(r"enum %s \{(.*?)\};" % name, header, re.S).group(1)
    out, value = [], 0
    for line in body.splitlines():
        m = re.match(r"\s*(\w+)(?:\s*=\s*(\w+))?,", line)
        if not m or m.group(1).startswith("__"):
            continue
        value = int(m.group(2), 0) if m.group(2) else value
        out.append((m.group(1), value))
        value += 1
    return out


def spec_names(entries, prefix):
    out, value = [], 0
    for e in entries:
        name = e if isinstance(e, str) else e["name"]
        if isinstance(e, dict) and "value" in e:
            value = e["value"]
        out.append(((prefix + name).upper().replace("-", "_"), value))
        value += 1
    return out


def check(what, c, s):
    if c != s:
        for a, b in zip(c, s):
            if a != b:
                sys.exit(f"spec_check: {what}: header {a}, spec {b}")
        sys.exit(f"spec_check: {what}: {len(c)} in the header, {len(s)} in the spec")


name = re.search(r'#define CLKSTAT_GENL_NAME\s+"(\w+)"', header).group(1)
version = int(re.search(r"#define CLKSTAT_GENL_VERSION\s+(\d+)", header).group(1))
if spec["name"] != name or spec["version"] != version:
    sys.exit(f"spec_check: family {spec['name']} v{spec['version']}, header {name} v{version}")
check("commands", c_enum("clkstat_nl_cmd"),
      spec_names(spec["operations"]["list"], spec["operations"]["name-prefix"]))
sets = {s["name"]: s for s in spec["attribute-sets"]}
for cname, sname in (("clkstat_nl_attr", "clkstat"),
                     ("clkstat_nl_metric_attr", "metric"),
                     ("clkstat_nl_counter_attr", "counter"),
                     ("clkstat_nl_event_attr", "event")):
    check(f"attributes {sname}", c_enum(cname),
          spec_names(sets[sname]["attributes"], sets[sname]["name-prefix"]))
ops = [d for d in spec["definitions"] if d["name"] == "ctrl-op"][0]
if "CLKSTAT_CTRL_OPS(CLKSTAT_CAT_CTRL_ENUM)" not in header:
    sys.exit("spec_check: enum clkstat_nl_ctrl_op is no longer the catalog's list")
check("ctrl-op", ctrl_ops(),
      spec_names(ops["entries"], "clkstat-ctrl-"))
# A macro named like an enum entry wins over it silently (version 1 had
# CLKSTAT_A_M_MAX as both the "max" attribute and the attribute count).
macros = set(re.findall(r"#define (\w+)", header))
for cname in ("clkstat_nl_cmd", "clkstat_nl_attr", "clkstat_nl_metric_attr",
              "clkstat_nl_counter_attr", "clkstat_nl_event_attr",
              "clkstat_nl_ctrl_op"):
    entries = ctrl_ops() if cname == "clkstat_nl_ctrl_op" else c_enum(cname)
    for entry, _ in entries:
        if entry in macros:
            sys.exit(f"spec_check: {entry} is both an entry of enum {cname} and a macro")
print("spec_check: spec and header agree")

# SPDX-License-Identifier: GPL-2.0
"""plot_svg.py - read a gnuplot SVG figure (clkstat-report plot) back into
data: each plotted series' points in the axes' own units, from the drawn
elements alone.  gnuplot's "mouse" SVG states the plot area in pixels and
the axes' ranges (gnuplot_svg.plot_xmin, plot_axis_xmin, plot_logaxis_x,
...); each series is a <g id="gnuplot_plot_N"> (N then a letter per panel of
a multiplot, whose x axes are read from each panel's tick labels: gnuplot
states the last panel's alone) whose key entry holds its
title, and whose paths and point symbols are what was drawn.  Nothing
here reads clkstat's own data: a test compares what the picture shows
with what the recording says.

A heat map's cells (boxxyerror, "lc palette") are filled polygons whose
colour is their count: the colour box beside the plot is read too, its
gradient (the polygons gnuplot draws right of the plot area, bottom to
top) and its tics (the tic marks at its right edge and their labels), so
that a cell's colour maps back to the number it stands for: the colour
found between two neighbouring samples of the gradient, its height in
the box, that height through the tics' line.  The marks (figure_gnuplot.c's
dashed lines in grey rgb(85,85,85), labelled in the same grey) are read
as (axis, value, label).
"""
import math
import re
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"
XLINK = "{http://www.w3.org/1999/xlink}"


class Figure:
    """axes: the mapping; series: title -> {"paths": [[(x, y)...]...],
    "polygons": [[(x, y)...]...], "points": [(x, y)...], "cells":
    [(x0, x1, y0, y1, z)...]} in data units, only what lies in the plot
    area (the key's samples lie outside it); cells: the filled polygons
    with z their colour read through the colour box (None without one);
    marks: [(axis "x" or "y", value, label)]."""

    def __init__(self, path):
        text = open(path, encoding="utf-8").read()
        self.axes = {}
        for k, v in re.findall(r"gnuplot_svg\.(plot_\w+) = ([^;]+);", text):
            v = v.strip().strip('"')
            try:
                self.axes[k] = float(v)
            except ValueError:
                self.axes[k] = v
        for k in ("plot_xmin", "plot_xmax", "plot_ybot", "plot_ytop",
                  "plot_axis_xmin", "plot_axis_xmax", "plot_axis_ymin",
                  "plot_axis_ymax"):
            if not isinstance(self.axes.get(k), float):
                raise ValueError(f"{path}: no {k}: not a gnuplot mouse SVG")
        self.root = ET.fromstring(text)
        # A multiplot's plots are gnuplot_plot_1a, _1b, ...
        self.multi = bool(re.search(r'id="gnuplot_plot_\d+[a-z]+"', text))
        self.texts = ["".join(t.itertext()) for t in self.root.iter(SVG + "text")]
        self.series = {}
        for g in self.root.iter(SVG + "g"):
            gid = g.get("id") or ""
            if not re.fullmatch(r"gnuplot_plot_\d+[a-z]*", gid):
                continue
            title, paths, points, polys, fills = None, [], [], [], []
            raw = {"paths": [], "points": [], "polygons": []}
            self._walk(g, gid, paths, points, polys, fills, raw)
            for k in g.iter(SVG + "g"):
                if k.get("id") == gid + "_keyentry":
                    t = "".join(x for e in k.iter(SVG + "text") for x in e.itertext())
                    if t:
                        title = t
            self.series[title or gid] = {"paths": paths, "points": points,
                                         "polygons": polys,
                                         "fills": fills,
                                         "_px_paths": raw["paths"],
                                         "_px_points": raw["points"],
                                         "_px_polygons": raw["polygons"]}
        self.panels = self._panels()
        if len(self.panels) > 1:
            for ser in self.series.values():
                self._remap(ser)
        self._colorbox()
        for ser in self.series.values():
            ser["cells"] = [(min(x for x, _ in p), max(x for x, _ in p),
                             min(y for _, y in p), max(y for _, y in p),
                             self.colour_value(c))
                            for p, c in zip(ser["polygons"], ser.pop("fills"))]
        self.marks = self._marks()

    def _panels(self):
        """Side-by-side panels (a multiplot) by their x tick labels: per
        panel [(pixel, value)...], the labels of one panel rising left to
        right.  gnuplot states the axes of the last panel alone, so each
        panel's x is read from its own tick labels (linear axes)."""
        ticks = []
        for g in self.root.iter(SVG + "g"):
            tr = g.get("transform") or ""
            m = re.fullmatch(r"translate\(([-\d.]+),([-\d.]+)\)", tr)
            if not m or g.get("text-anchor") != "middle":
                continue
            t = "".join(x for e in g.iter(SVG + "text") for x in e.itertext()).strip()
            try:
                v = float(t)
            except ValueError:
                continue
            ticks.append((float(m.group(1)), float(m.group(2)), v))
        if not ticks:
            return []
        row = max(y for _, y, _ in ticks)	# the bottom axes' labels
        out = []
        for px, y, v in ticks:
            if abs(y - row) > 0.5:
                continue
            if not out or v <= out[-1][-1][1] or px <= out[-1][-1][0]:
                out.append([])
            out[-1].append((px, v))
        return [p for p in out if len(p) >= 2]

    def _remap(self, ser):
        """Each shape's x from its panel's ticks (the panel its pixels lie in)."""
        bounds = [(p[0][0] + q[-1][0]) / 2 for q, p in zip(self.panels, self.panels[1:])]

        def fix(pts_px):
            px = sum(x for x, _ in pts_px) / len(pts_px)
            k = sum(px > b for b in bounds)
            (x0, v0), (x1, v1) = self.panels[k][0], self.panels[k][-1]
            return [(v0 + (x - x0) * (v1 - v0) / (x1 - x0), self.data(x, y)[1])
                    for x, y in pts_px]
        for key in ("paths", "polygons"):
            ser[key] = [fix(raw) for raw in ser["_px_" + key]]
        ser["points"] = [fix([q])[0] for q in ser["_px_points"]]

    def inside(self, px, py):
        """Is the pixel in a plot area (the key is outside it)?  Side by
        side panels share the y extent; x is checked per panel."""
        a, e = self.axes, 1.0
        return (a["plot_ytop"] - e <= py <= a["plot_ybot"] + e and
                (self.multi or a["plot_xmin"] - e <= px <= a["plot_xmax"] + e))

    def _shape(self, pts, out, raw):
        if pts and all(self.inside(x, y) for x, y in pts):
            out.append([self.data(x, y) for x, y in pts])
            raw.append(pts)
            return True
        return False

    @staticmethod
    def rgb(fill):
        """'rgb( 65, 30, 104)' or '#411e68' as (r, g, b); None for others."""
        m = re.fullmatch(r"\s*rgb\(\s*(\d+),\s*(\d+),\s*(\d+)\s*\)\s*", fill or "")
        if m:
            return tuple(int(v) for v in m.groups())
        m = re.fullmatch(r"\s*#([0-9a-fA-F]{6})\s*", fill or "")
        if m:
            return tuple(int(m.group(1)[i:i + 2], 16) for i in (0, 2, 4))
        return None

    @staticmethod
    def _nums(text):
        return [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", text or "")]

    def _colorbox(self):
        """The colour box: gradient [(y px, (r, g, b))] bottom up, and
        tics [(y px, value)]; both empty when the figure has none."""
        a = self.axes
        self.gradient, self.cbtics = [], []
        # Not the series' own polygons (their key's sample lies outside).
        own = {id(e) for g in self.root.iter(SVG + "g")
               if re.fullmatch(r"gnuplot_plot_\d+[a-z]*", g.get("id") or "")
               for e in g.iter(SVG + "polygon")}
        box = []
        for g in self.root.iter(SVG + "g"):
            if g.get("shape-rendering") != "crispEdges":
                continue
            for e in g.findall(SVG + "polygon"):
                if id(e) in own:
                    continue
                nums = self._nums(e.get("points"))
                xs, ys = nums[0::2], nums[1::2]
                c = self.rgb(e.get("fill"))
                if xs and c and min(xs) > a["plot_xmax"] + 1 and min(ys) >= a["plot_ytop"] - 1 \
                        and max(ys) <= a["plot_ybot"] + 1:
                    self.gradient.append(((min(ys) + max(ys)) / 2, c))
                    box.append(max(xs))
        if not self.gradient:
            return
        self.gradient.sort(key=lambda t: -t[0])
        right = max(box)
        # A tic: a path from the box's right edge, its label beside it.
        for g in self.root.iter(SVG + "g"):
            path = g.find(SVG + "path")
            label = g.find(SVG + "g")
            if path is None or label is None or label.find(SVG + "text") is None:
                continue
            text = "".join(label.find(SVG + "text").itertext()).strip()
            try:
                value = float(text)
            except ValueError:
                continue
            for x, y in re.findall(r"M([-\d.]+),([-\d.]+)", path.get("d") or ""):
                if abs(float(x) - right) < 0.5:
                    self.cbtics.append((float(y), value))

    def colour_value(self, c):
        """The number colour c stands for, read through the colour box:
        the point nearest c on the gradient's segments, its height, that
        height through the tics (a line fitted to them)."""
        if c is None or len(self.gradient) < 2 or len(self.cbtics) < 2:
            return None
        best = None
        for (y0, c0), (y1, c1) in zip(self.gradient, self.gradient[1:]):
            d = [b - a for a, b in zip(c0, c1)]
            dd = sum(v * v for v in d)
            t = 0.0 if not dd else sum((ci - a) * v for ci, a, v in zip(c, c0, d)) / dd
            t = min(1.0, max(0.0, t))
            err = sum((ci - a - t * v) ** 2 for ci, a, v in zip(c, c0, d))
            if best is None or err < best[0]:
                best = (err, y0 + t * (y1 - y0))
        ys = [y for y, _ in self.cbtics]
        vs = [v for _, v in self.cbtics]
        my, mv = sum(ys) / len(ys), sum(vs) / len(vs)
        slope = sum((y - my) * (v - mv) for y, v in self.cbtics) / \
            sum((y - my) ** 2 for y in ys)
        return mv + slope * (best[1] - my)

    def _marks(self):
        """The marks: grey dashed lines across the plot and their labels
        (a vertical line's label rotated, just left of it)."""
        grey = (85, 85, 85)
        lines, labels = [], []
        for e in self.root.iter(SVG + "path"):
            if self.rgb(e.get("stroke")) != grey or not e.get("stroke-dasharray"):
                continue
            pts = self.path_points(e.get("d") or "")
            for (x0, y0), (x1, y1) in zip(pts[0::2], pts[1::2]):
                if abs(x0 - x1) < 0.01:
                    lines.append(("x", x0))
                elif abs(y0 - y1) < 0.01:
                    lines.append(("y", y0))
        for g in self.root.iter(SVG + "g"):
            t = g.find(SVG + "text")
            if t is None or self.rgb(g.get("fill")) != grey:
                continue
            m = re.search(r"translate\(([-\d.]+),([-\d.]+)\)", g.get("transform") or "")
            if m:
                labels.append(("x" if "rotate" in g.get("transform") else "y",
                               float(m.group(1)), float(m.group(2)),
                               "".join(t.itertext())))
        out = []
        for axis, px in lines:
            cand = [lb for lb in labels if lb[0] == axis]
            if axis == "x":
                v = self.data(px, self.axes["plot_ybot"])[0]
                near = min(cand, key=lambda lb: abs(lb[1] - px), default=None)
            else:
                v = self.data(self.axes["plot_xmin"], px)[1]
                near = min(cand, key=lambda lb: abs(lb[2] - px), default=None)
            out.append((axis, v, near[3] if near else None))
        return out

    def _walk(self, g, gid, paths, points, polys, fills, raw):
        for e in g:
            if e.tag == SVG + "g" and e.get("id") == gid + "_keyentry":
                continue	# the key's text and sample, not data
            if e.tag == SVG + "path":
                self._shape(self.path_points(e.get("d") or ""), paths, raw["paths"])
            elif e.tag == SVG + "polygon":
                nums = self._nums(e.get("points"))
                if self._shape(list(zip(nums[0::2], nums[1::2])), polys, raw["polygons"]):
                    fills.append(self.rgb(e.get("fill")))
            elif e.tag == SVG + "use":
                m = re.search(r"translate\(([-\d.]+),([-\d.]+)\)", e.get("transform") or "")
                if m and self.inside(float(m.group(1)), float(m.group(2))):
                    q = (float(m.group(1)), float(m.group(2)))
                    points.append(self.data(*q))
                    raw["points"].append(q)
            elif e.tag == SVG + "g":
                self._walk(e, gid, paths, points, polys, fills, raw)

    @staticmethod
    def path_points(d):
        out, x, y = [], 0.0, 0.0
        for cmd, args in re.findall(r"([MLHVZmlhvz])([^MLHVZmlhvz]*)", d):
            nums = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", args)]
            if cmd in "ML":
                for i in range(0, len(nums) - 1, 2):
                    x, y = nums[i], nums[i + 1]
                    out.append((x, y))
            elif cmd in "ml":
                for i in range(0, len(nums) - 1, 2):
                    x, y = x + nums[i], y + nums[i + 1]
                    out.append((x, y))
            elif cmd == "H":
                for n in nums:
                    x = n
                    out.append((x, y))
            elif cmd == "h":
                for n in nums:
                    x += n
                    out.append((x, y))
            elif cmd == "V":
                for n in nums:
                    y = n
                    out.append((x, y))
            elif cmd == "v":
                for n in nums:
                    y += n
                    out.append((x, y))
        return out

    def _map(self, p, lo_px, hi_px, lo, hi, log):
        f = (p - lo_px) / (hi_px - lo_px)
        if log:
            return math.exp(math.log(lo) + f * (math.log(hi) - math.log(lo)))
        return lo + f * (hi - lo)

    def data(self, px, py):
        a = self.axes
        return (self._map(px, a["plot_xmin"], a["plot_xmax"], a["plot_axis_xmin"],
                          a["plot_axis_xmax"], a.get("plot_logaxis_x", 0)),
                self._map(py, a["plot_ybot"], a["plot_ytop"], a["plot_axis_ymin"],
                          a["plot_axis_ymax"], a.get("plot_logaxis_y", 0)))

    def find(self, prefix):
        """The one series whose title starts with prefix."""
        hits = [t for t in self.series if t.startswith(prefix)]
        if len(hits) != 1:
            raise KeyError(f"{prefix!r}: {len(hits)} series match of {list(self.series)}")
        return self.series[hits[0]]

    @staticmethod
    def y_at(line, x):
        """A drawn line's y at x (linear between its vertices)."""
        pts = sorted(p for path in line["paths"] for p in path)
        for (x0, y0), (x1, y1) in zip(pts, pts[1:]):
            if x0 <= x <= x1:
                return y0 if x1 == x0 else y0 + (y1 - y0) * (x - x0) / (x1 - x0)
        raise ValueError(f"x {x} outside the line")

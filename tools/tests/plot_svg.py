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
"""
import math
import re
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"
XLINK = "{http://www.w3.org/1999/xlink}"


class Figure:
    """axes: the mapping; series: title -> {"paths": [[(x, y)...]...],
    "polygons": [[(x, y)...]...], "points": [(x, y)...]} in data units,
    only what lies in the plot area (the key's samples lie outside it)."""

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
            title, paths, points, polys = None, [], [], []
            raw = {"paths": [], "points": [], "polygons": []}
            self._walk(g, gid, paths, points, polys, raw)
            for k in g.iter(SVG + "g"):
                if k.get("id") == gid + "_keyentry":
                    t = "".join(x for e in k.iter(SVG + "text") for x in e.itertext())
                    if t:
                        title = t
            self.series[title or gid] = {"paths": paths, "points": points,
                                         "polygons": polys,
                                         "_px_paths": raw["paths"],
                                         "_px_points": raw["points"],
                                         "_px_polygons": raw["polygons"]}
        self.panels = self._panels()
        if len(self.panels) > 1:
            for ser in self.series.values():
                self._remap(ser)

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

    def _walk(self, g, gid, paths, points, polys, raw):
        for e in g:
            if e.tag == SVG + "g" and e.get("id") == gid + "_keyentry":
                continue	# the key's text and sample, not data
            if e.tag == SVG + "path":
                self._shape(self.path_points(e.get("d") or ""), paths, raw["paths"])
            elif e.tag == SVG + "polygon":
                nums = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", e.get("points") or "")]
                self._shape(list(zip(nums[0::2], nums[1::2])), polys, raw["polygons"])
            elif e.tag == SVG + "use":
                m = re.search(r"translate\(([-\d.]+),([-\d.]+)\)", e.get("transform") or "")
                if m and self.inside(float(m.group(1)), float(m.group(2))):
                    q = (float(m.group(1)), float(m.group(2)))
                    points.append(self.data(*q))
                    raw["points"].append(q)
            elif e.tag == SVG + "g":
                self._walk(e, gid, paths, points, polys, raw)

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

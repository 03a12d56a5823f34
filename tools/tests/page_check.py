#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""A self-contained HTML page checked in headless Chromium.

Opens PAGE (a file) in Debian's Chromium through chromedriver (Selenium,
python3-selenium) with no network: every http(s) and ws(s) request goes
to a proxy on a closed loopback port and is refused, and any request
other than the file itself (data: and blob: URLs aside) fails the check.
After the load event and two animation frames it checks: no request
beyond the page; no console message of level warning or error (JS
exceptions and failed loads included); each --expect-figure ID is an
element that is or holds an inline <svg>, of non-zero rendered size; a
full-page screenshot is not blank (at least 1% of its pixels away from
its commonest colour, at least 3 colours); each --json-data ID is a
<script type="application/json"> that JSON.parse reads.

Prints one "ok - ..." or "not ok - ..." line per check (diagnostics as
"#" lines) and last "N passed, N failed"; exit status 1 on a failure, 2
on bad usage.  With --json-data those lines go to stderr and stdout has
each block as the browser parsed it (JSON.stringify), one line each.
Documentation/clkstat-testing.rst, "Pages in a browser".

usage: page_check.py PAGE [--expect-figure ID]... [--screenshot OUT.png]
                          [--json-data ID]...
"""
import argparse
import base64
import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

BROWSERS = ("/usr/lib/chromium/chromium", "/usr/bin/chromium")
DRIVER = "/usr/bin/chromedriver"
WINDOW = (1280, 1024)
# The screenshot's limits: at most this tall (Chromium's own limit is
# 16384 device pixels), blank below MIN_INK percent of pixels farther
# than INK_DIST (per channel) from the commonest colour, or below
# MIN_COLOURS colours.
MAX_SHOT_HEIGHT = 16000
MIN_INK = 1.0
INK_DIST = 32
MIN_COLOURS = 3
LOAD_TIMEOUT = 30


class Report:
    def __init__(self, out):
        self.out, self.passed, self.failed = out, 0, 0

    def check(self, good, what, diags=()):
        if good:
            self.passed += 1
        else:
            self.failed += 1
        print(("ok - " if good else "not ok - ") + what, file=self.out)
        for d in diags:
            print("#   " + d, file=self.out)

    def diag(self, text):
        print("# " + text, file=self.out)

    def close(self):
        print("%d passed, %d failed" % (self.passed, self.failed),
              file=self.out)
        return 1 if self.failed else 0


def browser_binary():
    for b in BROWSERS:
        if os.access(b, os.X_OK):
            return b
    return None


def browser_major(binary):
    """Chromium's major version, from --version (0 if unknown)."""
    try:
        out = subprocess.run([binary, "--version"], capture_output=True,
                             text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return 0
    m = re.search(r"(\d+)\.\d+\.\d+", out)
    return int(m.group(1)) if m else 0


def start_browser(profile):
    """A chromedriver session on headless Chromium, or raise."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    binary = browser_binary()
    if binary is None:
        raise RuntimeError("no Chromium (%s; Debian package chromium)"
                           % " or ".join(BROWSERS))
    if not os.access(DRIVER, os.X_OK):
        raise RuntimeError("no %s (Debian package chromium-driver)" % DRIVER)
    opts = webdriver.ChromeOptions()
    opts.binary_location = binary
    # --headless=new is the only headless mode from Chromium 132 on, and
    # a choice since 109.
    opts.add_argument("--headless=new" if browser_major(binary) >= 109
                      else "--headless")
    if os.geteuid() == 0:
        opts.add_argument("--no-sandbox")
    for a in ("--disable-gpu", "--window-size=%d,%d" % WINDOW,
              "--force-device-scale-factor=1", "--hide-scrollbars",
              "--user-data-dir=" + os.path.join(profile, "profile"),
              "--no-first-run",
              "--disable-background-networking", "--disable-component-update",
              "--disable-extensions", "--disable-sync", "--lang=en-US",
              # No network: every http(s) and ws(s) request to a closed
              # port on loopback (loopback included: <-loopback>), no
              # name resolved.
              "--proxy-server=http://127.0.0.1:9",
              "--proxy-bypass-list=<-loopback>",
              "--host-resolver-rules=MAP * ~NOTFOUND"):
        opts.add_argument(a)
    opts.set_capability("goog:loggingPrefs",
                        {"browser": "ALL", "performance": "ALL"})
    opts.set_capability("unhandledPromptBehavior", "dismiss")
    # Chromium's own files outside the profile (crash reports, dconf)
    # under the profile's folder too, removed with it.
    env = dict(os.environ, HOME=profile,
               XDG_CONFIG_HOME=os.path.join(profile, "config"),
               XDG_CACHE_HOME=os.path.join(profile, "cache"))
    service = Service(DRIVER, log_path=os.devnull, env=env)
    driver = webdriver.Chrome(service=service, options=opts)
    driver.set_page_load_timeout(LOAD_TIMEOUT)
    driver.set_script_timeout(LOAD_TIMEOUT)
    return driver


def requests_of(entries, page_url):
    """The URLs requested other than the page itself, from the
    performance log (data: and blob: are the page's own bytes; a late
    request of the new-tab page the page replaced is not the page's)."""
    out = []
    for e in entries:
        try:
            m = json.loads(e["message"])["message"]
        except (KeyError, ValueError):
            continue
        if m.get("method") == "Network.requestWillBeSent":
            url = m["params"]["request"]["url"]
            if m["params"].get("documentURL", "").startswith("chrome:"):
                continue
        elif m.get("method") == "Network.webSocketCreated":
            url = m["params"]["url"]
        else:
            continue
        if url.split("#")[0] == page_url or \
           url.startswith(("data:", "blob:", "about:")):
            continue
        if url not in out:
            out.append(url)
    return out


def blank_check(png):
    """(not blank, what was measured) of a PNG screenshot."""
    from PIL import Image

    img = Image.open(io.BytesIO(png)).convert("RGB")
    w, h = img.size
    colours = img.getcolors(maxcolors=w * h)
    bg_n, bg = max(colours)
    ink = sum(n for n, c in colours
              if max(abs(c[i] - bg[i]) for i in range(3)) > INK_DIST)
    share = 100.0 * ink / (w * h)
    what = ("%dx%d, %.2f%% of pixels away from the background #%02x%02x%02x, "
            "%d colours" % (w, h, share, bg[0], bg[1], bg[2], len(colours)))
    return share >= MIN_INK and len(colours) >= MIN_COLOURS, what


FIGURE_JS = """
var e = document.getElementById(arguments[0]);
if (!e) return null;
var r = e.getBoundingClientRect();
var svg = e.tagName.toLowerCase() == 'svg' ? e : e.querySelector('svg');
var s = svg ? svg.getBoundingClientRect() : null;
return {tag: e.tagName.toLowerCase(), w: r.width, h: r.height,
        svg: s ? [s.width, s.height] : null};
"""

JSON_JS = """
var e = document.getElementById(arguments[0]);
if (!e) return {err: 'no element with this id'};
if (e.tagName.toLowerCase() != 'script' ||
    (e.getAttribute('type') || '').trim().toLowerCase() != 'application/json')
  return {err: 'a <' + e.tagName.toLowerCase() + ' type="' +
          (e.getAttribute('type') || '') + '">, not <script type="application/json">'};
try { return {text: JSON.stringify(JSON.parse(e.textContent))}; }
catch (x) { return {err: 'JSON.parse: ' + x.message}; }
"""

SETTLE_JS = """
var done = arguments[arguments.length - 1];
requestAnimationFrame(function () { requestAnimationFrame(function () { done(); }); });
"""


def check_page(args, rep, driver):
    page = os.path.realpath(args.page)
    url = "file://" + page
    # The logs of the first tab (Chromium's new-tab page) are drained
    # before the page's load.
    driver.get_log("browser")
    driver.get_log("performance")
    t0 = time.monotonic()
    try:
        driver.get(url)
        driver.execute_async_script(SETTLE_JS)
        loaded, why = True, ""
    except Exception as e:  # a timeout, a crash: the page did not load
        loaded, why = False, str(e).splitlines()[0] if str(e) else repr(e)
    rep.check(loaded, "%s loaded in headless Chromium %s (%.2f s)"
              % (args.page, driver.capabilities.get("browserVersion", "?"),
                 time.monotonic() - t0), [why] if why else ())
    if not loaded:
        return

    for fid in args.expect_figure:
        f = driver.execute_script(FIGURE_JS, fid)
        if f is None:
            rep.check(False, "figure %s: no element with this id" % fid)
        elif not f["svg"]:
            rep.check(False, "figure %s: a <%s> of %gx%g with no inline <svg>"
                      % (fid, f["tag"], f["w"], f["h"]))
        else:
            good = f["w"] > 0 and f["h"] > 0 and min(f["svg"]) > 0
            rep.check(good, "figure %s: a <%s> of %gx%g, its <svg> %gx%g%s"
                      % (fid, f["tag"], f["w"], f["h"], f["svg"][0],
                         f["svg"][1], "" if good else ": zero size"))

    m = driver.execute_cdp_cmd("Page.getLayoutMetrics", {})
    size = m.get("cssContentSize") or m["contentSize"]
    w = max(1, int(size["width"]))
    h = max(1, min(int(size["height"]), MAX_SHOT_HEIGHT))
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {
        "format": "png", "captureBeyondViewport": True,
        "clip": {"x": 0, "y": 0, "width": w, "height": h, "scale": 1}})
    png = base64.b64decode(shot["data"])
    if args.screenshot:
        with open(args.screenshot, "wb") as f:
            f.write(png)
    good, what = blank_check(png)
    if int(size["height"]) > h:
        what += " (the first %d pixels of %d)" % (h, int(size["height"]))
    rep.check(good, "the full-page screenshot is not blank: " + what)

    data = []
    for jid in args.json_data:
        r = driver.execute_script(JSON_JS, jid)
        if "text" in r:
            data.append(r["text"])
            rep.check(True, "JSON block %s: parsed by the browser (%d bytes)"
                      % (jid, len(r["text"])))
        else:
            rep.check(False, "JSON block %s: %s" % (jid, r["err"]))

    # The logs last: whatever the page did meanwhile is in them.
    asked = requests_of(driver.get_log("performance"), url)
    rep.check(not asked, "no request beyond the page itself"
              + ("" if not asked else ": %d requested" % len(asked)), asked)
    bad = [e for e in driver.get_log("browser")
           if e.get("level") in ("WARNING", "SEVERE")]
    rep.check(not bad, "no console warning or error"
              + ("" if not bad else ": %d" % len(bad)),
              ["%s %s: %s" % (e["level"], e.get("source", "?"), e["message"])
               for e in bad])
    for text in data:
        print(text)


def main():
    ap = argparse.ArgumentParser(
        description="Check a self-contained HTML page in headless Chromium.")
    ap.add_argument("page")
    ap.add_argument("--expect-figure", metavar="ID", action="append",
                    default=[], help="an element (or holding) an inline "
                    "<svg> of non-zero size")
    ap.add_argument("--screenshot", metavar="OUT.png",
                    help="write the full-page screenshot there")
    ap.add_argument("--json-data", metavar="ID", action="append", default=[],
                    help="print this <script type=\"application/json\"> "
                    "block as the browser parses it (checks go to stderr)")
    args = ap.parse_args()
    rep = Report(sys.stderr if args.json_data else sys.stdout)
    if not os.path.isfile(args.page):
        rep.check(False, "%s: no such file" % args.page)
        return rep.close()
    # SIGTERM and SIGHUP (and SIGINT) end the browser and its profile too.
    for s in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, lambda n, f: sys.exit(128 + n))
    t0 = time.monotonic()
    profile = tempfile.mkdtemp(prefix="page_check.")
    driver = None
    try:
        try:
            driver = start_browser(profile)
        except Exception as e:
            rep.check(False, "headless Chromium started: %s"
                      % (str(e).strip().splitlines() or [repr(e)])[0])
            return rep.close()
        try:
            check_page(args, rep, driver)
        except Exception as e:
            rep.check(False, "the checks ran: %s"
                      % (str(e).strip().splitlines() or [repr(e)])[0])
    finally:
        if driver is not None:
            try:
                driver.quit()
            except Exception:
                driver.service.stop()
        shutil.rmtree(profile, ignore_errors=True)
    rep.diag("%.2f s, Chromium's start included" % (time.monotonic() - t0))
    return rep.close()


if __name__ == "__main__":
    sys.exit(main())

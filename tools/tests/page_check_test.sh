#!/bin/bash
# page_check.py's own test, on the host: small pages written here, a good
# one (two inline SVG figures, one below the first screen, and a JSON
# block) that must pass, and bad ones that must each fail for their own
# reason alone: a console.error, a console.warn, a throw and a rejected
# promise, requests (an external script, a server of ours on 127.0.0.1
# that must see nothing, a file beside the page), a blank page, figures
# missing, hidden or without <svg> and a JSON block that is not one, a
# page that is not there.  Each bad case's not ok line is matched, and
# the count of its failures.  Last line: "N passed, N failed".
set -uo pipefail
top=$(realpath "$(dirname "$0")/../..")
PC="/usr/bin/python3 $top/tools/tests/page_check.py"
pass=0 fail=0
tmp=$(mktemp -d)
srv=
trap '[ -n "$srv" ] && kill "$srv" 2> /dev/null; rm -rf "$tmp"' EXIT

ok() { pass=$((pass + 1)); echo "ok - $*"; }
notok() { fail=$((fail + 1)); echo "not ok - $*"; sed 's/^/#   /' "$tmp/out"; }

# page NAME BODY: $tmp/NAME.html, a page whose body is BODY after a
# heading, a paragraph and an inline SVG figure (fig-a, bars and a line:
# about 3% of the first screen's pixels).
page() {
	cat > "$tmp/$1.html" <<EOF
<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>$1</title></head>
<body>
<h1>clkstat: $1</h1>
<p>A recording's summary, a table and a figure.</p>
<svg id="fig-a" width="480" height="240" viewBox="0 0 480 240">
 <rect x="0" y="0" width="480" height="240" fill="#f4f4f4" stroke="#333"/>
 <rect x="40" y="120" width="60" height="100" fill="#1f77b4"/><rect x="120" y="60" width="60" height="160" fill="#1f77b4"/>
 <rect x="200" y="90" width="60" height="130" fill="#1f77b4"/><rect x="280" y="30" width="60" height="190" fill="#1f77b4"/>
 <polyline points="20,220 120,60 220,140 320,40 460,200" fill="none" stroke="#ff7f0e" stroke-width="3"/>
</svg>
$2
</body></html>
EOF
}

# run OUT-FILE ARGS...: page_check.py's output (stdout and stderr) in
# OUT-FILE; its status in $rc.
run() {
	local out=$1
	shift
	$PC "$@" > "$out" 2>&1
	rc=$?
}

# bad NAME FAILURES PATTERN... -- ARGS...: page_check.py ARGS must exit
# 1 with FAILURES not ok lines, each PATTERN (grep -E) matching one line.
bad() {
	local name=$1 n=$2 pat pats=() why=""
	shift 2
	while [ "$1" != -- ]; do pats+=("$1"); shift; done
	shift
	run "$tmp/out" "$@"
	[ "$rc" = 1 ] || why="$why status $rc, not 1;"
	tail -1 "$tmp/out" | grep -qx "[0-9]* passed, $n failed" ||
		why="$why not $n failure(s): $(tail -1 "$tmp/out");"
	for pat in "${pats[@]}"; do
		grep -qE -- "$pat" "$tmp/out" || why="$why no line /$pat/;"
	done
	if [ -z "$why" ]; then ok "$name"; else notok "$name:$why"; fi
}

# The good page: a second figure below the first screen (the screenshot
# is the full page), a JSON block with a fraction, an exponent and a
# non-ASCII string, a script that draws into the page.
page good '<div style="height:1600px"></div>
<figure id="fig-b"><svg width="300" height="200"><circle cx="150" cy="100" r="90" fill="#cc3333"/></svg>
<figcaption>Below the first screen</figcaption></figure>
<script type="application/json" id="fig-a-data">{"x": [1, 2, 3], "y": [0.1, 2.5e-7, 6], "unit": "µs", "n": null}</script>
<p id="drawn"></p><script>document.getElementById("drawn").textContent = "drawn by a script";</script>'
$PC "$tmp/good.html" --expect-figure fig-a --expect-figure fig-b --screenshot "$tmp/good.png" \
	--json-data fig-a-data > "$tmp/json" 2> "$tmp/out"
rc=$?
why=""
[ "$rc" = 0 ] || why="$why status $rc;"
tail -1 "$tmp/out" | grep -qx '[1-9][0-9]* passed, 0 failed' || why="$why $(tail -1 "$tmp/out");"
for pat in '^ok - figure fig-a: a <svg> of 480x240' '^ok - figure fig-b: a <figure> of' \
	'^ok - the full-page screenshot is not blank' '^ok - no request beyond the page itself$' \
	'^ok - no console warning or error$' '^ok - JSON block fig-a-data: parsed by the browser'; do
	grep -qE -- "$pat" "$tmp/out" || why="$why no line /$pat/;"
done
if [ -z "$why" ]; then ok "a good page passes: its figures, its screenshot, its JSON block, no request, a quiet console"; else notok "a good page passes:$why"; fi

# --json-data: the block as the browser parsed it, alone on stdout (the
# checks went to stderr).
want='{"x":[1,2,3],"y":[0.1,2.5e-7,6],"unit":"µs","n":null}'
if [ "$(cat "$tmp/json")" = "$want" ]; then
	ok "--json-data prints the block as the browser parsed it: $want"
else
	echo "stdout: $(cat "$tmp/json")" > "$tmp/out"
	notok "--json-data prints the block as the browser parsed it: $want"
fi

# The screenshot: a PNG of the whole page (1280 wide, taller than 1900),
# with the red circle of fig-b below the first screen (1024 pixels).
if /usr/bin/python3 - "$tmp/good.png" > "$tmp/out" 2>&1 <<'PY'
import sys
from PIL import Image
img = Image.open(sys.argv[1]).convert("RGB")
w, h = img.size
assert w == 1280 and h > 1900, (w, h)
red = sum(1 for y in range(1024, h, 2) for x in range(0, w, 2)
          if img.getpixel((x, y)) == (0xcc, 0x33, 0x33))
assert red > 1000, ("red pixels below the first screen", red)
print("screenshot", w, h, "red", red)
PY
then ok "--screenshot: the whole page, fig-b's circle below the first screen ($(cat "$tmp/out"))"
else notok "--screenshot: the whole page, fig-b's circle below the first screen"; fi

page console '<script>console.error("the figure has no data"); console.warn("axis range guessed");</script>'
bad "a console.error and a console.warn fail the console check alone" 1 \
	'^not ok - no console warning or error: 2$' 'SEVERE console-api: .*the figure has no data' \
	'WARNING console-api: .*axis range guessed' -- \
	"$tmp/console.html" --expect-figure fig-a

page throws '<script>Promise.reject(new Error("no data promised"));
throw new Error("cannot draw");</script>'
bad "an exception and a rejected promise fail the console check alone" 1 \
	'^not ok - no console warning or error: 2$' 'SEVERE javascript: .*Uncaught Error: cannot draw' \
	'SEVERE javascript: .*Uncaught Error: no data promised' -- \
	"$tmp/throws.html" --expect-figure fig-a

# Requests: an external script, a server of ours on loopback (which must
# see no request: the browser refuses it), a file beside the page.
port_file=$tmp/port
/usr/bin/python3 - "$port_file" "$tmp/hits" <<'PY' &
import http.server, sys, threading
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        with open(sys.argv[2], "a") as f:
            f.write(self.path + "\n")
        self.send_response(200)
        self.send_header("Content-Type", "text/javascript")
        self.end_headers()
        self.wfile.write(b"1;")
    def log_message(self, *a):
        pass
s = http.server.HTTPServer(("127.0.0.1", 0), H)
open(sys.argv[1] + ".new", "w").write(str(s.server_port))
import os; os.rename(sys.argv[1] + ".new", sys.argv[1])
threading.Timer(120, s.shutdown).start()
s.serve_forever()
PY
srv=$!
for _ in $(seq 50); do [ -s "$port_file" ] && break; sleep 0.1; done
port=$(cat "$port_file" 2> /dev/null || echo 1)
printf '1;' > "$tmp/beside.js"
page requests "<script src=\"http://example.invalid/x.js\"></script>
<script src=\"http://127.0.0.1:$port/local.js\"></script>
<script src=\"beside.js\"></script>"
bad "requests fail the request check: an external script, our loopback server, a file beside the page" 2 \
	'^not ok - no request beyond the page itself: 3 requested$' '^#   http://example.invalid/x.js$' \
	"^#   http://127.0.0.1:$port/local.js\$" "^#   file://$tmp/beside.js\$" \
	'^not ok - no console warning or error' 'x.js - Failed to load resource: net::ERR_' -- \
	"$tmp/requests.html" --expect-figure fig-a
# The server answers when asked directly (so its silence above counts).
if [ ! -s "$tmp/hits" ] && curl -sf "http://127.0.0.1:$port/direct" > /dev/null &&
   [ "$(cat "$tmp/hits")" = /direct ]; then
	ok "the browser's request never reached our server on 127.0.0.1:$port (which answers curl)"
else
	echo "hits: $(cat "$tmp/hits" 2> /dev/null)" > "$tmp/out"
	notok "the browser's request never reached our server on 127.0.0.1:$port (which answers curl)"
fi
kill "$srv" 2> /dev/null
wait "$srv" 2> /dev/null
srv=

cat > "$tmp/blank.html" <<'EOF'
<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>blank</title></head><body></body></html>
EOF
bad "a blank page fails the screenshot check alone" 1 \
	'^not ok - the full-page screenshot is not blank: .* 0.00% of pixels away from the background #ffffff, 1 colours' -- \
	"$tmp/blank.html"

# Figures: one missing, one hidden (zero size), one without <svg>, one
# whose <svg> is empty (the figure has a size: its caption's); and a
# JSON block that is a <div>, and one that does not parse.
page figs '<div id="fig-hidden" style="display:none"><svg width="100" height="100"><rect width="100" height="100"/></svg></div>
<div id="fig-nosvg" style="width:200px;height:100px;background:#88c"></div>
<figure id="fig-empty"><svg width="0" height="0"></svg><figcaption>a caption, no plot</figcaption></figure>
<div id="data-div">{"a": 1}</div>
<script type="application/json" id="data-broken">{"a": [1, 2,]}</script>'
bad "figures missing, hidden, without <svg> or with an empty one, JSON blocks not one: those checks alone fail" 6 \
	'^not ok - figure fig-missing: no element with this id$' \
	'^not ok - figure fig-hidden: a <div> of 0x0, its <svg> 0x0: zero size$' \
	'^not ok - figure fig-nosvg: a <div> of 200x100 with no inline <svg>$' \
	'^not ok - figure fig-empty: a <figure> of [0-9.]+x[0-9.]+, its <svg> 0x0: zero size$' \
	'^ok - figure fig-a: ' \
	'^not ok - JSON block data-div: a <div type="">, not <script type="application/json">$' \
	'^not ok - JSON block data-broken: JSON.parse: ' -- \
	"$tmp/figs.html" --expect-figure fig-a --expect-figure fig-missing --expect-figure fig-hidden \
	--expect-figure fig-nosvg --expect-figure fig-empty --json-data data-div --json-data data-broken

bad "a page that is not there fails" 1 "^not ok - $tmp/none.html: no such file\$" -- "$tmp/none.html"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

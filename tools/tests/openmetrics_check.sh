#!/bin/bash
# clkstat-report's two expositions against their strict readers: the
# Prometheus text format (--format prometheus, the textfile and serve's
# fallback) against Prometheus's text-format parser and linter (`promtool
# check metrics`, Debian package prometheus; node_exporter's textfile
# collector uses the same parser), the OpenMetrics one (--format
# openmetrics, what serve gives Prometheus) against the OpenMetrics parser
# of prometheus_client (python3-prometheus-client, Debian's
# /usr/bin/python3); no lint problem allowed.  The script also shows that
# the check can fail: broken variants of a good exposition must be
# rejected, each by the reader that is meant to catch it.
#
# The expositions come from tools/tests/render_demo (made-up histograms
# through render_openmetrics.c); two of other data must have the same le
# strings per family, and clkstat-report must refuse a --host that is not
# UTF-8.  Prints "ok - ..." / "not ok - ..." lines
# and a last line "N passed, N failed"; exits 1 on any failure, or when a
# reader or render_demo is missing.
set -uo pipefail
top=$(realpath "$(dirname "$0")/../..")
demo=$top/tools/tests/render_demo
# install-deps.sh unpacks promtool under the cache (installing the package
# would start a Prometheus server); a promtool on PATH does as well.
cache=${CLKSTAT_CACHE:-/var/cache/clkstat}
if [ -z "${PROMTOOL:-}" ]; then
	PROMTOOL=$cache/prometheus/usr/bin/promtool
	[ -x "$PROMTOOL" ] || PROMTOOL=$(command -v promtool || echo "$PROMTOOL")
fi
PYTHON=${PYTHON:-/usr/bin/python3}
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { pass=$((pass + 1)); echo "ok - $*"; }
notok() { fail=$((fail + 1)); echo "not ok - $*"; }
# The first lines of a reader's complaint, as diagnostics.
diag() { head -3 "$1" | sed 's/^/#   /'; }

missing=
[ -x "$PROMTOOL" ] || missing="$missing promtool ($PROMTOOL; Debian package prometheus)"
"$PYTHON" -c 'import prometheus_client.openmetrics.parser' 2> /dev/null ||
	missing="$missing prometheus_client ($PYTHON; Debian package python3-prometheus-client)"
[ -x "$demo" ] || missing="$missing $demo (make tools/tests/render_demo)"
[ -x "$top/tools/clkstat-report" ] || missing="$missing $top/tools/clkstat-report (make tools)"
if [ -n "$missing" ]; then
	notok "missing:$missing"
	echo "$pass passed, $fail failed"
	exit 1
fi

# promtool: exit 0 and not a word (lint problems go to stderr, exit 3).
promtool_ok() {
	"$PROMTOOL" check metrics < "$1" > "$tmp/promtool.out" 2>&1 &&
		[ ! -s "$tmp/promtool.out" ]
}

# The OpenMetrics parser is a generator: every family must be read for it
# to reach the end (and # EOF).
python_ok() {
	"$PYTHON" - "$1" > "$tmp/python.out" 2>&1 <<'EOF'
import sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families
with open(sys.argv[1], encoding="utf-8") as f:
    text = f.read()
try:
    families = list(text_string_to_metric_families(text))
except Exception as e:
    print("%s: %s" % (type(e).__name__, e))
    sys.exit(1)
types = sorted({(f.name, f.type) for f in families})
print(" ".join("%s:%s" % t for t in types))
EOF
}

# Good expositions: each format's reader accepts it (FILE the OpenMetrics
# one, FILE.prom the text format).
check_good() {
	local what=$1 file=$2 bad=0
	shift 2
	if ! "$demo" openmetrics "$@" > "$file" ||
	   ! "$demo" prometheus "$@" > "$file.prom"; then
		notok "$what: render_demo failed"
		return
	fi
	if promtool_ok "$file.prom"; then
		ok "$what: promtool check metrics accepts the text format"
	else
		notok "$what: promtool check metrics rejects the text format"
		diag "$tmp/promtool.out"
		bad=1
	fi
	if python_ok "$file"; then
		ok "$what: the OpenMetrics parser accepts it ($(cat "$tmp/python.out"))"
	else
		notok "$what: the OpenMetrics parser rejects it"
		diag "$tmp/python.out"
		bad=1
	fi
	return $bad
}

# The grid: every histogram series of a file has the same le bounds.
grid_ok() {
	awk '/_bucket\{/ {
		s = $0; sub(/,le="[^"]*"\}.*/, "", s); le = $0
		sub(/.*,le="/, "", le); sub(/".*/, "", le)
		if (s != cur) { if (cur != "") sets[list]++; cur = s; list = "" }
		list = list " " le
	} END { if (cur != "") sets[list]++; n = 0; for (l in sets) n++; exit n != 1 }' "$1"
}

check_good "every metric, per CPU, wide and odd names (a user-defined probe's spec too)" "$tmp/full.om" \
	--per-cpu --wide --weird
if grid_ok "$tmp/full.om" && grid_ok "$tmp/full.om.prom"; then
	ok "every histogram series has the same le bounds (both formats)"
else
	notok "histogram series with different le bounds"
fi
# Across expositions: other data (another host, a later scrape) must have
# the same le strings per histogram family, or sum by (le) over them keeps
# each bucket apart.  The check must see a grid that differs.
le_set() {
	awk '/_bucket\{/ { f = $0; sub(/_bucket\{.*/, "", f); le = $0
		sub(/.*,le="/, "", le); sub(/".*/, "", le); print f, le }' "$1" | sort -u
}
"$demo" openmetrics --per-cpu --wide --weird --seed 7 > "$tmp/seed.om"
"$demo" prometheus --per-cpu --wide --weird --seed 7 > "$tmp/seed.om.prom"
"$demo" openmetrics --per-cpu --wide --weird --grid 2:16ns:20s > "$tmp/grid.om"
if ! cmp -s "$tmp/full.om" "$tmp/seed.om" &&
   [ "$(le_set "$tmp/full.om")" = "$(le_set "$tmp/seed.om")" ] &&
   [ "$(le_set "$tmp/full.om.prom")" = "$(le_set "$tmp/seed.om.prom")" ] &&
   [ "$(le_set "$tmp/full.om")" = "$(le_set "$tmp/full.om.prom")" ] &&
   [ "$(le_set "$tmp/full.om" | wc -l)" = $((2 * 118)) ] &&
   [ "$(le_set "$tmp/full.om")" != "$(le_set "$tmp/grid.om")" ]; then
	ok "other data, the same le set per family (both formats); another grid's told apart"
else
	notok "two expositions of other data differ in their le sets (or the check missed another grid)"
fi
# --host: a label value that is not UTF-8 would make Prometheus refuse
# every scrape; one line, exit status 2, before anything is read.
out=$("$top/tools/clkstat-report" --format openmetrics --host $'caf\xe9' -i /nonexistent 2>&1)
rc=$?
if [ "$rc" = 2 ] && [ "$(wc -l <<< "$out")" = 1 ] && grep -q 'UTF-8' <<< "$out"; then
	ok "--host not UTF-8: one line, exit status 2"
else
	notok "--host not UTF-8: exit status $rc: $out"
fi
check_good "all CPUs only" "$tmp/all.om"
check_good "an empty histogram and a zero counter" "$tmp/empty.om" \
	--metric idle
check_good "no metric at all" "$tmp/none.om" --metric nosuch

# Broken expositions, made from the good one: the reader named must reject
# it (and so must the check as a whole).
expect_reject() {
	local what=$1 reader=$2 file=$3
	if "${reader}_ok" "$file"; then
		notok "$what: $reader accepted it"
	else
		ok "$what: $reader rejects it: $(head -1 "$tmp/$reader.out")"
	fi
}

good=$tmp/full.om
# A bucket of the first series (the 60th bound: samples below it) set to 0.
awk '/_bucket\{/ && ++n == 60 { sub(/ [0-9]+$/, " 0") } { print }' "$good" > "$tmp/noncum.om"
if cmp -s "$good" "$tmp/noncum.om"; then
	notok "non-cumulative buckets: that bucket was 0 already, nothing to check"
else
	expect_reject "non-cumulative buckets" python "$tmp/noncum.om"
fi
# The first two buckets swapped: le no longer increasing.
awk '/_bucket\{/ && ++n == 1 { held = $0; next } { print } n == 2 && held != "" { print held; held = "" }' \
	"$good" > "$tmp/order.om"
expect_reject "le out of order" python "$tmp/order.om"
# No "# EOF".
grep -v '^# EOF$' "$good" > "$tmp/noeof.om"
expect_reject "no # EOF" python "$tmp/noeof.om"
# The OpenMetrics exposition is not the text format: its counter family
# (clkstat_events, samples clkstat_events_total) and _created samples are
# untyped families without help text to Prometheus's text parser, which
# promtool's lint rejects.  This is why serve negotiates the format.
expect_reject "the OpenMetrics exposition as the text format" promtool "$good"
# A value that is not a number.
awk '/_count\{/ && ++n == 1 { sub(/ [0-9]+$/, " 12x") } { print }' "$good.prom" > "$tmp/nan.prom"
awk '/_count\{/ && ++n == 1 { sub(/ [0-9]+$/, " 12x") } { print }' "$good" > "$tmp/nan.om"
expect_reject "a value that is not a number" promtool "$tmp/nan.prom"
expect_reject "a value that is not a number" python "$tmp/nan.om"
# A histogram series missing a bound of the grid: still valid to both
# readers (the grid is ours), so check_grid() must catch it.
awk '/_bucket\{/ && ++n == 5 { next } { print }' "$good" > "$tmp/hole.om"
if python_ok "$tmp/hole.om" && ! grid_ok "$tmp/hole.om"; then
	ok "a bound missing from one series: readers accept it, the grid check rejects it"
else
	notok "a bound missing from one series: the grid check let it through"
fi
# A histogram series without its +Inf bucket.
grep -v 'le="+Inf"' "$good" > "$tmp/noinf.om"
expect_reject "no +Inf bucket" python "$tmp/noinf.om"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

#!/bin/bash
# clkstat-report's OpenMetrics output against two strict readers:
# Prometheus's text-format parser and linter (`promtool check metrics`,
# Debian package prometheus; node_exporter's textfile collector uses the
# same parser) and the OpenMetrics parser of prometheus_client
# (python3-prometheus-client, Debian's /usr/bin/python3).  Each exposition
# must pass both, with no lint problem.  The script also shows that the
# check can fail: broken variants of a good exposition must be rejected,
# each by the reader that is meant to catch it.
#
# The expositions come from tools/tests/render_demo (made-up histograms
# through render_openmetrics.c).  Prints "ok - ..." / "not ok - ..." lines
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

# Good expositions: both readers accept them.
check_good() {
	local what=$1 file=$2 bad=0
	shift 2
	if ! "$demo" openmetrics "$@" > "$file"; then
		notok "$what: render_demo failed"
		return
	fi
	if promtool_ok "$file"; then
		ok "$what: promtool check metrics accepts it"
	else
		notok "$what: promtool check metrics rejects it"
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

check_good "every metric, per CPU, wide and odd names (a user-defined probe's spec too)" "$tmp/full.om" \
	--per-cpu --wide --weird
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
# The second bucket of the first series lower than the first.
awk '/_bucket\{/ && ++n == 2 { sub(/ [0-9]+$/, " 0") } { print }' "$good" > "$tmp/noncum.om"
cmp -s "$good" "$tmp/noncum.om" || expect_reject "non-cumulative buckets" python "$tmp/noncum.om"
# The first two buckets swapped: le no longer increasing.
awk '/_bucket\{/ && ++n == 1 { held = $0; next } { print } n == 2 && held != "" { print held; held = "" }' \
	"$good" > "$tmp/order.om"
expect_reject "le out of order" python "$tmp/order.om"
# No "# EOF".
grep -v '^# EOF$' "$good" > "$tmp/noeof.om"
expect_reject "no # EOF" python "$tmp/noeof.om"
# The counters as an OpenMetrics counter family ("# TYPE clkstat_events
# counter", samples clkstat_events_total): valid OpenMetrics, but
# Prometheus's text parser files the samples under an untyped family
# without help text, which promtool's lint rejects.  This is why
# render_openmetrics.c gives the counters no TYPE line.
sed 's/^# HELP clkstat_events_total .*/# TYPE clkstat_events counter\n# HELP clkstat_events Events./' \
	"$good" > "$tmp/omcounter.om"
expect_reject "counters as an OpenMetrics counter family" promtool "$tmp/omcounter.om"
if python_ok "$tmp/omcounter.om"; then
	echo "#   (the OpenMetrics parser accepts that one: $(cat "$tmp/python.out"))"
fi
# A value that is not a number.
awk '/_count\{/ && ++n == 1 { sub(/ [0-9]+$/, " 12x") } { print }' "$good" > "$tmp/nan.om"
expect_reject "a value that is not a number" promtool "$tmp/nan.om"
expect_reject "a value that is not a number" python "$tmp/nan.om"
# A histogram series without its +Inf bucket.
grep -v 'le="+Inf"' "$good" > "$tmp/noinf.om"
expect_reject "no +Inf bucket" python "$tmp/noinf.om"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

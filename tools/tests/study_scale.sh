#!/bin/bash
# study_scale.sh - the study file at a study's scale, printed (not pass
# or fail): studies of 300 runs of 10,000 and of 100,000 made-up events
# (study_bench: 3 x 10^6 and 3 x 10^7 events, variants kprobe and
# bpf-kprobe alternated, their histograms made of the events), then each
# reader timed on them with its peak memory (/usr/bin/time): events as
# CSV, a histogram --compare, xcorr, info; the same on the JSON snapshot
# that export makes of the smaller one, side by side.  The targets, from
# the issue that made studies, are printed beside the figures:
# writing >= 1 million events/s, events CSV >= 1 million rows/s, a
# --compare under 1 s, xcorr under 30 s, peak memory under 256 MB.
# Documentation/clkstat-study.rst, "Size and speed", shows a run.
# usage: study_scale.sh [EVENTS_PER_RUN...] (default 10000 100000)
set -euo pipefail
top=$(realpath "$(dirname "$0")/../..")
R=$top/tools/clkstat-report
B=$top/tools/tests/study_bench
[ -x "$R" ] && [ -x "$B" ] || { echo "study_scale: make tools first" >&2; exit 1; }
work=$(mktemp -d /var/tmp/study_scale.XXXXXX)
trap 'rm -rf "$work"' EXIT
runs=300
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(10000 100000)

# timed LABEL EVENTS TARGET CMD...: one line, seconds, rate, peak RSS.
timed() {
	local label=$1 events=$2 target=$3 t s kb
	shift 3
	/usr/bin/time -f '%e %M' -o "$work/time" "$@" > /dev/null 2> "$work/err" || {
		printf '  %-34s failed: %s\n' "$label" "$(tail -1 "$work/err")"
		return 0
	}
	read -r s kb < "$work/time"
	t=$(awk -v s="$s" -v n="$events" -v kb="$kb" 'BEGIN {
		r = s > 0 ? n / s : 0
		printf "%7.2f s  %10.0f /s  %6.0f MB", s, r, kb / 1024 }')
	printf '  %-34s %s%s\n' "$label" "$t" "${target:+   ($target)}"
}

echo "# study files at scale: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
for n in "${sizes[@]}"; do
	total=$((runs * n))
	db=$work/s$n.db
	echo "study: $runs runs x $n events = $total events"
	"$B" "$n" "$runs" "$db" | sed 's/^/  study_bench /'
	timed "events --format csv" $total ">= 1000000 rows/s, < 256 MB" \
		"$R" -i "$db" events --format csv
	timed "--compare (histograms)" $total "< 1 s, < 256 MB" \
		"$R" -i "$db" --compare bpf-kprobe --base kprobe --metric ttwu_tkread
	timed "xcorr wakeup first_tkread" $total "< 30 s, < 256 MB" \
		"$R" -i "$db" xcorr wakeup first_tkread
	timed "info" $total "< 256 MB" "$R" -i "$db" info
	# JSON beside it where it still runs: the smaller study only (the
	# larger one's snapshot would be about 2.5 GB and take 25 GB to read).
	if [ "$n" = "${sizes[0]}" ]; then
		json=$work/s$n.json
		timed "export --format json" $total "" \
			"$R" -i "$db" export --format json -o "$json"
		echo "  JSON snapshot: $(stat -c %s "$json") bytes, $(awk -v b="$(stat -c %s "$json")" -v n=$total 'BEGIN { printf "%.1f", b / n }') bytes per event"
		timed "JSON: events --format csv" $total "" \
			"$R" -i "$json" events --format csv
		timed "JSON: --compare (histograms)" $total "" \
			"$R" -i "$json" --compare bpf-kprobe --base kprobe --metric ttwu_tkread
		timed "JSON: xcorr wakeup first_tkread" $total "" \
			"$R" -i "$json" xcorr wakeup first_tkread
		rm -f "$json"
	fi
	rm -f "$db"
done

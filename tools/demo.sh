#!/bin/bash
# The demo: boot a QEMU guest on a Debian kernel (the line CLKSTAT_KVER
# names, which `make demo` sets from KVER; else tools/vm/kernels.sh's
# default, 6.12), load clkstat with the ttwu and tkread probes (default
# variant, direct), run a wakeup-heavy workload (hackbench, then the
# pinned ping-pong reading the clock after each wakeup), and print the
# report: clkstat-report's table and histogram of the headline metric,
# every metric's summary, then `record` of 4 runs alternating the direct
# and kprobe variants, reported per variant from the study file, their
# bootstrap comparison, the same against the BPF twin (ftrace and
# bpf-fentry alternated).  One debugfs file is shown right after the
# first report, while it still holds that workload: record resets the
# metrics at each run.  It ends with the figures of the first study and
# its page (plot, --html), drawn on the host, and their paths.
#
# Only the demo's part of the console is shown.  run-guest.sh's own
# messages (why a guest could not start) go to stderr, past the filter;
# and when the guest fails before the demo's first line, the end of its
# console is shown, so that the reason always reaches the user.
set -euo pipefail
top=$(realpath "$(dirname "$0")/..")
cd "$top"
mkdir -p build
# record makes a new study each time (it never writes over a file).
rm -f build/demo/runs.db build/demo/bpf.db
set +e
tools/vm/run-guest.sh --out build/demo --timeout 900 -- bash -c '
	set -e
	R=tools/clkstat-report
	PP=tools/workload/clkstat-pingpong
	echo "### Every latency below is this guest'"'"'s: QEMU TCG emulates its CPUs in software,"
	echo "### so these are emulated time, not this machine'"'"'s hardware (tens of us where"
	echo "### hardware takes a few)."
	echo "### insmod kmod/clkstat.ko probes=ttwu,tkread"
	insmod kmod/clkstat.ko probes=ttwu,tkread
	echo "### hackbench -g 4 -l 500 (wakeup storm), then 2000 pinned ping-pong rounds,"
	echo "### half of them migrating, each wakeup followed by a clock_gettime syscall"
	hackbench -g 4 -l 500 -P
	$PP -n 1000 -c 0,1 --reads 1 > /dev/null
	$PP -n 1000 -c 0,1 --reads 1 --migrate > /dev/null
	echo stop > /sys/kernel/debug/clkstat/control
	echo "### clkstat-report --metric ttwu_tkread"
	$R --metric ttwu_tkread
	echo "### clkstat-report --no-hist"
	$R --no-hist
	# The same workload as debugfs shows it, before record resets the
	# metrics for its runs (after record they hold nothing: each run
	# starts with a reset).  A file with no sample here fails the demo
	# rather than be shown as data.
	echo "### grep -v \"^slot\" /sys/kernel/debug/clkstat/ttwu_tkread.direct   (the workload above, for people)"
	f=/sys/kernel/debug/clkstat/ttwu_tkread.direct
	grep -v "^slot" $f
	grep -q "^summary count [1-9]" $f ||
		{ echo "demo: $f holds no sample" >&2; exit 1; }
	echo "### clkstat-report record -o build/demo/runs.db --runs 4 --variants direct,kprobe \\"
	echo "###     -- clkstat-pingpong -n 500 -c 0,1 --reads 1 --migrate"
	# (stderr through a pipe: one progress line per run, not a redrawn one)
	$R record -o build/demo/runs.db --runs 4 --variants direct,kprobe \
		-- $PP -n 500 -c 0,1 --reads 1 --migrate 2>&1 > /dev/null | cat
	echo "### clkstat-report -i build/demo/runs.db info"
	$R -i build/demo/runs.db info | grep -v "^param\|^module_params"
	echo "### clkstat-report -i build/demo/runs.db --metric ttwu_tkread --no-hist   (4 runs pooled per variant)"
	$R -i build/demo/runs.db --metric ttwu_tkread --no-hist
	echo "### clkstat-report -i build/demo/runs.db --compare kprobe --metric ttwu_tkread"
	echo "###     (4 runs only: the tool warns below 10 per variant; the study clkstat was made for used 200 to 300)"
	$R -i build/demo/runs.db --compare kprobe --metric ttwu_tkread
	echo "### clkstat-report record -o build/demo/bpf.db --runs 4 --variants ftrace,bpf-fentry \\"
	echo "###     -- clkstat-pingpong -n 500 -c 0,1 --reads 1 --migrate   (the BPF twin: same probes, same buckets)"
	$R record -o build/demo/bpf.db --runs 4 --variants ftrace,bpf-fentry \
		-- $PP -n 500 -c 0,1 --reads 1 --migrate 2>&1 > /dev/null | cat
	echo "### clkstat-report -i build/demo/bpf.db --compare bpf-fentry --base ftrace --metric ttwu_tkread"
	$R -i build/demo/bpf.db --compare bpf-fentry --base ftrace --metric ttwu_tkread
	echo "### clkstat-report -i build/demo/runs.db --metric ttwu_tkread.kprobe --csv"
	$R -i build/demo/runs.db --metric ttwu_tkread.kprobe --csv
	rmmod clkstat' | tr -d '\r' |
	# The first line shares the console with firmware escape codes.
	sed -e 's/^.*### insmod/### insmod/' | sed -n '/^### insmod/,$p' |
	grep -v '^\[ *[0-9.]*\] reboot'
rc=${PIPESTATUS[0]}
set -e
if [ "$rc" != 0 ]; then
	if [ ! -f build/demo/console.log ]; then
		echo "demo: failed before the guest started (exit status $rc)" >&2
		exit "$rc"
	fi
	if ! grep -q '### insmod' build/demo/console.log; then
		echo "demo: the guest's console ended with:" >&2
		tr -d '\r' < build/demo/console.log | tail -15 >&2
	fi
	echo "demo: failed (exit status $rc); the whole console: build/demo/console.log" >&2
	exit "$rc"
fi
# The pictures of the demo's own study, drawn on this machine (gnuplot
# needs no guest): each figure of plot, and the page with the text.
echo "### clkstat-report plot -i build/demo/runs.db --compare kprobe --base direct --kind K -o build/demo/K.svg"
for k in percentiles hist forest runs; do
	tools/clkstat-report plot -i build/demo/runs.db --compare kprobe --base direct \
		--kind $k -o build/demo/$k.svg
done
echo "### clkstat-report -i build/demo/runs.db --compare kprobe --base direct --html build/demo/study.html"
tools/clkstat-report -i build/demo/runs.db --compare kprobe --base direct \
	--html build/demo/study.html > /dev/null
echo "### the figures: $(for k in percentiles hist forest runs; do printf '%s ' "$top/build/demo/$k.svg"; done)"
echo "### the page (open it in a browser; it needs nothing else): $top/build/demo/study.html"

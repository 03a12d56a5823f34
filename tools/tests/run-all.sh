#!/bin/bash
# Every clkstat test, in order: userspace unit tests (cmocka), the
# statistics of --compare against scipy and by simulation, kernel style
# (checkpatch.pl, sparse), KUnit on a test kernel of our own, the
# integration tests in a guest on Debian's stock kernel, a short soak
# there, and the hardening suites on a debug kernel of our own (KASAN, kmemleak, lockdep, UBSAN,
# fault injection); then the printed benchmarks.  Each stage ends with "N passed, N failed"; the last line
# adds them up.  Exit status 0 only if nothing failed.
set -uo pipefail
top=$(realpath "$(dirname "$0")/../..")
cd "$top"
total_pass=0 total_fail=0

stage() {	# stage NAME COMMAND...: run it, add up its closing line
	local name=$1; shift
	echo "=== $name"
	"$@" 2>&1 | tee "build/stage-$name.log"
	local line
	line=$(tr -d '\r' < "build/stage-$name.log" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -1)
	if [ -z "$line" ]; then
		echo "$name: ended without a result line"
		total_fail=$((total_fail + 1))
		return
	fi
	total_pass=$((total_pass + $(echo "$line" | awk '{ print $1 }')))
	total_fail=$((total_fail + $(echo "$line" | awk '{ print $3 }')))
}

mkdir -p build
stage unit tools/tests/unit.sh
stage stats tools/tests/stats.sh
stage style tools/tests/style.sh
stage kunit tools/tests/kunit.sh
stage guest tools/tests/guest.sh
# The soak, short: CLKSTAT_SOAK_CYCLES load/unload cycles and as many
# variant switches under the storm (1000 each: `make soak`).
CLKSTAT_SOAK_CYCLES=${CLKSTAT_SOAK_CYCLES:-50} CLKSTAT_SOAK_SWITCHES=${CLKSTAT_SOAK_SWITCHES:-50} \
	stage soak tools/tests/guest.sh --suite hardening_soak.sh
stage debug tools/tests/debug.sh
echo "=== benchmarks (printed, not pass/fail)"
tools/tests/bench.sh || echo "benchmarks could not run"
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" = 0 ]

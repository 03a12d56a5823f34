#!/bin/bash
# Every clkstat test, in order: userspace unit tests (cmocka), the
# statistics of --compare against scipy and by simulation, kernel style
# (checkpatch.pl, sparse), KUnit on a test kernel of our own, the
# integration tests in a guest on Debian's stock kernel, a short soak and
# the security and race suites there, and the hardening suites on a debug
# kernel of our own (KASAN, kmemleak, lockdep, UBSAN, fault injection);
# then the printed benchmarks.  Each stage ends with "N passed, N failed";
# the last line adds them up.  Exit status 0 only if nothing failed.
#
# Time: CI gives `make check` 90 minutes on 2 cores, the packages'
# installation and both test kernels' builds included.  A QEMU guest
# under single-threaded TCG keeps one core busy, so the work is laid out
# for two:
#   - the test kernels build (both cores) while the host-only stages run;
#   - the debug kernel's stage (one guest, the longest) runs beside the
#     stages on Debian's kernel (one guest at a time);
#   - the benchmarks run last and alone, since they print timings.
# Each stage's wall time is printed with it, and all of them at the end.
set -uo pipefail
top=$(realpath "$(dirname "$0")/../..")
cd "$top"
total_pass=0 total_fail=0 times=""
mkdir -p build

# run_stage NAME COMMAND...: run it, its output in build/stage-NAME.log
# (and on stdout with --tee), its wall time in build/stage-NAME.time.
run_stage() {
	local tee=0 t0=$SECONDS
	[ "$1" = --tee ] && { tee=1; shift; }
	local name=$1; shift
	if [ $tee = 1 ]; then
		echo "=== $name"
		"$@" 2>&1 | tee "build/stage-$name.log"
	else
		"$@" > "build/stage-$name.log" 2>&1
	fi
	echo $((SECONDS - t0)) > "build/stage-$name.time"
}

# count_stage NAME [--print]: add up the stage's closing line.
count_stage() {
	local name=$1 line s
	s=$(cat "build/stage-$name.time" 2>/dev/null || echo "?")
	if [ "${2:-}" = --print ]; then
		echo "=== $name (ran beside the others)"
		cat "build/stage-$name.log"
	fi
	echo "=== $name: $s s"
	times="$times $name ${s}s"
	line=$(tr -d '\r' < "build/stage-$name.log" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -1)
	if [ -z "$line" ]; then
		echo "$name: ended without a result line"
		total_fail=$((total_fail + 1))
		return
	fi
	total_pass=$((total_pass + $(echo "$line" | awk '{ print $1 }')))
	total_fail=$((total_fail + $(echo "$line" | awk '{ print $3 }')))
}

stage() { run_stage --tee "$@"; count_stage "$1"; }

t_all=$SECONDS
# The test kernels (cached in /var/cache/clkstat; about 8 minutes on 2
# cores when they are not).  A failed build shows in the stages that need
# the kernel: they build it again and report.
(
	t0=$SECONDS
	tools/vm/build-test-kernel.sh kunit/kernel.config &&
	tools/vm/build-test-kernel.sh kunit/kernel.config tools/vm/debug.config
	echo "test kernels: $((SECONDS - t0)) s (exit status $?)"
) > build/kernels.log 2>&1 &
kernels=$!

stage unit tools/tests/unit.sh
stage stats tools/tests/stats.sh
stage style tools/tests/style.sh
wait "$kernels"
tail -1 build/kernels.log
stage kunit tools/tests/kunit.sh

run_stage debug tools/tests/debug.sh &
debug=$!
stage guest tools/tests/guest.sh
# The soak, short: CLKSTAT_SOAK_CYCLES load/unload cycles and as many
# variant switches under the storm (1000 each: `make soak`).
CLKSTAT_SOAK_CYCLES=${CLKSTAT_SOAK_CYCLES:-50} CLKSTAT_SOAK_SWITCHES=${CLKSTAT_SOAK_SWITCHES:-50} \
	stage soak tools/tests/guest.sh --suite hardening_soak.sh
stage security tools/tests/guest.sh --suite hardening_security.sh
stage race tools/tests/guest.sh --suite hardening_race.sh
echo "=== waiting for the debug kernel's stage"
wait "$debug"
count_stage debug --print

echo "=== benchmarks (printed, not pass/fail)"
t0=$SECONDS
tools/tests/bench.sh || echo "benchmarks could not run"
times="$times bench $((SECONDS - t0))s"
echo "=== wall time per stage:$times; all $((SECONDS - t_all)) s"
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" = 0 ]

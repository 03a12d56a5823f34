#!/bin/bash
# Run guest integration tests (tools/tests/guest/module_tests.sh [TEST...]) in a
# QEMU guest on one of Debian's kernels, then check the guest's console for
# kernel complaints as one more test.  Last line: "N passed, N failed".
#
# usage: guest.sh [--kver LINE] [TEST...]     module_tests.sh: every area
#                                             suite of clkstat.ko
#                                             (suite_*.sh) in one boot,
#                                             or the TESTs named, of any
#        guest.sh [--kver LINE] [--fault-hooks] --suite SCRIPT [TEST...]
#                                             another suite of
#                                             tools/tests/guest/: an area
#                                             suite alone (suite_netlink.sh),
#                                             a hardening suite (the soak);
#                                             --fault-hooks: with modules
#                                             built with the test-only
#                                             fault hooks (fault-modules.sh)
# --kver LINE: the kernel line (tools/vm/kernels.sh: 6.1, 6.12, 7.3);
# without it, the one CLKSTAT_KVER names (`make check` sets it from its
# KVER), else kernels.sh's default.  The guest's output goes to
# build/LINE/ (guest-tests*, guest-SUITE*), so that two lines can run at
# once.  The hardening suites' knobs (CLKSTAT_SOAK_*, CLKSTAT_FAULT_*,
# CLKSTAT_RACE_*) reach the guest through run-guest.sh.
# CLKSTAT_GUEST_TIMEOUT: the guest's limit in seconds (default 1500).
# CLKSTAT_GUEST_APPEND: more kernel command line for the guest
# (run-guest.sh --append), e.g. tsc=reliable for the clock tests.
# CLKSTAT_VALGRIND, CLKSTAT_KMOD: below.
set -uo pipefail
top=$(realpath "$(dirname "$0")/../..")
suite=module_tests.sh
fault_hooks=0
kline=""
while [ $# -gt 0 ]; do
	case "$1" in
	--kver) kline=$2; shift 2 ;;
	--fault-hooks) fault_hooks=1; shift ;;
	--suite) suite=$2; shift 2 ;;
	*) break ;;
	esac
done
cd "$top"
# CLKSTAT_VALGRIND: 1 (default) the tool under valgrind where a test
# says so, 0 the same commands without it (lib.sh's valgrind()); the
# commands that only read a snapshot run under it here, after the guest
# (lib.sh's read_valgrind).
case "${CLKSTAT_VALGRIND:-1}" in
0|1) ;;
*) echo "guest: CLKSTAT_VALGRIND='$CLKSTAT_VALGRIND': 0 (without valgrind) or 1 (under it)"
   echo "0 passed, 1 failed"
   exit 1 ;;
esac
[ -f "tools/tests/guest/$suite" ] || {
	echo "guest: no suite '$suite' (suites: $(cd tools/tests/guest && ls suite_*.sh hardening_*.sh module_tests.sh | xargs))"
	echo "0 passed, 1 failed"
	exit 1
}
kline=${kline:-${CLKSTAT_KVER:-$(tools/vm/kernels.sh default)}}
tools/vm/kernels.sh lines | grep -qxF -- "$kline" || {
	echo "guest: unknown kernel line '$kline' (lines: $(tools/vm/kernels.sh lines | xargs))"
	echo "0 passed, 1 failed"
	exit 1
}
mkdir -p "build/$kline"
out=$top/build/$kline/guest-tests${1:+-$1}
[ "$suite" = module_tests.sh ] || out=$top/build/$kline/guest-${suite%.sh}${1:+-$1}
# The modules are built for the line (tools/vm/kernels.sh build) unless
# CLKSTAT_KMOD names modules already built for it, once for every stage of
# a line: in build/kmod/LINE (with the fault hooks build/kmod/LINE-fault),
# reused while the sources are the same (kernels.sh build --reuse;
# kernel-builds.sh builds the same).
if [ -z "${CLKSTAT_KMOD:-}" ]; then
	vars=() kout=$top/build/kmod/$kline
	[ $fault_hooks = 0 ] || { vars=(CLKSTAT_FAULT_HOOKS=1); kout=$kout-fault; }
	if ! tools/vm/kernels.sh build --reuse "$kline" "$kout" "${vars[@]}"; then
		echo "guest: the modules did not build for $kline; see $kout.log"
		echo "0 passed, 1 failed"
		exit 1
	fi
	export CLKSTAT_KMOD=$kout/kmod
fi
# The snapshot readers the tests queue for valgrind (lib.sh's
# read_valgrind), run here after the guest.
vq=$out/valgrind-queue
rm -rf "$vq"
if [ "${CLKSTAT_VALGRIND:-1}" = 1 ]; then
	mkdir -p "$vq"
	export CLKSTAT_VALGRIND_QUEUE=$vq
fi
tools/vm/run-guest.sh --kver "$kline" --out "$out" --timeout "${CLKSTAT_GUEST_TIMEOUT:-1500}" \
	${CLKSTAT_GUEST_APPEND:+--append "$CLKSTAT_GUEST_APPEND"} -- \
	bash "tools/tests/guest/$suite" "$@" > "$out.log" 2>&1
rc=$?
# Lines may share the console with firmware escape codes: match anywhere.
tr -d '\r' < "$out.log" | grep -oE '((not )?ok [0-9]+ - .*|^    .*)' || true
line=$(tr -d '\r' < "$out.log" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -1)
passed=$(echo "$line" | awk '{ print $1 }')
failed=$(echo "$line" | awk '{ print $3 }')
if [ -z "$line" ]; then
	# run-guest.sh's own reason, if it gave one (a guest that never ran)
	grep '^run-guest:' "$out.log" >&2
	echo "guest: no result line (guest exit status $rc); see $out/console.log" >&2
	passed=0 failed=1
fi
if [ -s "$vq/list" ]; then
	n=0 bad=""
	while read -r f args; do
		n=$((n + 1))
		# shellcheck disable=SC2086
		valgrind -q --error-exitcode=99 --leak-check=full \
			tools/clkstat-report -i "$vq/$f" $args > /dev/null 2> "$vq/vg.err"
		[ $? != 99 ] || bad="$bad [-i $f $args: $(head -c 2000 "$vq/vg.err")]"
	done < "$vq/list"
	if [ -z "$bad" ]; then
		echo "ok - valgrind: the $n snapshot reads the guest queued"
		passed=$((passed + 1))
	else
		echo "not ok - valgrind: the $n snapshot reads the guest queued:$bad"
		failed=$((failed + 1))
	fi
fi
# The console shows every kernel message at warning level and above.
if tr -d '\r' < "$out/console.log" | grep -E 'Oops|BUG:|WARNING:|Call Trace|general protection'; then
	echo "not ok - guest console free of Oops, BUG and WARNING"
	failed=$((failed + 1))
else
	echo "ok - guest console free of Oops, BUG and WARNING"
	passed=$((passed + 1))
fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]

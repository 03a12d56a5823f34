#!/bin/bash
# Run guest integration tests (tools/tests/guest/module_tests.sh [TEST...]) in a
# QEMU guest on Debian's stock kernel, then check the guest's console for
# kernel complaints as one more test.  Last line: "N passed, N failed".
#
# usage: guest.sh [TEST...]                   module_tests.sh
#        guest.sh [--fault-hooks] --suite SCRIPT [TEST...]
#                                             another suite of
#                                             tools/tests/guest/ (the soak);
#                                             --fault-hooks: with modules
#                                             built with the test-only
#                                             fault hooks (fault-modules.sh)
# The hardening suites' knobs (CLKSTAT_SOAK_*, CLKSTAT_FAULT_*,
# CLKSTAT_RACE_*) reach the guest through run-guest.sh.
# CLKSTAT_GUEST_TIMEOUT: the guest's limit in seconds (default 1500).
set -uo pipefail
top=$(realpath "$(dirname "$0")/../..")
suite=module_tests.sh
fault_hooks=0
if [ "${1:-}" = --fault-hooks ]; then
	fault_hooks=1
	shift
fi
if [ "${1:-}" = --suite ]; then
	suite=$2
	shift 2
fi
out=$top/build/guest-tests${1:+-$1}
[ "$suite" = module_tests.sh ] || out=$top/build/guest-${suite%.sh}${1:+-$1}
cd "$top"
if [ $fault_hooks = 1 ]; then
	kdir=${KDIR:-$(ls -d /lib/modules/*/build | sort -V | tail -1)}
	if ! tools/tests/fault-modules.sh "$out-kmod" -C "$kdir"; then
		echo "guest: the modules with fault hooks did not build; see $out-kmod.log"
		echo "0 passed, 1 failed"
		exit 1
	fi
	export CLKSTAT_KMOD=$out-kmod/kmod
fi
tools/vm/run-guest.sh --out "$out" --timeout "${CLKSTAT_GUEST_TIMEOUT:-1500}" -- \
	bash "tools/tests/guest/$suite" "$@" > "$out.log" 2>&1
rc=$?
# Lines may share the console with firmware escape codes: match anywhere.
tr -d '\r' < "$out.log" | grep -oE '((not )?ok [0-9]+ - .*|^    .*)' || true
line=$(tr -d '\r' < "$out.log" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -1)
passed=$(echo "$line" | awk '{ print $1 }')
failed=$(echo "$line" | awk '{ print $3 }')
if [ -z "$line" ]; then
	echo "guest: no result line (guest exit status $rc); see $out/console.log" >&2
	passed=0 failed=1
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

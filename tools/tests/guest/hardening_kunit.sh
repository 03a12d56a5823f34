#!/bin/bash
# hardening_kunit.sh - clkstat's KUnit suites on the debug kernel (built by
# tools/tests/debug.sh as CLKSTAT_KUNIT_KO): under KASAN, lockdep, UBSAN
# and kmemleak, and with two CPUs, which hist_reset_race needs (the KUnit
# kernel of tools/tests/kunit.sh boots with one, so it skips it there).
set -u
. "$(dirname "$0")/lib.sh"

t_kunit_debug() {
	local ko=${CLKSTAT_KUNIT_KO:-} res=/tmp/kunit-ktap n ok notok
	[ -n "$ko" ] && [ -f "$ko" ] || fail "no KUnit module (CLKSTAT_KUNIT_KO)"
	[ "$(nproc)" -ge 2 ] || fail "needs two CPUs, the guest has $(nproc)"
	insmod "$ko" || fail "insmod $ko"
	: > $res
	local suites=0
	for d in /sys/kernel/debug/kunit/clkstat_*; do
		cat "$d/results" >> $res
		suites=$((suites + 1))
	done
	rmmod clkstat_test
	n=$(grep -c . $res)
	ok=$(grep -cE '^    ok [0-9]+ ' $res || true)
	notok=$(grep -E '^    not ok [0-9]+ ' $res || true)
	grep -E '^    # hist_reset_race: ' $res | sed 's/^    /    /' || true
	note "$suites suites, $ok cases ok, $n lines"
	[ -z "$notok" ] || fail "failed: $notok"
	grep -qE '^    ok [0-9]+ hist_reset_race$' $res || fail "hist_reset_race did not run: $(grep hist_reset_race $res)"
	[ "$ok" -ge 20 ] || fail "only $ok cases passed"
	echo "    # report: kunit_cases $ok"
}

tests=${*:-t_kunit_debug}
for t in $tests; do
	run "$t"
done
echo "$npass passed, $nfail failed"
[ "$nfail" = 0 ]

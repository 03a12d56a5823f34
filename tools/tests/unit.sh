#!/bin/bash
# Userspace unit tests (cmocka), each also run under valgrind so that a
# leak or an invalid access fails it, and the netlink spec against the C
# header.  Last line: "N passed, N failed".
set -uo pipefail
top=$(realpath "$(dirname "$0")/../..")
cd "$top"
pass=0 fail=0
for t in tools/tests/buckets_test tools/tests/buckets_test_portable; do
	if valgrind -q --error-exitcode=99 --leak-check=full ./$t; then
		pass=$((pass + 1)); echo "ok - $t"
	else
		fail=$((fail + 1)); echo "not ok - $t"
	fi
done
# Debian's python3, which has python3-yaml (the first python3 on PATH may
# be another build).
if /usr/bin/python3 tools/tests/spec_check.py "$top"; then
	pass=$((pass + 1)); echo "ok - netlink spec matches kmod/uapi/clkstat_netlink.h"
else
	fail=$((fail + 1)); echo "not ok - netlink spec matches kmod/uapi/clkstat_netlink.h"
fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

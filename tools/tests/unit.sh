#!/bin/bash
# Userspace unit tests (cmocka), each also run under valgrind so that a
# leak or an invalid access fails it.  Last line: "N passed, N failed".
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
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

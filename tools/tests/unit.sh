#!/bin/bash
# Userspace unit tests (cmocka), each also run under valgrind so that a
# leak or an invalid access fails it, and the study reader's fuzz again
# with AddressSanitizer and UBSan, the control file's fuzzer oracle,
# the netlink family's generated C against its spec, the man page and the
# documents against the code.  What they need is a C compiler and the
# userspace libraries (make unit-tests): no kernel image, clang or bpftool
# (unit-root.sh runs this in a chroot without them), and for the
# generated C the kernel source (below).  clkstat-report as a program is
# cli.sh's.  Last line: "N passed, N failed" (", N skipped" after it in
# the chroot).
set -uo pipefail
top=$(realpath "$(dirname "$0")/../..")
cd "$top"
pass=0 fail=0 skip=0
# The cmocka tests, as the Makefile lists them (KVER= asks no kernel).
unit_tests=$(make -s --no-print-directory KVER= list-unit-tests)
[ -n "$unit_tests" ] || { echo "unit: make list-unit-tests named no test"; echo "0 passed, 1 failed"; exit 1; }
for t in $unit_tests; do
	if valgrind -q --error-exitcode=99 --leak-check=full ./$t; then
		pass=$((pass + 1)); echo "ok - $t"
	else
		fail=$((fail + 1)); echo "not ok - $t"
	fi
done
# The tests built with AddressSanitizer and UBSan over the library (the
# study reader's fuzz, make list-asan-tests), without valgrind, which
# cannot run them: any finding aborts the test.
for t in $(make -s --no-print-directory KVER= list-asan-tests); do
	if ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	   UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ./$t; then
		pass=$((pass + 1)); echo "ok - $t (ASan, UBSan)"
	else
		fail=$((fail + 1)); echo "not ok - $t (ASan, UBSan)"
	fi
done
# ctl_fuzz (tools/tests/guest/hardening_input.sh runs it against the
# module): its oracle against the verdicts the documentation states, and a
# dry run of 20000 inputs from a recorded control file, valgrind-clean and
# the same twice from one seed.
ctl=$(mktemp)
printf '%s\n' 'variant direct switches 0' 'tgid 0' 'reentered 0' \
	'probe ttwu missed 0' 'probe tkread missed 3' \
	'metric ttwu_enqueue variant direct recording on' \
	'metric tkread variant direct recording on' '# commands' > "$ctl"
if valgrind -q --error-exitcode=99 --leak-check=full tools/tests/ctl_fuzz --self-test &&
   a=$(valgrind -q --error-exitcode=99 --leak-check=full tools/tests/ctl_fuzz \
	--dry-run --probes ttwu,tkread "$ctl" 20000 42 | md5sum) &&
   b=$(tools/tests/ctl_fuzz --dry-run --probes ttwu,tkread "$ctl" 20000 42 | md5sum) &&
   [ "$a" = "$b" ]; then
	pass=$((pass + 1)); echo "ok - ctl_fuzz oracle self-test and dry run"
else
	fail=$((fail + 1)); echo "not ok - ctl_fuzz oracle self-test and dry run"
fi
rm -f "$ctl"
# The netlink family's C is what its spec makes: tools/netlink-gen.sh
# --check runs the kernel source's ynl-gen-c.py (Debian's python3, with
# python3-yaml and python3-jsonschema) into a temporary folder and diffs
# its output against the committed files.  The kernel source is unpacked
# as for the style stage; the unit chroot has none by design
# (unit_chroot.sh sets CLKSTAT_UNIT_CHROOT=1), and there alone the check
# is skipped, saying so: the host's unit stage runs it.
what="netlink: kmod/uapi/clkstat_netlink.h and kmod/netlink_gen.[ch] are what the spec makes (make netlink-gen)"
if [ "${CLKSTAT_UNIT_CHROOT:-0}" = 1 ]; then
	skip=$((skip + 1)); echo "ok - $what # SKIP no kernel source in the unit chroot (the host's unit stage checks it)"
elif ! ksrc=$(tools/vm/build-test-kernel.sh --extract-only 2>&1 | tail -1) || [ ! -d "$ksrc" ]; then
	fail=$((fail + 1)); echo "not ok - $what: no kernel source (tools/vm/build-test-kernel.sh --extract-only: $ksrc)"
elif out=$(CLKSTAT_KSRC=$ksrc tools/netlink-gen.sh --check 2>&1); then
	pass=$((pass + 1)); echo "ok - $what"
else
	sed 's/^/#   /' <<< "$out"
	fail=$((fail + 1)); echo "not ok - $what"
fi
# The documents are valid reStructuredText: docutils renders each
# without a warning (a table whose column is too narrow, a term split
# over two lines), as the kernel's Documentation/ build would demand.
bad_rst=""
for f in Documentation/*.rst; do
	/usr/bin/rst2html --halt=warning --report=warning "$f" > /dev/null 2>&1 || bad_rst="$bad_rst $f"
done
if [ -z "$bad_rst" ]; then
	pass=$((pass + 1)); echo "ok - Documentation/*.rst render with docutils, no warning"
else
	fail=$((fail + 1)); echo "not ok - Documentation/*.rst render with docutils, no warning:$bad_rst"
fi
# The man page renders without warnings.
if out=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l Documentation/man/clkstat-report.1 2>&1 >/dev/null) &&
   [ -z "$out" ]; then
	pass=$((pass + 1)); echo "ok - clkstat-report.1 renders cleanly"
else
	fail=$((fail + 1)); echo "not ok - clkstat-report.1 renders cleanly: $out"
fi
# The documents state what the code does: the man page's netlink ABI
# version is the header's, and no document lists anything that exists as
# planned.
abi=$(sed -n 's/^#define CLKSTAT_GENL_VERSION[[:space:]]*\([0-9]*\).*/\1/p' kmod/uapi/clkstat_netlink.h)
man_abi=$(sed -n 's/^ABI version \([0-9]*\)).*/\1/p' Documentation/man/clkstat-report.1)
if [ -n "$abi" ] && [ "$abi" = "$man_abi" ] &&
   ! grep -qi 'planned, not implemented' Documentation/*.rst; then
	pass=$((pass + 1)); echo "ok - documents match the code (netlink ABI $abi, nothing existing listed as planned)"
else
	fail=$((fail + 1)); echo "not ok - documents match the code (header ABI '$abi', man page '$man_abi', or a document lists something as planned)"
fi
if [ "$skip" -gt 0 ]; then
	echo "$pass passed, $fail failed, $skip skipped"
else
	echo "$pass passed, $fail failed"
fi
[ "$fail" = 0 ]

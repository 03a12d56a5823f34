#!/bin/bash
# Run clkstat's KUnit suites: build (or reuse) a test kernel from Debian's
# linux-source-6.12 (build-test-kernel.sh: the lean one, or the debug one
# with CLKSTAT_KUNIT_KERNEL=debug, as make check does: it builds no lean
# kernel), build kunit/ as an external module against it, boot it in QEMU
# with the module in the initramfs, and parse the KTAP it prints with the
# kernel's own tools/testing/kunit/kunit.py.
# Last line: "N passed, N failed".
set -euo pipefail
top=$(realpath "$(dirname "$0")/../..")
out=$top/build/kunit
kind=${CLKSTAT_KUNIT_KERNEL:-lean}
append="" mem=1024
case "$kind" in
lean) ;;
# As debug.sh boots it: PCI's interrupts without ACPI's AML, which runs
# into ACPICA's 30 s loop timeout under KASAN and TCG.
debug) append="pci=noacpi" mem=2048 ;;
*) echo "kunit: CLKSTAT_KUNIT_KERNEL='$kind': lean or debug"; echo "0 passed, 1 failed"; exit 1 ;;
esac

kbuild=$("$top/tools/vm/build-test-kernel.sh" "$kind")
src=$("$top/tools/vm/build-test-kernel.sh" --extract-only)
# A failed build must not leave an earlier build's module to be tested.
rm -f "$top/kunit/clkstat_test.ko"
make -s -C "$src" O="$kbuild" M="$top" CLKSTAT_KUNIT=1 modules >&2 || true
[ -f "$top/kunit/clkstat_test.ko" ] || { echo "kunit: module build failed" >&2; echo "0 passed, 1 failed"; exit 1; }

rm -rf "$out"
mkdir -p "$out/payload"
cp "$top/kunit/clkstat_test.ko" "$out/payload/"
cat > "$out/payload/run.sh" <<'RUN'
#!/bin/sh
# The suites run when the module loads; their KTAP goes to the kernel log.
insmod /payload/clkstat_test.ko
echo "clkstat-kunit: insmod status $?"
dmesg
RUN
chmod +x "$out/payload/run.sh"
"$top/tools/vm/run-guest.sh" --kernel "$kbuild/arch/x86/boot/bzImage" \
	${append:+--append "$append"} --mem "$mem" \
	--timeout 900 --out "$out" --payload "$out/payload" > /dev/null || true

# The built-in executor prints an empty plan ("1..0") at boot; the module's
# suites follow as subtests without a plan of their own.  Give kunit.py the
# module's part under a plan naming every suite in kunit/, so that a suite
# that never reported counts as a failure.
nsuites=$(cat "$top"/kunit/*_kunit.c | grep -c '^kunit_test_suite(')
{
	echo "KTAP version 1"
	echo "1..$nsuites"
	tr -d '\r' < "$out/console.log" | sed -n '/clkstat-kunit: insmod status/,$p' |
		sed -e 's/^\[ *[0-9.]*\] //' | sed -n '/^    KTAP version 1$/,$p'
} > "$out/ktap.txt"
python3 "$src/tools/testing/kunit/kunit.py" parse "$out/ktap.txt" | tee "$out/parsed.txt"
# kunit.py ends with "Testing complete. Ran N tests: passed: P, failed: F, ..."
summary=$(grep -o 'Ran [0-9]* tests:.*' "$out/parsed.txt" | tail -1)
passed=$(echo "$summary" | grep -o 'passed: [0-9]*' | grep -o '[0-9]*' || echo 0)
failed=$(echo "$summary" | grep -o 'failed: [0-9]*' | grep -o '[0-9]*' || echo 0)
crashed=$(echo "$summary" | grep -o 'crashed: [0-9]*' | grep -o '[0-9]*' || echo 0)
failed=$((failed + crashed))
if [ -z "$summary" ] || [ "$passed" = 0 ]; then
	echo "kunit: no KUnit result found in $out/console.log" >&2
	failed=$((failed + 1))
fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]

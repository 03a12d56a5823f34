#!/bin/bash
# suite_first_study.sh - the README's "A first study" and "Using the
# module", command for command.  The first study: the block between its
# first-study markers, the commands it hands run-guest.sh's bash -c, run
# here in the guest from the top of the tree as a user types them (the
# module's path is this guest's build of it, kmod/clkstat.ko in the
# README), and what they print checked.
# usage: suite_first_study.sh [TEST...]; last line "N passed, N failed".
# module_tests.sh sources it to run every suite in one guest boot.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

t_first_study() {
	local block body n
	block=$(sed -n '/<!-- first-study: begin -->/,/<!-- first-study: end -->/p' "$top/README.md")
	[ -n "$block" ] || fail "README.md has no first-study block"
	grep -q "^    make  " <<< "$block" || fail "the block does not build first: $block"
	grep -q "^    tools/vm/run-guest.sh --kver 6.12 --out /tmp/study -- bash -c '$" <<< "$block" ||
		fail "the block does not run its commands in the guest: $block"
	# The lines given to bash -c: after run-guest.sh's, up to the
	# closing quote, indentation dropped.
	body=$(awk '/run-guest.sh/ { f = 1; next } /first-study: end/ { f = 0 } f' <<< "$block" |
		sed -e 's/^    //' -e "\$s/'\$//" -e "s|kmod/clkstat.ko|$KO|")
	n=$(grep -c . <<< "$body")
	[ "$n" -ge 5 ] || fail "only $n lines of commands: $body"
	rm -rf /tmp/study
	mkdir -p /tmp/study
	(cd "$top" && bash -e -c "$body") > /tmp/fs.out 2> /tmp/fs.err ||
		fail "the first study failed: $(tail -5 /tmp/fs.err)"
	! loaded || fail "the module is still loaded after the study"
	# 40 runs, 20 of each variant, every one with the workload's tasks only.
	expect_eq "runs" "$("$top/tools/clkstat-report" -i /tmp/study/study.db info |
		awk '$1 == "run" && $NF == "yes" { n[$4]++ } END { print n["kprobe"], n["bpf-kprobe"] }')" "20 20"
	grep -q "^summary, bpf-kprobe - kprobe, 95% intervals:$" /tmp/fs.out ||
		fail "no summary: $(head -20 /tmp/fs.out)"
	grep -qE '^  ttwu_tkread +20/20 ' /tmp/fs.out || fail "no ttwu_tkread line: $(head -20 /tmp/fs.out)"
	grep -q "^metric ttwu_tkread (frac_bits 3)" /tmp/fs.out || fail "no ttwu_tkread in full"
	! grep -q "too few runs" /tmp/fs.out || fail "the study warns of too few runs"
	head -1 /tmp/study/study.csv | grep -q '^metric,variant,cpu,count,' ||
		fail "study.csv: $(head -1 /tmp/study/study.csv)"
	note "$(grep -A3 '^summary' /tmp/fs.out | tr '\n' '|')"
}

# The README's "Using the module", command for command (its make is the
# host's, before the guest): every line exits 0, the runs are the 10 of
# each variant it asks for, the exporter it starts is gone with its kill.
t_readme_usage() {
	local block body
	block=$(sed -n '/<!-- using: begin -->/,/<!-- using: end -->/p' "$top/README.md")
	[ -n "$block" ] || fail "README.md has no using block"
	body=$(grep '^    ' <<< "$block" | sed -e 's/^    //' -e "s|kmod/clkstat.ko|$KO|")
	[ "$(head -1 <<< "$body" | awk '{ print $1 }')" = make ] ||
		fail "the block does not build first: $body"
	body=$(tail -n +2 <<< "$body")
	[ "$(grep -c . <<< "$body")" -ge 10 ] || fail "too few commands: $body"
	rm -f /tmp/runs.db
	(cd "$top" && bash -e -c "$body") > /tmp/use.out 2> /tmp/use.err ||
		fail "the block failed: $(tail -5 /tmp/use.err)"
	! loaded || fail "the module is still loaded after the block"
	! pgrep -f "clkstat-report serve" > /dev/null || fail "the exporter still runs"
	expect_eq "runs" "$("$top/tools/clkstat-report" -i /tmp/runs.db info |
		awk '$1 == "run" { n[$4]++ } END { print n["direct"], n["kprobe"] }')" "10 10"
	grep -q "^usage: clkstat-report record " /tmp/use.out || fail "no record --help"
	grep -q "ttwu_tkread.kprobe" /tmp/use.out || fail "no kprobe runs in the report: $(tail -20 /tmp/use.out)"
	note "$(grep -c . /tmp/use.out) lines of output"
}

FIRST_STUDY_TESTS="t_first_study t_readme_usage"
# Run alone (not sourced): these tests, or those named.
# shellcheck disable=SC2048,SC2086
[ "${BASH_SOURCE[0]}" != "$0" ] || suite_main ${*:-$FIRST_STUDY_TESTS}

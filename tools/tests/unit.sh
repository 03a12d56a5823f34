#!/bin/bash
# Userspace unit tests (cmocka), each also run under valgrind so that a
# leak or an invalid access fails it, and the netlink spec against the C
# header.  Last line: "N passed, N failed".
set -uo pipefail
top=$(realpath "$(dirname "$0")/../..")
cd "$top"
pass=0 fail=0
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
# ctl_fuzz (tools/tests/guest/hardening_input.sh runs it against the
# module): its oracle against the verdicts the documentation states, and a
# dry run of 20000 inputs from a recorded control file, valgrind-clean and
# the same twice from one seed.
ctl=$(mktemp)
printf '%s\n' 'variant direct switches 0' 'tgid 0' 'reentered 0' \
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
# Debian's python3, which has python3-yaml (the first python3 on PATH may
# be another build).
if /usr/bin/python3 tools/tests/spec_check.py "$top"; then
	pass=$((pass + 1)); echo "ok - netlink spec matches kmod/uapi/clkstat_netlink.h"
else
	fail=$((fail + 1)); echo "not ok - netlink spec matches kmod/uapi/clkstat_netlink.h"
fi
# OpenMetrics output against promtool and prometheus_client's strict parser
# (its own ok/not ok lines indented, so run-all.sh counts only ours).
if tools/tests/openmetrics_check.sh 2>&1 | sed 's/^/    /'; then
	pass=$((pass + 1)); echo "ok - OpenMetrics output passes promtool and the OpenMetrics parser"
else
	fail=$((fail + 1)); echo "not ok - OpenMetrics output passes promtool and the OpenMetrics parser"
fi
# The Grafana dashboard against the exporter: importable, and every query
# names only series and labels that clkstat-report serve exports (a real
# Prometheus scraping it returns data for each); mutated copies rejected.
if /usr/bin/python3 tools/tests/dashboard_check.py "$top" 2>&1 | sed 's/^/    /'; then
	pass=$((pass + 1)); echo "ok - Grafana dashboard: importable, its queries name what serve exports"
else
	fail=$((fail + 1)); echo "not ok - Grafana dashboard: importable, its queries name what serve exports"
fi
# clkstat-report events on snapshots with known events: CSV and JSON
# Lines read back by Python's csv and json modules, field by field (its
# own ok/not ok lines indented).
if /usr/bin/python3 tools/tests/events_readback.py 2>&1 | sed 's/^/    /'; then
	pass=$((pass + 1)); echo "ok - events: CSV and JSON Lines read back by Python's csv and json equal the truth"
else
	fail=$((fail + 1)); echo "not ok - events: CSV and JSON Lines read back by Python's csv and json equal the truth"
fi
# The man page renders without warnings.
if out=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l Documentation/man/clkstat-report.1 2>&1 >/dev/null) &&
   [ -z "$out" ]; then
	pass=$((pass + 1)); echo "ok - clkstat-report.1 renders cleanly"
else
	fail=$((fail + 1)); echo "not ok - clkstat-report.1 renders cleanly: $out"
fi
# clkstat-report on a snapshot (no module needed): what info says of
# the recording.  A made-up snapshot: a module run and a BPF twin run of
# a record --workload-only, from a guest without a cpuidle driver where
# an older record wrote intel_idle's max_cstate anyway, and a module
# loaded with variant=direct.
snap=$(mktemp --suffix=.json)
cat > "$snap" <<'EOF'
{"format": "clkstat-snapshot", "version": 1,
 "meta": {"tool_version": "0.1", "module_version": "0.1",
  "kernel_release": "6.1.0", "clocksource": "tsc", "probes": "ttwu",
  "variants": "direct,bpf-fentry", "command": "true", "machine": "vm",
  "hypervisor": "KVM", "cpuidle_driver": null, "cpuidle_governor": "menu",
  "max_cstate": "9", "cmdline": "quiet", "frac_bits": 3, "nr_cpus": 2,
  "duration_s": 0, "params": {"variant": "direct", "frac_bits": "3"}},
 "runs": [
  {"index": 0, "variant": "direct", "start_ns": 100, "end_ns": 200,
   "exit_status": 0, "workload_only": false, "metrics": []},
  {"index": 1, "variant": "bpf-fentry", "start_ns": 300, "end_ns": 400,
   "exit_status": 0, "workload_only": true, "metrics": []}]}
EOF
info=$(tools/clkstat-report -i "$snap" info 2>&1)
# The warning comes before record needs the module; without one loaded
# record then ends there, having changed nothing (with one loaded it
# would record: not here).
want="warning: --workload-only filters the BPF twin's runs only; the module variant runs (direct) see every task"
warn=$want
[ -e /sys/module/clkstat ] ||
	warn=$(tools/clkstat-report record --workload-only \
	       --variants direct,bpf-fentry -o /dev/null -- true 2>&1 >/dev/null)
if grep -q '^run 0 variant direct .* workload_only no$' <<< "$info" &&
   grep -qx 'max_cstate n/a (no cpuidle driver)' <<< "$info" &&
   grep -q '^module_params as loaded' <<< "$info" &&
   grep -qx 'param variant direct  (at load; not the runs'"'"' variant)' <<< "$info" &&
   grep -q '^run 1 variant bpf-fentry .* workload_only yes$' <<< "$info" &&
   grep -qF "$want" <<< "$warn"; then
	pass=$((pass + 1)); echo "ok - info on a snapshot: each run's workload_only, no max_cstate without intel_idle, the module's load parameters labelled; record warns that --workload-only filters BPF runs only"
else
	fail=$((fail + 1)); echo "not ok - info on a snapshot: each run's workload_only, no max_cstate without intel_idle, the module's load parameters labelled; record warns that --workload-only filters BPF runs only"
	printf '%s\n%s\n' "$info" "$warn" | sed 's/^/    /'
fi
# info with two inputs: each file's own metadata and runs, under an
# "input N PATH" line; a run's own tags (record --cstates, --load) at the
# end of its line, the conditions in the metadata.
snap2=$(mktemp --suffix=.json)
sed -e 's/"version": 1/"version": 2/' -e 's/"kernel_release": "6.1.0"/"kernel_release": "6.12.0"/' \
    -e 's/"cmdline": "quiet"/"cmdline": "quiet", "conditions": "cstates=qos0,free"/' \
    -e 's/"start_ns": 100/"start_ns": 1100/' -e 's/"start_ns": 300/"start_ns": 1300/' \
    -e 's/"exit_status": 0, "workload_only": false/&, "tags": {"cstate": "qos0"}/' "$snap" > "$snap2"
info2=$(tools/clkstat-report -i "$snap" -i "$snap2" info 2>/dev/null)
# Bad --cstates and --load: one line, status 2, before anything is done.
bad=""
for a in "--cstates qos-1" "--cstates free,free" "--load busy:0" "--load idle,,busy" "--cstates maxN"; do
	# shellcheck disable=SC2086
	out=$(tools/clkstat-report record $a -o /dev/null -- true 2>&1); rc=$?
	[ "$rc" = 2 ] && [ "$(wc -l <<< "$out")" = 1 ] || bad="$bad [$a: $rc $out]"
done
out=$(tools/clkstat-report record --cstates free --tag cstate=x -o /dev/null -- true 2>&1) &&
	bad="$bad [--tag cstate with --cstates accepted]"
if [ "$(grep -c '^input ' <<< "$info2")" = 2 ] &&
   grep -qx "input 1 $snap2" <<< "$info2" &&
   [ "$(grep -c '^kernel_release ' <<< "$info2")" = 2 ] &&
   grep -qx 'kernel_release 6.12.0' <<< "$info2" &&
   grep -qx 'conditions cstates=qos0,free' <<< "$info2" &&
   grep -q '^run 2 variant direct .* workload_only no tags cstate=qos0$' <<< "$info2" &&
   [ "$(grep -c '^runs 2$' <<< "$info2")" = 2 ] && [ -z "$bad" ]; then
	pass=$((pass + 1)); echo "ok - info with two inputs prints each file's metadata and runs (run tags, conditions); bad --cstates/--load refused"
else
	fail=$((fail + 1)); echo "not ok - info with two inputs prints each file's metadata and runs (run tags, conditions); bad --cstates/--load refused"
	printf '%s\n%s\n' "$info2" "$bad" | sed 's/^/    /'
fi
rm -f "$snap" "$snap2"
# The documents state what the code does: the man page's netlink ABI
# version is the header's, and clkstat.rst lists nothing that exists as
# planned.
abi=$(sed -n 's/^#define CLKSTAT_GENL_VERSION[[:space:]]*\([0-9]*\).*/\1/p' kmod/uapi/clkstat_netlink.h)
man_abi=$(sed -n 's/^ABI version \([0-9]*\)).*/\1/p' Documentation/man/clkstat-report.1)
if [ -n "$abi" ] && [ "$abi" = "$man_abi" ] &&
   ! grep -qi 'planned, not implemented' Documentation/clkstat.rst; then
	pass=$((pass + 1)); echo "ok - documents match the code (netlink ABI $abi, nothing existing listed as planned)"
else
	fail=$((fail + 1)); echo "not ok - documents match the code (header ABI '$abi', man page '$man_abi', or clkstat.rst lists something as planned)"
fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

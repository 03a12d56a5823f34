// SPDX-License-Identifier: GPL-2.0
/*
 * model_test.c - clkstat-report's in-memory model (pooling runs, merging
 * slot lists, dense slots) and its machine metadata (meta.c) read from a
 * made-up /proc and /sys tree (cmocka).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include "../../kmod/shared/clkstat_hist_math.h"
#include "../lib/meta.h"
#include "../lib/model.h"

/* A metric with the given (slot, count) pairs on one CPU, sums = count. */
static void fill(struct cr_metric *m, const char *name, const char *variant,
		 unsigned int k, uint32_t cpu, const uint32_t *slots,
		 const uint64_t *counts, size_t n)
{
	struct cr_hist *h;
	size_t i;

	snprintf(m->name, sizeof(m->name), "%s", name);
	snprintf(m->variant, sizeof(m->variant), "%s", variant);
	m->frac_bits = k;
	m->ncpus = 1;
	m->cpus = calloc(1, sizeof(*m->cpus));
	assert_non_null(m->cpus);
	for (h = &m->total; ; h = &m->cpus[0]) {
		h->nslots = n;
		h->slots = calloc(n, sizeof(*h->slots));
		assert_non_null(h->slots);
		for (i = 0; i < n; i++)
			h->slots[i] = (struct cr_slot){ slots[i], counts[i],
							counts[i] };
		h->min = n ? clkstat_slot_lower(slots[0], k) : UINT64_MAX;
		h->max = n ? clkstat_slot_lower(slots[n - 1], k) : 0;
		if (h == &m->cpus[0])
			break;
	}
	m->cpus[0].cpu = cpu;
	m->ncounters = 1;
	snprintf(m->counters[0].name, CR_NAME_MAX, "wakeups");
	m->counters[0].value = n;
}

static void test_pool_adds_runs_per_variant(void **state)
{
	static const uint32_t s1[] = { 3, 40, 41 }, s2[] = { 2, 40, 99 };
	static const uint64_t c1[] = { 1, 2, 3 }, c2[] = { 10, 20, 30 };
	struct cr_snapshot s = { 0 };
	struct cr_run pooled, *r;
	struct cr_metric *m;

	(void)state;
	r = cr_snapshot_add_run(&s);
	fill(cr_run_add_metric(r), "ttwu_enqueue", "direct", 3, 0, s1, c1, 3);
	r = cr_snapshot_add_run(&s);
	fill(cr_run_add_metric(r), "ttwu_enqueue", "direct", 3, 1, s2, c2, 3);
	fill(cr_run_add_metric(r), "ttwu_enqueue", "kprobe", 3, 1, s2, c2, 3);
	assert_int_equal(s.runs[1].index, 1);
	assert_int_equal(cr_snapshot_pool(&s, &pooled), 0);
	assert_int_equal(pooled.nmetrics, 2);
	m = cr_run_find(&pooled, "ttwu_enqueue", "direct");
	assert_non_null(m);
	/* Slots 2, 3, 40 (2 + 20), 41, 99, in order. */
	assert_int_equal(m->total.nslots, 5);
	assert_int_equal(m->total.slots[0].slot, 2);
	assert_int_equal(m->total.slots[2].slot, 40);
	assert_int_equal(m->total.slots[2].count, 22);
	assert_int_equal(m->total.slots[2].sum, 22);
	assert_int_equal(m->total.slots[4].slot, 99);
	assert_int_equal(m->total.min, 2);
	assert_int_equal(m->total.max, clkstat_slot_lower(99, 3));
	assert_int_equal(m->ncpus, 2);
	assert_int_equal(m->cpus[0].cpu, 0);
	assert_int_equal(m->cpus[1].cpu, 1);
	assert_int_equal(m->counters[0].value, 6);
	m = cr_run_find(&pooled, "ttwu_enqueue", "kprobe");
	assert_non_null(m);
	assert_int_equal(m->total.nslots, 3);
	cr_run_free(&pooled);
	cr_snapshot_free(&s);
}

static void test_pool_refuses_mixed_frac_bits(void **state)
{
	static const uint32_t sl[] = { 3 };
	static const uint64_t c[] = { 1 };
	struct cr_snapshot s = { 0 };
	struct cr_run pooled;

	(void)state;
	fill(cr_run_add_metric(cr_snapshot_add_run(&s)), "a", "direct", 3, 0,
	     sl, c, 1);
	fill(cr_run_add_metric(cr_snapshot_add_run(&s)), "a", "direct", 5, 0,
	     sl, c, 1);
	assert_int_equal(cr_snapshot_pool(&s, &pooled), -EINVAL);
	assert_int_equal(pooled.nmetrics, 0);
	assert_null(pooled.metrics);
	cr_snapshot_free(&s);
}

static void test_dense_matches_sparse(void **state)
{
	static const uint32_t sl[] = { 0, 17, 300 };
	static const uint64_t c[] = { 5, 6, 7 };
	struct cr_metric m = { 0 };
	struct clkstat_slot *d;

	(void)state;
	fill(&m, "a", "direct", 3, 0, sl, c, 3);
	d = cr_hist_dense(&m.total, 3);
	assert_non_null(d);
	assert_int_equal(clkstat_hist_total(d, CLKSTAT_NSLOTS(3)), 18);
	assert_int_equal(d[17].count, 6);
	assert_int_equal(d[300].count, 7);
	/* The median of 18 samples is the 9th: in slot 17. */
	assert_in_range(clkstat_hist_quantile(d, CLKSTAT_NSLOTS(3), 3, 18,
					      m.total.min, m.total.max, 1, 2),
			clkstat_slot_lower(17, 3), clkstat_slot_upper(17, 3));
	free(d);
	cr_metric_free(&m);
}

static void put(const char *root, const char *path, const char *text)
{
	char full[512], cmd[600];
	FILE *f;

	snprintf(full, sizeof(full), "%s%s", root, path);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", full);
	assert_int_equal(system(cmd), 0);
	f = fopen(full, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_meta_from_a_tree(void **state)
{
	char root[] = "/tmp/clkstat-meta-XXXXXX", cmd[600];
	struct cr_meta m = { 0 };
	struct cr_info info = { .frac_bits = 4, .nr_cpus = 2 };
	char *machine, *hv, buf[96];

	(void)state;
	assert_non_null(mkdtemp(root));
	snprintf(info.version, sizeof(info.version), "9.9");
	snprintf(info.probes, sizeof(info.probes), "ttwu");
	put(root, "/proc/sys/kernel/osrelease", "6.1.0-test\n");
	put(root, "/proc/sys/kernel/hostname", "node-3\n");
	put(root, "/proc/cmdline", "quiet intel_idle.max_cstate=1\n");
	put(root, "/proc/cpuinfo", "processor : 0\nflags\t\t: fpu tsc\n");
	put(root, "/sys/devices/system/clocksource/clocksource0/current_clocksource", "tsc\n");
	put(root, "/sys/devices/system/cpu/cpuidle/current_driver", "intel_idle\n");
	put(root, "/sys/devices/system/cpu/cpuidle/current_governor_ro", "menu\n");
	put(root, "/sys/module/intel_idle/parameters/max_cstate", "1\n");
	put(root, "/sys/module/clkstat/parameters/probes", "ttwu\n");
	put(root, "/sys/module/clkstat/parameters/events", "0\n");
	put(root, "/sys/class/dmi/id/sys_vendor", "Dell Inc.\n");
	put(root, "/sys/devices/system/cpu/cpufreq/policy0/affected_cpus", "0\n");
	put(root, "/sys/devices/system/cpu/cpufreq/policy0/scaling_governor", "performance\n");
	put(root, "/sys/devices/system/cpu/cpufreq/policy0/scaling_driver", "intel_pstate\n");
	put(root, "/sys/devices/system/cpu/cpufreq/policy1/affected_cpus", "1\n");
	put(root, "/sys/devices/system/cpu/cpufreq/policy1/scaling_governor", "powersave\n");
	put(root, "/sys/devices/system/cpu/intel_pstate/no_turbo", "1\n");
	assert_int_equal(cr_meta_collect(&m, &info, root), 0);
	assert_int_equal(m.cpufreq_recorded, 1);
	assert_string_equal(m.cpufreq_driver, "intel_pstate");
	assert_string_equal(m.cpufreq_governor, "performance:0 powersave:1");
	assert_string_equal(m.cpufreq_boost, "0");
	assert_string_equal(m.kernel_release, "6.1.0-test");
	assert_string_equal(m.host, "node-3");
	assert_string_equal(m.clocksource, "tsc");
	assert_string_equal(m.cmdline, "quiet intel_idle.max_cstate=1");
	assert_string_equal(m.cpuidle_driver, "intel_idle");
	assert_string_equal(m.cpuidle_governor, "menu");
	assert_string_equal(m.max_cstate, "1");
	assert_string_equal(cr_meta_max_cstate(&m, buf, sizeof(buf)), "1");
	assert_string_equal(m.machine, "bare-metal");
	assert_null(m.hypervisor);
	assert_string_equal(m.module_version, "9.9");
	assert_int_equal(m.frac_bits, 4);
	/* Parameters in name order. */
	assert_int_equal(m.nparams, 2);
	assert_string_equal(m.param_names[0], "events");
	assert_string_equal(m.param_values[1], "ttwu");
	cr_meta_free(&m);
	/*
	 * intel_idle.max_cstate without intel_idle as the driver (a guest's
	 * "none", acpi_idle) means nothing: not recorded, and info says
	 * why, for older snapshots that recorded it too.
	 */
	put(root, "/sys/module/intel_idle/parameters/max_cstate", "9\n");
	put(root, "/sys/devices/system/cpu/cpuidle/current_driver", "none\n");
	assert_int_equal(cr_meta_collect(&m, &info, root), 0);
	assert_null(m.max_cstate);
	assert_string_equal(cr_meta_max_cstate(&m, buf, sizeof(buf)),
			    "n/a (no cpuidle driver)");
	m.max_cstate = strdup("9");	/* as an older record wrote it */
	assert_non_null(m.max_cstate);
	assert_string_equal(cr_meta_max_cstate(&m, buf, sizeof(buf)),
			    "n/a (no cpuidle driver)");
	cr_meta_free(&m);
	put(root, "/sys/devices/system/cpu/cpuidle/current_driver", "acpi_idle\n");
	assert_int_equal(cr_meta_collect(&m, &info, root), 0);
	assert_null(m.max_cstate);
	assert_string_equal(cr_meta_max_cstate(&m, buf, sizeof(buf)),
			    "n/a (cpuidle driver acpi_idle, not intel_idle)");
	cr_meta_free(&m);
	/* A guest: the cpuinfo flag, or the DMI vendor alone. */
	put(root, "/proc/cpuinfo", "flags\t\t: fpu tsc hypervisor\n");
	assert_int_equal(cr_meta_machine(root, &machine, &hv), 0);
	assert_string_equal(machine, "vm");
	free(machine);
	free(hv);
	put(root, "/proc/cpuinfo", "flags\t\t: fpu\n");
	put(root, "/sys/class/dmi/id/sys_vendor", "QEMU\n");
	assert_int_equal(cr_meta_machine(root, &machine, &hv), 0);
	assert_string_equal(machine, "vm");
	assert_string_equal(hv, "QEMU");
	free(machine);
	free(hv);
	/* Nothing readable: every field NULL but the machine's guess. */
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(cr_meta_collect(&m, NULL, root), 0);
	assert_null(m.kernel_release);
	assert_null(m.clocksource);
	assert_null(m.max_cstate);
	/* No cpufreq: recorded as none. */
	assert_int_equal(m.cpufreq_recorded, 1);
	assert_null(m.cpufreq_driver);
	assert_null(m.cpufreq_governor);
	assert_null(m.cpufreq_boost);
	assert_int_equal(m.nparams, 0);
	assert_string_equal(m.machine, "bare-metal");
	cr_meta_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pool_adds_runs_per_variant),
		cmocka_unit_test(test_pool_refuses_mixed_frac_bits),
		cmocka_unit_test(test_dense_matches_sparse),
		cmocka_unit_test(test_meta_from_a_tree),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

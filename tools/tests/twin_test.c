// SPDX-License-Identifier: GPL-2.0
/*
 * twin_test.c - the BPF twin's kernel-free logic (tools/bpf/twin_model.c):
 * variant and probe parsing, which metrics exist, and the conversion of
 * per-CPU map values into clkstat-report's model (cmocka).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "../bpf/twin_model.h"

static void test_variants(void **state)
{
	(void)state;
	assert_int_equal(twin_variant_parse("bpf-kprobe"), TV_KPROBE);
	assert_int_equal(twin_variant_parse("bpf-fentry"), TV_FENTRY);
	assert_int_equal(twin_variant_parse("bpf-tp"), TV_TP);
	assert_int_equal(twin_variant_parse("kprobe"), -1);
	assert_int_equal(twin_variant_parse("bpf-"), -1);
	assert_int_equal(twin_variant_parse("bpf-fentryx"), -1);
	assert_int_equal(twin_variant_parse(""), -1);
	assert_int_equal(twin_variant_parse(NULL), -1);
}

static void test_probes(void **state)
{
	unsigned int m;

	(void)state;
	assert_int_equal(twin_probes_parse(TV_FENTRY, "ttwu,tkread", &m), 0);
	assert_int_equal(m, TWIN_P_TTWU | TWIN_P_TKREAD);
	assert_int_equal(twin_probes_parse(TV_KPROBE, "csswitch", &m), 0);
	assert_int_equal(m, TWIN_P_CSSWITCH);
	assert_int_equal(twin_probes_parse(TV_TP, "ttwu", &m), 0);
	assert_int_equal(m, TWIN_P_TTWU);
	/* The kernel has no tracepoint on timekeeping reads or switches. */
	assert_int_equal(twin_probes_parse(TV_TP, "ttwu,tkread", &m), -1);
	assert_int_equal(twin_probes_parse(TV_TP, "csswitch", &m), -1);
	/* Module probes the twin does not have, and malformed lists. */
	assert_int_equal(twin_probes_parse(TV_FENTRY, "ttwu,csread", &m), -1);
	assert_int_equal(twin_probes_parse(TV_FENTRY, "ttw", &m), -1);
	assert_int_equal(twin_probes_parse(TV_FENTRY, "ttwux", &m), -1);
	assert_int_equal(twin_probes_parse(TV_FENTRY, "", &m), -1);
	assert_int_equal(twin_probes_parse(TV_FENTRY, NULL, &m), -1);
	assert_int_equal(twin_probes_parse(TV_FENTRY, "ttwu,,tkread", &m), -1);
}

static void test_metrics_enabled(void **state)
{
	unsigned int i, n = 0;

	(void)state;
	for (i = 0; i < TM_N; i++)
		n += twin_metric_enabled(TWIN_P_TTWU | TWIN_P_TKREAD, i);
	assert_int_equal(n, 8);
	/* tkread alone: counters only, no pairs (as the module). */
	assert_true(twin_metric_enabled(TWIN_P_TKREAD, TM_TKREAD));
	assert_false(twin_metric_enabled(TWIN_P_TKREAD, TM_TKW));
	assert_false(twin_metric_enabled(TWIN_P_TTWU, TM_TKW_ENQ));
	assert_true(twin_metric_enabled(TWIN_P_CSSWITCH, TM_CSSWITCH));
	assert_false(twin_metric_enabled(TWIN_P_TTWU, TM_CSSWITCH));
	assert_string_equal(twin_metric_name(TM_TKW_ENQ), "enqueue_tkread");
}

/* Two CPUs' map values: CPU 1 empty, CPU 0 and 2 with samples. */
static void test_fill(void **state)
{
	unsigned int k = 3, s5 = clkstat_value_to_slot(5, k);
	unsigned int s1000 = clkstat_value_to_slot(1000, k);
	char *buf = calloc(3, TWIN_HIST_STRIDE);
	twin_hist_t *c0, *c2;
	struct cr_metric m = { 0 };

	(void)state;
	assert_non_null(buf);
	c0 = (twin_hist_t *)buf;
	c2 = (twin_hist_t *)(buf + 2 * TWIN_HIST_STRIDE);
	c0->slot[s5].count = 2;
	c0->slot[s5].sum = 10;
	c0->nmin = ~5ULL;
	c0->max = 5;
	c0->counter[CLKSTAT_TTWU_WAKEUPS] = 3;
	c0->counter[CLKSTAT_TTWU_UNMATCHED] = 1;
	c2->slot[s5].count = 1;
	c2->slot[s5].sum = 5;
	c2->slot[s1000].count = 1;
	c2->slot[s1000].sum = 1000;
	c2->nmin = ~5ULL;
	c2->max = 1000;
	c2->counter[CLKSTAT_TTWU_WAKEUPS] = 2;
	/* A slot past frac_bits' range is never looked at. */
	c2->slot[CLKSTAT_NSLOTS(k)].count = 99;
	assert_int_equal(twin_fill_metric(&m, TM_TTWU, "bpf-tp", k, 0, buf, 3), 0);
	assert_string_equal(m.name, "ttwu_enqueue");
	assert_string_equal(m.variant, "bpf-tp");
	assert_int_equal(m.frac_bits, 3);
	assert_int_equal(m.ncounters, CLKSTAT_TTWU_NCOUNTERS);
	assert_string_equal(m.counters[CLKSTAT_TTWU_WAKEUPS].name, "wakeups");
	assert_string_equal(m.counters[CLKSTAT_TTWU_SWITCH_LOST].name, "switch_lost");
	assert_int_equal(m.counters[CLKSTAT_TTWU_WAKEUPS].value, 5);
	assert_int_equal(m.counters[CLKSTAT_TTWU_UNMATCHED].value, 1);
	assert_int_equal(m.total.cpu, CR_CPU_ALL);
	assert_int_equal(m.total.min, 5);
	assert_int_equal(m.total.max, 1000);
	assert_int_equal(m.total.nslots, 2);
	assert_int_equal(m.total.slots[0].slot, s5);
	assert_int_equal(m.total.slots[0].count, 3);
	assert_int_equal(m.total.slots[0].sum, 15);
	assert_int_equal(m.total.slots[1].slot, s1000);
	assert_int_equal(m.ncpus, 2);
	assert_int_equal(m.cpus[0].cpu, 0);
	assert_int_equal(m.cpus[1].cpu, 2);
	assert_int_equal(m.cpus[1].nslots, 2);
	assert_int_equal(m.cpus[0].min, 5);
	assert_int_equal(m.cpus[0].max, 5);
	cr_metric_free(&m);

	/* No sample anywhere: min UINT64_MAX, no CPU, counters only. */
	memset(buf, 0, 3 * TWIN_HIST_STRIDE);
	((twin_hist_t *)buf)->counter[CLKSTAT_TK_TS64] = 7;
	memset(&m, 0, sizeof(m));
	assert_int_equal(twin_fill_metric(&m, TM_TKREAD, "bpf-kprobe", k, 1, buf, 3), 0);
	assert_int_equal(m.total.min, UINT64_MAX);
	assert_int_equal(m.total.max, 0);
	assert_int_equal(m.total.nslots, 0);
	assert_int_equal(m.ncpus, 0);
	assert_int_equal(m.ncounters, CLKSTAT_TK_NFUNCS);
	assert_string_equal(m.counters[CLKSTAT_TK_TS64].name, "ktime_get_ts64");
	assert_int_equal(m.counters[CLKSTAT_TK_TS64].value, 7);
	assert_int_equal(m.recording, 1);
	cr_metric_free(&m);
	/* A metric with no counters. */
	memset(&m, 0, sizeof(m));
	assert_int_equal(twin_fill_metric(&m, TM_TKW_ENQ, "bpf-kprobe", k, 0, buf, 3), 0);
	assert_int_equal(m.ncounters, 0);
	cr_metric_free(&m);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_variants),
		cmocka_unit_test(test_probes),
		cmocka_unit_test(test_metrics_enabled),
		cmocka_unit_test(test_fill),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

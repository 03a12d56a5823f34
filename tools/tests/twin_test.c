// SPDX-License-Identifier: GPL-2.0
/*
 * twin_test.c - the BPF twin's kernel-free logic (tools/bpf/twin_model.c):
 * variant and probe parsing, which metrics exist, and the conversion of
 * per-CPU map values into clkstat-report's model, and the event log's
 * ring buffer size, record intake, stable sort and marker bytes, and the
 * user-defined probes in a probes list and their metrics (cmocka).
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
#include "../bpf/twin_shared.h"

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
	assert_int_equal(twin_probes_parse(TV_TP, "ttwu,csread", &m), -1);
	/* clockoff samples at ttwu's wakeups there. */
	assert_int_equal(twin_probes_parse(TV_TP, "ttwu,clockoff", &m), 0);
	assert_int_equal(m, TWIN_P_TTWU | TWIN_P_CLOCKOFF);
	assert_int_equal(twin_probes_parse(TV_FENTRY, "ttwu,csread,clockoff", &m), 0);
	assert_int_equal(m, TWIN_P_TTWU | TWIN_P_CSREAD | TWIN_P_CLOCKOFF);
	assert_int_equal(twin_probes_parse(TV_KPROBE, "csread,csswitch", &m), 0);
	assert_int_equal(m, TWIN_P_CSREAD | TWIN_P_CSSWITCH);
	/* clockoff alone, or with csread only, has no event to sample at. */
	assert_int_equal(twin_probes_parse(TV_FENTRY, "clockoff", &m), -1);
	assert_int_equal(twin_probes_parse(TV_KPROBE, "csread,clockoff", &m), -1);
	assert_int_equal(twin_probes_parse(TV_TP, "clockoff", &m), -1);
	/* Module probes the twin does not have, and malformed lists. */
	assert_int_equal(twin_probes_parse(TV_FENTRY, "ttwu,marker", &m), -1);
	assert_int_equal(twin_probes_parse(TV_FENTRY, "csreadx", &m), -1);
	assert_int_equal(twin_probes_parse(TV_FENTRY, "ttw", &m), -1);
	assert_int_equal(twin_probes_parse(TV_FENTRY, "ttwux", &m), -1);
	assert_int_equal(twin_probes_parse(TV_FENTRY, "", &m), -1);
	assert_int_equal(twin_probes_parse(TV_FENTRY, NULL, &m), -1);
	assert_int_equal(twin_probes_parse(TV_FENTRY, "ttwu,,tkread", &m), -1);
}

/* User-defined probes in the list: specs, canonical, checked per variant. */
static void test_traces(void **state)
{
	char list[CLKSTAT_TRACE_MAX * 24 + 64];
	struct twin_traces tr;
	unsigned int m, i;

	(void)state;
	assert_int_equal(twin_probes_parse_traces(TV_FENTRY,
		"ttwu,func:do_nanosleep,sec:a-b:cpu:exit,clkstat_tt_delay_x", &m, &tr), -1);
	/* A bare F is a function to the grammar, not to a probes list. */
	assert_int_equal(twin_probes_parse_traces(TV_FENTRY,
		"ttwu,func:do_nanosleep,sec:a-b:cpu:exit", &m, &tr), 0);
	assert_int_equal(m, TWIN_P_TTWU);
	assert_int_equal(tr.n, 2);
	assert_string_equal(tr.spec[0].name, "func:do_nanosleep");
	assert_int_equal(tr.spec[0].kind, CLKSTAT_TRACE_FUNC);
	/* Canonical: options exit then cpu. */
	assert_string_equal(tr.spec[1].name, "sec:a-b:exit:cpu");
	assert_int_equal(tr.spec[1].b_exit, 1);
	assert_int_equal(tr.spec[1].percpu, 1);
	/* Specs alone: no built-in probe needed. */
	assert_int_equal(twin_probes_parse_traces(TV_KPROBE, "sec:f-f", &m, &tr), 0);
	assert_int_equal(m, 0);
	assert_int_equal(tr.n, 1);
	assert_int_equal(twin_probes_parse(TV_KPROBE, "func:f", &m), 0);
	assert_int_equal(twin_probes_parse_traces(TV_TP, "tp:x-y:cpu", &m, &tr), 0);
	assert_string_equal(tr.spec[0].b, "y");
	assert_int_equal(twin_probes_parse_traces(TV_TP, "ttwu,tp:x-x", &m, &tr), 0);
	assert_int_equal(m, TWIN_P_TTWU);
	/* What each variant reaches: tp only in bpf-tp, functions elsewhere. */
	assert_int_equal(twin_probes_parse_traces(TV_FENTRY, "tp:x-y", &m, &tr), -1);
	assert_int_equal(twin_probes_parse_traces(TV_KPROBE, "tp:x-y", &m, &tr), -1);
	assert_int_equal(twin_probes_parse_traces(TV_TP, "func:f", &m, &tr), -1);
	assert_int_equal(twin_probes_parse_traces(TV_TP, "sec:a-b", &m, &tr), -1);
	/* Malformed, twice (the same canonical spec), too long. */
	assert_int_equal(twin_probes_parse(TV_FENTRY, "sec:a", &m), -1);
	assert_int_equal(twin_probes_parse(TV_FENTRY, "sec:a-a:exit", &m), -1);
	assert_int_equal(twin_probes_parse(TV_FENTRY, "func:", &m), -1);
	assert_int_equal(twin_probes_parse(TV_FENTRY, "foo:bar", &m), -1);
	assert_int_equal(twin_probes_parse(TV_FENTRY, "sec:a-b:cpu,sec:a-b:cpu", &m), -1);
	assert_int_equal(twin_probes_parse(TV_FENTRY, "sec:a-b:cpu:exit,sec:a-b:exit:cpu", &m), -1);
	assert_int_equal(twin_probes_parse(TV_FENTRY,
		"func:a123456789012345678901234567890123456789012345678901234567890", &m), -1);
	/* CLKSTAT_TRACE_MAX specs, and one more. */
	list[0] = '\0';
	for (i = 0; i < CLKSTAT_TRACE_MAX; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list),
			 "%sfunc:f%u", i ? "," : "", i);
	assert_int_equal(twin_probes_parse_traces(TV_FENTRY, list, &m, &tr), 0);
	assert_int_equal(tr.n, CLKSTAT_TRACE_MAX);
	strcat(list, ",func:g");
	assert_int_equal(twin_probes_parse_traces(TV_FENTRY, list, &m, &tr), -1);
}

/* A trace's metric: named by its spec, the trace counters. */
static void test_fill_trace(void **state)
{
	unsigned int k = 3, s = clkstat_value_to_slot(1000000, k);
	char *buf = calloc(2, TWIN_HIST_STRIDE);
	twin_hist_t *c1;
	struct cr_metric m = { 0 };

	(void)state;
	assert_non_null(buf);
	c1 = (twin_hist_t *)(buf + TWIN_HIST_STRIDE);
	c1->slot[s].count = 21;
	c1->slot[s].sum = 21 * 1000000;
	c1->nmin = ~1000000ULL;
	c1->max = 1000900;
	c1->counter[CLKSTAT_TRC_MISSED] = 20;
	((twin_hist_t *)buf)->counter[CLKSTAT_TRC_UNMATCHED] = 1;
	assert_int_equal(twin_fill_trace_metric(&m, "func:clkstat_tt_delay",
						"bpf-kprobe", k, 1, buf, 2), 0);
	assert_string_equal(m.name, "func:clkstat_tt_delay");
	assert_string_equal(m.variant, "bpf-kprobe");
	assert_int_equal(m.ncounters, CLKSTAT_TRC_NCOUNTERS);
	assert_string_equal(m.counters[CLKSTAT_TRC_UNMATCHED].name, "unmatched");
	assert_string_equal(m.counters[CLKSTAT_TRC_MISSED].name, "missed");
	assert_int_equal(m.counters[CLKSTAT_TRC_MISSED].value, 20);
	assert_int_equal(m.counters[CLKSTAT_TRC_UNMATCHED].value, 1);
	assert_int_equal(m.total.nslots, 1);
	assert_int_equal(m.total.slots[0].count, 21);
	assert_int_equal(m.total.min, 1000000);
	assert_int_equal(m.ncpus, 1);
	assert_int_equal(m.cpus[0].cpu, 1);
	cr_metric_free(&m);
	free(buf);
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
	/* csread: one metric per clocksource; the first read needs csswitch. */
	assert_true(twin_metric_enabled(TWIN_P_CSREAD, TM_CSREAD_HPET));
	assert_true(twin_metric_enabled(TWIN_P_CSREAD, TM_CSREAD_ACPI_PM));
	assert_false(twin_metric_enabled(TWIN_P_CSREAD, TM_CSW_FIRST_READ));
	assert_false(twin_metric_enabled(TWIN_P_CSSWITCH, TM_CSW_FIRST_READ));
	assert_true(twin_metric_enabled(TWIN_P_CSREAD | TWIN_P_CSSWITCH,
					TM_CSW_FIRST_READ));
	assert_true(twin_metric_enabled(TWIN_P_CLOCKOFF, TM_CLOCKOFF));
	assert_true(twin_metric_enabled(TWIN_P_CLOCKOFF, TM_CLOCKOFF_NEG));
	assert_false(twin_metric_enabled(TWIN_P_TTWU, TM_CLOCKOFF));
	assert_string_equal(twin_metric_name(TM_CSREAD_HPET), "csread_hpet");
	assert_string_equal(twin_metric_name(TM_CSREAD_ACPI_PM), "csread_acpi_pm");
	assert_string_equal(twin_metric_name(TM_CSW_FIRST_READ), "csswitch_first_read");
	assert_string_equal(twin_metric_name(TM_CLOCKOFF), "clockoff");
	assert_string_equal(twin_metric_name(TM_CLOCKOFF_NEG), "clockoff_neg");
	for (i = 0, n = 0; i < TM_N; i++)
		n += twin_metric_enabled(TWIN_P_CSREAD | TWIN_P_CSSWITCH |
					 TWIN_P_CLOCKOFF, i);
	assert_int_equal(n, 6);
}

/* The totals and their parts: the catalog's families among the twin's. */
static void test_metric_parts(void **state)
{
	unsigned int part[2] = { 99, 99 };

	(void)state;
	assert_int_equal(twin_metric_parts(TM_TTWU, part), 1);
	assert_int_equal(part[0], TM_TTWU_MIG);
	assert_int_equal(part[1], TM_TTWU_LOC);
	assert_int_equal(twin_metric_parts(TM_TKW, part), 1);
	assert_int_equal(part[0], TM_TKW_MIG);
	assert_int_equal(part[1], TM_TKW_LOC);
	part[0] = part[1] = 99;
	/* Parts, and metrics of no family, are no totals. */
	assert_int_equal(twin_metric_parts(TM_TTWU_MIG, part), 0);
	assert_int_equal(twin_metric_parts(TM_TKW_ENQ, part), 0);
	assert_int_equal(twin_metric_parts(TM_CLOCKOFF, part), 0);
	assert_int_equal(twin_metric_parts(TM_N, part), 0);
	assert_int_equal(part[0], 99);
}

/*
 * A total read as the module reads one: its counters, and its parts'
 * samples added CPU by CPU (a CPU with samples in one part only, a CPU
 * with none), its min the smaller, its max the larger.
 */
static void test_add_part(void **state)
{
	unsigned int k = 3, s5 = clkstat_value_to_slot(5, k);
	unsigned int s900 = clkstat_value_to_slot(900, k);
	char *tot = calloc(2, TWIN_HIST_STRIDE), *mig = calloc(2, TWIN_HIST_STRIDE);
	char *loc = calloc(2, TWIN_HIST_STRIDE);
	twin_hist_t *t0, *m0, *l0, *l1;
	struct cr_metric m = { 0 };

	(void)state;
	assert_non_null(tot);
	assert_non_null(mig);
	assert_non_null(loc);
	t0 = (twin_hist_t *)tot;
	m0 = (twin_hist_t *)mig;
	l0 = (twin_hist_t *)loc;
	l1 = (twin_hist_t *)(loc + TWIN_HIST_STRIDE);
	t0->counter[CLKSTAT_TTWU_WAKEUPS] = 4;
	t0->counter[CLKSTAT_TTWU_MIGRATED] = 1;
	m0->slot[s900].count = 1;
	m0->slot[s900].sum = 900;
	m0->nmin = ~900ULL;
	m0->max = 900;
	m0->counter[CLKSTAT_TTWU_WAKEUPS] = 77;	/* a part's: not the total's */
	l0->slot[s5].count = 2;
	l0->slot[s5].sum = 10;
	l0->nmin = ~5ULL;
	l0->max = 5;
	l1->slot[s900].count = 1;
	l1->slot[s900].sum = 901;
	l1->nmin = ~901ULL;
	l1->max = 901;
	twin_hist_add_part(tot, mig, 2);
	twin_hist_add_part(tot, loc, 2);
	assert_int_equal(twin_fill_metric(&m, TM_TTWU, "bpf-fentry", k, 0, tot, 2), 0);
	assert_int_equal(m.counters[CLKSTAT_TTWU_WAKEUPS].value, 4);
	assert_int_equal(m.counters[CLKSTAT_TTWU_MIGRATED].value, 1);
	assert_int_equal(m.total.min, 5);
	assert_int_equal(m.total.max, 901);
	assert_int_equal(m.total.nslots, 2);
	assert_int_equal(m.total.slots[0].count, 2);
	assert_int_equal(m.total.slots[1].count, 2);
	assert_int_equal(m.total.slots[1].sum, 1801);
	assert_int_equal(m.ncpus, 2);
	assert_int_equal(m.cpus[0].min, 5);
	assert_int_equal(m.cpus[0].max, 900);
	assert_int_equal(m.cpus[1].min, 901);
	cr_metric_free(&m);
	free(tot);
	free(mig);
	free(loc);
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

/* --events N: N records of 56 bytes and an 8-byte header, rounded up. */
static void test_ring_size(void **state)
{
	size_t b;

	(void)state;
	assert_int_equal(sizeof(struct clkstat_event_rec) + 8, 64);
	assert_int_equal(twin_ring_size(1, 4096, &b), 0);
	assert_int_equal(b, 4096);
	assert_int_equal(twin_ring_size(64, 4096, &b), 0);
	assert_int_equal(b, 4096);
	assert_int_equal(twin_ring_size(65, 4096, &b), 0);
	assert_int_equal(b, 8192);
	assert_int_equal(twin_ring_size(1000, 4096, &b), 0);
	assert_int_equal(b, 65536);
	assert_int_equal(twin_ring_size(16384, 4096, &b), 0);
	assert_int_equal(b, 1 << 20);
	/* 64 KiB pages: at least one page. */
	assert_int_equal(twin_ring_size(16, 65536, &b), 0);
	assert_int_equal(b, 65536);
	/* The largest: 1 GiB. */
	assert_int_equal(twin_ring_size(1U << 24, 4096, &b), 0);
	assert_int_equal(b, TWIN_EV_RING_MAX);
	b = 7;
	assert_int_equal(twin_ring_size((1U << 24) + 1, 4096, &b), -1);
	assert_int_equal(twin_ring_size(UINT32_MAX, 4096, &b), -1);
	assert_int_equal(twin_ring_size(0, 4096, &b), -1);
	assert_int_equal(b, 7);
}

static struct clkstat_event_rec ev(uint64_t ts, unsigned int type,
				   uint64_t corr)
{
	return (struct clkstat_event_rec){ .ts = ts, .type = type,
					   .corr = corr };
}

/* Records from the ring buffer: whole ones only, of known types. */
static void test_event_add(void **state)
{
	struct cr_events x = { 0 };
	struct clkstat_event_rec e = ev(10, CLKSTAT_EV_MARKER, 0);

	(void)state;
	memset(e.text, 'a', sizeof(e.text));	/* no NUL: one is put */
	assert_int_equal(twin_event_add(&x, &e, sizeof(e)), 0);
	assert_int_equal(x.n, 1);
	assert_int_equal(strlen(x.ev[0].text), sizeof(e.text) - 1);
	assert_int_equal(twin_event_add(&x, &e, sizeof(e) - 1), -EINVAL);
	assert_int_equal(twin_event_add(&x, &e, sizeof(e) + 8), -EINVAL);
	e.type = CLKSTAT_EV_NTYPES;
	assert_int_equal(twin_event_add(&x, &e, sizeof(e)), -EINVAL);
	assert_int_equal(x.n, 1);
	cr_events_free(&x);
}

/*
 * The module's reset, as tw_control() marks it in the ring buffer: the
 * events before it go, those after it stay, and a reset of nothing is
 * fine.
 */
static void test_event_reset(void **state)
{
	struct cr_events x = { 0 };
	struct clkstat_event_rec e = ev(10, CLKSTAT_EV_WAKEUP, 1);
	struct clkstat_event_rec r = ev(15, TWIN_EV_RESET, 0);

	(void)state;
	assert_int_equal(twin_event_add(&x, &r, sizeof(r)), 0);
	assert_int_equal(x.n, 0);
	assert_int_equal(twin_event_add(&x, &e, sizeof(e)), 0);
	e = ev(12, CLKSTAT_EV_ENQUEUE, 1);
	assert_int_equal(twin_event_add(&x, &e, sizeof(e)), 0);
	assert_int_equal(x.n, 2);
	assert_int_equal(twin_event_add(&x, &r, sizeof(r)), 0);
	assert_int_equal(x.n, 0);
	e = ev(20, CLKSTAT_EV_WAKEUP, 2);
	assert_int_equal(twin_event_add(&x, &e, sizeof(e)), 0);
	assert_int_equal(x.n, 1);
	assert_int_equal(x.ev[0].ts, 20);
	assert_int_equal(x.ev[0].corr, 2);
	/* A reset record of another size is malformed, as any record. */
	assert_int_equal(twin_event_add(&x, &r, sizeof(r) - 1), -EINVAL);
	assert_int_equal(x.n, 1);
	cr_events_free(&x);
}

/*
 * Sorting by ts keeps the order of equal timestamps (corr numbers the
 * arrival here), over enough events that the merges nest.
 */
static void test_events_sort(void **state)
{
	struct cr_events x = { 0 };
	struct clkstat_event_rec e;
	size_t i, n = 1000;

	(void)state;
	assert_int_equal(twin_events_sort(&x), 0);
	for (i = 0; i < n; i++) {
		/* Two CPUs' streams interleaved, ts 0..99 repeating. */
		e = ev((i * 37) % 100, CLKSTAT_EV_WAKEUP, i);
		assert_int_equal(cr_events_add(&x, &e), 0);
	}
	assert_int_equal(twin_events_sort(&x), 0);
	assert_int_equal(x.n, n);
	for (i = 1; i < n; i++) {
		assert_true(x.ev[i - 1].ts <= x.ev[i].ts);
		if (x.ev[i - 1].ts == x.ev[i].ts)
			assert_true(x.ev[i - 1].corr < x.ev[i].corr);
	}
	/* Every event still there once: the corr values sum up. */
	{
		uint64_t sum = 0;

		for (i = 0; i < n; i++)
			sum += x.ev[i].corr;
		assert_int_equal(sum, n * (n - 1) / 2);
	}
	/* Already in order: unchanged. */
	assert_int_equal(twin_events_sort(&x), 0);
	for (i = 1; i < n; i++)
		assert_true(x.ev[i - 1].ts <= x.ev[i].ts);
	cr_events_free(&x);
}

/* The marker's bytes, as kmod/probe_marker.c's isalnum() and "._:-=+/". */
static void test_marker_chars(void **state)
{
	const char *keep = "._:-=+/09azAZ";
	const char *drop = " \t\n\"'`!?#$%&*()[]{}<>,;@\\|^~";
	unsigned int c, n = 0;

	(void)state;
	for (; *keep; keep++)
		assert_true(twin_marker_char_ok((unsigned char)*keep));
	for (; *drop; drop++)
		assert_false(twin_marker_char_ok((unsigned char)*drop));
	assert_false(twin_marker_char_ok(0));
	assert_false(twin_marker_char_ok(0x7f));
	assert_false(twin_marker_char_ok(0xa0));
	assert_false(twin_marker_char_ok(0xbf));
	/* The kernel's ctype: Latin-1 letters, but multiply and divide. */
	assert_true(twin_marker_char_ok(0xc0));
	assert_true(twin_marker_char_ok(0xe9));
	assert_true(twin_marker_char_ok(0xff));
	assert_false(twin_marker_char_ok(0xd7));
	assert_false(twin_marker_char_ok(0xf7));
	for (c = 0; c < 256; c++)
		n += twin_marker_char_ok(c);
	assert_int_equal(n, 62 + 7 + 62);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_variants),
		cmocka_unit_test(test_probes),
		cmocka_unit_test(test_traces),
		cmocka_unit_test(test_fill_trace),
		cmocka_unit_test(test_metrics_enabled),
		cmocka_unit_test(test_fill),
		cmocka_unit_test(test_ring_size),
		cmocka_unit_test(test_metric_parts),
		cmocka_unit_test(test_add_part),
		cmocka_unit_test(test_event_add),
		cmocka_unit_test(test_event_reset),
		cmocka_unit_test(test_events_sort),
		cmocka_unit_test(test_marker_chars),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

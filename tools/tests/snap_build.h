/* SPDX-License-Identifier: GPL-2.0 */
/*
 * snap_build.h - made-up snapshots for the tests of snapshot and study
 * files (snapshot_test.c, study_test.c, study_fuzz_test.c): histograms
 * filled the way the module would fill them, runs with every metadata
 * field, tags, events and 64-bit extremes; and comparing two snapshots
 * field by field (events too, where both hold them).  cmocka's asserts:
 * include it after cmocka.h.
 */
#ifndef CLKSTAT_TESTS_SNAP_BUILD_H
#define CLKSTAT_TESTS_SNAP_BUILD_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../kmod/uapi/clkstat_buckets.h"
#include "../lib/model.h"

/* ---------------------------------------------------------------- */
/* Building snapshots the way the module would fill them.            */

static inline struct cr_hist *cpu_hist(struct cr_metric *m, uint32_t cpu)
{
	struct cr_hist *h;
	size_t i;

	for (i = 0; i < m->ncpus && m->cpus[i].cpu < cpu; i++)
		;
	if (i < m->ncpus && m->cpus[i].cpu == cpu)
		return &m->cpus[i];
	h = realloc(m->cpus, (m->ncpus + 1) * sizeof(*h));
	assert_non_null(h);
	m->cpus = h;
	memmove(&h[i + 1], &h[i], (m->ncpus - i) * sizeof(*h));
	h[i] = (struct cr_hist){ .cpu = cpu, .min = UINT64_MAX };
	m->ncpus++;
	return &h[i];
}

/* n samples of value v into h, as clkstat_record() would add them. */
static inline void hist_add(struct cr_hist *h, unsigned int k, uint64_t v,
			    uint64_t n)
{
	uint32_t s = clkstat_value_to_slot(v, k);
	struct cr_slot *p;
	size_t i;

	for (i = 0; i < h->nslots && h->slots[i].slot < s; i++)
		;
	if (i == h->nslots || h->slots[i].slot != s) {
		p = realloc(h->slots, (h->nslots + 1) * sizeof(*p));
		assert_non_null(p);
		h->slots = p;
		memmove(&p[i + 1], &p[i], (h->nslots - i) * sizeof(*p));
		p[i] = (struct cr_slot){ .slot = s };
		h->nslots++;
	}
	h->slots[i].count += n;
	h->slots[i].sum += n * (v >> clkstat_slot_sum_shift(s, k));
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

static inline void sample(struct cr_metric *m, uint32_t cpu, uint64_t v,
			  uint64_t n)
{
	hist_add(cpu_hist(m, cpu), m->frac_bits, v, n);
	hist_add(&m->total, m->frac_bits, v, n);
}

static inline struct cr_metric *metric(struct cr_run *r, const char *name,
				       const char *variant, unsigned int k,
				       int recording)
{
	struct cr_metric *m = cr_run_add_metric(r);

	assert_non_null(m);
	snprintf(m->name, sizeof(m->name), "%s", name);
	snprintf(m->variant, sizeof(m->variant), "%s", variant);
	m->frac_bits = k;
	m->recording = recording;
	return m;
}

static inline void counter(struct cr_metric *m, const char *name, uint64_t v)
{
	assert_true(m->ncounters < CR_COUNTERS_MAX);
	snprintf(m->counters[m->ncounters].name, CR_NAME_MAX, "%s", name);
	m->counters[m->ncounters++].value = v;
}

static inline struct cr_run *run(struct cr_snapshot *s, const char *variant,
				 int64_t start, int64_t end, int status)
{
	struct cr_run *r = cr_snapshot_add_run(s);

	assert_non_null(r);
	snprintf(r->variant, sizeof(r->variant), "%s", variant);
	r->start_ns = start;
	r->end_ns = end;
	r->exit_status = status;
	return r;
}

static inline char *xstrdup(const char *s)
{
	char *d = strdup(s);

	assert_non_null(d);
	return d;
}

#define P2(n)	(1ULL << (n))

/* One event into a run's log (record --events). */
static inline void event(struct cr_run *r, uint64_t ts, unsigned int type,
			 uint16_t cpu, uint32_t pid, uint64_t corr,
			 uint8_t flags, uint64_t latency, uint64_t rq_clock,
			 const char *text)
{
	struct clkstat_event_rec e;

	memset(&e, 0, sizeof(e));
	e.ts = ts;
	e.type = (uint8_t)type;
	e.cpu = cpu;
	e.pid = pid;
	e.corr = corr;
	e.flags = flags;
	e.latency = latency;
	e.rq_clock = rq_clock;
	snprintf(e.text, sizeof(e.text), "%s", text);
	r->events.present = 1;
	assert_int_equal(cr_events_add(&r->events, &e), 0);
}

/* Three runs, every meta field, u64 extremes. */
static inline void build_big(struct cr_snapshot *s)
{
	struct cr_meta *mt = &s->meta;
	struct cr_metric *m;
	struct cr_run *r;

	memset(s, 0, sizeof(*s));
	mt->tool_version = xstrdup("0.4.0");
	mt->module_version = xstrdup("0.4.0-g1234abc");
	mt->kernel_release = xstrdup("6.8.0-45-generic");
	mt->clocksource = xstrdup("tsc");
	mt->probes = xstrdup("tkread,ttwu,clockoff");
	mt->variants = xstrdup("base,lfence");
	mt->command = xstrdup("sh -c 'echo \"hi\" > /tmp/x'\ttab \\ back \xc2\xb5s");
	mt->machine = xstrdup("vm");
	mt->hypervisor = xstrdup("");	/* empty is not NULL */
	mt->cpuidle_driver = xstrdup("intel_idle");
	mt->cpuidle_governor = xstrdup("menu");
	mt->max_cstate = xstrdup("1");
	mt->cmdline = xstrdup("BOOT_IMAGE=/vmlinuz root=/dev/vda1 console=ttyS0 quiet");
	/* Recorded, one of them none (a machine without boost control). */
	mt->cpufreq_recorded = 1;
	mt->cpufreq_driver = xstrdup("acpi-cpufreq");
	mt->cpufreq_governor = xstrdup("performance:0-3,6 powersave:4-5");
	mt->frac_bits = 3;
	mt->nr_cpus = 4096;
	mt->duration_s = 0.1;
	assert_int_equal(cr_meta_add_param(mt, "frac_bits", "3"), 0);
	assert_int_equal(cr_meta_add_param(mt, "probes", "tkread,ttwu"), 0);
	assert_int_equal(cr_meta_add_param(mt, "empty", ""), 0);

	r = run(s, "base", 1700000000123456789LL, 1700000001123456789LL, 0);
	r->workload_only = 0;
	m = metric(r, "tkread", "base", 3, 0);
	counter(m, "max", UINT64_MAX);
	counter(m, "above_i64", P2(63) + 1);
	counter(m, "zero", 0);
	counter(m, "c3", 3);
	counter(m, "c4", 4);
	counter(m, "c5", 5);
	counter(m, "c6", 6);
	counter(m, "c7", P2(53) + 1);
	sample(m, 0, 0, 7);			/* min 0 */
	sample(m, 0, 1023, P2(53) + 1);		/* count > 2^53, sum ~2^63 */
	sample(m, 1, 1023, P2(50));		/* total's sum > 2^63 */
	sample(m, 1, 5000, 3);
	sample(m, 4095, P2(40), 9);		/* shifted sum */
	sample(m, 4095, UINT64_MAX, 1);		/* max UINT64_MAX, last slot */
	m = metric(r, "ttwu", "base", 5, 1);
	counter(m, "wakeups", 12);
	sample(m, 3, 123456789, 1000);
	sample(m, 7, 31, 1);
	sample(m, 7, P2(33) + 12345, 2);
	metric(r, "idle", "base", 0, 0);	/* no samples at all */
	/* Every column, null/true/false, u64 beyond 2^53 and 2^63. */
	mt->events = 100000;
	r->events.lost = P2(53) + 1;
	r->events.nclock = 2;
	r->events.clock[0] = (struct cr_clock_pair){ 5, 1700000000123456789LL };
	r->events.clock[1] = (struct cr_clock_pair){ INT64_MAX, INT64_MAX };
	event(r, 0, CLKSTAT_EV_MARKER, 0, 1, 0, 0, 0, 0, "run_start");
	event(r, P2(53) + 1, CLKSTAT_EV_WAKEUP, 4095, UINT32_MAX, P2(53) + 3,
	      0, 0, 0, "");
	event(r, P2(53) + 1, CLKSTAT_EV_ENQUEUE, 3, 77, P2(53) + 3,
	      CLKSTAT_EVF_LATENCY | CLKSTAT_EVF_MIGRATED | CLKSTAT_EVF_RQ_CLOCK,
	      P2(63) + 1, UINT64_MAX, "");
	event(r, P2(63) + 1, CLKSTAT_EV_FIRST_TKREAD, UINT16_MAX, 77, UINT64_MAX,
	      CLKSTAT_EVF_LATENCY | CLKSTAT_EVF_LOCAL, 0, 0, "");
	event(r, UINT64_MAX, CLKSTAT_EV_CS_SWITCH_ENTRY, 1, 0, 0,
	      CLKSTAT_EVF_RQ_CLOCK, 0, 0, "hpet 15 bytes..");

	r = run(s, "lfence", 0, 0, -1);
	r->workload_only = 1;
	m = metric(r, "tkread", "lfence", 3, 0);
	sample(m, 2, 77, 5);
	sample(m, 2, 1, 1);
	m = metric(r, "tkread", "base", 0, 0);	/* same name, other variant */
	sample(m, 0, P2(62), 2);

	r = run(s, "base", INT64_MAX - 1000, INT64_MAX, 255);	/* no metric */
	r->events.present = 1;		/* recorded with events, none came */
}

/* A small one, for the prefix and mutation tests. */
static inline void build_small(struct cr_snapshot *s)
{
	struct cr_metric *m;
	struct cr_run *r;

	memset(s, 0, sizeof(*s));
	s->meta.tool_version = xstrdup("0.4");
	s->meta.machine = xstrdup("bare-metal");
	s->meta.frac_bits = 3;
	s->meta.nr_cpus = 4;
	s->meta.duration_s = 2;
	assert_int_equal(cr_meta_add_param(&s->meta, "frac_bits", "3"), 0);
	r = run(s, "base", 100, 200, 0);
	m = metric(r, "tkread", "base", 3, 0);
	counter(m, "dropped", 1);
	sample(m, 0, 5, 2);
	sample(m, 2, 1000, 1);
	sample(m, 2, UINT64_MAX, 1);
	s->meta.events = 10;
	r->events.nclock = 1;
	r->events.clock[0] = (struct cr_clock_pair){ 150, 1000 };
	event(r, 150, CLKSTAT_EV_WAKEUP, 1, 2, 3, 0, 0, 0, "");
	event(r, 160, CLKSTAT_EV_ENQUEUE, 1, 2, 3,
	      CLKSTAT_EVF_LATENCY | CLKSTAT_EVF_LOCAL, 10, 0, "m");
}

/* ---------------------------------------------------------------- */
/* Comparing.                                                        */

static inline void assert_str_or_null(const char *a, const char *b)
{
	if (!a || !b)
		assert_true(!a && !b);
	else
		assert_string_equal(a, b);
}

static inline void assert_hist_equal(const struct cr_hist *a,
				     const struct cr_hist *b)
{
	size_t i;

	assert_int_equal(a->cpu, b->cpu);
	assert_true(a->min == b->min);
	assert_true(a->max == b->max);
	assert_int_equal(a->nslots, b->nslots);
	for (i = 0; i < a->nslots; i++) {
		assert_int_equal(a->slots[i].slot, b->slots[i].slot);
		assert_true(a->slots[i].count == b->slots[i].count);
		assert_true(a->slots[i].sum == b->slots[i].sum);
	}
}

static inline void assert_snap_equal(const struct cr_snapshot *a,
				     const struct cr_snapshot *b)
{
	const struct cr_meta *x = &a->meta, *y = &b->meta;
	size_t i, j, c;

	assert_str_or_null(x->tool_version, y->tool_version);
	assert_str_or_null(x->module_version, y->module_version);
	assert_str_or_null(x->kernel_release, y->kernel_release);
	assert_str_or_null(x->clocksource, y->clocksource);
	assert_str_or_null(x->probes, y->probes);
	assert_str_or_null(x->variants, y->variants);
	assert_str_or_null(x->command, y->command);
	assert_str_or_null(x->machine, y->machine);
	assert_str_or_null(x->hypervisor, y->hypervisor);
	assert_str_or_null(x->cpuidle_driver, y->cpuidle_driver);
	assert_str_or_null(x->cpuidle_governor, y->cpuidle_governor);
	assert_str_or_null(x->max_cstate, y->max_cstate);
	assert_str_or_null(x->cmdline, y->cmdline);
	assert_str_or_null(x->clock, y->clock);
	assert_str_or_null(x->conditions, y->conditions);
	assert_str_or_null(x->host, y->host);
	assert_int_equal(x->cpufreq_recorded, y->cpufreq_recorded);
	assert_str_or_null(x->cpufreq_driver, y->cpufreq_driver);
	assert_str_or_null(x->cpufreq_governor, y->cpufreq_governor);
	assert_str_or_null(x->cpufreq_boost, y->cpufreq_boost);
	assert_int_equal(x->frac_bits, y->frac_bits);
	assert_int_equal(x->nr_cpus, y->nr_cpus);
	assert_true(x->duration_s == y->duration_s);
	assert_int_equal(x->events, y->events);
	assert_int_equal(x->nparams, y->nparams);
	for (i = 0; i < x->nparams; i++) {
		assert_string_equal(x->param_names[i], y->param_names[i]);
		assert_string_equal(x->param_values[i], y->param_values[i]);
	}
	assert_int_equal(x->ntags, y->ntags);
	for (i = 0; i < x->ntags; i++) {
		assert_string_equal(x->tag_names[i], y->tag_names[i]);
		assert_string_equal(x->tag_values[i], y->tag_values[i]);
	}
	assert_int_equal(a->nruns, b->nruns);
	for (i = 0; i < a->nruns; i++) {
		const struct cr_run *r = &a->runs[i], *q = &b->runs[i];

		assert_int_equal(r->index, q->index);
		assert_string_equal(r->variant, q->variant);
		assert_true(r->start_ns == q->start_ns);
		assert_true(r->end_ns == q->end_ns);
		assert_int_equal(r->exit_status, q->exit_status);
		assert_int_equal(r->workload_only, q->workload_only);
		assert_int_equal(r->ntags, q->ntags);
		for (j = 0; j < r->ntags; j++) {
			assert_string_equal(r->tag_names[j], q->tag_names[j]);
			assert_string_equal(r->tag_values[j],
					    q->tag_values[j]);
		}
		assert_int_equal(r->nmetrics, q->nmetrics);
		for (j = 0; j < r->nmetrics; j++) {
			const struct cr_metric *m = &r->metrics[j];
			const struct cr_metric *n = &q->metrics[j];

			assert_string_equal(m->name, n->name);
			assert_string_equal(m->variant, n->variant);
			assert_int_equal(m->frac_bits, n->frac_bits);
			assert_int_equal(m->recording, n->recording);
			assert_int_equal(m->ncounters, n->ncounters);
			for (c = 0; c < m->ncounters; c++) {
				assert_string_equal(m->counters[c].name,
						    n->counters[c].name);
				assert_true(m->counters[c].value ==
					    n->counters[c].value);
			}
			assert_hist_equal(&m->total, &n->total);
			assert_int_equal(m->ncpus, n->ncpus);
			for (c = 0; c < m->ncpus; c++)
				assert_hist_equal(&m->cpus[c], &n->cpus[c]);
		}
		assert_int_equal(r->events.present, q->events.present);
		assert_true(r->events.lost == q->events.lost);
		assert_int_equal(r->events.nclock, q->events.nclock);
		for (c = 0; c < r->events.nclock; c++) {
			assert_true(r->events.clock[c].mono_ns ==
				    q->events.clock[c].mono_ns);
			assert_true(r->events.clock[c].realtime_ns ==
				    q->events.clock[c].realtime_ns);
		}
		assert_int_equal(r->events.n, q->events.n);
		for (c = 0; c < r->events.n; c++)
			assert_memory_equal(&r->events.ev[c], &q->events.ev[c],
					    sizeof(r->events.ev[c]));
	}
}

static inline void assert_empty(const struct cr_snapshot *s)
{
	static const struct cr_snapshot zero;

	assert_memory_equal(s, &zero, sizeof(zero));
}

#endif

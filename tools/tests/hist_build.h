/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hist_build.h - made-up histograms for the renderer tests and the demo:
 * samples go into a struct cr_metric as the module would record them
 * (clkstat_value_to_slot(), the sum of each sample shifted right by
 * clkstat_slot_sum_shift()), per CPU and into the all-CPU total.
 * Allocation failures abort: test code.
 */
#ifndef CLKSTAT_TESTS_HIST_BUILD_H
#define CLKSTAT_TESTS_HIST_BUILD_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../kmod/uapi/clkstat_buckets.h"
#include "../lib/model.h"

static inline void *hb_realloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		fprintf(stderr, "hist_build: out of memory\n");
		abort();
	}
	return p;
}

/*
 * count samples of value v into h (frac_bits k), slots kept ascending: in
 * one step, for counts too large to add one by one.
 */
static inline void hb_hist_add_n(struct cr_hist *h, unsigned int k,
				 uint64_t v, uint64_t count)
{
	uint32_t s = clkstat_value_to_slot(v, k);
	size_t j;

	for (j = 0; j < h->nslots && h->slots[j].slot < s; j++)
		;
	if (j == h->nslots || h->slots[j].slot != s) {
		h->slots = hb_realloc(h->slots,
				      (h->nslots + 1) * sizeof(*h->slots));
		memmove(&h->slots[j + 1], &h->slots[j],
			(h->nslots - j) * sizeof(*h->slots));
		h->slots[j] = (struct cr_slot){ .slot = s };
		h->nslots++;
	}
	h->slots[j].count += count;
	h->slots[j].sum += count * (v >> clkstat_slot_sum_shift(s, k));
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

/* One sample v into h (frac_bits k), slots kept ascending. */
static inline void hb_hist_add(struct cr_hist *h, unsigned int k, uint64_t v)
{
	hb_hist_add_n(h, k, v, 1);
}

/* A new metric of r (cr_run_add_metric(): total empty, min U64_MAX). */
static inline struct cr_metric *hb_metric(struct cr_run *r, const char *name,
					  const char *variant,
					  unsigned int frac_bits)
{
	struct cr_metric *m = cr_run_add_metric(r);

	if (!m)
		abort();
	snprintf(m->name, sizeof(m->name), "%s", name);
	snprintf(m->variant, sizeof(m->variant), "%s", variant);
	m->frac_bits = frac_bits;
	return m;
}

/* One sample v on CPU cpu: into that CPU's histogram and the total. */
static inline void hb_sample(struct cr_metric *m, uint32_t cpu, uint64_t v)
{
	size_t j;

	for (j = 0; j < m->ncpus && m->cpus[j].cpu < cpu; j++)
		;
	if (j == m->ncpus || m->cpus[j].cpu != cpu) {
		m->cpus = hb_realloc(m->cpus, (m->ncpus + 1) * sizeof(*m->cpus));
		memmove(&m->cpus[j + 1], &m->cpus[j],
			(m->ncpus - j) * sizeof(*m->cpus));
		m->cpus[j] = (struct cr_hist){ .cpu = cpu, .min = UINT64_MAX };
		m->ncpus++;
	}
	hb_hist_add(&m->cpus[j], m->frac_bits, v);
	hb_hist_add(&m->total, m->frac_bits, v);
}

static inline void hb_counter(struct cr_metric *m, const char *name,
			      uint64_t value)
{
	if (m->ncounters == CR_COUNTERS_MAX)
		abort();
	snprintf(m->counters[m->ncounters].name,
		 sizeof(m->counters[0].name), "%s", name);
	m->counters[m->ncounters++].value = value;
}

/* xorshift64*: the same samples on every machine. */
static inline uint64_t hb_rand(uint64_t *state)
{
	*state ^= *state >> 12;
	*state ^= *state << 25;
	*state ^= *state >> 27;
	return *state * 0x2545F4914F6CDD1DULL;
}

#endif

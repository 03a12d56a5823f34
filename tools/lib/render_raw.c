// SPDX-License-Identifier: GPL-2.0
/*
 * render_raw.c - every histogram slot by slot, in the format "raw" has
 * printed since it read the GET_HIST dump message by message:
 *
 *   metric ttwu_enqueue.direct cpu 0
 *   min 1043 max 15203
 *   slot 80 count 12 sum 50532
 *   ...
 *   metric ttwu_enqueue.direct cpu all
 *   min 1043 max 15203
 *   resets 0
 *   counter wakeups 300
 *   counter migrated 12
 *   slot 80 count 15 sum 62970
 *
 * Per metric, in the run's order, the CPUs that have samples in ascending
 * order and then the sum over CPUs ("all"), as the dump sends them, always
 * (--per-cpu does not matter here).  min and max are printed as held: an
 * empty histogram has min 18446744073709551615 (U64_MAX) and max 0, as the
 * module sends them.  "resets" (the module's resets of the metric since
 * it loaded) is printed for a live dump only: snapshot files do not keep
 * it.  sum is the slot's scaled sum as the module keeps it
 * (clkstat_slot_sum_shift()).
 *
 * Two differences from the old message-by-message output: a histogram is
 * one block however many messages carried it (the dump repeated the
 * "metric" line for each continuation), and the counters are printed in
 * the "cpu all" block only (the dump also sent each CPU's share on the
 * CPU's first message; the model keeps the metric's counters only).
 * tools/tests/guest compares the slots, the all-CPU min, max and counters
 * against debugfs.
 */
#include <inttypes.h>
#include "render_common.h"
#include "status.h"

static void cr_raw_hist(FILE *out, const struct cr_metric *m,
			const struct cr_hist *h)
{
	size_t i;

	fprintf(out, "metric %s.%s cpu ", m->name, m->variant);
	if (h->cpu == CR_CPU_ALL)
		fputs("all\n", out);
	else
		fprintf(out, "%" PRIu32 "\n", h->cpu);
	fprintf(out, "min %" PRIu64 " max %" PRIu64 "\n", h->min, h->max);
	if (h->cpu == CR_CPU_ALL && m->has_resets)
		fprintf(out, "resets %" PRIu64 "\n", m->resets);
	for (i = 0; h->cpu == CR_CPU_ALL && i < m->ncounters; i++)
		fprintf(out, "counter %s %" PRIu64 "\n", m->counters[i].name,
			m->counters[i].value);
	for (i = 0; i < h->nslots; i++)
		fprintf(out, "slot %" PRIu32 " count %" PRIu64 " sum %" PRIu64
			"\n", h->slots[i].slot, h->slots[i].count,
			h->slots[i].sum);
}

int cr_render_raw(FILE *out, const struct cr_run *r,
		  const struct cr_render_opts *o)
{
	const struct cr_metric *m;
	size_t i, c;

	for (i = 0; i < r->nmetrics; i++) {
		m = &r->metrics[i];
		if (!cr_render_wanted(m, o))
			continue;
		/* The dump leaves out CPUs without samples; so do we. */
		for (c = 0; c < m->ncpus; c++)
			if (m->cpus[c].nslots)
				cr_raw_hist(out, m, &m->cpus[c]);
		cr_raw_hist(out, m, &m->total);
	}
	if (fflush(out) || ferror(out))
		return CR_ERR;
	return CR_OK;
}

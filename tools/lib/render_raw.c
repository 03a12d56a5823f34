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
 * Per metric the CPUs with samples, then "all"; min and max as held, sums
 * in the module's units, resets for a live dump only, counters in the
 * "cpu all" block only.  The rules, and how this differs from the old
 * message-by-message output: Documentation/clkstat.rst, "The report".
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

// SPDX-License-Identifier: GPL-2.0
/*
 * render_csv.c - the summaries as CSV (RFC 4180):
 *
 *   metric,variant,cpu,count,min,p50,p90,p99,p999,max,mean,stddev
 *   ttwu_enqueue,direct,all,300,1043,4301,9001,12288,15010,15203,5321.417,2110.093
 *
 * One row per metric (stats.h's summary of all CPUs, cpu "all"), and with
 * --per-cpu one more per CPU that has samples (cpu: its number).  Every
 * number is ns: the integers exact, mean and stddev with three decimals
 * ("%.3f", far below the data's own resolution).  An empty histogram is a
 * row of zeros.  Lines end with LF alone (RFC 4180 says CRLF; every CSV
 * reader takes LF, and this is a Unix tool's output).  A field with a
 * comma, a double quote, CR or LF is quoted, its quotes doubled; metric and
 * variant names never need it, but a snapshot file could hold anything.
 */
#include <inttypes.h>
#include <string.h>
#include "render_common.h"
#include "stats.h"
#include "status.h"

static int cr_csv_row(FILE *out, const struct cr_metric *m,
		      const struct cr_hist *h)
{
	struct cr_summary s;

	if (cr_summarize(h, m->frac_bits, &s))
		return -1;
	cr_csv_field(out, m->name);
	fputc(',', out);
	cr_csv_field(out, m->variant);
	if (h->cpu == CR_CPU_ALL)
		fputs(",all", out);
	else
		fprintf(out, ",%" PRIu32, h->cpu);
	fprintf(out, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%"
		PRIu64 ",%" PRIu64 ",%" PRIu64 ",%.3f,%.3f\n",
		s.count, s.min, s.p50, s.p90, s.p99, s.p999, s.max, s.mean,
		s.stddev);
	return 0;
}

int cr_render_csv(FILE *out, const struct cr_run *r,
		  const struct cr_render_opts *o)
{
	const struct cr_metric *m;
	size_t i, c;

	fputs("metric,variant,cpu,count,min,p50,p90,p99,p999,max,mean,stddev\n",
	      out);
	for (i = 0; i < r->nmetrics; i++) {
		m = &r->metrics[i];
		if (!cr_render_wanted(m, o))
			continue;
		if (cr_csv_row(out, m, &m->total))
			return CR_ERR;
		for (c = 0; o->per_cpu && c < m->ncpus; c++)
			if (cr_csv_row(out, m, &m->cpus[c]))
				return CR_ERR;
	}
	if (fflush(out) || ferror(out))
		return CR_ERR;
	return CR_OK;
}

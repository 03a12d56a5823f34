// SPDX-License-Identifier: GPL-2.0
/*
 * render_csv.c - the summaries as CSV (RFC 4180):
 *
 *   metric,variant,cpu,count,min,p50,p90,p99,p999,max,mean,stddev,unit,counters,migrated_share
 *   ttwu_enqueue,direct,all,300,1043,4301,9001,12288,15010,15203,5321.417,2110.093,ns,wakeups=300 migrated=12 unmatched=0,0.040000
 *
 * One row per metric (stats.h's summary of all CPUs, cpu "all"), and with
 * --per-cpu one more per CPU that has samples (cpu: its number).  Every
 * number is ns: the integers exact, mean and stddev with three decimals
 * ("%.3f", far below the data's own resolution).  An empty histogram is a
 * row of zeros.
 *
 * The last three columns came later and are only ever appended to, so
 * that readers that take columns by position keep working:
 *   unit            the unit of min .. stddev: "ns"
 *   counters        the metric's counters, "name=value" separated by one
 *                   space, in the metric's order (all-CPU rows only; empty
 *                   on per-CPU rows, and for a metric without counters)
 *   migrated_share  the counter migrated divided by count, six decimals,
 *                   where the metric has a counter migrated and samples
 *                   (all-CPU rows only; empty otherwise)
 *
 * Lines end with LF alone (RFC 4180 says CRLF; every CSV reader takes LF,
 * and this is a Unix tool's output).  A field with a comma, a double
 * quote, CR or LF is quoted, its quotes doubled; metric and variant names
 * never need it, but a snapshot file could hold anything.
 */
#include <inttypes.h>
#include <string.h>
#include "render_common.h"
#include "stats.h"
#include "status.h"

/* The counter whose share of the samples the last column gives. */
#define CR_CSV_MIGRATED	"migrated"

static void cr_csv_counters(FILE *out, const struct cr_metric *m,
			    const struct cr_hist *h, uint64_t count)
{
	char buf[CR_COUNTERS_MAX * (CR_NAME_MAX + 24)];
	const struct cr_counter *mig = NULL;
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; h->cpu == CR_CPU_ALL && i < m->ncounters; i++) {
		n += snprintf(buf + n, sizeof(buf) - n, "%s%s=%" PRIu64,
			      i ? " " : "", m->counters[i].name,
			      m->counters[i].value);
		if (n >= sizeof(buf))
			n = sizeof(buf) - 1;
		if (!strcmp(m->counters[i].name, CR_CSV_MIGRATED))
			mig = &m->counters[i];
	}
	fputc(',', out);
	cr_csv_field(out, buf);
	fputc(',', out);
	if (mig && count)
		fprintf(out, "%.6f", (double)mig->value / (double)count);
}

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
		PRIu64 ",%" PRIu64 ",%" PRIu64 ",%.3f,%.3f,ns",
		s.count, s.min, s.p50, s.p90, s.p99, s.p999, s.max, s.mean,
		s.stddev);
	cr_csv_counters(out, m, h, s.count);
	fputc('\n', out);
	return 0;
}

int cr_render_csv(FILE *out, const struct cr_run *r,
		  const struct cr_render_opts *o)
{
	const struct cr_metric *m;
	size_t i, c;

	fputs("metric,variant,cpu,count,min,p50,p90,p99,p999,max,mean,stddev,unit,counters,migrated_share\n",
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

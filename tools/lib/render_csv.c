// SPDX-License-Identifier: GPL-2.0
/*
 * render_csv.c - the summaries as CSV (RFC 4180):
 *
 *   metric,variant,cpu,count,min,p50,p90,p99,p999,max,mean,stddev,unit,counters,migrated_share
 *   ttwu_enqueue,direct,all,300,1043,4301,9001,12288,15010,15203,5321.417,2110.093,ns,wakeups=300 migrated=12 unmatched=0,0.040000
 *
 * One row per metric (stats.h's summary of all CPUs, cpu "all"), and with
 * --per-cpu one more per CPU that has samples (cpu: its number).  Every
 * number is ns (--time-unit us or ms: that unit, column unit says which): the
 * integers exact (in us with 3 decimals, in ms with 6), mean and stddev
 * with three decimals more ("%.3f" in ns, far below the data's own
 * resolution).  An empty histogram is a row of zeros.
 *
 * The last three columns came later and are only ever appended to, so
 * that readers that take columns by position keep working:
 *   unit            the unit of min .. stddev: "ns", or --time-unit's
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

/*
 * An integer number of ns v in unit u: exact, with the unit's decimals
 * (us: 3, ms: 6) always printed.
 */
static void cr_csv_int(FILE *out, uint64_t v, enum cr_unit u)
{
	uint64_t d = cr_unit_ns(u);

	if (d == 1)
		fprintf(out, ",%" PRIu64, v);
	else
		fprintf(out, ",%" PRIu64 ".%0*" PRIu64, v / d,
			u == CR_UNIT_US ? 3 : 6, v % d);
}

static int cr_csv_row(FILE *out, const struct cr_metric *m,
		      const struct cr_hist *h, enum cr_unit u)
{
	uint64_t iv[6];
	struct cr_summary s;
	double d;
	int i;

	if (cr_summarize(h, m->frac_bits, &s))
		return -1;
	cr_csv_field(out, m->name);
	fputc(',', out);
	cr_csv_field(out, m->variant);
	if (h->cpu == CR_CPU_ALL)
		fputs(",all", out);
	else
		fprintf(out, ",%" PRIu32, h->cpu);
	fprintf(out, ",%" PRIu64, s.count);
	iv[0] = s.min;
	iv[1] = s.p50;
	iv[2] = s.p90;
	iv[3] = s.p99;
	iv[4] = s.p999;
	iv[5] = s.max;
	for (i = 0; i < 6; i++)
		cr_csv_int(out, iv[i], u);
	/* mean, stddev: three decimals more than the unit's own */
	d = (double)cr_unit_ns(u);
	i = u == CR_UNIT_US ? 6 : u == CR_UNIT_MS ? 9 : 3;
	fprintf(out, ",%.*f,%.*f,%s", i, s.mean / d, i, s.stddev / d,
		cr_unit_name(u));
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
		if (cr_csv_row(out, m, &m->total, o->unit))
			return CR_ERR;
		for (c = 0; o->per_cpu && c < m->ncpus; c++)
			if (cr_csv_row(out, m, &m->cpus[c], o->unit))
				return CR_ERR;
	}
	if (fflush(out) || ferror(out))
		return CR_ERR;
	return CR_OK;
}

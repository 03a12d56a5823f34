// SPDX-License-Identifier: GPL-2.0
/*
 * render_openmetrics.c - the histograms as an OpenMetrics 1.0 text
 * exposition that Prometheus's text-format parser (promtool check metrics,
 * node_exporter's textfile collector) also takes, lint included:
 *
 *   # TYPE clkstat_latency_seconds histogram
 *   # UNIT clkstat_latency_seconds seconds
 *   # HELP clkstat_latency_seconds Latency recorded by ...
 *   clkstat_latency_seconds_bucket{metric="ttwu_enqueue",variant="direct",cpu="all",le="1.151e-06"} 12
 *   ...
 *   clkstat_latency_seconds_bucket{metric="ttwu_enqueue",variant="direct",cpu="all",le="+Inf"} 300
 *   clkstat_latency_seconds_count{metric="ttwu_enqueue",variant="direct",cpu="all"} 300
 *   clkstat_latency_seconds_sum{metric="ttwu_enqueue",variant="direct",cpu="all"} 0.0015964
 *   # HELP clkstat_events_total Events counted by ...
 *   clkstat_events_total{metric="ttwu_enqueue",variant="direct",counter="wakeups"} 300
 *   # EOF
 *
 * Histogram: one family, labels metric, variant and cpu ("all" for the sum
 * over CPUs; with --per-cpu also one series per CPU that has samples,
 * cpu="N": off by default, as it multiplies the series by the CPUs).  One
 * bucket per non-empty slot, le its inclusive upper bound: the samples are
 * integer ns, so "<= upper" is exactly the slot and everything below it.
 * le is in seconds, upper / 1e9 rounded to a double and printed as Go (and
 * so Prometheus's own clients) prints it: the shortest digits that read
 * back as the same double, %g's layout with exponents below -4 and from 6
 * on, ".0" appended to an integer ("1e-06", "1.151e-06", "0.5", "2.0").
 * Adjacent slots' bounds differ by at least 1/64 of their value (1 ns for
 * the exact slots), so no two print alike; a bound that did not come out
 * above the previous one would be left out (its slot's count then falls in
 * the next bucket, still correct).  Then le="+Inf", _count (the same
 * number) and _sum (seconds, the slots' sums as stats.c adds them, exact
 * below 8.6 s per sample).  An empty histogram has its +Inf bucket, count 0
 * and sum 0.  Each series' samples are together, as OpenMetrics requires.
 *
 * Counters: the module's per-metric counters (all CPUs) as samples
 * clkstat_events_total{metric,variant,counter}.  The OpenMetrics way is a
 * counter family "clkstat_events" (TYPE, HELP) with samples
 * clkstat_events_total, and OpenMetrics parsers take it; but Prometheus's
 * text parser knows no _total suffix: it files the samples under an
 * untyped clkstat_events_total with no help text, drops the empty
 * clkstat_events family, and promtool's lint then fails on "no help text".
 * Declaring the family clkstat_events_total instead breaks OpenMetrics
 * (its samples would have to be clkstat_events_total_total).  So the
 * family has no TYPE line, only HELP under the samples' own name: type
 * unknown to OpenMetrics, untyped to Prometheus, accepted by both, and
 * rate() and increase() work on it all the same.  The family is left out
 * when no wanted metric has a counter.
 *
 * Label values are escaped as both formats want (\\, \", \n).  Ends with
 * "# EOF".  tools/tests/openmetrics_check.sh feeds the output to promtool
 * and to prometheus_client's strict OpenMetrics parser.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "../../kmod/uapi/clkstat_buckets.h"
#include "render_common.h"
#include "status.h"

#define CR_OM_HIST	"clkstat_latency_seconds"
#define CR_OM_EVENTS	"clkstat_events_total"

/*
 * v (finite, >= 0) as Go's strconv.FormatFloat(v, 'g', -1, 64), with ".0"
 * appended when that has neither a point nor an exponent: Prometheus's
 * canonical rendering of le values.
 */
static void cr_om_float(char *buf, size_t len, double v)
{
	char e[40], digits[24], *p;
	int prec, exp, nd, i;

	if (v == 0) {
		snprintf(buf, len, "0.0");
		return;
	}
	/* The shortest %e that reads back as v. */
	for (prec = 0; prec < 17; prec++) {
		snprintf(e, sizeof(e), "%.*e", prec, v);
		if (strtod(e, NULL) == v)
			break;
	}
	p = strchr(e, 'e');
	exp = atoi(p + 1);
	nd = 0;
	for (i = 0; e + i < p; i++)
		if (e[i] >= '0' && e[i] <= '9')
			digits[nd++] = e[i];
	digits[nd] = '\0';
	if (exp < -4 || exp >= 6) {
		/* d[.ddd]e±XX, as %e prints it */
		snprintf(buf, len, "%c%s%.*s%s", digits[0], nd > 1 ? "." : "",
			 nd - 1, digits + 1, p);
		return;
	}
	snprintf(buf, len, "%.*f", nd - 1 - exp > 0 ? nd - 1 - exp : 0, v);
	if (!strpbrk(buf, ".e") && strlen(buf) + 2 < len)
		strcat(buf, ".0");
}

/* A label value, escaped. */
static void cr_om_value(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\\\", out);
		else if (*s == '"')
			fputs("\\\"", out);
		else if (*s == '\n')
			fputs("\\n", out);
		else
			fputc(*s, out);
	}
}

/* metric="...",variant="...",cpu="..." (no braces). */
static void cr_om_labels(FILE *out, const struct cr_metric *m,
			 const struct cr_hist *h)
{
	fputs("metric=\"", out);
	cr_om_value(out, m->name);
	fputs("\",variant=\"", out);
	cr_om_value(out, m->variant);
	if (h->cpu == CR_CPU_ALL)
		fputs("\",cpu=\"all\"", out);
	else
		fprintf(out, "\",cpu=\"%" PRIu32 "\"", h->cpu);
}

static void cr_om_hist(FILE *out, const struct cr_metric *m,
		       const struct cr_hist *h)
{
	unsigned int k = m->frac_bits;
	unsigned __int128 sum_ns = 0;
	uint64_t cum = 0;
	double le, prev = -1;
	char buf[48];
	uint32_t slot;
	size_t i;

	for (i = 0; i < h->nslots; i++) {
		slot = h->slots[i].slot;
		if (!h->slots[i].count || slot >= CLKSTAT_NSLOTS(k))
			continue;
		cum += h->slots[i].count;
		sum_ns += (unsigned __int128)h->slots[i].sum <<
			  clkstat_slot_sum_shift(slot, k);
		le = (double)((long double)clkstat_slot_upper(slot, k) / 1e9L);
		if (!(le > prev))
			continue;	/* cannot happen; see the top */
		prev = le;
		cr_om_float(buf, sizeof(buf), le);
		fputs(CR_OM_HIST "_bucket{", out);
		cr_om_labels(out, m, h);
		fprintf(out, ",le=\"%s\"} %" PRIu64 "\n", buf, cum);
	}
	fputs(CR_OM_HIST "_bucket{", out);
	cr_om_labels(out, m, h);
	fprintf(out, ",le=\"+Inf\"} %" PRIu64 "\n", cum);
	fputs(CR_OM_HIST "_count{", out);
	cr_om_labels(out, m, h);
	fprintf(out, "} %" PRIu64 "\n", cum);
	cr_om_float(buf, sizeof(buf), (double)((long double)sum_ns / 1e9L));
	fputs(CR_OM_HIST "_sum{", out);
	cr_om_labels(out, m, h);
	fprintf(out, "} %s\n", buf);
}

int cr_render_openmetrics(FILE *out, const struct cr_run *r,
			  const struct cr_render_opts *o)
{
	const struct cr_metric *m;
	int counters = 0;
	size_t i, c;

	fputs("# TYPE " CR_OM_HIST " histogram\n"
	      "# UNIT " CR_OM_HIST " seconds\n"
	      "# HELP " CR_OM_HIST " Latency recorded by the clkstat kernel module, per metric and variant; cpu is all for every CPU, or a CPU number.\n",
	      out);
	for (i = 0; i < r->nmetrics; i++) {
		m = &r->metrics[i];
		if (!cr_render_wanted(m, o))
			continue;
		counters |= m->ncounters != 0;
		cr_om_hist(out, m, &m->total);
		for (c = 0; o->per_cpu && c < m->ncpus; c++)
			cr_om_hist(out, m, &m->cpus[c]);
	}
	if (counters)
		fputs("# HELP " CR_OM_EVENTS " Events counted by the clkstat kernel module, per metric and variant, all CPUs (a counter; no TYPE line so that OpenMetrics and Prometheus text parsers agree).\n",
		      out);
	for (i = 0; counters && i < r->nmetrics; i++) {
		m = &r->metrics[i];
		if (!cr_render_wanted(m, o))
			continue;
		for (c = 0; c < m->ncounters; c++) {
			fputs(CR_OM_EVENTS "{metric=\"", out);
			cr_om_value(out, m->name);
			fputs("\",variant=\"", out);
			cr_om_value(out, m->variant);
			fputs("\",counter=\"", out);
			cr_om_value(out, m->counters[c].name);
			fprintf(out, "\"} %" PRIu64 "\n", m->counters[c].value);
		}
	}
	fputs("# EOF\n", out);
	if (fflush(out) || ferror(out))
		return CR_ERR;
	return CR_OK;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * render_openmetrics.c - a run's metrics as an OpenMetrics 1.0 exposition
 * (what Prometheus asks an exporter for first), or as the Prometheus text
 * format 0.0.4 (the fallback of content negotiation, and what
 * node_exporter's textfile collector and promtool read).  Made for a
 * fleet: what every host exports adds up across hosts.
 *
 *   # TYPE clkstat_latency_seconds histogram
 *   # UNIT clkstat_latency_seconds seconds
 *   # HELP clkstat_latency_seconds Latency recorded by ...
 *   clkstat_latency_seconds_bucket{metric="ttwu_enqueue",variant="direct",host="a",kernel="6.12.9",clocksource="tsc",le="1.9e-08"} 0
 *   ... every bound of the grid, then le="+Inf", _count, _sum, _created ...
 *   # TYPE clkstat_events counter
 *   clkstat_events_total{metric="ttwu_enqueue",variant="direct",counter="wakeups",...} 300
 *   ... clkstat_resets_total, clkstat_recording, clkstat_reentered_total ...
 *   # EOF
 *
 * Every histogram series has every bound of one fixed grid (grid.c); a
 * metric recorded with fewer frac_bits than the grid's is left out of the
 * histograms, which report names before it renders (cr_grid_unfit()) and
 * serve through o->unfit_said, once per change.  The families, labels, le
 * strings, _created, and where the two formats differ:
 * Documentation/clkstat-prometheus.rst, "What it exports".
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "../../kmod/uapi/clkstat_buckets.h"
#include "grid.h"
#include "render_common.h"
#include "status.h"

#define CR_OM_HIST	"clkstat_latency_seconds"
#define CR_OM_CPU_HIST	"clkstat_cpu_latency_seconds"
#define CR_OM_EVENTS	"clkstat_events"
#define CR_OM_RESETS	"clkstat_resets"
#define CR_OM_RECORDING	"clkstat_recording"
#define CR_OM_REENTERED	"clkstat_reentered"

/*
 * The per-CPU series filled in, empty or not, up to here at most (8 times
 * Linux's largest NR_CPUS); CPUs above only when they have samples, so
 * that a snapshot's absurd nr_cpus or CPU number makes no billions of
 * empty series.
 */
#define CR_OM_CPUS_FILL	65536U

/* One exposition being written. */
struct cr_om {
	FILE *out;
	const struct cr_render_opts *o;
	const struct cr_grid *g;
	char (*le)[32];		/* the grid's bounds as printed, once */
	uint64_t *cum;		/* a series' cumulative counts */
	unsigned int fill;	/* per-CPU: CPUs below this, empty or not */
};

/*
 * v (finite, >= 0) as Go's strconv.FormatFloat(v, 'g', -1, 64), with ".0"
 * appended when that has neither a point nor an exponent: Prometheus's
 * canonical rendering of le values.
 *
 * Not quite at an exact power of two, whose gap to the double below is
 * half that above: the shortest digits that Go finds may then lie above
 * v, farther than the nearest ones below, which %.*e gives and which
 * miss, so that this prints a digit more.  Only powers of two of 16
 * significant digits or more can be hit (2^-22 and below, 2^50 and
 * above): no le is a power of two in seconds (2^j s is a whole number of
 * ns only as 1953125 << (j + 9), which is no slot's upper bound), and a
 * _sum would have to be 2^50 s.
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

int cr_render_label_ok(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), i = 0, len;

	while (i < n) {
		len = cr_utf8_len(p + i, n - i);
		if (!len)
			return 0;
		i += len;
	}
	return 1;
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

/* ,name="value" when value is known. */
static void cr_om_label(FILE *out, const char *name, const char *value)
{
	if (!value)
		return;
	fprintf(out, ",%s=\"", name);
	cr_om_value(out, value);
	fputc('"', out);
}

/* name{metric="...",variant="...",host=...,kernel=...,clocksource=... */
static void cr_om_open(struct cr_om *x, const char *name,
		       const struct cr_metric *m)
{
	fprintf(x->out, "%s{metric=\"", name);
	cr_om_value(x->out, m->name);
	fputs("\",variant=\"", x->out);
	cr_om_value(x->out, m->variant);
	fputc('"', x->out);
	cr_om_label(x->out, "host", x->o->host);
	cr_om_label(x->out, "kernel", x->o->kernel);
	cr_om_label(x->out, "clocksource", x->o->clocksource);
}

/* name{host=...,kernel=...,clocksource=...}: a series of the module's. */
static void cr_om_open_module(struct cr_om *x, const char *name)
{
	const char *key[] = { "host", "kernel", "clocksource" };
	const char *val[] = { x->o->host, x->o->kernel, x->o->clocksource };
	const char *sep = "{";
	size_t i;

	fputs(name, x->out);
	for (i = 0; i < sizeof(key) / sizeof(key[0]); i++) {
		if (!val[i])
			continue;
		fprintf(x->out, "%s%s=\"", sep, key[i]);
		cr_om_value(x->out, val[i]);
		fputc('"', x->out);
		sep = ",";
	}
	fputs(*sep == ',' ? "} " : " ", x->out);
}

/*
 * A family's metadata.  name is the OpenMetrics family name; a counter's
 * is name_total in the text format.  OpenMetrics: TYPE, UNIT, HELP; the
 * text format: HELP, TYPE.
 */
static void cr_om_family(struct cr_om *x, const char *name, const char *type,
			 int seconds, const char *help)
{
	const char *total = strcmp(type, "counter") ? "" : "_total";

	if (x->o->prometheus_text) {
		fprintf(x->out, "# HELP %s%s %s\n# TYPE %s%s %s\n", name, total,
			help, name, total, type);
		return;
	}
	fprintf(x->out, "# TYPE %s %s\n", name, type);
	if (seconds)
		fprintf(x->out, "# UNIT %s seconds\n", name);
	fprintf(x->out, "# HELP %s %s\n", name, help);
}

/*
 * name_created{labels extra[,counter="..."]}, when OpenMetrics and the
 * metric's start is known: seconds since the epoch.
 */
static void cr_om_created(struct cr_om *x, const char *name,
			  const struct cr_metric *m, const char *extra,
			  const char *counter)
{
	char sample[64];

	if (x->o->prometheus_text || !m->created_ns)
		return;
	snprintf(sample, sizeof(sample), "%s_created", name);
	cr_om_open(x, sample, m);
	cr_om_label(x->out, "counter", counter);
	/* Seconds since the epoch, to the ms, in plain digits. */
	fprintf(x->out, "%s} %" PRIu64 ".%03u\n", extra,
		m->created_ns / 1000000000,
		(unsigned int)(m->created_ns / 1000000 % 1000));
}

/* One histogram series: every bound of the grid, +Inf, count, sum, created. */
static void cr_om_series(struct cr_om *x, const char *family,
			 const struct cr_metric *m, const char *extra,
			 const struct cr_hist *h)
{
	unsigned int k = m->frac_bits;
	unsigned __int128 sum_ns = 0;
	char buf[48], sample[64];
	uint64_t total;
	size_t i;

	cr_grid_cumulate(x->g, h, k, x->cum, &total);
	for (i = 0; i < h->nslots; i++)
		if (h->slots[i].slot < CLKSTAT_NSLOTS(k))
			sum_ns += (unsigned __int128)h->slots[i].sum <<
				  clkstat_slot_sum_shift(h->slots[i].slot, k);
	snprintf(sample, sizeof(sample), "%s_bucket", family);
	for (i = 0; i < x->g->n; i++) {
		cr_om_open(x, sample, m);
		fprintf(x->out, "%s,le=\"%s\"} %" PRIu64 "\n", extra, x->le[i],
			x->cum[i]);
	}
	cr_om_open(x, sample, m);
	fprintf(x->out, "%s,le=\"+Inf\"} %" PRIu64 "\n", extra, total);
	snprintf(sample, sizeof(sample), "%s_count", family);
	cr_om_open(x, sample, m);
	fprintf(x->out, "%s} %" PRIu64 "\n", extra, total);
	snprintf(sample, sizeof(sample), "%s_sum", family);
	cr_om_open(x, sample, m);
	cr_om_float(buf, sizeof(buf), (double)((long double)sum_ns / 1e9L));
	fprintf(x->out, "%s} %s\n", extra, buf);
	cr_om_created(x, family, m, extra, NULL);
}

/*
 * The per-CPU family's CPUs filled in, empty or not: with nr_cpus, those
 * below it and below the highest with samples of any metric + 1 (pooled
 * snapshots have the largest nr_cpus of theirs, but a snapshot may hold
 * CPUs at or above its own: twin runs count the configured CPUs);
 * without, none.
 */
static unsigned int cr_om_fill(const struct cr_om *x, const struct cr_run *r)
{
	unsigned int n = x->o->nr_cpus;
	size_t i;

	if (!n)
		return 0;
	for (i = 0; i < r->nmetrics; i++) {
		const struct cr_metric *m = &r->metrics[i];

		/* cpus ascending, each below CR_CPU_ALL */
		if (m->ncpus && m->cpus[m->ncpus - 1].cpu >= n)
			n = m->cpus[m->ncpus - 1].cpu + 1;
	}
	return n < CR_OM_CPUS_FILL ? n : CR_OM_CPUS_FILL;
}

/* The per-CPU family's series of m: every CPU below x->fill, and those it has. */
static void cr_om_cpus(struct cr_om *x, const struct cr_metric *m)
{
	const struct cr_hist empty = { .min = UINT64_MAX };
	unsigned int cpu;
	char extra[32];
	size_t c = 0;

	for (cpu = 0;; cpu++) {
		while (c < m->ncpus && m->cpus[c].cpu < cpu)
			c++;
		if (cpu >= x->fill) {
			/* Above the CPUs filled in: the next with samples. */
			if (c == m->ncpus)
				break;
			cpu = m->cpus[c].cpu;
		}
		snprintf(extra, sizeof(extra), ",cpu=\"%u\"", cpu);
		cr_om_series(x, CR_OM_CPU_HIST, m, extra,
			     c < m->ncpus && m->cpus[c].cpu == cpu ?
			     &m->cpus[c] : &empty);
	}
}

/* A metric wanted that the grid cannot take (grid.c). */
static int cr_om_left_out(const struct cr_om *x, const struct cr_metric *m)
{
	return cr_render_wanted(m, x->o) && !cr_grid_fits(x->g, m->frac_bits);
}

/*
 * The wanted metrics that the grid leaves out, a line each on stderr,
 * when they are not those said last (o->unfit_said): serve renders at
 * every scrape, and a line at each would drown the rest.  The set is kept
 * as a hash (FNV-1a of the grid's bits, each one's name, variant and
 * frac_bits; 0 when empty).
 */
static void cr_om_say_unfit(struct cr_om *x, const struct cr_run *r)
{
	struct cr_om_said *said = x->o->unfit_said;
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i, n = 0;

#define CR_FNV(c)	(h = (h ^ (uint8_t)(c)) * 0x100000001b3ULL)
	CR_FNV(x->g->bits);
	for (i = 0; i < r->nmetrics; i++) {
		const struct cr_metric *m = &r->metrics[i];
		const char *p;

		if (!cr_om_left_out(x, m))
			continue;
		for (p = m->name; *p; p++)
			CR_FNV(*p);
		CR_FNV(0);
		for (p = m->variant; *p; p++)
			CR_FNV(*p);
		CR_FNV(0);
		CR_FNV(m->frac_bits);
		n++;
	}
#undef CR_FNV
	h = !n ? 0 : h ? h : 1;
	if (h == said->unfit)
		return;
	if (!n)
		fprintf(stderr, "%s: every metric is on the grid again\n",
			said->who);
	for (i = 0; i < r->nmetrics; i++) {
		const struct cr_metric *m = &r->metrics[i];

		if (!cr_om_left_out(x, m))
			continue;
		/* frac_bits 0 to 5: the readers refuse others. */
		fprintf(stderr, "%s: %s.%s: frac_bits %u is coarser than the grid's %u, left out of " CR_OM_HIST "%s\n",
			said->who, m->name, m->variant, m->frac_bits,
			x->g->bits, x->o->per_cpu ?
			" and " CR_OM_CPU_HIST : "");
	}
	said->unfit = h;
}

static int cr_om_hist_wanted(const struct cr_om *x, const struct cr_metric *m)
{
	return cr_render_wanted(m, x->o) && cr_grid_fits(x->g, m->frac_bits);
}

static void cr_om_histograms(struct cr_om *x, const struct cr_run *r)
{
	size_t i;

	cr_om_family(x, CR_OM_HIST, "histogram", 1,
		     "Latency recorded by the clkstat kernel module, per metric and variant, all CPUs.");
	for (i = 0; i < r->nmetrics; i++)
		if (cr_om_hist_wanted(x, &r->metrics[i]))
			cr_om_series(x, CR_OM_HIST, &r->metrics[i], "",
				     &r->metrics[i].total);
	if (!x->o->per_cpu)
		return;
	x->fill = cr_om_fill(x, r);
	cr_om_family(x, CR_OM_CPU_HIST, "histogram", 1,
		     "Latency recorded by the clkstat kernel module, per metric, variant and CPU.");
	for (i = 0; i < r->nmetrics; i++)
		if (cr_om_hist_wanted(x, &r->metrics[i]))
			cr_om_cpus(x, &r->metrics[i]);
}

/* Counters, resets and recording: every wanted metric's. */
static void cr_om_scalars(struct cr_om *x, const struct cr_run *r)
{
	const struct cr_metric *m;
	int counters = 0, resets = 0;
	size_t i, c;

	for (i = 0; i < r->nmetrics; i++) {
		if (!cr_render_wanted(&r->metrics[i], x->o))
			continue;
		counters |= r->metrics[i].ncounters != 0;
		resets |= r->metrics[i].has_resets;
	}
	if (counters)
		cr_om_family(x, CR_OM_EVENTS, "counter", 0,
			     "Events counted by the clkstat kernel module, per metric and variant, all CPUs.");
	for (i = 0; counters && i < r->nmetrics; i++) {
		m = &r->metrics[i];
		if (!cr_render_wanted(m, x->o))
			continue;
		for (c = 0; c < m->ncounters; c++) {
			cr_om_open(x, CR_OM_EVENTS "_total", m);
			cr_om_label(x->out, "counter", m->counters[c].name);
			fprintf(x->out, "} %" PRIu64 "\n", m->counters[c].value);
			cr_om_created(x, CR_OM_EVENTS, m, "",
				      m->counters[c].name);
		}
	}
	if (resets)
		cr_om_family(x, CR_OM_RESETS, "counter", 0,
			     "Resets of the metric since the clkstat kernel module was loaded.");
	for (i = 0; resets && i < r->nmetrics; i++) {
		m = &r->metrics[i];
		if (!cr_render_wanted(m, x->o) || !m->has_resets)
			continue;
		cr_om_open(x, CR_OM_RESETS "_total", m);
		fprintf(x->out, "} %" PRIu64 "\n", m->resets);
	}
	cr_om_family(x, CR_OM_RECORDING, "gauge", 0,
		     "1 while the metric records, 0 while it is stopped.");
	for (i = 0; i < r->nmetrics; i++) {
		m = &r->metrics[i];
		if (!cr_render_wanted(m, x->o))
			continue;
		cr_om_open(x, CR_OM_RECORDING, m);
		fprintf(x->out, "} %d\n", !!m->recording);
	}
	if (!r->has_reentered)
		return;
	cr_om_family(x, CR_OM_REENTERED, "counter", 0,
		     "Hook calls the clkstat kernel module skipped because they came in again from inside its own handler on the same CPU and context, all hooks and CPUs.");
	cr_om_open_module(x, CR_OM_REENTERED "_total");
	fprintf(x->out, "%" PRIu64 "\n", r->reentered);
}

int cr_render_openmetrics(FILE *out, const struct cr_run *r,
			  const struct cr_render_opts *o)
{
	struct cr_om x = { .out = out, .o = o, .g = o->grid };
	struct cr_grid def;
	char err[128];
	int st = CR_ERR;
	size_t i;

	if (!x.g) {
		if (cr_grid_parse(CR_GRID_DEFAULT, &def, err, sizeof(err)))
			return CR_ERR;
		x.g = &def;
	}
	x.le = calloc(x.g->n ? x.g->n : 1, sizeof(*x.le));
	x.cum = calloc(x.g->n ? x.g->n : 1, sizeof(*x.cum));
	if (!x.le || !x.cum)
		goto out;
	/*
	 * Correctly rounded, alike on every machine, for bounds up to
	 * CR_GRID_NS_MAX (grid.h), as every grid's are.
	 */
	for (i = 0; i < x.g->n; i++)
		cr_om_float(x.le[i], sizeof(x.le[i]),
			    (double)x.g->bound[i] / 1e9);
	if (o->unfit_said)
		cr_om_say_unfit(&x, r);
	cr_om_histograms(&x, r);
	cr_om_scalars(&x, r);
	if (!o->prometheus_text)
		fputs("# EOF\n", out);
	st = fflush(out) || ferror(out) ? CR_ERR : CR_OK;
out:
	free(x.le);
	free(x.cum);
	if (x.g == &def)
		cr_grid_free(&def);
	return st;
}

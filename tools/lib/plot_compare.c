// SPDX-License-Identifier: GPL-2.0
/*
 * plot_compare.c - the figures of a comparison (plot.h): each side's
 * percentile distribution with its run-level bootstrap band, the two
 * histograms in the recording's slots, the forest of the differences,
 * and each run's median and p99 by index.  The numbers are those
 * --compare prints (cr_compare_collect()), or computed the same way: the
 * quantiles are clkstat_hist_quantile()'s, the band resamples whole runs
 * as the comparison does, and every warning the text gives is on the
 * figure too.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include "../../kmod/shared/clkstat_hist_math.h"
#include "plot.h"
#include "render_common.h"
#include "status.h"

static const char *const cr_plot_kinds[CR_PLOT_NKINDS] = {
	[CR_PLOT_PERCENTILES] = "percentiles", [CR_PLOT_HIST] = "hist",
	[CR_PLOT_FOREST] = "forest", [CR_PLOT_RUNS] = "runs",
	[CR_PLOT_XCORR] = "xcorr", [CR_PLOT_HEATMAP] = "heatmap",
	[CR_PLOT_FLEET] = "fleet",
};

const char *cr_plot_kind_name(enum cr_plot_kind k)
{
	return k < CR_PLOT_NKINDS ? cr_plot_kinds[k] : NULL;
}

int cr_plot_kind_parse(const char *s, enum cr_plot_kind *k)
{
	unsigned int i;

	for (i = 0; i < CR_PLOT_NKINDS; i++) {
		if (!strcmp(s, cr_plot_kinds[i])) {
			*k = i;
			return 0;
		}
	}
	return -1;
}

void cr_plot_subtitle(const struct cr_snapshot *s, char *buf, size_t len)
{
	const struct cr_meta *m = &s->meta;

	snprintf(buf, len, "kernel %s, clocksource %s, %s%s%s%s%s",
		 m->kernel_release ? m->kernel_release : "?",
		 m->clocksource ? m->clocksource : "?",
		 m->machine ? m->machine : "?",
		 m->hypervisor ? " (" : "", m->hypervisor ? m->hypervisor : "",
		 m->hypervisor ? ")" : "",
		 m->host ? "" : "");
	if (m->host && strcmp(m->host, "(none)")) {	/* a guest's: no name */
		size_t n = strlen(buf);

		snprintf(buf + n, len - n, ", host %s", m->host);
	}
}

void cr_plot_quantiles(const struct clkstat_slot *slot, unsigned int nslots,
		       unsigned int frac_bits, uint64_t total, uint64_t min,
		       uint64_t max, const uint32_t *num, size_t nq,
		       uint32_t den, uint64_t *out)
{
	uint64_t cum = 0, rank, lower, width, c, v;
	unsigned int i = 0;
	size_t q;

	for (q = 0; q < nq; q++) {
		if (!total || !den || num[q] > den) {
			out[q] = 0;
			continue;
		}
		rank = total - clkstat_mul_div(total, den - num[q], den);
		if (rank <= 1) {
			out[q] = min;
			continue;
		}
		if (rank >= total) {
			out[q] = max;
			continue;
		}
		/* The ranks ascend: the slot of this one is here or later. */
		while (i < nslots && (!slot[i].count || cum + slot[i].count < rank)) {
			cum += slot[i].count;
			i++;
		}
		if (i == nslots) {
			out[q] = max;
			continue;
		}
		c = slot[i].count;
		lower = clkstat_slot_lower(i, frac_bits);
		width = clkstat_slot_upper(i, frac_bits) - lower + 1;
		v = lower + clkstat_mul_div(width, 2 * (rank - cum) - 1, 2 * c);
		out[q] = clkstat_clamp_u64(v, min, max);
	}
}

/* ---- a side's runs pooled ---- */

struct cr_pool {
	unsigned int frac_bits, nslots;
	struct clkstat_slot *slot;	/* dense */
	uint64_t total, min, max;	/* min UINT64_MAX: none */
};

static int cr_pool_init(struct cr_pool *p, unsigned int frac_bits)
{
	p->frac_bits = frac_bits;
	p->nslots = CLKSTAT_NSLOTS(frac_bits);
	p->slot = calloc(p->nslots, sizeof(*p->slot));
	p->total = 0;
	p->min = UINT64_MAX;
	p->max = 0;
	return p->slot ? 0 : -ENOMEM;
}

static void cr_pool_clear(struct cr_pool *p)
{
	memset(p->slot, 0, p->nslots * sizeof(*p->slot));
	p->total = 0;
	p->min = UINT64_MAX;
	p->max = 0;
}

static void cr_pool_add(struct cr_pool *p, const struct cr_hist *h)
{
	size_t j;

	for (j = 0; j < h->nslots; j++) {
		if (h->slots[j].slot >= p->nslots)
			continue;	/* the readers refuse such a slot */
		p->slot[h->slots[j].slot].count += h->slots[j].count;
		p->slot[h->slots[j].slot].sum += h->slots[j].sum;
		p->total += h->slots[j].count;
	}
	if (h->nslots && h->min < p->min)
		p->min = h->min;
	if (h->nslots && h->max > p->max)
		p->max = h->max;
}

static void cr_pool_quantiles(const struct cr_pool *p, const uint32_t *num,
			      size_t nq, uint32_t den, uint64_t *out)
{
	cr_plot_quantiles(p->slot, p->nslots, p->frac_bits, p->total,
			  p->total ? p->min : 0, p->total ? p->max : 0, num, nq,
			  den, out);
}

/* ---- units and labels ---- */

enum cr_unit cr_plot_unit(const struct cr_plot_opts *o, double median)
{
	if (o->unit != CR_UNIT_AUTO)
		return o->unit;
	return !(median >= 1000) ? CR_UNIT_NS : median < 1e6 ? CR_UNIT_US :
	       CR_UNIT_MS;
}

int cr_plot_oom(struct cr_figure *f)
{
	fprintf(stderr, "clkstat-report: plot: out of memory\n");
	cr_fig_free(f);
	return CR_ERR;
}

int cr_plot_warnings(struct cr_figure *f, const struct cr_compare_data *d,
		     size_t m)
{
	const struct cr_compare_metric *cm = &d->res.metrics[m];
	const char *label[2] = { d->res.base, d->res.variant };
	char w[512];
	int k;

	cr_compare_summary_warnings(w, sizeof(w), &d->res, &cm->r);
	if (*w && cr_fig_warn(f, "warning: %s: %s", cm->name, w))
		return -ENOMEM;
	for (k = 0; k < 2; k++) {
		cr_compare_warning(w, sizeof(w), &cm->r.s[k], d->res.resamples);
		if (*w && cr_fig_warn(f, "warning: %s: %s", label[k], w))
			return -ENOMEM;
	}
	return 0;
}

static int cr_plot_begin(const struct cr_snapshot *s,
			 const struct cr_compare_data *d, size_t m,
			 const char *what, const char *id, struct cr_figure *f)
{
	char title[512], sub[512];

	snprintf(title, sizeof(title), "%s: %s against %s, %s",
		 d->res.metrics[m].name, d->res.variant, d->res.base, what);
	cr_plot_subtitle(s, sub, sizeof(sub));
	if (cr_fig_init(f, id, title, sub))
		return -ENOMEM;
	return 0;
}

void cr_plot_time_label(char *buf, size_t len, const char *what,
			enum cr_unit u)
{
	snprintf(buf, len, "%s (%s)", what, cr_unit_name(u));
}

/* "kprobe (base, 20 runs)" */
static void cr_side_title(char *buf, size_t len,
			  const struct cr_compare_data *d, size_t m, int k,
			  const char *what)
{
	snprintf(buf, len, "%s%s (%s%zu runs)%s", k ? d->res.variant :
		 d->res.base, "", k ? "" : "base, ", d->side[m][k].n, what);
}

/* ---- 1. the percentile distribution ---- */

/* Is either side's largest sample 20 times its median or more? */
static int cr_plot_tail_far(const struct cr_compare_data *d, size_t m)
{
	const struct cr_boot_result *r = &d->res.metrics[m].r;
	int k;

	for (k = 0; k < 2; k++)
		if (r->s[k].stat[CR_BOOT_MEDIAN].value > 0 &&
		    (double)r->s[k].max >= 20 * r->s[k].stat[CR_BOOT_MEDIAN].value)
			return 1;
	return 0;
}

/* Points on the 1/(1 - q) axis, 1 to 10^4: q from 0 to 99.99%. */
#define CR_PCT_POINTS	241
#define CR_PCT_DEN	1000000U

int cr_plot_percentiles(const struct cr_snapshot *s,
			const struct cr_compare_data *d, size_t m,
			const struct cr_plot_opts *o, struct cr_figure *f)
{
	static const struct { const char *l; double at; } tics[] = {
		{ "0%", 1 }, { "50%", 2 }, { "90%", 10 }, { "99%", 100 },
		{ "99.9%", 1000 }, { "99.99%", 10000 },
	};
	const struct cr_compare_metric *cm = &d->res.metrics[m];
	uint32_t num[CR_PCT_POINTS];
	double x[CR_PCT_POINTS], scale, pt[CR_FIG_NCOLS], *band = NULL;
	uint64_t full[CR_PCT_POINTS], *q = NULL;
	struct cr_fig_series *line, *area;
	struct cr_pool pool = { 0 };
	unsigned int B = o->resamples, b;
	gsl_rng *rng = NULL;
	char t[256];
	enum cr_unit u;
	size_t i, j, n;
	int k;

	memset(f, 0, sizeof(*f));
	for (i = 0; i < CR_PCT_POINTS; i++) {
		x[i] = pow(10, 4.0 * (double)i / (CR_PCT_POINTS - 1));
		num[i] = (uint32_t)llround((1 - 1 / x[i]) * CR_PCT_DEN);
	}
	num[CR_PCT_POINTS - 1] = CR_PCT_DEN - CR_PCT_DEN / 10000;
	u = cr_plot_unit(o, cm->r.s[0].stat[CR_BOOT_MEDIAN].value);
	scale = (double)cr_unit_ns(u);
	if (cr_plot_begin(s, d, m, "percentile distribution", "percentiles", f) ||
	    cr_fig_axis(&f->x, "percentile", 1))
		return cr_plot_oom(f);
	cr_plot_time_label(t, sizeof(t), "latency", u);
	/*
	 * A log latency axis where the tail is far from the body (a
	 * guest's millisecond stalls beside microsecond wakeups), so that
	 * the body stays readable; linear otherwise, as HdrHistogram draws.
	 */
	if (cr_fig_axis(&f->y, t, cr_plot_tail_far(d, m)))
		return cr_plot_oom(f);
	f->x.have_range = 1;
	f->x.lo = 1;
	f->x.hi = 10000;
	for (i = 0; i < sizeof(tics) / sizeof(tics[0]); i++)
		if (cr_fig_tic(&f->x, tics[i].l, tics[i].at))
			return cr_plot_oom(f);
	q = malloc((size_t)B * CR_PCT_POINTS * sizeof(*q));
	band = malloc((size_t)B * sizeof(*band));
	rng = gsl_rng_alloc(gsl_rng_mt19937);
	if (!q || !band || !rng || cr_pool_init(&pool, cm->frac_bits))
		goto nomem;
	for (k = 0; k < 2; k++) {
		const struct cr_compare_side *sd = &d->side[m][k];

		n = sd->n;
		cr_pool_clear(&pool);
		for (j = 0; j < n; j++)
			cr_pool_add(&pool, sd->hists[j]);
		if (!pool.total)
			continue;	/* said by the warnings */
		cr_pool_quantiles(&pool, num, CR_PCT_POINTS, CR_PCT_DEN, full);
		/* Whole runs resampled, as --compare's unit run. */
		gsl_rng_set(rng, o->seed);
		for (b = 0; b < B; b++) {
			cr_pool_clear(&pool);
			for (j = 0; j < n; j++)
				cr_pool_add(&pool, sd->hists[gsl_rng_uniform_int(rng, n)]);
			cr_pool_quantiles(&pool, num, CR_PCT_POINTS, CR_PCT_DEN,
					  q + (size_t)b * CR_PCT_POINTS);
		}
		snprintf(t, sizeof(t), "%s, %g%% band of whole runs",
			 k ? d->res.variant : d->res.base, 100 * o->level);
		area = cr_fig_series(f, t, CR_FIG_BAND, k);
		cr_side_title(t, sizeof(t), d, m, k, "");
		line = area ? cr_fig_series(f, t, CR_FIG_LINES, k) : NULL;
		if (!line)
			goto nomem;
		area = &f->series[f->nseries - 2];
		for (i = 0; i < CR_PCT_POINTS; i++) {
			for (b = 0; b < B; b++)
				band[b] = (double)q[(size_t)b * CR_PCT_POINTS + i];
			gsl_sort(band, 1, B);
			pt[CR_FIG_X] = x[i];
			pt[CR_FIG_Y] = gsl_stats_quantile_from_sorted_data(band, 1, B, (1 - o->level) / 2) / scale;
			pt[CR_FIG_X2] = NAN;
			pt[CR_FIG_Y2] = gsl_stats_quantile_from_sorted_data(band, 1, B, (1 + o->level) / 2) / scale;
			if (cr_fig_point(area, pt, CR_FIG_Y2 + 1))
				goto nomem;
			pt[CR_FIG_Y] = (double)full[i] / scale;
			if (cr_fig_point(line, pt, CR_FIG_Y + 1))
				goto nomem;
		}
	}
	if (cr_plot_warnings(f, d, m))
		goto nomem;
	free(q);
	free(band);
	free(pool.slot);
	gsl_rng_free(rng);
	return CR_OK;
nomem:
	free(q);
	free(band);
	free(pool.slot);
	if (rng)
		gsl_rng_free(rng);
	return cr_plot_oom(f);
}

/* ---- 2. the histograms ---- */

int cr_plot_hist(const struct cr_snapshot *s, const struct cr_compare_data *d,
		 size_t m, const struct cr_plot_opts *o, struct cr_figure *f)
{
	const struct cr_compare_metric *cm = &d->res.metrics[m];
	struct cr_fig_series *bars;
	struct cr_pool pool = { 0 };
	double pt[CR_FIG_NCOLS], scale;
	char t[256];
	enum cr_unit u;
	unsigned int i;
	size_t j;
	int k;

	memset(f, 0, sizeof(*f));
	u = cr_plot_unit(o, cm->r.s[0].stat[CR_BOOT_MEDIAN].value);
	scale = (double)cr_unit_ns(u);
	if (cr_plot_begin(s, d, m, "histograms", "hist", f))
		return cr_plot_oom(f);
	cr_plot_time_label(t, sizeof(t), "latency, the recording's slots", u);
	if (cr_fig_axis(&f->x, t, 1) ||
	    cr_fig_axis(&f->y, "share of the side's samples (%)", 0) ||
	    cr_pool_init(&pool, cm->frac_bits))
		goto nomem;
	for (k = 0; k < 2; k++) {
		cr_pool_clear(&pool);
		for (j = 0; j < d->side[m][k].n; j++)
			cr_pool_add(&pool, d->side[m][k].hists[j]);
		cr_side_title(t, sizeof(t), d, m, k, "");
		bars = cr_fig_series(f, t, CR_FIG_STEPS, k);
		if (!bars)
			goto nomem;
		for (i = 0; pool.total && i < pool.nslots; i++) {
			if (!pool.slot[i].count)
				continue;
			pt[CR_FIG_X] = (double)clkstat_slot_lower(i, cm->frac_bits) / scale;
			pt[CR_FIG_Y] = 100.0 * (double)pool.slot[i].count / (double)pool.total;
			/* A slot holds [lower, upper]: the box ends at upper + 1. */
			pt[CR_FIG_X2] = ((double)clkstat_slot_upper(i, cm->frac_bits) + 1) / scale;
			if (cr_fig_point(bars, pt, CR_FIG_X2 + 1))
				goto nomem;
		}
	}
	if (cr_plot_warnings(f, d, m))
		goto nomem;
	free(pool.slot);
	return CR_OK;
nomem:
	free(pool.slot);
	return cr_plot_oom(f);
}

/* ---- 4. the runs by index ---- */

int cr_plot_runs(const struct cr_snapshot *s, const struct cr_compare_data *d,
		 size_t m, const struct cr_plot_opts *o, struct cr_figure *f)
{
	static const uint32_t num[2] = { 500000, 990000 };
	const struct cr_compare_metric *cm = &d->res.metrics[m];
	struct cr_fig_series *ser[2];
	struct cr_pool pool = { 0 };
	double pt[CR_FIG_NCOLS], scale;
	uint64_t v[2];
	char t[256];
	enum cr_unit u;
	size_t j;
	int k, w;

	memset(f, 0, sizeof(*f));
	u = cr_plot_unit(o, cm->r.s[0].stat[CR_BOOT_MEDIAN].value);
	scale = (double)cr_unit_ns(u);
	if (cr_plot_begin(s, d, m, "each run's median and p99", "runs", f) ||
	    cr_fig_axis(&f->x, "run (its index in the recording)", 0))
		return cr_plot_oom(f);
	cr_plot_time_label(t, sizeof(t), "latency", u);
	if (cr_fig_axis(&f->y, t, 1) || cr_pool_init(&pool, cm->frac_bits))
		goto nomem;
	for (k = 0; k < 2; k++) {
		for (w = 0; w < 2; w++) {
			cr_side_title(t, sizeof(t), d, m, k, w ? ": p99" : ": median");
			ser[w] = cr_fig_series(f, t, CR_FIG_POINTS, k);
			if (!ser[w])
				goto nomem;
		}
		ser[0] = &f->series[f->nseries - 2];
		for (j = 0; j < d->side[m][k].n; j++) {
			cr_pool_clear(&pool);
			cr_pool_add(&pool, d->side[m][k].hists[j]);
			if (!pool.total)
				continue;
			cr_pool_quantiles(&pool, num, 2, 1000000, v);
			for (w = 0; w < 2; w++) {
				pt[CR_FIG_X] = d->side[m][k].runs[j]->index;
				pt[CR_FIG_Y] = (double)v[w] / scale;
				if (cr_fig_point(ser[w], pt, CR_FIG_Y + 1))
					goto nomem;
			}
		}
	}
	if (cr_plot_warnings(f, d, m))
		goto nomem;
	free(pool.slot);
	return CR_OK;
nomem:
	free(pool.slot);
	return cr_plot_oom(f);
}

/* ---- 3. the forest ---- */

/* A row of the forest: the point and its interval, scaled. */
static int cr_forest_row(struct cr_fig_series *ser, const struct cr_boot_ci *c,
			 double y, double scale)
{
	double pt[CR_FIG_NCOLS] = { 0 };

	pt[CR_FIG_X] = c->value / scale;
	pt[CR_FIG_Y] = y;
	pt[CR_FIG_X2] = c->lo / scale;
	pt[CR_FIG_Y2] = NAN;
	pt[CR_FIG_X3] = c->hi / scale;
	return cr_fig_point(ser, pt, CR_FIG_X3 + 1);
}

/*
 * Panel p's x range: every interval of its series and its marks (the zero
 * or one line always in sight), a twentieth wider each side; on a log
 * axis by factors.
 */
static void cr_forest_range(struct cr_figure *f, unsigned int p)
{
	struct cr_fig_axis *a = cr_fig_panel_x(f, p);
	double lo = INFINITY, hi = -INFINITY, v, pad;
	size_t i, j, c;

	for (i = 0; i < f->nmarks; i++) {
		if (f->marks[i].panel != p)
			continue;
		lo = fmin(lo, f->marks[i].at);
		hi = fmax(hi, f->marks[i].at);
	}
	for (i = 0; i < f->nseries; i++) {
		if (f->series[i].panel != p)
			continue;
		for (j = 0; j < f->series[i].n; j++) {
			for (c = CR_FIG_X; c <= CR_FIG_X3; c++) {
				v = f->series[i].pt[j][c];
				if (c == CR_FIG_Y || c == CR_FIG_Y2 || !isfinite(v) ||
				    (a->log && v <= 0))
					continue;
				lo = fmin(lo, v);
				hi = fmax(hi, v);
			}
		}
	}
	if (!isfinite(lo) || !isfinite(hi))
		return;
	a->have_range = 1;
	if (a->log) {
		a->lo = lo / 1.15;
		a->hi = hi * 1.15;
		return;
	}
	pad = hi > lo ? (hi - lo) / 20 : fabs(hi) / 20 + 1;
	a->lo = lo - pad;
	a->hi = hi + pad;
}

/*
 * Three panels sharing the rows: the differences in time (Δ median, p90,
 * p99; the zero line), the risk difference (points of share; zero) and
 * the risk ratio (log; the one line), one block of rows per metric.
 */
int cr_plot_forest(const struct cr_snapshot *s,
		   const struct cr_compare_data *d,
		   const struct cr_plot_opts *o, struct cr_figure *f)
{
	static const struct { int diff; const char *label; } rows[] = {
		{ CR_BOOT_D_MEDIAN, "Δ median" }, { CR_BOOT_D_P90, "Δ p90" },
		{ CR_BOOT_D_P99, "Δ p99" },
	};
	struct cr_fig_series *ser;
	char t[512], sub[512];
	enum cr_unit u;
	double scale, y;
	size_t i, r;

	memset(f, 0, sizeof(*f));
	u = cr_plot_unit(o, d->res.nmetrics ?
			 d->res.metrics[0].r.s[0].stat[CR_BOOT_MEDIAN].value : 0);
	scale = (double)cr_unit_ns(u);
	snprintf(t, sizeof(t), "%s against %s: the differences, %g%% intervals",
		 d->res.variant, d->res.base, 100 * d->res.level);
	cr_plot_subtitle(s, sub, sizeof(sub));
	if (cr_fig_init(f, "forest", t, sub))
		return cr_plot_oom(f);
	cr_plot_time_label(t, sizeof(t), "variant minus base", u);
	if (cr_fig_axis(cr_fig_panel_x(f, 0), t, 0) ||
	    cr_fig_axis(cr_fig_panel_x(f, 1), "risk difference (points of %)", 0) ||
	    cr_fig_axis(cr_fig_panel_x(f, 2), "risk ratio", 0) ||
	    cr_fig_axis(&f->y, "", 0) || cr_fig_mark(f, "no difference", 0, 0) ||
	    cr_fig_mark(f, "no difference", 0, 0) ||
	    cr_fig_mark(f, "no difference", 0, 1))
		return cr_plot_oom(f);
	f->marks[1].panel = 1;
	f->marks[2].panel = 2;
	/* Metric i's block: rows 4(n - i) (top) down to 4(n - i) - 2. */
	for (r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		ser = cr_fig_series(f, rows[r].label, CR_FIG_XERR, (int)r);
		if (!ser)
			return cr_plot_oom(f);
		for (i = 0; i < d->res.nmetrics; i++) {
			y = (double)((d->res.nmetrics - i) * 4 - r);
			if (cr_forest_row(ser, &d->res.metrics[i].r.diff[rows[r].diff],
					  y, scale))
				return cr_plot_oom(f);
			snprintf(t, sizeof(t), "%s %s", d->res.metrics[i].name,
				 rows[r].label);
			if (cr_fig_tic(&f->y, t, y))
				return cr_plot_oom(f);
		}
	}
	for (r = 0; r < 2; r++) {
		ser = cr_fig_series(f, r ? "risk ratio" : "risk difference",
				    CR_FIG_XERR, 3 + (int)r);
		if (!ser)
			return cr_plot_oom(f);
		ser->panel = 1 + (unsigned int)r;
		for (i = 0; i < d->res.nmetrics; i++) {
			y = (double)((d->res.nmetrics - i) * 4 - 1);
			if (cr_forest_row(ser, &d->res.metrics[i].r.diff[r ? CR_BOOT_D_RR : CR_BOOT_D_RD],
					  y, r ? 1 : 0.01))
				return cr_plot_oom(f);
		}
	}
	f->y.have_range = 1;
	f->y.lo = 1;
	f->y.hi = (double)d->res.nmetrics * 4 + 1;
	for (r = 0; r < 3; r++)
		cr_forest_range(f, (unsigned int)r);
	for (i = 0; i < d->res.nmetrics; i++)
		if (cr_plot_warnings(f, d, i))
			return cr_plot_oom(f);
	return CR_OK;
}

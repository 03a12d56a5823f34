// SPDX-License-Identifier: GPL-2.0
/*
 * compare_render.c - the outputs of clkstat-report --compare
 * (compare_render.h): a table, JSON, CSV, and the warnings all three give
 * (cr_compare_warning(), cr_compare_p_warning()).  The numbers are
 * bootstrap.c's.  Undefined numbers (no samples, no interval) are "n/a" in
 * the table, null in JSON, empty in CSV.  Every output states the
 * resampling unit.
 *
 * Each format's layout (the table's units and columns, the JSON schema,
 * the CSV groups and rows): Documentation/clkstat-compare.rst, "Output
 * formats"; what the numbers and warnings mean: "What the numbers mean".
 */
#include <inttypes.h>
#include <json.h>
#include <math.h>
#include <string.h>
#include "compare_render.h"
#include "render_common.h"
#include "status.h"

static const char *const cr_stat_key[CR_BOOT_NSTATS] = {
	[CR_BOOT_MEDIAN] = "median", [CR_BOOT_P90] = "p90",
	[CR_BOOT_P99] = "p99", [CR_BOOT_MEAN] = "mean",
	[CR_BOOT_SD] = "stddev", [CR_BOOT_IQR] = "iqr",
	[CR_BOOT_RISK] = "risk",
};

static const char *const cr_diff_key[CR_BOOT_NDIFFS] = {
	[CR_BOOT_D_MEDIAN] = "median", [CR_BOOT_D_P90] = "p90",
	[CR_BOOT_D_P99] = "p99", [CR_BOOT_D_SD] = "stddev",
	[CR_BOOT_D_IQR] = "iqr", [CR_BOOT_D_RD] = "risk_difference",
	[CR_BOOT_D_RR] = "risk_ratio",
};

static const char *cr_resampling_unit(const struct cr_compare_result *res)
{
	return res->unit_sample ? "sample" : res->host_fixed ? "host-fixed" :
	       res->unit_host ? "host" : "run";
}

static int cr_is_pct(unsigned int stat)
{
	return stat == CR_BOOT_MEDIAN || stat == CR_BOOT_P90 ||
	       stat == CR_BOOT_P99;
}

void cr_compare_warning(char *buf, size_t len,
			const struct cr_boot_stratum_out *s,
			unsigned int resamples)
{
	size_t n = 0;

	buf[0] = '\0';
#define W(...) do {							\
		if (n < len)						\
			n += snprintf(buf + n, len - n, "%s", n ? "; " : ""); \
		if (n < len)						\
			n += snprintf(buf + n, len - n, __VA_ARGS__);	\
	} while (0)
	if (s->warnings & CR_BOOT_W_EMPTY)
		W("no samples: statistics n/a");
	if (s->warnings & CR_BOOT_W_ONE_RUN)
		W("1 run: no run-to-run spread, interval not meaningful");
	if (s->warnings & CR_BOOT_W_FEW_RUNS)
		W("%zu runs: too few, the intervals are narrower than their level says",
		  s->nruns);
	if (s->warnings & CR_BOOT_W_ONE_HOST)
		W("1 host: no host-to-host spread, the intervals are this machine's runs' and say nothing of other machines");
	if (s->warnings & CR_BOOT_W_FEW_HOSTS)
		W("%zu hosts: too few, the intervals are narrower than their level says",
		  s->nhosts);
	if (s->warnings & CR_BOOT_W_OWN_HOSTS)
		W("%zu of its %zu hosts not on the other side: drawn apart from it, their offsets do not cancel from the differences",
		  s->own_hosts, s->nhosts);
	if (s->warnings & CR_BOOT_W_FIXED_ONE_RUN)
		W("every host has 1 run: no run-to-run spread within the hosts, interval not meaningful");
	if (s->warnings & CR_BOOT_W_FIXED_FEW_RUNS)
		W("a host has %zu run%s: too few, the intervals are narrower than their level says",
		  s->fewest_host_runs, s->fewest_host_runs == 1 ? "" : "s");
	if (s->warnings & CR_BOOT_W_UNDEFINED)
		W("%u of %u resamples drew only runs without samples: intervals n/a",
		  s->undefined, resamples);
#undef W
}

void cr_compare_p_warning(char *buf, size_t len,
			  const struct cr_boot_result *r,
			  unsigned int resamples)
{
	char sh[32];
	double d;

	buf[0] = '\0';
	if (r->unit_sample || isnan(r->p_median))
		return;
	if (r->host_fixed) {
		/* Each host's runs drawn within it: C(2n - 1, n) per host. */
		d = r->s[0].distinct * r->s[1].distinct;
		if (d >= resamples)
			return;
		snprintf(buf, len, "%zu and %zu runs within %zu and %zu fixed hosts: %.0f distinct resamples, fewer than B = %u: p cannot resolve 1/B and is not meaningful",
			 r->s[0].nruns, r->s[1].nruns, r->s[0].nhosts,
			 r->s[1].nhosts, d, resamples);
		return;
	}
	if (!r->unit_host) {
		d = cr_boot_multisets(r->s[0].nruns) *
		    cr_boot_multisets(r->s[1].nruns);
		if (d >= resamples)
			return;
		snprintf(buf, len, "%zu and %zu runs: %.0f distinct resamples, fewer than B = %u: p cannot resolve 1/B and is not meaningful",
			 r->s[0].nruns, r->s[1].nruns, d, resamples);
		return;
	}
	/* Hosts of several runs add resamples beyond counting: no warning. */
	if (!r->s[0].single_run_hosts || !r->s[1].single_run_hosts)
		return;
	/* The shared hosts drawn once for both, each side's own apart. */
	d = cr_boot_multisets(r->shared_hosts) *
	    cr_boot_multisets(r->s[0].nhosts - r->shared_hosts) *
	    cr_boot_multisets(r->s[1].nhosts - r->shared_hosts);
	if (d >= resamples)
		return;
	if (r->paired || !r->shared_hosts)
		snprintf(sh, sizeof(sh), "%s", r->paired ? ", paired" : "");
	else
		snprintf(sh, sizeof(sh), ", %zu shared", r->shared_hosts);
	snprintf(buf, len, "%zu and %zu hosts of one run each%s: %.0f distinct resamples, fewer than B = %u: p cannot resolve 1/B and is not meaningful",
		 r->s[0].nhosts, r->s[1].nhosts, sh, d, resamples);
}

uint64_t cr_compare_d_resolution(const struct cr_boot_result *r)
{
	uint64_t a = r->s[0].stat[CR_BOOT_MEDIAN].resolution;
	uint64_t b = r->s[1].stat[CR_BOOT_MEDIAN].resolution;

	if (isnan(r->diff[CR_BOOT_D_MEDIAN].value))
		return 0;
	return a > b ? a : b;
}

int cr_compare_below_res(const struct cr_boot_ci *c, uint64_t res, int diff)
{
	if (!res || isnan(c->value))
		return 0;
	if (diff && fabs(c->value) < (double)res)
		return 1;
	return !isnan(c->lo) && c->hi - c->lo < (double)res;
}

/* ---- text ---- */

/*
 * A duration in ns for the table: 4 significant digits in the largest of
 * ns, us, ms, s that keeps it at least 1, whole ns below 1 us exactly.
 */
static void cr_fmt_dur(char *buf, size_t len, double v)
{
	cr_fmt_ns(buf, len, v, 4, 1);
}

static void cr_fmt_pct(char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, "%.2f%%", 100 * v);
}

static void cr_fmt_num(char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, "%.4f", v);
}

/*
 * s padded to w display columns (UTF-8: continuation bytes take none),
 * followed by two spaces at least when it is wider.
 */
static void cr_pad(FILE *out, const char *s, int w)
{
	const char *p;
	int cols = 0;

	for (p = s; *p; p++)
		cols += ((unsigned char)*p & 0xc0) != 0x80;
	fputs(s, out);
	if (cols > w - 2)
		w = cols + 2;
	for (; cols < w; cols++)
		fputc(' ', out);
}

typedef void (*cr_fmt_fn)(char *, size_t, double);

/* "[lo, hi]" of an interval, or "n/a" when it has none. */
static void cr_fmt_interval(char *buf, size_t len, const struct cr_boot_ci *c,
			    cr_fmt_fn fmt)
{
	char lo[48], hi[48];

	if (isnan(c->lo)) {
		snprintf(buf, len, "n/a");
		return;
	}
	fmt(lo, sizeof(lo), c->lo);
	fmt(hi, sizeof(hi), c->hi);
	snprintf(buf, len, "[%s, %s]", lo, hi);
}

static void cr_text_row(FILE *out, const char *label,
			const struct cr_boot_ci *c, cr_fmt_fn fmt, int res)
{
	char v[48], iv[112];

	fmt(v, sizeof(v), c->value);
	cr_fmt_interval(iv, sizeof(iv), c, fmt);
	fputs("    ", out);
	cr_pad(out, label, 17);
	cr_pad(out, v, 13);
	if (res && c->resolution) {
		cr_pad(out, iv, 28);
		fprintf(out, "±%" PRIu64 "ns", c->resolution);
		if (cr_compare_below_res(c, c->resolution, 0))
			fputs("  warning: interval narrower than the slot", out);
	} else {
		fputs(iv, out);
	}
	fputc('\n', out);
}

/*
 * The Δ median row when it or its interval is narrower than the slots
 * the medians were read from (base and variant slot widths).
 */
static void cr_text_row_w(FILE *out, const char *label,
			  const struct cr_boot_ci *c, cr_fmt_fn fmt,
			  uint64_t rb, uint64_t rv)
{
	char v[48], iv[112];

	fmt(v, sizeof(v), c->value);
	cr_fmt_interval(iv, sizeof(iv), c, fmt);
	fputs("    ", out);
	cr_pad(out, label, 17);
	cr_pad(out, v, 13);
	cr_pad(out, iv, 28);
	fprintf(out, "warning: narrower than the medians' slots (±%" PRIu64 "ns, ±%" PRIu64 "ns)\n",
		rb, rv);
}

static void cr_text_stratum(FILE *out, const struct cr_compare_result *res,
			    const struct cr_boot_stratum_out *s,
			    const char *name, int is_base)
{
	static const char *const label[CR_BOOT_NSTATS] = {
		[CR_BOOT_MEDIAN] = "median", [CR_BOOT_P90] = "p90",
		[CR_BOOT_P99] = "p99", [CR_BOOT_MEAN] = "mean",
		[CR_BOOT_SD] = "stddev", [CR_BOOT_IQR] = "IQR",
		[CR_BOOT_RISK] = "risk > T",
	};
	char lvl[32], w[512], v[48], m[48];
	unsigned int i;

	fprintf(out, "  %s%s: %zu run%s on %zu host%s, %" PRIu64 " samples\n",
		name, is_base ? " (base)" : "", s->nruns,
		s->nruns == 1 ? "" : "s", s->nhosts, s->nhosts == 1 ? "" : "s",
		s->nsamples);
	cr_compare_warning(w, sizeof(w), s, res->resamples);
	if (*w)
		fprintf(out, "    warning: %s\n", w);
	snprintf(lvl, sizeof(lvl), "%g%% interval", 100 * res->level);
	fputs("    ", out);
	cr_pad(out, "statistic", 17);
	cr_pad(out, "value", 13);
	cr_pad(out, lvl, 28);
	fputs("resolution\n", out);
	for (i = 0; i < CR_BOOT_NSTATS; i++)
		cr_text_row(out, label[i], &s->stat[i],
			    i == CR_BOOT_RISK ? cr_fmt_pct : cr_fmt_dur,
			    cr_is_pct(i));
	cr_fmt_pct(v, sizeof(v), s->out_2sigma);
	fputs("    ", out);
	cr_pad(out, "outliers 2sd", 17);
	fprintf(out, "%s\n", v);
	cr_fmt_pct(v, sizeof(v), s->out_3mad);
	cr_fmt_dur(m, sizeof(m), s->mad);
	fputs("    ", out);
	cr_pad(out, "outliers 3MAD", 17);
	cr_pad(out, v, 13);
	fprintf(out, "MAD %s\n", m);
}

/* Unit host: how the hosts are drawn (host-fixed draws none: no line). */
static void cr_text_hosts(FILE *out, const struct cr_compare_result *res,
			  const struct cr_boot_result *r)
{
	if (!res->unit_host || res->host_fixed)
		return;
	if (r->paired)
		fprintf(out, "  hosts: paired (both on the same %zu host%s: each resample draws the hosts once for both)\n",
			r->s[0].nhosts, r->s[0].nhosts == 1 ? "" : "s");
	else if (r->shared_hosts)
		fprintf(out, "  hosts: partly paired (%zu host%s ran both: each resample draws %s once for both; the other %zu and %zu, each side's own, each side draws on its own)\n",
			r->shared_hosts, r->shared_hosts == 1 ? "" : "s",
			r->shared_hosts == 1 ? "it" : "them",
			r->s[0].own_hosts, r->s[1].own_hosts);
	else
		fprintf(out, "  hosts: unpaired (not the same hosts: each resample draws each one's hosts on its own)\n");
}

static void cr_text_metric(FILE *out, const struct cr_compare_result *res,
			   const struct cr_compare_metric *cm)
{
	static const char *const label[CR_BOOT_NDIFFS] = {
		[CR_BOOT_D_MEDIAN] = "Δ median", [CR_BOOT_D_P90] = "Δ p90",
		[CR_BOOT_D_P99] = "Δ p99", [CR_BOOT_D_SD] = "Δ stddev",
		[CR_BOOT_D_IQR] = "Δ IQR",
		[CR_BOOT_D_RD] = "risk difference",
		[CR_BOOT_D_RR] = "risk ratio",
	};
	const struct cr_boot_result *r = &cm->r;
	const struct cr_boot_ci *rr = &r->diff[CR_BOOT_D_RR];
	uint64_t dres = cr_compare_d_resolution(r);
	char t[96], p[64], w[256];
	unsigned int i;

	/* No sample on either side: one line, not a table of n/a. */
	if (!r->s[0].nsamples && !r->s[1].nsamples) {
		fprintf(out, "\nmetric %s (frac_bits %u)  no samples (%s: %zu run%s, %s: %zu run%s)\n",
			cm->name, cm->frac_bits, res->base, r->s[0].nruns,
			r->s[0].nruns == 1 ? "" : "s", res->variant,
			r->s[1].nruns, r->s[1].nruns == 1 ? "" : "s");
		return;
	}

	if (r->threshold_defined && r->threshold >= 1000) {
		cr_fmt_dur(p, sizeof(p), (double)r->threshold);
		snprintf(t, sizeof(t), "%s = %" PRIu64 "ns", p, r->threshold);
	} else if (r->threshold_defined) {
		snprintf(t, sizeof(t), "%" PRIu64 "ns", r->threshold);
	} else {
		snprintf(t, sizeof(t), "n/a");
	}
	fprintf(out, "\nmetric %s (frac_bits %u)  threshold T = %s (%s)\n",
		cm->name, cm->frac_bits, t,
		r->threshold_given ? "--threshold" :
		r->threshold_defined ? "base p90" : "base p90; the base has no sample");
	cr_text_hosts(out, res, r);
	cr_text_stratum(out, res, &r->s[0], res->base, 1);
	cr_text_stratum(out, res, &r->s[1], res->variant, 0);
	fprintf(out, "  %s - %s:\n", res->variant, res->base);
	for (i = 0; i < CR_BOOT_NDIFFS; i++) {
		/*
		 * RR: "n/a" without a risk (no threshold, no samples);
		 * "undefined" when the base's risk is 0; an interval only
		 * when every resample had a base risk above 0.
		 */
		if (i == CR_BOOT_D_RR && !isnan(r->s[0].stat[CR_BOOT_RISK].value) &&
		    !isnan(r->s[1].stat[CR_BOOT_RISK].value) &&
		    (isnan(rr->value) || rr->undefined)) {
			char v[48];

			if (isnan(rr->value))
				snprintf(v, sizeof(v), "undefined");
			else
				cr_fmt_num(v, sizeof(v), rr->value);
			fputs("    ", out);
			cr_pad(out, label[i], 17);
			cr_pad(out, v, 13);
			fprintf(out, "interval undefined: %u of %u resamples had a base risk of 0%s\n",
				rr->undefined, res->resamples,
				(r->s[0].warnings | r->s[1].warnings) &
				CR_BOOT_W_UNDEFINED ? " or no sample" : "");
			continue;
		}
		if (i == CR_BOOT_D_MEDIAN &&
		    cr_compare_below_res(&r->diff[i], dres, 1)) {
			cr_text_row_w(out, label[i], &r->diff[i], cr_fmt_dur,
				      r->s[0].stat[CR_BOOT_MEDIAN].resolution,
				      r->s[1].stat[CR_BOOT_MEDIAN].resolution);
			continue;
		}
		cr_text_row(out, label[i], &r->diff[i],
			    i == CR_BOOT_D_RD ? cr_fmt_pct :
			    i == CR_BOOT_D_RR ? cr_fmt_num : cr_fmt_dur, 0);
	}
	if (isnan(r->p_median))
		snprintf(p, sizeof(p), "n/a");
	else if (r->p_floor)
		snprintf(p, sizeof(p), "< 1/B (< %g)", r->p_median);
	else
		snprintf(p, sizeof(p), "%.4f", r->p_median);
	fputs("    ", out);
	cr_pad(out, "p (Δ median)", 17);
	cr_pad(out, p, 13);
	cr_compare_p_warning(w, sizeof(w), r, res->resamples);
	fprintf(out, "two-sided, %s%s%s\n", CR_BOOT_P_METHOD,
		*w ? "; warning: " : "", w);
	if (!res->unit_sample &&
	    ((r->s[0].warnings | r->s[1].warnings) & CR_BOOT_W_ONE_RUN))
		fprintf(out, "    warning: a variant has 1 run: the differences' intervals hold only the other variant's spread\n");
	if ((r->s[0].warnings | r->s[1].warnings) & CR_BOOT_W_ONE_HOST)
		fprintf(out, "    warning: a variant has 1 host: the differences' intervals hold no host-to-host spread of it\n");
}

/* What the study clkstat was made for measures: the summary's first row. */
#define CR_HEADLINE_METRIC	"ttwu_tkread"

void cr_compare_summary_warnings(char *buf, size_t len,
				 const struct cr_compare_result *res,
				 const struct cr_boot_result *r)
{
	unsigned int w = r->s[0].warnings | r->s[1].warnings;
	char pw[256];
	size_t n = 0;

	buf[0] = '\0';
#define W(s) do {							\
		if (n < len)						\
			n += snprintf(buf + n, len - n, "%s%s", n ? "; " : "", s); \
	} while (0)
	if (w & CR_BOOT_W_EMPTY)
		W("a side has no samples");
	if (w & (CR_BOOT_W_ONE_RUN | CR_BOOT_W_FEW_RUNS | CR_BOOT_W_FIXED_ONE_RUN |
		 CR_BOOT_W_FIXED_FEW_RUNS))
		W("too few runs");
	if (w & (CR_BOOT_W_ONE_HOST | CR_BOOT_W_FEW_HOSTS))
		W("too few hosts");
	if (w & CR_BOOT_W_UNDEFINED)
		W("intervals n/a");
	if (cr_compare_below_res(&r->diff[CR_BOOT_D_MEDIAN],
				 cr_compare_d_resolution(r), 1))
		W("Δ median within a slot");
	cr_compare_p_warning(pw, sizeof(pw), r, res->resamples);
	if (*pw)
		W("p coarse");
#undef W
}

/*
 * What opens the text: one line per metric, Δ median and risk ratio with
 * their intervals, p, the runs of each side and short warnings (each
 * metric's block below says them in full).
 */
static void cr_text_summary(FILE *out, const struct cr_compare_result *res)
{
	const struct cr_boot_result *r;
	char d[176], iv[112], rr[176], riv[112], p[48], runs[48], w[256];
	int width = 8;
	size_t i, k, n;

	for (i = 0; i < res->nmetrics; i++) {
		n = strlen(res->metrics[i].name);
		if ((int)n + 2 > width)
			width = (int)n + 2;
	}
	fprintf(out, "\nsummary, %s - %s, %g%% intervals%s:\n", res->variant,
		res->base, 100 * res->level,
		res->summary_only ? "" : " (each metric in full below)");
	fputs("  ", out);
	cr_pad(out, "metric", width);
	cr_pad(out, "runs", 9);
	cr_pad(out, "Δ median", 30);
	cr_pad(out, "risk ratio", 26);
	cr_pad(out, "p", 8);
	fputs("warnings\n", out);
	/* The study's headline, wakeup to first clock read, first. */
	for (k = 0; k < 2 * res->nmetrics; k++) {
		i = k % res->nmetrics;
		if ((k < res->nmetrics) !=
		    !strcmp(res->metrics[i].name, CR_HEADLINE_METRIC))
			continue;
		r = &res->metrics[i].r;
		snprintf(runs, sizeof(runs), "%zu/%zu", r->s[1].nruns,
			 r->s[0].nruns);
		if (!r->s[0].nsamples && !r->s[1].nsamples) {
			fputs("  ", out);
			cr_pad(out, res->metrics[i].name, width);
			cr_pad(out, runs, 9);
			fputs("no samples on either side\n", out);
			continue;
		}
		cr_fmt_dur(d, sizeof(d), r->diff[CR_BOOT_D_MEDIAN].value);
		cr_fmt_interval(iv, sizeof(iv), &r->diff[CR_BOOT_D_MEDIAN],
				cr_fmt_dur);
		cr_fmt_num(rr, sizeof(rr), r->diff[CR_BOOT_D_RR].value);
		if (r->diff[CR_BOOT_D_RR].undefined)
			snprintf(riv, sizeof(riv), "(interval undefined)");
		else
			cr_fmt_interval(riv, sizeof(riv),
					&r->diff[CR_BOOT_D_RR], cr_fmt_num);
		if (isnan(r->p_median))
			snprintf(p, sizeof(p), "n/a");
		else if (r->p_floor)
			snprintf(p, sizeof(p), "< %g", r->p_median);
		else
			snprintf(p, sizeof(p), "%.4f", r->p_median);
		cr_compare_summary_warnings(w, sizeof(w), res, r);
		fputs("  ", out);
		cr_pad(out, res->metrics[i].name, width);
		cr_pad(out, runs, 9);
		snprintf(d + strlen(d), sizeof(d) - strlen(d), " ");
		strncat(d, iv, sizeof(d) - strlen(d) - 1);
		cr_pad(out, d, 30);
		snprintf(rr + strlen(rr), sizeof(rr) - strlen(rr), " ");
		strncat(rr, riv, sizeof(rr) - strlen(rr) - 1);
		cr_pad(out, rr, 26);
		cr_pad(out, p, 8);
		fprintf(out, "%s\n", *w ? w : "-");
	}
}

int cr_compare_text(FILE *out, const struct cr_compare_result *res)
{
	size_t i;

	fprintf(out, "clkstat-report --compare: %s against base %s\n",
		res->variant, res->base);
	if (res->unit_sample)
		fprintf(out, "unit: sample (naive bootstrap: every sample taken as independent; samples within a run are correlated, so these intervals are too narrow)\n");
	else if (res->host_fixed)
		fprintf(out, "unit: host-fixed (each host's runs resampled with replacement within it, every host kept, within each %s: intervals for these machines only)\n",
			res->groups ? "group" : "variant");
	else if (res->unit_host)
		fprintf(out, "unit: host (hosts resampled with replacement, then each drawn host's runs with replacement, within each %s: confidence intervals for the fleet-wide value, machines of this kind in general, not a range for one machine)\n",
			res->groups ? "group" : "variant");
	else
		fprintf(out, "unit: run (whole runs resampled with replacement within each %s)\n",
			res->groups ? "group" : "variant");
	fprintf(out, "resamples: %u  seed: %lu  level: %g (percentile bootstrap intervals)\n",
		res->resamples, res->seed, res->level);
	cr_text_summary(out, res);
	for (i = 0; !res->summary_only && i < res->nmetrics; i++)
		cr_text_metric(out, res, &res->metrics[i]);
	if (fflush(out) || ferror(out))
		return CR_ERR;
	return CR_OK;
}

/* ---- JSON ---- */

/* A double, null when undefined. */
static int cr_jdouble(struct json_object *o, const char *key, double v)
{
	if (!isfinite(v))
		return json_object_object_add(o, key, NULL) ? -1 : 0;
	return cr_jadd(o, key, json_object_new_double(v));
}

static int cr_jnull(struct json_object *o, const char *key)
{
	return json_object_object_add(o, key, NULL) ? -1 : 0;
}

/* {"value", "lo", "hi"} and, for percentiles, "resolution". */
static struct json_object *cr_json_ci(const struct cr_boot_ci *c, int res)
{
	struct json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	if (cr_jdouble(o, "value", c->value) || cr_jdouble(o, "lo", c->lo) ||
	    cr_jdouble(o, "hi", c->hi) ||
	    (res && (isnan(c->value) ? cr_jnull(o, "resolution") :
		     cr_jadd(o, "resolution",
			     json_object_new_uint64(c->resolution))))) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static struct json_object *cr_json_stratum(const struct cr_compare_result *res,
					   const struct cr_boot_stratum_out *s,
					   const char *name)
{
	struct json_object *o = json_object_new_object();
	char w[512];
	unsigned int i;

	if (!o)
		return NULL;
	cr_compare_warning(w, sizeof(w), s, res->resamples);
	if (cr_jadd(o, "variant", json_object_new_string(name)) ||
	    cr_jadd(o, "runs", json_object_new_uint64(s->nruns)) ||
	    cr_jadd(o, "hosts", json_object_new_uint64(s->nhosts)) ||
	    cr_jadd(o, "samples", json_object_new_uint64(s->nsamples)) ||
	    (*w ? cr_jadd(o, "warning", json_object_new_string(w)) :
		  cr_jnull(o, "warning")))
		goto err;
	for (i = 0; i < CR_BOOT_NSTATS; i++)
		if (cr_jadd(o, cr_stat_key[i],
			    cr_json_ci(&s->stat[i], cr_is_pct(i))))
			goto err;
	if (cr_jdouble(o, "outliers_2sigma", s->out_2sigma) ||
	    cr_jdouble(o, "outliers_3mad", s->out_3mad) ||
	    cr_jdouble(o, "mad", s->mad))
		goto err;
	return o;
err:
	json_object_put(o);
	return NULL;
}

static struct json_object *cr_json_metric(const struct cr_compare_result *res,
					  const struct cr_compare_metric *cm)
{
	const struct cr_boot_result *r = &cm->r;
	struct json_object *o = json_object_new_object(), *a, *d, *c;
	char w[256];
	unsigned int i;

	if (!o)
		return NULL;
	a = json_object_new_array();
	if (cr_jadd(o, "metric", json_object_new_string(cm->name)) ||
	    (r->threshold_defined ?
	     cr_jadd(o, "threshold_ns", json_object_new_uint64(r->threshold)) :
	     cr_jnull(o, "threshold_ns")) ||
	    cr_jadd(o, "threshold_source", json_object_new_string(
		    r->threshold_given ? "--threshold" : "base p90")) ||
	    (res->unit_host && !res->host_fixed ?
	     cr_jadd(o, "hosts_paired", json_object_new_boolean(r->paired)) :
	     cr_jnull(o, "hosts_paired")) ||
	    (res->unit_host && !res->host_fixed ?
	     cr_jadd(o, "hosts_shared",
		     json_object_new_uint64(r->shared_hosts)) :
	     cr_jnull(o, "hosts_shared")) ||
	    cr_jadd(o, "strata", a))
		goto err;
	if (cr_jappend(a, cr_json_stratum(res, &r->s[0], res->base)) ||
	    cr_jappend(a, cr_json_stratum(res, &r->s[1], res->variant)))
		goto err;
	d = json_object_new_object();
	if (cr_jadd(o, "diff", d))
		goto err;
	for (i = 0; i < CR_BOOT_NDIFFS; i++) {
		c = cr_json_ci(&r->diff[i], 0);
		if (cr_jadd(d, cr_diff_key[i], c))
			goto err;
		if (i == CR_BOOT_D_RR &&
		    cr_jadd(c, "undefined_resamples",
			    json_object_new_uint64(r->diff[i].undefined)))
			goto err;
	}
	cr_compare_p_warning(w, sizeof(w), r, res->resamples);
	if (cr_jdouble(d, "p_value_median", r->p_median) ||
	    cr_jadd(d, "p_value_method",
		    json_object_new_string(CR_BOOT_P_METHOD)) ||
	    (*w ? cr_jadd(d, "p_value_warning", json_object_new_string(w)) :
		  cr_jnull(d, "p_value_warning")))
		goto err;
	c = json_object_object_get(d, "median");
	if (!cr_compare_below_res(&r->diff[CR_BOOT_D_MEDIAN],
				  cr_compare_d_resolution(r), 1)) {
		if (cr_jnull(c, "warning"))
			goto err;
		return o;
	}
	snprintf(w, sizeof(w), "narrower than the medians' slots (%" PRIu64 "ns, %" PRIu64 "ns)",
		 r->s[0].stat[CR_BOOT_MEDIAN].resolution,
		 r->s[1].stat[CR_BOOT_MEDIAN].resolution);
	if (cr_jadd(c, "warning", json_object_new_string(w)))
		goto err;
	return o;
err:
	json_object_put(o);
	return NULL;
}

/* The level as given: 0.95, not 0.94999999999999996. */
static struct json_object *cr_jlevel(double level)
{
	char b[32];

	snprintf(b, sizeof(b), "%.6g", level);
	return json_object_new_double_s(level, b);
}

int cr_compare_json(FILE *out, const struct cr_compare_result *res)
{
	struct json_object *root, *metrics;
	int st = CR_ERR;
	size_t i;

	root = json_object_new_object();
	if (!root)
		return CR_ERR;
	metrics = json_object_new_array();
	if (cr_jadd(root, "unit", json_object_new_string(cr_resampling_unit(res))) ||
	    cr_jadd(root, "resamples", json_object_new_uint64(res->resamples)) ||
	    cr_jadd(root, "seed", json_object_new_uint64(res->seed)) ||
	    cr_jadd(root, "level", cr_jlevel(res->level)) ||
	    cr_jadd(root, "base", json_object_new_string(res->base)) ||
	    cr_jadd(root, "variant", json_object_new_string(res->variant)) ||
	    cr_jadd(root, "metrics", metrics))
		goto out;
	for (i = 0; i < res->nmetrics; i++) {
		if (cr_jappend(metrics, cr_json_metric(res, &res->metrics[i])))
			goto out;
	}
	st = cr_json_print(out, root);
out:
	json_object_put(root);
	return st;
}

/* ---- CSV ---- */

static void cr_csv_num(FILE *out, double v)
{
	fputc(',', out);
	if (isfinite(v))
		fprintf(out, "%.15g", v);
}

static void cr_csv_head(FILE *out, const char *metric, const char *group,
			const char *stat)
{
	cr_csv_field(out, metric);
	fputc(',', out);
	cr_csv_field(out, group);
	fputc(',', out);
	cr_csv_field(out, stat);
}

/* A row with a text value. */
static void cr_csv_text(FILE *out, const char *metric, const char *group,
			const char *stat, const char *value)
{
	cr_csv_head(out, metric, group, stat);
	fputc(',', out);
	cr_csv_field(out, value);
	fputs(",,,\n", out);
}

static void cr_csv_u64(FILE *out, const char *metric, const char *group,
		       const char *stat, uint64_t v)
{
	cr_csv_head(out, metric, group, stat);
	fprintf(out, ",%" PRIu64 ",,,\n", v);
}

static void cr_csv_ci(FILE *out, const char *metric, const char *group,
		      const char *stat, const struct cr_boot_ci *c, int res)
{
	cr_csv_head(out, metric, group, stat);
	cr_csv_num(out, c->value);
	cr_csv_num(out, c->lo);
	cr_csv_num(out, c->hi);
	fputc(',', out);
	if (res && !isnan(c->value))
		fprintf(out, "%" PRIu64, c->resolution);
	fputc('\n', out);
}

static void cr_csv_value(FILE *out, const char *metric, const char *group,
			 const char *stat, double v)
{
	cr_csv_head(out, metric, group, stat);
	cr_csv_num(out, v);
	fputs(",,,\n", out);
}

int cr_compare_csv(FILE *out, const struct cr_compare_result *res)
{
	char buf[512];
	size_t i;
	unsigned int s, k;

	fputs("metric,group,statistic,value,lo,hi,resolution\n", out);
	for (i = 0; i < res->nmetrics; i++) {
		const struct cr_compare_metric *cm = &res->metrics[i];
		const struct cr_boot_result *r = &cm->r;
		const char *m = cm->name;

		cr_csv_text(out, m, "settings", "unit", cr_resampling_unit(res));
		cr_csv_u64(out, m, "settings", "resamples", res->resamples);
		cr_csv_u64(out, m, "settings", "seed", res->seed);
		cr_csv_value(out, m, "settings", "level", res->level);
		if (r->threshold_defined)
			cr_csv_u64(out, m, "settings", "threshold_ns",
				   r->threshold);
		else
			cr_csv_value(out, m, "settings", "threshold_ns", NAN);
		cr_csv_text(out, m, "settings", "threshold_source",
			    r->threshold_given ? "--threshold" : "base p90");
		if (res->unit_host && !res->host_fixed) {
			cr_csv_text(out, m, "settings", "hosts_paired",
				    r->paired ? "yes" : r->shared_hosts ?
				    "partly" : "no");
			cr_csv_u64(out, m, "settings", "hosts_shared",
				   r->shared_hosts);
		}
		for (s = 0; s < 2; s++) {
			const struct cr_boot_stratum_out *so = &r->s[s];
			const char *g = s ? res->variant : res->base;

			cr_csv_u64(out, m, g, "runs", so->nruns);
			cr_csv_u64(out, m, g, "hosts", so->nhosts);
			cr_csv_u64(out, m, g, "samples", so->nsamples);
			for (k = 0; k < CR_BOOT_NSTATS; k++)
				cr_csv_ci(out, m, g, cr_stat_key[k],
					  &so->stat[k], cr_is_pct(k));
			cr_csv_value(out, m, g, "outliers_2sigma",
				     so->out_2sigma);
			cr_csv_value(out, m, g, "outliers_3mad", so->out_3mad);
			cr_csv_value(out, m, g, "mad", so->mad);
			cr_compare_warning(buf, sizeof(buf), so,
					   res->resamples);
			if (*buf)
				cr_csv_text(out, m, g, "warning", buf);
		}
		for (k = 0; k < CR_BOOT_NDIFFS; k++)
			cr_csv_ci(out, m, "diff", cr_diff_key[k], &r->diff[k],
				  0);
		cr_csv_u64(out, m, "diff", "risk_ratio_undefined_resamples",
			   r->diff[CR_BOOT_D_RR].undefined);
		cr_csv_value(out, m, "diff", "p_value_median", r->p_median);
		cr_csv_text(out, m, "diff", "p_value_method", CR_BOOT_P_METHOD);
		cr_compare_p_warning(buf, sizeof(buf), r, res->resamples);
		if (*buf)
			cr_csv_text(out, m, "diff", "p_value_warning", buf);
	}
	if (fflush(out) || ferror(out))
		return CR_ERR;
	return CR_OK;
}

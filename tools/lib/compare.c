// SPDX-License-Identifier: GPL-2.0
/*
 * compare.c - clkstat-report --compare VARIANT (compare.h): which runs and
 * metrics are compared, and the errors; the statistics are bootstrap.c's, the
 * outputs compare_render.c's.
 *
 * Strata.  The input's runs (every --input file's, in reading order) are
 * grouped by the variant attached during the run (run.variant).  The
 * variant compared is VARIANT; the base is --base, or else the one other
 * variant of the input.  Errors, one line each on stderr:
 *  - VARIANT (or --base) is not a variant of any run: CR_USAGE, listing
 *    the variants present;
 *  - no --base and not exactly one other variant (none, or two or more):
 *    CR_USAGE, listing them;
 *  - --base equal to VARIANT: CR_USAGE.
 *
 * Metrics.  A run of variant V has metric NAME when it holds the metric
 * NAME of variant V (cr_run_find(run, NAME, V), as record writes them).
 * Compared: every metric name that some base run and some variant run
 * have, in the order of their first appearance among the base's runs, or
 * only --metric NAME (CR_USAGE, with the list, when not in both).  For a
 * metric, a stratum is the runs of its variant that have the metric, each
 * run's all-CPU histogram one unit (a run with an empty histogram is a run
 * of no samples, and counts).  No metric in both: CR_ERR.
 *
 * Bucket layouts.  Histograms of different frac_bits cannot be added: a
 * metric whose runs (of either variant) do not all have the same
 * frac_bits is an error (CR_ERR, naming the metric, the two frac_bits and
 * a run of each), never a silent mix.  Every metric is checked before
 * anything is computed or written.
 *
 * Everything is computed before anything is written, so that an error
 * (or running out of memory) leaves no partial output.  Each metric's
 * bootstrap starts from the seed afresh: a metric's numbers do not depend
 * on which other metrics are compared (--metric gives the same numbers).
 * Statuses: CR_OK, CR_USAGE, CR_ERR (status.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "bootstrap.h"
#include "compare.h"
#include "compare_render.h"
#include "status.h"

/* Distinct strings, in order of first appearance. */
struct cr_names {
	size_t n;
	const char **v;
};

static int cr_names_has(const struct cr_names *l, const char *s)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], s))
			return 1;
	return 0;
}

static int cr_names_add(struct cr_names *l, const char *s)
{
	const char **v;

	if (cr_names_has(l, s))
		return 0;
	v = realloc(l->v, (l->n + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	l->v = v;
	v[l->n++] = s;
	return 0;
}

/* "a, b, c" on f, skipping skip (may be NULL). */
static void cr_names_print(FILE *f, const struct cr_names *l, const char *skip)
{
	const char *sep = "";
	size_t i;

	for (i = 0; i < l->n; i++) {
		if (skip && !strcmp(l->v[i], skip))
			continue;
		fprintf(f, "%s%s", sep, l->v[i]);
		sep = ", ";
	}
	if (!*sep)
		fputs("none", f);
}

/* Does some run of variant v have metric name? */
static int cr_variant_has(const struct cr_snapshot *s, const char *v,
			  const char *name)
{
	size_t i;

	for (i = 0; i < s->nruns; i++)
		if (!strcmp(s->runs[i].variant, v) &&
		    cr_run_find(&s->runs[i], name, v))
			return 1;
	return 0;
}

/* The metrics of both variants, in order (names point into s). */
static int cr_common_metrics(const struct cr_snapshot *s, const char *base,
			     const char *variant, struct cr_names *out)
{
	const struct cr_run *r;
	size_t i, j;

	for (i = 0; i < s->nruns; i++) {
		r = &s->runs[i];
		if (strcmp(r->variant, base))
			continue;
		for (j = 0; j < r->nmetrics; j++) {
			if (strcmp(r->metrics[j].variant, base) ||
			    cr_names_has(out, r->metrics[j].name) ||
			    !cr_variant_has(s, variant, r->metrics[j].name))
				continue;
			if (cr_names_add(out, r->metrics[j].name))
				return -ENOMEM;
		}
	}
	return 0;
}

/*
 * The histograms of metric name in the runs of variant v into *hists
 * (malloc'd, *n of them); the first metric found into *first.  Return 0,
 * -ENOMEM, or -EINVAL when frac_bits differ from *ref (a line on stderr);
 * *ref is set from the first metric when *ref_run is NULL.
 */
static int cr_stratum_runs(const struct cr_snapshot *s, const char *v,
			   const char *name, const struct cr_hist ***hists,
			   size_t *n, const struct cr_run **ref_run,
			   unsigned int *ref)
{
	const struct cr_metric *m;
	const struct cr_hist **h;
	size_t i;

	*hists = NULL;
	*n = 0;
	for (i = 0; i < s->nruns; i++) {
		if (strcmp(s->runs[i].variant, v))
			continue;
		m = cr_run_find(&s->runs[i], name, v);
		if (!m)
			continue;
		if (!*ref_run) {
			*ref_run = &s->runs[i];
			*ref = m->frac_bits;
		} else if (m->frac_bits != *ref) {
			fprintf(stderr, "clkstat-report: --compare: metric %s has frac_bits %u in run %u (variant %s) and %u in run %u (variant %s): histograms of different bucket layouts cannot be pooled\n",
				name, *ref, (*ref_run)->index,
				(*ref_run)->variant, m->frac_bits,
				s->runs[i].index, v);
			free(*hists);
			*hists = NULL;
			return -EINVAL;
		}
		h = realloc(*hists, (*n + 1) * sizeof(*h));
		if (!h) {
			free(*hists);
			*hists = NULL;
			return -ENOMEM;
		}
		*hists = h;
		h[(*n)++] = &m->total;
	}
	return 0;
}

static int cr_compare_usage(const struct cr_compare_opts *o)
{
	if (!o->variant || !*o->variant) {
		fprintf(stderr, "clkstat-report: --compare needs a variant\n");
		return CR_USAGE;
	}
	if (!o->resamples) {
		fprintf(stderr, "clkstat-report: --compare: --resamples must be at least 1\n");
		return CR_USAGE;
	}
	if (!(o->level > 0 && o->level < 1)) {
		fprintf(stderr, "clkstat-report: --compare: --level must be above 0 and below 1\n");
		return CR_USAGE;
	}
	if (o->format && strcmp(o->format, "text") &&
	    strcmp(o->format, "json") && strcmp(o->format, "csv")) {
		fprintf(stderr, "clkstat-report: --compare: --format '%s': text, json or csv\n",
			o->format);
		return CR_USAGE;
	}
	return CR_OK;
}

/* The base variant, or NULL after a line on stderr. */
static const char *cr_pick_base(const struct cr_compare_opts *o,
				const struct cr_names *variants)
{
	size_t i, others = 0;
	const char *base = NULL;

	if (!cr_names_has(variants, o->variant)) {
		fprintf(stderr, "clkstat-report: --compare %s: no run of variant %s in the input (variants: ",
			o->variant, o->variant);
		cr_names_print(stderr, variants, NULL);
		fputs(")\n", stderr);
		return NULL;
	}
	if (o->base) {
		if (!strcmp(o->base, o->variant)) {
			fprintf(stderr, "clkstat-report: --compare %s --base %s: a variant cannot be compared with itself\n",
				o->variant, o->base);
			return NULL;
		}
		if (!cr_names_has(variants, o->base)) {
			fprintf(stderr, "clkstat-report: --base %s: no run of variant %s in the input (variants: ",
				o->base, o->base);
			cr_names_print(stderr, variants, NULL);
			fputs(")\n", stderr);
			return NULL;
		}
		return o->base;
	}
	for (i = 0; i < variants->n; i++) {
		if (strcmp(variants->v[i], o->variant)) {
			base = variants->v[i];
			others++;
		}
	}
	if (others == 1)
		return base;
	if (!others) {
		fprintf(stderr, "clkstat-report: --compare %s: the input has no other variant to compare it with (variants: ",
			o->variant);
	} else {
		fprintf(stderr, "clkstat-report: --compare %s: the input has %zu other variants, choose the base with --base (variants: ",
			o->variant, others);
	}
	cr_names_print(stderr, variants, NULL);
	fputs(")\n", stderr);
	return NULL;
}

int cr_compare(FILE *out, const struct cr_snapshot *s,
	       const struct cr_compare_opts *o)
{
	const struct cr_hist **hists[2] = { NULL, NULL };
	struct cr_compare_result res = { 0 };
	struct cr_names variants = { 0 }, metrics = { 0 };
	const struct cr_run *ref_run;
	struct cr_boot_stratum_in in[2];
	struct cr_boot_params bp;
	const char *base, *fmt = o->format ? o->format : "text";
	unsigned int ref = 0;
	size_t i, n[2];
	int st, err = 0, k;

	st = cr_compare_usage(o);
	if (st)
		return st;
	for (i = 0; i < s->nruns; i++)
		if (cr_names_add(&variants, s->runs[i].variant))
			goto nomem;
	base = cr_pick_base(o, &variants);
	if (!base) {
		st = CR_USAGE;
		goto out;
	}
	if (cr_common_metrics(s, base, o->variant, &metrics))
		goto nomem;
	if (o->metric) {
		if (!cr_names_has(&metrics, o->metric)) {
			fprintf(stderr, "clkstat-report: --compare: --metric %s: not a metric of both %s and %s (metrics of both: ",
				o->metric, base, o->variant);
			cr_names_print(stderr, &metrics, NULL);
			fputs(")\n", stderr);
			st = CR_USAGE;
			goto out;
		}
		metrics.v[0] = o->metric;
		metrics.n = 1;
	}
	if (!metrics.n) {
		fprintf(stderr, "clkstat-report: --compare: no metric is in runs of both %s and %s\n",
			base, o->variant);
		st = CR_ERR;
		goto out;
	}

	/* Every metric's bucket layout, before anything is computed. */
	for (i = 0; i < metrics.n; i++) {
		ref_run = NULL;
		for (k = 0; k < 2 && !err; k++) {
			err = cr_stratum_runs(s, k ? o->variant : base,
					      metrics.v[i], &hists[k], &n[k],
					      &ref_run, &ref);
			free(hists[k]);
			hists[k] = NULL;
		}
		if (err == -ENOMEM)
			goto nomem;
		if (err) {
			st = CR_ERR;
			goto out;
		}
	}

	res.metrics = calloc(metrics.n, sizeof(*res.metrics));
	if (!res.metrics)
		goto nomem;
	res.base = base;
	res.variant = o->variant;
	res.unit_sample = o->unit_sample;
	res.resamples = o->resamples;
	res.seed = o->seed;
	res.level = o->level;
	bp = (struct cr_boot_params){
		.resamples = o->resamples, .level = o->level, .seed = o->seed,
		.unit_sample = o->unit_sample,
		.have_threshold = o->have_threshold,
		.threshold = o->threshold,
	};
	for (i = 0; i < metrics.n; i++) {
		struct cr_compare_metric *cm = &res.metrics[i];

		ref_run = NULL;
		for (k = 0; k < 2; k++) {
			if (cr_stratum_runs(s, k ? o->variant : base,
					    metrics.v[i], &hists[k], &n[k],
					    &ref_run, &ref))
				goto nomem;	/* checked above: -ENOMEM */
			in[k] = (struct cr_boot_stratum_in){
				.frac_bits = ref, .nruns = n[k],
				.runs = hists[k],
			};
		}
		snprintf(cm->name, sizeof(cm->name), "%s", metrics.v[i]);
		cm->frac_bits = ref;
		err = cr_boot_compare(&in[0], &in[1], &bp, &cm->r);
		for (k = 0; k < 2; k++) {
			free(hists[k]);
			hists[k] = NULL;
		}
		if (err == -ENOMEM)
			goto nomem;
		if (err == -EOVERFLOW) {
			fprintf(stderr, "clkstat-report: --compare: metric %s: sample counts too large to resample without overflowing 64 bits\n",
				metrics.v[i]);
			st = CR_ERR;
			goto out;
		}
		if (err) {
			fprintf(stderr, "clkstat-report: --compare: metric %s: the bootstrap refused its input (%s)\n",
				metrics.v[i], strerror(-err));
			st = CR_ERR;
			goto out;
		}
		res.nmetrics++;
	}
	if (!strcmp(fmt, "json"))
		st = cr_compare_json(out, &res);
	else if (!strcmp(fmt, "csv"))
		st = cr_compare_csv(out, &res);
	else
		st = cr_compare_text(out, &res);
	if (st)
		fprintf(stderr, "clkstat-report: --compare: cannot write the output\n");
	goto out;
nomem:
	fprintf(stderr, "clkstat-report: out of memory\n");
	st = CR_ERR;
out:
	free(hists[0]);
	free(hists[1]);
	free(res.metrics);
	free(variants.v);
	free(metrics.v);
	return st;
}

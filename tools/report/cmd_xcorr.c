// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_xcorr.c - clkstat-report xcorr -i FILE A B: the cross-correlation of
 * two event series (selectors A and B) of the runs of --input snapshots
 * recorded with --events: per run binned (--bin), r(k) for lags
 * -K..K (--max-lag), pooled over the runs, the peak lag, and
 * moving-block bootstrap intervals (--block, -B, --seed).  The
 * statistics are tools/lib/xcorr.c's, the runs binned by xcorr_runs.c
 * (as plot --kind xcorr draws them), the options xcorr_opts.c's; this
 * file prints.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <json.h>
#include "../lib/render_common.h"
#include "../lib/status.h"
#include "../lib/xcorr_runs.h"
#include "args.h"
#include "cli.h"
#include "input.h"
#include "xcorr_opts.h"

#define CR_XC_TABLE	5		/* lags printed each side of the peak */

static int cr_xcorr_check(const struct cr_cli *cli)
{
	if (cr_input_check())
		return CR_USAGE;
	if (!cr_input_count()) {
		fprintf(stderr, "clkstat-report: xcorr works on the events of --input snapshots (record --events N writes them)\n");
		return CR_USAGE;
	}
	if (strcmp(cli->format, "text") && strcmp(cli->format, "json")) {
		fprintf(stderr, "clkstat-report: xcorr: --format '%s': text or json\n",
			cli->format);
		return CR_USAGE;
	}
	return cr_xcorr_sels("xcorr", cli->rest[0], cli->rest[1]);
}

static const char *cr_xc_dur(char *buf, size_t len, double ns)
{
	cr_fmt_ns(buf, len, ns, 3, 1);
	return buf;
}

static void print_text(const struct cr_xc_run *xr, size_t n,
		       const struct cr_xc_result *res, const char *an,
		       const char *bn, unsigned long seed)
{
	const struct cr_xcorr_settings *xo = cr_xcorr_settings();
	unsigned int K = res->K;
	char d1[32], d2[32];
	uint64_t na = 0, nb = 0;
	size_t i, bins;
	long k, lo, hi;

	for (i = 0; i < n; i++) {
		na += xr[i].na;
		nb += xr[i].nb;
	}
	printf("xcorr A = %s (%llu events), B = %s (%llu events)\n", an,
	       (unsigned long long)na, bn, (unsigned long long)nb);
	printf("r(k) = corr(A[t], B[t+k]), Pearson on the overlap; k > 0: B follows A\n");
	printf("bins of %s, lags -%u..+%u bins (%s each way); %lu resamples, seed %lu, 95%% percentile intervals\n",
	       cr_xc_dur(d1, sizeof(d1), (double)xo->bin), K, K,
	       cr_xc_dur(d2, sizeof(d2), (double)K * xo->bin),
	       xo->resamples, seed);
	printf("runs %zu%s\n", n, n > 1 ? " (r: the mean of the runs' r; the bootstrap draws runs, then blocks)" : "");
	for (i = 0; i < n; i++)
		printf("  run %u %s: %zu bins (%s from %s), A %llu, B %llu, block %zu bins\n",
		       xr[i].run->index, xr[i].run->variant,
		       cr_xc_nbins(xr[i].t0, xr[i].t1, xo->bin),
		       cr_xc_dur(d1, sizeof(d1), (double)(xr[i].t1 - xr[i].t0)),
		       xr[i].markers ? "run_start to run_end" :
		       "first to last event",
		       (unsigned long long)xr[i].na,
		       (unsigned long long)xr[i].nb, res->block[i]);
	if (!res->have_peak) {
		printf("r undefined at every lag: a series without events or without variation in every run\n");
		return;
	}
	lo = res->peak - CR_XC_TABLE < -(long)K ? -(long)K : res->peak - CR_XC_TABLE;
	hi = res->peak + CR_XC_TABLE > (long)K ? (long)K : res->peak + CR_XC_TABLE;
	printf("%9s  %8s  %8s  %s\n", "lag bins", "lag", "r", "95% interval");
	for (k = lo; k <= hi; k++) {
		printf("%+9ld  %8s  ", k,
		       cr_xc_dur(d1, sizeof(d1), (double)k * xo->bin));
		if (isnan(res->r[k + K]))
			printf("%8s  -", "n/a");
		else
			printf("%+8.4f  [%+.4f, %+.4f]", res->r[k + K],
			       res->lo[k + K], res->hi[k + K]);
		printf("%s\n", k == res->peak ? "  <- peak" : "");
	}
	printf("peak: lag %+d bins (%s), r %+.4f [%+.4f, %+.4f]; peak lag interval [%+.0f, %+.0f] bins\n",
	       res->peak, cr_xc_dur(d1, sizeof(d1), (double)res->peak * xo->bin),
	       res->r[res->peak + K], res->r_lo, res->r_hi, res->lag_lo,
	       res->lag_hi);
	if (res->undefined)
		printf("warning: r at the peak lag was undefined in %u of %lu resamples (a series without variation in them): the interval is of the others\n",
		       res->undefined, xo->resamples);
	for (i = 0, bins = 0; i < n; i++)
		bins += cr_xc_nbins(xr[i].t0, xr[i].t1, xo->bin);
	printf("note: the peak is the largest |r| of %u lags, biased away from 0: independent series reach |r| of about %.3f by chance (sqrt(2 ln(2K+1) / bins))\n",
	       2 * K + 1, sqrt(2 * log(2.0 * K + 1) / (double)bins));
}

/* NAN as null. */
static struct json_object *jd(double v)
{
	return isnan(v) ? NULL : json_object_new_double(v);
}

static int jaddn(struct json_object *o, const char *k, double v)
{
	if (isnan(v))
		return json_object_object_add(o, k, NULL);
	return cr_jadd(o, k, jd(v));
}

static int print_json(const struct cr_xc_run *xr, size_t n,
		      const struct cr_xc_result *res, const char *an,
		      const char *bn, unsigned long seed)
{
	const struct cr_xcorr_settings *xo = cr_xcorr_settings();
	struct json_object *root = json_object_new_object(), *a, *o;
	unsigned int K = res->K;
	int bad = !root;
	long k;
	size_t i;

	bad = bad || cr_jadd(root, "a", json_object_new_string(an)) ||
	      cr_jadd(root, "b", json_object_new_string(bn)) ||
	      cr_jadd(root, "bin_ns", json_object_new_uint64(xo->bin)) ||
	      cr_jadd(root, "max_lag_bins", json_object_new_int(K)) ||
	      cr_jadd(root, "resamples", json_object_new_uint64(xo->resamples)) ||
	      cr_jadd(root, "seed", json_object_new_uint64(seed)) ||
	      cr_jadd(root, "level", json_object_new_double_s(0.95, "0.95")) ||
	      cr_jadd(root, "estimator", json_object_new_string("pearson-overlap"));
	a = bad ? NULL : json_object_new_array();
	bad = bad || cr_jadd(root, "runs", a);
	for (i = 0; !bad && i < n; i++) {
		o = json_object_new_object();
		bad = cr_jappend(a, o) ||
		      cr_jadd(o, "run", json_object_new_int(xr[i].run->index)) ||
		      cr_jadd(o, "variant", json_object_new_string(xr[i].run->variant)) ||
		      cr_jadd(o, "t0_ns", json_object_new_uint64(xr[i].t0)) ||
		      cr_jadd(o, "t1_ns", json_object_new_uint64(xr[i].t1)) ||
		      cr_jadd(o, "window", json_object_new_string(xr[i].markers ? "markers" : "events")) ||
		      cr_jadd(o, "bins", json_object_new_uint64(cr_xc_nbins(xr[i].t0, xr[i].t1, xo->bin))) ||
		      cr_jadd(o, "a_events", json_object_new_uint64(xr[i].na)) ||
		      cr_jadd(o, "b_events", json_object_new_uint64(xr[i].nb)) ||
		      cr_jadd(o, "block_bins", json_object_new_uint64(res->block[i]));
	}
	a = bad ? NULL : json_object_new_array();
	bad = bad || cr_jadd(root, "lags", a);
	for (k = -(long)K; !bad && k <= (long)K; k++) {
		o = json_object_new_object();
		bad = cr_jappend(a, o) ||
		      cr_jadd(o, "lag_bins", json_object_new_int((int)k)) ||
		      cr_jadd(o, "lag_ns", json_object_new_int64(k * (int64_t)xo->bin)) ||
		      jaddn(o, "r", res->r[k + K]) ||
		      jaddn(o, "lo", res->lo[k + K]) ||
		      jaddn(o, "hi", res->hi[k + K]);
	}
	if (!bad && res->have_peak) {
		o = json_object_new_object();
		bad = cr_jadd(root, "peak", o) ||
		      cr_jadd(o, "lag_bins", json_object_new_int(res->peak)) ||
		      cr_jadd(o, "lag_ns", json_object_new_int64(res->peak * (int64_t)xo->bin)) ||
		      jaddn(o, "r", res->r[res->peak + K]) ||
		      jaddn(o, "r_lo", res->r_lo) || jaddn(o, "r_hi", res->r_hi) ||
		      jaddn(o, "lag_lo", res->lag_lo) ||
		      jaddn(o, "lag_hi", res->lag_hi) ||
		      cr_jadd(o, "undefined_resamples", json_object_new_int(res->undefined));
	} else if (!bad) {
		bad = json_object_object_add(root, "peak", NULL);
	}
	if (bad) {
		json_object_put(root);
		fprintf(stderr, "clkstat-report: out of memory\n");
		return CR_ERR;
	}
	return cr_json_print(stdout, root);
}

static int cr_xcorr_cmd(struct cr_cli *cli)
{
	const struct cr_xcorr_settings *xo = cr_xcorr_settings();
	struct cr_snapshot s = { 0 };
	struct cr_xc_runs x = { 0 };
	struct cr_xc_params p;
	struct cr_xc_take t;
	int st;

	st = cr_input_read(&s);
	if (st)
		return st;
	cr_xcorr_params(&p, xo->seed);
	cr_xcorr_take(&t, "xcorr");
	st = cr_xc_runs_compute(&s, &t, &p, &x);
	if (st)
		goto out;
	if (!strcmp(cli->format, "json"))
		st = print_json(x.v, x.n, &x.res, cli->rest[0], cli->rest[1],
				p.seed);
	else
		print_text(x.v, x.n, &x.res, cli->rest[0], cli->rest[1], p.seed);
out:
	cr_xc_runs_free(&x);
	cr_snapshot_free(&s);
	return st;
}

static const struct cr_optset *const cr_xcorr_optsets[] = {
	&cr_input_opts, &cr_format_opts, &cr_xcorr_opts, NULL,
};

const struct cr_command cr_cmd_xcorr = {
	.name = "xcorr",
	.summary = "cross-correlation of two recorded event series",
	.synopsis =
	"       clkstat-report xcorr -i FILE... A B [--bin DUR] [--max-lag DUR] [--block DUR]\n"
	"                      [-B N] [--seed S] [--run N] [--variant V] [--json]\n",
	.opts = cr_xcorr_optsets,
	.min_args = 2, .max_args = 2,
	.check = cr_xcorr_check,
	.run = cr_xcorr_cmd,
};

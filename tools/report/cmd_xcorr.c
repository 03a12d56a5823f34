// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_xcorr.c - clkstat-report xcorr -i FILE A B: the cross-correlation of
 * two event series (selectors A and B) of the runs of --input snapshots
 * recorded with --events: per run binned (--bin), r(k) for lags
 * -K..K (--max-lag), pooled over the runs, the peak lag, and
 * moving-block bootstrap intervals (--block, -B, --seed).  The
 * statistics are tools/lib/xcorr.c's; this file reads, selects, prints.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <json.h>
#include "../lib/render_common.h"
#include "../lib/status.h"
#include "../lib/xcorr.h"
#include "args.h"
#include "cli.h"
#include "input.h"

enum { O_BIN = CR_OPT_XCORR, O_MAX_LAG, O_BLOCK, O_SEED, O_VARIANT };

#define CR_XC_MAX_CELLS	50000000	/* resamples x lags kept */
#define CR_XC_TABLE	5		/* lags printed each side of the peak */

static struct {
	uint64_t bin, max_lag, block;	/* ns; max_lag, block 0: default */
	unsigned long resamples;
	unsigned long seed;
	const char *variant;		/* --variant, NULL: every run */
	struct cr_xc_sel a, b;
} cr_xco = { .bin = 1000000, .resamples = 2000, .seed = 1 };

static int cr_xcorr_take(int c, const char *v)
{
	uint64_t *dst = c == O_BIN ? &cr_xco.bin : c == O_MAX_LAG ?
			&cr_xco.max_lag : &cr_xco.block;
	const char *what = c == O_BIN ? "--bin" : c == O_MAX_LAG ?
			   "--max-lag" : "--block";

	if (c == 'B')
		return cr_parse_ulong("-B (100 to 1000000)", v, 100, 1000000,
				      &cr_xco.resamples);
	/* GSL's mt19937 keeps the low 32 bits, and 0 is 4357. */
	if (c == O_SEED)
		return cr_parse_ulong("--seed (1 to 4294967295)", v, 1,
				      0xffffffffUL, &cr_xco.seed);
	if (c == O_VARIANT) {
		cr_xco.variant = v;
		return CR_OK;
	}
	if (cr_xc_parse_dur(v, dst)) {
		fprintf(stderr, "clkstat-report: %s '%s': a duration (digits and ns, us, ms or s)\n",
			what, v);
		return CR_USAGE;
	}
	return CR_OK;
}

static const struct option cr_xcorr_table[] = {
	{ "bin", required_argument, NULL, O_BIN },
	{ "max-lag", required_argument, NULL, O_MAX_LAG },
	{ "block", required_argument, NULL, O_BLOCK },
	{ "bootstrap", required_argument, NULL, 'B' },
	{ "seed", required_argument, NULL, O_SEED },
	{ "variant", required_argument, NULL, O_VARIANT },
	{ NULL, 0, NULL, 0 },
};

static const struct cr_optset cr_xcorr_opts = {
	.opts = cr_xcorr_table,
	.take = cr_xcorr_take,
	.help =
	"      --bin DUR       bin width (default 1ms)\n"
	"      --max-lag DUR   lags up to this, each way (default 20 bins)\n"
	"      --block DUR     bootstrap block length (default per run:\n"
	"                      max(n^(1/3), lags + 1) bins)\n"
	"  -B, --bootstrap N   bootstrap resamples (default 2000)\n"
	"      --seed N        random seed (default 1)\n"
	"      --variant V     only the runs of variant V\n",
};

static int cr_xcorr_check(const struct cr_cli *cli)
{
	char err[256];

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
	if (cr_xc_sel_parse(cli->rest[0], &cr_xco.a, err, sizeof(err)) ||
	    cr_xc_sel_parse(cli->rest[1], &cr_xco.b, err, sizeof(err))) {
		fprintf(stderr, "clkstat-report: xcorr: %s\n", err);
		return CR_USAGE;
	}
	if (!cr_xco.max_lag)
		cr_xco.max_lag = 20 * cr_xco.bin;
	if (cr_xco.max_lag / cr_xco.bin > 100000) {
		fprintf(stderr, "clkstat-report: xcorr: --max-lag is at most 100000 bins\n");
		return CR_USAGE;
	}
	if ((2 * (cr_xco.max_lag / cr_xco.bin) + 1) * cr_xco.resamples >
	    CR_XC_MAX_CELLS) {
		fprintf(stderr, "clkstat-report: xcorr: lags x resamples above %d: fewer lags or resamples\n",
			CR_XC_MAX_CELLS);
		return CR_USAGE;
	}
	return CR_OK;
}

/* One run taken: its series. */
struct cr_xc_run {
	const struct cr_run *run;
	uint64_t t0, t1;
	int markers;		/* window from run_start/run_end */
	uint64_t na, nb;
	double *a, *b;
};

static const char *cr_xc_dur(char *buf, size_t len, double ns)
{
	cr_fmt_ns(buf, len, ns, 3, 1);
	return buf;
}

static void print_text(const struct cr_xc_run *xr, size_t n,
		       const struct cr_xc_result *res, const char *an,
		       const char *bn, unsigned long seed)
{
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
	       cr_xc_dur(d1, sizeof(d1), (double)cr_xco.bin), K, K,
	       cr_xc_dur(d2, sizeof(d2), (double)K * cr_xco.bin),
	       cr_xco.resamples, seed);
	printf("runs %zu%s\n", n, n > 1 ? " (r: the mean of the runs' r; the bootstrap draws runs, then blocks)" : "");
	for (i = 0; i < n; i++)
		printf("  run %u %s: %zu bins (%s from %s), A %llu, B %llu, block %zu bins\n",
		       xr[i].run->index, xr[i].run->variant,
		       cr_xc_nbins(xr[i].t0, xr[i].t1, cr_xco.bin),
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
		       cr_xc_dur(d1, sizeof(d1), (double)k * cr_xco.bin));
		if (isnan(res->r[k + K]))
			printf("%8s  -", "n/a");
		else
			printf("%+8.4f  [%+.4f, %+.4f]", res->r[k + K],
			       res->lo[k + K], res->hi[k + K]);
		printf("%s\n", k == res->peak ? "  <- peak" : "");
	}
	printf("peak: lag %+d bins (%s), r %+.4f [%+.4f, %+.4f]; peak lag interval [%+.0f, %+.0f] bins\n",
	       res->peak, cr_xc_dur(d1, sizeof(d1), (double)res->peak * cr_xco.bin),
	       res->r[res->peak + K], res->r_lo, res->r_hi, res->lag_lo,
	       res->lag_hi);
	if (res->undefined)
		printf("warning: r at the peak lag was undefined in %u of %lu resamples (a series without variation in them): the interval is of the others\n",
		       res->undefined, cr_xco.resamples);
	for (i = 0, bins = 0; i < n; i++)
		bins += cr_xc_nbins(xr[i].t0, xr[i].t1, cr_xco.bin);
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
	struct json_object *root = json_object_new_object(), *a, *o;
	unsigned int K = res->K;
	int bad = !root;
	long k;
	size_t i;

	bad = bad || cr_jadd(root, "a", json_object_new_string(an)) ||
	      cr_jadd(root, "b", json_object_new_string(bn)) ||
	      cr_jadd(root, "bin_ns", json_object_new_uint64(cr_xco.bin)) ||
	      cr_jadd(root, "max_lag_bins", json_object_new_int(K)) ||
	      cr_jadd(root, "resamples", json_object_new_uint64(cr_xco.resamples)) ||
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
		      cr_jadd(o, "bins", json_object_new_uint64(cr_xc_nbins(xr[i].t0, xr[i].t1, cr_xco.bin))) ||
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
		      cr_jadd(o, "lag_ns", json_object_new_int64(k * (int64_t)cr_xco.bin)) ||
		      jaddn(o, "r", res->r[k + K]) ||
		      jaddn(o, "lo", res->lo[k + K]) ||
		      jaddn(o, "hi", res->hi[k + K]);
	}
	if (!bad && res->have_peak) {
		o = json_object_new_object();
		bad = cr_jadd(root, "peak", o) ||
		      cr_jadd(o, "lag_bins", json_object_new_int(res->peak)) ||
		      cr_jadd(o, "lag_ns", json_object_new_int64(res->peak * (int64_t)cr_xco.bin)) ||
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

/*
 * The runs selected by --run and --variant that have events, binned: each
 * run's events loaded for its binning and dropped after it, so that a
 * study's runs are held one at a time.
 */
static int take_runs(struct cr_snapshot *s, struct cr_xc_run *xr,
		     const struct cr_run **none, size_t *n)
{
	long run = cr_input_run();
	const char *variant = cr_xco.variant;
	struct cr_run *r;
	size_t i, nb, nsel = 0, nnone = 0;
	int st;

	*n = 0;
	for (i = 0; i < s->nruns; i++) {
		r = &s->runs[i];
		if ((run >= 0 && (size_t)run != i) ||
		    (variant && strcmp(variant, r->variant)))
			continue;
		nsel++;
		if (!r->events.present) {
			none[nnone++] = r;
			continue;
		}
		if (!r->events.n) {
			fprintf(stderr, "clkstat-report: xcorr: run %u (%s) has no events\n",
				r->index, r->variant);
			continue;
		}
		st = cr_run_events_load(s, r);
		if (st)
			return st;
		xr[*n].run = r;
		xr[*n].markers = cr_xc_window(&r->events, &xr[*n].t0,
					      &xr[*n].t1) == 1;
		nb = cr_xc_nbins(xr[*n].t0, xr[*n].t1, cr_xco.bin);
		if (nb > 100000000) {
			cr_run_events_drop(r);
			fprintf(stderr, "clkstat-report: xcorr: run %u: %zu bins: a wider --bin\n",
				r->index, nb);
			return CR_USAGE;
		}
		xr[*n].a = malloc(nb * sizeof(double));
		xr[*n].b = malloc(nb * sizeof(double));
		if (!xr[*n].a || !xr[*n].b) {
			cr_run_events_drop(r);
			free(xr[*n].a);
			free(xr[*n].b);
			fprintf(stderr, "clkstat-report: out of memory\n");
			return CR_ERR;
		}
		xr[*n].na = cr_xc_bin(&r->events, &cr_xco.a, xr[*n].t0,
				      cr_xco.bin, nb, xr[*n].a);
		xr[*n].nb = cr_xc_bin(&r->events, &cr_xco.b, xr[*n].t0,
				      cr_xco.bin, nb, xr[*n].b);
		cr_run_events_drop(r);
		(*n)++;
	}
	cr_input_say_no_events(s, none, nnone);
	if (run >= 0 && (size_t)run >= s->nruns) {
		fprintf(stderr, "clkstat-report: --run %ld: the input has %zu runs (0 to %zu)\n",
			run, s->nruns, s->nruns ? s->nruns - 1 : 0);
		return CR_USAGE;
	}
	if (!nsel) {
		fprintf(stderr, "clkstat-report: xcorr: no run of variant %s in the input\n",
			variant);
		return CR_USAGE;
	}
	if (!*n) {
		fprintf(stderr, "clkstat-report: xcorr: no selected run has events (record them with record --events N)\n");
		return CR_ERR;
	}
	return CR_OK;
}

static int cr_xcorr_cmd(struct cr_cli *cli)
{
	struct cr_snapshot s = { 0 };
	struct cr_xc_series *ser = NULL;
	struct cr_xc_result res = { 0 };
	struct cr_xc_params p = {
		.K = (unsigned int)(cr_xco.max_lag / cr_xco.bin),
		.block = cr_xco.block ? (size_t)((cr_xco.block + cr_xco.bin - 1) /
						 cr_xco.bin) : 0,
		.resamples = (unsigned int)cr_xco.resamples,
		.seed = cr_xco.seed,
		.level = 0.95,
	};
	struct cr_xc_run *xr = NULL;
	const struct cr_run **none = NULL;
	size_t n = 0, i;
	int st;

	st = cr_input_read(&s);
	if (st)
		return st;
	xr = calloc(s.nruns ? s.nruns : 1, sizeof(*xr));
	ser = calloc(s.nruns ? s.nruns : 1, sizeof(*ser));
	none = calloc(s.nruns ? s.nruns : 1, sizeof(*none));
	if (!xr || !ser || !none) {
		fprintf(stderr, "clkstat-report: out of memory\n");
		st = CR_ERR;
		goto out;
	}
	st = take_runs(&s, xr, none, &n);
	if (st)
		goto out;
	for (i = 0; i < n; i++)
		ser[i] = (struct cr_xc_series){
			.a = xr[i].a, .b = xr[i].b,
			.n = cr_xc_nbins(xr[i].t0, xr[i].t1, cr_xco.bin),
		};
	if (cr_xc_compute(ser, n, &p, &res)) {
		fprintf(stderr, "clkstat-report: out of memory\n");
		st = CR_ERR;
		goto out;
	}
	if (!strcmp(cli->format, "json"))
		st = print_json(xr, n, &res, cli->rest[0], cli->rest[1], p.seed);
	else
		print_text(xr, n, &res, cli->rest[0], cli->rest[1], p.seed);
out:
	cr_xc_result_free(&res);
	for (i = 0; i < n; i++) {
		free(xr[i].a);
		free(xr[i].b);
	}
	free(xr);
	free(ser);
	free(none);
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

// SPDX-License-Identifier: GPL-2.0
/*
 * xcorr_opts.c - the cross-correlation's options and selectors
 * (xcorr_opts.h), shared by xcorr and plot --kind xcorr so that both take
 * them alike and compute the same thing from them.
 */
#include <string.h>
#include "../lib/status.h"
#include "args.h"
#include "input.h"
#include "xcorr_opts.h"

enum { O_BIN = CR_OPT_XCORR, O_MAX_LAG, O_BLOCK, O_SEED, O_VARIANT };

#define CR_XC_MAX_CELLS	50000000	/* resamples x lags kept */

static struct cr_xcorr_settings cr_xco = {
	.bin = 1000000, .resamples = 2000, .seed = 1,
};

static int cr_xcorr_take_opt(int c, const char *v)
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
	cr_xco.bin_given |= c == O_BIN;
	return CR_OK;
}

static const struct option cr_xcorr_table[] = {
	{ "bin", required_argument, NULL, O_BIN },
	{ "max-lag", required_argument, NULL, O_MAX_LAG },
	{ "block", required_argument, NULL, O_BLOCK },
	{ "bootstrap", required_argument, NULL, 'B' },
	{ "variant", required_argument, NULL, O_VARIANT },
	{ "seed", required_argument, NULL, O_SEED },
	{ NULL, 0, NULL, 0 },
};

/* plot's --seed is --compare's: two options of one name cannot be. */
static const struct option cr_xcorr_plot_table[] = {
	{ "bin", required_argument, NULL, O_BIN },
	{ "max-lag", required_argument, NULL, O_MAX_LAG },
	{ "block", required_argument, NULL, O_BLOCK },
	{ "bootstrap", required_argument, NULL, 'B' },
	{ "variant", required_argument, NULL, O_VARIANT },
	{ NULL, 0, NULL, 0 },
};

const struct cr_optset cr_xcorr_opts = {
	.opts = cr_xcorr_table,
	.take = cr_xcorr_take_opt,
	.help =
	"      --bin DUR       bin width (default 1ms)\n"
	"      --max-lag DUR   lags up to this, each way (default 20 bins)\n"
	"      --block DUR     bootstrap block length (default per run:\n"
	"                      max(n^(1/3), lags + 1) bins)\n"
	"  -B, --bootstrap N   bootstrap resamples (default 2000)\n"
	"      --seed N        random seed (default 1)\n"
	"      --variant V     only the runs of variant V\n",
};

const struct cr_optset cr_xcorr_plot_opts = {
	.opts = cr_xcorr_plot_table,
	.take = cr_xcorr_take_opt,
	.help =
	"      --bin DUR       bin width (xcorr: default 1ms; heatmap: the time\n"
	"                      bins, default the run's window in about 120)\n"
	"      --max-lag DUR   xcorr: lags up to this, each way (default 20 bins)\n"
	"      --block DUR     xcorr: bootstrap block length (default: as xcorr)\n"
	"  -B, --bootstrap N   xcorr: bootstrap resamples (default 2000)\n"
	"      --variant V     xcorr, heatmap: only the runs of variant V\n",
};

const struct cr_xcorr_settings *cr_xcorr_settings(void)
{
	return &cr_xco;
}

int cr_xcorr_sels(const char *who, const char *a, const char *b)
{
	char err[256];

	if (cr_xc_sel_parse(a, &cr_xco.a, err, sizeof(err)) ||
	    cr_xc_sel_parse(b, &cr_xco.b, err, sizeof(err))) {
		fprintf(stderr, "clkstat-report: %s: %s\n", who, err);
		return CR_USAGE;
	}
	if (!cr_xco.max_lag)
		cr_xco.max_lag = 20 * cr_xco.bin;
	if (cr_xco.max_lag / cr_xco.bin > 100000) {
		fprintf(stderr, "clkstat-report: %s: --max-lag is at most 100000 bins\n",
			who);
		return CR_USAGE;
	}
	if ((2 * (cr_xco.max_lag / cr_xco.bin) + 1) * cr_xco.resamples >
	    CR_XC_MAX_CELLS) {
		fprintf(stderr, "clkstat-report: %s: lags x resamples above %d: fewer lags or resamples\n",
			who, CR_XC_MAX_CELLS);
		return CR_USAGE;
	}
	return CR_OK;
}

void cr_xcorr_params(struct cr_xc_params *p, unsigned long seed)
{
	*p = (struct cr_xc_params){
		.K = (unsigned int)(cr_xco.max_lag / cr_xco.bin),
		.block = cr_xco.block ? (size_t)((cr_xco.block + cr_xco.bin - 1) /
						 cr_xco.bin) : 0,
		.resamples = (unsigned int)cr_xco.resamples,
		.seed = seed,
		.level = 0.95,
	};
}

void cr_xcorr_take(struct cr_xc_take *t, const char *who)
{
	*t = (struct cr_xc_take){
		.who = who, .run = cr_input_run(), .variant = cr_xco.variant,
		.a = &cr_xco.a, .b = &cr_xco.b, .bin = cr_xco.bin,
		.say_no_events = cr_input_say_no_events,
	};
}

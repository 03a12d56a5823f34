// SPDX-License-Identifier: GPL-2.0
/*
 * report_compare.c - report --compare FACTOR (report_compare.h): the
 * bootstrap comparison of two groups of runs of --input snapshots; its
 * options and their checks.  The engine is tools/lib/ (compare.c,
 * bootstrap.c, compare_render.c).
 */
#define _GNU_SOURCE		/* open_memstream() */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "../lib/compare.h"
#include "../lib/file_replace.h"
#include "../lib/plot.h"
#include "../lib/status.h"
#include "args.h"
#include "report_compare.h"

enum { O_COMPARE = CR_OPT_COMPARE, O_BASE, O_UNIT, O_RESAMPLES, O_SEED,
	O_LEVEL, O_THRESHOLD, O_SUMMARY, O_HTML };

static struct cr_compare_opts cr_cmp = {
	.level = 0.95, .resamples = 10000, .seed = 1,
};
static const char *cr_cmp_html;	/* --html FILE */

static int cr_compare_take(int c, const char *v)
{
	unsigned long ul;
	char *end;

	switch (c) {
	case O_COMPARE:
		cr_cmp.variant = v;
		break;
	case O_BASE:
		cr_cmp.base = v;
		break;
	case O_UNIT:
		if (strcmp(v, "run") && strcmp(v, "sample") &&
		    strcmp(v, "host") && strcmp(v, "host-fixed")) {
			fprintf(stderr, "clkstat-report: --unit '%s': run, sample, host or host-fixed\n",
				v);
			return CR_USAGE;
		}
		cr_cmp.unit_sample = !strcmp(v, "sample");
		cr_cmp.host_fixed = !strcmp(v, "host-fixed");
		cr_cmp.unit_host = !strcmp(v, "host") || cr_cmp.host_fixed;
		break;
	case O_RESAMPLES:
		if (cr_parse_ulong("--resamples (100 to 1000000)", v, 100,
				   1000000, &ul))
			return CR_USAGE;
		cr_cmp.resamples = ul;
		break;
	case O_SEED:
		/* GSL's mt19937 keeps the low 32 bits, and 0 is 4357. */
		if (cr_parse_ulong("--seed (1 to 4294967295)", v, 1,
				   0xffffffffUL, &ul))
			return CR_USAGE;
		cr_cmp.seed = ul;
		break;
	case O_LEVEL:
		errno = 0;
		cr_cmp.level = strtod(v, &end);
		if (errno || *end || !*v ||
		    !(cr_cmp.level >= 0.5 && cr_cmp.level <= 0.999))
			return cr_bad_number("--level (0.5 to 0.999)", v);
		break;
	case O_SUMMARY:
		cr_cmp.summary_only = 1;
		break;
	case O_HTML:
		cr_cmp_html = v;
		break;
	default: /* O_THRESHOLD */
		if (cr_parse_ulong("--threshold (ns)", v, 0, ULONG_MAX, &ul))
			return CR_USAGE;
		cr_cmp.threshold = ul;
		cr_cmp.have_threshold = 1;
		break;
	}
	return CR_OK;
}

static const struct option cr_compare_table[] = {
	{ "compare", required_argument, NULL, O_COMPARE },
	{ "base", required_argument, NULL, O_BASE },
	{ "unit", required_argument, NULL, O_UNIT },
	{ "resamples", required_argument, NULL, O_RESAMPLES },
	{ "seed", required_argument, NULL, O_SEED },
	{ "level", required_argument, NULL, O_LEVEL },
	{ "threshold", required_argument, NULL, O_THRESHOLD },
	{ NULL, 0, NULL, 0 },
};

/* What report prints of a comparison, not which (plot has no use for it). */
static const struct option cr_compare_text_table[] = {
	{ "summary", no_argument, NULL, O_SUMMARY },
	{ "html", required_argument, NULL, O_HTML },
	{ NULL, 0, NULL, 0 },
};

const struct cr_optset cr_compare_opts = {
	.opts = cr_compare_table,
	.take = cr_compare_take,
	.help =
	"      --compare F     bootstrap comparison of F against the base: a variant\n"
	"                      (V or variant:V), tag:KEY=VALUE, meta:FIELD=VALUE,\n"
	"                      or migrated (against local, on the same runs)\n"
	"      --base F        the base (default: the one other value)\n"
	"      --unit U        resample runs (run, default), samples,\n"
	"                      hosts then runs within each (host), or runs within\n"
	"                      each host, the hosts kept (host-fixed)\n"
	"      --resamples N   bootstrap resamples (default 10000)\n"
	"      --seed N        random seed (default 1)\n"
	"      --level L       confidence level (default 0.95)\n"
	"      --threshold NS  risk threshold (default: the base's p90)\n",
};

const struct cr_optset cr_compare_text_opts = {
	.opts = cr_compare_text_table,
	.take = cr_compare_take,
	.help =
	"      --summary       --compare, text: the one line per metric alone,\n"
	"                      not each metric's statistics after it\n"
	"      --html FILE     --compare: also one page, FILE: the metadata, the\n"
	"                      text and the figures (plot's), readable offline\n",
};

const struct cr_compare_opts *cr_compare_settings(void)
{
	return &cr_cmp;
}

int cr_compare_wanted(void)
{
	return cr_cmp.variant != NULL;
}

/* "tag:KEY" of --compare tag:KEY=V, "meta:FIELD" of meta:FIELD=V. */
const char *cr_compare_factor_field(void)
{
	static char f[96];
	const char *v = cr_cmp.variant, *eq;

	if (!v || (strncmp(v, "tag:", 4) && strncmp(v, "meta:", 5)))
		return NULL;
	eq = strchr(v, '=');
	snprintf(f, sizeof(f), "%.*s", eq ? (int)(eq - v) : (int)strlen(v), v);
	return f;
}

/* --html FILE: a name that says HTML, refused before any work. */
static int cr_html_name_bad(const char *path)
{
	const char *dot = strrchr(path, '.');

	if (dot && (!strcmp(dot, ".html") || !strcmp(dot, ".htm")))
		return 0;
	fprintf(stderr, "clkstat-report: --html %s: the page's name must end in .html\n",
		path);
	return 1;
}

int cr_compare_check(const struct cr_cli *cli, int ninputs, long run)
{
	if (!cr_cmp.variant)
		return CR_OK;
	if (!ninputs) {
		fprintf(stderr, "clkstat-report: --compare works on the runs of --input snapshots (clkstat-report record writes them)\n");
		return CR_USAGE;
	}
	if (run >= 0) {
		fprintf(stderr, "clkstat-report: --compare resamples every run: --run does not apply\n");
		return CR_USAGE;
	}
	if (cr_cmp_html && strcmp(cli->format, "text")) {
		fprintf(stderr, "clkstat-report: --compare --html: the page holds the text output; --format %s does not apply\n",
			cli->format);
		return CR_USAGE;
	}
	if (cr_cmp_html && cr_html_name_bad(cr_cmp_html))
		return CR_USAGE;
	if (strcmp(cli->format, "openmetrics") == 0) {
		fprintf(stderr, "clkstat-report: --compare: text, json or csv\n");
		return CR_USAGE;
	}
	return CR_OK;
}

/* The metric the page's one-metric figures draw: the headline if there. */
static size_t cr_html_metric(const struct cr_compare_data *d)
{
	size_t i;

	for (i = 0; i < d->res.nmetrics; i++)
		if (!strcmp(d->res.metrics[i].name, "ttwu_tkread"))
			return i;
	return 0;
}

/*
 * The text as always, and the page with it: the same text in the page
 * (written once into memory, then to both), the file replaced whole.
 */
static int cr_compare_html(struct cr_snapshot *s)
{
	struct cr_compare_data d;
	struct cr_plot_opts po;
	char *text = NULL, *page = NULL;
	size_t tlen = 0, plen = 0;
	const char *step;
	FILE *t;
	int st;

	st = cr_compare_collect(s, &cr_cmp, &d);
	if (st)
		return st;
	t = open_memstream(&text, &tlen);
	if (!t || cr_compare_text(t, &d.res) || fclose(t)) {
		fprintf(stderr, "clkstat-report: out of memory\n");
		st = CR_ERR;
		goto out;
	}
	po = (struct cr_plot_opts){
		.unit = CR_UNIT_AUTO, .resamples = cr_cmp.resamples,
		.seed = cr_cmp.seed, .level = cr_cmp.level,
	};
	st = cr_plot_page(s, &d, cr_html_metric(&d), &cr_cmp, &po, text, &page,
			  &plen);
	if (st)
		goto out;
	if (cr_file_replace(cr_cmp_html, page, plen, &step) < 0) {
		fprintf(stderr, "clkstat-report: --html %s: %s: %s\n", cr_cmp_html,
			step, errno == EINVAL ? "not a regular file" :
			strerror(errno));
		st = CR_ERR;
		goto out;
	}
	fputs(text, stdout);
	if (fflush(stdout) || ferror(stdout))
		st = CR_ERR;
out:
	free(text);
	free(page);
	cr_compare_data_free(&d);
	return st;
}

int cr_compare_run(const struct cr_cli *cli, struct cr_snapshot *s,
		   const char *metric)
{
	cr_cmp.format = cli->format;
	cr_cmp.metric = metric;
	if (cr_cmp_html)
		return cr_compare_html(s);
	return cr_compare(stdout, s, &cr_cmp);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * args.c - what every subcommand's options share (args.h): strict
 * numbers and the output format.
 */
#include <errno.h>
#include <stdlib.h>
#include "../lib/status.h"
#include "args.h"

enum { O_JSON = CR_OPT_FORMAT, O_CSV, O_FORMAT };

static const char *cr_format_given = "text";
static int cr_format_was_given;

int cr_bad_number(const char *opt, const char *v)
{
	fprintf(stderr, "clkstat-report: %s '%s': not a valid number\n", opt, v);
	return CR_USAGE;
}

int cr_parse_ulong(const char *what, const char *v, unsigned long lo,
		   unsigned long hi, unsigned long *out)
{
	unsigned long ul;
	char *end;

	errno = 0;
	ul = strtoul(v, &end, 10);
	if (errno || *end || !*v || *v == '-' || ul < lo || ul > hi)
		return cr_bad_number(what, v);
	*out = ul;
	return CR_OK;
}

static int cr_format_take(int c, const char *v)
{
	cr_format_given = c == O_JSON ? "json" : c == O_CSV ? "csv" : v;
	cr_format_was_given = 1;
	return CR_OK;
}

static const struct option cr_format_table[] = {
	{ "json", no_argument, NULL, O_JSON },
	{ "csv", no_argument, NULL, O_CSV },
	{ "format", required_argument, NULL, O_FORMAT },
	{ NULL, 0, NULL, 0 },
};

const struct cr_optset cr_format_opts = {
	.opts = cr_format_table,
	.take = cr_format_take,
	.help =
	"      --json, --csv   as JSON or CSV (--format json, --format csv)\n"
	"      --format FMT    the output format (the usage above says which)\n",
};

const char *cr_format(void)
{
	return cr_format_given;
}

int cr_format_set(void)
{
	return cr_format_was_given;
}

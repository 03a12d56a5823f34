// SPDX-License-Identifier: GPL-2.0
/*
 * input.c - where the reading commands read from (input.h): the live
 * module, or --input snapshot files read one after the other, and --run.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "../lib/snapshot.h"
#include "../lib/status.h"
#include "args.h"
#include "input.h"

#define CR_MAX_INPUTS	64

enum { O_RUN = CR_OPT_INPUT };

static struct {
	const char *inputs[CR_MAX_INPUTS];
	unsigned int ninputs;
	long run;			/* -1: pool every run */
} cr_in = { .run = -1 };

/* -i, --run: where from. */
static int cr_input_take(int c, const char *v)
{
	char *end;

	if (c == 'i') {
		if (cr_in.ninputs == CR_MAX_INPUTS) {
			fprintf(stderr, "clkstat-report: at most %d --input files\n",
				CR_MAX_INPUTS);
			return CR_USAGE;
		}
		cr_in.inputs[cr_in.ninputs++] = v;
		return CR_OK;
	}
	errno = 0;
	cr_in.run = strtol(v, &end, 10);
	if (errno || *end || !*v || cr_in.run < 0)
		return cr_bad_number("--run", v);
	return CR_OK;
}

static const struct option cr_input_table[] = {
	{ "input", required_argument, NULL, 'i' },
	{ "run", required_argument, NULL, O_RUN },
	{ NULL, 0, NULL, 0 },
};

const struct cr_optset cr_input_opts = {
	.opts = cr_input_table,
	.take = cr_input_take,
	.help =
	"  -i, --input FILE    read a snapshot or a study, not the module (repeatable)\n"
	"      --run N         with --input: only run N (0-based), not every run pooled\n",
};

unsigned int cr_input_count(void)
{
	return cr_in.ninputs;
}

long cr_input_run(void)
{
	return cr_in.run;
}

const char *cr_input_first(void)
{
	return cr_in.ninputs ? cr_in.inputs[0] : NULL;
}

int cr_input_check(void)
{
	if (cr_in.run >= 0 && !cr_in.ninputs) {
		fprintf(stderr, "clkstat-report: --run selects a run of an --input snapshot\n");
		return CR_USAGE;
	}
	return CR_OK;
}

/*
 * Every --input file's runs, one after the other, into s; a run given
 * twice refused (cr_snapshot_merge()).
 */
int cr_input_read(struct cr_snapshot *s)
{
	struct cr_snapshot one;
	unsigned int i;
	int st;

	for (i = 0; i < cr_in.ninputs; i++) {
		st = cr_snapshot_read(cr_in.inputs[i], &one);
		if (!st) {
			st = cr_snapshot_merge(s, &one, !strcmp(cr_in.inputs[i], "-") ?
					       "stdin" : cr_in.inputs[i]);
			cr_snapshot_free(&one);
		}
		if (st) {
			cr_snapshot_free(s);
			return st;
		}
	}
	return CR_OK;
}

void cr_input_say_no_events(const struct cr_snapshot *s,
			    const struct cr_run *const *runs, size_t n)
{
	size_t i;

	if (!n)
		return;
	fprintf(stderr, "clkstat-report: run%s ", n > 1 ? "s" : "");
	for (i = 0; i < n; i++) {
		fprintf(stderr, "%s%u (%s)", i ? ", " : "", runs[i]->index,
			runs[i]->variant);
		if (s->ninputs > 1)
			fprintf(stderr, " of %s", s->inputs[runs[i]->input].path);
	}
	fprintf(stderr, " %s recorded without --events\n",
		n > 1 ? "were" : "was");
}

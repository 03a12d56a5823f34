// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_ctrl.c - clkstat-report ctrl start|stop|reset [METRIC] | tgid N |
 * variant NAME | trace|untrace SPEC: one control operation on the live
 * module over netlink (cr_nl_ctrl(), the words are the catalog's).  No
 * options of its own.
 */
#include "../lib/nl.h"
#include "cli.h"

static int cr_ctrl_cmd(struct cr_cli *cli)
{
	struct cr_nl *nl;
	int st;

	nl = cr_nl_open(&st);
	if (!nl)
		return st;
	st = cr_nl_ctrl(nl, cli->rest[0], cli->nrest > 1 ? cli->rest[1] : NULL);
	cr_nl_close(nl);
	return st;
}

static const struct cr_optset *const cr_ctrl_opts[] = { NULL };

const struct cr_command cr_cmd_ctrl = {
	.name = "ctrl",
	.summary = "start, stop, reset, tgid, variant, trace, untrace (live only)",
	.synopsis =
	"       clkstat-report ctrl start|stop|reset [METRIC] | tgid N | variant NAME |\n"
	"                           trace|untrace SPEC\n",
	.opts = cr_ctrl_opts,
	.min_args = 1, .max_args = 2,
	.run = cr_ctrl_cmd,
};

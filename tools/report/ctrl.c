// SPDX-License-Identifier: GPL-2.0
/*
 * ctrl.c - clkstat-report ctrl start|stop|reset [METRIC] | tgid N |
 * variant NAME | trace|untrace SPEC: one control operation on the live
 * module over netlink (cr_nl_ctrl(), the words are the catalog's).  No
 * options of its own.
 */
#include "../lib/nl.h"
#include "cli.h"

const char cr_ctrl_synopsis[] =
	"       clkstat-report ctrl start|stop|reset [METRIC] | tgid N | variant NAME |\n"
	"                           trace|untrace SPEC\n";

int cr_ctrl_cmd(struct cr_cli *cli)
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

// SPDX-License-Identifier: GPL-2.0
/*
 * clkstat-report - read the clkstat module over generic netlink.
 *
 *   clkstat-report info                   module, parameters, state
 *   clkstat-report raw                    every histogram, slot by slot
 *   clkstat-report ctrl start|stop|reset [METRIC]
 *   clkstat-report ctrl tgid N | variant NAME
 *
 * The statistics, --json/--csv/--format openmetrics, record and --input
 * come with issue 4's later parts.  Exit statuses: nl.h.
 */
#include <stdio.h>
#include <string.h>
#include "nl.h"

static int usage(void)
{
	fprintf(stderr,
		"usage: clkstat-report info\n"
		"       clkstat-report raw\n"
		"       clkstat-report ctrl start|stop|reset [METRIC]\n"
		"       clkstat-report ctrl tgid N | variant NAME\n");
	return CR_USAGE;
}

int main(int argc, char **argv)
{
	struct cr_nl *nl;
	int st;

	if (argc < 2)
		return usage();
	if (strcmp(argv[1], "info") && strcmp(argv[1], "raw") &&
	    strcmp(argv[1], "ctrl"))
		return usage();
	if ((!strcmp(argv[1], "ctrl") && (argc < 3 || argc > 4)) ||
	    (strcmp(argv[1], "ctrl") && argc != 2))
		return usage();
	nl = cr_nl_open(&st);
	if (!nl)
		return st;
	if (!strcmp(argv[1], "info"))
		st = cr_nl_info(nl, stdout);
	else if (!strcmp(argv[1], "raw"))
		st = cr_nl_raw(nl, stdout);
	else
		st = cr_nl_ctrl(nl, argv[2], argc == 4 ? argv[3] : NULL);
	cr_nl_close(nl);
	if (fflush(stdout) && !st) {
		perror("clkstat-report: stdout");
		st = CR_ERR;
	}
	return st;
}

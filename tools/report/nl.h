/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nl.h - clkstat-report's side of the "clkstat" generic netlink family
 * (kmod/uapi/clkstat_netlink.h), through libnl-genl-3.
 */
#ifndef CLKSTAT_REPORT_NL_H
#define CLKSTAT_REPORT_NL_H

#include <stdint.h>
#include <stdio.h>

/* Exit statuses, one per kind of failure. */
enum {
	CR_OK = 0,
	CR_ERR = 1,		/* anything else */
	CR_USAGE = 2,
	CR_NOT_LOADED = 3,	/* no clkstat family: module not loaded */
	CR_PERM = 4,		/* the kernel said EPERM */
	CR_ABI = 5,		/* another CLKSTAT_GENL_VERSION */
};

struct cr_nl;

/* Connect and resolve the family; on failure print one line, return NULL. */
struct cr_nl *cr_nl_open(int *status);
void cr_nl_close(struct cr_nl *nl);

/* GET_INFO, printed as "key value" lines.  Return: an exit status. */
int cr_nl_info(struct cr_nl *nl, FILE *out);

/*
 * GET_HIST dump, printed raw: per message "metric NAME.VARIANT cpu C|all"
 * and for a CPU's first message "min N max N" and "counter NAME N", then
 * "slot S count N sum N" lines.  Return: an exit status.
 */
int cr_nl_raw(struct cr_nl *nl, FILE *out);

/*
 * CTRL.  op: start, stop, reset (arg: metric or NULL), tgid (arg: number),
 * variant (arg: name).  Return: an exit status.
 */
int cr_nl_ctrl(struct cr_nl *nl, const char *op, const char *arg);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * status.h - clkstat-report's exit statuses, one per kind of failure, so
 * that scripts can tell them apart (documented in clkstat-report(1)).
 */
#ifndef CLKSTAT_REPORT_STATUS_H
#define CLKSTAT_REPORT_STATUS_H

enum {
	CR_OK = 0,
	CR_ERR = 1,		/* anything else */
	CR_USAGE = 2,
	CR_NOT_LOADED = 3,	/* no clkstat family: module not loaded */
	CR_PERM = 4,		/* the kernel said EPERM */
	CR_ABI = 5,		/* another CLKSTAT_GENL_VERSION */
	CR_NO_FILE = 6,		/* a snapshot file cannot be opened/read */
	CR_CORRUPT = 7,		/* truncated, not JSON, wrong types, absurd */
	CR_FORMAT = 8,		/* a snapshot format version we do not know */
	CR_WORKLOAD = 9,	/* record: the workload command failed */
};

#endif

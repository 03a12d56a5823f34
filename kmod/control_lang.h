/* SPDX-License-Identifier: GPL-2.0 */
/*
 * control_lang.h - the control language shared by debugfs (and later netlink):
 *
 *   start [METRIC]   record (all metrics, or one)
 *   stop [METRIC]    stop recording
 *   reset [METRIC]   zero slots, min, max and counters
 *   tgid N           record only tasks of thread group N (0: every task);
 *                    N is decimal digits, 0..CLKSTAT_TGID_MAX (4194304)
 *   variant NAME     feed the probes through another hook variant
 *                    (carried out by probes.c, not clkstat_control_exec():
 *                    control_run.c dispatches)
 *   trace SPEC       add a user-defined probe (shared/clkstat_trace.h; a
 *                    bare function name F means func:F), carried out by
 *                    probes.c too
 *   untrace SPEC     remove one
 *
 * Words are separated by white space (space, \t, \n, \v, \f, \r), which
 * may also surround the command.  One write() is one command: a NUL byte
 * in it, or more than CLKSTAT_CONTROL_MAX bytes, makes it invalid.
 */
#ifndef _CLKSTAT_CONTROL_LANG_H
#define _CLKSTAT_CONTROL_LANG_H

#include <linux/sched.h>
#include <linux/types.h>
#include "hist.h"
#include "uapi/clkstat_netlink_ext.h"

/* Longest control command accepted, newline included. */
#define CLKSTAT_CONTROL_MAX	160

/* A command: its operation is netlink's, CLKSTAT_CTRL_* (the catalog's). */
struct clkstat_cmd {
	enum clkstat_nl_ctrl_op op;
	char metric[CLKSTAT_ID_MAX];	/* empty: every metric */
	pid_t tgid;
	char variant[CLKSTAT_VARIANT_MAX];
	char trace[CLKSTAT_TRACE_ARG_MAX + 1];	/* a spec, as given */
	const char *why;	/* why it was refused, a static string */
};

int clkstat_control_parse(const char *buf, struct clkstat_cmd *cmd);
int clkstat_control_parse_write(const char *buf, size_t len,
				struct clkstat_cmd *cmd);
int clkstat_control_exec(struct clkstat_cmd *cmd, const char *attached);

/* The tgid filter, read locklessly by the probes. */
extern pid_t clkstat_filter_tgid;

static inline bool clkstat_task_selected(const struct task_struct *p)
{
	pid_t want = READ_ONCE(clkstat_filter_tgid);

	return !want || p->tgid == want;
}

#endif /* _CLKSTAT_CONTROL_LANG_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * probe_marker.c - handshake points from userspace: a write to debugfs
 * "marker" logs a marker event (writer's pid, CPU, time and the first
 * bytes of the text) in the event log, so that a workload can mark its
 * phases and line them up with kernel events, as people do with ftrace's
 * trace_marker.  It hooks nothing, and needs the event log (events=N).
 */
#include <linux/ctype.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include "evlog.h"
#include "probe_marker.h"
#include "probes.h"

#define CLKSTAT_MARKER_MAX	4096	/* longest write accepted, as ftrace */

static bool clkstat_marker_on;

/**
 * clkstat_marker_active() - is the marker probe enabled?
 *
 * Return: true if debugfs should offer the marker file.
 */
bool clkstat_marker_active(void)
{
	return clkstat_marker_on;
}

/**
 * clkstat_marker_write() - log a marker from a user buffer
 * @ubuf: the text
 * @len: its length, at most CLKSTAT_MARKER_MAX
 *
 * Keeps the first CLKSTAT_EVENT_TEXT - 1 bytes up to a newline, with every
 * byte that is not a letter, digit or one of "._:-=+/" turned into '_', so
 * that the event log's line keeps one field per column.
 *
 * Return: @len, or -EINVAL for an empty or too long text, or -EFAULT.
 */
ssize_t clkstat_marker_write(const char __user *ubuf, size_t len)
{
	char text[CLKSTAT_EVENT_TEXT];
	struct clkstat_event_rec ev;
	size_t n, i;

	if (!len || len > CLKSTAT_MARKER_MAX)
		return -EINVAL;
	n = min(len, sizeof(text) - 1);
	if (copy_from_user(text, ubuf, n))
		return -EFAULT;
	text[n] = '\0';
	for (i = 0; i < n; i++) {
		if (text[i] == '\n') {
			text[i] = '\0';
			break;
		}
		if (!isalnum(text[i]) && !strchr("._:-=+/", text[i]))
			text[i] = '_';
	}
	if (!text[0])
		return -EINVAL;
	ev = (struct clkstat_event_rec){
		.type = CLKSTAT_EV_MARKER, .ts = clkstat_now(),
		.pid = task_pid_nr(current),
	};
	clkstat_evlog_add(&ev, text);
	return len;
}

static void marker_exit(void)
{
	clkstat_marker_on = false;
}

static int marker_bind(const char *variant,
		       const struct clkstat_handover *h)
{
	return 0;
}

static int marker_init(const struct clkstat_probe_cfg *cfg)
{
	if (!clkstat_evlog_on()) {
		pr_err("clkstat: probe marker writes to the event log: load with events=N (N > 0)\n");
		return -EINVAL;
	}
	clkstat_marker_on = true;
	return 0;
}

struct clkstat_probe clkstat_probe_marker = {
	.name = "marker",
	.init = marker_init,
	.bind = marker_bind,
	.exit = marker_exit,
};

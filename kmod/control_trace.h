/* SPDX-License-Identifier: GPL-2.0 */
/*
 * control_trace.h - the clkstat:clkstat_control trace event: a start,
 * stop, reset or tgid command carried out (control_run.c), whichever way it
 * came (debugfs, netlink, the module's own).  It marks the module's
 * recording window for anyone tracing (perf, ftrace, BPF), and the BPF
 * twin follows it (tools/bpf/twin.bpf.c, tw_control: a raw tracepoint on
 * a module's trace event needs no BTF), so that a twin run opens and
 * closes where a module run does.  op is a CLKSTAT_CTRL_* value of
 * uapi/clkstat_netlink_ext.h; metric the one named, "" for every metric.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM clkstat

#if !defined(_CLKSTAT_CONTROL_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _CLKSTAT_CONTROL_TRACE_H

#include <linux/string.h>
#include <linux/tracepoint.h>
#include "hist.h"
#include "uapi/clkstat_netlink_ext.h"

/* The ops' names in the format file, for perf and trace-cmd. */
TRACE_DEFINE_ENUM(CLKSTAT_CTRL_START);
TRACE_DEFINE_ENUM(CLKSTAT_CTRL_STOP);
TRACE_DEFINE_ENUM(CLKSTAT_CTRL_RESET);
TRACE_DEFINE_ENUM(CLKSTAT_CTRL_TGID);

TRACE_EVENT(clkstat_control,
	TP_PROTO(unsigned int op, int tgid, const char *metric),
	TP_ARGS(op, tgid, metric),
	TP_STRUCT__entry(
		__field(unsigned int, op)
		__field(int, tgid)
		__array(char, metric, CLKSTAT_ID_MAX)
	),
	TP_fast_assign(
		__entry->op = op;
		__entry->tgid = tgid;
		strscpy(__entry->metric, metric, CLKSTAT_ID_MAX);
	),
	TP_printk("op=%s tgid=%d metric=%s",
		  __print_symbolic(__entry->op,
				   { CLKSTAT_CTRL_START, "start" },
				   { CLKSTAT_CTRL_STOP, "stop" },
				   { CLKSTAT_CTRL_RESET, "reset" },
				   { CLKSTAT_CTRL_TGID, "tgid" }),
		  __entry->tgid, __entry->metric)
);

#endif /* _CLKSTAT_CONTROL_TRACE_H */

/* An out-of-tree module: the header is found through -I$(src). */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE control_trace
#include <trace/define_trace.h>

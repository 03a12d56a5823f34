/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench_hooks_trace.h - the tracepoint inside clkstat_hookbench.ko's
 * target function.  A raw tracepoint without a trace event (as sched's
 * pelt_* ones): processed through define_trace.h with CREATE_TRACE_POINTS
 * so that the module also carries its BPF raw-tracepoint map entry and
 * the btf_trace_clkstat_bench_hit_tp type, which BPF tp_btf programs need
 * to attach to it.  A bare DECLARE_TRACE/DEFINE_TRACE has neither.  Named
 * clkstat_bench_hit_tp on every kernel (CLKSTAT_DECLARE_TRACE_TP,
 * compat.h), as 6.16's DECLARE_TRACE names it.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM clkstat_hookbench

#if !defined(_CLKSTAT_BENCH_HOOKS_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _CLKSTAT_BENCH_HOOKS_TRACE_H

#include <linux/tracepoint.h>
#include "compat.h"

CLKSTAT_DECLARE_TRACE_TP(clkstat_bench_hit,
	TP_PROTO(unsigned long a0),
	TP_ARGS(a0));

#endif /* _CLKSTAT_BENCH_HOOKS_TRACE_H */

/* An out-of-tree module: the header is found through -I$(src). */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE bench_hooks_trace
#include <trace/define_trace.h>

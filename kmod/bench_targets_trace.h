/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench_targets_trace.h - the tracepoint pair of clkstat_hookbench.ko's
 * test targets (bench_targets.c): clkstat_tt_a_tp, then clkstat_tt_b_tp
 * on the same task, for sections between two tracepoints (tp:X-Y).  Raw
 * tracepoints made as bench_hooks_trace.h makes its own (define_trace.h
 * with CREATE_TRACE_POINTS: the BPF raw-tracepoint map entries and the
 * btf_trace_* types come with them), named with _tp on every kernel
 * (CLKSTAT_DECLARE_TRACE_TP, compat.h).  The argument is the iteration's
 * number, the same in a pair.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM clkstat_hookbench

#if !defined(_CLKSTAT_BENCH_TARGETS_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _CLKSTAT_BENCH_TARGETS_TRACE_H

#include <linux/tracepoint.h>
#include "compat.h"

CLKSTAT_DECLARE_TRACE_TP(clkstat_tt_a,
	TP_PROTO(unsigned long seq),
	TP_ARGS(seq));

CLKSTAT_DECLARE_TRACE_TP(clkstat_tt_b,
	TP_PROTO(unsigned long seq),
	TP_ARGS(seq));

#endif /* _CLKSTAT_BENCH_TARGETS_TRACE_H */

/* An out-of-tree module: the header is found through -I$(src). */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE bench_targets_trace
#include <trace/define_trace.h>

/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * clkstat_catalog.h - what clkstat measures, written once for the module,
 * the BPF twin and the tools: the hook variants, the metrics, each
 * metric's counters and the functions probe tkread hooks.
 *
 * Each list is an X-macro: a user defines X(...) and expands the list,
 * for an enum, a table of names or a table of programs.  Adding a counter
 * is one line here; the enums and name tables below follow, and so do
 * the module's metrics (kmod/probe_*.c), the BPF twin's maps and names
 * (tools/bpf/) and the tools that print them.  No includes: the BPF
 * programs include it too.
 */
#ifndef _UAPI_CLKSTAT_CATALOG_H
#define _UAPI_CLKSTAT_CATALOG_H

/*
 * Limits every side keeps to: a metric's name and a variant's name, with
 * their NUL, and the counters one metric can have.
 */
#define CLKSTAT_NAME_MAX	64
#define CLKSTAT_VARIANT_MAX	16
#define CLKSTAT_MAX_COUNTERS	8

/*
 * The variants, each a name and a list entry X(ID): clkstat.ko's that hook
 * (CLKSTAT_HOOK_VARIANTS), all of clkstat.ko's in the order the module
 * lists them (CLKSTAT_VARIANTS: the control file, variant= in modinfo),
 * and the BPF twin's (CLKSTAT_TWIN_VARIANTS).  CLKSTAT_VNAME(ID) is the
 * name, a string constant, for static initializers.
 */
#define CLKSTAT_VNAME_DIRECT		"direct"
#define CLKSTAT_VNAME_FTRACE		"ftrace"
#define CLKSTAT_VNAME_KPROBE		"kprobe"
#define CLKSTAT_VNAME_KPROBE_INT3	"kprobe-int3"
#define CLKSTAT_VNAME_TRACEPOINT	"tracepoint"
#define CLKSTAT_VNAME_OFF		"off"
#define CLKSTAT_VNAME_BPF_KPROBE	"bpf-kprobe"
#define CLKSTAT_VNAME_BPF_FENTRY	"bpf-fentry"
#define CLKSTAT_VNAME_BPF_TP		"bpf-tp"
#define CLKSTAT_VNAME(id)		CLKSTAT_VNAME_##id

#define CLKSTAT_HOOK_VARIANTS(X)					\
	X(DIRECT)							\
	X(FTRACE)							\
	X(KPROBE)							\
	X(KPROBE_INT3)							\
	X(TRACEPOINT)

#define CLKSTAT_VARIANTS(X)						\
	CLKSTAT_HOOK_VARIANTS(X)					\
	X(OFF)

#define CLKSTAT_TWIN_VARIANTS(X)					\
	X(BPF_KPROBE)							\
	X(BPF_FENTRY)							\
	X(BPF_TP)

/*
 * The metrics, X(ID, name, probe): each is one histogram per variant,
 * named NAME.VARIANT in debugfs and over netlink.  probe is what
 * probes= enables to create it.
 */
#define CLKSTAT_METRICS(X)						\
	X(TTWU_ENQUEUE, ttwu_enqueue, ttwu)				\
	X(TTWU_ENQUEUE_MIGRATED, ttwu_enqueue_migrated, ttwu)		\
	X(TTWU_ENQUEUE_LOCAL, ttwu_enqueue_local, ttwu)			\
	X(TKREAD, tkread, tkread)					\
	X(TTWU_TKREAD, ttwu_tkread, tkread)				\
	X(TTWU_TKREAD_MIGRATED, ttwu_tkread_migrated, tkread)		\
	X(TTWU_TKREAD_LOCAL, ttwu_tkread_local, tkread)			\
	X(ENQUEUE_TKREAD, enqueue_tkread, tkread)			\
	X(TTWU_TKREAD_RQCLOCK, ttwu_tkread_rqclock, tkread)		\
	X(TTWU_TKREAD_RQCLOCK_MIGRATED, ttwu_tkread_rqclock_migrated, tkread) \
	X(TTWU_TKREAD_RQCLOCK_LOCAL, ttwu_tkread_rqclock_local, tkread)	\
	X(CSREAD_HPET, csread_hpet, csread)				\
	X(CSREAD_ACPI_PM, csread_acpi_pm, csread)			\
	X(CSSWITCH, csswitch, csswitch)					\
	X(CSSWITCH_FIRST_READ, csswitch_first_read, csswitch)		\
	X(CLOCKOFF, clockoff, clockoff)					\
	X(CLOCKOFF_NEG, clockoff_neg, clockoff)

/*
 * The totals of parts, X(total, part, part): the module records a sample
 * once, into its part, and a reader of the total gets the parts added up;
 * the three start, stop and reset as one family (kmod/hist.h,
 * Documentation/clkstat.rst).  Names as in CLKSTAT_METRICS.
 */
#define CLKSTAT_METRIC_FAMILIES(X)					\
	X(ttwu_enqueue, ttwu_enqueue_migrated, ttwu_enqueue_local)	\
	X(ttwu_tkread, ttwu_tkread_migrated, ttwu_tkread_local)		\
	X(ttwu_tkread_rqclock, ttwu_tkread_rqclock_migrated,		\
	  ttwu_tkread_rqclock_local)

/*
 * What the probes hook besides tkread's functions (CLKSTAT_TK_FUNCS):
 * functions, and the tracepoints the tracepoint variant and bpf-tp use in
 * their place.  Where ttwu ends a wakeup depends on the kernel line:
 * clkstat_wakeup.h.
 */
#define CLKSTAT_FUNC_TTWU		"try_to_wake_up"
#define CLKSTAT_TP_TTWU			"sched_waking"
#define CLKSTAT_TP_ENQUEUE		"sched_wakeup"
#define CLKSTAT_FUNC_CSSWITCH		"timekeeping_notify"
#define CLKSTAT_FUNC_CSREAD_HPET	"read_hpet"
#define CLKSTAT_FUNC_CSREAD_ACPI_PM	"acpi_pm_read"

/*
 * Counters of ttwu_enqueue, X(ID, name), in the order of the metric's
 * counter array (their meaning: kmod/probe_ttwu.c).
 */
#define CLKSTAT_TTWU_COUNTERS(X)					\
	X(WAKEUPS, wakeups)						\
	X(MIGRATED, migrated)						\
	X(UNMATCHED, unmatched)						\
	X(REPLACED, replaced)						\
	X(EVICTED, evicted)						\
	X(BUSY, busy)							\
	X(SWITCH_LOST, switch_lost)

/* Counters of ttwu_tkread (kmod/probe_tkread.c). */
#define CLKSTAT_TKW_COUNTERS(X)						\
	X(MIGRATED, migrated)						\
	X(NO_ENQUEUE, no_enqueue)					\
	X(STALE, stale)							\
	X(REPLACED, replaced)						\
	X(EVICTED, evicted)						\
	X(BUSY, busy)							\
	X(SWITCH_LOST, switch_lost)

/*
 * The functions probe tkread hooks, X(ID, function): tkread has one
 * counter per function, named after it, in this order.
 */
#define CLKSTAT_TK_FUNCS(X)						\
	X(CLOCK_GETTIME, __x64_sys_clock_gettime)			\
	X(KTIME_GET, ktime_get)						\
	X(WITH_OFFSET, ktime_get_with_offset)				\
	X(RAW, ktime_get_raw)						\
	X(TS64, ktime_get_ts64)						\
	X(REAL_TS64, ktime_get_real_ts64)				\
	X(RAW_TS64, ktime_get_raw_ts64)

/* Counters of csswitch (kmod/probe_clocksource.c). */
#define CLKSTAT_CSW_COUNTERS(X)						\
	X(SWITCHES, switches)						\
	X(FAILED, failed)

/*
 * The control operations, X(ID, word): the words of the control file
 * (kmod/control_lang.h) and netlink's CLKSTAT_CTRL_ID (clkstat_netlink.h,
 * generated from the spec's ctrl-op, whose values they are: append
 * only, here and in the spec).  start, stop and reset take an
 * optional metric (CLKSTAT_A_METRIC_ID), tgid a number (CLKSTAT_A_TGID,
 * at most CLKSTAT_TGID_MAX), variant a name (CLKSTAT_A_VARIANT), trace
 * and untrace a user-defined probe's spec (CLKSTAT_A_TRACE, the grammar of
 * clkstat_trace.h).
 */
#define CLKSTAT_CTRL_OPS(X)						\
	X(START, start)							\
	X(STOP, stop)							\
	X(RESET, reset)							\
	X(TGID, tgid)							\
	X(VARIANT, variant)						\
	X(TRACE, trace)							\
	X(UNTRACE, untrace)

/* The enums the lists make: CLKSTAT_<LIST>_<ID>, then the count. */
#define CLKSTAT_CAT_VARIANT_ENUM(id)	CLKSTAT_VARIANT_##id,
enum clkstat_variant_id {
	CLKSTAT_VARIANTS(CLKSTAT_CAT_VARIANT_ENUM)
	CLKSTAT_NVARIANTS
};

#define CLKSTAT_CAT_METRIC_ENUM(id, name, probe)	CLKSTAT_METRIC_##id,
enum clkstat_metric_id {
	CLKSTAT_METRICS(CLKSTAT_CAT_METRIC_ENUM)
	CLKSTAT_NMETRICS
};

#define CLKSTAT_CAT_TTWU_ENUM(id, name)	CLKSTAT_TTWU_##id,
enum clkstat_ttwu_counter {
	CLKSTAT_TTWU_COUNTERS(CLKSTAT_CAT_TTWU_ENUM)
	CLKSTAT_TTWU_NCOUNTERS
};

#define CLKSTAT_CAT_TKW_ENUM(id, name)	CLKSTAT_TKW_##id,
enum clkstat_tkw_counter {
	CLKSTAT_TKW_COUNTERS(CLKSTAT_CAT_TKW_ENUM)
	CLKSTAT_TKW_NCOUNTERS
};

#define CLKSTAT_CAT_TK_ENUM(id, fn)	CLKSTAT_TK_##id,
enum clkstat_tk_func {
	CLKSTAT_TK_FUNCS(CLKSTAT_CAT_TK_ENUM)
	CLKSTAT_TK_NFUNCS
};

#define CLKSTAT_CAT_CSW_ENUM(id, name)	CLKSTAT_CSW_##id,
enum clkstat_csw_counter {
	CLKSTAT_CSW_COUNTERS(CLKSTAT_CAT_CSW_ENUM)
	CLKSTAT_CSW_NCOUNTERS
};

/*
 * The event log's types (clkstat_events.h), X(ID, name): CLKSTAT_EV_<ID>
 * and the name that debugfs "events", netlink's CLKSTAT_A_E_TYPE and every
 * export print.  Append only: the number is what the rings, the twin and
 * snapshots store.
 *
 *   wakeup       try_to_wake_up() of a task (probe ttwu): opens corr
 *   enqueue      its enqueue on the target CPU: latency from wakeup,
 *                migrated or local
 *   first_tkread its first timekeeping read after the wakeup (probe
 *                tkread): latency from wakeup, migrated or local
 *   clocksource_switch_entry / _exit
 *                timekeeping_notify() (probe csswitch): the new
 *                clocksource in text; the exit's latency is the switch's
 *   clocksource_read
 *                a read of an instrumented clocksource (probe csread):
 *                latency is the read's, text the clocksource
 *   marker       a handshake point written by userspace (text)
 *   trace        a sample of a user-defined probe (clkstat_trace.h):
 *                latency is the sample, corr the probe's number (as the
 *                control file's traces lists it), text its spec's first
 *                bytes
 */
#define CLKSTAT_EVENT_TYPES(X)						\
	X(WAKEUP, wakeup)						\
	X(ENQUEUE, enqueue)						\
	X(FIRST_TKREAD, first_tkread)					\
	X(CS_SWITCH_ENTRY, clocksource_switch_entry)			\
	X(CS_SWITCH_EXIT, clocksource_switch_exit)			\
	X(CS_READ, clocksource_read)					\
	X(MARKER, marker)						\
	X(TRACE, trace)

/*
 * Counters of a user-defined probe's metric (clkstat_trace.h), X(ID, name):
 *   unmatched  an end with no start pending (a section's B first)
 *   replaced   a start while the task (CPU) had one pending: the older is
 *              dropped, the newer ends the section
 *   evicted    a pending start lost to another task's in the table
 *   busy       a start or an end dropped: its table entry was in use on
 *              another CPU
 *   migrated   a task section whose ends ran on different CPUs (recorded)
 *   missed     calls the hook could not follow to their return (a
 *              kretprobe out of instances, a recursion the variant drops)
 */
#define CLKSTAT_TRACE_COUNTERS(X)					\
	X(UNMATCHED, unmatched)						\
	X(REPLACED, replaced)						\
	X(EVICTED, evicted)						\
	X(BUSY, busy)							\
	X(MIGRATED, migrated)						\
	X(MISSED, missed)


/*
 * Why a user-defined probe's spec is refused (clkstat_trace.h), X(ID, text): clkstat_trace_parse()'s result and
 * the text every side prints after the spec.
 */
#define CLKSTAT_TRACE_ERRORS(X)						\
	X(OK, "valid")							\
	X(EMPTY, "empty")						\
	X(KIND, "not func:F, sec:A-B or tp:X-Y")			\
	X(NAME, "a function or tracepoint name is empty or has a character other than letters, digits and '_' (or starts with a digit)") \
	X(DASH, "a section needs two ends, A-B")			\
	X(OPTION, "unknown or repeated option (sec takes :exit and :cpu, tp takes :cpu)") \
	X(SAME_EXIT, "sec:F-F:exit is the duration of F: use func:F")	\
	X(LONG, "longer than a metric name can be (63 bytes)")


/*
 * For name tables: X-callbacks that give an entry's name as a string,
 * for example
 *	static const char *const names[] = {
 *		CLKSTAT_TTWU_COUNTERS(CLKSTAT_CAT_NAME)
 *	};
 */
#define CLKSTAT_CAT_NAME(id, name)		#name,
#define CLKSTAT_CAT_VARIANT_NAME(id)		CLKSTAT_VNAME(id),
#define CLKSTAT_CAT_METRIC_NAME(id, name, probe)	#name,

/*
 * The BPF twin's copy of netlink's enum clkstat_nl_ctrl_op is made with
 * it.  That enum, generated from the netlink spec (clkstat_netlink.h),
 * lists the same operations in the same order: clkstat_netlink_ext.h
 * checks it with the other two, an enum of the list's positions and a
 * test that each operation's value is its position.
 */
#define CLKSTAT_CAT_CTRL_ENUM(id, word)	CLKSTAT_CTRL_##id,
#define CLKSTAT_CAT_CTRL_POS(id, word)	CLKSTAT_CTRL_POS_##id,
#define CLKSTAT_CAT_CTRL_SAME(id, word)					\
	(int)CLKSTAT_CTRL_POS_##id == (int)CLKSTAT_CTRL_##id &&

/* enum clkstat_event_type (clkstat_events.h) is made with it. */
#define CLKSTAT_CAT_EV_ENUM(id, name)	CLKSTAT_EV_##id,

/* clkstat_trace.h's enums are made with these. */
#define CLKSTAT_CAT_TRACE_ENUM(id, name)	CLKSTAT_TRC_##id,
#define CLKSTAT_CAT_TRACE_ERR_ENUM(id, text)	CLKSTAT_TRACE_E_##id,

/* The control operations' words by CLKSTAT_CTRL_*. */
#define CLKSTAT_CTRL_WORDS_INIT { CLKSTAT_CTRL_OPS(CLKSTAT_CAT_NAME) }

/* The event types' names by CLKSTAT_EV_*. */
#define CLKSTAT_EV_NAMES_INIT { CLKSTAT_EVENT_TYPES(CLKSTAT_CAT_NAME) }

/* The metrics' names by ID, for the one table each program keeps. */
#define CLKSTAT_METRIC_NAMES_INIT { CLKSTAT_METRICS(CLKSTAT_CAT_METRIC_NAME) }

/* The error texts by CLKSTAT_TRACE_E_*. */
#define CLKSTAT_CAT_TRACE_ERR_TEXT(id, text)	text,
#define CLKSTAT_TRACE_ERROR_TEXTS_INIT					\
	{ CLKSTAT_TRACE_ERRORS(CLKSTAT_CAT_TRACE_ERR_TEXT) }

#endif /* _UAPI_CLKSTAT_CATALOG_H */

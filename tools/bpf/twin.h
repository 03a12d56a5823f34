/* SPDX-License-Identifier: GPL-2.0 */
/*
 * twin.h - the BPF twin of clkstat.ko's probes (twin.bpf.c), loaded through
 * its bpftool skeleton: the same metrics, counters and bucket math as the
 * module (kmod/uapi/clkstat_buckets.h), with BPF attach types as variants:
 *   bpf-kprobe  kprobes (kretprobes for durations)
 *   bpf-fentry  fentry/fexit (BPF trampolines: ftrace direct calls)
 *   bpf-tp      tp_btf on sched_waking/sched_wakeup (ttwu, and clockoff
 *               at its wakeups: the kernel has no tracepoint on
 *               timekeeping reads, clocksource reads or switches, as for
 *               the module's tracepoint variant)
 * Metrics are named as the module's and carry the twin's variant, so a
 * run read here goes into a snapshot exactly like a run of the module;
 * user-defined probes (twin_trace.h) are metrics named by their spec.
 */
#ifndef CLKSTAT_BPF_TWIN_H
#define CLKSTAT_BPF_TWIN_H

#include <stdint.h>
#include "../lib/model.h"

struct cr_twin_cfg {
	const char *variant;	/* bpf-kprobe, bpf-fentry or bpf-tp */
	const char *probes;	/* comma list of ttwu, tkread, csswitch,
				 * csread, clockoff, and user-defined
				 * probes' specs (func:F, sec:A-B, tp:X-Y:
				 * twin_trace.h), a word with a ':' */
	unsigned int frac_bits;	/* 0..CLKSTAT_FRAC_BITS_MAX */
	unsigned int tgid;	/* only tasks of this tgid; 0: every task */
	/*
	 * The module's window: the twin records while the module records,
	 * from its clkstat:clkstat_control trace event (start, stop,
	 * reset, tgid; twin.bpf.c's tw_control()), rather than from
	 * cr_twin_start() to cr_twin_stop().  Needs clkstat.ko loaded.
	 */
	int follow;
	/* tgid is --workload-only's pid: the module's tgid commands do
	 * not change it. */
	int tgid_pinned;
	/*
	 * The event log (record --events N): 0, none (nothing emitted, the
	 * code pruned by the verifier); else a ring buffer holding at
	 * least N records (struct clkstat_event_rec), read every 50 ms
	 * while recording, and markers from tracefs's trace_marker.
	 */
	unsigned int events;
};

struct cr_twin;

/* Non-zero when name is one of the twin's variants. */
int cr_twin_is_variant(const char *name);

/*
 * Load and attach every program the configuration needs, or none: on any
 * failure (no BTF, no permission, a missing target, a direct call already
 * on a function) print one line naming the cause and leave no program,
 * link or map behind.  Recording is off until cr_twin_start().
 * Return: CR_OK, CR_USAGE (bad configuration), CR_PERM or CR_ERR.
 */
int cr_twin_open(const struct cr_twin_cfg *cfg, struct cr_twin **out);

/*
 * Zero every histogram, counter and pending wakeup, forget the events;
 * begin recording (and, with an event log, a thread reading it).  With
 * cfg->follow, recording begins at the module's next start instead.
 */
int cr_twin_start(struct cr_twin *t);

/*
 * Stop recording (programs stay attached, and return at once); with an
 * event log, stop its thread and read what is left in the ring buffer.
 */
int cr_twin_stop(struct cr_twin *t);

/*
 * Append the twin's metrics (all CPUs and per CPU, only non-empty slots,
 * min/max, counters) to run, with variant cfg->variant; with an event log,
 * move its events into run->events (present, sorted by ts, lost: the
 * records the full ring buffer dropped).  Return CR_OK or CR_ERR (out of
 * memory, a map read failed, a malformed record).
 */
int cr_twin_read(struct cr_twin *t, struct cr_run *run);

/*
 * What the kernel's BPF run-time statistics say of one attached program
 * (bpf_enable_stats(BPF_STATS_RUN_TIME) must be on while it runs, or
 * both figures stay 0): for clkstat-report overhead's handlers section.
 */
struct cr_twin_prog_stat {
	const char *prog;	/* its name in twin.bpf.c */
	const char *role;	/* "wakeup", "enqueue", "read" or "other" */
	char target[64];	/* the function or tracepoint it hooks */
	uint64_t runs, run_ns;	/* run_cnt, run_time_ns */
};

/*
 * Fill out[0..max) with the statistics of every attached program of the
 * twin's probes (not the marker's or the module's window's), in
 * twin.c's program order; *n is how many.  Return CR_OK, or CR_ERR when
 * a program's info cannot be read.
 */
int cr_twin_prog_stats(struct cr_twin *t, struct cr_twin_prog_stat *out,
		       unsigned int max, unsigned int *n);

/* Detach and free everything; NULL is fine. */
void cr_twin_close(struct cr_twin *t);

#endif

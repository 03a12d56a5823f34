// SPDX-License-Identifier: GPL-2.0
/*
 * twin_trace.bpf.c - the BPF twin's user-defined probes (specs of
 * kmod/shared/clkstat_trace.h: func:F, sec:A-B[:exit][:cpu], tp:X-Y[:cpu]),
 * as kmod/probe_trace.c measures them: the same intervals, counters,
 * bucket math and event.
 *
 * One object is opened per spec (twin_trace.c): the programs are generic,
 * each aimed before load (fentry, fexit, tp_btf: the attach target; kprobe,
 * kretprobe: the function attached to), and only those the spec needs are
 * loaded:
 *   func:F          *_enter on F's entry, *_exit on its return
 *   sec:A-B         *_start on A, *_end on B (B's return with :exit)
 *   sec:F-F, tp:X-X *_both: the end, then the start, in one program
 *   tp:X-Y          tp_start on X, tp_end on Y
 * with fe_/fx_ (fentry/fexit, bpf-fentry), kp_/kr_ (kprobe/kretprobe,
 * bpf-kprobe) and tp_ (tp_btf, bpf-tp) as the attach type.
 *
 * Where it differs from the module (func: keeps a per-task stack of entry
 * times, TWIN_TRACE_DEPTH deep, for want of a cookie from entry to
 * return; sec and tp keep their starts in a hash map keyed by the task;
 * recording, epoch and tgid filter are this object's own, or follow the
 * module's window, tt_control, twin_window.bpf.h): what each means and
 * its limits, Documentation/clkstat-bpf.rst, "User-defined probes".
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "../../kmod/uapi/clkstat_buckets.h"
/* clkstat_events.h's <linux/types.h>: vmlinux.h has the types already. */
#define _LINUX_TYPES_H
#include "../../kmod/uapi/clkstat_events.h"
#include "../../kmod/shared/clkstat_trace.h"
#include "twin_shared.h"
#include "twin_hist.bpf.h"

char LICENSE[] SEC("license") = "GPL";

#define E2BIG	7
/* func: the deepest nesting of F a task's stack follows. */
#define TWIN_TRACE_DEPTH	8

/* Set by twin_trace.c before load. */
const volatile __u32 frac_bits = CLKSTAT_FRAC_BITS_DEFAULT;
const volatile __u32 tgid_pinned;	/* filter_tgid is --workload-only's */
const volatile __u32 ncpus;		/* possible CPUs: TWIN_WINDOW_ZERO() */
const volatile __u32 by_cpu;		/* :cpu, starts per CPU */
const volatile __u32 with_events;	/* the event log is on */
const volatile __u32 trace_id;		/* the trace's number: events' corr */
const volatile char spec_text[CLKSTAT_EVENT_TEXT];	/* truncated spec */

/* Written by twin_trace.c through the mmap'ed .bss, or by tt_control. */
__u32 recording;
__u32 epoch;
__u32 filter_tgid;	/* 0: every task; set before load */


struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, twin_hist_t);
} hist SEC(".maps");

#include "twin_window.bpf.h"

/* A pending start of a section. */
struct twin_trace_start {
	__u64 ts;		/* 0: none (by_cpu) */
	__u32 cpu;
	__u32 epoch;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, TWIN_PENDING_ENTRIES);
	__type(key, __u64);
	__type(value, struct twin_trace_start);
} pending SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct twin_trace_start);
} cpu_start SEC(".maps");

/* func: a task's entry times, innermost last; over: calls not pushed. */
struct twin_trace_stack {
	__u32 depth;
	__u32 over;
	__u64 ts[TWIN_TRACE_DEPTH];	/* 0: entered while not recording */
	__u32 epoch[TWIN_TRACE_DEPTH];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, TWIN_PENDING_ENTRIES);
	__type(key, __u64);
	__type(value, struct twin_trace_stack);
} stacks SEC(".maps");

/* The twin's own (bpf_map__reuse_fd() by twin_trace.c with the log on). */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} ev_lost SEC(".maps");

static __always_inline int rec_on(void)
{
	return *(volatile __u32 *)&recording;
}

static __always_inline __u32 cur_epoch(void)
{
	return *(volatile __u32 *)&epoch;
}

static __always_inline int selected(void)
{
	__u32 want = twin_filter_tgid();

	return !want || (__u32)(bpf_get_current_pid_tgid() >> 32) == want;
}

/* The module's window (twin_window.bpf.h), with the module loaded. */
TWIN_WINDOW_ZERO(tt_zero_hist, hist, 1)

SEC("raw_tp/clkstat_control")
int BPF_PROG(tt_control, unsigned int op, int tgid, const char *metric)
{
	if (twin_window_follow(op, tgid, metric) == CLKSTAT_CTRL_RESET)
		tt_zero_hist();
	return 0;
}

/*
 * Plain adds (twin_hist.bpf.h) where one program writes the word: the
 * samples, missed, replaced, evicted, unmatched and migrated are each
 * written by the start or the entry program, or by the end or the return
 * program, never both, and the kernel's per-program recursion guard (or
 * bpf_prog_active for kprobes) keeps a program from running on a CPU
 * where it already runs.  busy, written at both ends, is added atomically.
 */
static __always_inline void count(__u64 idx)
{
	__u32 k = 0;
	twin_hist_t *h = bpf_map_lookup_elem(&hist, &k);

	if (h)
		twin_hist_count(h, idx, idx != CLKSTAT_TRC_BUSY);
}

/* clkstat_record() on this trace's histogram: twin_hist.bpf.h. */
static __always_inline void record(__u64 v)
{
	__u32 k = 0;
	twin_hist_t *h = bpf_map_lookup_elem(&hist, &k);

	if (h)
		twin_hist_add(h, v, frac_bits, 1);
}

/* One sample, and its event (probe_trace.c's clkstat_trace_sample()). */
static __always_inline void sample(__u64 now, __u64 t0)
{
	__u64 ns = now > t0 ? now - t0 : 0, *lost;
	struct clkstat_event_rec *e;
	__u32 k = 0;
	int i;

	record(ns);
	if (!with_events)
		return;
	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e) {
		lost = bpf_map_lookup_elem(&ev_lost, &k);
		if (lost)
			__sync_fetch_and_add(lost, 1);
		return;
	}
	e->ts = now;
	e->corr = trace_id;
	e->latency = ns;
	e->rq_clock = 0;
	e->pid = bpf_get_current_pid_tgid();
	e->cpu = bpf_get_smp_processor_id();
	e->type = CLKSTAT_EV_TRACE;
	e->flags = CLKSTAT_EVF_LATENCY;
	for (i = 0; i < CLKSTAT_EVENT_TEXT; i++)
		e->text[i] = spec_text[i];
	e->text[CLKSTAT_EVENT_TEXT - 1] = 0;
	bpf_ringbuf_submit(e, BPF_RB_NO_WAKEUP);
}

/* func: F entered (probe_trace.c's clkstat_trace_enter()). */
static __always_inline void func_enter(void)
{
	__u64 key = bpf_get_current_task();
	struct twin_trace_stack *s, n = { };
	__u64 ts = 0;
	__u32 d, ep = cur_epoch();

	if (!selected())
		return;
	if (rec_on())
		ts = bpf_ktime_get_ns();
	s = bpf_map_lookup_elem(&stacks, &key);
	if (!s) {
		n.depth = 1;
		n.ts[0] = ts;
		n.epoch[0] = ep;
		if (bpf_map_update_elem(&stacks, &key, &n, BPF_NOEXIST) && ts)
			count(CLKSTAT_TRC_MISSED);
		return;
	}
	d = s->depth;
	if (s->over || d >= TWIN_TRACE_DEPTH) {
		s->over++;
		if (ts)
			count(CLKSTAT_TRC_MISSED);
		return;
	}
	CLAMP(d, TWIN_TRACE_DEPTH - 1);
	s->ts[d] = ts;
	s->epoch[d] = ep;
	s->depth = d + 1;
}

/* func: F returns (clkstat_trace_exit()): its entry's call, if timed. */
static __always_inline void func_exit(void)
{
	__u64 key = bpf_get_current_task(), now = bpf_ktime_get_ns(), ts;
	struct twin_trace_stack *s;
	__u32 d, ep;

	if (!selected())
		return;
	s = bpf_map_lookup_elem(&stacks, &key);
	if (!s)
		return;		/* entered before the twin was attached */
	if (s->over) {
		s->over--;
		return;
	}
	d = s->depth;
	if (!d)
		return;
	d--;
	CLAMP(d, TWIN_TRACE_DEPTH - 1);
	ts = s->ts[d];
	ep = s->epoch[d];
	s->depth = d;
	if (!d)
		bpf_map_delete_elem(&stacks, &key);
	/* A call that began before the window (or a reset) is not in it. */
	if (ts && ep == cur_epoch())
		sample(now, ts);
}

/* sec, tp: a start (clkstat_trace_start()). */
static __always_inline void sec_start(void)
{
	struct twin_trace_start v = { }, *c, *old;
	__u64 key = bpf_get_current_task();
	__u32 k = 0;
	long err;

	if (!rec_on() || !selected())
		return;
	v.ts = bpf_ktime_get_ns();
	v.epoch = cur_epoch();
	v.cpu = bpf_get_smp_processor_id();
	if (by_cpu) {
		c = bpf_map_lookup_elem(&cpu_start, &k);
		if (!c)
			return;
		if (c->ts && c->epoch == v.epoch)
			count(CLKSTAT_TRC_REPLACED);
		c->ts = v.ts;
		c->epoch = v.epoch;
		return;
	}
	old = bpf_map_lookup_elem(&pending, &key);
	if (old && old->epoch == v.epoch)
		count(CLKSTAT_TRC_REPLACED);
	err = bpf_map_update_elem(&pending, &key, &v, BPF_ANY);
	if (err == -E2BIG)
		count(CLKSTAT_TRC_EVICTED);
	else if (err)
		count(CLKSTAT_TRC_BUSY);
}

/* sec, tp: an end (clkstat_trace_end()). */
static __always_inline void sec_end(void)
{
	__u64 key = bpf_get_current_task(), now, t0 = 0;
	struct twin_trace_start *c, v;
	__u32 k = 0, ep = cur_epoch();

	if (!rec_on() || !selected())
		return;
	now = bpf_ktime_get_ns();
	if (by_cpu) {
		c = bpf_map_lookup_elem(&cpu_start, &k);
		if (c) {
			if (c->ts && c->epoch == ep)
				t0 = c->ts;
			c->ts = 0;
		}
		if (!t0) {
			count(CLKSTAT_TRC_UNMATCHED);
			return;
		}
		sample(now, t0);
		return;
	}
	c = bpf_map_lookup_elem(&pending, &key);
	if (!c) {
		count(CLKSTAT_TRC_UNMATCHED);
		return;
	}
	v = *c;
	if (bpf_map_delete_elem(&pending, &key)) {
		/* Not taken: it would match again. */
		count(CLKSTAT_TRC_BUSY);
		return;
	}
	if (v.epoch != ep) {
		/* Started before the window: neither end counts. */
		count(CLKSTAT_TRC_UNMATCHED);
		return;
	}
	if (v.cpu != bpf_get_smp_processor_id())
		count(CLKSTAT_TRC_MIGRATED);
	sample(now, v.ts);
}

/* bpf-fentry */
SEC("fentry")
int BPF_PROG(fe_enter)
{
	func_enter();
	return 0;
}

SEC("fexit")
int BPF_PROG(fx_exit)
{
	func_exit();
	return 0;
}

SEC("fentry")
int BPF_PROG(fe_start)
{
	sec_start();
	return 0;
}

SEC("fentry")
int BPF_PROG(fe_end)
{
	sec_end();
	return 0;
}

SEC("fexit")
int BPF_PROG(fx_end)
{
	sec_end();
	return 0;
}

SEC("fentry")
int BPF_PROG(fe_both)
{
	sec_end();
	sec_start();
	return 0;
}

/* bpf-kprobe */
SEC("kprobe")
int BPF_KPROBE(kp_enter)
{
	func_enter();
	return 0;
}

SEC("kretprobe")
int BPF_KRETPROBE(kr_exit)
{
	func_exit();
	return 0;
}

SEC("kprobe")
int BPF_KPROBE(kp_start)
{
	sec_start();
	return 0;
}

SEC("kprobe")
int BPF_KPROBE(kp_end)
{
	sec_end();
	return 0;
}

SEC("kretprobe")
int BPF_KRETPROBE(kr_end)
{
	sec_end();
	return 0;
}

SEC("kprobe")
int BPF_KPROBE(kp_both)
{
	sec_end();
	sec_start();
	return 0;
}

/* bpf-tp */
SEC("tp_btf")
int BPF_PROG(tp_start)
{
	sec_start();
	return 0;
}

SEC("tp_btf")
int BPF_PROG(tp_end)
{
	sec_end();
	return 0;
}

SEC("tp_btf")
int BPF_PROG(tp_both)
{
	sec_end();
	sec_start();
	return 0;
}

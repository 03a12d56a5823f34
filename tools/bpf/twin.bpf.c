// SPDX-License-Identifier: GPL-2.0
/*
 * twin.bpf.c - the BPF twin of clkstat.ko's ttwu, tkread, csread, csswitch
 * and clockoff probes: the same intervals, metric names, counters and bucket math
 * (kmod/uapi/clkstat_buckets.h), recorded from BPF programs instead of
 * module hooks, so that the two can be compared on the same wakeups.
 *
 * Every program exists once per attach type; twin.c loads only those of
 * the chosen variant and probes:
 *   kp_*  kprobe/kretprobe      (bpf-kprobe)
 *   fe_*  fentry/fexit          (bpf-fentry)
 *   tp_*  tp_btf sched_waking/sched_wakeup (bpf-tp, ttwu and clockoff
 *         only)
 * The handlers below the programs are shared, so the variants differ only
 * in how they are entered.
 *
 * Where it differs from the module (one pending state per task in
 * task-local storage or a hash map, plain adds only where no other
 * program of ours can write the same word in between ("Which adds are
 * plain" below), one recording flag and epoch for every metric, one ring
 * buffer for the event log, local_clock() through a perf event, no
 * switch_lost), the exact list: Documentation/clkstat-bpf.rst, "What
 * differs from the module".
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "../../kmod/uapi/clkstat_buckets.h"
#include "../../kmod/shared/clkstat_wakeup.h"
/* clkstat_events.h's <linux/types.h>: vmlinux.h has the types already. */
#define _LINUX_TYPES_H
#include "../../kmod/uapi/clkstat_events.h"
#include "twin_shared.h"
#include "twin_hist.bpf.h"

char LICENSE[] SEC("license") = "GPL";

#define E2BIG	7
/* preempt_count() bits (include/linux/preempt.h): not in vmlinux.h. */
#define SOFTIRQ_OFFSET	0x00000100U
#define HARDIRQ_MASK	0x000f0000U
#define NMI_MASK	0x00f00000U

/* Set by twin.c before load. */
const volatile __u32 frac_bits = CLKSTAT_FRAC_BITS_DEFAULT;
/*
 * The tgid filter (.bss filter_tgid) is --workload-only's pid
 * (tgid_pinned), or the module's, which tw_control() follows.
 */
const volatile __u32 tgid_pinned;
const volatile __u32 ncpus;		/* possible CPUs: TWIN_WINDOW_ZERO() */
const volatile __u32 with_tkread;	/* ttwu and tkread both loaded */
const volatile __u32 enqueue_task_hooked; /* the enqueue programs are on
					   * enqueue_task() (6.12 on) */
/*
 * The event log is on (record --events N): without it every emit is
 * dead code the verifier prunes, so the twin costs what it did before.
 */
const volatile __u32 with_events;
const volatile __u32 with_csread;	/* csread loaded */
const volatile __u32 with_first_read;	/* csread and csswitch loaded */
const volatile __u32 with_clockoff;	/* clockoff loaded */

/*
 * Written by twin.c through the mmap'ed .bss, or, when the twin follows
 * the module's window, by tw_control().
 */
__u32 recording;
__u32 epoch;		/* bumped by each start, as clkstat_epoch */
__u32 filter_tgid;	/* 0: every task; set before load */
__u64 csw_t0;		/* timekeeping_notify() entry: clocksource_mutex
			 * lets one switch run at a time */
__u64 csw_corr;		/* its entry event's id, 0: none */
__u64 csw_cs;		/* its struct clocksource *, for the exit event */
__u64 csw_pending;	/* csswitch_first_read: now_ns() at the last
			 * switch's return, until a read takes it */

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, TM_N);
	__type(key, __u32);
	__type(value, twin_hist_t);
} hists SEC(".maps");

/*
 * Pending wakeups, one struct twin_pend per task holding ttwu's and
 * tkread's state (the module's merged entry): task-local storage where
 * the programs have a BTF pointer to the task (bpf-fentry, bpf-tp), a
 * hash map keyed by the task's address where they do not (bpf-kprobe:
 * a kprobe's arguments are plain numbers; twin.c shrinks it to one entry
 * in the other variants).
 */
struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct twin_pend);
} pend_task SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, TWIN_PENDING_ENTRIES);
	__type(key, __u64);
	__type(value, struct twin_pend);
} pend_hash SEC(".maps");

/*
 * The event log: struct clkstat_event_rec records in one ring buffer,
 * sized by twin.c (bpf_map__set_max_entries) from record's --events; a
 * record that finds it full is counted in ev_lost, per CPU.  ev_ids
 * numbers each CPU's correlation ids as clkstat_evlog_new_id() does.
 */
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

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} ev_ids SEC(".maps");

/*
 * local_clock() for csread and clockoff: one perf cpu-clock event per CPU
 * (opened by twin.c), see twin_local_clock().
 */
struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} lclock SEC(".maps");

/* Raised while a program of ours reads the clock (now_ns()). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} cs_nest SEC(".maps");

/* csread: local_clock() at the entry of each read in progress (csr_key()). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, TWIN_CSREAD_ENTRIES);
	__type(key, __u64);
	__type(value, __u64);
} csr_start SEC(".maps");

#include "twin_window.bpf.h"

/* The CPUs' runqueues, for rq->clock (CO-RE: struct rq is not uapi). */
extern const struct rq runqueues __ksym;

/*
 * x86's per-CPU preempt count moved between kernel lines: an int
 * __preempt_count on 6.1, pcpu_hot.preempt_count from 6.2 to 6.14, an
 * unsigned long __preempt_count again from 6.15 (7.x).  A typed ksym names
 * one type, and a weak typed ksym that vmlinux lacks sends libbpf through
 * every module's BTF (BPF_BTF_GET_NEXT_ID, which valgrind cannot follow).
 * So the two are typeless weak ksyms, resolved from kallsyms: a per-CPU
 * variable's address there is its per-CPU offset (0 where the kernel has
 * none of that name), and this CPU's copy lies this_cpu_off (on every
 * line) beyond it.  The bits tested are in the low 32, which
 * little-endian x86 keeps first in an unsigned long too.  twin.c refuses
 * a kernel with neither, before loading.
 */
extern const void __preempt_count __ksym __weak;
extern const void pcpu_hot __ksym __weak;
extern const unsigned long this_cpu_off __ksym;
/*
 * preempt_count's offset in struct pcpu_hot, from the kernel's BTF by
 * twin.c: a CO-RE relocation against a struct vmlinux lacks (6.1, 7.x)
 * would send libbpf through every module's BTF looking for it.
 */
const volatile __u32 pcpu_hot_pc_off;

/*
 * kmod/compat.h's clkstat_wakeup_enqueue(): on 6.12 and later the twin, as
 * the module, closes a wakeup at enqueue_task(), which delayed dequeue's
 * re-enqueue reaches and ttwu_do_activate() does not
 * (kmod/shared/clkstat_wakeup.h).
 */

struct sched_entity___clkstat {
	unsigned char sched_delayed;
} __attribute__((preserve_access_index));

/*
 * on_rq is an int up to 6.x and a u8 on 7.x: read it (and sched_delayed)
 * with BPF_CORE_READ_BITFIELD_PROBED(), which reads an integer member of
 * whatever size the kernel's BTF gives it, where BPF_CORE_READ() would read
 * the local type's 4 bytes and take three bytes of the next members along.
 */
struct task_struct___clkstat {
	struct sched_entity___clkstat se;
	int on_rq;
} __attribute__((preserve_access_index));

static __always_inline int wakeup_enqueue(struct task_struct *p, __u64 flags)
{
	struct task_struct___clkstat *t = (void *)p;

	if (!enqueue_task_hooked || (flags & CLKSTAT_ENQUEUE_WAKEUP))
		return 1;
	if ((flags & CLKSTAT_ENQUEUE_RESTORE) ||
	    !bpf_core_field_exists(t->se.sched_delayed))
		return 0;
	/*
	 * se.sched_delayed is named by its whole path from the task: with
	 * &t->se as the base (an earlier version) clang relocated the
	 * member's offset from the task all the same, the read landed past
	 * se and found 0 for a delayed task on 7.3 (half of a migrating
	 * ping-pong's wakeups lost: Documentation/clkstat-bpf.rst, "Delayed
	 * dequeue and the twin").
	 */
	return BPF_CORE_READ_BITFIELD_PROBED(t, se.sched_delayed) &&
	       BPF_CORE_READ_BITFIELD_PROBED(t, on_rq) ==
	       CLKSTAT_TASK_ON_RQ_QUEUED;
}

static __always_inline int rec_on(void)
{
	return *(volatile __u32 *)&recording;
}

static __always_inline __u32 cur_epoch(void)
{
	return *(volatile __u32 *)&epoch;
}

/*
 * The attach type of the program a handler runs in: a constant at each
 * call, so that the compiler keeps only that type's code (a kprobe
 * program has no BTF task pointer for task-local storage or loads).
 */
enum twin_kind { TW_KP, TW_FE, TW_TP };

/*
 * A field of task p: a load, as the module's, where p is a BTF pointer
 * (a fentry or tp_btf argument, bpf_get_current_task_btf(); CO-RE
 * relocated, the verifier makes it a fault-tolerant load), a
 * bpf_probe_read_kernel() call in a kprobe program, where p is a number.
 */
#define TASK_READ(kind, p, field)					\
	((kind) == TW_KP ? BPF_CORE_READ((p), field) : (p)->field)

static __always_inline int selected(struct task_struct *p, int kind)
{
	__u32 want = twin_filter_tgid();

	return !want || (__u32)TASK_READ(kind, p, tgid) == want;
}

static __always_inline __u32 task_cpu_of(struct task_struct *p, int kind)
{
	return TASK_READ(kind, p, thread_info.cpu);
}

/* This CPU's preempt count into *pc; 0, or -1 when it cannot be read. */
static __always_inline int preempt_bits(__u32 *pc)
{
	unsigned long at = *(const unsigned long *)bpf_this_cpu_ptr(&this_cpu_off);

	if ((unsigned long)&__preempt_count)
		at += (unsigned long)&__preempt_count;
	else if ((unsigned long)&pcpu_hot)
		at += (unsigned long)&pcpu_hot + pcpu_hot_pc_off;
	else
		return -1;
	return bpf_probe_read_kernel(pc, sizeof(*pc), (const void *)at) ? -1 : 0;
}

/* in_task(): not in an NMI, a hard IRQ or a softirq. */
static __always_inline int in_task_ctx(void)
{
	__u32 pc;

	if (preempt_bits(&pc))
		return 0;
	return !(pc & (NMI_MASK | HARDIRQ_MASK | SOFTIRQ_OFFSET));
}

/*
 * The context this CPU runs in: 0 a task, 1 a softirq, 2 a hard IRQ, 3 an
 * NMI (or unknown).  A read interrupted by an interrupt that reads too
 * nests one level deeper on the same task.
 */
static __always_inline __u64 ctx_level(void)
{
	__u32 pc;

	if (preempt_bits(&pc) || (pc & NMI_MASK))
		return 3;
	if (pc & HARDIRQ_MASK)
		return 2;
	return (pc & SOFTIRQ_OFFSET) ? 1 : 0;
}

static __always_inline __u32 *cs_nest_ptr(void)
{
	__u32 k = 0;

	return bpf_map_lookup_elem(&cs_nest, &k);
}

/*
 * Every timestamp of the twin (bpf_ktime_get_ns(), the module's
 * clkstat_now(): ktime_get_mono_fast_ns()).  It reads the clocksource:
 * with csread loaded, cs_nest is raised around it, so that the read
 * programs ignore the read it makes (a kprobe of ours inside another
 * never runs: the kernel skips it).
 */
static __always_inline __u64 now_ns(void)
{
	__u32 *n;
	__u64 t;

	if (!with_csread)
		return bpf_ktime_get_ns();
	n = cs_nest_ptr();
	if (n)
		(*n)++;
	t = bpf_ktime_get_ns();
	if (n)
		(*n)--;
	return t;
}

/*
 * local_clock(), without reading a clocksource: bpf_perf_event_read() on
 * this CPU's cpu-clock event makes the kernel update it
 * (cpu_clock_event_update(): hw.prev_count = local_clock()), and
 * hw.prev_count is then read from the event, found through the map's
 * struct bpf_array and struct bpf_event_entry.  The map's address is
 * taken from a stack slot (a privileged program may read a pointer as
 * bytes; it may not add to a map pointer).  0: no event on this CPU, or
 * a read failed.
 */
static __always_inline __u64 twin_local_clock(void)
{
	struct bpf_event_entry *ee = NULL;
	void *volatile map = &lclock;
	unsigned long at = 0;
	__u32 cpu = bpf_get_smp_processor_id();
	__u64 v = 0;

	if ((long)bpf_perf_event_read(&lclock, BPF_F_CURRENT_CPU) < 0)
		return 0;
	if (bpf_probe_read_kernel(&at, sizeof(at), (const void *)&map) || !at)
		return 0;
	at += bpf_core_field_offset(struct bpf_array, ptrs) +
	      (unsigned long)cpu * sizeof(void *);
	if (bpf_probe_read_kernel(&ee, sizeof(ee), (const void *)at) || !ee)
		return 0;
	v = BPF_CORE_READ(ee, event, hw.prev_count.a.a.counter);
	return v;
}



/*
 * Which adds are plain (twin_hist_add(), twin_hist_count()): a word of a
 * histogram may be updated with plain loads and stores when no other
 * program of ours can run between the load and the store on this CPU and
 * write it.
 *  - SOLE: one program writes the word: ttwu's wakeups and replaced
 *    (the wakeup program), its samples, unmatched and migrated (the
 *    enqueue program), tkread's count of each function (that function's
 *    program), a csread metric (its return program), csswitch (its exit
 *    program).  The kernel's per-program recursion guard (prog->active,
 *    fentry, fexit and tp_btf on 6.1 and 6.12) skips a program on a CPU
 *    where it already runs, interrupted or preempted (fentry programs
 *    run with migration, not preemption, disabled).
 *  - KP(kind): words more than one program writes (busy, written at
 *    both ends; ttwu_tkread and its companions, written by each of
 *    tkread's seven programs; clockoff; csswitch_first_read, by both
 *    read programs) are plain in bpf-kprobe only: bpf_prog_active lets
 *    no kprobe or tracepoint program run on a CPU where one runs, and
 *    kprobe handlers run with preemption off.  In bpf-fentry tkread's
 *    programs run preemptible, a wakeup's at try_to_wake_up()'s entry
 *    with interrupts on; in bpf-tp sched_waking and sched_wakeup of a
 *    task waking itself run with interrupts on: atomic adds there.
 *    clockoff in bpf-tp has one writer (sched_waking: tkread and
 *    csswitch have no bpf-tp programs), so CO_PLAIN(kind) is SOLE there.
 *  - atomic always: the event log's counters (ev_lost, ev_ids), written
 *    by every program.
 * The module's this_cpu ops are one instruction each and need none of
 * this: an interrupt comes before or after them.
 */
#define SOLE		1
#define KP(kind)	((kind) == TW_KP)
#define CO_PLAIN(kind)	((kind) != TW_FE)

/* Bump a counter (callers pass constants). */
static __always_inline void count(__u32 metric, __u64 idx, int plain)
{
	twin_hist_t *h = bpf_map_lookup_elem(&hists, &metric);

	if (h)
		twin_hist_count(h, idx, plain);
}

/* clkstat_record(): twin_hist.bpf.h. */
static __always_inline void record(__u32 metric, __u64 v, int plain)
{
	twin_hist_t *h = bpf_map_lookup_elem(&hists, &metric);

	if (h)
		twin_hist_add(h, v, frac_bits, plain);
}

/*
 * clockoff: CLOCK_MONOTONIC (mono, the event's now_ns()) minus
 * local_clock(), as kmod/probe_clockoff.c's clkstat_clockoff_record().
 */
static __always_inline void clockoff_sample(__u64 mono, int plain)
{
	__u64 local;

	if (!with_clockoff)
		return;
	local = twin_local_clock();
	if (!local)
		return;
	if (mono >= local)
		record(TM_CLOCKOFF, mono - local, plain);
	else
		record(TM_CLOCKOFF_NEG, local - mono, plain);
}

/*
 * p's pending state; NULL when p has none (create 0) or none can be made
 * (create 1: *why is then the counter to bump, EVICTED when the hash map
 * is full, BUSY otherwise; ttwu's and tkread's counters have the same
 * indices).  Task-local storage is made zeroed at p's first wakeup and
 * kept until p is freed; on 6.1 a lookup that finds this CPU's
 * task-storage lock held (bpf_task_storage_busy: another task-storage
 * helper interrupted or preempted on this CPU) returns NULL even when p
 * has a value.
 */
static __always_inline struct twin_pend *
pend_get(struct task_struct *p, int kind, int create, __u32 *why)
{
	struct twin_pend zero = { };
	__u64 key = (__u64)p;
	struct twin_pend *e;

	*why = CLKSTAT_TTWU_BUSY;
	if (kind != TW_KP)
		return bpf_task_storage_get(&pend_task, p, NULL,
					    create ?
					    BPF_LOCAL_STORAGE_GET_F_CREATE : 0);
	e = bpf_map_lookup_elem(&pend_hash, &key);
	if (e || !create)
		return e;
	if (bpf_map_update_elem(&pend_hash, &key, &zero, BPF_NOEXIST) ==
	    -E2BIG)
		*why = CLKSTAT_TTWU_EVICTED;
	return bpf_map_lookup_elem(&pend_hash, &key);
}

/*
 * Take e for an update: the event's one locked operation.  0: another
 * CPU, or a program of ours this one interrupted, holds it (busy).
 */
static __always_inline int pend_lock(struct twin_pend *e)
{
	return __sync_val_compare_and_swap(&e->lock, 0, 1) == 0;
}

/* Release it: x86 keeps stores in order, so a compiler barrier is enough. */
static __always_inline void pend_unlock(struct twin_pend *e)
{
	asm volatile("" ::: "memory");
	*(volatile __u32 *)&e->lock = 0;
}

/*
 * Release e after taking its last open interval.  bpf-kprobe deletes a
 * hash entry with nothing open, still held, so that another CPU that
 * found it sees it busy rather than updates an entry going away (a
 * delete that fails, a bucket lock held on this CPU, leaves it there,
 * released).  Task-local storage stays with its task.
 */
static __always_inline void pend_put(struct twin_pend *e,
				     struct task_struct *p, int kind)
{
	__u64 key = (__u64)p;

	if (kind == TW_KP && !e->ttwu && !e->tkw &&
	    !bpf_map_delete_elem(&pend_hash, &key))
		return;
	pend_unlock(e);
}

/* A new correlation id: this CPU's count << 12 | the CPU, never 0. */
static __always_inline __u64 ev_new_id(void)
{
	__u32 k = 0;
	__u64 *c = bpf_map_lookup_elem(&ev_ids, &k);

	if (!c)
		return 0;
	return __sync_add_and_fetch(c, 1) << 12 |
	       (bpf_get_smp_processor_id() & 0xfff);
}

/*
 * Reserve an event and fill what every event has (the CPU logging it,
 * no latency, no rq clock, no text); the caller adds the rest and
 * submits.  NULL when the ring buffer is full: counted as lost.
 */
static __always_inline struct clkstat_event_rec *
ev_reserve(__u8 type, __u64 ts, __u64 corr, __u32 pid)
{
	struct clkstat_event_rec *e;
	__u32 k = 0;
	__u64 *lost;

	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e) {
		lost = bpf_map_lookup_elem(&ev_lost, &k);
		if (lost)
			__sync_fetch_and_add(lost, 1);
		return NULL;
	}
	e->ts = ts;
	e->corr = corr;
	e->latency = 0;
	e->rq_clock = 0;
	e->pid = pid;
	e->cpu = bpf_get_smp_processor_id();
	e->type = type;
	e->flags = 0;
	__builtin_memset(e->text, 0, sizeof(e->text));
	return e;
}

/*
 * Submit without waking the consumer: twin.c reads the ring buffer every
 * 50 ms, and a wakeup (an irq_work) from inside the scheduler's paths
 * would cost each event more than the event itself.
 */
static __always_inline void ev_submit(struct clkstat_event_rec *e)
{
	bpf_ringbuf_submit(e, BPF_RB_NO_WAKEUP);
}

/* A runqueue's clock into e (rq NULL: none). */
static __always_inline void ev_rq_clock(struct clkstat_event_rec *e,
					struct rq *rq)
{
	if (!rq)
		return;
	e->rq_clock = BPF_CORE_READ(rq, clock);
	e->flags |= CLKSTAT_EVF_RQ_CLOCK;
}

static __always_inline struct rq *cpu_rq(__u32 cpu)
{
	return (struct rq *)bpf_per_cpu_ptr(&runqueues, cpu);
}

/* An interval closed: its latency, and whether the wakeup migrated. */
static __always_inline void ev_closed(__u8 type, __u64 ts, __u64 corr,
				      __u32 pid, __u64 delta, int migrated,
				      struct rq *rq)
{
	struct clkstat_event_rec *e = ev_reserve(type, ts, corr, pid);

	if (!e)
		return;
	e->latency = delta;
	e->flags = CLKSTAT_EVF_LATENCY |
		   (migrated ? CLKSTAT_EVF_MIGRATED : CLKSTAT_EVF_LOCAL);
	ev_rq_clock(e, rq);
	ev_submit(e);
}

/* A wakeup of p begins (after the state test, as ttwu_wakeup()). */
static __always_inline void on_wakeup(struct task_struct *p, int kind)
{
	struct twin_pend *e;
	__u64 ts, corr = 0;
	__u32 cpu, ep, why;

	if (!rec_on() || !selected(p, kind))
		return;
	ts = now_ns();
	clockoff_sample(ts, CO_PLAIN(kind));
	cpu = task_cpu_of(p, kind);
	ep = cur_epoch();
	if (with_events) {
		struct clkstat_event_rec *ev;

		corr = ev_new_id();
		ev = ev_reserve(CLKSTAT_EV_WAKEUP, ts, corr,
				TASK_READ(kind, p, pid));
		if (ev) {
			ev_rq_clock(ev, cpu_rq(cpu));
			ev_submit(ev);
		}
	}
	count(TM_TTWU, CLKSTAT_TTWU_WAKEUPS, SOLE);
	e = pend_get(p, kind, 1, &why);
	if (e && !pend_lock(e)) {
		e = NULL;
		why = CLKSTAT_TTWU_BUSY;
	}
	if (!e) {
		/* EVICTED: bpf-kprobe only, so plain. */
		count(TM_TTWU, why, KP(kind));
		if (with_tkread)
			count(TM_TKW, why, KP(kind));
		return;
	}
	if (e->epoch == ep) {
		if (e->ttwu)
			count(TM_TTWU, CLKSTAT_TTWU_REPLACED, SOLE);
		if (with_tkread && e->tkw)
			count(TM_TKW, CLKSTAT_TKW_REPLACED, SOLE);
	}
	e->ts = ts;
	e->ts2 = 0;
	e->corr = corr;
	e->cpu = cpu;
	e->epoch = ep;
	e->ttwu = 1;
	e->tkw = !!with_tkread;
	e->migrated = 0;
	pend_unlock(e);
}

/*
 * p is on its target CPU's runqueue (rq, NULL where the hook does not
 * have it: p's CPU's then): close its wakeup's interval.
 */
static __always_inline void on_enqueue(struct task_struct *p, struct rq *rq,
				       int kind)
{
	struct twin_pend *e;
	__u64 now, delta, ts, corr;
	__u32 cpu, wcpu, ep, why;
	int open;

	if (!rec_on() || !selected(p, kind))
		return;
	now = now_ns();
	e = pend_get(p, kind, 0, &why);
	if (!e) {
		count(TM_TTWU, CLKSTAT_TTWU_UNMATCHED, SOLE);
		return;
	}
	if (!pend_lock(e)) {
		count(TM_TTWU, CLKSTAT_TTWU_BUSY, KP(kind));
		return;
	}
	cpu = task_cpu_of(p, kind);
	if (with_tkread && e->tkw) {
		/* clkstat_tkread_on_enqueue(), in place. */
		e->ts2 = now;
		e->migrated = cpu != e->cpu;
	}
	open = e->ttwu;
	e->ttwu = 0;
	ts = e->ts;
	wcpu = e->cpu;
	ep = e->epoch;
	corr = e->corr;
	pend_put(e, p, kind);
	if (!open || ep != cur_epoch()) {
		count(TM_TTWU, CLKSTAT_TTWU_UNMATCHED, SOLE);
		return;
	}
	/* The fast clock may step back by a few ns across an update. */
	delta = now > ts ? now - ts : 0;
	if (with_events)
		ev_closed(CLKSTAT_EV_ENQUEUE, now, corr, TASK_READ(kind, p, pid),
			  delta, cpu != wcpu, rq ? rq : cpu_rq(cpu));
	if (cpu != wcpu) {
		count(TM_TTWU, CLKSTAT_TTWU_MIGRATED, SOLE);
		record(TM_TTWU_MIG, delta, SOLE);
	} else {
		record(TM_TTWU_LOC, delta, SOLE);
	}
}

/* current read the clock (tk_read() and tkw_first_read()). */
static __always_inline void on_tkread(__u32 func, int kind)
{
	struct task_struct *p;
	struct twin_pend *e;
	__u64 now, delta, ts, ts2, corr;
	__u32 ep, why;
	int migrated;

	if (!rec_on() || !in_task_ctx())
		return;
	if (kind == TW_KP)
		p = (struct task_struct *)bpf_get_current_task();
	else
		p = bpf_get_current_task_btf();
	if (!selected(p, kind))
		return;
	count(TM_TKREAD, func, SOLE);
	if (with_clockoff)
		clockoff_sample(now_ns(), KP(kind));
	if (!with_tkread)
		return;
	e = pend_get(p, kind, 0, &why);
	/* Most reads have nothing open: no locked operation for them. */
	if (!e || !*(volatile __u8 *)&e->tkw)
		return;
	if (!pend_lock(e)) {
		count(TM_TKW, CLKSTAT_TKW_BUSY, KP(kind));
		return;
	}
	if (!e->tkw) {
		pend_unlock(e);
		return;
	}
	e->tkw = 0;
	ts = e->ts;
	ts2 = e->ts2;
	ep = e->epoch;
	corr = e->corr;
	migrated = e->migrated;
	pend_put(e, p, kind);
	if (ep != cur_epoch()) {
		count(TM_TKW, CLKSTAT_TKW_STALE, KP(kind));
		return;
	}
	now = now_ns();
	delta = now > ts ? now - ts : 0;
	if (with_events)
		ev_closed(CLKSTAT_EV_FIRST_TKREAD, now, corr,
			  TASK_READ(kind, p, pid), delta, migrated,
			  (struct rq *)bpf_this_cpu_ptr(&runqueues));
	if (migrated) {
		count(TM_TKW, CLKSTAT_TKW_MIGRATED, KP(kind));
		record(TM_TKW_MIG, delta, KP(kind));
	} else {
		record(TM_TKW_LOC, delta, KP(kind));
	}
	if (ts2)
		record(TM_TKW_ENQ, now > ts2 ? now - ts2 : 0, KP(kind));
	else
		count(TM_TKW, CLKSTAT_TKW_NO_ENQUEUE, KP(kind));
}

/* The clocksource's name into e's text. */
static __always_inline void ev_cs_name(struct clkstat_event_rec *e, __u64 cs)
{
	const char *name;

	if (!cs)
		return;
	name = BPF_CORE_READ((struct clocksource *)cs, name);
	bpf_probe_read_kernel_str(e->text, sizeof(e->text), name);
}

/* timekeeping_notify(cs): cs is the clocksource switched to. */
static __always_inline void on_csw_enter(struct clocksource *cs)
{
	struct clkstat_event_rec *e;

	csw_t0 = now_ns();
	csw_corr = 0;
	if (!with_events || !rec_on())
		return;
	csw_corr = ev_new_id();
	csw_cs = (__u64)cs;
	e = ev_reserve(CLKSTAT_EV_CS_SWITCH_ENTRY, csw_t0, csw_corr,
		       bpf_get_current_pid_tgid());
	if (!e)
		return;
	ev_cs_name(e, csw_cs);
	ev_submit(e);
}

static __always_inline void on_csw_exit(long ret, int kind)
{
	__u64 t0 = csw_t0, now = now_ns(), corr = csw_corr;
	struct clkstat_event_rec *e;

	csw_t0 = 0;
	csw_corr = 0;
	if (!rec_on() || !t0)
		return;
	if (with_events && corr) {
		e = ev_reserve(CLKSTAT_EV_CS_SWITCH_EXIT, now, corr,
			       bpf_get_current_pid_tgid());
		if (e) {
			e->latency = now > t0 ? now - t0 : 0;
			e->flags = CLKSTAT_EVF_LATENCY;
			ev_cs_name(e, csw_cs);
			ev_submit(e);
		}
	}
	record(TM_CSSWITCH, now > t0 ? now - t0 : 0, SOLE);
	clockoff_sample(now, CO_PLAIN(kind));
	count(TM_CSSWITCH, CLKSTAT_CSW_SWITCHES, SOLE);
	if ((int)ret)
		count(TM_CSSWITCH, CLKSTAT_CSW_FAILED, SOLE);
	if (with_first_read)
		csw_pending = now;
}

/* The first clocksource read after a switch closes the switch's gap. */
static __always_inline void csw_read_seen(int kind)
{
	__u64 t = *(volatile __u64 *)&csw_pending, now;

	if (!t || __sync_val_compare_and_swap(&csw_pending, t, 0) != t)
		return;
	now = now_ns();
	record(TM_CSW_FIRST_READ, now > t ? now - t : 0, KP(kind));
}

/* The key of a read in progress: its task and context (ctx_level()). */
static __always_inline __u64 csr_key(void)
{
	return bpf_get_current_task() | ctx_level();
}

/* Entry of a clocksource read (csr_enter() in kmod/probe_clocksource.c). */
static __always_inline void on_csr_enter(int kind)
{
	__u32 *n = cs_nest_ptr();
	__u64 key, t0;

	if (!rec_on() || (n && *n))
		return;
	if (with_first_read)
		csw_read_seen(kind);
	t0 = twin_local_clock();
	if (!t0)
		return;
	key = csr_key();
	bpf_map_update_elem(&csr_start, &key, &t0, BPF_ANY);
}

/* Its return: metric TM_CSREAD_HPET or TM_CSREAD_ACPI_PM. */
static __always_inline void on_csr_exit(__u32 metric)
{
	__u64 t1 = twin_local_clock(), key, t0, *p, ns;
	struct clkstat_event_rec *e;
	__u32 *n = cs_nest_ptr();

	if (n && *n)
		return;
	key = csr_key();
	p = bpf_map_lookup_elem(&csr_start, &key);
	if (!p)
		return;
	t0 = *p;
	bpf_map_delete_elem(&csr_start, &key);
	if (!rec_on() || !t0 || !t1)
		return;
	/* local_clock() may differ a little between CPUs: clamped. */
	ns = t1 > t0 ? t1 - t0 : 0;
	record(metric, ns, SOLE);
	if (!with_events)
		return;
	e = ev_reserve(CLKSTAT_EV_CS_READ, now_ns(), 0,
		       bpf_get_current_pid_tgid());
	if (!e)
		return;
	e->latency = ns;
	e->flags = CLKSTAT_EVF_LATENCY;
	if (metric == TM_CSREAD_HPET)
		__builtin_memcpy(e->text, "hpet", sizeof("hpet"));
	else
		__builtin_memcpy(e->text, "acpi_pm", sizeof("acpi_pm"));
	ev_submit(e);
}

/*
 * try_to_wake_up(p, state, wake_flags): only calls that will wake p, the
 * test of ttwu_state_match(), as the module's ttwu_on_wakeup().
 */
static __always_inline void on_ttwu(struct task_struct *p, unsigned int state,
				    int kind)
{
	if (TASK_READ(kind, p, __state) & state)
		on_wakeup(p, kind);
}

/* bpf-fentry */
SEC("fentry/" CLKSTAT_FUNC_TTWU)
int BPF_PROG(fe_ttwu, struct task_struct *p, unsigned int state)
{
	on_ttwu(p, state, TW_FE);
	return 0;
}

/* ttwu_do_activate(rq, p, wake_flags, rf) or enqueue_task(rq, p, flags) */
SEC("fentry/" CLKSTAT_ENQUEUE_FUNC_OLD)
int BPF_PROG(fe_activate, struct rq *rq, struct task_struct *p, int flags)
{
	if (wakeup_enqueue(p, flags))
		on_enqueue(p, rq, TW_FE);
	return 0;
}

#define TK_PROGS(id, fn)						\
SEC("fentry/" #fn)							\
int BPF_PROG(fe_tk_##fn)						\
{									\
	on_tkread(CLKSTAT_TK_##id, TW_FE);				\
	return 0;							\
}									\
SEC("kprobe/" #fn)							\
int BPF_KPROBE(kp_tk_##fn)						\
{									\
	on_tkread(CLKSTAT_TK_##id, TW_KP);				\
	return 0;							\
}

CLKSTAT_TK_FUNCS(TK_PROGS)

SEC("fentry/" CLKSTAT_FUNC_CSSWITCH)
int BPF_PROG(fe_csw_enter, struct clocksource *cs)
{
	on_csw_enter(cs);
	return 0;
}

SEC("fexit/" CLKSTAT_FUNC_CSSWITCH)
int BPF_PROG(fe_csw_exit, struct clocksource *cs, int ret)
{
	on_csw_exit(ret, TW_FE);
	return 0;
}

/* csread: fe_csr_* at the entry, fe_csrx_* at the return. */
SEC("fentry/" CLKSTAT_FUNC_CSREAD_HPET)
int BPF_PROG(fe_csr_hpet)
{
	on_csr_enter(TW_FE);
	return 0;
}

SEC("fexit/" CLKSTAT_FUNC_CSREAD_HPET)
int BPF_PROG(fe_csrx_hpet)
{
	on_csr_exit(TM_CSREAD_HPET);
	return 0;
}

SEC("fentry/" CLKSTAT_FUNC_CSREAD_ACPI_PM)
int BPF_PROG(fe_csr_acpi_pm)
{
	on_csr_enter(TW_FE);
	return 0;
}

SEC("fexit/" CLKSTAT_FUNC_CSREAD_ACPI_PM)
int BPF_PROG(fe_csrx_acpi_pm)
{
	on_csr_exit(TM_CSREAD_ACPI_PM);
	return 0;
}

/* bpf-kprobe */
SEC("kprobe/" CLKSTAT_FUNC_TTWU)
int BPF_KPROBE(kp_ttwu, struct task_struct *p, unsigned int state)
{
	on_ttwu(p, state, TW_KP);
	return 0;
}

SEC("kprobe/" CLKSTAT_ENQUEUE_FUNC_OLD)
int BPF_KPROBE(kp_activate, struct rq *rq, struct task_struct *p, int flags)
{
	if (wakeup_enqueue(p, flags))
		on_enqueue(p, rq, TW_KP);
	return 0;
}

SEC("kprobe/" CLKSTAT_FUNC_CSSWITCH)
int BPF_KPROBE(kp_csw_enter, struct clocksource *cs)
{
	on_csw_enter(cs);
	return 0;
}

SEC("kretprobe/" CLKSTAT_FUNC_CSSWITCH)
int BPF_KRETPROBE(kp_csw_exit, int ret)
{
	on_csw_exit(ret, TW_KP);
	return 0;
}

SEC("kprobe/" CLKSTAT_FUNC_CSREAD_HPET)
int BPF_KPROBE(kp_csr_hpet)
{
	on_csr_enter(TW_KP);
	return 0;
}

SEC("kretprobe/" CLKSTAT_FUNC_CSREAD_HPET)
int BPF_KRETPROBE(kp_csrx_hpet)
{
	on_csr_exit(TM_CSREAD_HPET);
	return 0;
}

SEC("kprobe/" CLKSTAT_FUNC_CSREAD_ACPI_PM)
int BPF_KPROBE(kp_csr_acpi_pm)
{
	on_csr_enter(TW_KP);
	return 0;
}

SEC("kretprobe/" CLKSTAT_FUNC_CSREAD_ACPI_PM)
int BPF_KRETPROBE(kp_csrx_acpi_pm)
{
	on_csr_exit(TM_CSREAD_ACPI_PM);
	return 0;
}

/* bpf-tp: sched_waking fires once the state matched. */
SEC("tp_btf/" CLKSTAT_TP_TTWU)
int BPF_PROG(tp_waking, struct task_struct *p)
{
	on_wakeup(p, TW_TP);
	return 0;
}

SEC("tp_btf/" CLKSTAT_TP_ENQUEUE)
int BPF_PROG(tp_wakeup, struct task_struct *p)
{
	on_enqueue(p, NULL, TW_TP);
	return 0;
}

/*
 * The module's window (twin_window.bpf.h), when the module is loaded
 * (twin.c's follow).  A reset also drops the events logged so far: a
 * TWIN_EV_RESET record tells twin.c's reader, and the lost count starts
 * again, as the module's reset empties its log.
 */
TWIN_WINDOW_ZERO(tw_zero_hists, hists, TM_N)

static long tw_zero_lost(__u64 cpu, void *ctx)
{
	__u32 k = 0;
	__u64 *lost = bpf_map_lookup_percpu_elem(&ev_lost, &k, cpu);

	if (lost)
		*lost = 0;
	return 0;
}

SEC("raw_tp/clkstat_control")
int BPF_PROG(tw_control, unsigned int op, int tgid, const char *metric)
{
	struct clkstat_event_rec *e;
	int act = twin_window_follow(op, tgid, metric);

	if (act == CLKSTAT_CTRL_START) {
		csw_pending = 0;
	} else if (act == CLKSTAT_CTRL_RESET) {
		tw_zero_hists();
		if (!with_events)
			return 0;
		bpf_loop(ncpus, tw_zero_lost, NULL, 0);
		e = ev_reserve(TWIN_EV_RESET, now_ns(), 0,
			       bpf_get_current_pid_tgid());
		if (e)
			ev_submit(e);
	}
	return 0;
}

/*
 * Markers, in every variant (they are not measured): a write to tracefs's
 * trace_marker logs its first CLKSTAT_EVENT_TEXT - 1 bytes up to a
 * newline, sanitized as kmod/probe_marker.c does.  tracing_mark_write()
 * itself cannot be probed (kernel/trace/ is built without ftrace's hooks,
 * and kprobe events refuse functions ftrace cannot trace), so the program
 * sits on vfs_write() and keeps the writes whose file's write operation
 * is tracing_mark_write() (a typeless weak ksym: 0, never matching, on a
 * kernel without it).  The user's buffer has no NUL: count bytes are
 * read, not a string.
 */
extern const void tracing_mark_write __ksym __weak;

SEC("fentry/vfs_write")
int BPF_PROG(fe_marker, struct file *file, const char *ubuf, __u64 count)
{
	struct clkstat_event_rec *e;
	__u64 n = count;
	int i;

	if (!with_events || !rec_on() || !n ||
	    (unsigned long)BPF_CORE_READ(file, f_op, write) !=
	    (unsigned long)&tracing_mark_write || !(unsigned long)&tracing_mark_write ||
	    !selected((struct task_struct *)bpf_get_current_task(), TW_KP))
		return 0;
	CLAMP(n, CLKSTAT_EVENT_TEXT - 1);
	e = ev_reserve(CLKSTAT_EV_MARKER, now_ns(), 0,
		       bpf_get_current_pid_tgid());
	if (!e)
		return 0;
	if (bpf_probe_read_user(e->text, n, ubuf)) {
		bpf_ringbuf_discard(e, BPF_RB_NO_WAKEUP);
		return 0;
	}
	for (i = 0; i < CLKSTAT_EVENT_TEXT - 1 && i < n; i++) {
		unsigned char c = e->text[i];

		if (c == '\n') {
			e->text[i] = 0;
			break;
		}
		if (!twin_marker_char_ok(c))
			e->text[i] = '_';
	}
	/* An empty text (a lone newline): the module refuses it too. */
	if (!e->text[0]) {
		bpf_ringbuf_discard(e, BPF_RB_NO_WAKEUP);
		return 0;
	}
	ev_submit(e);
	return 0;
}

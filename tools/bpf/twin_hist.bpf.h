/* SPDX-License-Identifier: GPL-2.0 */
/*
 * twin_hist.bpf.h - how the BPF programs add a sample to one metric's
 * per-CPU value (twin_shared.h's TWIN_HIST), the module's clkstat_record()
 * in BPF: included by twin.bpf.c and twin_trace.bpf.c, so that the
 * built-in probes and the user-defined ones record alike.  The bucket
 * math is the module's (kmod/uapi/clkstat_buckets.h).
 */
#ifndef CLKSTAT_BPF_TWIN_HIST_H
#define CLKSTAT_BPF_TWIN_HIST_H

typedef TWIN_HIST(CLKSTAT_NSLOTS_MAX) twin_hist_t;

/*
 * A value clamped where the verifier sees it: a plain "if (slot >= max)
 * return" is not enough, clang may index with a copy of slot taken before
 * the test, whose bounds the verifier does not know ("unbounded memory
 * access").  clkstat_value_to_slot() never exceeds the range, so the clamp
 * changes nothing.
 */
#define CLAMP(s, max)						\
	asm volatile("if %0 <= %1 goto +1; %0 = %1" : "+r"(s) : "i"(max))

/*
 * clkstat_value_to_slot() as a global function, verified on its own: its
 * result reaches the caller as an unknown scalar, which the clamp then
 * bounds.  Inlined, the verifier follows the bit search into branches
 * that cannot happen (a register with umin above umax), where no bound
 * helps and the slot access is refused.
 */
__noinline __u64 twin_value_to_slot(__u64 v, __u32 k)
{
	return clkstat_value_to_slot(v, k);
}

/*
 * Add sample v (ns) to h with k fractional bits.
 *
 * plain (a constant at every call): ordinary loads and stores, the
 * module's this_cpu ops as near as BPF comes (it has no unlocked
 * read-modify-write instruction: an add is a load, an add and a store).
 * That is right only when no other program of ours can run on this CPU
 * between the load and the store and write the same word, which the
 * caller decides from what writes it (twin.bpf.c, "Which adds are
 * plain"): a word written by one program only (the kernel's per-program
 * recursion guard, prog->active, keeps a fentry, fexit or tp_btf program
 * from running again on a CPU where it already runs, even preempted), or
 * by kprobe programs only (bpf_prog_active: no kprobe or tracepoint
 * program runs on a CPU where one already runs, and a kprobe handler
 * runs with preemption off).
 *
 * Otherwise atomic adds, so that a program of ours that interrupts or
 * preempts this one on the same CPU adds its sample whole, and min (kept
 * as ~min) and max with a bounded compare-and-swap loop.
 */
static __always_inline void twin_hist_add(twin_hist_t *h, __u64 v, __u32 k,
					  int plain)
{
	__u64 old, prev, nv = ~v, slot;
	int i;

	slot = twin_value_to_slot(v, k);
	CLAMP(slot, CLKSTAT_NSLOTS_MAX - 1);
	if (plain) {
		h->slot[slot].count++;
		h->slot[slot].sum += v >> clkstat_slot_sum_shift(slot, k);
		if (nv > h->nmin)
			h->nmin = nv;
		if (v > h->max)
			h->max = v;
		return;
	}
	__sync_fetch_and_add(&h->slot[slot].count, 1);
	__sync_fetch_and_add(&h->slot[slot].sum,
			     v >> clkstat_slot_sum_shift(slot, k));
	old = h->nmin;
	for (i = 0; i < 4 && nv > old; i++) {
		prev = __sync_val_compare_and_swap(&h->nmin, old, nv);
		if (prev == old)
			break;
		old = prev;
	}
	old = h->max;
	for (i = 0; i < 4 && v > old; i++) {
		prev = __sync_val_compare_and_swap(&h->max, old, v);
		if (prev == old)
			break;
		old = prev;
	}
}

/*
 * Bump counter idx of h (callers pass constants; clamped as a slot is);
 * plain as in twin_hist_add().
 */
static __always_inline void twin_hist_count(twin_hist_t *h, __u64 idx,
					    int plain)
{
	CLAMP(idx, TWIN_MAX_COUNTERS - 1);
	if (plain)
		h->counter[idx]++;
	else
		__sync_fetch_and_add(&h->counter[idx], 1);
}

#endif

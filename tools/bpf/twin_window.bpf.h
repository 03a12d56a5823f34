/* SPDX-License-Identifier: GPL-2.0 */
/*
 * twin_window.bpf.h - following the module's recording window, for
 * twin.bpf.c and twin_trace.bpf.c alike (Documentation/clkstat-bpf.rst,
 * "One window for module and twin").  clkstat.ko marks each start, stop,
 * reset and tgid it carries out with the clkstat:clkstat_control trace
 * event (kmod/control_trace.h); a raw-tracepoint program of each object
 * (a module's trace event needs no BTF that way) hands it to
 * twin_window_follow(), which does what the module does, at the same
 * instant, in the writer's context, under the module's command lock:
 *   start  a new epoch (what is pending from before is unmatched or
 *          stale, as in the module), recording on;
 *   stop   recording off;
 *   reset  the includer zeroes its histograms (TWIN_WINDOW_ZERO());
 *   tgid   the filter, unless --workload-only pinned it (tgid_pinned).
 * A start, stop or reset naming one metric is not followed: the twin has
 * one window for all of its metrics.
 *
 * The includer has, before including: .bss recording, epoch and
 * filter_tgid; read-only tgid_pinned and ncpus.
 */
#ifndef CLKSTAT_BPF_TWIN_WINDOW_H
#define CLKSTAT_BPF_TWIN_WINDOW_H

/*
 * CLKSTAT_CTRL_*: the values of kmod/uapi/clkstat_netlink.h's enum (the
 * spec's ctrl-op).
 */
enum twin_ctrl_op { CLKSTAT_CTRL_OPS(CLKSTAT_CAT_CTRL_ENUM) };

/*
 * The tgid filter now: the module's, which the program follows, or
 * --workload-only's pid.
 */
static __always_inline __u32 twin_filter_tgid(void)
{
	return *(volatile __u32 *)&filter_tgid;
}

/*
 * One clkstat_control event.  Return the op to act on further
 * (CLKSTAT_CTRL_START, CLKSTAT_CTRL_RESET: the includer's own state), or
 * -1 when there is nothing more to do.
 */
static __always_inline int twin_window_follow(unsigned int op, int tgid,
					      const char *metric)
{
	char c = 0;

	if (op == CLKSTAT_CTRL_TGID) {
		if (!tgid_pinned)
			*(volatile __u32 *)&filter_tgid = tgid;
		return -1;
	}
	if (bpf_probe_read_kernel(&c, 1, metric) || c)
		return -1;
	if (op == CLKSTAT_CTRL_START) {
		__sync_fetch_and_add(&epoch, 1);
		*(volatile __u32 *)&recording = 1;
		return op;
	}
	if (op == CLKSTAT_CTRL_STOP)
		*(volatile __u32 *)&recording = 0;
	return op == CLKSTAT_CTRL_RESET ? (int)op : -1;
}

/* Zeroes, never written: a reset copies them over (TWIN_WINDOW_ZERO()). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, twin_hist_t);
} hist_zero SEC(".maps");

/*
 * TWIN_WINDOW_ZERO(name, map, n): void name(void) zeroes the n
 * twin_hist_t elements of per-CPU array map on every CPU, each value
 * overwritten from hist_zero's by one kernel copy (a BPF store loop
 * would be 3850 stores a value).  The maps are named in the callback
 * itself: bpf_loop()'s context must be the stack, and a map pointer kept
 * there loses what the verifier knows of it.
 */
#define TWIN_WINDOW_ZERO(name, map, n)					\
static long name##_one(__u64 i, void *ctx)				\
{									\
	__u32 k0 = 0, key = i % (n), cpu = i / (n);			\
	void *z = bpf_map_lookup_elem(&hist_zero, &k0);			\
	twin_hist_t *h = bpf_map_lookup_percpu_elem(&map, &key, cpu);	\
									\
	if (h && z)							\
		bpf_probe_read_kernel(h, sizeof(*h), z);		\
	return 0;							\
}									\
static __always_inline void name(void)					\
{									\
	bpf_loop(ncpus * (n), name##_one, NULL, 0);			\
}

#endif

// SPDX-License-Identifier: GPL-2.0
/*
 * overhead.bpf.c - BPF's attach types on clkstat_hookbench.ko's target,
 * for clkstat-report overhead: each program does the work the module's
 * bench handler does (one per-CPU increment), so that the variants differ
 * only in how they are reached, and the count proves every call fired.
 * The loader attaches one program at a time; the others stay loaded and
 * unattached (autoattach is not used).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} hits SEC(".maps");

static __always_inline void count(void)
{
	__u32 key = 0;
	__u64 *v = bpf_map_lookup_elem(&hits, &key);

	if (v)
		*v += 1;	/* per-CPU: no other writer */
}

SEC("kprobe/clkstat_bench_target")
int BPF_KPROBE(ovh_kprobe)
{
	count();
	return 0;
}

SEC("kretprobe/clkstat_bench_target")
int BPF_KRETPROBE(ovh_kretprobe)
{
	count();
	return 0;
}

SEC("fentry/clkstat_bench_target")
int BPF_PROG(ovh_fentry, unsigned long a0, unsigned long a1, unsigned long a2)
{
	count();
	return 0;
}

SEC("fexit/clkstat_bench_target")
int BPF_PROG(ovh_fexit, unsigned long a0, unsigned long a1, unsigned long a2)
{
	count();
	return 0;
}

SEC("tp_btf/clkstat_bench_hit_tp")
int BPF_PROG(ovh_tp, unsigned long a0)
{
	count();
	return 0;
}

/* On clkstat-report's own empty function: the loader gives the offset. */
SEC("uprobe")
int BPF_KPROBE(ovh_uprobe)
{
	count();
	return 0;
}

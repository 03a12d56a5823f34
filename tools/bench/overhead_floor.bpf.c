// SPDX-License-Identifier: GPL-2.0
/*
 * overhead_floor.bpf.c - empty programs, one per attach type of the BPF
 * twin, on the twin's wakeup hook, for clkstat-report overhead's handlers
 * section: what the kernel's run-time statistics charge a program that
 * does nothing (the statistics' own clock reads, the call into the
 * program and its return).  Attached beside the twin's programs on the
 * same workload, their run_time_ns / run_cnt is the floor subtracted from
 * each of the twin's, which the module's handler figures do not carry.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "../../kmod/uapi/clkstat_catalog.h"

char LICENSE[] SEC("license") = "GPL";

SEC("fentry/" CLKSTAT_FUNC_TTWU)
int BPF_PROG(floor_fentry)
{
	return 0;
}

SEC("kprobe/" CLKSTAT_FUNC_TTWU)
int BPF_KPROBE(floor_kprobe)
{
	return 0;
}

SEC("tp_btf/" CLKSTAT_TP_TTWU)
int BPF_PROG(floor_tp)
{
	return 0;
}

/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * clkstat_wakeup.h - where probe ttwu ends a wakeup, for the module
 * (kmod/compat.h) and the BPF twin (tools/bpf/twin.c, twin.bpf.c) alike.
 *
 * Before 6.12 the end is the entry of ttwu_do_activate().  From 6.12 on,
 * EEVDF's delayed dequeue re-enqueues some woken tasks in ttwu_runnable()
 * without it, so the end is the entry of enqueue_task() for a wakeup:
 * flags with CLKSTAT_ENQUEUE_WAKEUP (ttwu_do_activate()'s), or a task that
 * is sched_delayed, queued (p->on_rq == CLKSTAT_TASK_ON_RQ_QUEUED, not
 * migrating) and not restored (no CLKSTAT_ENQUEUE_RESTORE: a priority or
 * class change).  The three values are kernel/sched/sched.h's, the same
 * on every line (ENQUEUE_DELAYED is not: 0x200 on 6.12, 0x20 on 7.x).
 * Documentation/clkstat-kernels.rst, "What changed between the lines".
 */
#ifndef _CLKSTAT_SHARED_WAKEUP_H
#define _CLKSTAT_SHARED_WAKEUP_H

#define CLKSTAT_ENQUEUE_FUNC_OLD	"ttwu_do_activate"
#define CLKSTAT_ENQUEUE_FUNC_NEW	"enqueue_task"

#define CLKSTAT_ENQUEUE_WAKEUP		0x01
#define CLKSTAT_ENQUEUE_RESTORE		0x02
#define CLKSTAT_TASK_ON_RQ_QUEUED	1

#endif /* _CLKSTAT_SHARED_WAKEUP_H */

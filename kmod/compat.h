/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat.h - every difference between the kernels clkstat supports (6.1,
 * 6.12 LTS, 7.x) that its code meets, and nothing else.  Code elsewhere
 * calls these helpers and never tests a kernel version itself.
 *
 * Included from C and from the assembly of the trampolines.
 */
#ifndef _CLKSTAT_COMPAT_H
#define _CLKSTAT_COMPAT_H

#include <linux/version.h>

#ifdef __ASSEMBLY__

#include <asm/cpufeatures.h>
#include <asm/nospec-branch.h>

/*
 * Call depth tracking (6.2+, CALL_THUNKS): code entered by a call that
 * no call thunk accounted for (an ftrace site calling a trampoline)
 * counts itself in with the assembler macro CALL_DEPTH_ACCOUNT, as the
 * kernel's own trampolines do.  Before 6.2 there is nothing to count.
 */
#ifndef X86_FEATURE_CALL_DEPTH
.macro CALL_DEPTH_ACCOUNT
.endm
#endif

/*
 * A return that is really a jump (the address was pushed, not called):
 * on call-depth-tracking CPUs a plain ret, which does not count out a
 * call the depth never counted in, as ftrace_regs_caller does it.
 */
.macro CLKSTAT_RET_AS_JUMP
#ifdef X86_FEATURE_CALL_DEPTH
	ALTERNATIVE __stringify(RET), __stringify(ANNOTATE_UNRET_SAFE; ret; int3), X86_FEATURE_CALL_DEPTH
#else
	RET
#endif
.endm

#else /* !__ASSEMBLY__ */

#include <linux/ftrace.h>
#include <linux/netlink.h>
#include <linux/sched.h>
#include <linux/tracepoint.h>
#include <linux/types.h>
#include <asm/nospec-branch.h>
#include <net/genetlink.h>
#include <net/netlink.h>
#include "shared/clkstat_wakeup.h"

/*
 * CALL_DEPTH_ACCOUNT as a string for top-level assembly (the direct
 * trampolines of direct_tramp.h): 6.2+ defines it, empty where call depth
 * tracking is not configured; before 6.2 there is nothing to count.
 */
#ifndef CALL_DEPTH_ACCOUNT
#define CALL_DEPTH_ACCOUNT	""
#endif

/*
 * The hooked function's argument @n (0-based) in an ftrace_ops callback.
 * 6.12 hides struct ftrace_regs behind accessors; 6.1 has none and keeps
 * a struct pt_regs inside.
 */
#ifdef ftrace_regs_get_argument
#define clkstat_fregs_arg(fregs, n)	ftrace_regs_get_argument(fregs, n)
#else
#define clkstat_fregs_arg(fregs, n)	regs_get_kernel_argument(&(fregs)->regs, n)
#endif

#ifdef CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS
/*
 * ftrace direct calls for an ftrace_ops already filtered to its sites:
 * the ops-based API was register_ftrace_direct_multi() until 6.3 and
 * took the name register_ftrace_direct() in 6.4 (the single-site API
 * of that name went away).  Either answers -EBUSY for a site that
 * already has a direct call.
 */
#if KERNEL_VERSION(6, 4, 0) <= LINUX_VERSION_CODE
static inline int clkstat_register_direct(struct ftrace_ops *ops,
					  unsigned long tramp)
{
	return register_ftrace_direct(ops, tramp);
}

/* The filter is the caller's to free, as with 6.1's API. */
static inline int clkstat_unregister_direct(struct ftrace_ops *ops,
					    unsigned long tramp)
{
	return unregister_ftrace_direct(ops, tramp, false);
}
#else
static inline int clkstat_register_direct(struct ftrace_ops *ops,
					  unsigned long tramp)
{
	return register_ftrace_direct_multi(ops, tramp);
}

static inline int clkstat_unregister_direct(struct ftrace_ops *ops,
					    unsigned long tramp)
{
	return unregister_ftrace_direct_multi(ops, tramp);
}
#endif
#endif /* CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS */

/*
 * A raw tracepoint of clkstat's own (DECLARE_TRACE): since 6.16 the
 * kernel appends "_tp" to the name it is given (trace_NAME_tp(),
 * __tracepoint_NAME_tp; DECLARE_TRACE_EVENT came with that to keep the
 * old naming for trace events), so clkstat names its tracepoints with
 * that suffix on every kernel and adds it itself where the kernel does
 * not.  Userspace (BPF tp_btf programs) sees the same name everywhere.
 */
#ifdef DECLARE_TRACE_EVENT
#define CLKSTAT_DECLARE_TRACE_TP(name, proto, args)			\
	DECLARE_TRACE(name, PARAMS(proto), PARAMS(args))
#else
#define CLKSTAT_DECLARE_TRACE_TP(name, proto, args)			\
	DECLARE_TRACE(name##_tp, PARAMS(proto), PARAMS(args))
#endif

/*
 * Where probe ttwu ends a wakeup (shared/clkstat_wakeup.h says what and why,
 * for the BPF twin too): ttwu_do_activate() before 6.12, enqueue_task()
 * for a wakeup from 6.12 on, where delayed dequeue re-enqueues some woken
 * tasks without ttwu_do_activate().  No header macro marks that change,
 * hence the version test.
 */
#if KERNEL_VERSION(6, 12, 0) <= LINUX_VERSION_CODE
#define CLKSTAT_ENQUEUE_FUNC		CLKSTAT_ENQUEUE_FUNC_NEW
/* The enqueue hook's flags argument at a wakeup (the handler bench). */
#define CLKSTAT_WAKEUP_ENQUEUE_FLAGS	CLKSTAT_ENQUEUE_WAKEUP
/* enqueue_task(rq, p, flags): its argument registers (direct_tramp.h). */
#define CLKSTAT_ENQUEUE_NARGS		3
static inline bool clkstat_wakeup_enqueue(struct task_struct *p,
					  unsigned long flags)
{
	if (flags & CLKSTAT_ENQUEUE_WAKEUP)
		return true;
	return !(flags & CLKSTAT_ENQUEUE_RESTORE) &&
	       READ_ONCE(p->se.sched_delayed) &&
	       READ_ONCE(p->on_rq) == CLKSTAT_TASK_ON_RQ_QUEUED;
}
#else
#define CLKSTAT_ENQUEUE_FUNC		CLKSTAT_ENQUEUE_FUNC_OLD
/* ttwu_do_activate()'s wake_flags: none needed. */
#define CLKSTAT_WAKEUP_ENQUEUE_FLAGS	0
/* ttwu_do_activate(rq, p, wake_flags, rf): its argument registers. */
#define CLKSTAT_ENQUEUE_NARGS		4
static inline bool clkstat_wakeup_enqueue(struct task_struct *p,
					  unsigned long flags)
{
	return true;
}
#endif

#ifdef CONFIG_FPROBE
#include <linux/fprobe.h>
/*
 * fprobe's handlers (hook_return.c): up to 6.13 they get a struct
 * pt_regs and the return slots come from a rethook pool of nr_maxactive;
 * from 6.14 on fprobe sits on the function graph tracer, the handlers
 * get a struct ftrace_regs, and each call's state lives on the task's
 * shadow stack, with no pool to size.  "struct clkstat_fprobe_regs" is
 * the handlers' type on either.
 */
#if KERNEL_VERSION(6, 14, 0) <= LINUX_VERSION_CODE
#define clkstat_fprobe_regs		ftrace_regs
#define clkstat_fprobe_arg(regs, n)	ftrace_regs_get_argument(regs, n)
#define clkstat_fprobe_ret(regs)	ftrace_regs_get_return_value(regs)
static inline void clkstat_fprobe_set_maxactive(struct fprobe *fp, int n)
{
}
#else
#define clkstat_fprobe_regs		pt_regs
#define clkstat_fprobe_arg(regs, n)	regs_get_kernel_argument(regs, n)
#define clkstat_fprobe_ret(regs)	regs_return_value(regs)
static inline void clkstat_fprobe_set_maxactive(struct fprobe *fp, int n)
{
	fp->nr_maxactive = n;
}
#endif
#endif /* CONFIG_FPROBE */

/*
 * A netlink error's message that is not a string literal (a user-defined
 * probe's refusal, a static string chosen at run time):
 * NL_SET_ERR_MSG() takes literals only, and its _FMT form came in 6.2.
 */
static inline void clkstat_extack_msg(struct netlink_ext_ack *extack,
				      const char *msg)
{
	if (extack)
		extack->_msg = msg;
}

/*
 * The generic netlink family's operations (netlink_gen.[ch], which the
 * 6.12 kernel's ynl-gen-c.py makes) are a table of split operations,
 * struct genl_split_ops, the family's .split_ops, which came in 6.2.
 * Each of clkstat's commands has a do or a dump, never both: one entry
 * each, and before 6.2 the same table is one of struct genl_ops, the
 * family's .ops (the GENL_CMD_CAP_DO or _DUMP in each entry's flags is
 * what 6.1 reports for it anyway).  The policy's integer ranges are
 * const from 6.2 on, as the generated ones are; 6.1's policy points to
 * them without const and never writes through the pointer.
 */
#if KERNEL_VERSION(6, 2, 0) <= LINUX_VERSION_CODE
#define CLKSTAT_GENL_FAMILY_OPS(table)					\
	.split_ops = (table), .n_split_ops = ARRAY_SIZE(table)
#else
#define genl_split_ops			genl_ops
#define CLKSTAT_GENL_FAMILY_OPS(table)					\
	.ops = (table), .n_ops = ARRAY_SIZE(table)
#undef NLA_POLICY_FULL_RANGE
#define NLA_POLICY_FULL_RANGE(tp, _range) {				\
	.type = NLA_ENSURE_UINT_OR_BINARY_TYPE(tp),			\
	.validation_type = NLA_VALIDATE_RANGE_PTR,			\
	.range = (struct netlink_range_validation *)(_range),		\
}
#endif

#endif /* __ASSEMBLY__ */

#endif /* _CLKSTAT_COMPAT_H */

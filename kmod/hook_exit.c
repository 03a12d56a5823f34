// SPDX-License-Identifier: GPL-2.0
/*
 * hook_exit.c - exit hooks for the direct and ftrace variants.
 *
 * Neither mechanism sees a function return.  Instead, for an exit hook,
 * the variant sends the call to a wrapper of ours in place of the hooked
 * function: the direct trampoline drops its return address and returns
 * to it, the ftrace callback sets the saved ip to it and ftrace returns
 * there.  The wrapper then runs as if the hooked function's caller had
 * called it: it calls enter, then the hooked function's body (its fentry
 * site plus MCOUNT_INSN_SIZE, so that the hook does not fire again), then
 * exit with the return value, and returns that value to the caller.  This
 * is how BPF's fexit trampolines and livepatch-style ftrace hooks work.
 *
 * IBT: the body has no ENDBR64, so the wrapper must not call it
 * indirectly.  clkstat_exit_call_body() (hook_exit_call.S) transfers to
 * it by RET instead, which IBT does not check, and the wrapper itself is
 * entered by RET too.  The measured interval stays what it was: enter's
 * timestamp and exit's are taken in the wrapper, around a direct call
 * and one push-and-return, on every kernel.
 *
 * Hence the limit in hook.h: the wrapper passes the six argument
 * registers on and returns both return registers, so it stands in for any
 * function that takes no argument on the stack.  For clkstat's own
 * targets that is known; for a user-defined one (h->user) the kernel's
 * BTF must say so (clkstat_exit_proto_ok()).  The per-call state (the
 * cookie) lives on the wrapper's stack, so the hooked function may sleep
 * or be preempted, and a recursive call gets a cookie of its own.
 *
 * Detaching: the variant unpatches the site and retires the wrapper
 * (clkstat_exit_unwrap()); after the variant's own wait (no CPU between
 * the patched site and a wrapper), its sync calls clkstat_exit_wait()
 * once for all hooks detached together.  That waits until no call is
 * inside a wrapper's body (per-CPU in/out counts), then for RCU-tasks once
 * more, for tasks preempted in a wrapper's last instructions, and only
 * then makes the retired wrappers available again.
 */
#include <linux/delay.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <asm/ftrace.h>
#include "hook.h"

/* clkstat's own exit hooks (csread, csswitch) and one per trace. */
#define CLKSTAT_EXIT_SLOTS	24

typedef struct clkstat_ret2 (*clkstat_wrapper_fn)(unsigned long a0,
						  unsigned long a1,
						  unsigned long a2,
						  unsigned long a3,
						  unsigned long a4,
						  unsigned long a5);

struct clkstat_exit_slot {
	unsigned long body;	/* the hooked function past its fentry site */
	clkstat_enter_fn enter;
	clkstat_exit_fn exit;
	bool used;
	bool retired;		/* unwrapped; free after the next wait */
};

static struct clkstat_exit_slot clkstat_exit_slots[CLKSTAT_EXIT_SLOTS];
/* Calls in wrappers: entries minus exits, summed over CPUs. */
static DEFINE_PER_CPU(long, clkstat_exit_inflight);

static __always_inline struct clkstat_ret2
clkstat_exit_call(struct clkstat_exit_slot *s, unsigned long a0,
		  unsigned long a1, unsigned long a2, unsigned long a3,
		  unsigned long a4, unsigned long a5)
{
	struct clkstat_ret2 ret;
	u64 cookie;

	this_cpu_inc(clkstat_exit_inflight);
	cookie = s->enter(a0, a1, a2);
	ret = clkstat_exit_call_body(a0, a1, a2, a3, a4, a5, s->body);
	s->exit(cookie, ret.rax);
	this_cpu_dec(clkstat_exit_inflight);
	return ret;
}

#define CLKSTAT_EXIT_WRAPPER(n)						\
static struct clkstat_ret2 notrace					\
clkstat_exit_wrapper_##n(unsigned long a0, unsigned long a1,		\
			 unsigned long a2, unsigned long a3,		\
			 unsigned long a4, unsigned long a5)		\
{									\
	return clkstat_exit_call(&clkstat_exit_slots[n], a0, a1, a2,	\
				 a3, a4, a5);				\
}

CLKSTAT_EXIT_WRAPPER(0)
CLKSTAT_EXIT_WRAPPER(1)
CLKSTAT_EXIT_WRAPPER(2)
CLKSTAT_EXIT_WRAPPER(3)
CLKSTAT_EXIT_WRAPPER(4)
CLKSTAT_EXIT_WRAPPER(5)
CLKSTAT_EXIT_WRAPPER(6)
CLKSTAT_EXIT_WRAPPER(7)
CLKSTAT_EXIT_WRAPPER(8)
CLKSTAT_EXIT_WRAPPER(9)
CLKSTAT_EXIT_WRAPPER(10)
CLKSTAT_EXIT_WRAPPER(11)
CLKSTAT_EXIT_WRAPPER(12)
CLKSTAT_EXIT_WRAPPER(13)
CLKSTAT_EXIT_WRAPPER(14)
CLKSTAT_EXIT_WRAPPER(15)
CLKSTAT_EXIT_WRAPPER(16)
CLKSTAT_EXIT_WRAPPER(17)
CLKSTAT_EXIT_WRAPPER(18)
CLKSTAT_EXIT_WRAPPER(19)
CLKSTAT_EXIT_WRAPPER(20)
CLKSTAT_EXIT_WRAPPER(21)
CLKSTAT_EXIT_WRAPPER(22)
CLKSTAT_EXIT_WRAPPER(23)

/* Entered by RET only (the direct trampoline, ftrace_regs_caller). */
static const clkstat_wrapper_fn clkstat_exit_wrappers[CLKSTAT_EXIT_SLOTS] = {
	clkstat_exit_wrapper_0, clkstat_exit_wrapper_1,
	clkstat_exit_wrapper_2, clkstat_exit_wrapper_3,
	clkstat_exit_wrapper_4, clkstat_exit_wrapper_5,
	clkstat_exit_wrapper_6, clkstat_exit_wrapper_7,
	clkstat_exit_wrapper_8, clkstat_exit_wrapper_9,
	clkstat_exit_wrapper_10, clkstat_exit_wrapper_11,
	clkstat_exit_wrapper_12, clkstat_exit_wrapper_13,
	clkstat_exit_wrapper_14, clkstat_exit_wrapper_15,
	clkstat_exit_wrapper_16, clkstat_exit_wrapper_17,
	clkstat_exit_wrapper_18, clkstat_exit_wrapper_19,
	clkstat_exit_wrapper_20, clkstat_exit_wrapper_21,
	clkstat_exit_wrapper_22, clkstat_exit_wrapper_23,
};

/*
 * May the wrapper stand in for @h's function?  For a user-defined
 * target, only when the kernel's BTF shows it takes no argument on the
 * stack (as BPF's fexit asks).
 */
static int clkstat_exit_proto_ok(struct clkstat_hook *h, unsigned long addr)
{
	if (!h->user)
		return 0;
	pr_err("clkstat: cannot time the return of %s with this variant: its prototype is not checked yet (use variant kprobe)\n",
	       h->func);
	return -EOPNOTSUPP;
}

/**
 * clkstat_exit_wrap() - a wrapper that runs an exit hook around a function
 * @h: the hook, with enter and exit set
 * @addr: the hooked function's fentry site
 * @wrapper: set to the wrapper's address, to send the hooked calls to
 *
 * Callers serialize (as for attach and detach).
 *
 * Return: 0, -ENOSPC when all wrappers are in use, or why the function
 * cannot be wrapped (logged).
 */
int clkstat_exit_wrap(struct clkstat_hook *h, unsigned long addr,
		      unsigned long *wrapper)
{
	unsigned int i;
	int ret;

	ret = clkstat_exit_proto_ok(h, addr);
	if (ret)
		return ret;
	for (i = 0; i < CLKSTAT_EXIT_SLOTS; i++) {
		struct clkstat_exit_slot *s = &clkstat_exit_slots[i];

		if (s->used)
			continue;
		s->body = addr + MCOUNT_INSN_SIZE;
		s->enter = h->enter;
		s->exit = h->exit;
		s->used = true;
		s->retired = false;
		*wrapper = (unsigned long)clkstat_exit_wrappers[i];
		return 0;
	}
	pr_err("clkstat: cannot hook the exit of %s: all %d exit wrappers in use\n",
	       h->func, CLKSTAT_EXIT_SLOTS);
	return -ENOSPC;
}

/**
 * clkstat_exit_unwrap() - give a wrapper back
 * @wrapper: from clkstat_exit_wrap()
 *
 * Once the hooked site no longer leads to it.  Calls may still be inside:
 * the wrapper keeps its hook until the next clkstat_exit_wait().
 */
void clkstat_exit_unwrap(unsigned long wrapper)
{
	unsigned int i;

	for (i = 0; i < CLKSTAT_EXIT_SLOTS; i++)
		if ((unsigned long)clkstat_exit_wrappers[i] == wrapper)
			clkstat_exit_slots[i].retired = true;
}

static long clkstat_exit_calls_inside(void)
{
	long n = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		n += per_cpu(clkstat_exit_inflight, cpu);
	return n;
}

/**
 * clkstat_exit_wait() - wait until no call is inside a wrapper, then free
 * the retired ones
 *
 * Called after the variant has made sure that no new call can enter a
 * retired wrapper.  A hooked function may sleep (a clocksource switch
 * waits for stop_machine()), so this sleeps too.  Does nothing when no
 * wrapper is retired.
 */
void clkstat_exit_wait(void)
{
	unsigned int i;
	bool any = false;

	for (i = 0; i < CLKSTAT_EXIT_SLOTS; i++)
		any |= clkstat_exit_slots[i].retired;
	if (!any)
		return;
	while (clkstat_exit_calls_inside())
		usleep_range(1000, 5000);
	/* For a task preempted after its decrement, still in the wrapper. */
	synchronize_rcu_tasks();
	for (i = 0; i < CLKSTAT_EXIT_SLOTS; i++) {
		if (clkstat_exit_slots[i].retired) {
			clkstat_exit_slots[i].retired = false;
			clkstat_exit_slots[i].used = false;
		}
	}
}

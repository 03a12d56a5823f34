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
 * once for all hooks detached together.  That first turns the retired
 * wrappers' exit hooks off (a wrapper calls exit with preemption off and
 * only while its slot is live, so one RCU grace period later no exit hook
 * of theirs runs, and the probe may free what its hooks use).  Then it
 * waits until no call is inside a retired wrapper's body (per-slot,
 * per-CPU in/out counts), then for RCU-tasks once more, for tasks
 * preempted in a wrapper's last instructions, and only then makes the
 * wrappers available again.
 *
 * A call may stay inside for long: a user-defined probe's function that
 * sleeps for minutes, or never returns.  The wait is bounded
 * (CLKSTAT_EXIT_DRAIN_MS): a wrapper with calls still inside after it
 * stays retired, and holds a reference on the module (rmmod then says it
 * is in use, instead of hanging) until a delayed work sees it empty and
 * frees it.
 */
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/workqueue.h>
#include <asm/ftrace.h>
#include "btf_func.h"
#include "hook.h"

/* clkstat's own exit hooks (csread, csswitch) and one per trace. */
#define CLKSTAT_EXIT_SLOTS	24

typedef struct clkstat_ret2 (*clkstat_wrapper_fn)(unsigned long a0,
						  unsigned long a1,
						  unsigned long a2,
						  unsigned long a3,
						  unsigned long a4,
						  unsigned long a5);

/* How long a detach waits for the calls inside a wrapper to return. */
#define CLKSTAT_EXIT_DRAIN_MS	200

struct clkstat_exit_slot {
	unsigned long body;	/* the hooked function past its fentry site */
	clkstat_enter_fn enter;
	clkstat_exit_fn exit;
	bool used;
	bool live;		/* exit is called; off once retired */
	bool retired;		/* unwrapped; free after the next wait */
	bool draining;		/* retired: freed once no call is inside */
	bool held;		/* still busy after the bound: said so */
};

static struct clkstat_exit_slot clkstat_exit_slots[CLKSTAT_EXIT_SLOTS];
/* Calls in each wrapper: entries minus exits, summed over CPUs. */
static DEFINE_PER_CPU(long [CLKSTAT_EXIT_SLOTS], clkstat_exit_inflight);
/* Serializes clkstat_exit_wait() with the drain work. */
static DEFINE_MUTEX(clkstat_exit_lock);
static void clkstat_exit_drain(struct work_struct *work);
static DECLARE_DELAYED_WORK(clkstat_exit_drain_work, clkstat_exit_drain);
/*
 * Whether a wait may end before the calls inside: only while the module
 * is live, so that a reference on it can keep a wrapper's code.  Not
 * during init, whose failure frees the module whatever its references,
 * nor at unload.
 */
static bool clkstat_exit_may_drain;

static __always_inline struct clkstat_ret2
clkstat_exit_call(unsigned int n, unsigned long a0, unsigned long a1,
		  unsigned long a2, unsigned long a3, unsigned long a4,
		  unsigned long a5)
{
	struct clkstat_exit_slot *s = &clkstat_exit_slots[n];
	struct clkstat_ret2 ret;
	u64 cookie;

	this_cpu_inc(clkstat_exit_inflight[n]);
	cookie = s->enter(a0, a1, a2);
	ret = clkstat_exit_call_body(a0, a1, a2, a3, a4, a5, s->body);
	/* Not once retired: the probe may have freed what exit uses. */
	preempt_disable_notrace();
	if (READ_ONCE(s->live))
		s->exit(cookie, ret.rax);
	preempt_enable_notrace();
	this_cpu_dec(clkstat_exit_inflight[n]);
	return ret;
}

#define CLKSTAT_EXIT_WRAPPER(n)						\
static struct clkstat_ret2 notrace					\
clkstat_exit_wrapper_##n(unsigned long a0, unsigned long a1,		\
			 unsigned long a2, unsigned long a3,		\
			 unsigned long a4, unsigned long a5)		\
{									\
	return clkstat_exit_call(n, a0, a1, a2, a3, a4, a5);		\
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
	struct clkstat_btf_proto p;
	int ret;

	if (!h->user)
		return 0;
	ret = clkstat_btf_func_proto(h->func, addr, &p);
	if (ret == -ENOENT || ret == -ENODATA) {
		pr_err("clkstat: cannot time the return of %s with this variant: %s, so its arguments cannot be checked (the kprobe variants can)\n",
		       h->func, ret == -ENOENT ?
		       "the kernel's BTF does not describe it" :
		       "no BTF for it (/sys/kernel/btf)");
		return -EOPNOTSUPP;
	}
	if (ret == -EOPNOTSUPP) {
		pr_err("clkstat: cannot time the return of %s with this variant: it passes or returns a float (the kprobe variants can)\n",
		       h->func);
		return ret;
	}
	if (ret) {
		pr_err("clkstat: cannot time the return of %s: reading its prototype from BTF failed: %d\n",
		       h->func, ret);
		return ret;
	}
	if (!clkstat_btf_wrappable(&p)) {
		pr_err("clkstat: cannot time the return of %s with this variant: it takes %s (the kprobe variants can)\n",
		       h->func, p.varargs ? "a variable argument list" :
		       "arguments on the stack");
		return -EOPNOTSUPP;
	}
	return 0;
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

		if (READ_ONCE(s->used))
			continue;
		s->body = addr + MCOUNT_INSN_SIZE;
		s->enter = h->enter;
		s->exit = h->exit;
		s->retired = false;
		s->draining = false;
		s->held = false;
		WRITE_ONCE(s->live, true);
		WRITE_ONCE(s->used, true);
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

static long clkstat_exit_calls_inside(unsigned int n)
{
	long calls = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		calls += per_cpu(clkstat_exit_inflight, cpu)[n];
	return calls;
}

/*
 * Free the draining wrappers that are empty now (after RCU-tasks, for a
 * task preempted after its decrement); true if some are still not.
 * Under clkstat_exit_lock.
 */
static bool clkstat_exit_drained(void)
{
	bool empty[CLKSTAT_EXIT_SLOTS] = {}, any = false, busy = false;
	unsigned int i;

	for (i = 0; i < CLKSTAT_EXIT_SLOTS; i++) {
		if (!clkstat_exit_slots[i].draining)
			continue;
		empty[i] = !clkstat_exit_calls_inside(i);
		any |= empty[i];
		busy |= !empty[i];
	}
	if (any)
		synchronize_rcu_tasks();
	for (i = 0; i < CLKSTAT_EXIT_SLOTS; i++) {
		if (!empty[i])
			continue;
		if (clkstat_exit_slots[i].held)
			pr_info("clkstat: the last call left an exit wrapper of a detached hook\n");
		clkstat_exit_slots[i].draining = false;
		clkstat_exit_slots[i].held = false;
		WRITE_ONCE(clkstat_exit_slots[i].used, false);
		module_put(THIS_MODULE);
	}
	return busy;
}

static void clkstat_exit_drain(struct work_struct *work)
{
	bool busy;

	mutex_lock(&clkstat_exit_lock);
	busy = clkstat_exit_drained();
	mutex_unlock(&clkstat_exit_lock);
	if (busy)
		schedule_delayed_work(&clkstat_exit_drain_work, HZ / 10);
}

/**
 * clkstat_exit_wait() - turn the retired wrappers' exit hooks off, wait
 * (bounded) until no call is inside them, then free them
 *
 * Called after the variant has made sure that no new call can enter a
 * retired wrapper.  A hooked function may sleep (a clocksource switch
 * waits for stop_machine()), so this sleeps too.  On return no exit hook
 * of a retired wrapper runs or will run.  A wrapper with calls still
 * inside after CLKSTAT_EXIT_DRAIN_MS drains in the background, holding
 * the module (see the top of this file).  Does nothing when no wrapper is
 * retired.
 */
void clkstat_exit_wait(void)
{
	unsigned long until = jiffies + msecs_to_jiffies(CLKSTAT_EXIT_DRAIN_MS);
	bool any = false, inside;
	unsigned int i;

	/* No module to hold (init, unload): wait for every call. */
	if (!READ_ONCE(clkstat_exit_may_drain))
		until = MAX_JIFFY_OFFSET + jiffies;

	for (i = 0; i < CLKSTAT_EXIT_SLOTS; i++) {
		if (!clkstat_exit_slots[i].retired)
			continue;
		WRITE_ONCE(clkstat_exit_slots[i].live, false);
		any = true;
	}
	if (!any)
		return;
	/* Every exit hook call runs with preemption off. */
	synchronize_rcu();
	do {
		inside = false;
		for (i = 0; i < CLKSTAT_EXIT_SLOTS; i++)
			if (clkstat_exit_slots[i].retired &&
			    clkstat_exit_calls_inside(i))
				inside = true;
		if (inside)
			usleep_range(1000, 5000);
	} while (inside && time_before(jiffies, until));
	mutex_lock(&clkstat_exit_lock);
	for (i = 0; i < CLKSTAT_EXIT_SLOTS; i++) {
		struct clkstat_exit_slot *s = &clkstat_exit_slots[i];

		if (!s->retired)
			continue;
		s->retired = false;
		s->draining = true;
		/* Put when it is freed, below or in the drain work. */
		__module_get(THIS_MODULE);
		s->held = clkstat_exit_calls_inside(i);
		if (s->held)
			pr_warn("clkstat: calls still inside a detached exit hook after %d ms (a function that sleeps or never returns): clkstat stays loaded until they return\n",
				CLKSTAT_EXIT_DRAIN_MS);
	}
	if (clkstat_exit_drained())
		schedule_delayed_work(&clkstat_exit_drain_work, HZ / 10);
	mutex_unlock(&clkstat_exit_lock);
}

/**
 * clkstat_exit_live() - the module is loaded: waits may be bounded
 *
 * Called last thing at a successful init.
 */
void clkstat_exit_live(void)
{
	WRITE_ONCE(clkstat_exit_may_drain, true);
}

/**
 * clkstat_exit_unload() - the module is going: waits are no longer bounded
 *
 * Called first thing at unload.  No wrapper drains then (each held the
 * module), but the drain work may still be finishing its last put.
 */
void clkstat_exit_unload(void)
{
	WRITE_ONCE(clkstat_exit_may_drain, false);
	cancel_delayed_work_sync(&clkstat_exit_drain_work);
}

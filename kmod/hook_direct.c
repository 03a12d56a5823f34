// SPDX-License-Identifier: GPL-2.0
/*
 * hook_direct.c - the "direct" variant: ftrace direct calls.
 *
 * clkstat_register_direct() (compat.h: register_ftrace_direct() since
 * 6.4, register_ftrace_direct_multi() before) turns a function's fentry
 * site into a call to a trampoline: no ftrace_ops list, no ftrace_regs,
 * no recursion bookkeeping, the same mechanism a BPF fentry trampoline
 * uses.  Every entry hook has a trampoline of its own (h->direct_tramp,
 * direct_tramp.h): it saves the function's argument registers and calls
 * the handler with a direct call.  No dispatcher, no indirect call.  An
 * exit hook goes through the kernel's return path instead
 * (hook_return.c): a direct call cannot see a return without clkstat's
 * text on the stack for the whole call.
 *
 * A function takes one direct call at a time: while clkstat sits on it, a
 * BPF fentry/fexit program cannot attach there, and the other way round.
 * Documentation/clkstat-probes.rst, "Hook variants".
 *
 * Callers serialize attach, detach and sync (module init and exit, the
 * control file's mutex).
 */
#include <linux/ftrace.h>
#include <linux/rcupdate.h>
#include <asm/ftrace.h>
#include "compat.h"
#include "direct_tramp.h"
#include "hook.h"

/*
 * Every attached entry hook takes a slot, which holds its ftrace_ops and
 * says which function it sits on.  Each slot has an ftrace_ops of its
 * own, filtered to its one site: ftrace's bookkeeping only (alone on a
 * site, the site calls the trampoline directly), as BPF trampolines use
 * it.  Not 6.1's single-site register_ftrace_direct(ip, addr): its
 * unregister allocates (a filter without the site), and when that fails
 * it warns, drops the site's entry and leaves the filter holding it, after
 * which ftrace's next update finds a direct site without a direct call and
 * shuts ftrace down for good (seen with fail-nth on a variant switch;
 * Documentation/clkstat-hardening.rst, "What the faults found").
 * Unregistering an ops allocates nothing.
 *
 * ret_ip (the hooked site plus MCOUNT_INSN_SIZE) is set while a hook is
 * attached and until the next sync after its detach, when ftrace is done
 * with the slot's ops: only then can the slot be reused.  The trampoline
 * and the handler are the module's text, which stays until the sync
 * before unload.
 */
struct clkstat_direct_slot {
	unsigned long ret_ip;
	unsigned long tramp;		/* the trampoline registered */
	bool retired;
	struct ftrace_ops ops;		/* filtered to the site, while attached */
};

static struct clkstat_direct_slot clkstat_direct_slots[CLKSTAT_DIRECT_SLOTS];

static int clkstat_direct_attach(struct clkstat_hook *h)
{
	struct clkstat_direct_slot *slot = NULL;
	unsigned long ip;
	unsigned int i;
	int ret;

	ret = clkstat_func_addr(h->func, "a direct call", &ip);
	if (ret)
		return ret;
	if (h->exit)
		return clkstat_return_attach(h, ip, "the direct variant");
	if (!h->direct_tramp) {
		pr_err("clkstat: cannot hook %s with a direct call: its handler has no direct trampoline (CLKSTAT_DIRECT_TRAMP())\n",
		       h->func);
		return -EINVAL;
	}
	for (i = 0; i < CLKSTAT_DIRECT_SLOTS; i++) {
		/* ftrace would say -EBUSY, and blame someone else. */
		if (READ_ONCE(clkstat_direct_slots[i].ret_ip) ==
		    ip + MCOUNT_INSN_SIZE && !clkstat_direct_slots[i].retired) {
			pr_err("clkstat: cannot hook %s with a direct call: clkstat hooks it already (one direct call per function: hook the second probe on it with another variant)\n",
			       h->func);
			return -EBUSY;
		}
	}
	for (i = 0; i < CLKSTAT_DIRECT_SLOTS; i++) {
		if (!clkstat_direct_slots[i].ret_ip) {
			slot = &clkstat_direct_slots[i];
			break;
		}
	}
	if (!slot) {
		pr_err("clkstat: cannot hook %s: all %d direct-call slots in use\n",
		       h->func, CLKSTAT_DIRECT_SLOTS);
		return -ENOSPC;
	}
	/* A slot's ops is reused only once ftrace is done with it. */
	memset(&slot->ops, 0, sizeof(slot->ops));
	ret = ftrace_set_filter_ip(&slot->ops, ip, 0, 0);
	if (ret) {
		ftrace_free_filter(&slot->ops);
		if (ret == -ENOMEM) {
			pr_err("clkstat: cannot hook %s with a direct call: out of memory\n",
			       h->func);
			return ret;
		}
		pr_err("clkstat: cannot hook %s with a direct call: not in available_filter_functions\n",
		       h->func);
		return -ENODEV;
	}
	slot->tramp = (unsigned long)h->direct_tramp;
	/* 7.x: bit 0 set means "jump" (direct_tramp.h); never ours. */
	if (WARN_ON_ONCE(slot->tramp & 1)) {
		pr_err("clkstat: cannot hook %s with a direct call: its trampoline is at an odd address, which ftrace would take for a jump\n",
		       h->func);
		ftrace_free_filter(&slot->ops);
		return -EINVAL;
	}
	slot->retired = false;
	/* Published before the site is patched, which is a full barrier. */
	WRITE_ONCE(slot->ret_ip, ip + MCOUNT_INSN_SIZE);
	ret = clkstat_register_direct(&slot->ops, slot->tramp);
	if (ret) {
		WRITE_ONCE(slot->ret_ip, 0);
		ftrace_free_filter(&slot->ops);
		if (ret == -EBUSY)
			pr_err("clkstat: %s already has a direct call (a BPF fentry/fexit program?): use variant=ftrace or variant=kprobe\n",
			       h->func);
		else
			pr_err("clkstat: cannot hook %s with a direct call: %d\n",
			       h->func, ret);
		return ret;
	}
	h->priv = slot;
	return 0;
}

static void clkstat_direct_detach(struct clkstat_hook *h)
{
	struct clkstat_direct_slot *slot = h->priv;

	if (h->exit) {
		clkstat_return_detach(h);
		return;
	}
	/*
	 * Unpatches the site; the sync waits for calls still in the
	 * trampoline.  Should ftrace refuse (shut down after a fault of its
	 * own), the site may still call the trampoline: the slot keeps its
	 * ops for good and clkstat holds itself (clkstat_hook_stuck()).
	 */
	if (clkstat_unregister_direct(&slot->ops, slot->tramp)) {
		clkstat_hook_stuck(h->func, "a direct call");
		return;
	}
	ftrace_free_filter(&slot->ops);
	slot->retired = true;
	h->priv = NULL;
}

static void clkstat_direct_sync(void)
{
	unsigned int i;

	/*
	 * The trampoline and the handlers may be preempted (preempt=full)
	 * or interrupted; RCU-tasks waits for every task to pass a voluntary
	 * switch, after which none can be in between.
	 */
	synchronize_rcu_tasks();
	for (i = 0; i < CLKSTAT_DIRECT_SLOTS; i++) {
		if (clkstat_direct_slots[i].retired) {
			WRITE_ONCE(clkstat_direct_slots[i].ret_ip, 0);
			clkstat_direct_slots[i].retired = false;
		}
	}
}

static unsigned long clkstat_direct_missed(const struct clkstat_hook *h)
{
	return h->exit ? clkstat_return_missed(h) : 0;
}

const struct clkstat_variant clkstat_variant_direct = {
	.name = CLKSTAT_VNAME(DIRECT),
	.attach = clkstat_direct_attach,
	.detach = clkstat_direct_detach,
	.sync = clkstat_direct_sync,
	.missed = clkstat_direct_missed,
};

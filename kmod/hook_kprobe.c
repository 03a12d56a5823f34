// SPDX-License-Identifier: GPL-2.0
/*
 * hook_kprobe.c - the "kprobe" and "kprobe-int3" variants.
 *
 * kprobe: a kprobe on the function's symbol.  On this kernel (x86_64,
 * KPROBES_ON_FTRACE) a probe there sits on the fentry site and is armed
 * through ftrace: the ftrace trampoline plus the kprobe layer (pt_regs
 * saved in full, kprobe lookup, per-CPU kprobe state).
 *
 * kprobe-int3: a kprobe on the first instruction after the fentry site
 * (found by address: past an ENDBR64 on IBT kernels), where ftrace cannot
 * help: the classic breakpoint, trap, handler and
 * single-step (or emulation) of the displaced instruction.  It carries a
 * post_handler, which keeps the optimizer from turning the breakpoint into
 * a jump, so the variant measures the int3 path it is named after.  The
 * argument registers still hold the arguments there: only the fentry nop
 * has run.
 *
 * Both report in the kernel log which kind of kprobe the kernel made.
 *
 * Exit hooks are kretprobes in both variants: the entry handler keeps the
 * cookie in the instance's data, the return handler passes it on with the
 * return value.  x86 puts a kretprobe only on a function's first byte, so
 * in the kprobe-int3 variant an exit hook's entry is ftrace-based too.
 *
 * The int3 trap runs its handlers as an NMI-like exception
 * (irqentry_nmi_enter() adds NMI_OFFSET + HARDIRQ_OFFSET to the preempt
 * count), so the kprobe-int3 handler works out the probed code's context
 * from the count before that and publishes it for
 * clkstat_hooked_in_task().
 */
#include <linux/kprobes.h>
#include <linux/slab.h>
#include <asm/ftrace.h>
#include "hook.h"
#include "reentry.h"

struct clkstat_kprobe_hook {
	struct kprobe kp;
	clkstat_entry_fn handler;
};

struct clkstat_kretprobe_hook {
	struct kretprobe rp;
	struct clkstat_hook *h;
};

DEFINE_PER_CPU(bool, clkstat_int3_in_task);

static int notrace clkstat_kprobe_pre(struct kprobe *kp, struct pt_regs *regs)
{
	struct clkstat_kprobe_hook *kh =
		container_of(kp, struct clkstat_kprobe_hook, kp);

	if (clkstat_reentered())
		return 0;
	kh->handler(regs->di, regs->si, regs->dx);
	return 0;
}

static int notrace clkstat_kprobe_int3_pre(struct kprobe *kp,
					   struct pt_regs *regs)
{
	struct clkstat_kprobe_hook *kh =
		container_of(kp, struct clkstat_kprobe_hook, kp);
	unsigned long probed = preempt_count() - (NMI_OFFSET + HARDIRQ_OFFSET);

	/* At the trap's level, where the handler's calls out run too. */
	if (clkstat_reentered())
		return 0;
	this_cpu_write(clkstat_int3_in_task,
		       !(probed & (NMI_MASK | HARDIRQ_MASK | SOFTIRQ_OFFSET)));
	kh->handler(regs->di, regs->si, regs->dx);
	return 0;
}

/* Present only to keep the int3 probe from being optimized. */
static void notrace clkstat_kprobe_post(struct kprobe *kp,
					struct pt_regs *regs,
					unsigned long flags)
{
}

static int notrace clkstat_kret_enter(struct kretprobe_instance *ri,
				      struct pt_regs *regs)
{
	struct clkstat_kretprobe_hook *kh =
		container_of(get_kretprobe(ri), struct clkstat_kretprobe_hook,
			     rp);

	/* Non-zero: no return hook for this call (its instance goes back). */
	if (clkstat_reentered())
		return 1;
	*(u64 *)ri->data = kh->h->enter(regs->di, regs->si, regs->dx);
	return 0;
}

static int notrace clkstat_kret_exit(struct kretprobe_instance *ri,
				     struct pt_regs *regs)
{
	struct clkstat_kretprobe_hook *kh =
		container_of(get_kretprobe(ri), struct clkstat_kretprobe_hook,
			     rp);

	if (clkstat_reentered())
		return 0;
	kh->h->exit(*(u64 *)ri->data, regs_return_value(regs));
	return 0;
}

/* Why register_kprobe() or register_kretprobe() refused, for the log. */
static const char *clkstat_kprobe_why(int err)
{
	switch (err) {
	case -ENOENT:
		return "no such function";
	case -EINVAL:
		return "the kernel refuses kprobes there (kprobe blacklist: NOKPROBE_SYMBOL, noinstr or entry code)";
	case -EILSEQ:
		return "not at an instruction boundary";
	case -ENOMEM:
		return "out of memory";
	default:
		return "refused";
	}
}

/**
 * clkstat_kretprobe_attach() - hook a function's entry and return
 * @h: the hook, with enter and exit set
 *
 * The kprobe variants' exit hooks, and the direct and ftrace variants'
 * where the kernel has no fprobe (hook_return.c).
 *
 * Return: 0 or register_kretprobe()'s error (logged).
 */
int clkstat_kretprobe_attach(struct clkstat_hook *h)
{
	struct clkstat_kretprobe_hook *kh;
	int ret;

	kh = kzalloc(sizeof(*kh), GFP_KERNEL);
	if (!kh)
		return -ENOMEM;
	kh->h = h;
	kh->rp.kp.symbol_name = h->func;
	kh->rp.entry_handler = clkstat_kret_enter;
	kh->rp.handler = clkstat_kret_exit;
	kh->rp.data_size = sizeof(u64);
	/* Enough instances for every CPU plus some sleepers. */
	kh->rp.maxactive = 2 * num_possible_cpus() + 16;
	ret = register_kretprobe(&kh->rp);
	if (ret) {
		pr_err("clkstat: cannot place a kretprobe on %s: %s (%d)\n",
		       h->func, clkstat_kprobe_why(ret), ret);
		kfree(kh);
		return ret;
	}
	h->priv = kh;
	return 0;
}

static int clkstat_kprobe_register(struct clkstat_hook *h, bool int3)
{
	struct clkstat_kprobe_hook *kh;
	int ret;

	if (h->exit)
		return clkstat_kretprobe_attach(h);
	kh = kzalloc(sizeof(*kh), GFP_KERNEL);
	if (!kh)
		return -ENOMEM;
	kh->handler = h->handler;
	kh->kp.symbol_name = h->func;
	kh->kp.pre_handler = clkstat_kprobe_pre;
	if (int3) {
		unsigned long fentry;

		/*
		 * The instruction after the fentry call, by address: on an
		 * IBT kernel the fentry call follows an ENDBR64, and
		 * "func + MCOUNT_INSN_SIZE" would land inside it.
		 */
		ret = clkstat_func_addr(h->func, "a kprobe past its fentry call",
					&fentry);
		if (ret) {
			kfree(kh);
			return ret;
		}
		kh->kp.symbol_name = NULL;
		kh->kp.addr = (kprobe_opcode_t *)(fentry + MCOUNT_INSN_SIZE);
		kh->kp.pre_handler = clkstat_kprobe_int3_pre;
		kh->kp.post_handler = clkstat_kprobe_post;
	}
	ret = register_kprobe(&kh->kp);
	if (ret) {
		if (int3)
			pr_err("clkstat: cannot place a kprobe on %pS: %s (%d)\n",
			       kh->kp.addr, clkstat_kprobe_why(ret), ret);
		else
			pr_err("clkstat: cannot place a kprobe on %s+%u: %s (%d)\n",
			       h->func, kh->kp.offset, clkstat_kprobe_why(ret),
			       ret);
		kfree(kh);
		return ret;
	}
	/* Where it sits (past an ENDBR64 on IBT kernels) and what it is. */
	pr_info("clkstat: kprobe on %pS is %s\n", kh->kp.addr,
		kprobe_ftrace(&kh->kp) ? "ftrace-based" :
		kprobe_optimized(&kh->kp) ? "optimized" : "a breakpoint");
	h->priv = kh;
	return 0;
}

static int clkstat_kprobe_attach(struct clkstat_hook *h)
{
	return clkstat_kprobe_register(h, false);
}

static int clkstat_kprobe_int3_attach(struct clkstat_hook *h)
{
	return clkstat_kprobe_register(h, true);
}

/*
 * Disarm a probe before unregistering it.  Disarming a kprobe that sits on
 * an fentry site allocates (ftrace's filter without the site).  If that
 * fails inside unregister_kprobe(), the probe stays registered and armed
 * while unregister returns as if done; unregister_kretprobe() has freed
 * the rethook by then too.  Either way the next hit would call into
 * memory freed after it (seen with fail-nth: a use-after-free in
 * get_kprobe(), then a kprobe calling a handler whose metrics were gone).
 * disable_kprobe() reports that failure instead.
 *
 * It must not be retried, though.  6.1's __disarm_kprobe_ftrace() counts
 * the probe out of kprobe_ftrace_enabled before the allocation that
 * fails, and does not count it back in: a second disarm counts it out
 * twice.  The count then stays below the number of armed probes until
 * reboot, and kprobes' ftrace_ops is no longer registered when the next
 * probes are armed: every ftrace-based kprobe of the kernel, ours and
 * everyone's, stops firing (seen as a kprobe variant that recorded
 * nothing after a failed switch).  So after the failure the probe is
 * marked disabled, which is what the kernel's count now says it is: the
 * ftrace handler skips a disabled probe, and unregister takes a disabled
 * probe out of the hash without disarming it again.  The site stays in
 * kprobes' ftrace filter, where the handler finds no probe and returns.
 * Nobody else writes this probe's flags: it is ours, and kprobes changes
 * them only when asked to about this probe, which only clkstat does.
 * (A breakpoint's disarm cannot fail; -EINVAL means not registered, which
 * unregister then takes as done.)
 */
static void clkstat_kprobe_disarm(struct kprobe *kp, const char *func)
{
	int ret = disable_kprobe(kp);

	if (ret == -ENOMEM && kprobe_ftrace(kp)) {
		pr_warn("clkstat: cannot disarm the kprobe on %s: out of memory; marked disabled, its site left in kprobes' ftrace filter\n",
			func);
		kp->flags |= KPROBE_FLAG_DISABLED;
	} else if (ret) {
		pr_err("clkstat: cannot disarm the kprobe on %s: %d\n", func,
		       ret);
	}
}

/**
 * clkstat_kretprobe_detach() - undo clkstat_kretprobe_attach()
 * @h: the hook
 *
 * Waits (synchronize_rcu) for handlers, which run non-preemptible.  Calls
 * still under way return through the kernel's rethook, which finds the
 * kretprobe gone.
 */
void clkstat_kretprobe_detach(struct clkstat_hook *h)
{
	struct clkstat_kretprobe_hook *kh = h->priv;

	clkstat_kprobe_disarm(&kh->rp.kp, h->func);
	unregister_kretprobe(&kh->rp);
	kfree(kh);
	h->priv = NULL;
}

static void clkstat_kprobe_detach(struct clkstat_hook *h)
{
	struct clkstat_kprobe_hook *kh = h->priv;

	if (h->exit) {
		clkstat_kretprobe_detach(h);
		return;
	}
	/* Waits (synchronize_rcu) for handlers, which run non-preemptible. */
	clkstat_kprobe_disarm(&kh->kp, h->func);
	unregister_kprobe(&kh->kp);
	kfree(kh);
	h->priv = NULL;
}

/* unregister_kprobe() has already waited. */
static void clkstat_kprobe_sync(void)
{
}

/**
 * clkstat_kretprobe_missed() - calls a kretprobe could not time
 * @h: the hook, attached by clkstat_kretprobe_attach()
 *
 * Return: out of instances, or hit while another kprobe ran, so far.
 */
unsigned long clkstat_kretprobe_missed(const struct clkstat_hook *h)
{
	const struct clkstat_kretprobe_hook *krh = h->priv;

	return READ_ONCE(krh->rp.nmissed) + READ_ONCE(krh->rp.kp.nmissed);
}

static unsigned long clkstat_kprobe_missed(const struct clkstat_hook *h)
{
	const struct clkstat_kprobe_hook *kh = h->priv;

	if (h->exit)
		return clkstat_kretprobe_missed(h);
	return READ_ONCE(kh->kp.nmissed);
}

const struct clkstat_variant clkstat_variant_kprobe = {
	.name = CLKSTAT_VNAME(KPROBE),
	.attach = clkstat_kprobe_attach,
	.detach = clkstat_kprobe_detach,
	.sync = clkstat_kprobe_sync,
	.missed = clkstat_kprobe_missed,
};

const struct clkstat_variant clkstat_variant_kprobe_int3 = {
	.name = CLKSTAT_VNAME(KPROBE_INT3),
	.attach = clkstat_kprobe_int3_attach,
	.detach = clkstat_kprobe_detach,
	.sync = clkstat_kprobe_sync,
	.missed = clkstat_kprobe_missed,
};

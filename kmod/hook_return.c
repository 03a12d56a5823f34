// SPDX-License-Identifier: GPL-2.0
/*
 * hook_return.c - exit hooks (a function's return, for a duration) for
 * the direct and ftrace variants, on the kernel's own return path.
 *
 * Neither a direct call nor an ftrace_ops sees a function return, so the
 * exit hooks are an fprobe, whose exit handlers run from the kernel's
 * return trampoline (rethook on 6.12, the function graph tracer's shadow
 * stack from 6.14 on), as BPF's kprobe_multi links use it; where the
 * kernel has no fprobe (Debian's 6.1: CONFIG_FPROBE is off) a kretprobe
 * does the same through the same rethook (hook_kprobe.c).  The per-call
 * state (the cookie enter returned) is the kernel's: fprobe's entry data,
 * a kretprobe instance's data.  Both handlers begin with
 * clkstat_reentered() (reentry.h), on top of fprobe's own ftrace
 * recursion lock.
 *
 * Why (no call is ever inside clkstat's text while the hooked function
 * runs, so untrace and rmmod finish at once; calls the kernel had no
 * return slot for are counted missed) and what it costs against the
 * wrappers it replaced: Documentation/clkstat-probes.rst, "Exit hooks", and
 * Documentation/clkstat-kernels.rst, "Exits, and what they add to the
 * interval".
 */
#include <linux/kprobes.h>
#include <linux/slab.h>
#include "compat.h"
#include "hook.h"
#include "reentry.h"

#ifdef CONFIG_FPROBE
#include <linux/fprobe.h>

struct clkstat_return_hook {
	struct fprobe fp;
	struct clkstat_hook *h;
};

static int notrace clkstat_return_enter(struct fprobe *fp,
					unsigned long entry_ip,
					unsigned long ret_ip,
					struct clkstat_fprobe_regs *regs,
					void *data)
{
	struct clkstat_return_hook *rh =
		container_of(fp, struct clkstat_return_hook, fp);

	/* Non-zero: fprobe does not hook this call's return. */
	if (clkstat_reentered())
		return 1;
	*(u64 *)data = rh->h->enter(clkstat_fprobe_arg(regs, 0),
				    clkstat_fprobe_arg(regs, 1),
				    clkstat_fprobe_arg(regs, 2));
	return 0;
}

static void notrace clkstat_return_exit(struct fprobe *fp,
					unsigned long entry_ip,
					unsigned long ret_ip,
					struct clkstat_fprobe_regs *regs,
					void *data)
{
	struct clkstat_return_hook *rh =
		container_of(fp, struct clkstat_return_hook, fp);

	if (clkstat_reentered())
		return;
	rh->h->exit(*(u64 *)data, clkstat_fprobe_ret(regs));
}

/**
 * clkstat_return_attach() - hook a function's entry and return
 * @h: the hook, with enter and exit set
 * @addr: the function's fentry site (clkstat_func_addr())
 * @how: the variant, for messages
 *
 * Return: 0, or register_fprobe_ips()'s error (logged).
 */
int clkstat_return_attach(struct clkstat_hook *h, unsigned long addr,
			  const char *how)
{
	struct clkstat_return_hook *rh;
	int ret;

	rh = kzalloc(sizeof(*rh), GFP_KERNEL);
	if (!rh)
		return -ENOMEM;
	rh->h = h;
	rh->fp.entry_handler = clkstat_return_enter;
	rh->fp.exit_handler = clkstat_return_exit;
	rh->fp.entry_data_size = sizeof(u64);
	/* Return slots for every CPU plus some sleepers, as kretprobes. */
	clkstat_fprobe_set_maxactive(&rh->fp, 2 * num_possible_cpus() + 16);
	ret = register_fprobe_ips(&rh->fp, &addr, 1);
	if (ret) {
		pr_err("clkstat: cannot hook the return of %s with %s: fprobe refused it (%d)\n",
		       h->func, how, ret);
		kfree(rh);
		return ret;
	}
	h->priv = rh;
	return 0;
}

/**
 * clkstat_return_detach() - undo clkstat_return_attach()
 * @h: the hook
 *
 * When this returns, no handler of @h runs or will run, whatever calls
 * of the function are still under way (they return through the kernel).
 * Should the kernel fail to unregister it (an allocation failing inside
 * ftrace), the fprobe is disabled instead and left to the kernel: fprobe
 * checks that flag before it calls a handler, so nothing calls into
 * clkstat's text from it, and its memory is never freed.
 */
void clkstat_return_detach(struct clkstat_hook *h)
{
	struct clkstat_return_hook *rh = h->priv;
	int ret;

	h->priv = NULL;
	ret = unregister_fprobe(&rh->fp);
	if (ret) {
		disable_fprobe(&rh->fp);
		pr_warn("clkstat: cannot unhook the return of %s (%d): its fprobe is disabled and left in place\n",
			h->func, ret);
		return;
	}
	kfree(rh);
}

/**
 * clkstat_return_missed() - returns the kernel could not time
 * @h: the hook, attached
 *
 * Return: calls fprobe skipped (recursion, out of return slots) so far.
 */
unsigned long clkstat_return_missed(const struct clkstat_hook *h)
{
	const struct clkstat_return_hook *rh = h->priv;

	return rh ? READ_ONCE(rh->fp.nmissed) : 0;
}

#else /* !CONFIG_FPROBE: the same three through a kretprobe (hook_kprobe.c) */

int clkstat_return_attach(struct clkstat_hook *h, unsigned long addr,
			  const char *how)
{
	return clkstat_kretprobe_attach(h);
}

void clkstat_return_detach(struct clkstat_hook *h)
{
	clkstat_kretprobe_detach(h);
}

unsigned long clkstat_return_missed(const struct clkstat_hook *h)
{
	return clkstat_kretprobe_missed(h);
}

#endif /* CONFIG_FPROBE */

// SPDX-License-Identifier: GPL-2.0
/*
 * hook_ftrace.c - the "ftrace" variant: one ftrace_ops per hooked function,
 * filtered to that function's fentry site.
 *
 * On x86_64 with DYNAMIC_FTRACE_WITH_ARGS the callback sees the hooked
 * function's argument registers in fregs without FTRACE_OPS_FL_SAVE_REGS,
 * which keeps the trampoline cheap (read through clkstat_fregs_arg(),
 * compat.h: 6.12 hides struct ftrace_regs behind accessors).  The ops handles its own recursion
 * (FTRACE_OPS_FL_RECURSION) so that ftrace can call it without the
 * assist wrapper when it is alone on the site.
 *
 * An exit hook is an fprobe (hook_return.c), itself an ftrace_ops with
 * the kernel's return path behind it.
 *
 * IBT: ftrace calls the callbacks indirectly; they are address-taken C
 * functions, which the compiler starts with ENDBR64.
 */
#include <linux/ftrace.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "compat.h"
#include "hook.h"
#include "reentry.h"

struct clkstat_ftrace_hook {
	struct ftrace_ops ops;
	clkstat_entry_fn handler;
};

/* A stuck hook's handler (clkstat_ftrace_detach()). */
static void notrace clkstat_ftrace_noop(unsigned long a0, unsigned long a1,
					unsigned long a2)
{
}

static void notrace clkstat_ftrace_entry(unsigned long ip,
					 unsigned long parent_ip,
					 struct ftrace_ops *op,
					 struct ftrace_regs *fregs)
{
	struct clkstat_ftrace_hook *fh =
		container_of(op, struct clkstat_ftrace_hook, ops);
	int bit;

	/* ftrace's own guard: an ftrace callback below us on this CPU. */
	bit = ftrace_test_recursion_trylock(ip, parent_ip);
	if (bit < 0) {
		this_cpu_inc(clkstat_reentries);
		return;
	}
	/* A direct or kprobe handler's call out is no ftrace callback. */
	if (clkstat_reentered())
		goto out;
	READ_ONCE(fh->handler)(clkstat_fregs_arg(fregs, 0), clkstat_fregs_arg(fregs, 1),
		    clkstat_fregs_arg(fregs, 2));
out:
	ftrace_test_recursion_unlock(bit);
}

static int clkstat_ftrace_attach(struct clkstat_hook *h)
{
	struct clkstat_ftrace_hook *fh;
	unsigned long addr;
	int ret;

	ret = clkstat_func_addr(h->func, "ftrace", &addr);
	if (ret)
		return ret;
	if (h->exit)
		return clkstat_return_attach(h, addr, "the ftrace variant");
	fh = kzalloc(sizeof(*fh), GFP_KERNEL);
	if (!fh)
		return -ENOMEM;
	fh->handler = h->handler;
	fh->ops.func = clkstat_ftrace_entry;
	fh->ops.flags = FTRACE_OPS_FL_RECURSION;

	/*
	 * By address, not by name: 6.1's ftrace_set_filter() takes an
	 * allocation failure while matching the name for a match, returns 0
	 * and leaves the filter empty, which to ftrace means every function
	 * (fail-nth on a variant switch: register_ftrace_function() then
	 * refused the exit hook, and an entry hook would have been called
	 * for the whole kernel).  ftrace_set_filter_ip() returns the error.
	 */
	ret = ftrace_set_filter_ip(&fh->ops, addr, 0, 0);
	if (ret == -ENOMEM) {
		pr_err("clkstat: cannot hook %s with ftrace: out of memory\n",
		       h->func);
		goto err_filter;
	}
	if (ret) {
		pr_err("clkstat: cannot hook %s with ftrace (%d): not in available_filter_functions\n",
		       h->func, ret);
		goto err_filter;
	}
	ret = register_ftrace_function(&fh->ops);
	if (ret) {
		pr_err("clkstat: register_ftrace_function(%s) failed: %d\n",
		       h->func, ret);
		goto err_filter;
	}
	h->priv = fh;
	return 0;

err_filter:
	ftrace_free_filter(&fh->ops);
	kfree(fh);
	return ret;
}

static void clkstat_ftrace_detach(struct clkstat_hook *h)
{
	struct clkstat_ftrace_hook *fh = h->priv;

	if (h->exit) {
		clkstat_return_detach(h);
		return;
	}
	h->priv = NULL;
	/*
	 * A module's ops is "dynamic" to ftrace: unregistering waits until no
	 * CPU or preempted task is still inside the callback.  Should it fail
	 * (ftrace shut down after a fault of its own: 6.1 then still calls
	 * the ops from its trampoline), the ops stays where ftrace has it,
	 * its handler does nothing from now on, and clkstat holds itself so
	 * that its code stays (clkstat_hook_stuck()); freeing it is what
	 * crashed 6.1 once (Documentation/clkstat-bpf.rst).
	 */
	if (unregister_ftrace_function(&fh->ops)) {
		WRITE_ONCE(fh->handler, clkstat_ftrace_noop);
		clkstat_hook_stuck(h->func, "ftrace");
		return;
	}
	ftrace_free_filter(&fh->ops);
	kfree(fh);
}

/* unregister_ftrace_function() and unregister_fprobe() have waited. */
static void clkstat_ftrace_sync(void)
{
}

static unsigned long clkstat_ftrace_missed(const struct clkstat_hook *h)
{
	return h->exit ? clkstat_return_missed(h) : 0;
}

const struct clkstat_variant clkstat_variant_ftrace = {
	.name = CLKSTAT_VNAME(FTRACE),
	.attach = clkstat_ftrace_attach,
	.detach = clkstat_ftrace_detach,
	.sync = clkstat_ftrace_sync,
	.missed = clkstat_ftrace_missed,
};

// SPDX-License-Identifier: GPL-2.0
/*
 * hook_tracepoint.c - the "tracepoint" variant: a probe function on the
 * kernel tracepoint a hook names as its stand-in (sched_waking for
 * try_to_wake_up, ...).  The scheduler's tracepoints are not exported to
 * modules, so they are found by name with for_each_kernel_tracepoint().
 *
 * One probe function serves every tracepoint: it is registered with the
 * hook as its data and passes on the first three arguments.  A tracepoint
 * with fewer arguments leaves the rest undefined; a hook's tp_handler
 * reads only the arguments its tracepoint has.
 */
#include <linux/string.h>
#include <linux/tracepoint.h>
#include "hook.h"

struct clkstat_tp_find {
	const char *name;
	struct tracepoint *tp;
};

static void clkstat_tp_match(struct tracepoint *tp, void *priv)
{
	struct clkstat_tp_find *f = priv;

	if (!strcmp(tp->name, f->name))
		f->tp = tp;
}

static void notrace clkstat_tp_probe(void *data, unsigned long a0,
				     unsigned long a1, unsigned long a2)
{
	const struct clkstat_hook *h = data;

	h->tp_handler(a0, a1, a2);
}

static int clkstat_tp_attach(struct clkstat_hook *h)
{
	struct clkstat_tp_find f = { .name = h->tracepoint, .tp = h->tp };
	int ret;

	if (!f.tp && !f.name) {
		pr_err("clkstat: %s has no tracepoint to stand in for it\n",
		       h->func);
		return -EOPNOTSUPP;
	}
	if (!f.tp)
		for_each_kernel_tracepoint(clkstat_tp_match, &f);
	if (!f.tp) {
		pr_err("clkstat: no tracepoint %s in this kernel\n",
		       h->tracepoint);
		return -ENOENT;
	}
	ret = tracepoint_probe_register(f.tp, (void *)clkstat_tp_probe, h);
	if (ret) {
		pr_err("clkstat: cannot attach to tracepoint %s: %d\n",
		       f.tp->name, ret);
		return ret;
	}
	h->priv = f.tp;
	return 0;
}

static void clkstat_tp_detach(struct clkstat_hook *h)
{
	WARN_ON(tracepoint_probe_unregister(h->priv, (void *)clkstat_tp_probe,
					    h));
	h->priv = NULL;
}

static void clkstat_tp_sync(void)
{
	tracepoint_synchronize_unregister();
}

const struct clkstat_variant clkstat_variant_tracepoint = {
	.name = CLKSTAT_VNAME(TRACEPOINT),
	.attach = clkstat_tp_attach,
	.detach = clkstat_tp_detach,
	.sync = clkstat_tp_sync,
};

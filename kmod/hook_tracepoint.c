// SPDX-License-Identifier: GPL-2.0
/*
 * hook_tracepoint.c - the "tracepoint" variant: a probe function on the
 * kernel tracepoint a hook names as its stand-in (sched_waking for
 * try_to_wake_up, ...).  The scheduler's tracepoints are not exported to
 * modules, so they are found by name with for_each_kernel_tracepoint().
 *
 * A module's tracepoint (a user-defined probe's tp:X-Y may name one, e.g.
 * clkstat_hookbench's) is found through the tracepoint module notifier,
 * which tells a new subscriber of every module with tracepoints; the
 * module is held while its tracepoint is attached.
 *
 * The probe function is one of the tracepoint's own type where clkstat
 * has one (tp_probes.c, for kCFI), registered with the hook as its data;
 * it passes the tracepoint's first arguments on to the hook's tp_handler,
 * which reads only the arguments its tracepoint has.
 */
#include <linux/module.h>
#include <linux/notifier.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include "hook.h"
#include "tp_probes.h"

struct clkstat_tp_find {
	const char *name;
	struct tracepoint *tp;
	struct module *mod;		/* a module's tracepoint: held */
	struct notifier_block nb;
};

/* What an attached hook holds (h->priv). */
struct clkstat_tp_hook {
	struct tracepoint *tp;
	struct module *mod;
	void *probe;
};

static void clkstat_tp_match(struct tracepoint *tp, void *priv)
{
	struct clkstat_tp_find *f = priv;

	if (!strcmp(tp->name, f->name))
		f->tp = tp;
}

#ifdef CONFIG_MODULES
/* Called for each module with tracepoints, under the notifier's mutex. */
static int clkstat_tp_mod_match(struct notifier_block *nb, unsigned long val,
				void *data)
{
	struct clkstat_tp_find *f = container_of(nb, struct clkstat_tp_find,
						 nb);
	struct tp_module *tm = data;
	struct tracepoint *tp;
	unsigned int i;

	if (val != MODULE_STATE_COMING || f->tp)
		return NOTIFY_OK;
	for (i = 0; i < tm->mod->num_tracepoints; i++) {
		tp = tracepoint_ptr_deref(&tm->mod->tracepoints_ptrs[i]);
		if (strcmp(tp->name, f->name))
			continue;
		/* A module on its way out keeps its tracepoints to itself. */
		if (try_module_get(tm->mod)) {
			f->tp = tp;
			f->mod = tm->mod;
		}
		break;
	}
	return NOTIFY_OK;
}

/* Look for f->name among the modules' tracepoints. */
static void clkstat_tp_find_in_modules(struct clkstat_tp_find *f)
{
	f->nb.notifier_call = clkstat_tp_mod_match;
	if (!register_tracepoint_module_notifier(&f->nb))
		unregister_tracepoint_module_notifier(&f->nb);
}
#else
static void clkstat_tp_find_in_modules(struct clkstat_tp_find *f)
{
}
#endif

static int clkstat_tp_attach(struct clkstat_hook *h)
{
	struct clkstat_tp_find f = { .name = h->tracepoint, .tp = h->tp };
	struct clkstat_tp_hook *th = NULL;
	void *probe;
	int ret;

	if (!f.tp && !f.name) {
		pr_err("clkstat: %s has no tracepoint to stand in for it\n",
		       h->func);
		return -EOPNOTSUPP;
	}
	if (!f.tp)
		for_each_kernel_tracepoint(clkstat_tp_match, &f);
	if (!f.tp)
		clkstat_tp_find_in_modules(&f);
	if (!f.tp) {
		pr_err("clkstat: no tracepoint %s in this kernel or its modules\n",
		       h->tracepoint);
		return -ENOENT;
	}
	probe = clkstat_tp_probe(f.tp, h->tp ? h->tp_owner : f.mod);
	if (!probe) {
		pr_err("clkstat: tracepoint %s: this kernel type-checks indirect calls (kCFI) and clkstat has no probe of its type\n",
		       f.tp->name);
		ret = -EOPNOTSUPP;
		goto err;
	}
	th = kzalloc(sizeof(*th), GFP_KERNEL);
	if (!th) {
		ret = -ENOMEM;
		goto err;
	}
	th->probe = probe;
	ret = tracepoint_probe_register(f.tp, probe, h);
	if (ret) {
		pr_err("clkstat: cannot attach to tracepoint %s: %d\n",
		       f.tp->name, ret);
		goto err;
	}
	th->tp = f.tp;
	th->mod = f.mod;
	h->priv = th;
	return 0;
err:
	kfree(th);
	module_put(f.mod);
	return ret;
}

static void clkstat_tp_detach(struct clkstat_hook *h)
{
	struct clkstat_tp_hook *th = h->priv;

	WARN_ON(tracepoint_probe_unregister(th->tp, th->probe, h));
	/* The probe runs in our code, not the module's: it may go now. */
	module_put(th->mod);
	kfree(th);
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

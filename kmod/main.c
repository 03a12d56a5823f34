// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - clkstat module init and exit: parameters, probe selection, and
 * the order in which everything is set up and torn down.
 *
 * Setup: metrics and tables (probe init), hooks, debugfs, then recording
 * starts.  Teardown runs in reverse, so that no handler can run once the
 * memory it writes is freed, and none can run after rmmod returns.
 */
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "control.h"
#include "debugfs.h"
#include "hist.h"
#include "probes.h"

static char *probes = "ttwu";
module_param(probes, charp, 0444);
MODULE_PARM_DESC(probes, "comma-separated probes to enable: ttwu, tkread (default ttwu)");

/* The cheapest, as clkstat_hookbench.ko shows (make bench). */
static char *variant = "direct";
module_param(variant, charp, 0444);
MODULE_PARM_DESC(variant, "hook variant: direct, ftrace, kprobe, kprobe-int3 or tracepoint (default direct)");

static unsigned int frac_bits = CLKSTAT_FRAC_BITS_DEFAULT;
module_param(frac_bits, uint, 0444);
MODULE_PARM_DESC(frac_bits, "sub-buckets per power of two = 2^frac_bits, 0..5 (default 3)");

static unsigned int corr_entries = 4096;
module_param(corr_entries, uint, 0444);
MODULE_PARM_DESC(corr_entries, "per-task wakeup table entries, a power of two in 64..1048576 (default 4096)");

#define CLKSTAT_CORR_MIN	64U
#define CLKSTAT_CORR_MAX	(1U << 20)

static struct clkstat_probe *const clkstat_known_probes[] = {
	&clkstat_probe_ttwu,
	&clkstat_probe_tkread,
};

static struct clkstat_probe *clkstat_active[ARRAY_SIZE(clkstat_known_probes)];
static unsigned int clkstat_nactive;
static const struct clkstat_backend *clkstat_backend;

static struct clkstat_probe *clkstat_probe_by_name(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(clkstat_known_probes); i++)
		if (!strcmp(clkstat_known_probes[i]->name, name))
			return clkstat_known_probes[i];
	return NULL;
}

/* Fill clkstat_active from probes=; an empty string enables nothing. */
static int clkstat_select_probes(const char *list)
{
	struct clkstat_probe *p;
	char *dup, *s, *name;
	unsigned int i;
	int ret = 0;

	clkstat_nactive = 0;
	if (!*list)
		return 0;
	dup = kstrdup(list, GFP_KERNEL);
	if (!dup)
		return -ENOMEM;
	s = dup;
	while ((name = strsep(&s, ",")) != NULL) {
		p = clkstat_probe_by_name(name);
		if (!p) {
			pr_err("clkstat: probes=%s: unknown probe '%s' (known: ttwu, tkread)\n",
			       list, name);
			ret = -EINVAL;
			break;
		}
		for (i = 0; i < clkstat_nactive; i++)
			if (clkstat_active[i] == p)
				break;
		if (i < clkstat_nactive) {
			pr_err("clkstat: probes=%s: probe '%s' given twice\n",
			       list, name);
			ret = -EINVAL;
			break;
		}
		clkstat_active[clkstat_nactive++] = p;
	}
	kfree(dup);
	return ret;
}

static int clkstat_check_params(void)
{
	unsigned int i;
	int ret;

	if (frac_bits > CLKSTAT_FRAC_BITS_MAX) {
		pr_err("clkstat: frac_bits=%u: out of range 0..%d\n", frac_bits,
		       CLKSTAT_FRAC_BITS_MAX);
		return -EINVAL;
	}
	if (!is_power_of_2(corr_entries) || corr_entries < CLKSTAT_CORR_MIN ||
	    corr_entries > CLKSTAT_CORR_MAX) {
		pr_err("clkstat: corr_entries=%u: not a power of two in %u..%u\n",
		       corr_entries, CLKSTAT_CORR_MIN, CLKSTAT_CORR_MAX);
		return -EINVAL;
	}
	clkstat_backend = clkstat_backend_find(variant);
	if (!clkstat_backend) {
		pr_err("clkstat: variant=%s: unknown variant (known: direct, ftrace, kprobe, kprobe-int3, tracepoint)\n",
		       variant);
		return -EINVAL;
	}
	ret = clkstat_select_probes(probes);
	if (ret)
		return ret;
	for (i = 0; i < clkstat_nactive; i++) {
		struct clkstat_probe *p = clkstat_active[i];

		if (!clkstat_hooks_supported(clkstat_backend, p->hooks,
					     p->nhooks)) {
			pr_err("clkstat: probe %s cannot run with variant=%s: the kernel has no tracepoint for it (use direct, ftrace or kprobe)\n",
			       p->name, clkstat_backend->name);
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * Undo clkstat_start_probes(): detach the hooks of the first nattached
 * active probes, then free the first n.  Every hook is gone before any
 * probe frees anything, because one probe's handlers may feed another's
 * tables (ttwu feeds tkread).
 */
static void clkstat_stop_probes(unsigned int n, unsigned int nattached)
{
	unsigned int i = nattached;

	while (i--)
		clkstat_hooks_detach(clkstat_backend, clkstat_active[i]->hooks,
				     clkstat_active[i]->nhooks);
	while (n--)
		clkstat_active[n]->exit();
}

static int clkstat_start_probes(void)
{
	struct clkstat_probe_cfg cfg = {
		.frac_bits = frac_bits,
		.corr_entries = corr_entries,
		.backend = clkstat_backend,
	};
	unsigned int i, j;
	int ret;

	for (i = 0; i < clkstat_nactive; i++)
		if (clkstat_active[i] == &clkstat_probe_ttwu)
			cfg.with_ttwu = true;
	for (i = 0; i < clkstat_nactive; i++) {
		ret = clkstat_active[i]->init(&cfg);
		if (ret) {
			pr_err("clkstat: probe %s: setup failed: %d\n",
			       clkstat_active[i]->name, ret);
			clkstat_stop_probes(i, 0);
			return ret;
		}
	}
	for (j = 0; j < clkstat_nactive; j++) {
		ret = clkstat_hooks_attach(clkstat_backend,
					   clkstat_active[j]->hooks,
					   clkstat_active[j]->nhooks);
		if (ret) {
			pr_err("clkstat: probe %s: cannot attach with variant %s: %d\n",
			       clkstat_active[j]->name, clkstat_backend->name,
			       ret);
			clkstat_stop_probes(clkstat_nactive, j);
			return ret;
		}
	}
	return 0;
}

static void clkstat_set_all(enum clkstat_op op)
{
	struct clkstat_cmd cmd = { .op = op };

	clkstat_control_exec(&cmd);
}

static int __init clkstat_init(void)
{
	int ret;

	ret = clkstat_check_params();
	if (ret)
		return ret;
	ret = clkstat_start_probes();
	if (ret)
		return ret;
	clkstat_debugfs_init();
	clkstat_set_all(CLKSTAT_OP_START);
	pr_info("clkstat: loaded: probes=%s variant=%s frac_bits=%u\n",
		probes, clkstat_backend->name, frac_bits);
	return 0;
}

static void __exit clkstat_exit(void)
{
	clkstat_set_all(CLKSTAT_OP_STOP);
	clkstat_debugfs_exit();
	clkstat_stop_probes(clkstat_nactive, clkstat_nactive);
	pr_info("clkstat: unloaded\n");
}

module_init(clkstat_init);
module_exit(clkstat_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("clkstat: latency histograms of the wakeup and timekeeping paths");

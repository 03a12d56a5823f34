// SPDX-License-Identifier: GPL-2.0
/*
 * init.c - clkstat module init and exit: parameters, probe selection, and
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
#include "clock.h"
#include "control_run.h"
#include "control_lang.h"
#include "debugfs.h"
#include "evlog.h"
#include "hist.h"
#include "netlink.h"
#include "probes.h"
#include "rq_clock.h"
#include "generated/rq_offsets.h"
#include "uapi/clkstat_version.h"

static char *probes = "ttwu";
module_param(probes, charp, 0444);
MODULE_PARM_DESC(probes, "comma-separated probes to enable: ttwu, tkread, csread, csswitch, clockoff (default ttwu)");

/* The cheapest, as clkstat_hookbench.ko shows (make bench). */
static char *variant = "direct";
module_param(variant, charp, 0444);
MODULE_PARM_DESC(variant, "hook variant: direct, ftrace, kprobe, kprobe-int3, tracepoint or off (default direct)");

/* Into the probes' one frac_bits, clkstat_frac_bits (hist.h). */
module_param_named(frac_bits, clkstat_frac_bits, uint, 0444);
MODULE_PARM_DESC(frac_bits, "sub-buckets per power of two = 2^frac_bits, 0..5 (default 3)");

static unsigned int corr_entries = 4096;
module_param(corr_entries, uint, 0444);
MODULE_PARM_DESC(corr_entries, "per-task wakeup table entries, a power of two in 64..1048576 (default 4096)");

static unsigned int events;
module_param(events, uint, 0444);
MODULE_PARM_DESC(events, "event log entries per CPU, 0..1048576, 0 for no log (default 0)");

#ifdef CLKSTAT_FAULT_HOOKS
/* Test only: see clkstat_fault_rename() in probes.c. */
static char *fault_hook;
module_param(fault_hook, charp, 0444);
MODULE_PARM_DESC(fault_hook, "test only (CLKSTAT_FAULT_HOOKS=1 builds): OLD=NEW renames the hook on function or tracepoint OLD to NEW before attaching");
#endif

#define CLKSTAT_PENDING_MIN	64U
#define CLKSTAT_PENDING_MAX	(1U << 20)

static const struct clkstat_variant *clkstat_load_variant;

static int clkstat_check_params(void)
{
	const char *bad;
	int ret;

	if (clkstat_frac_bits > CLKSTAT_FRAC_BITS_MAX) {
		pr_err("clkstat: frac_bits=%u: out of range 0..%d\n",
		       clkstat_frac_bits, CLKSTAT_FRAC_BITS_MAX);
		return -EINVAL;
	}
	if (!is_power_of_2(corr_entries) || corr_entries < CLKSTAT_PENDING_MIN ||
	    corr_entries > CLKSTAT_PENDING_MAX) {
		pr_err("clkstat: corr_entries=%u: not a power of two in %u..%u\n",
		       corr_entries, CLKSTAT_PENDING_MIN, CLKSTAT_PENDING_MAX);
		return -EINVAL;
	}
	if (events > CLKSTAT_EVENTS_MAX) {
		pr_err("clkstat: events=%u: out of range 0..%u\n", events,
		       CLKSTAT_EVENTS_MAX);
		return -EINVAL;
	}
	clkstat_load_variant = clkstat_variant_find(variant);
	if (!clkstat_load_variant) {
		char known[96];

		clkstat_variant_names(known, sizeof(known));
		pr_err("clkstat: variant=%*pE: unknown variant (known: %s)\n",
		       (int)strlen(variant), variant, known);
		return -EINVAL;
	}
	if (clkstat_load_variant->needs) {
		pr_err("clkstat: variant=%s needs %s, which this kernel lacks\n",
		       clkstat_load_variant->name, clkstat_load_variant->needs);
		return -EINVAL;
	}
	ret = clkstat_probes_select(probes);
	if (ret)
		return ret;
	bad = clkstat_probes_unsupported(clkstat_load_variant);
	if (bad) {
		pr_err("clkstat: probe %s cannot run with variant=%s: the kernel has no tracepoint for it (use direct, ftrace or kprobe)\n",
		       bad, clkstat_load_variant->name);
		return -EINVAL;
	}
	return 0;
}

static void clkstat_set_all(enum clkstat_nl_ctrl_op op)
{
	clkstat_command(&(struct clkstat_cmd){ .op = op });
}

/*
 * The rq clock (rq_clock.c) with struct rq's layout as the build found it
 * in the target kernel's BTF (gen_rq_offsets.sh), or off: one line says
 * which.  Off, the module works as before, without rq clocks.
 */
static void __init clkstat_rq_setup(void)
{
#if CLKSTAT_RQ_BTF
	if (clkstat_rq_clock_init(true, CLKSTAT_RQ_CLOCK_OFFSET,
				  CLKSTAT_RQ_CPU_OFFSET, CLKSTAT_RQ_SIZE))
		pr_notice("clkstat: rq clock off: struct rq's layout from %s is not usable (clock at %u, cpu at %u, size %u)\n",
			  CLKSTAT_RQ_BTF_SOURCE, CLKSTAT_RQ_CLOCK_OFFSET,
			  CLKSTAT_RQ_CPU_OFFSET, CLKSTAT_RQ_SIZE);
	else
		pr_info("clkstat: rq clock: struct rq from the BTF of %s (clock at %u, cpu at %u)\n",
			CLKSTAT_RQ_BTF_SOURCE, CLKSTAT_RQ_CLOCK_OFFSET,
			CLKSTAT_RQ_CPU_OFFSET);
#else
	clkstat_rq_clock_init(false, 0, 0, 0);
	pr_notice("clkstat: rq clock off: built with %s\n", CLKSTAT_RQ_BTF_WHY);
#endif
}

static int __init clkstat_init(void)
{
	int ret;

	ret = clkstat_check_params();
	if (ret)
		return ret;
	ret = clkstat_clock_init();
	if (ret)
		return ret;
	ret = clkstat_evlog_init(events);
	if (ret) {
		pr_err("clkstat: events=%u: cannot allocate the event log\n",
		       events);
		clkstat_clock_exit();
		return ret;
	}
	clkstat_rq_setup();
	clkstat_set_frac_bits(clkstat_frac_bits);
	ret = clkstat_probes_start(&(struct clkstat_probe_cfg){
		.pending_entries = corr_entries,
		.variant = clkstat_load_variant,
#ifdef CLKSTAT_FAULT_HOOKS
		.fault_hook = fault_hook,
#endif
	});
	if (ret) {
		/* A hook that ran meanwhile may have queued the rq warning. */
		clkstat_rq_clock_exit();
		clkstat_evlog_exit();
		clkstat_clock_exit();
		return ret;
	}
	clkstat_debugfs_init();
	ret = clkstat_netlink_init();
	if (ret) {
		pr_err("clkstat: cannot register the generic netlink family: %d\n",
		       ret);
		clkstat_debugfs_exit();
		clkstat_probes_stop();
		clkstat_rq_clock_exit();
		clkstat_evlog_exit();
		clkstat_clock_exit();
		return ret;
	}
	clkstat_set_all(CLKSTAT_CTRL_START);
	pr_info("clkstat: loaded: probes=%s variant=%s frac_bits=%u clock=%s\n",
		probes, clkstat_load_variant->name, clkstat_frac_bits,
		clkstat_clock_name());
	return 0;
}

static void __exit clkstat_exit(void)
{
	clkstat_netlink_exit();
	clkstat_set_all(CLKSTAT_CTRL_STOP);
	clkstat_debugfs_exit();
	clkstat_probes_stop();
	clkstat_rq_clock_exit();
	clkstat_evlog_exit();
	clkstat_clock_exit();
	pr_info("clkstat: unloaded\n");
}

module_init(clkstat_init);
module_exit(clkstat_exit);
MODULE_LICENSE("GPL");
MODULE_VERSION(CLKSTAT_MODULE_VERSION);
MODULE_DESCRIPTION("clkstat: latency histograms of the wakeup and timekeeping paths");

// SPDX-License-Identifier: GPL-2.0
/*
 * tp_probes.c - the probe functions the tracepoint variant registers, one
 * of the exact type of each tracepoint clkstat knows.
 *
 * Why typed: a tracepoint calls its probes through a pointer of its own
 * prototype, void (*)(void *data, TP_PROTO...).  A kernel built with
 * CONFIG_CFI_CLANG (kCFI) checks every such indirect call against a hash
 * of the callee's type and traps on a probe of any other type, as one
 * generic probe registered through a cast would be.  So each tracepoint
 * clkstat names (its probes' stand-ins, its benchmark modules') has a
 * probe of its own prototype here, and the compiler checks that type
 * against the tracepoint's own declaration: check_trace_callback_type_NAME()
 * is what the kernel generates for that purpose (linux/tracepoint.h).
 *
 * Any other tracepoint (a user-defined probe's tp:X-Y) gets the generic
 * probe, which reads the first three argument registers, only where
 * indirect calls are not type-checked; a kCFI kernel refuses it with its
 * reason (Documentation/clkstat-traces.rst, "Safety").
 */
#include <linux/build_bug.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <trace/events/sched.h>
#include "bench_hooks_trace.h"
#include "bench_targets_trace.h"
#include "hook.h"
#include "reentry.h"
#include "tp_probes.h"

/* What every probe does: skip a call entered again, else run the hook. */
static __always_inline void clkstat_tp_run(void *data, unsigned long a0,
					   unsigned long a1, unsigned long a2)
{
	const struct clkstat_hook *h = data;

	if (clkstat_reentered())
		return;
	h->tp_handler(a0, a1, a2);
}

static void notrace clkstat_tp_task(void *data, struct task_struct *p)
{
	clkstat_tp_run(data, (unsigned long)p, 0, 0);
}

static void notrace clkstat_tp_ulong(void *data, unsigned long a0)
{
	clkstat_tp_run(data, a0, 0, 0);
}

static void notrace clkstat_tp_any(void *data, unsigned long a0,
				   unsigned long a1, unsigned long a2)
{
	clkstat_tp_run(data, a0, a1, a2);
}

/*
 * An entry of the table below; it compiles only if @fn has the type
 * tracepoint @name calls its probes with.
 */
#define CLKSTAT_TP_TYPED(owner, name, fn)				\
	{ owner, #name, (void *)(fn) + BUILD_BUG_ON_ZERO(		\
		!__same_type(&check_trace_callback_type_##name,		\
			     void (*)(typeof(&fn)))) }

static const struct {
	const char *owner;	/* the module that defines it; NULL: vmlinux */
	const char *name;
	void *probe;
} clkstat_tp_typed[] = {
	CLKSTAT_TP_TYPED(NULL, sched_waking, clkstat_tp_task),
	CLKSTAT_TP_TYPED(NULL, sched_wakeup, clkstat_tp_task),
	CLKSTAT_TP_TYPED(NULL, sched_wakeup_new, clkstat_tp_task),
	CLKSTAT_TP_TYPED("clkstat_hookbench", clkstat_bench_hit_tp,
			 clkstat_tp_ulong),
	CLKSTAT_TP_TYPED("clkstat_hookbench", clkstat_tt_a_tp,
			 clkstat_tp_ulong),
	CLKSTAT_TP_TYPED("clkstat_hookbench", clkstat_tt_b_tp,
			 clkstat_tp_ulong),
};

/**
 * clkstat_tp_probe_pick() - the probe for a tracepoint, by name and owner
 * @owner: the name of the module that defines the tracepoint, NULL for
 *	the kernel's own
 * @name: the tracepoint's name
 * @cfi: whether indirect calls are type-checked (kCFI)
 *
 * Apart from clkstat_tp_probe() so that KUnit can ask for either @cfi.
 * A tracepoint of the same name in another module may have another type:
 * only the owner named in the table gets the typed probe.
 *
 * Return: the typed probe; else the generic one when !@cfi; else NULL.
 */
void *clkstat_tp_probe_pick(const char *owner, const char *name, bool cfi)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(clkstat_tp_typed); i++) {
		if (strcmp(clkstat_tp_typed[i].name, name))
			continue;
		if (!owner != !clkstat_tp_typed[i].owner ||
		    (owner && strcmp(owner, clkstat_tp_typed[i].owner)))
			continue;
		return clkstat_tp_typed[i].probe;
	}
	return cfi ? NULL : clkstat_tp_any;
}

/**
 * clkstat_tp_probe() - the probe to register on a tracepoint
 * @tp: the tracepoint
 * @owner: the live module that defines @tp, NULL for the kernel's own
 *
 * Return: the probe, or NULL on a kCFI kernel for a tracepoint clkstat has
 * no probe of the type of (the caller refuses it, saying so).
 */
void *clkstat_tp_probe(struct tracepoint *tp, struct module *owner)
{
	return clkstat_tp_probe_pick(owner ? module_name(owner) : NULL,
				     tp->name, IS_ENABLED(CONFIG_CFI_CLANG));
}

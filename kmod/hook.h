/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hook.h - how a probe's handler gets called at a kernel function's entry
 * or at a tracepoint, independent of the mechanism (the "variant") that
 * does it.
 *
 * A probe describes what it wants as clkstat_hook entries: a function name
 * and a handler that receives the function's first three arguments, and
 * optionally a tracepoint standing in for that function in the
 * "tracepoint" variant.  A variant (hook_direct.c, hook_ftrace.c,
 * hook_kprobe.c, hook_tracepoint.c) attaches them.  Neither side knows the
 * other's details.
 */
#ifndef _CLKSTAT_HOOK_H
#define _CLKSTAT_HOOK_H

#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/types.h>
#include "uapi/clkstat_catalog.h"

/*
 * Called with the hooked function's first three arguments, or with a
 * tracepoint's first three arguments (after its data pointer).
 */
typedef void (*clkstat_entry_fn)(unsigned long arg0, unsigned long arg1,
				 unsigned long arg2);

/*
 * An exit hook, for a duration: enter runs at the hooked function's entry
 * with its first three arguments and returns a cookie (a timestamp, say);
 * exit runs when the function returns, with that cookie and the return
 * value.  Every variant hooks returns through the kernel's own return
 * path (hook_return.c: fprobe, or a kretprobe), never through clkstat's
 * text, so a call that sleeps or never returns holds nothing of clkstat.
 */
typedef u64 (*clkstat_enter_fn)(unsigned long arg0, unsigned long arg1,
				unsigned long arg2);
typedef void (*clkstat_exit_fn)(u64 cookie, unsigned long ret);

/* A direct trampoline (direct_tramp.h): code entered from a fentry site. */
typedef void clkstat_tramp_fn(void);

struct clkstat_hook {
	const char *func;		/* kernel function whose entry is hooked */
	clkstat_entry_fn handler;	/* an entry hook: called at entry */
	clkstat_enter_fn enter;		/* an exit hook: these two instead */
	clkstat_exit_fn exit;
	/*
	 * The direct variant's: an entry hook's own trampoline, made next
	 * to its handler by CLKSTAT_DIRECT_TRAMP() (direct_tramp.h), which
	 * calls the handler with a direct call.  Never called from C.  An
	 * entry hook without one cannot be attached with that variant.
	 */
	clkstat_tramp_fn *direct_tramp;
	/*
	 * The tracepoint variant's stand-in: a tracepoint and its handler.
	 * NULL when the kernel has no tracepoint there; the probe then
	 * cannot run in that variant.
	 */
	const char *tracepoint;
	clkstat_entry_fn tp_handler;
	/*
	 * Or the tracepoint itself, e.g. a module's own (found by address),
	 * and the module that defines it (tp_probes.c picks the probe by
	 * owner and name).
	 */
	struct tracepoint *tp;
	struct module *tp_owner;
	void *priv;			/* the variant's, while attached */
};

struct clkstat_variant {
	const char *name;		/* the variant, part of a metric's name */
	/* Attach one hook; reports its own errors with pr_err. */
	int (*attach)(struct clkstat_hook *h);
	/* Detach one hook; its handler may still be running on return. */
	void (*detach)(struct clkstat_hook *h);
	/* Wait until no handler of a detached hook can be running. */
	void (*sync)(void);
	/*
	 * Optional: calls of an attached hook the variant could not hand to
	 * its handler so far (a kretprobe out of instances, a kprobe hit
	 * while another ran), for the traces' missed counter.
	 */
	unsigned long (*missed)(const struct clkstat_hook *h);
	/*
	 * The kernel option a variant this kernel lacks needs (kmod/Kbuild
	 * left it out), or NULL: a load or a switch naming it is refused
	 * before anything changes.
	 */
	const char *needs;
	/* Its refusal for a reply (netlink's extack, last_error). */
	const char *needs_why;
};

extern const struct clkstat_variant clkstat_variant_direct;
extern const struct clkstat_variant clkstat_variant_ftrace;
extern const struct clkstat_variant clkstat_variant_kprobe;
extern const struct clkstat_variant clkstat_variant_kprobe_int3;
extern const struct clkstat_variant clkstat_variant_tracepoint;
extern const struct clkstat_variant clkstat_variant_off;

const struct clkstat_variant *clkstat_variant_find(const char *name);
void clkstat_variant_names(char *buf, size_t len);
/*
 * Set by the kprobe-int3 variant around its handler calls: whether the
 * code that hit the breakpoint ran in task context.  The int3 trap enters
 * like an NMI (irqentry_nmi_enter()), so in_task() inside the handler says
 * nothing about the probed code.
 */
DECLARE_PER_CPU(bool, clkstat_int3_in_task);

/* For a handler: did the hooked function run in task context? */
static __always_inline bool clkstat_hooked_in_task(void)
{
	if (likely(!in_nmi()))
		return in_task();
	return this_cpu_read(clkstat_int3_in_task);
}

int clkstat_hooks_attach(const struct clkstat_variant *b,
			 struct clkstat_hook *hooks, unsigned int n);
void clkstat_hooks_detach(const struct clkstat_variant *b,
			  struct clkstat_hook *hooks, unsigned int n);
bool clkstat_hooks_supported(const struct clkstat_variant *b,
			     const struct clkstat_hook *hooks, unsigned int n);

int clkstat_func_addr(const char *func, const char *how, unsigned long *addr);
void clkstat_hook_stuck(const char *func, const char *how);
struct module;
int clkstat_func_module_get(unsigned long addr, struct module **mod);
int clkstat_sym_addr(const char *func, unsigned long *addr);

/* hook_return.c: the direct and ftrace variants' exit hooks. */
int clkstat_return_attach(struct clkstat_hook *h, unsigned long addr,
			  const char *how);
void clkstat_return_detach(struct clkstat_hook *h);
unsigned long clkstat_return_missed(const struct clkstat_hook *h);

/* hook_kprobe.c: a kretprobe, for hook_return.c where there is no fprobe. */
int clkstat_kretprobe_attach(struct clkstat_hook *h);
void clkstat_kretprobe_detach(struct clkstat_hook *h);
unsigned long clkstat_kretprobe_missed(const struct clkstat_hook *h);

#endif /* _CLKSTAT_HOOK_H */

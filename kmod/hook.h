/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hook.h - how a probe's handler gets called at a kernel function's entry,
 * independent of the mechanism (the "variant") that does it.
 *
 * A probe describes what it wants as clkstat_hook entries: a function name
 * and a handler that receives the function's first three arguments.  A
 * backend (hook_ftrace.c, later direct calls, kprobes, ...) attaches them.
 * Neither side knows the other's details.
 */
#ifndef _CLKSTAT_HOOK_H
#define _CLKSTAT_HOOK_H

/* Called at entry of the hooked function with its first three arguments. */
typedef void (*clkstat_entry_fn)(unsigned long arg0, unsigned long arg1,
				 unsigned long arg2);

struct clkstat_hook {
	const char *func;		/* kernel function whose entry is hooked */
	clkstat_entry_fn handler;
	void *priv;			/* the backend's, while attached */
};

struct clkstat_backend {
	const char *name;		/* the variant, part of a metric's name */
	int (*attach)(struct clkstat_hook *h);
	void (*detach)(struct clkstat_hook *h);
};

extern const struct clkstat_backend clkstat_backend_ftrace;

int clkstat_hooks_attach(const struct clkstat_backend *b,
			 struct clkstat_hook *hooks, unsigned int n);
void clkstat_hooks_detach(const struct clkstat_backend *b,
			  struct clkstat_hook *hooks, unsigned int n);

#endif /* _CLKSTAT_HOOK_H */

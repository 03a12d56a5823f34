// SPDX-License-Identifier: GPL-2.0
/*
 * hook.c - the list of variants; attach and detach a probe's hooks as one
 * unit; find a function's address by name (kallsyms_lookup_name is not
 * exported).  clkstat_bench.ko attaches its hooks through these too.
 */
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/string.h>
#include "hook.h"

/*
 * "off": nothing attached.  The probes stay loaded and every other
 * variant's metrics stay readable, but no handler runs, so the hooked
 * functions cost what they cost without clkstat.  clkstat-report record
 * switches to it for the runs of the BPF twin, whose measurements would
 * otherwise include a stopped clkstat hook's dispatch on the same path.
 */
static int clkstat_off_attach(struct clkstat_hook *h)
{
	return 0;
}

static void clkstat_off_detach(struct clkstat_hook *h)
{
}

static void clkstat_off_sync(void)
{
}

const struct clkstat_backend clkstat_backend_off = {
	.name = "off",
	.attach = clkstat_off_attach,
	.detach = clkstat_off_detach,
	.sync = clkstat_off_sync,
};

static const struct clkstat_backend *const clkstat_backends[] = {
	&clkstat_backend_direct,
	&clkstat_backend_ftrace,
	&clkstat_backend_kprobe,
	&clkstat_backend_kprobe_int3,
	&clkstat_backend_tracepoint,
	&clkstat_backend_off,
};

/**
 * clkstat_backend_find() - a variant by name
 * @name: direct, ftrace, kprobe, kprobe-int3, tracepoint or off
 *
 * Return: the backend, or NULL.
 */
const struct clkstat_backend *clkstat_backend_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(clkstat_backends); i++)
		if (!strcmp(clkstat_backends[i]->name, name))
			return clkstat_backends[i];
	return NULL;
}
EXPORT_SYMBOL_GPL(clkstat_backend_find);

/**
 * clkstat_backend_names() - every variant's name, for messages
 * @buf: where to write them, separated by ", "
 * @len: its size
 */
void clkstat_backend_names(char *buf, size_t len)
{
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(clkstat_backends); i++) {
		if (i)
			strlcat(buf, ", ", len);
		strlcat(buf, clkstat_backends[i]->name, len);
	}
}

/**
 * clkstat_hooks_attach() - attach every hook of a probe, or none
 * @b: the backend (variant)
 * @hooks: the hooks
 * @n: how many
 *
 * On failure the hooks attached so far are detached again, in reverse
 * order, and the backend's error (already reported by it) is returned.
 *
 * Return: 0 or a negative errno.
 */
int clkstat_hooks_attach(const struct clkstat_backend *b,
			 struct clkstat_hook *hooks, unsigned int n)
{
	unsigned int i;
	int ret;

	for (i = 0; i < n; i++) {
		ret = b->attach(&hooks[i]);
		if (ret) {
			clkstat_hooks_detach(b, hooks, i);
			return ret;
		}
	}
	return 0;
}
EXPORT_SYMBOL_GPL(clkstat_hooks_attach);

/**
 * clkstat_hooks_detach() - detach what clkstat_hooks_attach() attached
 * @b: the backend it was attached with
 * @hooks: the hooks
 * @n: how many
 *
 * When this returns, no handler of these hooks is running or can run.
 */
void clkstat_hooks_detach(const struct clkstat_backend *b,
			  struct clkstat_hook *hooks, unsigned int n)
{
	unsigned int i = n;

	while (i--)
		b->detach(&hooks[i]);
	if (n)
		b->sync();
}
EXPORT_SYMBOL_GPL(clkstat_hooks_detach);

/**
 * clkstat_hooks_supported() - can this backend attach all of these hooks?
 * @b: the backend
 * @hooks: the hooks
 * @n: how many
 *
 * Only the tracepoint variant can lack a hook: where the kernel has no
 * tracepoint.
 *
 * Return: true if every hook has what @b needs.
 */
bool clkstat_hooks_supported(const struct clkstat_backend *b,
			     const struct clkstat_hook *hooks, unsigned int n)
{
	unsigned int i;

	if (b != &clkstat_backend_tracepoint)
		return true;
	for (i = 0; i < n; i++)
		if (!hooks[i].tracepoint && !hooks[i].tp)
			return false;
	return true;
}

/**
 * clkstat_func_addr() - address of a kernel function, by name
 * @func: the symbol
 * @how: the hooking mechanism, for the message if the lookup fails
 *	 ("ftrace", "a direct call")
 * @addr: set to its address on success
 *
 * Registering a kprobe resolves the name through kallsyms.  It is
 * registered disabled, so it is never armed: no code is patched.  A
 * failure is logged, naming @func and saying why.
 *
 * Return: 0, -ENOENT if the kernel has no such symbol, or another error
 * of register_kprobe(): -ENOMEM, or -EINVAL where the kernel refuses
 * kprobes (the kprobe blacklist).
 */
int clkstat_func_addr(const char *func, const char *how, unsigned long *addr)
{
	struct kprobe kp = {
		.symbol_name = func,
		.flags = KPROBE_FLAG_DISABLED,
	};
	int ret;

	ret = register_kprobe(&kp);
	if (ret == -ENOENT) {
		pr_err("clkstat: cannot hook %s with %s: no such function\n",
		       func, how);
		return ret;
	}
	if (ret) {
		pr_err("clkstat: cannot hook %s with %s: its address not found through a kprobe: %d\n",
		       func, how, ret);
		return ret;
	}
	*addr = (unsigned long)kp.addr;
	unregister_kprobe(&kp);
	return 0;
}

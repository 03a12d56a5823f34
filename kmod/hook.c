// SPDX-License-Identifier: GPL-2.0
/*
 * hook.c - the list of variants; attach and detach a probe's hooks as one
 * unit; find a function's address by name (kallsyms_lookup_name is not
 * exported).  clkstat_bench.ko attaches its hooks through these too.
 */
#include <linux/kallsyms.h>
#include <linux/kobject.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/string.h>
#include <asm/ftrace.h>
#include <asm/nops.h>
#include "hook.h"
#include "test_exports.h"

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

const struct clkstat_variant clkstat_variant_off = {
	.name = CLKSTAT_VNAME(OFF),
	.attach = clkstat_off_attach,
	.detach = clkstat_off_detach,
	.sync = clkstat_off_sync,
};

/*
 * A variant this kernel cannot have (kmod/Kbuild leaves its file out): a
 * load or a switch naming it is refused up front (.needs), and attaching
 * anything with it would fail too, naming the kernel option it needs.
 */
#define CLKSTAT_VARIANT_MISSING(sym, vname, option)			\
static int clkstat_##sym##_missing(struct clkstat_hook *h)		\
{									\
	pr_err("clkstat: variant %s needs %s, which this kernel lacks\n",	\
	       vname, option);						\
	return -EOPNOTSUPP;						\
}									\
const struct clkstat_variant clkstat_variant_##sym = {			\
	.name = vname,							\
	.attach = clkstat_##sym##_missing,				\
	.detach = clkstat_off_detach,					\
	.sync = clkstat_off_sync,					\
	.needs = option,						\
	.needs_why = "variant " vname " needs " option			\
		     ", which this kernel lacks",			\
}

#ifndef CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS
CLKSTAT_VARIANT_MISSING(direct, "direct",
			"CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS");
#endif
#ifndef CONFIG_DYNAMIC_FTRACE_WITH_ARGS
CLKSTAT_VARIANT_MISSING(ftrace, "ftrace", "CONFIG_DYNAMIC_FTRACE_WITH_ARGS");
#endif
#ifndef CONFIG_TRACEPOINTS
CLKSTAT_VARIANT_MISSING(tracepoint, "tracepoint", "CONFIG_TRACEPOINTS");
#endif

static const struct clkstat_variant *const clkstat_variants[] = {
	&clkstat_variant_direct,
	&clkstat_variant_ftrace,
	&clkstat_variant_kprobe,
	&clkstat_variant_kprobe_int3,
	&clkstat_variant_tracepoint,
	&clkstat_variant_off,
};

/**
 * clkstat_variant_find() - a variant by name
 * @name: direct, ftrace, kprobe, kprobe-int3, tracepoint or off
 *
 * Return: the variant, or NULL.
 */
const struct clkstat_variant *clkstat_variant_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(clkstat_variants); i++)
		if (!strcmp(clkstat_variants[i]->name, name))
			return clkstat_variants[i];
	return NULL;
}
CLKSTAT_EXPORT_FOR_TESTS(clkstat_variant_find);

/**
 * clkstat_variant_names() - every variant's name, for messages
 * @buf: where to write them, separated by ", "
 * @len: its size
 */
void clkstat_variant_names(char *buf, size_t len)
{
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(clkstat_variants); i++) {
		if (i)
			strlcat(buf, ", ", len);
		strlcat(buf, clkstat_variants[i]->name, len);
	}
}

/**
 * clkstat_hooks_attach() - attach every hook of a probe, or none
 * @b: the variant
 * @hooks: the hooks
 * @n: how many
 *
 * On failure the hooks attached so far are detached again, in reverse
 * order, and the variant's error (already reported by it) is returned.
 *
 * Return: 0 or a negative errno.
 */
int clkstat_hooks_attach(const struct clkstat_variant *b,
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
CLKSTAT_EXPORT_FOR_TESTS(clkstat_hooks_attach);

/**
 * clkstat_hooks_detach() - detach what clkstat_hooks_attach() attached
 * @b: the variant it was attached with
 * @hooks: the hooks
 * @n: how many
 *
 * When this returns, no handler of these hooks is running or can run.
 */
void clkstat_hooks_detach(const struct clkstat_variant *b,
			  struct clkstat_hook *hooks, unsigned int n)
{
	unsigned int i = n;

	while (i--)
		b->detach(&hooks[i]);
	if (n)
		b->sync();
}
CLKSTAT_EXPORT_FOR_TESTS(clkstat_hooks_detach);

/**
 * clkstat_hooks_supported() - can this variant attach all of these hooks?
 * @b: the variant
 * @hooks: the hooks
 * @n: how many
 *
 * Only the tracepoint variant can lack a hook: where the kernel has no
 * tracepoint.
 *
 * Return: true if every hook has what @b needs.
 */
bool clkstat_hooks_supported(const struct clkstat_variant *b,
			     const struct clkstat_hook *hooks, unsigned int n)
{
	unsigned int i;

	if (b != &clkstat_variant_tracepoint)
		return true;
	for (i = 0; i < n; i++)
		if (!hooks[i].tracepoint && !hooks[i].tp)
			return false;
	return true;
}

/*
 * What an fentry site holds: the 5-byte nop the kernel left there at boot
 * (x86_nops[5], the same bytes ftrace writes),
 * or a call (into ftrace, a trampoline, a direct call) once someone hooks
 * it.  Not an ENDBR64 (f3 0f 1e fa), its sealed forms, or a function's
 * first real instruction.
 */
static const u8 clkstat_nop5[MCOUNT_INSN_SIZE] = { BYTES_NOP5 };

static bool clkstat_is_fentry_site(unsigned long addr)
{
	const u8 *insn = (const u8 *)addr;

	return insn[0] == 0xe8 || !memcmp(insn, clkstat_nop5, MCOUNT_INSN_SIZE);
}

/**
 * clkstat_func_addr() - the fentry site of a kernel function, by name
 * @func: the symbol
 * @how: the hooking mechanism, for the message if the lookup fails
 *	 ("ftrace", "a direct call")
 * @addr: set to the address of the function's fentry call on success
 *
 * Registering a kprobe resolves the name through kallsyms; kprobes puts a
 * probe on a function's name at its fentry site, past an ENDBR64 on IBT
 * kernels.  It is registered disabled, so it is never armed: no code is
 * patched.  The exit hooks call the function's body at @addr +
 * MCOUNT_INSN_SIZE (hook_exit.c), so the instruction at @addr is checked
 * to be an fentry site, whatever kprobes does on a future kernel.  A
 * failure is logged, naming @func and saying why.
 *
 * Return: 0, -ENOENT if the kernel has no such symbol, -ENODEV if it does
 * not start with an fentry call (not traceable), or another error of
 * register_kprobe(): -ENOMEM, or -EINVAL where the kernel refuses kprobes
 * (the kprobe blacklist).
 */
int clkstat_func_addr(const char *func, const char *how, unsigned long *addr)
{
	int ret;

	ret = clkstat_sym_addr(func, addr);
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
	if (!clkstat_is_fentry_site(*addr)) {
		pr_err("clkstat: cannot hook %s with %s: not traceable (no fentry call; not in available_filter_functions)\n",
		       func, how);
		return -ENODEV;
	}
	return 0;
}

/**
 * clkstat_sym_addr() - where kprobes would put a probe on a function
 * @func: the symbol
 * @addr: set to the address on success
 *
 * As clkstat_func_addr(), through a kprobe registered disabled, but
 * silent and without asking for an fentry site.
 *
 * Return: 0, -ENOENT (no such symbol), or register_kprobe()'s error
 * (-EINVAL on the kprobe blacklist).
 */
int clkstat_sym_addr(const char *func, unsigned long *addr)
{
	struct kprobe kp = {
		.symbol_name = func,
		.flags = KPROBE_FLAG_DISABLED,
	};
	int ret;

	ret = register_kprobe(&kp);
	if (ret)
		return ret;
	unregister_kprobe(&kp);
	*addr = (unsigned long)kp.addr;
	return 0;
}

/**
 * clkstat_func_module_get() - hold the module a function lives in
 * @addr: an address inside the function
 * @mod: set to that module, held (module_put() it), or NULL when the
 *	function is the kernel's own
 *
 * While a function of another module is hooked, that module must not go:
 * its code would be freed under the hook, and another module loaded at
 * the same address would be hooked in its place.  BPF holds a traced
 * function's module the same way.  Neither __module_address() nor
 * find_module() is exported on every kernel clkstat supports, so the
 * module is found by the name kallsyms gives ("func+0x0/0x40 [mod]") in
 * the kset all modules' kobjects are in (clkstat's own is one of them);
 * the kobject's reference keeps the module's memory while
 * try_module_get() decides.
 *
 * Return: 0, or -EBUSY when the module is on its way in or out.
 */
int clkstat_func_module_get(unsigned long addr, struct module **mod)
{
	char buf[KSYM_SYMBOL_LEN], *name, *end;
	struct kobject *kobj;
	struct module *m;
	bool held;

	*mod = NULL;
	sprint_symbol(buf, addr);
	end = strrchr(buf, ']');
	name = strrchr(buf, '[');
	if (!name || !end || end < name || end[1])
		return 0;
	*end = '\0';
	kobj = kset_find_obj(THIS_MODULE->mkobj.kobj.kset, name + 1);
	if (!kobj)
		return -EBUSY;
	m = container_of(kobj, struct module_kobject, kobj)->mod;
	held = try_module_get(m);
	kobject_put(kobj);
	if (!held)
		return -EBUSY;
	*mod = m;
	return 0;
}

/**
 * clkstat_hook_stuck() - a hook the kernel would not take back
 * @func: the hooked function
 * @how: the mechanism, for the message
 *
 * The variant keeps what the kernel may still call (an ftrace_ops, a
 * direct call's ops and trampoline) and makes its handler do nothing;
 * this holds clkstat, for good, so that the code those lead to stays: a
 * later rmmod says clkstat is in use, instead of freeing code the kernel
 * still calls.  Only if the kernel fails to unregister (ftrace shut down
 * by a fault of its own), never in normal operation.
 */
void clkstat_hook_stuck(const char *func, const char *how)
{
	__module_get(THIS_MODULE);
	pr_err("clkstat: the kernel would not unhook %s (%s): the hook is kept, does nothing, and clkstat stays loaded\n",
	       func, how);
}

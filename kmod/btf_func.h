/* SPDX-License-Identifier: GPL-2.0 */
/*
 * btf_func.h - how a kernel function takes its arguments and returns its
 * value on x86-64, from BTF: how many argument registers it uses, which
 * of its arguments are task pointers (the wakeup probe checks its two
 * functions at load), and whether a wrapper that forwards the six
 * argument registers and the two return registers could stand in its
 * place (the exit wrappers that used this are gone: exit hooks go through
 * the kernel's return path; the hookbench's btf_proto file and the KUnit
 * tests still read it).
 */
#ifndef _CLKSTAT_BTF_FUNC_H
#define _CLKSTAT_BTF_FUNC_H

#include <linux/types.h>

/* Integer registers x86-64 passes arguments in: rdi rsi rdx rcx r8 r9. */
#define CLKSTAT_BTF_ARG_REGS	6

/**
 * struct clkstat_btf_proto - a function's calling convention, in short
 * @arg_regs: integer registers its arguments take (at most 6), a hidden
 *	return pointer included
 * @ret_regs: registers its value comes back in: 0 (void), 1 (rax) or
 *	2 (rax:rdx)
 * @stack_args: some argument goes on the stack (more than the registers
 *	hold, a struct over 16 bytes or with unaligned members, or a 16-byte
 *	value that no longer fits in what registers are left)
 * @varargs: the function takes a variable argument list
 * @nparams: its declared parameters ("..." not counted)
 * @task_args: bit i set when its parameter i (of the first 8) is a
 *	struct task_struct pointer, in every FUNC merged (the wakeup probe
 *	reads the woken task from there)
 * @nfuncs: the BTF FUNCs of that name merged into this (static functions
 *	of the same name in several files): each field above is the worst
 *	case over all of them
 */
struct clkstat_btf_proto {
	unsigned int arg_regs;
	unsigned int ret_regs;
	bool stack_args;
	bool varargs;
	unsigned int nparams;
	u8 task_args;
	unsigned int nfuncs;
};

int clkstat_btf_parse_proto(const void *btf, size_t size,
			    const void *base, size_t base_size,
			    const char *name, struct clkstat_btf_proto *p);
int clkstat_btf_func_proto(const char *name, unsigned long addr,
			   struct clkstat_btf_proto *p);
int clkstat_btf_vmlinux_protos(const char *const *names, unsigned int n,
			       struct clkstat_btf_proto *p);
bool clkstat_btf_wrappable(const struct clkstat_btf_proto *p);

#endif /* _CLKSTAT_BTF_FUNC_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * direct_tramp.h - the trampolines of the "direct" variant.
 *
 * An entry hook (a handler called at a function's entry) gets a
 * trampoline of its own, made at compile time next to its handler by
 * CLKSTAT_DIRECT_TRAMP(): the hooked function's fentry site calls it, it
 * saves the argument registers the function has, calls the handler with a
 * direct call and returns into the function.  No dispatcher, no indirect
 * call (no retpoline), no lookup.  Its address goes in the hook's
 * direct_tramp (hook.h, CLKSTAT_DIRECT_TRAMP_ADDR()).  The variant
 * attaches no entry hook without one, and exit hooks go through the
 * kernel's return path (hook_return.c).
 */
#ifndef _CLKSTAT_DIRECT_TRAMP_H
#define _CLKSTAT_DIRECT_TRAMP_H

/* Entry hooks the direct variant holds at once (hook_direct.c). */
#define CLKSTAT_DIRECT_SLOTS	48

#ifndef __ASSEMBLY__

#include <linux/build_bug.h>
#include <linux/compiler.h>
#include <linux/kconfig.h>
#include <linux/linkage.h>
#include <linux/stringify.h>
#include <asm/ibt.h>
#include <asm/nospec-branch.h>
#include "compat.h"
#include "hook.h"

/*
 * nargs for a hooked function whose prototype clkstat does not know (a
 * user-defined probe's): all six argument registers and %rax (the vector
 * count of a varargs call).
 */
#define CLKSTAT_DIRECT_NARGS_ALL	7

/*
 * The frame (push %rbp; mov %rsp, %rbp ... leave) is for the frame-pointer
 * unwinder only, as in the kernel's own ftrace_caller (ftrace_64.S): with
 * ORC, objtool describes the trampoline's stack like any function's, and
 * an unwind through a handler finds the hooked function and its callers
 * (Documentation/clkstat-kernels.rst, "Direct trampolines").
 */
#ifdef CONFIG_FRAME_POINTER
#define CLKSTAT_TRAMP_FRAME_IN	"pushq %rbp\n\tmovq %rsp, %rbp\n\t"
#define CLKSTAT_TRAMP_FRAME_OUT	"leave\n\t"
#else
#define CLKSTAT_TRAMP_FRAME_IN	""
#define CLKSTAT_TRAMP_FRAME_OUT	""
#endif

/* Save (or restore) argument register @reg when the function has @n. */
#define CLKSTAT_TRAMP_PUSH(nargs, n, reg)				\
	".if " __stringify(nargs) " >= " #n "\n\t"			\
	"pushq %" #reg "\n\t"						\
	".endif\n\t"
#define CLKSTAT_TRAMP_POP(nargs, n, reg)				\
	".if " __stringify(nargs) " >= " #n "\n\t"			\
	"popq %" #reg "\n\t"						\
	".endif\n\t"

/* The handler's type and the count, checked where the assembly cannot. */
#define CLKSTAT_DIRECT_TRAMP_CHECK(handler, nargs)			\
	static_assert(__same_type(&handler, clkstat_entry_fn) &&	\
		      (nargs) >= 0 && (nargs) <= CLKSTAT_DIRECT_NARGS_ALL)

#ifdef CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS
#define CLKSTAT_DIRECT_TRAMP_ASM(tramp, handler, nargs)			\
	".pushsection .text, \"ax\", @progbits\n\t"			\
	".balign 16\n\t"						\
	".type " #tramp ", @function\n"				\
	#tramp ":\n\t"							\
	ASM_ENDBR							\
	CLKSTAT_TRAMP_FRAME_IN						\
	CALL_DEPTH_ACCOUNT "\n\t"					\
	CLKSTAT_TRAMP_PUSH(nargs, 1, rdi)				\
	CLKSTAT_TRAMP_PUSH(nargs, 2, rsi)				\
	CLKSTAT_TRAMP_PUSH(nargs, 3, rdx)				\
	CLKSTAT_TRAMP_PUSH(nargs, 4, rcx)				\
	CLKSTAT_TRAMP_PUSH(nargs, 5, r8)				\
	CLKSTAT_TRAMP_PUSH(nargs, 6, r9)				\
	CLKSTAT_TRAMP_PUSH(nargs, 7, rax)				\
	"call " #handler "\n\t"						\
	CLKSTAT_TRAMP_POP(nargs, 7, rax)				\
	CLKSTAT_TRAMP_POP(nargs, 6, r9)					\
	CLKSTAT_TRAMP_POP(nargs, 5, r8)					\
	CLKSTAT_TRAMP_POP(nargs, 4, rcx)				\
	CLKSTAT_TRAMP_POP(nargs, 3, rdx)				\
	CLKSTAT_TRAMP_POP(nargs, 2, rsi)				\
	CLKSTAT_TRAMP_POP(nargs, 1, rdi)				\
	CLKSTAT_TRAMP_FRAME_OUT						\
	ASM_RET								\
	".size " #tramp ", .-" #tramp "\n\t"				\
	".popsection\n\t"
#else
/* No direct calls on this kernel: no trampoline, an assembler comment. */
#define CLKSTAT_DIRECT_TRAMP_ASM(tramp, handler, nargs)			\
	"# " #tramp " (" #handler ", " #nargs "): no direct calls\n\t"
#endif /* CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS */

/**
 * CLKSTAT_DIRECT_TRAMP() - a direct trampoline for one entry handler
 * @tramp: the trampoline's name, a local symbol of the object
 * @handler: the handler, a clkstat_entry_fn of the same file (it may be
 *	static: the assembler resolves the call within the object)
 * @nargs: how many argument registers the hooked function has (0 to 6,
 *	in %rdi, %rsi, %rdx, %rcx, %r8, %r9), or CLKSTAT_DIRECT_NARGS_ALL
 *	when that is not known; a number or a macro expanding to one
 *
 * Emits the trampoline as top-level assembly, as the kernel's
 * samples/ftrace/ftrace-direct*.c do, and declares it for
 * CLKSTAT_DIRECT_TRAMP_ADDR(); nothing on a kernel without direct calls
 * (kmod/Kbuild leaves the variant out there).  The trampoline preserves
 * only the first @nargs argument registers: at a function's entry the
 * other call-clobbered registers hold nothing (BPF's fentry trampolines
 * rely on the same).  A @nargs short of the function's count corrupts its
 * arguments; one too many costs a push and a pop.  The handler receives
 * the first three argument registers, meaningful up to @nargs.
 *
 * Aligned to 16 bytes, as functions are: 7.x's ftrace reads bit 0 of a
 * direct trampoline's address as "jump there, do not call"
 * (CONFIG_DYNAMIC_FTRACE_WITH_JMP, ftrace_is_jmp()), and an odd address
 * would make the hooked function jump to the byte before the trampoline
 * (an int3 of the padding: oops on 7.3, caught by its smoke test).
 *
 * IBT: the trampoline starts with ENDBR64 since its address is stored
 * (objtool demands it), although it is entered only by the fentry site's
 * direct call or by ftrace_regs_caller's RET; it calls the handler
 * directly and leaves by RET.  The entry counts itself for call depth
 * tracking (CALL_DEPTH_ACCOUNT, compat.h before 6.2) since the fentry
 * call went through no call thunk; ASM_RET is the return thunk's jump
 * where the kernel has one.
 */
#define CLKSTAT_DIRECT_TRAMP(tramp, handler, nargs)			\
	CLKSTAT_DIRECT_TRAMP_CHECK(handler, nargs);			\
	asm(CLKSTAT_DIRECT_TRAMP_ASM(tramp, handler, nargs));		\
	extern void tramp(void)

/*
 * The trampoline's address for a hook's direct_tramp: NULL where the
 * kernel has no direct calls (the constant condition folds the reference
 * to the trampoline away).
 */
#define CLKSTAT_DIRECT_TRAMP_ADDR(tramp)				\
	(IS_ENABLED(CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS) ? (tramp) : NULL)

#endif /* !__ASSEMBLY__ */

#endif /* _CLKSTAT_DIRECT_TRAMP_H */

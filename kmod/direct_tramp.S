/* SPDX-License-Identifier: GPL-2.0 */
/*
 * direct_tramp.S - the trampoline of the "direct" variant.
 *
 * Entered by a hooked function's fentry call, which register_ftrace_direct()
 * turned into "call clkstat_direct_tramp": 8(%rbp) below is that call's
 * return address, the hooked site plus MCOUNT_INSN_SIZE, which tells the
 * dispatcher which hook this is.  The argument registers (and %rax, the
 * vector count of a varargs call) belong to the hooked function and are
 * restored before returning into it.
 *
 * For an exit hook the dispatcher returns the address of a wrapper
 * (hook_exit.c): the trampoline then replaces its own return address with
 * it and returns there, so that the wrapper runs in the hooked function's
 * place and returns to its caller.  %r11 carries the address: it is
 * call-clobbered and holds nothing at a function's entry.
 */
#include <linux/linkage.h>
#include <asm/nospec-branch.h>

	.text
SYM_FUNC_START(clkstat_direct_tramp)
	pushq	%rbp
	movq	%rsp, %rbp
	pushq	%rdi
	pushq	%rsi
	pushq	%rdx
	pushq	%rcx
	pushq	%r8
	pushq	%r9
	pushq	%rax
	movq	8(%rbp), %rcx
	call	clkstat_direct_dispatch
	movq	%rax, %r11
	popq	%rax
	popq	%r9
	popq	%r8
	popq	%rcx
	popq	%rdx
	popq	%rsi
	popq	%rdi
	leave
	testq	%r11, %r11
	jz	.Lclkstat_back
	movq	%r11, (%rsp)
.Lclkstat_back:
	RET
SYM_FUNC_END(clkstat_direct_tramp)

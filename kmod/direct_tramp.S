/* SPDX-License-Identifier: GPL-2.0 */
/*
 * direct_tramp.S - the trampolines of the "direct" variant, one per
 * direct-call slot (CLKSTAT_DIRECT_SLOTS, hook_direct.c).
 *
 * Entered by a hooked function's fentry call, which
 * register_ftrace_direct_multi() turned into "call clkstat_direct_tramp<N>"
 * (or, with other ftrace_ops on the site, ftrace's own trampoline jumps
 * here with the same stack).  Each trampoline passes its own slot number
 * to the dispatcher, which so finds its hook without a search.  (One
 * trampoline per slot came first as the cure of a leak of 6.1's
 * single-site unregister_ftrace_direct(), which freed the direct_functions
 * entry of an address only when that address's last user went: one
 * trampoline shared by N hooked functions leaked N - 1 entries of 32 bytes
 * per load, kmemleak on the debug kernel.  The multi API, see
 * hook_direct.c, frees them whatever the trampolines.)
 *
 * The argument registers (and %rax, the vector count of a varargs call)
 * belong to the hooked function and are restored before returning into it.
 *
 * For an exit hook the dispatcher returns the address of a wrapper
 * (hook_exit.c): the trampoline then replaces its own return address with
 * it and returns there, so that the wrapper runs in the hooked function's
 * place and returns to its caller.  %r11 carries the address: it is
 * call-clobbered and holds nothing at a function's entry.
 */
#include <linux/linkage.h>
#include <asm/nospec-branch.h>

#define CLKSTAT_DIRECT_SLOTS	16

.macro clkstat_tramp n
SYM_FUNC_START(clkstat_direct_tramp\n)
	pushq	%rbp
	movq	%rsp, %rbp
	pushq	%rdi
	pushq	%rsi
	pushq	%rdx
	pushq	%rcx
	pushq	%r8
	pushq	%r9
	pushq	%rax
	movq	$\n, %rcx
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
	jz	.Lclkstat_back\n
	movq	%r11, (%rsp)
.Lclkstat_back\n:
	RET
SYM_FUNC_END(clkstat_direct_tramp\n)
.endm

	.text
.irp n, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	clkstat_tramp \n
.endr

/* clkstat_direct_tramps[N]: slot N's trampoline. */
	.section .rodata
	.balign 8
SYM_DATA_START(clkstat_direct_tramps)
.irp n, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	.quad	clkstat_direct_tramp\n
.endr
SYM_DATA_END(clkstat_direct_tramps)

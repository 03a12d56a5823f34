/* SPDX-License-Identifier: GPL-2.0 */
/*
 * direct_tramp.S - the slot trampolines of the "direct" variant, one per
 * direct-call slot (CLKSTAT_DIRECT_SLOTS, hook_direct.c), for the exit
 * hooks and for any entry hook without a trampoline of its own (the
 * built-in probes', the user-defined probes' and the hookbench's entry
 * hooks have one: CLKSTAT_DIRECT_TRAMP() in direct_tramp.h, which calls
 * the handler directly, without this dispatcher's indirect call).
 *
 * Entered by a hooked function's fentry call, which
 * clkstat_register_direct() turned into "call clkstat_direct_tramp<N>"
 * (or, with other ftrace_ops on the site, ftrace's own trampoline returns
 * here with the same stack).  Each trampoline passes its own slot number
 * to the dispatcher, which so finds its hook without a search.  (One
 * trampoline per slot came first as the cure of a leak of 6.1's
 * single-site unregister_ftrace_direct(), which freed the direct_functions
 * entry of an address only when that address's last user went: one
 * trampoline shared by N hooked functions leaked N - 1 entries of 32 bytes
 * per load, kmemleak on the debug kernel.  The ops-based API, see
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
 *
 * IBT: nothing jumps or calls here indirectly.  The fentry site calls a
 * trampoline directly, ftrace_regs_caller reaches it by RET, and the
 * trampoline reaches a wrapper by RET, which IBT does not check.  Each
 * trampoline still starts with ENDBR64 (SYM_TYPED_FUNC_START), as the
 * kernel's own direct-call samples do: its address is stored as data
 * (clkstat_direct_tramps), which objtool accepts only for an ENDBR
 * target, and should a future kernel reach a direct trampoline by an
 * indirect jump it lands on one.  The entry is counted for call depth
 * tracking (CALL_DEPTH_ACCOUNT), since the fentry call that enters it
 * went through no call thunk, and its RET is counted out.
 */
#include <linux/cfi_types.h>
#include <linux/linkage.h>
#include <asm/nospec-branch.h>
#include "compat.h"

#define CLKSTAT_DIRECT_SLOTS	48

.macro clkstat_tramp n
SYM_TYPED_FUNC_START(clkstat_direct_tramp\n)
	pushq	%rbp
	movq	%rsp, %rbp
	CALL_DEPTH_ACCOUNT
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
.irp n, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, \
	16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, \
	32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47
	clkstat_tramp \n
.endr

/* clkstat_direct_tramps[N]: slot N's trampoline. */
	.section .rodata
	.balign 8
SYM_DATA_START(clkstat_direct_tramps)
.irp n, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, \
	16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, \
	32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47
	.quad	clkstat_direct_tramp\n
.endr
SYM_DATA_END(clkstat_direct_tramps)

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hook_exit_call.S - how an exit wrapper (hook_exit.c) calls the body of
 * the function it stands in for, without an indirect call:
 *
 *   struct clkstat_ret2 clkstat_exit_call_body(unsigned long a0, ..., a5,
 *                                              unsigned long body);
 *
 * body is the hooked function past its fentry call.  On an IBT kernel an
 * indirect call or jump may only land on an ENDBR64, and a body has none:
 * ENDBR sits before the fentry call if anywhere, static functions have
 * none at all, and the kernel seals the ones nothing calls indirectly at
 * boot, so calling the function's start instead is no way out either.
 * So the wrapper calls this directly, and this pushes body and returns
 * to it.  IBT does not check a RET.  body then runs with the wrapper's
 * return address on top of the stack, exactly as if the wrapper had
 * called it, and returns there with its return value in %rax (and %rdx,
 * for a 16-byte value).  The six argument registers pass untouched;
 * body, the seventh argument, came on the stack, where body finds it as
 * its first stack argument and ignores it: a wrapped function takes no
 * argument on the stack (hook_exit.c checks).  This is the same transfer
 * ftrace_regs_caller uses for a modified ip and a direct call.
 *
 * A push and return unbalance the return stack buffer, so the transfer
 * is done as in ftrace_regs_caller: a pointless call first gives the RET
 * an entry of its own to consume (speculation stops at the int3), and
 * body's return is predicted right.  On call-depth-tracking CPUs the RET
 * is a plain ret, since the depth counted no call for it
 * (CLKSTAT_RET_AS_JUMP, compat.h).
 */
#include <linux/linkage.h>
#include <linux/objtool.h>
#include <asm/nospec-branch.h>
#include <asm/unwind_hints.h>
#include "compat.h"

	.text
SYM_FUNC_START(clkstat_exit_call_body)
	pushq	8(%rsp)
	/* body is now where the return address was: a function's entry. */
	UNWIND_HINT_FUNC
	ANNOTATE_INTRA_FUNCTION_CALL
	call	.Lclkstat_rebalance
	int3
.Lclkstat_rebalance:
	addq	$8, %rsp
	CLKSTAT_RET_AS_JUMP
SYM_FUNC_END(clkstat_exit_call_body)

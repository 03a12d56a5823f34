/* SPDX-License-Identifier: GPL-2.0 */
/*
 * direct_tramp.h - the two halves of the "direct" variant's call path:
 * the trampoline (direct_tramp.S) and the C dispatcher it calls
 * (hook_direct.c).
 */
#ifndef _CLKSTAT_DIRECT_TRAMP_H
#define _CLKSTAT_DIRECT_TRAMP_H

/* Never called from C: its address goes to register_ftrace_direct(). */
void clkstat_direct_tramp(void);

unsigned long clkstat_direct_dispatch(unsigned long a0, unsigned long a1,
				      unsigned long a2, unsigned long ret_ip);

#endif /* _CLKSTAT_DIRECT_TRAMP_H */

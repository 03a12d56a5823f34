/* SPDX-License-Identifier: GPL-2.0 */
/*
 * direct_tramp.h - the two halves of the "direct" variant's call path:
 * the trampoline (direct_tramp.S) and the C dispatcher it calls
 * (hook_direct.c).
 */
#ifndef _CLKSTAT_DIRECT_TRAMP_H
#define _CLKSTAT_DIRECT_TRAMP_H

/* Keep in step with direct_tramp.S, which has one trampoline per slot. */
#define CLKSTAT_DIRECT_SLOTS	48

/*
 * Slot N's trampoline, never called from C: its address goes to
 * clkstat_register_direct().
 */
extern const unsigned long clkstat_direct_tramps[CLKSTAT_DIRECT_SLOTS];

unsigned long clkstat_direct_dispatch(unsigned long a0, unsigned long a1,
				      unsigned long a2, unsigned long slot);

#endif /* _CLKSTAT_DIRECT_TRAMP_H */

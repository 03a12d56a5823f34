/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * clkstat_netlink_ext.h - the ABI of the "clkstat" generic netlink family:
 * clkstat_netlink.h, which the kernel's ynl-gen-c.py makes from the spec
 * (Documentation/netlink/specs/clkstat.yaml; make netlink-gen), and what
 * the generator does not render: the layout of CLKSTAT_A_M_SLOTS'
 * elements, and the checks that the spec's constants and control
 * operations are the catalog's.  The module and tools/ include this.
 *
 * Requests and replies carry attributes of one space, CLKSTAT_A_*; a
 * metric's data nests CLKSTAT_A_M_* attributes inside CLKSTAT_A_METRIC, an
 * event of the event log CLKSTAT_A_E_* inside CLKSTAT_A_EVENT.
 */
#ifndef _UAPI_CLKSTAT_NETLINK_EXT_H
#define _UAPI_CLKSTAT_NETLINK_EXT_H

#include <linux/types.h>
#include "clkstat_catalog.h"
#include "clkstat_netlink.h"

/*
 * One non-empty slot, the spec's nl-slot.  sum is in units of
 * 2^clkstat_slot_sum_shift(slot) ns, exactly as the module stores it (see
 * clkstat_buckets.h).
 */
struct clkstat_nl_slot {
	__u32 slot;
	__u32 pad;
	__u64 count;
	__u64 sum;
};

/*
 * The spec's ctrl-op entries are the catalog's CLKSTAT_CTRL_OPS, in its
 * order (the debugfs control commands; the BPF twin makes its enum from
 * the catalog).
 */
enum clkstat_ctrl_pos {
	CLKSTAT_CTRL_OPS(CLKSTAT_CAT_CTRL_POS)
	CLKSTAT_CTRL_NPOS
};

_Static_assert(CLKSTAT_CTRL_OPS(CLKSTAT_CAT_CTRL_SAME)
	       (int)CLKSTAT_CTRL_NPOS == (int)__CLKSTAT_CTRL_MAX,
	       "the spec's ctrl-op is not the catalog's CLKSTAT_CTRL_OPS");

/* The spec's limits, NUL excluded, against the catalog's sizes. */
_Static_assert(CLKSTAT_VARIANT_MAX - 1 == CLKSTAT_VARIANT_LEN_MAX,
	       "the spec's variant-len-max is not CLKSTAT_VARIANT_MAX - 1");
_Static_assert(CLKSTAT_NAME_MAX + CLKSTAT_VARIANT_MAX - 1 ==
	       CLKSTAT_METRIC_ID_LEN_MAX,
	       "the spec's metric-id-len-max is not a name.variant's");
_Static_assert(2 * CLKSTAT_NAME_MAX == CLKSTAT_TRACE_ARG_MAX,
	       "the spec's trace-arg-max is not twice a metric name");

#endif /* _UAPI_CLKSTAT_NETLINK_EXT_H */

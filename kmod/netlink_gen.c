// SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause)
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/clkstat.yaml */
/* YNL-GEN kernel source */

#include <net/netlink.h>
#include <net/genetlink.h>

#include "netlink_gen.h"

#include <uapi/clkstat_netlink.h>
#include <compat.h>

/* Integer value ranges */
static const struct netlink_range_validation clkstat_a_tgid_range = {
	.max	= CLKSTAT_TGID_MAX,
};

/* CLKSTAT_CMD_CTRL - do */
static const struct nla_policy clkstat_ctrl_nl_policy[CLKSTAT_A_TRACE + 1] = {
	[CLKSTAT_A_CTRL_OP] = NLA_POLICY_MAX(NLA_U32, 6),
	[CLKSTAT_A_METRIC_ID] = { .type = NLA_NUL_STRING, .len = CLKSTAT_METRIC_ID_LEN_MAX, },
	[CLKSTAT_A_TGID] = NLA_POLICY_FULL_RANGE(NLA_U32, &clkstat_a_tgid_range),
	[CLKSTAT_A_VARIANT] = { .type = NLA_NUL_STRING, .len = CLKSTAT_VARIANT_LEN_MAX, },
	[CLKSTAT_A_TRACE] = { .type = NLA_NUL_STRING, .len = CLKSTAT_TRACE_ARG_MAX, },
};

/* Ops table for clkstat */
const struct genl_split_ops clkstat_nl_ops[4] = {
	{
		.cmd	= CLKSTAT_CMD_GET_INFO,
		.doit	= clkstat_nl_get_info_doit,
		.flags	= GENL_CMD_CAP_DO,
	},
	{
		.cmd	= CLKSTAT_CMD_GET_HIST,
		.start	= clkstat_nl_hist_start,
		.dumpit	= clkstat_nl_get_hist_dumpit,
		.done	= clkstat_nl_hist_done,
		.flags	= GENL_CMD_CAP_DUMP,
	},
	{
		.cmd		= CLKSTAT_CMD_CTRL,
		.doit		= clkstat_nl_ctrl_doit,
		.policy		= clkstat_ctrl_nl_policy,
		.maxattr	= CLKSTAT_A_TRACE,
		.flags		= GENL_CMD_CAP_DO,
	},
	{
		.cmd	= CLKSTAT_CMD_GET_EVENTS,
		.start	= clkstat_nl_events_start,
		.dumpit	= clkstat_nl_get_events_dumpit,
		.done	= clkstat_nl_events_done,
		.flags	= GENL_CMD_CAP_DUMP,
	},
};

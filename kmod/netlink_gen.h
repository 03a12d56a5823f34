/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/clkstat.yaml */
/* YNL-GEN kernel header */

#ifndef _LINUX_CLKSTAT_GEN_H
#define _LINUX_CLKSTAT_GEN_H

#include <net/netlink.h>
#include <net/genetlink.h>

#include <uapi/clkstat_netlink.h>
#include <compat.h>

/* Ops table for clkstat */
extern const struct genl_split_ops clkstat_nl_ops[4];

int clkstat_nl_hist_start(struct netlink_callback *cb);
int clkstat_nl_events_start(struct netlink_callback *cb);
int clkstat_nl_hist_done(struct netlink_callback *cb);
int clkstat_nl_events_done(struct netlink_callback *cb);

int clkstat_nl_get_info_doit(struct sk_buff *skb, struct genl_info *info);
int clkstat_nl_get_hist_dumpit(struct sk_buff *skb,
			       struct netlink_callback *cb);
int clkstat_nl_ctrl_doit(struct sk_buff *skb, struct genl_info *info);
int clkstat_nl_get_events_dumpit(struct sk_buff *skb,
				 struct netlink_callback *cb);

#endif /* _LINUX_CLKSTAT_GEN_H */

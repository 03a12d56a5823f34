/* SPDX-License-Identifier: GPL-2.0 */
/* netlink.h - the "clkstat" generic netlink family (see netlink.c) */
#ifndef _CLKSTAT_NETLINK_H
#define _CLKSTAT_NETLINK_H

int clkstat_netlink_init(void);
void clkstat_netlink_exit(void);

#endif /* _CLKSTAT_NETLINK_H */

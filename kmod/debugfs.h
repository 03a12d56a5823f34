/* SPDX-License-Identifier: GPL-2.0 */
/* debugfs.h - /sys/kernel/debug/clkstat/ (see debugfs.c for the format) */
#ifndef _CLKSTAT_DEBUGFS_H
#define _CLKSTAT_DEBUGFS_H

void clkstat_debugfs_init(void);
void clkstat_debugfs_exit(void);

#endif /* _CLKSTAT_DEBUGFS_H */

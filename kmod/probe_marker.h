/* SPDX-License-Identifier: GPL-2.0 */
/*
 * probe_marker.h - probe marker's write side, for debugfs's marker file.
 */
#ifndef _CLKSTAT_PROBE_MARKER_H
#define _CLKSTAT_PROBE_MARKER_H

#include <linux/compiler.h>
#include <linux/types.h>

bool clkstat_marker_active(void);
ssize_t clkstat_marker_write(const char __user *ubuf, size_t len);

#endif /* _CLKSTAT_PROBE_MARKER_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sysfs_line.h - one line of a kernel file (sysfs, procfs), as the
 * metadata (meta.c) and the cpufreq settings (cpufreq.c) read them.
 */
#ifndef CLKSTAT_LIB_SYSFS_LINE_H
#define CLKSTAT_LIB_SYSFS_LINE_H

/*
 * The first line of root/path (root: "" or a test's fake tree), trailing
 * white space trimmed, malloc'd; NULL if it cannot be read.
 */
char *cr_sysfs_line(const char *root, const char *path);

#endif

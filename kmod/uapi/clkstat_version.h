/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * clkstat_version.h - clkstat's version: the module's (modinfo and
 * GET_INFO report it) and clkstat-report's, which ship together.
 */
#ifndef _UAPI_CLKSTAT_VERSION_H
#define _UAPI_CLKSTAT_VERSION_H

#define CLKSTAT_MODULE_VERSION	"0.3.0"

#endif /* _UAPI_CLKSTAT_VERSION_H */

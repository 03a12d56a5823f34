/* SPDX-License-Identifier: GPL-2.0 */
/* version.h - the module's version, as modinfo and GET_INFO report it. */
#ifndef _CLKSTAT_VERSION_H
#define _CLKSTAT_VERSION_H

#define CLKSTAT_MODULE_VERSION	"0.3.0"

#endif /* _CLKSTAT_VERSION_H */

/* SPDX-License-Identifier: GPL-2.0 */
/* version.h - clkstat-report's version: the module's, they ship together. */
#ifndef CLKSTAT_REPORT_VERSION_H
#define CLKSTAT_REPORT_VERSION_H

#include "../../kmod/uapi/clkstat_version.h"
#define CLKSTAT_REPORT_VERSION	CLKSTAT_MODULE_VERSION

#endif

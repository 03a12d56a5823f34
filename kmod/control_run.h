/* SPDX-License-Identifier: GPL-2.0 */
/* control_run.h - carry out a parsed control command (see control_run.c) */
#ifndef _CLKSTAT_CONTROL_RUN_H
#define _CLKSTAT_CONTROL_RUN_H

struct clkstat_cmd;
int clkstat_command(struct clkstat_cmd *cmd);

#endif /* _CLKSTAT_CONTROL_RUN_H */

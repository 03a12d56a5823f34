/* SPDX-License-Identifier: GPL-2.0 */
/* command.h - carry out a parsed control command (see command.c) */
#ifndef _CLKSTAT_COMMAND_H
#define _CLKSTAT_COMMAND_H

struct clkstat_cmd;
int clkstat_command(struct clkstat_cmd *cmd);

#endif /* _CLKSTAT_COMMAND_H */

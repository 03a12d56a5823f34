// SPDX-License-Identifier: GPL-2.0
/*
 * control_run.c - where every control command is carried out, whether it came
 * through debugfs's control file, netlink or the module's own load and
 * unload: one at a time, a variant switch to probes.c, the others to the
 * metrics (control_lang.c) with the attached variant as probes.c knows it.
 * Each start, stop, reset and tgid done is a clkstat:clkstat_control
 * trace event (control_trace.h), the window the BPF twin follows.
 */
#include <linux/mutex.h>
#include "control_run.h"
#include "control_lang.h"
#include "probes.h"
#define CREATE_TRACE_POINTS
#include "control_trace.h"

static DEFINE_MUTEX(clkstat_command_lock);

/**
 * clkstat_command() - carry out a control command, a variant switch included
 * @cmd: a parsed command (debugfs text, a netlink request, or the module's
 *	 own start and stop of every metric); its why is set to a static
 *	 string saying why it was refused
 *
 * Return: 0 or a negative errno, as clkstat_control_exec() and
 * clkstat_probes_switch() return.
 */
int clkstat_command(struct clkstat_cmd *cmd)
{
	int ret;

	mutex_lock(&clkstat_command_lock);
	if (cmd->op == CLKSTAT_CTRL_VARIANT)
		ret = clkstat_probes_switch(cmd->variant, &cmd->why);
	else if (cmd->op == CLKSTAT_CTRL_TRACE)
		ret = clkstat_probes_trace(cmd->trace, true, &cmd->why);
	else if (cmd->op == CLKSTAT_CTRL_UNTRACE)
		ret = clkstat_probes_trace(cmd->trace, false, &cmd->why);
	else
		ret = clkstat_control_exec(cmd, clkstat_probes_variant(NULL));
	/* Under the lock: the events come in the commands' order. */
	if (!ret && (cmd->op == CLKSTAT_CTRL_START ||
		     cmd->op == CLKSTAT_CTRL_STOP ||
		     cmd->op == CLKSTAT_CTRL_RESET ||
		     cmd->op == CLKSTAT_CTRL_TGID))
		trace_clkstat_control(cmd->op, cmd->tgid, cmd->metric);
	mutex_unlock(&clkstat_command_lock);
	return ret;
}

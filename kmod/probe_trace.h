/* SPDX-License-Identifier: GPL-2.0 */
/*
 * probe_trace.h - user-defined probes ("traces", shared/clkstat_trace.h):
 * added and removed at run time, fed by whatever variant the probes are
 * attached with.  probes.c calls these under its lock, so that a trace
 * and a variant switch never cross; they know probes.c only by the
 * configuration it gives them (probe_cfg.h).
 */
#ifndef _CLKSTAT_PROBE_TRACE_H
#define _CLKSTAT_PROBE_TRACE_H

#include <linux/seq_file.h>
#include "hook.h"
#include "probe_cfg.h"
#include "shared/clkstat_trace.h"

int clkstat_trace_add(const char *spec, const struct clkstat_variant *b,
		      const struct clkstat_probe_cfg *cfg, const char **why);
int clkstat_trace_del(const char *spec, const struct clkstat_variant *b,
		      const char **why);
void clkstat_trace_del_all(const struct clkstat_variant *b);
const char *clkstat_trace_unsupported(const struct clkstat_variant *b);
int clkstat_trace_attach_all(const struct clkstat_variant *b);
void clkstat_trace_detach_all(const struct clkstat_variant *b);
int clkstat_trace_bind_all(const char *variant);
void clkstat_trace_show(struct seq_file *m);
void clkstat_trace_refresh(const struct clkstat_variant *b);
/* trace_targets.c */
const char *clkstat_trace_denied(const char *sym, bool ret);
unsigned int clkstat_trace_specs(char specs[][CLKSTAT_NAME_MAX],
				 unsigned int *ids, unsigned int max);

#endif /* _CLKSTAT_PROBE_TRACE_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tp_probes.h - which probe function the tracepoint variant registers on
 * a tracepoint (tp_probes.c: one of the tracepoint's exact type, for kCFI).
 */
#ifndef _CLKSTAT_TP_PROBES_H
#define _CLKSTAT_TP_PROBES_H

#include <linux/types.h>

struct module;
struct tracepoint;

void *clkstat_tp_probe_pick(const char *owner, const char *name, bool cfi);
void *clkstat_tp_probe(struct tracepoint *tp, struct module *owner);

#endif /* _CLKSTAT_TP_PROBES_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * probes.h - what a probe is: the metrics it owns and the hooks that feed
 * them.  A probe does not know which variant attaches its hooks.
 */
#ifndef _CLKSTAT_PROBES_H
#define _CLKSTAT_PROBES_H

#include <linux/math64.h>
#include <linux/sched.h>
#include <linux/timekeeping.h>
#include <asm/tsc.h>
#include "clock.h"
#include "hist.h"
#include "hook.h"
#include "probe_cfg.h"
#include "uapi/clkstat_catalog.h"
#include "shared/clkstat_trace.h"

struct seq_file;

/*
 * What a variant switch found recording in the old variant (probes.c),
 * for a probe's bind to tell what the switch loses.
 */
struct clkstat_handover {
	const struct clkstat_metric *recorded[CLKSTAT_NMETRICS +
					      CLKSTAT_TRACE_MAX];
	unsigned int n;
};

bool clkstat_handover_recorded(const struct clkstat_handover *h,
			       const struct clkstat_metric *m);

struct clkstat_probe {
	const char *name;		/* as given in probes= */
	/* Create tables, bind cfg->variant's metrics; nothing attached yet. */
	int (*init)(const struct clkstat_probe_cfg *cfg);
	/*
	 * Make a variant's metrics the ones the handlers record into,
	 * creating them the first time, and count the events pending in the
	 * probe's tables as lost in the switch if its old metric recorded
	 * (@h; NULL at load and when a failed switch binds back).  Called
	 * with every hook detached; on failure the previous binding stays.
	 */
	int (*bind)(const char *variant, const struct clkstat_handover *h);
	/* Free tables and metrics of every variant; hooks are detached. */
	void (*exit)(void);
	struct clkstat_hook *hooks;
	unsigned int nhooks;
};

/* The metrics' names by catalog ID (uapi/clkstat_catalog.h). */
extern const char *const clkstat_metric_names[CLKSTAT_NMETRICS];
#define CLKSTAT_MNAME(id)	clkstat_metric_names[CLKSTAT_METRIC_##id]

int clkstat_probes_select(const char *list);
const char *clkstat_probes_unsupported(const struct clkstat_variant *b);
int clkstat_probes_start(const struct clkstat_probe_cfg *cfg);
void clkstat_probes_stop(void);
int clkstat_probes_switch(const char *name, const char **why);
void clkstat_probes_names(char *buf, size_t len);
const char *clkstat_probes_variant(unsigned long *switches);
int clkstat_probes_trace(const char *spec, bool add, const char **why);
unsigned int clkstat_probes_traces(char specs[][CLKSTAT_NAME_MAX],
				   unsigned int *ids, unsigned int max);
void clkstat_probes_traces_show(struct seq_file *m);
void clkstat_probes_missed_show(struct seq_file *m);
void clkstat_probes_refresh(void);
const struct clkstat_variant *clkstat_probes_hold(void);
void clkstat_probes_release(void);
bool clkstat_probe_enabled(const struct clkstat_probe *p);

extern struct clkstat_probe clkstat_probe_ttwu;
extern struct clkstat_probe clkstat_probe_tkread;
extern struct clkstat_probe clkstat_probe_csread;
extern struct clkstat_probe clkstat_probe_csswitch;
extern struct clkstat_probe clkstat_probe_clockoff;
extern struct clkstat_probe clkstat_probe_marker;

/*
 * TSC cycles to ns, for short intervals timed on one CPU without reading
 * a clocksource (csread; the hook benchmark).  Needs tsc_khz != 0.
 */
static __always_inline u64 clkstat_tsc_ns(u64 cycles)
{
	return mul_u64_u32_div(cycles, 1000000, tsc_khz);
}

#endif /* _CLKSTAT_PROBES_H */

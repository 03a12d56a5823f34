/* SPDX-License-Identifier: GPL-2.0 */
/*
 * probes.h - what a probe is: the metrics it owns and the hooks that feed
 * them.  A probe does not know which backend attaches its hooks.
 */
#ifndef _CLKSTAT_PROBES_H
#define _CLKSTAT_PROBES_H

#include <linux/math64.h>
#include <linux/sched.h>
#include <linux/timekeeping.h>
#include <asm/tsc.h>
#include "hist.h"
#include "hook.h"
#include "uapi/clkstat_catalog.h"

struct clkstat_probe_cfg {
	unsigned int frac_bits;
	unsigned int corr_entries;	/* per-task table size, power of two */
	bool with_ttwu;			/* the ttwu probe is enabled too */
	bool with_csread;		/* the csread probe is enabled too */
	bool with_sampling_probe;	/* ttwu, tkread or csswitch (clockoff) */
	const struct clkstat_backend *backend;
#ifdef CLKSTAT_FAULT_HOOKS
	const char *fault_hook;		/* test only: OLD=NEW, see probes.c */
#endif
};

struct clkstat_probe {
	const char *name;		/* as given in probes= */
	/* Create tables, bind cfg->backend's metrics; nothing attached yet. */
	int (*init)(const struct clkstat_probe_cfg *cfg);
	/*
	 * Make a variant's metrics the ones the handlers record into,
	 * creating them the first time, and count the events pending in the
	 * probe's tables as lost in the switch.  Called with every hook
	 * detached; on failure the previous binding stays.
	 */
	int (*bind)(const char *variant);
	/* Free tables and metrics of every variant; hooks are detached. */
	void (*exit)(void);
	struct clkstat_hook *hooks;
	unsigned int nhooks;
};

/* The metrics' names by catalog ID (uapi/clkstat_catalog.h). */
extern const char *const clkstat_metric_names[CLKSTAT_NMETRICS];
#define CLKSTAT_MNAME(id)	clkstat_metric_names[CLKSTAT_METRIC_##id]

/* The frac_bits parameter (main.c). */
extern unsigned int clkstat_frac_bits;

int clkstat_probes_select(const char *list);
const char *clkstat_probes_unsupported(const struct clkstat_backend *b);
int clkstat_probes_start(const struct clkstat_probe_cfg *cfg);
void clkstat_probes_stop(void);
int clkstat_probes_switch(const char *name);
struct clkstat_cmd;
int clkstat_command(const struct clkstat_cmd *cmd);
void clkstat_probes_names(char *buf, size_t len);
const char *clkstat_probes_variant(unsigned long *switches);

extern struct clkstat_probe clkstat_probe_ttwu;
extern struct clkstat_probe clkstat_probe_tkread;
extern struct clkstat_probe clkstat_probe_csread;
extern struct clkstat_probe clkstat_probe_csswitch;
extern struct clkstat_probe clkstat_probe_clockoff;
extern struct clkstat_probe clkstat_probe_marker;

bool clkstat_marker_active(void);
ssize_t clkstat_marker_write(const char __user *ubuf, size_t len);

/* clockoff: set while enabled; the other probes sample through it. */
extern struct clkstat_metric *clkstat_clockoff;
void clkstat_clockoff_record(u64 mono);

/* Sample the clock offset at an event, with the event's clkstat_now(). */
static __always_inline void clkstat_clockoff_sample(u64 mono)
{
	struct clkstat_metric *m = READ_ONCE(clkstat_clockoff);

	if (m && clkstat_metric_recording(m))
		clkstat_clockoff_record(mono);
}

/*
 * The link from ttwu to tkread: ttwu_tkread while both probes are enabled,
 * else NULL.  ttwu's hooks feed wakeups and enqueues to tkread through it.
 */
extern struct clkstat_metric *clkstat_ttwu_tkread;
void clkstat_tkread_on_wakeup(struct task_struct *p, u64 now, u64 id);
void clkstat_tkread_on_enqueue(struct task_struct *p, u64 now);

static inline bool clkstat_tkread_wants(void)
{
	struct clkstat_metric *m = READ_ONCE(clkstat_ttwu_tkread);

	return m && clkstat_metric_recording(m);
}

/*
 * Timestamps of every probe: one clock for all CPUs, NMI-safe, notrace.
 * It may step back by a few ns across a timekeeping update; probes clamp
 * negative intervals to 0.
 */
static __always_inline u64 clkstat_now(void)
{
	return ktime_get_mono_fast_ns();
}

/*
 * TSC cycles to ns, for short intervals timed on one CPU without reading
 * a clocksource (csread; the hook benchmark).  Needs tsc_khz != 0.
 */
static __always_inline u64 clkstat_tsc_ns(u64 cycles)
{
	return mul_u64_u32_div(cycles, 1000000, tsc_khz);
}

#endif /* _CLKSTAT_PROBES_H */

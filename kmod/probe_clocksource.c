// SPDX-License-Identifier: GPL-2.0
/*
 * probe_clocksource.c - the csread and csswitch probes.
 *
 * csread: what one read of a clocksource costs, from entry to return of
 * its read function, one metric per clocksource:
 *   csread_hpet      read_hpet()
 *   csread_acpi_pm   acpi_pm_read()
 * (the two a TCG guest has; read_tsc() is notrace and cannot be hooked).
 * Timed with the TSC (rdtsc_ordered(), converted with tsc_khz) so that
 * timing a read does not read the clocksource being timed; without a TSC
 * frequency the probe does not load.
 *
 * csswitch: clocksource switches (timekeeping_notify(), which runs
 * change_clocksource() under stop_machine(); a write to current_clocksource
 * ends there), entry to return:
 *   csswitch              switch duration; counters: switches, failed
 *                         (timekeeping_notify() returned an error)
 *   csswitch_first_read   (with csread) from a switch's return to the
 *                         entry of the next clocksource read on any CPU
 * Both hook exits (see hook.h); the kernel has no tracepoint for either,
 * so the tracepoint variant cannot run them.
 *
 * clkstat_now() reads the clocksource too.  Where a read hook needs it
 * (the first read after a switch, an event log timestamp), it raises a
 * per-CPU nesting count first: the read it causes is clkstat's own, and
 * the read hooks ignore it.
 */
#include <linux/atomic.h>
#include <linux/clocksource.h>
#include <linux/math64.h>
#include <linux/pid.h>
#include <asm/msr.h>
#include <asm/tsc.h>
#include "evlog.h"
#include "hist.h"
#include "probe_clockoff.h"
#include "probes.h"
#include "reentry.h"
#include "uapi/clkstat_catalog.h"

enum { CSR_HPET, CSR_ACPI_PM, CSR_N };

static const enum clkstat_metric_id csr_metric_ids[CSR_N] = {
	[CSR_HPET] = CLKSTAT_METRIC_CSREAD_HPET,
	[CSR_ACPI_PM] = CLKSTAT_METRIC_CSREAD_ACPI_PM,
};

static const char *const csr_cs_names[CSR_N] = {
	[CSR_HPET] = "hpet",
	[CSR_ACPI_PM] = "acpi_pm",
};

static const char *const csw_counter_names[CLKSTAT_CSW_NCOUNTERS] = {
	CLKSTAT_CSW_COUNTERS(CLKSTAT_CAT_NAME)
};

static struct clkstat_metric *csr_metric[CSR_N];
static struct clkstat_metric *csw_metric, *csw_first_read;
static bool csw_with_csread;
/* clkstat_now() at the return of the last switch, until a read takes it. */
static atomic64_t csw_pending_exit;
/* The switch in progress (they are serialized by clocksource_mutex). */
static u64 csw_cur_id;
static char csw_cur_name[CLKSTAT_EVENT_TEXT];
/* Raised while a read hook reads the clock itself. */
static DEFINE_PER_CPU(int, cs_nest);

/* clkstat_now() from inside a read hook, without measuring that read. */
static u64 notrace cs_now_nested(void)
{
	u64 now;

	preempt_disable_notrace();
	this_cpu_inc(cs_nest);
	now = clkstat_now();
	this_cpu_dec(cs_nest);
	preempt_enable_notrace();
	return now;
}

/* The first clocksource read after a switch closes the switch's gap. */
static void notrace csw_read_seen(void)
{
	s64 t = atomic64_read(&csw_pending_exit);
	u64 now;

	if (!t || atomic64_cmpxchg(&csw_pending_exit, t, 0) != t)
		return;
	now = cs_now_nested();
	clkstat_record(csw_first_read, now > (u64)t ? now - (u64)t : 0);
}

/* Cookie: the TSC at entry, or 0 for a read clkstat itself made. */
static u64 notrace csr_enter(unsigned long cs, unsigned long a1,
			     unsigned long a2)
{
	if (this_cpu_read(cs_nest))
		return 0;
	if (READ_ONCE(csw_first_read))
		csw_read_seen();
	return rdtsc_ordered();
}

static void notrace csr_exit(unsigned int which, u64 t0)
{
	u64 t1 = rdtsc_ordered(), ns;

	if (!t0)
		return;
	ns = t1 > t0 ? clkstat_tsc_ns(t1 - t0) : 0;
	clkstat_record(csr_metric[which], ns);
	if (clkstat_evlog_on() && clkstat_metric_recording(csr_metric[which])) {
		struct clkstat_event_rec ev = {
			.type = CLKSTAT_EV_CS_READ, .ts = cs_now_nested(),
			.pid = task_pid_nr(current), .latency = ns,
			.flags = CLKSTAT_EVF_LATENCY,
		};

		clkstat_evlog_add(&ev, csr_cs_names[which]);
	}
}

static void notrace csr_exit_hpet(u64 t0, unsigned long ret)
{
	csr_exit(CSR_HPET, t0);
}

static void notrace csr_exit_acpi_pm(u64 t0, unsigned long ret)
{
	csr_exit(CSR_ACPI_PM, t0);
}

static struct clkstat_hook csr_hooks[CSR_N] = {
	[CSR_HPET] = { .func = CLKSTAT_FUNC_CSREAD_HPET, .enter = csr_enter,
		       .exit = csr_exit_hpet },
	[CSR_ACPI_PM] = { .func = CLKSTAT_FUNC_CSREAD_ACPI_PM, .enter = csr_enter,
			  .exit = csr_exit_acpi_pm },
};

/* timekeeping_notify(struct clocksource *clock) */
static u64 notrace csw_enter(unsigned long clock, unsigned long a1,
			     unsigned long a2)
{
	u64 now = clkstat_now();

	if (clkstat_evlog_on() && clkstat_metric_recording(csw_metric)) {
		csw_cur_id = clkstat_evlog_new_id();
		strscpy(csw_cur_name, ((struct clocksource *)clock)->name,
			sizeof(csw_cur_name));
		struct clkstat_event_rec ev = {
			.type = CLKSTAT_EV_CS_SWITCH_ENTRY, .ts = now,
			.corr = csw_cur_id, .pid = task_pid_nr(current),
		};

		clkstat_evlog_add(&ev, csw_cur_name);
	} else {
		csw_cur_id = 0;
	}
	return now;
}

static void notrace csw_exit(u64 t0, unsigned long ret)
{
	u64 now = clkstat_now(), ns = now > t0 ? now - t0 : 0;

	clkstat_record(csw_metric, ns);
	if (csw_cur_id) {
		struct clkstat_event_rec ev = {
			.type = CLKSTAT_EV_CS_SWITCH_EXIT, .ts = now,
			.corr = csw_cur_id, .pid = task_pid_nr(current),
			.latency = ns, .flags = CLKSTAT_EVF_LATENCY,
		};

		clkstat_evlog_add(&ev, csw_cur_name);
	}
	clkstat_clockoff_sample(now);
	clkstat_count(csw_metric, CLKSTAT_CSW_SWITCHES);
	if ((int)ret)
		clkstat_count(csw_metric, CLKSTAT_CSW_FAILED);
	if (csw_first_read && clkstat_metric_recording(csw_first_read))
		atomic64_set(&csw_pending_exit, now);
}

static struct clkstat_hook csw_hooks[] = {
	{ .func = CLKSTAT_FUNC_CSSWITCH, .enter = csw_enter,
	  .exit = csw_exit },
};

/*
 * csread hooks the clocksource reads clkstat's own clock may call (off
 * the TSC, ktime_get_mono_fast_ns() reads the HPET): its hooks check for
 * reentry (reentry.h) while it is loaded.
 */
static bool csr_armed;

static void csread_exit(void)
{
	unsigned int i;

	if (csr_armed)
		clkstat_reentry_disarm();
	csr_armed = false;

	for (i = 0; i < CSR_N; i++) {
		csr_metric[i] = NULL;
		clkstat_metric_destroy_name(clkstat_metric_names[csr_metric_ids[i]]);
	}
}

static int csread_bind(const char *variant,
		       const struct clkstat_handover *h)
{
	struct clkstat_metric *m[CSR_N];
	unsigned int i;

	for (i = 0; i < CSR_N; i++) {
		m[i] = clkstat_metric_get(clkstat_metric_names[csr_metric_ids[i]],
					  variant, NULL, 0);
		if (IS_ERR(m[i]))
			return PTR_ERR(m[i]);
	}
	for (i = 0; i < CSR_N; i++)
		csr_metric[i] = m[i];
	return 0;
}

static int csread_init(const struct clkstat_probe_cfg *cfg)
{
	int ret;

	if (!tsc_khz) {
		pr_err("clkstat: probe csread needs the TSC frequency (tsc_khz is 0)\n");
		return -EOPNOTSUPP;
	}
	ret = csread_bind(cfg->variant->name, NULL);
	if (ret) {
		csread_exit();
		return ret;
	}
	clkstat_reentry_arm();
	csr_armed = true;
	return 0;
}

struct clkstat_probe clkstat_probe_csread = {
	.name = "csread",
	.init = csread_init,
	.bind = csread_bind,
	.exit = csread_exit,
	.hooks = csr_hooks,
	.nhooks = CSR_N,
};

static void csswitch_exit(void)
{
	WRITE_ONCE(csw_first_read, NULL);
	csw_metric = NULL;
	clkstat_metric_destroy_name(CLKSTAT_MNAME(CSSWITCH_FIRST_READ));
	clkstat_metric_destroy_name(CLKSTAT_MNAME(CSSWITCH));
	atomic64_set(&csw_pending_exit, 0);
}

static int csswitch_bind(const char *variant,
			 const struct clkstat_handover *h)
{
	struct clkstat_metric *m, *first = NULL;

	m = clkstat_metric_get(CLKSTAT_MNAME(CSSWITCH), variant,
			       csw_counter_names, CLKSTAT_CSW_NCOUNTERS);
	if (IS_ERR(m))
		return PTR_ERR(m);
	if (csw_with_csread) {
		first = clkstat_metric_get(CLKSTAT_MNAME(CSSWITCH_FIRST_READ),
					   variant, NULL, 0);
		if (IS_ERR(first))
			return PTR_ERR(first);
	}
	csw_metric = m;
	/* A gap opened under the old variant does not close under this one. */
	atomic64_set(&csw_pending_exit, 0);
	WRITE_ONCE(csw_first_read, first);
	return 0;
}

static int csswitch_init(const struct clkstat_probe_cfg *cfg)
{
	int ret;

	csw_with_csread = cfg->with_csread;
	ret = csswitch_bind(cfg->variant->name, NULL);
	if (ret)
		csswitch_exit();
	return ret;
}

struct clkstat_probe clkstat_probe_csswitch = {
	.name = "csswitch",
	.init = csswitch_init,
	.bind = csswitch_bind,
	.exit = csswitch_exit,
	.hooks = csw_hooks,
	.nhooks = ARRAY_SIZE(csw_hooks),
};

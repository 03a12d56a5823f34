// SPDX-License-Identifier: GPL-2.0
/*
 * probes.c - the enabled probes as one set: choosing them, starting and
 * stopping them, and switching the variant that feeds them at runtime.
 *
 * A switch stops the old variant's metrics (remembering which recorded),
 * detaches every hook of every probe (and waits until no handler runs),
 * binds each probe to the new variant's metrics, which are stopped,
 * attaches the new variant's hooks, and only then starts the new metrics
 * that correspond to old ones that recorded.  So no sample and no counter
 * comes from a half-attached state: while hooks come and go, every
 * handler finds its metric stopped and returns.  What was pending when the
 * old metrics stopped is counted as switch_lost by the probes; events
 * during the switch are not seen at all.  The start begins a new epoch,
 * so nothing opened under the old variant closes under the new one.
 */
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "hist.h"
#include "probe_trace.h"
#include "probes.h"
#include "uapi/clkstat_netlink_ext.h"
#include "test_exports.h"

/* " direct ftrace ...": every variant's name, for a refusal. */
#define CLKSTAT_VNAME_SP(id)	" " CLKSTAT_VNAME(id)
#define CLKSTAT_VARIANT_LIST	CLKSTAT_VARIANTS(CLKSTAT_VNAME_SP)

const char *const clkstat_metric_names[CLKSTAT_NMETRICS] =
	CLKSTAT_METRIC_NAMES_INIT;
CLKSTAT_EXPORT_FOR_TESTS(clkstat_metric_names);

static struct clkstat_probe *const clkstat_known_probes[] = {
	&clkstat_probe_ttwu,
	&clkstat_probe_tkread,
	&clkstat_probe_csread,
	&clkstat_probe_csswitch,
	&clkstat_probe_clockoff,
	&clkstat_probe_marker,
};

static struct clkstat_probe *clkstat_active[ARRAY_SIZE(clkstat_known_probes)];
static unsigned int clkstat_nactive;
/*
 * The traces probes= asks for (func:, sec:, tp:), copied: static, so that
 * no load that fails half way can leak them.
 */
static char clkstat_load_traces[CLKSTAT_TRACE_MAX][CLKSTAT_TRACE_ARG_MAX + 1];
static unsigned int clkstat_nload_traces;
/* What a trace added at run time is set up with: the load's. */
static struct clkstat_probe_cfg clkstat_cfg;
static const struct clkstat_variant *clkstat_attached;
static unsigned long clkstat_switches;
static DEFINE_MUTEX(clkstat_probes_lock);

static struct clkstat_probe *clkstat_probe_by_name(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(clkstat_known_probes); i++)
		if (!strcmp(clkstat_known_probes[i]->name, name))
			return clkstat_known_probes[i];
	return NULL;
}

/* The names of n probes, joined by sep. */
static void clkstat_join(char *buf, size_t len,
			 struct clkstat_probe *const *p, unsigned int n,
			 const char *sep)
{
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		if (i)
			strlcat(buf, sep, len);
		strlcat(buf, p[i]->name, len);
	}
}

/**
 * clkstat_probes_select() - choose the probes to enable, from probes=
 * @list: comma-separated probe names; an empty string enables nothing
 *
 * Return: 0, -EINVAL (logged, naming the value) or -ENOMEM.
 */
int clkstat_probes_select(const char *list)
{
	struct clkstat_probe *p;
	char *dup, *s, *name;
	unsigned int i;
	char known[96];
	int ret = 0;

	clkstat_nactive = 0;
	clkstat_nload_traces = 0;
	if (!*list)
		return 0;
	dup = kstrdup(list, GFP_KERNEL);
	if (!dup)
		return -ENOMEM;
	s = dup;
	while ((name = strsep(&s, ",")) != NULL) {
		if (strchr(name, ':')) {
			/* A trace: clkstat_probes_start() adds it. */
			if (clkstat_nload_traces == CLKSTAT_TRACE_MAX ||
			    strlen(name) > CLKSTAT_TRACE_ARG_MAX) {
				pr_err("clkstat: probes=%*pE: more than %d traces, or one of more than %d bytes\n",
				       (int)strlen(list), list,
				       CLKSTAT_TRACE_MAX, CLKSTAT_TRACE_ARG_MAX);
				ret = -EINVAL;
				break;
			}
			strscpy(clkstat_load_traces[clkstat_nload_traces++],
				name, sizeof(clkstat_load_traces[0]));
			continue;
		}
		p = clkstat_probe_by_name(name);
		if (!p) {
			clkstat_join(known, sizeof(known), clkstat_known_probes,
				     ARRAY_SIZE(clkstat_known_probes), ", ");
			pr_err("clkstat: probes=%*pE: unknown probe '%*pE' (known: %s, and traces func:F, sec:A-B, tp:X-Y)\n",
			       (int)strlen(list), list, (int)strlen(name), name,
			       known);
			ret = -EINVAL;
			break;
		}
		for (i = 0; i < clkstat_nactive; i++)
			if (clkstat_active[i] == p)
				break;
		if (i < clkstat_nactive) {
			pr_err("clkstat: probes=%*pE: probe '%s' given twice\n",
			       (int)strlen(list), list, name);
			ret = -EINVAL;
			break;
		}
		clkstat_active[clkstat_nactive++] = p;
	}
	kfree(dup);
	if (ret)
		clkstat_nload_traces = 0;
	return ret;
}

/**
 * clkstat_probes_unsupported() - the first chosen probe a variant cannot run
 * @b: the variant
 *
 * Return: the probe's name, or NULL if @b can run them all.
 */
const char *clkstat_probes_unsupported(const struct clkstat_variant *b)
{
	unsigned int i;

	for (i = 0; i < clkstat_nactive; i++)
		if (!clkstat_hooks_supported(b, clkstat_active[i]->hooks,
					     clkstat_active[i]->nhooks))
			return clkstat_active[i]->name;
	return clkstat_trace_unsupported(b);
}

/* Detach the hooks of the first n active probes, last first. */
static void clkstat_detach(const struct clkstat_variant *b, unsigned int n)
{
	if (n == clkstat_nactive)
		clkstat_trace_detach_all(b);
	while (n--)
		clkstat_hooks_detach(b, clkstat_active[n]->hooks,
				     clkstat_active[n]->nhooks);
}

/* Attach every active probe's hooks, or none. */
static int clkstat_attach(const struct clkstat_variant *b)
{
	unsigned int i;
	int ret;

	for (i = 0; i < clkstat_nactive; i++) {
		ret = clkstat_hooks_attach(b, clkstat_active[i]->hooks,
					   clkstat_active[i]->nhooks);
		if (ret) {
			pr_err("clkstat: probe %s: cannot attach with variant %s: %d\n",
			       clkstat_active[i]->name, b->name, ret);
			clkstat_detach(b, i);
			return ret;
		}
	}
	return 0;
}

/* Attach every active probe's and every trace's hooks, or none. */
static int clkstat_attach_all(const struct clkstat_variant *b)
{
	int ret = clkstat_attach(b);

	if (ret)
		return ret;
	ret = clkstat_trace_attach_all(b);
	if (ret)
		clkstat_detach(b, clkstat_nactive);
	return ret;
}

/* Free the first n active probes; their hooks are all detached. */
static void clkstat_exit_probes(unsigned int n)
{
	while (n--)
		clkstat_active[n]->exit();
}

#ifdef CLKSTAT_FAULT_HOOKS
/* Does @name equal the first @len characters of @spec? */
static bool clkstat_name_is(const char *name, const char *spec, size_t len)
{
	return name && strlen(name) == len && !strncmp(name, spec, len);
}

/*
 * Test only, in modules built with CLKSTAT_FAULT_HOOKS=1 (kmod/Kbuild;
 * tools/tests/debug.sh builds them so, `make` never does): the
 * fault_hook=OLD=NEW parameter renames the hook of an enabled probe on
 * function (or tracepoint) OLD to NEW, after the probes' setup and before
 * their hooks attach.  On a kernel that has every target, a test can so
 * make any one hook's target missing (a name no kernel has) or not
 * hookable (a notrace function for the ftrace variants, one on the
 * kprobe blacklist for the kprobe variants), and see the load, or a
 * switch, fail and unwind whatever attached before it.
 */
static int clkstat_fault_rename(const char *spec)
{
	const char *eq = spec ? strchr(spec, '=') : NULL;
	struct clkstat_hook *h;
	unsigned int i, j;
	size_t len;

	if (!spec || !*spec)
		return 0;
	if (!eq || eq == spec || !eq[1]) {
		pr_err("clkstat: fault_hook=%s: not OLD=NEW\n", spec);
		return -EINVAL;
	}
	len = eq - spec;
	for (i = 0; i < clkstat_nactive; i++) {
		for (j = 0; j < clkstat_active[i]->nhooks; j++) {
			h = &clkstat_active[i]->hooks[j];
			if (clkstat_name_is(h->func, spec, len))
				h->func = eq + 1;
			else if (clkstat_name_is(h->tracepoint, spec, len))
				h->tracepoint = eq + 1;
			else
				continue;
			pr_warn("clkstat: fault_hook: probe %s: hook on %.*s renamed to %s (a test)\n",
				clkstat_active[i]->name, (int)len, spec, eq + 1);
			return 0;
		}
	}
	pr_err("clkstat: fault_hook=%s: no enabled probe hooks %.*s\n", spec,
	       (int)len, spec);
	return -EINVAL;
}
#endif

/**
 * clkstat_probes_start() - set up the chosen probes and attach them
 * @cfg: parameters, with the variant to attach with
 *
 * Metrics start stopped; the caller starts them.
 *
 * Return: 0 or the error of the probe or variant that failed (logged);
 * nothing is left set up then.
 */
int clkstat_probes_start(const struct clkstat_probe_cfg *cfg)
{
	struct clkstat_probe_cfg c = *cfg;
	unsigned int i;
	int ret;

	for (i = 0; i < clkstat_nactive; i++)
		if (clkstat_active[i] == &clkstat_probe_ttwu)
			c.with_ttwu = true;
		else if (clkstat_active[i] == &clkstat_probe_csread)
			c.with_csread = true;
	for (i = 0; i < clkstat_nactive; i++)
		if (clkstat_active[i] == &clkstat_probe_ttwu ||
		    clkstat_active[i] == &clkstat_probe_tkread ||
		    clkstat_active[i] == &clkstat_probe_csswitch)
			c.with_sampling_probe = true;
	for (i = 0; i < clkstat_nactive; i++) {
		ret = clkstat_active[i]->init(&c);
		if (ret) {
			pr_err("clkstat: probe %s: setup failed: %d\n",
			       clkstat_active[i]->name, ret);
			clkstat_exit_probes(i);
			return ret;
		}
	}
#ifdef CLKSTAT_FAULT_HOOKS
	ret = clkstat_fault_rename(c.fault_hook);
	if (!ret)
		ret = clkstat_attach(c.variant);
#else
	ret = clkstat_attach(c.variant);
#endif
	if (ret) {
		clkstat_exit_probes(clkstat_nactive);
		return ret;
	}
	clkstat_cfg = c;
	for (i = 0; i < clkstat_nload_traces; i++) {
		const char *why = NULL;

		ret = clkstat_trace_add(clkstat_load_traces[i], c.variant, &c,
					&why);
		if (ret) {
			pr_err("clkstat: probes=: trace %s refused: %s\n",
			       clkstat_load_traces[i], why ?: "error");
			clkstat_trace_del_all(c.variant);
			clkstat_detach(c.variant, clkstat_nactive);
			clkstat_exit_probes(clkstat_nactive);
			return ret;
		}
	}
	clkstat_attached = c.variant;
	return 0;
}

/**
 * clkstat_probes_stop() - detach every hook, then free every probe
 *
 * Every hook is gone before any probe frees anything, because one
 * probe's handlers may feed another's tables (ttwu feeds tkread).
 */
void clkstat_probes_stop(void)
{
	clkstat_trace_del_all(clkstat_attached);
	clkstat_detach(clkstat_attached, clkstat_nactive);
	clkstat_exit_probes(clkstat_nactive);
}

/*
 * Bind every active probe to a variant (@h: what recorded before a
 * switch); on failure, back to @undo, whose metrics never recorded.
 */
static int clkstat_bind(const char *variant, const char *undo,
			const struct clkstat_handover *h)
{
	unsigned int i;
	int ret;

	for (i = 0; i < clkstat_nactive; i++) {
		ret = clkstat_active[i]->bind(variant, h);
		if (ret) {
			while (i--)
				clkstat_active[i]->bind(undo, NULL);
			return ret;
		}
	}
	ret = clkstat_trace_bind_all(variant);
	if (ret) {
		/* undo's metrics exist: binding back cannot fail. */
		WARN_ON(clkstat_trace_bind_all(undo));
		for (i = 0; i < clkstat_nactive; i++)
			clkstat_active[i]->bind(undo, NULL);
	}
	return ret;
}

/**
 * clkstat_handover_recorded() - did a metric record before the switch?
 * @h: the switch's handover, or NULL (at load: nothing recorded)
 * @m: a metric of the old variant, or NULL
 *
 * Return: whether @m was recording when clkstat_handover_begin() stopped it.
 */
bool clkstat_handover_recorded(const struct clkstat_handover *h,
			       const struct clkstat_metric *m)
{
	unsigned int i;

	for (i = 0; h && m && i < h->n; i++)
		if (h->recorded[i] == m)
			return true;
	return false;
}

/* Remember which metrics of @variant record in @h, and stop them all. */
static void clkstat_handover_begin(const char *variant,
				   struct clkstat_handover *h)
{
	struct clkstat_metric *m;

	h->n = 0;
	clkstat_registry_lock();
	list_for_each_entry(m, clkstat_registry(), node) {
		if (strcmp(m->variant, variant))
			continue;
		/* One metric per catalog entry and variant: it fits. */
		if (clkstat_metric_recording(m) &&
		    !WARN_ON_ONCE(h->n == ARRAY_SIZE(h->recorded)))
			h->recorded[h->n++] = m;
		clkstat_metric_set_recording(m, false);
	}
	clkstat_registry_unlock();
}

/*
 * Start each metric of variant @to whose namesake in the old variant is
 * in @h.  Starting begins a new epoch.  @to being the old variant
 * restores the state of before.
 */
static void clkstat_handover_end(const struct clkstat_handover *h,
				 const char *to)
{
	struct clkstat_metric *n;
	unsigned int i;

	clkstat_registry_lock();
	for (i = 0; i < h->n; i++) {
		n = clkstat_metric_find_in(h->recorded[i]->name, to);
		if (n)
			clkstat_metric_set_recording(n, true);
	}
	clkstat_registry_unlock();
}

/**
 * clkstat_probes_switch() - feed the probes through another variant
 * @name: the variant
 * @why: set to why the switch failed
 *
 * Return: 0 (also when @name is the current variant), -EINVAL for an
 * unknown variant, one this kernel lacks or one that cannot run an
 * enabled probe (logged), or the error of a failed attach, after which
 * the old variant is attached again; *@why says which, a static string.
 */
int clkstat_probes_switch(const char *name, const char **why)
{
	const struct clkstat_variant *b = clkstat_variant_find(name), *old;
	struct clkstat_handover handover;
	const char *bad;
	int ret = 0;

	mutex_lock(&clkstat_probes_lock);
	old = clkstat_attached;
	if (!b) {
		/* Escaped: a name from netlink can hold any byte, '\n' too. */
		pr_warn_ratelimited("clkstat: control: variant %*pE: unknown variant\n",
				    (int)strlen(name), name);
		*why = "unknown variant (the variants:" CLKSTAT_VARIANT_LIST ")";
		ret = -EINVAL;
		goto out;
	}
	if (b == old)
		goto out;
	if (b->needs) {
		pr_warn_ratelimited("clkstat: control: variant %s needs %s, which this kernel lacks\n",
				    name, b->needs);
		*why = b->needs_why;
		ret = -EINVAL;
		goto out;
	}
	bad = clkstat_probes_unsupported(b);
	if (bad) {
		pr_warn_ratelimited("clkstat: control: variant %s cannot run probe %s (a function probe needs a tracepoint to run in the tracepoint variant; a trace reaches either functions or tracepoints)\n",
				    name, bad);
		*why = "the variant cannot run an enabled probe (the kernel log names it): a function probe needs a tracepoint in the tracepoint variant";
		ret = -EINVAL;
		goto out;
	}
	clkstat_handover_begin(old->name, &handover);
	clkstat_detach(old, clkstat_nactive);
	ret = clkstat_bind(b->name, old->name, &handover);
	if (ret) {
		pr_warn_ratelimited("clkstat: control: variant %s: cannot create its metrics: %d\n",
				    name, ret);
		*why = "cannot create the variant's metrics; the old variant is attached again";
	}
	if (!ret) {
		ret = clkstat_attach_all(b);
		if (!ret) {
			clkstat_handover_end(&handover, b->name);
			clkstat_attached = b;
			clkstat_switches++;
			goto out;
		}
		clkstat_bind(old->name, b->name, NULL);
		*why = "attaching the variant failed (the kernel log says why); the old variant is attached again";
	}
	if (clkstat_attach_all(old)) {
		/*
		 * Nothing is attached now: say so, in the control file too,
		 * and never detach old's hooks again (at unload or the next
		 * switch), which would hand the variant hooks it does not
		 * hold.  Old's metrics stay stopped.
		 */
		pr_err("clkstat: variant %s could not be attached again: nothing is hooked (variant off)\n",
		       old->name);
		*why = "attaching the variant failed, and the old one again too: nothing is hooked (variant off)";
		clkstat_attached = &clkstat_variant_off;
	} else {
		clkstat_handover_end(&handover, old->name);
	}
out:
	mutex_unlock(&clkstat_probes_lock);
	return ret;
}

/**
 * clkstat_probes_variant() - the variant feeding the probes now
 * @switches: set to the number of switches since load, unless NULL
 *
 * The one record of which variant is attached: the control commands
 * (control_run.c) and the exports ask here.
 *
 * Return: the variant's name ("none" before the probes start).
 */
const char *clkstat_probes_variant(unsigned long *switches)
{
	const char *name;

	mutex_lock(&clkstat_probes_lock);
	name = clkstat_attached ? clkstat_attached->name : "none";
	if (switches)
		*switches = clkstat_switches;
	mutex_unlock(&clkstat_probes_lock);
	return name;
}

/**
 * clkstat_probes_hold() - keep the probes, their variant and metrics as
 * they are, for the handler benchmark (bench_handlers.c)
 *
 * No switch, trace change or stop can run until clkstat_probes_release().
 * Sleeps.
 *
 * Return: the attached variant, NULL before the probes start.
 */
const struct clkstat_variant *clkstat_probes_hold(void)
{
	mutex_lock(&clkstat_probes_lock);
	return clkstat_attached;
}
CLKSTAT_EXPORT_FOR_TESTS(clkstat_probes_hold);

/**
 * clkstat_probes_release() - undo clkstat_probes_hold()
 */
void clkstat_probes_release(void)
{
	mutex_unlock(&clkstat_probes_lock);
}
CLKSTAT_EXPORT_FOR_TESTS(clkstat_probes_release);

/**
 * clkstat_probe_enabled() - is a probe enabled (probes=)?
 * @p: the probe
 *
 * Return: true when @p was set up at load.
 */
bool clkstat_probe_enabled(const struct clkstat_probe *p)
{
	unsigned int i;

	for (i = 0; i < clkstat_nactive; i++)
		if (clkstat_active[i] == p)
			return true;
	return false;
}
CLKSTAT_EXPORT_FOR_TESTS(clkstat_probe_enabled);

/**
 * clkstat_probes_names() - the enabled probes, comma-separated
 * @buf: where to write
 * @len: its size
 */
void clkstat_probes_names(char *buf, size_t len)
{
	clkstat_join(buf, len, clkstat_active, clkstat_nactive, ",");
}

/**
 * clkstat_probes_trace() - add or remove a user-defined probe
 * @spec: its spec (shared/clkstat_trace.h)
 * @add: add it (trace), or remove it (untrace)
 * @why: set to why not, a static string, on failure
 *
 * Under the lock a variant switch takes, so the trace is attached with
 * the variant attached now, and follows it in a switch.
 *
 * Return: 0 or clkstat_trace_add()'s or clkstat_trace_del()'s error.
 */
int clkstat_probes_trace(const char *spec, bool add, const char **why)
{
	int ret;

	mutex_lock(&clkstat_probes_lock);
	if (add)
		ret = clkstat_trace_add(spec, clkstat_attached, &clkstat_cfg,
					why);
	else
		ret = clkstat_trace_del(spec, clkstat_attached, why);
	mutex_unlock(&clkstat_probes_lock);
	return ret;
}

/**
 * clkstat_probes_traces() - the user-defined probes' specs and numbers
 * @specs: room for @max specs
 * @ids: room for @max numbers
 * @max: at most this many
 *
 * Return: how many were written.
 */
unsigned int clkstat_probes_traces(char specs[][CLKSTAT_NAME_MAX],
				   unsigned int *ids, unsigned int max)
{
	unsigned int n;

	mutex_lock(&clkstat_probes_lock);
	n = clkstat_trace_specs(specs, ids, max);
	mutex_unlock(&clkstat_probes_lock);
	return n;
}

/**
 * clkstat_probes_traces_show() - the user-defined probes, for debugfs
 * @m: the seq_file: a line "NUMBER SPEC" per probe
 */
void clkstat_probes_traces_show(struct seq_file *m)
{
	mutex_lock(&clkstat_probes_lock);
	clkstat_trace_show(m);
	mutex_unlock(&clkstat_probes_lock);
}

/**
 * clkstat_probes_missed_show() - each enabled probe's missed calls, for
 * debugfs's control file
 * @m: the seq_file: a line "probe NAME missed N" per enabled probe
 *
 * N is what the attached variant could not hand to the probe's handlers
 * since it attached them (hook.h's missed: a kprobe hit while another
 * kprobe ran, as an interrupt inside a kprobe's handler does; a return
 * hook out of slots).  Those calls are in no metric of the probe.
 */
void clkstat_probes_missed_show(struct seq_file *m)
{
	const struct clkstat_variant *b;
	unsigned long n;
	unsigned int i, j;

	mutex_lock(&clkstat_probes_lock);
	b = clkstat_attached;
	for (i = 0; i < clkstat_nactive; i++) {
		const struct clkstat_probe *p = clkstat_active[i];

		for (n = 0, j = 0; b && b->missed && j < p->nhooks; j++)
			if (p->hooks[j].priv)
				n += b->missed(&p->hooks[j]);
		seq_printf(m, "probe %s missed %lu\n", p->name, n);
	}
	mutex_unlock(&clkstat_probes_lock);
}

/**
 * clkstat_probes_refresh() - bring counters kept by the variant up to date
 *
 * For readers, before they copy the metrics (hook.h's missed).  Skipped
 * while a trace, untrace or switch runs: those remove debugfs files, and
 * a file's removal waits for an open() that would wait here.
 */
void clkstat_probes_refresh(void)
{
	if (!mutex_trylock(&clkstat_probes_lock))
		return;
	clkstat_trace_refresh(clkstat_attached);
	mutex_unlock(&clkstat_probes_lock);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * probe_trace.c - user-defined probes ("traces"): a histogram on any
 * function's duration, on a section between two functions, or between two
 * tracepoints, added and removed at run time (probes= at load, the control
 * file's trace and untrace, netlink).  The grammar and what each kind
 * measures: shared/clkstat_trace.h; how the ends are matched: below, at
 * clkstat_trace_start().
 *
 * A trace lives in one of CLKSTAT_TRACE_MAX static slots.  Each slot has
 * handlers of its own, generated below, that know their slot without a
 * lookup, so the hook API (hook.h) stays as the built-in probes use it.
 * Its metric is named after its canonical spec and the variant, like any
 * other (func:do_nanosleep.kprobe), and so goes wherever metrics go.
 *
 * Functions are reached through direct, ftrace, kprobe and kprobe-int3,
 * tracepoints only through the tracepoint variant; a trace the attached
 * variant cannot reach is refused, and so is a switch to a variant that
 * cannot reach an existing trace.  Refused targets: trace_targets.c.  A
 * handler entered from inside clkstat skips its work and counts it as
 * missed (reentry.h).  A function of another module holds that module
 * while traced.  Documentation/clkstat-traces.rst, "User-defined probes".
 */
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "clock.h"
#include "control_lang.h"
#include "direct_tramp.h"
#include "evlog.h"
#include "hist.h"
#include "pending.h"
#include "probe_trace.h"
#include "reentry.h"

struct clkstat_trace_pcpu {
	u64 ts;			/* the pending start, 0: none */
	unsigned int epoch;
};

struct clkstat_trace {
	bool used;
	unsigned int id;		/* its number in the event log */
	struct clkstat_trace_spec spec;
	struct clkstat_hook hooks[2];
	unsigned int nhooks;
	bool attached;
	bool armed;			/* holds a clkstat_reentry_arm() */
	struct module *mods[2];		/* the targets' modules, held */
	struct clkstat_metric *m;	/* the bound variant's */
	struct clkstat_pending pending;	/* task-matched starts */
	struct clkstat_trace_pcpu __percpu *pcpu;	/* :cpu starts */
	unsigned long missed_seen;	/* the variant's misses counted so far */
};

static struct clkstat_trace clkstat_traces[CLKSTAT_TRACE_MAX];
static unsigned int clkstat_trace_ids;
static const char *const clkstat_trace_counter_names[CLKSTAT_TRC_NCOUNTERS] = {
	CLKSTAT_TRACE_COUNTERS(CLKSTAT_CAT_NAME)
};
static const char *const clkstat_trace_errors[CLKSTAT_TRACE_NERRORS] =
	CLKSTAT_TRACE_ERROR_TEXTS_INIT;

static void notrace clkstat_trace_event(struct clkstat_trace *t, u64 now,
					u64 ns)
{
	struct clkstat_event_rec ev = {
		.type = CLKSTAT_EV_TRACE, .ts = now, .corr = t->id,
		.pid = task_pid_nr(current), .latency = ns,
		.flags = CLKSTAT_EVF_LATENCY,
	};

	clkstat_evlog_add(&ev, t->spec.name);
}

static void notrace clkstat_trace_sample(struct clkstat_trace *t, u64 now,
					 u64 t0)
{
	u64 ns = now > t0 ? now - t0 : 0;

	clkstat_record(t->m, ns);
	if (clkstat_evlog_on())
		clkstat_trace_event(t, now, ns);
}

/* Should a hook of @t do anything now? */
static __always_inline bool clkstat_trace_on(struct clkstat_trace *t)
{
	return clkstat_metric_recording(t->m) &&
	       clkstat_task_selected(current);
}

/* Entered from inside clkstat (reentry.h): the call is missed. */
static __always_inline bool clkstat_trace_reentered(struct clkstat_trace *t)
{
	if (likely(!clkstat_reentered()))
		return false;
	clkstat_count(t->m, CLKSTAT_TRC_MISSED);
	return true;
}

/*
 * How the ends are matched:
 *   func      the variant's exit hook carries the entry time to the
 *             return of the same call (fprobe's entry data or a
 *             kretprobe instance: hook_return.c), so recursion and
 *             sleeping inside are handled call by call.  A call that
 *             began before the window's start (or a reset) is dropped at
 *             its return.
 *   sec, tp   a start is remembered per task in a pending table like
 *             ttwu's (pending.c), or per CPU with :cpu; the next end on
 *             that task (CPU) takes it.
 */
static void notrace clkstat_trace_start(struct clkstat_trace *t)
{
	struct clkstat_pending_val v = { .epoch = clkstat_current_epoch() };
	struct clkstat_trace_pcpu *c;

	if (clkstat_trace_reentered(t) || !clkstat_trace_on(t))
		return;
	v.ts = clkstat_now();
	if (t->spec.percpu) {
		preempt_disable_notrace();
		c = this_cpu_ptr(t->pcpu);
		if (c->ts && c->epoch == v.epoch)
			clkstat_count(t->m, CLKSTAT_TRC_REPLACED);
		c->ts = v.ts;
		c->epoch = v.epoch;
		preempt_enable_notrace();
		return;
	}
	v.cpu = raw_smp_processor_id();
	switch (clkstat_pending_put(&t->pending, current, &v)) {
	case CLKSTAT_PENDING_REPLACED:
		clkstat_count(t->m, CLKSTAT_TRC_REPLACED);
		break;
	case CLKSTAT_PENDING_EVICTED:
		clkstat_count(t->m, CLKSTAT_TRC_EVICTED);
		break;
	case CLKSTAT_PENDING_BUSY:
		clkstat_count(t->m, CLKSTAT_TRC_BUSY);
		break;
	default:
		break;
	}
}

static void notrace clkstat_trace_end(struct clkstat_trace *t)
{
	unsigned int epoch = clkstat_current_epoch();
	struct clkstat_pending_val v;
	struct clkstat_trace_pcpu *c;
	u64 now, t0 = 0;

	if (clkstat_trace_reentered(t) || !clkstat_trace_on(t))
		return;
	now = clkstat_now();
	if (t->spec.percpu) {
		preempt_disable_notrace();
		c = this_cpu_ptr(t->pcpu);
		if (c->ts && c->epoch == epoch)
			t0 = c->ts;
		c->ts = 0;
		preempt_enable_notrace();
		if (!t0) {
			clkstat_count(t->m, CLKSTAT_TRC_UNMATCHED);
			return;
		}
		clkstat_trace_sample(t, now, t0);
		return;
	}
	switch (clkstat_pending_take(&t->pending, current, &v)) {
	case CLKSTAT_PENDING_FOUND:
		if (v.epoch != epoch) {
			/* Started before the window: neither end counts. */
			clkstat_count(t->m, CLKSTAT_TRC_UNMATCHED);
			return;
		}
		if (v.cpu != raw_smp_processor_id())
			clkstat_count(t->m, CLKSTAT_TRC_MIGRATED);
		clkstat_trace_sample(t, now, v.ts);
		break;
	case CLKSTAT_PENDING_ABSENT:
		clkstat_count(t->m, CLKSTAT_TRC_UNMATCHED);
		break;
	case CLKSTAT_PENDING_CONTENDED:
		clkstat_count(t->m, CLKSTAT_TRC_BUSY);
		break;
	}
}

/*
 * func: the cookie is the entry time, 0 for a call not to measure.  The
 * return hook (hook_return.c, hook_kprobe.c) checks clkstat_reentered()
 * before either end and counts the miss there (reentered; the kernel's
 * nmissed reaches the trace's missed through the variant's missed()).
 */
static u64 notrace clkstat_trace_enter(struct clkstat_trace *t)
{
	return clkstat_trace_on(t) ? clkstat_now() : 0;
}

static void notrace clkstat_trace_exit(struct clkstat_trace *t, u64 t0)
{
	/* A call that began before the window (or a reset) is not in it. */
	if (!t0 || t0 < clkstat_epoch_start_ns())
		return;
	clkstat_trace_sample(t, clkstat_now(), t0);
}

/* An exit hook whose entry does nothing (sec:A-B:exit's B). */
static u64 notrace clkstat_trace_enter_none(unsigned long a0,
					    unsigned long a1,
					    unsigned long a2)
{
	return 1;
}

/* Each slot's handlers: the hook API passes no context. */
#define CLKSTAT_TRACE_SLOT(n)						\
static void notrace clkstat_trace_start_##n(unsigned long a0,		\
					    unsigned long a1,		\
					    unsigned long a2)		\
{									\
	clkstat_trace_start(&clkstat_traces[n]);			\
}									\
static void notrace clkstat_trace_end_##n(unsigned long a0,		\
					  unsigned long a1,		\
					  unsigned long a2)		\
{									\
	clkstat_trace_end(&clkstat_traces[n]);				\
}									\
static void notrace clkstat_trace_both_##n(unsigned long a0,		\
					   unsigned long a1,		\
					   unsigned long a2)		\
{									\
	clkstat_trace_end(&clkstat_traces[n]);				\
	clkstat_trace_start(&clkstat_traces[n]);			\
}									\
static u64 notrace clkstat_trace_enter_##n(unsigned long a0,		\
					   unsigned long a1,		\
					   unsigned long a2)		\
{									\
	return clkstat_trace_enter(&clkstat_traces[n]);			\
}									\
static void notrace clkstat_trace_exit_##n(u64 cookie, unsigned long ret) \
{									\
	clkstat_trace_exit(&clkstat_traces[n], cookie);			\
}									\
static void notrace clkstat_trace_end_exit_##n(u64 cookie,		\
					       unsigned long ret)	\
{									\
	clkstat_trace_end(&clkstat_traces[n]);				\
}									\
/* The direct variant's: the target's prototype is unknown, save all. */ \
CLKSTAT_DIRECT_TRAMP(clkstat_direct_tramp_trace_start_##n,		\
		     clkstat_trace_start_##n, CLKSTAT_DIRECT_NARGS_ALL);	\
CLKSTAT_DIRECT_TRAMP(clkstat_direct_tramp_trace_end_##n,		\
		     clkstat_trace_end_##n, CLKSTAT_DIRECT_NARGS_ALL);	\
CLKSTAT_DIRECT_TRAMP(clkstat_direct_tramp_trace_both_##n,		\
		     clkstat_trace_both_##n, CLKSTAT_DIRECT_NARGS_ALL)

CLKSTAT_TRACE_SLOT(0);
CLKSTAT_TRACE_SLOT(1);
CLKSTAT_TRACE_SLOT(2);
CLKSTAT_TRACE_SLOT(3);
CLKSTAT_TRACE_SLOT(4);
CLKSTAT_TRACE_SLOT(5);
CLKSTAT_TRACE_SLOT(6);
CLKSTAT_TRACE_SLOT(7);
CLKSTAT_TRACE_SLOT(8);
CLKSTAT_TRACE_SLOT(9);
CLKSTAT_TRACE_SLOT(10);
CLKSTAT_TRACE_SLOT(11);
CLKSTAT_TRACE_SLOT(12);
CLKSTAT_TRACE_SLOT(13);
CLKSTAT_TRACE_SLOT(14);
CLKSTAT_TRACE_SLOT(15);

struct clkstat_trace_fns {
	clkstat_entry_fn start, end, both;
	clkstat_tramp_fn *start_tramp, *end_tramp, *both_tramp;
	clkstat_enter_fn enter;
	clkstat_exit_fn exit, end_exit;
};

#define CLKSTAT_TRACE_FNS(n) {						\
	.start = clkstat_trace_start_##n, .end = clkstat_trace_end_##n,	\
	.both = clkstat_trace_both_##n, .enter = clkstat_trace_enter_##n, \
	.exit = clkstat_trace_exit_##n,					\
	.end_exit = clkstat_trace_end_exit_##n,				\
	.start_tramp =							\
	CLKSTAT_DIRECT_TRAMP_ADDR(clkstat_direct_tramp_trace_start_##n),	\
	.end_tramp =							\
	CLKSTAT_DIRECT_TRAMP_ADDR(clkstat_direct_tramp_trace_end_##n),	\
	.both_tramp =							\
	CLKSTAT_DIRECT_TRAMP_ADDR(clkstat_direct_tramp_trace_both_##n) }

static const struct clkstat_trace_fns clkstat_trace_fns[CLKSTAT_TRACE_MAX] = {
	CLKSTAT_TRACE_FNS(0), CLKSTAT_TRACE_FNS(1), CLKSTAT_TRACE_FNS(2),
	CLKSTAT_TRACE_FNS(3), CLKSTAT_TRACE_FNS(4), CLKSTAT_TRACE_FNS(5),
	CLKSTAT_TRACE_FNS(6), CLKSTAT_TRACE_FNS(7), CLKSTAT_TRACE_FNS(8),
	CLKSTAT_TRACE_FNS(9), CLKSTAT_TRACE_FNS(10), CLKSTAT_TRACE_FNS(11),
	CLKSTAT_TRACE_FNS(12), CLKSTAT_TRACE_FNS(13), CLKSTAT_TRACE_FNS(14),
	CLKSTAT_TRACE_FNS(15),
};

/* Which of a spec's functions is checked: its reason says so. */
enum clkstat_trace_role {
	CLKSTAT_ROLE_FUNC,	/* func:F */
	CLKSTAT_ROLE_START,	/* sec:A-B's A */
	CLKSTAT_ROLE_END,	/* sec:A-B's B */
};

/*
 * The names GCC gives the copies of a function it specializes (dropped or
 * constant arguments, a split-off part), tried in this order when the name
 * itself is not a symbol: finish_task_switch is finish_task_switch.isra.0
 * in Debian's 6.12.  The hook then sits on the clone, which every caller
 * of the function calls.
 */
static const char *const clkstat_clone_suffixes[] = {
	".isra.0", ".isra.1", ".constprop.0", ".constprop.1", ".constprop.2",
	".part.0", ".part.1",
};

/*
 * @sym is no symbol: if exactly one clone of it is, make @sym that clone
 * (it has CLKSTAT_NAME_MAX bytes) and return 0; else -ENOENT, or
 * -ENOTUNIQ when several are (which one each caller calls is the
 * compiler's to know).
 */
static int clkstat_trace_clone(char *sym, unsigned long *addr)
{
	char name[CLKSTAT_NAME_MAX], found[CLKSTAT_NAME_MAX];
	unsigned long a;
	unsigned int i, n = 0;

	for (i = 0; i < ARRAY_SIZE(clkstat_clone_suffixes); i++) {
		if (snprintf(name, sizeof(name), "%s%s", sym,
			     clkstat_clone_suffixes[i]) >= sizeof(name))
			continue;
		if (clkstat_sym_addr(name, &a))
			continue;
		if (!n++) {
			strscpy(found, name, sizeof(found));
			*addr = a;
		}
	}
	if (n != 1)
		return n ? -ENOTUNIQ : -ENOENT;
	strscpy(sym, found, CLKSTAT_NAME_MAX);
	return 0;
}

/*
 * Refuse @sym as a function target (@ret_hooked: its return is hooked
 * too), or hold its module in @mod; 0 or a negative errno (logged).
 * @role says which of the spec's functions it is, for the reason.  A
 * name that is no symbol but has one compiler clone is made that clone.
 */
static int clkstat_trace_check_func(const char *spec, char *sym,
				    bool ret_hooked, enum clkstat_trace_role role,
				    struct module **mod, const char **why)
{
	static const char *const missing[] = {
		[CLKSTAT_ROLE_FUNC] = "no such function (or inlined everywhere)",
		[CLKSTAT_ROLE_START] = "no such function at the start of the section (or inlined everywhere)",
		[CLKSTAT_ROLE_END] = "no such function at the end of the section (or inlined everywhere)",
	};
	static const char *const clones[] = {
		[CLKSTAT_ROLE_FUNC] = "no such function, and several compiler clones of it (name one: F.isra.0, F.constprop.0, ...)",
		[CLKSTAT_ROLE_START] = "no such function at the start of the section, and several compiler clones of it",
		[CLKSTAT_ROLE_END] = "no such function at the end of the section, and several compiler clones of it",
	};
	char asked[CLKSTAT_NAME_MAX];
	unsigned long addr;
	int ret;

	*why = clkstat_trace_denied(sym, ret_hooked);
	if (*why) {
		pr_warn_ratelimited("clkstat: trace %s: %s: %s\n", spec, sym,
				    *why);
		return -EINVAL;
	}
	ret = clkstat_sym_addr(sym, &addr);
	if (ret == -ENOENT) {
		strscpy(asked, sym, sizeof(asked));
		ret = clkstat_trace_clone(sym, &addr);
		if (!ret) {
			pr_info("clkstat: trace %s: %s is %s, a compiler clone of it\n",
				spec, asked, sym);
			*why = clkstat_trace_denied(sym, ret_hooked);
			if (*why) {
				pr_warn_ratelimited("clkstat: trace %s: %s: %s\n",
						    spec, sym, *why);
				return -EINVAL;
			}
		}
	}
	if (ret == -ENOENT || ret == -ENOTUNIQ) {
		*why = ret == -ENOENT ? missing[role] : clones[role];
		pr_warn_ratelimited("clkstat: trace %s: %s: %s\n", spec, sym,
				    *why);
		return -ENOENT;
	}
	if (ret) {
		*why = "the kernel refuses to probe it (kprobe blacklist)";
		pr_warn_ratelimited("clkstat: trace %s: %s: the kernel refuses to probe it (kprobe blacklist: NOKPROBE_SYMBOL, noinstr or entry code): %d\n",
				    spec, sym, ret);
		return -EINVAL;
	}
	if (within_module(addr, THIS_MODULE)) {
		*why = "clkstat's own code";
		pr_warn_ratelimited("clkstat: trace %s: %s: clkstat's own code\n",
				    spec, sym);
		return -EINVAL;
	}
	ret = clkstat_func_module_get(addr, mod);
	if (ret) {
		*why = "its module is being loaded or unloaded";
		pr_warn_ratelimited("clkstat: trace %s: %s: its module is being loaded or unloaded\n",
				    spec, sym);
		return ret;
	}
	return 0;
}

/* The hooks of @t (slot @n) as its spec asks. */
static void clkstat_trace_hooks(struct clkstat_trace *t, unsigned int n)
{
	const struct clkstat_trace_fns *f = &clkstat_trace_fns[n];
	const struct clkstat_trace_spec *s = &t->spec;
	struct clkstat_hook *h = t->hooks;

	memset(t->hooks, 0, sizeof(t->hooks));
	switch (s->kind) {
	case CLKSTAT_TRACE_FUNC:
		h[0] = (struct clkstat_hook){ .func = s->a, .enter = f->enter,
					      .exit = f->exit };
		t->nhooks = 1;
		break;
	case CLKSTAT_TRACE_SEC:
		if (!strcmp(s->a, s->b)) {
			/* One hook: two direct calls cannot share a site. */
			h[0] = (struct clkstat_hook){
				.func = s->a, .handler = f->both,
				.direct_tramp = f->both_tramp };
			t->nhooks = 1;
			break;
		}
		h[0] = (struct clkstat_hook){ .func = s->a, .handler = f->start,
					      .direct_tramp = f->start_tramp };
		if (s->b_exit)
			h[1] = (struct clkstat_hook){
				.func = s->b, .enter = clkstat_trace_enter_none,
				.exit = f->end_exit };
		else
			h[1] = (struct clkstat_hook){
				.func = s->b, .handler = f->end,
				.direct_tramp = f->end_tramp };
		t->nhooks = 2;
		break;
	case CLKSTAT_TRACE_TP:
		h[0] = (struct clkstat_hook){
			.tracepoint = s->a,
			.tp_handler = strcmp(s->a, s->b) ? f->start : f->both };
		h[1] = (struct clkstat_hook){ .tracepoint = s->b,
					      .tp_handler = f->end };
		t->nhooks = strcmp(s->a, s->b) ? 2 : 1;
		break;
	}
}

/* Can variant @b reach every end of @t? */
static bool clkstat_trace_reachable(const struct clkstat_trace *t,
				    const struct clkstat_variant *b)
{
	if (b == &clkstat_variant_off)
		return true;
	return (t->spec.kind == CLKSTAT_TRACE_TP) ==
	       (b == &clkstat_variant_tracepoint);
}

static struct clkstat_trace *clkstat_trace_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < CLKSTAT_TRACE_MAX; i++)
		if (clkstat_traces[i].used &&
		    !strcmp(clkstat_traces[i].spec.name, name))
			return &clkstat_traces[i];
	return NULL;
}

/* Free what a trace holds; its hooks are detached. */
static void clkstat_trace_free(struct clkstat_trace *t)
{
	unsigned int i;

	if (t->armed)
		clkstat_reentry_disarm();
	t->armed = false;
	for (i = 0; i < ARRAY_SIZE(t->mods); i++) {
		module_put(t->mods[i]);
		t->mods[i] = NULL;
	}
	clkstat_metric_destroy_name(t->spec.name);
	clkstat_pending_free(&t->pending);
	free_percpu(t->pcpu);
	t->pcpu = NULL;
	t->m = NULL;
	t->used = false;
}

/* Bind @t to @variant's metric, created stopped if need be. */
static int clkstat_trace_bind(struct clkstat_trace *t, const char *variant)
{
	struct clkstat_metric *m;

	m = clkstat_metric_get(t->spec.name, variant,
			       clkstat_trace_counter_names,
			       CLKSTAT_TRC_NCOUNTERS);
	if (IS_ERR(m))
		return PTR_ERR(m);
	WRITE_ONCE(t->m, m);
	return 0;
}

/* Parse @spec, logging why not; 0 or -EINVAL. */
static int clkstat_trace_parse_log(const char *spec,
				   struct clkstat_trace_spec *s,
				   const char **why)
{
	int err = clkstat_trace_parse(spec, s);

	if (err) {
		*why = clkstat_trace_errors[err];
		/* Escaped: a spec from netlink can hold any byte. */
		pr_warn_ratelimited("clkstat: trace %*pE: %s\n",
				    (int)strnlen(spec, CLKSTAT_NAME_MAX * 2),
				    spec, clkstat_trace_errors[err]);
		return -EINVAL;
	}
	return 0;
}

/**
 * clkstat_trace_add() - add a user-defined probe and attach it
 * @spec: its spec (shared/clkstat_trace.h)
 * @b: the variant attached now, which attaches the trace too
 * @cfg: the pending table's size
 * @why: set to why it is refused, a static string (netlink's extack)
 *
 * The new metric records at once (stop, start and reset act on it as on
 * any metric).  Called under probes.c's lock.
 *
 * Return: 0, -EINVAL (a malformed spec, a target refused, one @b cannot
 * reach), -EEXIST (a trace with that spec exists), -ENOSPC (all
 * CLKSTAT_TRACE_MAX in use), -ENOENT (no such function or tracepoint), or
 * the variant's error; each logged in one line naming the spec.  Nothing
 * stays attached or allocated on failure.
 */
int clkstat_trace_add(const char *spec, const struct clkstat_variant *b,
		      const struct clkstat_probe_cfg *cfg, const char **why)
{
	struct clkstat_trace_spec s;
	struct clkstat_trace *t = NULL;
	unsigned int i;
	int ret;

	ret = clkstat_trace_parse_log(spec, &s, why);
	if (ret)
		return ret;
	if (clkstat_trace_find(s.name)) {
		*why = "already traced";
		pr_warn_ratelimited("clkstat: trace %s: already traced\n",
				    s.name);
		return -EEXIST;
	}
	for (i = 0; i < CLKSTAT_TRACE_MAX; i++) {
		if (!clkstat_traces[i].used) {
			t = &clkstat_traces[i];
			break;
		}
	}
	if (!t) {
		*why = "all 16 traces in use (untrace one first)";
		pr_warn_ratelimited("clkstat: trace %s: all %d traces in use (untrace one first)\n",
				    s.name, CLKSTAT_TRACE_MAX);
		return -ENOSPC;
	}
	memset(t, 0, sizeof(*t));
	t->spec = s;
	if (!clkstat_trace_reachable(t, b)) {
		*why = s.kind == CLKSTAT_TRACE_TP ?
		       "only the tracepoint variant reaches tracepoints" :
		       "the tracepoint variant reaches no function";
		pr_warn_ratelimited("clkstat: trace %s: variant %s cannot reach %s (functions: direct, ftrace, kprobe, kprobe-int3; tracepoints: tracepoint)\n",
				    s.name, b->name,
				    s.kind == CLKSTAT_TRACE_TP ? "tracepoints" :
				    "functions");
		return -EINVAL;
	}
	if (s.kind != CLKSTAT_TRACE_TP) {
		/* t->spec's functions: a clone found stands for its name. */
		struct clkstat_trace_spec *ts = &t->spec;
		bool one = !ts->b[0] || !strcmp(ts->a, ts->b);

		ret = clkstat_trace_check_func(s.name, ts->a,
					       s.kind == CLKSTAT_TRACE_FUNC,
					       s.kind == CLKSTAT_TRACE_FUNC ?
					       CLKSTAT_ROLE_FUNC : CLKSTAT_ROLE_START,
					       &t->mods[0], why);
		/* sec:F-F: one function, made its clone once for both. */
		if (!ret && ts->b[0] && one)
			strscpy(ts->b, ts->a, sizeof(ts->b));
		else if (!ret && ts->b[0])
			ret = clkstat_trace_check_func(s.name, ts->b, s.b_exit,
						       CLKSTAT_ROLE_END,
						       &t->mods[1], why);
		if (ret)
			goto err_free;
	}
	*why = "out of memory";
	if (s.percpu) {
		t->pcpu = alloc_percpu(struct clkstat_trace_pcpu);
		if (!t->pcpu) {
			/* The target modules held above go back too. */
			ret = -ENOMEM;
			goto err_free;
		}
	} else if (s.kind != CLKSTAT_TRACE_FUNC) {
		ret = clkstat_pending_init(&t->pending, cfg->pending_entries);
		if (ret)
			goto err_free;
	}
	ret = clkstat_trace_bind(t, b->name);
	if (ret)
		goto err_free;
	clkstat_trace_hooks(t, t - clkstat_traces);
	/* Before the first hook can be entered from a call out. */
	clkstat_reentry_arm();
	t->armed = true;
	t->used = true;
	/* Numbered before a handler can log an event with it. */
	t->id = clkstat_trace_ids + 1;
	ret = clkstat_hooks_attach(b, t->hooks, t->nhooks);
	if (ret) {
		if (ret == -EBUSY)
			*why = "a function of it is hooked already, and the variant allows one hook per function";
		else if (ret == -EOPNOTSUPP && s.kind == CLKSTAT_TRACE_TP)
			/* Its tracepoints exist: only the probe's type is missing. */
			*why = "this kernel type-checks indirect calls (kCFI) and clkstat has no probe of the tracepoint's type";
		else
			*why = "the variant cannot hook it (the kernel log says why)";
		pr_warn_ratelimited("clkstat: trace %s: cannot attach with variant %s: %d\n",
				    s.name, b->name, ret);
		goto err_free;
	}
	t->attached = true;
	t->missed_seen = 0;
	clkstat_trace_ids = t->id;
	clkstat_metric_set_recording(t->m, true);
	pr_info("clkstat: trace %s added (number %u, variant %s)\n", s.name,
		t->id, b->name);
	return 0;

err_free:
	clkstat_trace_free(t);
	return ret;
}

/* Detach @t's hooks if attached, and free it. */
static void clkstat_trace_remove(struct clkstat_trace *t,
				 const struct clkstat_variant *b)
{
	if (t->attached)
		clkstat_hooks_detach(b, t->hooks, t->nhooks);
	t->attached = false;
	clkstat_trace_free(t);
}

/**
 * clkstat_trace_del() - remove a user-defined probe
 * @spec: its spec, in any form that parses to the same canonical spec
 * @b: the variant its hooks are attached with
 * @why: set to why it is refused, a static string
 *
 * Its metrics (every variant's) go with it.  Called under probes.c's
 * lock.
 *
 * Return: 0, or -EINVAL for a malformed spec or one not traced (logged).
 */
int clkstat_trace_del(const char *spec, const struct clkstat_variant *b,
		      const char **why)
{
	struct clkstat_trace_spec s;
	struct clkstat_trace *t;
	int ret;

	ret = clkstat_trace_parse_log(spec, &s, why);
	if (ret)
		return ret;
	t = clkstat_trace_find(s.name);
	if (!t) {
		*why = "not traced";
		pr_warn_ratelimited("clkstat: untrace %s: not traced\n", s.name);
		return -EINVAL;
	}
	clkstat_trace_remove(t, b);
	pr_info("clkstat: trace %s removed\n", s.name);
	return 0;
}

/**
 * clkstat_trace_del_all() - remove every user-defined probe (unload)
 * @b: the variant their hooks are attached with
 */
void clkstat_trace_del_all(const struct clkstat_variant *b)
{
	unsigned int i;

	for (i = 0; i < CLKSTAT_TRACE_MAX; i++)
		if (clkstat_traces[i].used)
			clkstat_trace_remove(&clkstat_traces[i], b);
}

/**
 * clkstat_trace_unsupported() - the first trace a variant cannot reach
 * @b: the variant
 *
 * Return: its spec, or NULL when @b reaches every trace.
 */
const char *clkstat_trace_unsupported(const struct clkstat_variant *b)
{
	unsigned int i;

	for (i = 0; i < CLKSTAT_TRACE_MAX; i++)
		if (clkstat_traces[i].used &&
		    !clkstat_trace_reachable(&clkstat_traces[i], b))
			return clkstat_traces[i].spec.name;
	return NULL;
}

/**
 * clkstat_trace_refresh() - count the variant's misses into the metrics
 * @b: the variant the traces are attached with
 *
 * The variant counts the calls it could not hand on (hook.h's missed);
 * readers call this before a snapshot, so that the missed counter says
 * what the variant knew then.  Called under probes.c's lock.
 */
void clkstat_trace_refresh(const struct clkstat_variant *b)
{
	unsigned long n;
	unsigned int i, j;

	if (!b || !b->missed)
		return;
	for (i = 0; i < CLKSTAT_TRACE_MAX; i++) {
		struct clkstat_trace *t = &clkstat_traces[i];

		if (!t->used || !t->attached)
			continue;
		for (n = 0, j = 0; j < t->nhooks; j++)
			n += b->missed(&t->hooks[j]);
		if (n > t->missed_seen)
			clkstat_metric_add_counter(t->m, CLKSTAT_TRC_MISSED,
						   n - t->missed_seen);
		t->missed_seen = n;
	}
}

/**
 * clkstat_trace_detach_all() - detach every trace (a variant switch)
 * @b: the variant they are attached with
 */
void clkstat_trace_detach_all(const struct clkstat_variant *b)
{
	unsigned int i = CLKSTAT_TRACE_MAX;

	clkstat_trace_refresh(b);
	while (i--) {
		struct clkstat_trace *t = &clkstat_traces[i];

		if (t->used && t->attached) {
			clkstat_hooks_detach(b, t->hooks, t->nhooks);
			t->attached = false;
		}
	}
}

/**
 * clkstat_trace_attach_all() - attach every trace with a variant, or none
 * @b: the variant
 *
 * Return: 0 or the error of the first that failed (logged); those
 * attached before it are detached again.
 */
int clkstat_trace_attach_all(const struct clkstat_variant *b)
{
	unsigned int i;
	int ret;

	for (i = 0; i < CLKSTAT_TRACE_MAX; i++) {
		struct clkstat_trace *t = &clkstat_traces[i];

		if (!t->used)
			continue;
		ret = clkstat_hooks_attach(b, t->hooks, t->nhooks);
		if (ret) {
			pr_err("clkstat: trace %s: cannot attach with variant %s: %d\n",
			       t->spec.name, b->name, ret);
			clkstat_trace_detach_all(b);
			return ret;
		}
		t->attached = true;
		t->missed_seen = 0;
	}
	return 0;
}

/**
 * clkstat_trace_bind_all() - make @variant's metrics the traces' own
 * @variant: the variant's name
 *
 * Called with every hook detached.  What a trace had pending belongs to
 * the old variant's window: the start of the new one begins a new epoch,
 * which drops it.
 *
 * Return: 0, or -ENOMEM (the traces bound so far stay bound: the caller
 * binds everything back).
 */
int clkstat_trace_bind_all(const char *variant)
{
	unsigned int i;
	int ret;

	for (i = 0; i < CLKSTAT_TRACE_MAX; i++) {
		if (!clkstat_traces[i].used)
			continue;
		ret = clkstat_trace_bind(&clkstat_traces[i], variant);
		if (ret)
			return ret;
	}
	return 0;
}

/**
 * clkstat_trace_specs() - the traces' specs and numbers, for netlink
 * @specs: room for @max specs
 * @ids: room for @max numbers
 * @max: at most this many
 *
 * Called under probes.c's lock.
 *
 * Return: how many were written.
 */
unsigned int clkstat_trace_specs(char specs[][CLKSTAT_NAME_MAX],
				 unsigned int *ids, unsigned int max)
{
	unsigned int i, n = 0;

	for (i = 0; i < CLKSTAT_TRACE_MAX && n < max; i++) {
		if (!clkstat_traces[i].used)
			continue;
		strscpy(specs[n], clkstat_traces[i].spec.name, CLKSTAT_NAME_MAX);
		ids[n++] = clkstat_traces[i].id;
	}
	return n;
}

/**
 * clkstat_trace_show() - the traces, one per line: number and spec
 * @m: the seq_file (debugfs "traces")
 *
 * Called under probes.c's lock.
 */
void clkstat_trace_show(struct seq_file *m)
{
	unsigned int i;

	for (i = 0; i < CLKSTAT_TRACE_MAX; i++)
		if (clkstat_traces[i].used)
			seq_printf(m, "%u %s\n", clkstat_traces[i].id,
				   clkstat_traces[i].spec.name);
}

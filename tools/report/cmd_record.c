// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_record.c - clkstat-report record.
 *
 * Each run: switch to the run's variant (variants alternate A B A B ...,
 * so that a drift of the machine over time hits both alike), stop, reset,
 * start, run the workload (or sleep --duration), stop, and read every
 * metric of that variant over netlink.  The runs and the machine's
 * metadata go to one snapshot file, written atomically at the end.  The
 * variant and recording state found at the start are restored.
 *
 * A bpf-* variant is a run of the BPF twin instead (cr_record_bpf_run()).
 * With --events N each run also keeps its event log, between record's
 * own "run_start" and "run_end" markers; --probes may name user-defined
 * probes, traced before the first module run and untraced after the last
 * however the recording ends; --cstates and --load hold each run in its
 * condition (record_cond.c) and tag it.
 *
 * What each option does: Documentation/clkstat.rst, "Recording runs",
 * "Conditions: C-states and load" and "With clkstat-report" (the
 * user-defined probes); the twin's runs: Documentation/clkstat-bpf.rst,
 * "Running it".  At the end, record's options (cli.h) and their checks.
 */
#define _GNU_SOURCE		/* pipe2(), sched_getcpu() */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include "../../kmod/uapi/clkstat_buckets.h"
#include "../../kmod/shared/clkstat_trace.h"
#include "../bpf/twin.h"
#include "../bpf/twin_model.h"
#include "../lib/meta.h"
#include "../lib/nl.h"
#include "../lib/snapshot.h"
#include "args.h"
#include "cli.h"
#include "record_cond.h"

struct cr_record_opts {
	const char *output;	/* snapshot file to write */
	unsigned int runs;
	double duration;	/* seconds per run without a command */
	const char *variants;	/* comma list alternated, NULL: as attached */
	char **command;		/* NULL-terminated argv, NULL: none */
	int quiet;		/* no progress line */
	/* The BPF twin's runs (bpf-* variants), see twin.h: */
	const char *probes;	/* NULL: the module's (those the twin has),
				 * or ttwu,tkread without the module */
	int frac_bits;		/* -1: the module's, or the default */
	int keep_module;	/* leave the module attached and recording */
	int workload_only;	/* only the workload's own tasks */
	struct cr_meta tags;	/* --tag KEY=VALUE, only its tags */
	unsigned int events;	/* --events N: at most N per run; 0: none */
	unsigned int ev_entries;	/* the module's events= (warnings) */
};

/* The longest --probes list (built-in probes and specs). */
#define CR_PROBES_MAX	(CLKSTAT_TRACE_MAX * CLKSTAT_NAME_MAX + 64)

/* Where the workload writes its markers ($CLKSTAT_MARKER). */
#define CR_MARKER_MODULE	"/sys/kernel/debug/clkstat/marker"
#define CR_MARKER_TRACING	"/sys/kernel/tracing/trace_marker"
#define CR_TRACING_ON		"/sys/kernel/tracing/tracing_on"

/*
 * Can the workload of a bpf-* run write its markers to trace_marker (the
 * twin catches those writes)?  Not while tracing is off: the kernel then
 * refuses them with EBADF, and a workload that checks its writes (the
 * pingpong does) fails.  Say so once, and give the workload no marker
 * file rather than one that fails: its markers are missing, the run is not.
 */
static int cr_marker_tracing_ok(void)
{
	static int warned;
	char c = '1';
	FILE *f;

	if (access(CR_MARKER_TRACING, W_OK))
		return 0;
	f = fopen(CR_TRACING_ON, "r");
	if (f) {
		if (fread(&c, 1, 1, f) != 1)
			c = '1';
		fclose(f);
	}
	if (c != '0')
		return 1;
	if (!warned++)
		fprintf(stderr, "clkstat-report: record: warning: tracing is off (%s is 0): trace_marker refuses writes, so the bpf-* runs' workload gets no CLKSTAT_MARKER (echo 1 > %s to have its markers)\n",
			CR_TRACING_ON, CR_TRACING_ON);
	return 0;
}

extern char **environ;

static volatile sig_atomic_t cr_interrupted;

static void cr_on_signal(int sig)
{
	(void)sig;
	cr_interrupted = 1;
}

static int64_t cr_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int64_t cr_clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/*
 * A CLOCK_MONOTONIC/CLOCK_REALTIME pair: of 5 tries (mono, real, mono),
 * the one whose two monotonic reads are closest, with their midpoint.
 */
static void cr_clock_pair(struct cr_clock_pair *p)
{
	int64_t m0, rt, m1, best = INT64_MAX;
	int i;

	for (i = 0; i < 5; i++) {
		m0 = cr_clock_ns(CLOCK_MONOTONIC);
		rt = cr_clock_ns(CLOCK_REALTIME);
		m1 = cr_clock_ns(CLOCK_MONOTONIC);
		if (m1 - m0 < best) {
			best = m1 - m0;
			p->mono_ns = m0 + (m1 - m0) / 2;
			p->realtime_ns = rt;
		}
	}
}

/* record's own marker, now, from this process. */
static void cr_marker_now(struct clkstat_event_rec *e, const char *text)
{
	int cpu = sched_getcpu();

	memset(e, 0, sizeof(*e));
	e->ts = (uint64_t)cr_clock_ns(CLOCK_MONOTONIC);
	e->type = CLKSTAT_EV_MARKER;
	e->pid = (uint32_t)getpid();
	e->cpu = cpu > 0 ? (uint16_t)cpu : 0;
	snprintf(e->text, sizeof(e->text), "%s", text);
}

/* Insert e into x in time order (after the events of the same ts). */
static int cr_events_insert(struct cr_events *x,
			    const struct clkstat_event_rec *e)
{
	size_t lo = 0, hi, mid;

	if (cr_events_add(x, e))
		return -ENOMEM;
	hi = x->n - 1;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (x->ev[mid].ts <= e->ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	memmove(&x->ev[lo + 1], &x->ev[lo],
		(x->n - 1 - lo) * sizeof(x->ev[0]));
	x->ev[lo] = *e;
	return 0;
}

/* What record takes around a run's workload with --events. */
struct cr_run_marks {
	struct cr_clock_pair clock[2];
	struct clkstat_event_rec start, end;
};

static void cr_marks_begin(const struct cr_record_opts *o,
			   struct cr_run_marks *m, const char *marker)
{
	if (!o->events)
		return;
	/* For the workload; a stale value from our own caller is replaced. */
	if (marker && !access(marker, W_OK))
		setenv("CLKSTAT_MARKER", marker, 1);
	else
		unsetenv("CLKSTAT_MARKER");
	cr_clock_pair(&m->clock[0]);
	cr_marker_now(&m->start, "run_start");
}

static void cr_marks_end(const struct cr_record_opts *o,
			 struct cr_run_marks *m)
{
	if (!o->events)
		return;
	cr_marker_now(&m->end, "run_end");
	cr_clock_pair(&m->clock[1]);
}

/*
 * The run's events as --events keeps them: the first N of the log (the
 * rest added to lost), record's two markers in time order, the clock
 * pairs; a warning when events were lost.  Return CR_OK or CR_ERR.
 */
static int cr_events_finish(const struct cr_record_opts *o,
			    const struct cr_run_marks *m, struct cr_run *r,
			    unsigned int nth, int bpf)
{
	struct cr_events *x = &r->events;
	uint64_t ring_lost = x->lost, cut = 0;

	if (!o->events) {
		cr_events_free(x);
		return CR_OK;
	}
	x->present = 1;
	if (x->n > o->events) {
		cut = x->n - o->events;
		x->n = o->events;
		x->lost += cut;
	}
	if (cr_events_insert(x, &m->start) || cr_events_insert(x, &m->end)) {
		fprintf(stderr, "clkstat-report: record: out of memory\n");
		return CR_ERR;
	}
	x->nclock = 2;
	x->clock[0] = m->clock[0];
	x->clock[1] = m->clock[1];
	if (ring_lost && bpf)
		fprintf(stderr, "clkstat-report: record: warning: run %u: %" PRIu64 " events lost (the BPF twin's ring buffer full): give a larger --events (it sizes the ring buffer) or shorten the run\n",
			nth, ring_lost);
	else if (ring_lost)
		fprintf(stderr, "clkstat-report: record: warning: run %u: %" PRIu64 " events lost (ring of events=%u per CPU full): load with a larger events=N or shorten the run\n",
			nth, ring_lost, o->ev_entries);
	if (cut)
		fprintf(stderr, "clkstat-report: record: warning: run %u: %" PRIu64 " events lost (beyond --events %u): give a larger --events or shorten the run\n",
			nth, cut, o->events);
	return CR_OK;
}

/* Split "a,b" into at most max names; 0 on success. */
static int cr_split_variants(const char *list, char names[][CR_VARIANT_MAX],
			     unsigned int max, unsigned int *n)
{
	const char *p = list, *e;
	size_t len;

	*n = 0;
	while (*p) {
		e = strchr(p, ',');
		len = e ? (size_t)(e - p) : strlen(p);
		if (!len || len >= CR_VARIANT_MAX || *n == max) {
			fprintf(stderr, "clkstat-report: record: --variants '%s': %s\n",
				list, !len ? "empty variant name" :
				len >= CR_VARIANT_MAX ? "variant name too long" :
				"too many variants");
			return -1;
		}
		memcpy(names[*n], p, len);
		names[(*n)++][len] = '\0';
		p = e ? e + 1 : p + len;
		if (e && !*p) {
			fprintf(stderr, "clkstat-report: record: --variants '%s': empty variant name\n",
				list);
			return -1;
		}
	}
	if (!*n) {
		fprintf(stderr, "clkstat-report: record: --variants is empty\n");
		return -1;
	}
	return 0;
}

/* Sleep d seconds unless interrupted. */
static void cr_sleep(double d)
{
	struct timespec ts = {
		.tv_sec = (time_t)d,
		.tv_nsec = (long)((d - (double)(time_t)d) * 1e9),
	};

	while (!cr_interrupted && nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* Wait for pid; *status as cr_run_command() says. */
static int cr_wait(pid_t pid, int *status)
{
	int ws;

	while (waitpid(pid, &ws, 0) < 0) {
		if (errno != EINTR) {
			fprintf(stderr, "clkstat-report: record: waitpid: %s\n",
				strerror(errno));
			return CR_WORKLOAD;
		}
	}
	*status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
	return CR_OK;
}

/*
 * Run the workload; *status gets its exit status (128 + signal when it was
 * killed).  Return: CR_OK, or CR_WORKLOAD when it cannot be started.
 */
static int cr_run_command(char **argv, int *status)
{
	pid_t pid;
	int err;

	err = posix_spawnp(&pid, argv[0], NULL, NULL, argv, environ);
	if (err) {
		fprintf(stderr, "clkstat-report: record: cannot run '%s': %s\n",
			argv[0], strerror(err));
		return CR_WORKLOAD;
	}
	return cr_wait(pid, status);
}

/*
 * A workload forked but held before exec until cr_gate_go(), so that its
 * pid is known before it runs (--workload-only: the twin's tgid filter).
 */
struct cr_gate {
	pid_t pid;
	int go;		/* closing it without a byte: give up */
	int ex;		/* the child's errno if exec failed */
};

static int cr_gate_fork(char **argv, struct cr_gate *g)
{
	int go[2], ex[2], e;
	char c;

	if (pipe2(go, O_CLOEXEC))
		goto fail;
	if (pipe2(ex, O_CLOEXEC)) {
		close(go[0]);
		close(go[1]);
		goto fail;
	}
	g->pid = fork();
	if (g->pid == 0) {
		close(go[1]);
		close(ex[0]);
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		execvp(argv[0], argv);
		e = errno;
		if (write(ex[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(ex[1]);
	if (g->pid < 0) {
		close(go[1]);
		close(ex[0]);
		goto fail;
	}
	g->go = go[1];
	g->ex = ex[0];
	return CR_OK;
fail:
	fprintf(stderr, "clkstat-report: record: cannot start '%s': %s\n",
		argv[0], strerror(errno));
	return CR_WORKLOAD;
}

/* Let it run and wait for it; as cr_run_command(). */
static int cr_gate_go(struct cr_gate *g, const char *name, int *status)
{
	int e, st;
	ssize_t n;

	n = write(g->go, "x", 1);
	close(g->go);
	if (n == 1) {
		while ((n = read(g->ex, &e, sizeof(e))) < 0 && errno == EINTR)
			;
	}
	close(g->ex);
	st = cr_wait(g->pid, status);
	if (n == sizeof(e)) {
		fprintf(stderr, "clkstat-report: record: cannot run '%s': %s\n",
			name, strerror(e));
		return CR_WORKLOAD;
	}
	return st;
}

static void cr_gate_abort(struct cr_gate *g)
{
	int status;

	close(g->go);
	close(g->ex);
	cr_wait(g->pid, &status);
}

/* Keep only the metrics of variant v (the dump has every variant's). */
static void cr_keep_variant(struct cr_run *r, const char *v)
{
	size_t i, n = 0;

	for (i = 0; i < r->nmetrics; i++) {
		if (!strcmp(r->metrics[i].variant, v))
			r->metrics[n++] = r->metrics[i];
		else
			cr_metric_free(&r->metrics[i]);
	}
	r->nmetrics = n;
}

static int cr_add_run(struct cr_snapshot *s, struct cr_run *tmp,
		      const char *variant, int64_t start, int64_t end,
		      int status, int *workload_failed);

/* One run into s: the variant, the window, the read-back. */
static int cr_record_run(struct cr_nl *nl, const struct cr_info *info,
			 const struct cr_record_opts *o,
			 struct cr_snapshot *s, const char *variant,
			 int *workload_failed)
{
	struct cr_run tmp = { .exit_status = -1 };
	struct cr_run_marks marks;
	int st, status = -1;
	int64_t start, end;

	st = cr_nl_ctrl(nl, "variant", variant);
	if (!st)
		st = cr_nl_ctrl(nl, "stop", NULL);
	if (!st)
		st = cr_nl_ctrl(nl, "reset", NULL);
	if (!st)
		st = cr_nl_ctrl(nl, "start", NULL);
	if (st)
		return st;
	start = cr_now_ns();
	cr_marks_begin(o, &marks, CR_MARKER_MODULE);
	if (o->command)
		st = cr_run_command(o->command, &status);
	else
		cr_sleep(o->duration);
	cr_marks_end(o, &marks);
	end = cr_now_ns();
	if (st) {
		cr_nl_ctrl(nl, "stop", NULL);
		return st;
	}
	st = cr_nl_ctrl(nl, "stop", NULL);
	if (!st)
		st = cr_nl_get_hist(nl, &tmp);
	/* The run's reset emptied the log: what it holds is the run's. */
	if (!st && o->events)
		st = cr_nl_get_events(nl, info, &tmp.events);
	if (!st)
		st = cr_events_finish(o, &marks, &tmp, s->nruns + 1, 0);
	if (st) {
		cr_run_free(&tmp);
		return st;
	}
	cr_keep_variant(&tmp, variant);
	st = cr_add_run(s, &tmp, variant, start, end, status,
			workload_failed);
	/* The module's runs see every task, --workload-only or not. */
	if (!st)
		s->runs[s->nruns - 1].workload_only = 0;
	return st;
}

/* Move tmp's metrics into a new run of s. */
static int cr_add_run(struct cr_snapshot *s, struct cr_run *tmp,
		      const char *variant, int64_t start, int64_t end,
		      int status, int *workload_failed)
{
	struct cr_run *r = cr_snapshot_add_run(s);

	if (!r) {
		cr_run_free(tmp);
		fprintf(stderr, "clkstat-report: record: out of memory\n");
		return CR_ERR;
	}
	r->nmetrics = tmp->nmetrics;
	r->metrics = tmp->metrics;
	r->events = tmp->events;
	snprintf(r->variant, sizeof(r->variant), "%s", variant);
	r->start_ns = start;
	r->end_ns = end;
	r->exit_status = status;
	if (status > 0)
		*workload_failed = 1;
	return CR_OK;
}

/*
 * One run of the BPF twin (tools/bpf/twin.h) into s: the module, if
 * loaded, is switched to its variant "off" for the run (unless
 * --keep-module), the twin is loaded with the module's probes, frac_bits
 * and tgid filter (or --probes, --frac-bits), started, the workload run,
 * the twin stopped, read into the run and unloaded.  With the module
 * loaded, the twin's window is the module's: the twin follows its start,
 * stop, reset and tgid (its clkstat_control trace event), and the run
 * starts and stops the module around the workload as a module run does,
 * so that a workload that narrows the module's window (writes to its
 * control file) narrows the twin's alike.  With every variant a bpf-*
 * one, the module need not be loaded at all; without it the twin records
 * from its start to its stop.
 */
static int cr_record_bpf_run(struct cr_nl *nl, const struct cr_record_opts *o,
			     struct cr_snapshot *s,
			     const struct cr_twin_cfg *base,
			     const char *variant, int *workload_failed)
{
	struct cr_twin_cfg cfg = *base;
	struct cr_run tmp = { .exit_status = -1 };
	struct cr_gate gate = { .pid = -1 };
	struct cr_run_marks marks;
	struct cr_twin *t;
	int st = CR_OK, status = -1, gated;
	int64_t start, end;

	/* A stopped clkstat hook still costs its dispatch: none at all. */
	if (nl && !o->keep_module)
		st = cr_nl_ctrl(nl, "variant", "off");
	if (st)
		return st;
	gated = o->command && o->workload_only;
	if (o->events && cr_marker_tracing_ok())
		setenv("CLKSTAT_MARKER", CR_MARKER_TRACING, 1);
	else if (o->events)
		unsetenv("CLKSTAT_MARKER");
	if (gated) {
		st = cr_gate_fork(o->command, &gate);
		if (st)
			return st;
		cfg.tgid = gate.pid;
	}
	cfg.variant = variant;
	cfg.events = o->events;
	cfg.follow = !!nl;
	cfg.tgid_pinned = gated;
	st = cr_twin_open(&cfg, &t);
	if (!st)
		st = cr_twin_start(t);
	/* The module's window, which the twin follows: as cr_record_run(). */
	if (!st && nl)
		st = cr_nl_ctrl(nl, "stop", NULL);
	if (!st && nl)
		st = cr_nl_ctrl(nl, "start", NULL);
	if (st) {
		if (gated)
			cr_gate_abort(&gate);
		cr_twin_close(t);
		return st;
	}
	start = cr_now_ns();
	/*
	 * The gated child has its environment already: CLKSTAT_MARKER is set
	 * before the fork (cr_marks_begin() is then only its clock and
	 * marker, which come after the fork, right before the exec).
	 */
	cr_marks_begin(o, &marks,
		       cr_marker_tracing_ok() ? CR_MARKER_TRACING : NULL);
	if (gated)
		st = cr_gate_go(&gate, o->command[0], &status);
	else if (o->command)
		st = cr_run_command(o->command, &status);
	else
		cr_sleep(o->duration);
	cr_marks_end(o, &marks);
	end = cr_now_ns();
	if (nl)
		cr_nl_ctrl(nl, "stop", NULL);
	cr_twin_stop(t);
	/* The twin fills run->events when cfg.events > 0. */
	if (!st)
		st = cr_twin_read(t, &tmp);
	cr_twin_close(t);
	if (!st)
		st = cr_events_finish(o, &marks, &tmp, s->nruns + 1, 1);
	if (st) {
		cr_run_free(&tmp);
		return st;
	}
	st = cr_add_run(s, &tmp, variant, start, end, status,
			workload_failed);
	if (!st)
		s->runs[s->nruns - 1].workload_only = gated;
	return st;
}

/*
 * The module's user-defined probes, appended to the twin's list when
 * --probes does not give one: those that every bpf-* variant of names
 * reaches (tp: specs only bpf-tp, the others only bpf-kprobe and
 * bpf-fentry), so that each side measures the same traces.
 */
static void cr_twin_module_traces(const struct cr_info *info,
				  char names[][CR_VARIANT_MAX], unsigned int nv,
				  char *buf, size_t len)
{
	struct clkstat_trace_spec t;
	int tp = 0, fn = 0;
	unsigned int i;

	for (i = 0; i < nv; i++) {
		int v = twin_variant_parse(names[i]);

		if (v == TV_TP)
			tp = 1;
		else if (v >= 0)
			fn = 1;
	}
	for (i = 0; i < info->ntraces; i++) {
		if (clkstat_trace_parse(info->traces[i].spec, &t))
			continue;
		if ((t.kind == CLKSTAT_TRACE_TP) ? fn : tp)
			continue;
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s",
			 buf[0] ? "," : "", info->traces[i].spec);
	}
}

/*
 * The twin's configuration: --probes, else the module's probes that the
 * twin has and its traces (cr_twin_module_traces()), else ttwu,tkread;
 * --frac-bits, else the module's, else the
 * default; the module's tgid filter.  Every bpf-* variant of names must
 * accept it.
 */
static int cr_twin_config(const struct cr_record_opts *o,
			  const struct cr_info *info, char names[][CR_VARIANT_MAX],
			  unsigned int nv, char *buf, size_t len,
			  struct cr_twin_cfg *cfg)
{
	static const char *const have[] = {
		"ttwu", "tkread", "csswitch", "csread", "clockoff"
	};
	const size_t nhave = sizeof(have) / sizeof(have[0]);
	unsigned int i, mask;
	size_t j;
	int v;

	*cfg = (struct cr_twin_cfg){ .frac_bits = CLKSTAT_FRAC_BITS_DEFAULT };
	snprintf(buf, len, "%s", o->probes ? o->probes : "ttwu,tkread");
	if (!o->probes && info) {
		buf[0] = '\0';
		for (j = 0; j < nhave; j++) {
			/* info->probes is a comma list; match whole names. */
			char pat[40], list[160];

			snprintf(pat, sizeof(pat), ",%s,", have[j]);
			snprintf(list, sizeof(list), ",%s,", info->probes);
			if (strstr(list, pat))
				snprintf(buf + strlen(buf), len - strlen(buf),
					 "%s%s", buf[0] ? "," : "", have[j]);
		}
		cr_twin_module_traces(info, names, nv, buf, len);
		if (!buf[0]) {
			fprintf(stderr, "clkstat-report: record: the module's probes (%s) include none the BPF twin has (ttwu, tkread, csswitch, csread, clockoff): give --probes\n",
				info->probes);
			return CR_USAGE;
		}
	}
	cfg->probes = buf;
	if (o->frac_bits >= 0)
		cfg->frac_bits = o->frac_bits;
	else if (info)
		cfg->frac_bits = info->frac_bits;
	if (info)
		cfg->tgid = info->tgid;
	for (i = 0; i < nv; i++) {
		v = twin_variant_parse(names[i]);
		if (v >= 0 && twin_probes_parse(v, cfg->probes, &mask))
			return CR_USAGE;
	}
	return CR_OK;
}

static char *cr_join(char **argv)
{
	size_t len = 1, i;
	char *s;

	for (i = 0; argv[i]; i++)
		len += strlen(argv[i]) + 1;
	s = calloc(1, len);
	for (i = 0; s && argv[i]; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
}

/* Is every variant a bpf-* one (the module then need not be loaded)? */
static int cr_bpf_only(char names[][CR_VARIANT_MAX], unsigned int nv)
{
	unsigned int i;

	for (i = 0; i < nv; i++)
		if (!cr_twin_is_variant(names[i]))
			return 0;
	return nv > 0;
}

/*
 * --workload-only filters the BPF twin's runs only (the twin's tgid filter
 * on COMMAND's pid): say so when it cannot do what it seems to.  Each
 * run's workload_only in the snapshot says what it did.
 */
static void cr_warn_workload_only(const struct cr_record_opts *o,
				  char names[][CR_VARIANT_MAX],
				  unsigned int nv)
{
	unsigned int i, n = 0;

	if (!o->workload_only)
		return;
	if (!o->command) {
		fprintf(stderr, "clkstat-report: record: warning: --workload-only without a COMMAND filters nothing: every run sees every task\n");
		return;
	}
	for (i = 0; i < nv; i++) {
		if (cr_twin_is_variant(names[i]))
			continue;
		fprintf(stderr, "%s%s", n++ ? "," : "clkstat-report: record: warning: --workload-only filters the BPF twin's runs only; the module variant runs (",
			names[i]);
	}
	if (n)
		fprintf(stderr, ") see every task\n");
}

/*
 * --events with a module variant needs the module's event log: say so
 * before any run.  Return CR_OK or CR_USAGE.
 */
static int cr_check_events(const struct cr_record_opts *o,
			   const struct cr_info *info,
			   char names[][CR_VARIANT_MAX], unsigned int nv)
{
	if (!o->events || cr_bpf_only(names, nv))
		return CR_OK;
	if (info->have_ev_entries && info->ev_entries)
		return CR_OK;
	fprintf(stderr, "clkstat-report: record: --events needs the module's event log, and it has none: load clkstat.ko with events=N (N > 0; and probes=...,marker for the workload's markers)\n");
	return CR_USAGE;
}

/* --probes' user-defined probes, and those record itself traced. */
struct cr_rec_traces {
	unsigned int n;
	struct clkstat_trace_spec t[CLKSTAT_TRACE_MAX];
	const char *given[CLKSTAT_TRACE_MAX];	/* as in --probes */
	char buf[CR_PROBES_MAX];		/* --probes, split */
	int added[CLKSTAT_TRACE_MAX];		/* by record: untrace at the end */
};

/* A built-in probe's name (probes=), not a user-defined probe's spec? */
static int cr_builtin_probe(const char *name)
{
#define CR_PROBE_NAME(id, metric, probe)	#probe,
	static const char *const names[] = {
		CLKSTAT_METRICS(CR_PROBE_NAME) "marker"
	};
#undef CR_PROBE_NAME
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i]))
			return 1;
	return 0;
}

/*
 * The specs of --probes (entries that are not built-in probes), checked
 * with the module's parser.  Return CR_OK or CR_USAGE with a line said.
 */
static int cr_rec_traces_parse(const char *list, struct cr_rec_traces *tr)
{
	static const char *const texts[] = CLKSTAT_TRACE_ERROR_TEXTS_INIT;
	char *p, *save = NULL;
	unsigned int j;
	int e;

	tr->n = 0;
	if (!list)
		return CR_OK;
	snprintf(tr->buf, sizeof(tr->buf), "%s", list);
	for (p = strtok_r(tr->buf, ",", &save); p;
	     p = strtok_r(NULL, ",", &save)) {
		if (cr_builtin_probe(p))
			continue;
		if (tr->n == CLKSTAT_TRACE_MAX) {
			fprintf(stderr, "clkstat-report: record: --probes: more than %d user-defined probes\n",
				CLKSTAT_TRACE_MAX);
			return CR_USAGE;
		}
		e = clkstat_trace_parse(p, &tr->t[tr->n]);
		if (e) {
			fprintf(stderr, "clkstat-report: record: --probes %s: %s\n",
				p, e > 0 && e < CLKSTAT_TRACE_NERRORS ? texts[e] :
				"invalid");
			return CR_USAGE;
		}
		for (j = 0; j < tr->n; j++) {
			if (!strcmp(tr->t[j].name, tr->t[tr->n].name)) {
				fprintf(stderr, "clkstat-report: record: --probes %s: given twice (as %s)\n",
					p, tr->given[j]);
				return CR_USAGE;
			}
		}
		tr->given[tr->n] = p;
		tr->added[tr->n++] = 0;
	}
	return CR_OK;
}

/* Untrace what record traced (cr_rec_traces_add()), newest first. */
static void cr_rec_traces_remove(struct cr_nl *nl, struct cr_rec_traces *tr)
{
	char what[CR_PROBES_MAX + 64];
	unsigned int i = tr->n;

	while (i--) {
		if (!tr->added[i])
			continue;
		snprintf(what, sizeof(what), "record: untrace %s", tr->t[i].name);
		if (!cr_nl_trace(nl, 0, tr->t[i].name, what))
			tr->added[i] = 0;
	}
}

/*
 * Trace the specs the module does not have (info: as record found it);
 * on a refusal untrace those just added and return its status.
 */
static int cr_rec_traces_add(struct cr_nl *nl, const struct cr_info *info,
			     struct cr_rec_traces *tr)
{
	char what[CR_PROBES_MAX + 64];
	unsigned int i, k;
	int st;

	for (i = 0; i < tr->n; i++) {
		for (k = 0; k < info->ntraces; k++)
			if (!strcmp(info->traces[k].spec, tr->t[i].name))
				break;
		if (k < info->ntraces)
			continue;	/* the module's already: left as found */
		snprintf(what, sizeof(what), "record: --probes %s", tr->given[i]);
		st = cr_nl_trace(nl, 1, tr->t[i].name, what);
		if (st) {
			cr_rec_traces_remove(nl, tr);
			return st;
		}
		tr->added[i] = 1;
	}
	return CR_OK;
}

/* The first module variant (not bpf-*) of names, or NULL. */
static const char *cr_first_module(char names[][CR_VARIANT_MAX],
				   unsigned int nv)
{
	unsigned int i;

	for (i = 0; i < nv; i++)
		if (!cr_twin_is_variant(names[i]))
			return names[i];
	return NULL;
}

/*
 * --probes' user-defined probes for the module's runs: traced in the
 * first module variant (a trace must be reachable by the variant attached
 * when it is added: not every variant times a return), then every other
 * module variant of the runs switched to once, so that one that cannot
 * run a trace is refused now rather than at its first run.  On failure
 * the traces added are removed again (the caller restores the variant).
 */
static int cr_rec_traces_setup(struct cr_nl *nl, const struct cr_info *info,
			       struct cr_rec_traces *tr,
			       char names[][CR_VARIANT_MAX], unsigned int nv)
{
	const char *first = cr_first_module(names, nv);
	unsigned int i;
	int st;

	if (!tr->n || !first)
		return CR_OK;
	st = cr_nl_ctrl(nl, "variant", first);
	if (!st)
		st = cr_rec_traces_add(nl, info, tr);
	for (i = 0; !st && i < nv; i++)
		if (!cr_twin_is_variant(names[i]) && strcmp(names[i], first))
			st = cr_nl_ctrl(nl, "variant", names[i]);
	if (st)
		cr_rec_traces_remove(nl, tr);
	return st;
}

/* Return: an exit status (status.h). */
static int cr_record(struct cr_record_opts *o)
{
	static struct cr_rec_traces traces;
	char names[16][CR_VARIANT_MAX], probes[CR_PROBES_MAX];
	struct cr_snapshot s = { 0 };
	struct sigaction sa = { .sa_handler = cr_on_signal }, old_int, old_term;
	int st, failed = 0, tty = isatty(STDERR_FILENO);
	unsigned int nv = 0, i;
	struct cr_info info = { 0 };
	struct cr_twin_cfg twin;
	struct cr_nl *nl = NULL;
	const struct cr_conds *conds = cr_record_conds();
	unsigned int nc = cr_conds_n(conds);
	int oom = 0;
	long ncpus;

	if (o->variants && cr_split_variants(o->variants, names, 16, &nv))
		return CR_USAGE;
	if (cr_rec_traces_parse(o->probes, &traces))
		return CR_USAGE;
	/* Before anything can fail: the warning is about the options. */
	if (o->variants)
		cr_warn_workload_only(o, names, nv);
	/* bpf-* runs only, and no module: the twin alone. */
	if (!(cr_bpf_only(names, nv) && access("/sys/module/clkstat", F_OK))) {
		nl = cr_nl_open(&st);
		if (!nl)
			return st;
		st = cr_nl_get_info(nl, &info);
		if (st)
			goto out_nl;
	}
	if (!o->variants && cr_split_variants(info.variant, names, 16, &nv)) {
		st = CR_USAGE;
		goto out_nl;
	}
	if (!o->variants)
		cr_warn_workload_only(o, names, nv);
	st = cr_check_events(o, &info, names, nv);
	if (st)
		goto out_nl;
	o->ev_entries = info.ev_entries;
	st = cr_twin_config(o, nl ? &info : NULL, names, nv, probes,
			    sizeof(probes), &twin);
	if (st)
		goto out_nl;
	if (cr_meta_collect(&s.meta, nl ? &info : NULL, "") ||
	    !(s.meta.variants = strdup(o->variants ? o->variants
						    : info.variant)) ||
	    (o->command && !(s.meta.command = cr_join(o->command)))) {
		fprintf(stderr, "clkstat-report: record: out of memory\n");
		st = CR_ERR;
		goto out;
	}
	if (!nl) {
		/* What the twin ran with stands for the module's settings. */
		ncpus = sysconf(_SC_NPROCESSORS_CONF);
		s.meta.probes = strdup(twin.probes);
		/* The twin stamps with bpf_ktime_get_ns(). */
		s.meta.clock = strdup("mono");
		s.meta.frac_bits = twin.frac_bits;
		s.meta.nr_cpus = ncpus > 0 ? ncpus : 0;
		if (!s.meta.probes || !s.meta.clock) {
			fprintf(stderr, "clkstat-report: record: out of memory\n");
			st = CR_ERR;
			goto out;
		}
	}
	s.meta.duration_s = o->command ? 0 : o->duration;
	s.meta.events = o->events;
	s.meta.conditions = cr_conds_describe(conds, &oom);
	if (oom) {
		fprintf(stderr, "clkstat-report: record: out of memory\n");
		st = CR_ERR;
		goto out;
	}
	if (o->runs % (nv * nc))
		fprintf(stderr, "clkstat-report: record: warning: unbalanced: --runs %u is not a multiple of %u (%u variants x %u conditions): some variant and condition pairs get one run fewer\n",
			o->runs, nv * nc, nv, nc);
	for (i = 0; i < o->tags.ntags; i++) {
		if (cr_meta_add_tag(&s.meta, o->tags.tag_names[i],
				    o->tags.tag_values[i])) {
			fprintf(stderr, "clkstat-report: record: out of memory\n");
			st = CR_ERR;
			goto out;
		}
	}
	/* Ctrl-C ends the recording after the runs done so far. */
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	/* --probes' user-defined probes, for the module's runs. */
	st = nl ? cr_rec_traces_setup(nl, &info, &traces, names, nv) : CR_OK;
	for (i = 0; !st && i < o->runs && !cr_interrupted; i++) {
		const char *v = names[i % nv];
		unsigned int k = (i / nv) % nc;
		struct cr_cond_hold hold;
		size_t had = s.nruns;
		char cl[2 * CR_COND_NAME + 32];

		cr_conds_label(conds, k, cl, sizeof(cl));
		if (!o->quiet)
			fprintf(stderr, "%srecord: run %u/%u, variant %s%s ...%s",
				tty ? "\r\033[K" : "", i + 1, o->runs, v, cl,
				tty ? "" : "\n");
		st = cr_cond_enter(conds, k, &hold);
		if (st)
			break;
		if (cr_twin_is_variant(v))
			st = cr_record_bpf_run(nl, o, &s, &twin, v, &failed);
		else
			st = cr_record_run(nl, &info, o, &s, v, &failed);
		/* Whatever happened to the run: the condition ends here. */
		cr_cond_leave(&hold);
		if (!st && s.nruns > had &&
		    cr_conds_tag(conds, k, &s.runs[s.nruns - 1])) {
			fprintf(stderr, "clkstat-report: record: out of memory\n");
			st = CR_ERR;
		}
		if (st)
			break;
		if (!o->quiet && tty)
			fprintf(stderr, "\r\033[Krecord: run %u/%u, variant %s%s: %llu samples",
				i + 1, o->runs, v, cl,
				(unsigned long long)cr_run_samples(&s.runs[s.nruns - 1]));
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	if (!o->quiet && tty)
		fputc('\n', stderr);
	/*
	 * Leave the module as it was found: its variant and its recording,
	 * which every run stopped at its end.  But with --keep-module and
	 * only bpf runs, the module measured beside the twin, in the twin's
	 * windows: it stays stopped, its metrics holding what the runs saw
	 * (a "start" now would add whatever comes after).
	 */
	if (nl)
		cr_rec_traces_remove(nl, &traces);
	if (nl && !(o->keep_module && cr_bpf_only(names, nv))) {
		cr_nl_ctrl(nl, "variant", info.variant);
		if (info.recording)
			cr_nl_ctrl(nl, "start", NULL);
	}
	if (st)
		goto out;
	if (!s.nruns) {
		fprintf(stderr, "clkstat-report: record: interrupted before the first run ended; nothing written\n");
		st = CR_ERR;
		goto out;
	}
	if (cr_interrupted)
		fprintf(stderr, "clkstat-report: record: interrupted; writing the %zu runs done\n",
			s.nruns);
	st = cr_snapshot_write(&s, o->output);
	if (!st && !o->quiet)
		fprintf(stderr, "record: %zu runs written to %s\n", s.nruns,
			o->output);
	if (!st && failed) {
		fprintf(stderr, "clkstat-report: record: the workload failed in some runs (see each run's exit_status)\n");
		st = CR_WORKLOAD;
	}
out:
	cr_snapshot_free(&s);
out_nl:
	cr_nl_close(nl);
	return st;
}

/* ---- the command line ---- */

enum { O_RUNS = CR_OPT_RECORD, O_DURATION, O_VARIANTS, O_PROBES,
	O_FRAC_BITS, O_KEEP_MODULE, O_WORKLOAD_ONLY, O_TAG, O_EVENTS };

static struct cr_record_opts cr_rec = {
	.output = "clkstat.json", .runs = 1, .duration = 1.0, .frac_bits = -1,
};
static int cr_rec_duration_set;

static int cr_record_take(int c, const char *v)
{
	unsigned long ul;
	char *end, err[512];
	int e;

	switch (c) {
	case 'o':
		cr_rec.output = v;
		break;
	case O_TAG:
		e = cr_meta_tag_arg(&cr_rec.tags, v, err, sizeof(err));
		if (e == -ENOMEM) {
			fprintf(stderr, "clkstat-report: out of memory\n");
			return CR_ERR;
		}
		if (e) {
			fprintf(stderr, "clkstat-report: record: %s\n", err);
			return CR_USAGE;
		}
		break;
	case 'q':
		cr_rec.quiet = 1;
		break;
	case O_RUNS:
		if (cr_parse_ulong("--runs (1 to 1000000)", v, 1, 1000000, &ul))
			return CR_USAGE;
		cr_rec.runs = ul;
		break;
	case O_EVENTS:
		if (cr_parse_ulong("--events (0 to 10000000)", v, 0, 10000000,
				   &ul))
			return CR_USAGE;
		cr_rec.events = ul;
		break;
	case O_DURATION:
		errno = 0;
		cr_rec.duration = strtod(v, &end);
		if (errno || *end || !*v || !(cr_rec.duration > 0) ||
		    cr_rec.duration > 86400)
			return cr_bad_number("--duration (seconds, above 0, at most 86400)",
					     v);
		cr_rec_duration_set = 1;
		break;
	case O_VARIANTS:
		cr_rec.variants = v;
		break;
	case O_PROBES:
		if (strlen(v) >= CR_PROBES_MAX) {
			fprintf(stderr, "clkstat-report: record: --probes: longer than %d bytes\n",
				CR_PROBES_MAX - 1);
			return CR_USAGE;
		}
		cr_rec.probes = v;
		break;
	case O_FRAC_BITS:
		if (cr_parse_ulong("--frac-bits (0 to 5)", v, 0,
				   CLKSTAT_FRAC_BITS_MAX, &ul))
			return CR_USAGE;
		cr_rec.frac_bits = ul;
		break;
	case O_KEEP_MODULE:
		cr_rec.keep_module = 1;
		break;
	default: /* O_WORKLOAD_ONLY */
		cr_rec.workload_only = 1;
		break;
	}
	return CR_OK;
}

static const struct option cr_record_table[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "runs", required_argument, NULL, O_RUNS },
	{ "duration", required_argument, NULL, O_DURATION },
	{ "variants", required_argument, NULL, O_VARIANTS },
	{ "probes", required_argument, NULL, O_PROBES },
	{ "frac-bits", required_argument, NULL, O_FRAC_BITS },
	{ "keep-module", no_argument, NULL, O_KEEP_MODULE },
	{ "workload-only", no_argument, NULL, O_WORKLOAD_ONLY },
	{ "tag", required_argument, NULL, O_TAG },
	{ "events", required_argument, NULL, O_EVENTS },
	{ "quiet", no_argument, NULL, 'q' },
	{ NULL, 0, NULL, 0 },
};

static const struct cr_optset cr_record_opts = {
	.opts = cr_record_table,
	.take = cr_record_take,
	.help =
	"  -o, --output FILE   the snapshot to write (default clkstat.json)\n"
	"      --runs N        number of runs (default 1)\n"
	"      --duration S    seconds per run without COMMAND (default 1)\n"
	"      --variants A,B  variants alternated run by run (module\n"
	"                      variants and the BPF twin's bpf-kprobe, bpf-fentry, bpf-tp)\n"
	"      --probes LIST   the twin's probes (default: the module's), and\n"
	"                      user-defined probes (func:F, sec:A-B, tp:X-Y) traced\n"
	"                      for the module's runs and untraced after them\n"
	"      --frac-bits K   the twin's frac_bits (default: the module's)\n"
	"      --keep-module   leave the module attached during twin runs\n"
	"      --workload-only bpf-*: the twin sees only COMMAND's own tasks\n"
	"      --tag K=V       label the recording (repeatable; info shows\n"
	"                      them, --compare tag:K=V groups by them)\n"
	"      --events N      keep each run's event log, at most N events\n"
	"                      (1 to 10000000; the module needs events=N), with\n"
	"                      run_start/run_end markers and clock pairs\n"
	"  -q, --quiet         no progress line\n",
};

static int cr_record_check(const struct cr_cli *cli)
{
	if (cr_conds_check(&cr_rec.tags))
		return CR_USAGE;
	if (cli->command && cr_rec_duration_set) {
		fprintf(stderr, "clkstat-report: record: --duration is for runs without a COMMAND (a run lasts as long as its COMMAND)\n");
		return CR_USAGE;
	}
	return CR_OK;
}

static int cr_record_cmd(struct cr_cli *cli)
{
	int st;

	cr_rec.command = cli->command;
	st = cr_record(&cr_rec);
	cr_meta_free(&cr_rec.tags);
	return st;
}

static const struct cr_optset *const cr_record_optsets[] = {
	&cr_record_opts, &cr_record_cond_opts, NULL,
};

const struct cr_command cr_cmd_record = {
	.name = "record",
	.summary = "record runs into a snapshot file, alternating variants",
	.synopsis =
	"       clkstat-report record [-o FILE] [--runs N] [--duration S] [--variants A,B]\n"
	"                             [--probes LIST] [--frac-bits K] [--keep-module]\n"
	"                             [--workload-only] [--tag KEY=VALUE]... [--events N]\n"
	"                             [--cstates LIST] [--load LIST] [-- COMMAND [ARG...]]\n",
	.opts = cr_record_optsets,
	.takes_command = 1,
	.check = cr_record_check,
	.run = cr_record_cmd,
};

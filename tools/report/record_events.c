// SPDX-License-Identifier: GPL-2.0
/*
 * record_events.c - what record adds to a run's events (record.h): its
 * own "run_start" and "run_end" markers, CLOCK_MONOTONIC/CLOCK_REALTIME
 * pairs around the workload, $CLKSTAT_MARKER for the workload's own
 * markers, and --events N's cut of the log.
 */
#define _GNU_SOURCE		/* sched_getcpu() */
#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "../lib/status.h"
#include "record.h"

#define CR_TRACING_ON		"/sys/kernel/tracing/tracing_on"

/*
 * Can the workload of a bpf-* run write its markers to trace_marker (the
 * twin catches those writes)?  Not while tracing is off: the kernel then
 * refuses them with EBADF, and a workload that checks its writes (the
 * pingpong does) fails.  Say so once, and give the workload no marker
 * file rather than one that fails: its markers are missing, the run is not.
 */
int cr_rec_tracing_markers(void)
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

int64_t cr_rec_now_ns(void)
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

void cr_rec_marker_env(const struct cr_record_opts *o, const char *marker)
{
	if (!o->events)
		return;
	/* For the workload; a stale value from our own caller is replaced. */
	if (marker && !access(marker, W_OK))
		setenv("CLKSTAT_MARKER", marker, 1);
	else
		unsetenv("CLKSTAT_MARKER");
}

void cr_marks_begin(const struct cr_record_opts *o, struct cr_run_marks *m,
		    const char *marker)
{
	if (!o->events)
		return;
	cr_rec_marker_env(o, marker);
	cr_clock_pair(&m->clock[0]);
	cr_marker_now(&m->start, "run_start");
}

void cr_marks_end(const struct cr_record_opts *o, struct cr_run_marks *m)
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
int cr_events_finish(const struct cr_record_opts *o,
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

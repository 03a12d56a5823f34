// SPDX-License-Identifier: GPL-2.0
/*
 * serve_source.c - where clkstat-report serve's metrics come from.
 *
 * Live: the module over generic netlink, GET_INFO then GET_HIST at each
 * read.  Any failure closes the socket, so that the next read resolves
 * the family again: a module that was unloaded and loaded again has a new
 * family id, and the exporter picks it up by itself.  A module that
 * stops answering mid-read fails it too, once a reply is late by nl.c's
 * receive timeout (5 s), and its late replies go with the socket.  What
 * the failure was goes into why (the 503's body); whether the source is
 * up is said on stderr when it changes, not at every scrape.
 *
 * Replay (--input): a recorded snapshot served as if a module were
 * recording it.  Without --replay-interval, every run pooled at once
 * (created at the first run's start).  With it, one run more every
 * interval, from none to all, held for one interval, then over again
 * from none: a reset, counted in clkstat_resets_total with a new
 * _created, as a module's reset would be.  Every metric of the snapshot
 * is there from the first read on, empty until a run brings samples, so
 * that no series appears mid-window.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "../lib/nl.h"
#include "../lib/render.h"
#include "output.h"
#include "serve.h"

static int64_t cr_now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int cr_source_init(struct cr_source *s, struct cr_snapshot *snap,
		   double interval)
{
	int r;

	memset(s, 0, sizeof(*s));
	s->up = -1;
	s->t0_ns = cr_now_ns(CLOCK_REALTIME);
	s->mono0_ns = cr_now_ns(CLOCK_MONOTONIC);
	if (!snap)
		return CR_OK;
	s->replay = 1;
	s->snap = *snap;
	memset(snap, 0, sizeof(*snap));
	s->interval = interval;
	/* -EINVAL: cr_snapshot_pool() said which metric. */
	r = cr_snapshot_pool(&s->snap, &s->all);
	if (!r)
		return CR_OK;
	if (r == -ENOMEM)
		fprintf(stderr, "clkstat-report: serve: out of memory\n");
	cr_snapshot_free(&s->snap);
	return r == -ENOMEM ? CR_ERR : CR_CORRUPT;
}

void cr_source_free(struct cr_source *s)
{
	if (s->nl)
		cr_nl_close(s->nl);
	cr_snapshot_free(&s->snap);
	cr_run_free(&s->all);
	memset(s, 0, sizeof(*s));
}

/* Say on stderr when the source goes up or down, once. */
static void cr_source_said(struct cr_source *s, int up)
{
	if (up == s->up)
		return;
	if (up)
		fprintf(stderr, "clkstat-report: serve: reading the clkstat module%s\n",
			s->up == 0 ? " again" : "");
	else
		fprintf(stderr, "clkstat-report: serve: %s: no metrics until it is back (503, no textfile)\n",
			s->why);
	s->up = up;
}

/* GET_INFO and GET_HIST on a socket opened if need be. */
static int cr_source_dump(struct cr_source *s, struct cr_info *info,
			  struct cr_run *out)
{
	int st = CR_OK;

	if (!s->nl)
		s->nl = cr_nl_open(&st);
	if (s->nl)
		st = cr_nl_get_info(s->nl, info);
	if (s->nl && !st)
		st = cr_nl_get_hist(s->nl, out);
	return st;
}

static int cr_source_live(struct cr_source *s, struct cr_run *out)
{
	struct cr_info info;
	int st, reopened = !s->nl;

	/* One line from nl.c into why, not onto stderr at every scrape. */
	cr_nl_capture(s->why, sizeof(s->why));
	st = cr_source_dump(s, &info, out);
	/*
	 * A socket that worked before and fails now: the module went away,
	 * or came back with a new family id.  Once more on a new socket,
	 * which either reads the new module or says plainly that there is
	 * none (not the stale family's "Object not found").
	 */
	if (st && !reopened && s->nl) {
		cr_nl_close(s->nl);
		s->nl = NULL;
		cr_run_free(out);
		memset(out, 0, sizeof(*out));
		out->exit_status = -1;
		st = cr_source_dump(s, &info, out);
	}
	cr_nl_capture(NULL, 0);
	if (st) {
		if (s->nl)
			cr_nl_close(s->nl);
		s->nl = NULL;
		/* "clkstat-report: " is the stderr prefix, not the 503's. */
		if (!strncmp(s->why, "clkstat-report: ", 16))
			memmove(s->why, s->why + 16, strlen(s->why + 16) + 1);
		if (!*s->why)
			snprintf(s->why, sizeof(s->why), "reading the module failed");
		cr_source_said(s, 0);
		return st;
	}
	snprintf(out->variant, sizeof(out->variant), "%s", info.variant);
	if (info.reentered >= 0) {
		out->has_reentered = 1;
		out->reentered = (uint64_t)info.reentered;
	}
	cr_output_expo_labels(&info, NULL);
	cr_output_render()->nr_cpus = info.nr_cpus;
	cr_source_said(s, 1);
	return CR_OK;
}

/* Every metric and counter of all in out too, empty where out has none. */
static int cr_source_complete(struct cr_run *out, const struct cr_run *all)
{
	const struct cr_metric *a;
	struct cr_metric *m;
	size_t i, j, c;

	for (i = 0; i < all->nmetrics; i++) {
		a = &all->metrics[i];
		m = cr_run_find(out, a->name, a->variant);
		if (!m) {
			m = cr_run_add_metric(out);
			if (!m)
				return -ENOMEM;
			memcpy(m->name, a->name, sizeof(m->name));
			memcpy(m->variant, a->variant, sizeof(m->variant));
			m->frac_bits = a->frac_bits;
			m->total.cpu = CR_CPU_ALL;
			m->total.min = UINT64_MAX;
		}
		for (j = 0; j < a->ncounters; j++) {
			for (c = 0; c < m->ncounters; c++)
				if (!strcmp(m->counters[c].name, a->counters[j].name))
					break;
			if (c < m->ncounters || m->ncounters == CR_COUNTERS_MAX)
				continue;
			memcpy(m->counters[m->ncounters].name, a->counters[j].name,
			       sizeof(m->counters[0].name));
			m->counters[m->ncounters++].value = 0;
		}
	}
	return 0;
}

static int cr_source_replay(struct cr_source *s, struct cr_run *out)
{
	struct cr_snapshot part = s->snap;
	uint64_t created = s->snap.nruns && s->snap.runs[0].start_ns > 0 ?
			   (uint64_t)s->snap.runs[0].start_ns : (uint64_t)s->t0_ns;
	uint64_t cycles = 0;
	size_t i;
	int r;

	if (s->interval > 0) {
		/*
		 * nruns + 1 steps a cycle: none, 1, ..., all runs.  Counted
		 * on the monotonic clock: a wall clock set back or forward
		 * (NTP, by hand) must not jump the replay back or ahead;
		 * _created stays on the wall clock, as a module's is.
		 */
		double steps = (double)(cr_now_ns(CLOCK_MONOTONIC) -
					s->mono0_ns) / 1e9 / s->interval;
		uint64_t step = steps > 0 ? (uint64_t)steps : 0;

		cycles = step / (s->snap.nruns + 1);
		part.nruns = step % (s->snap.nruns + 1);
		created = (uint64_t)s->t0_ns + (uint64_t)(cycles *
			  (s->snap.nruns + 1) * s->interval * 1e9);
	}
	r = cr_snapshot_pool(&part, out);
	if (!r)
		r = cr_source_complete(out, &s->all);
	if (r) {
		snprintf(s->why, sizeof(s->why), "%s", r == -ENOMEM ?
			 "out of memory" : "the snapshot's runs cannot be pooled");
		return CR_ERR;
	}
	for (i = 0; i < out->nmetrics; i++) {
		out->metrics[i].created_ns = created;
		out->metrics[i].has_resets = 1;
		out->metrics[i].resets = cycles;
		out->metrics[i].recording = 1;
	}
	cr_output_expo_labels(NULL, s->snap.ninputs > 1 ? NULL : &s->snap.meta);
	cr_output_render()->nr_cpus = s->snap.meta.nr_cpus;
	return CR_OK;
}

int cr_source_read(struct cr_source *s, struct cr_run *out)
{
	return s->replay ? cr_source_replay(s, out) : cr_source_live(s, out);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * study_bench.c - what a study's event log costs, printed (not pass or
 * fail): N events per run (made up, as a wakeup storm logs them) written
 * by cr_study_add_run(), the file's bytes per event, then each run read
 * back by cr_run_events_load(), and the reader's peak memory.
 * Documentation/clkstat-study.rst quotes a run of it.
 *
 * Each run is a run of variant kprobe or bpf-kprobe, alternated, with
 * the metrics ttwu_enqueue and ttwu_tkread made of its events'
 * latencies (hist_build.h, as the module records them; the bpf-kprobe
 * runs' latencies 10% longer), so that the study answers --compare and
 * xcorr as a recorded one does: tools/tests/study_scale.sh times every
 * reader on it.
 *
 * usage: study_bench [EVENTS_PER_RUN [RUNS [FILE]]]
 *        (default 1000000 events, 3 runs, a file in /tmp, removed after;
 *        a FILE given is kept)
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "../lib/snapshot.h"
#include "../lib/status.h"
#include "../lib/study.h"
#include "hist_build.h"

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

/*
 * n events of a wakeup storm: wakeup, enqueue, first read per wakeup;
 * latencies times slow / 10, and into the run's two metrics.
 */
static void fill(struct cr_run *r, size_t n, unsigned int seed,
		 unsigned int slow)
{
	struct cr_events *x = &r->events;
	struct cr_metric *enq, *rd;
	struct clkstat_event_rec e;
	uint64_t ts = 3000000000000ULL;
	size_t i;

	/* Both made before either is held: adding one moves the array. */
	hb_metric(r, "ttwu_enqueue", r->variant, 3);
	hb_metric(r, "ttwu_tkread", r->variant, 3);
	enq = &r->metrics[0];
	rd = &r->metrics[1];

	srand(seed);
	x->present = 1;
	for (i = 0; i < n; i++) {
		memset(&e, 0, sizeof(e));
		ts += 200 + rand() % 2000;
		e.ts = ts;
		e.type = i % 3;	/* wakeup, enqueue, first_tkread */
		e.cpu = rand() % 4;
		e.pid = 1000 + rand() % 64;
		e.corr = i / 3 + 1;
		if (e.type) {
			e.flags = CLKSTAT_EVF_LATENCY |
				  (rand() & 1 ? CLKSTAT_EVF_MIGRATED :
				   CLKSTAT_EVF_LOCAL);
			e.latency = (500 + rand() % 20000) * slow / 10;
			hb_sample(e.type == 1 ? enq : rd, e.cpu, e.latency);
		}
		if (e.type == 1) {
			e.flags |= CLKSTAT_EVF_RQ_CLOCK;
			e.rq_clock = ts - rand() % 1000;
		}
		if (cr_events_add(x, &e)) {
			fprintf(stderr, "out of memory\n");
			exit(1);
		}
	}
}

int main(int argc, char **argv)
{
	size_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 1000000;
	size_t runs = argc > 2 ? strtoull(argv[2], NULL, 10) : 3, i, total = 0;
	char def[64], *path = argc > 3 ? argv[3] : def;
	struct cr_snapshot s = { 0 }, back;
	struct cr_study *st;
	struct rusage ru;
	struct stat sb;
	struct cr_run *r;
	double t0, tw = 0, tr = 0;

	snprintf(def, sizeof(def), "/tmp/study_bench.%d.db", (int)getpid());
	s.meta.frac_bits = 3;
	s.meta.nr_cpus = 4;
	s.meta.events = (unsigned int)n;
	if (cr_study_create(path, &s.meta, &st))
		return 1;
	for (i = 0; i < runs; i++) {
		r = cr_snapshot_add_run(&s);
		snprintf(r->variant, sizeof(r->variant), "%s",
			 i % 2 ? "bpf-kprobe" : "kprobe");
		r->start_ns = 1700000000000000000LL + (int64_t)i;
		r->end_ns = r->start_ns + 1;
		fill(r, n, (unsigned int)i, i % 2 ? 11 : 10);
		t0 = now();
		if (cr_study_add_run(st, r))
			return 1;
		tw += now() - t0;
		cr_run_free(r);	/* the study holds it now */
	}
	if (cr_study_close(st))
		return 1;
	cr_snapshot_free(&s);
	if (stat(path, &sb))
		return 1;
	printf("write: %zu runs of %zu events: %.2f s, %.0f events/s\n",
	       runs, n, tw, runs * n / tw);
	printf("file: %jd bytes, %.1f bytes per event\n", (intmax_t)sb.st_size,
	       (double)sb.st_size / (double)(runs * n));
	if (cr_snapshot_read(path, &back))
		return 1;
	for (i = 0; i < back.nruns; i++) {
		t0 = now();
		if (cr_run_events_load(&back, &back.runs[i]))
			return 1;
		tr += now() - t0;
		total += back.runs[i].events.n;
		cr_run_events_drop(&back.runs[i]);
	}
	cr_snapshot_free(&back);
	getrusage(RUSAGE_SELF, &ru);
	printf("read: %zu events: %.2f s, %.0f events/s; peak RSS %ld MB (one run's events in memory: %zu MB)\n",
	       total, tr, total / tr, ru.ru_maxrss / 1024,
	       n * sizeof(struct clkstat_event_rec) >> 20);
	if (argc <= 3)
		unlink(path);
	return 0;
}

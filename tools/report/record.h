/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record.h - what the parts of clkstat-report record share: its options,
 * the two ways a run is recorded (struct cr_rec_backend: the module,
 * record_module.c, and the BPF twin, record_twin.c), the workload
 * (record_workload.c), the markers and events around it
 * (record_events.c) and --probes' user-defined probes (record_trace.c).
 * cmd_record.c runs them: Documentation/clkstat-recording.rst,
 * "Recording runs".
 */
#ifndef CLKSTAT_REPORT_RECORD_H
#define CLKSTAT_REPORT_RECORD_H

#include <signal.h>
#include <stdint.h>
#include <sys/types.h>
#include "../../kmod/shared/clkstat_trace.h"
#include "../bpf/twin.h"
#include "../lib/meta.h"
#include "../lib/nl.h"
#include "../lib/snapshot.h"

struct cr_record_opts {
	const char *output;	/* the study file to write */
	int append;		/* --append: add runs to an existing study */
	unsigned int runs;
	double duration;	/* seconds per run without a command */
	const char *variants;	/* comma list alternated, NULL: as attached */
	char **command;		/* NULL-terminated argv, NULL: none */
	int quiet;		/* no progress line */
	/* --workload-output: the workload's stdout and stderr go there. */
	const char *workload_output;
	int workload_fd;	/* open on it while recording, else -1 */
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

/* ---- where the runs go: record_study.c ---- */

struct cr_study;

struct cr_rec_study {
	const char *path;
	struct cr_study *study;
	int created;		/* made by this record (removed if no run) */
	size_t had;		/* the study's runs before (--append) */
	size_t added;		/* committed by this record */
};

/*
 * Before run 1, before the module: can -o take the study?  Not a JSON
 * name (export writes JSON), not something there unless --append and a
 * study, a folder that takes a file.  CR_OK, or a status after one line
 * ending "(nothing recorded)".
 */
int cr_rec_output_check(const struct cr_record_opts *o);
/*
 * The study created (or, with --append and the file there, opened to add
 * runs, its metadata checked to pool with m, and the BPF twin's runs
 * among names, at twin_frac_bits, with its runs of their variants) and
 * locked against other writers.  CR_OK, or a status after one line.
 */
int cr_rec_study_open(struct cr_rec_study *rs, const struct cr_record_opts *o,
		      const struct cr_meta *m, char names[][CR_VARIANT_MAX],
		      unsigned int nv, unsigned int twin_frac_bits);
/* Run r committed to the study; its events then freed.  A status. */
int cr_rec_study_add(struct cr_rec_study *rs, struct cr_run *r);
/*
 * Closed and unlocked; a study this record created without a run is
 * removed.  Unless quiet, a line says how many runs went where.
 */
int cr_rec_study_close(struct cr_rec_study *rs, int quiet);

/* ---- a run, and the two ways to record one ---- */

struct cr_rec_run {
	const struct cr_record_opts *o;
	struct cr_nl *nl;		/* NULL: no module (bpf-* runs only) */
	const struct cr_info *info;	/* the module as record found it */
	const struct cr_twin_cfg *twin;	/* the twin's settings */
	const char *variant;
	pid_t tgid;			/* the held workload's pid, or 0 */
	struct cr_twin *t;		/* the twin's, while open */
};

/*
 * open() before the workload exists, start() once it is forked (and held,
 * when gates() says so: its pid is then r->tgid), stop() and read() after
 * it, close() in any case after open().  Each a status.h status; stop()
 * too, whose failure read() then does not follow.
 */
struct cr_rec_backend {
	int is_twin;		/* a BPF twin's run (its events, its filter) */
	int (*gates)(const struct cr_rec_run *r);
	const char *(*marker)(const struct cr_rec_run *r);
	int (*open)(struct cr_rec_run *r);
	int (*start)(struct cr_rec_run *r);
	int (*stop)(struct cr_rec_run *r);
	int (*read)(struct cr_rec_run *r, struct cr_run *out);
	void (*close)(struct cr_rec_run *r);
};

extern const struct cr_rec_backend cr_rec_module, cr_rec_twin;

/*
 * record_twin.c: the twin's settings for the runs: --probes, else the
 * module's probes the twin has and its traces, else ttwu,tkread;
 * --frac-bits, else the module's; the module's tgid filter (info NULL:
 * no module).  Every bpf-* variant of names must accept them.
 */
int cr_rec_twin_config(const struct cr_record_opts *o,
		       const struct cr_info *info,
		       char names[][CR_VARIANT_MAX], unsigned int nv,
		       char *buf, size_t len, struct cr_twin_cfg *cfg);

/* ---- record_workload.c: the workload, and Ctrl-C ---- */

/* Set by SIGINT or SIGTERM while cr_rec_signals() holds them. */
extern volatile sig_atomic_t cr_rec_interrupted;
/* Take SIGINT and SIGTERM (on: 1), or give them back (0). */
void cr_rec_signals(int on);

/* A workload: COMMAND, or --duration's sleep; held before exec or not. */
struct cr_workload {
	char **argv;		/* NULL: sleep for duration */
	double duration;
	pid_t pid;		/* held: its pid */
	int go, ex;		/* held: the gate's pipes */
	int held;
	int out_fd;		/* its stdout and stderr, or -1: record's */
};

/* Fork argv held before its exec (its pid known): CR_OK or CR_WORKLOAD. */
int cr_workload_hold(struct cr_workload *w);
/* Run it (or let the held one go) and wait: *status its exit status. */
int cr_workload_run(struct cr_workload *w, int *status);
/* A held workload that will not run: end it. */
void cr_workload_abort(struct cr_workload *w);

/* ---- record_events.c: markers, clock pairs, --events ---- */

#define CR_MARKER_MODULE	"/sys/kernel/debug/clkstat/marker"
#define CR_MARKER_TRACING	"/sys/kernel/tracing/trace_marker"

/* What record takes around a run's workload with --events. */
struct cr_run_marks {
	struct cr_clock_pair clock[2];
	struct clkstat_event_rec start, end;
};

/* Now, on the wall clock (a run's start and end). */
int64_t cr_rec_now_ns(void);
/* Can the workload of a bpf-* run write its markers to trace_marker? */
int cr_rec_tracing_markers(void);
/* $CLKSTAT_MARKER for the workload: marker, when it can be written. */
void cr_rec_marker_env(const struct cr_record_opts *o, const char *marker);
void cr_marks_begin(const struct cr_record_opts *o, struct cr_run_marks *m,
		    const char *marker);
void cr_marks_end(const struct cr_record_opts *o, struct cr_run_marks *m);
/*
 * The run's events as --events keeps them: the first N of the log, record's
 * two markers, the clock pairs; a warning when events were lost.
 */
int cr_events_finish(const struct cr_record_opts *o,
		     const struct cr_run_marks *m, struct cr_run *r,
		     unsigned int nth, int bpf);

/* ---- record_trace.c: --probes' user-defined probes ---- */

struct cr_rec_traces {
	unsigned int n;
	struct clkstat_trace_spec t[CLKSTAT_TRACE_MAX];
	const char *given[CLKSTAT_TRACE_MAX];	/* as in --probes */
	char buf[CR_PROBES_MAX];		/* --probes, split */
	int added[CLKSTAT_TRACE_MAX];		/* by record: untrace at the end */
};

int cr_rec_traces_parse(const char *list, struct cr_rec_traces *tr);
int cr_rec_traces_setup(struct cr_nl *nl, const struct cr_info *info,
			struct cr_rec_traces *tr,
			char names[][CR_VARIANT_MAX], unsigned int nv);
void cr_rec_traces_remove(struct cr_nl *nl, struct cr_rec_traces *tr);

#endif

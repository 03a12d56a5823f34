/* SPDX-License-Identifier: GPL-2.0 */
/*
 * twin_trace.h - the BPF twin's user-defined probes (twin_trace.bpf.c),
 * one BPF object per spec, run by twin.c beside its built-in probes: the
 * same start, stop and read, metrics named SPEC.VARIANT with the module's
 * trace counters.
 */
#ifndef CLKSTAT_BPF_TWIN_TRACE_H
#define CLKSTAT_BPF_TWIN_TRACE_H

#include "../lib/model.h"
#include "twin_model.h"

struct twin_trace_set;

/* What every trace object shares with the twin. */
struct twin_trace_cfg {
	enum twin_variant variant;
	unsigned int frac_bits;
	unsigned int tgid;	/* 0: every task */
	int tgid_pinned;	/* tgid is --workload-only's (twin.h) */
	int follow;		/* the module's window (twin.h) */
	unsigned int ncpus;	/* possible CPUs */
	int events_fd;		/* the twin's ring buffer, -1: no event log */
	int ev_lost_fd;		/* and its per-CPU count of lost records */
};

/*
 * Load and attach one object per spec of tr, or none: on any failure
 * print one line naming the spec and the cause, and leave nothing
 * behind.  Recording is off until twin_traces_start().
 * Return: CR_OK, CR_PERM or CR_ERR.
 */
int twin_traces_open(const struct twin_trace_cfg *cfg,
		     const struct twin_traces *tr, struct twin_trace_set **out);

/*
 * Zero histograms, counters and pending starts; a new epoch; record (with
 * cfg->follow, from the module's next start).
 */
int twin_traces_start(struct twin_trace_set *s);

/* Stop recording (calls already timed may still land, as the module's). */
void twin_traces_stop(struct twin_trace_set *s);

/*
 * Append each trace's metric to run.  Return CR_OK or CR_ERR (a map read
 * failed, out of memory), with one line.
 */
int twin_traces_read(struct twin_trace_set *s, struct cr_run *run,
		     int recording);

/* Detach and free everything; NULL is fine. */
void twin_traces_close(struct twin_trace_set *s);

#endif

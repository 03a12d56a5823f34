/* SPDX-License-Identifier: GPL-2.0 */
/*
 * twin_model.h - the BPF twin's logic that needs no kernel: which variants
 * and probes exist, which metrics a configuration has, and turning the
 * per-CPU map values read from the kernel into clkstat-report's model.
 * Unit-tested in tools/tests/twin_test.c.
 */
#ifndef CLKSTAT_BPF_TWIN_MODEL_H
#define CLKSTAT_BPF_TWIN_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include <linux/types.h>
#include "../../kmod/uapi/clkstat_buckets.h"
#include "../../kmod/shared/clkstat_trace.h"
#include "../lib/model.h"
#include "twin_shared.h"

/* Probe bits of a configuration. */
#define TWIN_P_TTWU	1U
#define TWIN_P_TKREAD	2U
#define TWIN_P_CSSWITCH	4U
#define TWIN_P_CSREAD	8U
#define TWIN_P_CLOCKOFF	16U

enum twin_variant { TV_KPROBE, TV_FENTRY, TV_TP, TV_N };

extern const char *const twin_variant_names[TV_N];
/* A metric's name, as the module's (the catalog's). */
const char *twin_metric_name(enum twin_metric m);

/* The variant's index, or -1. */
int twin_variant_parse(const char *name);

/*
 * Parse a comma list of probes for a variant into TWIN_P_* bits.  Print
 * one line and return -1 on an unknown probe, an empty list, a probe
 * the variant cannot run (bpf-tp: ttwu and clockoff only), or clockoff
 * without a probe whose events it samples at (ttwu, tkread, csswitch).
 * A word with a ':' is a user-defined probe's spec
 * (kmod/shared/clkstat_trace.h), checked as twin_probes_parse_traces()
 * does; *mask may then be 0.
 */
int twin_probes_parse(enum twin_variant v, const char *list, unsigned int *mask);

/* The user-defined probes of a probes list, canonical, in its order. */
struct twin_traces {
	unsigned int n;
	struct clkstat_trace_spec spec[CLKSTAT_TRACE_MAX];
};

/*
 * twin_probes_parse(), and the specs into *tr.  A spec is refused (one
 * line, -1) when malformed, given twice (the same canonical spec), past
 * CLKSTAT_TRACE_MAX, or of a kind the variant cannot reach: tp: only in
 * bpf-tp, func: and sec: only in bpf-fentry and bpf-kprobe.
 */
int twin_probes_parse_traces(enum twin_variant v, const char *list,
			     unsigned int *mask, struct twin_traces *tr);

/* Non-zero when metric m exists under probe mask. */
int twin_metric_enabled(unsigned int mask, unsigned int m);

/* The counter names of metric m; *n gets their number (0: none). */
const char *const *twin_counter_names(unsigned int m, unsigned int *n);

typedef TWIN_HIST(CLKSTAT_NSLOTS_MAX) twin_hist_t;

/* Bytes between two CPUs' values in a per-CPU map lookup. */
#define TWIN_HIST_STRIDE	((sizeof(twin_hist_t) + 7) & ~(size_t)7)

/*
 * The parts of total metric m (the catalog's CLKSTAT_METRIC_FAMILIES:
 * ttwu_enqueue of ttwu_enqueue_migrated and _local, ttwu_tkread of its
 * two): 1 and their indices in part[], or 0 for a metric that is no
 * twin total.  The programs record a sample once, into its part, as the
 * module does; the total's own value holds its counters only.
 */
int twin_metric_parts(unsigned int m, unsigned int part[2]);

/*
 * Add the samples of part (ncpus per-CPU values TWIN_HIST_STRIDE apart)
 * into total's: each slot's count and sum, the minimum and maximum; the
 * counters stay the total's own.  The module's read of a total.
 */
void twin_hist_add_part(void *total, const void *part, unsigned int ncpus);

/*
 * Fill m (zeroed by the caller) with metric idx of variant: ncpus values
 * TWIN_HIST_STRIDE apart, as a lookup in the per-CPU hists map returns
 * them.  The all-CPU histogram sums them; cpus[] keeps the CPUs with
 * samples; counters are summed.  Return 0 or -ENOMEM (m then freeable).
 */
int twin_fill_metric(struct cr_metric *m, unsigned int idx,
		     const char *variant, unsigned int frac_bits, int recording,
		     const void *percpu, unsigned int ncpus);

/*
 * twin_fill_metric() for a user-defined probe: metric name spec (the
 * canonical spec), its counters CLKSTAT_TRACE_COUNTERS.
 */
int twin_fill_trace_metric(struct cr_metric *m, const char *spec,
			   const char *variant, unsigned int frac_bits,
			   int recording, const void *percpu,
			   unsigned int ncpus);

/*
 * The event log (record --events N): the ring buffer's size in bytes for
 * at least n records (each with the ring buffer's 8-byte header), the
 * next power of two, at least one page.  Return 0, or -1 (nothing set)
 * when n is 0 or the size would pass TWIN_EV_RING_MAX.
 */
#define TWIN_EV_RING_MAX	(1UL << 30)
int twin_ring_size(unsigned int n, size_t page, size_t *bytes);

/*
 * Append one record from the ring buffer (size bytes at data) to x; a
 * TWIN_EV_RESET record (twin_shared.h: the module's window was reset)
 * drops every event x holds instead.  Return 0, -EINVAL for a record of
 * another size or type (a twin.bpf.c built against another
 * clkstat_events.h), -ENOMEM.
 */
int twin_event_add(struct cr_events *x, const void *data, size_t size);

/*
 * Sort x's events by ts, keeping the order of equal ones (the ring
 * buffer's, which is the order of their reservations).  0 or -ENOMEM
 * (x unchanged).
 */
int twin_events_sort(struct cr_events *x);

#endif

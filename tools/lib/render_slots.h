/* SPDX-License-Identifier: GPL-2.0 */
/*
 * render_slots.h - clkstat-report export's CSV and JSON Lines: every
 * non-empty slot of every histogram of every run, one row each, in run,
 * metric and CPU order (the all-CPU histogram first), written as they are
 * visited, so that the rows stream.  The columns, in this order:
 *
 *   run           the run's index (across the -i files, as --run counts)
 *   start_ns      the run's start, CLOCK_REALTIME ns (0: unknown)
 *   run_variant   the variant attached during the run
 *   run_tags      the run's own tags, "k=v,k=v" (JSON: an object); none
 *                 when it has none
 *   metric, variant, frac_bits  the metric
 *   cpu           the CPU; none for the histogram of all CPUs
 *   slot          the slot (kmod/uapi/clkstat_buckets.h)
 *   lower_ns, upper_ns  the slot's bounds, both inclusive
 *   count         samples in the slot
 *   sum           their sum, each shifted right by the slot's sum shift
 *
 * "None" is an empty field in CSV, null in JSON.  Counters, min and max
 * and the event logs are not rows here: the JSON export has all of them,
 * and clkstat-report events writes the events.
 */
#ifndef CLKSTAT_LIB_RENDER_SLOTS_H
#define CLKSTAT_LIB_RENDER_SLOTS_H

#include <stdio.h>
#include "model.h"

enum cr_slots_fmt { CR_SLOTS_CSV, CR_SLOTS_JSONL };

/* The header (CSV) and nothing else: rows follow. */
void cr_render_slots_head(FILE *out, enum cr_slots_fmt fmt);

/* Run r's rows.  Return CR_OK, or CR_ERR when out of memory. */
int cr_render_slots_run(FILE *out, enum cr_slots_fmt fmt,
			const struct cr_run *r);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * render_events.h - clkstat-report events: event logs (struct cr_events,
 * model.h) as rows, one per event, in text, CSV or JSON Lines, with the
 * events each log lost said after the rows (text) or on stderr (CSV,
 * JSON Lines).  The columns, in this order:
 *
 *   timestamp_ns  CLOCK_MONOTONIC
 *   realtime_ns   CLOCK_REALTIME, from the log's first clock pair; none
 *                 when it has none
 *   type          the event type's name (clkstat_catalog.h)
 *   clocksource   the text of clocksource_* events, else none
 *   cpu, pid
 *   corr          the correlation id, none when 0
 *   latency_ns    with CLKSTAT_EVF_LATENCY, else none
 *   migrated      true, false, or none (neither or both of the flags)
 *   rq_clock_ns   with CLKSTAT_EVF_RQ_CLOCK, else none
 *   text          the text of marker events, else none
 *   run           the run's index, none for the live log
 *   variant       the run's variant, none when unknown
 *
 * "None" is "-" in text, an empty field in CSV, null in JSON.  Text is
 * made valid UTF-8 (an invalid byte becomes U+FFFD: the module cuts a
 * marker at 15 bytes, which can split a character); in the text format
 * control characters become '?'.
 */
#ifndef CLKSTAT_LIB_RENDER_EVENTS_H
#define CLKSTAT_LIB_RENDER_EVENTS_H

#include <stddef.h>
#include <stdio.h>
#include "model.h"

enum cr_ev_fmt { CR_EV_TEXT, CR_EV_CSV, CR_EV_JSONL };

/* "text", "csv" or "jsonl" into *f; -1 for anything else. */
int cr_ev_fmt_parse(const char *s, enum cr_ev_fmt *f);

/* Every event type, as a mask of 1 << CLKSTAT_EV_*. */
#define CR_EV_ALL_TYPES	((1u << CLKSTAT_EV_NTYPES) - 1)

/*
 * "T[,T...]" of type names into *mask.  Return 0, or -1 with one line
 * (no newline) in err naming the bad name and the names there are.
 */
int cr_ev_types_parse(const char *s, unsigned int *mask, char *err,
		      size_t errlen);

/*
 * One event log and what the rows say of its source: a log held (ev: the
 * live one), or a recorded run's (r of snapshot snap), whose events are
 * loaded for its rows and dropped after them (cr_run_events_load()), so
 * that a study's runs are held one at a time.
 */
struct cr_ev_src {
	const struct cr_events *ev;
	const struct cr_snapshot *snap;
	struct cr_run *r;	/* when ev is NULL */
	long run;		/* -1: none (the live log) */
	const char *variant;	/* NULL: none */
	const char *clock;	/* its timestamps' clock, NULL: not known */
};

/*
 * The events of every src whose type is in types, source after source,
 * each in its own order, to out: text with a header line and one
 * trailer line per source ("# run R variant V: events N lost L", N the
 * events the log holds, rows shown or not); CSV (RFC 4180: header,
 * CRLF, quoted where needed) and JSON Lines with the lost counts on err,
 * one line per source that lost any.  The text format reads a run's
 * events twice (its columns' widths, then its rows).  Return CR_OK,
 * CR_ERR when out of memory, or cr_run_events_load()'s status.
 */
int cr_render_events(FILE *out, FILE *err, enum cr_ev_fmt fmt,
		     const struct cr_ev_src *src, size_t nsrc,
		     unsigned int types);

#endif

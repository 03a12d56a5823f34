// SPDX-License-Identifier: GPL-2.0
/*
 * events_raw - a test instrument: the module's event log through netlink
 * (cr_nl_get_events()), one line per event with every field of struct
 * clkstat_event_rec, for the guest tests that need what debugfs "events"
 * does not print (the rq clock, the flags):
 *
 *   ts_ns type cpu pid corr flags latency_ns rq_clock_ns
 *
 * (flags in decimal, CLKSTAT_EVF_*)
 *
 * in time order; "-" for a latency or rq clock the event does not have.
 * Exit status 0, or 1 with one line on stderr.
 */
#include <inttypes.h>
#include <stdio.h>
#include "../lib/model.h"
#include "../lib/nl.h"

int main(void)
{
	struct cr_events x = { 0 };
	const struct clkstat_event_rec *e;
	struct cr_info info;
	struct cr_nl *nl;
	int st;
	size_t i;

	nl = cr_nl_open(&st);
	if (!nl)
		return 1;
	st = cr_nl_get_info(nl, &info);
	if (!st)
		st = cr_nl_get_events(nl, &info, &x);
	cr_nl_close(nl);
	if (st) {
		cr_events_free(&x);
		return 1;
	}
	for (i = 0; i < x.n; i++) {
		e = &x.ev[i];
		printf("%" PRIu64 " %s %u %" PRIu32 " %" PRIu64 " %u ",
		       (uint64_t)e->ts, cr_event_type_name(e->type),
		       (unsigned int)e->cpu, (uint32_t)e->pid,
		       (uint64_t)e->corr, (unsigned int)e->flags);
		if (e->flags & CLKSTAT_EVF_LATENCY)
			printf("%" PRIu64 " ", (uint64_t)e->latency);
		else
			fputs("- ", stdout);
		if (e->flags & CLKSTAT_EVF_RQ_CLOCK)
			printf("%" PRIu64 "\n", (uint64_t)e->rq_clock);
		else
			puts("-");
	}
	cr_events_free(&x);
	return 0;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pending.h - per-task pending-event table: what a probe remembers between the
 * start of an interval (a wakeup) and its end (the enqueue), keyed by task.
 */
#ifndef _CLKSTAT_PENDING_H
#define _CLKSTAT_PENDING_H

#include <linux/atomic.h>
#include <linux/types.h>

/*
 * What is remembered of a pending event: 48 bytes, 56 with the entry's key
 * (Documentation/clkstat.rst gives the table's size from it).
 */
struct clkstat_pending_val {
	u64 ts;			/* when it happened */
	int cpu;		/* where the task was */
	unsigned int epoch;	/* clkstat_epoch at the time */
	u64 ts2;		/* a later point of the same interval, 0: none */
	bool migrated;		/* the task changed CPU on the way */
	u64 id;			/* the event log's correlation id, 0: none */
	u64 rq_clock;		/* an rq->clock of the interval, 0: none */
};

struct clkstat_pending_entry {
	atomic_long_t key;	/* owner's address, 0 free, 1 being written */
	struct clkstat_pending_val val;
};

struct clkstat_pending {
	unsigned int bits;
	struct clkstat_pending_entry *entry;
};

/* What clkstat_pending_put() found in the entry it wrote. */
enum clkstat_pending_put_result {
	CLKSTAT_PENDING_NEW,	/* the entry was free, or held another epoch */
	CLKSTAT_PENDING_REPLACED,	/* it held this key's older, unfinished event */
	CLKSTAT_PENDING_EVICTED,	/* it held another key's pending event, lost */
	CLKSTAT_PENDING_BUSY,	/* another CPU was using it; nothing written */
};

/* What clkstat_pending_take() found. */
enum clkstat_pending_take_result {
	CLKSTAT_PENDING_FOUND,
	CLKSTAT_PENDING_ABSENT,	/* no pending event for this key */
	CLKSTAT_PENDING_CONTENDED,	/* another CPU was using the entry */
};

int clkstat_pending_init(struct clkstat_pending *t, unsigned int entries);
void clkstat_pending_free(struct clkstat_pending *t);
enum clkstat_pending_put_result clkstat_pending_put(struct clkstat_pending *t,
					      const void *key,
					      const struct clkstat_pending_val *v);
enum clkstat_pending_take_result clkstat_pending_take(struct clkstat_pending *t,
						const void *key,
						struct clkstat_pending_val *v);
unsigned long clkstat_pending_pending(const struct clkstat_pending *t,
				   unsigned int epoch);

#endif /* _CLKSTAT_PENDING_H */

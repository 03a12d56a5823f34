/* SPDX-License-Identifier: GPL-2.0 */
/*
 * corr.h - per-task pending-event table: what a probe remembers between the
 * start of an interval (a wakeup) and its end (the enqueue), keyed by task.
 */
#ifndef _CLKSTAT_CORR_H
#define _CLKSTAT_CORR_H

#include <linux/atomic.h>
#include <linux/types.h>

/* What is remembered of a pending event. */
struct clkstat_corr_val {
	u64 ts;			/* when it happened */
	int cpu;		/* where the task was */
	unsigned int epoch;	/* clkstat_epoch at the time */
	u64 ts2;		/* a later point of the same interval, 0: none */
	bool migrated;		/* the task changed CPU on the way */
	u64 id;			/* the event log's correlation id, 0: none */
};

struct clkstat_corr_entry {
	atomic_long_t key;	/* owner's address, 0 free, 1 being written */
	struct clkstat_corr_val val;
};

struct clkstat_corr {
	unsigned int bits;
	struct clkstat_corr_entry *entry;
};

/* What clkstat_corr_put() found in the entry it wrote. */
enum clkstat_corr_put_result {
	CLKSTAT_CORR_NEW,	/* the entry was free, or held another epoch */
	CLKSTAT_CORR_REPLACED,	/* it held this key's older, unfinished event */
	CLKSTAT_CORR_EVICTED,	/* it held another key's pending event, lost */
	CLKSTAT_CORR_BUSY,	/* another CPU was using it; nothing written */
};

/* What clkstat_corr_take() found. */
enum clkstat_corr_take_result {
	CLKSTAT_CORR_FOUND,
	CLKSTAT_CORR_ABSENT,	/* no pending event for this key */
	CLKSTAT_CORR_CONTENDED,	/* another CPU was using the entry */
};

int clkstat_corr_init(struct clkstat_corr *t, unsigned int entries);
void clkstat_corr_free(struct clkstat_corr *t);
enum clkstat_corr_put_result clkstat_corr_put(struct clkstat_corr *t,
					      const void *key,
					      const struct clkstat_corr_val *v);
enum clkstat_corr_take_result clkstat_corr_take(struct clkstat_corr *t,
						const void *key,
						struct clkstat_corr_val *v);
unsigned long clkstat_corr_pending(const struct clkstat_corr *t,
				   unsigned int epoch);

#endif /* _CLKSTAT_CORR_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pending.h - per-task pending-event tables: what a probe remembers
 * between the start of an interval and its end, keyed by task.  Two
 * kinds: struct clkstat_pending, one event per entry (user-defined
 * probes, probe_trace.c), and struct clkstat_wake_table, the one table of
 * probes ttwu and tkread, whose entry holds both probes' state of a
 * task's wakeup (what the wakeup left open until its enqueue, ttwu's
 * part, and until the task's first clock read, tkread's part).  pending.c
 * says how they are shared.
 */
#ifndef _CLKSTAT_PENDING_H
#define _CLKSTAT_PENDING_H

#include <linux/atomic.h>
#include <linux/cache.h>
#include <linux/hash.h>
#include <linux/types.h>

/*
 * What is remembered of a pending event: 48 bytes, 56 with the entry's key
 * (Documentation/clkstat-probes.rst, "Correlation table", gives the
 * table's size from it).
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

/*
 * The wake table.  An entry's key word: CLKSTAT_WAKE_FREE,
 * CLKSTAT_WAKE_LOCKED while a CPU holds the entry, or the owner task's address ORed with the parts
 * of its wakeup still open (waiting for their end).  A task_struct is
 * aligned to a cache line (fork.c's task_struct_cachep, init_task), so
 * its address leaves the low bits free for them; an entry with no part
 * open is free.
 */
#define CLKSTAT_WAKE_FREE	0L
#define CLKSTAT_WAKE_LOCKED	1L
#define CLKSTAT_PART_TTWU	0x2L	/* ttwu: the wakeup's enqueue */
#define CLKSTAT_PART_TKREAD	0x4L	/* tkread: the task's first read */
#define CLKSTAT_PARTS		(CLKSTAT_PART_TTWU | CLKSTAT_PART_TKREAD)

/*
 * One task's pending wakeup: 64 bytes, one cache line (the table's size
 * is entries times that: Documentation/clkstat-probes.rst, "Correlation
 * table").  Every field but key
 * is written and read only by the CPU that holds the entry.
 */
struct clkstat_wake_entry {
	atomic_long_t key;	/* FREE, LOCKED, or the task | open parts */
	u64 ts;			/* clkstat_now() at the wakeup */
	u64 ts2;		/* at the enqueue (tkread's part), 0: none */
	u64 id;			/* the event log's correlation id, 0: none */
	u64 rq_clock;		/* tkread's rq clock start, 0: none */
	unsigned int epoch;	/* clkstat_epoch at the wakeup */
	int cpu;		/* the task's CPU at the wakeup */
	bool migrated;		/* tkread: the enqueue was on another CPU */
} ____cacheline_aligned;

struct clkstat_wake_table {
	unsigned int bits;
	unsigned int shift;	/* 64 - bits: hash_64()'s, computed once */
	struct clkstat_wake_entry *entry;
};

/* The one table, while probe ttwu is enabled (entry NULL otherwise). */
extern struct clkstat_wake_table clkstat_wake_pending;

int clkstat_wake_init(struct clkstat_wake_table *t, unsigned int entries);
void clkstat_wake_free(struct clkstat_wake_table *t);
unsigned long clkstat_wake_open(const struct clkstat_wake_table *t,
				unsigned int epoch, long part);

/* hash_ptr(@key, t->bits), the subtraction done at init. */
static __always_inline struct clkstat_wake_entry *
clkstat_wake_slot(struct clkstat_wake_table *t, const void *key)
{
	return &t->entry[((unsigned long)key * GOLDEN_RATIO_64) >> t->shift];
}

/*
 * Claim @e whatever it holds, with one cmpxchg.  Returns the key it held
 * (FREE, or a task and its open parts), or CLKSTAT_WAKE_LOCKED when
 * another CPU holds it: nothing was claimed then.
 */
static __always_inline long clkstat_wake_claim(struct clkstat_wake_entry *e)
{
	long old = atomic_long_read(&e->key);

	if (old == CLKSTAT_WAKE_LOCKED ||
	    !atomic_long_try_cmpxchg_acquire(&e->key, &old,
					     CLKSTAT_WAKE_LOCKED))
		return CLKSTAT_WAKE_LOCKED;
	return old;
}

/*
 * Claim @e if it holds @task's wakeup with one of @parts open, with one
 * cmpxchg; a plain read answers the other cases without taking the cache
 * line exclusive (most timekeeping reads find no wakeup of theirs open).
 * Returns the open parts when claimed, else 0 and *@busy says whether
 * another CPU held the entry.
 */
static __always_inline long clkstat_wake_claim_task(struct clkstat_wake_entry *e,
						    const void *task,
						    long parts, bool *busy)
{
	long old = atomic_long_read(&e->key);

	*busy = old == CLKSTAT_WAKE_LOCKED;
	if ((old & ~CLKSTAT_PARTS) != (long)task || !(old & parts))
		return 0;
	if (atomic_long_try_cmpxchg_acquire(&e->key, &old,
					    CLKSTAT_WAKE_LOCKED))
		return old & CLKSTAT_PARTS;
	*busy = old == CLKSTAT_WAKE_LOCKED;
	return 0;
}

/*
 * Let @e go with a plain release store: @task's with @open still open,
 * or free when nothing is.
 */
static __always_inline void clkstat_wake_release(struct clkstat_wake_entry *e,
						 const void *task, long open)
{
	atomic_long_set_release(&e->key, open ? (long)task | open :
					 CLKSTAT_WAKE_FREE);
}

#endif /* _CLKSTAT_PENDING_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * evlog.h - the optional event log: a per-CPU ring of raw events (events=N
 * entries per CPU), read oldest first through debugfs "events".
 */
#ifndef _CLKSTAT_EVLOG_H
#define _CLKSTAT_EVLOG_H

#include <linux/jump_label.h>
#include <linux/types.h>
#include "uapi/clkstat_events.h"

#define CLKSTAT_EVENTS_MAX	(1U << 20)

/* A ring slot: the record and the sequence that says it is complete. */
struct clkstat_event {
	u64 seq;		/* 2 * (index + 1) once written, odd while */
	struct clkstat_event_rec r;
};

/*
 * What a reader holds (the copy clkstat_evlog_open() returns): the complete
 * events of every ring, sorted.
 */
struct clkstat_evview {
	size_t n;
	u64 overwritten;		/* lost to a full ring, since reset */
	struct clkstat_event ev[];
};

int clkstat_evlog_init(unsigned int entries);
void clkstat_evlog_exit(void);

/* Enabled by clkstat_evlog_init() when there is a log (events > 0). */
DECLARE_STATIC_KEY_FALSE(clkstat_evlog_key);

/*
 * Is there an event log?  A static key: a handler pays a jump, patched
 * to a nop while there is no log.
 */
static __always_inline bool clkstat_evlog_on(void)
{
	return static_branch_unlikely(&clkstat_evlog_key);
}

unsigned int clkstat_evlog_entries(void);
u64 clkstat_evlog_new_id(void);
void clkstat_evlog_add(const struct clkstat_event_rec *rec, const char *text);
void clkstat_evlog_reset(void);

const char *clkstat_evlog_type_name(unsigned int type);
int clkstat_evlog_open(void **priv);
void clkstat_evlog_release(void *priv);
/* Prints a copy from clkstat_evlog_open(), set as the seq_file's private. */
extern const struct seq_operations clkstat_evlog_seq_ops;

#endif /* _CLKSTAT_EVLOG_H */

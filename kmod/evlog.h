/* SPDX-License-Identifier: GPL-2.0 */
/*
 * evlog.h - the optional event log: a per-CPU ring of raw events (events=N
 * entries per CPU), read oldest first through debugfs "events".
 */
#ifndef _CLKSTAT_EVLOG_H
#define _CLKSTAT_EVLOG_H

#include <linux/types.h>

enum clkstat_event_type {
	CLKSTAT_EV_WAKEUP,
	CLKSTAT_EV_ENQUEUE,
	CLKSTAT_EV_FIRST_TKREAD,
	CLKSTAT_EV_CS_SWITCH_ENTRY,
	CLKSTAT_EV_CS_SWITCH_EXIT,
	CLKSTAT_EV_CS_READ,
	CLKSTAT_EV_MARKER,
	CLKSTAT_EV_NTYPES
};

#define CLKSTAT_EVENT_TEXT	16	/* bytes of text kept, NUL included */
#define CLKSTAT_EVENTS_MAX	(1U << 20)

struct clkstat_event {
	u64 seq;		/* 2 * (index + 1) once written, odd while */
	u64 ts;			/* clkstat_now() */
	u64 corr;		/* correlation id, 0: none */
	u64 latency;		/* ns, for an event that closes an interval */
	u32 pid;
	u16 cpu;
	u8 type;		/* enum clkstat_event_type */
	u8 has_latency;
	char text[CLKSTAT_EVENT_TEXT];	/* clocksource name, marker text */
};

/*
 * What a reader holds (the copy clkstat_evlog_open() returns): the complete
 * events of every ring, sorted.
 */
struct clkstat_evview {
	size_t n;
	u64 overwritten;		/* events lost to a full ring */
	struct clkstat_event ev[];
};

int clkstat_evlog_init(unsigned int entries);
void clkstat_evlog_exit(void);
bool clkstat_evlog_on(void);
unsigned int clkstat_evlog_entries(void);
u64 clkstat_evlog_new_id(void);
void clkstat_evlog_add(enum clkstat_event_type type, u64 ts, u64 corr,
		       u32 pid, const u64 *latency, const char *text);

const char *clkstat_evlog_type_name(unsigned int type);
int clkstat_evlog_open(void **priv);
void clkstat_evlog_release(void *priv);
/* Prints a copy from clkstat_evlog_open(), set as the seq_file's private. */
extern const struct seq_operations clkstat_evlog_seq_ops;

#endif /* _CLKSTAT_EVLOG_H */

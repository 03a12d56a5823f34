/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record_cond.h - record's conditions: --cstates, --load and --governors,
 * alternated as the variants are (record_cond.c and record_gov.c say how
 * each is held and restored; Documentation/clkstat-recording.rst,
 * "Conditions").
 */
#ifndef CLKSTAT_REPORT_RECORD_COND_H
#define CLKSTAT_REPORT_RECORD_COND_H

#include <sys/types.h>
#include "../lib/cpufreq.h"
#include "../lib/model.h"
#include "cli.h"

#define CR_COND_MAX	16	/* items of --cstates, --load, --governors */
#define CR_COND_NAME	24

/* One --cstates item: "free" (qos_us -1) or "qosN" (a PM QoS request). */
struct cr_cstate {
	char name[CR_COND_NAME];
	int qos_us;
};

/* One --load item: "idle" (busy 0), "busy" or "busy:N" (N spinners). */
struct cr_load {
	char name[CR_COND_NAME];
	unsigned int busy;
};

/*
 * The conditions given: condition k of nc = ncs * nld * ngov is cstate
 * k % ncs, load (k / ncs) % nld and governor (k / (ncs * nld)) % ngov;
 * without --cstates (--load, --governors) ncs (nld, ngov) is 1, an item
 * that changes nothing and is not tagged.
 */
struct cr_conds {
	unsigned int ncs, nld, ngov;
	int have_cs, have_ld, have_gov;
	struct cr_cstate cs[CR_COND_MAX];
	struct cr_load ld[CR_COND_MAX];
	char gov[CR_COND_MAX][CR_GOV_NAME];	/* cpufreq governors */
};

/* What a condition holds during a run, for cr_cond_leave(). */
struct cr_cond_hold {
	int qos_fd;		/* /dev/cpu_dma_latency, -1: none */
	unsigned int nspin;
	pid_t *spin;		/* the spinners, each pinned to one CPU */
};

/* The options, for main.c. */
extern const struct cr_optset cr_record_cond_opts;

/* The conditions of the command line (record's); NULL-free. */
const struct cr_conds *cr_record_conds(void);
/* How many conditions: ncs * nld * ngov (1 without any). */
unsigned int cr_conds_n(const struct cr_conds *c);
/*
 * Meta "conditions" of a recording, e.g. "cstates=qos0,free
 * load=idle,busy(4) governors=performance,powersave" (busy's spinner
 * count resolved); NULL without conditions or out of memory (*oom set).
 */
char *cr_conds_describe(const struct cr_conds *c, int *oom);
/* ", cstate qos0, load busy:4, governor performance" of condition k. */
void cr_conds_label(const struct cr_conds *c, unsigned int k, char *buf,
		    size_t len);
/* Tag run r with condition k ("cstate", "load", "governor"); 0, -ENOMEM. */
int cr_conds_tag(const struct cr_conds *c, unsigned int k, struct cr_run *r);
/*
 * Enter condition k: set the governor, start the load, then the PM QoS
 * request.  On failure one line on stderr, the load and the request
 * undone (the governors come back at record's end), CR_ERR.
 */
int cr_cond_enter(const struct cr_conds *c, unsigned int k,
		  struct cr_cond_hold *h);
/*
 * Leave it: kill and reap the spinners, drop the request.  The governor
 * stays until the next run sets its own, or record's end gives the
 * machine's back (record_gov.c).
 */
void cr_cond_leave(struct cr_cond_hold *h);
/* Check the conditions against the other options (--tag): CR_OK/CR_USAGE. */
int cr_conds_check(const struct cr_meta *tags);

#endif

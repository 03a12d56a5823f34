/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nl.h - clkstat-report's side of the "clkstat" generic netlink family
 * (kmod/uapi/clkstat_netlink_ext.h), through libnl-genl-3.  Every function
 * prints one line on stderr when it fails and returns an exit status
 * (status.h).
 */
#ifndef CLKSTAT_REPORT_NL_H
#define CLKSTAT_REPORT_NL_H

#include <stdint.h>
#include <stdio.h>
#include <netlink/handlers.h>
#include "../../kmod/shared/clkstat_trace.h"
#include "model.h"
#include "status.h"

struct cr_nl;

/* GET_INFO's answer.  Strings are empty when the module left them out. */
struct cr_info {
	char version[32];
	unsigned int abi;
	unsigned int frac_bits;
	char probes[128];
	char variant[CR_VARIANT_MAX];
	char clocksource[32];
	/* The clock of the module's timestamps: "tsc", "mono", ... */
	char clock[80];
	unsigned int nr_cpus;
	int recording;
	uint64_t switches;
	/* Handlers entered from inside clkstat, skipped; -1: not sent. */
	int64_t reentered;
	unsigned int tgid;
	int have_ev_entries;		/* the module sent ev_entries */
	unsigned int ev_entries;	/* events= per CPU, 0: no event log */
	/* The user-defined probes (trace add), as the module numbers them. */
	unsigned int trace_limit;	/* at most this many; 0: not sent */
	unsigned int ntraces;
	struct cr_trace_info {
		unsigned int id;	/* the events' corr */
		char spec[CR_NAME_MAX];	/* canonical: the metric's name */
	} traces[CLKSTAT_TRACE_MAX];
};

/*
 * Where the functions below put their one line on failure: stderr (the
 * default, len 0), or buf (the last line, without its newline; emptied
 * here) for a caller that says it once itself (serve: once per change,
 * not once per scrape).
 */
void cr_nl_capture(char *buf, size_t len);
/* Connect and resolve the family; on failure print one line, return NULL. */
struct cr_nl *cr_nl_open(int *status);
void cr_nl_close(struct cr_nl *nl);

/* GET_INFO; checks the ABI version (CR_ABI on a mismatch). */
int cr_nl_get_info(struct cr_nl *nl, struct cr_info *info);

/* The GET_HIST dump into out (zeroed by the caller), metric by metric. */
int cr_nl_get_hist(struct cr_nl *nl, struct cr_run *out);

/*
 * CTRL.  op: start, stop, reset (arg: metric or NULL), tgid (arg: number),
 * variant (arg: name), trace and untrace (arg: a spec, clkstat_trace.h).
 * A refusal's line is "clkstat-report: ctrl OP ARG: REASON", REASON the
 * module's own (its extended ACK message) when it sent one.
 */
int cr_nl_ctrl(struct cr_nl *nl, const char *op, const char *arg);

/*
 * trace (add non-zero) or untrace spec, checked first with
 * clkstat_trace_parse() (a bad spec: the catalog's text, CR_USAGE,
 * nothing sent).  A refusal prints "clkstat-report: WHAT: REASON", REASON
 * the module's (its extended ACK message), WHAT "trace add SPEC" (or
 * "trace del SPEC") when what is NULL; it returns CR_ERR (CR_PERM for
 * EPERM).
 */
int cr_nl_trace(struct cr_nl *nl, int add, const char *spec,
		const char *what);

/*
 * The event log dump (GET_EVENTS) appended to out (present set, the rings'
 * overwritten count added to lost).  info is the module's GET_INFO: CR_ERR
 * with a line saying so when it has no event log (events=0).
 */
int cr_nl_get_events(struct cr_nl *nl, const struct cr_info *info,
		     struct cr_events *out);

/* For the request files: a request of cmd, and sending it. */
struct nl_msg *cr_nl_msg(struct cr_nl *nl, int cmd, int flags);
/*
 * Send msg (freed; NULL: out of memory) and run cb over every reply until
 * the ack or the dump's end.  what names the request in error lines.
 */
int cr_nl_transact(struct cr_nl *nl, struct nl_msg *msg,
		   nl_recvmsg_msg_cb_t cb, void *arg, const char *what);

#endif

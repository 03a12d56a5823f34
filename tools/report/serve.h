/* SPDX-License-Identifier: GPL-2.0 */
/*
 * serve.h - the parts of clkstat-report serve, the exporter: where the
 * metrics come from (serve_source.c), the exposition cached for
 * concurrent scrapes (serve_cache.c), the HTTP server (serve_http.c) with
 * its front door (serve_door.c), and
 * the command with its textfile mode (cmd_serve.c).
 */
#ifndef CLKSTAT_REPORT_SERVE_H
#define CLKSTAT_REPORT_SERVE_H

#include <pthread.h>
#include <stddef.h>
#include "../lib/model.h"
#include "../lib/snapshot.h"

/*
 * Where the metrics come from: the live module over netlink, reopened
 * after any failure (the module unloaded, reloaded with a new family
 * id, ...), or a snapshot replayed (--input).
 */
struct cr_source {
	struct cr_nl *nl;		/* live: NULL until opened, or after a failure */
	int replay;			/* --input */
	struct cr_snapshot snap;	/* replay: the runs */
	struct cr_run all;		/* replay: every run pooled, once */
	double interval;		/* replay: s per run, 0: every run at once */
	int64_t t0_ns;			/* replay: CLOCK_REALTIME of the start */
	int64_t mono0_ns;		/* replay: CLOCK_MONOTONIC of the start */
	int up;				/* the last read's outcome: 1 ok, 0 not, -1 none yet */
	char why[256];			/* why the last read failed */
};

/*
 * Open the source: live, or replay snapshot (taken over; zeroed) at
 * interval seconds per run, its runs pooled now (runs that cannot be
 * pooled are said now, not at each scrape).  Nothing is read from the
 * module yet.  Return CR_OK, or a status with one line said (the source
 * then freed).
 */
int cr_source_init(struct cr_source *s, struct cr_snapshot *snap,
		   double interval);
void cr_source_free(struct cr_source *s);

/*
 * The metrics now, into out (zeroed by the caller, freed by the caller
 * with cr_run_free() whatever the outcome), and the render options'
 * labels and CPU count for them.  Return CR_OK, or a status with s->why
 * set; a change between up and down is said on stderr, once.
 */
int cr_source_read(struct cr_source *s, struct cr_run *out);

/*
 * The cache between the source and the scrapes: an exposition of each
 * format, kept for max_age_ms, so that a thousand scrapes at once read
 * the module once and share one body.  Bodies are reference counted:
 * one that a slow client still reads outlives its replacement.
 */
struct cr_body {
	unsigned int refs;		/* under the cache's lock */
	int status;			/* HTTP status: 200, or 503 */
	size_t len;
	char *data;
};

struct cr_cache {
	pthread_mutex_t lock;
	struct cr_source *src;
	unsigned int max_age_ms;
	struct {
		struct cr_body *body;
		int64_t at_ns;		/* CLOCK_MONOTONIC of its making */
	} fmt[2];			/* [0] OpenMetrics, [1] Prometheus text */
};

void cr_cache_init(struct cr_cache *c, struct cr_source *src,
		   unsigned int max_age_ms);
void cr_cache_free(struct cr_cache *c);
/*
 * The current body of a format (1: Prometheus text), a reference the
 * caller puts with cr_body_put(); NULL when out of memory.
 */
struct cr_body *cr_cache_get(struct cr_cache *c, int prometheus_text);
void cr_body_put(struct cr_cache *c, struct cr_body *b);

/*
 * The front door (serve_door.c): accepts on the listening socket and hands
 * the library each connection whose first line is an HTTP request line,
 * at most max_conn at once (with those the library holds); answers the
 * others.  cr_door_closed(): the library closed one of them.
 */
struct cr_door;
struct MHD_Daemon;
struct cr_door *cr_door_open(int lfd, unsigned int max_conn,
			     unsigned int timeout_s);
int cr_door_start(struct cr_door *dr, struct MHD_Daemon *d);
void cr_door_closed(struct cr_door *dr);
void cr_door_stop(struct cr_door *dr);
void cr_door_free(struct cr_door *dr);

/* The HTTP server (libmicrohttpd) on a listening socket, through the door. */
struct cr_http;
struct cr_http *cr_http_start(int fd, struct cr_cache *cache,
			      unsigned int max_conn, unsigned int timeout_s);
void cr_http_stop(struct cr_http *h);

/*
 * --listen ADDR:PORT ("127.0.0.1:9736", "[::1]:9736"; ":9736" for every
 * address, IPv6 and IPv4, or IPv4 alone on a host without IPv6): a
 * listening socket, or -1 with one line on stderr.  A name binds one
 * address, its first that this host can bind ("localhost": ::1, or
 * 127.0.0.1 without IPv6), not all of them: the caller says which
 * (getsockname()).  *usage is set when the address is malformed or the
 * name unknown (not when it cannot be bound).
 */
int cr_serve_listen(const char *spec, int *usage);

#endif

// SPDX-License-Identifier: GPL-2.0
/*
 * overhead_handshake.c - clkstat-report overhead, userspace handshake points:
 * what a program pays per event to mark a point of its own for the
 * tracer.  A write to clkstat's debugfs marker (needs clkstat.ko with the
 * marker probe and its event log), a write to tracing's trace_marker, a
 * BPF uprobe on an empty function; as baselines the empty call itself
 * and a write to /dev/null (the syscall without a tracer behind it).
 * Each row is N events in a loop, timed as a whole with CLOCK_MONOTONIC.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include "overhead.h"
#include "../lib/status.h"

#define CR_OVH_MARKER	"/sys/kernel/debug/clkstat/marker"

static const char *const cr_ovh_tracefs[] = {
	"/sys/kernel/tracing", "/sys/kernel/debug/tracing",
};

/* N writes of a short text; the ns per write, or negative on an error. */
static double cr_ovh_writes(const char *path, unsigned long n, int *err)
{
	static const char text[] = "clkstat-ovh\n";
	unsigned long i;
	double t0, t1;
	int fd;

	fd = open(path, O_WRONLY);
	if (fd < 0) {
		*err = errno;
		return -1;
	}
	/* Warm up: the first write pays for faults and, in TCG, translation. */
	if (write(fd, text, sizeof(text) - 1) != sizeof(text) - 1) {
		*err = errno;
		close(fd);
		return -1;
	}
	t0 = cr_ovh_now_s();
	for (i = 0; i < n; i++) {
		if (write(fd, text, sizeof(text) - 1) != sizeof(text) - 1) {
			*err = errno;
			close(fd);
			return -1;
		}
	}
	t1 = cr_ovh_now_s();
	close(fd);
	return (t1 - t0) * 1e9 / n;
}

/* Calls n + 1 times: the first, a warm-up, is not timed. */
static double cr_ovh_calls(unsigned long n)
{
	unsigned long i;
	double t0;

	/* Warm up, as for the writes (a uprobe's first hit included). */
	cr_ovh_uprobe_target();
	t0 = cr_ovh_now_s();
	for (i = 0; i < n; i++)
		cr_ovh_uprobe_target();
	return (cr_ovh_now_s() - t0) * 1e9 / n;
}

static struct cr_ovh_hs_row *cr_ovh_hs_add(struct cr_ovh_result *r,
					   const char *name, unsigned long n)
{
	struct cr_ovh_hs_row *h = &r->hs[r->nhs++];

	*h = (struct cr_ovh_hs_row){ .name = name, .ns = -1, .events = n };
	return h;
}

/* trace_marker writes need the ring buffer on: turn it on for them. */
static void cr_ovh_trace_marker(struct cr_ovh_result *r, unsigned long n)
{
	struct cr_ovh_hs_row *h = cr_ovh_hs_add(r, "trace_marker write", n);
	char path[96], on[96], was = '1';
	unsigned int i;
	int fd, err = 0;

	h->note = "tracefs not mounted";
	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/trace_marker",
			 cr_ovh_tracefs[i]);
		snprintf(on, sizeof(on), "%s/tracing_on", cr_ovh_tracefs[i]);
		if (!access(path, W_OK))
			break;
	}
	if (i == 2)
		return;
	fd = open(on, O_RDWR);
	if (fd >= 0 && read(fd, &was, 1) == 1 && was == '0' &&
	    pwrite(fd, "1", 1, 0) != 1)
		was = '1';
	h->ns = cr_ovh_writes(path, n, &err);
	h->note = h->ns < 0 ? strerror(err) : NULL;
	if (fd >= 0) {
		if (was == '0' && pwrite(fd, "0", 1, 0) != 1)
			h->note = "could not turn tracing_on back off";
		close(fd);
	}
}

int cr_ovh_handshake(const struct cr_ovh_opts *o, struct cr_ovh_bpf *b,
		     struct cr_ovh_result *r)
{
	unsigned long n = o->hs_calls;
	struct cr_ovh_hs_row *h;
	int64_t b0, b1;
	int err = 0, st;

	cr_ovh_clocksource(r->hs_cs, sizeof(r->hs_cs));
	h = cr_ovh_hs_add(r, "empty call", n);
	h->ns = cr_ovh_calls(n);
	h = cr_ovh_hs_add(r, "write /dev/null", n);
	h->ns = cr_ovh_writes("/dev/null", n, &err);
	h = cr_ovh_hs_add(r, "clkstat marker write", n);
	if (access(CR_OVH_MARKER, W_OK)) {
		h->note = "no marker: load clkstat.ko with probes=...,marker events=N";
	} else {
		h->ns = cr_ovh_writes(CR_OVH_MARKER, n, &err);
		h->note = h->ns < 0 ? strerror(err) : NULL;
	}
	cr_ovh_trace_marker(r, n);

	h = cr_ovh_hs_add(r, "uprobe (BPF) on empty call", n);
	st = cr_ovh_bpf_attach(b, "uprobe");
	if (st)
		return st;
	b0 = cr_ovh_bpf_hits(b);
	h->ns = cr_ovh_calls(n);
	b1 = cr_ovh_bpf_hits(b);
	cr_ovh_bpf_detach(b);
	if (b0 < 0 || b1 < 0 || (unsigned long)(b1 - b0) != n + 1) {
		fprintf(stderr, "clkstat-report: overhead: uprobe: the BPF program ran %lld times for %lu calls\n",
			(long long)(b1 - b0), n + 1);
		return CR_ERR;
	}
	return CR_OK;
}

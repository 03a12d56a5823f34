// SPDX-License-Identifier: GPL-2.0
/*
 * overhead_handlers.c - clkstat-report overhead's handlers section: what
 * each of the BPF twin's programs costs per run on real wakeups, in the
 * terms of clkstat.ko's handler figures (the dispatch section's pair and
 * triple rows, which clkstat_hookbench times around direct calls of the
 * module's handlers: no hook, no statistics).
 *
 * A BPF program's cost is what the kernel's run-time statistics say
 * (bpf_enable_stats(BPF_STATS_RUN_TIME): run_time_ns / run_cnt), less the
 * floor: the cost per run of an empty program of the same attach type on
 * the wakeup hook (overhead_floor.bpf.c), attached beside the twin, which
 * carries the statistics' own clock reads and the call into the program.
 * The workload is a ping-pong of two SCHED_BATCH threads of this process
 * over two pipes, each reading CLOCK_MONOTONIC through the syscall right
 * after its wakeup.  Runs: each twin variant with ttwu alone (the pair)
 * and with ttwu,tkread (the triple: the pair and the first read's
 * program, cr_ovh_hd_first_read()); bpf-tp has ttwu only.
 *
 * Why the floor, why SCHED_BATCH, and how to read the figures:
 * Documentation/clkstat-overhead.rst, "The handlers table".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "../../kmod/uapi/clkstat_catalog.h"
#include "../bpf/twin.h"
#include "../lib/nl.h"
#include "../lib/status.h"
#include "overhead.h"
#include "overhead_floor.skel.h"

static const struct {
	const char *variant, *probes;
} cr_ovh_hd_runs[CR_OVH_HD_RUNS] = {
	{ CLKSTAT_VNAME(BPF_FENTRY), "ttwu" },
	{ CLKSTAT_VNAME(BPF_FENTRY), "ttwu,tkread" },
	{ CLKSTAT_VNAME(BPF_KPROBE), "ttwu" },
	{ CLKSTAT_VNAME(BPF_KPROBE), "ttwu,tkread" },
	{ CLKSTAT_VNAME(BPF_TP), "ttwu" },
};

struct cr_ovh_pp {
	int ab[2], ba[2];
	unsigned long rounds;
};

/* B: woken by A's byte, reads the clock, wakes A. */
static void *cr_ovh_pp_b(void *arg)
{
	struct cr_ovh_pp *pp = arg;
	struct timespec ts;
	unsigned long i;
	char c;

	for (i = 0; i < pp->rounds; i++) {
		if (read(pp->ab[0], &c, 1) != 1)
			break;
		syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts);
		if (write(pp->ba[1], &c, 1) != 1)
			break;
	}
	return NULL;
}

/* The workload: @rounds round trips; CR_OK or CR_ERR. */
static int cr_ovh_pingpong(unsigned long rounds)
{
	struct cr_ovh_pp pp = { .rounds = rounds };
	struct sched_param sp = { 0 }, sp0;
	int policy = sched_getscheduler(0);
	int st = CR_ERR, err = 0;
	struct timespec ts;
	unsigned long i;
	pthread_t b;
	char c = 'x';

	if (policy < 0 || sched_getparam(0, &sp0) ||
	    sched_setscheduler(0, SCHED_BATCH, &sp)) {
		fprintf(stderr, "clkstat-report: overhead: handlers: cannot run as SCHED_BATCH: %s\n",
			strerror(errno));
		return CR_ERR;
	}
	if (pipe(pp.ab))
		goto policy;
	if (pipe(pp.ba))
		goto close_ab;
	err = pthread_create(&b, NULL, cr_ovh_pp_b, &pp);
	if (err) {
		fprintf(stderr, "clkstat-report: overhead: handlers: cannot start the ping-pong's thread: %s\n",
			strerror(err));
		goto close_ba;
	}
	for (i = 0; i < rounds; i++) {
		if (write(pp.ab[1], &c, 1) != 1 ||
		    read(pp.ba[0], &c, 1) != 1) {
			err = errno;
			break;
		}
		syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts);
	}
	/* B ends at its last round, or at the EOF of A's pipe on a failure. */
	close(pp.ab[1]);
	pp.ab[1] = -1;
	pthread_join(b, NULL);
	if (i == rounds)
		st = CR_OK;
	else
		fprintf(stderr, "clkstat-report: overhead: handlers: the ping-pong stopped at round %lu: %s\n",
			i, err ? strerror(err) : "end of file");
close_ba:
	close(pp.ba[0]);
	close(pp.ba[1]);
close_ab:
	close(pp.ab[0]);
	if (pp.ab[1] >= 0)
		close(pp.ab[1]);
policy:
	/* B inherited SCHED_BATCH and is gone; this thread gets its own back. */
	sched_setscheduler(0, policy, &sp0);
	return st;
}

/* The floor program of a variant's attach type. */
static struct bpf_program *cr_ovh_floor_prog(struct overhead_floor_bpf *fl,
					     const char *variant)
{
	if (!strcmp(variant, CLKSTAT_VNAME(BPF_FENTRY)))
		return fl->progs.floor_fentry;
	if (!strcmp(variant, CLKSTAT_VNAME(BPF_KPROBE)))
		return fl->progs.floor_kprobe;
	return fl->progs.floor_tp;
}

static int cr_ovh_prog_info(struct bpf_program *p, struct bpf_prog_info *info)
{
	uint32_t len = sizeof(*info);

	memset(info, 0, sizeof(*info));
	return bpf_obj_get_info_by_fd(bpf_program__fd(p), info, &len) ?
	       CR_ERR : CR_OK;
}

/*
 * The program that closes a wakeup's interval at its first read: of
 * tkread's programs that ran at least once for every other wakeup, the
 * dearest (the others found nothing open).  Which function that is
 * depends on the kernel: __x64_sys_clock_gettime() on 6.1 and 6.12; on
 * 7.3 the woken thread calls ktime_get() before it returns to user space.
 */
static const struct cr_ovh_hd_prog *
cr_ovh_hd_first_read(const struct cr_ovh_hd_run *h, uint64_t wakeups)
{
	const struct cr_ovh_hd_prog *best = NULL, *p;
	unsigned int i;

	for (i = 0; i < h->nprogs; i++) {
		p = &h->progs[i];
		if (strcmp(p->role, "read") || p->runs * 2 < wakeups)
			continue;
		if (!best || p->body > best->body)
			best = p;
	}
	return best;
}

/* The bodies of a run: each program's cost per run minus the floor. */
static void cr_ovh_hd_bodies(struct cr_ovh_hd_run *h,
			     const struct cr_twin_prog_stat *s0,
			     const struct cr_twin_prog_stat *s1, unsigned int n)
{
	double wakeup = NAN, enqueue = NAN;
	const struct cr_ovh_hd_prog *first;
	struct cr_ovh_hd_prog *p;
	uint64_t runs, wakeups = 0;
	unsigned int i;

	for (i = 0; i < n && h->nprogs < CR_OVH_HD_PROGS; i++) {
		runs = s1[i].runs - s0[i].runs;
		if (!runs)
			continue;
		p = &h->progs[h->nprogs++];
		p->prog = s1[i].prog;
		p->role = s1[i].role;
		snprintf(p->target, sizeof(p->target), "%s", s1[i].target);
		p->runs = runs;
		p->per_run = (double)(s1[i].run_ns - s0[i].run_ns) / runs;
		p->body = p->per_run - h->floor;
		if (!strcmp(p->role, "wakeup")) {
			wakeup = p->body;
			wakeups = p->runs;
		} else if (!strcmp(p->role, "enqueue")) {
			enqueue = p->body;
		}
	}
	h->pair = h->triple = NAN;
	if (!strcmp(h->probes, "ttwu")) {
		h->pair = wakeup + enqueue;
		return;
	}
	first = cr_ovh_hd_first_read(h, wakeups);
	if (first) {
		h->first_read = first->prog;
		h->triple = wakeup + enqueue + first->body;
	}
}

/*
 * One run: the twin (variant, probes) and the floor attached, recording,
 * around the ping-pong; the statistics taken before and after it.
 */
static int cr_ovh_hd_one(const struct cr_ovh_opts *o,
			 struct overhead_floor_bpf *fl, unsigned int frac_bits,
			 struct cr_ovh_hd_run *h)
{
	struct cr_twin_cfg cfg = { .variant = h->variant,
				   .probes = h->probes,
				   .frac_bits = frac_bits };
	struct cr_twin_prog_stat s0[CR_OVH_HD_PROGS], s1[CR_OVH_HD_PROGS];
	struct bpf_program *fp = cr_ovh_floor_prog(fl, h->variant);
	struct bpf_prog_info f0, f1;
	struct bpf_link *link = NULL;
	struct cr_twin *t = NULL;
	unsigned int n0, n1;
	int st;

	if (cr_twin_open(&cfg, &t)) {
		h->note = "the BPF twin refused it (see above)";
		return CR_OK;
	}
	link = bpf_program__attach(fp);
	if (!link) {
		fprintf(stderr, "clkstat-report: overhead: handlers: cannot attach %s (%s)\n",
			bpf_program__name(fp), strerror(errno));
		st = CR_ERR;
		goto out;
	}
	st = cr_twin_start(t);
	if (!st)
		st = cr_twin_prog_stats(t, s0, CR_OVH_HD_PROGS, &n0);
	if (!st)
		st = cr_ovh_prog_info(fp, &f0);
	if (!st)
		st = cr_ovh_pingpong(o->hd_rounds);
	if (!st)
		st = cr_twin_prog_stats(t, s1, CR_OVH_HD_PROGS, &n1);
	if (!st)
		st = cr_ovh_prog_info(fp, &f1);
	if (!st && (n0 != n1 || f1.run_cnt == f0.run_cnt)) {
		fprintf(stderr, "clkstat-report: overhead: handlers: %s: %s\n",
			h->variant, n0 != n1 ? "the programs changed" :
			"the floor program never ran (are BPF statistics on?)");
		st = CR_ERR;
	}
	if (!st) {
		h->floor_runs = f1.run_cnt - f0.run_cnt;
		h->floor = (double)(f1.run_time_ns - f0.run_time_ns) /
			   h->floor_runs;
		cr_ovh_hd_bodies(h, s0, s1, n1);
	}
	cr_twin_stop(t);
out:
	bpf_link__destroy(link);
	cr_twin_close(t);
	return st;
}

/*
 * clkstat.ko's pair and triple, as the dispatch section measures them
 * (each minus its baseline, per call), when clkstat_hookbench.ko is
 * loaded and has those run modes; else a note.
 */
static void cr_ovh_hd_module(const struct cr_ovh_opts *o,
			     struct cr_ovh_result *r)
{
	static const char *const modes[] = { "pair0", "pair", "triple0",
					     "triple" };
	uint64_t ns[4], hits;
	unsigned int i;
	int cpu;

	r->hd_mod_pair = r->hd_mod_triple = NAN;
	if (access(CR_OVH_HB_DIR "/run", W_OK)) {
		r->hd_mod_note = "clkstat_hookbench.ko is not loaded";
		return;
	}
	cr_ovh_hb_attach("none");
	for (i = 0; i < 4; i++) {
		if (cr_ovh_hb_run(modes[i], o->calls, &ns[i], &hits, &cpu) ||
		    (i % 2 && hits != o->calls)) {
			r->hd_mod_note = "clkstat_hookbench.ko's pair or triple failed (see above)";
			return;
		}
	}
	r->hd_mod_pair = ((double)ns[1] - ns[0]) / o->calls;
	r->hd_mod_triple = ((double)ns[3] - ns[2]) / o->calls;
}

int cr_ovh_handlers(const struct cr_ovh_opts *o, struct cr_ovh_result *r)
{
	struct overhead_floor_bpf *fl = NULL;
	struct cr_info info;
	struct cr_nl *nl;
	unsigned int i;
	int st, st2, stats_fd = -1;

	nl = cr_nl_open(&st);
	if (!nl)
		return st;
	st = cr_nl_get_info(nl, &info);
	if (st)
		goto out;
	cr_ovh_clocksource(r->hd_cs, sizeof(r->hd_cs));
	/* The module's figures first, while it is as it was found. */
	cr_ovh_hd_module(o, r);
	stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	if (stats_fd < 0) {
		fprintf(stderr, "clkstat-report: overhead: handlers: cannot turn BPF run-time statistics on (%s)\n",
			strerror(-stats_fd));
		st = stats_fd == -EPERM ? CR_PERM : CR_ERR;
		goto out;
	}
	fl = overhead_floor_bpf__open_and_load();
	if (!fl) {
		fprintf(stderr, "clkstat-report: overhead: handlers: cannot load the empty programs (%s)\n",
			strerror(errno));
		st = CR_ERR;
		goto out;
	}
	/* The twin hooks what clkstat.ko's variants hook: the module off. */
	st = cr_nl_ctrl(nl, "variant", "off");
	for (i = 0; !st && i < CR_OVH_HD_RUNS; i++) {
		r->hd[i] = (struct cr_ovh_hd_run){
			.variant = cr_ovh_hd_runs[i].variant,
			.probes = cr_ovh_hd_runs[i].probes,
			.pair = NAN, .triple = NAN };
		r->nhd = i + 1;
		st = cr_ovh_hd_one(o, fl, info.frac_bits, &r->hd[i]);
	}
	/* Back to the variant and recording state found. */
	st2 = cr_nl_ctrl(nl, "variant", info.variant);
	if (!st2 && info.recording)
		st2 = cr_nl_ctrl(nl, "start", NULL);
	if (!st)
		st = st2;
out:
	overhead_floor_bpf__destroy(fl);
	if (stats_fd >= 0)
		close(stats_fd);
	cr_nl_close(nl);
	return st;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * overhead.c - clkstat-report overhead: the checks, the sections in turn
 * (overhead_*.c), and the dispatch section: clkstat_hookbench's target
 * called in a loop with nothing attached, through each module variant and
 * each BPF attach type, plus the bare record, hot and cold.
 *
 * Every figure is the caller's whole loop (timed in the kernel around the
 * calls), so the dispatch into the handler is inside it: BPF's own
 * run_time_ns would leave out the trampoline and the kprobe entry, which
 * is exactly what is compared.  Variants are interleaved round by round
 * (A B C ... A B C) and the fastest hot round kept: emulated time jitters,
 * and the minimum is the figure least disturbed by what else ran.  The
 * cold calls run once, in the last round.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include "../../kmod/uapi/clkstat_catalog.h"
#include "overhead.h"
#include "../lib/status.h"

/*
 * In table order.  The baselines first: the empty loop ("loop"), the loop
 * with one per-CPU add and no call ("inc"), the bare call ("none"), the
 * bare record; then the variants, the catalog's, clkstat.ko's and the
 * twin's, each followed by the return probe of its kind that only the
 * benchmark has (clkstat_hookbench's kretprobe, overhead.bpf.c's
 * bpf-kretprobe and bpf-fexit); then the probes' real handlers driven by
 * the hookbench (wakeup -> enqueue, wakeup -> enqueue -> first read), each
 * after its baseline (the same driver without the handlers).  A row's base
 * is subtracted from it round by round.
 */
#define CR_OVH_HOOK(v) { v, "hot", "none", CR_OVH_HITS_CALLS }
static const struct {
	const char *name, *mode, *base;
	int hits;
} cr_ovh_rows[] = {
	{ "loop", "loop", NULL, CR_OVH_HITS_NONE },
	{ "inc", "inc", "loop", CR_OVH_HITS_NONE },
	{ "none", "hot", "loop", CR_OVH_HITS_NONE },
	{ "record", "record", "loop", CR_OVH_HITS_NONE },
	CR_OVH_HOOK(CLKSTAT_VNAME(DIRECT)), CR_OVH_HOOK(CLKSTAT_VNAME(FTRACE)),
	CR_OVH_HOOK(CLKSTAT_VNAME(KPROBE)),
	CR_OVH_HOOK(CLKSTAT_VNAME(KPROBE_INT3)), CR_OVH_HOOK(CR_OVH_KRETPROBE),
	CR_OVH_HOOK(CLKSTAT_VNAME(TRACEPOINT)),
	CR_OVH_HOOK(CLKSTAT_VNAME(BPF_KPROBE)), CR_OVH_HOOK(CR_OVH_BPF_KRETPROBE),
	CR_OVH_HOOK(CLKSTAT_VNAME(BPF_FENTRY)), CR_OVH_HOOK(CR_OVH_BPF_FEXIT),
	CR_OVH_HOOK(CLKSTAT_VNAME(BPF_TP)),
	{ "pair0", "pair0", "loop", CR_OVH_HITS_ANY },
	{ "pair", "pair", "pair0", CR_OVH_HITS_CALLS },
	{ "triple0", "triple0", "loop", CR_OVH_HITS_ANY },
	{ "triple", "triple", "triple0", CR_OVH_HITS_CALLS },
};

/* Attach a row's variant: the module's, or none and a BPF program. */
static int cr_ovh_row_attach(struct cr_ovh_bpf *b, const struct cr_ovh_row *w)
{
	const char *v = strcmp(w->mode, "hot") ? "none" : w->name;
	int st;

	st = cr_ovh_hb_attach(cr_ovh_is_bpf(v) ? "none" : v);
	if (!st && cr_ovh_is_bpf(v))
		st = cr_ovh_bpf_attach(b, v);
	return st;
}

/*
 * One measurement of a row; checks that the handler ran exactly once per
 * call (the module's count, or the BPF programs'), and that nothing else
 * ran on a row with nothing attached.
 */
static int cr_ovh_measure(struct cr_ovh_bpf *b, const struct cr_ovh_row *w,
			  const char *mode, unsigned long n, uint64_t *ns,
			  uint64_t *hits, int *cpu)
{
	int64_t b0 = cr_ovh_bpf_hits(b), b1;
	uint64_t mhits, want;
	int st, bpf = cr_ovh_is_bpf(w->name);

	st = cr_ovh_hb_run(mode, n, ns, &mhits, cpu);
	if (st)
		return st;
	b1 = cr_ovh_bpf_hits(b);
	if (b0 < 0 || b1 < 0) {
		fprintf(stderr, "clkstat-report: overhead: cannot read the BPF programs' count\n");
		return CR_ERR;
	}
	*hits = bpf ? (uint64_t)(b1 - b0) : mhits;
	want = w->hits_want == CR_OVH_HITS_CALLS ? n : 0;
	if ((uint64_t)(b1 - b0) != (bpf ? n : 0) ||
	    (!bpf && mhits != want &&
	     !(w->hits_want == CR_OVH_HITS_ANY && mhits == n)) ||
	    (bpf && mhits)) {
		fprintf(stderr, "clkstat-report: overhead: %s, %s %lu calls: the module's handler ran %llu times, the BPF program %lld times\n",
			w->name, mode, n, (unsigned long long)mhits,
			(long long)(b1 - b0));
		return CR_ERR;
	}
	return CR_OK;
}

/* Cold calls of this round: one run of one call each, every value kept. */
static int cr_ovh_cold_round(const struct cr_ovh_opts *o, struct cr_ovh_bpf *b,
			     struct cr_ovh_row *w, unsigned int k,
			     struct cr_ovh_result *r)
{
	unsigned long n = o->cold_calls / o->rounds, i;
	uint64_t ns, hits;
	int st;

	/* The remainder goes to the first rounds. */
	n += k < o->cold_calls % o->rounds;
	for (i = 0; i < n; i++) {
		st = cr_ovh_measure(b, w, "cold", 1, &ns, &hits, &r->cpu);
		if (st)
			return st;
		w->cold[w->ncold++] = (double)ns;
		w->cold_calls++;
		w->cold_hits += hits;
	}
	return CR_OK;
}

static int cr_ovh_row_round(const struct cr_ovh_opts *o, struct cr_ovh_bpf *b,
			    struct cr_ovh_row *w, unsigned int k,
			    struct cr_ovh_result *r)
{
	uint64_t ns, hits;
	int st;

	st = cr_ovh_row_attach(b, w);
	if (st)
		goto out;
	st = cr_ovh_measure(b, w, w->mode, o->calls, &ns, &hits, &r->cpu);
	if (st)
		goto out;
	w->hot[w->nhot++] = (double)ns / o->calls;
	w->hot_calls = o->calls;
	w->hot_hits = hits;
	if (w->cold)
		st = cr_ovh_cold_round(o, b, w, k, r);
out:
	cr_ovh_bpf_detach(b);
	return st;
}

static struct cr_ovh_row *cr_ovh_find(struct cr_ovh_result *r,
				      const char *name)
{
	unsigned int i;

	for (i = 0; name && i < r->nrows; i++)
		if (!strcmp(r->rows[i].name, name))
			return &r->rows[i];
	return NULL;
}

/*
 * The probes' handler modes come with a newer hookbench: one call of each
 * mode the table needs, and a mode the module refuses with EINVAL gives
 * its row a note instead of figures.
 */
static int cr_ovh_modes(struct cr_ovh_result *r)
{
	static const char *const std[] = { "hot", "record", "loop", "inc" };
	struct cr_ovh_row *w;
	char cmd[32];
	unsigned int i, j;
	int st, einval;

	for (i = 0; i < r->nrows; i++) {
		w = &r->rows[i];
		for (j = 0; j < sizeof(std) / sizeof(std[0]); j++)
			if (!strcmp(w->mode, std[j]))
				break;
		if (j < sizeof(std) / sizeof(std[0]))
			continue;
		snprintf(cmd, sizeof(cmd), "%s 1", w->mode);
		einval = 0;
		st = cr_ovh_hb_write_q("run", cmd, 1, &einval);
		if (einval)
			w->note = "this clkstat_hookbench.ko has no such run mode";
		else if (st)
			return st;
	}
	/* A row whose base has no figures has none either. */
	for (i = 0; i < r->nrows; i++) {
		w = &r->rows[i];
		if (!w->note && w->base && cr_ovh_find(r, w->base)->note)
			w->note = "its baseline is not measured";
	}
	return CR_OK;
}

static void cr_ovh_dispatch_sum(struct cr_ovh_result *r)
{
	struct cr_ovh_row *w, *base, *none, *inc;
	unsigned int i, k;

	for (i = 0; i < r->nrows; i++) {
		w = &r->rows[i];
		cr_ovh_quartiles(w->hot, w->nhot, &w->hot_q);
		base = cr_ovh_find(r, w->base);
		for (k = 0; base && k < w->nhot; k++)
			w->added[k] = w->hot[k] - base->hot[k];
		if (base && w->nhot)
			cr_ovh_quartiles(w->added, w->nhot, &w->added_q);
		else
			w->added_q = (struct cr_ovh_q){ NAN, NAN, NAN };
		if (w->ncold) {
			w->cold_p10 = cr_ovh_quantile(w->cold, w->ncold, 0.1);
			w->cold_p50 = cr_ovh_quantile(w->cold, w->ncold, 0.5);
			w->cold_p90 = cr_ovh_quantile(w->cold, w->ncold, 0.9);
		}
	}
	/* The limit: a bare call plus one per-CPU add (inc minus loop). */
	none = cr_ovh_find(r, "none");
	inc = cr_ovh_find(r, "inc");
	r->limit = none->hot_q.p50 + inc->added_q.p50;
}

int cr_ovh_dispatch(const struct cr_ovh_opts *o, struct cr_ovh_bpf *b,
		    struct cr_ovh_result *r)
{
	const unsigned int n = sizeof(cr_ovh_rows) / sizeof(cr_ovh_rows[0]);
	struct cr_ovh_row *w;
	struct cr_ovh_row none = { .name = "none", .mode = "hot" };
	uint64_t ns, hits;
	unsigned int i, k;
	int st;

	cr_ovh_clocksource(r->dispatch_cs, sizeof(r->dispatch_cs));
	for (i = 0; i < n; i++) {
		w = &r->rows[i];
		*w = (struct cr_ovh_row){
			.name = cr_ovh_rows[i].name, .mode = cr_ovh_rows[i].mode,
			.base = cr_ovh_rows[i].base,
			.hits_want = cr_ovh_rows[i].hits,
			.hot_q = { NAN, NAN, NAN }, .added_q = { NAN, NAN, NAN },
			.cold_p10 = NAN, .cold_p50 = NAN, .cold_p90 = NAN,
			.insn = NAN, .insn_added = NAN, .insn_iqr = NAN };
		/* Cold calls for the calls of the target; none under icount. */
		if (!o->insn && !strcmp(w->mode, "hot")) {
			w->cold = calloc(o->cold_calls, sizeof(*w->cold));
			if (!w->cold)
				return CR_ERR;
		}
	}
	r->nrows = n;
	r->limit = r->limit_insn = NAN;
	/* Warm up: the first calls pay for translation and page faults. */
	st = cr_ovh_hb_attach("none");
	if (!st)
		st = cr_ovh_measure(b, &none, "hot", o->calls, &ns, &hits,
				    &r->cpu);
	if (!st)
		st = cr_ovh_modes(r);
	for (k = 0; k < o->rounds && !st; k++)
		for (i = 0; i < n && !st; i++)
			if (!r->rows[i].note)
				st = cr_ovh_row_round(o, b, &r->rows[i], k, r);
	/* Leave nothing attached, whatever happened. */
	if (cr_ovh_hb_attach("none") && !st)
		st = CR_ERR;
	if (!st)
		cr_ovh_dispatch_sum(r);
	return st;
}

/*
 * The one-line checks before anything runs: which module is missing
 * (exit 3), or no permission (exit 4).  /sys/module is world-readable;
 * debugfs is root's.
 */
static int cr_ovh_check(const struct cr_ovh_opts *o)
{
	struct stat sb;

	if (stat("/sys/module/clkstat", &sb)) {
		fprintf(stderr, "clkstat-report: overhead: clkstat.ko is not loaded: insmod kmod/clkstat.ko (probes=ttwu,tkread,marker events=64 for every section), then kmod/clkstat_hookbench.ko\n");
		return CR_NOT_LOADED;
	}
	if ((o->sections & CR_OVH_DISPATCH) &&
	    stat("/sys/module/clkstat_hookbench", &sb)) {
		fprintf(stderr, "clkstat-report: overhead: clkstat_hookbench.ko is not loaded: insmod kmod/clkstat_hookbench.ko\n");
		return CR_NOT_LOADED;
	}
	if (geteuid() != 0 || access("/sys/kernel/debug", X_OK)) {
		fprintf(stderr, "clkstat-report: overhead: %s: run as root (debugfs, BPF and the module's controls need it)\n",
			strerror(EPERM));
		return CR_PERM;
	}
	return CR_OK;
}

static cpu_set_t cr_ovh_saved_cpus;

/* Pin to the CPU we are on: every figure of a table from one CPU. */
static int cr_ovh_pin(struct cr_ovh_result *r)
{
	cpu_set_t set;
	int cpu = sched_getcpu();

	if (cpu < 0 || sched_getaffinity(0, sizeof(cr_ovh_saved_cpus),
					 &cr_ovh_saved_cpus))
		return CR_ERR;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("clkstat-report: overhead: sched_setaffinity");
		return CR_ERR;
	}
	r->cpu = cpu;
	return CR_OK;
}

static void cr_ovh_machine(struct cr_ovh_result *r)
{
	struct utsname u;
	FILE *f;
	char line[256], *p;

	if (!uname(&u))
		snprintf(r->kernel, sizeof(r->kernel), "%s %s", u.release,
			 u.machine);
	f = fopen("/proc/cpuinfo", "r");
	while (f && fgets(line, sizeof(line), f)) {
		p = strchr(line, ':');
		if (!strncmp(line, "model name", 10) && p) {
			snprintf(r->machine, sizeof(r->machine), "%s", p + 2);
			r->machine[strcspn(r->machine, "\n")] = '\0';
			break;
		}
	}
	if (f)
		fclose(f);
	cr_ovh_clocksource(r->clocksource, sizeof(r->clocksource));
}

int cr_overhead(const struct cr_ovh_opts *o)
{
	struct cr_ovh_result *r = calloc(1, sizeof(*r));
	struct cr_ovh_bpf *b = NULL;
	int st;

	unsigned int i;

	if (!r)
		return CR_ERR;
	/* A bad --insn file is refused before anything runs. */
	st = o->insn_file ? cr_ovh_insn_merge(o->insn_file, NULL) : CR_OK;
	if (!st)
		st = cr_ovh_check(o);
	if (!st)
		st = cr_ovh_pin(r);
	if (st)
		goto out;
	cr_ovh_machine(r);
	if (o->sections & (CR_OVH_DISPATCH | CR_OVH_HANDSHAKE)) {
		st = cr_ovh_bpf_open(&b);
		if (st)
			goto out;
	}
	if (o->sections & CR_OVH_DISPATCH)
		st = cr_ovh_dispatch(o, b, r);
	if (!st && o->insn_file && (o->sections & CR_OVH_DISPATCH))
		st = cr_ovh_insn_merge(o->insn_file, r);
	if (!st && (o->sections & CR_OVH_HANDSHAKE))
		st = cr_ovh_handshake(o, b, r);
	cr_ovh_bpf_close(b);
	b = NULL;
	/* Pinned still: the ping-pong's two threads share one CPU. */
	if (!st && (o->sections & CR_OVH_HANDLERS))
		st = cr_ovh_handlers(o, r);
	/* The storm's workload inherits our affinity: give it every CPU. */
	if (!st && (o->sections & CR_OVH_STORM)) {
		if (sched_setaffinity(0, sizeof(cr_ovh_saved_cpus),
				      &cr_ovh_saved_cpus))
			st = CR_ERR;
		else
			st = cr_ovh_storm(o, r);
	}
	if (!st)
		st = o->json ? cr_ovh_render_json(stdout, o, r) :
			       cr_ovh_render_text(stdout, o, r);
out:
	cr_ovh_bpf_close(b);
	for (i = 0; i < r->nrows; i++)
		free(r->rows[i].cold);
	free(r);
	return st;
}

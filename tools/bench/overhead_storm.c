// SPDX-License-Identifier: GPL-2.0
/*
 * overhead_storm.c - clkstat-report overhead on the real path: a wakeup
 * storm (hackbench over pipes) run with nothing attached, with each of
 * clkstat.ko's variants recording, and with each variant of the BPF twin
 * (tools/bpf/twin.h) recording; the throughput each keeps, as a ratio to
 * nothing attached.  Run times in an emulated guest vary by tens of
 * percent from run to run, so the variants are interleaved round by round
 * and each round's ratio is taken against the same round's baseline; the
 * median of those ratios is reported with their interquartile range and
 * their range.  Under icount (--icount) a run is timed by the CPU time of
 * the storm's tasks, which is then their instructions: its wall time
 * would also count the guest's idle time, which QEMU's sleep=off skips
 * at the price of warping guest time to the next timer, by up to seconds
 * in some rounds and not others.
 */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include "../lib/nl.h"
#include "overhead.h"
#include "../lib/status.h"
#include "../bpf/twin.h"
#include "../../kmod/uapi/clkstat_catalog.h"

extern char **environ;

/* Nothing attached, then clkstat.ko's hook variants and the twin's. */
static const char *const cr_ovh_storm_rows[] = {
	"none", CLKSTAT_HOOK_VARIANTS(CLKSTAT_CAT_VARIANT_NAME)
	CLKSTAT_TWIN_VARIANTS(CLKSTAT_CAT_VARIANT_NAME)
};
#define CR_OVH_NSTORM (sizeof(cr_ovh_storm_rows) / sizeof(cr_ovh_storm_rows[0]))
#define CR_OVH_MAX_ROUNDS 100

/* CPU time (user and system) of the children reaped so far, in s. */
static double cr_ovh_children_cpu_s(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_CHILDREN, &ru))
		return 0;
	return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

/*
 * Run hackbench once; its wall time in s, or with @cpu the CPU time its
 * tasks used (hackbench reaps its own: all are in RUSAGE_CHILDREN once
 * it is), negative on a failure.
 */
static double cr_ovh_hackbench(unsigned int loops, int cpu,
			       const char **cmd_out)
{
	static char l[16];
	static char *argv[] = { "hackbench", "-p", "-g", "2", "-f", "5", "-l",
				l, NULL };
	static const char cmd[] = "hackbench -p -g 2 -f 5 -l";
	posix_spawn_file_actions_t fa;
	double t0, t1;
	pid_t pid;
	int ws, err;

	snprintf(l, sizeof(l), "%u", loops);
	*cmd_out = cmd;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	t0 = cpu ? cr_ovh_children_cpu_s() : cr_ovh_now_s();
	err = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (err) {
		fprintf(stderr, "clkstat-report: overhead: cannot run hackbench (%s): install rt-tests\n",
			strerror(err));
		return -1;
	}
	while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
		;
	t1 = cpu ? cr_ovh_children_cpu_s() : cr_ovh_now_s();
	if (!WIFEXITED(ws) || WEXITSTATUS(ws)) {
		fprintf(stderr, "clkstat-report: overhead: hackbench failed (status %d)\n",
			ws);
		return -1;
	}
	return t1 - t0;
}

/*
 * One timed storm, after the row's setup has settled: a pause for the
 * work an attach leaves behind (RCU grace periods of a switch, the kprobe
 * optimizer's), then a warm-up storm of a tenth of the loops.  Without
 * them the first storm after a switch ran up to 10 times longer, in one
 * round and not the next, on one vCPU under icount.
 */
static double cr_ovh_storm_run(unsigned int loops, int cpu,
			       const char **cmd_out)
{
	const struct timespec pause = { .tv_nsec = 200 * 1000 * 1000 };

	nanosleep(&pause, NULL);
	if (cr_ovh_hackbench(loops / 10 ? loops / 10 : 1, cpu, cmd_out) < 0)
		return -1;
	return cr_ovh_hackbench(loops, cpu, cmd_out);
}

struct cr_ovh_storm_ctx {
	struct cr_nl *nl;
	struct cr_info info;
	unsigned int frac_bits;
	struct cr_twin *twin;
};

/* Put the module (and the twin) in a row's state, recording. */
static int cr_ovh_storm_setup(struct cr_ovh_storm_ctx *c, const char *v)
{
	int st;

	if (cr_ovh_is_bpf(v)) {
		/*
		 * The twin with clkstat.ko's probes, like for like; bpf-tp
		 * has tracepoints on the wakeup only (twin.h).
		 */
		struct cr_twin_cfg cfg = { .variant = v,
					   .probes = strcmp(v, CLKSTAT_VNAME(BPF_TP)) ?
						c->info.probes : "ttwu",
					   .frac_bits = c->frac_bits };

		st = cr_nl_ctrl(c->nl, "variant", "off");
		if (!st)
			st = cr_twin_open(&cfg, &c->twin);
		if (!st)
			st = cr_twin_start(c->twin);
		return st;
	}
	/* The baseline: nothing of clkstat's attached. */
	if (!strcmp(v, "none"))
		return cr_nl_ctrl(c->nl, "variant", "off");
	st = cr_nl_ctrl(c->nl, "variant", v);
	if (!st)
		st = cr_nl_ctrl(c->nl, "stop", NULL);
	if (!st)
		st = cr_nl_ctrl(c->nl, "reset", NULL);
	if (!st)
		st = cr_nl_ctrl(c->nl, "start", NULL);
	return st;
}

static void cr_ovh_storm_teardown(struct cr_ovh_storm_ctx *c, const char *v)
{
	if (cr_ovh_is_bpf(v)) {
		if (c->twin)
			cr_twin_stop(c->twin);
		cr_twin_close(c->twin);
		c->twin = NULL;
		return;
	}
	cr_nl_ctrl(c->nl, "stop", NULL);
}

static int cr_ovh_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double cr_ovh_median(double *v, unsigned int n)
{
	qsort(v, n, sizeof(*v), cr_ovh_cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Every row; one that cannot run here gets a note in the first round. */
static void cr_ovh_storm_rows_init(struct cr_ovh_result *r)
{
	unsigned int i;

	for (i = 0; i < CR_OVH_NSTORM; i++)
		r->storm[i] = (struct cr_ovh_storm_row){
			.name = cr_ovh_storm_rows[i] };
	r->nstorm = CR_OVH_NSTORM;
}

static int cr_ovh_storm_rounds(const struct cr_ovh_opts *o,
			       struct cr_ovh_storm_ctx *c,
			       struct cr_ovh_result *r,
			       double t[][CR_OVH_MAX_ROUNDS])
{
	unsigned int k, i;
	double s;
	int st;

	for (k = 0; k < o->storm_rounds; k++) {
		for (i = 0; i < r->nstorm; i++) {
			if (r->storm[i].note)
				continue;
			st = cr_ovh_storm_setup(c, r->storm[i].name);
			/*
			 * A variant the probes cannot run in (tracepoint with
			 * tkread: the kernel has no tracepoint there) is
			 * refused at once: a row without figures, not a
			 * failure of the whole command.
			 */
			if (st && !k && i) {
				cr_ovh_storm_teardown(c, r->storm[i].name);
				r->storm[i].note = cr_ovh_is_bpf(r->storm[i].name) ?
					"the BPF twin refused it (see above)" :
					"clkstat.ko refused it with these probes (see the kernel log)";
				continue;
			}
			s = st ? -1 : cr_ovh_storm_run(o->storm_loops, o->insn,
							 &r->storm_cmd);
			cr_ovh_storm_teardown(c, r->storm[i].name);
			if (st || s < 0) {
				fprintf(stderr, "clkstat-report: overhead: storm: %s failed\n",
					r->storm[i].name);
				return st ? st : CR_WORKLOAD;
			}
			t[i][k] = s;
		}
	}
	return CR_OK;
}

static void cr_ovh_storm_sum(const struct cr_ovh_opts *o,
			     struct cr_ovh_result *r,
			     double t[][CR_OVH_MAX_ROUNDS])
{
	double ratio[CR_OVH_MAX_ROUNDS], tt[CR_OVH_MAX_ROUNDS];
	struct cr_ovh_storm_row *s;
	unsigned int i, k, n = o->storm_rounds;

	for (i = 0; i < r->nstorm; i++) {
		s = &r->storm[i];
		if (s->note)
			continue;
		s->ratio_min = 1e300;
		for (k = 0; k < n; k++) {
			/* Throughput ratio: the same work in more time. */
			ratio[k] = t[0][k] / t[i][k];
			tt[k] = t[i][k];
			if (ratio[k] < s->ratio_min)
				s->ratio_min = ratio[k];
			if (ratio[k] > s->ratio_max)
				s->ratio_max = ratio[k];
		}
		s->n = n;
		s->median_s = cr_ovh_median(tt, n);
		s->ratio_median = cr_ovh_median(ratio, n);
		s->ratio_q1 = cr_ovh_quantile(ratio, n, 0.25);
		s->ratio_q3 = cr_ovh_quantile(ratio, n, 0.75);
	}
}

int cr_ovh_storm(const struct cr_ovh_opts *o, struct cr_ovh_result *r)
{
	static double t[CR_OVH_NSTORM][CR_OVH_MAX_ROUNDS];
	struct cr_ovh_storm_ctx c = { 0 };
	int st, st2;

	c.nl = cr_nl_open(&st);
	if (!c.nl)
		return st;
	st = cr_nl_get_info(c.nl, &c.info);
	if (st)
		goto out;
	c.frac_bits = c.info.frac_bits;
	cr_ovh_clocksource(r->storm_cs, sizeof(r->storm_cs));
	snprintf(r->probes, sizeof(r->probes), "%s", c.info.probes);
	/* The hookbench's hooks would only add noise: none attached. */
	if (!access(CR_OVH_HB_DIR "/attach", W_OK))
		cr_ovh_hb_attach("none");
	r->storm_baseline = "nothing attached (clkstat.ko variant off)";
	cr_ovh_storm_rows_init(r);
	st = cr_ovh_storm_rounds(o, &c, r, t);
	if (!st)
		cr_ovh_storm_sum(o, r, t);
	/* Back to the variant and recording state found. */
	st2 = cr_nl_ctrl(c.nl, "variant", c.info.variant);
	if (!st2 && c.info.recording)
		st2 = cr_nl_ctrl(c.nl, "start", NULL);
	if (!st)
		st = st2;
out:
	cr_nl_close(c.nl);
	return st;
}

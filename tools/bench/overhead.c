// SPDX-License-Identifier: GPL-2.0
/*
 * overhead.c - clkstat-report overhead: the checks, clkstat_hookbench.ko's
 * control files, and the dispatch section: clkstat_hookbench's target
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
 * In table order; "none" first, the ratios' base "direct" is third.  The
 * variants are the catalog's, clkstat.ko's and the twin's, each followed
 * by the return probe of its kind that only the benchmark has
 * (clkstat_hookbench's kretprobe, overhead.bpf.c's bpf-kretprobe and
 * bpf-fexit).
 */
static const char *const cr_ovh_rows[] = {
	"none", "record",
	CLKSTAT_VNAME(DIRECT), CLKSTAT_VNAME(FTRACE), CLKSTAT_VNAME(KPROBE),
	CLKSTAT_VNAME(KPROBE_INT3), CR_OVH_KRETPROBE,
	CLKSTAT_VNAME(TRACEPOINT),
	CLKSTAT_VNAME(BPF_KPROBE), CR_OVH_BPF_KRETPROBE,
	CLKSTAT_VNAME(BPF_FENTRY), CR_OVH_BPF_FEXIT,
	CLKSTAT_VNAME(BPF_TP),
};

double cr_ovh_now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cr_ovh_errno_status(int err)
{
	return err == EPERM || err == EACCES ? CR_PERM : CR_ERR;
}

/* Write a command to a hookbench file; errors say which and why. */
static int cr_ovh_hb_write(const char *file, const char *cmd)
{
	char path[128];
	ssize_t n;
	int fd, err;

	snprintf(path, sizeof(path), "%s/%s", CR_OVH_HB_DIR, file);
	fd = open(path, O_WRONLY);
	if (fd < 0) {
		err = errno;
		fprintf(stderr, "clkstat-report: overhead: %s: %s\n", path,
			strerror(err));
		return cr_ovh_errno_status(err);
	}
	n = write(fd, cmd, strlen(cmd));
	err = errno;
	close(fd);
	if (n != (ssize_t)strlen(cmd)) {
		fprintf(stderr, "clkstat-report: overhead: '%s' > %s: %s (see the kernel log)\n",
			cmd, path, n < 0 ? strerror(err) : "short write");
		return n < 0 ? cr_ovh_errno_status(err) : CR_ERR;
	}
	return CR_OK;
}

int cr_ovh_hb_attach(const char *variant)
{
	return cr_ovh_hb_write("attach", variant);
}

int cr_ovh_hb_run(const char *mode, unsigned long n, uint64_t *ns,
		  uint64_t *hits, int *cpu)
{
	char cmd[64], buf[256], m[16];
	unsigned long calls;
	unsigned long long tns, th;
	int fd, st, migrated;
	ssize_t len;

	snprintf(cmd, sizeof(cmd), "%s %lu", mode, n);
	st = cr_ovh_hb_write("run", cmd);
	if (st)
		return st;
	fd = open(CR_OVH_HB_DIR "/run", O_RDONLY);
	if (fd < 0)
		return cr_ovh_errno_status(errno);
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len <= 0)
		return CR_ERR;
	buf[len] = '\0';
	if (sscanf(buf, "mode %15s calls %lu ns %llu hits %llu cpu %d migrated %d",
		   m, &calls, &tns, &th, cpu, &migrated) != 6 ||
	    strcmp(m, mode) || calls != n) {
		fprintf(stderr, "clkstat-report: overhead: unexpected result '%s'\n",
			buf);
		return CR_ERR;
	}
	if (migrated) {
		fprintf(stderr, "clkstat-report: overhead: the run moved between CPUs although pinned\n");
		return CR_ERR;
	}
	*ns = tns;
	*hits = th;
	return CR_OK;
}

/* Attach a row's variant: the module's, or none and a BPF program. */
static int cr_ovh_row_attach(struct cr_ovh_bpf *b, const char *v)
{
	int st;

	if (!strcmp(v, "record"))
		v = "none";
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
static int cr_ovh_measure(struct cr_ovh_bpf *b, const char *v,
			  const char *mode, unsigned long n, uint64_t *ns,
			  uint64_t *hits, int *cpu)
{
	int64_t b0 = cr_ovh_bpf_hits(b), b1;
	uint64_t mhits;
	int st, want_mod, want_bpf;

	st = cr_ovh_hb_run(mode, n, ns, &mhits, cpu);
	if (st)
		return st;
	b1 = cr_ovh_bpf_hits(b);
	if (b0 < 0 || b1 < 0) {
		fprintf(stderr, "clkstat-report: overhead: cannot read the BPF programs' count\n");
		return CR_ERR;
	}
	want_bpf = cr_ovh_is_bpf(v);
	want_mod = !want_bpf && strcmp(v, "none") && strcmp(v, "record");
	*hits = want_bpf ? (uint64_t)(b1 - b0) : mhits;
	if (mhits != (want_mod ? n : 0) ||
	    (uint64_t)(b1 - b0) != (want_bpf ? n : 0)) {
		fprintf(stderr, "clkstat-report: overhead: %s, %s %lu calls: the module's handler ran %llu times, the BPF program %lld times\n",
			v, mode, n, (unsigned long long)mhits,
			(long long)(b1 - b0));
		return CR_ERR;
	}
	return CR_OK;
}

static int cr_ovh_row_round(const struct cr_ovh_opts *o, struct cr_ovh_bpf *b,
			    struct cr_ovh_row *row, int cold,
			    struct cr_ovh_result *r)
{
	int rec = !strcmp(row->name, "record");
	uint64_t ns, hits;
	double per;
	int st;

	st = cr_ovh_row_attach(b, row->name);
	if (st)
		goto out;
	st = cr_ovh_measure(b, row->name, rec ? "record" : "hot", o->calls,
			    &ns, &hits, &r->cpu);
	if (st)
		goto out;
	per = (double)ns / o->calls;
	if (row->hot_ns < 0 || per < row->hot_ns)
		row->hot_ns = per;
	row->hot_calls = o->calls;
	row->hot_hits = hits;
	if (cold && !rec) {
		st = cr_ovh_measure(b, row->name, "cold", o->cold_calls, &ns,
				    &hits, &r->cpu);
		if (st)
			goto out;
		row->cold_ns = (double)ns / o->cold_calls;
		row->cold_calls = o->cold_calls;
		row->cold_hits = hits;
	}
out:
	cr_ovh_bpf_detach(b);
	return st;
}

int cr_ovh_dispatch(const struct cr_ovh_opts *o, struct cr_ovh_bpf *b,
		    struct cr_ovh_result *r)
{
	const unsigned int n = sizeof(cr_ovh_rows) / sizeof(cr_ovh_rows[0]);
	uint64_t ns, hits;
	unsigned int i, k;
	int st;

	for (i = 0; i < n; i++)
		r->rows[i] = (struct cr_ovh_row){ .name = cr_ovh_rows[i],
						  .hot_ns = -1, .cold_ns = -1 };
	r->nrows = n;
	/* Warm up: the first calls pay for translation and page faults. */
	st = cr_ovh_hb_attach("none");
	if (!st)
		st = cr_ovh_measure(b, "none", "hot", o->calls, &ns, &hits,
				    &r->cpu);
	for (k = 0; k < o->rounds && !st; k++)
		for (i = 0; i < n && !st; i++)
			st = cr_ovh_row_round(o, b, &r->rows[i],
					      k == o->rounds - 1, r);
	/* Leave nothing attached, whatever happened. */
	if (cr_ovh_hb_attach("none") && !st)
		st = CR_ERR;
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
	f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r");
	if (f && fgets(r->clocksource, sizeof(r->clocksource), f))
		r->clocksource[strcspn(r->clocksource, "\n")] = '\0';
	if (f)
		fclose(f);
}

int cr_overhead(const struct cr_ovh_opts *o)
{
	struct cr_ovh_result *r = calloc(1, sizeof(*r));
	struct cr_ovh_bpf *b = NULL;
	int st;

	if (!r)
		return CR_ERR;
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
	if (!st && (o->sections & CR_OVH_HANDSHAKE))
		st = cr_ovh_handshake(o, b, r);
	cr_ovh_bpf_close(b);
	b = NULL;
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
	free(r);
	return st;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * record_cond.c - record's conditions: --cstates, --load and --governors,
 * alternated run by run as the variants are (cmd_record.c): run i has
 * variant i % nv and condition (i / nv) % nc, condition k being cstate
 * k % ncs, load (k / ncs) % nld and governor (k / (ncs * nld)) % ngov.
 * Each run is tagged with its condition (run "tags": "cstate", "load",
 * "governor"), the recording's meta "conditions" lists them all.  The
 * governors are record_gov.c's.
 *
 * C-states: "free" makes no request; "qosN" (or N) holds a PM QoS CPU
 * latency request of N µs for the run through /dev/cpu_dma_latency: a s32
 * written to it, the file kept open for the run and closed after.  The
 * kernel drops a request when its file is closed, and it closes every file
 * of a process that ends however it ends (an error, a signal, SIGKILL
 * too), so the machine's setting comes back whatever happens to record.
 * The file is opened close-on-exec, and the spinners close it: neither the
 * workload nor a spinner can keep the request alive.  Disabling cpuidle
 * states (sysfs stateN/disable) is not offered: nothing would undo it
 * after a SIGKILL or a crash of record.
 *
 * Load: "idle" starts nothing; "busy" starts one spinner process per
 * online CPU, "busy:N" N of them.  Spinner i is pinned to the i-th CPU of
 * record's own affinity mask (modulo its size), runs at nice 0 as
 * "clkstat-busy", and loops on integer arithmetic (xorshift64 on a
 * volatile, no system call, no memory beyond its stack): a CPU-bound load
 * that keeps its CPU out of idle and competes with the workload's tasks.
 * Each sets PR_SET_PDEATHSIG to SIGKILL (so that it dies with record,
 * even a SIGKILLed one: record is single-threaded), says it is ready on a
 * pipe, and is killed and reaped at the run's end.
 */
#define _GNU_SOURCE		/* sched_setaffinity(), close_range() */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include "../lib/status.h"
#include "record_cond.h"
#include "record_gov.h"

#define CR_QOS_DEV	"/dev/cpu_dma_latency"
#define CR_QOS_MAX	2000000000	/* the kernel's default, "no limit" */
#define CR_BUSY_MAX	4096

static struct cr_conds cr_conds;

const struct cr_conds *cr_record_conds(void)
{
	return &cr_conds;
}

unsigned int cr_conds_n(const struct cr_conds *c)
{
	return (c->ncs ? c->ncs : 1) * (c->nld ? c->nld : 1) *
	       (c->ngov ? c->ngov : 1);
}

/* Condition k's governor, NULL without --governors. */
static const char *cr_cond_gov(const struct cr_conds *c, unsigned int k)
{
	unsigned int n = (c->ncs ? c->ncs : 1) * (c->nld ? c->nld : 1);

	return c->ngov ? c->gov[(k / n) % c->ngov] : NULL;
}

static unsigned int cr_online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (unsigned int)n : 1;
}

/* One item of a list into name; 0, or -1 after a line on stderr. */
static int cr_cond_item(const char *opt, const char *list, const char **p,
			char *name)
{
	const char *e = strchr(*p, ',');
	size_t len = e ? (size_t)(e - *p) : strlen(*p);

	if (!len || len >= CR_COND_NAME || (e && !e[1])) {
		fprintf(stderr, "clkstat-report: record: %s '%s': %s\n", opt,
			list, len >= CR_COND_NAME ? "an item is too long" :
			"an empty item");
		return -1;
	}
	memcpy(name, *p, len);
	name[len] = '\0';
	*p = e ? e + 1 : *p + len;
	return 0;
}

/* A decimal number in [lo, hi], nothing else; 0 or -1. */
static int cr_cond_num(const char *s, unsigned long lo, unsigned long hi,
		       unsigned long *out)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	*out = strtoul(s, &end, 10);
	return errno || *end || *out < lo || *out > hi ? -1 : 0;
}

static int cr_parse_cstates(const char *list)
{
	struct cr_conds *c = &cr_conds;
	const char *p = list;
	char item[CR_COND_NAME];
	unsigned long us;
	unsigned int i;

	if (c->have_cs) {
		fprintf(stderr, "clkstat-report: record: --cstates given twice\n");
		return CR_USAGE;
	}
	c->have_cs = 1;
	if (!*p) {
		fprintf(stderr, "clkstat-report: record: --cstates is empty\n");
		return CR_USAGE;
	}
	while (*p) {
		struct cr_cstate *cs = &c->cs[c->ncs];

		if (cr_cond_item("--cstates", list, &p, item))
			return CR_USAGE;
		if (c->ncs == CR_COND_MAX) {
			fprintf(stderr, "clkstat-report: record: --cstates '%s': more than %d items\n",
				list, CR_COND_MAX);
			return CR_USAGE;
		}
		cs->qos_us = -1;
		if (!strcmp(item, "free")) {
			snprintf(cs->name, sizeof(cs->name), "free");
		} else if (!cr_cond_num(item + (strncmp(item, "qos", 3) ? 0 : 3),
					0, CR_QOS_MAX, &us)) {
			cs->qos_us = (int)us;
			snprintf(cs->name, sizeof(cs->name), "qos%lu", us);
		} else if (!strncmp(item, "max", 3)) {
			/* See the top of the file. */
			fprintf(stderr, "clkstat-report: record: --cstates: '%s': cpuidle state disabling is not offered (a sysfs write would outlive a killed record); qosL allows only the C-states whose exit latency is at most L us (/sys/devices/system/cpu/cpu0/cpuidle/stateK/latency)\n",
				item);
			return CR_USAGE;
		} else {
			fprintf(stderr, "clkstat-report: record: --cstates: '%s' is not free, qosN or N (a CPU latency limit in us, 0 to %d, held through " CR_QOS_DEV ")\n",
				item, CR_QOS_MAX);
			return CR_USAGE;
		}
		for (i = 0; i < c->ncs; i++) {
			if (!strcmp(c->cs[i].name, cs->name)) {
				fprintf(stderr, "clkstat-report: record: --cstates '%s': %s twice\n",
					list, cs->name);
				return CR_USAGE;
			}
		}
		c->ncs++;
	}
	return CR_OK;
}

static int cr_parse_load(const char *list)
{
	struct cr_conds *c = &cr_conds;
	const char *p = list;
	char item[CR_COND_NAME];
	unsigned long n;
	unsigned int i;

	if (c->have_ld) {
		fprintf(stderr, "clkstat-report: record: --load given twice\n");
		return CR_USAGE;
	}
	c->have_ld = 1;
	if (!*p) {
		fprintf(stderr, "clkstat-report: record: --load is empty\n");
		return CR_USAGE;
	}
	while (*p) {
		struct cr_load *ld = &c->ld[c->nld];

		if (cr_cond_item("--load", list, &p, item))
			return CR_USAGE;
		if (c->nld == CR_COND_MAX) {
			fprintf(stderr, "clkstat-report: record: --load '%s': more than %d items\n",
				list, CR_COND_MAX);
			return CR_USAGE;
		}
		if (!strcmp(item, "idle")) {
			ld->busy = 0;
		} else if (!strcmp(item, "busy")) {
			ld->busy = cr_online_cpus();
		} else if (!strncmp(item, "busy:", 5) &&
			   !cr_cond_num(item + 5, 1, CR_BUSY_MAX, &n)) {
			ld->busy = (unsigned int)n;
		} else {
			fprintf(stderr, "clkstat-report: record: --load: '%s' is not idle, busy or busy:N (N spinners, 1 to %d)\n",
				item, CR_BUSY_MAX);
			return CR_USAGE;
		}
		snprintf(ld->name, sizeof(ld->name), "%s", item);
		for (i = 0; i < c->nld; i++) {
			if (!strcmp(c->ld[i].name, ld->name)) {
				fprintf(stderr, "clkstat-report: record: --load '%s': %s twice\n",
					list, ld->name);
				return CR_USAGE;
			}
		}
		c->nld++;
	}
	return CR_OK;
}

static int cr_parse_governors(const char *list)
{
	struct cr_conds *c = &cr_conds;
	char err[512];
	size_t n;

	if (c->have_gov) {
		fprintf(stderr, "clkstat-report: record: --governors given twice\n");
		return CR_USAGE;
	}
	c->have_gov = 1;
	/* The names here; whether the machine has them: record_gov.c. */
	if (cr_cpufreq_parse_list(list, c->gov, CR_COND_MAX, &n, err,
				  sizeof(err))) {
		fprintf(stderr, "clkstat-report: record: %s\n", err);
		return CR_USAGE;
	}
	c->ngov = (unsigned int)n;
	return CR_OK;
}

char *cr_conds_describe(const struct cr_conds *c, int *oom)
{
	char buf[3 * CR_COND_MAX * (CR_COND_NAME + 24) + 48];
	size_t len = 0;
	unsigned int i;
	char *s;

	buf[0] = '\0';
	if (!c->ncs && !c->nld && !c->ngov)
		return NULL;
	for (i = 0; i < c->ncs; i++)
		len += snprintf(buf + len, sizeof(buf) - len, "%s%s",
				i ? "," : "cstates=", c->cs[i].name);
	for (i = 0; i < c->nld; i++) {
		len += snprintf(buf + len, sizeof(buf) - len, "%s%s",
				i ? "," : len ? " load=" : "load=",
				c->ld[i].name);
		/* busy without N: how many it was on this machine. */
		if (!strcmp(c->ld[i].name, "busy"))
			len += snprintf(buf + len, sizeof(buf) - len, "(%u)",
					c->ld[i].busy);
	}
	for (i = 0; i < c->ngov; i++)
		len += snprintf(buf + len, sizeof(buf) - len, "%s%s",
				i ? "," : len ? " governors=" : "governors=",
				c->gov[i]);
	s = strdup(buf);
	if (!s)
		*oom = 1;
	return s;
}

void cr_conds_label(const struct cr_conds *c, unsigned int k, char *buf,
		    size_t len)
{
	unsigned int ncs = c->ncs ? c->ncs : 1;

	snprintf(buf, len, "%s%s%s%s%s%s",
		 c->ncs ? ", cstate " : "", c->ncs ? c->cs[k % ncs].name : "",
		 c->nld ? ", load " : "",
		 c->nld ? c->ld[(k / ncs) % c->nld].name : "",
		 c->ngov ? ", governor " : "",
		 c->ngov ? cr_cond_gov(c, k) : "");
}

int cr_conds_tag(const struct cr_conds *c, unsigned int k, struct cr_run *r)
{
	unsigned int ncs = c->ncs ? c->ncs : 1;

	if (c->ncs && cr_run_add_tag(r, "cstate", c->cs[k % ncs].name))
		return -ENOMEM;
	if (c->nld && cr_run_add_tag(r, "load", c->ld[(k / ncs) % c->nld].name))
		return -ENOMEM;
	if (c->ngov && cr_run_add_tag(r, CR_TAG_GOVERNOR, cr_cond_gov(c, k)))
		return -ENOMEM;
	return 0;
}

/* A spinner's whole life: never returns. */
static void __attribute__((noreturn)) cr_spin(void)
{
	volatile uint64_t x = 88172645463325252ULL;

	for (;;) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
	}
}

/*
 * In the child: set it up (see the top of the file), say so on ready,
 * spin.  cpu < 0: no CPU to pin to.
 */
static void __attribute__((noreturn)) cr_spinner(pid_t parent, int cpu,
						 int ready)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	struct sigaction ign = { .sa_handler = SIG_IGN };
	cpu_set_t set;

	/*
	 * Not record's handlers (they only set its flag).  A Ctrl-C on the
	 * terminal reaches the whole process group: the spinners keep the
	 * load until record ends the run and kills them; SIGTERM kills one.
	 */
	sigaction(SIGINT, &ign, NULL);
	sigaction(SIGQUIT, &ign, NULL);
	sigaction(SIGTERM, &dfl, NULL);
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
		_exit(1);
	prctl(PR_SET_NAME, "clkstat-busy", 0, 0, 0);
	CPU_ZERO(&set);
	if (cpu >= 0) {
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			_exit(1);
	}
	if (setpriority(PRIO_PROCESS, 0, 0))
		_exit(1);
	if (write(ready, "r", 1) != 1)
		_exit(1);
	/* Nothing of record's: the PM QoS file, netlink, the output. */
	close_range(0, ~0U, 0);
	cr_spin();
}

static void cr_kill_spinners(struct cr_cond_hold *h)
{
	unsigned int i;
	int ws;

	for (i = 0; i < h->nspin; i++)
		kill(h->spin[i], SIGKILL);
	for (i = 0; i < h->nspin; i++)
		while (waitpid(h->spin[i], &ws, 0) < 0 && errno == EINTR)
			;
	free(h->spin);
	h->spin = NULL;
	h->nspin = 0;
}

/* n spinners into h; CR_OK, or CR_ERR after a line, none left. */
static int cr_start_load(unsigned int n, struct cr_cond_hold *h)
{
	pid_t self = getpid(), pid;
	unsigned int i, got = 0;
	int cpus[CPU_SETSIZE], ncpus = 0, c, p[2];
	cpu_set_t mask;
	ssize_t r;
	char buf[64];

	if (sched_getaffinity(0, sizeof(mask), &mask) == 0)
		for (c = 0; c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, &mask))
				cpus[ncpus++] = c;
	h->spin = calloc(n, sizeof(*h->spin));
	if (!h->spin) {
		fprintf(stderr, "clkstat-report: record: out of memory\n");
		return CR_ERR;
	}
	if (pipe2(p, O_CLOEXEC)) {
		fprintf(stderr, "clkstat-report: record: --load: pipe: %s\n",
			strerror(errno));
		free(h->spin);
		h->spin = NULL;
		return CR_ERR;
	}
	fflush(NULL);
	for (i = 0; i < n; i++) {
		pid = fork();
		if (pid == 0) {
			close(p[0]);
			cr_spinner(self, ncpus ? cpus[i % ncpus] : -1, p[1]);
		}
		if (pid < 0)
			break;
		h->spin[h->nspin++] = pid;
	}
	close(p[1]);
	/* Each says "r" once set up; EOF when every one is set up or gone. */
	while (got < h->nspin) {
		r = read(p[0], buf, sizeof(buf));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (unsigned int)r;
	}
	close(p[0]);
	if (h->nspin == n && got == n)
		return CR_OK;
	fprintf(stderr, "clkstat-report: record: --load: %u of %u spinners started (fork, PR_SET_PDEATHSIG, sched_setaffinity or nice 0 failed)\n",
		got, n);
	cr_kill_spinners(h);
	return CR_ERR;
}

/* The PM QoS request of us µs into h; CR_OK or CR_ERR after a line. */
static int cr_start_qos(int us, struct cr_cond_hold *h)
{
	int32_t v = us, now;

	h->qos_fd = open(CR_QOS_DEV, O_RDWR | O_CLOEXEC);
	if (h->qos_fd < 0) {
		fprintf(stderr, "clkstat-report: record: --cstates: " CR_QOS_DEV ": %s\n",
			strerror(errno));
		return CR_ERR;
	}
	/* 4 bytes: the value; read back: the aggregate, ours or lower. */
	if (write(h->qos_fd, &v, sizeof(v)) != sizeof(v) ||
	    read(h->qos_fd, &now, sizeof(now)) != sizeof(now) || now > v) {
		fprintf(stderr, "clkstat-report: record: --cstates qos%d: " CR_QOS_DEV " %s\n",
			us, errno ? strerror(errno) : "did not take the request");
		close(h->qos_fd);
		h->qos_fd = -1;
		return CR_ERR;
	}
	return CR_OK;
}

int cr_cond_enter(const struct cr_conds *c, unsigned int k,
		  struct cr_cond_hold *h)
{
	unsigned int ncs = c->ncs ? c->ncs : 1;
	int st = CR_OK;

	*h = (struct cr_cond_hold){ .qos_fd = -1 };
	/* Before the spinners: they would run at the last run's governor. */
	if (c->ngov)
		st = cr_gov_enter(cr_cond_gov(c, k));
	if (!st && c->nld && c->ld[(k / ncs) % c->nld].busy)
		st = cr_start_load(c->ld[(k / ncs) % c->nld].busy, h);
	errno = 0;
	if (!st && c->ncs && c->cs[k % ncs].qos_us >= 0)
		st = cr_start_qos(c->cs[k % ncs].qos_us, h);
	if (st)
		cr_cond_leave(h);
	return st;
}

void cr_cond_leave(struct cr_cond_hold *h)
{
	cr_kill_spinners(h);
	/* Closing the file drops the request (see the top of the file). */
	if (h->qos_fd >= 0)
		close(h->qos_fd);
	h->qos_fd = -1;
}

int cr_conds_check(const struct cr_meta *tags)
{
	if (cr_conds.have_cs && cr_meta_tag(tags, "cstate")) {
		fprintf(stderr, "clkstat-report: record: --tag cstate=... and --cstates: each run's own cstate tag says its C-state condition\n");
		return CR_USAGE;
	}
	if (cr_conds.have_ld && cr_meta_tag(tags, "load")) {
		fprintf(stderr, "clkstat-report: record: --tag load=... and --load: each run's own load tag says its load condition\n");
		return CR_USAGE;
	}
	if (cr_conds.have_gov && cr_meta_tag(tags, CR_TAG_GOVERNOR)) {
		fprintf(stderr, "clkstat-report: record: --tag governor=... and --governors: each run's own governor tag says its governor\n");
		return CR_USAGE;
	}
	return CR_OK;
}

/* ---- the command line ---- */

enum { O_CSTATES = CR_OPT_RECORD + 0x80, O_LOAD, O_GOVERNORS };

static int cr_cond_take(int c, const char *v)
{
	if (c == O_GOVERNORS)
		return cr_parse_governors(v);
	return c == O_CSTATES ? cr_parse_cstates(v) : cr_parse_load(v);
}

static const struct option cr_cond_table[] = {
	{ "cstates", required_argument, NULL, O_CSTATES },
	{ "load", required_argument, NULL, O_LOAD },
	{ "governors", required_argument, NULL, O_GOVERNORS },
	{ NULL, 0, NULL, 0 },
};

const struct cr_optset cr_record_cond_opts = {
	.opts = cr_cond_table,
	.take = cr_cond_take,
	.help =
	"      --cstates LIST  C-state conditions, after the variants: free, qosN\n"
	"                      (N us held on /dev/cpu_dma_latency); runs tagged cstate\n"
	"      --load LIST     load: idle, busy (a spinner per CPU), busy:N; tagged load\n"
	"      --governors LIST  cpufreq governors set on every CPU (root), given\n"
	"                      back however record ends; runs tagged governor\n",
};

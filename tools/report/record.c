// SPDX-License-Identifier: GPL-2.0
/*
 * record.c - clkstat-report record.
 *
 * Each run: switch to the run's variant (variants alternate A B A B ...,
 * so that a drift of the machine over time hits both alike), stop, reset,
 * start, run the workload (or sleep --duration), stop, and read every
 * metric of that variant over netlink.  The runs and the machine's
 * metadata go to one snapshot file, written atomically at the end.  The
 * variant and recording state found at the start are restored.
 */
#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include "meta.h"
#include "nl.h"
#include "record.h"
#include "snapshot.h"

extern char **environ;

static volatile sig_atomic_t cr_interrupted;

static void cr_on_signal(int sig)
{
	(void)sig;
	cr_interrupted = 1;
}

static int64_t cr_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Split "a,b" into at most max names; 0 on success. */
static int cr_split_variants(const char *list, char names[][CR_VARIANT_MAX],
			     unsigned int max, unsigned int *n)
{
	const char *p = list, *e;
	size_t len;

	*n = 0;
	while (*p) {
		e = strchr(p, ',');
		len = e ? (size_t)(e - p) : strlen(p);
		if (!len || len >= CR_VARIANT_MAX || *n == max) {
			fprintf(stderr, "clkstat-report: record: --variants '%s': %s\n",
				list, !len ? "empty variant name" :
				len >= CR_VARIANT_MAX ? "variant name too long" :
				"too many variants");
			return -1;
		}
		memcpy(names[*n], p, len);
		names[(*n)++][len] = '\0';
		p = e ? e + 1 : p + len;
		if (e && !*p) {
			fprintf(stderr, "clkstat-report: record: --variants '%s': empty variant name\n",
				list);
			return -1;
		}
	}
	if (!*n) {
		fprintf(stderr, "clkstat-report: record: --variants is empty\n");
		return -1;
	}
	return 0;
}

/* Sleep d seconds unless interrupted. */
static void cr_sleep(double d)
{
	struct timespec ts = {
		.tv_sec = (time_t)d,
		.tv_nsec = (long)((d - (double)(time_t)d) * 1e9),
	};

	while (!cr_interrupted && nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/*
 * Run the workload; *status gets its exit status (128 + signal when it was
 * killed).  Return: CR_OK, or CR_WORKLOAD when it cannot be started.
 */
static int cr_run_command(char **argv, int *status)
{
	pid_t pid;
	int err, ws;

	err = posix_spawnp(&pid, argv[0], NULL, NULL, argv, environ);
	if (err) {
		fprintf(stderr, "clkstat-report: record: cannot run '%s': %s\n",
			argv[0], strerror(err));
		return CR_WORKLOAD;
	}
	while (waitpid(pid, &ws, 0) < 0) {
		if (errno != EINTR) {
			fprintf(stderr, "clkstat-report: record: waitpid: %s\n",
				strerror(errno));
			return CR_WORKLOAD;
		}
	}
	*status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
	return CR_OK;
}

/* Keep only the metrics of variant v (the dump has every variant's). */
static void cr_keep_variant(struct cr_run *r, const char *v)
{
	size_t i, n = 0;

	for (i = 0; i < r->nmetrics; i++) {
		if (!strcmp(r->metrics[i].variant, v))
			r->metrics[n++] = r->metrics[i];
		else
			cr_metric_free(&r->metrics[i]);
	}
	r->nmetrics = n;
}

static uint64_t cr_run_samples(const struct cr_run *r)
{
	uint64_t n = 0;
	size_t i, j;

	for (i = 0; i < r->nmetrics; i++)
		for (j = 0; j < r->metrics[i].total.nslots; j++)
			n += r->metrics[i].total.slots[j].count;
	return n;
}

/* One run into s: the variant, the window, the read-back. */
static int cr_record_run(struct cr_nl *nl, const struct cr_record_opts *o,
			 struct cr_snapshot *s, const char *variant,
			 int *workload_failed)
{
	struct cr_run *r, tmp = { .exit_status = -1 };
	int st, status = -1;
	int64_t start, end;

	st = cr_nl_ctrl(nl, "variant", variant);
	if (!st)
		st = cr_nl_ctrl(nl, "stop", NULL);
	if (!st)
		st = cr_nl_ctrl(nl, "reset", NULL);
	if (!st)
		st = cr_nl_ctrl(nl, "start", NULL);
	if (st)
		return st;
	start = cr_now_ns();
	if (o->command)
		st = cr_run_command(o->command, &status);
	else
		cr_sleep(o->duration);
	end = cr_now_ns();
	if (st) {
		cr_nl_ctrl(nl, "stop", NULL);
		return st;
	}
	st = cr_nl_ctrl(nl, "stop", NULL);
	if (!st)
		st = cr_nl_get_hist(nl, &tmp);
	if (st)
		return st;
	cr_keep_variant(&tmp, variant);
	r = cr_snapshot_add_run(s);
	if (!r) {
		cr_run_free(&tmp);
		fprintf(stderr, "clkstat-report: record: out of memory\n");
		return CR_ERR;
	}
	r->nmetrics = tmp.nmetrics;
	r->metrics = tmp.metrics;
	snprintf(r->variant, sizeof(r->variant), "%s", variant);
	r->start_ns = start;
	r->end_ns = end;
	r->exit_status = status;
	if (status > 0)
		*workload_failed = 1;
	return CR_OK;
}

static char *cr_join(char **argv)
{
	size_t len = 1, i;
	char *s;

	for (i = 0; argv[i]; i++)
		len += strlen(argv[i]) + 1;
	s = calloc(1, len);
	for (i = 0; s && argv[i]; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
}

int cr_record(const struct cr_record_opts *o)
{
	char names[16][CR_VARIANT_MAX];
	struct cr_snapshot s = { 0 };
	struct sigaction sa = { .sa_handler = cr_on_signal }, old_int, old_term;
	int st, failed = 0, tty = isatty(STDERR_FILENO);
	unsigned int nv = 0, i;
	struct cr_info info;
	struct cr_nl *nl;

	nl = cr_nl_open(&st);
	if (!nl)
		return st;
	st = cr_nl_get_info(nl, &info);
	if (st)
		goto out_nl;
	if (cr_split_variants(o->variants ? o->variants : info.variant, names,
			      16, &nv)) {
		st = CR_USAGE;
		goto out_nl;
	}
	if (cr_meta_collect(&s.meta, &info, "") ||
	    !(s.meta.variants = strdup(o->variants ? o->variants
						    : info.variant)) ||
	    (o->command && !(s.meta.command = cr_join(o->command)))) {
		fprintf(stderr, "clkstat-report: record: out of memory\n");
		st = CR_ERR;
		goto out;
	}
	s.meta.duration_s = o->command ? 0 : o->duration;
	/* Ctrl-C ends the recording after the runs done so far. */
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	for (i = 0; i < o->runs && !cr_interrupted; i++) {
		const char *v = names[i % nv];

		if (!o->quiet)
			fprintf(stderr, "%srecord: run %u/%u, variant %s ...%s",
				tty ? "\r\033[K" : "", i + 1, o->runs, v,
				tty ? "" : "\n");
		st = cr_record_run(nl, o, &s, v, &failed);
		if (st)
			break;
		if (!o->quiet && tty)
			fprintf(stderr, "\r\033[Krecord: run %u/%u, variant %s: %llu samples",
				i + 1, o->runs, v,
				(unsigned long long)cr_run_samples(&s.runs[s.nruns - 1]));
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	if (!o->quiet && tty)
		fputc('\n', stderr);
	/* Leave the module as it was found. */
	cr_nl_ctrl(nl, "variant", info.variant);
	if (info.recording)
		cr_nl_ctrl(nl, "start", NULL);
	if (st)
		goto out;
	if (!s.nruns) {
		fprintf(stderr, "clkstat-report: record: interrupted before the first run ended; nothing written\n");
		st = CR_ERR;
		goto out;
	}
	if (cr_interrupted)
		fprintf(stderr, "clkstat-report: record: interrupted; writing the %zu runs done\n",
			s.nruns);
	st = cr_snapshot_write(&s, o->output);
	if (!st && !o->quiet)
		fprintf(stderr, "record: %zu runs written to %s\n", s.nruns,
			o->output);
	if (!st && failed) {
		fprintf(stderr, "clkstat-report: record: the workload failed in some runs (see each run's exit_status)\n");
		st = CR_WORKLOAD;
	}
out:
	cr_snapshot_free(&s);
out_nl:
	cr_nl_close(nl);
	return st;
}

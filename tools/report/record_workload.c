// SPDX-License-Identifier: GPL-2.0
/*
 * record_workload.c - record's workload (record.h): COMMAND spawned and
 * waited for, or held between its fork and its exec until the run has
 * started (--workload-only: its pid is the twin's filter before it runs),
 * or --duration's sleep; and Ctrl-C, which ends the recording after the
 * runs done so far.
 */
#define _GNU_SOURCE		/* pipe2() */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include "../lib/status.h"
#include "record.h"

extern char **environ;

volatile sig_atomic_t cr_rec_interrupted;

static void cr_on_signal(int sig)
{
	(void)sig;
	cr_rec_interrupted = 1;
}

void cr_rec_signals(int on)
{
	static struct sigaction old_int, old_term;
	struct sigaction sa = { .sa_handler = cr_on_signal };

	if (on) {
		sigaction(SIGINT, &sa, &old_int);
		sigaction(SIGTERM, &sa, &old_term);
	} else {
		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGTERM, &old_term, NULL);
	}
}

/* Sleep d seconds unless interrupted. */
static void cr_sleep(double d)
{
	struct timespec ts = {
		.tv_sec = (time_t)d,
		.tv_nsec = (long)((d - (double)(time_t)d) * 1e9),
	};

	while (!cr_rec_interrupted && nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* Wait for pid; *status its exit status (128 + signal when killed). */
static int cr_wait(pid_t pid, int *status)
{
	int ws;

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

/* Spawn and wait; CR_WORKLOAD when it cannot be started. */
static int cr_spawn(char **argv, int out_fd, int *status)
{
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int err;

	err = posix_spawn_file_actions_init(&fa);
	if (!err && out_fd >= 0)
		err = posix_spawn_file_actions_adddup2(&fa, out_fd, STDOUT_FILENO) ?:
		      posix_spawn_file_actions_adddup2(&fa, out_fd, STDERR_FILENO);
	if (!err)
		err = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (err) {
		fprintf(stderr, "clkstat-report: record: cannot run '%s': %s\n",
			argv[0], strerror(err));
		return CR_WORKLOAD;
	}
	return cr_wait(pid, status);
}

/*
 * The child waits for a byte on go (closing it without one: give up) and
 * writes its errno to ex if the exec fails.
 */
int cr_workload_hold(struct cr_workload *w)
{
	int go[2], ex[2], e;
	char c;

	if (pipe2(go, O_CLOEXEC))
		goto fail;
	if (pipe2(ex, O_CLOEXEC)) {
		close(go[0]);
		close(go[1]);
		goto fail;
	}
	w->pid = fork();
	if (w->pid == 0) {
		close(go[1]);
		close(ex[0]);
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		if (w->out_fd >= 0 && (dup2(w->out_fd, STDOUT_FILENO) < 0 ||
				       dup2(w->out_fd, STDERR_FILENO) < 0))
			_exit(127);
		execvp(w->argv[0], w->argv);
		e = errno;
		if (write(ex[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(ex[1]);
	if (w->pid < 0) {
		close(go[1]);
		close(ex[0]);
		goto fail;
	}
	w->go = go[1];
	w->ex = ex[0];
	w->held = 1;
	return CR_OK;
fail:
	fprintf(stderr, "clkstat-report: record: cannot start '%s': %s\n",
		w->argv[0], strerror(errno));
	return CR_WORKLOAD;
}

/* Let the held workload go and wait for it. */
static int cr_release(struct cr_workload *w, int *status)
{
	int e, st;
	ssize_t n;

	n = write(w->go, "x", 1);
	close(w->go);
	if (n == 1) {
		while ((n = read(w->ex, &e, sizeof(e))) < 0 && errno == EINTR)
			;
	}
	close(w->ex);
	w->held = 0;
	st = cr_wait(w->pid, status);
	if (n == sizeof(e)) {
		fprintf(stderr, "clkstat-report: record: cannot run '%s': %s\n",
			w->argv[0], strerror(e));
		return CR_WORKLOAD;
	}
	return st;
}

int cr_workload_run(struct cr_workload *w, int *status)
{
	if (w->held)
		return cr_release(w, status);
	if (w->argv)
		return cr_spawn(w->argv, w->out_fd, status);
	cr_sleep(w->duration);
	return CR_OK;
}

void cr_workload_abort(struct cr_workload *w)
{
	int status;

	if (!w->held)
		return;
	close(w->go);
	close(w->ex);
	w->held = 0;
	cr_wait(w->pid, &status);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * cpufreq_guard.c - the governors given back however record ends.
 *
 * A write to scaling_governor outlives the process that made it: unlike a
 * PM QoS request (/dev/cpu_dma_latency), nothing in the kernel undoes it
 * when that process dies.  So before the first write, record forks this
 * guard, which holds the governors found (in its own memory), one end of
 * a socket pair, and nothing else of record's (every other descriptor is
 * closed: the study's lock, netlink).  The guard ignores SIGINT, SIGTERM,
 * SIGHUP and SIGQUIT and leaves record's process group and session
 * (setsid), so that a Ctrl-C or a signal to the group reaches record
 * alone; it blocks reading its socket.  The read ends with EOF when the
 * kernel closes record's end: when record exits, dies of a signal,
 * SIGKILL and a crash included.  Then the guard writes back every
 * policy's governor that differs, says so on the socket (to a record
 * still there) and exits.  record's own end is close-on-exec, and its
 * spinners close it, so that no child of record holds the guard back.
 * At a normal end record shuts its end and waits for that word; a guard
 * killed on its own (the one way left to lose it: SIGKILL to the guard
 * itself, or to its cgroup with record) says none, and record gives the
 * governors back itself.
 */
#define _GNU_SOURCE		/* close_range() */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include "cpufreq_guard.h"

/* The guard's whole life: never returns. */
static void __attribute__((noreturn)) cr_guard_main(
	const struct cr_cpufreq *saved, int fd)
{
	struct sigaction ign = { .sa_handler = SIG_IGN };
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	char err[512], buf[64];
	int null, ok = 1;
	ssize_t r;

	sigaction(SIGINT, &ign, NULL);
	sigaction(SIGTERM, &ign, NULL);
	sigaction(SIGHUP, &ign, NULL);
	sigaction(SIGQUIT, &ign, NULL);
	sigaction(SIGPIPE, &ign, NULL);
	sigaction(SIGCHLD, &dfl, NULL);
	setsid();
	prctl(PR_SET_NAME, "clkstat-guard", 0, 0, 0);
	/* The socket as descriptor 3, stderr kept, nothing else. */
	if (fd != 3 && (dup2(fd, 3) != 3 || close(fd)))
		_exit(2);
	close_range(4, ~0U, 0);
	null = open("/dev/null", O_RDWR);
	if (null < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0)
		_exit(2);
	if (null > 3)
		close(null);
	if (write(3, "r", 1) != 1)
		_exit(2);
	/* Until EOF: record shut its end, or the kernel closed it. */
	while ((r = read(3, buf, sizeof(buf))) != 0)
		if (r < 0 && errno != EINTR)
			break;
	if (cr_cpufreq_restore(saved, err, sizeof(err))) {
		fprintf(stderr, "clkstat-report: record: --governors: the governors were not all given back: %s\n",
			err);
		ok = 0;
	}
	/*
	 * The verdict on the socket, for a record still there: not the exit
	 * status, which a checker such as valgrind may replace.
	 */
	if (write(3, ok ? "0" : "1", 1) < 0)
		ok = 0;
	_exit(!ok);
}

int cr_gov_guard_start(const struct cr_cpufreq *saved, struct cr_gov_guard *g,
		       char *err, size_t errlen)
{
	int sv[2];
	ssize_t r;
	char c;

	g->pid = 0;
	g->fd = -1;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv)) {
		snprintf(err, errlen, "socketpair: %s", strerror(errno));
		return -1;
	}
	fflush(NULL);
	g->pid = fork();
	if (g->pid == 0) {
		close(sv[0]);
		cr_guard_main(saved, sv[1]);
	}
	close(sv[1]);
	if (g->pid < 0) {
		snprintf(err, errlen, "fork: %s", strerror(errno));
		close(sv[0]);
		g->pid = 0;
		return -1;
	}
	g->fd = sv[0];
	while ((r = read(g->fd, &c, 1)) < 0 && errno == EINTR)
		;
	if (r == 1 && c == 'r')
		return 0;
	/* It died setting up: it restores nothing, as nothing changed. */
	snprintf(err, errlen, "the guard process did not start");
	cr_gov_guard_end(g, NULL, err + strlen(err), errlen - strlen(err));
	return -1;
}

int cr_gov_guard_end(struct cr_gov_guard *g, const struct cr_cpufreq *saved,
		     char *err, size_t errlen)
{
	ssize_t n = 0;
	int ws = 0;
	pid_t r;
	char c;

	if (!g->pid)
		return 0;
	/* EOF for the guard; its verdict comes back on the same socket. */
	if (!shutdown(g->fd, SHUT_WR))
		while ((n = read(g->fd, &c, 1)) < 0 && errno == EINTR)
			;
	close(g->fd);
	g->fd = -1;
	while ((r = waitpid(g->pid, &ws, 0)) < 0 && errno == EINTR)
		;
	g->pid = 0;
	if (n == 1 && c == '0')
		return 0;
	if (!saved)
		return -1;
	if (n == 1) {
		/* It said why on stderr. */
		snprintf(err, errlen, "the guard process could not give every governor back");
		return -1;
	}
	/* Killed before its verdict: give them back from here. */
	if (cr_cpufreq_restore(saved, err, errlen))
		return -1;
	snprintf(err, errlen, "the guard process %s%s; the governors were given back by record",
		 r > 0 && WIFSIGNALED(ws) ? "died of " : "",
		 r > 0 && WIFSIGNALED(ws) ? strsignal(WTERMSIG(ws)) :
		 "ended without a word");
	return 1;
}

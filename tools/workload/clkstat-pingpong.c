// SPDX-License-Identifier: GPL-2.0
/*
 * clkstat-pingpong - a wakeup workload whose wakeups are known exactly.
 *
 * Two threads, A (the main thread, "clkpp-a") and B ("clkpp-b"), pinned to
 * two CPUs, pass a token over two pipes for N rounds.  Before waking its
 * peer, each thread waits until the peer has blocked (its voluntary
 * context-switch count in /proc went up), so every write wakes a task that
 * is off the runqueue: each round is exactly two wakeups, each followed by
 * exactly one enqueue.  With --migrate every wakeup of A migrates and
 * every wakeup of B stays local.
 *
 * The workload opens and closes the recording window itself (--control,
 * --tracing), marks it (--marker), reads the clock after each wakeup
 * (--reads K), and prints the truth as "key value" lines (rounds,
 * wakeups, migrated, local, reads, tid_a, tid_b, max_round_ns).  Each
 * option and line: Documentation/clkstat.rst, "The test workload:
 * clkstat-pingpong".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <x86intrin.h>

struct peer {
	pid_t tid;
	long seen;		/* its switch count when we last woke it */
};

static struct {
	long rounds;
	int cpu[2];
	int migrate;
	long reads;		/* clock_gettime syscalls after each wakeup */
	unsigned long long max_round_tsc;
	const char *control;
	const char *tracing;
	const char *marker;	/* --marker's file, NULL: none */
	int marker_fd;
	int ab[2], ba[2];	/* pipes A->B and B->A */
	struct peer a, b;
	volatile int b_ready;
} g = { .rounds = 1000, .cpu = { 0, 1 }, .marker_fd = -1 };

static void die(const char *what)
{
	fprintf(stderr, "clkstat-pingpong: %s: %s\n", what, strerror(errno));
	exit(2);
}

static void pin(pid_t tid, int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(tid, sizeof(set), &set))
		die("sched_setaffinity");
}

static long voluntary_switches(pid_t tid)
{
	char path[64], buf[2048], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/self/task/%d/status", tid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		die(path);
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		die("read status");
	buf[n] = '\0';
	p = strstr(buf, "\nvoluntary_ctxt_switches:");
	if (!p)
		die("no voluntary_ctxt_switches");
	return strtol(p + 25, NULL, 10);
}

/* Spin (yielding, which wakes nobody) until the peer has blocked again. */
static void wait_asleep(struct peer *p)
{
	long now;

	while ((now = voluntary_switches(p->tid)) <= p->seen)
		sched_yield();
	p->seen = now;
}

static void put(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		die(path);
	close(fd);
}

static void window(int open_it)
{
	char buf[64], path[512];

	if (g.control) {
		if (open_it) {
			snprintf(buf, sizeof(buf), "tgid %d", getpid());
			put(g.control, buf);
			put(g.control, "reset");
			put(g.control, "start");
		} else {
			put(g.control, "stop");
			put(g.control, "tgid 0");
		}
	}
	if (g.tracing) {
		snprintf(path, sizeof(path), "%s/tracing_on", g.tracing);
		put(path, open_it ? "1" : "0");
	}
}

static void mark(const char *text)
{
	if (g.marker_fd >= 0 &&
	    write(g.marker_fd, text, strlen(text)) != (ssize_t)strlen(text))
		die(g.marker);
}

static void xread(int fd)
{
	char c;

	if (read(fd, &c, 1) != 1)
		die("read");
}

static void xwrite(int fd)
{
	if (write(fd, "x", 1) != 1)
		die("write");
}

static void read_clock(void)
{
	struct timespec ts;
	long i;

	for (i = 0; i < g.reads; i++)
		if (syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts))
			die("clock_gettime");
}

static long long mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void *thread_b(void *arg)
{
	long i;

	(void)arg;
	prctl(PR_SET_NAME, "clkpp-b");
	g.b.tid = syscall(SYS_gettid);
	pin(0, g.cpu[1]);
	g.b_ready = 1;
	for (i = 0; i < g.rounds; i++) {
		xread(g.ab[0]);
		read_clock();
		wait_asleep(&g.a);
		if (g.migrate)	/* A goes to the CPU it is not on */
			pin(g.a.tid, g.cpu[(i + 1) % 2]);
		xwrite(g.ba[1]);
	}
	return NULL;
}

/* The usage; --help prints it and what each option does, on stdout. */
static void usage(FILE *f, int status)
{
	fprintf(f,
		"usage: clkstat-pingpong [-n ROUNDS] [-c CPU_A,CPU_B] [--migrate]\n"
		"                        [--reads K] [--control FILE] [--tracing DIR]\n"
		"                        [--marker[=FILE]] (FILE: default $CLKSTAT_MARKER)\n");
	if (status) {
		fputs("clkstat-pingpong --help: what each option does\n", f);
		exit(status);
	}
	fputs("A wakeup workload whose wakeups are known exactly: two threads pass a\n"
	      "token for ROUNDS rounds, each round exactly two wakeups; at the end it\n"
	      "prints the truth as \"key value\" lines (rounds, wakeups, migrated, local,\n"
	      "reads, tid_a, tid_b, max_round_ns).\n"
	      "  -n, --rounds N    rounds (default 1000)\n"
	      "  -c, --cpus A,B    the two CPUs the threads are pinned to (default 0,1)\n"
	      "      --migrate     every wakeup of A migrates, every wakeup of B stays local\n"
	      "      --reads K     K clock_gettime(CLOCK_MONOTONIC) syscalls after each wakeup\n"
	      "      --control FILE  open the window in clkstat's control file: tgid, reset,\n"
	      "                    start before the rounds, stop, tgid 0 after them\n"
	      "      --tracing DIR 1 and 0 to DIR/tracing_on at the same points\n"
	      "      --marker[=FILE]  pp_begin and pp_end written to FILE (clkstat's marker\n"
	      "                    or ftrace's trace_marker) inside the window\n"
	      "  -h, --help        this text\n"
	      "Documentation/clkstat.rst, \"The test workload: clkstat-pingpong\".\n", f);
	exit(0);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "rounds", required_argument, NULL, 'n' },
		{ "cpus", required_argument, NULL, 'c' },
		{ "migrate", no_argument, NULL, 'm' },
		{ "control", required_argument, NULL, 'C' },
		{ "tracing", required_argument, NULL, 'T' },
		{ "reads", required_argument, NULL, 'r' },
		{ "marker", optional_argument, NULL, 'M' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	unsigned long long tsc0, tsc1, r0;
	long long ns0, ns1;
	pthread_t tb;
	long i;
	int o;

	while ((o = getopt_long(argc, argv, "n:c:h", opts, NULL)) != -1) {
		switch (o) {
		case 'n':
			g.rounds = strtol(optarg, NULL, 10);
			break;
		case 'c':
			if (sscanf(optarg, "%d,%d", &g.cpu[0], &g.cpu[1]) != 2)
				usage(stderr, 2);
			break;
		case 'm':
			g.migrate = 1;
			break;
		case 'C':
			g.control = optarg;
			break;
		case 'T':
			g.tracing = optarg;
			break;
		case 'r':
			g.reads = strtol(optarg, NULL, 10);
			break;
		case 'M':
			g.marker = optarg ? optarg : getenv("CLKSTAT_MARKER");
			if (!g.marker || !*g.marker) {
				fprintf(stderr, "clkstat-pingpong: --marker without a FILE: $CLKSTAT_MARKER is not set\n");
				exit(2);
			}
			break;
		case 'h':
			usage(stdout, 0);
			break;
		default:
			usage(stderr, 2);
		}
	}
	if (g.rounds < 1 || g.reads < 0 || g.cpu[0] == g.cpu[1] ||
	    optind != argc)
		usage(stderr, 2);

	/*
	 * Every page mapped now (the program, libc) and later (B's stack)
	 * resident before the window opens: a page fault served from disk,
	 * or over the test guest's 9p root, puts a thread to sleep inside the
	 * window and wakes it once more than the truth says (seen: 101 of
	 * 100 on a cold page cache).  Without the privilege, say so and go
	 * on: only that guarantee is lost.
	 */
	if (mlockall(MCL_CURRENT | MCL_FUTURE))
		fprintf(stderr, "clkstat-pingpong: mlockall: %s (a page fault inside the window would add a wakeup)\n",
			strerror(errno));
	prctl(PR_SET_NAME, "clkpp-a");
	g.a.tid = syscall(SYS_gettid);
	pin(0, g.cpu[0]);
	if (pipe(g.ab) || pipe(g.ba))
		die("pipe");
	if (g.marker) {
		g.marker_fd = open(g.marker, O_WRONLY | O_CLOEXEC);
		if (g.marker_fd < 0)
			die(g.marker);
	}
	if (pthread_create(&tb, NULL, thread_b, NULL))
		die("pthread_create");
	while (!g.b_ready)
		sched_yield();
	g.b.seen = 0;
	wait_asleep(&g.b);	/* B blocked in its first read */

	ns0 = mono_ns();
	tsc0 = __rdtsc();
	window(1);
	mark("pp_begin");
	/* After the control writes, which may sleep on a lock. */
	g.a.seen = voluntary_switches(g.a.tid);
	for (i = 0; i < g.rounds; i++) {
		if (i)
			wait_asleep(&g.b);
		r0 = __rdtsc();
		xwrite(g.ab[1]);
		xread(g.ba[0]);
		read_clock();
		r0 = __rdtsc() - r0;
		if (r0 > g.max_round_tsc)
			g.max_round_tsc = r0;
	}
	mark("pp_end");
	window(0);
	pthread_join(tb, NULL);
	tsc1 = __rdtsc();
	ns1 = mono_ns();

	printf("rounds %ld\nwakeups %ld\nmigrated %ld\nlocal %ld\n", g.rounds,
	       2 * g.rounds, g.migrate ? g.rounds : 0,
	       g.migrate ? g.rounds : 2 * g.rounds);
	printf("tid_a %d\ntid_b %d\n", g.a.tid, g.b.tid);
	printf("reads %ld\nmax_round_ns %.0f\n", 2 * g.rounds * g.reads,
	       (double)g.max_round_tsc * (double)(ns1 - ns0) /
	       (double)(tsc1 - tsc0));
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * fault_load - load a module, or write to a file, with the N-th
 * fault-injection point of the call failing: the systematic fault
 * injection of syzkaller, through /proc/thread-self/fail-nth (kernel
 * built with FAULT_INJECTION, and FAILSLAB or FAIL_PAGE_ALLOC set up in
 * debugfs to count the allocations of interest; see
 * tools/tests/guest/hardening_faults.sh).
 *
 *   fault_load N MODULE.ko [PARAM...]     finit_module(2)
 *   fault_load N --write FILE TEXT        one write(2) of TEXT
 *   fault_load --sweep NAME FROM MODULE.ko [PARAM...]
 *                                         N = FROM, FROM+STEP, ... in turn
 *                                         (FAULT_STEP, default 1)
 *
 * The first two print one line:
 *   nth N injected 0|1 points P ret R errno E NAME
 * where P is the number of injection points the call passed (N when the
 * N-th failed; N minus what is left of fail-nth otherwise: with a large
 * N, how many points a call has), errno 0 and NAME "-" when the call
 * succeeded.  Exits 0 if the call succeeded, 1 if it failed, 2 if the
 * tool itself could not run.  How the N-th point is made to fail is at
 * main(), what a sweep checks at sweep(); the tests that use it:
 * Documentation/clkstat-hardening.rst, "Faults".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>

#define FAIL_NTH "/proc/thread-self/fail-nth"

static const struct {
	int err;
	const char *name;
} errnames[] = {
	{ ENOMEM, "ENOMEM" }, { EINVAL, "EINVAL" }, { ENOENT, "ENOENT" },
	{ EEXIST, "EEXIST" }, { EBUSY, "EBUSY" }, { EFAULT, "EFAULT" },
	{ ENOSPC, "ENOSPC" }, { ENODEV, "ENODEV" }, { EIO, "EIO" },
	{ EPERM, "EPERM" }, { EAGAIN, "EAGAIN" }, { ENOEXEC, "ENOEXEC" },
	{ EOPNOTSUPP, "EOPNOTSUPP" }, { EILSEQ, "EILSEQ" },
	{ EKEYREJECTED, "EKEYREJECTED" }, { ETXTBSY, "ETXTBSY" },
	{ ELOOP, "ELOOP" }, { E2BIG, "E2BIG" }, { EMSGSIZE, "EMSGSIZE" },
};

static const char *errname(int err)
{
	size_t i;

	if (!err)
		return "-";
	for (i = 0; i < sizeof(errnames) / sizeof(errnames[0]); i++)
		if (errnames[i].err == err)
			return errnames[i].name;
	return "E?";
}

static int usage(void)
{
	fprintf(stderr,
		"usage: fault_load N MODULE.ko [PARAM...]\n"
		"       fault_load N --write FILE TEXT\n"
		"       fault_load --sweep NAME FROM MODULE.ko [PARAM...]\n");
	return 2;
}

/* Read fail-nth back; -1 if it cannot be read. */
static long read_nth(int fd)
{
	char buf[32];
	ssize_t n;

	n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return strtol(buf, NULL, 10);
}

/* Join argv[from..argc) with spaces into params, as insmod does. */
static int join_params(char *params, size_t cap, int argc, char **argv,
		       int from)
{
	size_t len = 0;
	int i;

	params[0] = '\0';
	for (i = from; i < argc; i++) {
		size_t l = strlen(argv[i]);

		if (len + l + 2 > cap) {
			fprintf(stderr, "fault_load: parameters too long\n");
			return -1;
		}
		if (len)
			params[len++] = ' ';
		memcpy(params + len, argv[i], l + 1);
		len += l;
	}
	return 0;
}

/* --- --sweep --- */

#define SWEEP_MAX	100000
#define TEXT_MAX	(256 * 1024)

static const char *sweep_name;
static char hooks0[TEXT_MAX], hooks1[TEXT_MAX], pathbuf[512];
static unsigned long errcount[sizeof(errnames) / sizeof(errnames[0]) + 1];

/* The whole of a (small) file into buf, NUL-terminated; -1 if unreadable. */
static ssize_t slurp(const char *path, char *buf, size_t cap)
{
	ssize_t n, len = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	while ((n = read(fd, buf + len, cap - 1 - len)) > 0)
		len += n;
	close(fd);
	buf[len] = '\0';
	return n < 0 ? -1 : len;
}

/* The kernel's lists of ftrace hooks and kprobes, as one text. */
static void hooks_now(char *buf)
{
	ssize_t n = slurp("/sys/kernel/tracing/enabled_functions", buf,
			  TEXT_MAX / 2);
	size_t len = n < 0 ? 0 : (size_t)n;

	len += snprintf(buf + len, 32, "--- kprobes\n");
	if (slurp("/sys/kernel/debug/kprobes/list", buf + len,
		  TEXT_MAX - len) < 0)
		buf[len] = '\0';
}

/*
 * Does the generic netlink family exist?  1 yes, 0 no, -1 on error.
 * The controller resolves the name (libnl); a socket per question, since
 * a sweep asks between loads only.
 */
static int genl_family(const char *name)
{
	struct nl_sock *sk = nl_socket_alloc();
	int ret = -1;

	if (!sk)
		return -1;
	if (!genl_connect(sk)) {
		ret = genl_ctrl_resolve(sk, name);
		if (ret >= 0)
			ret = 1;
		else
			ret = ret == -NLE_OBJ_NOTFOUND ? 0 : -1;
	}
	nl_socket_free(sk);
	return ret;
}

static int sweep_fail(unsigned long n, const char *what)
{
	printf("FAIL nth %lu: %s\n", n, what);
	fflush(stdout);
	return 1;
}

/* After a failed load or an unload: nothing of NAME's is left. */
static int nothing_left(unsigned long n)
{
	char line[256];
	struct stat st;
	FILE *f;
	int fam;

	snprintf(pathbuf, sizeof(pathbuf), "/sys/module/%s", sweep_name);
	if (!stat(pathbuf, &st))
		return sweep_fail(n, "/sys/module entry left");
	f = fopen("/proc/modules", "re");
	if (!f)
		return sweep_fail(n, "cannot read /proc/modules");
	while (fgets(line, sizeof(line), f)) {
		size_t l = strlen(sweep_name);

		if (!strncmp(line, sweep_name, l) && line[l] == ' ') {
			fclose(f);
			return sweep_fail(n, "still in /proc/modules");
		}
	}
	fclose(f);
	snprintf(pathbuf, sizeof(pathbuf), "/sys/kernel/debug/%s", sweep_name);
	if (!stat(pathbuf, &st))
		return sweep_fail(n, "debugfs folder left");
	fam = genl_family(sweep_name);
	if (fam)
		return sweep_fail(n, fam > 0 ? "generic netlink family left" :
				  "cannot ask generic netlink");
	hooks_now(hooks1);
	if (strcmp(hooks0, hooks1)) {
		printf("    # hooks before: %s\n    # hooks now: %s\n", hooks0,
		       hooks1);
		return sweep_fail(n, "ftrace hooks or kprobes left");
	}
	return 0;
}

/* After a load that succeeded: it works, and it unloads. */
static int works_then_unload(unsigned long n)
{
	char buf[256];
	int fam;

	snprintf(pathbuf, sizeof(pathbuf), "/sys/kernel/debug/%s/control",
		 sweep_name);
	if (slurp(pathbuf, buf, sizeof(buf)) >= 0) {
		if (strncmp(buf, "variant ", 8))
			return sweep_fail(n, "control file does not read \"variant ...\"");
	} else if (errno != ENOENT) {
		return sweep_fail(n, "control file unreadable");
	}
	fam = genl_family(sweep_name);
	if (fam != 1)
		return sweep_fail(n, "loaded, but no generic netlink family");
	snprintf(pathbuf, sizeof(pathbuf), "/sys/module/%s/refcnt", sweep_name);
	if (slurp(pathbuf, buf, sizeof(buf)) < 0 || strcmp(buf, "0\n"))
		return sweep_fail(n, "reference count not 0 after the load");
	if (syscall(SYS_delete_module, sweep_name, O_NONBLOCK)) {
		snprintf(buf, sizeof(buf), "delete_module: %s", strerror(errno));
		return sweep_fail(n, buf);
	}
	return nothing_left(n);
}

static int errno_allowed(const char *allowed, const char *name)
{
	size_t l = strlen(name);
	const char *p = allowed;

	while ((p = strstr(p, name))) {
		if ((p == allowed || p[-1] == ',') && (!p[l] || p[l] == ','))
			return 1;
		p += l;
	}
	return 0;
}

/*
 * --sweep loads module NAME with the N-th point failing for N = FROM,
 * FROM + STEP, ... until a load passes all its points, in one process
 * (STEP from the environment's FAULT_STEP, default 1: every point; more
 * samples the points, for a shorter run): a process per load
 * cost the debug kernel a second before the load even began, and a sweep
 * is a thousand loads and more.  Between loads it checks what
 * tools/tests/guest/hardening_faults.sh would: after a failed load, that
 * the errno is one of FAULT_ERRNOS (environment, comma-separated names,
 * default ENOMEM) and that nothing is left: no /sys/module/NAME, no
 * NAME in /proc/modules, no /sys/kernel/debug/NAME, no generic netlink
 * family NAME, /sys/kernel/tracing/enabled_functions and
 * /sys/kernel/debug/kprobes/list as they were before the sweep; after a
 * load that succeeded (a fault the load survived, or none), that the
 * module works (debugfs's control file reads "variant ...", or if the
 * control file is missing, the netlink family is there), that its
 * reference count is 0, and that it unloads (delete_module(2)) leaving
 * nothing.  FAULT_VERBOSE=1 prints each load's line.  It ends with
 *   sweep loads L injected I survived S points P errnos NAME:COUNT,...
 * (P: the points of the load that passed them all), exit status 0, or a
 * line "FAIL nth N: ..." and exit status 1.
 */
static int sweep(int argc, char **argv)
{
	const char *allowed = getenv("FAULT_ERRNOS");
	const char *verbose = getenv("FAULT_VERBOSE");
	const char *stepenv = getenv("FAULT_STEP");
	unsigned long n, from, loads = 0, injected = 0, survived = 0, points;
	unsigned long step = 1;
	static char params[4096];
	char nth[32], *end;
	int fd, nthfd, ret, err, nlen;
	size_t i, ne = sizeof(errnames) / sizeof(errnames[0]);
	long left;

	if (argc < 5)
		return usage();
	sweep_name = argv[2];
	from = strtoul(argv[3], &end, 10);
	if (*end || !from || from > SWEEP_MAX)
		return usage();
	if (join_params(params, sizeof(params), argc, argv, 5))
		return 2;
	if (stepenv && *stepenv) {
		step = strtoul(stepenv, &end, 10);
		if (*end || !step || step > SWEEP_MAX)
			return usage();
	}
	if (!allowed || !*allowed)
		allowed = "ENOMEM";
	fd = open(argv[4], O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "fault_load: %s: %s\n", argv[4], strerror(errno));
		return 2;
	}
	nthfd = open(FAIL_NTH, O_RDWR | O_CLOEXEC);
	if (nthfd < 0) {
		fprintf(stderr, "fault_load: %s: %s\n", FAIL_NTH, strerror(errno));
		return 2;
	}
	if (mlockall(MCL_CURRENT | MCL_FUTURE)) {
		fprintf(stderr, "fault_load: mlockall: %s\n", strerror(errno));
		return 2;
	}
	hooks_now(hooks0);
	if (nothing_left(0))
		return 1;
	for (n = from; n <= SWEEP_MAX; n += step) {
		nlen = snprintf(nth, sizeof(nth), "%lu", n);
		if (write(nthfd, nth, nlen) != nlen) {
			fprintf(stderr, "fault_load: writing %s: %s\n", FAIL_NTH,
				strerror(errno));
			return 2;
		}
		ret = syscall(SYS_finit_module, fd, params, 0);
		err = ret ? errno : 0;
		left = read_nth(nthfd);
		if (write(nthfd, "0", 1) != 1 || left < 0) {
			fprintf(stderr, "fault_load: reading back %s\n", FAIL_NTH);
			return 2;
		}
		loads++;
		injected += left == 0;
		points = n - (unsigned long)left;
		if (verbose && *verbose == '1')
			printf("nth %lu injected %d points %lu ret %d errno %d %s\n",
			       n, left == 0, points, ret, err, errname(err));
		if (ret) {
			for (i = 0; i < ne && errnames[i].err != err; i++)
				;
			errcount[i]++;
			if (left != 0)
				return sweep_fail(n, "the load failed with nothing injected");
			if (!errno_allowed(allowed, errname(err))) {
				char what[128];

				snprintf(what, sizeof(what),
					 "failed with %s (errno %d), not one of %s",
					 errname(err), err, allowed);
				return sweep_fail(n, what);
			}
			if (nothing_left(n))
				return 1;
			continue;
		}
		if (works_then_unload(n))
			return 1;
		if (left != 0)
			break;
		survived++;
	}
	if (n > SWEEP_MAX)
		return sweep_fail(n, "no load passed all its points");
	printf("sweep loads %lu injected %lu survived %lu points %lu errnos ",
	       loads, injected, survived, points);
	for (i = 0, nlen = 0; i <= ne; i++)
		if (errcount[i])
			printf("%s%s:%lu", nlen++ ? "," : "",
			       i < ne ? errnames[i].name : "E?", errcount[i]);
	printf("%s\n", nlen ? "" : "-");
	return 0;
}

/*
 * The kernel counts down fail-nth at every fault-injection point this
 * thread passes and fails the one where it reaches 0.  So everything the
 * call needs is opened and made resident first (the module file, the
 * fail-nth file, mlockall() against page faults of our own), then N is
 * written and the call made at once in the same thread, then fail-nth is
 * read back: 0 means the N-th point was reached and failed, nonzero that
 * the call passed fewer than N points (and nothing was injected).  It is
 * reset to 0 before anything else happens.
 */
int main(int argc, char **argv)
{
	char params[4096] = "", nth[32], *end;
	int nthfd, fd, ret, err, nlen, write_mode;
	const char *text = NULL;
	unsigned long n;
	long left;

	if (argc >= 2 && !strcmp(argv[1], "--sweep"))
		return sweep(argc, argv);
	if (argc < 3)
		return usage();
	n = strtoul(argv[1], &end, 10);
	if (*end || !n || n > 1000000000UL)
		return usage();
	write_mode = !strcmp(argv[2], "--write");
	if (write_mode && argc != 5)
		return usage();
	if (write_mode)
		text = argv[4];
	else if (join_params(params, sizeof(params), argc, argv, 3))
		return 2;

	fd = open(write_mode ? argv[3] : argv[2],
		  (write_mode ? O_WRONLY : O_RDONLY) | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "fault_load: %s: %s\n",
			write_mode ? argv[3] : argv[2], strerror(errno));
		return 2;
	}
	nthfd = open(FAIL_NTH, O_RDWR | O_CLOEXEC);
	if (nthfd < 0) {
		fprintf(stderr, "fault_load: %s: %s (a kernel with FAULT_INJECTION?)\n",
			FAIL_NTH, strerror(errno));
		return 2;
	}
	/*
	 * No page fault of ours may come between: it would pass injection
	 * points (and fail one) outside the call under test.
	 */
	if (mlockall(MCL_CURRENT | MCL_FUTURE)) {
		fprintf(stderr, "fault_load: mlockall: %s\n", strerror(errno));
		return 2;
	}
	nlen = snprintf(nth, sizeof(nth), "%lu", n);

	if (write(nthfd, nth, nlen) != nlen) {
		fprintf(stderr, "fault_load: writing %s: %s\n", FAIL_NTH,
			strerror(errno));
		return 2;
	}
	if (write_mode)
		ret = write(fd, text, strlen(text)) < 0 ? -1 : 0;
	else
		ret = syscall(SYS_finit_module, fd, params, 0);
	err = ret ? errno : 0;
	left = read_nth(nthfd);
	if (write(nthfd, "0", 1) != 1 || left < 0) {
		fprintf(stderr, "fault_load: reading back %s: %s\n", FAIL_NTH,
			strerror(errno));
		return 2;
	}

	printf("nth %lu injected %d points %lu ret %d errno %d %s\n", n,
	       left == 0, n - (unsigned long)left, ret, err, errname(err));
	close(fd);
	close(nthfd);
	return ret ? 1 : 0;
}

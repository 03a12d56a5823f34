// SPDX-License-Identifier: GPL-2.0
/*
 * cpufreq_test.c - cmocka tests of tools/lib/cpufreq.c and
 * cpufreq_guard.c on made-up sysfs trees: policies read (inactive ones
 * left out, ids in number order), the governors' one-word and per-CPU
 * forms, boost from cpufreq/boost or intel_pstate's no_turbo, no cpufreq;
 * record --governors' list and its refusals ("did you mean"); governors
 * set and given back, a write that fails named; the guard giving them
 * back when its parent ends normally, exits, or is SIGKILLed, deaf to
 * SIGINT, SIGTERM and SIGHUP meanwhile, saying when it could not, and
 * record giving them back itself when the guard was killed.
 */
#define _GNU_SOURCE		/* PR_SET_CHILD_SUBREAPER */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <cmocka.h>
#include "test_files.h"

#include "../lib/cpufreq.h"
#include "../lib/cpufreq_guard.h"

#define CF "/sys/devices/system/cpu/cpufreq"

/* root/path with text, its folders made. */
static void put(const char *root, const char *path, const char *text)
{
	char full[512], cmd[640];

	snprintf(full, sizeof(full), "%s%s", root, path);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", full);
	assert_int_equal(system(cmd), 0);
	write_file(full, text, strlen(text));
}

/* Policy id of root: its online CPUs ("0 1"), governor, available ones. */
static void policy(const char *root, unsigned int id, const char *cpus,
		   const char *gov, const char *avail)
{
	char p[128];

	snprintf(p, sizeof(p), CF "/policy%u/affected_cpus", id);
	put(root, p, cpus);
	snprintf(p, sizeof(p), CF "/policy%u/scaling_governor", id);
	put(root, p, gov);
	snprintf(p, sizeof(p), CF "/policy%u/scaling_available_governors", id);
	put(root, p, avail);
	snprintf(p, sizeof(p), CF "/policy%u/scaling_driver", id);
	put(root, p, "acpi-cpufreq\n");
}

/* Policy id's scaling_governor now (static buffer). */
static const char *gov_of(const char *root, unsigned int id)
{
	static char buf[64];
	char p[512];
	FILE *f;

	snprintf(p, sizeof(p), "%s" CF "/policy%u/scaling_governor", root, id);
	f = fopen(p, "r");
	assert_non_null(f);
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

static char *governors(const struct cr_cpufreq *cf)
{
	int oom = 0;
	char *s = cr_cpufreq_governors(cf, &oom);

	assert_int_equal(oom, 0);
	return s;
}

static void test_read_one_governor(void **state)
{
	char *root = tmpdir(), *g;
	struct cr_cpufreq cf;

	(void)state;
	policy(root, 0, "0\n", "schedutil\n", "performance schedutil\n");
	policy(root, 1, "1\n", "schedutil\n", "performance schedutil\n");
	put(root, CF "/boost", "1\n");
	assert_int_equal(cr_cpufreq_read(root, &cf), 0);
	assert_int_equal(cf.n, 2);
	assert_string_equal(cf.driver, "acpi-cpufreq");
	assert_string_equal(cf.boost, "1");
	assert_string_equal(cf.p[1].available, "performance schedutil");
	g = governors(&cf);
	assert_string_equal(g, "schedutil");
	free(g);
	cr_cpufreq_free(&cf);
	free(root);
}

/*
 * Governors that differ: one word per governor, in the order of its
 * lowest CPU, the CPUs as a cpulist; policies of several CPUs; policy10
 * after policy2; a policy whose CPUs are offline (the kernel reads its
 * files as EBUSY: here, none) left out.
 */
static void test_read_per_cpu_form(void **state)
{
	char *root = tmpdir(), *g;
	struct cr_cpufreq cf;

	(void)state;
	policy(root, 0, "0 1\n", "performance\n", "performance powersave\n");
	policy(root, 2, "2 3\n", "performance\n", "performance powersave\n");
	policy(root, 10, "10\n", "schedutil\n", "performance schedutil\n");
	policy(root, 4, "4 5\n", "powersave\n", "performance powersave\n");
	policy(root, 6, "6\n", "performance\n", "performance powersave\n");
	policy(root, 7, "7\n", "powersave\n", "performance powersave\n");
	put(root, CF "/policy8/affected_cpus", "\n");
	put(root, CF "/policy8/scaling_governor", "userspace\n");
	put(root, CF "/policy9/related_cpus", "9\n");
	assert_int_equal(cr_cpufreq_read(root, &cf), 0);
	assert_int_equal(cf.n, 6);
	assert_int_equal(cf.p[0].id, 0);
	assert_int_equal(cf.p[1].id, 2);
	assert_int_equal(cf.p[5].id, 10);
	assert_int_equal(cf.p[0].ncpus, 2);
	assert_int_equal(cf.p[0].cpus[1], 1);
	assert_null(cf.boost);
	g = governors(&cf);
	assert_string_equal(g, "performance:0-3,6 powersave:4-5,7 schedutil:10");
	free(g);
	cr_cpufreq_free(&cf);
	free(root);
}

/* No cpufreq: nothing, and no boost even where a file says one. */
static void test_no_cpufreq(void **state)
{
	char *root = tmpdir(), err[512];
	struct cr_cpufreq cf;
	int oom = 0;

	(void)state;
	assert_int_equal(cr_cpufreq_read(root, &cf), 0);
	assert_int_equal(cf.n, 0);
	assert_null(cf.driver);
	assert_null(cr_cpufreq_governors(&cf, &oom));
	assert_int_equal(oom, 0);
	assert_int_equal(cr_cpufreq_check(&cf, "performance", err, sizeof(err)), -1);
	assert_string_equal(err, "this machine has no cpufreq driver (no " CF "/policy* with an online CPU): no governor to set");
	cr_cpufreq_free(&cf);
	put(root, CF "/boost", "0\n");
	put(root, "/sys/devices/system/cpu/intel_pstate/no_turbo", "0\n");
	assert_int_equal(cr_cpufreq_read(root, &cf), 0);
	assert_int_equal(cf.n, 0);
	assert_null(cf.boost);
	assert_null(cf.driver);
	cr_cpufreq_free(&cf);
	free(root);
}

/* Boost: cpufreq/boost as it reads, else no_turbo inverted, else none. */
static void test_boost_sources(void **state)
{
	static const char *const no_turbo[][2] = {
		{ "1\n", "0" }, { "0\n", "1" }, { "yes\n", NULL },
	};
	char *root = tmpdir();
	struct cr_cpufreq cf;
	size_t i;

	(void)state;
	policy(root, 0, "0\n", "powersave\n", "performance powersave\n");
	for (i = 0; i < 3; i++) {
		put(root, "/sys/devices/system/cpu/intel_pstate/no_turbo",
		    no_turbo[i][0]);
		assert_int_equal(cr_cpufreq_read(root, &cf), 0);
		if (no_turbo[i][1])
			assert_string_equal(cf.boost, no_turbo[i][1]);
		else
			assert_null(cf.boost);
		cr_cpufreq_free(&cf);
	}
	put(root, CF "/boost", "0\n");
	assert_int_equal(cr_cpufreq_read(root, &cf), 0);
	assert_string_equal(cf.boost, "0");
	cr_cpufreq_free(&cf);
	free(root);
}

static void expect_list_error(const char *list, const char *want)
{
	char names[4][CR_GOV_NAME], err[512];
	size_t n;

	assert_int_equal(cr_cpufreq_parse_list(list, names, 4, &n, err,
					       sizeof(err)), -1);
	assert_string_equal(err, want);
}

static void test_parse_list(void **state)
{
	char names[4][CR_GOV_NAME], err[512];
	size_t n;

	(void)state;
	assert_int_equal(cr_cpufreq_parse_list("performance,powersave,my_gov-2",
					       names, 4, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 3);
	assert_string_equal(names[0], "performance");
	assert_string_equal(names[2], "my_gov-2");
	assert_int_equal(cr_cpufreq_parse_list("abcdefghijklmno", names, 4, &n,
					       err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	expect_list_error("", "--governors is empty");
	expect_list_error("performance,", "--governors 'performance,': an empty item");
	expect_list_error(",a", "--governors ',a': an empty item");
	expect_list_error("a,,b", "--governors 'a,,b': an empty item");
	expect_list_error("abcdefghijklmnop", "--governors 'abcdefghijklmnop': 'abcdefghijklmnop' is longer than a governor's name can be (15 bytes)");
	expect_list_error("performance,Powersave", "--governors 'performance,Powersave': 'Powersave' is not a governor's name (lowercase letters, digits, '_' and '-')");
	expect_list_error("a b", "--governors 'a b': 'a b' is not a governor's name (lowercase letters, digits, '_' and '-')");
	expect_list_error("a,b,a", "--governors 'a,b,a': a twice");
	expect_list_error("a,b,c,d,e", "--governors 'a,b,c,d,e': more than 4 items");
}

/* Each policy must have the governor; the nearest named, and the list. */
static void test_check(void **state)
{
	char *root = tmpdir(), err[1024];
	struct cr_cpufreq cf;

	(void)state;
	policy(root, 0, "0\n", "schedutil\n", "performance powersave schedutil\n");
	assert_int_equal(cr_cpufreq_read(root, &cf), 0);
	assert_int_equal(cr_cpufreq_check(&cf, "powersave", err, sizeof(err)), 0);
	assert_int_equal(cr_cpufreq_check(&cf, "schedutil", err, sizeof(err)), 0);
	/* A word of the list, not a part of one. */
	assert_int_equal(cr_cpufreq_check(&cf, "power", err, sizeof(err)), -1);
	assert_int_equal(cr_cpufreq_check(&cf, "save", err, sizeof(err)), -1);
	assert_int_equal(cr_cpufreq_check(&cf, "powersav", err, sizeof(err)), -1);
	assert_string_equal(err, "no governor 'powersav' on this machine (did you mean powersave?); it has performance powersave schedutil (a governor built as a module is listed once loaded: modprobe cpufreq_NAME)");
	assert_int_equal(cr_cpufreq_check(&cf, "ondemand", err, sizeof(err)), -1);
	assert_string_equal(err, "no governor 'ondemand' on this machine; it has performance powersave schedutil (a governor built as a module is listed once loaded: modprobe cpufreq_NAME)");
	cr_cpufreq_free(&cf);
	/* A second policy without it is named. */
	policy(root, 1, "1\n", "schedutil\n", "performance schedutil\n");
	assert_int_equal(cr_cpufreq_read(root, &cf), 0);
	assert_int_equal(cr_cpufreq_check(&cf, "powersave", err, sizeof(err)), -1);
	assert_string_equal(err, "no governor 'powersave' on this machine (policy1); it has performance schedutil (a governor built as a module is listed once loaded: modprobe cpufreq_NAME)");
	cr_cpufreq_free(&cf);
	free(root);
}

/* Two policies of their own governors, read into cf. */
static void two_policies(const char *root, struct cr_cpufreq *cf)
{
	policy(root, 0, "0\n", "schedutil\n", "performance powersave schedutil\n");
	policy(root, 1, "1\n", "powersave\n", "performance powersave schedutil\n");
	assert_int_equal(cr_cpufreq_read(root, cf), 0);
	assert_int_equal(cf->n, 2);
}

/* Set on every policy, given back each its own; a failed write named. */
static void test_set_restore(void **state)
{
	char *root = tmpdir(), err[512], link[512];
	struct cr_cpufreq cf;

	(void)state;
	two_policies(root, &cf);
	assert_int_equal(cr_cpufreq_set(&cf, "performance", err, sizeof(err)), 0);
	assert_string_equal(gov_of(root, 0), "performance");
	assert_string_equal(gov_of(root, 1), "performance");
	assert_int_equal(cr_cpufreq_restore(&cf, err, sizeof(err)), 0);
	assert_string_equal(gov_of(root, 0), "schedutil");
	assert_string_equal(gov_of(root, 1), "powersave");
	/* policy0 takes no write (ENOSPC): named, policy1 given back. */
	assert_int_equal(cr_cpufreq_set(&cf, "performance", err, sizeof(err)), 0);
	snprintf(link, sizeof(link), "%s" CF "/policy0/scaling_governor", root);
	assert_int_equal(unlink(link), 0);
	assert_int_equal(symlink("/dev/full", link), 0);
	assert_int_equal(cr_cpufreq_set(&cf, "powersave", err, sizeof(err)), -1);
	assert_string_equal(err, CF "/policy0/scaling_governor: writing powersave: No space left on device");
	assert_int_equal(cr_cpufreq_restore(&cf, err, sizeof(err)), -1);
	assert_string_equal(err, CF "/policy0/scaling_governor: writing schedutil: No space left on device");
	assert_string_equal(gov_of(root, 1), "powersave");
	assert_int_equal(unlink(link), 0);
	cr_cpufreq_free(&cf);
	free(root);
}

/* The guard in this process's life: started, then ended normally. */
static void test_guard_normal_end(void **state)
{
	char *root = tmpdir(), err[512] = "";
	struct cr_cpufreq cf;
	struct cr_gov_guard g;

	(void)state;
	two_policies(root, &cf);
	assert_int_equal(cr_gov_guard_start(&cf, &g, err, sizeof(err)), 0);
	assert_true(g.pid > 0);
	assert_int_equal(cr_cpufreq_set(&cf, "performance", err, sizeof(err)), 0);
	/* Deaf to the terminal's signals: still there, nothing given back. */
	assert_int_equal(kill(g.pid, SIGINT), 0);
	assert_int_equal(kill(g.pid, SIGTERM), 0);
	assert_int_equal(kill(g.pid, SIGHUP), 0);
	usleep(200000);
	assert_int_equal(waitpid(g.pid, NULL, WNOHANG), 0);
	assert_string_equal(gov_of(root, 0), "performance");
	/* The end: given back by the time it returns. */
	assert_int_equal(cr_gov_guard_end(&g, &cf, err, sizeof(err)), 0);
	assert_int_equal(g.pid, 0);
	assert_string_equal(gov_of(root, 0), "schedutil");
	assert_string_equal(gov_of(root, 1), "powersave");
	/* Again: no guard, nothing to do. */
	assert_int_equal(cr_gov_guard_end(&g, &cf, err, sizeof(err)), 0);
	cr_cpufreq_free(&cf);
	free(root);
}

/* A guard killed on its own: the parent gives them back, and says so. */
static void test_guard_killed(void **state)
{
	char *root = tmpdir(), err[512] = "";
	struct cr_cpufreq cf;
	struct cr_gov_guard g;

	(void)state;
	two_policies(root, &cf);
	assert_int_equal(cr_gov_guard_start(&cf, &g, err, sizeof(err)), 0);
	assert_int_equal(cr_cpufreq_set(&cf, "performance", err, sizeof(err)), 0);
	assert_int_equal(kill(g.pid, SIGKILL), 0);
	assert_int_equal(cr_gov_guard_end(&g, &cf, err, sizeof(err)), 1);
	assert_string_equal(err, "the guard process died of Killed; the governors were given back by record");
	assert_string_equal(gov_of(root, 0), "schedutil");
	assert_string_equal(gov_of(root, 1), "powersave");
	cr_cpufreq_free(&cf);
	free(root);
}

/* A policy that takes no write: the guard says so, on stderr and to us. */
static void test_guard_cannot_restore(void **state)
{
	char *root = tmpdir(), err[512] = "", link[512], *out;
	struct cr_cpufreq cf;
	struct cr_gov_guard g;
	struct capture c;

	(void)state;
	two_policies(root, &cf);
	capture_begin(&c, 2);
	assert_int_equal(cr_gov_guard_start(&cf, &g, err, sizeof(err)), 0);
	assert_int_equal(cr_cpufreq_set(&cf, "performance", err, sizeof(err)), 0);
	snprintf(link, sizeof(link), "%s" CF "/policy0/scaling_governor", root);
	assert_int_equal(unlink(link), 0);
	assert_int_equal(symlink("/dev/full", link), 0);
	assert_int_equal(cr_gov_guard_end(&g, &cf, err, sizeof(err)), -1);
	out = capture_end(&c);
	assert_string_equal(err, "the guard process could not give every governor back");
	assert_string_equal(out, "clkstat-report: record: --governors: the governors were not all given back: " CF "/policy0/scaling_governor: writing schedutil: No space left on device\n");
	assert_string_equal(gov_of(root, 1), "powersave");
	assert_int_equal(unlink(link), 0);
	free(out);
	cr_cpufreq_free(&cf);
	free(root);
}

/* Wait up to 20 s for pid, a child of ours; its wait status. */
static int reap(pid_t pid)
{
	int ws, i;

	for (i = 0; i < 2000; i++) {
		if (waitpid(pid, &ws, WNOHANG) == pid)
			return ws;
		usleep(10000);
	}
	fail_msg("process %d did not end", (int)pid);
	return -1;
}

/*
 * A parent that ends without a word (exit, SIGKILL): its guard, ours to
 * reap as the subreaper, gives the governors back and exits 0.
 */
static void guard_outlives(int how)
{
	char *root = tmpdir(), err[512];
	struct cr_cpufreq cf;
	struct cr_gov_guard g;
	int p[2], ws;
	pid_t child, guard;

	two_policies(root, &cf);
	assert_int_equal(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
	assert_int_equal(pipe(p), 0);
	child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		close(p[0]);
		if (cr_gov_guard_start(&cf, &g, err, sizeof(err)) ||
		    cr_cpufreq_set(&cf, "performance", err, sizeof(err)) ||
		    write(p[1], &g.pid, sizeof(g.pid)) != sizeof(g.pid))
			_exit(3);
		/* Its copies: nothing for valgrind to count as lost. */
		cr_cpufreq_free(&cf);
		free(root);
		if (how == SIGKILL)
			raise(SIGKILL);
		_exit(0);
	}
	close(p[1]);
	assert_int_equal(read(p[0], &guard, sizeof(guard)), sizeof(guard));
	close(p[0]);
	/*
	 * Exit statuses but the signal's are not held to a value: under
	 * valgrind a process that ends without freeing what it inherited
	 * exits 99 (unit.sh).  The governors given back are the test.
	 */
	ws = reap(child);
	if (how == SIGKILL)
		assert_true(WIFSIGNALED(ws) && WTERMSIG(ws) == SIGKILL);
	else
		assert_true(WIFEXITED(ws) && WEXITSTATUS(ws) != 3);
	ws = reap(guard);
	assert_true(WIFEXITED(ws));
	assert_string_equal(gov_of(root, 0), "schedutil");
	assert_string_equal(gov_of(root, 1), "powersave");
	assert_int_equal(prctl(PR_SET_CHILD_SUBREAPER, 0), 0);
	cr_cpufreq_free(&cf);
	free(root);
}

static void test_guard_parent_exits(void **state)
{
	(void)state;
	guard_outlives(0);
}

static void test_guard_parent_killed(void **state)
{
	(void)state;
	guard_outlives(SIGKILL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_read_one_governor, teardown_dir),
		cmocka_unit_test_teardown(test_read_per_cpu_form, teardown_dir),
		cmocka_unit_test_teardown(test_no_cpufreq, teardown_dir),
		cmocka_unit_test_teardown(test_boost_sources, teardown_dir),
		cmocka_unit_test(test_parse_list),
		cmocka_unit_test_teardown(test_check, teardown_dir),
		cmocka_unit_test_teardown(test_set_restore, teardown_dir),
		cmocka_unit_test_teardown(test_guard_normal_end, teardown_dir),
		cmocka_unit_test_teardown(test_guard_killed, teardown_dir),
		cmocka_unit_test_teardown(test_guard_cannot_restore, teardown_dir),
		cmocka_unit_test_teardown(test_guard_parent_exits, teardown_dir),
		cmocka_unit_test_teardown(test_guard_parent_killed, teardown_dir),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * trace_spec_test.c - cmocka tests of the user-defined probes' grammar
 * (kmod/shared/clkstat_trace.h), the one parser the module, the twin's
 * loader and the tools share: every kind and option, canonical forms,
 * and each reason for a refusal.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "../../kmod/shared/clkstat_trace.h"

static const char *const errtext[CLKSTAT_TRACE_NERRORS] =
	CLKSTAT_TRACE_ERROR_TEXTS_INIT;

/* spec parses to canonical, kind, a, b, exit and cpu. */
static void ok(const char *spec, const char *canonical, int kind,
	       const char *a, const char *b, int ex, int cpu)
{
	struct clkstat_trace_spec t;
	int err = clkstat_trace_parse(spec, &t);

	if (err)
		fail_msg("'%s': %s", spec, errtext[err]);
	assert_string_equal(t.name, canonical);
	assert_int_equal(t.kind, kind);
	assert_string_equal(t.a, a);
	assert_string_equal(t.b, b);
	assert_int_equal(t.b_exit, ex);
	assert_int_equal(t.percpu, cpu);
	/* The canonical form is a fixed point. */
	assert_int_equal(clkstat_trace_parse(canonical, &t), 0);
	assert_string_equal(t.name, canonical);
}

static void bad(const char *spec, int want)
{
	struct clkstat_trace_spec t;
	int err = clkstat_trace_parse(spec, &t);

	if (err != want)
		fail_msg("'%s': got '%s', want '%s'", spec,
			 err ? errtext[err] : "valid", errtext[want]);
}

static void test_kinds(void **state)
{
	(void)state;
	ok("func:do_nanosleep", "func:do_nanosleep", CLKSTAT_TRACE_FUNC,
	   "do_nanosleep", "", 0, 0);
	ok("do_nanosleep", "func:do_nanosleep", CLKSTAT_TRACE_FUNC,
	   "do_nanosleep", "", 0, 0);
	ok("_x9", "func:_x9", CLKSTAT_TRACE_FUNC, "_x9", "", 0, 0);
	ok("sec:a-b", "sec:a-b", CLKSTAT_TRACE_SEC, "a", "b", 0, 0);
	ok("sec:a-b:exit", "sec:a-b:exit", CLKSTAT_TRACE_SEC, "a", "b", 1, 0);
	ok("sec:a-b:cpu", "sec:a-b:cpu", CLKSTAT_TRACE_SEC, "a", "b", 0, 1);
	ok("sec:a-b:cpu:exit", "sec:a-b:exit:cpu", CLKSTAT_TRACE_SEC, "a",
	   "b", 1, 1);
	ok("sec:f-f", "sec:f-f", CLKSTAT_TRACE_SEC, "f", "f", 0, 0);
	ok("tp:sys_enter-sys_exit", "tp:sys_enter-sys_exit",
	   CLKSTAT_TRACE_TP, "sys_enter", "sys_exit", 0, 0);
	ok("tp:x-y:cpu", "tp:x-y:cpu", CLKSTAT_TRACE_TP, "x", "y", 0, 1);
}

static void test_refusals(void **state)
{
	(void)state;
	bad("", CLKSTAT_TRACE_E_EMPTY);
	bad("9abc", CLKSTAT_TRACE_E_KIND);
	bad("foo:bar", CLKSTAT_TRACE_E_KIND);
	bad("-x", CLKSTAT_TRACE_E_KIND);
	bad("func:", CLKSTAT_TRACE_E_NAME);
	bad("func:a-b", CLKSTAT_TRACE_E_NAME);
	bad("func:a.isra.0", CLKSTAT_TRACE_E_NAME);
	bad("func:a b", CLKSTAT_TRACE_E_NAME);
	bad("func:a:exit", CLKSTAT_TRACE_E_KIND);
	bad("sec:", CLKSTAT_TRACE_E_NAME);
	bad("sec:a", CLKSTAT_TRACE_E_DASH);
	bad("sec:a:exit", CLKSTAT_TRACE_E_DASH);
	bad("sec:a-", CLKSTAT_TRACE_E_NAME);
	bad("sec:-b", CLKSTAT_TRACE_E_NAME);
	bad("sec:a-b-c", CLKSTAT_TRACE_E_NAME);
	bad("sec:a-9b", CLKSTAT_TRACE_E_NAME);
	bad("sec:a-b:", CLKSTAT_TRACE_E_OPTION);
	bad("sec:a-b:exit:exit", CLKSTAT_TRACE_E_OPTION);
	bad("sec:a-b:cpu:cpu", CLKSTAT_TRACE_E_OPTION);
	bad("sec:a-b:exitx", CLKSTAT_TRACE_E_OPTION);
	bad("sec:a-b:entry", CLKSTAT_TRACE_E_OPTION);
	bad("tp:x-y:exit", CLKSTAT_TRACE_E_OPTION);
	bad("sec:f-f:exit", CLKSTAT_TRACE_E_SAME_EXIT);
	bad("sec:f-f:cpu:exit", CLKSTAT_TRACE_E_SAME_EXIT);
}

static void test_lengths(void **state)
{
	char spec[200], want[200];
	struct clkstat_trace_spec t;

	(void)state;
	/* "func:" + 58 = 63 bytes: the longest name. */
	memset(want, 'a', sizeof(want));
	memcpy(want, "func:", 5);
	want[63] = '\0';
	assert_int_equal(clkstat_trace_parse(want, &t), 0);
	assert_string_equal(t.name, want);
	want[63] = 'a';
	want[64] = '\0';
	bad(want, CLKSTAT_TRACE_E_LONG);
	/* A bare name fits alone but not with its "func:". */
	memset(spec, 'b', 60);
	spec[60] = '\0';
	bad(spec, CLKSTAT_TRACE_E_LONG);
	/* A symbol longer than any name. */
	memset(spec, 'c', 150);
	memcpy(spec, "sec:", 4);
	strcpy(spec + 150, "-d");
	bad(spec, CLKSTAT_TRACE_E_LONG);
	/* Options count too: 57 bytes fit, ":exit:cpu" more does not. */
	snprintf(spec, sizeof(spec), "sec:%.26s-%.26s",
		 "eeeeeeeeeeeeeeeeeeeeeeeeeeeeee", "ffffffffffffffffffffffffffffff");
	assert_int_equal(clkstat_trace_parse(spec, &t), 0);
	strcat(spec, ":exit:cpu");
	bad(spec, CLKSTAT_TRACE_E_LONG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_lengths),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * snapshot_test.c - snapshot files (tools/lib/snapshot_*.c): round trips
 * with 64-bit extremes, every prefix of a snapshot rejected, each kind of
 * corrupt input rejected with its status and the JSON path in the message,
 * atomic writes that leave no temporary file, and reading files.
 *
 * Run under valgrind (tools/tests/unit.sh): leaks and invalid accesses
 * fail it too.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../kmod/uapi/clkstat_buckets.h"
#include "../lib/snapshot.h"
#include "../lib/status.h"

#include "snap_build.h"

/* Parse and expect status st; the message (one line) holds what. */
static void expect_parse(const char *text, size_t len, int st,
			 const char *what)
{
	struct cr_snapshot s;
	char err[1024];
	int got;

	memset(&s, 0xa5, sizeof(s));	/* the parser must not trust it */
	got = cr_snapshot_parse(text, len, &s, err, sizeof(err));
	if (got != st || (what && !strstr(err, what)))
		print_error("status %d (want %d), message: %s (want \"%s\")\n",
			    got, st, err, what ? what : "");
	assert_int_equal(got, st);
	if (st == CR_OK) {
		cr_snapshot_free(&s);
		return;
	}
	assert_empty(&s);
	assert_true(err[0] != '\0');
	assert_null(strchr(err, '\n'));
	if (what)
		assert_non_null(strstr(err, what));
}

/* ---------------------------------------------------------------- */
/* Round trips.                                                      */

static void test_round_trip(void **state)
{
	struct cr_snapshot a, b;
	char *text, *again, err[1024] = "";
	int st;

	(void)state;
	build_big(&a);
	text = cr_snapshot_format(&a);
	assert_non_null(text);
	/* u64 as exact integers, never through a double */
	assert_non_null(strstr(text, "18446744073709551615"));
	assert_non_null(strstr(text, "9223372036854775809"));	/* 2^63+1 */
	assert_non_null(strstr(text, "9007199254740993"));	/* 2^53+1 */
	assert_non_null(strstr(text, "\"duration_s\": 0.1,"));
	st = cr_snapshot_parse(text, strlen(text), &b, err, sizeof(err));
	if (st)
		print_error("%s\n", err);
	assert_int_equal(st, CR_OK);
	assert_snap_equal(&a, &b);
	/* the big values really are the extremes they should be */
	assert_true(b.runs[0].metrics[0].total.max == UINT64_MAX);
	assert_true(b.runs[0].metrics[0].total.min == 0);
	assert_true(b.runs[0].metrics[0].counters[0].value == UINT64_MAX);
	assert_true(b.runs[0].metrics[0].cpus[0].slots[1].count == P2(53) + 1);
	assert_true(b.runs[0].metrics[0].total.slots[1].sum > P2(63));
	assert_true(b.runs[2].end_ns == INT64_MAX);
	assert_string_equal(b.meta.hypervisor, "");
	again = cr_snapshot_format(&b);
	assert_non_null(again);
	assert_string_equal(text, again);
	free(again);
	free(text);
	cr_snapshot_free(&a);
	cr_snapshot_free(&b);
}

static void test_round_trip_null_meta(void **state)
{
	struct cr_snapshot a = { 0 }, b;
	char *text, err[1024] = "";
	int st;

	(void)state;
	text = cr_snapshot_format(&a);
	assert_non_null(text);
	assert_non_null(strstr(text, "\"tool_version\": null"));
	assert_non_null(strstr(text, "\"runs\": []"));
	st = cr_snapshot_parse(text, strlen(text), &b, err, sizeof(err));
	if (st)
		print_error("%s\n", err);
	assert_int_equal(st, CR_OK);
	assert_null(b.meta.tool_version);
	assert_null(b.meta.module_version);
	assert_null(b.meta.kernel_release);
	assert_null(b.meta.clocksource);
	assert_null(b.meta.probes);
	assert_null(b.meta.variants);
	assert_null(b.meta.command);
	assert_null(b.meta.machine);
	assert_null(b.meta.hypervisor);
	assert_null(b.meta.cpuidle_driver);
	assert_null(b.meta.cpuidle_governor);
	assert_null(b.meta.max_cstate);
	assert_null(b.meta.cmdline);
	assert_int_equal(b.meta.nparams, 0);
	assert_int_equal(b.nruns, 0);
	assert_snap_equal(&a, &b);
	free(text);
	cr_snapshot_free(&b);
}

/* Every proper prefix of a snapshot is CR_CORRUPT, never CR_OK. */
static void test_truncation(void **state)
{
	struct cr_snapshot a;
	char *text;
	size_t len, i;

	(void)state;
	build_small(&a);
	text = cr_snapshot_format(&a);
	assert_non_null(text);
	len = strlen(text);
	for (i = 0; i < len; i++)
		expect_parse(text, i, CR_CORRUPT, NULL);
	expect_parse(text, len, CR_OK, NULL);
	free(text);
	cr_snapshot_free(&a);
}

/* Any one byte changed or removed: a status, never a crash or a leak. */
static void test_mutations(void **state)
{
	static const char repl[] = { '\0', '"', '9', '-', '}', '[', ' ', 'x' };
	struct cr_snapshot a, s;
	char *text, *buf, err[1024];
	size_t len, i, j;
	int st;

	(void)state;
	build_small(&a);
	text = cr_snapshot_format(&a);
	assert_non_null(text);
	len = strlen(text);
	buf = malloc(len);
	assert_non_null(buf);
	for (i = 0; i < len; i++) {
		for (j = 0; j <= sizeof(repl); j++) {
			memcpy(buf, text, len);
			if (j < sizeof(repl)) {
				if (buf[i] == repl[j])
					continue;
				buf[i] = repl[j];
				st = cr_snapshot_parse(buf, len, &s, err,
						       sizeof(err));
			} else {	/* byte i removed */
				memmove(buf + i, buf + i + 1, len - i - 1);
				st = cr_snapshot_parse(buf, len - 1, &s, err,
						       sizeof(err));
			}
			assert_true(st == CR_OK || st == CR_CORRUPT ||
				    st == CR_FORMAT);
			if (st == CR_OK)
				cr_snapshot_free(&s);
			else
				assert_empty(&s);
		}
	}
	free(buf);
	free(text);
	cr_snapshot_free(&a);
}

/* ---------------------------------------------------------------- */
/* Corrupt inputs: a valid snapshot with one thing changed.           */

#define META "\"meta\": {\"tool_version\": \"0.1\", \"module_version\": null, " \
	"\"kernel_release\": \"6.8.0\", \"clocksource\": \"tsc\", " \
	"\"probes\": \"tkread\", \"variants\": \"base\", \"command\": null, " \
	"\"machine\": \"vm\", \"hypervisor\": \"KVM\", " \
	"\"cpuidle_driver\": null, \"cpuidle_governor\": \"menu\", " \
	"\"max_cstate\": null, \"cmdline\": \"quiet\", \"frac_bits\": 3, " \
	"\"nr_cpus\": 4, \"duration_s\": 1.5, \"params\": {\"frac_bits\": \"3\"}},\n"
/* frac_bits 3: 5 is exact slot 5, 1000 is slot 63 ([960, 1023]) */
#define METRIC(variant) "{\"name\": \"tkread\", \"variant\": \"" variant "\", " \
	"\"frac_bits\": 3, \"recording\": false, \"counters\": {\"dropped\": 0},\n" \
	"  \"total\": {\"min\": 5, \"max\": 1000, \"slots\": [[5, 2, 10], [63, 1, 1000]]},\n" \
	"  \"cpus\": [{\"cpu\": 0, \"min\": 5, \"max\": 5, \"slots\": [[5, 2, 10]]}, " \
	"{\"cpu\": 2, \"min\": 1000, \"max\": 1000, \"slots\": [[63, 1, 1000]]}]}"
#define BASE "{\"format\": \"clkstat-snapshot\", \"version\": 1,\n" META \
	"\"runs\": [{\"index\": 0, \"variant\": \"base\", \"start_ns\": 100, " \
	"\"end_ns\": 200, \"exit_status\": 0,\n \"metrics\": [" \
	METRIC("base") "]}]}\n"

/*
 * One byte past the limit of a name (CLKSTAT_NAME_MAX - 1), and as a
 * message shows it (its first 40 bytes).
 */
#define NAME64 "abcdefghijklmnopqrstuvwxyz012345abcdefghijklmnopqrstuvwxyz012345"
#define NAME64_SHOWN "abcdefghijklmnopqrstuvwxyz012345abcdefgh..."

/* text (malloc'd) with its first "from" replaced by "to". */
static char *mutate_str(const char *text, const char *from, const char *to)
{
	const char *p = strstr(text, from);
	size_t n;
	char *t;

	assert_non_null(p);
	n = strlen(text) - strlen(from) + strlen(to);
	t = malloc(n + 1);
	assert_non_null(t);
	snprintf(t, n + 1, "%.*s%s%s", (int)(p - text), text, to,
		 p + strlen(from));
	return t;
}

/* BASE with its first "from" replaced by "to". */
static char *mutate(const char *from, const char *to)
{
	const char *p = strstr(BASE, from);
	size_t n;
	char *t;

	assert_non_null(p);
	n = strlen(BASE) - strlen(from) + strlen(to);
	t = malloc(n + 1);
	assert_non_null(t);
	snprintf(t, n + 1, "%.*s%s%s", (int)(p - BASE), BASE, to,
		 p + strlen(from));
	return t;
}

static void expect_mutation(const char *from, const char *to, int st,
			    const char *what)
{
	char *t = mutate(from, to);

	expect_parse(t, strlen(t), st, what);
	free(t);
}

static void test_base_valid(void **state)
{
	struct cr_snapshot s;
	char err[1024] = "";
	int st;

	(void)state;
	st = cr_snapshot_parse(BASE, strlen(BASE), &s, err, sizeof(err));
	if (st)
		print_error("%s\n", err);
	assert_int_equal(st, CR_OK);
	assert_int_equal(s.nruns, 1);
	assert_int_equal(s.runs[0].nmetrics, 1);
	assert_int_equal(s.runs[0].metrics[0].ncpus, 2);
	assert_int_equal(s.runs[0].metrics[0].cpus[1].cpu, 2);
	assert_int_equal(s.runs[0].metrics[0].total.cpu, CR_CPU_ALL);
	assert_null(s.meta.module_version);
	assert_string_equal(s.meta.param_values[0], "3");
	assert_true(s.meta.duration_s == 1.5);
	/* a snapshot from before the key: not recorded */
	assert_int_equal(s.runs[0].workload_only, -1);
	cr_snapshot_free(&s);
}

/*
 * record --workload-only per run: written only where it was recorded,
 * read back as written, and false, true and absent each read as such.
 */
static void test_workload_only(void **state)
{
	static const struct { const char *to; int want; } c[] = {
		{ "\"exit_status\": 0, \"workload_only\": true", 1 },
		{ "\"exit_status\": 0, \"workload_only\": false", 0 },
		{ "\"exit_status\": 0", -1 },
	};
	struct cr_snapshot s;
	char err[1024] = "", *t, *text;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		t = mutate("\"exit_status\": 0", c[i].to);
		assert_int_equal(cr_snapshot_parse(t, strlen(t), &s, err,
						   sizeof(err)), CR_OK);
		assert_int_equal(s.runs[0].workload_only, c[i].want);
		text = cr_snapshot_format(&s);
		assert_non_null(text);
		if (c[i].want < 0)
			assert_null(strstr(text, "workload_only"));
		else
			assert_non_null(strstr(text, c[i].want ?
					       "\"workload_only\": true" :
					       "\"workload_only\": false"));
		free(text);
		cr_snapshot_free(&s);
		free(t);
	}
}

/*
 * Run tags, meta "conditions", "clock" and "host": read, kept in order,
 * written back only where set (a file without them is written without
 * them), as version 4.
 */
static void test_run_tags(void **state)
{
	struct cr_snapshot s, b;
	char err[1024] = "", *t, *u, *text;

	(void)state;
	t = mutate("\"exit_status\": 0",
		   "\"exit_status\": 0, \"tags\": {\"cstate\": \"qos0\", \"load\": \"busy:2\"}");
	u = mutate_str(t, "\"cmdline\": \"quiet\"",
		       "\"cmdline\": \"quiet\", \"conditions\": \"cstates=qos0,free load=idle,busy:2\", "
		       "\"clock\": \"mono (tsc until 5 ns, then clocksource hpet)\", "
		       "\"host\": \"node-17\"");
	assert_int_equal(cr_snapshot_parse(u, strlen(u), &s, err, sizeof(err)),
			 CR_OK);
	assert_int_equal(s.runs[0].ntags, 2);
	assert_string_equal(s.runs[0].tag_names[0], "cstate");
	assert_string_equal(cr_run_tag(&s.runs[0], "load"), "busy:2");
	assert_null(cr_run_tag(&s.runs[0], "other"));
	assert_string_equal(s.meta.conditions, "cstates=qos0,free load=idle,busy:2");
	assert_string_equal(s.meta.clock, "mono (tsc until 5 ns, then clocksource hpet)");
	assert_string_equal(s.meta.host, "node-17");
	text = cr_snapshot_format(&s);
	assert_non_null(text);
	assert_non_null(strstr(text, "\"version\": 5"));
	assert_int_equal(cr_snapshot_parse(text, strlen(text), &b, err,
					   sizeof(err)), CR_OK);
	assert_string_equal(cr_run_tag(&b.runs[0], "cstate"), "qos0");
	assert_string_equal(b.meta.conditions, s.meta.conditions);
	assert_string_equal(b.meta.clock, s.meta.clock);
	assert_string_equal(b.meta.host, "node-17");
	free(text);
	cr_snapshot_free(&b);
	cr_snapshot_free(&s);
	/* None of them: none written. */
	assert_int_equal(cr_snapshot_parse(BASE, strlen(BASE), &s, err,
					   sizeof(err)), CR_OK);
	assert_int_equal(s.runs[0].ntags, 0);
	assert_null(s.meta.conditions);
	assert_null(s.meta.clock);
	assert_null(s.meta.host);
	text = cr_snapshot_format(&s);
	assert_non_null(text);
	assert_null(strstr(text, "\"tags\""));
	assert_null(strstr(text, "\"conditions\""));
	assert_null(strstr(text, "\"clock\""));
	assert_null(strstr(text, "\"host\""));
	free(text);
	cr_snapshot_free(&s);
	free(t);
	free(u);
}

#define MUT(fn, from, to, st, what) \
static void fn(void **state) \
{ \
	(void)state; \
	expect_mutation(from, to, st, what); \
}

#define TOTAL_SLOTS "[[5, 2, 10], [63, 1, 1000]]"
#define T_PATH "runs[0].metrics[0].total"

/* Still valid: these must read. */
/* A user-defined probe's metric: its spec, ':' and '-', 63 bytes. */
MUT(test_ok_trace_name, "\"name\": \"tkread\"",
    "\"name\": \"sec:clkstat_tt_sec_begin_long_names-clkstat_tt_sec_end:exit:cpu\"",
    CR_OK, NULL)
MUT(test_ok_other_variant, "\"metrics\": [", "\"metrics\": [" METRIC("lfence") ", ",
    CR_OK, NULL)
MUT(test_ok_total_cpu_null, "\"total\": {", "\"total\": {\"cpu\": null, ", CR_OK, NULL)
MUT(test_ok_counter_u64_max, "{\"dropped\": 0}", "{\"dropped\": 18446744073709551615}",
    CR_OK, NULL)
MUT(test_ok_duration_integer, "\"duration_s\": 1.5", "\"duration_s\": 2", CR_OK, NULL)

/* The format and its version. */
MUT(test_tags_read, "\"params\": {\"frac_bits\": \"3\"}",
    "\"params\": {\"frac_bits\": \"3\"}, \"tags\": {}", CR_OK, NULL)
MUT(test_tag_not_string, "\"params\": {\"frac_bits\": \"3\"}",
    "\"params\": {\"frac_bits\": \"3\"}, \"tags\": {\"cstate\": 1}",
    CR_CORRUPT, "meta.tags.cstate: expected a string, found an integer")
MUT(test_tag_bad_key, "\"params\": {\"frac_bits\": \"3\"}",
    "\"params\": {\"frac_bits\": \"3\"}, \"tags\": {\"c state\": \"1\"}",
    CR_CORRUPT, "a key is letters, digits")
MUT(test_tag_empty_value, "\"params\": {\"frac_bits\": \"3\"}",
    "\"params\": {\"frac_bits\": \"3\"}, \"tags\": {\"cstate\": \"\"}",
    CR_CORRUPT, "the value is empty")
MUT(test_tags_not_object, "\"params\": {\"frac_bits\": \"3\"}",
    "\"params\": {\"frac_bits\": \"3\"}, \"tags\": []",
    CR_CORRUPT, "meta.tags: expected an object")

MUT(test_wrong_format, "\"clkstat-snapshot\"", "\"clkstat-snapshop\"", CR_FORMAT,
    "format: \"clkstat-snapshop\": not a clkstat snapshot")
MUT(test_missing_format, "\"format\": \"clkstat-snapshot\", ", "", CR_CORRUPT,
    "member \"format\" is missing")
MUT(test_version_2, "\"version\": 1", "\"version\": 2", CR_OK, NULL)
MUT(test_version_3, "\"version\": 1", "\"version\": 3", CR_OK, NULL)
MUT(test_version_4, "\"version\": 1", "\"version\": 4", CR_OK, NULL)
MUT(test_version_5, "\"version\": 1", "\"version\": 5", CR_OK, NULL)
MUT(test_version_6, "\"version\": 1", "\"version\": 6", CR_FORMAT,
    "version 6: this clkstat-report reads versions 1 to 5")
MUT(test_version_0, "\"version\": 1", "\"version\": 0", CR_FORMAT,
    "version 0: this clkstat-report reads versions 1 to 5")

/* A run's own tags (record --cstates, --load) and meta "conditions". */
MUT(test_run_tag_not_string, "\"exit_status\": 0",
    "\"exit_status\": 0, \"tags\": {\"cstate\": 0}", CR_CORRUPT,
    "runs[0].tags.cstate: expected a string, found an integer")
MUT(test_run_tag_bad_key, "\"exit_status\": 0",
    "\"exit_status\": 0, \"tags\": {\"c=state\": \"qos0\"}", CR_CORRUPT,
    "a key is letters, digits")
MUT(test_run_tag_empty, "\"exit_status\": 0",
    "\"exit_status\": 0, \"tags\": {\"load\": \"\"}", CR_CORRUPT,
    "runs[0].tags.load: --tag load: the value is empty")
MUT(test_run_tags_not_object, "\"exit_status\": 0",
    "\"exit_status\": 0, \"tags\": [\"qos0\"]", CR_CORRUPT,
    "runs[0].tags: expected an object, found an array")
MUT(test_conditions_not_string, "\"cmdline\": \"quiet\"",
    "\"cmdline\": \"quiet\", \"conditions\": 0", CR_CORRUPT,
    "meta.conditions: expected a string or null")
MUT(test_version_beyond_u64, "\"version\": 1", "\"version\": 18446744073709551617",
    CR_CORRUPT, "line 1, column 43: integer 18446744073709551617 does not fit in 64 bits")
MUT(test_version_string, "\"version\": 1", "\"version\": \"1\"", CR_CORRUPT,
    "version: expected an integer, found the string \"1\"")
MUT(test_version_double, "\"version\": 1", "\"version\": 1.0", CR_CORRUPT,
    "version: expected an integer")

/* Slots. */
MUT(test_slots_object, TOTAL_SLOTS, "{\"5\": [2, 10]}", CR_CORRUPT,
    T_PATH ".slots: expected an array, found an object")
MUT(test_slot_not_triple, TOTAL_SLOTS, "[[5, 2]]", CR_CORRUPT,
    T_PATH ".slots[0]: expected [slot, count, sum]")
MUT(test_slot_out_of_range, TOTAL_SLOTS, "[[5, 2, 10], [496, 1, 1000]]", CR_CORRUPT,
    T_PATH ".slots[1]: slot 496 is beyond the last slot, 495, of frac_bits 3")
MUT(test_slots_descending, TOTAL_SLOTS, "[[63, 1, 1000], [5, 2, 10]]", CR_CORRUPT,
    T_PATH ".slots[1]: slot 5 after slot 63")
MUT(test_slots_repeated, TOTAL_SLOTS, "[[5, 1, 5], [5, 1, 5], [63, 1, 1000]]",
    CR_CORRUPT, T_PATH ".slots[1]: slot 5 after slot 5")
MUT(test_zero_count, TOTAL_SLOTS, "[[5, 0, 0], [63, 1, 1000]]", CR_CORRUPT,
    T_PATH ".slots[0]: slot 5 has count 0")
MUT(test_negative_count, TOTAL_SLOTS, "[[5, -2, 10], [63, 1, 1000]]", CR_CORRUPT,
    T_PATH ".slots[0][1]: negative")
MUT(test_fractional_count, TOTAL_SLOTS, "[[5, 1.5, 10], [63, 1, 1000]]", CR_CORRUPT,
    T_PATH ".slots[0][1]: expected an integer, found the number 1.5")
MUT(test_absurd_count, TOTAL_SLOTS, "[[5, 9223372036854775808, 10], [63, 1, 1000]]",
    CR_CORRUPT, T_PATH ".slots[0]: slot 5 has count 9223372036854775808: the histogram would hold more than 2^62")
MUT(test_absurd_total, "\"total\": {\"min\": 5, \"max\": 1000, \"slots\": [[5",
    "\"total\": {\"min\": 0, \"max\": 1000, \"slots\": [[0, 4611686018427387903, 0], [5",
    CR_CORRUPT, T_PATH ".slots[1]: slot 5 has count 2: the histogram would hold more than 2^62")
MUT(test_beyond_u64, TOTAL_SLOTS, "[[5, 18446744073709551616, 10], [63, 1, 1000]]",
    CR_CORRUPT, "integer 18446744073709551616 does not fit in 64 bits")
MUT(test_sum_too_big, TOTAL_SLOTS, "[[5, 2, 11], [63, 1, 1000]]", CR_CORRUPT,
    T_PATH ".slots[0]: sum 11 is impossible for count 2 in slot 5")
MUT(test_sum_too_small, TOTAL_SLOTS, "[[5, 2, 10], [63, 1, 959]]", CR_CORRUPT,
    T_PATH ".slots[1]: sum 959 is impossible for count 1 in slot 63 ([960, 1023] ns): it must be within [960, 1023]")
MUT(test_sum_shifted, TOTAL_SLOTS, "[[5, 2, 10], [304, 1, 1]]", CR_CORRUPT,
    T_PATH ".slots[1]: sum 1 is impossible for count 1 in slot 304 ([1099511627776, 1236950581247] ns, each added >> 8): it must be within [4294967296, 4831838207]")
MUT(test_sum_beyond_u64, TOTAL_SLOTS, "[[495, 4611686018427387904, 0]]", CR_CORRUPT,
    T_PATH ".slots[0]: count 4611686018427387904 in slot 495 ([17293822569102704640, 18446744073709551615] ns) cannot have a 64-bit sum")
MUT(test_frac_bits_9, "\"frac_bits\": 3, \"recording\"", "\"frac_bits\": 9, \"recording\"",
    CR_CORRUPT, "runs[0].metrics[0].frac_bits: 9 is above 5")

/* Names. */
MUT(test_name_too_long, "\"name\": \"tkread\"", "\"name\": \"" NAME64 "\"", CR_CORRUPT,
    "runs[0].metrics[0].name: \"" NAME64_SHOWN "\" is 64 bytes long, the limit is 63")
MUT(test_name_empty, "\"name\": \"tkread\"", "\"name\": \"\"", CR_CORRUPT,
    "runs[0].metrics[0].name: empty name")
MUT(test_variant_too_long, "\"variant\": \"base\", \"frac_bits\"",
    "\"variant\": \"0123456789abcdef\", \"frac_bits\"", CR_CORRUPT,
    "runs[0].metrics[0].variant: \"0123456789abcdef\" is 16 bytes long, the limit is 15")
MUT(test_run_variant_empty, "\"variant\": \"base\", \"start_ns\"",
    "\"variant\": \"\", \"start_ns\"", CR_CORRUPT, "runs[0].variant: empty name")
MUT(test_duplicate_metric, "\"metrics\": [", "\"metrics\": [" METRIC("base") ", ",
    CR_CORRUPT, "runs[0].metrics[1]: duplicate metric tkread.base (also metrics[0])")

/* Counters. */
MUT(test_too_many_counters, "{\"dropped\": 0}",
    "{\"a\": 1, \"b\": 2, \"c\": 3, \"d\": 4, \"e\": 5, \"f\": 6, \"g\": 7, \"h\": 8, \"i\": 9}",
    CR_CORRUPT, "runs[0].metrics[0].counters: 9 counters, the limit is 8")
MUT(test_counter_name_too_long, "{\"dropped\": 0}", "{\"" NAME64 "\": 0}", CR_CORRUPT,
    "runs[0].metrics[0].counters." NAME64_SHOWN ": \"" NAME64_SHOWN "\" is 64 bytes long")
MUT(test_counter_negative, "{\"dropped\": 0}", "{\"dropped\": -1}", CR_CORRUPT,
    "runs[0].metrics[0].counters.dropped: negative: -1")

/* Totals and CPUs. */
MUT(test_total_disagrees, "\"slots\": [[63, 1, 1000]]}]", "\"slots\": [[63, 2, 2000]]}]",
    CR_CORRUPT, T_PATH ": slot 63 has count 1 and sum 1000, the CPUs' add up to count 2 and sum 2000")
MUT(test_total_missing_slot, TOTAL_SLOTS, "[[5, 2, 10]]", CR_CORRUPT,
    "max 1000 is not in the last slot")
MUT(test_total_min_disagrees, "{\"cpu\": 0, \"min\": 5, \"max\": 5, \"slots\": [[5, 2, 10]]}",
    "{\"cpu\": 0, \"min\": 5, \"max\": 5, \"slots\": [[5, 2, 10]]}, "
    "{\"cpu\": 1, \"min\": 6, \"max\": 6, \"slots\": [[6, 1, 6]]}",
    CR_CORRUPT, T_PATH ": slot 6 has count 0 and sum 0, the CPUs' add up to count 1 and sum 6")
MUT(test_duplicate_cpu, "{\"cpu\": 2,", "{\"cpu\": 0,", CR_CORRUPT,
    "runs[0].metrics[0].cpus[1]: cpu 0 is listed twice")
MUT(test_cpus_descending, "{\"cpu\": 0,", "{\"cpu\": 3,", CR_CORRUPT,
    "runs[0].metrics[0].cpus[1]: cpu 2 after cpu 3")
MUT(test_cpu_all, "{\"cpu\": 2,", "{\"cpu\": 4294967295,", CR_CORRUPT,
    "runs[0].metrics[0].cpus[1].cpu: 4294967295 is above 4294967294")
MUT(test_cpu_without_samples, "\"slots\": [[63, 1, 1000]]}]", "\"slots\": []}]",
    CR_CORRUPT, "runs[0].metrics[0].cpus[1]: cpu 2 has no samples")
MUT(test_total_with_cpu, "\"total\": {", "\"total\": {\"cpu\": 1, ", CR_CORRUPT,
    T_PATH ".cpu: expected null or no member")
MUT(test_min_above_max, "{\"cpu\": 0, \"min\": 5, \"max\": 5,",
    "{\"cpu\": 0, \"min\": 5, \"max\": 4,", CR_CORRUPT,
    "runs[0].metrics[0].cpus[0]: min 5 is above max 4")
MUT(test_min_outside_slot, "\"total\": {\"min\": 5,", "\"total\": {\"min\": 4,",
    CR_CORRUPT, T_PATH ": min 4 is not in the first slot, 5 ([5, 5])")
MUT(test_max_outside_slot, "\"max\": 1000, \"slots\"", "\"max\": 1024, \"slots\"",
    CR_CORRUPT, T_PATH ": max 1024 is not in the last slot, 63 ([960, 1023])")
MUT(test_min_null_with_samples, "\"total\": {\"min\": 5,", "\"total\": {\"min\": null,",
    CR_CORRUPT, T_PATH ".min: expected an integer, found null")

/* Runs. */
MUT(test_run_index, "\"index\": 0", "\"index\": 1", CR_CORRUPT,
    "runs[0].index: index 1 for the run at position 0")
MUT(test_exit_status_256, "\"exit_status\": 0", "\"exit_status\": 256", CR_CORRUPT,
    "runs[0].exit_status: 256 is outside [-1, 255]")
MUT(test_start_negative, "\"start_ns\": 100", "\"start_ns\": -1", CR_CORRUPT,
    "runs[0].start_ns: -1 is outside")
MUT(test_start_above_i64, "\"start_ns\": 100", "\"start_ns\": 9223372036854775808",
    CR_CORRUPT, "runs[0].start_ns: 9223372036854775808 is above")

/* Members and types. */
MUT(test_unknown_member, "\"recording\": false", "\"recording\": false, \"colour\": 1",
    CR_CORRUPT, "runs[0].metrics[0].colour: unknown member")
MUT(test_missing_member, "\"recording\": false, ", "", CR_CORRUPT,
    "runs[0].metrics[0]: member \"recording\" is missing")
MUT(test_workload_only_not_bool, "\"exit_status\": 0",
    "\"exit_status\": 0, \"workload_only\": 1", CR_CORRUPT,
    "runs[0].workload_only: expected true or false, found an integer")
MUT(test_recording_not_bool, "\"recording\": false", "\"recording\": 0", CR_CORRUPT,
    "runs[0].metrics[0].recording: expected true or false, found an integer")
MUT(test_duplicate_key, "\"recording\": false", "\"recording\": false, \"recording\": true",
    CR_CORRUPT, "runs[0].metrics[0]: a member name appears more than once")
MUT(test_duplicate_key_escaped, "\"recording\": false",
    "\"recording\": false, \"recordin\\u0067\": true", CR_CORRUPT,
    "runs[0].metrics[0]: a member name appears more than once")
MUT(test_meta_string_type, "\"tool_version\": \"0.1\"", "\"tool_version\": 1", CR_CORRUPT,
    "meta.tool_version: expected a string or null, found an integer")
MUT(test_param_not_string, "{\"frac_bits\": \"3\"}", "{\"frac_bits\": 3}", CR_CORRUPT,
    "meta.params.frac_bits: expected a string, found an integer")
MUT(test_meta_frac_bits, "\"frac_bits\": 3, \"nr_cpus\"", "\"frac_bits\": 6, \"nr_cpus\"",
    CR_CORRUPT, "meta.frac_bits: 6 is above 5")
MUT(test_duration_negative, "\"duration_s\": 1.5", "\"duration_s\": -1.5", CR_CORRUPT,
    "meta.duration_s: expected a finite number of seconds")
MUT(test_duration_nan, "\"duration_s\": 1.5", "\"duration_s\": NaN", CR_CORRUPT,
    "only true, false and null are literals")
MUT(test_runs_not_array, "\"runs\": [", "\"runs\": {\"a\": [", CR_CORRUPT, NULL)

/* Lexical: what json-c would accept or change silently. */
MUT(test_nul_escape, "\"cmdline\": \"quiet\"", "\"cmdline\": \"qu\\u0000iet\"",
    CR_CORRUPT, "\\u0000 in a string")
MUT(test_single_quotes, "\"cmdline\": \"quiet\"", "'cmdline': \"quiet\"", CR_CORRUPT,
    "single-quoted")
MUT(test_raw_control, "\"cmdline\": \"quiet\"", "\"cmdline\": \"qu\tiet\"", CR_CORRUPT,
    "control character")
MUT(test_leading_zero, "\"nr_cpus\": 4", "\"nr_cpus\": 00", CR_CORRUPT,
    "not a valid JSON number")
MUT(test_trailing_comma, "\"params\": {\"frac_bits\": \"3\"}", "\"params\": {\"frac_bits\": \"3\",}",
    CR_CORRUPT, "not valid JSON")

/* Not JSON, or not only JSON. */
static void test_trailing_garbage(void **state)
{
	static const char *const tails[] = { "x", "{}", "\n}", "\0" };
	char buf[sizeof(BASE) + 8];
	size_t i, n;

	(void)state;
	for (i = 0; i < sizeof(tails) / sizeof(tails[0]); i++) {
		n = strlen(BASE);
		memcpy(buf, BASE, n);
		memcpy(buf + n, tails[i], strlen(tails[i]) + 1);
		n += strlen(tails[i]) ? strlen(tails[i]) : 1;
		expect_parse(buf, n, CR_CORRUPT, "trailing data after the JSON object");
	}
	/* trailing white space is fine */
	expect_parse(BASE "  \n\t\r\n", strlen(BASE) + 6, CR_OK, NULL);
}

static void test_empty(void **state)
{
	(void)state;
	expect_parse("", 0, CR_CORRUPT, "empty");
	expect_parse(" \n\t ", 4, CR_CORRUPT, "empty");
	expect_parse(NULL, 0, CR_CORRUPT, "empty");
}

static void test_not_json(void **state)
{
	(void)state;
	expect_parse("hello", 5, CR_CORRUPT, "not valid JSON: line 1, column 1");
	expect_parse("{\n\"format\" \"x\"}", 15, CR_CORRUPT, "line 2, column");
	expect_parse("[]", 2, CR_CORRUPT, "expected an object at the top level, found an array");
	expect_parse("null ", 5, CR_CORRUPT, "expected an object at the top level, found null");
	expect_parse("{\"a\": \"x\0y\"}", 12, CR_CORRUPT, "a NUL byte");
	expect_parse("{\"a\": ", 6, CR_CORRUPT, "truncated");
}

static void test_deep_nesting(void **state)
{
	const size_t n = 100000;
	char *t = malloc(5 * n);
	size_t i;

	(void)state;
	assert_non_null(t);
	memset(t, '[', n);
	expect_parse(t, n, CR_CORRUPT, "too deep");
	for (i = 0; i < n; i++)
		memcpy(t + 5 * i, "{\"a\":", 5);
	expect_parse(t, 5 * n, CR_CORRUPT, "too deep");
	free(t);
}

static void test_no_err_buffer(void **state)
{
	struct cr_snapshot s;

	(void)state;
	assert_int_equal(cr_snapshot_parse("[", 1, &s, NULL, 0), CR_CORRUPT);
	assert_empty(&s);
	assert_int_equal(cr_snapshot_parse(BASE, strlen(BASE), &s, NULL, 0),
			 CR_OK);
	cr_snapshot_free(&s);
}

#include "test_files.h"

static void test_write_read_back(void **state)
{
	struct cr_snapshot a, b;
	char *dir = tmpdir(), *path = join(dir, "snap.json");
	struct stat st;

	(void)state;
	build_big(&a);
	assert_int_equal(cr_snapshot_write(&a, path), CR_OK);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0644);
	assert_int_equal(dir_entries(dir, "snap.json"), 1);
	assert_int_equal(cr_snapshot_read(path, &b), CR_OK);
	assert_snap_equal(&a, &b);
	cr_snapshot_free(&b);
	cr_snapshot_free(&a);
	free(path);
	free(dir);
}

/* A relative path: the temporary file goes to the current directory. */
static void test_write_relative(void **state)
{
	struct cr_snapshot a, b;
	char *dir = tmpdir(), cwd[PATH_MAX];

	(void)state;
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(dir), 0);
	build_small(&a);
	assert_int_equal(cr_snapshot_write(&a, "rel.json"), CR_OK);
	assert_int_equal(dir_entries(".", "rel.json"), 1);
	assert_int_equal(cr_snapshot_read("rel.json", &b), CR_OK);
	assert_snap_equal(&a, &b);
	assert_int_equal(chdir(cwd), 0);
	cr_snapshot_free(&b);
	cr_snapshot_free(&a);
	free(dir);
}

/* An existing, longer file is replaced whole: nothing of it remains. */
static void test_write_replaces(void **state)
{
	struct cr_snapshot a, b;
	char *dir = tmpdir(), *path = join(dir, "snap.json");
	size_t n = 1 << 20;
	char *junk = malloc(n);

	(void)state;
	assert_non_null(junk);
	memset(junk, '}', n);
	write_file(path, junk, n);
	build_small(&a);
	assert_int_equal(cr_snapshot_write(&a, path), CR_OK);
	assert_int_equal(cr_snapshot_read(path, &b), CR_OK);
	assert_snap_equal(&a, &b);
	assert_int_equal(dir_entries(dir, "snap.json"), 1);
	cr_snapshot_free(&b);
	cr_snapshot_free(&a);
	free(junk);
	free(path);
	free(dir);
}

static void test_write_no_dir(void **state)
{
	struct cr_snapshot a;
	char *dir = tmpdir(), *path = join(dir, "nonexistent/snap.json");
	struct capture c;
	char *out;
	int st;

	(void)state;
	build_small(&a);
	capture_begin(&c, 2);
	st = cr_snapshot_write(&a, path);
	out = capture_end(&c);
	assert_int_equal(st, CR_ERR);
	assert_one_line(out, path, "No such file or directory");
	assert_int_equal(dir_entries(dir, NULL), 0);
	cr_snapshot_free(&a);
	free(out);
	free(path);
	free(dir);
}

/*
 * A failure after the temporary file was made (the write over the file
 * size limit: EFBIG; 512 bytes, below the snapshot's and above the
 * captured error line's): CR_ERR naming the step, the temporary file removed,
 * the old file untouched.
 */
static void test_write_fails_late(void **state)
{
	struct cr_snapshot a;
	char *dir = tmpdir(), *path = join(dir, "target");
	struct rlimit old, small = { .rlim_cur = 512 };
	void (*was)(int);
	struct capture c;
	char buf[16] = { 0 };
	int st, fd;
	char *out;

	(void)state;
	write_file(path, "old", 3);
	build_small(&a);
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	small.rlim_max = old.rlim_max;
	was = signal(SIGXFSZ, SIG_IGN);	/* EFBIG, not the signal */
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
	capture_begin(&c, 2);
	st = cr_snapshot_write(&a, path);
	out = capture_end(&c);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	signal(SIGXFSZ, was);
	assert_int_equal(st, CR_ERR);
	assert_one_line(out, path, "write: File too large");
	assert_int_equal(dir_entries(dir, "target"), 1);
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(read(fd, buf, sizeof(buf)), 3);
	assert_string_equal(buf, "old");
	close(fd);
	cr_snapshot_free(&a);
	free(out);
	free(path);
	free(dir);
}

/*
 * A target there but not as a regular file (a folder here; a device such
 * as /dev/null as root) is left alone: the rename would replace it.
 * CR_ERR in one line before any temporary file.
 */
static void test_write_not_regular(void **state)
{
	struct cr_snapshot a;
	char *dir = tmpdir(), *path = join(dir, "target");
	struct capture c;
	struct stat sb;
	int st;
	char *out;

	(void)state;
	assert_int_equal(mkdir(path, 0755), 0);
	build_small(&a);
	capture_begin(&c, 2);
	st = cr_snapshot_write(&a, path);
	out = capture_end(&c);
	assert_int_equal(st, CR_ERR);
	assert_one_line(out, path, "not a regular file");
	assert_int_equal(dir_entries(dir, "target"), 1);
	assert_int_equal(stat(path, &sb), 0);
	assert_true(S_ISDIR(sb.st_mode));
	cr_snapshot_free(&a);
	free(out);
	free(path);
	free(dir);
}

static void test_write_stdout(void **state)
{
	struct cr_snapshot a, b;
	struct capture c;
	char *out, err[1024] = "";
	int st;

	(void)state;
	build_small(&a);
	capture_begin(&c, 1);
	st = cr_snapshot_write(&a, "-");
	out = capture_end(&c);
	assert_int_equal(st, CR_OK);
	assert_int_equal(out[strlen(out) - 1], '\n');
	st = cr_snapshot_parse(out, strlen(out), &b, err, sizeof(err));
	if (st)
		print_error("%s\n", err);
	assert_int_equal(st, CR_OK);
	assert_snap_equal(&a, &b);
	cr_snapshot_free(&b);
	cr_snapshot_free(&a);
	free(out);
}

static void test_read_missing(void **state)
{
	struct cr_snapshot s;
	struct capture c;
	char *out;
	int st;

	(void)state;
	memset(&s, 0xa5, sizeof(s));
	capture_begin(&c, 2);
	st = cr_snapshot_read("/nonexistent/snap.json", &s);
	out = capture_end(&c);
	assert_int_equal(st, CR_NO_FILE);
	assert_empty(&s);
	assert_one_line(out, "/nonexistent/snap.json", "No such file or directory");
	free(out);
}

static void test_read_directory(void **state)
{
	struct cr_snapshot s;
	char *dir = tmpdir();
	struct capture c;
	char *out;
	int st;

	(void)state;
	capture_begin(&c, 2);
	st = cr_snapshot_read(dir, &s);
	out = capture_end(&c);
	assert_int_equal(st, CR_NO_FILE);
	assert_empty(&s);
	assert_one_line(out, dir, "Is a directory");
	free(out);
	free(dir);
}

static void test_read_corrupt(void **state)
{
	struct cr_snapshot s;
	char *dir = tmpdir(), *path = join(dir, "bad.json");
	char *t = mutate("[[5, 2, 10],", "[[5, 2, 11],");
	struct capture c;
	char *out;
	int st;

	(void)state;
	write_file(path, t, strlen(t));
	capture_begin(&c, 2);
	st = cr_snapshot_read(path, &s);
	out = capture_end(&c);
	assert_int_equal(st, CR_CORRUPT);
	assert_empty(&s);
	assert_one_line(out, path, T_PATH ".slots[0]: sum 11 is impossible");
	free(out);
	free(t);
	free(path);
	free(dir);
}

static void test_read_format(void **state)
{
	struct cr_snapshot s;
	char *dir = tmpdir(), *path = join(dir, "v6.json");
	char *t = mutate("\"version\": 1", "\"version\": 6");
	struct capture c;
	char *out;
	int st;

	(void)state;
	write_file(path, t, strlen(t));
	capture_begin(&c, 2);
	st = cr_snapshot_read(path, &s);
	out = capture_end(&c);
	assert_int_equal(st, CR_FORMAT);
	assert_empty(&s);
	assert_one_line(out, path, "version 6: this clkstat-report reads versions 1 to 5");
	free(out);
	free(t);
	free(path);
	free(dir);
}

/* Beyond 1 GiB: refused before reading (a sparse file costs nothing). */
static void test_read_too_large(void **state)
{
	struct cr_snapshot s;
	char *dir = tmpdir(), *path = join(dir, "big.json");
	struct capture c;
	char *out;
	int st;
	int fd;

	(void)state;
	fd = open(path, O_WRONLY | O_CREAT, 0600);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, (1L << 30) + 1), 0);
	close(fd);
	capture_begin(&c, 2);
	st = cr_snapshot_read(path, &s);
	out = capture_end(&c);
	assert_int_equal(st, CR_CORRUPT);
	assert_empty(&s);
	assert_one_line(out, path, "too large");
	free(out);
	free(path);
	free(dir);
}

static void test_read_stdin(void **state)
{
	struct cr_snapshot s;
	char *dir = tmpdir(), *path = join(dir, "in.json");
	int saved, fd;

	(void)state;
	write_file(path, BASE, strlen(BASE));
	saved = dup(0);
	fd = open(path, O_RDONLY);
	assert_true(saved >= 0 && fd >= 0);
	assert_true(dup2(fd, 0) >= 0);
	close(fd);
	assert_int_equal(cr_snapshot_read("-", &s), CR_OK);
	assert_true(dup2(saved, 0) >= 0);
	close(saved);
	assert_int_equal(s.nruns, 1);
	cr_snapshot_free(&s);
	free(path);
	free(dir);
}

/* ---------------------------------------------------------------- */
/* Several inputs: cr_snapshot_merge(), cr_snapshot_meta_diff().     */

static size_t lines(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* The same file twice, and the same run in two files, are refused. */
static void test_merge_refuses_twice(void **state)
{
	struct cr_snapshot all = { 0 }, a, b;
	struct capture c;
	char *err;

	(void)state;
	build_small(&a);
	run(&a, "other", 300, 400, 0);
	build_small(&b);
	assert_int_equal(cr_snapshot_merge(&all, &a, "a.json"), CR_OK);
	assert_int_equal(all.nruns, 2);
	assert_int_equal(all.ninputs, 1);
	capture_begin(&c, 2);
	assert_int_equal(cr_snapshot_merge(&all, &b, "b.json"), CR_USAGE);
	err = capture_end(&c);
	assert_one_line(err, "b.json", "run 0 is run 0 of a.json again");
	free(err);
	assert_int_equal(all.nruns, 2);		/* unchanged */
	cr_snapshot_free(&b);

	/* The second run of a, alone in a file of its own. */
	memset(&b, 0, sizeof(b));
	run(&b, "fresh", 500, 600, 0);
	run(&b, "other", 300, 400, 0);
	capture_begin(&c, 2);
	assert_int_equal(cr_snapshot_merge(&all, &b, "c.json"), CR_USAGE);
	err = capture_end(&c);
	assert_one_line(err, "c.json", "run 1 is run 1 of a.json again");
	free(err);
	cr_snapshot_free(&b);

	/* Times unknown: the same histograms are the same run... */
	memset(&a, 0, sizeof(a));
	sample(metric(run(&a, "x", 0, 0, 0), "m", "x", 3, 1), 0, 77, 5);
	assert_int_equal(cr_snapshot_merge(&all, &a, "d.json"), CR_OK);
	memset(&b, 0, sizeof(b));
	sample(metric(run(&b, "x", 0, 0, 0), "m", "x", 3, 1), 0, 77, 5);
	capture_begin(&c, 2);
	assert_int_equal(cr_snapshot_merge(&all, &b, "e.json"), CR_USAGE);
	err = capture_end(&c);
	assert_one_line(err, "e.json", "run 0 is run 0 of d.json again");
	free(err);
	cr_snapshot_free(&b);
	/* ... other histograms, or runs of no sample, are not. */
	memset(&b, 0, sizeof(b));
	sample(metric(run(&b, "x", 0, 0, 0), "m", "x", 3, 1), 0, 78, 5);
	run(&b, "x", 0, 0, 0);
	assert_int_equal(cr_snapshot_merge(&all, &b, "f.json"), CR_OK);
	memset(&b, 0, sizeof(b));
	run(&b, "x", 0, 0, 0);
	assert_int_equal(cr_snapshot_merge(&all, &b, "g.json"), CR_OK);
	assert_int_equal(all.nruns, 6);
	assert_int_equal(all.ninputs, 4);
	assert_int_equal(all.runs[5].index, 5);
	assert_int_equal(all.runs[5].input, 3);
	assert_string_equal(all.inputs[3].path, "g.json");
	assert_string_equal(all.meta.tool_version, "0.4");	/* the first's */
	assert_string_equal(cr_run_meta(&all, &all.runs[0])->machine,
			    "bare-metal");
	assert_null(cr_run_meta(&all, &all.runs[5])->machine);
	cr_snapshot_free(&all);
}

/*
 * Meta cpufreq_driver, cpufreq_governor and cpufreq_boost (version 5):
 * there, as strings or null, the recording has them (null: none on the
 * machine), and they are written back so; absent, it has not (an older
 * file), and they are not written.
 */
static void test_cpufreq_meta(void **state)
{
	struct cr_snapshot s, b;
	char err[1024] = "", *t, *text;

	(void)state;
	t = mutate("\"cmdline\": \"quiet\"",
		   "\"cmdline\": \"quiet\", \"cpufreq_driver\": \"intel_pstate\", "
		   "\"cpufreq_governor\": \"performance:0 powersave:1\", "
		   "\"cpufreq_boost\": \"0\"");
	assert_int_equal(cr_snapshot_parse(t, strlen(t), &s, err, sizeof(err)),
			 CR_OK);
	assert_int_equal(s.meta.cpufreq_recorded, 1);
	assert_string_equal(s.meta.cpufreq_driver, "intel_pstate");
	assert_string_equal(s.meta.cpufreq_governor, "performance:0 powersave:1");
	assert_string_equal(s.meta.cpufreq_boost, "0");
	text = cr_snapshot_format(&s);
	assert_non_null(text);
	assert_int_equal(cr_snapshot_parse(text, strlen(text), &b, err,
					   sizeof(err)), CR_OK);
	assert_snap_equal(&s, &b);
	free(text);
	cr_snapshot_free(&b);
	cr_snapshot_free(&s);
	free(t);
	/* null: none on this machine; written as null. */
	t = mutate("\"cmdline\": \"quiet\"",
		   "\"cmdline\": \"quiet\", \"cpufreq_driver\": null, "
		   "\"cpufreq_governor\": null, \"cpufreq_boost\": null");
	assert_int_equal(cr_snapshot_parse(t, strlen(t), &s, err, sizeof(err)),
			 CR_OK);
	assert_int_equal(s.meta.cpufreq_recorded, 1);
	assert_null(s.meta.cpufreq_driver);
	text = cr_snapshot_format(&s);
	assert_non_null(text);
	assert_non_null(strstr(text, "\"cpufreq_driver\": null"));
	assert_non_null(strstr(text, "\"cpufreq_governor\": null"));
	assert_non_null(strstr(text, "\"cpufreq_boost\": null"));
	free(text);
	cr_snapshot_free(&s);
	free(t);
	/* Absent: not recorded, and not written. */
	assert_int_equal(cr_snapshot_parse(BASE, strlen(BASE), &s, err,
					   sizeof(err)), CR_OK);
	assert_int_equal(s.meta.cpufreq_recorded, 0);
	text = cr_snapshot_format(&s);
	assert_non_null(text);
	assert_null(strstr(text, "cpufreq"));
	free(text);
	cr_snapshot_free(&s);
}

MUT(test_cpufreq_not_string, "\"cmdline\": \"quiet\"",
    "\"cmdline\": \"quiet\", \"cpufreq_governor\": 1", CR_CORRUPT,
    "meta.cpufreq_governor: expected a string or null")

/*
 * cpufreq fields between inputs: a file that did not record them is no
 * difference; two that did and differ are one warning each.
 */
static void test_meta_diff_cpufreq(void **state)
{
	struct cr_snapshot all = { 0 }, a, b, c3;
	struct capture c;
	char *err;

	(void)state;
	build_small(&a);
	a.meta.cpufreq_recorded = 1;
	a.meta.cpufreq_driver = xstrdup("acpi-cpufreq");
	a.meta.cpufreq_governor = xstrdup("schedutil");
	build_small(&b);
	b.runs[0].start_ns = 1000;
	build_small(&c3);
	c3.runs[0].start_ns = 2000;
	c3.meta.cpufreq_recorded = 1;
	c3.meta.cpufreq_driver = xstrdup("acpi-cpufreq");
	c3.meta.cpufreq_governor = xstrdup("performance");
	assert_int_equal(cr_snapshot_merge(&all, &a, "a.json"), CR_OK);
	assert_int_equal(cr_snapshot_merge(&all, &b, "b.json"), CR_OK);
	capture_begin(&c, 2);
	assert_int_equal(cr_snapshot_meta_diff(stderr, &all, NULL), 0);
	err = capture_end(&c);
	free(err);
	assert_int_equal(cr_snapshot_merge(&all, &c3, "c.json"), CR_OK);
	capture_begin(&c, 2);
	assert_int_equal(cr_snapshot_meta_diff(stderr, &all, NULL), 1);
	err = capture_end(&c);
	assert_string_equal(err, "clkstat-report: warning: the inputs' metadata differ: cpufreq_governor is 'schedutil' in a.json, 'performance' in c.json\n");
	free(err);
	cr_snapshot_free(&all);
}

/* One warning line per field that differs, naming both files. */
static void test_meta_diff(void **state)
{
	struct cr_snapshot all = { 0 }, a, b;
	struct capture c;
	char *err;

	(void)state;
	build_small(&a);
	assert_int_equal(cr_meta_add_tag(&a.meta, "cstate", "1"), 0);
	build_small(&b);
	b.runs[0].start_ns = 1000;
	b.runs[0].end_ns = 2000;
	free(b.meta.machine);
	b.meta.machine = xstrdup("vm");
	b.meta.nr_cpus = 2;
	assert_int_equal(cr_meta_add_param(&b.meta, "events", "64"), 0);
	assert_int_equal(cr_meta_add_tag(&b.meta, "cstate", "free"), 0);
	/* Hosts differ in a fleet by design: no warning (meta or tag). */
	a.meta.host = xstrdup("n1");
	b.meta.host = xstrdup("n2");
	assert_int_equal(cr_meta_add_tag(&a.meta, "host", "t1"), 0);
	assert_int_equal(cr_meta_add_tag(&b.meta, "host", "t2"), 0);
	assert_int_equal(cr_snapshot_merge(&all, &a, "a.json"), CR_OK);
	/* One input: nothing to compare. */
	assert_int_equal(cr_snapshot_meta_diff(stderr, &all, NULL), 0);
	assert_int_equal(cr_snapshot_merge(&all, &b, "b.json"), CR_OK);
	capture_begin(&c, 2);
	assert_int_equal(cr_snapshot_meta_diff(stderr, &all, NULL), 4);
	err = capture_end(&c);
	assert_int_equal(lines(err), 4);
	assert_non_null(strstr(err, "clkstat-report: warning: the inputs' metadata differ: machine is 'bare-metal' in a.json, 'vm' in b.json\n"));
	assert_non_null(strstr(err, ": nr_cpus is '4' in a.json, '2' in b.json\n"));
	assert_non_null(strstr(err, ": param:events is '-' in a.json, '64' in b.json\n"));
	assert_non_null(strstr(err, ": tag:cstate is '1' in a.json, 'free' in b.json\n"));
	free(err);
	/* The factor --compare groups by is no warning. */
	capture_begin(&c, 2);
	assert_int_equal(cr_snapshot_meta_diff(stderr, &all, "tag:cstate"), 3);
	err = capture_end(&c);
	free(err);
	cr_snapshot_free(&all);
}

/*
 * record --tag: KEY=VALUE checked; the tags round-trip in the snapshot
 * (meta.tags, in the order given), a file without tags has none and is
 * written without the member, as before.
 */
static void test_tags(void **state)
{
	struct cr_snapshot a, b;
	struct cr_meta m = { 0 };
	char *text, err[256];
	int st;

	(void)state;
	assert_int_equal(cr_meta_tag_arg(&m, "cstate=1", err, sizeof(err)), 0);
	assert_int_equal(cr_meta_tag_arg(&m, "load=hackbench -g 4", err, sizeof(err)), 0);
	assert_int_equal(cr_meta_tag_arg(&m, "cstate=2", err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--tag cstate given twice");
	assert_int_equal(cr_meta_tag_arg(&m, "=1", err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--tag '=1': KEY=VALUE");
	assert_int_equal(cr_meta_tag_arg(&m, "cstate", err, sizeof(err)), -EINVAL);
	assert_int_equal(cr_meta_tag_arg(&m, "a b=1", err, sizeof(err)), -EINVAL);
	assert_int_equal(cr_meta_tag_arg(&m, "gov=", err, sizeof(err)), -EINVAL);
	assert_int_equal(cr_meta_tag_arg(&m, "gov=a\tb", err, sizeof(err)), -EINVAL);
	assert_int_equal(m.ntags, 2);
	assert_string_equal(cr_meta_tag(&m, "load"), "hackbench -g 4");
	assert_null(cr_meta_tag(&m, "gov"));
	cr_meta_free(&m);

	build_small(&a);
	text = cr_snapshot_format(&a);
	assert_non_null(text);
	assert_null(strstr(text, "\"tags\""));	/* no tags: as before */
	free(text);
	assert_int_equal(cr_meta_tag_arg(&a.meta, "cstate=free", err, sizeof(err)), 0);
	assert_int_equal(cr_meta_tag_arg(&a.meta, "machine=vm-1", err, sizeof(err)), 0);
	text = cr_snapshot_format(&a);
	assert_non_null(text);
	assert_non_null(strstr(text, "\"tags\": {"));
	assert_non_null(strstr(text, "\"cstate\": \"free\","));
	st = cr_snapshot_parse(text, strlen(text), &b, err, sizeof(err));
	if (st)
		print_error("%s\n", err);
	assert_int_equal(st, CR_OK);
	assert_snap_equal(&a, &b);
	assert_string_equal(cr_meta_tag(&b.meta, "cstate"), "free");
	free(text);
	cr_snapshot_free(&a);
	cr_snapshot_free(&b);
}

/* ---------------------------------------------------------------- */
/* A run's events (format version 2).                                */

#define EV_COLS "[\"ts_ns\", \"type\", \"cpu\", \"pid\", \"corr\", " \
	"\"latency_ns\", \"migrated\", \"rq_clock_ns\", \"text\"]"
#define EV_ROW0 "[100, \"wakeup\", 1, 42, 7, null, null, null, null]"
#define EV_ROW1 "[150, \"enqueue\", 2, 42, 7, 50, true, 149, null]"
#define EV_ROW2 "[150, \"marker\", 0, 9, 0, null, null, null, \"pp_begin\"]"
#define EVS "{\"lost\": 3, \"clock\": [{\"mono_ns\": 90, \"realtime_ns\": 1000}], " \
	"\"columns\": " EV_COLS ", \"rows\": [" EV_ROW0 ", " EV_ROW1 ", " EV_ROW2 "]}"
#define E_PATH "runs[0].events"

/* BASE with run 0's events: ev, and one "from" in it replaced by "to". */
static void expect_events(const char *from, const char *to, int st,
			  const char *what)
{
	char ev[2048], *t, *q;
	const char *p;

	p = from ? strstr(EVS, from) : NULL;
	assert_true(!from || p);
	if (p)
		snprintf(ev, sizeof(ev), "%.*s%s%s", (int)(p - EVS), EVS, to,
			 p + strlen(from));
	else
		snprintf(ev, sizeof(ev), "%s", to ? to : EVS);
	q = malloc(strlen(ev) + 64);
	assert_non_null(q);
	sprintf(q, "\"exit_status\": 0, \"events\": %s,", ev);
	t = mutate("\"exit_status\": 0,", q);
	expect_parse(t, strlen(t), st, what);
	free(t);
	free(q);
}

#define EVMUT(fn, from, to, st, what) \
static void fn(void **state) \
{ \
	(void)state; \
	expect_events(from, to, st, what); \
}

static void test_events_read(void **state)
{
	const struct clkstat_event_rec *e;
	struct cr_snapshot s;
	char err[1024] = "", *t, *q;
	int st;

	(void)state;
	q = malloc(strlen(EVS) + 64);
	assert_non_null(q);
	sprintf(q, "\"exit_status\": 0, \"events\": %s,", EVS);
	t = mutate("\"exit_status\": 0,", q);
	st = cr_snapshot_parse(t, strlen(t), &s, err, sizeof(err));
	if (st)
		print_error("%s\n", err);
	assert_int_equal(st, CR_OK);
	assert_int_equal(s.runs[0].events.present, 1);
	assert_true(s.runs[0].events.lost == 3);
	assert_int_equal(s.runs[0].events.nclock, 1);
	assert_true(s.runs[0].events.clock[0].mono_ns == 90);
	assert_true(s.runs[0].events.clock[0].realtime_ns == 1000);
	assert_int_equal(s.runs[0].events.n, 3);
	e = &s.runs[0].events.ev[1];
	assert_int_equal(e->type, CLKSTAT_EV_ENQUEUE);
	assert_true(e->ts == 150 && e->cpu == 2 && e->pid == 42 &&
		    e->corr == 7 && e->latency == 50 && e->rq_clock == 149);
	assert_int_equal(e->flags, CLKSTAT_EVF_LATENCY | CLKSTAT_EVF_MIGRATED |
			 CLKSTAT_EVF_RQ_CLOCK);
	e = &s.runs[0].events.ev[0];
	assert_int_equal(e->flags, 0);
	assert_string_equal(e->text, "");
	e = &s.runs[0].events.ev[2];
	assert_int_equal(e->type, CLKSTAT_EV_MARKER);
	assert_string_equal(e->text, "pp_begin");
	cr_snapshot_free(&s);
	free(t);
	free(q);
}

/* Columns are mapped by name: any order, any subset with ts_ns and type. */
static void test_events_columns_by_name(void **state)
{
	struct cr_snapshot s;
	char err[1024] = "", *t;
	static const char *ev = "\"exit_status\": 0, \"events\": {\"lost\": 0, "
		"\"clock\": [], \"columns\": [\"migrated\", \"type\", \"ts_ns\"], "
		"\"rows\": [[false, \"first_tkread\", 18446744073709551615]]},";
	int st;

	(void)state;
	t = mutate("\"exit_status\": 0,", ev);
	st = cr_snapshot_parse(t, strlen(t), &s, err, sizeof(err));
	if (st)
		print_error("%s\n", err);
	assert_int_equal(st, CR_OK);
	assert_int_equal(s.runs[0].events.n, 1);
	assert_true(s.runs[0].events.ev[0].ts == UINT64_MAX);
	assert_int_equal(s.runs[0].events.ev[0].type, CLKSTAT_EV_FIRST_TKREAD);
	assert_int_equal(s.runs[0].events.ev[0].flags, CLKSTAT_EVF_LOCAL);
	assert_int_equal(s.runs[0].events.nclock, 0);
	cr_snapshot_free(&s);
	free(t);
}

/* The writer: version 4, a row per line, u64 exact, nulls as null. */
static void test_events_written(void **state)
{
	struct cr_snapshot a, b;
	struct cr_run *r;
	char *text, err[1024];

	(void)state;
	build_big(&a);
	text = cr_snapshot_format(&a);
	assert_non_null(text);
	assert_non_null(strstr(text, "\"version\": 5,"));
	assert_non_null(strstr(text, "\"events\": 100000"));
	assert_non_null(strstr(text, "\"columns\": " EV_COLS));
	assert_non_null(strstr(text, "[9007199254740993, \"enqueue\", 3, 77, 9007199254740995, 9223372036854775809, true, 18446744073709551615, null]"));
	assert_non_null(strstr(text, "[9223372036854775809, \"first_tkread\", 65535, 77, 18446744073709551615, 0, false, null, null]"));
	assert_non_null(strstr(text, "[0, \"marker\", 0, 1, 0, null, null, null, \"run_start\"]"));
	assert_non_null(strstr(text, "\"lost\": 9007199254740993"));
	/* a run recorded with events that came to none */
	assert_non_null(strstr(text, "\"rows\": []"));
	free(text);
	cr_snapshot_free(&a);
	/* text: '"' and '\\' escaped, other than printable ASCII as '?' */
	memset(&a, 0, sizeof(a));
	r = run(&a, "base", 1, 2, 0);
	event(r, 1, CLKSTAT_EV_MARKER, 0, 0, 0, 0, 0, 0, "a\"b\\c\x01\xc2");
	event(r, 2, CLKSTAT_EV_MARKER, 0, 0, 0, 0, 0, 0, "");
	memset(r->events.ev[1].text, 'x', sizeof(r->events.ev[1].text));
	text = cr_snapshot_format(&a);
	assert_non_null(text);
	assert_non_null(strstr(text, "null, \"a\\\"b\\\\c??\"]"));
	assert_non_null(strstr(text, "\"xxxxxxxxxxxxxxx\"]"));	/* 15 */
	assert_int_equal(cr_snapshot_parse(text, strlen(text), &b, err,
					   sizeof(err)), CR_OK);
	assert_string_equal(b.runs[0].events.ev[0].text, "a\"b\\c??");
	assert_string_equal(b.runs[0].events.ev[1].text, "xxxxxxxxxxxxxxx");
	free(text);
	cr_snapshot_free(&a);
	cr_snapshot_free(&b);
	/* without --events: no "events" anywhere, as version 1 wrote */
	memset(&a, 0, sizeof(a));
	assert_non_null(run(&a, "base", 1, 2, 0));
	text = cr_snapshot_format(&a);
	assert_non_null(text);
	assert_null(strstr(text, "events"));
	free(text);
	cr_snapshot_free(&a);
}

EVMUT(test_events_not_object, NULL, "[]", CR_CORRUPT,
      E_PATH ": expected an object, found an array")
EVMUT(test_events_unknown_member, "\"lost\": 3", "\"lost\": 3, \"dropped\": 1",
      CR_CORRUPT, E_PATH ".dropped: unknown member")
EVMUT(test_events_no_rows, ", \"rows\": [" EV_ROW0 ", " EV_ROW1 ", " EV_ROW2 "]",
      "", CR_CORRUPT, E_PATH ": member \"rows\" is missing")
EVMUT(test_events_no_lost, "\"lost\": 3, ", "", CR_CORRUPT,
      E_PATH ": member \"lost\" is missing")
EVMUT(test_events_lost_negative, "\"lost\": 3", "\"lost\": -3", CR_CORRUPT,
      E_PATH ".lost: negative")
EVMUT(test_events_three_clocks, "\"clock\": [", "\"clock\": [{\"mono_ns\": 1, "
      "\"realtime_ns\": 2}, {\"mono_ns\": 1, \"realtime_ns\": 2}, ", CR_CORRUPT,
      E_PATH ".clock: 3 clock pairs, at most 2")
EVMUT(test_events_clock_half, ", \"realtime_ns\": 1000", "", CR_CORRUPT,
      E_PATH ".clock[0]: member \"realtime_ns\" is missing")
EVMUT(test_events_clock_string, "\"mono_ns\": 90", "\"mono_ns\": \"90\"",
      CR_CORRUPT, E_PATH ".clock[0].mono_ns: expected an integer")
EVMUT(test_events_unknown_column, "\"rq_clock_ns\"", "\"rq_clock\"", CR_CORRUPT,
      E_PATH ".columns[7]: unknown column \"rq_clock\"")
EVMUT(test_events_column_twice, "\"cpu\", \"pid\"", "\"cpu\", \"cpu\"",
      CR_CORRUPT, E_PATH ".columns[3]: column \"cpu\" twice")
EVMUT(test_events_no_ts_column, "[\"ts_ns\", ", "[", CR_CORRUPT,
      E_PATH ".columns: no \"ts_ns\" column")
EVMUT(test_events_row_short, EV_ROW1, "[150, \"enqueue\", 2, 42, 7, 50, true, 149]",
      CR_CORRUPT, E_PATH ".rows[1]: 8 values for 9 columns")
EVMUT(test_events_row_object, EV_ROW1, "{}", CR_CORRUPT,
      E_PATH ".rows[1]: expected an array (a row), found an object")
EVMUT(test_events_migrated_bad, "true", "\"yes\"", CR_CORRUPT,
      E_PATH ".rows[1]: \"migrated\" is not true, false or null (found the string \"yes\")")
EVMUT(test_events_migrated_int, "true", "1", CR_CORRUPT,
      E_PATH ".rows[1]: \"migrated\" is not true, false or null")
EVMUT(test_events_type_unknown, "\"wakeup\"", "\"wake\"", CR_CORRUPT,
      E_PATH ".rows[0]: \"type\": unknown event type \"wake\"")
EVMUT(test_events_ts_null, "[100,", "[null,", CR_CORRUPT,
      E_PATH ".rows[0]: \"ts_ns\" is not an integer, 0 or more (found null)")
EVMUT(test_events_ts_double, "[100,", "[100.5,", CR_CORRUPT,
      E_PATH ".rows[0]: \"ts_ns\" is not an integer")
EVMUT(test_events_ts_beyond_u64, "[100,", "[18446744073709551616,", CR_CORRUPT,
      "does not fit in 64 bits")
EVMUT(test_events_cpu_big, "\"wakeup\", 1,", "\"wakeup\", 65536,", CR_CORRUPT,
      E_PATH ".rows[0]: \"cpu\" 65536 is above 65535")
EVMUT(test_events_pid_big, "\"wakeup\", 1, 42", "\"wakeup\", 1, 4294967296",
      CR_CORRUPT, E_PATH ".rows[0]: \"pid\" 4294967296 is above 4294967295")
EVMUT(test_events_latency_negative, "7, 50,", "7, -50,", CR_CORRUPT,
      E_PATH ".rows[1]: \"latency_ns\" is not an integer, 0 or more, or null")
EVMUT(test_events_text_long, "\"pp_begin\"", "\"0123456789abcdef\"", CR_CORRUPT,
      E_PATH ".rows[2]: \"text\" \"0123456789abcdef\": at most 15 bytes")
EVMUT(test_events_text_number, "\"pp_begin\"", "5", CR_CORRUPT,
      E_PATH ".rows[2]: \"text\" is not a string or null")
EVMUT(test_events_out_of_order, "[150, \"marker\"", "[149, \"marker\"", CR_CORRUPT,
      E_PATH ".rows[2]: ts_ns 149 before the previous row's 150")
MUT(test_meta_events_negative, "\"params\": {\"frac_bits\": \"3\"}",
    "\"params\": {\"frac_bits\": \"3\"}, \"events\": -1",
    CR_CORRUPT, "meta.events: negative")

/* Every prefix of a run's events section: rejected, never a crash. */
static void test_events_truncated(void **state)
{
	char *q, *t;
	size_t i, n;

	(void)state;
	q = malloc(strlen(EVS) + 64);
	assert_non_null(q);
	sprintf(q, "\"exit_status\": 0, \"events\": %s,", EVS);
	t = mutate("\"exit_status\": 0,", q);
	n = strlen(t) - 1;	/* the last byte is a newline */
	for (i = 0; i < n; i++)
		expect_parse(t, i, CR_CORRUPT, NULL);
	expect_parse(t, n, CR_OK, NULL);
	free(t);
	free(q);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_events_read),
		cmocka_unit_test(test_events_columns_by_name),
		cmocka_unit_test(test_events_written),
		cmocka_unit_test(test_events_not_object),
		cmocka_unit_test(test_events_unknown_member),
		cmocka_unit_test(test_events_no_rows),
		cmocka_unit_test(test_events_no_lost),
		cmocka_unit_test(test_events_lost_negative),
		cmocka_unit_test(test_events_three_clocks),
		cmocka_unit_test(test_events_clock_half),
		cmocka_unit_test(test_events_clock_string),
		cmocka_unit_test(test_events_unknown_column),
		cmocka_unit_test(test_events_column_twice),
		cmocka_unit_test(test_events_no_ts_column),
		cmocka_unit_test(test_events_row_short),
		cmocka_unit_test(test_events_row_object),
		cmocka_unit_test(test_events_migrated_bad),
		cmocka_unit_test(test_events_migrated_int),
		cmocka_unit_test(test_events_type_unknown),
		cmocka_unit_test(test_events_ts_null),
		cmocka_unit_test(test_events_ts_double),
		cmocka_unit_test(test_events_ts_beyond_u64),
		cmocka_unit_test(test_events_cpu_big),
		cmocka_unit_test(test_events_pid_big),
		cmocka_unit_test(test_events_latency_negative),
		cmocka_unit_test(test_events_text_long),
		cmocka_unit_test(test_events_text_number),
		cmocka_unit_test(test_events_out_of_order),
		cmocka_unit_test(test_meta_events_negative),
		cmocka_unit_test(test_events_truncated),
		cmocka_unit_test(test_version_3),
		cmocka_unit_test(test_version_4),
		cmocka_unit_test(test_version_5),
		cmocka_unit_test(test_version_6),
		cmocka_unit_test(test_version_0),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_merge_refuses_twice),
		cmocka_unit_test(test_meta_diff),
		cmocka_unit_test(test_meta_diff_cpufreq),
		cmocka_unit_test(test_cpufreq_meta),
		cmocka_unit_test(test_tags),
		cmocka_unit_test(test_tags_read),
		cmocka_unit_test(test_tag_not_string),
		cmocka_unit_test(test_tag_bad_key),
		cmocka_unit_test(test_tag_empty_value),
		cmocka_unit_test(test_tags_not_object),
		cmocka_unit_test(test_round_trip_null_meta),
		cmocka_unit_test(test_truncation),
		cmocka_unit_test(test_mutations),
		cmocka_unit_test(test_base_valid),
		cmocka_unit_test(test_workload_only),
		cmocka_unit_test(test_run_tags),
		cmocka_unit_test(test_workload_only_not_bool),
		cmocka_unit_test(test_ok_other_variant),
		cmocka_unit_test(test_ok_total_cpu_null),
		cmocka_unit_test(test_ok_counter_u64_max),
		cmocka_unit_test(test_ok_duration_integer),
		cmocka_unit_test(test_wrong_format),
		cmocka_unit_test(test_missing_format),
		cmocka_unit_test(test_version_2),
		cmocka_unit_test(test_version_3),
		cmocka_unit_test(test_version_4),
		cmocka_unit_test(test_version_5),
		cmocka_unit_test(test_version_6),
		cmocka_unit_test(test_version_0),
		cmocka_unit_test(test_run_tag_not_string),
		cmocka_unit_test(test_run_tag_bad_key),
		cmocka_unit_test(test_run_tag_empty),
		cmocka_unit_test(test_run_tags_not_object),
		cmocka_unit_test(test_conditions_not_string),
		cmocka_unit_test(test_cpufreq_not_string),
		cmocka_unit_test(test_version_beyond_u64),
		cmocka_unit_test(test_version_string),
		cmocka_unit_test(test_version_double),
		cmocka_unit_test(test_slots_object),
		cmocka_unit_test(test_slot_not_triple),
		cmocka_unit_test(test_slot_out_of_range),
		cmocka_unit_test(test_slots_descending),
		cmocka_unit_test(test_slots_repeated),
		cmocka_unit_test(test_zero_count),
		cmocka_unit_test(test_negative_count),
		cmocka_unit_test(test_fractional_count),
		cmocka_unit_test(test_absurd_count),
		cmocka_unit_test(test_absurd_total),
		cmocka_unit_test(test_beyond_u64),
		cmocka_unit_test(test_sum_too_big),
		cmocka_unit_test(test_sum_too_small),
		cmocka_unit_test(test_sum_shifted),
		cmocka_unit_test(test_sum_beyond_u64),
		cmocka_unit_test(test_frac_bits_9),
		cmocka_unit_test(test_ok_trace_name),
		cmocka_unit_test(test_name_too_long),
		cmocka_unit_test(test_name_empty),
		cmocka_unit_test(test_variant_too_long),
		cmocka_unit_test(test_run_variant_empty),
		cmocka_unit_test(test_duplicate_metric),
		cmocka_unit_test(test_too_many_counters),
		cmocka_unit_test(test_counter_name_too_long),
		cmocka_unit_test(test_counter_negative),
		cmocka_unit_test(test_total_disagrees),
		cmocka_unit_test(test_total_missing_slot),
		cmocka_unit_test(test_total_min_disagrees),
		cmocka_unit_test(test_duplicate_cpu),
		cmocka_unit_test(test_cpus_descending),
		cmocka_unit_test(test_cpu_all),
		cmocka_unit_test(test_cpu_without_samples),
		cmocka_unit_test(test_total_with_cpu),
		cmocka_unit_test(test_min_above_max),
		cmocka_unit_test(test_min_outside_slot),
		cmocka_unit_test(test_max_outside_slot),
		cmocka_unit_test(test_min_null_with_samples),
		cmocka_unit_test(test_run_index),
		cmocka_unit_test(test_exit_status_256),
		cmocka_unit_test(test_start_negative),
		cmocka_unit_test(test_start_above_i64),
		cmocka_unit_test(test_unknown_member),
		cmocka_unit_test(test_missing_member),
		cmocka_unit_test(test_recording_not_bool),
		cmocka_unit_test(test_duplicate_key),
		cmocka_unit_test(test_duplicate_key_escaped),
		cmocka_unit_test(test_meta_string_type),
		cmocka_unit_test(test_param_not_string),
		cmocka_unit_test(test_meta_frac_bits),
		cmocka_unit_test(test_duration_negative),
		cmocka_unit_test(test_duration_nan),
		cmocka_unit_test(test_runs_not_array),
		cmocka_unit_test(test_nul_escape),
		cmocka_unit_test(test_single_quotes),
		cmocka_unit_test(test_raw_control),
		cmocka_unit_test(test_leading_zero),
		cmocka_unit_test(test_trailing_comma),
		cmocka_unit_test(test_trailing_garbage),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_not_json),
		cmocka_unit_test(test_deep_nesting),
		cmocka_unit_test(test_no_err_buffer),
		cmocka_unit_test_teardown(test_write_read_back, teardown_dir),
		cmocka_unit_test_teardown(test_write_relative, teardown_dir),
		cmocka_unit_test_teardown(test_write_replaces, teardown_dir),
		cmocka_unit_test_teardown(test_write_no_dir, teardown_dir),
		cmocka_unit_test_teardown(test_write_fails_late, teardown_dir),
		cmocka_unit_test_teardown(test_write_not_regular, teardown_dir),
		cmocka_unit_test(test_write_stdout),
		cmocka_unit_test(test_read_missing),
		cmocka_unit_test_teardown(test_read_directory, teardown_dir),
		cmocka_unit_test_teardown(test_read_corrupt, teardown_dir),
		cmocka_unit_test_teardown(test_read_format, teardown_dir),
		cmocka_unit_test_teardown(test_read_too_large, teardown_dir),
		cmocka_unit_test_teardown(test_read_stdin, teardown_dir),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

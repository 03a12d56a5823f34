// SPDX-License-Identifier: GPL-2.0
/*
 * suggest_test.c - cmocka tests of tools/lib/suggest.c: the edit distance
 * against known values, and the suggestions for the typos a user makes.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../lib/suggest.h"

static void test_distance(void **state)
{
	(void)state;
	assert_int_equal(cr_edit_distance("", ""), 0);
	assert_int_equal(cr_edit_distance("abc", ""), 3);
	assert_int_equal(cr_edit_distance("", "abc"), 3);
	assert_int_equal(cr_edit_distance("kitten", "sitting"), 3);
	assert_int_equal(cr_edit_distance("record", "reocrd"), 1);	/* swap */
	assert_int_equal(cr_edit_distance("ttwu_tkread", "ttwu_tkred"), 1);
	assert_int_equal(cr_edit_distance("bpf-kprobe", "bpf-kprob"), 1);
	assert_int_equal(cr_edit_distance("ca", "abc"), 3);	/* OSA, not Damerau */
	assert_int_equal(cr_edit_distance("flaw", "lawn"), 2);
}

/* What cr_suggest() prints, in a buffer the caller frees. */
static char *suggest(const char *word, const char *const *c, size_t n,
		     unsigned int *k)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	*k = cr_suggest(f, word, c, n);
	fclose(f);
	return buf;
}

static void test_suggest(void **state)
{
	static const char *const cmds[] = {
		"report", "info", "raw", "events", "xcorr", "ctrl", "trace",
		"record", "overhead", "serve",
	};
	static const char *const metrics[] = {
		"ttwu_enqueue", "ttwu_enqueue_migrated", "ttwu_enqueue_local",
		"ttwu_tkread", "tkread", "csswitch",
	};
	unsigned int k;
	char *s;

	(void)state;
	s = suggest("reocrd", cmds, 10, &k);
	assert_int_equal(k, 1);
	assert_string_equal(s, " (did you mean record?)");
	free(s);
	s = suggest("ttwu_tkred", metrics, 6, &k);
	assert_int_equal(k, 1);
	assert_string_equal(s, " (did you mean ttwu_tkread?)");
	free(s);
	/* Two at one edit: both, the first found first. */
	s = suggest("ttwu_enqueue_locl", metrics, 6, &k);
	assert_string_equal(s, " (did you mean ttwu_enqueue_local?)");
	free(s);
	/* Nothing near: nothing printed. */
	s = suggest("hackbench", metrics, 6, &k);
	assert_int_equal(k, 0);
	assert_string_equal(s, "");
	free(s);
	/* A prefix typed out. */
	s = suggest("ttwu_enq", metrics, 6, &k);
	assert_int_equal(k, 2);
	assert_string_equal(s, " (did you mean ttwu_enqueue or ttwu_enqueue_migrated?)");
	free(s);
	/* The word itself is no suggestion; a short word one edit off is. */
	s = suggest("raw", cmds, 10, &k);
	assert_int_equal(k, 0);
	free(s);
	s = suggest("rw", cmds, 10, &k);	/* too short to guess */
	assert_int_equal(k, 0);
	free(s);
	s = suggest("rwa", cmds, 10, &k);
	assert_string_equal(s, " (did you mean raw?)");
	free(s);
	/* A word the list holds twice is named once. */
	{
		static const char *const twice[] = { "tkread", "ttwu", "tkread" };

		s = suggest("tkred", twice, 3, &k);
		assert_int_equal(k, 1);
		assert_string_equal(s, " (did you mean tkread?)");
		free(s);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_distance),
		cmocka_unit_test(test_suggest),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

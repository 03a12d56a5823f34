// SPDX-License-Identifier: GPL-2.0
/*
 * buckets_test.c - cmocka tests of kmod/uapi/clkstat_buckets.h as userspace
 * and BPF programs compile it: against the naive reference shared with the
 * KUnit suite.  The Makefile builds it twice: as is (the compiler's
 * builtin for the highest bit) and with -DCLKSTAT_PORTABLE_MSB (the
 * binary search that BPF programs use), so both paths pass every check.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "../../kunit/bucket_ref.h"

static void report(void *ctx, const char *what, __u64 in, __u64 got,
		   __u64 want)
{
	(void)ctx;
	print_error("%s: input %llu: got %llu, want %llu\n", what,
		    (unsigned long long)in, (unsigned long long)got,
		    (unsigned long long)want);
}

static void test_reference_all_k(void **state)
{
	(void)state;
	for (__u32 k = 0; k <= CLKSTAT_FRAC_BITS_MAX; k++)
		assert_int_equal(clkstat_ref_check(k, report, NULL), 0);
}

static void test_msb(void **state)
{
	(void)state;
	for (unsigned int b = 0; b < 64; b++) {
		__u64 p = 1ULL << b;

		assert_int_equal(clkstat_msb64(p), b);
		assert_int_equal(clkstat_msb64(p | (p - 1)), b);
		assert_int_equal(clkstat_msb64(p | 1), b);
	}
}

static void test_known_slots(void **state)
{
	(void)state;
	assert_int_equal(clkstat_value_to_slot(17, 3), 16);
	assert_int_equal(clkstat_value_to_slot(18, 3), 17);
	assert_int_equal(clkstat_slot_lower(17, 3), 18);
	assert_int_equal(clkstat_slot_upper(17, 3), 19);
	assert_int_equal(clkstat_value_to_slot(~0ULL, 3), CLKSTAT_NSLOTS(3) - 1);
	assert_true(clkstat_slot_upper(CLKSTAT_NSLOTS(0) - 1, 0) == ~0ULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reference_all_k),
		cmocka_unit_test(test_msb),
		cmocka_unit_test(test_known_slots),
	};

	return cmocka_run_group_tests_name("clkstat_buckets", tests, NULL, NULL);
}

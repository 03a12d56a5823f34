// SPDX-License-Identifier: GPL-2.0
/*
 * render_test.c - cmocka tests of clkstat-report's summary (stats.c) and
 * renderers (render_*.c) on made-up histograms.
 *
 * The summary is checked against values the test computes by brute force
 * from the raw samples that went into the histogram: count, min and max
 * exactly; each percentile inside the slot of the true nearest-rank
 * percentile (and equal to clkstat_hist_quantile() over slots the test
 * builds itself); the mean within 1e-9 of the true mean below 2^33 ns;
 * the standard deviation within the widest slot's half width.  The text
 * output is compared with golden strings derived by hand, CSV by its
 * rows, JSON parsed back with json-c, OpenMetrics line by line (cumulative
 * buckets, strictly increasing le, +Inf equal to _count), raw exactly.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <unistd.h>
#include <cmocka.h>
#include <json.h>

#include "../../kmod/shared/clkstat_hist_math.h"
#include "../lib/grid.h"
#include "../lib/render.h"
#include "../lib/render_common.h"
#include "../lib/stats.h"
#include "../lib/status.h"
#include "hist_build.h"

/* ---- helpers ---- */

/* What a renderer wrote, NUL-terminated (free it). */
typedef int (*render_fn)(FILE *, const struct cr_run *,
			 const struct cr_render_opts *);

static char *render(render_fn fn, const struct cr_run *r,
		    const struct cr_render_opts *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(fn(f, r, o), CR_OK);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static size_t count_lines(const char *s, const char *prefix)
{
	size_t n = 0, pl = strlen(prefix);

	for (; s && *s; s = strchr(s, '\n'), s = s ? s + 1 : NULL)
		n += !strncmp(s, prefix, pl);
	return n;
}

/* The tiny run of the golden tests: exact slots only. */
static void tiny_run(struct cr_run *r)
{
	struct cr_metric *m;
	int i;

	memset(r, 0, sizeof(*r));
	m = hb_metric(r, "tiny", "direct", 3);
	hb_sample(m, 0, 1);
	hb_sample(m, 0, 1);
	hb_sample(m, 0, 3);
	for (i = 0; i < 4; i++)
		hb_sample(m, 1, 5);
	hb_counter(m, "wakeups", 7);
	hb_counter(m, "migrated", 2);
	m = hb_metric(r, "idle", "direct", 3);
	hb_counter(m, "wakeups", 0);
}

/* ---- summary against brute force ---- */

enum dist { D_SMALL, D_LOGUNI, D_TAIL, D_CONST, D_BIG };

static uint64_t draw(enum dist d, uint64_t *st)
{
	double x = (double)(hb_rand(st) >> 11) / 9007199254740992.0;

	switch (d) {
	case D_SMALL:	/* exact slots for frac_bits 5 */
		return hb_rand(st) % 64;
	case D_LOGUNI:	/* 100 ns .. 100 ms */
		return (uint64_t)(100 * exp2(x * 20));
	case D_TAIL:	/* mostly ~1 us, 1% up to 2^32 ns */
		if (hb_rand(st) % 100)
			return 800 + hb_rand(st) % 500;
		return (uint64_t)exp2(10 + x * 22);
	case D_CONST:
		return 4242;
	case D_BIG:	/* 2^40 .. 2^56: scaled sums */
		return (uint64_t)exp2(40 + x * 16);
	}
	return 0;
}

static void check_summary(enum dist d, unsigned int k, size_t n,
			  uint64_t seed)
{
	static const uint32_t q[4][2] = {
		{ 50, 100 }, { 90, 100 }, { 99, 100 }, { 999, 1000 } };
	unsigned int nslots = CLKSTAT_NSLOTS(k), i;
	struct cr_run r = { 0 };
	struct clkstat_slot *dense;
	long double sum = 0, ss = 0, tmean, tsd, half = 0;
	uint64_t *v, got[4], st = seed, rank, x;
	struct cr_summary s;
	struct cr_metric *m;
	size_t j;

	v = malloc(n * sizeof(*v));
	dense = calloc(nslots, sizeof(*dense));
	assert_non_null(v);
	assert_non_null(dense);
	m = hb_metric(&r, "m", "v", k);
	for (j = 0; j < n; j++) {
		uint32_t sl;

		v[j] = draw(d, &st);
		hb_sample(m, (uint32_t)(j % 3), v[j]);
		sl = clkstat_value_to_slot(v[j], k);
		dense[sl].count++;
		dense[sl].sum += v[j] >> clkstat_slot_sum_shift(sl, k);
		sum += v[j];
	}
	qsort(v, n, sizeof(*v), cmp_u64);
	assert_int_equal(cr_summarize(&m->total, k, &s), 0);

	assert_int_equal(s.count, n);
	assert_int_equal(s.min, v[0]);
	assert_int_equal(s.max, v[n - 1]);

	got[0] = s.p50;
	got[1] = s.p90;
	got[2] = s.p99;
	got[3] = s.p999;
	for (i = 0; i < 4; i++) {
		rank = (n * q[i][0] + q[i][1] - 1) / q[i][1];
		if (rank < 1)
			rank = 1;
		x = v[rank - 1];
		/* in the slot of the true nearest-rank percentile */
		if (got[i] < clkstat_slot_lower(clkstat_value_to_slot(x, k), k) ||
		    got[i] > clkstat_slot_upper(clkstat_value_to_slot(x, k), k))
			fail_msg("dist %d k %u n %zu: p%u/%u %llu outside the slot of %llu",
				 d, k, n, q[i][0], q[i][1],
				 (unsigned long long)got[i],
				 (unsigned long long)x);
		/* and the shared function's, on slots built here */
		assert_int_equal(got[i],
				 clkstat_hist_quantile(dense, nslots, k, n,
						       v[0], v[n - 1],
						       q[i][0], q[i][1]));
	}

	tmean = sum / n;
	if (d == D_BIG) {
		/* each sample loses < 2^shift ns, shift < 2^-32 of it */
		assert_true(fabsl(s.mean - tmean) <= tmean * 0x1p-32L + 1);
	} else {
		assert_true(fabsl(s.mean - tmean) <= 1e-9L * (tmean > 1 ? tmean : 1));
	}

	for (j = 0; j < n; j++)
		ss += ((long double)v[j] - tmean) * ((long double)v[j] - tmean);
	tsd = n > 1 ? sqrtl(ss / (n - 1)) : 0;
	for (i = 0; i < nslots; i++)
		if (dense[i].count && (clkstat_slot_upper(i, k) -
				       clkstat_slot_lower(i, k) + 1) / 2.0L > half)
			half = (clkstat_slot_upper(i, k) -
				clkstat_slot_lower(i, k) + 1) / 2.0L;
	if (v[n - 1] < (2ULL << k)) {
		/* every sample in a one-value slot: exact */
		assert_true(fabsl(s.stddev - tsd) <= 1e-9L * (tsd > 1 ? tsd : 1));
	} else {
		/*
		 * the spread inside the slots is left out; slot means are
		 * truncated to ns (and scaled above 2^33)
		 */
		long double tol = half * (n > 1 ? sqrtl((long double)n / (n - 1)) : 1) +
				  1 + tmean * 0x1p-31L;

		if (fabsl(s.stddev - tsd) > tol)
			fail_msg("dist %d k %u n %zu: stddev %f, true %Lf, tolerance %Lf",
				 d, k, n, s.stddev, tsd, tol);
	}
	free(v);
	free(dense);
	cr_run_free(&r);
}

static void test_summary_brute_force(void **state)
{
	static const size_t sizes[] = { 1, 2, 3, 7, 100, 1001, 20000 };
	enum dist d;
	unsigned int k;
	size_t i;

	(void)state;
	for (d = D_SMALL; d <= D_BIG; d++)
		for (k = 0; k <= CLKSTAT_FRAC_BITS_MAX; k++)
			for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
				check_summary(d, k, sizes[i],
					      0x1234567ULL * (d + 1) + k * 77 + i);
}

static void test_summary_empty(void **state)
{
	struct cr_hist h = { .cpu = CR_CPU_ALL, .min = UINT64_MAX };
	struct cr_summary s;

	(void)state;
	memset(&s, 0xff, sizeof(s));
	assert_int_equal(cr_summarize(&h, 3, &s), 0);
	assert_int_equal(s.count, 0);
	assert_int_equal(s.min, 0);
	assert_int_equal(s.max, 0);
	assert_int_equal(s.p50 | s.p90 | s.p99 | s.p999, 0);
	assert_true(s.mean == 0 && s.stddev == 0);
}

/* Samples without min and max (UINT64_MAX, 0): the slots' bounds. */
static void test_summary_no_minmax(void **state)
{
	struct cr_run r = { 0 };
	struct cr_metric *m = hb_metric(&r, "m", "v", 3);
	struct cr_summary s;

	(void)state;
	hb_sample(m, 0, 1000);
	hb_sample(m, 0, 2000);
	m->total.min = UINT64_MAX;
	m->total.max = 0;
	assert_int_equal(cr_summarize(&m->total, 3, &s), 0);
	assert_int_equal(s.min, clkstat_slot_lower(clkstat_value_to_slot(1000, 3), 3));
	assert_int_equal(s.max, clkstat_slot_upper(clkstat_value_to_slot(2000, 3), 3));
	assert_true(s.min <= s.p50 && s.p999 <= s.max);
	cr_run_free(&r);
}

/* ---- text ---- */

static const char tiny_text[] =
	"source: golden  runs pooled: 2\n"
	"\n"
	"tiny.direct  (all CPUs)\n"
	"  count 7  min 1ns  p50 5ns  p90 5ns  p99 5ns  p99.9 5ns  max 5ns  mean 3.57ns  stddev 1.90ns\n"
	"  wakeups 7  migrated 2\n"
	"[1ns]                  2 |@@@@@@@@@@@@@@@@@@@@@@@@@@                          |\n"
	"[2ns]                  0 |                                                    |\n"
	"[3ns]                  1 |@@@@@@@@@@@@@                                       |\n"
	"[4ns]                  0 |                                                    |\n"
	"[5ns]                  4 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
	"\n"
	"tiny.direct  (CPU 0)\n"
	"  count 3  min 1ns  p50 1ns  p90 3ns  p99 3ns  p99.9 3ns  max 3ns  mean 1.67ns  stddev 1.15ns\n"
	"[1ns]                  2 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
	"[2ns]                  0 |                                                    |\n"
	"[3ns]                  1 |@@@@@@@@@@@@@@@@@@@@@@@@@@                          |\n"
	"\n"
	"tiny.direct  (CPU 1)\n"
	"  count 4  min 5ns  p50 5ns  p90 5ns  p99 5ns  p99.9 5ns  max 5ns  mean 5.00ns  stddev 0ns\n"
	"[5ns]                  4 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
	"\n"
	"idle.direct  (all CPUs)  no samples  (counters all 0)\n";

static void test_text_golden(void **state)
{
	struct cr_render_opts o = { .per_cpu = 1, .source = "golden",
				    .nruns = 2 };
	struct cr_run r;
	char *out;

	(void)state;
	tiny_run(&r);
	out = render(cr_render_text, &r, &o);
	assert_string_equal(out, tiny_text);
	free(out);

	o = (struct cr_render_opts){ .no_hist = 1, .metric = "tiny.direct",
				     .source = "golden", .nruns = 2 };
	out = render(cr_render_text, &r, &o);
	assert_string_equal(out,
		"source: golden  runs pooled: 2\n"
		"\n"
		"tiny.direct  (all CPUs)\n"
		"  count 7  min 1ns  p50 5ns  p90 5ns  p99 5ns  p99.9 5ns  max 5ns  mean 3.57ns  stddev 1.90ns\n"
		"  wakeups 7  migrated 2\n");
	free(out);
	cr_run_free(&r);
}

/*
 * A metric without samples (tkread with reads but no wakeup to pair them
 * with): its counters, no summary of zeros, no histogram, and with
 * --per-cpu no block for its empty CPUs.
 */
static void test_text_no_samples(void **state)
{
	struct cr_render_opts o = { .per_cpu = 1, .source = "e", .nruns = 1 };
	struct cr_run r = { 0 };
	struct cr_metric *m;
	char *out;

	(void)state;
	m = hb_metric(&r, "tkread", "direct", 3);
	m->cpus = calloc(2, sizeof(*m->cpus));
	assert_non_null(m->cpus);
	m->cpus[0] = (struct cr_hist){ .cpu = 0, .min = UINT64_MAX };
	m->cpus[1] = (struct cr_hist){ .cpu = 1, .min = UINT64_MAX };
	m->ncpus = 2;
	hb_counter(m, "reads", 12);
	hb_counter(m, "unpaired", 12);
	out = render(cr_render_text, &r, &o);
	assert_string_equal(out,
		"source: e  runs pooled: 1\n"
		"\n"
		"tkread.direct  (all CPUs)  no samples;  reads 12  unpaired 12\n");
	free(out);
	o.no_hist = 1;
	o.per_cpu = 0;
	out = render(cr_render_text, &r, &o);
	assert_null(strstr(out, "count"));
	assert_null(strstr(out, "n/a"));
	assert_non_null(strstr(out, "no samples;  reads 12  unpaired 12\n"));
	free(out);
	cr_run_free(&r);

	/*
	 * ttwu_tkread's numbers explained where they mislead: a tail of
	 * late reads (p99 at least 1 ms and 100 times p50), replaced above
	 * the count; neither note where they do not.
	 */
	memset(&r, 0, sizeof(r));
	m = hb_metric(&r, "ttwu_tkread", "direct", 3);
	for (unsigned int i = 0; i < 200; i++)
		hb_sample(m, 0, i < 196 ? 40000 : 800000000);
	hb_counter(m, "replaced", 39704);
	o = (struct cr_render_opts){ .no_hist = 1, .source = "e", .nruns = 1 };
	out = render(cr_render_text, &r, &o);
	assert_non_null(strstr(out, "\n  note: p99 "));
	assert_non_null(strstr(out, "ms against p50 "));
	assert_non_null(strstr(out, "us: the tail is tasks that read the clock long after they woke"));
	assert_non_null(strstr(out, "\n  note: replaced 39704 > count 200: most wakeups' tasks woke again before reading the clock"));
	free(out);
	cr_run_free(&r);
	memset(&r, 0, sizeof(r));
	m = hb_metric(&r, "ttwu_tkread", "direct", 3);
	for (unsigned int i = 0; i < 200; i++)
		hb_sample(m, 0, 40000 + i);
	hb_counter(m, "replaced", 3);
	out = render(cr_render_text, &r, &o);
	assert_null(strstr(out, "note:"));
	free(out);
	cr_run_free(&r);
}

/* Human units: three significant digits, the unit moving up at 1000. */
static void test_text_units(void **state)
{
	struct cr_render_opts o = { .no_hist = 1, .source = "u", .nruns = 1 };
	struct cr_run r = { 0 };
	struct cr_metric *m;
	char *out;

	(void)state;
	m = hb_metric(&r, "u", "v", 5);
	hb_sample(m, 0, 999);		/* min: exact below 1 us */
	hb_sample(m, 0, 12345);		/* p50: its slot's middle, 12416 */
	hb_sample(m, 0, 999600);	/* 999.6 us -> 1.00ms */
	hb_sample(m, 0, 4200000000ULL);	/* max 4.20s */
	out = render(cr_render_text, &r, &o);
	assert_non_null(strstr(out, "  count 4  min 999ns  p50 12.4us  p90 4.20s  p99 4.20s  p99.9 4.20s  max 4.20s  mean 1.05s  stddev 2.10s\n"));
	free(out);
	cr_run_free(&r);

	memset(&r, 0, sizeof(r));
	m = hb_metric(&r, "u", "v", 5);
	hb_sample(m, 0, 999600);
	hb_sample(m, 0, 999600);
	hb_sample(m, 0, 2000000000000ULL);	/* 2000 s */
	out = render(cr_render_text, &r, &o);
	assert_non_null(strstr(out, "min 1.00ms  p50 1.01ms "));
	assert_non_null(strstr(out, " max 2000s "));
	free(out);
	cr_run_free(&r);
}

/*
 * Histogram labels: decimal bounds in the summary's units (the largest of
 * ns, us, ms, s that keeps the number at least 1), three significant
 * digits or as many as keep a slot's bounds apart, never binary
 * suffixes; exact in --time-unit's unit; one column as wide as the
 * widest label.
 */
static void test_text_labels(void **state)
{
	struct cr_render_opts o = { .source = "l", .nruns = 1 };
	struct cr_run r = { 0 };
	struct cr_metric *m;
	char *out;

	(void)state;
	m = hb_metric(&r, "a", "v", 3);
	hb_sample(m, 0, 4096);		/* [4096, 4608) */
	hb_sample(m, 0, 8192);		/* [8192, 9216) */
	hb_sample(m, 0, 8192);
	out = render(cr_render_text, &r, &o);
	assert_non_null(strstr(out, "\n[4.10us, 4.61us)        1 |@@@@@@@@@@@@@@@@@@@@@@@@@@                          |\n"));
	assert_non_null(strstr(out, "\n[7.68us, 8.19us)        0 |"));
	assert_non_null(strstr(out, "\n[8.19us, 9.22us)        2 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"));
	assert_int_equal(count_lines(out, "["), 9);	/* 4096 .. 9216 */
	assert_null(strstr(out, "K,"));
	free(out);

	/* --time-unit: every bound in that unit, as the summary. */
	o.unit = CR_UNIT_MS;
	out = render(cr_render_text, &r, &o);
	assert_non_null(strstr(out, "  count 3  min 0.004096ms  p50 "));
	assert_non_null(strstr(out, "  max 0.008192ms  mean 0.006827ms  stddev "));
	assert_non_null(strstr(out, "\n[0.008192ms, 0.009216ms)        2 |"));
	free(out);
	o.unit = CR_UNIT_NS;
	out = render(cr_render_text, &r, &o);
	assert_non_null(strstr(out, "\n[8192ns, 9216ns)        2 |"));
	free(out);
	o.unit = CR_UNIT_AUTO;
	cr_run_free(&r);

	/* The top slots of frac_bits 2, the last ending at 2^64 - 1. */
	memset(&r, 0, sizeof(r));
	m = hb_metric(&r, "b", "v", 2);
	hb_sample(m, 0, 0xC000000000000000ULL);
	hb_sample(m, 0, UINT64_MAX);
	out = render(cr_render_text, &r, &o);
	assert_non_null(strstr(out, "\n[13835058055s, 16140901064s)        1 |"));
	assert_non_null(strstr(out, "\n[16140901064s, 18446744074s)        1 |"));
	free(out);
	o.unit = CR_UNIT_US;
	out = render(cr_render_text, &r, &o);
	assert_non_null(strstr(out, "\n[16140901064495857.664us, 18446744073709551.616us)        1 |"));
	o.unit = CR_UNIT_AUTO;
	free(out);
	cr_run_free(&r);

	/* Over 64 lines: per power of two, as bpftrace's hist(). */
	memset(&r, 0, sizeof(r));
	m = hb_metric(&r, "c", "v", 3);
	hb_sample(m, 0, 1);
	hb_sample(m, 0, 1 << 20);
	hb_sample(m, 0, (1 << 21) - 1);
	out = render(cr_render_text, &r, &o);
	assert_int_equal(count_lines(out, "["), 21);	/* [1ns] .. [1.05ms, 2.10ms) */
	assert_non_null(strstr(out, "\n[1ns]                   1 |@@@@@@@@@@@@@@@@@@@@@@@@@@                          |\n[2ns, 4ns)              0 |"));
	assert_non_null(strstr(out, "\n[512ns, 1.02us)         0 |"));
	assert_non_null(strstr(out, "\n[1.05ms, 2.10ms)        2 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"));
	free(out);
	cr_run_free(&r);

	/*
	 * Three digits tell every slot's two bounds apart, at every
	 * frac_bits and in every power of two up to 2^64.
	 */
	for (unsigned int k = 0; k <= CLKSTAT_FRAC_BITS_MAX; k++) {
		for (uint32_t i = 2U << k; i < CLKSTAT_NSLOTS(k); i++) {
			char lo[48], hi[48];

			cr_fmt_sig(lo, sizeof(lo), clkstat_slot_lower(i, k), 3);
			cr_fmt_sig(hi, sizeof(hi),
				   (unsigned __int128)clkstat_slot_upper(i, k) + 1, 3);
			if (!strcmp(lo, hi))
				fail_msg("frac_bits %u slot %u: [%s, %s)", k, i, lo, hi);
		}
	}
	{
		char b[48];

		cr_fmt_sig(b, sizeof(b), 999960, 3);	/* rounds to 1000us */
		assert_string_equal(b, "1.00ms");
		cr_fmt_sig(b, sizeof(b), 999, 3);
		assert_string_equal(b, "999ns");
		cr_fmt_sig(b, sizeof(b), 1000, 3);
		assert_string_equal(b, "1.00us");
		cr_fmt_sig(b, sizeof(b), 2097152, 3);
		assert_string_equal(b, "2.10ms");
	}
}

static void test_wanted(void **state)
{
	struct cr_metric m = { .name = "tiny", .variant = "direct" };
	struct cr_render_opts o = { 0 };

	(void)state;
	assert_true(cr_render_wanted(&m, &o));
	o.metric = "tiny";
	assert_true(cr_render_wanted(&m, &o));
	o.metric = "tiny.direct";
	assert_true(cr_render_wanted(&m, &o));
	o.metric = "tiny.kprobe";
	assert_false(cr_render_wanted(&m, &o));
	o.metric = "tin";
	assert_false(cr_render_wanted(&m, &o));
	o.metric = "tiny.";
	assert_false(cr_render_wanted(&m, &o));
	o.metric = "tiny.directx";
	assert_false(cr_render_wanted(&m, &o));
	o.metric = "direct";
	assert_false(cr_render_wanted(&m, &o));
}

/* ---- CSV ---- */

static void test_csv(void **state)
{
	struct cr_render_opts o = { .per_cpu = 1 };
	struct cr_run r;
	struct cr_metric *m;
	char *out;

	(void)state;
	tiny_run(&r);
	out = render(cr_render_csv, &r, &o);
	/*
	 * The first 12 columns as they always were; unit, the counters
	 * and the migrated share (2 of 7 samples) appended.
	 */
	assert_string_equal(out,
		"metric,variant,cpu,count,min,p50,p90,p99,p999,max,mean,stddev,unit,counters,migrated_share\n"
		"tiny,direct,all,7,1,5,5,5,5,5,3.571,1.902,ns,wakeups=7 migrated=2,0.285714\n"
		"tiny,direct,0,3,1,1,3,3,3,3,1.667,1.155,ns,,\n"
		"tiny,direct,1,4,5,5,5,5,5,5,5.000,0.000,ns,,\n"
		"idle,direct,all,0,0,0,0,0,0,0,0.000,0.000,ns,wakeups=0,\n");
	free(out);

	/* --time-unit: the same columns, the numbers in that unit, exact. */
	o.per_cpu = 0;
	o.unit = CR_UNIT_US;
	o.metric = "tiny";
	out = render(cr_render_csv, &r, &o);
	assert_string_equal(out,
		"metric,variant,cpu,count,min,p50,p90,p99,p999,max,mean,stddev,unit,counters,migrated_share\n"
		"tiny,direct,all,7,0.001,0.005,0.005,0.005,0.005,0.005,0.003571,0.001902,us,wakeups=7 migrated=2,0.285714\n");
	free(out);
	o.unit = CR_UNIT_MS;
	out = render(cr_render_csv, &r, &o);
	assert_non_null(strstr(out, "\ntiny,direct,all,7,0.000001,0.000005,0.000005,0.000005,0.000005,0.000005,0.000003571,0.000001902,ms,"));
	free(out);
	o.unit = CR_UNIT_AUTO;
	o.metric = NULL;

	out = render(cr_render_csv, &r, &o);
	assert_int_equal(count_lines(out, ""), 1 + r.nmetrics);
	assert_int_equal(count_lines(out, "metric,variant,cpu,"), 1);
	free(out);

	/* RFC 4180: quotes doubled, the field quoted. */
	m = hb_metric(&r, "a\"b,c", "x\ny", 3);
	hb_sample(m, 0, 2);
	o.metric = "a\"b,c";
	out = render(cr_render_csv, &r, &o);
	assert_string_equal(out,
		"metric,variant,cpu,count,min,p50,p90,p99,p999,max,mean,stddev,unit,counters,migrated_share\n"
		"\"a\"\"b,c\",\"x\ny\",all,1,2,2,2,2,2,2,2.000,0.000,ns,,\n");
	free(out);

	/* A counter name that needs quoting is quoted in its field. */
	hb_counter(m, "mig,rated", 1);
	hb_counter(m, "migrated", 1);
	out = render(cr_render_csv, &r, &o);
	assert_non_null(strstr(out, ",ns,\"mig,rated=1 migrated=1\",1.000000\n"));
	free(out);
	cr_run_free(&r);
}

/* ---- JSON ---- */

static uint64_t ju(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v))
		fail_msg("no %s", key);
	return json_object_get_uint64(v);
}

static void check_json_hist(struct json_object *o, const struct cr_metric *m,
			    const struct cr_hist *h)
{
	struct json_object *v, *b, *e;
	struct cr_summary s;
	size_t i;

	assert_int_equal(cr_summarize(h, m->frac_bits, &s), 0);
	assert_true(json_object_object_get_ex(o, "name", &v));
	assert_string_equal(json_object_get_string(v), m->name);
	assert_true(json_object_object_get_ex(o, "variant", &v));
	assert_string_equal(json_object_get_string(v), m->variant);
	assert_int_equal(ju(o, "frac_bits"), m->frac_bits);
	assert_true(json_object_object_get_ex(o, "cpu", &v));
	if (h->cpu == CR_CPU_ALL) {
		assert_string_equal(json_object_get_string(v), "all");
		assert_true(json_object_object_get_ex(o, "counters", &v));
		assert_int_equal(json_object_object_length(v), m->ncounters);
		for (i = 0; i < m->ncounters; i++)
			assert_true(ju(v, m->counters[i].name) ==
				    m->counters[i].value);
	} else {
		assert_true(json_object_is_type(v, json_type_int));
		assert_int_equal(json_object_get_uint64(v), h->cpu);
		assert_false(json_object_object_get_ex(o, "counters", NULL));
	}
	assert_true(ju(o, "count") == s.count);
	assert_true(ju(o, "min") == s.min);
	assert_true(ju(o, "max") == s.max);
	assert_true(ju(o, "p50") == s.p50);
	assert_true(ju(o, "p90") == s.p90);
	assert_true(ju(o, "p99") == s.p99);
	assert_true(ju(o, "p999") == s.p999);
	assert_true(json_object_object_get_ex(o, "mean", &v));
	assert_true(json_object_get_double(v) == s.mean);
	assert_true(json_object_object_get_ex(o, "stddev", &v));
	assert_true(json_object_get_double(v) == s.stddev);
	assert_true(json_object_object_get_ex(o, "buckets", &b));
	assert_int_equal(json_object_array_length(b), h->nslots);
	for (i = 0; i < h->nslots; i++) {
		e = json_object_array_get_idx(b, i);
		assert_true(ju(e, "lower") ==
			    clkstat_slot_lower(h->slots[i].slot, m->frac_bits));
		assert_true(ju(e, "upper") ==
			    clkstat_slot_upper(h->slots[i].slot, m->frac_bits));
		assert_true(ju(e, "count") == h->slots[i].count);
	}
}

static void test_json(void **state)
{
	struct cr_render_opts o = { .per_cpu = 1, .source = "snap.json",
				    .nruns = 3 };
	struct json_object *root, *v, *ms;
	struct cr_metric *m;
	struct cr_run r;
	size_t i, c, k;
	char *out;

	(void)state;
	tiny_run(&r);
	/* u64 values beyond 2^53 must come back exactly */
	m = hb_metric(&r, "big", "direct", 5);
	hb_sample(m, 2, UINT64_MAX);
	hb_sample(m, 7, (1ULL << 60) + 12345);
	hb_counter(m, "wakeups", UINT64_MAX - 1);
	out = render(cr_render_json, &r, &o);
	root = json_tokener_parse(out);
	assert_non_null(root);
	assert_true(json_object_object_get_ex(root, "source", &v));
	assert_string_equal(json_object_get_string(v), "snap.json");
	assert_int_equal(ju(root, "runs_pooled"), 3);
	assert_true(json_object_object_get_ex(root, "metrics", &ms));
	k = 0;
	for (i = 0; i < r.nmetrics; i++) {
		check_json_hist(json_object_array_get_idx(ms, k++),
				&r.metrics[i], &r.metrics[i].total);
		for (c = 0; c < r.metrics[i].ncpus; c++)
			check_json_hist(json_object_array_get_idx(ms, k++),
					&r.metrics[i], &r.metrics[i].cpus[c]);
	}
	assert_int_equal(json_object_array_length(ms), k);
	v = json_object_array_get_idx(ms, k - 3);	/* big, all CPUs */
	assert_true(ju(v, "max") == UINT64_MAX);
	json_object_put(root);
	free(out);

	/* source unknown: null; a filter */
	o = (struct cr_render_opts){ .metric = "idle", .nruns = 1 };
	out = render(cr_render_json, &r, &o);
	root = json_tokener_parse(out);
	assert_non_null(root);
	assert_true(json_object_object_get_ex(root, "source", &v));
	assert_null(v);
	assert_true(json_object_object_get_ex(root, "metrics", &ms));
	assert_int_equal(json_object_array_length(ms), 1);
	v = json_object_array_get_idx(ms, 0);
	assert_int_equal(ju(v, "count"), 0);
	assert_true(json_object_object_get_ex(v, "buckets", &v));
	assert_int_equal(json_object_array_length(v), 0);
	json_object_put(root);
	free(out);
	cr_run_free(&r);
}

/* ---- OpenMetrics and the Prometheus text format ---- */

struct om_series {
	char labels[512];
	double last_le;
	uint64_t last_cum, inf, count;
	int has_inf, has_count, has_sum;
	size_t nbuckets;
};

/*
 * Check every histogram series of family (e.g. "clkstat_latency_seconds")
 * in an exposition: buckets cumulative, le strictly increasing, exactly
 * nbounds of them before +Inf (the grid: the same for every series), +Inf
 * equal to _count, _sum present.  Return the number of series.
 */
static size_t check_om(const char *text, const char *family, size_t nbounds)
{
	struct om_series cur = { .labels = "" };
	const char *line, *end, *le;
	char buf[512], bp[64], cp[64], sp[64];
	size_t nseries = 0;

	snprintf(bp, sizeof(bp), "%s_bucket{", family);
	snprintf(cp, sizeof(cp), "%s_count{", family);
	snprintf(sp, sizeof(sp), "%s_sum{", family);
	for (line = text; *line; line = end + 1) {
		end = strchr(line, '\n');
		assert_non_null(end);
		assert_true((size_t)(end - line) < sizeof(buf));
		memcpy(buf, line, end - line);
		buf[end - line] = '\0';
		if (!strncmp(buf, bp, strlen(bp))) {
			char *labels = buf + strlen(bp);
			char *val = strrchr(buf, ' ');
			uint64_t cum = strtoull(val + 1, NULL, 10);

			le = strstr(labels, ",le=\"");
			assert_non_null(le);
			*(char *)le = '\0';
			if (strcmp(labels, cur.labels)) {
				/* a new series: the last one was complete */
				if (cur.labels[0])
					assert_true(cur.has_count && cur.has_sum);
				cur = (struct om_series){ .last_le = -1 };
				snprintf(cur.labels, sizeof(cur.labels), "%s",
					 labels);
				nseries++;
			}
			assert_false(cur.has_inf);
			assert_true(cum >= cur.last_cum);
			cur.last_cum = cum;
			le += 5;
			if (!strncmp(le, "+Inf\"", 5)) {
				assert_int_equal(cur.nbuckets, nbounds);
				cur.has_inf = 1;
				cur.inf = cum;
			} else {
				double l = strtod(le, NULL);

				if (!(l > cur.last_le))
					fail_msg("%s: le %s not above %.17g",
						 cur.labels, le, cur.last_le);
				cur.last_le = l;
				cur.nbuckets++;
			}
		} else if (!strncmp(buf, cp, strlen(cp))) {
			assert_true(cur.has_inf);
			assert_int_equal(strncmp(buf + strlen(cp), cur.labels,
						 strlen(cur.labels)), 0);
			cur.count = strtoull(strrchr(buf, ' ') + 1, NULL, 10);
			assert_true(cur.count == cur.inf);
			cur.has_count = 1;
		} else if (!strncmp(buf, sp, strlen(sp))) {
			assert_true(cur.has_count);
			cur.has_sum = 1;
		}
	}
	if (cur.labels[0])
		assert_true(cur.has_count && cur.has_sum);
	return nseries;
}

/*
 * The first histogram series' buckets in an exposition: their le strings
 * (+Inf too) and counts, at most max; how many.
 */
static size_t om_buckets(const char *text, char (*le)[32], uint64_t *cum,
			 size_t max)
{
	const char *p = text, *q, *first = NULL, *lp;
	size_t n = 0, len = 0;

	while ((p = strstr(p, "_bucket{")) && n < max) {
		q = strstr(p, ",le=\"");
		assert_non_null(q);
		/* the same series: the same text up to le */
		if (!first)
			first = p;
		else if ((size_t)(q - p) != len || strncmp(p, first, len))
			break;
		len = (size_t)(q - p);
		lp = q + 5;
		q = strchr(lp, '"');
		assert_non_null(q);
		assert_true((size_t)(q - lp) < 32);
		memcpy(le[n], lp, q - lp);
		le[n][q - lp] = '\0';
		cum[n++] = strtoull(q + 3, NULL, 10);
		p = q;
	}
	return n;
}

#define L_TINY	"{metric=\"tiny\",variant=\"direct\",host=\"h1\",kernel=\"6.12.9\",clocksource=\"tsc\""

/*
 * The grid 0..8 ns of frac_bits 3 (nine exact bounds): the exact
 * OpenMetrics exposition of tiny, with labels, _created, per-CPU family
 * (an empty CPU 2 too), counters, resets and recording.
 */
static void test_openmetrics(void **state)
{
	struct cr_render_opts o = { .per_cpu = 1, .host = "h1",
				    .kernel = "6.12.9", .clocksource = "tsc",
				    .nr_cpus = 3 };
	struct cr_grid g;
	struct cr_run r;
	char *out;

	(void)state;
	assert_int_equal(cr_grid_init(&g, 3, 0, 8), 0);
	assert_int_equal(g.n, 9);
	o.grid = &g;
	tiny_run(&r);
	r.metrics[0].created_ns = 1764031200123456789ULL;
	r.metrics[0].has_resets = 1;
	r.metrics[0].resets = 2;
	r.metrics[0].recording = 1;
	out = render(cr_render_openmetrics, &r, &o);
	assert_int_equal(check_om(out, "clkstat_latency_seconds", 9), 2);
	/* tiny on CPUs 0, 1 and the empty 2; idle: empty, no CPU at all */
	assert_int_equal(check_om(out, "clkstat_cpu_latency_seconds", 9), 6);
	assert_non_null(strstr(out,
		"# TYPE clkstat_latency_seconds histogram\n"
		"# UNIT clkstat_latency_seconds seconds\n"
		"# HELP clkstat_latency_seconds "));
	assert_non_null(strstr(out,
		"clkstat_latency_seconds_bucket" L_TINY ",le=\"0.0\"} 0\n"
		"clkstat_latency_seconds_bucket" L_TINY ",le=\"1e-09\"} 2\n"
		"clkstat_latency_seconds_bucket" L_TINY ",le=\"2e-09\"} 2\n"
		"clkstat_latency_seconds_bucket" L_TINY ",le=\"3e-09\"} 3\n"
		"clkstat_latency_seconds_bucket" L_TINY ",le=\"4e-09\"} 3\n"
		"clkstat_latency_seconds_bucket" L_TINY ",le=\"5e-09\"} 7\n"
		"clkstat_latency_seconds_bucket" L_TINY ",le=\"6e-09\"} 7\n"
		"clkstat_latency_seconds_bucket" L_TINY ",le=\"7e-09\"} 7\n"
		"clkstat_latency_seconds_bucket" L_TINY ",le=\"8e-09\"} 7\n"
		"clkstat_latency_seconds_bucket" L_TINY ",le=\"+Inf\"} 7\n"
		"clkstat_latency_seconds_count" L_TINY "} 7\n"
		"clkstat_latency_seconds_sum" L_TINY "} 2.5e-08\n"
		"clkstat_latency_seconds_created" L_TINY "} 1764031200.123\n"));
	assert_non_null(strstr(out, "clkstat_cpu_latency_seconds_bucket" L_TINY ",cpu=\"1\",le=\"+Inf\"} 4\n"));
	assert_non_null(strstr(out, "clkstat_cpu_latency_seconds_bucket" L_TINY ",cpu=\"2\",le=\"+Inf\"} 0\n"));
	/* idle: no _created (unknown), every bound at 0, sum 0 */
	assert_non_null(strstr(out,
		"_bucket{metric=\"idle\",variant=\"direct\",host=\"h1\",kernel=\"6.12.9\",clocksource=\"tsc\",le=\"+Inf\"} 0\n"
		"clkstat_latency_seconds_count{metric=\"idle\",variant=\"direct\",host=\"h1\",kernel=\"6.12.9\",clocksource=\"tsc\"} 0\n"
		"clkstat_latency_seconds_sum{metric=\"idle\",variant=\"direct\",host=\"h1\",kernel=\"6.12.9\",clocksource=\"tsc\"} 0.0\n"
		"# TYPE clkstat_cpu_latency_seconds histogram\n"));
	assert_non_null(strstr(out,
		"# TYPE clkstat_events counter\n# HELP clkstat_events "));
	assert_non_null(strstr(out,
		"clkstat_events_total" L_TINY ",counter=\"migrated\"} 2\n"
		"clkstat_events_created" L_TINY ",counter=\"migrated\"} 1764031200.123\n"));
	assert_non_null(strstr(out,
		"# TYPE clkstat_resets counter\n# HELP clkstat_resets "));
	assert_non_null(strstr(out, "clkstat_resets_total" L_TINY "} 2\n"));
	assert_null(strstr(out, "clkstat_resets_total{metric=\"idle\""));
	assert_non_null(strstr(out, "clkstat_recording" L_TINY "} 1\n"));
	assert_non_null(strstr(out, "clkstat_recording{metric=\"idle\",variant=\"direct\",host=\"h1\",kernel=\"6.12.9\",clocksource=\"tsc\"} 0\n# EOF\n"));
	assert_null(strstr(out, "cpu=\"all\""));
	/* A snapshot's run: the module's reentered count is not known. */
	assert_null(strstr(out, "clkstat_reentered"));
	free(out);

	/* A live reading's: the module's own series, without metric. */
	r.has_reentered = 1;
	r.reentered = 5;
	out = render(cr_render_openmetrics, &r, &o);
	assert_non_null(strstr(out,
		"# TYPE clkstat_reentered counter\n# HELP clkstat_reentered "));
	assert_non_null(strstr(out,
		"\nclkstat_reentered_total{host=\"h1\",kernel=\"6.12.9\",clocksource=\"tsc\"} 5\n# EOF\n"));
	free(out);
	o.host = NULL;
	o.kernel = NULL;
	out = render(cr_render_openmetrics, &r, &o);
	assert_non_null(strstr(out,
		"\nclkstat_reentered_total{clocksource=\"tsc\"} 5\n"));
	free(out);
	o.clocksource = NULL;
	out = render(cr_render_openmetrics, &r, &o);
	assert_non_null(strstr(out, "\nclkstat_reentered_total 5\n"));
	free(out);
	o.host = "h1";
	o.kernel = "6.12.9";
	o.clocksource = "tsc";

	/* The text format: HELP before TYPE, no UNIT, _created nor # EOF. */
	o.prometheus_text = 1;
	out = render(cr_render_openmetrics, &r, &o);
	assert_non_null(strstr(out,
		"# HELP clkstat_reentered_total Hook calls the clkstat kernel module skipped"));
	assert_non_null(strstr(out, "# TYPE clkstat_reentered_total counter\n"
				    "clkstat_reentered_total{host=\"h1\",kernel=\"6.12.9\",clocksource=\"tsc\"} 5\n"));
	assert_int_equal(check_om(out, "clkstat_latency_seconds", 9), 2);
	assert_non_null(strstr(out,
		"# HELP clkstat_events_total Events counted by the clkstat kernel module, per metric and variant, all CPUs.\n"
		"# TYPE clkstat_events_total counter\n"));
	assert_non_null(strstr(out, "# TYPE clkstat_resets_total counter\n"));
	assert_null(strstr(out, "_created"));
	assert_null(strstr(out, "# UNIT"));
	assert_null(strstr(out, "# EOF"));
	free(out);

	/* Without --per-cpu, no per-CPU family; without nr_cpus, no empty CPU. */
	o.prometheus_text = 0;
	o.per_cpu = 0;
	out = render(cr_render_openmetrics, &r, &o);
	assert_null(strstr(out, "clkstat_cpu_latency_seconds"));
	free(out);
	o.per_cpu = 1;
	o.nr_cpus = 0;
	out = render(cr_render_openmetrics, &r, &o);
	assert_int_equal(check_om(out, "clkstat_cpu_latency_seconds", 9), 2);
	free(out);
	cr_run_free(&r);
	cr_grid_free(&g);
}

/*
 * Every slot of every layout non-empty, on the grid of frac_bits 0 over
 * all it may cover, up to 2^53 - 1 ns (54 bounds): each histogram's count
 * at a bound is its slots up to there, those above only in +Inf; a grid
 * of finer bits leaves coarser metrics out.
 */
static void test_openmetrics_every_slot(void **state)
{
	struct cr_render_opts o = { 0 };
	struct cr_run r = { 0 };
	struct cr_metric *m;
	unsigned int k, i;
	struct cr_grid g;
	char *out, want[160], unfit[256];

	(void)state;
	assert_int_equal(cr_grid_init(&g, 0, 0, UINT64_MAX), -EINVAL);
	assert_int_equal(cr_grid_init(&g, 0, 0, CR_GRID_NS_MAX + 1), -EINVAL);
	assert_int_equal(cr_grid_init(&g, 0, 0, CR_GRID_NS_MAX), 0);
	assert_int_equal(g.n, 54);
	assert_true(g.bound[53] == CR_GRID_NS_MAX);
	o.grid = &g;
	for (k = 0; k <= CLKSTAT_FRAC_BITS_MAX; k++) {
		char name[8];

		snprintf(name, sizeof(name), "k%u", k);
		m = hb_metric(&r, name, "v", k);
		for (i = 0; i < CLKSTAT_NSLOTS(k); i++)
			hb_hist_add(&m->total, k, clkstat_slot_upper(i, k));
	}
	out = render(cr_render_openmetrics, &r, &o);
	assert_int_equal(check_om(out, "clkstat_latency_seconds", 54),
			 CLKSTAT_FRAC_BITS_MAX + 1);
	/* canonical renderings: 0, 1 ns, 1023 ns, 2^53 - 1 ns */
	assert_non_null(strstr(out, "{metric=\"k0\",variant=\"v\",le=\"0.0\"} 1\n"));
	assert_non_null(strstr(out, "{metric=\"k0\",variant=\"v\",le=\"1e-09\"} 2\n"));
	assert_non_null(strstr(out, "{metric=\"k0\",variant=\"v\",le=\"1.023e-06\"} 11\n"));
	assert_non_null(strstr(out, "{metric=\"k0\",variant=\"v\",le=\"9.00719925474099e+06\"} 54\n"));
	assert_non_null(strstr(out, "{metric=\"k0\",variant=\"v\",le=\"+Inf\"} 65\n"));
	for (k = 1; k <= CLKSTAT_FRAC_BITS_MAX; k++) {
		snprintf(want, sizeof(want), "{metric=\"k%u\",variant=\"v\",le=\"1.023e-06\"} %u\n",
			 k, clkstat_value_to_slot(1023, k) + 1);
		assert_non_null(strstr(out, want));
	}
	free(out);
	cr_grid_free(&g);

	/* frac_bits 3: k0 to k2 cannot be put on it, and are named. */
	assert_int_equal(cr_grid_init(&g, 3, 16, 1024), 0);
	assert_int_equal(cr_grid_unfit(&g, &r, unfit, sizeof(unfit)), 3);
	assert_string_equal(unfit, "k0.v (frac_bits 0), k1.v (frac_bits 1), k2.v (frac_bits 2)");
	o.grid = &g;
	out = render(cr_render_openmetrics, &r, &o);
	assert_int_equal(check_om(out, "clkstat_latency_seconds", g.n), 3);
	assert_null(strstr(out, "_bucket{metric=\"k2\""));
	assert_non_null(strstr(out, "clkstat_recording{metric=\"k2\""));
	free(out);
	cr_grid_free(&g);
	cr_run_free(&r);
}

/* --grid's spec: bits, range and units; refusals with a reason. */
static void test_grid_parse(void **state)
{
	struct cr_grid g;
	char err[160];

	(void)state;
	assert_int_equal(cr_grid_parse("2:16ns:10s", &g, err, sizeof(err)), 0);
	assert_int_equal(g.bits, 2);
	assert_int_equal(g.bound[0], 19);	/* the slot of 16 at 2 bits */
	assert_int_equal(g.bound[g.n - 1],
			 clkstat_slot_upper(clkstat_value_to_slot(10000000000ULL, 2), 2));
	cr_grid_free(&g);
	assert_int_equal(cr_grid_parse(CR_GRID_DEFAULT, &g, err, sizeof(err)), 0);
	assert_int_equal(g.n, 117);
	cr_grid_free(&g);
	assert_int_equal(cr_grid_parse("3:2.5us:1ms", &g, err, sizeof(err)), 0);
	assert_int_equal(g.lo, 2500);
	assert_int_equal(g.hi, 1000000);
	cr_grid_free(&g);
	assert_int_equal(cr_grid_parse("5", &g, err, sizeof(err)), 0);
	assert_int_equal(g.bits, 5);
	cr_grid_free(&g);
	assert_int_equal(cr_grid_parse("6", &g, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "BITS 0 to 5"));
	assert_int_equal(cr_grid_parse("2:1s:1ms", &g, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "LO above HI"));
	assert_int_equal(cr_grid_parse("2:16:1s", &g, err, sizeof(err)), -EINVAL);
	assert_int_equal(cr_grid_parse("2:0x10ns:1s", &g, err, sizeof(err)), -EINVAL);
	assert_int_equal(cr_grid_parse("2:1.5ns:1s", &g, err, sizeof(err)), -EINVAL);
	assert_int_equal(cr_grid_parse("2:16ns", &g, err, sizeof(err)), -EINVAL);
	assert_int_equal(cr_grid_parse("x", &g, err, sizeof(err)), -EINVAL);
	assert_int_equal(cr_grid_parse("2:-1ns:1s", &g, err, sizeof(err)), -EINVAL);
}

/*
 * Decimal LO and HI, exact in integer arithmetic: strtod() times the unit
 * refused "4.1ms" (4099999.9999999995) and the like as not whole ns.
 */
static void test_grid_parse_decimals(void **state)
{
	static const struct {
		const char *spec;
		uint64_t lo, hi;
	} good[] = {
		{ "2:4.1ms:10s", 4100000, 10000000000ULL },
		{ "2:1.001ms:1.013s", 1001000, 1013000000 },
		{ "2:1.001us:4.1ms", 1001, 4100000 },
		{ "2:0.5us:0.000000999s", 500, 999 },
		{ "2:16.000ns:1.000000000000s", 16, 1000000000 },
		{ "2:0ns:9007199.254740991s", 0, CR_GRID_NS_MAX },
		{ "2:9007199254740991ns:9007199254740.991us",
		  CR_GRID_NS_MAX, CR_GRID_NS_MAX },
		{ "0:007ms:7ms", 7000000, 7000000 },
	};
	static const struct {
		const char *spec, *why;
	} bad[] = {
		{ "2:1.0001us:1s", "1.0001us is not a whole number of ns (us takes at most 3 decimals)" },
		{ "2:16ns:1.0000000001s", "1.0000000001s is not a whole number of ns (s takes at most 9 decimals)" },
		{ "2:1.5ns:1s", "1.5ns is not a whole number of ns" },
		{ "2:1ms:4.1234567ms", "4.1234567ms is not a whole number of ns (ms takes at most 6 decimals)" },
		{ "2:16ns:9007199.254740992s", "9007199.254740992s is above 2^53 - 1 ns (104 days)" },
		{ "2:16ns:105d", "durations with a unit" },
		{ "2:16ns:18446744073709551616ns", "18446744073709551616ns is above 2^53 - 1 ns" },
		{ "2:16ns:18446744073709551615s", "18446744073709551615s is above 2^53 - 1 ns" },
		{ "2:16ns:99999999999999999999999ms", "is above 2^53 - 1 ns" },
		{ "2:7.ms:1s", "durations with a unit" },
		{ "2:.5ms:1s", "durations with a unit" },
		{ "2:1e3ns:1s", "durations with a unit" },
		{ "2:1 ms:1s", "durations with a unit" },
		{ "2:1.5:1s", "durations with a unit" },
		{ "2:1ms:1s:", "durations with a unit" },
		{ "2:+1ms:1s", "durations with a unit" },
		{ "2:1.-5ms:1s", "durations with a unit" },
		{ "2::1s", "durations with a unit" },
	};
	struct cr_grid g;
	char err[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		if (cr_grid_parse(good[i].spec, &g, err, sizeof(err)))
			fail_msg("%s: %s", good[i].spec, err);
		assert_true(g.lo == good[i].lo);
		assert_true(g.hi == good[i].hi);
		assert_true(g.bound[g.n - 1] <= CR_GRID_NS_MAX);
		cr_grid_free(&g);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_int_equal(cr_grid_parse(bad[i].spec, &g, err, sizeof(err)),
				 -EINVAL);
		if (!strstr(err, bad[i].why))
			fail_msg("%s: \"%s\", not \"%s\"", bad[i].spec, err,
				 bad[i].why);
		assert_null(g.bound);
	}
}

/*
 * Samples below the grid's LO and above its HI, on a grid coarser than the
 * histogram (2:16ns:1000ns, frac_bits 5): each in the first bucket whose
 * le is at least its slot's upper bound (3 and 17 in the first, 19 ns),
 * those whose slot ends above the last bound (1023 ns) only in +Inf.
 */
static void test_openmetrics_outside(void **state)
{
	static const uint64_t v[] = { 3, 17, 20, 21, 999, 1023, 1024, 5000 };
	struct cr_render_opts o = { 0 };
	struct cr_run r = { 0 };
	struct cr_metric *m;
	char err[256], le[32][32];
	struct cr_grid g;
	uint64_t cum[32];
	size_t i, j, n;
	char *out;

	(void)state;
	assert_int_equal(cr_grid_parse("2:16ns:1000ns", &g, err, sizeof(err)), 0);
	assert_int_equal(g.n, 24);
	assert_int_equal(g.bound[0], 19);
	assert_int_equal(g.bound[23], 1023);
	o.grid = &g;
	m = hb_metric(&r, "x", "v", 5);
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		hb_sample(m, 0, v[i]);
	out = render(cr_render_openmetrics, &r, &o);
	assert_int_equal(check_om(out, "clkstat_latency_seconds", 24), 1);
	/* By hand: 3 and 17 at 19 ns, 20 and 21 at 23, 999 and 1023 at 1023. */
	assert_non_null(strstr(out,
		"clkstat_latency_seconds_bucket{metric=\"x\",variant=\"v\",le=\"1.9e-08\"} 2\n"
		"clkstat_latency_seconds_bucket{metric=\"x\",variant=\"v\",le=\"2.3e-08\"} 4\n"
		"clkstat_latency_seconds_bucket{metric=\"x\",variant=\"v\",le=\"2.7e-08\"} 4\n"));
	assert_non_null(strstr(out,
		"clkstat_latency_seconds_bucket{metric=\"x\",variant=\"v\",le=\"8.95e-07\"} 4\n"
		"clkstat_latency_seconds_bucket{metric=\"x\",variant=\"v\",le=\"1.023e-06\"} 6\n"
		"clkstat_latency_seconds_bucket{metric=\"x\",variant=\"v\",le=\"+Inf\"} 8\n"
		"clkstat_latency_seconds_count{metric=\"x\",variant=\"v\"} 8\n"));
	/* Every bound: the samples whose slot's upper bound is at most it. */
	assert_int_equal(om_buckets(out, le, cum, 32), 25);
	for (j = 0; j < g.n; j++) {
		for (i = n = 0; i < sizeof(v) / sizeof(v[0]); i++)
			n += clkstat_slot_upper(clkstat_value_to_slot(v[i], 5), 5) <=
			     g.bound[j];
		assert_true(strtod(le[j], NULL) == (double)g.bound[j] / 1e9);
		assert_int_equal(cum[j], n);
	}
	assert_string_equal(le[24], "+Inf");
	assert_int_equal(cum[24], 8);
	free(out);
	cr_run_free(&r);
	cr_grid_free(&g);
}

static void test_openmetrics_escaping(void **state)
{
	struct cr_render_opts o = { .host = "h\"\\\n" };
	struct cr_run r = { 0 };
	struct cr_metric *m;
	struct cr_grid g;
	char *out;

	(void)state;
	assert_int_equal(cr_grid_init(&g, 0, 1000000, 1000000), 0);
	o.grid = &g;
	m = hb_metric(&r, "a\"b\\c", "x\ny", 0);
	hb_sample(m, 0, 1000000);	/* 1 ms */
	hb_counter(m, "n\"", 5);
	out = render(cr_render_openmetrics, &r, &o);
	assert_non_null(strstr(out, "_bucket{metric=\"a\\\"b\\\\c\",variant=\"x\\ny\",host=\"h\\\"\\\\\\n\",le=\"0.001048575\"} 1\n"));
	assert_non_null(strstr(out, "_sum{metric=\"a\\\"b\\\\c\",variant=\"x\\ny\",host=\"h\\\"\\\\\\n\"} 0.001\n"));
	assert_non_null(strstr(out, "clkstat_events_total{metric=\"a\\\"b\\\\c\",variant=\"x\\ny\",host=\"h\\\"\\\\\\n\",counter=\"n\\\"\"} 5\n"));
	free(out);
	cr_run_free(&r);
	cr_grid_free(&g);
}

/*
 * The default grid's le strings, every one: Prometheus sums by the
 * string, so a change of the formatter or of CR_GRID_DEFAULT would split
 * every bucket of a fleet running two versions in two.  A change here
 * must be deliberate (and said in the release notes).
 */
static void test_openmetrics_default_le(void **state)
{
	static const char *const golden[] = {
		"1.9e-08", "2.3e-08", "2.7e-08", "3.1e-08", "3.9e-08",
		"4.7e-08", "5.5e-08", "6.3e-08", "7.9e-08", "9.5e-08",
		"1.11e-07", "1.27e-07", "1.59e-07", "1.91e-07", "2.23e-07",
		"2.55e-07", "3.19e-07", "3.83e-07", "4.47e-07", "5.11e-07",
		"6.39e-07", "7.67e-07", "8.95e-07", "1.023e-06", "1.279e-06",
		"1.535e-06", "1.791e-06", "2.047e-06", "2.559e-06",
		"3.071e-06", "3.583e-06", "4.095e-06", "5.119e-06",
		"6.143e-06", "7.167e-06", "8.191e-06", "1.0239e-05",
		"1.2287e-05", "1.4335e-05", "1.6383e-05", "2.0479e-05",
		"2.4575e-05", "2.8671e-05", "3.2767e-05", "4.0959e-05",
		"4.9151e-05", "5.7343e-05", "6.5535e-05", "8.1919e-05",
		"9.8303e-05", "0.000114687", "0.000131071", "0.000163839",
		"0.000196607", "0.000229375", "0.000262143", "0.000327679",
		"0.000393215", "0.000458751", "0.000524287", "0.000655359",
		"0.000786431", "0.000917503", "0.001048575", "0.001310719",
		"0.001572863", "0.001835007", "0.002097151", "0.002621439",
		"0.003145727", "0.003670015", "0.004194303", "0.005242879",
		"0.006291455", "0.007340031", "0.008388607", "0.010485759",
		"0.012582911", "0.014680063", "0.016777215", "0.020971519",
		"0.025165823", "0.029360127", "0.033554431", "0.041943039",
		"0.050331647", "0.058720255", "0.067108863", "0.083886079",
		"0.100663295", "0.117440511", "0.134217727", "0.167772159",
		"0.201326591", "0.234881023", "0.268435455", "0.335544319",
		"0.402653183", "0.469762047", "0.536870911", "0.671088639",
		"0.805306367", "0.939524095", "1.073741823", "1.342177279",
		"1.610612735", "1.879048191", "2.147483647", "2.684354559",
		"3.221225471", "3.758096383", "4.294967295", "5.368709119",
		"6.442450943", "7.516192767", "8.589934591", "10.737418239",
	};
	const size_t ng = sizeof(golden) / sizeof(golden[0]);
	struct cr_render_opts o = { 0 };
	struct cr_run r = { 0 };
	char le[128][32], err[256];
	uint64_t cum[128];
	struct cr_grid g;
	size_t i, j;
	char *out;

	(void)state;
	assert_int_equal(ng, 117);
	hb_metric(&r, "idle", "direct", 3);
	/* o.grid NULL: the renderer's default; then report's, parsed */
	for (i = 0; i < 2; i++) {
		if (i) {
			assert_int_equal(cr_grid_parse(CR_GRID_DEFAULT, &g, err,
						       sizeof(err)), 0);
			o.grid = &g;
		}
		out = render(cr_render_openmetrics, &r, &o);
		assert_int_equal(om_buckets(out, le, cum, 128), ng + 1);
		free(out);
		assert_string_equal(le[ng], "+Inf");
		for (j = 0; j < ng; j++)
			assert_string_equal(le[j], golden[j]);
	}
	cr_grid_free(&g);
	cr_run_free(&r);
}

/*
 * The per-CPU family adds up to the all-CPU one: a CPU at or above
 * nr_cpus (snapshots of several machines pooled) raises it, for every
 * metric; one far above is there alone, without the empty series up to it.
 */
static void test_openmetrics_cpus_above(void **state)
{
	struct cr_render_opts o = { .per_cpu = 1, .nr_cpus = 2 };
	struct cr_run r = { 0 };
	struct cr_metric *m;
	struct cr_grid g;
	char *out;

	(void)state;
	assert_int_equal(cr_grid_init(&g, 3, 0, 8), 0);
	o.grid = &g;
	m = hb_metric(&r, "a", "v", 3);
	hb_sample(m, 0, 1);
	hb_sample(m, 3, 2);
	hb_sample(m, 3, 7);
	m = hb_metric(&r, "b", "v", 3);
	hb_sample(m, 1, 5);
	out = render(cr_render_openmetrics, &r, &o);
	/* CPUs 0 to 3, empty 1 and 2 too, for each of a and b */
	assert_int_equal(check_om(out, "clkstat_cpu_latency_seconds", 9), 8);
	assert_non_null(strstr(out, "clkstat_cpu_latency_seconds_count{metric=\"a\",variant=\"v\",cpu=\"3\"} 2\n"));
	assert_non_null(strstr(out, "clkstat_cpu_latency_seconds_count{metric=\"a\",variant=\"v\",cpu=\"2\"} 0\n"));
	assert_non_null(strstr(out, "clkstat_cpu_latency_seconds_count{metric=\"b\",variant=\"v\",cpu=\"3\"} 0\n"));
	assert_non_null(strstr(out, "clkstat_latency_seconds_count{metric=\"a\",variant=\"v\"} 3\n"));
	free(out);

	cr_run_free(&r);
	cr_grid_free(&g);

	/*
	 * CPU 4000000000 (a corrupt snapshot's) and nr_cpus 70000: the
	 * empty series filled in up to render_openmetrics.c's
	 * CR_OM_CPUS_FILL (65536) only, not 4e9 of them.
	 */
	memset(&r, 0, sizeof(r));
	assert_int_equal(cr_grid_init(&g, 0, 1, 1), 0);
	m = hb_metric(&r, "c", "v", 3);
	hb_sample(m, 7, 1);
	hb_sample(m, 4000000000U, 1);
	o.nr_cpus = 70000;
	out = render(cr_render_openmetrics, &r, &o);
	assert_int_equal(count_lines(out, "clkstat_cpu_latency_seconds_count{"),
			 65536 + 1);
	assert_non_null(strstr(out, "clkstat_cpu_latency_seconds_count{metric=\"c\",variant=\"v\",cpu=\"65535\"} 0\n"
				    "clkstat_cpu_latency_seconds_sum{metric=\"c\",variant=\"v\",cpu=\"65535\"} 0.0\n"
				    "clkstat_cpu_latency_seconds_bucket{metric=\"c\",variant=\"v\",cpu=\"4000000000\",le=\"1e-09\"} 1\n"));
	assert_non_null(strstr(out, "clkstat_cpu_latency_seconds_count{metric=\"c\",variant=\"v\",cpu=\"7\"} 1\n"));
	free(out);
	cr_run_free(&r);
	cr_grid_free(&g);
}

/* What fn wrote on stderr, NUL-terminated (free it). */
static char *stderr_of(void (*fn)(void *), void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = tmpfile();
	int saved;
	long n;

	assert_non_null(f);
	fflush(stderr);
	saved = dup(2);
	assert_true(saved >= 0);
	assert_true(dup2(fileno(f), 2) == 2);
	fn(arg);
	fflush(stderr);
	assert_true(dup2(saved, 2) == 2);
	close(saved);
	n = ftell(f);
	assert_true(n >= 0);
	len = (size_t)n;
	buf = calloc(1, len + 1);
	assert_non_null(buf);
	rewind(f);
	assert_int_equal(fread(buf, 1, len, f), len);
	fclose(f);
	return buf;
}

struct say_arg {
	struct cr_run *r;
	struct cr_render_opts *o;
};

static void say_render(void *arg)
{
	struct say_arg *a = arg;

	free(render(cr_render_openmetrics, a->r, a->o));
}

/*
 * serve's renders say the metrics that the grid leaves out, a line each,
 * when that set changes, not at every render.
 */
static void test_openmetrics_unfit_said(void **state)
{
	struct cr_om_said said = { .who = "clkstat-report: serve" };
	struct cr_render_opts o = { .unfit_said = &said };
	struct cr_run r = { 0 };
	struct say_arg a = { &r, &o };
	struct cr_grid g;
	char *err;

	(void)state;
	assert_int_equal(cr_grid_init(&g, 2, 16, 1024), 0);
	o.grid = &g;
	hb_metric(&r, "fine", "direct", 3);
	err = stderr_of(say_render, &a);
	assert_string_equal(err, "");
	free(err);
	hb_metric(&r, "ttwu_enqueue", "direct", 1);
	err = stderr_of(say_render, &a);
	assert_string_equal(err, "clkstat-report: serve: ttwu_enqueue.direct: frac_bits 1 is coarser than the grid's 2, left out of clkstat_latency_seconds\n");
	free(err);
	/* the same set: nothing, in either format */
	err = stderr_of(say_render, &a);
	assert_string_equal(err, "");
	free(err);
	o.prometheus_text = 1;
	err = stderr_of(say_render, &a);
	assert_string_equal(err, "");
	free(err);
	/* another set: every metric of it, once */
	hb_metric(&r, "tkread", "direct", 0);
	o.per_cpu = 1;
	err = stderr_of(say_render, &a);
	assert_string_equal(err,
		"clkstat-report: serve: ttwu_enqueue.direct: frac_bits 1 is coarser than the grid's 2, left out of clkstat_latency_seconds and clkstat_cpu_latency_seconds\n"
		"clkstat-report: serve: tkread.direct: frac_bits 0 is coarser than the grid's 2, left out of clkstat_latency_seconds and clkstat_cpu_latency_seconds\n");
	free(err);
	err = stderr_of(say_render, &a);
	assert_string_equal(err, "");
	free(err);
	/* none left out (--metric): said once */
	o.metric = "fine";
	err = stderr_of(say_render, &a);
	assert_string_equal(err, "clkstat-report: serve: every metric is on the grid again\n");
	free(err);
	err = stderr_of(say_render, &a);
	assert_string_equal(err, "");
	free(err);
	/* without unfit_said (report): never */
	o.metric = NULL;
	o.unfit_said = NULL;
	err = stderr_of(say_render, &a);
	assert_string_equal(err, "");
	free(err);
	cr_run_free(&r);
	cr_grid_free(&g);
}

/* --host: a label value must be UTF-8 (RFC 3629). */
static void test_label_ok(void **state)
{
	(void)state;
	assert_true(cr_render_label_ok(""));
	assert_true(cr_render_label_ok("db-7"));
	assert_true(cr_render_label_ok("caf\xc3\xa9"));		/* é */
	assert_true(cr_render_label_ok("\xe6\x97\xa5\xe6\x9c\xac"));	/* 日本 */
	assert_true(cr_render_label_ok("\xef\xbf\xbd"));		/* U+FFFD */
	assert_true(cr_render_label_ok("\xf0\x9f\x98\x80"));	/* U+1F600 */
	assert_true(cr_render_label_ok("\xf4\x8f\xbf\xbf"));	/* U+10FFFF */
	assert_false(cr_render_label_ok("\xff"));
	assert_false(cr_render_label_ok("caf\xe9"));		/* Latin-1 */
	assert_false(cr_render_label_ok("\xc0\xaf"));		/* overlong '/' */
	assert_false(cr_render_label_ok("\xe0\x80\xaf"));	/* overlong */
	assert_false(cr_render_label_ok("\xed\xa0\x80"));	/* surrogate */
	assert_false(cr_render_label_ok("\xf4\x90\x80\x80"));	/* > U+10FFFF */
	assert_false(cr_render_label_ok("\xe6\x97"));		/* cut short */
	assert_false(cr_render_label_ok("\xe6\x97x"));
	assert_false(cr_render_label_ok("\x80"));			/* lone continuation */
}

/* ---- raw ---- */

static void test_raw(void **state)
{
	struct cr_render_opts o = { 0 };
	struct cr_run r;
	char *out;

	(void)state;
	tiny_run(&r);
	/* a CPU without samples is left out, as the dump leaves it out */
	r.metrics[1].cpus = calloc(1, sizeof(struct cr_hist));
	r.metrics[1].cpus[0] = (struct cr_hist){ .cpu = 3, .min = UINT64_MAX };
	r.metrics[1].ncpus = 1;
	out = render(cr_render_raw, &r, &o);
	assert_string_equal(out,
		"metric tiny.direct cpu 0\n"
		"min 1 max 3\n"
		"slot 1 count 2 sum 2\n"
		"slot 3 count 1 sum 3\n"
		"metric tiny.direct cpu 1\n"
		"min 5 max 5\n"
		"slot 5 count 4 sum 20\n"
		"metric tiny.direct cpu all\n"
		"min 1 max 5\n"
		"counter wakeups 7\n"
		"counter migrated 2\n"
		"slot 1 count 2 sum 2\n"
		"slot 3 count 1 sum 3\n"
		"slot 5 count 4 sum 20\n"
		"metric idle.direct cpu all\n"
		"min 18446744073709551615 max 0\n"
		"counter wakeups 0\n");
	free(out);
	o.metric = "idle.direct";
	out = render(cr_render_raw, &r, &o);
	assert_string_equal(out,
		"metric idle.direct cpu all\n"
		"min 18446744073709551615 max 0\n"
		"counter wakeups 0\n");
	free(out);
	cr_run_free(&r);
}

/*
 * A user-defined probe's metric: its name is its spec, with ':' and '-',
 * up to 63 bytes (CLKSTAT_NAME_MAX - 1), in a variant with '-': whole in
 * every output, and --metric finds it by NAME and NAME.VARIANT.
 */
static void test_trace_names(void **state)
{
	static const char name[] =
		"sec:clkstat_tt_sec_begin_long_names-clkstat_tt_sec_end:exit:cpu";
	struct cr_render_opts o = { .metric = name };
	struct json_object *j, *ms, *m0, *v;
	struct cr_metric *m;
	struct cr_run r = { 0 };
	char *out, want[256];

	(void)state;
	assert_int_equal(strlen(name), CR_NAME_MAX - 1);
	m = hb_metric(&r, "tiny", "kprobe-int3", 3);
	hb_sample(m, 0, 7);
	m = hb_metric(&r, name, "kprobe-int3", 3);
	assert_string_equal(m->name, name);
	hb_sample(m, 0, 20000);
	hb_sample(m, 1, 20500);
	hb_counter(m, "unmatched", 1);
	assert_true(cr_render_wanted(m, &o));
	o.metric = "sec:clkstat_tt_sec_begin_long_names-clkstat_tt_sec_end:exit:cpu.kprobe-int3";
	assert_true(cr_render_wanted(m, &o));
	assert_false(cr_render_wanted(&r.metrics[0], &o));
	o.metric = "sec:clkstat_tt_sec_begin_long_names-clkstat_tt_sec_end:exit:cpu.kprobe";
	assert_false(cr_render_wanted(m, &o));
	o.metric = "sec:clkstat_tt_sec_begin_long_names-clkstat_tt_sec_end:exit";
	assert_false(cr_render_wanted(m, &o));
	o.metric = name;

	out = render(cr_render_text, &r, &o);
	snprintf(want, sizeof(want), "\n%s.kprobe-int3  (all CPUs)\n  count 2  min ", name);
	assert_non_null(strstr(out, want));
	assert_null(strstr(out, "tiny"));
	free(out);

	out = render(cr_render_csv, &r, &o);
	snprintf(want, sizeof(want), "\n%s,kprobe-int3,all,2,20000,", name);
	assert_non_null(strstr(out, want));
	assert_int_equal(count_lines(out, ""), 2);
	free(out);

	out = render(cr_render_json, &r, &o);
	j = json_tokener_parse(out);
	assert_non_null(j);
	assert_true(json_object_object_get_ex(j, "metrics", &ms));
	assert_int_equal(json_object_array_length(ms), 1);
	m0 = json_object_array_get_idx(ms, 0);
	assert_true(json_object_object_get_ex(m0, "name", &v));
	assert_string_equal(json_object_get_string(v), name);
	assert_true(json_object_object_get_ex(m0, "variant", &v));
	assert_string_equal(json_object_get_string(v), "kprobe-int3");
	json_object_put(j);
	free(out);

	out = render(cr_render_openmetrics, &r, &o);
	snprintf(want, sizeof(want), "_count{metric=\"%s\",variant=\"kprobe-int3\"} 2\n", name);
	assert_non_null(strstr(out, want));
	snprintf(want, sizeof(want), "clkstat_events_total{metric=\"%s\",variant=\"kprobe-int3\",counter=\"unmatched\"} 1\n", name);
	assert_non_null(strstr(out, want));
	free(out);

	out = render(cr_render_raw, &r, &o);
	snprintf(want, sizeof(want), "metric %s.kprobe-int3 cpu all\nmin 20000 max 20500\n", name);
	assert_non_null(strstr(out, want));
	free(out);
	cr_run_free(&r);
}

/* A failed write is CR_ERR. */
static void test_write_error(void **state)
{
	struct cr_render_opts o = { 0 };
	struct cr_run r;
	FILE *f;

	(void)state;
	tiny_run(&r);
	f = fopen("/dev/full", "w");
	if (!f) {
		cr_run_free(&r);
		skip();
	}
	assert_int_equal(cr_render_text(f, &r, &o), CR_ERR);
	clearerr(f);
	assert_int_equal(cr_render_csv(f, &r, &o), CR_ERR);
	clearerr(f);
	assert_int_equal(cr_render_json(f, &r, &o), CR_ERR);
	clearerr(f);
	assert_int_equal(cr_render_openmetrics(f, &r, &o), CR_ERR);
	clearerr(f);
	assert_int_equal(cr_render_raw(f, &r, &o), CR_ERR);
	fclose(f);
	cr_run_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summary_brute_force),
		cmocka_unit_test(test_summary_empty),
		cmocka_unit_test(test_summary_no_minmax),
		cmocka_unit_test(test_text_golden),
		cmocka_unit_test(test_text_no_samples),
		cmocka_unit_test(test_text_units),
		cmocka_unit_test(test_text_labels),
		cmocka_unit_test(test_wanted),
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_openmetrics),
		cmocka_unit_test(test_openmetrics_every_slot),
		cmocka_unit_test(test_openmetrics_escaping),
		cmocka_unit_test(test_grid_parse),
		cmocka_unit_test(test_grid_parse_decimals),
		cmocka_unit_test(test_openmetrics_outside),
		cmocka_unit_test(test_openmetrics_default_le),
		cmocka_unit_test(test_openmetrics_cpus_above),
		cmocka_unit_test(test_openmetrics_unfit_said),
		cmocka_unit_test(test_label_ok),
		cmocka_unit_test(test_raw),
		cmocka_unit_test(test_trace_names),
		cmocka_unit_test(test_write_error),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

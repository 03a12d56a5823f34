// SPDX-License-Identifier: GPL-2.0
/*
 * bootstrap.c - the bootstrap engine of clkstat-report --compare (bootstrap.h):
 * statistics of pooled histograms, percentile bootstrap intervals, and the
 * differences between two strata.  No I/O; everything below is what the
 * report prints.
 *
 * Two strata, the base (index 0) and the variant (index 1), each a set of
 * runs, each run a histogram.  A resample draws runs (--unit run, the
 * default), hosts and then their runs (--unit host), every host's runs
 * (--unit host-fixed) or samples (--unit sample), pools them, and
 * computes every statistic on the pooled histogram exactly as on the real
 * one.  Here, in order: the histogram as a distribution (cr_boot_cdf(),
 * MAD, outliers), a stratum (its runs on the union of their non-empty
 * slots, its hosts), the draws of each unit, the intervals, and
 * cr_boot_compare(), which draws the B resamples of each stratum from one
 * gsl_rng_mt19937 seeded with the seed: the same seed, the same numbers.
 *
 * What is computed, exactly (each unit's draws, the random numbers, the
 * statistics, intervals, differences and p-value, overflow, speed):
 * Documentation/clkstat-compare.rst, "The bootstrap"; what the numbers
 * mean and why the run is the unit: the sections before it.
 */
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include "../../kmod/shared/clkstat_hist_math.h"
#include "bootstrap.h"
#include "stats.h"

#define CR_U62	((unsigned __int128)1 << 62)
#define CR_BLOCK	8	/* slots summed at once (cr_add_rows()) */
#define CR_U64	((unsigned __int128)1 << 64)

/* ---- the histogram as a distribution ---- */

/* First and last non-empty entries; 0 when there is none. */
static int cr_bh_range(const struct cr_boot_hist *h, unsigned int *first,
		       unsigned int *last)
{
	unsigned int j;

	for (j = 0; j < h->n && !h->s[j].count; j++)
		;
	if (j == h->n)
		return 0;
	*first = j;
	for (j = h->n - 1; !h->s[j].count; j--)
		;
	*last = j;
	return 1;
}

/* The values entry j's samples spread over: [*lo, *hi]. */
static void cr_bh_bounds(const struct cr_boot_hist *h, unsigned int j,
			 unsigned int first, unsigned int last, uint64_t *lo,
			 uint64_t *hi)
{
	*lo = clkstat_slot_lower(h->slot[j], h->frac_bits);
	*hi = clkstat_slot_upper(h->slot[j], h->frac_bits);
	if (h->min > h->max)
		return;
	if (j == first && h->min >= *lo && h->min <= *hi)
		*lo = h->min;
	if (j == last && h->max >= *lo && h->max <= *hi)
		*hi = h->max;
}

double cr_boot_cdf(const struct cr_boot_hist *h, uint64_t v)
{
	unsigned int first, last, j;
	long double cum = 0;
	uint64_t lo, hi;

	if (!cr_bh_range(h, &first, &last))
		return 0;
	for (j = first; j <= last; j++) {
		if (!h->s[j].count)
			continue;
		cr_bh_bounds(h, j, first, last, &lo, &hi);
		if (v >= hi) {
			cum += h->s[j].count;
			continue;
		}
		if (v >= lo)
			cum += (long double)h->s[j].count * (v - lo + 1) /
			       ((long double)(hi - lo) + 1);
		break;
	}
	return (double)cum;
}

double cr_boot_share_above(const struct cr_boot_hist *h, uint64_t t)
{
	if (!h->total)
		return NAN;
	return (h->total - cr_boot_cdf(h, t)) / h->total;
}

/* Samples within [m - d, m + d]. */
static double cr_bh_within(const struct cr_boot_hist *h, uint64_t m,
			   uint64_t d)
{
	uint64_t up = m + d < m ? UINT64_MAX : m + d;

	return cr_boot_cdf(h, up) - (d >= m ? 0 : cr_boot_cdf(h, m - d - 1));
}

uint64_t cr_boot_mad(const struct cr_boot_hist *h, uint64_t median)
{
	unsigned int first, last;
	uint64_t lo, hi, a, b, mid, tmp;

	if (!h->total || !cr_bh_range(h, &first, &last))
		return 0;
	cr_bh_bounds(h, first, first, last, &lo, &tmp);
	cr_bh_bounds(h, last, first, last, &tmp, &hi);
	/* Every sample is within max(median - lo, hi - median). */
	a = 0;
	b = median > lo ? median - lo : 0;
	if (hi > median && hi - median > b)
		b = hi - median;
	while (a < b) {
		mid = a + (b - a) / 2;
		if (2 * cr_bh_within(h, median, mid) >= (double)h->total)
			b = mid;
		else
			a = mid + 1;
	}
	return a;
}

double cr_boot_share_outside(const struct cr_boot_hist *h, double lo,
			     double hi)
{
	const double two64 = 18446744073709551616.0;
	double below, above;

	if (!h->total)
		return NAN;
	/* Integer values below lo: those at most ceil(lo) - 1. */
	if (!(lo > 0))
		below = 0;
	else if (lo >= two64)
		below = h->total;
	else
		below = cr_boot_cdf(h, (uint64_t)ceil(lo) - 1);
	/* Above hi: all but those at most floor(hi). */
	if (hi < 0)
		above = h->total;
	else if (hi >= two64)
		above = 0;
	else
		above = h->total - cr_boot_cdf(h, (uint64_t)floor(hi));
	return (below + above) / h->total;
}

/* ---- a stratum ---- */

enum { EV_P25, EV_P50, EV_P75, EV_P90, EV_P99, EV_MEAN, EV_SD, EV_RISK,
	EV_N };

struct cr_stratum {
	unsigned int k;
	unsigned int nu;		/* slots in the union */
	unsigned int nup;		/* nu rounded up to CR_BLOCK */
	unsigned int ndense;		/* last union slot + 1 */
	size_t nruns;
	uint32_t *slot;			/* [nu] ascending */
	uint64_t *rs;			/* [nup / CR_BLOCK][nruns][CR_BLOCK]
					 * [2]: count and sum of each run's
					 * slots, block by block */
	uint32_t *rows;			/* [nruns + maxdraws] the runs of a
					 * resample */
	size_t maxdraws;		/* runs a resample draws at most */
	size_t nhosts;			/* distinct in->host; 0: unknown */
	size_t *hoff;			/* [nhosts + 1] host h's runs are */
	uint32_t *hrun;			/* hrun[hoff[h] .. hoff[h + 1] - 1] */
	unsigned int *hid;		/* [nhosts] in->host of each host */
	int host_fixed;			/* unit host-fixed */
	size_t nshared, nown;		/* unit host: hosts shared with the
					 * other stratum, and its own */
	uint32_t *shared;		/* [nshared] local numbers, in the
					 * base's order */
	uint32_t *own;			/* [nown] local numbers, in order */
	uint64_t *rn, *rmin, *rmax;	/* [nruns] */
	struct clkstat_slot *pool;	/* [nu] every run */
	uint64_t n, min, max;		/* of pool */
	unsigned int *w;		/* [nruns] multiplicities */
	uint64_t *pool64;		/* [nup][2] pool, padded */
	struct clkstat_slot *rp;	/* [nu] one resample */
	struct clkstat_slot *dense;	/* [CLKSTAT_NSLOTS(k)] */
};

static void cr_stratum_free(struct cr_stratum *st)
{
	free(st->slot);
	free(st->rs);
	free(st->rows);
	free(st->hoff);
	free(st->hrun);
	free(st->hid);
	free(st->shared);
	free(st->own);
	free(st->pool64);
	free(st->rn);
	free(st->rmin);
	free(st->rmax);
	free(st->pool);
	free(st->w);
	free(st->rp);
	free(st->dense);
	memset(st, 0, sizeof(*st));
}

static void *cr_calloc(size_t n, size_t sz)
{
	return calloc(n ? n : 1, sz);
}

/* Where run r's count of union slot j is in st->rs (its sum follows). */
static inline size_t cr_cell(const struct cr_stratum *st, size_t r,
			     unsigned int j)
{
	return (((size_t)(j / CR_BLOCK) * st->nruns + r) * CR_BLOCK +
		j % CR_BLOCK) * 2;
}

/*
 * The stratum's hosts, in order of first appearance among its runs (so
 * that hosts of one run each draw as the run unit draws), and the runs of
 * each, in input order; st->maxdraws for unit host.  0 or -ENOMEM.
 */
static int cr_stratum_hosts(struct cr_stratum *st,
			    const struct cr_boot_stratum_in *in,
			    const struct cr_boot_params *p)
{
	size_t r, h, maxnh = 0, *fill;

	st->maxdraws = in->nruns;
	st->host_fixed = p->host_fixed;
	if (!in->host)
		return 0;
	st->hid = cr_calloc(in->nruns, sizeof(*st->hid));
	st->hoff = cr_calloc(in->nruns + 1, sizeof(*st->hoff));
	st->hrun = cr_calloc(in->nruns, sizeof(*st->hrun));
	fill = cr_calloc(in->nruns + 1, sizeof(*fill));
	if (!st->hid || !st->hoff || !st->hrun || !fill) {
		free(fill);
		return -ENOMEM;
	}
	/* A few hundred runs at most in practice: a linear search. */
	for (r = 0; r < in->nruns; r++) {
		for (h = 0; h < st->nhosts && st->hid[h] != in->host[r]; h++)
			;
		if (h == st->nhosts)
			st->hid[st->nhosts++] = in->host[r];
		st->hoff[h + 1]++;
	}
	for (h = 0; h < st->nhosts; h++) {
		if (st->hoff[h + 1] > maxnh)
			maxnh = st->hoff[h + 1];
		st->hoff[h + 1] += st->hoff[h];
		fill[h] = st->hoff[h];
	}
	for (r = 0; r < in->nruns; r++) {
		for (h = 0; st->hid[h] != in->host[r]; h++)
			;
		st->hrun[fill[h]++] = r;
	}
	free(fill);
	/* nhosts draws of a host, each of up to maxnh runs (host-fixed:
	 * each host once, its runs as many times as it has) */
	if (p->unit_host && !p->host_fixed)
		st->maxdraws = st->nhosts * maxnh;
	return 0;
}

/*
 * Unit host: the hosts both strata have, in the base's order, as each
 * one's local numbers (st[s].shared), and each one's others (st[s].own).
 * 0 or -ENOMEM.
 */
static int cr_share_hosts(struct cr_stratum st[2])
{
	size_t h, i, s;

	for (s = 0; s < 2; s++) {
		st[s].shared = cr_calloc(st[s].nhosts, sizeof(*st[s].shared));
		st[s].own = cr_calloc(st[s].nhosts, sizeof(*st[s].own));
		if (!st[s].shared || !st[s].own)
			return -ENOMEM;
	}
	for (h = 0; h < st[0].nhosts; h++) {
		for (i = 0; i < st[1].nhosts && st[1].hid[i] != st[0].hid[h];
		     i++)
			;
		if (i == st[1].nhosts) {
			st[0].own[st[0].nown++] = h;
			continue;
		}
		st[0].shared[st[0].nshared++] = h;
		st[1].shared[st[1].nshared++] = i;
	}
	for (i = 0; i < st[1].nhosts; i++) {
		for (h = 0; h < st[0].nhosts && st[0].hid[h] != st[1].hid[i];
		     h++)
			;
		if (h == st[0].nhosts)
			st[1].own[st[1].nown++] = i;
	}
	return 0;
}

/* Map the runs onto the union of their non-empty slots, pool them. */
static int cr_stratum_init(struct cr_stratum *st,
			   const struct cr_boot_stratum_in *in,
			   const struct cr_boot_params *p)
{
	unsigned int nslots = CLKSTAT_NSLOTS(in->frac_bits), j, *map;
	unsigned __int128 maxn = 0;
	const struct cr_hist *h;
	size_t r, i;
	uint32_t s;

	memset(st, 0, sizeof(*st));
	st->k = in->frac_bits;
	st->nruns = in->nruns;
	if (cr_stratum_hosts(st, in, p))
		goto nomem_nomap;
	map = malloc(nslots * sizeof(*map));
	st->dense = cr_calloc(nslots, sizeof(*st->dense));
	if (!map || !st->dense)
		goto nomem;
	for (j = 0; j < nslots; j++)
		map[j] = UINT_MAX;
	for (r = 0; r < in->nruns; r++) {
		h = in->runs[r];
		for (i = 0; i < h->nslots; i++)
			if (h->slots[i].slot < nslots && h->slots[i].count)
				map[h->slots[i].slot] = 0;
	}
	for (j = 0; j < nslots; j++)
		if (!map[j])
			map[j] = st->nu++;
	st->nup = (st->nu + CR_BLOCK - 1) / CR_BLOCK * CR_BLOCK;
	st->slot = cr_calloc(st->nu, sizeof(*st->slot));
	st->rs = cr_calloc(in->nruns * (size_t)st->nup * 2, sizeof(*st->rs));
	st->rows = cr_calloc(in->nruns + st->maxdraws, sizeof(*st->rows));
	st->pool64 = cr_calloc((size_t)st->nup * 2, sizeof(*st->pool64));
	st->rn = cr_calloc(in->nruns, sizeof(*st->rn));
	st->rmin = cr_calloc(in->nruns, sizeof(*st->rmin));
	st->rmax = cr_calloc(in->nruns, sizeof(*st->rmax));
	st->pool = cr_calloc(st->nu, sizeof(*st->pool));
	st->w = cr_calloc(in->nruns, sizeof(*st->w));
	st->rp = cr_calloc(st->nup, sizeof(*st->rp));
	if (!st->slot || !st->rs || !st->rows || !st->pool64 || !st->rn ||
	    !st->rmin || !st->rmax || !st->pool || !st->w || !st->rp)
		goto nomem;
	for (j = 0; j < nslots; j++)
		if (map[j] != UINT_MAX)
			st->slot[map[j]] = j;
	st->ndense = st->nu ? st->slot[st->nu - 1] + 1 : 0;

	st->min = UINT64_MAX;
	for (r = 0; r < in->nruns; r++) {
		unsigned __int128 n = 0;
		unsigned int first = UINT_MAX, last = 0;

		h = in->runs[r];
		for (i = 0; i < h->nslots; i++) {
			s = h->slots[i].slot;
			if (s >= nslots || !h->slots[i].count)
				continue;
			j = map[s];
			st->rs[cr_cell(st, r, j)] += h->slots[i].count;
			st->rs[cr_cell(st, r, j) + 1] += h->slots[i].sum;
			n += h->slots[i].count;
			if (map[s] < first)
				first = map[s];
			if (map[s] > last)
				last = map[s];
		}
		if (n >= CR_U62)
			goto overflow;
		st->rn[r] = (uint64_t)n;
		if (n > maxn)
			maxn = n;
		if (!n) {
			st->rmin[r] = UINT64_MAX;
			st->rmax[r] = 0;
			continue;
		}
		st->rmin[r] = h->min;
		st->rmax[r] = h->max;
		if (h->min > h->max) {
			/* No recorded min and max: as cr_summarize(). */
			st->rmin[r] = clkstat_slot_lower(st->slot[first], st->k);
			st->rmax[r] = clkstat_slot_upper(st->slot[last], st->k);
		}
		if (st->rmin[r] < st->min)
			st->min = st->rmin[r];
		if (st->rmax[r] > st->max)
			st->max = st->rmax[r];
	}
	/* A resample pools at most maxdraws copies of the largest run. */
	if (maxn * st->maxdraws >= CR_U62)
		goto overflow;
	for (j = 0; j < st->nu; j++) {
		uint64_t maxs = 0;

		for (r = 0; r < in->nruns; r++) {
			const uint64_t *c = st->rs + cr_cell(st, r, j);

			if (c[1] > maxs)
				maxs = c[1];
			st->pool[j].count += c[0];
			st->pool[j].sum += c[1];
		}
		if ((unsigned __int128)maxs * st->maxdraws >= CR_U64)
			goto overflow;
		st->n += st->pool[j].count;
		st->pool64[2 * j] = st->pool[j].count;
		st->pool64[2 * j + 1] = st->pool[j].sum;
	}
	if (!st->n) {
		st->min = 0;
		st->max = 0;
	}
	free(map);
	return 0;
overflow:
	free(map);
	cr_stratum_free(st);
	return -EOVERFLOW;
nomem:
	free(map);
nomem_nomap:
	cr_stratum_free(st);
	return -ENOMEM;
}

/* The stratum's histogram pooled[] (its union entries) as bootstrap.h's. */
static void cr_bh_of(const struct cr_stratum *st,
		     const struct clkstat_slot *pooled, uint64_t n,
		     uint64_t min, uint64_t max, struct cr_boot_hist *h)
{
	*h = (struct cr_boot_hist){
		.frac_bits = st->k, .n = st->nu, .slot = st->slot,
		.s = pooled, .total = n, .min = min, .max = max,
	};
}

/*
 * The statistics of pooled[] (n samples in [min, max]) into v[EV_*]; risk
 * above t when have_t.  NAN for all when n is 0.
 */
static void cr_eval(struct cr_stratum *st, const struct clkstat_slot *pooled,
		    uint64_t n, uint64_t min, uint64_t max, int have_t,
		    uint64_t t, double *v)
{
	static const unsigned int pct[] = { 25, 50, 75, 90, 99 };
	struct cr_boot_hist h;
	unsigned int j;

	if (!n) {
		for (j = 0; j < EV_N; j++)
			v[j] = NAN;
		return;
	}
	/* Every union entry is written: nothing of the last use remains. */
	for (j = 0; j < st->nu; j++)
		st->dense[st->slot[j]] = pooled[j];
	for (j = 0; j < 5; j++)
		v[EV_P25 + j] = (double)clkstat_hist_quantile(st->dense,
				st->ndense, st->k, n, min, max, pct[j], 100);
	cr_slots_moments(st->dense, st->slot, st->nu, st->k, n, min, max,
			 &v[EV_MEAN], &v[EV_SD]);
	if (have_t) {
		cr_bh_of(st, pooled, n, min, max, &h);
		v[EV_RISK] = cr_boot_share_above(&h, t);
	} else {
		v[EV_RISK] = NAN;
	}
}

/* Two u64 lanes (GCC and clang vector extension: SSE2 on x86-64). */
typedef uint64_t cr_u64x2 __attribute__((vector_size(16)));

static inline cr_u64x2 cr_ld(const uint64_t *p)
{
	cr_u64x2 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/*
 * out[] = the pooled row of every run (st->pool) minus the runs
 * rows[0 .. nminus - 1] plus the runs rows[nminus .. n - 1] (a run drawn
 * m times is there m - 1 times, one not drawn among the first; the sum of
 * a resample is that of all runs corrected by the runs drawn other than
 * once, about 3/4 as many as the runs drawn; the arithmetic is modulo
 * 2^64 on the way and exact at the end, the result being a sum of counts
 * that fits).  Block by block, the sums of a block's CR_BLOCK slots stay
 * in eight vector registers over all the runs.  The table holds a block's
 * slots of every run one after the other, so that the runs (in ascending
 * order) are read as a forward stream with gaps, which the hardware
 * prefetches.
 */
static void cr_add_rows(const struct cr_stratum *st, struct clkstat_slot *out,
			const uint32_t *rows, size_t nminus, size_t n)
{
	unsigned int j;
	size_t i;

	for (j = 0; j < st->nup; j += CR_BLOCK) {
		const uint64_t *blk = st->rs + cr_cell(st, 0, j);
		const uint64_t *p = st->pool64 + 2 * j;
		cr_u64x2 a0 = cr_ld(p), a1 = cr_ld(p + 2), a2 = cr_ld(p + 4);
		cr_u64x2 a3 = cr_ld(p + 6), a4 = cr_ld(p + 8), a5 = cr_ld(p + 10);
		cr_u64x2 a6 = cr_ld(p + 12), a7 = cr_ld(p + 14);

		for (i = 0; i < nminus; i++) {
			const uint64_t *x = blk + (size_t)rows[i] * 2 * CR_BLOCK;

			a0 -= cr_ld(x);
			a1 -= cr_ld(x + 2);
			a2 -= cr_ld(x + 4);
			a3 -= cr_ld(x + 6);
			a4 -= cr_ld(x + 8);
			a5 -= cr_ld(x + 10);
			a6 -= cr_ld(x + 12);
			a7 -= cr_ld(x + 14);
		}
		for (; i < n; i++) {
			const uint64_t *x = blk + (size_t)rows[i] * 2 * CR_BLOCK;

			a0 += cr_ld(x);
			a1 += cr_ld(x + 2);
			a2 += cr_ld(x + 4);
			a3 += cr_ld(x + 6);
			a4 += cr_ld(x + 8);
			a5 += cr_ld(x + 10);
			a6 += cr_ld(x + 12);
			a7 += cr_ld(x + 14);
		}
		/* struct clkstat_slot is two u64: count, sum. */
		memcpy(&out[j], &a0, sizeof(a0));
		memcpy(&out[j + 1], &a1, sizeof(a1));
		memcpy(&out[j + 2], &a2, sizeof(a2));
		memcpy(&out[j + 3], &a3, sizeof(a3));
		memcpy(&out[j + 4], &a4, sizeof(a4));
		memcpy(&out[j + 5], &a5, sizeof(a5));
		memcpy(&out[j + 6], &a6, sizeof(a6));
		memcpy(&out[j + 7], &a7, sizeof(a7));
	}
}

/* Run multiplicities st->w of a run-unit resample. */
static void cr_weigh_runs(struct cr_stratum *st, gsl_rng *rng)
{
	size_t i;

	memset(st->w, 0, st->nruns * sizeof(*st->w));
	for (i = 0; i < st->nruns; i++)
		st->w[gsl_rng_uniform_int(rng, st->nruns)]++;
}

/*
 * Host h drawn: its n runs drawn with replacement from its own, added to
 * st->w.  A host of one run takes no random number for it, so that with
 * one run per host (unpaired) the draws are the run unit's, bit for bit.
 */
static void cr_weigh_host(struct cr_stratum *st, gsl_rng *rng, size_t h)
{
	size_t j, nh = st->hoff[h + 1] - st->hoff[h];

	if (nh == 1) {
		st->w[st->hrun[st->hoff[h]]]++;
		return;
	}
	for (j = 0; j < nh; j++)
		st->w[st->hrun[st->hoff[h] + gsl_rng_uniform_int(rng, nh)]]++;
}

/*
 * Run multiplicities st->w of a host-unit resample: the nshared shared
 * hosts drawn by gh (the replay of the draws both strata share; NULL when
 * none is shared), then the nown own hosts by rng, each drawn host's runs
 * after it; host-fixed: every host once, in order.
 */
static void cr_weigh_hosts(struct cr_stratum *st, gsl_rng *rng, gsl_rng *gh)
{
	size_t i;

	memset(st->w, 0, st->nruns * sizeof(*st->w));
	if (st->host_fixed) {
		for (i = 0; i < st->nhosts; i++)
			cr_weigh_host(st, rng, i);
		return;
	}
	for (i = 0; i < st->nshared; i++)
		cr_weigh_host(st, rng, st->shared[gsl_rng_uniform_int(gh,
							st->nshared)]);
	for (i = 0; i < st->nown; i++)
		cr_weigh_host(st, rng, st->own[gsl_rng_uniform_int(rng,
							st->nown)]);
}

/* Pool the runs with multiplicities st->w into st->rp; return its count,
 * *min and *max. */
static uint64_t cr_pool_weighed(struct cr_stratum *st, uint64_t *min,
				uint64_t *max)
{
	uint64_t n = 0, lo = UINT64_MAX, hi = 0;
	size_t r, nminus = 0, nplus = 0;
	unsigned int m;

	/*
	 * The runs not drawn into rows[0 ..], those drawn m > 1 times, m - 1
	 * times each, into rows[nruns ..] (the run unit: as many as the runs
	 * not drawn; the host unit: at most maxdraws), then moved behind the
	 * first, all in ascending order.
	 */
	for (r = 0; r < st->nruns; r++) {
		m = st->w[r];
		if (!st->rn[r])
			continue;
		if (!m) {
			st->rows[nminus++] = r;
			continue;
		}
		n += m * st->rn[r];
		while (--m)
			st->rows[st->nruns + nplus++] = r;
		if (st->rmin[r] < lo)
			lo = st->rmin[r];
		if (st->rmax[r] > hi)
			hi = st->rmax[r];
	}
	memmove(st->rows + nminus, st->rows + st->nruns,
		nplus * sizeof(*st->rows));
	cr_add_rows(st, st->rp, st->rows, nminus, nminus + nplus);
	*min = lo;
	*max = hi;
	return n;
}

uint64_t cr_boot_binomial(const gsl_rng *rng, double p, uint64_t n)
{
	uint64_t x = 0, k;
	double y;

	while (n > UINT_MAX) {
		if (!(p > 0))
			return x;
		if (!(p < 1))
			return x + n;
		/* y: the k-th smallest of n uniforms, Beta(k, n - k + 1). */
		k = n / 2;
		y = gsl_ran_beta(rng, (double)k, (double)(n - k + 1));
		if (y <= p) {
			/* k are below p; the n - k others uniform on (y, 1) */
			x += k;
			n -= k;
			p = (p - y) / (1 - y);
		} else {
			/* the k - 1 below y are uniform on (0, y) */
			n = k - 1;
			p /= y;
		}
	}
	return x + gsl_ran_binomial(rng, p < 1 ? p : 1, (unsigned int)n);
}

/*
 * Resample samples into st->rp; return its count, *min and *max; *ovf set
 * when a slot's sum does not fit in 64 bits.
 */
static uint64_t cr_draw_samples(struct cr_stratum *st, gsl_rng *rng,
				uint64_t *min, uint64_t *max, int *ovf)
{
	struct clkstat_slot *out = st->rp;
	uint64_t left = st->n, rest = st->n;
	unsigned __int128 sum;
	unsigned int j, first = UINT_MAX, last = 0;

	/*
	 * Multinomial(N, count_j / N) as a sequence of binomials: slot j gets
	 * Binomial(samples left, count_j / counts of slots j and above).
	 */
	memset(out, 0, st->nu * sizeof(*out));
	for (j = 0; j < st->nu && left; j++) {
		if (st->pool[j].count == rest)
			out[j].count = left;
		else
			out[j].count = cr_boot_binomial(rng,
				(double)st->pool[j].count / (double)rest, left);
		left -= out[j].count;
		rest -= st->pool[j].count;
	}
	for (j = 0; j < st->nu; j++) {
		if (!out[j].count)
			continue;
		sum = (unsigned __int128)out[j].count * st->pool[j].sum /
		      st->pool[j].count;
		if (sum >= CR_U64)
			*ovf = 1;
		out[j].sum = (uint64_t)sum;
		if (first == UINT_MAX)
			first = j;
		last = j;
	}
	if (first == UINT_MAX) {
		*min = 0;
		*max = 0;
		return 0;
	}
	*min = clkstat_slot_lower(st->slot[first], st->k);
	if (*min < st->min)
		*min = st->min;
	*max = clkstat_slot_upper(st->slot[last], st->k);
	if (*max > st->max)
		*max = st->max;
	return st->n;
}

/* ---- intervals ---- */

/*
 * The percentile interval of v[0..b-1] (sorted in place) into c; not
 * available when any value is NAN (counted in c->undefined).
 */
static void cr_interval(double *v, unsigned int b, double level,
			struct cr_boot_ci *c)
{
	unsigned int i, nan = 0;

	for (i = 0; i < b; i++)
		nan += isnan(v[i]) != 0;
	c->undefined = nan;
	c->lo = NAN;
	c->hi = NAN;
	if (nan || !b)
		return;
	gsl_sort(v, 1, b);
	c->lo = gsl_stats_quantile_from_sorted_data(v, 1, b, (1 - level) / 2);
	c->hi = gsl_stats_quantile_from_sorted_data(v, 1, b, (1 + level) / 2);
}

/* Width of the slot holding v. */
static uint64_t cr_resolution(double v, unsigned int k)
{
	uint32_t s;

	if (isnan(v))
		return 0;
	s = clkstat_value_to_slot((uint64_t)v, k);
	return clkstat_slot_upper(s, k) - clkstat_slot_lower(s, k) + 1;
}

/* Stratum statistics kept per resample, CR_BOOT_* order. */
static const unsigned int cr_kept[CR_BOOT_NSTATS] = {
	[CR_BOOT_MEDIAN] = EV_P50, [CR_BOOT_P90] = EV_P90,
	[CR_BOOT_P99] = EV_P99, [CR_BOOT_MEAN] = EV_MEAN,
	[CR_BOOT_SD] = EV_SD, [CR_BOOT_IQR] = EV_N,	/* p75 - p25 */
	[CR_BOOT_RISK] = EV_RISK,
};

static double cr_stat_of(const double *ev, unsigned int stat)
{
	if (cr_kept[stat] == EV_N)
		return ev[EV_P75] - ev[EV_P25];
	return ev[cr_kept[stat]];
}

double cr_boot_multisets(size_t n)
{
	double c = 1;
	size_t i;

	for (i = 1; i <= n && c < 1e18; i++)
		c = c * (double)(n + i - 1) / (double)i;
	return c;
}

/* Point estimates, MAD and outliers of stratum i. */
static void cr_point(struct cr_stratum *st, struct cr_boot_stratum_out *o,
		     const double *ev)
{
	unsigned __int128 mad3;
	struct cr_boot_hist h;
	unsigned int i;
	size_t nh;
	uint64_t m;

	o->nruns = st->nruns;
	o->nhosts = st->nhosts;
	o->single_run_hosts = st->nhosts && st->nhosts == st->nruns;
	o->own_hosts = st->nown;
	o->distinct = 1;
	for (i = 0; i < st->nhosts; i++) {
		nh = st->hoff[i + 1] - st->hoff[i];
		if (!i || nh < o->fewest_host_runs)
			o->fewest_host_runs = nh;
		if (o->distinct < 1e18)
			o->distinct *= cr_boot_multisets(nh);
	}
	o->nsamples = st->n;
	o->min = st->min;
	o->max = st->max;
	for (i = 0; i < CR_BOOT_NSTATS; i++)
		o->stat[i].value = cr_stat_of(ev, i);
	o->stat[CR_BOOT_MEDIAN].resolution =
		cr_resolution(ev[EV_P50], st->k);
	o->stat[CR_BOOT_P90].resolution = cr_resolution(ev[EV_P90], st->k);
	o->stat[CR_BOOT_P99].resolution = cr_resolution(ev[EV_P99], st->k);
	if (!st->n) {
		o->mad = NAN;
		o->out_2sigma = NAN;
		o->out_3mad = NAN;
		o->warnings |= CR_BOOT_W_EMPTY;
		return;
	}
	cr_bh_of(st, st->pool, st->n, st->min, st->max, &h);
	m = (uint64_t)ev[EV_P50];
	o->mad = (double)cr_boot_mad(&h, m);
	o->out_2sigma = cr_boot_share_outside(&h, ev[EV_MEAN] - 2 * ev[EV_SD],
					      ev[EV_MEAN] + 2 * ev[EV_SD]);
	mad3 = (unsigned __int128)m + 3 * (unsigned __int128)o->mad;
	o->out_3mad = cr_boot_share_above(&h, mad3 > UINT64_MAX ? UINT64_MAX :
					  (uint64_t)mad3);
}

/* The warnings of stratum st's unit (CR_BOOT_W_*; none without samples). */
static unsigned int cr_unit_warnings(const struct cr_boot_params *p,
				     const struct cr_stratum *st,
				     const struct cr_boot_stratum_out *o)
{
	if (!st->n || p->unit_sample)
		return 0;
	if (p->host_fixed)
		return o->single_run_hosts ? CR_BOOT_W_FIXED_ONE_RUN :
		       o->fewest_host_runs < CR_BOOT_FEW_RUNS ?
		       CR_BOOT_W_FIXED_FEW_RUNS : 0;
	if (p->unit_host)
		return (st->nhosts == 1 ? CR_BOOT_W_ONE_HOST :
			st->nhosts < CR_BOOT_FEW_HOSTS ? CR_BOOT_W_FEW_HOSTS :
			0) |
		       (st->nshared && st->nown ? CR_BOOT_W_OWN_HOSTS : 0);
	return st->nruns == 1 ? CR_BOOT_W_ONE_RUN :
	       st->nruns < CR_BOOT_FEW_RUNS ? CR_BOOT_W_FEW_RUNS : 0;
}

int cr_boot_compare(const struct cr_boot_stratum_in *base,
		    const struct cr_boot_stratum_in *variant,
		    const struct cr_boot_params *p, struct cr_boot_result *out)
{
	const struct cr_boot_stratum_in *in[2] = { base, variant };
	struct cr_stratum st[2] = { 0 };
	double ev[2][EV_N], rv[EV_N], *vals, *v[2][CR_BOOT_NSTATS], *d;
	const unsigned int B = p->resamples;
	unsigned int i, b, s, le = 0, ge = 0;
	uint64_t n, min, max, t = 0;
	gsl_rng *rng = NULL, *gh[2] = { NULL, NULL };
	int err, have_t, ovf = 0;
	size_t h, S;

	memset(out, 0, sizeof(*out));
	if (!B || !(p->level > 0 && p->level < 1) || !base->nruns ||
	    !variant->nruns || base->frac_bits != variant->frac_bits ||
	    base->frac_bits > CLKSTAT_FRAC_BITS_MAX ||
	    (p->unit_host && (p->unit_sample || !base->host ||
			      !variant->host)) ||
	    (p->host_fixed && !p->unit_host))
		return -EINVAL;
	out->unit_sample = p->unit_sample;
	out->unit_host = p->unit_host;
	out->host_fixed = p->host_fixed;
	out->resamples = B;
	for (s = 0; s < 2; s++) {
		err = cr_stratum_init(&st[s], in[s], p);
		if (err) {
			cr_stratum_free(&st[0]);
			return err;
		}
	}
	vals = malloc(((size_t)2 * CR_BOOT_NSTATS + 1) * B * sizeof(*vals));
	rng = gsl_rng_alloc(gsl_rng_mt19937);
	if (!vals || !rng) {
		err = -ENOMEM;
		goto out;
	}
	gsl_rng_set(rng, p->seed);
	/*
	 * Shared hosts (unit host): the B draws of the S shared hosts come
	 * first.  gh[0] and gh[1] replay them for the base and the variant
	 * (in the base's order of the hosts; each stratum maps a draw to its
	 * own number of that machine), rng skips them: no B x S table.
	 */
	if (p->unit_host && !p->host_fixed) {
		err = cr_share_hosts(st);
		if (err)
			goto out;
	}
	S = st[0].nshared;
	out->shared_hosts = S;
	out->paired = p->unit_host && !p->host_fixed &&
		      S == st[0].nhosts && S == st[1].nhosts;
	if (S) {
		gh[0] = gsl_rng_clone(rng);
		gh[1] = gsl_rng_clone(rng);
		if (!gh[0] || !gh[1]) {
			err = -ENOMEM;
			goto out;
		}
		for (b = 0; b < B; b++)
			for (h = 0; h < S; h++)
				(void)gsl_rng_uniform_int(rng, S);
	}
	for (s = 0; s < 2; s++)
		for (i = 0; i < CR_BOOT_NSTATS; i++)
			v[s][i] = vals + ((size_t)s * CR_BOOT_NSTATS + i) * B;
	d = vals + (size_t)2 * CR_BOOT_NSTATS * B;

	/* The threshold: --threshold, or the base's p90, fixed now. */
	cr_eval(&st[0], st[0].pool, st[0].n, st[0].min, st[0].max, 0, 0,
		ev[0]);
	out->threshold_given = p->have_threshold;
	have_t = p->have_threshold || st[0].n;
	if (p->have_threshold)
		t = p->threshold;
	else if (st[0].n)
		t = (uint64_t)ev[0][EV_P90];
	out->threshold_defined = have_t;
	out->threshold = have_t ? t : 0;

	for (s = 0; s < 2; s++) {
		struct cr_boot_stratum_out *o = &out->s[s];

		cr_eval(&st[s], st[s].pool, st[s].n, st[s].min, st[s].max,
			have_t, t, ev[s]);
		cr_point(&st[s], o, ev[s]);
		o->warnings |= cr_unit_warnings(p, &st[s], o);
		for (b = 0; b < B; b++) {
			if (p->unit_sample) {
				n = cr_draw_samples(&st[s], rng, &min, &max,
						    &ovf);
			} else {
				if (p->unit_host)
					cr_weigh_hosts(&st[s], rng, gh[s]);
				else
					cr_weigh_runs(&st[s], rng);
				n = cr_pool_weighed(&st[s], &min, &max);
			}
			if (ovf) {
				err = -EOVERFLOW;
				goto out;
			}
			if (!n)
				o->undefined++;
			cr_eval(&st[s], st[s].rp, n, min, max, have_t, t, rv);
			for (i = 0; i < CR_BOOT_NSTATS; i++)
				v[s][i][b] = cr_stat_of(rv, i);
		}
		if (o->undefined && st[s].n)
			o->warnings |= CR_BOOT_W_UNDEFINED;
	}

	/* Differences, from the pairs, before the strata's values sort. */
	for (b = 0; b < B; b++) {
		d[b] = v[1][CR_BOOT_MEDIAN][b] - v[0][CR_BOOT_MEDIAN][b];
		le += d[b] <= 0;
		ge += d[b] >= 0;
	}
	out->diff[CR_BOOT_D_MEDIAN].value = out->s[1].stat[CR_BOOT_MEDIAN].value -
					    out->s[0].stat[CR_BOOT_MEDIAN].value;
	cr_interval(d, B, p->level, &out->diff[CR_BOOT_D_MEDIAN]);
	if (out->diff[CR_BOOT_D_MEDIAN].undefined ||
	    isnan(out->diff[CR_BOOT_D_MEDIAN].value)) {
		out->p_median = NAN;
	} else {
		unsigned int m = le < ge ? le : ge;

		out->p_floor = !m;
		out->p_median = !m ? 1.0 / B :
				2.0 * m / B > 1 ? 1 : 2.0 * m / B;
	}
	{
		static const unsigned int pairs[][2] = {
			{ CR_BOOT_D_P90, CR_BOOT_P90 },
			{ CR_BOOT_D_P99, CR_BOOT_P99 },
			{ CR_BOOT_D_SD, CR_BOOT_SD },
			{ CR_BOOT_D_IQR, CR_BOOT_IQR },
			{ CR_BOOT_D_RD, CR_BOOT_RISK },
		};

		for (i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
			unsigned int di = pairs[i][0], si = pairs[i][1];

			for (b = 0; b < B; b++)
				d[b] = v[1][si][b] - v[0][si][b];
			out->diff[di].value = out->s[1].stat[si].value -
					      out->s[0].stat[si].value;
			cr_interval(d, B, p->level, &out->diff[di]);
		}
	}
	/* RR: undefined where r_b is 0; log 0 as -DBL_MAX (an end of 0). */
	for (b = 0; b < B; b++) {
		double rb = v[0][CR_BOOT_RISK][b], rvv = v[1][CR_BOOT_RISK][b];

		d[b] = isnan(rb) || isnan(rvv) || rb <= 0 ? NAN :
		       rvv <= 0 ? -DBL_MAX : log(rvv / rb);
	}
	{
		struct cr_boot_ci *rr = &out->diff[CR_BOOT_D_RR];
		double rb = out->s[0].stat[CR_BOOT_RISK].value;
		double rvv = out->s[1].stat[CR_BOOT_RISK].value;

		rr->value = isnan(rb) || isnan(rvv) || rb <= 0 ? NAN : rvv / rb;
		cr_interval(d, B, p->level, rr);
		if (!isnan(rr->lo)) {
			rr->lo = exp(rr->lo);
			rr->hi = exp(rr->hi);
		}
	}
	for (s = 0; s < 2; s++)
		for (i = 0; i < CR_BOOT_NSTATS; i++)
			cr_interval(v[s][i], B, p->level, &out->s[s].stat[i]);
	err = 0;
out:
	gsl_rng_free(rng);
	gsl_rng_free(gh[0]);
	gsl_rng_free(gh[1]);
	free(vals);
	cr_stratum_free(&st[0]);
	cr_stratum_free(&st[1]);
	return err;
}

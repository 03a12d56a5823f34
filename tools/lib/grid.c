// SPDX-License-Identifier: GPL-2.0
/*
 * grid.c - the fixed bucket grid of the expositions.
 *
 * A Prometheus classic histogram is one counter per le bound.  Bounds
 * that differ between series (one per non-empty slot, as the exposition
 * once had) break what a fleet does with them: sum by (le) adds counters
 * of different meaning, a bound that exists on one host only makes the
 * summed buckets non-monotonic, and a bucket series that appears mid-window
 * breaks rate().  So every series gets every bound of one grid, fixed by
 * its frac_bits and range alone: identical on every host and scrape.
 *
 * The grid's bounds are slot upper bounds of its own frac_bits; those of
 * a coarser frac_bits are a subset of a finer one's (a slot of k bits is
 * 2^(j-k) whole slots of j >= k bits), so a histogram recorded with at
 * least the grid's bits has exact cumulative counts at every bound (its
 * samples are integer ns, "<= upper" is exactly its slots up to there).
 * A coarser histogram cannot be put on the grid (cr_grid_fits()).
 * Samples below the first bound are in the first bucket, above the last
 * one only in +Inf.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../kmod/uapi/clkstat_buckets.h"
#include "grid.h"

int cr_grid_init(struct cr_grid *g, unsigned int bits, uint64_t lo,
		 uint64_t hi)
{
	uint32_t first, last, s;

	memset(g, 0, sizeof(*g));
	if (bits > CLKSTAT_FRAC_BITS_MAX || lo > hi || hi > CR_GRID_NS_MAX)
		return -EINVAL;
	first = clkstat_value_to_slot(lo, bits);
	last = clkstat_value_to_slot(hi, bits);
	g->bound = calloc(last - first + 1, sizeof(*g->bound));
	if (!g->bound)
		return -ENOMEM;
	for (s = first; s <= last; s++)
		g->bound[g->n++] = clkstat_slot_upper(s, bits);
	g->bits = bits;
	g->lo = lo;
	g->hi = hi;
	return 0;
}

/*
 * A duration of s (len bytes, "16ns", "2.5ms", "10s") into *ns, exactly:
 * integer digits, a fraction of up to the unit's number of decimals (9
 * for s, 6 for ms, 3 for us, none for ns; zeros beyond are fine), in
 * integer arithmetic.  (strtod() and a multiplication took "4.1ms" for
 * 4099999.9999999995 ns and refused it as not whole.)  -EINVAL with why
 * in err (spec named), for anything else, a fraction of a ns, or more
 * than CR_GRID_NS_MAX.
 */
static int cr_grid_duration(const char *spec, const char *s, size_t len,
			    uint64_t *ns, char *err, size_t errlen)
{
	static const struct {
		const char *unit;
		unsigned int decimals;	/* of 1 unit in ns: 10^decimals */
	} units[] = {
		{ "ns", 0 }, { "us", 3 }, { "ms", 6 }, { "s", 9 },
	};
	const char *p = s, *end = s + len, *frac = p, *u;
	size_t nfrac = 0, i, k;
	uint64_t v = 0, f = 0;

	for (; p < end && *p >= '0' && *p <= '9'; p++)
		if (__builtin_mul_overflow(v, 10, &v) ||
		    __builtin_add_overflow(v, (uint64_t)(*p - '0'), &v))
			goto too_large;
	if (p == s)
		goto malformed;
	if (p < end && *p == '.') {
		frac = ++p;
		while (p < end && *p >= '0' && *p <= '9')
			p++;
		nfrac = (size_t)(p - frac);
		if (!nfrac)
			goto malformed;
	}
	u = p;
	for (k = 0; k < sizeof(units) / sizeof(units[0]); k++)
		if ((size_t)(end - u) == strlen(units[k].unit) &&
		    !memcmp(u, units[k].unit, end - u))
			break;
	if (k == sizeof(units) / sizeof(units[0]))
		goto malformed;
	/* The fraction, padded with zeros to the unit's decimals. */
	for (i = 0; i < units[k].decimals; i++) {
		f = f * 10 + (i < nfrac ? (uint64_t)(frac[i] - '0') : 0);
		if (__builtin_mul_overflow(v, 10, &v))
			goto too_large;
	}
	for (i = units[k].decimals; i < nfrac; i++)
		if (frac[i] != '0') {
			if (units[k].decimals)
				snprintf(err, errlen, "--grid '%s': %.*s is not a whole number of ns (%s takes at most %u decimals)",
					 spec, (int)len, s, units[k].unit,
					 units[k].decimals);
			else
				snprintf(err, errlen, "--grid '%s': %.*s is not a whole number of ns",
					 spec, (int)len, s);
			return -EINVAL;
		}
	if (__builtin_add_overflow(v, f, &v) || v > CR_GRID_NS_MAX)
		goto too_large;
	*ns = v;
	return 0;
malformed:
	snprintf(err, errlen, "--grid '%s': LO and HI are durations with a unit, ns, us, ms or s (16ns, 2.5ms, 10s)",
		 spec);
	return -EINVAL;
too_large:
	snprintf(err, errlen, "--grid '%s': %.*s is above 2^53 - 1 ns (104 days), the largest bound whose le is printed alike on every machine",
		 spec, (int)len, s);
	return -EINVAL;
}

int cr_grid_parse(const char *spec, struct cr_grid *g, char *err,
		  size_t errlen)
{
	uint64_t lo = 16, hi = 10000000000ULL;
	const char *lo_s, *hi_s;
	unsigned long bits;
	char *end;
	int r;

	memset(g, 0, sizeof(*g));
	bits = strtoul(spec, &end, 10);
	if (end == spec || (*end && *end != ':') || bits > CLKSTAT_FRAC_BITS_MAX) {
		snprintf(err, errlen, "--grid '%s': BITS[:LO:HI], BITS 0 to %d",
			 spec, CLKSTAT_FRAC_BITS_MAX);
		return -EINVAL;
	}
	if (*end == ':') {
		lo_s = end + 1;
		hi_s = strchr(lo_s, ':');
		if (!hi_s) {
			snprintf(err, errlen, "--grid '%s': BITS[:LO:HI], LO and HI durations (16ns, 10s)",
				 spec);
			return -EINVAL;
		}
		hi_s++;
		if (cr_grid_duration(spec, lo_s, (size_t)(hi_s - 1 - lo_s), &lo,
				     err, errlen) ||
		    cr_grid_duration(spec, hi_s, strlen(hi_s), &hi, err, errlen))
			return -EINVAL;
		if (lo > hi) {
			snprintf(err, errlen, "--grid '%s': LO above HI", spec);
			return -EINVAL;
		}
	}
	r = cr_grid_init(g, bits, lo, hi);
	if (r == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	return r;
}

void cr_grid_free(struct cr_grid *g)
{
	free(g->bound);
	memset(g, 0, sizeof(*g));
}

int cr_grid_fits(const struct cr_grid *g, unsigned int frac_bits)
{
	return frac_bits >= g->bits && frac_bits <= CLKSTAT_FRAC_BITS_MAX;
}

size_t cr_grid_unfit(const struct cr_grid *g, const struct cr_run *r,
		     char *buf, size_t len)
{
	size_t i, n = 0, used = 0;
	int w;

	if (len)
		*buf = '\0';
	for (i = 0; i < r->nmetrics; i++) {
		const struct cr_metric *m = &r->metrics[i];

		if (cr_grid_fits(g, m->frac_bits))
			continue;
		if (used < len) {
			w = snprintf(buf + used, len - used, "%s%s.%s (frac_bits %u)",
				     n ? ", " : "", m->name, m->variant,
				     m->frac_bits);
			used += w > 0 ? (size_t)w : 0;
		}
		n++;
	}
	return n;
}

void cr_grid_cumulate(const struct cr_grid *g, const struct cr_hist *h,
		      unsigned int frac_bits, uint64_t *cum, uint64_t *total)
{
	uint64_t c = 0;
	size_t i, b = 0;

	for (i = 0; i < h->nslots; i++) {
		const struct cr_slot *s = &h->slots[i];
		uint64_t upper;

		if (s->slot >= CLKSTAT_NSLOTS(frac_bits))
			continue;
		upper = clkstat_slot_upper(s->slot, frac_bits);
		/* The bounds below this slot hold what came before it. */
		while (b < g->n && g->bound[b] < upper)
			cum[b++] = c;
		c += s->count;
	}
	while (b < g->n)
		cum[b++] = c;
	*total = c;
}

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
	if (bits > CLKSTAT_FRAC_BITS_MAX || lo > hi)
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

/* "16ns", "2.5ms", "10s": ns into *ns; -EINVAL for anything else. */
static int cr_grid_duration(const char *s, uint64_t *ns)
{
	static const struct {
		const char *unit;
		double scale;
	} units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
	};
	size_t i;
	double v;
	char *end;

	/* Decimal only: strtod() would also take hex and exponents. */
	if (*s < '0' || *s > '9' || strpbrk(s, "xXeEpP"))
		return -EINVAL;
	v = strtod(s, &end);
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(end, units[i].unit))
			continue;
		v *= units[i].scale;
		/* Below 2^63 ns (292 years), and a whole number of ns. */
		if (!(v < 9.2e18) || v != (double)(uint64_t)v)
			return -EINVAL;
		*ns = (uint64_t)v;
		return 0;
	}
	return -EINVAL;
}

int cr_grid_parse(const char *spec, struct cr_grid *g, char *err,
		  size_t errlen)
{
	char lo_s[32], hi_s[32], *end;
	uint64_t lo = 16, hi = 10000000000ULL;
	unsigned long bits;
	const char *p;
	int r;

	memset(g, 0, sizeof(*g));
	bits = strtoul(spec, &end, 10);
	if (end == spec || (*end && *end != ':') || bits > CLKSTAT_FRAC_BITS_MAX) {
		snprintf(err, errlen, "--grid '%s': BITS[:LO:HI], BITS 0 to %d",
			 spec, CLKSTAT_FRAC_BITS_MAX);
		return -EINVAL;
	}
	if (*end == ':') {
		p = strchr(end + 1, ':');
		if (!p || (size_t)(p - end - 1) >= sizeof(lo_s) ||
		    strlen(p + 1) >= sizeof(hi_s)) {
			snprintf(err, errlen, "--grid '%s': BITS[:LO:HI], LO and HI durations (16ns, 10s)",
				 spec);
			return -EINVAL;
		}
		memcpy(lo_s, end + 1, p - end - 1);
		lo_s[p - end - 1] = '\0';
		strcpy(hi_s, p + 1);
		if (cr_grid_duration(lo_s, &lo) || cr_grid_duration(hi_s, &hi)) {
			snprintf(err, errlen, "--grid '%s': LO and HI are whole ns with a unit: ns, us, ms or s (16ns, 10s)",
				 spec);
			return -EINVAL;
		}
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

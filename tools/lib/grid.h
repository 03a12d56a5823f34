/* SPDX-License-Identifier: GPL-2.0 */
/*
 * grid.h - the fixed bucket grid of the Prometheus and OpenMetrics
 * expositions: the same le bounds for every series, scrape and host, so
 * that sum by (le) and histogram_quantile() over any set of them are
 * right (grid.c says why and how).
 */
#ifndef CLKSTAT_LIB_GRID_H
#define CLKSTAT_LIB_GRID_H

#include <stddef.h>
#include <stdint.h>
#include "model.h"

/* --grid's default: 4 buckets per power of two, from 16 ns to 10 s. */
#define CR_GRID_DEFAULT		"2:16ns:10s"

/*
 * The largest HI, and so bound: 2^53 - 1 ns (104 days).  Every integer up
 * to there is a double, so a bound's le, (double)bound / 1e9, is one
 * correctly rounded division, the same double on every machine (and what
 * the long double division that it replaces gave, checked for every slot
 * bound below 2^53).  Above, the division in long double rounded twice,
 * differently on x86-64 (80 bits) than where long double has 128 (the
 * slot bound 522417556774977535 ns, for one): different le strings,
 * which sum by (le) keeps apart.
 */
#define CR_GRID_NS_MAX		((1ULL << 53) - 1)

struct cr_grid {
	unsigned int bits;	/* the grid's frac_bits */
	uint64_t lo, hi;	/* ns, as given */
	size_t n;
	uint64_t *bound;	/* ascending inclusive upper bounds, ns */
};

/*
 * The grid of frac_bits bits whose bounds are the upper bounds of the
 * slots (uapi/clkstat_buckets.h) from the one that holds lo to the one
 * that holds hi.  Return 0, -EINVAL (bits above CLKSTAT_FRAC_BITS_MAX, lo
 * above hi, hi above CR_GRID_NS_MAX) or -ENOMEM.
 */
int cr_grid_init(struct cr_grid *g, unsigned int bits, uint64_t lo,
		 uint64_t hi);

/*
 * --grid BITS[:LO:HI], LO and HI durations with a unit (ns, us, ms, s;
 * "16ns", "2.5ms", "1.013s"), a whole number of ns up to CR_GRID_NS_MAX:
 * cr_grid_init()'s.  Return 0, -EINVAL with one line (no newline) in err,
 * or -ENOMEM.
 */
int cr_grid_parse(const char *spec, struct cr_grid *g, char *err,
		  size_t errlen);

void cr_grid_free(struct cr_grid *g);

/*
 * Whether a histogram of frac_bits can be put on the grid exactly: every
 * bound of the grid is a slot bound of frac_bits when frac_bits >= bits.
 */
int cr_grid_fits(const struct cr_grid *g, unsigned int frac_bits);

/*
 * The metrics of r that do not fit, "name.variant (frac_bits K)" joined
 * by ", " into buf (cut short if need be): how many.
 */
size_t cr_grid_unfit(const struct cr_grid *g, const struct cr_run *r,
		     char *buf, size_t len);

/*
 * h's cumulative counts at every bound (cum[g->n]), its samples at most
 * that bound, and all of them (*total: the +Inf bucket).  h must fit
 * (cr_grid_fits()).
 */
void cr_grid_cumulate(const struct cr_grid *g, const struct cr_hist *h,
		      unsigned int frac_bits, uint64_t *cum, uint64_t *total);

#endif

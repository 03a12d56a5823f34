/* SPDX-License-Identifier: GPL-2.0 */
/*
 * render_common.h - what every renderer of clkstat-report (render_*.c,
 * compare_render.c, the overhead benchmark's) needs the same way: which
 * metrics --metric selects, a duration for a human, adding to json-c
 * objects without leaking on failure, printing them, and quoting a CSV
 * field (RFC 4180).
 */
#ifndef CLKSTAT_LIB_RENDER_COMMON_H
#define CLKSTAT_LIB_RENDER_COMMON_H

#include <stddef.h>
#include <stdio.h>
#include <json.h>
#include "render.h"

/* Does metric m pass o->metric (its name, or name.variant)? */
int cr_render_wanted(const struct cr_metric *m,
		     const struct cr_render_opts *o);

/*
 * A duration v in ns for a human, into buf: digits (3 or 4) significant
 * digits in the largest of ns, us, ms, s that keeps the number at least 1
 * (nothing above s: "1234s"), rounded so that it never reads 1000 of a
 * unit ("999.5ns" with 3 digits is "1.00us"); negative durations keep
 * their sign, NaN is "n/a" and 0 is "0ns".  exact: a whole number of ns
 * below 1 us is printed as is ("999ns"), not to digits.
 */
void cr_fmt_ns(char *buf, size_t len, double v, unsigned int digits,
	       int exact);

/*
 * Add v under key to o (json_object_object_add) or append it to the array
 * a; v is consumed either way.  Return 0, or -1 when v is NULL (out of
 * memory) or the add failed.
 */
int cr_jadd(struct json_object *o, const char *key, struct json_object *v);
int cr_jappend(struct json_object *a, struct json_object *v);

/*
 * Print root pretty, with a newline, and flush.  Return: CR_OK, or CR_ERR
 * when out of memory or the write failed.
 */
int cr_json_print(FILE *out, struct json_object *root);

/* Print s as one CSV field, quoted only when it has to be. */
void cr_csv_field(FILE *out, const char *s);

#endif

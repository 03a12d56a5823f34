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
#include <stdint.h>
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

/* --time-unit's word: "ns", "us" or "ms" into *u; -1 for anything else. */
int cr_unit_parse(const char *s, enum cr_unit *u);

/*
 * A fixed unit's name ("ns", "us", "ms") and how many ns it is; AUTO is
 * "ns", 1.
 */
const char *cr_unit_name(enum cr_unit u);
uint64_t cr_unit_ns(enum cr_unit u);

/*
 * An integer number of ns v (up to 2^64, a slot's exclusive upper bound)
 * exactly, in decimal, into buf: in unit u with as many decimals as it
 * takes (none past the last non-zero one) and the unit's suffix
 * ("32.768us"); AUTO: in the largest of ns, us, ms, s that keeps the
 * number at least 1, as cr_fmt_ns() picks it ("999ns", "1.048576ms").
 */
void cr_fmt_exact(char *buf, size_t len, unsigned __int128 v, enum cr_unit u);

/*
 * An integer number of ns v (up to 2^64) for a person, into buf: below
 * 1 us exactly ("999ns"); else sig significant digits (at least 3;
 * more where the integer part has more) in the largest of us, ms, s
 * that keeps the number at least 1 after rounding ("2.10ms", "1.00ms",
 * "16140901064s").  The text histogram's labels.
 */
void cr_fmt_sig(char *buf, size_t len, unsigned __int128 v, unsigned int sig);

/*
 * A value v in ns in fixed unit u, into buf: v / the unit, rounded to
 * whole ns, trailing zero decimals dropped, the unit's suffix ("4.3us",
 * "0.012ms"); NaN is "n/a".
 */
void cr_fmt_unit(char *buf, size_t len, double v, enum cr_unit u);

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

/*
 * The length of the valid UTF-8 sequence at p (at most n bytes), 0 if
 * none starts there (RFC 3629: no overlong forms, no surrogates, nothing
 * above U+10FFFF).
 */
size_t cr_utf8_len(const unsigned char *p, size_t n);

#endif

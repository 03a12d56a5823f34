/* SPDX-License-Identifier: GPL-2.0 */
/*
 * snapshot_parse.h - internal to the snapshot files code, not part of
 * snapshot.h: what the reader (snapshot_read.c) shares with the lexical pass
 * (snapshot_lex.c) and with the writer (snapshot_write.c), and the parse
 * context they carry (snapshot_parse.c).  Reading carries
 * one parse context through every pass so that whichever pass rejects the
 * input names the place ("runs[2].metrics[0]: ...") the same way.
 */
#ifndef CLKSTAT_REPORT_SNAPSHOT_PARSE_H
#define CLKSTAT_REPORT_SNAPSHOT_PARSE_H

#include <stddef.h>
#include "model.h"

struct json_object;

/* json-c's nesting limit; the format itself nests 9 deep. */
#define CR_SNAP_DEPTH		32

/* ---------------------------------------------------------------- */
/* Errors: one line, "PATH: what", into the caller's buffer.         */

struct cr_pctx {
	char *err;
	size_t errlen;
	char path[256];		/* e.g. runs[2].metrics[0].total.slots[5] */
	size_t plen;
};

/* Fill the caller's buffer with "PATH: message"; return status. */
int cr_fail(struct cr_pctx *c, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int cr_nomem(struct cr_pctx *c);

/*
 * A printable copy of n bytes of s for a message: control characters as
 * '?', at most 40 bytes, then "...".
 */
const char *cr_clean(char *buf, size_t size, const char *s, size_t n);

/* Append ".key" (or "key" at the top); return the length to pop back to. */
size_t cr_push_key(struct cr_pctx *c, const char *key);
/* Append "[i]"; return the length to pop back to. */
size_t cr_push_idx(struct cr_pctx *c, size_t i);
void cr_pop(struct cr_pctx *c, size_t old);

/* Line and column (1-based, in bytes) of an offset, for syntax errors. */
void cr_where(const char *t, size_t off, char *buf, size_t size);

/* ---------------------------------------------------------------- */
/* The lexical pass (snapshot_lex.c).                                */

/* JSON white space. */
int cr_ws(char ch);

/*
 * Pass 2: reject what json-c accepted in t[0..len) or lost silently
 * (root is json-c's tree of it).  Return CR_OK, CR_CORRUPT or CR_ERR.
 */
int cr_lex_check(struct cr_pctx *c, const char *t, size_t len,
		 struct json_object *root);

/* ---------------------------------------------------------------- */
/* Shared with the writer, so that both name the same members.      */

/* The strings of struct cr_meta, in the order they are written. */
struct cr_meta_field {
	const char *key;
	size_t off;
	unsigned int study;	/* the first study schema with its column */
};
extern const struct cr_meta_field cr_meta_strs[];
extern const size_t cr_nmeta_strs;
/* May cr_meta_strs[i] be absent (written only when set)? */
int cr_meta_str_optional(size_t i);
/*
 * Is cr_meta_strs[i] a cpufreq field, written (null or not) exactly when
 * the recording has them (cr_meta.cpufreq_recorded)?
 */
int cr_meta_str_cpufreq(size_t i);

/* The cr_meta_strs[i] member of m. */
char **cr_meta_str(struct cr_meta *m, size_t i);

#endif

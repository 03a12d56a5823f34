// SPDX-License-Identifier: GPL-2.0
/*
 * snapshot_lex.c - pass 2 of reading a snapshot file (snapshot_read.c): a
 * lexical pass over the JSON text for what json-c accepts or loses
 * silently, so that a file json-c would read is still rejected when it is
 * not strict JSON or when its tree would not say what the text says:
 * integers beyond 64 bits (json-c saturates them), member names given
 * twice (json-c keeps the last), \u0000 (json-c cuts member names there),
 * single quotes, raw control characters, NaN, leading zeros.
 * It runs after json-c has accepted the text, so it can only reject.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "snapshot_parse.h"
#include "status.h"

int cr_ws(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';
}

struct cr_lex {
	size_t *nmembers;	/* per object, in the order its '{' comes */
	size_t n, cap;
};

static int cr_lex_fail(struct cr_pctx *c, const char *t, size_t off,
		       const char *what)
{
	char where[64];

	cr_where(t, off, where, sizeof(where));
	return cr_fail(c, CR_CORRUPT, "%s: %s", where, what);
}

static int cr_digit(char ch)
{
	return ch >= '0' && ch <= '9';
}

/* A number token at t[*i]: JSON grammar, and integers within 64 bits. */
static int cr_lex_number(struct cr_pctx *c, const char *t, size_t n,
			 size_t *i)
{
	static const char u64max[] = "18446744073709551615";
	static const char i64min[] = "9223372036854775808";
	size_t j = *i, d0, d1;
	int ok = 1, integer = 1, neg = 0;
	const char *lim;
	char msg[128], num[64];

	if (t[j] == '-') {
		neg = 1;
		j++;
	}
	d0 = j;
	if (j < n && t[j] == '0') {
		j++;
		if (j < n && cr_digit(t[j]))
			ok = 0;		/* leading zero */
	} else if (j < n && cr_digit(t[j])) {
		while (j < n && cr_digit(t[j]))
			j++;
	} else {
		ok = 0;
	}
	d1 = j;
	if (j < n && t[j] == '.') {
		integer = 0;
		if (++j >= n || !cr_digit(t[j]))
			ok = 0;
		while (j < n && cr_digit(t[j]))
			j++;
	}
	if (j < n && (t[j] == 'e' || t[j] == 'E')) {
		integer = 0;
		j++;
		if (j < n && (t[j] == '+' || t[j] == '-'))
			j++;
		if (j >= n || !cr_digit(t[j]))
			ok = 0;
		while (j < n && cr_digit(t[j]))
			j++;
	}
	/* Whatever else json-c took as part of the number. */
	while (j < n && t[j] && strchr("0123456789.eE+-", t[j])) {
		ok = 0;
		j++;
	}
	if (!ok)
		return cr_lex_fail(c, t, *i, "not a valid JSON number");
	if (integer) {
		lim = neg ? i64min : u64max;
		if (d1 - d0 > strlen(lim) ||
		    (d1 - d0 == strlen(lim) && memcmp(t + d0, lim, d1 - d0) > 0)) {
			snprintf(msg, sizeof(msg), "integer %s does not fit in 64 bits",
				 cr_clean(num, sizeof(num), t + *i, j - *i));
			return cr_lex_fail(c, t, *i, msg);
		}
	}
	*i = j;
	return CR_OK;
}

/* A string at t[*i] (a '"'); *i ends past the closing quote. */
static int cr_lex_string(struct cr_pctx *c, const char *t, size_t n,
			 size_t *i)
{
	size_t j = *i + 1;

	while (j < n && t[j] != '"') {
		if (t[j] == '\\') {
			if (j + 5 < n && t[j + 1] == 'u' &&
			    !memcmp(t + j + 2, "0000", 4))
				return cr_lex_fail(c, t, j, "\\u0000 in a string");
			j += 2;
			continue;
		}
		if ((unsigned char)t[j] < 0x20)
			return cr_lex_fail(c, t, j, "a control character in a string (JSON wants it escaped)");
		j++;
	}
	if (j >= n)	/* json-c would not have accepted it */
		return cr_lex_fail(c, t, *i, "unterminated string");
	*i = j + 1;
	return CR_OK;
}

static int cr_lex(struct cr_pctx *c, const char *t, size_t n,
		  struct cr_lex *lx)
{
	size_t stack[CR_SNAP_DEPTH + 1];	/* object number, or SIZE_MAX */
	size_t depth = 0, i = 0, j, *p;
	int st;

	while (i < n) {
		switch (t[i]) {
		case '{':
		case '[':
			if (depth == CR_SNAP_DEPTH + 1)
				return cr_lex_fail(c, t, i, "nested too deep");
			if (t[i] == '[') {
				stack[depth++] = SIZE_MAX;
				i++;
				break;
			}
			if (lx->n == lx->cap) {
				lx->cap = lx->cap ? 2 * lx->cap : 64;
				p = realloc(lx->nmembers,
					    lx->cap * sizeof(*p));
				if (!p)
					return cr_nomem(c);
				lx->nmembers = p;
			}
			lx->nmembers[lx->n] = 0;
			stack[depth++] = lx->n++;
			i++;
			break;
		case '}':
		case ']':
			if (depth)
				depth--;
			i++;
			break;
		case '"':
			st = cr_lex_string(c, t, n, &i);
			if (st)
				return st;
			for (j = i; j < n && cr_ws(t[j]); j++)
				;
			/* A member name: count it for its object. */
			if (j < n && t[j] == ':' && depth &&
			    stack[depth - 1] != SIZE_MAX)
				lx->nmembers[stack[depth - 1]]++;
			break;
		case '\'':
			return cr_lex_fail(c, t, i, "a single-quoted string (JSON wants double quotes)");
		case '-':
		case '0': case '1': case '2': case '3': case '4':
		case '5': case '6': case '7': case '8': case '9':
			st = cr_lex_number(c, t, n, &i);
			if (st)
				return st;
			break;
		case ' ': case '\t': case '\n': case '\r': case ',': case ':':
			i++;
			break;
		default:
			for (j = i; j < n && ((t[j] >= 'a' && t[j] <= 'z') ||
					      (t[j] >= 'A' && t[j] <= 'Z')); j++)
				;
			if (j == i || !((j - i == 4 && !memcmp(t + i, "true", 4)) ||
					(j - i == 5 && !memcmp(t + i, "false", 5)) ||
					(j - i == 4 && !memcmp(t + i, "null", 4))))
				return cr_lex_fail(c, t, i, "not JSON (only true, false and null are literals)");
			i = j;
			break;
		}
	}
	return CR_OK;
}

/*
 * json-c keeps the last of two members of the same name: compare each
 * object's member count in the tree with the count in the text.  Both walk
 * objects in text order (json-c keeps members in insertion order, a
 * replaced one at its first place), so the first difference is at the
 * first object with a repeated name.
 */
static int cr_dup_walk(struct cr_pctx *c, struct json_object *o,
		       const struct cr_lex *lx, size_t *k)
{
	size_t i, n, old;
	int st;

	if (json_object_is_type(o, json_type_object)) {
		if (*k >= lx->n ||
		    (size_t)json_object_object_length(o) != lx->nmembers[*k])
			return cr_fail(c, CR_CORRUPT, "a member name appears more than once in this object");
		(*k)++;
		json_object_object_foreach(o, key, val) {
			old = cr_push_key(c, key);
			st = cr_dup_walk(c, val, lx, k);
			cr_pop(c, old);
			if (st)
				return st;
		}
	} else if (json_object_is_type(o, json_type_array)) {
		n = json_object_array_length(o);
		for (i = 0; i < n; i++) {
			old = cr_push_idx(c, i);
			st = cr_dup_walk(c, json_object_array_get_idx(o, i),
					 lx, k);
			cr_pop(c, old);
			if (st)
				return st;
		}
	}
	return CR_OK;
}

int cr_lex_check(struct cr_pctx *c, const char *t, size_t len,
		 struct json_object *root)
{
	struct cr_lex lx = { 0 };
	size_t k = 0;
	int st;

	st = cr_lex(c, t, len, &lx);
	if (!st)
		st = cr_dup_walk(c, root, &lx, &k);
	free(lx.nmembers);
	return st;
}

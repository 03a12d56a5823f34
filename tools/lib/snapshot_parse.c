// SPDX-License-Identifier: GPL-2.0
/*
 * snapshot_parse.c - the parse context every pass of reading a snapshot
 * file carries (snapshot_parse.h): the place in the file, and the one-line
 * error that names it ("runs[2].metrics[0]: ...").
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "snapshot_parse.h"
#include "status.h"

int cr_fail(struct cr_pctx *c, int status, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (c->err && c->errlen)
		snprintf(c->err, c->errlen, "%s%s%s", c->path,
			 c->plen ? ": " : "", msg);
	return status;
}

int cr_nomem(struct cr_pctx *c)
{
	return cr_fail(c, CR_ERR, "out of memory");
}

/*
 * A printable copy of n bytes of s for a message: control characters as
 * '?', at most 40 bytes, then "...".
 */
const char *cr_clean(char *buf, size_t size, const char *s, size_t n)
{
	size_t i, o = 0;

	for (i = 0; i < n && o + 4 < size; i++) {
		if (o >= 40) {
			memcpy(buf + o, "...", 3);
			o += 3;
			break;
		}
		buf[o++] = ((unsigned char)s[i] < 0x20 || s[i] == 0x7f) ?
			   '?' : s[i];
	}
	buf[o] = '\0';
	return buf;
}

static void cr_path_add(struct cr_pctx *c, const char *s, size_t n)
{
	size_t room = sizeof(c->path) - 1 - c->plen;

	if (n > room)
		n = room;
	memcpy(c->path + c->plen, s, n);
	c->plen += n;
	c->path[c->plen] = '\0';
}

/* Append ".key" (or "key" at the top); return the length to pop back to. */
size_t cr_push_key(struct cr_pctx *c, const char *key)
{
	size_t old = c->plen;
	char buf[64];

	if (c->plen)
		cr_path_add(c, ".", 1);
	cr_clean(buf, sizeof(buf), key, strlen(key));
	cr_path_add(c, buf, strlen(buf));
	return old;
}

size_t cr_push_idx(struct cr_pctx *c, size_t i)
{
	size_t old = c->plen;
	char buf[32];

	snprintf(buf, sizeof(buf), "[%zu]", i);
	cr_path_add(c, buf, strlen(buf));
	return old;
}

void cr_pop(struct cr_pctx *c, size_t old)
{
	c->plen = old;
	c->path[old] = '\0';
}

/* Line and column (1-based, in bytes) of an offset, for syntax errors. */
void cr_where(const char *t, size_t off, char *buf, size_t size)
{
	size_t i, line = 1, bol = 0;

	for (i = 0; i < off; i++) {
		if (t[i] == '\n') {
			line++;
			bol = i + 1;
		}
	}
	snprintf(buf, size, "line %zu, column %zu", line, off - bol + 1);
}

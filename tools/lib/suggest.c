// SPDX-License-Identifier: GPL-2.0
/*
 * suggest.c - the known words nearest a mistyped one (suggest.h).
 */
#include <string.h>
#include "suggest.h"

#define CR_WORD_MAX	255

static unsigned int min3(unsigned int a, unsigned int b, unsigned int c)
{
	unsigned int m = a < b ? a : b;

	return m < c ? m : c;
}

unsigned int cr_edit_distance(const char *a, const char *b)
{
	/* Three rows of the table: two back for a swap. */
	unsigned int r0[CR_WORD_MAX + 1], r1[CR_WORD_MAX + 1], r2[CR_WORD_MAX + 1];
	unsigned int *pp = r0, *p = r1, *c = r2, *t;
	size_t n = strlen(a), m = strlen(b), i, j;

	if (n > CR_WORD_MAX)
		n = CR_WORD_MAX;
	if (m > CR_WORD_MAX)
		m = CR_WORD_MAX;
	for (j = 0; j <= m; j++)
		p[j] = j;
	for (i = 1; i <= n; i++) {
		c[0] = i;
		for (j = 1; j <= m; j++) {
			unsigned int sub = a[i - 1] != b[j - 1];

			c[j] = min3(p[j] + 1, c[j - 1] + 1, p[j - 1] + sub);
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && pp[j - 2] + 1 < c[j])
				c[j] = pp[j - 2] + 1;
		}
		t = pp;
		pp = p;
		p = c;
		c = t;
	}
	return p[m];
}

unsigned int cr_suggest(FILE *out, const char *word,
			const char *const *cands, size_t n)
{
	size_t len = strlen(word), i, best[2] = { n, n };
	unsigned int d, bd[2] = { ~0u, ~0u }, limit = len / 3, k;

	/* Below 3 letters every short word is near: no guess. */
	if (len < 3)
		return 0;
	if (limit < 1)
		limit = 1;
	if (limit > 3)
		limit = 3;
	for (i = 0; i < n; i++) {
		if (!strcmp(cands[i], word))
			continue;
		d = cr_edit_distance(word, cands[i]);
		/* A prefix typed out (ttwu for ttwu_enqueue) is near too. */
		if (d > limit && len >= 3 && !strncmp(cands[i], word, len))
			d = limit;
		if (d > limit)
			continue;
		/* A list may name a word twice (a probe per metric): once. */
		if ((best[0] < n && !strcmp(cands[best[0]], cands[i])) ||
		    (best[1] < n && !strcmp(cands[best[1]], cands[i])))
			continue;
		if (d < bd[0]) {
			bd[1] = bd[0];
			best[1] = best[0];
			bd[0] = d;
			best[0] = i;
		} else if (d < bd[1]) {
			bd[1] = d;
			best[1] = i;
		}
	}
	k = (best[0] < n) + (best[1] < n);
	if (k == 1)
		fprintf(out, " (did you mean %s?)", cands[best[0]]);
	else if (k == 2)
		fprintf(out, " (did you mean %s or %s?)", cands[best[0]],
			cands[best[1]]);
	return k;
}

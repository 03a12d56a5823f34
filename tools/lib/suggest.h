/* SPDX-License-Identifier: GPL-2.0 */
/*
 * suggest.h - "did you mean": the known words nearest a mistyped one, for
 * the one-line errors of clkstat-report (a command, a metric, a variant,
 * a probe).
 */
#ifndef CLKSTAT_SUGGEST_H
#define CLKSTAT_SUGGEST_H

#include <stddef.h>
#include <stdio.h>

/*
 * The edit distance of a and b: insertions, deletions, substitutions and
 * swaps of two neighbours, one each (optimal string alignment); at most
 * 255, the length of a longer word.
 */
unsigned int cr_edit_distance(const char *a, const char *b);

/*
 * Print to out " (did you mean X?)" or " (did you mean X or Y?)" with the
 * candidates nearest word, those within a third of its length (at least
 * 1, at most 3 edits) or having it as a prefix; nothing when none is
 * near, or the word is shorter than 3 letters.  Returns how many were
 * named (at most 2).
 */
unsigned int cr_suggest(FILE *out, const char *word,
			const char *const *cands, size_t n);

#endif /* CLKSTAT_SUGGEST_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * args.h - what every subcommand's options share: numbers taken strictly,
 * with one line naming the option when they are not, and the output
 * format (--json, --csv, --format), which most commands take.
 */
#ifndef CLKSTAT_REPORT_ARGS_H
#define CLKSTAT_REPORT_ARGS_H

#include "cli.h"

/* "clkstat-report: OPT 'V': not a valid number"; CR_USAGE. */
int cr_bad_number(const char *opt, const char *v);
/*
 * v as an unsigned decimal number in [lo, hi] into *out: CR_OK, or
 * cr_bad_number(what, v).
 */
int cr_parse_ulong(const char *what, const char *v, unsigned long lo,
		   unsigned long hi, unsigned long *out);

/* --json, --csv, --format FMT; each command checks the formats it has. */
extern const struct cr_optset cr_format_opts;
/* The format given ("text" when none). */
const char *cr_format(void);
/* Was a format given (a command whose default is not text)? */
int cr_format_set(void);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record.h - clkstat-report record: N runs, each reset, recorded and read
 * back from the live module, written as one snapshot file.
 */
#ifndef CLKSTAT_REPORT_RECORD_H
#define CLKSTAT_REPORT_RECORD_H

struct cr_record_opts {
	const char *output;	/* snapshot file to write */
	unsigned int runs;
	double duration;	/* seconds per run without a command */
	const char *variants;	/* comma list alternated, NULL: as attached */
	char **command;		/* NULL-terminated argv, NULL: none */
	int quiet;		/* no progress line */
};

/* Return: an exit status (status.h). */
int cr_record(const struct cr_record_opts *o);

#endif

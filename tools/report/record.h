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
	/* The BPF twin's runs (bpf-* variants), see twin.h: */
	const char *probes;	/* NULL: the module's (those the twin has),
				 * or ttwu,tkread without the module */
	int frac_bits;		/* -1: the module's, or the default */
	int keep_module;	/* leave the module attached and recording */
	int workload_only;	/* only the workload's own tasks */
};

/* Return: an exit status (status.h). */
int cr_record(const struct cr_record_opts *o);

#endif

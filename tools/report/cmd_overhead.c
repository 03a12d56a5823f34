// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_overhead.c - clkstat-report overhead: what each hook variant costs,
 * measured by the benchmark of tools/bench/ (overhead.h); its options and
 * their checks.
 */
#include <stdio.h>
#include <string.h>
#include "../bench/overhead.h"
#include "../lib/status.h"
#include "args.h"
#include "cli.h"

enum { O_CALLS = CR_OPT_OVERHEAD, O_COLD_CALLS, O_ROUNDS, O_HS_CALLS,
	O_STORM_ROUNDS, O_STORM_LOOPS, O_HD_ROUNDS, O_NO_STORM, O_ONLY, O_ICOUNT,
	O_INSN };

static struct cr_ovh_opts cr_ovh = {
	.calls = 200000, .cold_calls = 200, .rounds = 10, .hs_calls = 20000,
	.storm_rounds = 5, .storm_loops = 200, .hd_rounds = 3000,
	.sections = CR_OVH_DISPATCH | CR_OVH_HANDSHAKE | CR_OVH_HANDLERS |
		    CR_OVH_STORM,
};

/* The numeric options: bounds, and where each goes. */
static int cr_ovh_num(int c, const char *v)
{
	static const struct {
		int opt;
		const char *what;
		unsigned long lo, hi;
	} lim[] = {
		{ O_CALLS, "--calls (1 to 100000000)", 1, 100000000 },
		{ O_COLD_CALLS, "--cold-calls (1 to 1000000)", 1, 1000000 },
		{ O_ROUNDS, "--rounds (1 to 100)", 1, 100 },
		{ O_HS_CALLS, "--hs-calls (1 to 100000000)", 1, 100000000 },
		{ O_STORM_ROUNDS, "--storm-rounds (1 to 100)", 1, 100 },
		{ O_STORM_LOOPS, "--storm-loops (1 to 1000000)", 1, 1000000 },
		{ O_HD_ROUNDS, "--handler-rounds (1 to 10000000)", 1, 10000000 },
	};
	unsigned long ul;
	size_t i;

	for (i = 0; lim[i].opt != c; i++)
		;
	if (cr_parse_ulong(lim[i].what, v, lim[i].lo, lim[i].hi, &ul))
		return CR_USAGE;
	switch (c) {
	case O_CALLS: cr_ovh.calls = ul; break;
	case O_COLD_CALLS: cr_ovh.cold_calls = ul; break;
	case O_ROUNDS: cr_ovh.rounds = ul; break;
	case O_HS_CALLS: cr_ovh.hs_calls = ul; break;
	case O_STORM_ROUNDS: cr_ovh.storm_rounds = ul; break;
	case O_HD_ROUNDS: cr_ovh.hd_rounds = ul; break;
	default: cr_ovh.storm_loops = ul; break;
	}
	return CR_OK;
}

/* --only: a comma list of the sections. */
static int cr_ovh_only(const char *v)
{
	char buf[64], *tok, *save = NULL;

	snprintf(buf, sizeof(buf), "%s", v);
	cr_ovh.sections = 0;
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "dispatch"))
			cr_ovh.sections |= CR_OVH_DISPATCH;
		else if (!strcmp(tok, "handshake"))
			cr_ovh.sections |= CR_OVH_HANDSHAKE;
		else if (!strcmp(tok, "storm"))
			cr_ovh.sections |= CR_OVH_STORM;
		else if (!strcmp(tok, "handlers"))
			cr_ovh.sections |= CR_OVH_HANDLERS;
		else
			break;
	}
	if (tok || !cr_ovh.sections) {
		fprintf(stderr, "clkstat-report: --only '%s': a comma list of dispatch, handshake, handlers, storm\n",
			v);
		return CR_USAGE;
	}
	return CR_OK;
}

static int cr_overhead_take(int c, const char *v)
{
	switch (c) {
	case O_ICOUNT:
		cr_ovh.insn = 1;
		return CR_OK;
	case O_INSN:
		cr_ovh.insn_file = v;
		return CR_OK;
	case O_NO_STORM:
		cr_ovh.sections &= ~CR_OVH_STORM;
		return CR_OK;
	case O_ONLY:
		return cr_ovh_only(v);
	default:
		return cr_ovh_num(c, v);
	}
}

static const struct option cr_overhead_table[] = {
	{ "calls", required_argument, NULL, O_CALLS },
	{ "cold-calls", required_argument, NULL, O_COLD_CALLS },
	{ "rounds", required_argument, NULL, O_ROUNDS },
	{ "hs-calls", required_argument, NULL, O_HS_CALLS },
	{ "storm-rounds", required_argument, NULL, O_STORM_ROUNDS },
	{ "storm-loops", required_argument, NULL, O_STORM_LOOPS },
	{ "handler-rounds", required_argument, NULL, O_HD_ROUNDS },
	{ "no-storm", no_argument, NULL, O_NO_STORM },
	{ "only", required_argument, NULL, O_ONLY },
	{ "icount", no_argument, NULL, O_ICOUNT },
	{ "insn", required_argument, NULL, O_INSN },
	{ NULL, 0, NULL, 0 },
};

static const struct cr_optset cr_overhead_opts = {
	.opts = cr_overhead_table,
	.take = cr_overhead_take,
	.help =
	"      --calls N       hot calls per variant (default 200000)\n"
	"      --cold-calls N  cold calls per variant over all rounds (default 200)\n"
	"      --rounds R      interleaved rounds, median and IQR (default 10)\n"
	"      --hs-calls N    events per handshake point (default 20000)\n"
	"      --storm-rounds R  interleaved storm rounds (default 5)\n"
	"      --storm-loops N   hackbench -l per storm run (default 200)\n"
	"      --no-storm      without the wakeup storm\n"
	"      --handler-rounds N  ping-pong rounds per run of the BPF twin's handlers (default 3000)\n"
	"      --only LIST     dispatch,handshake,handlers,storm (comma list)\n"
	"      --icount        the guest runs under QEMU -icount shift=0: figures are instructions\n"
	"      --insn FILE     instructions per call from an --icount --json run, beside ns\n",
};

static int cr_overhead_check(const struct cr_cli *cli)
{
	if (strcmp(cli->format, "text") &&
	    strcmp(cli->format, "json")) {
		fprintf(stderr, "clkstat-report: overhead: text or --json\n");
		return CR_USAGE;
	}
	if (cr_ovh.insn && cr_ovh.insn_file) {
		fprintf(stderr, "clkstat-report: overhead: --insn FILE goes with a run in ns, not --icount\n");
		return CR_USAGE;
	}
	if (cr_ovh.cold_calls < cr_ovh.rounds && !cr_ovh.insn) {
		fprintf(stderr, "clkstat-report: overhead: --cold-calls (%lu) must be at least --rounds (%u): each round has cold calls\n",
			cr_ovh.cold_calls, cr_ovh.rounds);
		return CR_USAGE;
	}
	return CR_OK;
}

static int cr_overhead_cmd(struct cr_cli *cli)
{
	cr_ovh.json = !strcmp(cli->format, "json");
	return cr_overhead(&cr_ovh);
}

static const struct cr_optset *const cr_overhead_optsets[] = {
	&cr_format_opts, &cr_overhead_opts, NULL,
};

const struct cr_command cr_cmd_overhead = {
	.name = "overhead",
	.summary = "what each hook variant costs, against BPF (tools/bench/)",
	.synopsis =
	"       clkstat-report overhead [--calls N] [--cold-calls N] [--rounds R] [--hs-calls N]\n"
	"                      [--storm-rounds R] [--storm-loops N] [--no-storm]\n"
	"                      [--handler-rounds N] [--only LIST]\n"
	"                      [--icount | --insn FILE]\n",
	.opts = cr_overhead_optsets,
	.check = cr_overhead_check,
	.run = cr_overhead_cmd,
};

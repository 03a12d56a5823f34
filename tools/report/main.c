// SPDX-License-Identifier: GPL-2.0
/*
 * clkstat-report - read, print, export and record clkstat's histograms.
 *
 *   clkstat-report [report]   statistics and histograms of every metric
 *   clkstat-report info       the module (or a snapshot's metadata)
 *   clkstat-report raw        every histogram, slot by slot
 *   clkstat-report events     the event log (live only)
 *   clkstat-report ctrl ...   start, stop, reset, tgid, variant (live only)
 *   clkstat-report record [...] [-- COMMAND...]   runs into a snapshot
 *   clkstat-report overhead   what each hook variant costs (overhead.c)
 *
 * The source is the live module over generic netlink, or with --input one
 * or more snapshot files.  Documentation/clkstat-report.1 is the manual;
 * the exit statuses are status.h's.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../kmod/uapi/clkstat_buckets.h"
#include "../lib/compare.h"
#include "../lib/nl.h"
#include "../bench/overhead.h"
#include "record.h"
#include "../lib/render.h"
#include "../lib/snapshot.h"
#include "../lib/version.h"

#define CR_MAX_INPUTS	64

struct cr_args {
	const char *cmd;
	const char *inputs[CR_MAX_INPUTS];
	unsigned int ninputs;
	const char *format;
	struct cr_render_opts render;
	long run;			/* -1: pool every run */
	struct cr_record_opts record;
	struct cr_compare_opts compare;
	struct cr_ovh_opts ovh;
	int duration_set;
	int bpf_opts;			/* one of record's twin options */
	char **rest;			/* ctrl's arguments */
	int nrest;
};

static int usage(FILE *f)
{
	fprintf(f,
		"usage: clkstat-report [OPTIONS] [report]\n"
		"       clkstat-report [OPTIONS] info | raw | events\n"
		"       clkstat-report ctrl start|stop|reset [METRIC] | tgid N | variant NAME\n"
		"       clkstat-report record [-o FILE] [--runs N] [--duration S] [--variants A,B]\n"
		"                             [--probes LIST] [--frac-bits K] [--keep-module]\n"
		"                             [--workload-only] [-- COMMAND [ARG...]]\n"
		"       clkstat-report --compare VARIANT -i FILE... [--base VARIANT] [--unit run|sample]\n"
		"                      [--resamples N] [--seed N] [--level L] [--threshold NS]\n"
		"       clkstat-report overhead [--calls N] [--cold-calls N] [--rounds R] [--hs-calls N]\n"
		"                      [--storm-rounds R] [--storm-loops N] [--no-storm] [--only LIST]\n"
		"options:\n"
		"  -i, --input FILE    read a snapshot file instead of the module (repeatable)\n"
		"      --run N         with --input: only run N (0-based), not every run pooled\n"
		"      --json, --csv   the report as JSON or CSV\n"
		"      --format FMT    text, json, csv or openmetrics\n"
		"      --per-cpu       every CPU's histogram too\n"
		"      --metric NAME   only metric NAME (or NAME.VARIANT)\n"
		"      --no-hist       text: the summaries without histograms\n"
		"  -o, --output FILE   record: the snapshot to write (default clkstat.json)\n"
		"      --runs N        record: number of runs (default 1)\n"
		"      --duration S    record: seconds per run without COMMAND (default 1)\n"
		"      --variants A,B  record: variants alternated run by run (module\n"
		"                      variants and the BPF twin's bpf-kprobe, bpf-fentry, bpf-tp)\n"
		"      --probes LIST   record, bpf-*: the twin's probes (default: the module's)\n"
		"      --frac-bits K   record, bpf-*: the twin's frac_bits (default: the module's)\n"
		"      --keep-module   record, bpf-*: leave the module attached during twin runs\n"
		"      --workload-only record, bpf-*: the twin sees only COMMAND's own tasks\n"
		"  -q, --quiet         record: no progress line\n"
		"      --compare V     bootstrap comparison of variant V against the base\n"
		"      --base V        compare: the base variant (default: the other one)\n"
		"      --unit U        compare: resample runs (run, default) or samples\n"
		"      --resamples N   compare: bootstrap resamples (default 10000)\n"
		"      --seed N        compare: random seed (default 1)\n"
		"      --level L       compare: confidence level (default 0.95)\n"
		"      --threshold NS  compare: risk threshold (default: the base's p90)\n"
		"      --calls N       overhead: hot calls per variant (default 200000)\n"
		"      --cold-calls N  overhead: cold calls per variant (default 200)\n"
		"      --rounds R      overhead: interleaved hot rounds, fastest kept (default 5)\n"
		"      --hs-calls N    overhead: events per handshake point (default 20000)\n"
		"      --storm-rounds R  overhead: interleaved storm rounds (default 5)\n"
		"      --storm-loops N   overhead: hackbench -l per storm run (default 200)\n"
		"      --no-storm      overhead: without the wakeup storm\n"
		"      --only LIST     overhead: dispatch,handshake,storm (comma list)\n"
		"  -V, --version, -h, --help\n"
		"See clkstat-report(1).\n");
	return f == stderr ? CR_USAGE : CR_OK;
}

static int bad_number(const char *opt, const char *v)
{
	fprintf(stderr, "clkstat-report: %s '%s': not a valid number\n", opt, v);
	return CR_USAGE;
}

enum { O_JSON = 256, O_CSV, O_FORMAT, O_PER_CPU, O_METRIC, O_NO_HIST,
	O_RUNS, O_DURATION, O_VARIANTS, O_RUN, O_COMPARE, O_BASE, O_UNIT,
	O_RESAMPLES, O_SEED, O_LEVEL, O_THRESHOLD, O_PROBES, O_FRAC_BITS,
	O_KEEP_MODULE, O_WORKLOAD_ONLY, O_CALLS, O_COLD_CALLS, O_ROUNDS,
	O_HS_CALLS, O_STORM_ROUNDS, O_STORM_LOOPS, O_NO_STORM, O_ONLY };

/* overhead's numeric options: bounds, and where each goes. */
static int parse_ovh_num(int c, const char *v, struct cr_ovh_opts *o)
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
	};
	unsigned long ul;
	char *end;
	size_t i;

	for (i = 0; lim[i].opt != c; i++)
		;
	errno = 0;
	ul = strtoul(v, &end, 10);
	if (errno || *end || !*v || *v == '-' || ul < lim[i].lo ||
	    ul > lim[i].hi)
		return bad_number(lim[i].what, v);
	switch (c) {
	case O_CALLS: o->calls = ul; break;
	case O_COLD_CALLS: o->cold_calls = ul; break;
	case O_ROUNDS: o->rounds = ul; break;
	case O_HS_CALLS: o->hs_calls = ul; break;
	case O_STORM_ROUNDS: o->storm_rounds = ul; break;
	default: o->storm_loops = ul; break;
	}
	return CR_OK;
}

/* --only: a comma list of overhead's sections. */
static int parse_ovh_only(const char *v, struct cr_ovh_opts *o)
{
	char buf[64], *tok, *save = NULL;

	snprintf(buf, sizeof(buf), "%s", v);
	o->sections = 0;
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "dispatch"))
			o->sections |= CR_OVH_DISPATCH;
		else if (!strcmp(tok, "handshake"))
			o->sections |= CR_OVH_HANDSHAKE;
		else if (!strcmp(tok, "storm"))
			o->sections |= CR_OVH_STORM;
		else
			break;
	}
	if (tok || !o->sections) {
		fprintf(stderr, "clkstat-report: --only '%s': a comma list of dispatch, handshake, storm\n",
			v);
		return CR_USAGE;
	}
	return CR_OK;
}

static int parse_args(int argc, char **argv, struct cr_args *a)
{
	static const struct option opts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "output", required_argument, NULL, 'o' },
		{ "json", no_argument, NULL, O_JSON },
		{ "csv", no_argument, NULL, O_CSV },
		{ "format", required_argument, NULL, O_FORMAT },
		{ "per-cpu", no_argument, NULL, O_PER_CPU },
		{ "metric", required_argument, NULL, O_METRIC },
		{ "no-hist", no_argument, NULL, O_NO_HIST },
		{ "runs", required_argument, NULL, O_RUNS },
		{ "duration", required_argument, NULL, O_DURATION },
		{ "variants", required_argument, NULL, O_VARIANTS },
		{ "run", required_argument, NULL, O_RUN },
		{ "compare", required_argument, NULL, O_COMPARE },
		{ "base", required_argument, NULL, O_BASE },
		{ "unit", required_argument, NULL, O_UNIT },
		{ "resamples", required_argument, NULL, O_RESAMPLES },
		{ "seed", required_argument, NULL, O_SEED },
		{ "level", required_argument, NULL, O_LEVEL },
		{ "threshold", required_argument, NULL, O_THRESHOLD },
		{ "probes", required_argument, NULL, O_PROBES },
		{ "frac-bits", required_argument, NULL, O_FRAC_BITS },
		{ "keep-module", no_argument, NULL, O_KEEP_MODULE },
		{ "workload-only", no_argument, NULL, O_WORKLOAD_ONLY },
		{ "calls", required_argument, NULL, O_CALLS },
		{ "cold-calls", required_argument, NULL, O_COLD_CALLS },
		{ "rounds", required_argument, NULL, O_ROUNDS },
		{ "hs-calls", required_argument, NULL, O_HS_CALLS },
		{ "storm-rounds", required_argument, NULL, O_STORM_ROUNDS },
		{ "storm-loops", required_argument, NULL, O_STORM_LOOPS },
		{ "no-storm", no_argument, NULL, O_NO_STORM },
		{ "only", required_argument, NULL, O_ONLY },
		{ "quiet", no_argument, NULL, 'q' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	int c, i, dashdash = argc;
	unsigned long ul;

	/* Everything after "--" is record's workload, untouched by getopt. */
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			dashdash = i;
			break;
		}
	}
	if (dashdash < argc) {
		if (dashdash + 1 == argc) {
			fprintf(stderr, "clkstat-report: no command after --\n");
			return CR_USAGE;
		}
		a->record.command = &argv[dashdash + 1];
		argv[dashdash] = NULL;
	}
	while ((c = getopt_long(dashdash, argv, "i:o:qVh", opts, NULL)) != -1) {
		switch (c) {
		case 'i':
			if (a->ninputs == CR_MAX_INPUTS) {
				fprintf(stderr, "clkstat-report: at most %d --input files\n",
					CR_MAX_INPUTS);
				return CR_USAGE;
			}
			a->inputs[a->ninputs++] = optarg;
			break;
		case 'o':
			a->record.output = optarg;
			break;
		case O_JSON:
			a->format = "json";
			break;
		case O_CSV:
			a->format = "csv";
			break;
		case O_FORMAT:
			a->format = optarg;
			break;
		case O_PER_CPU:
			a->render.per_cpu = 1;
			break;
		case O_METRIC:
			a->render.metric = optarg;
			break;
		case O_NO_HIST:
			a->render.no_hist = 1;
			break;
		case O_RUNS:
			errno = 0;
			ul = strtoul(optarg, &end, 10);
			if (errno || *end || !*optarg || *optarg == '-' ||
			    ul < 1 || ul > 1000000)
				return bad_number("--runs (1 to 1000000)", optarg);
			a->record.runs = ul;
			break;
		case O_DURATION:
			errno = 0;
			a->record.duration = strtod(optarg, &end);
			if (errno || *end || !*optarg ||
			    !(a->record.duration > 0) ||
			    a->record.duration > 86400)
				return bad_number("--duration (seconds, above 0, at most 86400)",
						  optarg);
			a->duration_set = 1;
			break;
		case O_VARIANTS:
			a->record.variants = optarg;
			break;
		case O_RUN:
			errno = 0;
			a->run = strtol(optarg, &end, 10);
			if (errno || *end || !*optarg || a->run < 0)
				return bad_number("--run", optarg);
			break;
		case 'q':
			a->record.quiet = 1;
			break;
		case O_PROBES:
			a->record.probes = optarg;
			a->bpf_opts = 1;
			break;
		case O_FRAC_BITS:
			errno = 0;
			ul = strtoul(optarg, &end, 10);
			if (errno || *end || !*optarg || *optarg == '-' ||
			    ul > CLKSTAT_FRAC_BITS_MAX)
				return bad_number("--frac-bits (0 to 5)", optarg);
			a->record.frac_bits = ul;
			a->bpf_opts = 1;
			break;
		case O_KEEP_MODULE:
			a->record.keep_module = 1;
			a->bpf_opts = 1;
			break;
		case O_WORKLOAD_ONLY:
			a->record.workload_only = 1;
			a->bpf_opts = 1;
			break;
		case O_COMPARE:
			a->compare.variant = optarg;
			break;
		case O_BASE:
			a->compare.base = optarg;
			break;
		case O_UNIT:
			if (strcmp(optarg, "run") && strcmp(optarg, "sample")) {
				fprintf(stderr, "clkstat-report: --unit '%s': run or sample\n",
					optarg);
				return CR_USAGE;
			}
			a->compare.unit_sample = !strcmp(optarg, "sample");
			break;
		case O_RESAMPLES:
			errno = 0;
			ul = strtoul(optarg, &end, 10);
			if (errno || *end || !*optarg || *optarg == '-' ||
			    ul < 100 || ul > 1000000)
				return bad_number("--resamples (100 to 1000000)",
						  optarg);
			a->compare.resamples = ul;
			break;
		case O_SEED:
			errno = 0;
			ul = strtoul(optarg, &end, 10);
			/* GSL's mt19937 keeps the low 32 bits, and 0 is 4357. */
			if (errno || *end || !*optarg || *optarg == '-' ||
			    ul < 1 || ul > 0xffffffffUL)
				return bad_number("--seed (1 to 4294967295)",
						  optarg);
			a->compare.seed = ul;
			break;
		case O_LEVEL:
			errno = 0;
			a->compare.level = strtod(optarg, &end);
			if (errno || *end || !*optarg ||
			    !(a->compare.level >= 0.5 && a->compare.level <= 0.999))
				return bad_number("--level (0.5 to 0.999)", optarg);
			break;
		case O_THRESHOLD:
			errno = 0;
			ul = strtoul(optarg, &end, 10);
			if (errno || *end || !*optarg || *optarg == '-')
				return bad_number("--threshold (ns)", optarg);
			a->compare.threshold = ul;
			a->compare.have_threshold = 1;
			break;
		case O_CALLS:
		case O_COLD_CALLS:
		case O_ROUNDS:
		case O_HS_CALLS:
		case O_STORM_ROUNDS:
		case O_STORM_LOOPS:
			if (parse_ovh_num(c, optarg, &a->ovh))
				return CR_USAGE;
			break;
		case O_NO_STORM:
			a->ovh.sections &= ~CR_OVH_STORM;
			break;
		case O_ONLY:
			if (parse_ovh_only(optarg, &a->ovh))
				return CR_USAGE;
			break;
		case 'V':
			printf("clkstat-report %s (netlink ABI %u, snapshot format %u)\n",
			       CLKSTAT_REPORT_VERSION, CLKSTAT_GENL_VERSION,
			       CR_SNAPSHOT_VERSION);
			exit(CR_OK);
		case 'h':
			exit(usage(stdout));
		default:
			return usage(stderr);
		}
	}
	a->cmd = optind < dashdash ? argv[optind++] : "report";
	a->rest = &argv[optind];
	a->nrest = dashdash - optind;
	return CR_OK;
}

/* The checks that do not need the source. */
static int check_args(struct cr_args *a)
{
	static const char *const cmds[] = {
		"report", "info", "raw", "events", "ctrl", "record",
		"overhead",
	};
	int known = 0;
	size_t i;

	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		known |= !strcmp(a->cmd, cmds[i]);
	if (!known) {
		fprintf(stderr, "clkstat-report: unknown command '%s'\n", a->cmd);
		return usage(stderr);
	}
	if (strcmp(a->cmd, "ctrl") && a->nrest) {
		fprintf(stderr, "clkstat-report: %s: unexpected argument '%s'\n",
			a->cmd, a->rest[0]);
		return CR_USAGE;
	}
	if (!strcmp(a->cmd, "ctrl") && (a->nrest < 1 || a->nrest > 2))
		return usage(stderr);
	if (a->record.command && strcmp(a->cmd, "record")) {
		fprintf(stderr, "clkstat-report: '-- COMMAND' is for record only\n");
		return CR_USAGE;
	}
	if (!strcmp(a->cmd, "overhead") && strcmp(a->format, "text") &&
	    strcmp(a->format, "json")) {
		fprintf(stderr, "clkstat-report: overhead: text or --json\n");
		return CR_USAGE;
	}
	if (a->ninputs && (!strcmp(a->cmd, "ctrl") ||
			   !strcmp(a->cmd, "record") ||
			   !strcmp(a->cmd, "overhead") ||
			   !strcmp(a->cmd, "events"))) {
		fprintf(stderr, "clkstat-report: %s works on the live module, not on --input (%s)\n",
			a->cmd, !strcmp(a->cmd, "events") ?
			"snapshots do not hold the event log" :
			"a snapshot cannot be changed");
		return CR_USAGE;
	}
	if (a->compare.variant && (strcmp(a->cmd, "report") || !a->ninputs)) {
		fprintf(stderr, "clkstat-report: --compare works on the runs of --input snapshots (clkstat-report record writes them)\n");
		return CR_USAGE;
	}
	if (a->compare.variant && a->run >= 0) {
		fprintf(stderr, "clkstat-report: --compare resamples every run: --run does not apply\n");
		return CR_USAGE;
	}
	if (a->compare.variant && strcmp(a->format, "openmetrics") == 0) {
		fprintf(stderr, "clkstat-report: --compare: text, json or csv\n");
		return CR_USAGE;
	}
	if (a->run >= 0 && !a->ninputs) {
		fprintf(stderr, "clkstat-report: --run selects a run of an --input snapshot\n");
		return CR_USAGE;
	}
	if (!strcmp(a->format, "text") || !strcmp(a->format, "json") ||
	    !strcmp(a->format, "csv") || !strcmp(a->format, "openmetrics"))
		;
	else {
		fprintf(stderr, "clkstat-report: --format '%s': text, json, csv or openmetrics\n",
			a->format);
		return CR_USAGE;
	}
	if (a->bpf_opts && strcmp(a->cmd, "record")) {
		fprintf(stderr, "clkstat-report: --probes, --frac-bits, --keep-module and --workload-only are record's\n");
		return CR_USAGE;
	}
	if (!strcmp(a->cmd, "record") && a->record.command && a->duration_set) {
		fprintf(stderr, "clkstat-report: record: --duration is for runs without a COMMAND (a run lasts as long as its COMMAND)\n");
		return CR_USAGE;
	}
	return CR_OK;
}

/* Every --input file's runs, one after the other, into s. */
static int read_inputs(const struct cr_args *a, struct cr_snapshot *s)
{
	struct cr_snapshot one;
	struct cr_run *r;
	unsigned int i;
	size_t j;
	int st;

	for (i = 0; i < a->ninputs; i++) {
		st = cr_snapshot_read(a->inputs[i], &one);
		if (st) {
			cr_snapshot_free(s);
			return st;
		}
		if (!i) {
			s->meta = one.meta;
			memset(&one.meta, 0, sizeof(one.meta));
		}
		for (j = 0; j < one.nruns; j++) {
			r = cr_snapshot_add_run(s);
			if (!r) {
				cr_snapshot_free(&one);
				cr_snapshot_free(s);
				fprintf(stderr, "clkstat-report: out of memory\n");
				return CR_ERR;
			}
			/* Moved, renumbered in reading order. */
			*r = one.runs[j];
			r->index = s->nruns - 1;
			one.runs[j] = (struct cr_run){ 0 };
		}
		cr_snapshot_free(&one);
	}
	return CR_OK;
}

static void print_meta(FILE *out, const struct cr_snapshot *s)
{
	const struct cr_meta *m = &s->meta;
	size_t i;

#define P(k) fprintf(out, "%s %s\n", #k, m->k ? m->k : "-")
	P(tool_version);
	P(module_version);
	P(kernel_release);
	P(clocksource);
	P(probes);
	fprintf(out, "frac_bits %u\nnr_cpus %u\n", m->frac_bits, m->nr_cpus);
	P(variants);
	P(command);
	fprintf(out, "duration_s %g\n", m->duration_s);
	P(machine);
	P(hypervisor);
	P(cpuidle_driver);
	P(cpuidle_governor);
	P(max_cstate);
	P(cmdline);
#undef P
	for (i = 0; i < m->nparams; i++)
		fprintf(out, "param %s %s\n", m->param_names[i],
			m->param_values[i]);
	fprintf(out, "runs %zu\n", s->nruns);
	for (i = 0; i < s->nruns; i++)
		fprintf(out, "run %u variant %s start_ns %lld end_ns %lld exit_status %d metrics %zu\n",
			s->runs[i].index, s->runs[i].variant,
			(long long)s->runs[i].start_ns,
			(long long)s->runs[i].end_ns, s->runs[i].exit_status,
			s->runs[i].nmetrics);
}

static void print_info(FILE *out, const struct cr_info *i)
{
	fprintf(out, "version %s\nabi %u\nfrac_bits %u\nprobes %s\nvariant %s\n"
		"clocksource %s\nnr_cpus %u\nrecording %d\nswitches %llu\ntgid %u\n"
		"events %u\n",
		i->version, i->abi, i->frac_bits, i->probes, i->variant,
		i->clocksource, i->nr_cpus, i->recording,
		(unsigned long long)i->switches, i->tgid, i->ev_entries);
}

static int render(const struct cr_args *a, const struct cr_run *r)
{
	if (!strcmp(a->cmd, "raw"))
		return cr_render_raw(stdout, r, &a->render);
	if (!strcmp(a->format, "json"))
		return cr_render_json(stdout, r, &a->render);
	if (!strcmp(a->format, "csv"))
		return cr_render_csv(stdout, r, &a->render);
	if (!strcmp(a->format, "openmetrics"))
		return cr_render_openmetrics(stdout, r, &a->render);
	return cr_render_text(stdout, r, &a->render);
}

/* report, info, raw on --input snapshots. */
static int from_snapshots(struct cr_args *a)
{
	struct cr_snapshot s = { 0 };
	struct cr_run pooled;
	int st;

	st = read_inputs(a, &s);
	if (st)
		return st;
	if (!strcmp(a->cmd, "info")) {
		print_meta(stdout, &s);
		cr_snapshot_free(&s);
		return CR_OK;
	}
	a->render.source = a->inputs[0];
	if (a->compare.variant) {
		a->compare.format = a->format;
		a->compare.metric = a->render.metric;
		st = cr_compare(stdout, &s, &a->compare);
		cr_snapshot_free(&s);
		return st;
	}
	if (a->run >= 0) {
		if ((size_t)a->run >= s.nruns) {
			fprintf(stderr, "clkstat-report: --run %ld: the input has %zu runs (0 to %zu)\n",
				a->run, s.nruns, s.nruns ? s.nruns - 1 : 0);
			cr_snapshot_free(&s);
			return CR_USAGE;
		}
		a->render.nruns = 1;
		st = render(a, &s.runs[a->run]);
	} else {
		/* pool() said why on -EINVAL (a metric's frac_bits differ). */
		st = cr_snapshot_pool(&s, &pooled);
		if (st == -ENOMEM)
			fprintf(stderr, "clkstat-report: out of memory\n");
		st = st ? CR_ERR : CR_OK;
		if (!st) {
			a->render.nruns = s.nruns;
			st = render(a, &pooled);
			cr_run_free(&pooled);
		}
	}
	cr_snapshot_free(&s);
	return st;
}

/* report, info, raw, events, ctrl on the live module. */
static int from_module(struct cr_args *a)
{
	struct cr_run run = { .exit_status = -1 };
	struct cr_info info;
	struct cr_nl *nl;
	int st;

	nl = cr_nl_open(&st);
	if (!nl)
		return st;
	if (!strcmp(a->cmd, "ctrl")) {
		st = cr_nl_ctrl(nl, a->rest[0], a->nrest > 1 ? a->rest[1] : NULL);
		goto out;
	}
	st = cr_nl_get_info(nl, &info);
	if (st)
		goto out;
	if (!strcmp(a->cmd, "info")) {
		print_info(stdout, &info);
	} else if (!strcmp(a->cmd, "events")) {
		st = cr_nl_events(nl, &info, stdout);
	} else {
		st = cr_nl_get_hist(nl, &run);
		if (!st) {
			snprintf(run.variant, sizeof(run.variant), "%s",
				 info.variant);
			a->render.source = "netlink";
			a->render.nruns = 1;
			st = render(a, &run);
		}
		cr_run_free(&run);
	}
out:
	cr_nl_close(nl);
	return st;
}

int main(int argc, char **argv)
{
	struct cr_args a = {
		.format = "text",
		.run = -1,
		.record = { .output = "clkstat.json", .runs = 1,
			    .duration = 1.0, .frac_bits = -1 },
		.compare = { .level = 0.95, .resamples = 10000, .seed = 1 },
		.ovh = { .calls = 200000, .cold_calls = 200, .rounds = 5,
			 .hs_calls = 20000, .storm_rounds = 5,
			 .storm_loops = 200,
			 .sections = CR_OVH_DISPATCH | CR_OVH_HANDSHAKE |
				     CR_OVH_STORM },
	};
	int st;

	st = parse_args(argc, argv, &a);
	if (!st)
		st = check_args(&a);
	if (st)
		return st;
	if (!strcmp(a.cmd, "record")) {
		st = cr_record(&a.record);
	} else if (!strcmp(a.cmd, "overhead")) {
		a.ovh.json = !strcmp(a.format, "json");
		st = cr_overhead(&a.ovh);
	} else if (a.ninputs) {
		st = from_snapshots(&a);
	} else {
		st = from_module(&a);
	}
	if (fflush(stdout) && !st) {
		perror("clkstat-report: stdout");
		st = CR_ERR;
	}
	return st;
}

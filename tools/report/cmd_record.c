// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_record.c - clkstat-report record: runs into a snapshot file.
 *
 * Each run: its variant (variants alternate A B A B ..., so that a drift
 * of the machine over time hits both alike) recorded around the workload
 * (or --duration's sleep) by the module (record_module.c) or, for a
 * bpf-* variant, by the BPF twin (record_twin.c), both through one
 * interface (record.h) and one loop here.  The runs and the machine's
 * metadata go to one snapshot file, written atomically at the end; the
 * module's variant and recording state found at the start are restored.
 * The workload: record_workload.c; --events' markers: record_events.c;
 * --probes' user-defined probes: record_trace.c; --cstates and --load:
 * record_cond.c; --governors: record_gov.c.
 *
 * What each option does: Documentation/clkstat-recording.rst, "Recording
 * runs" and "Conditions: C-states and load"; the user-defined probes:
 * Documentation/clkstat-traces.rst, "With clkstat-report"; the twin's
 * runs: Documentation/clkstat-bpf.rst, "Running it".  At the end,
 * record's options and their checks.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../../kmod/uapi/clkstat_buckets.h"
#include "../../kmod/uapi/clkstat_catalog.h"
#include "../lib/file_replace.h"
#include "../lib/status.h"
#include "../lib/suggest.h"
#include "args.h"
#include "cli.h"
#include "record.h"
#include "record_cond.h"
#include "record_gov.h"

/* Split "a,b" into at most max names; 0 on success. */
static int cr_split_variants(const char *list, char names[][CR_VARIANT_MAX],
			     unsigned int max, unsigned int *n)
{
	const char *p = list, *e;
	size_t len;

	*n = 0;
	while (*p) {
		e = strchr(p, ',');
		len = e ? (size_t)(e - p) : strlen(p);
		if (!len || len >= CR_VARIANT_MAX || *n == max) {
			fprintf(stderr, "clkstat-report: record: --variants '%s': %s\n",
				list, !len ? "empty variant name" :
				len >= CR_VARIANT_MAX ? "variant name too long" :
				"too many variants");
			return -1;
		}
		memcpy(names[*n], p, len);
		names[(*n)++][len] = '\0';
		p = e ? e + 1 : p + len;
		if (e && !*p) {
			fprintf(stderr, "clkstat-report: record: --variants '%s': empty variant name\n",
				list);
			return -1;
		}
	}
	if (!*n) {
		fprintf(stderr, "clkstat-report: record: --variants is empty\n");
		return -1;
	}
	return 0;
}

/* Every variant record knows: the module's and the BPF twin's. */
static const char *const cr_known_variants[] = {
	CLKSTAT_VARIANTS(CLKSTAT_CAT_VARIANT_NAME)
	CLKSTAT_TWIN_VARIANTS(CLKSTAT_CAT_VARIANT_NAME)
};
#define CR_NKNOWN_VARIANTS \
	(sizeof(cr_known_variants) / sizeof(cr_known_variants[0]))

/* Is the workload a program execvp() would find? */
static int cr_workload_found(const char *prog)
{
	const char *path = getenv("PATH"), *p, *e;
	char buf[4096];

	if (strchr(prog, '/'))
		return !access(prog, X_OK);
	for (p = path ? path : "/usr/bin:/bin"; ; p = e + 1) {
		e = strchr(p, ':');
		snprintf(buf, sizeof(buf), "%.*s/%s",
			 (int)(e ? e - p : (long)strlen(p)),
			 e == p || !*p ? "." : p, prog);
		if (!access(buf, X_OK))
			return 1;
		if (!e)
			return 0;
	}
}

/*
 * What can be known wrong before run 1 is said before it, in one line,
 * and nothing is recorded: a variant no one knows (the nearest named),
 * a workload not found, governors the machine cannot take, an output
 * that cannot be written.
 */
static int cr_record_preflight(const struct cr_record_opts *o,
			       char names[][CR_VARIANT_MAX], unsigned int nv)
{
	const struct cr_conds *conds = cr_record_conds();
	unsigned int i, j;
	int st;

	for (i = 0; i < nv; i++) {
		for (j = 0; j < CR_NKNOWN_VARIANTS &&
		     strcmp(names[i], cr_known_variants[j]); j++)
			;
		if (j < CR_NKNOWN_VARIANTS)
			continue;
		fprintf(stderr, "clkstat-report: record: --variants: no variant '%s'",
			names[i]);
		cr_suggest(stderr, names[i], cr_known_variants,
			   CR_NKNOWN_VARIANTS);
		fputs("; the variants:", stderr);
		for (j = 0; j < CR_NKNOWN_VARIANTS; j++)
			fprintf(stderr, "%s %s", j ? "," : "",
				cr_known_variants[j]);
		fputs("\n", stderr);
		return CR_USAGE;
	}
	if (o->command && !cr_workload_found(o->command[0])) {
		fprintf(stderr, "clkstat-report: record: %s: %s (nothing recorded)\n",
			o->command[0], strchr(o->command[0], '/') ?
			"not an executable file" : "no such program in PATH");
		return CR_USAGE;
	}
	st = cr_gov_preflight(conds->gov, conds->ngov);
	if (st)
		return st;
	return cr_rec_output_check(o);
}

/* The headline of a run's progress line: the study's metric, or ttwu's. */
static const struct cr_metric *cr_progress_metric(const struct cr_run *r)
{
	static const char *const pick[] = { "ttwu_tkread", "ttwu_enqueue" };
	size_t i, j;

	for (j = 0; j < 2; j++)
		for (i = 0; i < r->nmetrics; i++)
			if (!strcmp(r->metrics[i].name, pick[j]))
				return &r->metrics[i];
	return NULL;
}

/*
 * One line a run, after it, on stderr (the workload's output has its
 * own lines): the headline metric's samples, the same metric whatever
 * the variant, and the time the runs left will take at this pace.
 */
static void cr_progress(const struct cr_snapshot *s, unsigned int done,
			unsigned int runs, const char *label, int64_t t0)
{
	const struct cr_run *r = &s->runs[s->nruns - 1];
	const struct cr_metric *m = cr_progress_metric(r);
	double took = (r->end_ns - r->start_ns) / 1e9;
	double left = (cr_rec_now_ns() - t0) / 1e9 / done * (runs - done);
	uint64_t n = 0;
	size_t j;

	if (m)
		for (j = 0; j < m->total.nslots; j++)
			n += m->total.slots[j].count;
	fprintf(stderr, "record: run %u/%u, variant %s: ", done, runs, label);
	if (m)
		fprintf(stderr, "%s %" PRIu64 " samples", m->name, n);
	else
		fprintf(stderr, "%" PRIu64 " samples", cr_run_samples(r));
	fprintf(stderr, ", %.1f s", took);
	if (done < runs)
		fprintf(stderr, "; about %.0f s left", left);
	fputc('\n', stderr);
}

/* Move tmp's metrics into a new run of s. */
static int cr_add_run(struct cr_snapshot *s, struct cr_run *tmp,
		      const char *variant, int64_t start, int64_t end,
		      int status, int *workload_failed)
{
	struct cr_run *r = cr_snapshot_add_run(s);

	if (!r) {
		cr_run_free(tmp);
		fprintf(stderr, "clkstat-report: record: out of memory\n");
		return CR_ERR;
	}
	r->nmetrics = tmp->nmetrics;
	r->metrics = tmp->metrics;
	r->events = tmp->events;
	snprintf(r->variant, sizeof(r->variant), "%s", variant);
	r->start_ns = start;
	r->end_ns = end;
	r->exit_status = status;
	if (status > 0)
		*workload_failed = 1;
	return CR_OK;
}

/*
 * One run of variant v into s, the module's or the twin's (b): open, the
 * workload forked and held when b gates it, start, record's markers and
 * the workload, stop, read, close.
 */
static int cr_record_one(const struct cr_rec_backend *b, struct cr_rec_run *r,
			 struct cr_snapshot *s, int *workload_failed)
{
	const struct cr_record_opts *o = r->o;
	struct cr_workload w = { .argv = o->command, .duration = o->duration,
				 .out_fd = o->workload_fd };
	struct cr_run tmp = { .exit_status = -1 };
	struct cr_run_marks marks;
	int st, st2, status = -1, gated = b->gates(r);
	int64_t start, end;

	r->tgid = 0;
	st = b->open(r);
	if (st)
		return st;
	if (gated) {
		/* The held child takes its environment at the fork. */
		if (o->events)
			cr_rec_marker_env(o, b->marker(r));
		st = cr_workload_hold(&w);
		if (!st)
			r->tgid = w.pid;
	}
	if (!st)
		st = b->start(r);
	if (st) {
		cr_workload_abort(&w);
		b->close(r);
		return st;
	}
	start = cr_rec_now_ns();
	/* Asked once the run started: the twin's says why it has none. */
	cr_marks_begin(o, &marks, b->marker(r));
	st = cr_workload_run(&w, &status);
	cr_marks_end(o, &marks);
	end = cr_rec_now_ns();
	st2 = b->stop(r);
	if (!st)
		st = st2;
	if (!st)
		st = b->read(r, &tmp);
	b->close(r);
	if (!st)
		st = cr_events_finish(o, &marks, &tmp, s->nruns + 1, b->is_twin);
	if (st) {
		cr_run_free(&tmp);
		return st;
	}
	st = cr_add_run(s, &tmp, r->variant, start, end, status,
			workload_failed);
	/* --workload-only with a COMMAND: the run saw its tasks only. */
	if (!st)
		s->runs[s->nruns - 1].workload_only = gated;
	return st;
}

static char *cr_join(char **argv)
{
	size_t len = 1, i;
	char *s;

	for (i = 0; argv[i]; i++)
		len += strlen(argv[i]) + 1;
	s = calloc(1, len);
	for (i = 0; s && argv[i]; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
}

/* Is every variant a bpf-* one (the module then need not be loaded)? */
static int cr_bpf_only(char names[][CR_VARIANT_MAX], unsigned int nv)
{
	unsigned int i;

	for (i = 0; i < nv; i++)
		if (!cr_twin_is_variant(names[i]))
			return 0;
	return nv > 0;
}

/*
 * --workload-only filters every run by COMMAND's pid (the module's tgid
 * filter, the twin's): say so when there is no COMMAND to filter by.
 * Each run's workload_only in the snapshot says what it did.
 */
static void cr_warn_workload_only(const struct cr_record_opts *o)
{
	if (o->workload_only && !o->command)
		fprintf(stderr, "clkstat-report: record: warning: --workload-only without a COMMAND filters nothing: every run sees every task\n");
}

/*
 * --events with a module variant needs the module's event log: say so
 * before any run.  Return CR_OK or CR_USAGE.
 */
static int cr_check_events(const struct cr_record_opts *o,
			   const struct cr_info *info,
			   char names[][CR_VARIANT_MAX], unsigned int nv)
{
	if (!o->events || cr_bpf_only(names, nv))
		return CR_OK;
	if (info->have_ev_entries && info->ev_entries)
		return CR_OK;
	fprintf(stderr, "clkstat-report: record: --events needs the module's event log, and it has none: load clkstat.ko with events=N (N > 0; and probes=...,marker for the workload's markers)\n");
	return CR_USAGE;
}

/* Return: an exit status (status.h). */
static int cr_record(struct cr_record_opts *o)
{
	static struct cr_rec_traces traces;
	char names[16][CR_VARIANT_MAX], probes[CR_PROBES_MAX];
	struct cr_snapshot s = { 0 };
	struct cr_rec_study study = { 0 };
	struct cr_rec_run run = { .o = o };
	int st, failed = 0;
	int64_t t0;
	unsigned int nv = 0, i;
	struct cr_info info = { 0 };
	struct cr_twin_cfg twin;
	struct cr_nl *nl = NULL;
	const struct cr_conds *conds = cr_record_conds();
	unsigned int nc = cr_conds_n(conds);
	int oom = 0;
	long ncpus;

	if (o->variants && cr_split_variants(o->variants, names, 16, &nv))
		return CR_USAGE;
	st = cr_record_preflight(o, names, o->variants ? nv : 0);
	if (st)
		return st;
	if (cr_rec_traces_parse(o->probes, &traces))
		return CR_USAGE;
	/* Before anything can fail: the warning is about the options. */
	if (o->variants)
		cr_warn_workload_only(o);
	/* bpf-* runs only, and no module: the twin alone. */
	if (!(cr_bpf_only(names, nv) && access("/sys/module/clkstat", F_OK))) {
		nl = cr_nl_open(&st);
		if (!nl)
			return st;
		st = cr_nl_get_info(nl, &info);
		if (st)
			goto out_nl;
	}
	if (!o->variants && cr_split_variants(info.variant, names, 16, &nv)) {
		st = CR_USAGE;
		goto out_nl;
	}
	if (!o->variants)
		cr_warn_workload_only(o);
	st = cr_check_events(o, &info, names, nv);
	if (st)
		goto out_nl;
	o->ev_entries = info.ev_entries;
	st = cr_rec_twin_config(o, nl ? &info : NULL, names, nv, probes,
				sizeof(probes), &twin);
	if (st)
		goto out_nl;
	if (cr_meta_collect(&s.meta, nl ? &info : NULL, "") ||
	    !(s.meta.variants = strdup(o->variants ? o->variants
						    : info.variant)) ||
	    (o->command && !(s.meta.command = cr_join(o->command)))) {
		fprintf(stderr, "clkstat-report: record: out of memory\n");
		st = CR_ERR;
		goto out;
	}
	if (!nl) {
		/* What the twin ran with stands for the module's settings. */
		ncpus = sysconf(_SC_NPROCESSORS_CONF);
		s.meta.probes = strdup(twin.probes);
		/* The twin stamps with bpf_ktime_get_ns(). */
		s.meta.clock = strdup("mono");
		s.meta.frac_bits = twin.frac_bits;
		s.meta.nr_cpus = ncpus > 0 ? ncpus : 0;
		if (!s.meta.probes || !s.meta.clock) {
			fprintf(stderr, "clkstat-report: record: out of memory\n");
			st = CR_ERR;
			goto out;
		}
	}
	s.meta.duration_s = o->command ? 0 : o->duration;
	s.meta.events = o->events;
	s.meta.conditions = cr_conds_describe(conds, &oom);
	if (oom) {
		fprintf(stderr, "clkstat-report: record: out of memory\n");
		st = CR_ERR;
		goto out;
	}
	if (o->runs % (nv * nc))
		fprintf(stderr, "clkstat-report: record: warning: unbalanced: --runs %u is not a multiple of %u (%u variants x %u conditions): some variant and condition pairs get one run fewer\n",
			o->runs, nv * nc, nv, nc);
	for (i = 0; i < o->tags.ntags; i++) {
		if (cr_meta_add_tag(&s.meta, o->tags.tag_names[i],
				    o->tags.tag_values[i])) {
			fprintf(stderr, "clkstat-report: record: out of memory\n");
			st = CR_ERR;
			goto out;
		}
	}
	if (o->workload_output) {
		o->workload_fd = open(o->workload_output,
				      O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC,
				      0644);
		if (o->workload_fd < 0) {
			fprintf(stderr, "clkstat-report: record: --workload-output %s: %s (nothing recorded)\n",
				o->workload_output, strerror(errno));
			st = CR_ERR;
			goto out;
		}
	}
	/* Last before run 1: what can be refused is refused above. */
	st = cr_rec_study_open(&study, o, &s.meta, names, nv, twin.frac_bits);
	if (!st)
		st = cr_gov_begin();
	if (st)
		goto out;
	t0 = cr_rec_now_ns();
	/* Ctrl-C ends the recording after the runs done so far. */
	cr_rec_signals(1);
	run.nl = nl;
	run.info = &info;
	run.twin = &twin;
	/* --probes' user-defined probes, for the module's runs. */
	st = nl ? cr_rec_traces_setup(nl, &info, &traces, names, nv) : CR_OK;
	for (i = 0; !st && i < o->runs && !cr_rec_interrupted; i++) {
		const char *v = names[i % nv];
		unsigned int k = (i / nv) % nc;
		struct cr_cond_hold hold;
		size_t had = s.nruns;
		char cl[3 * CR_COND_NAME + 48];

		cr_conds_label(conds, k, cl, sizeof(cl));
		st = cr_cond_enter(conds, k, &hold);
		if (st)
			break;
		run.variant = v;
		st = cr_record_one(cr_twin_is_variant(v) ? &cr_rec_twin :
				   &cr_rec_module, &run, &s, &failed);
		/* Whatever happened to the run: the condition ends here. */
		cr_cond_leave(&hold);
		if (!st && s.nruns > had &&
		    cr_conds_tag(conds, k, &s.runs[s.nruns - 1])) {
			fprintf(stderr, "clkstat-report: record: out of memory\n");
			st = CR_ERR;
		}
		/* In the file before the next run begins. */
		if (!st && s.nruns > had)
			st = cr_rec_study_add(&study, &s.runs[s.nruns - 1]);
		if (st)
			break;
		if (!o->quiet && s.nruns > had) {
			char label[CR_VARIANT_MAX + sizeof(cl)];

			snprintf(label, sizeof(label), "%s%s", v, cl);
			cr_progress(&s, i + 1, o->runs, label, t0);
		}
	}
	cr_rec_signals(0);
	/*
	 * Leave the module as it was found: its variant and its recording,
	 * which every run stopped at its end.  But with --keep-module and
	 * only bpf runs, the module measured beside the twin, in the twin's
	 * windows: it stays stopped, its metrics holding what the runs saw
	 * (a "start" now would add whatever comes after).
	 */
	if (nl)
		cr_rec_traces_remove(nl, &traces);
	if (nl && !(o->keep_module && cr_bpf_only(names, nv))) {
		cr_nl_ctrl(nl, "variant", info.variant);
		if (info.recording)
			cr_nl_ctrl(nl, "start", NULL);
	}
	if (st)
		goto out;
	if (!s.nruns) {
		fprintf(stderr, "clkstat-report: record: interrupted before the first run ended; nothing written\n");
		st = CR_ERR;
		goto out;
	}
	if (cr_rec_interrupted)
		fprintf(stderr, "clkstat-report: record: interrupted; the %zu runs done are in %s\n",
			s.nruns, o->output);
	st = cr_rec_study_close(&study, o->quiet);
	if (!st && failed) {
		fprintf(stderr, "clkstat-report: record: the workload failed in some runs (see each run's exit_status)\n");
		st = CR_WORKLOAD;
	}
out:
	/* After a failure: the runs committed stay, said in one line. */
	if (study.study && study.added && !o->quiet)
		fprintf(stderr, "record: the %zu runs before stay in %s\n",
			study.added, o->output);
	if (cr_rec_study_close(&study, 1) && !st)
		st = CR_ERR;
	if (o->workload_fd >= 0) {
		close(o->workload_fd);
		o->workload_fd = -1;
	}
	cr_snapshot_free(&s);
out_nl:
	/* Whatever ended the runs: the governors back, waited for. */
	if (cr_gov_end() && !st)
		st = CR_ERR;
	cr_nl_close(nl);
	return st;
}

/* ---- the command line ---- */

enum { O_RUNS = CR_OPT_RECORD, O_DURATION, O_VARIANTS, O_PROBES,
	O_FRAC_BITS, O_KEEP_MODULE, O_WORKLOAD_ONLY, O_TAG, O_EVENTS,
	O_WORKLOAD_OUTPUT, O_APPEND_RUNS };

static struct cr_record_opts cr_rec = {
	.output = "clkstat.db", .runs = 1, .duration = 1.0, .frac_bits = -1,
	.workload_fd = -1,
};
static int cr_rec_duration_set;

static int cr_record_take(int c, const char *v)
{
	unsigned long ul;
	char *end, err[512];
	int e;

	switch (c) {
	case 'o':
		cr_rec.output = v;
		break;
	case O_TAG:
		e = cr_meta_tag_arg(&cr_rec.tags, v, err, sizeof(err));
		if (e == -ENOMEM) {
			fprintf(stderr, "clkstat-report: out of memory\n");
			return CR_ERR;
		}
		if (e) {
			fprintf(stderr, "clkstat-report: record: %s\n", err);
			return CR_USAGE;
		}
		break;
	case 'q':
		cr_rec.quiet = 1;
		break;
	case O_WORKLOAD_OUTPUT:
		cr_rec.workload_output = v;
		break;
	case O_APPEND_RUNS:
		cr_rec.append = 1;
		break;
	case O_RUNS:
		if (cr_parse_ulong("--runs (1 to 1000000)", v, 1, 1000000, &ul))
			return CR_USAGE;
		cr_rec.runs = ul;
		break;
	case O_EVENTS:
		if (cr_parse_ulong("--events (0 to 10000000)", v, 0, 10000000,
				   &ul))
			return CR_USAGE;
		cr_rec.events = ul;
		break;
	case O_DURATION:
		errno = 0;
		cr_rec.duration = strtod(v, &end);
		if (errno || *end || !*v || !(cr_rec.duration > 0) ||
		    cr_rec.duration > 86400)
			return cr_bad_number("--duration (seconds, above 0, at most 86400)",
					     v);
		cr_rec_duration_set = 1;
		break;
	case O_VARIANTS:
		cr_rec.variants = v;
		break;
	case O_PROBES:
		if (strlen(v) >= CR_PROBES_MAX) {
			fprintf(stderr, "clkstat-report: record: --probes: longer than %d bytes\n",
				CR_PROBES_MAX - 1);
			return CR_USAGE;
		}
		cr_rec.probes = v;
		break;
	case O_FRAC_BITS:
		if (cr_parse_ulong("--frac-bits (0 to 5)", v, 0,
				   CLKSTAT_FRAC_BITS_MAX, &ul))
			return CR_USAGE;
		cr_rec.frac_bits = ul;
		break;
	case O_KEEP_MODULE:
		cr_rec.keep_module = 1;
		break;
	default: /* O_WORKLOAD_ONLY */
		cr_rec.workload_only = 1;
		break;
	}
	return CR_OK;
}

static const struct option cr_record_table[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "append", no_argument, NULL, O_APPEND_RUNS },
	{ "runs", required_argument, NULL, O_RUNS },
	{ "duration", required_argument, NULL, O_DURATION },
	{ "variants", required_argument, NULL, O_VARIANTS },
	{ "probes", required_argument, NULL, O_PROBES },
	{ "frac-bits", required_argument, NULL, O_FRAC_BITS },
	{ "keep-module", no_argument, NULL, O_KEEP_MODULE },
	{ "workload-only", no_argument, NULL, O_WORKLOAD_ONLY },
	{ "tag", required_argument, NULL, O_TAG },
	{ "events", required_argument, NULL, O_EVENTS },
	{ "quiet", no_argument, NULL, 'q' },
	{ "workload-output", required_argument, NULL, O_WORKLOAD_OUTPUT },
	{ NULL, 0, NULL, 0 },
};

static const struct cr_optset cr_record_opts = {
	.opts = cr_record_table,
	.take = cr_record_take,
	.help =
	"  -o, --output FILE   the study file to write, each run committed as\n"
	"                      it ends (default clkstat.db; not a .json name:\n"
	"                      export writes JSON from the study)\n"
	"      --append        add the runs to the study FILE already holds\n"
	"                      (its metadata must pool with this machine's)\n"
	"      --runs N        number of runs (default 1)\n"
	"      --duration S    seconds per run without COMMAND (default 1)\n"
	"      --variants A,B  variants alternated run by run (module\n"
	"                      variants and the BPF twin's bpf-kprobe, bpf-fentry, bpf-tp)\n"
	"      --probes LIST   the twin's probes (default: the module's), and\n"
	"                      user-defined probes (func:F, sec:A-B, tp:X-Y) traced\n"
	"                      for the module's runs and untraced after them\n"
	"      --frac-bits K   the twin's frac_bits (default: the module's)\n"
	"      --keep-module   leave the module attached during twin runs\n"
	"      --workload-only every run sees only COMMAND's own tasks (the\n"
	"                      module's tgid filter, the twin's pid filter)\n"
	"      --tag K=V       label the recording (repeatable; info shows\n"
	"                      them, --compare tag:K=V groups by them)\n"
	"      --events N      keep each run's event log, at most N events\n"
	"                      (1 to 10000000; the module needs events=N), with\n"
	"                      run_start/run_end markers and clock pairs\n"
	"  -q, --quiet         no progress lines (one a run, on stderr)\n"
	"      --workload-output FILE  the workload's stdout and stderr appended\n"
	"                      to FILE, apart from record's progress\n",
};

static int cr_record_check(const struct cr_cli *cli)
{
	if (cr_conds_check(&cr_rec.tags))
		return CR_USAGE;
	if (!cli->command && cr_rec.workload_output) {
		fprintf(stderr, "clkstat-report: record: --workload-output is for runs of a COMMAND\n");
		return CR_USAGE;
	}
	if (cli->command && cr_rec_duration_set) {
		fprintf(stderr, "clkstat-report: record: --duration is for runs without a COMMAND (a run lasts as long as its COMMAND)\n");
		return CR_USAGE;
	}
	return CR_OK;
}

static int cr_record_cmd(struct cr_cli *cli)
{
	int st;

	cr_rec.command = cli->command;
	st = cr_record(&cr_rec);
	cr_meta_free(&cr_rec.tags);
	return st;
}

static const struct cr_optset *const cr_record_optsets[] = {
	&cr_record_opts, &cr_record_cond_opts, NULL,
};

const struct cr_command cr_cmd_record = {
	.name = "record",
	.summary = "record runs into a study file, alternating variants",
	.synopsis =
	"       clkstat-report record [-o FILE [--append]] [--runs N] [--duration S]\n"
	"                             [--variants A,B] [--probes LIST] [--frac-bits K]\n"
	"                             [--keep-module] [--workload-only] [-q]\n"
	"                             [--workload-output FILE] [--tag KEY=VALUE]...\n"
	"                             [--events N] [--cstates LIST] [--load LIST]\n"
	"                             [--governors LIST] [-- COMMAND [ARG...]]\n",
	.opts = cr_record_optsets,
	.takes_command = 1,
	.check = cr_record_check,
	.run = cr_record_cmd,
};

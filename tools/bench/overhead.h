/* SPDX-License-Identifier: GPL-2.0 */
/*
 * overhead.h - the overhead benchmark (clkstat-report overhead): the
 * per-event cost of every hook variant, module and BPF, on one target in
 * one run (overhead.c), of userspace handshake points
 * (overhead_handshake.c), and the throughput a wakeup storm keeps under
 * each variant (overhead_storm.c), and what the BPF twin's programs cost
 * per run on real wakeups (overhead_handlers.c); printed by
 * overhead_render.c.  The BPF programs are overhead.bpf.c, loaded by
 * overhead_bpf.c, and overhead_floor.bpf.c (overhead_handlers.c).
 */
#ifndef CLKSTAT_BENCH_OVERHEAD_H
#define CLKSTAT_BENCH_OVERHEAD_H

#include <stdint.h>
#include <stdio.h>

#define CR_OVH_HB_DIR	"/sys/kernel/debug/clkstat_hookbench"

/*
 * The variants only the benchmark has, beside the catalog's
 * (kmod/uapi/clkstat_catalog.h): clkstat_hookbench's kretprobe and
 * overhead.bpf.c's return probes.
 */
#define CR_OVH_KRETPROBE	"kretprobe"
#define CR_OVH_BPF_KRETPROBE	"bpf-kretprobe"
#define CR_OVH_BPF_FEXIT	"bpf-fexit"
#define CR_OVH_MAX_ROWS	24
#define CR_OVH_MAX_ROUNDS	100

enum { CR_OVH_DISPATCH = 1, CR_OVH_HANDSHAKE = 2, CR_OVH_STORM = 4,
       CR_OVH_HANDLERS = 8 };

struct cr_ovh_opts {
	unsigned long calls;		/* hot calls per measurement */
	unsigned long cold_calls;	/* per row, over all rounds */
	unsigned int rounds;		/* interleaved rounds: median, IQR */
	unsigned long hs_calls;		/* handshake events per row */
	unsigned int storm_rounds;
	unsigned int storm_loops;	/* hackbench -l */
	unsigned long hd_rounds;	/* handlers: ping-pong rounds per run */
	unsigned int sections;		/* CR_OVH_* */
	int json;
	/*
	 * --icount: the guest runs under QEMU's -icount shift=0, where
	 * one ns of guest time is one instruction: figures are labelled
	 * instructions and cold calls (no caches modelled) are skipped.
	 */
	int insn;
	const char *insn_file;		/* --insn FILE: an --icount --json run */
};

/* Median and quartiles of a sample; NaN when not measured. */
struct cr_ovh_q {
	double p50, q1, q3;
};

/*
 * One dispatch row: a hookbench run mode with a variant attached (or
 * none).  Per call, in the run's unit (ns, or instructions with --unit
 * insn); NaN when not measured.  hot[] holds each round's figure,
 * added[] the same round's minus its base row's.
 */
struct cr_ovh_row {
	const char *name;
	const char *mode;		/* the hookbench's run mode */
	const char *base;		/* the row subtracted; NULL: none */
	int hits_want;			/* CR_OVH_HITS_* */
	const char *note;		/* why not measured */
	double hot[CR_OVH_MAX_ROUNDS], added[CR_OVH_MAX_ROUNDS];
	unsigned int nhot;
	double *cold;			/* each cold call, over all rounds */
	unsigned int ncold;
	struct cr_ovh_q hot_q, added_q;
	double cold_p10, cold_p50, cold_p90;
	double insn, insn_added, insn_iqr; /* from --insn; NaN: none */
	uint64_t hot_calls, hot_hits;	/* the last hot round's */
	uint64_t cold_calls, cold_hits;	/* over all rounds */
};

/* What a row's handler count must be: 0, the calls, or either. */
enum { CR_OVH_HITS_NONE, CR_OVH_HITS_CALLS, CR_OVH_HITS_ANY };

struct cr_ovh_hs_row {
	const char *name;
	double ns;			/* per event; negative: not measured */
	unsigned long events;
	const char *note;		/* why not measured, or what it is */
};

struct cr_ovh_storm_row {
	const char *name;
	unsigned int n;			/* rounds measured */
	double median_s;		/* median run time */
	double ratio_median, ratio_min, ratio_max; /* throughput / none's */
	double ratio_q1, ratio_q3;	/* the ratios' quartiles */
	const char *note;		/* why not measured */
};

/* The handlers section: one twin program's cost per run. */
struct cr_ovh_hd_prog {
	const char *prog, *role;	/* twin.h's cr_twin_prog_stat */
	char target[64];
	uint64_t runs;
	double per_run;			/* run_time_ns / run_cnt */
	double body;			/* per_run minus the run's floor */
};

#define CR_OVH_HD_PROGS	16

/* One run of the handlers section: a twin variant with some probes. */
struct cr_ovh_hd_run {
	const char *variant, *probes;
	const char *note;		/* why not measured */
	double floor;			/* the empty program's per run */
	uint64_t floor_runs;
	struct cr_ovh_hd_prog progs[CR_OVH_HD_PROGS];
	unsigned int nprogs;
	/* wakeup + enqueue (ttwu runs), + the first read (ttwu,tkread) */
	double pair, triple;		/* bodies; NaN: not in this run */
	const char *first_read;		/* the triple's read program */
};

#define CR_OVH_HD_RUNS	5

struct cr_ovh_result {
	char kernel[160];
	char machine[128];
	char clocksource[32];		/* at the start */
	char dispatch_cs[32], hs_cs[32], storm_cs[32]; /* each section's */
	char probes[128];		/* clkstat.ko's, for the storm */
	int cpu;
	struct cr_ovh_row rows[CR_OVH_MAX_ROWS];
	unsigned int nrows;
	struct cr_ovh_hs_row hs[8];
	unsigned int nhs;
	struct cr_ovh_storm_row storm[CR_OVH_MAX_ROWS];
	unsigned int nstorm;
	const char *storm_cmd;
	const char *storm_baseline;	/* what "none" was in the storm */
	/* The limit of a hook: a bare call plus one per-CPU add (or NaN). */
	double limit, limit_insn;
	/* The handlers section, and clkstat.ko's pair and triple beside. */
	struct cr_ovh_hd_run hd[CR_OVH_HD_RUNS];
	unsigned int nhd;
	double hd_mod_pair, hd_mod_triple;	/* NaN: not measured */
	const char *hd_mod_note;
	char hd_cs[32];
	/* --insn: where the instructions came from. */
	char insn_kernel[160], insn_cs[32];
};

/* The command: checks, runs the sections, prints. Returns a status.h. */
int cr_overhead(const struct cr_ovh_opts *o);

/* overhead_hookbench.c: the hookbench control files. */
int cr_ovh_hb_attach(const char *variant);
/*
 * Write a command to a hookbench file; errors say which and why, but for
 * EINVAL when @quiet_einval (a run mode this module may not have): then
 * *@einval is set and the status is CR_ERR.
 */
int cr_ovh_hb_write_q(const char *file, const char *cmd, int quiet_einval,
		      int *einval);
/* One run ("hot N", ...); fills ns (the whole loop), hits and cpu. */
int cr_ovh_hb_run(const char *mode, unsigned long n, uint64_t *ns,
		  uint64_t *hits, int *cpu);

/* overhead_bpf.c: the BPF side (a bpftool skeleton). */
struct cr_ovh_bpf;
int cr_ovh_bpf_open(struct cr_ovh_bpf **out);
/* Attach one program by variant (bpf-kprobe, ..., uprobe); one at a time. */
int cr_ovh_bpf_attach(struct cr_ovh_bpf *b, const char *variant);
void cr_ovh_bpf_detach(struct cr_ovh_bpf *b);
/* The programs' count over every CPU, or -1 when the map read failed. */
int64_t cr_ovh_bpf_hits(struct cr_ovh_bpf *b);
void cr_ovh_bpf_close(struct cr_ovh_bpf *b);
int cr_ovh_is_bpf(const char *variant);
/* The empty function the uprobe sits on. */
void cr_ovh_uprobe_target(void);

int cr_ovh_dispatch(const struct cr_ovh_opts *o, struct cr_ovh_bpf *b,
		    struct cr_ovh_result *r);
int cr_ovh_handshake(const struct cr_ovh_opts *o, struct cr_ovh_bpf *b,
		     struct cr_ovh_result *r);
int cr_ovh_storm(const struct cr_ovh_opts *o, struct cr_ovh_result *r);
int cr_ovh_handlers(const struct cr_ovh_opts *o, struct cr_ovh_result *r);

struct json_object;

/* overhead_render.c */
int cr_ovh_render_text(FILE *out, const struct cr_ovh_opts *o,
		       const struct cr_ovh_result *r);
int cr_ovh_render_json(FILE *out, const struct cr_ovh_opts *o,
		       const struct cr_ovh_result *r);
/* overhead_render_handlers.c: the handlers section. */
void cr_ovh_text_handlers(FILE *out, const struct cr_ovh_opts *o,
			  const struct cr_ovh_result *r);
int cr_ovh_json_handlers(struct json_object *root,
			 const struct cr_ovh_result *r);

/* overhead_util.c: what every section shares. */
double cr_ovh_now_s(void);
/* The current clocksource into buf ("-" when unreadable). */
void cr_ovh_clocksource(char *buf, size_t size);
/* Sorts v; the p-quantile (0..1) by linear interpolation. */
double cr_ovh_quantile(double *v, unsigned int n, double p);
void cr_ovh_quartiles(const double *v, unsigned int n, struct cr_ovh_q *q);
/* A number, or null when not measured (NaN); -1 when out of memory. */
int cr_ovh_jnum(struct json_object *o, const char *key, double v);
/* --insn: a run's instructions into the rows. Returns a status.h. */
int cr_ovh_insn_merge(const char *file, struct cr_ovh_result *r);

#endif

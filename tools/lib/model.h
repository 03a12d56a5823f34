/* SPDX-License-Identifier: GPL-2.0 */
/*
 * model.h - what clkstat-report holds in memory, whatever it came from (the
 * live module over netlink, or a snapshot file): a snapshot is metadata and
 * one or more runs; a run is a list of metrics; a metric is the all-CPU
 * histogram plus the per-CPU ones, each a sparse, slot-ordered list of
 * non-empty slots exactly as the module keeps them (uapi/clkstat_buckets.h).
 */
#ifndef CLKSTAT_REPORT_MODEL_H
#define CLKSTAT_REPORT_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include "../../kmod/uapi/clkstat_events.h"
#include "../../kmod/uapi/clkstat_netlink_ext.h"

#define CR_NAME_MAX	CLKSTAT_NAME_MAX
#define CR_VARIANT_MAX	CLKSTAT_VARIANT_MAX
#define CR_COUNTERS_MAX	CLKSTAT_MAX_COUNTERS
#define CR_CPU_ALL	CLKSTAT_CPU_ALL

/* A non-empty slot; sum scaled by clkstat_slot_sum_shift() as in the module. */
struct cr_slot {
	uint32_t slot;
	uint64_t count;
	uint64_t sum;
};

/* One CPU's histogram, or the sum over CPUs (cpu == CR_CPU_ALL). */
struct cr_hist {
	uint32_t cpu;
	uint64_t min;		/* UINT64_MAX: no sample */
	uint64_t max;
	size_t nslots;
	struct cr_slot *slots;	/* ascending slot, no zero counts */
};

struct cr_counter {
	char name[CR_NAME_MAX];
	uint64_t value;
};

struct cr_metric {
	char name[CR_NAME_MAX];
	char variant[CR_VARIANT_MAX];
	unsigned int frac_bits;
	int recording;
	int has_resets;		/* live dumps only: snapshot files omit it */
	uint64_t resets;	/* the module's resets of it since load */
	/*
	 * CLOCK_REALTIME ns when its values began (creation or the last
	 * reset; the module's, or a replayed run's start); 0: unknown.
	 */
	uint64_t created_ns;
	size_t ncounters;
	struct cr_counter counters[CR_COUNTERS_MAX];	/* all CPUs */
	struct cr_hist total;
	size_t ncpus;
	struct cr_hist *cpus;	/* CPUs with samples, ascending cpu */
};

/*
 * A pair of clock readings taken back to back by the tool: an event's
 * CLOCK_REALTIME is realtime_ns + (ts - mono_ns).
 */
struct cr_clock_pair {
	int64_t mono_ns;	/* CLOCK_MONOTONIC */
	int64_t realtime_ns;	/* CLOCK_REALTIME */
};

#define CR_CLOCK_PAIRS_MAX	2	/* a run's: at its start, at its end */

/*
 * A run's event log (record --events): the events, oldest first, as the
 * module or the BPF twin logged them (uapi/clkstat_events.h).
 *
 * A snapshot read from JSON holds every run's events.  One read from a
 * study holds none of them (lazy): n is the count, ev is NULL, and
 * cr_run_events_load() reads the run's own from the study when needed,
 * cr_run_events_drop() frees them again, so that a reader of events
 * holds one run's at a time, never a whole recording's.
 */
struct cr_events {
	int present;		/* the run was recorded with its events */
	size_t n, cap;
	struct clkstat_event_rec *ev;	/* NULL while lazy and not loaded */
	int lazy;		/* its events are in the snapshot's source */
	int64_t key;		/* lazy: the run's number in its source */
	uint64_t lost;		/* events logged but not here: overwritten in
				 * a full ring, dropped by a full BPF ring
				 * buffer, or past record's --events limit */
	size_t nclock;
	struct cr_clock_pair clock[CR_CLOCK_PAIRS_MAX];
};

/* Append a copy of e; 0 or -ENOMEM. */
int cr_events_add(struct cr_events *x, const struct clkstat_event_rec *e);
void cr_events_free(struct cr_events *x);
/* An event type's name (uapi/clkstat_events.h), "?" if out of range. */
const char *cr_event_type_name(unsigned int type);
/* The type of a name, or -1. */
int cr_event_type_parse(const char *name);

struct cr_run {
	unsigned int index;		/* 0-based, in recording order */
	char variant[CR_VARIANT_MAX];	/* attached during the run */
	int64_t start_ns, end_ns;	/* CLOCK_REALTIME; 0: unknown */
	int exit_status;		/* of the workload; -1: none/unknown */
	/*
	 * record --workload-only took effect: only the command's own tasks
	 * were seen (the BPF twin's runs with a command).  0: every task
	 * (module variants, which it does not filter); -1: not recorded
	 * (a snapshot written before the key existed).
	 */
	int workload_only;
	unsigned int input;		/* its file: cr_snapshot.inputs[input] */
	size_t nmetrics;
	struct cr_metric *metrics;
	struct cr_events events;	/* record --events, else !present */
	/*
	 * The module's count of hook calls skipped because they came in
	 * again from inside clkstat on the same CPU and context (GET_INFO's
	 * reentered; all hooks).  Live readings only: !has_reentered when
	 * unknown (a snapshot, or a module without the count).
	 */
	int has_reentered;
	uint64_t reentered;
	/*
	 * The run's own tags (record --cstates, --load: "cstate", "load"),
	 * in the order added; --compare tag:K=V looks here before the file's
	 * meta tags.
	 */
	size_t ntags;
	char **tag_names;
	char **tag_values;
};

/* Where and how the runs were taken.  Strings are malloc'd, NULL: unknown. */
struct cr_meta {
	char *tool_version;
	char *module_version;
	char *kernel_release;
	char *clocksource;
	/*
	 * The clock of the module's timestamps (GET_INFO's clock: "tsc",
	 * "mono", ...); the BPF twin's are always "mono" (bpf_ktime_get_ns).
	 * NULL: not known (optional, as conditions).
	 */
	char *clock;
	char *probes;
	char *variants;		/* as --variants, comma separated */
	char *command;		/* the workload, shell words joined; NULL: none */
	char *machine;		/* "vm" or "bare-metal" */
	char *hypervisor;	/* when machine is "vm" and it is known */
	char *cpuidle_driver;
	char *cpuidle_governor;
	char *max_cstate;	/* intel_idle.max_cstate, NULL: no intel_idle */
	char *cmdline;		/* /proc/cmdline */
	char *conditions;	/* record --cstates, --load: e.g. "cstates=qos0,free
				 * load=idle,busy(4)"; NULL: none (optional) */
	char *host;		/* the machine's host name (gethostname());
				 * NULL: not known (optional, version 4) */
	/*
	 * CPU frequency scaling (cpufreq.h): the driver, the governors (one,
	 * or "GOV:CPUS ..." per CPU), boost ("1", "0").  Meaningful only
	 * when cpufreq_recorded: then NULL is none on the machine (no
	 * cpufreq, no boost control); a file written before they were
	 * recorded (snapshot version 4, study schema 1) has 0.
	 */
	char *cpufreq_driver;
	char *cpufreq_governor;
	char *cpufreq_boost;
	int cpufreq_recorded;
	unsigned int frac_bits;
	unsigned int nr_cpus;
	double duration_s;	/* --duration, 0: the command's own length */
	unsigned int events;	/* record --events N: at most N kept per run;
				 * 0: not recorded with events */
	size_t nparams;
	char **param_names;	/* /sys/module/clkstat/parameters/ */
	char **param_values;
	size_t ntags;		/* record --tag KEY=VALUE, in the order given */
	char **tag_names;
	char **tag_values;
};

/*
 * What a snapshot was read from, when it keeps reading it: a study, whose
 * runs' events are read on demand.  load() fills r->events.ev with run
 * r's events (CR_OK, or a status.h status with one line on stderr);
 * close() frees the source.
 */
struct cr_snap_source {
	int (*load)(struct cr_snap_source *src, struct cr_run *r);
	void (*close)(struct cr_snap_source *src);
};

/* One --input file of a snapshot read from several (cr_snapshot_merge()). */
struct cr_input {
	char *path;
	struct cr_meta meta;	/* that file's own */
	struct cr_snap_source *source;	/* that file's, NULL: none */
};

struct cr_snapshot {
	struct cr_meta meta;	/* with several inputs, the first file's */
	size_t nruns;
	struct cr_run *runs;
	size_t ninputs;		/* 0: one snapshot, runs[].input unused */
	struct cr_input *inputs;
	struct cr_snap_source *source;	/* one file's (a study), NULL: none;
					 * freed by cr_snapshot_free() */
};

/*
 * Run r's events, from wherever s keeps them: a no-op when they are held
 * (JSON, the live module, a run recorded without events, or loaded
 * already); else read from the run's source (a study), in time order.
 * Return CR_OK, or CR_CORRUPT, CR_NO_FILE or CR_ERR with one line on
 * stderr (r->events.ev stays NULL).
 */
int cr_run_events_load(const struct cr_snapshot *s, struct cr_run *r);
/*
 * Free what cr_run_events_load() read (a lazy run's events; n stays the
 * count); events that are held (JSON) are kept.
 */
void cr_run_events_drop(struct cr_run *r);

/* The metadata of the file run r came from. */
const struct cr_meta *cr_run_meta(const struct cr_snapshot *s,
				  const struct cr_run *r);
/* The value of tag key in m, or NULL. */
const char *cr_meta_tag(const struct cr_meta *m, const char *key);
/*
 * The machine a file's runs were recorded on: its host tag (record --tag
 * host=NAME: the user's word wins, e.g. for cloned machines that share a
 * name), else meta.host, else NULL.  --compare --unit host and the
 * expositions' host label both go by it.
 */
const char *cr_meta_host(const struct cr_meta *m);
/* The value of run r's own tag key, or NULL. */
const char *cr_run_tag(const struct cr_run *r, const char *key);
/* Add run tag name=value, replacing an earlier value; 0 or -ENOMEM. */
int cr_run_add_tag(struct cr_run *r, const char *name, const char *value);

void cr_hist_free(struct cr_hist *h);
void cr_metric_free(struct cr_metric *m);
void cr_run_free(struct cr_run *r);
void cr_meta_free(struct cr_meta *m);
/* A deep copy of m into d (overwritten); 0 or -ENOMEM (d left empty). */
int cr_meta_copy(struct cr_meta *d, const struct cr_meta *m);
void cr_snapshot_free(struct cr_snapshot *s);

/* Append a zeroed element; return it, or NULL when out of memory. */
struct cr_metric *cr_run_add_metric(struct cr_run *r);
struct cr_run *cr_snapshot_add_run(struct cr_snapshot *s);
int cr_meta_add_param(struct cr_meta *m, const char *name, const char *value);
/*
 * record --tag KEY=VALUE: KEY of letters, digits, '_', '.', '-' (at most
 * CR_TAG_KEY_MAX - 1 bytes), VALUE non-empty, printable, at most
 * CR_TAG_VALUE_MAX - 1 bytes; a KEY given twice is an error.  Return 0,
 * -EINVAL with one line without newline in err, or -ENOMEM.
 */
#define CR_TAG_KEY_MAX		64
#define CR_TAG_VALUE_MAX	256
int cr_meta_tag_arg(struct cr_meta *m, const char *arg, char *err,
		    size_t errlen);
/* Add tag name=value, replacing an earlier value of name; 0 or -ENOMEM. */
int cr_meta_add_tag(struct cr_meta *m, const char *name, const char *value);

/* The metric NAME.VARIANT of a run, or NULL. */
struct cr_metric *cr_run_find(const struct cr_run *r, const char *name,
			      const char *variant);

/*
 * Add src's slots, min, max and counters into dst (same frac_bits; the
 * caller checks).  Per-CPU histograms are added CPU by CPU.  Return 0 or
 * -ENOMEM.
 */
int cr_metric_add(struct cr_metric *dst, const struct cr_metric *src);

/*
 * The runs of a snapshot pooled: one run whose metrics are the sums of
 * every run's metric of the same name and variant (a name in two variants
 * stays two metrics).  Return 0, -ENOMEM or -EINVAL (a metric with two
 * different frac_bits, with a line on stderr).
 */
int cr_snapshot_pool(const struct cr_snapshot *s, struct cr_run *out);

/* Dense slots[CLKSTAT_NSLOTS(frac_bits)] of a histogram; NULL: no memory. */
struct clkstat_slot *cr_hist_dense(const struct cr_hist *h,
				   unsigned int frac_bits);

uint64_t cr_run_samples(const struct cr_run *r);

#endif

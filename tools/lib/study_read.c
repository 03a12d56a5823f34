// SPDX-License-Identifier: GPL-2.0
/*
 * study_read.c - reading a study (study.h) into a struct cr_snapshot:
 * every table but the events read and checked as the JSON reader checks
 * a snapshot (snapshot_check.c's rules), row by row, each failure one
 * line naming the table and the row; each run's events left in the file,
 * read one run at a time when cr_run_events_load() asks (the snapshot's
 * source, which keeps the database open read-only).
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../kmod/uapi/clkstat_buckets.h"
#include "snapshot_check.h"
#include "snapshot_parse.h"
#include "status.h"
#include "study.h"
#include "study_db.h"

/* A run's events: rows first to last of table events. */
struct cr_ev_range {
	int64_t first, last;
};

/* The snapshot's source: the open study. */
struct cr_study_src {
	struct cr_snap_source base;
	sqlite3 *db;
	char *path;
	sqlite3_stmt *ev;		/* a run's events, prepared once */
	int type_map[256];		/* events.type -> CLKSTAT_EV_*, -1 */
	size_t nruns;
	struct cr_ev_range *range;	/* by run */
};

/* Reading: the database, the row being read, the one-line error. */
struct cr_rd {
	sqlite3 *db;
	sqlite3_stmt *st;
	char row[200];		/* "runs row 3", "slots (hist 2, slot 40)" */
	char err[1024];
};

static int rd_fail(struct cr_rd *d, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int rd_fail(struct cr_rd *d, int status, const char *fmt, ...)
{
	char msg[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(d->err, sizeof(d->err), "%s: %s", d->row, msg);
	return status;
}

static int rd_nomem(struct cr_rd *d)
{
	snprintf(d->err, sizeof(d->err), "out of memory");
	return CR_ERR;
}

static int rd_prepare(struct cr_rd *d, const char *sql)
{
	int rc = sqlite3_prepare_v2(d->db, sql, -1, &d->st, NULL);

	if (rc == SQLITE_OK)
		return CR_OK;
	d->st = NULL;
	return cr_db_fail(d->db, rc, 1, sql, d->err, sizeof(d->err));
}

/* The next row (1), the end (0), or a failure (-status, d->err set). */
static int rd_step(struct cr_rd *d, const char *table)
{
	int rc = sqlite3_step(d->st);

	if (rc == SQLITE_ROW)
		return 1;
	if (rc == SQLITE_DONE)
		return 0;
	return -cr_db_fail(d->db, rc, 1, table, d->err, sizeof(d->err));
}

static void rd_done(struct cr_rd *d)
{
	sqlite3_finalize(d->st);
	d->st = NULL;
}

static const char *rd_type(int t)
{
	switch (t) {
	case SQLITE_INTEGER:
		return "an integer";
	case SQLITE_FLOAT:
		return "a real";
	case SQLITE_TEXT:
		return "text";
	case SQLITE_BLOB:
		return "a blob";
	default:
		return "null";
	}
}

/* Column i (name) an integer in [min, max], or NULL where nullable. */
static int rd_int(struct cr_rd *d, int i, const char *name, int64_t min,
		  int64_t max, int nullable, int64_t *out, int *isnull)
{
	int t = sqlite3_column_type(d->st, i);

	if (isnull)
		*isnull = t == SQLITE_NULL;
	if (t == SQLITE_NULL && nullable)
		return CR_OK;
	if (t != SQLITE_INTEGER)
		return rd_fail(d, CR_CORRUPT, "%s is %s, not an integer%s",
			       name, rd_type(t), nullable ? " or null" : "");
	*out = sqlite3_column_int64(d->st, i);
	if (*out < min || *out > max)
		return rd_fail(d, CR_CORRUPT, "%s %" PRId64 " is outside [%" PRId64 ", %" PRId64 "]",
			       name, *out, min, max);
	return CR_OK;
}

/* Column i (name) a u64 (study_schema.sql: its 64 bits), or NULL. */
static int rd_u64(struct cr_rd *d, int i, const char *name, int nullable,
		  uint64_t *out, int *isnull)
{
	int64_t v = 0;
	int st = rd_int(d, i, name, INT64_MIN, INT64_MAX, nullable, &v, isnull);

	*out = cr_db_u64(v);
	return st;
}

/*
 * Column i (name) text without a NUL byte (the model's strings are C
 * strings), or NULL where nullable (*out NULL).
 */
static int rd_text(struct cr_rd *d, int i, const char *name, int nullable,
		   const char **out, size_t *len)
{
	int t = sqlite3_column_type(d->st, i);

	*out = NULL;
	*len = 0;
	if (t == SQLITE_NULL && nullable)
		return CR_OK;
	if (t != SQLITE_TEXT)
		return rd_fail(d, CR_CORRUPT, "%s is %s, not text%s", name,
			       rd_type(t), nullable ? " or null" : "");
	*out = (const char *)sqlite3_column_text(d->st, i);
	*len = (size_t)sqlite3_column_bytes(d->st, i);
	if (!*out)
		return rd_nomem(d);
	if (strlen(*out) != *len)
		return rd_fail(d, CR_CORRUPT, "%s holds a NUL byte", name);
	return CR_OK;
}

/* Column i a name of at most size - 1 bytes, into out[size]. */
static int rd_name(struct cr_rd *d, int i, const char *name, char *out,
		   size_t size)
{
	char msg[256];
	const char *s;
	size_t len;
	int st;

	st = rd_text(d, i, name, 0, &s, &len);
	if (st)
		return st;
	if (cr_check_name(s, len, size, msg, sizeof(msg)))
		return rd_fail(d, CR_CORRUPT, "%s %s", name, msg);
	memcpy(out, s, len + 1);
	return CR_OK;
}

/* ---------------------------------------------------------------- */
/* Metadata.                                                         */

static int rd_meta_row(struct cr_rd *d, struct cr_meta *m)
{
	const char *s;
	int64_t v;
	double dv;
	size_t i, len;
	int st, t, col = (int)cr_nmeta_strs;

	for (i = 0; i < cr_nmeta_strs; i++) {
		st = rd_text(d, (int)i, cr_meta_strs[i].key, 1, &s, &len);
		if (st)
			return st;
		if (s && !(*cr_meta_str(m, i) = strdup(s)))
			return rd_nomem(d);
	}
	st = rd_int(d, col, "frac_bits", 0, CLKSTAT_FRAC_BITS_MAX, 0, &v,
		    NULL);
	if (st)
		return st;
	m->frac_bits = (unsigned int)v;
	st = rd_int(d, col + 1, "nr_cpus", 0, UINT_MAX, 0, &v, NULL);
	if (st)
		return st;
	m->nr_cpus = (unsigned int)v;
	t = sqlite3_column_type(d->st, col + 2);
	if (t != SQLITE_FLOAT && t != SQLITE_INTEGER)
		return rd_fail(d, CR_CORRUPT, "duration_s is %s, not a number",
			       rd_type(t));
	dv = sqlite3_column_double(d->st, col + 2);
	if (!isfinite(dv) || dv < 0)
		return rd_fail(d, CR_CORRUPT, "duration_s %g: not a finite number of seconds, 0 or more",
			       dv);
	m->duration_s = dv;
	st = rd_int(d, col + 3, "events", 0, UINT_MAX, 0, &v, NULL);
	if (st)
		return st;
	m->events = (unsigned int)v;
	st = rd_int(d, col + 4, "cpufreq_recorded", 0, 1, 0, &v, NULL);
	if (st)
		return st;
	m->cpufreq_recorded = (int)v;
	/* Not recorded: nothing to say about them (the schema's CHECK). */
	for (i = 0; i < cr_nmeta_strs && !m->cpufreq_recorded; i++)
		if (cr_meta_str_cpufreq(i) && *cr_meta_str(m, i))
			return rd_fail(d, CR_CORRUPT, "%s with cpufreq_recorded 0",
				       cr_meta_strs[i].key);
	return CR_OK;
}

/*
 * A study of schema version 1 has no column of a newer field (the
 * cpufreq ones): NULL in their place, and cpufreq_recorded 0.
 */
static int rd_meta(struct cr_rd *d, struct cr_meta *m)
{
	char sql[1024];
	size_t i, n = 0;
	int64_t version;
	int st, r;

	st = cr_db_int(d->db, "PRAGMA user_version", &version, d->err,
		       sizeof(d->err));
	if (st)
		return st;
	n += snprintf(sql, sizeof(sql), "SELECT ");
	for (i = 0; i < cr_nmeta_strs; i++)
		n += snprintf(sql + n, sizeof(sql) - n, "%s, ",
			      cr_meta_strs[i].study <= version ?
			      cr_meta_strs[i].key : "NULL");
	snprintf(sql + n, sizeof(sql) - n,
		 "frac_bits, nr_cpus, duration_s, events, %s FROM meta",
		 version >= 2 ? "cpufreq_recorded" : "0");
	st = rd_prepare(d, sql);
	if (st)
		return st;
	snprintf(d->row, sizeof(d->row), "meta");
	r = rd_step(d, "meta");
	if (r == 0)
		st = rd_fail(d, CR_CORRUPT, "no row: the study has no metadata");
	else if (r < 0)
		st = -r;
	else
		st = rd_meta_row(d, m);
	if (!st) {
		r = rd_step(d, "meta");
		if (r > 0)
			st = rd_fail(d, CR_CORRUPT, "more than one row");
		else if (r < 0)
			st = -r;
	}
	rd_done(d);
	return st;
}

static int rd_params(struct cr_rd *d, struct cr_meta *m)
{
	const char *name, *value;
	size_t nlen, vlen, i;
	int64_t pos;
	int st, r;

	st = rd_prepare(d, "SELECT pos, name, value FROM meta_params ORDER BY pos");
	while (!st && (r = rd_step(d, "meta_params")) > 0) {
		pos = sqlite3_column_int64(d->st, 0);
		snprintf(d->row, sizeof(d->row), "meta_params row %" PRId64,
			 pos);
		st = rd_text(d, 1, "name", 0, &name, &nlen);
		if (!st)
			st = rd_text(d, 2, "value", 0, &value, &vlen);
		if (!st && !nlen)
			st = rd_fail(d, CR_CORRUPT, "empty parameter name");
		for (i = 0; !st && i < m->nparams; i++)
			if (!strcmp(m->param_names[i], name))
				st = rd_fail(d, CR_CORRUPT, "parameter %s twice",
					     m->param_names[i]);
		if (!st && cr_meta_add_param(m, name, value))
			st = rd_nomem(d);
	}
	if (!st && r < 0)
		st = -r;
	rd_done(d);
	return st;
}

static int rd_tags(struct cr_rd *d, struct cr_meta *m)
{
	const char *name, *value;
	char msg[512];
	size_t nlen, vlen;
	int64_t pos;
	int st, r;

	st = rd_prepare(d, "SELECT pos, name, value FROM meta_tags ORDER BY pos");
	while (!st && (r = rd_step(d, "meta_tags")) > 0) {
		pos = sqlite3_column_int64(d->st, 0);
		snprintf(d->row, sizeof(d->row), "meta_tags row %" PRId64, pos);
		st = rd_text(d, 1, "name", 0, &name, &nlen);
		if (!st)
			st = rd_text(d, 2, "value", 0, &value, &vlen);
		if (!st) {
			st = cr_check_tag(m, name, value, msg, sizeof(msg));
			if (st)
				st = rd_fail(d, st, "%s", msg);
		}
	}
	if (!st && r < 0)
		st = -r;
	rd_done(d);
	return st;
}

int cr_study_load_meta(sqlite3 *db, struct cr_meta *m, char *err,
		       size_t errlen)
{
	struct cr_rd d = { .db = db };
	int st;

	memset(m, 0, sizeof(*m));
	st = rd_meta(&d, m);
	if (!st)
		st = rd_params(&d, m);
	if (!st)
		st = rd_tags(&d, m);
	if (st) {
		cr_meta_free(m);
		snprintf(err, errlen, "%s", d.err);
	}
	return st;
}

/* ---------------------------------------------------------------- */
/* Runs and their tags.                                              */

static int rd_event_types(struct cr_rd *d, struct cr_study_src *src)
{
	const char *name;
	int64_t type;
	size_t len;
	int st, r;

	memset(src->type_map, 0xff, sizeof(src->type_map));
	st = rd_prepare(d, "SELECT type, name FROM event_types ORDER BY type");
	while (!st && (r = rd_step(d, "event_types")) > 0) {
		snprintf(d->row, sizeof(d->row), "event_types row");
		st = rd_int(d, 0, "type", 0, 255, 0, &type, NULL);
		if (!st)
			st = rd_text(d, 1, "name", 0, &name, &len);
		/* A type this tool does not know: refused in an event. */
		if (!st)
			src->type_map[type] = cr_event_type_parse(name);
	}
	if (!st && r < 0)
		st = -r;
	rd_done(d);
	return st;
}

/* The events columns of a run's row (6 to 14): counts, ends, clocks. */
static int rd_run_events(struct cr_rd *d, struct cr_run *r,
			 struct cr_ev_range *rg)
{
	struct cr_events *x = &r->events;
	int64_t present, n, v[4];
	int st, null[4], i;

	st = rd_int(d, 6, "events_present", 0, 1, 0, &present, NULL);
	if (!st)
		st = rd_int(d, 7, "events_n", 0, INT64_MAX, 0, &n, NULL);
	if (!st)
		st = rd_u64(d, 8, "events_lost", 0, &x->lost, NULL);
	if (!st)
		st = rd_int(d, 9, "first_event", 1, INT64_MAX, 1, &rg->first,
			    &null[0]);
	if (!st)
		st = rd_int(d, 10, "last_event", 1, INT64_MAX, 1, &rg->last,
			    &null[1]);
	if (st)
		return st;
	if (null[0] != null[1] || null[0] != !n ||
	    (n && (rg->last < rg->first || rg->last - rg->first != n - 1)))
		return rd_fail(d, CR_CORRUPT, "events_n %" PRId64 " with first_event %s and last_event %s",
			       n, null[0] ? "null" : "set",
			       null[1] ? "null" : "set");
	if ((uint64_t)n > SIZE_MAX / sizeof(struct clkstat_event_rec))
		return rd_fail(d, CR_CORRUPT, "events_n %" PRId64 ": more than memory could hold",
			       n);
	if (!present && (n || x->lost))
		return rd_fail(d, CR_CORRUPT, "events_n %" PRId64 " and events_lost %" PRIu64 " for a run recorded without events",
			       n, x->lost);
	for (i = 0; i < 4; i++) {
		st = rd_int(d, 11 + i, i & 1 ? "clock realtime_ns" :
			    "clock mono_ns", 0, INT64_MAX, 1, &v[i], &null[i]);
		if (st)
			return st;
	}
	if (null[0] != null[1] || null[2] != null[3] ||
	    (null[0] && !null[2]) || (!present && !null[0]))
		return rd_fail(d, CR_CORRUPT, "clock pairs: clock0 and clock1 each both null or both set, clock1 only after clock0, none without events");
	x->present = (int)present;
	x->n = (size_t)n;
	x->lazy = n > 0;
	x->key = r->index;
	for (i = 0; i < 2 && !null[2 * i]; i++) {
		x->clock[i].mono_ns = v[2 * i];
		x->clock[i].realtime_ns = v[2 * i + 1];
		x->nclock++;
	}
	return CR_OK;
}

static int rd_runs(struct cr_rd *d, struct cr_snapshot *s,
		   struct cr_study_src *src)
{
	static const char sql[] =
		"SELECT run, variant, start_ns, end_ns, exit_status, "
		"workload_only, events_present, events_n, events_lost, "
		"first_event, last_event, clock0_mono_ns, clock0_realtime_ns, "
		"clock1_mono_ns, clock1_realtime_ns FROM runs ORDER BY run";
	struct cr_ev_range *rg;
	struct cr_run *r;
	int64_t run, v;
	int st, res, null;

	st = rd_prepare(d, sql);
	while (!st && (res = rd_step(d, "runs")) > 0) {
		snprintf(d->row, sizeof(d->row), "runs row");
		st = rd_int(d, 0, "run", 0, INT_MAX, 0, &run, NULL);
		if (st)
			break;
		snprintf(d->row, sizeof(d->row), "runs row %" PRId64, run);
		if ((size_t)run != s->nruns) {
			st = rd_fail(d, CR_CORRUPT, "run %zu is missing: runs are numbered from 0 without a gap",
				     s->nruns);
			break;
		}
		rg = realloc(src->range, (s->nruns + 1) * sizeof(*rg));
		if (!rg) {
			st = rd_nomem(d);
			break;
		}
		src->range = rg;
		r = cr_snapshot_add_run(s);
		if (!r) {
			st = rd_nomem(d);
			break;
		}
		src->nruns = s->nruns;
		rg[run] = (struct cr_ev_range){ 0, 0 };
		st = rd_name(d, 1, "variant", r->variant, sizeof(r->variant));
		if (!st)
			st = rd_int(d, 2, "start_ns", 0, INT64_MAX, 0,
				    &r->start_ns, NULL);
		if (!st)
			st = rd_int(d, 3, "end_ns", 0, INT64_MAX, 0,
				    &r->end_ns, NULL);
		if (!st)
			st = rd_int(d, 4, "exit_status", -1, CR_SNAP_EXIT_MAX,
				    0, &v, NULL);
		if (st)
			break;
		r->exit_status = (int)v;
		st = rd_int(d, 5, "workload_only", 0, 1, 1, &v, &null);
		if (st)
			break;
		r->workload_only = null ? -1 : (int)v;
		st = rd_run_events(d, r, &rg[run]);
	}
	if (!st && res < 0)
		st = -res;
	rd_done(d);
	return st;
}

static int rd_run_tags(struct cr_rd *d, struct cr_snapshot *s)
{
	struct cr_meta chk = { 0 };
	const char *name, *value;
	int64_t run, pos, cur = -1;
	char msg[512];
	size_t nlen, vlen;
	int st, r;

	st = rd_prepare(d, "SELECT run, pos, name, value FROM run_tags ORDER BY run, pos");
	while (!st && (r = rd_step(d, "run_tags")) > 0) {
		run = sqlite3_column_int64(d->st, 0);
		pos = sqlite3_column_int64(d->st, 1);
		snprintf(d->row, sizeof(d->row), "run_tags (run %" PRId64 ", pos %" PRId64 ")",
			 run, pos);
		st = rd_int(d, 0, "run", 0, (int64_t)s->nruns - 1, 0, &run,
			    NULL);
		if (!st)
			st = rd_text(d, 2, "name", 0, &name, &nlen);
		if (!st)
			st = rd_text(d, 3, "value", 0, &value, &vlen);
		if (st)
			break;
		/* --tag's checks, on a scratch list per run. */
		if (run != cur) {
			cr_meta_free(&chk);
			cur = run;
		}
		st = cr_check_tag(&chk, name, value, msg, sizeof(msg));
		if (st)
			st = rd_fail(d, st, "%s", msg);
		else if (cr_run_add_tag(&s->runs[run], name, value))
			st = rd_nomem(d);
	}
	if (!st && r < 0)
		st = -r;
	cr_meta_free(&chk);
	rd_done(d);
	return st;
}

/* ---------------------------------------------------------------- */
/* Metrics, counters, histograms, slots.                             */

/* A metric or a histogram by its id in the file. */
struct cr_ref {
	int64_t id;
	size_t run, metric;
	long cpu;		/* histograms: index in cpus[], -1 the total */
	uint64_t total;		/* histograms: samples so far */
	size_t cap;		/* histograms: slots[] allocated */
	int have_total;		/* metrics: its cpu -1 row was read */
	int min_null;		/* histograms: min and max were NULL */
};

struct cr_refs {
	size_t n;
	struct cr_ref *v;
};

static struct cr_ref *cr_ref_add(struct cr_refs *refs)
{
	struct cr_ref *v = realloc(refs->v, (refs->n + 1) * sizeof(*v));

	if (!v)
		return NULL;
	refs->v = v;
	memset(&v[refs->n], 0, sizeof(*v));
	return &v[refs->n++];
}

static int cr_ref_cmp(const void *a, const void *b)
{
	const struct cr_ref *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static struct cr_ref *cr_ref_find(const struct cr_refs *refs, int64_t id)
{
	struct cr_ref key = { .id = id };

	return refs->n ? bsearch(&key, refs->v, refs->n, sizeof(key),
				 cr_ref_cmp) : NULL;
}

/* After a pass: sorted by id, and no id twice. */
static int cr_refs_sort(struct cr_rd *d, struct cr_refs *refs,
			const char *table)
{
	size_t i;

	if (refs->n)
		qsort(refs->v, refs->n, sizeof(*refs->v), cr_ref_cmp);
	for (i = 1; i < refs->n; i++) {
		if (refs->v[i].id != refs->v[i - 1].id)
			continue;
		snprintf(d->row, sizeof(d->row), "%s row %" PRId64, table,
			 refs->v[i].id);
		return rd_fail(d, CR_CORRUPT, "the id twice");
	}
	return CR_OK;
}

static int rd_metrics(struct cr_rd *d, struct cr_snapshot *s,
		      struct cr_refs *mref)
{
	static const char sql[] =
		"SELECT metric, run, pos, name, variant, frac_bits, recording, "
		"created_ns FROM metrics ORDER BY run, pos";
	struct cr_metric *m;
	struct cr_ref *ref;
	struct cr_run *r;
	int64_t id, run, pos, v;
	int st, res;

	st = rd_prepare(d, sql);
	while (!st && (res = rd_step(d, "metrics")) > 0) {
		id = sqlite3_column_int64(d->st, 0);
		snprintf(d->row, sizeof(d->row), "metrics row %" PRId64, id);
		st = rd_int(d, 1, "run", 0, (int64_t)s->nruns - 1, 0, &run,
			    NULL);
		if (!st)
			st = rd_int(d, 2, "pos", 0, INT_MAX, 0, &pos, NULL);
		if (st)
			break;
		r = &s->runs[run];
		if ((size_t)pos != r->nmetrics) {
			st = rd_fail(d, CR_CORRUPT, "pos %" PRId64 " in run %" PRId64 ", where pos %zu comes next: a run's metrics are numbered from 0 without a gap",
				     pos, run, r->nmetrics);
			break;
		}
		m = cr_run_add_metric(r);
		ref = m ? cr_ref_add(mref) : NULL;
		if (!ref) {
			st = rd_nomem(d);
			break;
		}
		*ref = (struct cr_ref){ .id = id, .run = (size_t)run,
					.metric = r->nmetrics - 1, .cpu = -1 };
		st = rd_name(d, 3, "name", m->name, sizeof(m->name));
		if (!st)
			st = rd_name(d, 4, "variant", m->variant,
				     sizeof(m->variant));
		if (!st)
			st = rd_int(d, 5, "frac_bits", 0, CLKSTAT_FRAC_BITS_MAX,
				    0, &v, NULL);
		if (st)
			break;
		m->frac_bits = (unsigned int)v;
		st = rd_int(d, 6, "recording", 0, 1, 0, &v, NULL);
		if (st)
			break;
		m->recording = (int)v;
		st = rd_int(d, 7, "created_ns", 0, INT64_MAX, 0, &v, NULL);
		m->created_ns = (uint64_t)v;
	}
	if (!st && res < 0)
		st = -res;
	rd_done(d);
	return st ? st : cr_refs_sort(d, mref, "metrics");
}

static int rd_counters(struct cr_rd *d, struct cr_snapshot *s,
		       const struct cr_refs *mref)
{
	const struct cr_ref *ref;
	struct cr_counter *ctr;
	struct cr_metric *m;
	int64_t id, pos;
	char msg[256];
	const char *name;
	size_t len, i;
	int st, r;

	st = rd_prepare(d, "SELECT metric, pos, name, value FROM counters ORDER BY metric, pos");
	while (!st && (r = rd_step(d, "counters")) > 0) {
		id = sqlite3_column_int64(d->st, 0);
		pos = sqlite3_column_int64(d->st, 1);
		snprintf(d->row, sizeof(d->row), "counters (metric %" PRId64 ", pos %" PRId64 ")",
			 id, pos);
		ref = cr_ref_find(mref, id);
		if (!ref || sqlite3_column_type(d->st, 0) != SQLITE_INTEGER) {
			st = rd_fail(d, CR_CORRUPT, "no such metric");
			break;
		}
		m = &s->runs[ref->run].metrics[ref->metric];
		if (m->ncounters == CR_COUNTERS_MAX) {
			st = rd_fail(d, CR_CORRUPT, "more than %d counters",
				     CR_COUNTERS_MAX);
			break;
		}
		st = rd_int(d, 1, "pos", (int64_t)m->ncounters,
			    (int64_t)m->ncounters, 0, &pos, NULL);
		if (st)
			break;
		ctr = &m->counters[m->ncounters];
		st = rd_text(d, 2, "name", 0, &name, &len);
		if (!st && cr_check_name(name, len, sizeof(ctr->name), msg,
					 sizeof(msg)))
			st = rd_fail(d, CR_CORRUPT, "name %s", msg);
		for (i = 0; !st && i < m->ncounters; i++)
			if (!strcmp(m->counters[i].name, name))
				st = rd_fail(d, CR_CORRUPT, "counter %s twice",
					     name);
		if (!st)
			st = rd_u64(d, 3, "value", 0, &ctr->value, NULL);
		if (st)
			break;
		memcpy(ctr->name, name, len + 1);
		m->ncounters++;
	}
	if (!st && r < 0)
		st = -r;
	rd_done(d);
	return st;
}

static int rd_hists(struct cr_rd *d, struct cr_snapshot *s,
		    struct cr_refs *mref, struct cr_refs *href)
{
	static const char sql[] =
		"SELECT hist, metric, cpu, min, max FROM hists ORDER BY metric, cpu";
	struct cr_ref *mr, *ref;
	struct cr_hist *h, *cpus;
	struct cr_metric *m;
	int64_t id, mid, cpu;
	uint64_t mn = 0, mx = 0;
	int st, r, nmin, nmax;

	st = rd_prepare(d, sql);
	while (!st && (r = rd_step(d, "hists")) > 0) {
		id = sqlite3_column_int64(d->st, 0);
		mid = sqlite3_column_int64(d->st, 1);
		snprintf(d->row, sizeof(d->row), "hists row %" PRId64, id);
		mr = cr_ref_find(mref, mid);
		if (!mr || sqlite3_column_type(d->st, 1) != SQLITE_INTEGER) {
			st = rd_fail(d, CR_CORRUPT, "no metric %" PRId64, mid);
			break;
		}
		m = &s->runs[mr->run].metrics[mr->metric];
		st = rd_int(d, 2, "cpu", -1, (int64_t)CR_CPU_ALL - 1, 0, &cpu,
			    NULL);
		if (!st)
			st = rd_u64(d, 3, "min", 1, &mn, &nmin);
		if (!st)
			st = rd_u64(d, 4, "max", 1, &mx, &nmax);
		if (!st && nmin != nmax)
			st = rd_fail(d, CR_CORRUPT, "min and max: both null (empty) or both set");
		if (st)
			break;
		if (cpu < 0 && mr->have_total) {
			st = rd_fail(d, CR_CORRUPT, "a second total (cpu -1) of metrics row %" PRId64,
				     mid);
			break;
		}
		if (cpu >= 0 && m->ncpus && m->cpus[m->ncpus - 1].cpu >= cpu) {
			st = rd_fail(d, CR_CORRUPT, "cpu %" PRId64 " twice", cpu);
			break;
		}
		ref = cr_ref_add(href);
		if (!ref) {
			st = rd_nomem(d);
			break;
		}
		*ref = (struct cr_ref){ .id = id, .run = mr->run,
					.metric = mr->metric, .cpu = -1,
					.min_null = nmin };
		if (cpu < 0) {
			mr->have_total = 1;
			h = &m->total;
		} else {
			cpus = realloc(m->cpus, (m->ncpus + 1) * sizeof(*cpus));
			if (!cpus) {
				st = rd_nomem(d);
				break;
			}
			m->cpus = cpus;
			ref->cpu = (long)m->ncpus;
			h = &cpus[m->ncpus++];
			*h = (struct cr_hist){ .cpu = (uint32_t)cpu };
		}
		h->min = nmin ? UINT64_MAX : mn;
		h->max = nmin ? 0 : mx;
	}
	if (!st && r < 0)
		st = -r;
	rd_done(d);
	return st ? st : cr_refs_sort(d, href, "hists");
}

static struct cr_hist *cr_ref_hist(struct cr_snapshot *s,
				   const struct cr_ref *ref)
{
	struct cr_metric *m = &s->runs[ref->run].metrics[ref->metric];

	return ref->cpu < 0 ? &m->total : &m->cpus[ref->cpu];
}

static int rd_slots(struct cr_rd *d, struct cr_snapshot *s,
		    struct cr_refs *href)
{
	struct cr_slot *p;
	struct cr_ref *ref;
	struct cr_hist *h;
	int64_t hid, slot, count;
	uint64_t sum;
	char msg[512];
	unsigned int k;
	int st, r;

	st = rd_prepare(d, "SELECT hist, slot, count, sum FROM slots ORDER BY hist, slot");
	while (!st && (r = rd_step(d, "slots")) > 0) {
		hid = sqlite3_column_int64(d->st, 0);
		slot = sqlite3_column_int64(d->st, 1);
		snprintf(d->row, sizeof(d->row), "slots (hist %" PRId64 ", slot %" PRId64 ")",
			 hid, slot);
		ref = cr_ref_find(href, hid);
		if (!ref || sqlite3_column_type(d->st, 0) != SQLITE_INTEGER) {
			st = rd_fail(d, CR_CORRUPT, "no hist %" PRId64, hid);
			break;
		}
		h = cr_ref_hist(s, ref);
		k = s->runs[ref->run].metrics[ref->metric].frac_bits;
		st = rd_int(d, 1, "slot", 0, INT64_MAX, 0, &slot, NULL);
		if (!st)
			st = rd_int(d, 2, "count", 0, INT64_MAX, 0, &count,
				    NULL);
		if (!st)
			st = rd_u64(d, 3, "sum", 0, &sum, NULL);
		if (!st && cr_check_slot(h, k, (uint64_t)slot, (uint64_t)count,
					 sum, &ref->total, msg, sizeof(msg)))
			st = rd_fail(d, CR_CORRUPT, "%s", msg);
		if (st)
			break;
		if (h->nslots == ref->cap) {
			ref->cap = ref->cap ? 2 * ref->cap : 16;
			p = realloc(h->slots, ref->cap * sizeof(*p));
			if (!p) {
				st = rd_nomem(d);
				break;
			}
			h->slots = p;
		}
		h->slots[h->nslots++] = (struct cr_slot){
			.slot = (uint32_t)slot, .count = (uint64_t)count,
			.sum = sum,
		};
	}
	if (!st && r < 0)
		st = -r;
	rd_done(d);
	return st;
}

/*
 * What only the whole of a metric shows: its total there, each
 * histogram's min and max against its slots, a CPU's histogram not
 * empty, the total the CPUs added up; no two metrics alike in a run.
 */
static int rd_check_whole(struct cr_rd *d, struct cr_snapshot *s,
			  const struct cr_refs *mref,
			  const struct cr_refs *href)
{
	const struct cr_ref *ref;
	const struct cr_metric *m;
	const struct cr_hist *h;
	const char *where;
	size_t i, dup, first;
	char msg[512];
	int st;

	for (i = 0; i < mref->n; i++) {
		ref = &mref->v[i];
		if (ref->have_total)
			continue;
		snprintf(d->row, sizeof(d->row), "metrics row %" PRId64,
			 ref->id);
		return rd_fail(d, CR_CORRUPT, "no total histogram (a hists row with cpu -1)");
	}
	for (i = 0; i < href->n; i++) {
		ref = &href->v[i];
		h = cr_ref_hist(s, ref);
		m = &s->runs[ref->run].metrics[ref->metric];
		snprintf(d->row, sizeof(d->row), "hists row %" PRId64, ref->id);
		if (!h->nslots && ref->cpu >= 0)
			return rd_fail(d, CR_CORRUPT, "cpu %u has no samples: a metric's CPUs are only those with samples",
				       h->cpu);
		if (!h->nslots && !ref->min_null)
			return rd_fail(d, CR_CORRUPT, "min and max set, but the histogram has no slots");
		if (h->nslots && ref->min_null)
			return rd_fail(d, CR_CORRUPT, "min and max null, but the histogram has slots");
		if (h->nslots &&
		    cr_check_min_max(h, m->frac_bits, msg, sizeof(msg)))
			return rd_fail(d, CR_CORRUPT, "%s", msg);
	}
	for (i = 0; i < mref->n; i++) {
		ref = &mref->v[i];
		m = &s->runs[ref->run].metrics[ref->metric];
		st = cr_check_total(m, &where, msg, sizeof(msg));
		if (st == CR_ERR)
			return rd_nomem(d);
		snprintf(d->row, sizeof(d->row), "metrics row %" PRId64 " (%s.%s, run %zu), %s",
			 ref->id, m->name, m->variant, ref->run,
			 !strcmp(where, "cpus") ? "its CPUs" : "its total");
		if (st)
			return rd_fail(d, st, "%s", msg);
	}
	for (i = 0; i < s->nruns; i++) {
		st = cr_check_dup_metric(&s->runs[i], &dup, &first);
		if (st < 0)
			return rd_nomem(d);
		if (!st)
			continue;
		snprintf(d->row, sizeof(d->row), "metrics (run %zu, pos %zu)",
			 i, dup);
		return rd_fail(d, CR_CORRUPT, "duplicate metric %s.%s (also pos %zu)",
			       s->runs[i].metrics[dup].name,
			       s->runs[i].metrics[dup].variant, first);
	}
	return CR_OK;
}

/* ---------------------------------------------------------------- */
/* A run's events, on demand.                                        */

/* One row of events into e; d->row names it. */
static int rd_event(struct cr_rd *d, const struct cr_study_src *src,
		    int64_t key, struct clkstat_event_rec *e)
{
	const char *text;
	uint64_t u;
	int64_t v;
	size_t len;
	int st, null;

	memset(e, 0, sizeof(*e));
	st = rd_int(d, 1, "run", key, key, 0, &v, NULL);
	if (!st)
		st = rd_u64(d, 2, "ts", 0, &u, NULL);
	if (st)
		return st;
	e->ts = u;
	st = rd_int(d, 3, "type", 0, 255, 0, &v, NULL);
	if (st)
		return st;
	if (src->type_map[v] < 0)
		return rd_fail(d, CR_CORRUPT, "unknown event type %" PRId64 " (not in event_types, or a name this clkstat-report does not know)",
			       v);
	e->type = (__u8)src->type_map[v];
	st = rd_int(d, 4, "cpu", 0, UINT16_MAX, 0, &v, NULL);
	if (st)
		return st;
	e->cpu = (__u16)v;
	st = rd_int(d, 5, "pid", 0, UINT32_MAX, 0, &v, NULL);
	if (st)
		return st;
	e->pid = (__u32)v;
	st = rd_u64(d, 6, "corr", 0, &u, NULL);
	if (st)
		return st;
	e->corr = u;
	st = rd_u64(d, 7, "latency", 1, &u, &null);
	if (st)
		return st;
	if (!null) {
		e->latency = u;
		e->flags |= CLKSTAT_EVF_LATENCY;
	}
	st = rd_int(d, 8, "migrated", 0, 1, 1, &v, &null);
	if (st)
		return st;
	if (!null)
		e->flags |= v ? CLKSTAT_EVF_MIGRATED : CLKSTAT_EVF_LOCAL;
	st = rd_u64(d, 9, "rq_clock", 1, &u, &null);
	if (st)
		return st;
	if (!null) {
		e->rq_clock = u;
		e->flags |= CLKSTAT_EVF_RQ_CLOCK;
	}
	st = rd_text(d, 10, "text", 1, &text, &len);
	if (st)
		return st;
	if (len >= sizeof(e->text))
		return rd_fail(d, CR_CORRUPT, "text of %zu bytes: at most %zu",
			       len, sizeof(e->text) - 1);
	if (text)
		memcpy(e->text, text, len + 1);
	return CR_OK;
}

static int cr_study_load(struct cr_snap_source *base, struct cr_run *r)
{
	struct cr_study_src *src = (struct cr_study_src *)base;
	struct cr_events tmp = { 0 };
	struct clkstat_event_rec e;
	struct cr_rd d = { .db = src->db };
	const struct cr_ev_range *rg;
	int64_t key = r->events.key, rowid;
	int st = CR_OK, res, rc;

	if (key < 0 || (size_t)key >= src->nruns) {
		fprintf(stderr, "clkstat-report: %s: run %" PRId64 ": no such run\n",
			src->path, key);
		return CR_ERR;
	}
	rg = &src->range[key];
	if (!src->ev) {
		rc = sqlite3_prepare_v2(src->db,
			"SELECT rowid, run, ts, type, cpu, pid, corr, latency, "
			"migrated, rq_clock, text FROM events "
			"WHERE rowid BETWEEN ?1 AND ?2 ORDER BY rowid",
			-1, &src->ev, NULL);
		if (rc != SQLITE_OK) {
			st = cr_db_fail(src->db, rc, 1, "events", d.err,
					sizeof(d.err));
			src->ev = NULL;
			goto out;
		}
	}
	d.st = src->ev;
	sqlite3_bind_int64(d.st, 1, rg->first);
	sqlite3_bind_int64(d.st, 2, rg->last);
	while ((res = rd_step(&d, "events")) > 0) {
		rowid = sqlite3_column_int64(d.st, 0);
		snprintf(d.row, sizeof(d.row), "events row %" PRId64, rowid);
		if (rowid != rg->first + (int64_t)tmp.n) {
			st = rd_fail(&d, CR_CORRUPT, "row %" PRId64 " is missing: run %" PRId64 "'s events are rows %" PRId64 " to %" PRId64,
				     rg->first + (int64_t)tmp.n, key, rg->first,
				     rg->last);
			break;
		}
		st = rd_event(&d, src, key, &e);
		if (!st && tmp.n && e.ts < tmp.ev[tmp.n - 1].ts)
			st = rd_fail(&d, CR_CORRUPT, "ts %" PRIu64 " before the previous row's %" PRIu64 ": a run's events are in time order",
				     (uint64_t)e.ts,
				     (uint64_t)tmp.ev[tmp.n - 1].ts);
		if (!st && cr_events_add(&tmp, &e))
			st = rd_nomem(&d);
		if (st)
			break;
	}
	if (!st && res < 0)
		st = -res;
	if (!st && tmp.n != r->events.n) {
		snprintf(d.row, sizeof(d.row), "runs row %" PRId64, key);
		st = rd_fail(&d, CR_CORRUPT, "events_n %zu, but events holds %zu of its rows",
			     r->events.n, tmp.n);
	}
	sqlite3_reset(d.st);
	sqlite3_clear_bindings(d.st);
out:
	if (st) {
		cr_db_one_line(d.err);
		fprintf(stderr, "clkstat-report: %s: %s\n", src->path, d.err);
		cr_events_free(&tmp);
		return st;
	}
	r->events.ev = tmp.ev;
	r->events.cap = tmp.cap;
	return CR_OK;
}

static void cr_study_src_close(struct cr_snap_source *base)
{
	struct cr_study_src *src = (struct cr_study_src *)base;

	sqlite3_finalize(src->ev);
	sqlite3_close(src->db);
	free(src->range);
	free(src->path);
	free(src);
}

/* ---------------------------------------------------------------- */
/* The whole.                                                        */

static int rd_all(struct cr_rd *d, struct cr_snapshot *s,
		  struct cr_study_src *src)
{
	struct cr_refs mref = { 0 }, href = { 0 };
	int st;

	st = cr_study_load_meta(d->db, &s->meta, d->err, sizeof(d->err));
	if (!st)
		st = rd_event_types(d, src);
	if (!st)
		st = rd_runs(d, s, src);
	if (!st)
		st = rd_run_tags(d, s);
	if (!st)
		st = rd_metrics(d, s, &mref);
	if (!st)
		st = rd_counters(d, s, &mref);
	if (!st)
		st = rd_hists(d, s, &mref, &href);
	if (!st)
		st = rd_slots(d, s, &href);
	if (!st)
		st = rd_check_whole(d, s, &mref, &href);
	rd_done(d);
	free(mref.v);
	free(href.v);
	return st;
}

int cr_study_read(const char *path, struct cr_snapshot *s)
{
	struct cr_study_src *src;
	struct cr_rd d = { 0 };
	int st;

	memset(s, 0, sizeof(*s));
	src = calloc(1, sizeof(*src));
	if (!src || !(src->path = strdup(path))) {
		free(src);
		fprintf(stderr, "clkstat-report: %s: out of memory\n", path);
		return CR_ERR;
	}
	src->base.load = cr_study_load;
	src->base.close = cr_study_src_close;
	st = cr_db_open(path, 0, &src->db, d.err, sizeof(d.err));
	if (!st) {
		d.db = src->db;
		/*
		 * One read transaction for all the tables: a writer adding
		 * a run meanwhile is not half seen.
		 */
		st = cr_db_exec(src->db, "BEGIN", d.err, sizeof(d.err));
		if (!st)
			st = rd_all(&d, s, src);
		sqlite3_exec(src->db, "COMMIT", NULL, NULL, NULL);
	}
	if (st) {
		cr_db_one_line(d.err);
		fprintf(stderr, "clkstat-report: %s: %s\n", path, d.err);
		cr_snapshot_free(s);
		cr_study_src_close(&src->base);
		memset(s, 0, sizeof(*s));
		return st;
	}
	s->source = &src->base;
	return CR_OK;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * study_write.c - writing a study (study.h): created with its schema
 * (study_schema.sql, embedded by the Makefile) or opened to append, held
 * by one writer at a time (a lock on a byte of the file), and added to run
 * by run, each run one transaction, the database file itself changed only
 * between runs.
 */
#define _GNU_SOURCE		/* F_OFD_SETLK */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "../../kmod/uapi/clkstat_buckets.h"
#include "snapshot_parse.h"
#include "status.h"
#include "study.h"
#include "study_db.h"
#include "study_schema.h"	/* build/tools/, from study_schema.sql */

void (*cr_study_before_commit)(const char *path);

/* The prepared statements, one per table a run writes. */
enum {
	S_RUN, S_RUN_EVENTS, S_RUN_TAG, S_METRIC, S_COUNTER, S_HIST, S_SLOT,
	S_EVENT, S_FIND_RUN, S_VARIANT_FB, S_N
};

static const char *const cr_study_sql[S_N] = {
	[S_RUN] = "INSERT INTO runs (run, variant, start_ns, end_ns, "
		  "exit_status, workload_only, events_present, events_n, "
		  "events_lost, clock0_mono_ns, clock0_realtime_ns, "
		  "clock1_mono_ns, clock1_realtime_ns) "
		  "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 0, ?8, ?9, ?10, ?11, ?12)",
	[S_RUN_EVENTS] = "UPDATE runs SET events_n = ?2, first_event = ?3, "
			 "last_event = ?4 WHERE run = ?1",
	[S_RUN_TAG] = "INSERT INTO run_tags (run, pos, name, value) "
		      "VALUES (?1, ?2, ?3, ?4)",
	[S_METRIC] = "INSERT INTO metrics (run, pos, name, variant, frac_bits, "
		     "recording, created_ns) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
	[S_COUNTER] = "INSERT INTO counters (metric, pos, name, value) "
		      "VALUES (?1, ?2, ?3, ?4)",
	[S_HIST] = "INSERT INTO hists (metric, cpu, min, max) "
		   "VALUES (?1, ?2, ?3, ?4)",
	[S_SLOT] = "INSERT INTO slots (hist, slot, count, sum) "
		   "VALUES (?1, ?2, ?3, ?4)",
	[S_EVENT] = "INSERT INTO events (run, ts, type, cpu, pid, corr, "
		    "latency, migrated, rq_clock, text) "
		    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
	[S_FIND_RUN] = "SELECT run FROM runs WHERE variant = ?1 AND "
		       "start_ns = ?2 AND end_ns = ?3",
	[S_VARIANT_FB] = "SELECT frac_bits FROM metrics WHERE variant = ?1 "
			 "AND frac_bits != ?2 LIMIT 1",
};

struct cr_study {
	char *path;
	int fd;			/* holds the lock; closed after SQLite */
	sqlite3 *db;
	sqlite3_stmt *st[S_N];
	size_t nruns;
	int writing;		/* cr_study_pragmas() done: WAL */
	char err[1024];
};

size_t cr_study_nruns(const struct cr_study *st)
{
	return st->nruns;
}

/* One line on stderr for the study; return status. */
static int cr_say(struct cr_study *st, int status)
{
	cr_db_one_line(st->err);
	fprintf(stderr, "clkstat-report: %s: %s\n", st->path, st->err);
	return status;
}

static void cr_study_free(struct cr_study *st)
{
	size_t i;

	for (i = 0; i < S_N; i++)
		sqlite3_finalize(st->st[i]);
	/*
	 * SQLite first: closing our descriptor of the file while SQLite has
	 * it open would drop SQLite's own (POSIX, per process) locks.
	 */
	sqlite3_close(st->db);
	if (st->fd >= 0)
		close(st->fd);
	free(st->path);
	free(st);
}

/*
 * The writer's settings.  WAL: readers read the runs committed while a
 * writer adds more.  synchronous=NORMAL: a commit does not wait for the
 * disk, the checkpoint after it does; a power cut can lose the last run
 * committed, never a run's half nor what the file held, since the WAL's
 * frames are checksummed and replayed only whole.  No automatic
 * checkpoint: one after each run's commit (cr_study_add_run()), so that
 * the database file itself changes only between runs and a copy of it
 * alone, taken while a run is written, holds the runs before it.
 */
static int cr_study_pragmas(struct cr_study *st)
{
	static const char *const pragmas[] = {
		"PRAGMA synchronous = NORMAL",
		"PRAGMA wal_autocheckpoint = 0",
		"PRAGMA foreign_keys = ON",
	};
	sqlite3_stmt *q;
	size_t i;
	int rc, wal = 0;

	rc = sqlite3_prepare_v2(st->db, "PRAGMA journal_mode = WAL", -1, &q,
				NULL);
	if (rc == SQLITE_OK && (rc = sqlite3_step(q)) == SQLITE_ROW)
		wal = !strcmp((const char *)sqlite3_column_text(q, 0), "wal");
	sqlite3_finalize(q);
	if (!wal)
		return cr_db_fail(st->db, rc == SQLITE_ROW ? SQLITE_ERROR : rc,
				  0, "PRAGMA journal_mode = WAL", st->err,
				  sizeof(st->err));
	for (i = 0; i < sizeof(pragmas) / sizeof(pragmas[0]); i++)
		if (cr_db_exec(st->db, pragmas[i], st->err, sizeof(st->err)))
			return CR_ERR;
	st->writing = 1;
	return CR_OK;
}

/* The statements a run writes, prepared once for every run. */
static int cr_study_prepare(struct cr_study *st)
{
	size_t i;
	int rc;

	for (i = 0; i < S_N; i++) {
		rc = sqlite3_prepare_v3(st->db, cr_study_sql[i], -1,
					SQLITE_PREPARE_PERSISTENT, &st->st[i],
					NULL);
		if (rc != SQLITE_OK)
			return cr_db_fail(st->db, rc, 0, cr_study_sql[i],
					  st->err, sizeof(st->err));
	}
	return CR_OK;
}

/* ---------------------------------------------------------------- */
/* Binding and stepping.                                             */

static void cr_bind_text(sqlite3_stmt *q, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(q, i, s, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(q, i);
}

/* Step an INSERT or UPDATE, reset it; CR_OK or CR_ERR (st->err set). */
static int cr_run_stmt(struct cr_study *st, int which)
{
	sqlite3_stmt *q = st->st[which];
	int rc = sqlite3_step(q);

	sqlite3_reset(q);
	if (rc == SQLITE_DONE)
		return CR_OK;
	cr_db_fail(st->db, rc, 0, cr_study_sql[which], st->err,
		   sizeof(st->err));
	return CR_ERR;
}

/* A list of names and values into table (pos, name, value). */
static int cr_study_put_list(struct cr_study *st, const char *table,
			     size_t n, char **names, char **values)
{
	char sql[128];
	sqlite3_stmt *q;
	size_t i;
	int rc;

	snprintf(sql, sizeof(sql),
		 "INSERT INTO %s (pos, name, value) VALUES (?1, ?2, ?3)", table);
	rc = sqlite3_prepare_v2(st->db, sql, -1, &q, NULL);
	for (i = 0; rc == SQLITE_OK && i < n; i++) {
		sqlite3_bind_int64(q, 1, (int64_t)i);
		cr_bind_text(q, 2, names[i]);
		cr_bind_text(q, 3, values[i]);
		rc = sqlite3_step(q);
		rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
		sqlite3_reset(q);
	}
	sqlite3_finalize(q);
	if (rc != SQLITE_OK)
		return cr_db_fail(st->db, rc, 0, table, st->err,
				  sizeof(st->err));
	return CR_OK;
}

/* The metadata's rows (in the creating transaction). */
static int cr_study_put_meta(struct cr_study *st, const struct cr_meta *m)
{
	char sql[768];
	sqlite3_stmt *q;
	size_t i, n = 0;
	int rc, col;

	n += snprintf(sql, sizeof(sql), "INSERT INTO meta (id, ");
	for (i = 0; i < cr_nmeta_strs; i++)
		n += snprintf(sql + n, sizeof(sql) - n, "%s, ",
			      cr_meta_strs[i].key);
	n += snprintf(sql + n, sizeof(sql) - n,
		      "frac_bits, nr_cpus, duration_s, events, cpufreq_recorded) VALUES (1");
	for (i = 0; i < cr_nmeta_strs + 5; i++)
		n += snprintf(sql + n, sizeof(sql) - n, ", ?");
	snprintf(sql + n, sizeof(sql) - n, ")");
	rc = sqlite3_prepare_v2(st->db, sql, -1, &q, NULL);
	if (rc != SQLITE_OK)
		return cr_db_fail(st->db, rc, 0, "meta", st->err,
				  sizeof(st->err));
	/* Not recorded: NULL whatever they hold (the reader's rule). */
	for (i = 0; i < cr_nmeta_strs; i++)
		cr_bind_text(q, (int)i + 1,
			     cr_meta_str_cpufreq(i) && !m->cpufreq_recorded ?
			     NULL : *cr_meta_str((struct cr_meta *)m, i));
	col = (int)cr_nmeta_strs + 1;
	sqlite3_bind_int64(q, col, m->frac_bits);
	sqlite3_bind_int64(q, col + 1, m->nr_cpus);
	sqlite3_bind_double(q, col + 2, m->duration_s);
	sqlite3_bind_int64(q, col + 3, m->events);
	sqlite3_bind_int64(q, col + 4, m->cpufreq_recorded ? 1 : 0);
	rc = sqlite3_step(q);
	sqlite3_finalize(q);
	if (rc != SQLITE_DONE)
		return cr_db_fail(st->db, rc, 0, "meta", st->err,
				  sizeof(st->err));
	rc = cr_study_put_list(st, "meta_params", m->nparams, m->param_names,
			       m->param_values);
	if (!rc)
		rc = cr_study_put_list(st, "meta_tags", m->ntags, m->tag_names,
				       m->tag_values);
	return rc;
}

/* The catalog's event types, by the numbers events.type holds. */
static int cr_study_put_types(struct cr_study *st)
{
	sqlite3_stmt *q;
	unsigned int t;
	int rc;

	rc = sqlite3_prepare_v2(st->db,
		"INSERT INTO event_types (type, name) VALUES (?1, ?2)", -1, &q,
		NULL);
	for (t = 0; rc == SQLITE_OK && t < CLKSTAT_EV_NTYPES; t++) {
		sqlite3_bind_int(q, 1, (int)t);
		cr_bind_text(q, 2, cr_event_type_name(t));
		rc = sqlite3_step(q);
		rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
		sqlite3_reset(q);
	}
	sqlite3_finalize(q);
	if (rc != SQLITE_OK)
		return cr_db_fail(st->db, rc, 0, "event_types", st->err,
				  sizeof(st->err));
	return CR_OK;
}

/* Every slot's bounds for every frac_bits, from the bucket math. */
static int cr_study_put_bounds(struct cr_study *st)
{
	sqlite3_stmt *q;
	uint32_t k, slot;
	int rc;

	rc = sqlite3_prepare_v2(st->db,
		"INSERT INTO slot_bounds (frac_bits, slot, lower, upper, sum_shift) VALUES (?1, ?2, ?3, ?4, ?5)",
		-1, &q, NULL);
	for (k = 0; rc == SQLITE_OK && k <= CLKSTAT_FRAC_BITS_MAX; k++) {
		for (slot = 0; rc == SQLITE_OK && slot < CLKSTAT_NSLOTS(k);
		     slot++) {
			sqlite3_bind_int(q, 1, (int)k);
			sqlite3_bind_int(q, 2, (int)slot);
			/* u64 as the same 64 bits, as everywhere. */
			sqlite3_bind_int64(q, 3,
				(sqlite3_int64)clkstat_slot_lower(slot, k));
			sqlite3_bind_int64(q, 4,
				(sqlite3_int64)clkstat_slot_upper(slot, k));
			sqlite3_bind_int(q, 5,
				(int)clkstat_slot_sum_shift(slot, k));
			rc = sqlite3_step(q);
			rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
			sqlite3_reset(q);
		}
	}
	sqlite3_finalize(q);
	if (rc != SQLITE_OK)
		return cr_db_fail(st->db, rc, 0, "slot_bounds", st->err,
				  sizeof(st->err));
	return CR_OK;
}

/* ---------------------------------------------------------------- */
/* Opening.                                                          */

static struct cr_study *cr_study_new(const char *path)
{
	struct cr_study *st = calloc(1, sizeof(*st));

	if (!st || !(st->path = strdup(path))) {
		free(st);
		fprintf(stderr, "clkstat-report: %s: out of memory\n", path);
		return NULL;
	}
	st->fd = -1;
	return st;
}

/*
 * The byte of the file the writer locks: below the bytes SQLite locks
 * (from 1 GiB, its PENDING_BYTE, up), which it never takes.
 */
#define CR_STUDY_LOCK_BYTE	((off_t)1 << 29)

/*
 * The writer's lock, for as long as the study is open: a write lock on
 * CR_STUDY_LOCK_BYTE owned by its open file description (F_OFD_SETLK),
 * apart from SQLite's POSIX locks by range and owner.  Not flock(): 9p
 * (run-guest.sh --out's folder) turns a flock into a POSIX lock of the
 * whole file, which then refuses SQLite its own ("database is locked";
 * t_study_9p, suite_study.sh, found it).
 */
static int cr_study_lock(struct cr_study *st)
{
	struct flock fl = {
		.l_type = F_WRLCK, .l_whence = SEEK_SET,
		.l_start = CR_STUDY_LOCK_BYTE, .l_len = 1,
	};
	int busy;

	if (!fcntl(st->fd, F_OFD_SETLK, &fl))
		return CR_OK;
	busy = errno == EAGAIN || errno == EACCES;
	if (busy)
		snprintf(st->err, sizeof(st->err), "another clkstat-report is writing this study (it holds the lock): one writer at a time");
	else
		snprintf(st->err, sizeof(st->err), "lock: %s",
			 strerror(errno));
	return busy ? CR_USAGE : CR_ERR;
}

/*
 * Can the file's folder map a file shared and writable, as SQLite maps
 * the WAL's index (its -shm file)?  Not on 9p without a write-back
 * cache (run-guest.sh --out's folder): there the writer takes SQLite's
 * EXCLUSIVE locking mode, whose WAL keeps its index in the writer's own
 * memory; readers then wait for the writer to close (t_study_9p).
 */
static int cr_study_shm_ok(int fd)
{
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

	if (p == MAP_FAILED)
		return 0;
	munmap(p, 4096);
	return 1;
}

/* Remove what a failed create made: the file and SQLite's beside it. */
static void cr_study_unlink(const char *path)
{
	static const char *const ext[] = { "", "-wal", "-shm", "-journal" };
	char name[4096];
	size_t i;

	for (i = 0; i < sizeof(ext) / sizeof(ext[0]); i++) {
		snprintf(name, sizeof(name), "%s%s", path, ext[i]);
		unlink(name);
	}
}

int cr_study_create(const char *path, const struct cr_meta *m,
		    struct cr_study **out)
{
	struct cr_study *st;
	int ret, rc;

	*out = NULL;
	if (!*path || path[strlen(path) - 1] == '/' || strlen(path) > 4000) {
		fprintf(stderr, "clkstat-report: %s: not a file name\n", path);
		return CR_USAGE;
	}
	st = cr_study_new(path);
	if (!st)
		return CR_ERR;
	/* O_EXCL: a study is never made over anything already there. */
	st->fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (st->fd < 0) {
		snprintf(st->err, sizeof(st->err), "%s",
			 errno == EEXIST ? "exists already (a new study is never written over a file)" :
			 strerror(errno));
		ret = cr_say(st, errno == EEXIST ? CR_USAGE : CR_ERR);
		cr_study_free(st);
		return ret;
	}
	ret = cr_study_lock(st);
	if (ret)
		goto fail;
	/* One thread per connection: no mutex on every call (a tenth). */
	rc = sqlite3_open_v2(path, &st->db, SQLITE_OPEN_READWRITE |
			     SQLITE_OPEN_NOMUTEX, NULL);
	if (rc != SQLITE_OK) {
		ret = cr_db_fail(st->db, rc, 0, "open", st->err,
				 sizeof(st->err));
		goto fail;
	}
	sqlite3_extended_result_codes(st->db, 1);
	sqlite3_busy_timeout(st->db, 10000);
	/* Before SQLite first touches the file: its WAL index's home. */
	ret = cr_study_shm_ok(st->fd) ? CR_OK :
	      cr_db_exec(st->db, "PRAGMA locking_mode = EXCLUSIVE", st->err,
			 sizeof(st->err));
	/*
	 * 16 KiB pages, set before the first table: a run of events writes
	 * a quarter of the pages it would at 4 KiB (10 to 20% faster here).
	 */
	if (!ret)
		ret = cr_db_exec(st->db, "PRAGMA page_size = 16384",
				 st->err, sizeof(st->err));
	if (!ret)
		ret = cr_study_pragmas(st);
	if (!ret)
		ret = cr_db_exec(st->db, "BEGIN IMMEDIATE", st->err,
				 sizeof(st->err));
	if (!ret) {
		rc = sqlite3_exec(st->db, cr_study_schema_sql, NULL, NULL,
				  NULL);
		if (rc != SQLITE_OK)
			ret = cr_db_fail(st->db, rc, 0, "the schema", st->err,
					 sizeof(st->err));
	}
	if (!ret)
		ret = cr_study_put_types(st);
	if (!ret)
		ret = cr_study_put_bounds(st);
	if (!ret)
		ret = cr_study_put_meta(st, m);
	if (!ret)
		ret = cr_db_exec(st->db, "COMMIT", st->err, sizeof(st->err));
	/* The schema into the file itself: a copy of it is a study. */
	if (!ret && sqlite3_wal_checkpoint_v2(st->db, NULL,
					      SQLITE_CHECKPOINT_PASSIVE, NULL,
					      NULL) != SQLITE_OK)
		ret = cr_db_fail(st->db, sqlite3_errcode(st->db), 0,
				 "checkpoint", st->err, sizeof(st->err));
	if (!ret)
		ret = cr_study_prepare(st);
	if (ret)
		goto fail;
	*out = st;
	return CR_OK;
fail:
	cr_say(st, ret);
	cr_study_free(st);
	cr_study_unlink(path);
	return ret ? ret : CR_ERR;
}

/* ---------------------------------------------------------------- */
/* Appending: the metadata must pool.                                */

/*
 * The fields runs of one study share: the setup the measurement depends
 * on (the bucket layout, the probes, the clock, the kernel and its
 * command line, the machine, its idle and cpufreq settings: a run's own
 * governor of record --governors is its tag), and the file's tags,
 * which describe every run of the file.  The others are the recording's
 * own (tool and module version, the variants and command of one record,
 * its conditions, duration and events limit): they may differ, with a
 * warning, and the study keeps its own.
 */
static int cr_pool_must(const char *field)
{
	static const char *const may[] = {
		"tool_version", "module_version", "variants", "command",
		"conditions", "duration_s", "events",
		/* the module's load-time default, not what the runs used */
		"param:variant",
	};
	size_t i;

	for (i = 0; i < sizeof(may) / sizeof(may[0]); i++)
		if (!strcmp(field, may[i]))
			return 0;
	return 1;
}

static int cr_str_differ(const char *a, const char *b)
{
	return (!a) != (!b) || (a && strcmp(a, b));
}

/* field differs: a refusal into err (CR_USAGE), or a warning line. */
static int cr_pool_field(const char *path, const char *field, const char *a,
			 const char *b, FILE *warn, char *err, size_t errlen)
{
	if (cr_pool_must(field)) {
		snprintf(err, errlen, "cannot add these runs: %s is '%s' in the study, '%s' in the runs to add (a study holds the runs of one setup; -o another file)",
			 field, a ? a : "-", b ? b : "-");
		return CR_USAGE;
	}
	if (warn)
		fprintf(warn, "clkstat-report: warning: %s: %s is '%s' in the study, '%s' in the runs added; the study keeps its own\n",
			path, field, a ? a : "-", b ? b : "-");
	return CR_OK;
}

static const char *cr_list_get(size_t n, char **names, char **values,
			       const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return values[i];
	return NULL;
}

/*
 * A number as its shortest text that reads back the same (0.2, not
 * 0.20000000000000001): two numbers differ exactly when their texts do.
 */
static void cr_pool_num(char *buf, size_t len, double v)
{
	int prec;

	for (prec = 1; prec < 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return;
	}
	snprintf(buf, len, "%.17g", v);
}

/* One pass of cr_study_meta_pools(): every field, in order. */
static int cr_meta_pools_pass(const struct cr_meta *sm, const struct cr_meta *m,
			      const char *path, FILE *warn, char *err,
			      size_t errlen)
{
	char field[CR_TAG_KEY_MAX + 16], x[32], y[32];
	const struct cr_meta *p, *q;
	const char *a, *b, *name;
	size_t i, cnt;
	int st, pass, tags;

	/*
	 * The cpufreq fields of a side written before they were recorded
	 * are not known: not checked, said once.
	 */
	if (warn && sm->cpufreq_recorded != m->cpufreq_recorded)
		fprintf(warn, "clkstat-report: warning: %s: the cpufreq driver, governor and boost are not recorded in %s (written before they were): not checked\n",
			path, sm->cpufreq_recorded ? "the runs added" :
			"the study");
	for (i = 0; i < cr_nmeta_strs; i++) {
		if (cr_meta_str_cpufreq(i) &&
		    (!sm->cpufreq_recorded || !m->cpufreq_recorded))
			continue;
		a = *cr_meta_str((struct cr_meta *)sm, i);
		b = *cr_meta_str((struct cr_meta *)m, i);
		if (!cr_str_differ(a, b))
			continue;
		st = cr_pool_field(path, cr_meta_strs[i].key, a, b, warn, err,
				   errlen);
		if (st)
			return st;
	}
#define NUM(key, fmt, v) do {						\
		snprintf(x, sizeof(x), fmt, sm->v);			\
		snprintf(y, sizeof(y), fmt, m->v);			\
		if (strcmp(x, y)) {					\
			st = cr_pool_field(path, key, x, y, warn, err,	\
					   errlen);			\
			if (st)						\
				return st;				\
		}							\
	} while (0)
	NUM("frac_bits", "%u", frac_bits);
	NUM("nr_cpus", "%u", nr_cpus);
	NUM("events", "%u", events);
#undef NUM
	cr_pool_num(x, sizeof(x), sm->duration_s);
	cr_pool_num(y, sizeof(y), m->duration_s);
	if (strcmp(x, y)) {
		st = cr_pool_field(path, "duration_s", x, y, warn, err,
				   errlen);
		if (st)
			return st;
	}
	/* Parameters, then tags, of either side, each name once. */
	for (pass = 0; pass < 4; pass++) {
		tags = pass >= 2;
		p = pass & 1 ? m : sm;
		q = pass & 1 ? sm : m;
		cnt = tags ? p->ntags : p->nparams;
		for (i = 0; i < cnt; i++) {
			name = tags ? p->tag_names[i] : p->param_names[i];
			a = tags ? cr_meta_tag(sm, name) :
			    cr_list_get(sm->nparams, sm->param_names,
					sm->param_values, name);
			b = tags ? cr_meta_tag(m, name) :
			    cr_list_get(m->nparams, m->param_names,
					m->param_values, name);
			/* The second side's names: those the first lacks. */
			if ((pass & 1) &&
			    (tags ? cr_meta_tag(q, name) :
			     cr_list_get(q->nparams, q->param_names,
					 q->param_values, name)))
				continue;
			if (!cr_str_differ(a, b))
				continue;
			snprintf(field, sizeof(field), "%s:%s",
				 tags ? "tag" : "param", name);
			st = cr_pool_field(path, field, a, b, warn, err,
					   errlen);
			if (st)
				return st;
		}
	}
	return CR_OK;
}

int cr_study_meta_pools(const struct cr_meta *sm, const struct cr_meta *m,
			const char *path, FILE *warn, char *err,
			size_t errlen)
{
	/*
	 * Refused or not first, with no warning: a refusal is one line,
	 * whatever else differs.  Then the warnings of what may differ.
	 */
	int st = cr_meta_pools_pass(sm, m, path, NULL, err, errlen);

	if (st || !warn)
		return st;
	return cr_meta_pools_pass(sm, m, path, warn, err, errlen);
}

int cr_study_append(const char *path, const struct cr_meta *m,
		    struct cr_study **out)
{
	struct cr_meta sm;
	struct cr_study *st;
	sqlite3_stmt *q;
	int ret, rc;

	*out = NULL;
	st = cr_study_new(path);
	if (!st)
		return CR_ERR;
	st->fd = open(path, O_RDWR | O_CLOEXEC);
	if (st->fd < 0) {
		snprintf(st->err, sizeof(st->err), "%s", strerror(errno));
		ret = cr_say(st, errno == ENOENT ? CR_NO_FILE : CR_ERR);
		cr_study_free(st);
		return ret;
	}
	ret = cr_study_lock(st);
	if (!ret)
		ret = cr_db_open(path, cr_study_shm_ok(st->fd) ? CR_DB_WRITE :
				 CR_DB_WRITE_EXCLUSIVE, &st->db, st->err,
				 sizeof(st->err));
	if (ret)
		goto fail;
	ret = cr_study_load_meta(st->db, &sm, st->err, sizeof(st->err));
	if (ret)
		goto fail;
	ret = cr_study_meta_pools(&sm, m, path, stderr, st->err,
				  sizeof(st->err));
	cr_meta_free(&sm);
	/*
	 * The settings of writing wait for the first run: a writer that adds
	 * nothing (import refusing a run twice) leaves the file as it was.
	 */
	if (!ret)
		ret = cr_study_prepare(st);
	if (ret)
		goto fail;
	/* Runs are numbered from 0 without a gap (the reader checks it). */
	rc = sqlite3_prepare_v2(st->db, "SELECT count(*) FROM runs", -1, &q,
				NULL);
	if (rc == SQLITE_OK && (rc = sqlite3_step(q)) == SQLITE_ROW)
		st->nruns = (size_t)sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	if (rc != SQLITE_ROW) {
		ret = cr_db_fail(st->db, rc, 1, "runs", st->err,
				 sizeof(st->err));
		goto fail;
	}
	*out = st;
	return CR_OK;
fail:
	cr_say(st, ret);
	cr_study_free(st);
	return ret;
}

int cr_study_frac_bits_pool(struct cr_study *st, const char *variant,
			    unsigned int frac_bits, char *err, size_t errlen)
{
	sqlite3_stmt *q = st->st[S_VARIANT_FB];
	int rc, ret = CR_OK;

	sqlite3_bind_text(q, 1, variant, -1, SQLITE_STATIC);
	sqlite3_bind_int64(q, 2, frac_bits);
	rc = sqlite3_step(q);
	if (rc == SQLITE_ROW) {
		snprintf(err, errlen, "cannot add these runs: the study's metrics of variant %s have frac_bits %lld, these %u: their histograms could not be pooled (a study holds the runs of one setup; -o another file)",
			 variant, (long long)sqlite3_column_int64(q, 0),
			 frac_bits);
		ret = CR_USAGE;
	} else if (rc != SQLITE_DONE) {
		ret = cr_db_fail(st->db, rc, 1, "metrics", err, errlen);
	}
	sqlite3_reset(q);
	return ret;
}

long cr_study_find_run(struct cr_study *st, const struct cr_run *r)
{
	sqlite3_stmt *q = st->st[S_FIND_RUN];
	long run = -1;

	/* Unknown times (0) tell nothing apart. */
	if (!r->start_ns && !r->end_ns)
		return -1;
	sqlite3_bind_text(q, 1, r->variant, -1, SQLITE_STATIC);
	sqlite3_bind_int64(q, 2, r->start_ns);
	sqlite3_bind_int64(q, 3, r->end_ns);
	if (sqlite3_step(q) == SQLITE_ROW)
		run = (long)sqlite3_column_int64(q, 0);
	sqlite3_reset(q);
	return run;
}

/* ---------------------------------------------------------------- */
/* A run.                                                            */

static int cr_put_hist(struct cr_study *st, int64_t metric, int64_t cpu,
		       const struct cr_hist *h)
{
	sqlite3_stmt *q = st->st[S_HIST];
	int64_t hist;
	size_t i;
	int ret;

	sqlite3_bind_int64(q, 1, metric);
	sqlite3_bind_int64(q, 2, cpu);
	if (h->nslots) {
		sqlite3_bind_int64(q, 3, cr_db_i64(h->min));
		sqlite3_bind_int64(q, 4, cr_db_i64(h->max));
	} else {
		sqlite3_bind_null(q, 3);
		sqlite3_bind_null(q, 4);
	}
	ret = cr_run_stmt(st, S_HIST);
	if (ret)
		return ret;
	hist = sqlite3_last_insert_rowid(st->db);
	q = st->st[S_SLOT];
	for (i = 0; i < h->nslots; i++) {
		sqlite3_bind_int64(q, 1, hist);
		sqlite3_bind_int64(q, 2, h->slots[i].slot);
		sqlite3_bind_int64(q, 3, cr_db_i64(h->slots[i].count));
		sqlite3_bind_int64(q, 4, cr_db_i64(h->slots[i].sum));
		ret = cr_run_stmt(st, S_SLOT);
		if (ret)
			return ret;
	}
	return CR_OK;
}

static int cr_put_metric(struct cr_study *st, int64_t run, size_t pos,
			 const struct cr_metric *m)
{
	sqlite3_stmt *q = st->st[S_METRIC];
	int64_t metric;
	size_t i;
	int ret;

	sqlite3_bind_int64(q, 1, run);
	sqlite3_bind_int64(q, 2, (int64_t)pos);
	sqlite3_bind_text(q, 3, m->name, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 4, m->variant, -1, SQLITE_STATIC);
	sqlite3_bind_int64(q, 5, m->frac_bits);
	sqlite3_bind_int(q, 6, !!m->recording);
	sqlite3_bind_int64(q, 7, cr_db_i64(m->created_ns));
	ret = cr_run_stmt(st, S_METRIC);
	if (ret)
		return ret;
	metric = sqlite3_last_insert_rowid(st->db);
	q = st->st[S_COUNTER];
	for (i = 0; i < m->ncounters && i < CR_COUNTERS_MAX; i++) {
		sqlite3_bind_int64(q, 1, metric);
		sqlite3_bind_int64(q, 2, (int64_t)i);
		sqlite3_bind_text(q, 3, m->counters[i].name, -1, SQLITE_STATIC);
		sqlite3_bind_int64(q, 4, cr_db_i64(m->counters[i].value));
		ret = cr_run_stmt(st, S_COUNTER);
		if (ret)
			return ret;
	}
	ret = cr_put_hist(st, metric, -1, &m->total);
	for (i = 0; !ret && i < m->ncpus; i++)
		ret = cr_put_hist(st, metric, m->cpus[i].cpu, &m->cpus[i]);
	return ret;
}

/*
 * The run's events, and their first and last rowid into its row: rows
 * inserted one after the other in one transaction get rowids in a row
 * (SQLite's next rowid is the largest plus one), which the reader checks.
 */
static int cr_put_events(struct cr_study *st, int64_t run,
			 const struct cr_events *x)
{
	sqlite3_stmt *q = st->st[S_EVENT];
	const struct clkstat_event_rec *e;
	int64_t first = 0, last = 0;
	unsigned int mig;
	size_t i, len;
	int ret;

	for (i = 0; i < x->n; i++) {
		e = &x->ev[i];
		mig = e->flags & (CLKSTAT_EVF_MIGRATED | CLKSTAT_EVF_LOCAL);
		sqlite3_bind_int64(q, 1, run);
		sqlite3_bind_int64(q, 2, cr_db_i64(e->ts));
		sqlite3_bind_int(q, 3, e->type);
		sqlite3_bind_int(q, 4, e->cpu);
		sqlite3_bind_int64(q, 5, e->pid);
		sqlite3_bind_int64(q, 6, cr_db_i64(e->corr));
		if (e->flags & CLKSTAT_EVF_LATENCY)
			sqlite3_bind_int64(q, 7, cr_db_i64(e->latency));
		else
			sqlite3_bind_null(q, 7);
		/* Known only with exactly one of the two flags. */
		if (mig == CLKSTAT_EVF_MIGRATED || mig == CLKSTAT_EVF_LOCAL)
			sqlite3_bind_int(q, 8, mig == CLKSTAT_EVF_MIGRATED);
		else
			sqlite3_bind_null(q, 8);
		if (e->flags & CLKSTAT_EVF_RQ_CLOCK)
			sqlite3_bind_int64(q, 9, cr_db_i64(e->rq_clock));
		else
			sqlite3_bind_null(q, 9);
		len = strnlen(e->text, sizeof(e->text) - 1);
		if (len)
			sqlite3_bind_text(q, 10, e->text, (int)len,
					  SQLITE_STATIC);
		else
			sqlite3_bind_null(q, 10);
		ret = cr_run_stmt(st, S_EVENT);
		if (ret)
			return ret;
		last = sqlite3_last_insert_rowid(st->db);
		if (!i)
			first = last;
	}
	if (last - first + 1 != (int64_t)x->n && x->n) {
		snprintf(st->err, sizeof(st->err), "events: rowids %" PRId64 " to %" PRId64 " for %zu events: not in a row",
			 first, last, x->n);
		return CR_ERR;
	}
	q = st->st[S_RUN_EVENTS];
	sqlite3_bind_int64(q, 1, run);
	sqlite3_bind_int64(q, 2, (int64_t)x->n);
	if (x->n) {
		sqlite3_bind_int64(q, 3, first);
		sqlite3_bind_int64(q, 4, last);
	} else {
		sqlite3_bind_null(q, 3);
		sqlite3_bind_null(q, 4);
	}
	return cr_run_stmt(st, S_RUN_EVENTS);
}

static int cr_put_run(struct cr_study *st, const struct cr_run *r)
{
	const struct cr_events *x = &r->events;
	sqlite3_stmt *q = st->st[S_RUN];
	int64_t run = (int64_t)st->nruns;
	size_t i;
	int ret;

	sqlite3_bind_int64(q, 1, run);
	sqlite3_bind_text(q, 2, r->variant, -1, SQLITE_STATIC);
	sqlite3_bind_int64(q, 3, r->start_ns);
	sqlite3_bind_int64(q, 4, r->end_ns);
	sqlite3_bind_int(q, 5, r->exit_status);
	if (r->workload_only >= 0)
		sqlite3_bind_int(q, 6, !!r->workload_only);
	else
		sqlite3_bind_null(q, 6);
	sqlite3_bind_int(q, 7, !!x->present);
	sqlite3_bind_int64(q, 8, cr_db_i64(x->present ? x->lost : 0));
	for (i = 0; i < 2; i++) {
		if (x->present && i < x->nclock) {
			sqlite3_bind_int64(q, 9 + 2 * (int)i,
					   x->clock[i].mono_ns);
			sqlite3_bind_int64(q, 10 + 2 * (int)i,
					   x->clock[i].realtime_ns);
		} else {
			sqlite3_bind_null(q, 9 + 2 * (int)i);
			sqlite3_bind_null(q, 10 + 2 * (int)i);
		}
	}
	ret = cr_run_stmt(st, S_RUN);
	q = st->st[S_RUN_TAG];
	for (i = 0; !ret && i < r->ntags; i++) {
		sqlite3_bind_int64(q, 1, run);
		sqlite3_bind_int64(q, 2, (int64_t)i);
		sqlite3_bind_text(q, 3, r->tag_names[i], -1, SQLITE_STATIC);
		sqlite3_bind_text(q, 4, r->tag_values[i], -1, SQLITE_STATIC);
		ret = cr_run_stmt(st, S_RUN_TAG);
	}
	for (i = 0; !ret && i < r->nmetrics; i++)
		ret = cr_put_metric(st, run, i, &r->metrics[i]);
	if (!ret && x->present)
		ret = cr_put_events(st, run, x);
	return ret;
}

int cr_study_add_run(struct cr_study *st, const struct cr_run *r)
{
	int ret;

	if (r->events.lazy && r->events.n && !r->events.ev) {
		snprintf(st->err, sizeof(st->err), "run %zu: its events are not loaded (cr_run_events_load())",
			 st->nruns);
		return cr_say(st, CR_ERR);
	}

	ret = st->writing ? CR_OK : cr_study_pragmas(st);
	/* IMMEDIATE: the write lock now, not at the first insert. */
	if (!ret)
		ret = cr_db_exec(st->db, "BEGIN IMMEDIATE", st->err,
				 sizeof(st->err));
	if (!ret)
		ret = cr_put_run(st, r);
	if (!ret && cr_study_before_commit)
		cr_study_before_commit(st->path);
	if (!ret)
		ret = cr_db_exec(st->db, "COMMIT", st->err, sizeof(st->err));
	if (ret) {
		sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
		return cr_say(st, CR_ERR);
	}
	st->nruns++;
	/*
	 * Into the database file now, between runs.  PASSIVE: a reader
	 * reading an older run is not waited for; what it holds back goes
	 * with the next run's checkpoint.
	 */
	sqlite3_wal_checkpoint_v2(st->db, NULL, SQLITE_CHECKPOINT_PASSIVE,
				  NULL, NULL);
	return CR_OK;
}

int cr_study_close(struct cr_study *st)
{
	int rc, ret = CR_OK;

	if (!st)
		return CR_OK;
	if (!st->writing) {
		cr_study_free(st);
		return CR_OK;
	}
	/*
	 * Everything into the database file, then back to a rollback
	 * journal: a finished study is one file, which a reader can open
	 * read-only where it cannot make the WAL's side files.  A reader
	 * that has it open keeps it in WAL mode (busy), which is no error:
	 * the file reads the same either way.
	 */
	sqlite3_busy_timeout(st->db, 0);	/* no waiting for readers */
	rc = sqlite3_wal_checkpoint_v2(st->db, NULL, SQLITE_CHECKPOINT_TRUNCATE,
				       NULL, NULL);
	if (rc == SQLITE_OK)
		sqlite3_exec(st->db, "PRAGMA journal_mode = DELETE", NULL, NULL,
			     NULL);
	else if ((rc & 0xff) != SQLITE_BUSY && (rc & 0xff) != SQLITE_LOCKED)
		ret = cr_db_fail(st->db, rc, 0, "checkpoint", st->err,
				 sizeof(st->err));
	if (ret)
		cr_say(st, ret);
	cr_study_free(st);
	return ret;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * study_db.h - internal to the study code (study_read.c, study_write.c),
 * not part of study.h: opening a study and checking that it is one,
 * SQLite's failures as one line and a status, and the u64 values the
 * INTEGER columns hold (study_schema.sql, "Conventions").
 */
#ifndef CLKSTAT_REPORT_STUDY_DB_H
#define CLKSTAT_REPORT_STUDY_DB_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sqlite3.h>
#include "model.h"

/*
 * study_schema.sql's PRAGMA application_id ("clks") and user_version:
 * written 2 (meta's cpufreq columns), read 1 and 2.
 */
#define CR_STUDY_APP_ID		1668049779
#define CR_STUDY_VERSION	2

/* cr_db_open()'s ways: read-only, to write, to write alone. */
enum { CR_DB_READ, CR_DB_WRITE, CR_DB_WRITE_EXCLUSIVE };

/*
 * Open the study at path, read-only or to write (CR_DB_WRITE_EXCLUSIVE:
 * in SQLite's EXCLUSIVE locking mode, set before the file is read, for a
 * folder where its WAL index cannot be shared memory), and check that it
 * is a study this code reads: its application_id, its schema version (a
 * newer one is CR_FORMAT), and its tables there as tables.  On failure
 * *db is NULL and err holds one line without the file's name.  Return
 * CR_OK, CR_NO_FILE, CR_CORRUPT, CR_FORMAT or CR_ERR.
 */
int cr_db_open(const char *path, int writable, sqlite3 **db, char *err,
	       size_t errlen);

/*
 * The status of SQLite result code rc: a damaged file (SQLITE_CORRUPT,
 * SQLITE_NOTADB, a short read; when reading, a table or column missing
 * too) is CR_CORRUPT, a file that cannot be opened or read CR_NO_FILE,
 * anything else (out of memory, a full disk, a lock) CR_ERR.
 */
int cr_db_status(int rc, int reading);

/* "what: SQLite's words" into err; return cr_db_status(rc, reading). */
int cr_db_fail(sqlite3 *db, int rc, int reading, const char *what,
	       char *err, size_t errlen);

/*
 * err made one line: control characters (SQLite's messages quote a
 * damaged schema's SQL, line breaks and all) become spaces.
 */
void cr_db_one_line(char *err);

/* A one-integer PRAGMA or query into *v; CR_OK or cr_db_fail()'s. */
int cr_db_int(sqlite3 *db, const char *sql, int64_t *v, char *err,
	      size_t errlen);

/* Run one statement without rows; CR_OK or cr_db_fail(). */
int cr_db_exec(sqlite3 *db, const char *sql, char *err, size_t errlen);

/* A u64 as the INTEGER of the same 64 bits, and back. */
static inline int64_t cr_db_i64(uint64_t v)
{
	int64_t i;

	memcpy(&i, &v, sizeof(i));
	return i;
}

static inline uint64_t cr_db_u64(int64_t i)
{
	uint64_t v;

	memcpy(&v, &i, sizeof(v));
	return v;
}

/*
 * The study's metadata (tables meta, meta_params, meta_tags) into m
 * (zeroed here), checked as the JSON reader checks a snapshot's.
 * study_read.c; the writer reads it to append.  On failure err holds one
 * line and m is left empty.
 */
int cr_study_load_meta(sqlite3 *db, struct cr_meta *m, char *err,
		       size_t errlen);

#endif

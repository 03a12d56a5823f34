// SPDX-License-Identifier: GPL-2.0
/*
 * study_db.c - opening a study and telling it apart from other SQLite
 * files, and SQLite's failures as one line and a status (study_db.h);
 * what study_read.c and study_write.c share.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "status.h"
#include "study.h"
#include "study_db.h"

/* The first 16 bytes of every SQLite 3 database. */
static const char cr_sqlite_magic[16] = "SQLite format 3";

/* The tables a reader reads: a view or nothing by one of these names is
 * not a study (a view could run anything a query can). */
static const char *const cr_study_tables[] = {
	"meta", "meta_params", "meta_tags", "event_types", "runs",
	"run_tags", "metrics", "counters", "hists", "slots", "events",
};

int cr_study_sniff(const void *buf, size_t len)
{
	return len >= sizeof(cr_sqlite_magic) &&
	       !memcmp(buf, cr_sqlite_magic, sizeof(cr_sqlite_magic));
}

int cr_study_sniff_fd(int fd)
{
	char hdr[sizeof(cr_sqlite_magic)];
	ssize_t n;

	do
		n = pread(fd, hdr, sizeof(hdr), 0);
	while (n < 0 && errno == EINTR);
	return n == (ssize_t)sizeof(hdr) && cr_study_sniff(hdr, sizeof(hdr));
}

int cr_db_status(int rc, int reading)
{
	switch (rc & 0xff) {
	case SQLITE_OK:
	case SQLITE_ROW:
	case SQLITE_DONE:
		return CR_OK;
	case SQLITE_CORRUPT:
	case SQLITE_NOTADB:
	case SQLITE_FORMAT:
	case SQLITE_MISMATCH:
	case SQLITE_RANGE:
		return CR_CORRUPT;
	case SQLITE_IOERR:
		/* A page past the end of a truncated file. */
		if (rc == SQLITE_IOERR_SHORT_READ)
			return CR_CORRUPT;
		return reading ? CR_NO_FILE : CR_ERR;
	case SQLITE_CANTOPEN:
	case SQLITE_PERM:
	case SQLITE_AUTH:
		return CR_NO_FILE;
	case SQLITE_ERROR:
		/* "no such table", "no such column": not our schema. */
		return reading ? CR_CORRUPT : CR_ERR;
	default:
		return CR_ERR;
	}
}

int cr_db_fail(sqlite3 *db, int rc, int reading, const char *what,
	       char *err, size_t errlen)
{
	const char *why = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);

	/* sqlite3_errmsg() is the last call's; rc may be older. */
	if (!why || !*why || !strcmp(why, "not an error"))
		why = sqlite3_errstr(rc);
	snprintf(err, errlen, "%s: %s", what, why);
	return cr_db_status(rc, reading);
}

void cr_db_one_line(char *err)
{
	for (; *err; err++)
		if ((unsigned char)*err < 0x20 || *err == 0x7f)
			*err = ' ';
}

int cr_db_exec(sqlite3 *db, const char *sql, char *err, size_t errlen)
{
	int rc = sqlite3_exec(db, sql, NULL, NULL, NULL);

	if (rc == SQLITE_OK)
		return CR_OK;
	return cr_db_fail(db, rc, 0, sql, err, errlen);
}

int cr_db_int(sqlite3 *db, const char *sql, int64_t *v, char *err,
		     size_t errlen)
{
	sqlite3_stmt *st;
	int rc;

	rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	if (rc != SQLITE_OK)
		return cr_db_fail(db, rc, 1, sql, err, errlen);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && sqlite3_column_type(st, 0) == SQLITE_INTEGER) {
		*v = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
		return CR_OK;
	}
	if (rc == SQLITE_ROW || rc == SQLITE_DONE)
		rc = SQLITE_CORRUPT;
	cr_db_fail(db, rc, 1, sql, err, errlen);
	sqlite3_finalize(st);
	return cr_db_status(rc, 1);
}

/* Each of cr_study_tables is there, as a table. */
static int cr_db_tables(sqlite3 *db, char *err, size_t errlen)
{
	static const char sql[] =
		"SELECT type FROM sqlite_schema WHERE name = ?1";
	sqlite3_stmt *st;
	const char *type;
	size_t i;
	int rc, ret = CR_OK;

	rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	if (rc != SQLITE_OK)
		return cr_db_fail(db, rc, 1, "the schema", err, errlen);
	for (i = 0; i < sizeof(cr_study_tables) / sizeof(cr_study_tables[0]);
	     i++) {
		sqlite3_bind_text(st, 1, cr_study_tables[i], -1, SQLITE_STATIC);
		rc = sqlite3_step(st);
		if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
			ret = cr_db_fail(db, rc, 1, "the schema", err, errlen);
			break;
		}
		type = rc == SQLITE_ROW ?
		       (const char *)sqlite3_column_text(st, 0) : NULL;
		if (!type || strcmp(type, "table")) {
			snprintf(err, errlen, "table %s is %s", cr_study_tables[i],
				 type ? "not a table" : "missing");
			ret = CR_CORRUPT;
			break;
		}
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return ret;
}

/*
 * A WAL-mode study with no WAL beside it (a copy taken while a run was
 * written, or one on read-only media) where SQLite cannot make its -shm
 * file (a folder this reader may not write): nothing can be writing it,
 * so it is opened as immutable, which needs no side file.  With a WAL
 * there, a writer may be at work: never.
 */
static int cr_db_immutable_ok(sqlite3 *db, const char *path)
{
	int rc = sqlite3_extended_errcode(db) & 0xff;
	char wal[4200];
	struct stat sb;

	if (rc != SQLITE_READONLY && rc != SQLITE_CANTOPEN)
		return 0;
	snprintf(wal, sizeof(wal), "%s-wal", path);
	return strlen(path) < 4000 && (stat(wal, &sb) || !sb.st_size);
}

/* "file:" and path as an SQLite URI, immutable (the caller frees it). */
static char *cr_db_immutable_uri(const char *path)
{
	char *uri = malloc(3 * strlen(path) + 32), *o = uri;
	const char *p;

	if (!uri)
		return NULL;
	o += sprintf(o, "file:");
	for (p = path; *p; p++) {
		if (*p == '%' || *p == '?' || *p == '#')
			o += sprintf(o, "%%%02x", (unsigned char)*p);
		else
			*o++ = *p;
	}
	strcpy(o, "?immutable=1");
	return uri;
}

/* Open (a URI when uri) and check; the status, *out set on CR_OK. */
static int cr_db_try(const char *name, int uri, int writable,
		     sqlite3 **out, char *err, size_t errlen)
{
	sqlite3 *db = NULL;
	int64_t v;
	int rc, st;

	*out = NULL;
	rc = sqlite3_open_v2(name, &db, (writable ? SQLITE_OPEN_READWRITE :
			     SQLITE_OPEN_READONLY) | (uri ? SQLITE_OPEN_URI : 0) |
			     SQLITE_OPEN_NOMUTEX,
			     NULL);
	if (rc != SQLITE_OK) {
		st = cr_db_fail(db, rc, 1, "open", err, errlen);
		*out = db;	/* for its error code; closed by the caller */
		return st;
	}
	sqlite3_extended_result_codes(db, 1);
	/*
	 * A file could hold anything: SQLite's own guard against a
	 * corrupt file's schema, and no function of ours run from it.
	 */
	sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
	sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL);
	/* A writer checkpointing between runs holds the file briefly. */
	sqlite3_busy_timeout(db, 10000);
	st = writable == CR_DB_WRITE_EXCLUSIVE ?
	     cr_db_exec(db, "PRAGMA locking_mode = EXCLUSIVE", err, errlen) :
	     CR_OK;
	if (!st)
		st = cr_db_int(db, "PRAGMA application_id", &v, err, errlen);
	if (!st && v != CR_STUDY_APP_ID) {
		snprintf(err, errlen, "an SQLite database, but not a clkstat study (application_id %lld, a study's is %d)",
			 (long long)v, CR_STUDY_APP_ID);
		st = CR_FORMAT;
	}
	if (!st)
		st = cr_db_int(db, "PRAGMA user_version", &v, err, errlen);
	if (!st && v > CR_STUDY_VERSION) {
		snprintf(err, errlen, "study schema version %lld: this clkstat-report reads versions 1 to %d (a newer one wrote it)",
			 (long long)v, CR_STUDY_VERSION);
		st = CR_FORMAT;
	} else if (!st && v < 1) {
		snprintf(err, errlen, "study schema version %lld: no schema was written",
			 (long long)v);
		st = CR_CORRUPT;
	}
	if (!st)
		st = cr_db_tables(db, err, errlen);
	*out = db;
	return st;
}

int cr_db_open(const char *path, int writable, sqlite3 **out, char *err,
	       size_t errlen)
{
	sqlite3 *db;
	char *uri;
	int st;

	*out = NULL;
	st = cr_db_try(path, 0, writable, &db, err, errlen);
	if (st && !writable && db && cr_db_immutable_ok(db, path)) {
		sqlite3_close(db);
		uri = cr_db_immutable_uri(path);
		if (!uri) {
			snprintf(err, errlen, "out of memory");
			return CR_ERR;
		}
		st = cr_db_try(uri, 1, 0, &db, err, errlen);
		free(uri);
	}
	if (st) {
		sqlite3_close(db);
		return st;
	}
	*out = db;
	return CR_OK;
}

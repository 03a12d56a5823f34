// SPDX-License-Identifier: GPL-2.0
/*
 * study_fuzz_test.c - the study reader on damaged files: a small real
 * study cut at many lengths, with bytes flipped at many offsets, and
 * changed by SQL into what the writer never writes (a slot beyond its
 * layout, a run missing, an unknown event type, counts that do not add
 * up, a table gone or made a view, another application's id).  Every
 * case must read (CR_OK, every run's events loaded too) or be refused
 * with CR_CORRUPT or CR_FORMAT and one line naming the file; never a
 * crash, a hang or another status.  The SQL cases also name the table
 * and row the line must show.
 *
 * tools/tests/unit.sh runs it under valgrind, and its ASan build
 * (study_fuzz_test_asan, AddressSanitizer and UBSan over the library).
 * CLKSTAT_FUZZ_SEED picks other flips (default 1).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <sqlite3.h>

#include "../lib/snapshot.h"
#include "../lib/status.h"
#include "../lib/study.h"
#include "snap_build.h"
#include "test_files.h"

/* The study every case starts from, and its bytes. */
static char *dir, *orig, *path;
static char *bytes;
static size_t nbytes;
/* Outcomes over all cases, printed at the end of each test. */
static unsigned int n_ok, n_corrupt, n_format;

/* build_small() and a second run with every kind of event and tags. */
static void build(struct cr_snapshot *s)
{
	struct cr_metric *m;
	struct cr_run *r;

	build_small(s);
	assert_int_equal(cr_meta_add_tag(&s->meta, "rig", "a"), 0);
	r = run(s, "kprobe", 300, 400, 0);
	assert_int_equal(cr_run_add_tag(r, "cstate", "qos0"), 0);
	m = metric(r, "ttwu", "kprobe", 3, 1);
	counter(m, "missed", 2);
	sample(m, 1, 77, 3);
	sample(m, 3, 123456, 1);
	r->events.lost = 5;
	r->events.nclock = 2;
	r->events.clock[0] = (struct cr_clock_pair){ 10, 1000 };
	r->events.clock[1] = (struct cr_clock_pair){ 90, 1080 };
	event(r, 10, CLKSTAT_EV_MARKER, 0, 1, 0, 0, 0, 0, "run_start");
	event(r, 11, CLKSTAT_EV_WAKEUP, 1, 2, 7, 0, 0, 0, "");
	event(r, 12, CLKSTAT_EV_ENQUEUE, 1, 2, 7,
	      CLKSTAT_EVF_LATENCY | CLKSTAT_EVF_MIGRATED | CLKSTAT_EVF_RQ_CLOCK,
	      1, 11, "");
	event(r, 13, CLKSTAT_EV_FIRST_TKREAD, 1, 2, 7,
	      CLKSTAT_EVF_LATENCY | CLKSTAT_EVF_LOCAL, 3, 0, "");
	event(r, 14, CLKSTAT_EV_CS_READ, 0, 2, 0, CLKSTAT_EVF_LATENCY, 40, 0,
	      "hpet");
	event(r, 90, CLKSTAT_EV_MARKER, 0, 1, 0, 0, 0, 0, "run_end");
}

/* The case's file: len bytes of buf, nothing of SQLite's beside it. */
static void put_case(const char *buf, size_t len)
{
	static const char *const ext[] = { "-wal", "-shm", "-journal" };
	char side[512];
	size_t i;

	for (i = 0; i < sizeof(ext) / sizeof(ext[0]); i++) {
		snprintf(side, sizeof(side), "%s%s", path, ext[i]);
		unlink(side);
	}
	write_file(path, buf, len);
}

static int setup(void **state)
{
	struct cr_snapshot s;
	struct cr_study *st;
	size_t i;

	(void)state;
	dir = tmpdir();
	orig = join(dir, "orig.db");
	path = join(dir, "case.db");
	build(&s);
	assert_int_equal(cr_study_create(orig, &s.meta, &st), CR_OK);
	for (i = 0; i < s.nruns; i++)
		assert_int_equal(cr_study_add_run(st, &s.runs[i]), CR_OK);
	assert_int_equal(cr_study_close(st), CR_OK);
	cr_snapshot_free(&s);
	read_file(orig, &bytes, &nbytes);
	return 0;
}

static int teardown(void **state)
{
	free(bytes);
	free(orig);
	free(path);
	free(dir);
	return teardown_dir(state);
}

/*
 * Read path as clkstat-report would, and every run's events: CR_OK and
 * nothing said, or CR_CORRUPT or CR_FORMAT and one line naming the file
 * (with want in it, when given).  Return the status.
 */
static int read_case(const char *what, int want_st, const char *want)
{
	struct cr_snapshot s;
	struct capture c;
	char *out, prefix[600];
	size_t i;
	int st, rst;

	memset(&s, 0xa5, sizeof(s));
	capture_begin(&c, 2);
	st = rst = cr_snapshot_read(path, &s);
	for (i = 0; !rst && !st && i < s.nruns; i++) {
		st = cr_run_events_load(&s, &s.runs[i]);
		cr_run_events_drop(&s.runs[i]);
	}
	out = capture_end(&c);
	snprintf(prefix, sizeof(prefix), "clkstat-report: %s: ", path);
	if ((st != CR_OK && st != CR_CORRUPT && st != CR_FORMAT) ||
	    (want_st >= 0 && st != want_st) || (!st && *out) ||
	    (st && (strncmp(out, prefix, strlen(prefix)) ||
		    strchr(out, '\n') != out + strlen(out) - 1)) ||
	    (want && !strstr(out, want)))
		print_error("%s: status %d (want %d), said: %s(want \"%s\")\n",
			    what, st, want_st, out, want ? want : "");
	assert_true(st == CR_OK || st == CR_CORRUPT || st == CR_FORMAT);
	if (want_st >= 0)
		assert_int_equal(st, want_st);
	if (!st)
		assert_string_equal(out, "");
	else
		assert_one_line(out, path, want ? want : "");
	/* Refused by the reader: nothing read; else freed as ever. */
	if (rst)
		assert_empty(&s);
	else
		cr_snapshot_free(&s);
	free(out);
	n_ok += st == CR_OK;
	n_corrupt += st == CR_CORRUPT;
	n_format += st == CR_FORMAT;
	return st;
}

static void say_counts(const char *what)
{
	print_message("%s: %u read, %u corrupt, %u format\n", what, n_ok,
		      n_corrupt, n_format);
	n_ok = n_corrupt = n_format = 0;
}

/* The file as written reads. */
static void test_original(void **state)
{
	(void)state;
	put_case(bytes, nbytes);
	assert_int_equal(read_case("the study as written", CR_OK, NULL),
			 CR_OK);
}

/*
 * Cut at every length of the header, then in steps of a prime (which
 * falls at every offset within a page in turn), and around each page's
 * edges (SQLite's pages: 4096 bytes).
 */
static void test_truncated(void **state)
{
	char what[64];
	size_t len, k;

	(void)state;
	for (len = 0; len < nbytes; len += len < 128 ? 1 : 97) {
		put_case(bytes, len);
		snprintf(what, sizeof(what), "cut at %zu", len);
		read_case(what, -1, NULL);
	}
	for (k = 4096; k < nbytes; k += 4096) {
		for (len = k - 2; len <= k + 2 && len < nbytes; len++) {
			put_case(bytes, len);
			snprintf(what, sizeof(what), "cut at %zu", len);
			read_case(what, -1, NULL);
		}
	}
	say_counts("truncated");
}

/* One byte changed at many offsets: every header byte, then at random. */
static void test_flipped(void **state)
{
	const char *seed_env = getenv("CLKSTAT_FUZZ_SEED");
	unsigned int seed = seed_env ? (unsigned int)atoi(seed_env) : 1;
	char *buf = malloc(nbytes), what[64];
	size_t i, off;
	unsigned char x;

	(void)state;
	assert_non_null(buf);
	srand(seed);
	for (i = 0; i < 100 + 700; i++) {
		off = i < 100 ? i : (size_t)rand() % nbytes;
		x = i < 100 ? 0xff : (unsigned char)(1 + rand() % 255);
		memcpy(buf, bytes, nbytes);
		buf[off] ^= x;
		put_case(buf, nbytes);
		snprintf(what, sizeof(what), "byte %zu ^ 0x%02x (seed %u)", off,
			 x, seed);
		read_case(what, -1, NULL);
	}
	free(buf);
	say_counts("flipped");
}

/* ---------------------------------------------------------------- */
/* What the writer never writes, by SQL.                             */

static const struct {
	const char *sql;
	int st;
	const char *want;	/* in the line */
} sql_cases[] = {
	/* Valid all the same: a CPU's number changed. */
	{ "UPDATE hists SET cpu = 1000 WHERE cpu = 3", CR_OK, NULL },
	{ "UPDATE slots SET slot = slot + 4000 WHERE hist = 1", CR_CORRUPT,
	  "slots (hist 1, slot 4005): slot 4005 is beyond the last slot, 495, of frac_bits 3" },
	{ "UPDATE slots SET count = 0 WHERE hist = 1 AND slot = 5", CR_CORRUPT,
	  "slots (hist 1, slot 5): slot 5 has count 0" },
	{ "UPDATE slots SET sum = 11 WHERE hist = 1 AND slot = 5", CR_CORRUPT,
	  "slots (hist 1, slot 5): sum 11 is impossible for count 2" },
	{ "UPDATE slots SET count = 3, sum = 15 WHERE hist = 1 AND slot = 5",
	  CR_CORRUPT, "its total: slot 5 has count 3 and sum 15, the CPUs' add up to count 2 and sum 10" },
	{ "UPDATE hists SET min = 7 WHERE hist = 1", CR_CORRUPT,
	  "hists row 1: min 7 is not in the first slot, 5" },
	{ "UPDATE hists SET min = NULL, max = NULL WHERE hist = 1", CR_CORRUPT,
	  "hists row 1: min and max null, but the histogram has slots" },
	{ "DELETE FROM slots WHERE hist = 2", CR_CORRUPT,
	  "hists row 2: cpu 0 has no samples" },
	{ "DELETE FROM hists WHERE hist = 1", CR_CORRUPT,
	  "slots (hist 1, slot 5): no hist 1" },
	{ "DELETE FROM slots WHERE hist = 1; DELETE FROM hists WHERE hist = 1",
	  CR_CORRUPT, "metrics row 1: no total histogram" },
	{ "INSERT INTO hists (hist, metric, cpu) VALUES (99, 1, 9)", CR_CORRUPT,
	  "hists row 99: cpu 9 has no samples" },
	{ "DELETE FROM runs WHERE run = 0", CR_CORRUPT,
	  "runs row 1: run 0 is missing" },
	{ "DELETE FROM runs WHERE run = 1", CR_CORRUPT,
	  "run_tags (run 1, pos 0): run 1 is outside [0, 0]" },
	{ "UPDATE runs SET variant = '' WHERE run = 1", CR_CORRUPT,
	  "runs row 1: variant empty name" },
	{ "UPDATE runs SET exit_status = 256 WHERE run = 0", CR_CORRUPT,
	  "runs row 0: exit_status 256 is outside [-1, 255]" },
	{ "UPDATE runs SET events_n = 7 WHERE run = 1", CR_CORRUPT,
	  "runs row 1: events_n 7 with first_event set and last_event set" },
	{ "UPDATE runs SET events_n = events_n + 1, last_event = last_event + 1 "
	  "WHERE run = 0", CR_CORRUPT, "events row 3: run 1 is outside [0, 0]" },
	{ "UPDATE runs SET clock1_mono_ns = NULL WHERE run = 1", CR_CORRUPT,
	  "runs row 1: clock pairs" },
	{ "UPDATE events SET type = 99 WHERE rowid = 4", CR_CORRUPT,
	  "events row 4: unknown event type 99" },
	{ "UPDATE event_types SET name = 'gone' WHERE type = 2", CR_CORRUPT,
	  "events row 6: unknown event type 2" },
	{ "UPDATE events SET ts = 1 WHERE rowid = 6", CR_CORRUPT,
	  "events row 6: ts 1 before the previous row's 12" },
	{ "DELETE FROM events WHERE rowid = 5", CR_CORRUPT,
	  "events row 6: row 5 is missing" },
	{ "UPDATE events SET text = 'sixteen bytes 16' WHERE rowid = 3",
	  CR_CORRUPT, "events row 3: text of 16 bytes: at most 15" },
	{ "UPDATE events SET cpu = 65536 WHERE rowid = 4", CR_CORRUPT,
	  "events row 4: cpu 65536 is outside [0, 65535]" },
	{ "UPDATE events SET migrated = 2 WHERE rowid = 5", CR_CORRUPT,
	  "events row 5: migrated 2 is outside [0, 1]" },
	{ "UPDATE metrics SET pos = 5 WHERE metric = 2", CR_CORRUPT,
	  "metrics row 2: pos 5 in run 1, where pos 0 comes next" },
	{ "UPDATE metrics SET name = 'a\x01' WHERE metric = 1", CR_CORRUPT,
	  "metrics row 1: name \"a?\" has a control character" },
	{ "UPDATE metrics SET frac_bits = 0 WHERE metric = 1", CR_CORRUPT,
	  "slots (hist 1, slot 5): sum 10 is impossible for count 2 in slot 5" },
	{ "INSERT INTO counters VALUES (999, 0, 'x', 1)", CR_CORRUPT,
	  "counters (metric 999, pos 0): no such metric" },
	{ "UPDATE counters SET pos = 3 WHERE metric = 1", CR_CORRUPT,
	  "counters (metric 1, pos 3): pos 3 is outside [0, 0]" },
	{ "UPDATE run_tags SET name = 'a=b'", CR_CORRUPT,
	  "run_tags (run 1, pos 0): a key is letters, digits" },
	{ "UPDATE meta_tags SET value = ''", CR_CORRUPT,
	  "meta_tags row 0: --tag rig: the value is empty" },
	{ "INSERT INTO meta_params VALUES (9, '', 'x')", CR_CORRUPT,
	  "meta_params row 9: empty parameter name" },
	{ "DELETE FROM meta", CR_CORRUPT, "meta: no row" },
	{ "UPDATE meta SET frac_bits = 9", CR_CORRUPT,
	  "meta: frac_bits 9 is outside [0, 5]" },
	{ "UPDATE meta SET duration_s = -1", CR_CORRUPT,
	  "meta: duration_s -1: not a finite number" },
	{ "DROP TABLE hists", CR_CORRUPT, "table hists is missing" },
	{ "DROP TABLE slots; CREATE VIEW slots AS SELECT 1 AS hist, "
	  "2 AS slot, 3 AS count, 4 AS sum", CR_CORRUPT,
	  "table slots is not a table" },
	{ "DROP VIEW events_v; ALTER TABLE events DROP COLUMN pid",
	  CR_CORRUPT,
	  "events: no such column: pid" },
	{ "PRAGMA application_id = 7", CR_FORMAT,
	  "an SQLite database, but not a clkstat study (application_id 7" },
	{ "PRAGMA user_version = 99", CR_FORMAT,
	  "study schema version 99: this clkstat-report reads versions 1 to 2" },
	{ "PRAGMA user_version = 0", CR_CORRUPT,
	  "study schema version 0: no schema was written" },
};

static void test_sql(void **state)
{
	char what[512];
	sqlite3 *db;
	size_t i;
	int rc;

	(void)state;
	for (i = 0; i < sizeof(sql_cases) / sizeof(sql_cases[0]); i++) {
		put_case(bytes, nbytes);
		assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
		/* What the writer's CHECKs and keys would have refused. */
		rc = sqlite3_exec(db, "PRAGMA ignore_check_constraints = 1; "
				  "PRAGMA foreign_keys = 0", NULL, NULL, NULL);
		if (!rc)
			rc = sqlite3_exec(db, sql_cases[i].sql, NULL, NULL,
					  NULL);
		if (rc)
			print_error("%s: %s\n", sql_cases[i].sql,
				    sqlite3_errmsg(db));
		assert_int_equal(rc, SQLITE_OK);
		assert_int_equal(sqlite3_close(db), SQLITE_OK);
		snprintf(what, sizeof(what), "%s", sql_cases[i].sql);
		read_case(what, sql_cases[i].st, sql_cases[i].want);
	}
	say_counts("sql");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_original),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_flipped),
		cmocka_unit_test(test_sql),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * study_test.c - study files (tools/lib/study_*.c): a snapshot through a
 * study and back, exported byte for byte as the JSON writer writes it,
 * for made-up snapshots with 64-bit extremes and for JSON of every
 * version the reader takes; a run's events loaded and dropped one run at
 * a time; appending refused where the metadata does not pool; a second
 * writer refused while the first holds the study; a copy of the file
 * taken inside a run's transaction reading as the runs before it; a
 * study of schema version 1 read, and appended to as it is.
 * study_fuzz_test.c has the damaged files.
 *
 * Run under valgrind (tools/tests/unit.sh): leaks and invalid accesses
 * fail it too.
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
#include <sys/wait.h>
#include <unistd.h>
#include <sqlite3.h>

#include "../lib/snapshot.h"
#include "../lib/status.h"
#include "../lib/study.h"
#include "snap_build.h"
#include "test_files.h"

/* ---------------------------------------------------------------- */
/* Through a study.                                                  */

/* build_big() and what it lacks: every optional field of version 4. */
static void build_full(struct cr_snapshot *s)
{
	build_big(s);
	s->meta.clock = xstrdup("tsc");
	s->meta.conditions = xstrdup("cstates=qos0,free load=idle,busy(4)");
	s->meta.host = xstrdup("host-1");
	assert_int_equal(cr_meta_add_tag(&s->meta, "experiment", "a b"), 0);
	assert_int_equal(cr_meta_add_tag(&s->meta, "host", "h1"), 0);
	assert_int_equal(cr_run_add_tag(&s->runs[0], "cstate", "qos0"), 0);
	assert_int_equal(cr_run_add_tag(&s->runs[0], "load", "busy"), 0);
	assert_int_equal(cr_run_add_tag(&s->runs[2], "cstate", "free"), 0);
}

/* s (events held) as a new study at path. */
static void study_write(const struct cr_snapshot *s, const char *path)
{
	struct cr_study *st;
	size_t i;

	assert_int_equal(cr_study_create(path, &s->meta, &st), CR_OK);
	for (i = 0; i < s->nruns; i++)
		assert_int_equal(cr_study_add_run(st, &s->runs[i]), CR_OK);
	assert_int_equal(cr_study_nruns(st), s->nruns);
	assert_int_equal(cr_study_close(st), CR_OK);
}

/*
 * What export writes for s: the document run by run, each run's events
 * loaded for it and dropped after it; none are held at the end.
 */
static char *export_json(struct cr_snapshot *s)
{
	char *text = NULL;
	size_t len = 0, i;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	assert_int_equal(cr_snapshot_put_head(f, s), CR_OK);
	for (i = 0; i < s->nruns; i++) {
		assert_int_equal(cr_run_events_load(s, &s->runs[i]), CR_OK);
		assert_int_equal(cr_snapshot_put_run(f, &s->runs[i], i), CR_OK);
		cr_run_events_drop(&s->runs[i]);
		if (s->runs[i].events.lazy)
			assert_null(s->runs[i].events.ev);
	}
	cr_snapshot_put_tail(f, s->nruns);
	assert_int_equal(fclose(f), 0);
	return text;
}

/*
 * a through a study: read back equal to a (events loaded), and exported
 * as the text the JSON writer makes of a.
 */
static void through_study(const struct cr_snapshot *a, const char *name)
{
	char *dir = tmpdir(), *path = join(dir, name), *want, *got;
	struct cr_snapshot b;
	size_t i;

	study_write(a, path);
	memset(&b, 0xa5, sizeof(b));
	assert_int_equal(cr_snapshot_read(path, &b), CR_OK);
	assert_non_null(b.source);
	/* Read without its events: only their counts. */
	for (i = 0; i < b.nruns; i++) {
		assert_int_equal(b.runs[i].events.n, a->runs[i].events.n);
		assert_null(b.runs[i].events.ev);
		assert_int_equal(b.runs[i].events.lazy,
				 b.runs[i].events.n > 0);
	}
	want = cr_snapshot_format(a);
	assert_non_null(want);
	got = export_json(&b);
	if (strcmp(want, got))
		print_error("export differs from the JSON writer:\n%s\n---\n%s\n",
			    got, want);
	assert_string_equal(got, want);
	for (i = 0; i < b.nruns; i++)
		assert_int_equal(cr_run_events_load(&b, &b.runs[i]), CR_OK);
	assert_snap_equal(a, &b);
	free(want);
	free(got);
	cr_snapshot_free(&b);
	free(path);
	free(dir);
}

static void test_round_trip_full(void **state)
{
	struct cr_snapshot a;

	(void)state;
	build_full(&a);
	through_study(&a, "full.db");
	cr_snapshot_free(&a);
}

static void test_round_trip_small(void **state)
{
	struct cr_snapshot a;

	(void)state;
	build_small(&a);
	through_study(&a, "small.db");
	cr_snapshot_free(&a);
}

static void test_round_trip_empty(void **state)
{
	struct cr_snapshot a = { 0 };

	(void)state;
	through_study(&a, "empty.db");
}

/*
 * The JSON file's way: written by the JSON writer, read by the JSON
 * reader, into a study, exported: the same bytes as the file.
 */
static void test_json_file_to_study(void **state)
{
	char *dir = tmpdir(), *json = join(dir, "s.json");
	char *db = join(dir, "s.db"), *text, *got;
	struct cr_snapshot a, j, b;
	size_t i;

	(void)state;
	build_full(&a);
	assert_int_equal(cr_snapshot_write(&a, json), CR_OK);
	assert_int_equal(cr_snapshot_read(json, &j), CR_OK);
	assert_null(j.source);
	study_write(&j, db);
	assert_int_equal(cr_snapshot_read(db, &b), CR_OK);
	got = export_json(&b);
	text = cr_snapshot_format(&a);
	assert_string_equal(got, text);
	/* A held (JSON) run's events survive a drop. */
	for (i = 0; i < j.nruns; i++) {
		cr_run_events_drop(&j.runs[i]);
		assert_int_equal(cr_run_events_load(&j, &j.runs[i]), CR_OK);
	}
	assert_snap_equal(&a, &j);
	free(got);
	free(text);
	cr_snapshot_free(&a);
	cr_snapshot_free(&j);
	cr_snapshot_free(&b);
	free(json);
	free(db);
	free(dir);
}

/* The JSON of each version the reader takes, through a study. */
#define V_META(ver_extra) "\"meta\": {\"tool_version\": \"0.1\", " \
	"\"module_version\": null, \"kernel_release\": \"6.1.0\", " \
	"\"clocksource\": \"tsc\", \"probes\": \"tkread\", " \
	"\"variants\": \"base\", \"command\": null, \"machine\": \"vm\", " \
	"\"hypervisor\": null, \"cpuidle_driver\": null, " \
	"\"cpuidle_governor\": \"menu\", \"max_cstate\": null, " \
	"\"cmdline\": \"quiet\", \"frac_bits\": 3, \"nr_cpus\": 4, " \
	"\"duration_s\": 1.5, \"params\": {\"frac_bits\": \"3\"}" ver_extra "},\n"
#define V_METRIC "{\"name\": \"tkread\", \"variant\": \"base\", " \
	"\"frac_bits\": 3, \"recording\": false, \"counters\": {\"dropped\": 0},\n" \
	"  \"total\": {\"min\": 5, \"max\": 1000, \"slots\": [[5, 2, 10], [63, 1, 1000]]},\n" \
	"  \"cpus\": [{\"cpu\": 0, \"min\": 5, \"max\": 5, \"slots\": [[5, 2, 10]]}, " \
	"{\"cpu\": 2, \"min\": 1000, \"max\": 1000, \"slots\": [[63, 1, 1000]]}]}"
#define V_EVENTS ", \"events\": {\"lost\": 3, " \
	"\"clock\": [{\"mono_ns\": 10, \"realtime_ns\": 1700000000000000000}], " \
	"\"columns\": [\"ts_ns\", \"type\", \"cpu\", \"pid\", \"corr\", " \
	"\"latency_ns\", \"migrated\", \"rq_clock_ns\", \"text\"], " \
	"\"rows\": [[10, \"marker\", 0, 1, 0, null, null, null, \"run_start\"], " \
	"[11, \"wakeup\", 1, 2, 7, null, null, null, null], " \
	"[12, \"enqueue\", 1, 2, 7, 1, true, 11, null], " \
	"[13, \"first_tkread\", 1, 2, 7, 3, false, null, null], " \
	"[14, \"clocksource_read\", 0, 2, 0, 40, null, null, \"hpet\"], " \
	"[20, \"marker\", 0, 1, 0, null, null, null, \"run_end\"]]}"
#define V_RUN(extra) "{\"index\": 0, \"variant\": \"base\", \"start_ns\": 100, " \
	"\"end_ns\": 200, \"exit_status\": 0" extra ",\n \"metrics\": [" \
	V_METRIC "]"
#define V_DOC(ver, meta_extra, run_extra, run_tail) \
	"{\"format\": \"clkstat-snapshot\", \"version\": " #ver ",\n" \
	V_META(meta_extra) "\"runs\": [" V_RUN(run_extra) run_tail "}, " \
	"{\"index\": 1, \"variant\": \"base\", \"start_ns\": 300, " \
	"\"end_ns\": 400, \"exit_status\": -1, \"metrics\": []}]}\n"

static const char *const v_docs[] = {
	/* 1: the first form: no events, no tags */
	V_DOC(1, "", "", ""),
	/* 1 and workload_only (written by a later 1.x record) */
	V_DOC(1, "", ", \"workload_only\": true", ""),
	/* 2: events, run tags, meta tags, conditions, events limit */
	V_DOC(2, ", \"events\": 100, \"conditions\": \"cstates=qos0\", "
	      "\"tags\": {\"rig\": \"a\"}",
	      ", \"workload_only\": false, \"tags\": {\"cstate\": \"qos0\"}",
	      V_EVENTS),
	/* 3: the probes' clock */
	V_DOC(3, ", \"events\": 100, \"clock\": \"mono\"", "", V_EVENTS),
	/* 4: the host */
	V_DOC(4, ", \"clock\": \"tsc\", \"host\": \"box\"", "", ""),
	/* 5: cpufreq, recorded; none of it on the second machine */
	V_DOC(5, ", \"host\": \"box\", \"cpufreq_driver\": \"acpi-cpufreq\", "
	      "\"cpufreq_governor\": \"performance:0 powersave:1\", "
	      "\"cpufreq_boost\": null", ", \"tags\": {\"governor\": \"powersave\"}",
	      ""),
	V_DOC(5, ", \"cpufreq_driver\": null, \"cpufreq_governor\": null, "
	      "\"cpufreq_boost\": null", "", ""),
};

static void test_json_versions(void **state)
{
	char *dir = tmpdir(), *path = join(dir, "v.db"), *want, *got;
	struct cr_snapshot j, b;
	char err[1024];
	size_t k, i;
	int st;

	(void)state;
	for (k = 0; k < sizeof(v_docs) / sizeof(v_docs[0]); k++) {
		st = cr_snapshot_parse(v_docs[k], strlen(v_docs[k]), &j, err,
				       sizeof(err));
		if (st)
			print_error("fixture %zu: %s\n", k, err);
		assert_int_equal(st, CR_OK);
		unlink(path);
		study_write(&j, path);
		assert_int_equal(cr_snapshot_read(path, &b), CR_OK);
		want = cr_snapshot_format(&j);
		got = export_json(&b);
		assert_string_equal(got, want);
		for (i = 0; i < b.nruns; i++)
			assert_int_equal(cr_run_events_load(&b, &b.runs[i]),
					 CR_OK);
		assert_snap_equal(&j, &b);
		free(want);
		free(got);
		cr_snapshot_free(&j);
		cr_snapshot_free(&b);
	}
	free(path);
	free(dir);
}

/* ---------------------------------------------------------------- */
/* Several inputs, each its own source.                              */

static void test_merge_sources(void **state)
{
	char *dir = tmpdir(), *p1 = join(dir, "a.db"), *p2 = join(dir, "b.db");
	struct cr_snapshot a, b, one, m = { 0 };
	size_t i;

	(void)state;
	build_full(&a);
	build_small(&b);
	study_write(&a, p1);
	study_write(&b, p2);
	assert_int_equal(cr_snapshot_read(p1, &one), CR_OK);
	assert_int_equal(cr_snapshot_merge(&m, &one, p1), CR_OK);
	assert_int_equal(cr_snapshot_read(p2, &one), CR_OK);
	assert_int_equal(cr_snapshot_merge(&m, &one, p2), CR_OK);
	assert_int_equal(m.nruns, a.nruns + b.nruns);
	assert_null(m.source);
	assert_non_null(m.inputs[0].source);
	assert_non_null(m.inputs[1].source);
	/* Each run's events from its own file. */
	for (i = 0; i < m.nruns; i++) {
		const struct cr_run *w = i < a.nruns ? &a.runs[i] :
					 &b.runs[i - a.nruns];

		assert_int_equal(cr_run_events_load(&m, &m.runs[i]), CR_OK);
		assert_int_equal(m.runs[i].events.n, w->events.n);
		if (w->events.n)
			assert_memory_equal(m.runs[i].events.ev, w->events.ev,
					    w->events.n *
					    sizeof(*w->events.ev));
		cr_run_events_drop(&m.runs[i]);
	}
	cr_snapshot_free(&m);
	cr_snapshot_free(&a);
	cr_snapshot_free(&b);
	free(p1);
	free(p2);
	free(dir);
}

/* ---------------------------------------------------------------- */
/* Appending.                                                        */

/* cr_study_append() with m; its status and what it said on stderr. */
static int append_says(const char *path, const struct cr_meta *m,
		       char **out, struct cr_study **st)
{
	struct capture c;
	int ret;

	capture_begin(&c, 2);
	ret = cr_study_append(path, m, st);
	*out = capture_end(&c);
	return ret;
}

static void test_append(void **state)
{
	char *dir = tmpdir(), *path = join(dir, "a.db"), *out, *before, *after;
	struct cr_snapshot a, b;
	struct cr_study *st;
	size_t nbefore, nafter;
	struct cr_meta m;
	struct cr_run *r;

	(void)state;
	build_small(&a);
	study_write(&a, path);

	/* The same metadata: a run added after the study's. */
	assert_int_equal(append_says(path, &a.meta, &out, &st), CR_OK);
	assert_string_equal(out, "");
	free(out);
	assert_int_equal(cr_study_nruns(st), 1);
	/* The same run again is found (import refuses it). */
	assert_int_equal(cr_study_find_run(st, &a.runs[0]), 0);
	r = &a.runs[0];
	r->start_ns += 1000;
	r->end_ns += 1000;
	assert_int_equal(cr_study_find_run(st, r), -1);
	assert_int_equal(cr_study_add_run(st, r), CR_OK);
	assert_int_equal(cr_study_close(st), CR_OK);
	assert_int_equal(cr_snapshot_read(path, &b), CR_OK);
	assert_int_equal(b.nruns, 2);
	assert_int_equal(b.runs[1].index, 1);
	assert_true(b.runs[1].start_ns == r->start_ns);
	cr_snapshot_free(&b);

	/* A field the runs share: refused, one line naming both values. */
	read_file(path, &before, &nbefore);
	assert_int_equal(cr_meta_copy(&m, &a.meta), 0);
	m.frac_bits = 5;
	assert_int_equal(append_says(path, &m, &out, &st), CR_USAGE);
	assert_null(st);
	assert_one_line(out, path, "frac_bits is '3' in the study, '5' in the runs to add");
	free(out);
	m.frac_bits = 3;
	m.kernel_release = xstrdup("6.12.0");
	assert_int_equal(append_says(path, &m, &out, &st), CR_USAGE);
	assert_one_line(out, path, "kernel_release is '-' in the study, '6.12.0' in the runs to add");
	free(out);
	free(m.kernel_release);
	m.kernel_release = NULL;
	assert_int_equal(cr_meta_add_tag(&m, "rig", "b"), 0);
	assert_int_equal(append_says(path, &m, &out, &st), CR_USAGE);
	assert_one_line(out, path, "tag:rig is '-' in the study, 'b' in the runs to add");
	free(out);
	cr_meta_free(&m);
	/*
	 * Refused with fields that may differ too: the refusal's line alone,
	 * no warning before it (t_study_append, suite_study.sh, found them).
	 */
	assert_int_equal(cr_meta_copy(&m, &a.meta), 0);
	m.command = xstrdup("hackbench");
	m.duration_s = 0.2;
	m.frac_bits = 4;
	assert_int_equal(append_says(path, &m, &out, &st), CR_USAGE);
	assert_one_line(out, path, "frac_bits is '3' in the study, '4' in the runs to add");
	free(out);
	cr_meta_free(&m);
	/*
	 * Runs of a variant at another bucket layout than the study's runs
	 * of it (the twin's own --frac-bits, which the metadata does not
	 * hold): record asks before run 1 (t_study_append found it).
	 */
	assert_int_equal(append_says(path, &a.meta, &out, &st), CR_OK);
	free(out);
	{
		char err[512];

		assert_int_equal(cr_study_frac_bits_pool(st, "base", 3, err,
							 sizeof(err)), CR_OK);
		assert_int_equal(cr_study_frac_bits_pool(st, "other", 5, err,
							 sizeof(err)), CR_OK);
		assert_int_equal(cr_study_frac_bits_pool(st, "base", 4, err,
							 sizeof(err)), CR_USAGE);
		assert_non_null(strstr(err, "metrics of variant base have frac_bits 3, these 4"));
		assert_null(strchr(err, '\n'));
	}
	assert_int_equal(cr_study_close(st), CR_OK);
	/* Refused, or opened and closed without a run: the same bytes. */
	assert_int_equal(append_says(path, &a.meta, &out, &st), CR_OK);
	free(out);
	assert_int_equal(cr_study_close(st), CR_OK);
	read_file(path, &after, &nafter);
	assert_int_equal(nafter, nbefore);
	assert_memory_equal(after, before, nbefore);
	free(before);
	free(after);

	/* A field of the recording's own: a warning, and it adds. */
	assert_int_equal(cr_meta_copy(&m, &a.meta), 0);
	m.command = xstrdup("hackbench");
	assert_int_equal(cr_meta_add_param(&m, "variant", "kprobe"), 0);
	assert_int_equal(append_says(path, &m, &out, &st), CR_OK);
	assert_non_null(strstr(out, "warning: "));
	assert_non_null(strstr(out, "command is '-' in the study, 'hackbench' in the runs added"));
	assert_non_null(strstr(out, "param:variant is '-' in the study, 'kprobe'"));
	free(out);
	assert_int_equal(cr_study_close(st), CR_OK);
	cr_meta_free(&m);
	/* A number as its shortest text: 0.2, not 0.20000000000000001. */
	assert_int_equal(cr_meta_copy(&m, &a.meta), 0);
	m.duration_s = 0.2;
	assert_int_equal(append_says(path, &m, &out, &st), CR_OK);
	assert_non_null(strstr(out, "duration_s is '2' in the study, '0.2' in the runs added"));
	free(out);
	assert_int_equal(cr_study_close(st), CR_OK);
	cr_meta_free(&m);

	/* Nothing there to append to; a new study where one is. */
	free(path);
	path = join(dir, "none.db");
	assert_int_equal(append_says(path, &a.meta, &out, &st), CR_NO_FILE);
	assert_one_line(out, path, "No such file or directory");
	free(out);
	free(path);
	path = join(dir, "a.db");
	{
		struct capture c;
		int ret;

		capture_begin(&c, 2);
		ret = cr_study_create(path, &a.meta, &st);
		out = capture_end(&c);
		assert_int_equal(ret, CR_USAGE);
		assert_one_line(out, path, "exists already");
		free(out);
	}
	assert_int_equal(cr_snapshot_read(path, &b), CR_OK);
	assert_int_equal(b.nruns, 2);
	cr_snapshot_free(&b);
	cr_snapshot_free(&a);
	free(path);
	free(dir);
}

/* ---------------------------------------------------------------- */
/* One writer at a time.                                             */

/* This program, as it was run (valgrind's /proc/self/exe is its own). */
static const char *self;

/*
 * Another process appends to path (this program again, run as the other
 * writer: a process of its own, as clkstat-report would be, and nothing
 * of this one's held in it): its status, and its stderr into out.
 */
static int run_self(const char *mode, const char *path, int nobody,
		    char **out)
{
	char buf[4096];
	int fds[2], status;
	ssize_t n, len = 0;
	pid_t pid;

	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		dup2(fds[1], 2);
		close(fds[0]);
		close(fds[1]);
		/* As a user who may not write where the file is. */
		if (nobody && !geteuid() && (setgid(65534) || setuid(65534)))
			_exit(126);
		execl(self, self, mode, path, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	while ((n = read(fds[0], buf + len, sizeof(buf) - 1 - len)) > 0)
		len += n;
	buf[len] = '\0';
	close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	*out = xstrdup(buf);
	return WEXITSTATUS(status);
}

static int other_writer(const char *path, char **out)
{
	return run_self("--other-writer", path, 0, out);
}

/* study_test --other-writer PATH: append build_small()'s metadata. */
static int other_writer_main(const char *path)
{
	struct cr_snapshot a;
	struct cr_study *st;
	int ret;

	build_small(&a);
	ret = cr_study_append(path, &a.meta, &st);
	if (!ret)
		ret = cr_study_close(st);
	cr_snapshot_free(&a);
	return ret;
}

static void test_second_writer(void **state)
{
	char *dir = tmpdir(), *path = join(dir, "w.db"), *out;
	struct cr_snapshot a, b;
	struct cr_study *st;

	(void)state;
	build_small(&a);
	assert_int_equal(cr_study_create(path, &a.meta, &st), CR_OK);
	assert_int_equal(cr_study_add_run(st, &a.runs[0]), CR_OK);
	/* While the first holds it, whatever it is doing. */
	assert_int_equal(other_writer(path, &out), CR_USAGE);
	assert_one_line(out, path, "another clkstat-report is writing this study");
	free(out);
	/* The first writer is unharmed: it goes on, its runs read. */
	a.runs[0].start_ns = 5000;
	a.runs[0].end_ns = 6000;
	assert_int_equal(cr_study_add_run(st, &a.runs[0]), CR_OK);
	assert_int_equal(cr_snapshot_read(path, &b), CR_OK);
	assert_int_equal(b.nruns, 2);
	cr_snapshot_free(&b);
	assert_int_equal(cr_study_close(st), CR_OK);
	/* Closed: the next writer may. */
	assert_int_equal(other_writer(path, &out), CR_OK);
	assert_string_equal(out, "");
	free(out);
	cr_snapshot_free(&a);
	free(path);
	free(dir);
}

/* ---------------------------------------------------------------- */
/* The database file changes only between runs.                      */

static char copy_path[256];
static int copy_at = -1, copy_calls;

/* The file alone, byte for byte, as a backup tool would copy it. */
static void copy_file(const char *from, const char *to)
{
	char buf[65536];
	ssize_t n;
	int in = open(from, O_RDONLY), out;

	assert_true(in >= 0);
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(out >= 0);
	while ((n = read(in, buf, sizeof(buf))) > 0)
		assert_int_equal(write(out, buf, (size_t)n), n);
	assert_int_equal(n, 0);
	close(in);
	assert_int_equal(close(out), 0);
}

static void copy_hook(const char *path)
{
	if (copy_calls++ == copy_at)
		copy_file(path, copy_path);
}

/*
 * A copy of the study's file taken between BEGIN and COMMIT of run k
 * reads as runs 0 to k - 1, whole; the run in writing is big enough to
 * spill out of SQLite's page cache, which goes to the WAL, not the file.
 */
static void test_copy_inside_run(void **state)
{
	char *dir = tmpdir(), *path = join(dir, "c.db"), *copy;
	struct cr_snapshot a, b;
	struct cr_run *r;
	size_t k, i, j;

	(void)state;
	build_small(&a);
	/* Runs 1 and 2: 100000 events each, some 3 MB. */
	for (i = 1; i < 3; i++) {
		r = run(&a, "base", 1000 + (int64_t)i, 2000 + (int64_t)i, 0);
		for (j = 0; j < 100000; j++)
			event(r, 1000 + j, CLKSTAT_EV_ENQUEUE, j % 4, 7, j,
			      CLKSTAT_EVF_LATENCY | CLKSTAT_EVF_LOCAL, j, 0,
			      "");
	}
	for (k = 0; k < a.nruns; k++) {
		snprintf(copy_path, sizeof(copy_path), "%s/copy%zu.db", dir,
			 k);
		copy = copy_path;
		unlink(path);
		copy_at = (int)k;
		copy_calls = 0;
		cr_study_before_commit = copy_hook;
		study_write(&a, path);
		cr_study_before_commit = NULL;
		assert_int_equal(copy_calls, (int)a.nruns);
		assert_int_equal(cr_snapshot_read(copy, &b), CR_OK);
		assert_int_equal(b.nruns, k);
		for (i = 0; i < b.nruns; i++) {
			assert_int_equal(cr_run_events_load(&b, &b.runs[i]),
					 CR_OK);
			assert_int_equal(b.runs[i].events.n,
					 a.runs[i].events.n);
			cr_run_events_drop(&b.runs[i]);
		}
		cr_snapshot_free(&b);
	}
	cr_snapshot_free(&a);
	free(path);
	free(dir);
}

static void sql(const char *path, const char *text);

/* study_test --read PATH: read it and every run's events; the status. */
static int reader_main(const char *path)
{
	struct cr_snapshot s;
	size_t i;
	int st;

	st = cr_snapshot_read(path, &s);
	for (i = 0; !st && i < s.nruns; i++)
		st = cr_run_events_load(&s, &s.runs[i]);
	cr_snapshot_free(&s);
	return st;
}

/*
 * Such a copy where its reader may not write (read-only media, another
 * user's folder): the file says WAL, and SQLite cannot make the -shm file
 * a WAL needs; with no WAL beside it, nothing can be writing it, and it
 * reads.
 */
static void test_copy_read_only(void **state)
{
	char *dir = tmpdir(), *sub = join(dir, "ro"), *path, *copy, *out;
	struct cr_snapshot a;

	(void)state;
	/* mkdtemp's 0700 would keep the other user out of it all. */
	assert_int_equal(chmod(dir, 0755), 0);
	assert_int_equal(mkdir(sub, 0755), 0);
	path = join(dir, "s.db");
	copy = join(sub, "copy.db");
	build_small(&a);
	study_write(&a, path);
	copy_file(path, copy);
	sql(copy, "PRAGMA journal_mode = WAL");
	assert_int_equal(chmod(copy, 0644), 0);
	assert_int_equal(chmod(sub, 0555), 0);
	assert_int_equal(run_self("--read", copy, 1, &out), CR_OK);
	assert_string_equal(out, "");
	free(out);
	assert_int_equal(chmod(sub, 0755), 0);
	cr_snapshot_free(&a);
	free(copy);
	free(path);
	free(sub);
	free(dir);
}

/* ---------------------------------------------------------------- */
/* What is not a study.                                              */

static void expect_read(const char *path, int want, const char *what)
{
	struct cr_snapshot s;
	struct capture c;
	char *out;
	int st;

	memset(&s, 0xa5, sizeof(s));
	capture_begin(&c, 2);
	st = cr_snapshot_read(path, &s);
	out = capture_end(&c);
	if (st != want)
		print_error("status %d, want %d: %s\n", st, want, out);
	assert_int_equal(st, want);
	assert_empty(&s);
	assert_one_line(out, path, what);
	free(out);
}

static void sql(const char *path, const char *text)
{
	sqlite3 *db;
	int rc;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	rc = sqlite3_exec(db, text, NULL, NULL, NULL);
	if (rc)
		print_error("%s: %s\n", text, sqlite3_errmsg(db));
	assert_int_equal(rc, SQLITE_OK);
	assert_int_equal(sqlite3_close(db), SQLITE_OK);
}

static void test_not_a_study(void **state)
{
	char *dir = tmpdir(), *path = join(dir, "other.db");
	struct cr_snapshot a;

	(void)state;
	/* Another program's SQLite database. */
	sql(path, "CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1)");
	expect_read(path, CR_FORMAT, "not a clkstat study (application_id 0");
	/* A study of a newer schema. */
	unlink(path);
	build_small(&a);
	study_write(&a, path);
	sql(path, "PRAGMA user_version = 3");
	expect_read(path, CR_FORMAT, "study schema version 3: this clkstat-report reads versions 1 to 2");
	cr_snapshot_free(&a);
	free(path);
	free(dir);
}

/*
 * A study made schema version 1 again: its meta table as version 1 had
 * it (study_schema.sql before the cpufreq columns), user_version 1.
 */
static void to_schema_v1(const char *path)
{
	sql(path,
	    "CREATE TABLE meta1 ("
	    " id INTEGER PRIMARY KEY CHECK (id = 1), tool_version TEXT,"
	    " module_version TEXT, kernel_release TEXT, clocksource TEXT,"
	    " clock TEXT, probes TEXT, variants TEXT, command TEXT,"
	    " machine TEXT, hypervisor TEXT, cpuidle_driver TEXT,"
	    " cpuidle_governor TEXT, max_cstate TEXT, cmdline TEXT,"
	    " conditions TEXT, host TEXT,"
	    " frac_bits INTEGER NOT NULL CHECK (frac_bits BETWEEN 0 AND 5),"
	    " nr_cpus INTEGER NOT NULL CHECK (nr_cpus BETWEEN 0 AND 4294967295),"
	    " duration_s REAL NOT NULL CHECK (duration_s >= 0),"
	    " events INTEGER NOT NULL CHECK (events BETWEEN 0 AND 4294967295)"
	    ") STRICT;"
	    "INSERT INTO meta1 SELECT id, tool_version, module_version,"
	    " kernel_release, clocksource, clock, probes, variants, command,"
	    " machine, hypervisor, cpuidle_driver, cpuidle_governor,"
	    " max_cstate, cmdline, conditions, host, frac_bits, nr_cpus,"
	    " duration_s, events FROM meta;"
	    "DROP TABLE meta; ALTER TABLE meta1 RENAME TO meta;"
	    "PRAGMA user_version = 1");
}

/*
 * Schema version 1: read as a study that did not record cpufreq; runs
 * added to it pool without them (said once), and it stays version 1,
 * which the clkstat-report of then reads still.
 */
static void test_schema_v1(void **state)
{
	char *dir = tmpdir(), *path = join(dir, "v1.db"), *out;
	struct cr_snapshot a, b;
	struct cr_study *st;
	struct cr_meta m;
	sqlite3 *db;
	sqlite3_stmt *q;

	(void)state;
	build_full(&a);
	study_write(&a, path);
	to_schema_v1(path);
	assert_int_equal(cr_snapshot_read(path, &b), CR_OK);
	assert_int_equal(b.meta.cpufreq_recorded, 0);
	assert_null(b.meta.cpufreq_driver);
	assert_null(b.meta.cpufreq_governor);
	assert_string_equal(b.meta.host, "host-1");
	assert_int_equal(b.nruns, a.nruns);
	cr_snapshot_free(&b);
	/* build_full() records cpufreq: not checked against version 1. */
	assert_int_equal(append_says(path, &a.meta, &out, &st), CR_OK);
	assert_non_null(strstr(out, ": the cpufreq driver, governor and boost are not recorded in the study (written before they were): not checked\n"));
	assert_string_equal(strchr(out, '\n'), "\n");
	free(out);
	a.runs[0].start_ns += 5;
	assert_int_equal(cr_study_add_run(st, &a.runs[0]), CR_OK);
	assert_int_equal(cr_study_close(st), CR_OK);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &q,
					    NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(q), SQLITE_ROW);
	assert_int_equal(sqlite3_column_int(q, 0), 1);
	sqlite3_finalize(q);
	assert_int_equal(sqlite3_close(db), SQLITE_OK);
	assert_int_equal(cr_snapshot_read(path, &b), CR_OK);
	assert_int_equal(b.nruns, a.nruns + 1);
	assert_int_equal(b.meta.cpufreq_recorded, 0);
	cr_snapshot_free(&b);
	/* The recorded ones pool as any field: a governor differing refused. */
	unlink(path);
	study_write(&a, path);
	assert_int_equal(cr_meta_copy(&m, &a.meta), 0);
	free(m.cpufreq_governor);
	m.cpufreq_governor = xstrdup("schedutil");
	assert_int_equal(append_says(path, &m, &out, &st), CR_USAGE);
	assert_one_line(out, path, "cpufreq_governor is 'performance:0-3,6 powersave:4-5' in the study, 'schedutil' in the runs to add");
	free(out);
	/* Not recorded in the runs to add (an older snapshot imported). */
	m.cpufreq_recorded = 0;
	free(m.cpufreq_governor);
	free(m.cpufreq_driver);
	m.cpufreq_governor = m.cpufreq_driver = NULL;
	assert_int_equal(append_says(path, &m, &out, &st), CR_OK);
	assert_non_null(strstr(out, ": the cpufreq driver, governor and boost are not recorded in the runs added (written before they were): not checked\n"));
	free(out);
	assert_int_equal(cr_study_close(st), CR_OK);
	cr_meta_free(&m);
	cr_snapshot_free(&a);
	free(path);
	free(dir);
}

/* A study on standard input: refused, by name, without a crash. */
static void test_study_on_stdin(void **state)
{
	char *dir = tmpdir(), *path = join(dir, "s.db");
	struct cr_snapshot a, s;
	struct capture c;
	char *out;
	int fd, saved, st;

	(void)state;
	build_small(&a);
	study_write(&a, path);
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	saved = dup(0);
	assert_true(dup2(fd, 0) >= 0);
	close(fd);
	capture_begin(&c, 2);
	st = cr_snapshot_read("-", &s);
	out = capture_end(&c);
	assert_true(dup2(saved, 0) >= 0);
	close(saved);
	assert_int_equal(st, CR_USAGE);
	assert_one_line(out, "stdin", "a study (SQLite) is read from its file");
	free(out);
	cr_snapshot_free(&a);
	free(path);
	free(dir);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_round_trip_full, teardown_dir),
		cmocka_unit_test_teardown(test_round_trip_small, teardown_dir),
		cmocka_unit_test_teardown(test_round_trip_empty, teardown_dir),
		cmocka_unit_test_teardown(test_json_file_to_study,
					  teardown_dir),
		cmocka_unit_test_teardown(test_json_versions, teardown_dir),
		cmocka_unit_test_teardown(test_merge_sources, teardown_dir),
		cmocka_unit_test_teardown(test_append, teardown_dir),
		cmocka_unit_test_teardown(test_second_writer, teardown_dir),
		cmocka_unit_test_teardown(test_copy_inside_run, teardown_dir),
		cmocka_unit_test_teardown(test_copy_read_only, teardown_dir),
		cmocka_unit_test_teardown(test_not_a_study, teardown_dir),
		cmocka_unit_test_teardown(test_schema_v1, teardown_dir),
		cmocka_unit_test_teardown(test_study_on_stdin, teardown_dir),
	};

	self = argv[0];
	if (argc == 3 && !strcmp(argv[1], "--other-writer"))
		return other_writer_main(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "--read"))
		return reader_main(argv[2]);
	return cmocka_run_group_tests(tests, NULL, NULL);
}

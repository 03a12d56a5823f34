// SPDX-License-Identifier: GPL-2.0
/*
 * snapshot_write.c - writing snapshot files (snapshot.h): a struct
 * cr_snapshot as JSON through json-c, laid out for people to read (one
 * line per slot, empty containers as [] and {}, doubles in their shortest
 * exact form), and written atomically so that a crash or a full disk never
 * leaves a half-written snapshot in place of the old one.
 * snapshot_read.c reads them back; Documentation/clkstat-snapshot.rst
 * describes the format.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include <json-c/printbuf.h>
#include "file_replace.h"
#include "snapshot.h"
#include "snapshot_parse.h"
#include "status.h"

/* ---------------------------------------------------------------- */
/* Formatting.                                                       */

/* [slot, count, sum] on one line, in the pretty output too. */
static int cr_ser_slot(struct json_object *jso, struct printbuf *pb,
		       int level, int flags)
{
	(void)level;
	(void)flags;
	return sprintbuf(pb, "[%" PRIu64 ", %" PRIu64 ", %" PRIu64 "]",
			 json_object_get_uint64(json_object_array_get_idx(jso, 0)),
			 json_object_get_uint64(json_object_array_get_idx(jso, 1)),
			 json_object_get_uint64(json_object_array_get_idx(jso, 2)));
}

/* Empty arrays and objects as [] and {} rather than over two lines. */
static int cr_ser_empty(struct json_object *jso, struct printbuf *pb,
			int level, int flags)
{
	(void)level;
	(void)flags;
	return printbuf_memappend(pb, json_object_is_type(jso, json_type_array) ?
				  "[]" : "{}", 2);
}

static struct json_object *cr_done(struct json_object *o)
{
	if (o && ((json_object_is_type(o, json_type_array) &&
		   !json_object_array_length(o)) ||
		  (json_object_is_type(o, json_type_object) &&
		   !json_object_object_length(o))))
		json_object_set_serializer(o, cr_ser_empty, NULL, NULL);
	return o;
}

/*
 * Building the tree: v NULL is out of memory (nulls go through cr_put_null),
 * and any failure sets *oom; o NULL is an earlier failure, ignored.
 */
static void cr_put(struct json_object *o, const char *key,
		   struct json_object *v, int *oom)
{
	if (!o || !v || json_object_object_add(o, key, v)) {
		json_object_put(v);
		*oom = 1;
	}
}

static void cr_put_null(struct json_object *o, const char *key, int *oom)
{
	if (!o || json_object_object_add(o, key, NULL))
		*oom = 1;
}

static void cr_put_str(struct json_object *o, const char *key, const char *s,
		       int *oom)
{
	if (s)
		cr_put(o, key, json_object_new_string(s), oom);
	else
		cr_put_null(o, key, oom);
}

static void cr_push(struct json_object *a, struct json_object *v, int *oom)
{
	if (!a || !v || json_object_array_add(a, v)) {
		json_object_put(v);
		*oom = 1;
	}
}

/* The shortest of %.15g, %.16g, %.17g that reads back as d exactly. */
static struct json_object *cr_double(double d)
{
	char buf[64];
	int prec;

	if (!isfinite(d))
		return json_object_new_double(d);
	for (prec = 15; prec < 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, d);
		if (strtod(buf, NULL) == d)
			break;
	}
	snprintf(buf, sizeof(buf), "%.*g", prec, d);
	if (!strpbrk(buf, ".eE"))
		strcat(buf, ".0");
	return json_object_new_double_s(d, buf);
}

static struct json_object *cr_hist_json(const struct cr_hist *h, int cpu,
					int *oom)
{
	struct json_object *o = json_object_new_object(), *a, *e;
	size_t i;

	if (!o) {
		*oom = 1;
		return NULL;
	}
	if (cpu)
		cr_put(o, "cpu", json_object_new_uint64(h->cpu), oom);
	if (h->nslots) {
		cr_put(o, "min", json_object_new_uint64(h->min), oom);
		cr_put(o, "max", json_object_new_uint64(h->max), oom);
	} else {
		cr_put_null(o, "min", oom);
		cr_put_null(o, "max", oom);
	}
	a = json_object_new_array();
	for (i = 0; a && i < h->nslots; i++) {
		e = json_object_new_array();
		cr_push(e, json_object_new_uint64(h->slots[i].slot), oom);
		cr_push(e, json_object_new_uint64(h->slots[i].count), oom);
		cr_push(e, json_object_new_uint64(h->slots[i].sum), oom);
		if (e)
			json_object_set_serializer(e, cr_ser_slot, NULL, NULL);
		cr_push(a, e, oom);
	}
	cr_put(o, "slots", cr_done(a), oom);
	return o;
}

static struct json_object *cr_metric_json(const struct cr_metric *m, int *oom)
{
	struct json_object *o = json_object_new_object(), *a;
	size_t i;

	if (!o) {
		*oom = 1;
		return NULL;
	}
	cr_put(o, "name", json_object_new_string(m->name), oom);
	cr_put(o, "variant", json_object_new_string(m->variant), oom);
	cr_put(o, "frac_bits", json_object_new_uint64(m->frac_bits), oom);
	cr_put(o, "recording", json_object_new_boolean(!!m->recording), oom);
	a = json_object_new_object();
	for (i = 0; a && i < m->ncounters && i < CR_COUNTERS_MAX; i++)
		cr_put(a, m->counters[i].name,
		       json_object_new_uint64(m->counters[i].value), oom);
	cr_put(o, "counters", cr_done(a), oom);
	cr_put(o, "total", cr_hist_json(&m->total, 0, oom), oom);
	a = json_object_new_array();
	for (i = 0; a && i < m->ncpus; i++)
		cr_push(a, cr_hist_json(&m->cpus[i], 1, oom), oom);
	cr_put(o, "cpus", cr_done(a), oom);
	return o;
}

/* A row or the column list of an event log on one line. */
static int cr_ser_row(struct json_object *jso, struct printbuf *pb,
		      int level, int flags)
{
	size_t i, n = json_object_array_length(jso);
	const char *t;
	int st = 0;

	(void)level;
	(void)flags;
	st |= printbuf_memappend(pb, "[", 1) < 0;
	for (i = 0; i < n; i++) {
		t = json_object_to_json_string_ext(json_object_array_get_idx(jso, i),
						   JSON_C_TO_STRING_PLAIN |
						   JSON_C_TO_STRING_NOSLASHESCAPE);
		if (!t)
			return -1;
		if (i)
			st |= printbuf_memappend(pb, ", ", 2) < 0;
		st |= printbuf_memappend(pb, t, (int)strlen(t)) < 0;
	}
	st |= printbuf_memappend(pb, "]", 1) < 0;
	return st ? -1 : 0;
}

/* The columns of a row, in the order cr_ser_rows() writes them. */
static const char *const cr_event_cols[] = {
	"ts_ns", "type", "cpu", "pid", "corr", "latency_ns", "migrated",
	"rq_clock_ns", "text",
};

/*
 * One row on one line, [ts, "type", cpu, pid, corr, lat, mig, rq, text],
 * into buf (256 bytes: the longest row is about 150); return its length.
 */
static size_t cr_row_text(char *buf, const struct clkstat_event_rec *e)
{
	unsigned int mig = e->flags & (CLKSTAT_EVF_MIGRATED | CLKSTAT_EVF_LOCAL);
	char *p = buf;
	size_t i;

	p += sprintf(p, "[%" PRIu64 ", \"%s\", %u, %u, %" PRIu64 ", ",
		     (uint64_t)e->ts, cr_event_type_name(e->type),
		     (unsigned int)e->cpu, (unsigned int)e->pid,
		     (uint64_t)e->corr);
	if (e->flags & CLKSTAT_EVF_LATENCY)
		p += sprintf(p, "%" PRIu64 ", ", (uint64_t)e->latency);
	else
		p += sprintf(p, "null, ");
	/* Known only with exactly one of the two (uapi/clkstat_events.h). */
	p += sprintf(p, "%s, ", mig == CLKSTAT_EVF_MIGRATED ? "true" :
		     mig == CLKSTAT_EVF_LOCAL ? "false" : "null");
	if (e->flags & CLKSTAT_EVF_RQ_CLOCK)
		p += sprintf(p, "%" PRIu64 ", ", (uint64_t)e->rq_clock);
	else
		p += sprintf(p, "null, ");
	if (!e->text[0]) {
		p += sprintf(p, "null]");
	} else {
		/*
		 * Printable ASCII, '"' and '\\' escaped: the module's markers
		 * are printable; a twin's text may not be ('?' then).
		 */
		*p++ = '"';
		for (i = 0; i < sizeof(e->text) - 1 && e->text[i]; i++) {
			char ch = e->text[i];

			if (ch == '"' || ch == '\\')
				*p++ = '\\';
			*p++ = ch < 0x20 || ch > 0x7e ? '?' : ch;
		}
		*p++ = '"';
		*p++ = ']';
	}
	return (size_t)(p - buf);
}

static int cr_put_row(struct printbuf *pb, const struct clkstat_event_rec *e)
{
	char buf[256];

	return printbuf_memappend(pb, buf, (int)cr_row_text(buf, e)) < 0;
}

/*
 * The rows straight from the struct cr_events (the serializer's user
 * data), one per line, laid out as json-c lays out an array: no json-c
 * object per value, so that 10^7 events cost their text, not a tree.
 */
static int cr_ser_rows(struct json_object *jso, struct printbuf *pb,
		       int level, int flags)
{
	const struct cr_events *x = json_object_get_userdata(jso);
	int pretty = !!(flags & JSON_C_TO_STRING_PRETTY), st = 0, j;
	size_t i;

	/* A study's run whose events were not loaded: never made up. */
	if (x->n && !x->ev)
		return -1;
	if (!x->n)
		return printbuf_memappend(pb, "[]", 2) < 0 ? -1 : 0;
	st |= printbuf_memappend(pb, "[", 1) < 0;
	for (i = 0; i < x->n && !st; i++) {
		if (i)
			st |= printbuf_memappend(pb, ",", 1) < 0;
		if (pretty) {
			st |= printbuf_memappend(pb, "\n", 1) < 0;
			for (j = 0; j <= level; j++)
				st |= printbuf_memappend(pb, "  ", 2) < 0;
		}
		st |= cr_put_row(pb, &x->ev[i]);
	}
	if (pretty) {
		st |= printbuf_memappend(pb, "\n", 1) < 0;
		for (j = 0; j < level; j++)
			st |= printbuf_memappend(pb, "  ", 2) < 0;
	}
	st |= printbuf_memappend(pb, "]", 1) < 0;
	return st ? -1 : 0;
}

/*
 * Where the rows go when a run is written run by run (cr_snapshot_put_run()):
 * a mark in its text, replaced by the rows written straight to the file.
 */
#define CR_ROWS_MARK	"\x01rows\x01"

static int cr_ser_mark(struct json_object *jso, struct printbuf *pb,
		       int level, int flags)
{
	(void)jso;
	(void)level;
	(void)flags;
	return printbuf_memappend(pb, CR_ROWS_MARK, sizeof(CR_ROWS_MARK) - 1) <
	       0 ? -1 : 0;
}

static struct json_object *cr_events_json(const struct cr_events *x,
					  int mark, int *oom)
{
	struct json_object *o = json_object_new_object(), *a, *p;
	size_t i;

	if (!o) {
		*oom = 1;
		return NULL;
	}
	cr_put(o, "lost", json_object_new_uint64(x->lost), oom);
	a = json_object_new_array();
	for (i = 0; a && i < x->nclock && i < CR_CLOCK_PAIRS_MAX; i++) {
		p = json_object_new_object();
		cr_put(p, "mono_ns", json_object_new_int64(x->clock[i].mono_ns),
		       oom);
		cr_put(p, "realtime_ns",
		       json_object_new_int64(x->clock[i].realtime_ns), oom);
		cr_push(a, p, oom);
	}
	cr_put(o, "clock", cr_done(a), oom);
	a = json_object_new_array();
	for (i = 0; a && i < sizeof(cr_event_cols) / sizeof(cr_event_cols[0]);
	     i++)
		cr_push(a, json_object_new_string(cr_event_cols[i]), oom);
	if (a)
		json_object_set_serializer(a, cr_ser_row, NULL, NULL);
	cr_put(o, "columns", a, oom);
	a = json_object_new_array();
	if (a)
		json_object_set_serializer(a, mark ? cr_ser_mark : cr_ser_rows,
					   (void *)x, NULL);
	cr_put(o, "rows", a, oom);
	return o;
}

static struct json_object *cr_run_json(const struct cr_run *r, int mark,
				       int *oom)
{
	struct json_object *o = json_object_new_object(), *a;
	size_t i;

	if (!o) {
		*oom = 1;
		return NULL;
	}
	cr_put(o, "index", json_object_new_uint64(r->index), oom);
	cr_put(o, "variant", json_object_new_string(r->variant), oom);
	cr_put(o, "start_ns", json_object_new_int64(r->start_ns), oom);
	cr_put(o, "end_ns", json_object_new_int64(r->end_ns), oom);
	cr_put(o, "exit_status", json_object_new_int64(r->exit_status), oom);
	if (r->workload_only >= 0)
		cr_put(o, "workload_only",
		       json_object_new_boolean(r->workload_only), oom);
	/* record --cstates, --load: the run's own tags, only when set. */
	if (r->ntags) {
		a = json_object_new_object();
		for (i = 0; a && i < r->ntags; i++)
			cr_put_str(a, r->tag_names[i], r->tag_values[i], oom);
		cr_put(o, "tags", cr_done(a), oom);
	}
	a = json_object_new_array();
	for (i = 0; a && i < r->nmetrics; i++)
		cr_push(a, cr_metric_json(&r->metrics[i], oom), oom);
	cr_put(o, "metrics", cr_done(a), oom);
	/* Only runs recorded with --events (format version 2). */
	if (r->events.present)
		cr_put(o, "events", cr_events_json(&r->events, mark, oom),
		       oom);
	return o;
}

static struct json_object *cr_meta_json(const struct cr_meta *m, int *oom)
{
	struct json_object *o = json_object_new_object(), *p;
	size_t i;

	if (!o) {
		*oom = 1;
		return NULL;
	}
	/* The cpufreq fields, null or not, when the recording has them. */
	for (i = 0; i < cr_nmeta_strs; i++)
		if (*cr_meta_str((struct cr_meta *)m, i) ||
		    !cr_meta_str_optional(i) ||
		    (cr_meta_str_cpufreq(i) && m->cpufreq_recorded))
			cr_put_str(o, cr_meta_strs[i].key,
				   *cr_meta_str((struct cr_meta *)m, i), oom);
	cr_put(o, "frac_bits", json_object_new_uint64(m->frac_bits), oom);
	cr_put(o, "nr_cpus", json_object_new_uint64(m->nr_cpus), oom);
	cr_put(o, "duration_s", cr_double(m->duration_s), oom);
	p = json_object_new_object();
	for (i = 0; p && i < m->nparams; i++)
		cr_put_str(p, m->param_names[i], m->param_values[i], oom);
	cr_put(o, "params", cr_done(p), oom);
	/* Only when recorded with --events: record's limit per run. */
	if (m->events)
		cr_put(o, "events", json_object_new_uint64(m->events), oom);
	/* Only when there are tags: files without them stay as they were. */
	if (m->ntags) {
		p = json_object_new_object();
		for (i = 0; p && i < m->ntags; i++)
			cr_put_str(p, m->tag_names[i], m->tag_values[i], oom);
		cr_put(o, "tags", cr_done(p), oom);
	}
	return o;
}

char *cr_snapshot_format(const struct cr_snapshot *s)
{
	struct json_object *root = json_object_new_object(), *a;
	const char *text;
	char *out = NULL;
	int oom = 0;
	size_t i;

	if (!root)
		return NULL;
	cr_put(root, "format", json_object_new_string(CR_SNAPSHOT_FORMAT),
	       &oom);
	cr_put(root, "version", json_object_new_int(CR_SNAPSHOT_VERSION),
	       &oom);
	cr_put(root, "meta", cr_meta_json(&s->meta, &oom), &oom);
	a = json_object_new_array();
	for (i = 0; a && i < s->nruns; i++)
		cr_push(a, cr_run_json(&s->runs[i], 0, &oom), &oom);
	cr_put(root, "runs", cr_done(a), &oom);
	if (!oom) {
		text = json_object_to_json_string_ext(root,
				JSON_C_TO_STRING_PRETTY |
				JSON_C_TO_STRING_SPACED |
				JSON_C_TO_STRING_NOSLASHESCAPE);
		if (text)
			out = strdup(text);
	}
	json_object_put(root);
	return out;
}

/* ---------------------------------------------------------------- */
/* The same text, run by run.                                        */

#define CR_PRETTY	(JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | \
			 JSON_C_TO_STRING_NOSLASHESCAPE)

/*
 * n bytes of t to f, every line after the first indented pad spaces more:
 * json-c's pretty text of a member one level deeper (no JSON string holds
 * a raw line break, so every '\n' is json-c's own).
 */
static void cr_put_shifted(FILE *f, const char *t, size_t n, int pad)
{
	const char *nl;
	size_t k;

	while (n && (nl = memchr(t, '\n', n))) {
		k = (size_t)(nl - t) + 1;
		fwrite(t, 1, k, f);
		fprintf(f, "%*s", pad, "");
		t += k;
		n -= k;
	}
	fwrite(t, 1, n, f);
}

/* The rows as cr_ser_rows() lays them out at level, straight to f. */
static void cr_put_rows(FILE *f, const struct cr_events *x, int level)
{
	char buf[256];
	size_t i;

	if (!x->n) {
		fputs("[]", f);
		return;
	}
	fputc('[', f);
	for (i = 0; i < x->n; i++) {
		fputs(i ? ",\n" : "\n", f);
		fprintf(f, "%*s", 2 * (level + 1), "");
		fwrite(buf, 1, cr_row_text(buf, &x->ev[i]), f);
	}
	fprintf(f, "\n%*s]", 2 * level, "");
}

int cr_snapshot_put_head(FILE *f, const struct cr_snapshot *s)
{
	struct json_object *root = json_object_new_object();
	const char *text;
	size_t len;
	int oom = 0;

	if (!root)
		return CR_ERR;
	cr_put(root, "format", json_object_new_string(CR_SNAPSHOT_FORMAT),
	       &oom);
	cr_put(root, "version", json_object_new_int(CR_SNAPSHOT_VERSION),
	       &oom);
	cr_put(root, "meta", cr_meta_json(&s->meta, &oom), &oom);
	text = oom ? NULL : json_object_to_json_string_ext(root, CR_PRETTY);
	len = text ? strlen(text) : 0;
	/* The object without its end ("\n}"): "runs" comes next. */
	if (len < 2 || strcmp(text + len - 2, "\n}")) {
		json_object_put(root);
		return CR_ERR;
	}
	fwrite(text, 1, len - 2, f);
	fputs(",\n  \"runs\": [", f);
	json_object_put(root);
	return CR_OK;
}

int cr_snapshot_put_run(FILE *f, const struct cr_run *r, size_t i)
{
	struct json_object *o;
	const char *text, *mark;
	size_t len;
	int oom = 0;

	if (r->events.present && r->events.n && !r->events.ev)
		return CR_ERR;	/* a study's run whose events are not loaded */
	o = cr_run_json(r, 1, &oom);
	text = oom ? NULL : json_object_to_json_string_ext(o, CR_PRETTY);
	if (!text) {
		json_object_put(o);
		return CR_ERR;
	}
	len = strlen(text);
	/* An element of "runs": two levels (four spaces) deeper. */
	fputs(i ? ",\n    " : "\n    ", f);
	mark = strstr(text, CR_ROWS_MARK);
	if (!mark) {
		cr_put_shifted(f, text, len, 4);
	} else {
		cr_put_shifted(f, text, (size_t)(mark - text), 4);
		/* root 0, runs 1, the run 2, its events 3, their rows 4 */
		cr_put_rows(f, &r->events, 4);
		mark += sizeof(CR_ROWS_MARK) - 1;
		cr_put_shifted(f, mark, len - (size_t)(mark - text), 4);
	}
	json_object_put(o);
	return CR_OK;
}

void cr_snapshot_put_tail(FILE *f, size_t nruns)
{
	fputs(nruns ? "\n  ]\n}" : "]\n}", f);
}

/* ---------------------------------------------------------------- */
/* Writing.                                                          */

static int cr_write_stdout(const char *text, size_t len)
{
	if (fwrite(text, 1, len, stdout) != len || fputc('\n', stdout) == EOF ||
	    fflush(stdout)) {
		fprintf(stderr, "clkstat-report: stdout: %s\n",
			strerror(errno));
		return CR_ERR;
	}
	return CR_OK;
}

int cr_snapshot_write(const struct cr_snapshot *s, const char *path)
{
	const char *step;
	char *text, *t;
	size_t len;
	int st;

	if (!*path || path[strlen(path) - 1] == '/') {
		fprintf(stderr, "clkstat-report: %s: not a file name\n", path);
		return CR_ERR;
	}
	text = cr_snapshot_format(s);
	if (!text) {
		fprintf(stderr, "clkstat-report: %s: out of memory\n", path);
		return CR_ERR;
	}
	len = strlen(text);
	if (!strcmp(path, "-")) {
		st = cr_write_stdout(text, len);
		free(text);
		return st;
	}
	/* A text file ends with a newline. */
	t = realloc(text, len + 2);
	if (!t) {
		fprintf(stderr, "clkstat-report: %s: out of memory\n", path);
		free(text);
		return CR_ERR;
	}
	text = t;
	strcpy(text + len++, "\n");
	st = cr_file_replace(path, text, len, &step);
	if (st < 0)
		fprintf(stderr, "clkstat-report: %s: %s: %s (nothing written)\n",
			path, step, strerror(errno));
	else if (st)
		fprintf(stderr, "clkstat-report: %s: written, but syncing its folder failed: %s\n",
			path, strerror(errno));
	free(text);
	/* Not durable is not done: the caller must not take it as saved. */
	return st ? CR_ERR : CR_OK;
}

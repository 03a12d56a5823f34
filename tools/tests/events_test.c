// SPDX-License-Identifier: GPL-2.0
/*
 * events_test.c - cmocka tests of clkstat-report events' rows
 * (render_events.c) on made-up event logs whose every cell is known: two
 * runs (one with a clock pair, one without and with lost events) holding
 * every event type, fields present and absent, migrated true, false and
 * unknown (neither flag, and both), u64 values above 2^53 and 2^63, a
 * marker text with a comma and quotes, one with a control character and
 * a byte that is not UTF-8.  CSV is compared line by line with lines
 * written by hand, JSON Lines parsed back by json-c field by field, the
 * text format checked for its alignment, "-" cells and trailers; the lost
 * counts on stderr; --type filters; --type's parser.  And the same logs
 * through a snapshot file: written by cr_snapshot_write(), read back by
 * cr_snapshot_read(), rendered to the same CSV (but for the writer's '?'
 * for bytes that are not printable ASCII).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <setjmp.h>
#include <cmocka.h>
#include <json.h>

#include "../lib/render_events.h"
#include "../lib/snapshot.h"
#include "../lib/status.h"

#define RT0	1700000000000000000LL
#define MONO0	1000000000LL

static struct cr_events ev0, ev1;

static void add(struct cr_events *x, uint64_t ts, unsigned int type,
		unsigned int cpu, uint32_t pid, uint64_t corr, int lat,
		uint64_t latency, unsigned int mig, int rq, uint64_t rq_clock,
		const char *text)
{
	struct clkstat_event_rec e = {
		.ts = ts, .corr = corr, .pid = pid, .cpu = (uint16_t)cpu,
		.type = (uint8_t)type, .flags = (uint8_t)mig,
	};

	if (lat) {
		e.latency = latency;
		e.flags |= CLKSTAT_EVF_LATENCY;
	}
	if (rq) {
		e.rq_clock = rq_clock;
		e.flags |= CLKSTAT_EVF_RQ_CLOCK;
	}
	snprintf(e.text, sizeof(e.text), "%s", text);
	assert_int_equal(cr_events_add(x, &e), 0);
}

#define MIG	CLKSTAT_EVF_MIGRATED
#define LOC	CLKSTAT_EVF_LOCAL

static int setup(void **state)
{
	(void)state;
	memset(&ev0, 0, sizeof(ev0));
	memset(&ev1, 0, sizeof(ev1));
	ev0.present = 1;
	ev0.nclock = 2;
	ev0.clock[0] = (struct cr_clock_pair){ MONO0, RT0 };
	ev0.clock[1] = (struct cr_clock_pair){ MONO0 + 10000000, RT0 + 10000123 };
	add(&ev0, 1000000100, CLKSTAT_EV_WAKEUP, 0, 117, 47, 0, 0, 0, 0, 0, "");
	add(&ev0, 1000000400, CLKSTAT_EV_ENQUEUE, 1, 117, 47, 1, 300, MIG, 1,
	    999999000, "");
	add(&ev0, 1000000900, CLKSTAT_EV_FIRST_TKREAD, 1, 117, 47, 1, 800, LOC,
	    1, 123, "");
	add(&ev0, 1000002000, CLKSTAT_EV_CS_SWITCH_ENTRY, 1, 114, 49, 0, 0, 0,
	    0, 0, "acpi_pm");
	add(&ev0, 1000003000, CLKSTAT_EV_CS_SWITCH_EXIT, 1, 114, 49, 1, 1000, 0,
	    0, 0, "acpi_pm");
	add(&ev0, 1000004000, CLKSTAT_EV_CS_READ, 0, 115, 0, 1, 1734, 0, 0, 0,
	    "hpet");
	add(&ev0, 1000005000, CLKSTAT_EV_MARKER, 1, 114, 0, 0, 0, 0, 0, 0,
	    "a,b \"q\"");
	/* Both flags: not known.  corr above 2^53, rq_clock above 2^63. */
	add(&ev0, 1000006000, CLKSTAT_EV_ENQUEUE, 3, 200, 9007199254740993ULL,
	    0, 0, MIG | LOC, 1, UINT64_MAX, "");
	ev1.present = 1;
	ev1.lost = 5;
	add(&ev1, 5, CLKSTAT_EV_WAKEUP, 2, 7, 1, 0, 0, 0, 0, 0, "");
	add(&ev1, 6, CLKSTAT_EV_MARKER, 2, 7, 0, 0, 0, 0, 0, 0, "x\t\xc3");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	cr_events_free(&ev0);
	cr_events_free(&ev1);
	return 0;
}

static const struct cr_ev_src srcs[] = {
	{ .ev = &ev0, .run = 0, .variant = "direct" },
	{ .ev = &ev1, .run = 1, .variant = "kprobe" },
};

/* What the renderer wrote to out and err (free both). */
static void render(enum cr_ev_fmt fmt, unsigned int types, char **out,
		   char **err)
{
	size_t ol = 0, el = 0;
	FILE *o = open_memstream(out, &ol), *e = open_memstream(err, &el);

	assert_non_null(o);
	assert_non_null(e);
	assert_int_equal(cr_render_events(o, e, fmt, srcs, 2, types), CR_OK);
	assert_int_equal(fclose(o), 0);
	assert_int_equal(fclose(e), 0);
}

static const char *const csv_want[] = {
	"timestamp_ns,realtime_ns,type,clocksource,cpu,pid,corr,latency_ns,migrated,rq_clock_ns,text,run,variant",
	"1000000100,1700000000000000100,wakeup,,0,117,47,,,,,0,direct",
	"1000000400,1700000000000000400,enqueue,,1,117,47,300,true,999999000,,0,direct",
	"1000000900,1700000000000000900,first_tkread,,1,117,47,800,false,123,,0,direct",
	"1000002000,1700000000000002000,clocksource_switch_entry,acpi_pm,1,114,49,,,,,0,direct",
	"1000003000,1700000000000003000,clocksource_switch_exit,acpi_pm,1,114,49,1000,,,,0,direct",
	"1000004000,1700000000000004000,clocksource_read,hpet,0,115,,1734,,,,0,direct",
	"1000005000,1700000000000005000,marker,,1,114,,,,,\"a,b \"\"q\"\"\",0,direct",
	"1000006000,1700000000000006000,enqueue,,3,200,9007199254740993,,,18446744073709551615,,0,direct",
	"5,,wakeup,,2,7,1,,,,,1,kprobe",
	"6,,marker,,2,7,,,,,x\t\xef\xbf\xbd,1,kprobe",
};

#define NWANT	(sizeof(csv_want) / sizeof(csv_want[0]))

static void test_csv(void **state)
{
	char *out, *err, *p, *line;
	size_t i = 0;

	(void)state;
	render(CR_EV_CSV, CR_EV_ALL_TYPES, &out, &err);
	for (p = out; *p; i++) {
		line = p;
		p = strstr(p, "\r\n");
		assert_non_null(p);	/* every line ends in CRLF */
		*p = '\0';
		p += 2;
		assert_true(i < NWANT);
		assert_string_equal(line, csv_want[i]);
	}
	assert_int_equal(i, NWANT);
	assert_string_equal(err, "clkstat-report: run 1 (kprobe): 5 events lost, 2 kept\n");
	free(out);
	free(err);
}

static void test_csv_types(void **state)
{
	char *out, *err;

	(void)state;
	render(CR_EV_CSV, 1u << CLKSTAT_EV_MARKER, &out, &err);
	/* The header, run 0's marker and run 1's. */
	assert_non_null(strstr(out, csv_want[7]));
	assert_non_null(strstr(out, csv_want[10]));
	assert_null(strstr(out, "wakeup"));
	assert_null(strstr(out, "enqueue"));
	assert_int_equal(strlen(out), strlen(csv_want[0]) + strlen(csv_want[7]) +
			 strlen(csv_want[10]) + 6);
	free(out);
	free(err);
}

/* Line i of the JSON Lines, parsed (put it). */
static struct json_object *jline(const char *out, size_t i)
{
	const char *p = out, *nl;
	struct json_object *o;
	char *s;

	while (i--) {
		p = strchr(p, '\n');
		assert_non_null(p);
		p++;
	}
	nl = strchr(p, '\n');
	assert_non_null(nl);
	s = strndup(p, nl - p);
	o = json_tokener_parse(s);
	free(s);
	assert_non_null(o);
	return o;
}

static struct json_object *jget(struct json_object *o, const char *k)
{
	struct json_object *v = NULL;

	assert_true(json_object_object_get_ex(o, k, &v));
	return v;
}

static void jnull(struct json_object *o, const char *k)
{
	assert_null(jget(o, k));
}

static void ju64(struct json_object *o, const char *k, uint64_t want)
{
	struct json_object *v = jget(o, k);

	assert_non_null(v);
	assert_true(json_object_is_type(v, json_type_int));
	assert_true(json_object_get_uint64(v) == want);
}

static void jstr(struct json_object *o, const char *k, const char *want)
{
	struct json_object *v = jget(o, k);

	assert_non_null(v);
	assert_true(json_object_is_type(v, json_type_string));
	assert_string_equal(json_object_get_string(v), want);
}

static void jbool(struct json_object *o, const char *k, int want)
{
	struct json_object *v = jget(o, k);

	assert_non_null(v);
	assert_true(json_object_is_type(v, json_type_boolean));
	assert_int_equal(json_object_get_boolean(v), want);
}

static void test_jsonl(void **state)
{
	static const char *const cols[] = {
		"timestamp_ns", "realtime_ns", "type", "clocksource", "cpu",
		"pid", "corr", "latency_ns", "migrated", "rq_clock_ns", "text",
		"run", "variant",
	};
	struct json_object *o;
	char *out, *err, *p;
	size_t i, n = 0;

	(void)state;
	render(CR_EV_JSONL, CR_EV_ALL_TYPES, &out, &err);
	for (p = out; (p = strchr(p, '\n')); p++)
		n++;
	assert_int_equal(n, NWANT - 1);
	/* Every line has every column, in order. */
	for (i = 0; i < n; i++) {
		struct json_object_iterator it, end;
		size_t c = 0;

		o = jline(out, i);
		it = json_object_iter_begin(o);
		end = json_object_iter_end(o);
		for (; !json_object_iter_equal(&it, &end);
		     json_object_iter_next(&it))
			assert_string_equal(json_object_iter_peek_name(&it),
					    cols[c++]);
		assert_int_equal(c, 13);
		json_object_put(o);
	}
	o = jline(out, 0);
	ju64(o, "timestamp_ns", 1000000100);
	ju64(o, "realtime_ns", 1700000000000000100ULL);
	jstr(o, "type", "wakeup");
	jnull(o, "clocksource");
	ju64(o, "cpu", 0);
	ju64(o, "pid", 117);
	ju64(o, "corr", 47);
	jnull(o, "latency_ns");
	jnull(o, "migrated");
	jnull(o, "rq_clock_ns");
	jnull(o, "text");
	ju64(o, "run", 0);
	jstr(o, "variant", "direct");
	json_object_put(o);
	o = jline(out, 1);
	ju64(o, "latency_ns", 300);
	jbool(o, "migrated", 1);
	ju64(o, "rq_clock_ns", 999999000);
	json_object_put(o);
	o = jline(out, 2);
	jbool(o, "migrated", 0);
	ju64(o, "rq_clock_ns", 123);
	json_object_put(o);
	o = jline(out, 3);
	jstr(o, "clocksource", "acpi_pm");
	jnull(o, "text");
	json_object_put(o);
	o = jline(out, 5);
	jstr(o, "clocksource", "hpet");
	jnull(o, "corr");
	ju64(o, "latency_ns", 1734);
	json_object_put(o);
	o = jline(out, 6);
	jstr(o, "text", "a,b \"q\"");
	jnull(o, "clocksource");
	json_object_put(o);
	o = jline(out, 7);
	ju64(o, "corr", 9007199254740993ULL);
	jnull(o, "migrated");
	ju64(o, "rq_clock_ns", UINT64_MAX);
	json_object_put(o);
	/* Written exactly, not through a double. */
	assert_non_null(strstr(out, "\"corr\":9007199254740993,"));
	assert_non_null(strstr(out, "\"rq_clock_ns\":18446744073709551615,"));
	o = jline(out, 8);
	jnull(o, "realtime_ns");
	ju64(o, "run", 1);
	jstr(o, "variant", "kprobe");
	json_object_put(o);
	o = jline(out, 9);
	jstr(o, "text", "x\t\xef\xbf\xbd");
	json_object_put(o);
	assert_string_equal(err, "clkstat-report: run 1 (kprobe): 5 events lost, 2 kept\n");
	free(out);
	free(err);
}

/* The display column of byte offset off of line s (UTF-8). */
static size_t dcol(const char *s, size_t off)
{
	size_t c = 0, i;

	for (i = 0; i < off; i++)
		c += ((unsigned char)s[i] & 0xc0) != 0x80;
	return c;
}

/* Byte offset of display column col of s. */
static size_t boff(const char *s, size_t col)
{
	size_t i = 0, c = 0;

	while (s[i] && c < col) {
		i++;
		while (((unsigned char)s[i] & 0xc0) == 0x80)
			i++;
		c++;
	}
	return i;
}

static void test_text(void **state)
{
	static const char *const cols[] = {
		"timestamp_ns", "realtime_ns", "type", "clocksource", "cpu",
		"pid", "corr", "latency_ns", "migrated", "rq_clock_ns", "text",
		"run", "variant",
	};
	char *out, *err, *lines[16], *p;
	size_t at[13], n = 0, i, c, off;

	(void)state;
	render(CR_EV_TEXT, CR_EV_ALL_TYPES, &out, &err);
	assert_string_equal(err, "");
	for (p = strtok(out, "\n"); p; p = strtok(NULL, "\n")) {
		assert_true(n < 16);
		lines[n++] = p;
	}
	assert_int_equal(n, 1 + NWANT - 1 + 2);
	/* The header: each column's name, where it starts. */
	for (c = 0; c < 13; c++) {
		p = strstr(lines[0], cols[c]);
		assert_non_null(p);
		at[c] = dcol(lines[0], p - lines[0]);
		assert_true(c == 0 || lines[0][p - lines[0] - 1] == ' ');
	}
	/* Every row: a cell (never empty) starts at each column. */
	for (i = 1; i <= NWANT - 1; i++)
		for (c = 0; c < 13; c++) {
			off = boff(lines[i], at[c]);
			assert_true(lines[i][off] && lines[i][off] != ' ');
			assert_true(c == 0 || lines[i][off - 1] == ' ');
		}
	/* Some cells. */
	assert_int_equal(strncmp(lines[1], "1000000100    1700000000000000100  wakeup ", 42), 0);
	off = boff(lines[1], at[3]);
	assert_int_equal(strncmp(lines[1] + off, "- ", 2), 0);
	off = boff(lines[7], at[10]);
	assert_int_equal(strncmp(lines[7] + off, "a,b \"q\" ", 8), 0);
	off = boff(lines[10], at[10]);
	assert_int_equal(strncmp(lines[10] + off, "x?\xef\xbf\xbd ", 6), 0);
	off = boff(lines[9], at[1]);
	assert_int_equal(strncmp(lines[9] + off, "- ", 2), 0);
	off = boff(lines[8], at[9]);
	assert_int_equal(strncmp(lines[8] + off, "18446744073709551615 ", 21), 0);
	off = boff(lines[2], at[8]);
	assert_int_equal(strncmp(lines[2] + off, "true ", 5), 0);
	off = boff(lines[3], at[8]);
	assert_int_equal(strncmp(lines[3] + off, "false ", 6), 0);
	assert_string_equal(lines[11], "# run 0 variant direct: events 8 lost 0");
	assert_string_equal(lines[12], "# run 1 variant kprobe: events 2 lost 5");
	free(out);
	free(err);
}

/*
 * A user-defined probe's sample: type trace, corr its number, latency the
 * sample, text the spec's first 15 bytes (with ':'), in every format.
 */
static void test_trace_event(void **state)
{
	struct cr_events x = { .present = 1 };
	struct cr_ev_src src = { .ev = &x, .run = 2, .variant = "kprobe-int3" };
	char *out = NULL, *err = NULL;
	size_t ol = 0, el = 0;
	FILE *o, *e;
	int fmt;

	(void)state;
	/* sec:clkstat_tt_sec_begin-clkstat_tt_sec_end, as the module cuts it */
	add(&x, 77, CLKSTAT_EV_TRACE, 1, 300, 3, 1, 20480, 0, 0, 0,
	    "sec:clkstat_tt_");
	for (fmt = CR_EV_TEXT; fmt <= CR_EV_JSONL; fmt++) {
		o = open_memstream(&out, &ol);
		e = open_memstream(&err, &el);
		assert_int_equal(cr_render_events(o, e, fmt, &src, 1,
						  1u << CLKSTAT_EV_TRACE), CR_OK);
		fclose(o);
		fclose(e);
		if (fmt == CR_EV_CSV)
			assert_non_null(strstr(out, "\r\n77,,trace,,1,300,3,20480,,,sec:clkstat_tt_,2,kprobe-int3\r\n"));
		else if (fmt == CR_EV_JSONL)
			assert_non_null(strstr(out, "\"type\":\"trace\",\"clocksource\":null,\"cpu\":1,\"pid\":300,\"corr\":3,\"latency_ns\":20480,\"migrated\":null,\"rq_clock_ns\":null,\"text\":\"sec:clkstat_tt_\""));
		assert_non_null(strstr(out, "sec:clkstat_tt_"));
		assert_non_null(strstr(out, "trace"));
		free(out);
		free(err);
	}
	cr_events_free(&x);
}

/*
 * The number cells at their edges, as the CSV writes them without
 * printf: 0, the largest u64 (ts, corr), a realtime below zero and the
 * largest and smallest an i64 holds (clock pairs that put an event's
 * realtime there).
 */
static void test_number_edges(void **state)
{
	static const struct {
		uint64_t ts, corr;
		int64_t mono, real;
		const char *want;
	} c[] = {
		{ 0, 0, 0, 0, "\r\n0,0,wakeup,,0,0,,"  /* corr 0: none */ },
		{ UINT64_MAX, UINT64_MAX, -1, 0,
		  "\r\n18446744073709551615,0,wakeup,,0,0,18446744073709551615," },
		{ 5, 1, 10, 0, "\r\n5,-5,wakeup,,0,0,1," },
		{ 0, 1, 1, INT64_MIN + 1, "\r\n0,-9223372036854775808,wakeup," },
		{ 1, 1, 0, INT64_MAX - 1, "\r\n1,9223372036854775807,wakeup," },
	};
	struct clkstat_event_rec ev = { 0 };
	struct cr_events x = { 0 };
	struct cr_ev_src src = { .ev = &x, .run = 0, .variant = "kprobe" };
	char *out = NULL, *err = NULL;
	size_t i, ol = 0, el = 0;
	FILE *o, *e;

	(void)state;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		ev.ts = c[i].ts;
		ev.corr = c[i].corr;
		x = (struct cr_events){ .present = 1, .n = 1, .ev = &ev,
					.nclock = 1 };
		x.clock[0].mono_ns = c[i].mono;
		x.clock[0].realtime_ns = c[i].real;
		o = open_memstream(&out, &ol);
		e = open_memstream(&err, &el);
		assert_int_equal(cr_render_events(o, e, CR_EV_CSV, &src, 1,
						  CR_EV_ALL_TYPES), CR_OK);
		fclose(o);
		fclose(e);
		if (!strstr(out, c[i].want))
			print_error("case %zu: %s\n", i, out);
		assert_non_null(strstr(out, c[i].want));
		free(out);
		free(err);
	}
}

static void test_live_trailer(void **state)
{
	struct cr_ev_src live = { .ev = &ev1, .run = -1, .variant = "ftrace" };
	char *out = NULL, *err = NULL;
	size_t ol = 0, el = 0;
	FILE *o, *e;

	(void)state;
	o = open_memstream(&out, &ol);
	e = open_memstream(&err, &el);
	assert_int_equal(cr_render_events(o, e, CR_EV_CSV, &live, 1,
					  CR_EV_ALL_TYPES), CR_OK);
	fclose(o);
	fclose(e);
	assert_non_null(strstr(out, "\r\n5,,wakeup,,2,7,1,,,,,,ftrace\r\n"));
	assert_string_equal(err, "clkstat-report: live log (ftrace): 5 events lost, 2 kept\n");
	free(out);
	free(err);
	o = open_memstream(&out, &ol);
	e = open_memstream(&err, &el);
	assert_int_equal(cr_render_events(o, e, CR_EV_TEXT, &live, 1,
					  CR_EV_ALL_TYPES), CR_OK);
	fclose(o);
	fclose(e);
	assert_non_null(strstr(out, "\n# live variant ftrace: events 2 lost 5\n"));
	assert_null(strstr(out, "# live clock"));
	free(out);
	free(err);
	/* With the clock known: a line of its own before the trailer. */
	live.clock = "tsc";
	o = open_memstream(&out, &ol);
	e = open_memstream(&err, &el);
	assert_int_equal(cr_render_events(o, e, CR_EV_TEXT, &live, 1,
					  CR_EV_ALL_TYPES), CR_OK);
	fclose(o);
	fclose(e);
	assert_non_null(strstr(out, "\n# live clock tsc\n# live variant ftrace: events 2 lost 5\n"));
	free(out);
	free(err);
}

/* A cr_events copied (the snapshot's run owns its own). */
static void copy_events(struct cr_events *dst, const struct cr_events *src)
{
	size_t i;

	*dst = *src;
	dst->ev = NULL;
	dst->n = dst->cap = 0;
	for (i = 0; i < src->n; i++)
		assert_int_equal(cr_events_add(dst, &src->ev[i]), 0);
}

static void test_snapshot_file(void **state)
{
	char path[] = "/tmp/events_test.XXXXXX", *out = NULL, *err = NULL;
	struct cr_snapshot s = { 0 }, back = { 0 };
	struct cr_ev_src src[2];
	struct cr_run *r;
	size_t ol = 0, el = 0, i, n = 0;
	FILE *o, *e;
	char *p, *line;
	int fd;

	(void)state;
	s.meta.frac_bits = 3;
	s.meta.events = 1000;
	r = cr_snapshot_add_run(&s);
	assert_non_null(r);
	snprintf(r->variant, sizeof(r->variant), "direct");
	copy_events(&r->events, &ev0);
	r = cr_snapshot_add_run(&s);
	assert_non_null(r);
	r->index = 1;
	snprintf(r->variant, sizeof(r->variant), "kprobe");
	copy_events(&r->events, &ev1);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(cr_snapshot_write(&s, path), CR_OK);
	assert_int_equal(cr_snapshot_read(path, &back), CR_OK);
	unlink(path);
	assert_int_equal(back.nruns, 2);
	for (i = 0; i < 2; i++) {
		assert_true(back.runs[i].events.present);
		src[i] = (struct cr_ev_src){ .ev = &back.runs[i].events,
			.run = back.runs[i].index,
			.variant = back.runs[i].variant };
	}
	o = open_memstream(&out, &ol);
	e = open_memstream(&err, &el);
	assert_int_equal(cr_render_events(o, e, CR_EV_CSV, src, 2,
					  CR_EV_ALL_TYPES), CR_OK);
	fclose(o);
	fclose(e);
	for (p = out; *p; n++) {
		line = p;
		p = strstr(p, "\r\n");
		assert_non_null(p);
		*p = '\0';
		p += 2;
		assert_true(n < NWANT);
		if (n == NWANT - 1)
			assert_string_equal(line, "6,,marker,,2,7,,,,,x??,1,kprobe");
		else
			assert_string_equal(line, csv_want[n]);
	}
	assert_int_equal(n, NWANT);
	assert_string_equal(err, "clkstat-report: run 1 (kprobe): 5 events lost, 2 kept\n");
	free(out);
	free(err);
	cr_snapshot_free(&s);
	cr_snapshot_free(&back);
}

static void test_parse(void **state)
{
	unsigned int m;
	char err[256];
	enum cr_ev_fmt f;

	(void)state;
	assert_int_equal(cr_ev_types_parse("marker", &m, err, sizeof(err)), 0);
	assert_int_equal(m, 1u << CLKSTAT_EV_MARKER);
	assert_int_equal(cr_ev_types_parse("wakeup,clocksource_read", &m, err,
					   sizeof(err)), 0);
	assert_int_equal(m, 1u << CLKSTAT_EV_WAKEUP | 1u << CLKSTAT_EV_CS_READ);
	assert_int_equal(cr_ev_types_parse("wakeup,,marker", &m, err,
					   sizeof(err)), -1);
	assert_string_equal(err, "--type '': not an event type (wakeup, enqueue, first_tkread, clocksource_switch_entry, clocksource_switch_exit, clocksource_read, marker, trace)");
	assert_int_equal(cr_ev_types_parse("wakeups", &m, err, 20), -1);
	assert_int_equal(strlen(err), 19);
	assert_int_equal(cr_ev_fmt_parse("jsonl", &f), 0);
	assert_int_equal(f, CR_EV_JSONL);
	assert_int_equal(cr_ev_fmt_parse("csv", &f), 0);
	assert_int_equal(f, CR_EV_CSV);
	assert_int_equal(cr_ev_fmt_parse("json", &f), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_csv, setup, teardown),
		cmocka_unit_test_setup_teardown(test_csv_types, setup, teardown),
		cmocka_unit_test_setup_teardown(test_jsonl, setup, teardown),
		cmocka_unit_test_setup_teardown(test_text, setup, teardown),
		cmocka_unit_test(test_trace_event),
		cmocka_unit_test(test_number_edges),
		cmocka_unit_test_setup_teardown(test_live_trailer, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_snapshot_file, setup,
						teardown),
		cmocka_unit_test(test_parse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

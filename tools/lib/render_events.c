// SPDX-License-Identifier: GPL-2.0
/*
 * render_events.c - event logs as rows of text, CSV or JSON Lines
 * (render_events.h says what each column holds).  Every format takes its
 * cells from one place, cr_ev_cell(), so that they cannot disagree.
 */
#include <inttypes.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <json.h>
#include "render_common.h"
#include "render_events.h"
#include "status.h"

enum {
	C_TS, C_RT, C_TYPE, C_CS, C_CPU, C_PID, C_CORR, C_LAT, C_MIG, C_RQ,
	C_TEXT, C_RUN, C_VARIANT, C_N
};

static const char *const cr_ev_cols[C_N] = {
	"timestamp_ns", "realtime_ns", "type", "clocksource", "cpu", "pid",
	"corr", "latency_ns", "migrated", "rq_clock_ns", "text", "run",
	"variant",
};

enum cr_cell_kind { K_NONE, K_U64, K_I64, K_BOOL, K_STR };

struct cr_cell {
	enum cr_cell_kind kind;
	uint64_t u;
	int64_t i;
	int b;
	const char *s;
	char buf[3 * CLKSTAT_EVENT_TEXT + 1];	/* text, made valid UTF-8 */
};

int cr_ev_fmt_parse(const char *s, enum cr_ev_fmt *f)
{
	if (!strcmp(s, "text"))
		*f = CR_EV_TEXT;
	else if (!strcmp(s, "csv"))
		*f = CR_EV_CSV;
	else if (!strcmp(s, "jsonl"))
		*f = CR_EV_JSONL;
	else
		return -1;
	return 0;
}

int cr_ev_types_parse(const char *s, unsigned int *mask, char *err,
		      size_t errlen)
{
	const char *p = s, *comma;
	char name[64];
	size_t len;
	int t, n;

	*mask = 0;
	for (;;) {
		comma = strchr(p, ',');
		len = comma ? (size_t)(comma - p) : strlen(p);
		t = -1;
		if (len < sizeof(name)) {
			memcpy(name, p, len);
			name[len] = '\0';
			t = cr_event_type_parse(name);
		}
		if (t < 0) {
			n = snprintf(err, errlen, "--type '%.*s': not an event type (",
				     (int)(len < 40 ? len : 40), p);
			for (t = 0; t < CLKSTAT_EV_NTYPES && n >= 0 &&
			     (size_t)n < errlen; t++)
				n += snprintf(err + n, errlen - n, "%s%s",
					      t ? ", " : "",
					      cr_event_type_name(t));
			if (n >= 0 && (size_t)n < errlen)
				snprintf(err + n, errlen - n, ")");
			return -1;
		}
		*mask |= 1u << t;
		if (!comma)
			return 0;
		p = comma + 1;
	}
}

/*
 * An event's text (at most CLKSTAT_EVENT_TEXT - 1 bytes) into buf as
 * valid UTF-8, each invalid byte U+FFFD; ctrl: control characters '?'.
 */
static void cr_ev_text(char *buf, const char *text, int ctrl)
{
	const unsigned char *p = (const unsigned char *)text;
	size_t n = strnlen(text, CLKSTAT_EVENT_TEXT - 1), i = 0, len;
	char *o = buf;

	while (i < n) {
		len = cr_utf8_len(p + i, n - i);
		if (!len) {
			memcpy(o, "\xef\xbf\xbd", 3);
			o += 3;
			i++;
			continue;
		}
		if (len == 1 && ctrl && (p[i] < 0x20 || p[i] == 0x7f))
			*o = '?';
		else
			memcpy(o, p + i, len);
		o += len;
		i += len;
	}
	*o = '\0';
}

/* The log of a source: held, or its run's (loaded or not). */
static const struct cr_events *cr_ev_log(const struct cr_ev_src *s)
{
	return s->ev ? s->ev : &s->r->events;
}

/* A source's events at hand: its run's loaded if they are not held. */
static int cr_ev_get(const struct cr_ev_src *s)
{
	return s->ev ? CR_OK : cr_run_events_load(s->snap, s->r);
}

static void cr_ev_put(const struct cr_ev_src *s)
{
	if (!s->ev)
		cr_run_events_drop(s->r);
}

static int cr_ev_is_cs(const struct clkstat_event_rec *e)
{
	return e->type == CLKSTAT_EV_CS_SWITCH_ENTRY ||
	       e->type == CLKSTAT_EV_CS_SWITCH_EXIT ||
	       e->type == CLKSTAT_EV_CS_READ;
}

/* Column col of event e of source s. */
static void cr_ev_cell(const struct cr_ev_src *s,
		       const struct clkstat_event_rec *e, int col, int ctrl,
		       struct cr_cell *c)
{
	const struct cr_events *x = cr_ev_log(s);
	unsigned int mig = e->flags & (CLKSTAT_EVF_MIGRATED | CLKSTAT_EVF_LOCAL);

	c->kind = K_NONE;
	switch (col) {
	case C_TS:
		c->kind = K_U64;
		c->u = e->ts;
		break;
	case C_RT:
		if (x->nclock) {
			c->kind = K_I64;
			c->i = x->clock[0].realtime_ns +
			       ((int64_t)e->ts - x->clock[0].mono_ns);
		}
		break;
	case C_TYPE:
		c->kind = K_STR;
		c->s = cr_event_type_name(e->type);
		break;
	case C_CS:
	case C_TEXT:
		/* text: a marker's, or a trace's spec (its first bytes). */
		if (!e->text[0] ||
		    (col == C_CS ? !cr_ev_is_cs(e) :
		     e->type != CLKSTAT_EV_MARKER && e->type != CLKSTAT_EV_TRACE))
			break;
		cr_ev_text(c->buf, e->text, ctrl);
		c->kind = K_STR;
		c->s = c->buf;
		break;
	case C_CPU:
		c->kind = K_U64;
		c->u = e->cpu;
		break;
	case C_PID:
		c->kind = K_U64;
		c->u = e->pid;
		break;
	case C_CORR:
		if (e->corr) {
			c->kind = K_U64;
			c->u = e->corr;
		}
		break;
	case C_LAT:
		if (e->flags & CLKSTAT_EVF_LATENCY) {
			c->kind = K_U64;
			c->u = e->latency;
		}
		break;
	case C_MIG:
		if (mig == CLKSTAT_EVF_MIGRATED || mig == CLKSTAT_EVF_LOCAL) {
			c->kind = K_BOOL;
			c->b = mig == CLKSTAT_EVF_MIGRATED;
		}
		break;
	case C_RQ:
		if (e->flags & CLKSTAT_EVF_RQ_CLOCK) {
			c->kind = K_U64;
			c->u = e->rq_clock;
		}
		break;
	case C_RUN:
		if (s->run >= 0) {
			c->kind = K_U64;
			c->u = (uint64_t)s->run;
		}
		break;
	default: /* C_VARIANT */
		if (s->variant) {
			c->kind = K_STR;
			c->s = s->variant;
		}
		break;
	}
}

/*
 * v in decimal, ending at end (which gets the NUL); return where it
 * starts.  Millions of cells a second: snprintf() was a third of the CSV.
 */
static char *cr_u64_str(uint64_t v, char *end)
{
	*end = '\0';
	do
		*--end = (char)('0' + v % 10);
	while (v /= 10);
	return end;
}

/* A cell as text into buf (none: ""); return the string. */
static const char *cr_cell_str(const struct cr_cell *c, char *buf,
			       size_t len)
{
	char *p;

	switch (c->kind) {
	case K_U64:
		return cr_u64_str(c->u, buf + len - 1);
	case K_I64:
		/* The magnitude as a u64: INT64_MIN has no positive i64. */
		p = cr_u64_str(c->i < 0 ? -(uint64_t)c->i : (uint64_t)c->i,
			       buf + len - 1);
		if (c->i < 0)
			*--p = '-';
		return p;
	case K_BOOL:
		return c->b ? "true" : "false";
	case K_STR:
		return c->s;
	default:
		return "";
	}
}

static struct json_object *cr_cell_json(const struct cr_cell *c)
{
	switch (c->kind) {
	case K_U64:
		return json_object_new_uint64(c->u);
	case K_I64:
		return json_object_new_int64(c->i);
	case K_BOOL:
		return json_object_new_boolean(c->b);
	case K_STR:
		return json_object_new_string(c->s);
	default:
		return NULL;
	}
}

/* Display width: UTF-8 characters (every one taken as one column). */
static size_t cr_width(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

/* Is event e of a type in types? */
static int cr_ev_shown(const struct clkstat_event_rec *e, unsigned int types)
{
	return e->type < CLKSTAT_EV_NTYPES && (types & 1u << e->type);
}

static int cr_ev_text_rows(FILE *out, const struct cr_ev_src *src,
			   size_t nsrc, unsigned int types)
{
	size_t w[C_N], k, i, n;
	const struct clkstat_event_rec *e;
	const struct cr_events *x;
	int st;
	struct cr_cell c;
	char buf[32];
	const char *s;
	int col;

	for (col = 0; col < C_N; col++)
		w[col] = strlen(cr_ev_cols[col]);
	for (k = 0; k < nsrc; k++) {
		st = cr_ev_get(&src[k]);
		if (st)
			return st;
		x = cr_ev_log(&src[k]);
		for (i = 0; i < x->n; i++) {
			e = &x->ev[i];
			if (!cr_ev_shown(e, types))
				continue;
			for (col = 0; col < C_N; col++) {
				cr_ev_cell(&src[k], e, col, 1, &c);
				s = cr_cell_str(&c, buf, sizeof(buf));
				n = *s ? cr_width(s) : 1;
				if (n > w[col])
					w[col] = n;
			}
		}
		cr_ev_put(&src[k]);
	}
	for (col = 0; col < C_N; col++)
		if (col < C_N - 1)
			fprintf(out, "%-*s  ", (int)w[col], cr_ev_cols[col]);
		else
			fprintf(out, "%s\n", cr_ev_cols[col]);
	for (k = 0; k < nsrc; k++) {
		st = cr_ev_get(&src[k]);
		if (st)
			return st;
		x = cr_ev_log(&src[k]);
		for (i = 0; i < x->n; i++) {
			e = &x->ev[i];
			if (!cr_ev_shown(e, types))
				continue;
			for (col = 0; col < C_N; col++) {
				cr_ev_cell(&src[k], e, col, 1, &c);
				s = cr_cell_str(&c, buf, sizeof(buf));
				if (!*s)
					s = "-";
				fputs(s, out);
				if (col == C_N - 1) {
					fputc('\n', out);
					continue;
				}
				for (n = cr_width(s); n < w[col] + 2; n++)
					fputc(' ', out);
			}
		}
		cr_ev_put(&src[k]);
	}
	for (k = 0; k < nsrc; k++) {
		/* The clock of the timestamps, when known: a line of its own. */
		if (src[k].clock && src[k].run >= 0)
			fprintf(out, "# run %ld clock %s\n", src[k].run,
				src[k].clock);
		else if (src[k].clock)
			fprintf(out, "# live clock %s\n", src[k].clock);
		fputs("# ", out);
		if (src[k].run >= 0)
			fprintf(out, "run %ld ", src[k].run);
		else
			fputs("live ", out);
		fprintf(out, "variant %s: events %zu lost %" PRIu64 "\n",
			src[k].variant ? src[k].variant : "-",
			cr_ev_log(&src[k])->n, cr_ev_log(&src[k])->lost);
	}
	return CR_OK;
}

static int cr_ev_csv_rows(FILE *out, const struct cr_ev_src *src,
			  size_t nsrc, unsigned int types)
{
	const struct clkstat_event_rec *e;
	const struct cr_events *x;
	struct cr_cell c;
	char buf[32];
	size_t k, i;
	int col, st;

	for (col = 0; col < C_N; col++)
		fprintf(out, "%s%s", cr_ev_cols[col], col < C_N - 1 ? "," : "\r\n");
	for (k = 0; k < nsrc; k++) {
		st = cr_ev_get(&src[k]);
		if (st)
			return st;
		x = cr_ev_log(&src[k]);
		for (i = 0; i < x->n; i++) {
			e = &x->ev[i];
			if (!cr_ev_shown(e, types))
				continue;
			for (col = 0; col < C_N; col++) {
				cr_ev_cell(&src[k], e, col, 0, &c);
				cr_csv_field(out, cr_cell_str(&c, buf,
							      sizeof(buf)));
				fputs(col < C_N - 1 ? "," : "\r\n", out);
			}
		}
		cr_ev_put(&src[k]);
	}
	return CR_OK;
}

/* One event as a JSON object on a line; -1 when out of memory. */
static int cr_ev_jsonl_row(FILE *out, const struct cr_ev_src *src,
			   const struct clkstat_event_rec *e)
{
	struct json_object *o = json_object_new_object();
	struct cr_cell c;
	const char *s;
	int col;

	if (!o)
		return -1;
	for (col = 0; col < C_N; col++) {
		cr_ev_cell(src, e, col, 0, &c);
		/* A NULL value is JSON null: only the add can fail. */
		if (c.kind == K_NONE ?
		    json_object_object_add(o, cr_ev_cols[col], NULL) :
		    cr_jadd(o, cr_ev_cols[col], cr_cell_json(&c))) {
			json_object_put(o);
			return -1;
		}
	}
	s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
					   JSON_C_TO_STRING_NOSLASHESCAPE);
	if (s)
		fprintf(out, "%s\n", s);
	json_object_put(o);
	return s ? 0 : -1;
}

static int cr_ev_jsonl_rows(FILE *out, const struct cr_ev_src *src,
			    size_t nsrc, unsigned int types)
{
	const struct clkstat_event_rec *e;
	const struct cr_events *x;
	size_t k, i;
	int st;

	for (k = 0; k < nsrc; k++) {
		st = cr_ev_get(&src[k]);
		if (st)
			return st;
		x = cr_ev_log(&src[k]);
		for (i = 0; i < x->n; i++) {
			e = &x->ev[i];
			if (cr_ev_shown(e, types) &&
			    cr_ev_jsonl_row(out, &src[k], e)) {
				cr_ev_put(&src[k]);
				return -1;	/* out of memory */
			}
		}
		cr_ev_put(&src[k]);
	}
	return CR_OK;
}

int cr_render_events(FILE *out, FILE *err, enum cr_ev_fmt fmt,
		     const struct cr_ev_src *src, size_t nsrc,
		     unsigned int types)
{
	const struct cr_events *x;
	size_t k;
	int st, locking;

	if (fmt == CR_EV_TEXT)
		return cr_ev_text_rows(out, src, nsrc, types);
	/*
	 * One thread writes out: stdio's lock taken and dropped for every
	 * cell was a fifth of the CSV's time.
	 */
	locking = __fsetlocking(out, FSETLOCKING_BYCALLER);
	st = fmt == CR_EV_CSV ? cr_ev_csv_rows(out, src, nsrc, types) :
	     cr_ev_jsonl_rows(out, src, nsrc, types);
	__fsetlocking(out, locking);
	if (st < 0) {
		fprintf(err, "clkstat-report: events: out of memory\n");
		return CR_ERR;
	}
	if (st)
		return st;
	for (k = 0; k < nsrc; k++) {
		x = cr_ev_log(&src[k]);
		if (!x->lost)
			continue;
		if (src[k].run >= 0)
			fprintf(err, "clkstat-report: run %ld (%s): %" PRIu64 " events lost, %zu kept\n",
				src[k].run,
				src[k].variant ? src[k].variant : "-",
				x->lost, x->n);
		else
			fprintf(err, "clkstat-report: live log (%s): %" PRIu64 " events lost, %zu kept\n",
				src[k].variant ? src[k].variant : "-",
				x->lost, x->n);
	}
	return CR_OK;
}

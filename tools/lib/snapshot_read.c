// SPDX-License-Identifier: GPL-2.0
/*
 * snapshot_read.c - reading snapshot files (snapshot.h): JSON text into a
 * struct cr_snapshot through json-c, strictly.
 *
 * Reading is four passes over the input, each of which can only reject:
 *  1. json-c parses the text (strict mode, bounded depth) and must consume
 *     all of it but trailing white space;
 *  2. a lexical pass over the text for what json-c accepts or loses
 *     silently (snapshot_lex.c);
 *  3. "format" and "version", before the rest, so that another format or
 *     version is CR_FORMAT whatever else it holds;
 *  4. the schema walk into the model, with every bound and consistency rule.
 * Each failure is one line naming the place in the file (struct cr_pctx,
 * snapshot_parse.h).  Documentation/clkstat-snapshot.rst describes the
 * format and every rule.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <json-c/json.h>
#include "../../kmod/uapi/clkstat_buckets.h"
#include "snapshot.h"
#include "snapshot_check.h"
#include "snapshot_parse.h"
#include "study.h"
#include "status.h"

/* Larger inputs are CR_CORRUPT ("too large") without being parsed. */
#define CR_SNAP_MAX_BYTES	(1UL << 30)

/* What a wrongly typed member holds, for the message. */
static const char *cr_found(struct json_object *v, char *buf, size_t size)
{
	char clean[64];
	const char *s;

	switch (json_object_get_type(v)) {
	case json_type_null:
		return "null";
	case json_type_boolean:
		return json_object_get_boolean(v) ? "true" : "false";
	case json_type_double:
		s = json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN);
		snprintf(buf, size, "the number %s",
			 s ? cr_clean(clean, sizeof(clean), s, strlen(s)) : "?");
		return buf;
	case json_type_int:
		return "an integer";
	case json_type_object:
		return "an object";
	case json_type_array:
		return "an array";
	case json_type_string:
		snprintf(buf, size, "the string \"%s\"",
			 cr_clean(clean, sizeof(clean), json_object_get_string(v),
				  (size_t)json_object_get_string_len(v)));
		return buf;
	}
	return "something else";
}

static int cr_wrong(struct cr_pctx *c, struct json_object *v, const char *want)
{
	char buf[128];

	return cr_fail(c, CR_CORRUPT, "expected %s, found %s", want,
		       cr_found(v, buf, sizeof(buf)));
}

/* ---------------------------------------------------------------- */
/* Pass 1: json-c.                                                   */

static int cr_json_parse(struct cr_pctx *c, const char *t, size_t len,
			 struct json_object **root)
{
	enum json_tokener_error jerr;
	struct json_tokener *tok;
	const char *nul;
	char where[64];
	size_t i, end;

	*root = NULL;
	if (len > CR_SNAP_MAX_BYTES)
		return cr_fail(c, CR_CORRUPT, "too large: %zu bytes, the limit is %lu (1 GiB)",
			       len, CR_SNAP_MAX_BYTES);
	for (i = 0; i < len && cr_ws(t[i]); i++)
		;
	if (i == len)
		return cr_fail(c, CR_CORRUPT, "empty: no JSON text");
	tok = json_tokener_new_ex(CR_SNAP_DEPTH);
	if (!tok)
		return cr_nomem(c);
	/* Trailing characters are ours to report, with a better message. */
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT |
			       JSON_TOKENER_ALLOW_TRAILING_CHARS);
	*root = json_tokener_parse_ex(tok, t, (int)len);
	jerr = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (end > len)
		end = len;
	if (jerr != json_tokener_success) {
		json_object_put(*root);
		*root = NULL;
		/* json-c takes a NUL for the end of the text. */
		nul = memchr(t, '\0', end < len ? end + 1 : len);
		if (nul) {
			cr_where(t, (size_t)(nul - t), where, sizeof(where));
			return cr_fail(c, CR_CORRUPT, "%s: a NUL byte", where);
		}
		cr_where(t, end, where, sizeof(where));
		if (jerr == json_tokener_continue ||
		    jerr == json_tokener_error_parse_eof)
			return cr_fail(c, CR_CORRUPT, "truncated: the text ends (%s) inside the JSON value",
				       where);
		return cr_fail(c, CR_CORRUPT, "not valid JSON: %s: %s", where,
			       json_tokener_error_desc(jerr));
	}
	/* json-c has eaten the white space after the value. */
	if (end < len) {
		cr_where(t, end, where, sizeof(where));
		json_object_put(*root);
		*root = NULL;
		return cr_fail(c, CR_CORRUPT, "%s: trailing data after the JSON object",
			       where);
	}
	if (!json_object_is_type(*root, json_type_object))
		return cr_wrong(c, *root, "an object at the top level");
	return CR_OK;
}

/* ---------------------------------------------------------------- */
/* Passes 3 and 4: the header, then the schema, into the model.     */

static int cr_object(struct cr_pctx *c, struct json_object *v)
{
	return json_object_is_type(v, json_type_object) ? CR_OK :
	       cr_wrong(c, v, "an object");
}

static int cr_array(struct cr_pctx *c, struct json_object *v)
{
	return json_object_is_type(v, json_type_array) ? CR_OK :
	       cr_wrong(c, v, "an array");
}


/* Every member of o is one of names[] (NULL-terminated). */
static int cr_known(struct cr_pctx *c, struct json_object *o,
		    const char *const *names)
{
	size_t i;

	json_object_object_foreach(o, key, val) {
		(void)val;
		for (i = 0; names[i] && strcmp(names[i], key); i++)
			;
		if (!names[i]) {
			cr_push_key(c, key);
			return cr_fail(c, CR_CORRUPT, "unknown member");
		}
	}
	return CR_OK;
}

/* Member key of o, which must be there (its value may be null). */
static int cr_get(struct cr_pctx *c, struct json_object *o, const char *key,
		  struct json_object **v)
{
	if (!json_object_object_get_ex(o, key, v))
		return cr_fail(c, CR_CORRUPT, "member \"%s\" is missing", key);
	return CR_OK;
}

/*
 * The array member key of o (*v, *n entries) and a zeroed element of size
 * bytes per entry (*elems, NULL for an empty array).  The path is left at
 * key: the caller pops to *old.
 */
static int cr_get_array(struct cr_pctx *c, struct json_object *o,
			const char *key, size_t size, struct json_object **v,
			size_t *n, void **elems, size_t *old)
{
	int st = cr_get(c, o, key, v);

	if (st)
		return st;
	*old = cr_push_key(c, key);
	st = cr_array(c, *v);
	if (st)
		return st;
	*elems = NULL;
	*n = json_object_array_length(*v);
	if (!*n)
		return CR_OK;
	*elems = calloc(*n, size);
	return *elems ? CR_OK : cr_nomem(c);
}

/* An unsigned integer, at most max. */
static int cr_u64(struct cr_pctx *c, struct json_object *v, uint64_t max,
		  uint64_t *out)
{
	int64_t i;

	if (!json_object_is_type(v, json_type_int))
		return cr_wrong(c, v, "an integer");
	i = json_object_get_int64(v);
	if (i < 0)
		return cr_fail(c, CR_CORRUPT, "negative: %" PRId64, i);
	*out = json_object_get_uint64(v);
	if (*out > max)
		return cr_fail(c, CR_CORRUPT, "%" PRIu64 " is above %" PRIu64,
			       *out, max);
	return CR_OK;
}

/* A signed integer in [min, max]. */
static int cr_i64(struct cr_pctx *c, struct json_object *v, int64_t min,
		  int64_t max, int64_t *out)
{
	if (!json_object_is_type(v, json_type_int))
		return cr_wrong(c, v, "an integer");
	*out = json_object_get_int64(v);
	/* json-c clamps a value above INT64_MAX to INT64_MAX. */
	if (*out == INT64_MAX &&
	    json_object_get_uint64(v) != (uint64_t)INT64_MAX)
		return cr_fail(c, CR_CORRUPT, "%" PRIu64 " is above %" PRId64,
			       json_object_get_uint64(v), max);
	if (*out < min || *out > max)
		return cr_fail(c, CR_CORRUPT, "%" PRId64 " is outside [%" PRId64 ", %" PRId64 "]",
			       *out, min, max);
	return CR_OK;
}

static int cr_get_u64(struct cr_pctx *c, struct json_object *o,
		      const char *key, uint64_t max, uint64_t *out)
{
	struct json_object *v;
	size_t old;
	int st;

	st = cr_get(c, o, key, &v);
	if (st)
		return st;
	old = cr_push_key(c, key);
	st = cr_u64(c, v, max, out);
	cr_pop(c, old);
	return st;
}

static int cr_get_i64(struct cr_pctx *c, struct json_object *o,
		      const char *key, int64_t min, int64_t max, int64_t *out)
{
	struct json_object *v;
	size_t old;
	int st;

	st = cr_get(c, o, key, &v);
	if (st)
		return st;
	old = cr_push_key(c, key);
	st = cr_i64(c, v, min, max, out);
	cr_pop(c, old);
	return st;
}

/* A name (cr_check_name()). */
static int cr_name(struct cr_pctx *c, const char *s, size_t len, size_t size)
{
	char msg[256];

	if (cr_check_name(s, len, size, msg, sizeof(msg)))
		return cr_fail(c, CR_CORRUPT, "%s", msg);
	return CR_OK;
}

/* Member key of o: a name, copied into out[size]. */
static int cr_get_name(struct cr_pctx *c, struct json_object *o,
		       const char *key, char *out, size_t size)
{
	struct json_object *v;
	size_t old, len;
	int st;

	st = cr_get(c, o, key, &v);
	if (st)
		return st;
	old = cr_push_key(c, key);
	if (!json_object_is_type(v, json_type_string)) {
		st = cr_wrong(c, v, "a string");
	} else {
		len = (size_t)json_object_get_string_len(v);
		st = cr_name(c, json_object_get_string(v), len, size);
		if (!st)
			memcpy(out, json_object_get_string(v), len + 1);
	}
	cr_pop(c, old);
	return st;
}

static int cr_get_bool(struct cr_pctx *c, struct json_object *o,
		       const char *key, int *out)
{
	struct json_object *v;
	size_t old;
	int st;

	st = cr_get(c, o, key, &v);
	if (st)
		return st;
	old = cr_push_key(c, key);
	if (!json_object_is_type(v, json_type_boolean))
		st = cr_wrong(c, v, "true or false");
	else
		*out = json_object_get_boolean(v) ? 1 : 0;
	cr_pop(c, old);
	return st;
}

static int cr_read_meta(struct cr_pctx *c, struct json_object *o,
			struct cr_meta *m)
{
	static const char *const keys[] = {
		"tool_version", "module_version", "kernel_release",
		"clocksource", "clock", "probes", "variants", "command", "machine",
		"hypervisor", "cpuidle_driver", "cpuidle_governor",
		"max_cstate", "cmdline", "conditions", "host", "cpufreq_driver",
		"cpufreq_governor", "cpufreq_boost", "frac_bits", "nr_cpus",
		"duration_s", "params", "tags", "events", NULL
	};
	struct json_object *v, *params;
	uint64_t u;
	size_t i, old, old2;
	int st;

	st = cr_object(c, o);
	if (!st)
		st = cr_known(c, o, keys);
	if (st)
		return st;
	for (i = 0; i < cr_nmeta_strs; i++) {
		if (cr_meta_str_optional(i) &&
		    !json_object_object_get_ex(o, cr_meta_strs[i].key, NULL))
			continue;
		/* There, null or not: the recording has them (version 5). */
		if (cr_meta_str_cpufreq(i))
			m->cpufreq_recorded = 1;
		st = cr_get(c, o, cr_meta_strs[i].key, &v);
		if (st)
			return st;
		if (!v)
			continue;
		if (!json_object_is_type(v, json_type_string)) {
			cr_push_key(c, cr_meta_strs[i].key);
			return cr_wrong(c, v, "a string or null");
		}
		*cr_meta_str(m, i) = strdup(json_object_get_string(v));
		if (!*cr_meta_str(m, i))
			return cr_nomem(c);
	}
	st = cr_get_u64(c, o, "frac_bits", CLKSTAT_FRAC_BITS_MAX, &u);
	if (st)
		return st;
	m->frac_bits = (unsigned int)u;
	st = cr_get_u64(c, o, "nr_cpus", UINT_MAX, &u);
	if (st)
		return st;
	m->nr_cpus = (unsigned int)u;

	st = cr_get(c, o, "duration_s", &v);
	if (st)
		return st;
	old = cr_push_key(c, "duration_s");
	if (json_object_is_type(v, json_type_int)) {
		if (json_object_get_int64(v) < 0)
			return cr_fail(c, CR_CORRUPT, "negative");
		m->duration_s = (double)json_object_get_uint64(v);
	} else if (json_object_is_type(v, json_type_double)) {
		m->duration_s = json_object_get_double(v);
		if (!isfinite(m->duration_s) || m->duration_s < 0)
			return cr_wrong(c, v, "a finite number of seconds, 0 or more");
	} else {
		return cr_wrong(c, v, "a number");
	}
	cr_pop(c, old);

	st = cr_get(c, o, "params", &params);
	if (st)
		return st;
	old = cr_push_key(c, "params");
	st = cr_object(c, params);
	if (st)
		return st;
	json_object_object_foreach(params, key, val) {
		old2 = cr_push_key(c, key);
		if (!*key)
			return cr_fail(c, CR_CORRUPT, "empty parameter name");
		if (!json_object_is_type(val, json_type_string))
			return cr_wrong(c, val, "a string");
		if (cr_meta_add_param(m, key, json_object_get_string(val)))
			return cr_nomem(c);
		cr_pop(c, old2);
	}
	cr_pop(c, old);

	/* Optional (record --events N): the limit of events kept per run. */
	if (json_object_object_get_ex(o, "events", NULL)) {
		st = cr_get_u64(c, o, "events", UINT_MAX, &u);
		if (st)
			return st;
		m->events = (unsigned int)u;
	}

	/* Optional (record --tag): an object of strings, keys as --tag's. */
	if (!json_object_object_get_ex(o, "tags", &params))
		return CR_OK;
	old = cr_push_key(c, "tags");
	st = cr_object(c, params);
	if (st)
		return st;
	json_object_object_foreach(params, tkey, tval) {
		char e[512];

		old2 = cr_push_key(c, tkey);
		if (!json_object_is_type(tval, json_type_string))
			return cr_wrong(c, tval, "a string");
		st = cr_check_tag(m, tkey, json_object_get_string(tval), e,
				  sizeof(e));
		if (st)
			return cr_fail(c, st, "%s", e);
		cr_pop(c, old2);
	}
	cr_pop(c, old);
	return CR_OK;
}

/*
 * One histogram's slots (h->cpu is set by the caller), each under
 * cr_check_slot()'s rules.
 */
static int cr_read_slots(struct cr_pctx *c, struct json_object *a,
			 unsigned int k, struct cr_hist *h)
{
	struct json_object *e, *f[3];
	uint64_t v[3], total = 0;
	size_t i, j, n, old, old2;
	char msg[512];
	int st;

	st = cr_array(c, a);
	if (st)
		return st;
	n = json_object_array_length(a);
	if (!n)
		return CR_OK;
	h->slots = calloc(n, sizeof(*h->slots));
	if (!h->slots)
		return cr_nomem(c);
	for (i = 0; i < n; i++) {
		old = cr_push_idx(c, i);
		e = json_object_array_get_idx(a, i);
		if (!json_object_is_type(e, json_type_array) ||
		    json_object_array_length(e) != 3)
			return cr_wrong(c, e, "[slot, count, sum]");
		for (j = 0; j < 3; j++) {
			f[j] = json_object_array_get_idx(e, j);
			old2 = cr_push_idx(c, j);
			st = cr_u64(c, f[j], UINT64_MAX, &v[j]);
			if (st)
				return st;
			cr_pop(c, old2);
		}
		st = cr_check_slot(h, k, v[0], v[1], v[2], &total, msg,
				   sizeof(msg));
		if (st)
			return cr_fail(c, st, "%s", msg);
		h->slots[h->nslots++] = (struct cr_slot){
			.slot = (uint32_t)v[0], .count = v[1], .sum = v[2],
		};
		cr_pop(c, old);
	}
	return CR_OK;
}

static int cr_read_hist(struct cr_pctx *c, struct json_object *o,
			unsigned int k, int total, struct cr_hist *h)
{
	static const char *const keys[] = { "cpu", "min", "max", "slots", NULL };
	struct json_object *v, *vmin, *vmax;
	char msg[512];
	uint64_t u;
	size_t old;
	int st;

	h->min = UINT64_MAX;
	h->max = 0;
	st = cr_object(c, o);
	if (!st)
		st = cr_known(c, o, keys);
	if (st)
		return st;
	if (total) {
		h->cpu = CR_CPU_ALL;
		if (json_object_object_get_ex(o, "cpu", &v) && v) {
			cr_push_key(c, "cpu");
			return cr_wrong(c, v, "null or no member (the total is no CPU's)");
		}
	} else {
		st = cr_get_u64(c, o, "cpu", (uint64_t)CR_CPU_ALL - 1, &u);
		if (st)
			return st;
		h->cpu = (uint32_t)u;
	}
	st = cr_get(c, o, "slots", &v);
	if (st)
		return st;
	old = cr_push_key(c, "slots");
	st = cr_read_slots(c, v, k, h);
	if (st)
		return st;
	cr_pop(c, old);
	if (!total && !h->nslots)
		return cr_fail(c, CR_CORRUPT, "cpu %u has no samples: cpus lists only CPUs with samples",
			       h->cpu);

	st = cr_get(c, o, "min", &vmin);
	if (!st)
		st = cr_get(c, o, "max", &vmax);
	if (st)
		return st;
	if (!h->nslots) {
		if (vmin || vmax) {
			cr_push_key(c, vmin ? "min" : "max");
			return cr_wrong(c, vmin ? vmin : vmax,
					"null (the histogram is empty)");
		}
		return CR_OK;
	}
	st = cr_get_u64(c, o, "min", UINT64_MAX, &h->min);
	if (!st)
		st = cr_get_u64(c, o, "max", UINT64_MAX, &h->max);
	if (st)
		return st;
	st = cr_check_min_max(h, k, msg, sizeof(msg));
	return st ? cr_fail(c, st, "%s", msg) : CR_OK;
}

/* The total is the CPUs added up (cr_check_total()). */
static int cr_total(struct cr_pctx *c, const struct cr_metric *m)
{
	const char *where;
	char msg[512];
	size_t old;
	int st;

	st = cr_check_total(m, &where, msg, sizeof(msg));
	if (!st)
		return CR_OK;
	if (st == CR_ERR)
		return cr_nomem(c);
	old = cr_push_key(c, where);
	st = cr_fail(c, st, "%s", msg);
	cr_pop(c, old);
	return st;
}

static int cr_read_metric(struct cr_pctx *c, struct json_object *o,
			  struct cr_metric *m)
{
	static const char *const keys[] = {
		"name", "variant", "frac_bits", "recording", "counters",
		"total", "cpus", NULL
	};
	struct json_object *v;
	void *elems;
	uint64_t u;
	size_t i, n, old, old2;
	int st;

	m->total.cpu = CR_CPU_ALL;
	m->total.min = UINT64_MAX;
	st = cr_object(c, o);
	if (!st)
		st = cr_known(c, o, keys);
	if (!st)
		st = cr_get_name(c, o, "name", m->name, sizeof(m->name));
	if (!st)
		st = cr_get_name(c, o, "variant", m->variant,
				 sizeof(m->variant));
	if (!st)
		st = cr_get_u64(c, o, "frac_bits", CLKSTAT_FRAC_BITS_MAX, &u);
	if (st)
		return st;
	m->frac_bits = (unsigned int)u;
	st = cr_get_bool(c, o, "recording", &m->recording);
	if (!st)
		st = cr_get(c, o, "counters", &v);
	if (st)
		return st;
	old = cr_push_key(c, "counters");
	st = cr_object(c, v);
	if (st)
		return st;
	if (json_object_object_length(v) > CR_COUNTERS_MAX)
		return cr_fail(c, CR_CORRUPT, "%d counters, the limit is %d",
			       json_object_object_length(v), CR_COUNTERS_MAX);
	json_object_object_foreach(v, key, val) {
		struct cr_counter *ctr = &m->counters[m->ncounters];

		old2 = cr_push_key(c, key);
		st = cr_name(c, key, strlen(key), sizeof(ctr->name));
		if (!st)
			st = cr_u64(c, val, UINT64_MAX, &ctr->value);
		if (st)
			return st;
		memcpy(ctr->name, key, strlen(key) + 1);
		m->ncounters++;
		cr_pop(c, old2);
	}
	cr_pop(c, old);

	st = cr_get(c, o, "total", &v);
	if (st)
		return st;
	old = cr_push_key(c, "total");
	st = cr_read_hist(c, v, m->frac_bits, 1, &m->total);
	if (st)
		return st;
	cr_pop(c, old);

	st = cr_get_array(c, o, "cpus", sizeof(*m->cpus), &v, &n, &elems,
			  &old);
	if (st)
		return st;
	m->cpus = elems;
	m->ncpus = n;
	for (i = 0; i < n; i++) {
		old2 = cr_push_idx(c, i);
		st = cr_read_hist(c, json_object_array_get_idx(v, i),
				  m->frac_bits, 0, &m->cpus[i]);
		if (st)
			return st;
		if (i && m->cpus[i].cpu == m->cpus[i - 1].cpu)
			return cr_fail(c, CR_CORRUPT, "cpu %u is listed twice",
				       m->cpus[i].cpu);
		if (i && m->cpus[i].cpu < m->cpus[i - 1].cpu)
			return cr_fail(c, CR_CORRUPT, "cpu %u after cpu %u: cpus must be in ascending order",
				       m->cpus[i].cpu, m->cpus[i - 1].cpu);
		cr_pop(c, old2);
	}
	cr_pop(c, old);
	return cr_total(c, m);
}

/* No two metrics of a run with the same name and variant. */
static int cr_check_dups(struct cr_pctx *c, const struct cr_run *r)
{
	size_t dup, first, old;
	int st;

	st = cr_check_dup_metric(r, &dup, &first);
	if (st < 0)
		return cr_nomem(c);
	if (!st)
		return CR_OK;
	old = cr_push_key(c, "metrics");
	cr_push_idx(c, dup);
	st = cr_fail(c, CR_CORRUPT, "duplicate metric %s.%s (also metrics[%zu])",
		     r->metrics[dup].name, r->metrics[dup].variant, first);
	cr_pop(c, old);
	return st;
}

/* ---------------------------------------------------------------- */
/* A run's event log (format version 2, record --events).            */

enum cr_ev_col {
	CR_COL_TS, CR_COL_TYPE, CR_COL_CPU, CR_COL_PID, CR_COL_CORR,
	CR_COL_LATENCY, CR_COL_MIGRATED, CR_COL_RQ_CLOCK, CR_COL_TEXT,
	CR_NCOLS
};

static const char *const cr_col_names[CR_NCOLS] = {
	"ts_ns", "type", "cpu", "pid", "corr", "latency_ns", "migrated",
	"rq_clock_ns", "text",
};

/* "name" is not what it must be: the message names the column. */
static int cr_col_wrong(struct cr_pctx *c, struct json_object *v,
			const char *name, const char *want)
{
	char buf[128];

	return cr_fail(c, CR_CORRUPT, "\"%s\" is not %s (found %s)", name,
		       want, cr_found(v, buf, sizeof(buf)));
}

/* Column cell v, an unsigned integer at most max, or (nullable) null. */
static int cr_col_u64(struct cr_pctx *c, struct json_object *v,
		      const char *name, uint64_t max, int nullable,
		      uint64_t *out, int *isnull)
{
	if (!v && nullable) {
		*isnull = 1;
		return CR_OK;
	}
	*isnull = 0;
	if (!json_object_is_type(v, json_type_int) ||
	    json_object_get_int64(v) < 0)
		return cr_col_wrong(c, v, name, nullable ?
				    "an integer, 0 or more, or null" :
				    "an integer, 0 or more");
	*out = json_object_get_uint64(v);
	if (*out > max)
		return cr_fail(c, CR_CORRUPT, "\"%s\" %" PRIu64 " is above %" PRIu64,
			       name, *out, max);
	return CR_OK;
}

static int cr_read_event_row(struct cr_pctx *c, struct json_object *row,
			     const int *col, size_t ncols,
			     struct clkstat_event_rec *e)
{
	struct json_object *v;
	const char *name, *str;
	uint64_t u = 0;
	size_t i, len;
	int isnull, t, st;
	char buf[64];

	memset(e, 0, sizeof(*e));
	if (!json_object_is_type(row, json_type_array))
		return cr_wrong(c, row, "an array (a row)");
	if (json_object_array_length(row) != ncols)
		return cr_fail(c, CR_CORRUPT, "%zu values for %zu columns",
			       json_object_array_length(row), ncols);
	for (i = 0; i < ncols; i++) {
		v = json_object_array_get_idx(row, i);
		name = cr_col_names[col[i]];
		switch (col[i]) {
		case CR_COL_TS:
			st = cr_col_u64(c, v, name, UINT64_MAX, 0, &u, &isnull);
			e->ts = u;
			break;
		case CR_COL_TYPE:
			if (!json_object_is_type(v, json_type_string))
				return cr_col_wrong(c, v, name,
						    "an event type name");
			t = cr_event_type_parse(json_object_get_string(v));
			if (t < 0) {
				str = json_object_get_string(v);
				return cr_fail(c, CR_CORRUPT, "\"%s\": unknown event type \"%s\"",
					       name,
					       cr_clean(buf, sizeof(buf), str,
							strlen(str)));
			}
			e->type = (__u8)t;
			st = CR_OK;
			break;
		case CR_COL_CPU:
			st = cr_col_u64(c, v, name, UINT16_MAX, 0, &u, &isnull);
			e->cpu = (__u16)u;
			break;
		case CR_COL_PID:
			st = cr_col_u64(c, v, name, UINT32_MAX, 0, &u, &isnull);
			e->pid = (__u32)u;
			break;
		case CR_COL_CORR:
			st = cr_col_u64(c, v, name, UINT64_MAX, 0, &u, &isnull);
			e->corr = u;
			break;
		case CR_COL_LATENCY:
			st = cr_col_u64(c, v, name, UINT64_MAX, 1, &u, &isnull);
			if (!st && !isnull) {
				e->latency = u;
				e->flags |= CLKSTAT_EVF_LATENCY;
			}
			break;
		case CR_COL_MIGRATED:
			st = CR_OK;
			if (!v)
				break;
			if (!json_object_is_type(v, json_type_boolean))
				return cr_col_wrong(c, v, name,
						    "true, false or null");
			e->flags |= json_object_get_boolean(v) ?
				    CLKSTAT_EVF_MIGRATED : CLKSTAT_EVF_LOCAL;
			break;
		case CR_COL_RQ_CLOCK:
			st = cr_col_u64(c, v, name, UINT64_MAX, 1, &u, &isnull);
			if (!st && !isnull) {
				e->rq_clock = u;
				e->flags |= CLKSTAT_EVF_RQ_CLOCK;
			}
			break;
		default:	/* CR_COL_TEXT */
			st = CR_OK;
			if (!v)
				break;
			if (!json_object_is_type(v, json_type_string))
				return cr_col_wrong(c, v, name,
						    "a string or null");
			str = json_object_get_string(v);
			len = (size_t)json_object_get_string_len(v);
			if (len >= sizeof(e->text) || memchr(str, '\0', len))
				return cr_fail(c, CR_CORRUPT, "\"%s\" \"%s\": at most %zu bytes, no NUL",
					       name,
					       cr_clean(buf, sizeof(buf), str,
							len),
					       sizeof(e->text) - 1);
			memcpy(e->text, str, len + 1);
			break;
		}
		if (st)
			return st;
	}
	return CR_OK;
}

static int cr_read_events(struct cr_pctx *c, struct json_object *o,
			  struct cr_events *x)
{
	static const char *const keys[] = {
		"lost", "clock", "columns", "rows", NULL
	};
	static const char *const pair_keys[] = {
		"mono_ns", "realtime_ns", NULL
	};
	struct clkstat_event_rec e;
	struct json_object *v, *p;
	int col[CR_NCOLS], seen[CR_NCOLS] = { 0 };
	size_t i, j, n, ncols, old, old2;
	const char *name;
	int st;

	x->present = 1;
	st = cr_object(c, o);
	if (!st)
		st = cr_known(c, o, keys);
	if (!st)
		st = cr_get_u64(c, o, "lost", UINT64_MAX, &x->lost);
	if (!st)
		st = cr_get(c, o, "clock", &v);
	if (st)
		return st;
	old = cr_push_key(c, "clock");
	st = cr_array(c, v);
	if (st)
		return st;
	n = json_object_array_length(v);
	if (n > CR_CLOCK_PAIRS_MAX)
		return cr_fail(c, CR_CORRUPT, "%zu clock pairs, at most %d (the run's start and end)",
			       n, CR_CLOCK_PAIRS_MAX);
	for (i = 0; i < n; i++) {
		old2 = cr_push_idx(c, i);
		p = json_object_array_get_idx(v, i);
		st = cr_object(c, p);
		if (!st)
			st = cr_known(c, p, pair_keys);
		if (!st)
			st = cr_get_i64(c, p, "mono_ns", 0, INT64_MAX,
					&x->clock[i].mono_ns);
		if (!st)
			st = cr_get_i64(c, p, "realtime_ns", 0, INT64_MAX,
					&x->clock[i].realtime_ns);
		if (st)
			return st;
		x->nclock++;
		cr_pop(c, old2);
	}
	cr_pop(c, old);

	st = cr_get(c, o, "columns", &v);
	if (st)
		return st;
	old = cr_push_key(c, "columns");
	st = cr_array(c, v);
	if (st)
		return st;
	ncols = json_object_array_length(v);
	if (ncols > CR_NCOLS)
		return cr_fail(c, CR_CORRUPT, "%zu columns, there are %d",
			       ncols, CR_NCOLS);
	for (i = 0; i < ncols; i++) {
		char buf[64];

		old2 = cr_push_idx(c, i);
		p = json_object_array_get_idx(v, i);
		if (!json_object_is_type(p, json_type_string))
			return cr_wrong(c, p, "a column name");
		name = json_object_get_string(p);
		for (j = 0; j < CR_NCOLS && strcmp(name, cr_col_names[j]); j++)
			;
		if (j == CR_NCOLS)
			return cr_fail(c, CR_CORRUPT, "unknown column \"%s\"",
				       cr_clean(buf, sizeof(buf), name,
						strlen(name)));
		if (seen[j])
			return cr_fail(c, CR_CORRUPT, "column \"%s\" twice",
				       name);
		seen[j] = 1;
		col[i] = (int)j;
		cr_pop(c, old2);
	}
	if (!seen[CR_COL_TS] || !seen[CR_COL_TYPE])
		return cr_fail(c, CR_CORRUPT, "no \"%s\" column",
			       seen[CR_COL_TS] ? "type" : "ts_ns");
	cr_pop(c, old);

	st = cr_get(c, o, "rows", &v);
	if (st)
		return st;
	old = cr_push_key(c, "rows");
	st = cr_array(c, v);
	if (st)
		return st;
	n = json_object_array_length(v);
	for (i = 0; i < n; i++) {
		old2 = cr_push_idx(c, i);
		st = cr_read_event_row(c, json_object_array_get_idx(v, i), col,
				       ncols, &e);
		if (st)
			return st;
		if (i && e.ts < x->ev[x->n - 1].ts)
			return cr_fail(c, CR_CORRUPT, "ts_ns %" PRIu64 " before the previous row's %" PRIu64 ": rows must be in time order",
				       (uint64_t)e.ts,
				       (uint64_t)x->ev[x->n - 1].ts);
		if (cr_events_add(x, &e))
			return cr_nomem(c);
		cr_pop(c, old2);
	}
	cr_pop(c, old);
	return CR_OK;
}

/*
 * Optional (format 2, record --cstates, --load): the run's own tags, an
 * object of strings under the rules of --tag's.
 */
static int cr_read_run_tags(struct cr_pctx *c, struct json_object *o,
			    struct cr_run *r)
{
	struct json_object *tags;
	struct cr_meta chk = { 0 };
	size_t old, old2;
	int st = CR_OK;

	if (!json_object_object_get_ex(o, "tags", &tags))
		return CR_OK;
	old = cr_push_key(c, "tags");
	st = cr_object(c, tags);
	if (st)
		return st;
	json_object_object_foreach(tags, tkey, tval) {
		char e[512];
		const char *val;

		old2 = cr_push_key(c, tkey);
		if (!json_object_is_type(tval, json_type_string)) {
			st = cr_wrong(c, tval, "a string");
			break;
		}
		val = json_object_get_string(tval);
		/* --tag's checks of the key and value, on a scratch list. */
		st = cr_check_tag(&chk, tkey, val, e, sizeof(e));
		if (!st && cr_run_add_tag(r, tkey, val))
			st = cr_nomem(c);
		else if (st)
			st = cr_fail(c, st, "%s", e);
		if (st)
			break;
		cr_pop(c, old2);
	}
	cr_meta_free(&chk);
	if (!st)
		cr_pop(c, old);
	return st;
}

static int cr_read_run(struct cr_pctx *c, struct json_object *o, size_t pos,
		       struct cr_run *r)
{
	static const char *const keys[] = {
		"index", "variant", "start_ns", "end_ns", "exit_status",
		"workload_only", "tags", "metrics", "events", NULL
	};
	struct json_object *v;
	void *elems;
	int64_t i64;
	uint64_t u;
	size_t i, n, old, old2;
	int st;

	r->exit_status = -1;
	st = cr_object(c, o);
	if (!st)
		st = cr_known(c, o, keys);
	if (!st)
		st = cr_get_u64(c, o, "index", UINT64_MAX, &u);
	if (st)
		return st;
	if (u != pos) {
		cr_push_key(c, "index");
		return cr_fail(c, CR_CORRUPT, "index %" PRIu64 " for the run at position %zu of runs",
			       u, pos);
	}
	r->index = (unsigned int)pos;
	st = cr_get_name(c, o, "variant", r->variant, sizeof(r->variant));
	if (!st)
		st = cr_get_i64(c, o, "start_ns", 0, INT64_MAX, &r->start_ns);
	if (!st)
		st = cr_get_i64(c, o, "end_ns", 0, INT64_MAX, &r->end_ns);
	if (!st)
		st = cr_get_i64(c, o, "exit_status", -1, CR_SNAP_EXIT_MAX,
				&i64);
	if (st)
		return st;
	r->exit_status = (int)i64;
	/* Optional: older snapshots do not have it (-1, not recorded). */
	r->workload_only = -1;
	if (json_object_object_get_ex(o, "workload_only", NULL)) {
		st = cr_get_bool(c, o, "workload_only", &r->workload_only);
		if (st)
			return st;
	}
	st = cr_read_run_tags(c, o, r);
	if (st)
		return st;
	st = cr_get_array(c, o, "metrics", sizeof(*r->metrics), &v, &n,
			  &elems, &old);
	if (st)
		return st;
	r->metrics = elems;
	r->nmetrics = n;
	for (i = 0; i < n; i++) {
		old2 = cr_push_idx(c, i);
		st = cr_read_metric(c, json_object_array_get_idx(v, i),
				    &r->metrics[i]);
		if (st)
			return st;
		cr_pop(c, old2);
	}
	cr_pop(c, old);
	st = cr_check_dups(c, r);
	if (st)
		return st;
	/* Optional (format version 2, record --events). */
	if (!json_object_object_get_ex(o, "events", &v))
		return CR_OK;
	old = cr_push_key(c, "events");
	st = cr_read_events(c, v, &r->events);
	if (!st)
		cr_pop(c, old);
	return st;
}

/* "format" and "version": CR_FORMAT for another format or version. */
static int cr_read_header(struct cr_pctx *c, struct json_object *root)
{
	struct json_object *v;
	char buf[64];
	int64_t ver;
	size_t old;
	int st;

	st = cr_get(c, root, "format", &v);
	if (st)
		return st;
	old = cr_push_key(c, "format");
	if (!json_object_is_type(v, json_type_string))
		return cr_wrong(c, v, "the string \"" CR_SNAPSHOT_FORMAT "\"");
	if (strcmp(json_object_get_string(v), CR_SNAPSHOT_FORMAT) ||
	    (size_t)json_object_get_string_len(v) != strlen(CR_SNAPSHOT_FORMAT))
		return cr_fail(c, CR_FORMAT, "\"%s\": not a clkstat snapshot (\"" CR_SNAPSHOT_FORMAT "\")",
			       cr_clean(buf, sizeof(buf),
					json_object_get_string(v),
					(size_t)json_object_get_string_len(v)));
	cr_pop(c, old);
	st = cr_get(c, root, "version", &v);
	if (st)
		return st;
	old = cr_push_key(c, "version");
	if (!json_object_is_type(v, json_type_int))
		return cr_wrong(c, v, "an integer");
	ver = json_object_get_int64(v);
	if (ver < CR_SNAPSHOT_VERSION_MIN || ver > CR_SNAPSHOT_VERSION) {
		if (ver == INT64_MAX)
			snprintf(buf, sizeof(buf), "%" PRIu64,
				 json_object_get_uint64(v));
		else
			snprintf(buf, sizeof(buf), "%" PRId64, ver);
		return cr_fail(c, CR_FORMAT, "version %s: this clkstat-report reads versions %d to %d",
			       buf, CR_SNAPSHOT_VERSION_MIN,
			       CR_SNAPSHOT_VERSION);
	}
	cr_pop(c, old);
	return CR_OK;
}

static int cr_read_root(struct cr_pctx *c, struct json_object *root,
			struct cr_snapshot *s)
{
	static const char *const keys[] = {
		"format", "version", "meta", "runs", NULL
	};
	struct json_object *v;
	void *elems;
	size_t i, n, old, old2;
	int st;

	st = cr_known(c, root, keys);
	if (!st)
		st = cr_get(c, root, "meta", &v);
	if (st)
		return st;
	old = cr_push_key(c, "meta");
	st = cr_read_meta(c, v, &s->meta);
	if (st)
		return st;
	cr_pop(c, old);
	st = cr_get_array(c, root, "runs", sizeof(*s->runs), &v, &n, &elems,
			  &old);
	if (st)
		return st;
	s->runs = elems;
	s->nruns = n;
	for (i = 0; i < n; i++) {
		old2 = cr_push_idx(c, i);
		st = cr_read_run(c, json_object_array_get_idx(v, i), i,
				 &s->runs[i]);
		if (st)
			return st;
		cr_pop(c, old2);
	}
	cr_pop(c, old);
	return CR_OK;
}

int cr_snapshot_parse(const char *text, size_t len, struct cr_snapshot *s,
		      char *err, size_t errlen)
{
	struct cr_pctx c = { .err = err, .errlen = errlen };
	struct cr_snapshot tmp = { 0 };
	struct json_object *root;
	int st;

	memset(s, 0, sizeof(*s));
	if (err && errlen)
		err[0] = '\0';
	st = cr_json_parse(&c, text, len, &root);
	if (!st)
		st = cr_lex_check(&c, text, len, root);
	if (!st)
		st = cr_read_header(&c, root);
	if (!st)
		st = cr_read_root(&c, root, &tmp);
	json_object_put(root);
	if (st) {
		cr_snapshot_free(&tmp);
		return st;
	}
	*s = tmp;
	return CR_OK;
}

/* ---------------------------------------------------------------- */
/* Reading a file.                                                   */

int cr_snapshot_read(const char *path, struct cr_snapshot *s)
{
	int is_stdin = !strcmp(path, "-");
	const char *name = is_stdin ? "stdin" : path;
	size_t len = 0, cap;
	char *buf = NULL, *p, err[1024];
	struct stat sb;
	ssize_t n;
	int fd, st;

	memset(s, 0, sizeof(*s));
	fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "clkstat-report: %s: %s\n", name,
			strerror(errno));
		return CR_NO_FILE;
	}
	cap = 64 * 1024;
	if (!fstat(fd, &sb) && S_ISREG(sb.st_mode)) {
		/* A study (an SQLite file) is read by SQLite, not here. */
		if (!is_stdin && cr_study_sniff_fd(fd)) {
			close(fd);
			return cr_study_read(path, s);
		}
		if ((uintmax_t)sb.st_size > CR_SNAP_MAX_BYTES) {
			fprintf(stderr, "clkstat-report: %s: too large: %jd bytes, the limit is %lu (1 GiB)\n",
				name, (intmax_t)sb.st_size, CR_SNAP_MAX_BYTES);
			st = CR_CORRUPT;
			goto out;
		}
		cap = (size_t)sb.st_size + 1;	/* +1: see the end at once */
	}
	for (;;) {
		if (len == cap || !buf) {
			if (buf)
				cap = cap > CR_SNAP_MAX_BYTES / 2 ?
				      CR_SNAP_MAX_BYTES + 1 : 2 * cap;
			p = realloc(buf, cap);
			if (!p) {
				fprintf(stderr, "clkstat-report: %s: out of memory\n",
					name);
				st = CR_ERR;
				goto out;
			}
			buf = p;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			fprintf(stderr, "clkstat-report: %s: %s\n", name,
				strerror(errno));
			st = CR_NO_FILE;
			goto out;
		}
		if (!n)
			break;
		len += (size_t)n;
		if (len > CR_SNAP_MAX_BYTES) {
			fprintf(stderr, "clkstat-report: %s: too large: more than %lu bytes (1 GiB)\n",
				name, CR_SNAP_MAX_BYTES);
			st = CR_CORRUPT;
			goto out;
		}
	}
	if (cr_study_sniff(buf, len)) {
		fprintf(stderr, "clkstat-report: %s: a study (SQLite) is read from its file, not from a pipe: give its name\n",
			name);
		st = CR_USAGE;
		goto out;
	}
	st = cr_snapshot_parse(buf, len, s, err, sizeof(err));
	if (st)
		fprintf(stderr, "clkstat-report: %s: %s\n", name, err);
out:
	free(buf);
	if (!is_stdin)
		close(fd);
	return st;
}

/* ---------------------------------------------------------------- */
/* Several inputs.                                                   */

/*
 * The same run twice: the same variant and times (CLOCK_REALTIME, ns:
 * two recordings never share both), or, when the times are unknown (0),
 * the same all-CPU histograms of every metric, with samples.
 */
static int cr_same_run(const struct cr_run *a, const struct cr_run *b)
{
	const struct cr_metric *x, *y;
	size_t i, j;

	if (strcmp(a->variant, b->variant) || a->start_ns != b->start_ns ||
	    a->end_ns != b->end_ns)
		return 0;
	if (a->start_ns || a->end_ns)
		return 1;
	if (a->nmetrics != b->nmetrics || !cr_run_samples(a))
		return 0;
	for (i = 0; i < a->nmetrics; i++) {
		x = &a->metrics[i];
		y = &b->metrics[i];
		if (strcmp(x->name, y->name) || strcmp(x->variant, y->variant) ||
		    x->frac_bits != y->frac_bits ||
		    x->total.nslots != y->total.nslots ||
		    x->total.min != y->total.min || x->total.max != y->total.max)
			return 0;
		for (j = 0; j < x->total.nslots; j++)
			if (x->total.slots[j].slot != y->total.slots[j].slot ||
			    x->total.slots[j].count != y->total.slots[j].count ||
			    x->total.slots[j].sum != y->total.slots[j].sum)
				return 0;
	}
	return 1;
}

int cr_snapshot_merge(struct cr_snapshot *dst, struct cr_snapshot *src,
		      const char *path)
{
	struct cr_input *in;
	struct cr_run *r;
	size_t i, j, t;
	unsigned int nth;

	for (i = 0; i < src->nruns; i++) {
		for (j = 0; j < dst->nruns; j++) {
			if (!cr_same_run(&dst->runs[j], &src->runs[i]))
				continue;
			/* Its index in its own file. */
			for (nth = 0, t = 0; t < j; t++)
				nth += dst->runs[t].input == dst->runs[j].input;
			fprintf(stderr, "clkstat-report: %s: run %u is run %u of %s again (same variant %s, start_ns and end_ns%s): the same run given twice would count twice and narrow every interval; refused\n",
				path, src->runs[i].index, nth,
				dst->inputs[dst->runs[j].input].path,
				src->runs[i].variant,
				src->runs[i].start_ns || src->runs[i].end_ns ?
				"" : " unknown, same histograms");
			return CR_USAGE;
		}
	}
	in = realloc(dst->inputs, (dst->ninputs + 1) * sizeof(*in));
	if (!in)
		goto nomem;
	dst->inputs = in;
	in = &dst->inputs[dst->ninputs];
	memset(in, 0, sizeof(*in));
	in->path = strdup(path);
	if (!in->path)
		goto nomem;
	if (!dst->ninputs && cr_meta_copy(&dst->meta, &src->meta)) {
		free(in->path);
		goto nomem;
	}
	/*
	 * The merged CPU count covers every input's CPUs: the exporter fills
	 * its per-CPU family up to it, and a later input's CPUs beyond the
	 * first's would otherwise come and go at each replay cycle.
	 */
	if (src->meta.nr_cpus > dst->meta.nr_cpus)
		dst->meta.nr_cpus = src->meta.nr_cpus;
	in->meta = src->meta;
	memset(&src->meta, 0, sizeof(src->meta));
	/* A study's runs read their events from it: it goes with them. */
	in->source = src->source;
	src->source = NULL;
	dst->ninputs++;
	for (i = 0; i < src->nruns; i++) {
		r = cr_snapshot_add_run(dst);
		if (!r)
			goto nomem;
		/* Moved, renumbered in reading order; run i of its file. */
		*r = src->runs[i];
		r->index = dst->nruns - 1;
		r->input = dst->ninputs - 1;
		src->runs[i] = (struct cr_run){ 0 };
	}
	cr_snapshot_free(src);
	return CR_OK;
nomem:
	fprintf(stderr, "clkstat-report: out of memory\n");
	return CR_ERR;
}

static void cr_diff_line(FILE *f, const struct cr_snapshot *s, size_t k,
			 const char *field, const char *a, const char *b)
{
	fprintf(f, "clkstat-report: warning: the inputs' metadata differ: %s is '%s' in %s, '%s' in %s\n",
		field, a ? a : "-", s->inputs[0].path, b ? b : "-",
		s->inputs[k].path);
}

static const char *cr_param(const struct cr_meta *m, const char *name)
{
	size_t i;

	for (i = 0; i < m->nparams; i++)
		if (!strcmp(m->param_names[i], name))
			return m->param_values[i];
	return NULL;
}

static int cr_str_differ(const char *a, const char *b)
{
	return (!a) != (!b) || (a && strcmp(a, b));
}

size_t cr_snapshot_meta_diff(FILE *f, const struct cr_snapshot *s,
			     const char *skip)
{
	const struct cr_meta *m0, *m;
	const char *a, *b;
	char field[CR_NAME_MAX + 16], x[32], y[32];
	size_t k, i, n = 0;
	int pass;

	if (s->ninputs < 2)
		return 0;
	m0 = &s->inputs[0].meta;
	for (k = 1; k < s->ninputs; k++) {
		m = &s->inputs[k].meta;
		for (i = 0; i < cr_nmeta_strs; i++) {
			a = *cr_meta_str((struct cr_meta *)m0, i);
			b = *cr_meta_str((struct cr_meta *)m, i);
			snprintf(field, sizeof(field), "meta:%s",
				 cr_meta_strs[i].key);
			/* Hosts differ in a fleet by design (--unit host). */
			if (!strcmp(cr_meta_strs[i].key, "host"))
				continue;
			/* Not recorded is not known: nothing to differ. */
			if (cr_meta_str_cpufreq(i) &&
			    (!m0->cpufreq_recorded || !m->cpufreq_recorded))
				continue;
			if (cr_str_differ(a, b) &&
			    (!skip || strcmp(skip, field))) {
				cr_diff_line(f, s, k, cr_meta_strs[i].key, a, b);
				n++;
			}
		}
#define NUM(key, fmt, v) do {						\
		snprintf(x, sizeof(x), fmt, m0->v);			\
		snprintf(y, sizeof(y), fmt, m->v);			\
		if (strcmp(x, y) && (!skip || strcmp(skip, "meta:" key))) { \
			cr_diff_line(f, s, k, key, x, y);		\
			n++;						\
		}							\
	} while (0)
		NUM("frac_bits", "%u", frac_bits);
		NUM("nr_cpus", "%u", nr_cpus);
		NUM("duration_s", "%g", duration_s);
		NUM("events", "%u", events);
#undef NUM
		/* Parameters and tags of either file, each name once. */
		for (pass = 0; pass < 4; pass++) {
			const struct cr_meta *p = pass & 1 ? m : m0;
			const struct cr_meta *q = pass & 1 ? m0 : m;
			size_t cnt = pass < 2 ? p->nparams : p->ntags;

			for (i = 0; i < cnt; i++) {
				const char *name = pass < 2 ?
					p->param_names[i] : p->tag_names[i];

				a = pass < 2 ? cr_param(m0, name) :
					       cr_meta_tag(m0, name);
				b = pass < 2 ? cr_param(m, name) :
					       cr_meta_tag(m, name);
				/* Names of the second file: only when new. */
				if ((pass & 1) && (pass < 2 ? cr_param(q, name) :
						   cr_meta_tag(q, name)))
					continue;
				if (!cr_str_differ(a, b) ||
				    (pass >= 2 && !strcmp(name, "host")))
					continue;
				snprintf(field, sizeof(field), "%s:%s",
					 pass < 2 ? "param" : "tag", name);
				if (skip && !strcmp(skip, field))
					continue;
				cr_diff_line(f, s, k, field, a, b);
				n++;
			}
		}
	}
	return n;
}

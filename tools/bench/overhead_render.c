// SPDX-License-Identifier: GPL-2.0
/*
 * overhead_render.c - clkstat-report overhead's output: the three tables
 * as text (ns per event and the ratio to the module's direct variant; the
 * storm as throughput ratios) or as one JSON object.
 */
#include <string.h>
#include "../../kmod/uapi/clkstat_catalog.h"
#include "overhead.h"
#include "../lib/render_common.h"
#include "../lib/status.h"

/* The base of every ratio: the module's direct variant. */
static const struct cr_ovh_row *cr_ovh_direct(const struct cr_ovh_result *r)
{
	unsigned int i;

	for (i = 0; i < r->nrows; i++)
		if (!strcmp(r->rows[i].name, CLKSTAT_VNAME(DIRECT)))
			return &r->rows[i];
	return NULL;
}

static double cr_ovh_ratio(double a, double b)
{
	return a >= 0 && b > 0 ? a / b : -1;
}

/* What a row adds to the bare call; the record is no call. */
static double cr_ovh_added(const struct cr_ovh_row *w,
			   const struct cr_ovh_row *none)
{
	if (w->hot_ns < 0 || none->hot_ns < 0)
		return -1;
	if (!strcmp(w->name, "record"))
		return w->hot_ns;
	return w->hot_ns > none->hot_ns ? w->hot_ns - none->hot_ns : 0;
}

static void cr_ovh_num(FILE *out, const char *fmt, int width, double v)
{
	if (v < 0)
		fprintf(out, " %*s", width, "-");
	else
		fprintf(out, fmt, width, v);
}

static void cr_ovh_text_dispatch(FILE *out, const struct cr_ovh_opts *o,
				 const struct cr_ovh_result *r)
{
	const struct cr_ovh_row *d = cr_ovh_direct(r), *w;
	const struct cr_ovh_row *none = &r->rows[0];
	unsigned int i;

	fprintf(out, "dispatch: clkstat_hookbench's target, %lu hot calls (fastest of %u interleaved rounds), %lu cold calls; CPU %d\n",
		o->calls, o->rounds, o->cold_calls, r->cpu);
	fprintf(out, "%-14s %10s %9s %10s %9s %11s %9s %12s\n", "variant",
		"hot ns", "x direct", "added ns", "x direct", "cold ns",
		"x direct", "hits");
	for (i = 0; i < r->nrows; i++) {
		w = &r->rows[i];
		fprintf(out, "%-14s", w->name);
		cr_ovh_num(out, " %*.1f", 10, w->hot_ns);
		cr_ovh_num(out, " %*.2f", 9, cr_ovh_ratio(w->hot_ns, d->hot_ns));
		/* The record is no call: nothing to take away. */
		cr_ovh_num(out, " %*.1f", 10, cr_ovh_added(w, none));
		cr_ovh_num(out, " %*.2f", 9, cr_ovh_ratio(cr_ovh_added(w, none),
							  cr_ovh_added(d, none)));
		cr_ovh_num(out, " %*.1f", 11, w->cold_ns);
		cr_ovh_num(out, " %*.2f", 9, cr_ovh_ratio(w->cold_ns,
							  d->cold_ns));
		fprintf(out, " %12llu\n", (unsigned long long)w->hot_hits);
	}
	fprintf(out, "(x direct: ratio to the module's direct variant; added ns: minus the bare call (none), and its ratio; record: one clkstat_record, no call; hits: handler runs in the last hot round, checked to equal the calls)\n");
}

static void cr_ovh_text_hs(FILE *out, const struct cr_ovh_result *r)
{
	const struct cr_ovh_hs_row *h;
	unsigned int i;

	fprintf(out, "\nhandshake points from userspace: %lu events each, ns per event\n",
		r->nhs ? r->hs[0].events : 0);
	for (i = 0; i < r->nhs; i++) {
		h = &r->hs[i];
		fprintf(out, "%-28s", h->name);
		cr_ovh_num(out, " %*.1f", 10, h->ns);
		fprintf(out, "%s%s\n", h->note ? "  " : "",
			h->note ? h->note : "");
	}
}

static void cr_ovh_text_storm(FILE *out, const struct cr_ovh_opts *o,
			      const struct cr_ovh_result *r)
{
	const struct cr_ovh_storm_row *s;
	unsigned int i;

	fprintf(out, "\nwakeup storm: %s %u, %u interleaved rounds; clkstat.ko probes %s; baseline: %s\n",
		r->storm_cmd ? r->storm_cmd : "hackbench", o->storm_loops,
		o->storm_rounds, r->probes[0] ? r->probes : "-",
		r->storm_baseline ? r->storm_baseline : "-");
	fprintf(out, "%-14s %10s %12s %15s\n", "variant", "median s",
		"throughput", "range");
	for (i = 0; i < r->nstorm; i++) {
		s = &r->storm[i];
		if (s->note) {
			fprintf(out, "%-14s %10s %12s %15s  %s\n", s->name, "-",
				"-", "-", s->note);
			continue;
		}
		fprintf(out, "%-14s %10.3f %11.3fx   %5.3f-%5.3f\n", s->name,
			s->median_s, s->ratio_median, s->ratio_min,
			s->ratio_max);
	}
	fprintf(out, "(throughput: the baseline's run time / the variant's, same round, median over rounds)\n");
}

int cr_ovh_render_text(FILE *out, const struct cr_ovh_opts *o,
		       const struct cr_ovh_result *r)
{
	fprintf(out, "clkstat-report overhead: kernel %s, %s, clocksource %s\n",
		r->kernel, r->machine[0] ? r->machine : "-",
		r->clocksource[0] ? r->clocksource : "-");
	if (o->sections & CR_OVH_DISPATCH)
		cr_ovh_text_dispatch(out, o, r);
	if (o->sections & CR_OVH_HANDSHAKE)
		cr_ovh_text_hs(out, r);
	if (o->sections & CR_OVH_STORM)
		cr_ovh_text_storm(out, o, r);
	return fflush(out) ? CR_ERR : CR_OK;
}

/* A number, or null when not measured (json-c's null is NULL). */
static int cr_ovh_jnum(struct json_object *o, const char *key, double v)
{
	if (v < 0)
		return json_object_object_add(o, key, NULL) ? -1 : 0;
	return cr_jadd(o, key, json_object_new_double(v));
}

static int cr_ovh_json_dispatch(struct json_object *root,
				const struct cr_ovh_opts *o,
				const struct cr_ovh_result *r)
{
	const struct cr_ovh_row *d = cr_ovh_direct(r), *w;
	struct json_object *a = json_object_new_array(), *e;
	unsigned int i;
	int err = 0;

	if (cr_jadd(root, "dispatch", a))
		return -1;
	err |= cr_jadd(root, "calls", json_object_new_uint64(o->calls));
	err |= cr_jadd(root, "cold_calls", json_object_new_uint64(o->cold_calls));
	err |= cr_jadd(root, "rounds", json_object_new_int(o->rounds));
	for (i = 0; i < r->nrows && !err; i++) {
		w = &r->rows[i];
		e = json_object_new_object();
		if (cr_jappend(a, e))
			return -1;
		err |= cr_jadd(e, "variant", json_object_new_string(w->name));
		err |= cr_ovh_jnum(e, "hot_ns", w->hot_ns);
		err |= cr_ovh_jnum(e, "hot_x_direct", cr_ovh_ratio(w->hot_ns, d->hot_ns));
		err |= cr_ovh_jnum(e, "added_ns", cr_ovh_added(w, &r->rows[0]));
		err |= cr_ovh_jnum(e, "added_x_direct", cr_ovh_ratio(cr_ovh_added(w, &r->rows[0]),
							cr_ovh_added(d, &r->rows[0])));
		err |= cr_ovh_jnum(e, "cold_ns", w->cold_ns);
		err |= cr_ovh_jnum(e, "cold_x_direct", cr_ovh_ratio(w->cold_ns, d->cold_ns));
		err |= cr_jadd(e, "hot_calls", json_object_new_uint64(w->hot_calls));
		err |= cr_jadd(e, "hot_hits", json_object_new_uint64(w->hot_hits));
		err |= cr_jadd(e, "cold_calls", json_object_new_uint64(w->cold_calls));
		err |= cr_jadd(e, "cold_hits", json_object_new_uint64(w->cold_hits));
	}
	return err ? -1 : 0;
}

static int cr_ovh_json_hs(struct json_object *root,
			  const struct cr_ovh_result *r)
{
	struct json_object *a = json_object_new_array(), *e;
	unsigned int i;
	int err = 0;

	if (cr_jadd(root, "handshake", a))
		return -1;
	for (i = 0; i < r->nhs && !err; i++) {
		e = json_object_new_object();
		if (cr_jappend(a, e))
			return -1;
		err |= cr_jadd(e, "point", json_object_new_string(r->hs[i].name));
		err |= cr_ovh_jnum(e, "ns", r->hs[i].ns);
		err |= cr_jadd(e, "events", json_object_new_uint64(r->hs[i].events));
		if (r->hs[i].note)
			err |= cr_jadd(e, "note",
				       json_object_new_string(r->hs[i].note));
	}
	return err ? -1 : 0;
}

static int cr_ovh_json_storm(struct json_object *root,
			     const struct cr_ovh_opts *o,
			     const struct cr_ovh_result *r)
{
	struct json_object *st = json_object_new_object(), *a, *e;
	const struct cr_ovh_storm_row *s;
	unsigned int i;
	int err = 0;

	if (cr_jadd(root, "storm", st))
		return -1;
	err |= cr_jadd(st, "command", json_object_new_string(r->storm_cmd ? r->storm_cmd : "hackbench"));
	err |= cr_jadd(st, "loops", json_object_new_int(o->storm_loops));
	err |= cr_jadd(st, "rounds", json_object_new_int(o->storm_rounds));
	err |= cr_jadd(st, "probes", json_object_new_string(r->probes));
	err |= cr_jadd(st, "baseline", json_object_new_string(r->storm_baseline ? r->storm_baseline : ""));
	a = json_object_new_array();
	if (err || cr_jadd(st, "variants", a))
		return -1;
	for (i = 0; i < r->nstorm && !err; i++) {
		s = &r->storm[i];
		e = json_object_new_object();
		if (cr_jappend(a, e))
			return -1;
		err |= cr_jadd(e, "variant", json_object_new_string(s->name));
		if (s->note) {
			err |= cr_jadd(e, "note", json_object_new_string(s->note));
			continue;
		}
		err |= cr_jadd(e, "rounds", json_object_new_int(s->n));
		err |= cr_jadd(e, "median_s", json_object_new_double(s->median_s));
		err |= cr_jadd(e, "throughput_ratio", json_object_new_double(s->ratio_median));
		err |= cr_jadd(e, "ratio_min", json_object_new_double(s->ratio_min));
		err |= cr_jadd(e, "ratio_max", json_object_new_double(s->ratio_max));
	}
	return err ? -1 : 0;
}

int cr_ovh_render_json(FILE *out, const struct cr_ovh_opts *o,
		       const struct cr_ovh_result *r)
{
	struct json_object *root = json_object_new_object();
	int err = 0, st;

	if (!root)
		return CR_ERR;
	err |= cr_jadd(root, "kernel", json_object_new_string(r->kernel));
	err |= cr_jadd(root, "machine", json_object_new_string(r->machine));
	err |= cr_jadd(root, "clocksource", json_object_new_string(r->clocksource));
	err |= cr_jadd(root, "cpu", json_object_new_int(r->cpu));
	if (!err && (o->sections & CR_OVH_DISPATCH))
		err |= cr_ovh_json_dispatch(root, o, r);
	if (!err && (o->sections & CR_OVH_HANDSHAKE))
		err |= cr_ovh_json_hs(root, r);
	if (!err && (o->sections & CR_OVH_STORM))
		err |= cr_ovh_json_storm(root, o, r);
	st = err ? CR_ERR : cr_json_print(out, root);
	json_object_put(root);
	if (err)
		fprintf(stderr, "clkstat-report: out of memory\n");
	return st;
}

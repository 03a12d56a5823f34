// SPDX-License-Identifier: GPL-2.0
/*
 * overhead_render.c - clkstat-report overhead's output: the tables as
 * text (ns per event and the ratio to the module's direct variant; the
 * storm as throughput ratios) or as one JSON object; the handlers
 * section's are overhead_render_handlers.c's.
 */
#include <math.h>
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

/* NaN (not measured) propagates; no ratio to a base of 0 or less. */
static double cr_ovh_ratio(double a, double b)
{
	return b > 0 ? a / b : NAN;
}

static double cr_ovh_iqr(const struct cr_ovh_q *q)
{
	return q->q3 - q->q1;
}

/* A hook row (a call of the target): its base is the bare call. */
static int cr_ovh_is_hook(const struct cr_ovh_row *w)
{
	return w->base && !strcmp(w->base, "none");
}

/*
 * A hook row's whole call over the limit (a bare call plus one per-CPU
 * add): by instructions when the run has them, else in the run's unit.
 */
static double cr_ovh_xlimit(const struct cr_ovh_result *r,
			    const struct cr_ovh_row *w)
{
	if (!cr_ovh_is_hook(w) && strcmp(w->name, "none"))
		return NAN;
	if (!isnan(w->insn) && r->limit_insn > 0)
		return w->insn / r->limit_insn;
	return cr_ovh_ratio(w->hot_q.p50, r->limit);
}

/* A figure, or "-" when not measured (NaN). */
static void cr_ovh_num(FILE *out, const char *fmt, int width, double v)
{
	if (isnan(v))
		fprintf(out, " %*s", width + (strchr(fmt, 'x') != NULL), "-");
	else
		fprintf(out, fmt, width, v);
}

static void cr_ovh_text_dispatch(FILE *out, const struct cr_ovh_opts *o,
				 const struct cr_ovh_result *r)
{
	const struct cr_ovh_row *d = cr_ovh_direct(r), *w;
	const char *u = o->insn ? "insn" : "ns";
	unsigned int i;

	fprintf(out, "dispatch: clkstat_hookbench's target, %lu hot calls per round, %u interleaved rounds (median and IQR over rounds), per call in %s; CPU %d; clocksource %s\n",
		o->calls, o->rounds,
		o->insn ? "instructions (QEMU icount: guest ns = instructions)" : "ns",
		r->cpu, r->dispatch_cs);
	if (o->insn)
		fprintf(out, "cold: not measured (icount counts instructions and models no cache)\n");
	else
		fprintf(out, "cold: %lu calls per row over the rounds, each after %s through the caches, TSC-timed: p10 p50 p90\n",
			o->cold_calls, "8 MB streamed");
	if (r->insn_kernel[0])
		fprintf(out, "insn: instructions per call from an icount run (kernel %s, clocksource %s)\n",
			r->insn_kernel, r->insn_cs);
	fprintf(out, "%-14s %9s %7s %-7s %9s %7s %8s", "row", u, "IQR",
		"base", "added", "IQR", "x direct");
	if (!o->insn)
		fprintf(out, " %8s %8s %5s", "insn", "+insn", "IQR");
	fprintf(out, " %7s", "x limit");
	if (!o->insn)
		fprintf(out, " %8s %8s %8s", "cold p10", "p50", "p90");
	fprintf(out, " %10s\n", "hits");
	for (i = 0; i < r->nrows; i++) {
		w = &r->rows[i];
		fprintf(out, "%-14s", w->name);
		cr_ovh_num(out, " %*.1f", 9, w->hot_q.p50);
		cr_ovh_num(out, " %*.1f", 7, cr_ovh_iqr(&w->hot_q));
		fprintf(out, " %-7s", w->base ? w->base : "-");
		cr_ovh_num(out, " %*.1f", 9, w->added_q.p50);
		cr_ovh_num(out, " %*.1f", 7, cr_ovh_iqr(&w->added_q));
		cr_ovh_num(out, " %*.2fx", 7, cr_ovh_is_hook(w) ?
			   cr_ovh_ratio(w->added_q.p50, d->added_q.p50) : NAN);
		if (!o->insn) {
			cr_ovh_num(out, " %*.1f", 8, w->insn);
			cr_ovh_num(out, " %*.1f", 8, w->insn_added);
			cr_ovh_num(out, " %*.1f", 5, w->insn_iqr);
		}
		cr_ovh_num(out, " %*.2fx", 6, cr_ovh_xlimit(r, w));
		if (!o->insn) {
			cr_ovh_num(out, " %*.0f", 8, w->cold_p10);
			cr_ovh_num(out, " %*.0f", 8, w->cold_p50);
			cr_ovh_num(out, " %*.0f", 8, w->cold_p90);
		}
		if (w->note)
			fprintf(out, " %10s  %s\n", "-", w->note);
		else
			fprintf(out, " %10llu\n", (unsigned long long)w->hot_hits);
	}
	fprintf(out, "limit (a bare call plus one per-CPU add: none + (inc - loop)):");
	cr_ovh_num(out, " %*.1f", 1, r->limit);
	fprintf(out, " %s per call", u);
	if (!isnan(r->limit_insn))
		fprintf(out, ", %.1f instructions", r->limit_insn);
	fprintf(out, "\n");
	fprintf(out, "(loop: the empty loop; inc: one per-CPU add per iteration, no call; none: the bare call; record: one clkstat_record, no call; pair0/triple0: the handler driver without the handlers; added: minus the base row, same round; x direct: added over direct's added; insn, +insn, IQR: instructions per call, added and its IQR, icount run; x limit: the whole call over the limit, by instructions when measured; hits: handler runs in the last round, every round checked to equal the calls)\n");
}

static void cr_ovh_text_hs(FILE *out, const struct cr_ovh_result *r)
{
	const struct cr_ovh_hs_row *h;
	unsigned int i;

	fprintf(out, "\nhandshake points from userspace: %lu events each, ns per event; clocksource %s\n",
		r->nhs ? r->hs[0].events : 0, r->hs_cs);
	for (i = 0; i < r->nhs; i++) {
		h = &r->hs[i];
		fprintf(out, "%-28s", h->name);
		cr_ovh_num(out, " %*.1f", 10, h->ns < 0 ? NAN : h->ns);
		fprintf(out, "%s%s\n", h->note ? "  " : "",
			h->note ? h->note : "");
	}
}

static void cr_ovh_text_storm(FILE *out, const struct cr_ovh_opts *o,
			      const struct cr_ovh_result *r)
{
	const struct cr_ovh_storm_row *s;
	unsigned int i;

	fprintf(out, "\nwakeup storm: %s %u, %u interleaved rounds; clkstat.ko probes %s; baseline: %s; clocksource %s\n",
		r->storm_cmd ? r->storm_cmd : "hackbench", o->storm_loops,
		o->storm_rounds, r->probes[0] ? r->probes : "-",
		r->storm_baseline ? r->storm_baseline : "-", r->storm_cs);
	fprintf(out, "%-14s %10s %12s %7s %15s\n", "variant",
		o->insn ? "median cpu" : "median s", "throughput", "IQR",
		"range");
	for (i = 0; i < r->nstorm; i++) {
		s = &r->storm[i];
		if (s->note) {
			fprintf(out, "%-14s %10s %12s %7s %15s  %s\n", s->name,
				"-", "-", "-", "-", s->note);
			continue;
		}
		fprintf(out, "%-14s %10.3f %11.3fx %7.3f   %5.3f-%5.3f\n",
			s->name, s->median_s, s->ratio_median,
			s->ratio_q3 - s->ratio_q1, s->ratio_min, s->ratio_max);
	}
	fprintf(out, "(throughput: the baseline's %s / the variant's, same round, median over rounds; IQR and range of those ratios)\n",
		o->insn ? "CPU time of the storm's tasks (icount: 10^9 instructions a second)" :
			  "run time");
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
	if (o->sections & CR_OVH_HANDLERS)
		cr_ovh_text_handlers(out, o, r);
	if (o->sections & CR_OVH_STORM)
		cr_ovh_text_storm(out, o, r);
	return fflush(out) ? CR_ERR : CR_OK;
}

/* A row's figures; *_ns are in the run's unit ("unit": ns or insn). */
static int cr_ovh_json_row(struct json_object *e, const struct cr_ovh_result *r,
			   const struct cr_ovh_row *w, const struct cr_ovh_row *d)
{
	int err = 0;

	err |= cr_jadd(e, "variant", json_object_new_string(w->name));
	err |= cr_jadd(e, "mode", json_object_new_string(w->mode));
	if (w->base)
		err |= cr_jadd(e, "base", json_object_new_string(w->base));
	else
		err |= json_object_object_add(e, "base", NULL) ? -1 : 0;
	if (w->note)
		err |= cr_jadd(e, "note", json_object_new_string(w->note));
	err |= cr_jadd(e, "rounds", json_object_new_int(w->nhot));
	err |= cr_ovh_jnum(e, "hot_ns", w->hot_q.p50);
	err |= cr_ovh_jnum(e, "hot_q1", w->hot_q.q1);
	err |= cr_ovh_jnum(e, "hot_q3", w->hot_q.q3);
	err |= cr_ovh_jnum(e, "hot_x_direct", cr_ovh_ratio(w->hot_q.p50, d->hot_q.p50));
	err |= cr_ovh_jnum(e, "added_ns", w->added_q.p50);
	err |= cr_ovh_jnum(e, "added_q1", w->added_q.q1);
	err |= cr_ovh_jnum(e, "added_q3", w->added_q.q3);
	err |= cr_ovh_jnum(e, "added_x_direct", cr_ovh_is_hook(w) ?
			   cr_ovh_ratio(w->added_q.p50, d->added_q.p50) : NAN);
	err |= cr_ovh_jnum(e, "x_limit", cr_ovh_xlimit(r, w));
	err |= cr_ovh_jnum(e, "insn", w->insn);
	err |= cr_ovh_jnum(e, "added_insn", w->insn_added);
	err |= cr_ovh_jnum(e, "added_insn_iqr", w->insn_iqr);
	err |= cr_ovh_jnum(e, "cold_ns", w->cold_p50);
	err |= cr_ovh_jnum(e, "cold_p10", w->cold_p10);
	err |= cr_ovh_jnum(e, "cold_p90", w->cold_p90);
	err |= cr_ovh_jnum(e, "cold_x_direct", cr_ovh_ratio(w->cold_p50, d->cold_p50));
	err |= cr_jadd(e, "hot_calls", json_object_new_uint64(w->hot_calls));
	err |= cr_jadd(e, "hot_hits", json_object_new_uint64(w->hot_hits));
	err |= cr_jadd(e, "cold_calls", json_object_new_uint64(w->cold_calls));
	err |= cr_jadd(e, "cold_hits", json_object_new_uint64(w->cold_hits));
	return err;
}

static int cr_ovh_json_dispatch(struct json_object *root,
				const struct cr_ovh_opts *o,
				const struct cr_ovh_result *r)
{
	const struct cr_ovh_row *d = cr_ovh_direct(r);
	struct json_object *a = json_object_new_array(), *e;
	unsigned int i;
	int err = 0;

	if (cr_jadd(root, "dispatch", a))
		return -1;
	err |= cr_jadd(root, "calls", json_object_new_uint64(o->calls));
	err |= cr_jadd(root, "cold_calls", json_object_new_uint64(o->insn ? 0 : o->cold_calls));
	err |= cr_jadd(root, "rounds", json_object_new_int(o->rounds));
	err |= cr_jadd(root, "dispatch_clocksource", json_object_new_string(r->dispatch_cs));
	err |= cr_ovh_jnum(root, "limit", r->limit);
	err |= cr_ovh_jnum(root, "limit_insn", r->limit_insn);
	if (r->insn_kernel[0]) {
		err |= cr_jadd(root, "insn_kernel", json_object_new_string(r->insn_kernel));
		err |= cr_jadd(root, "insn_clocksource", json_object_new_string(r->insn_cs));
	}
	for (i = 0; i < r->nrows && !err; i++) {
		e = json_object_new_object();
		if (cr_jappend(a, e))
			return -1;
		err |= cr_ovh_json_row(e, r, &r->rows[i], d);
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
		err |= cr_ovh_jnum(e, "ns", r->hs[i].ns < 0 ? NAN : r->hs[i].ns);
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
	err |= cr_jadd(st, "clocksource", json_object_new_string(r->storm_cs));
	err |= cr_jadd(st, "command", json_object_new_string(r->storm_cmd ? r->storm_cmd : "hackbench"));
	err |= cr_jadd(st, "loops", json_object_new_int(o->storm_loops));
	err |= cr_jadd(st, "rounds", json_object_new_int(o->storm_rounds));
	/* median_s is CPU time of the storm's tasks under --icount. */
	err |= cr_jadd(st, "timed", json_object_new_string(o->insn ? "cpu" : "wall"));
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
		err |= cr_jadd(e, "ratio_q1", json_object_new_double(s->ratio_q1));
		err |= cr_jadd(e, "ratio_q3", json_object_new_double(s->ratio_q3));
		err |= cr_jadd(e, "ratio_iqr", json_object_new_double(s->ratio_q3 - s->ratio_q1));
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
	err |= cr_jadd(root, "unit", json_object_new_string(o->insn ? "insn" : "ns"));
	err |= cr_jadd(root, "cpu", json_object_new_int(r->cpu));
	if (!err && (o->sections & CR_OVH_DISPATCH))
		err |= cr_ovh_json_dispatch(root, o, r);
	if (!err && (o->sections & CR_OVH_HANDSHAKE)) {
		err |= cr_jadd(root, "handshake_clocksource", json_object_new_string(r->hs_cs));
		err |= cr_ovh_json_hs(root, r);
	}
	if (!err && (o->sections & CR_OVH_HANDLERS))
		err |= cr_ovh_json_handlers(root, r);
	if (!err && (o->sections & CR_OVH_STORM))
		err |= cr_ovh_json_storm(root, o, r);
	st = err ? CR_ERR : cr_json_print(out, root);
	json_object_put(root);
	if (err)
		fprintf(stderr, "clkstat-report: out of memory\n");
	return st;
}

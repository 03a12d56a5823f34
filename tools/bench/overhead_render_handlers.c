// SPDX-License-Identifier: GPL-2.0
/*
 * overhead_render_handlers.c - the handlers section of clkstat-report
 * overhead (overhead_handlers.c) as text and as JSON: each run's programs
 * (cost per run, the floor, the body left), then the twin's pair and
 * triple beside clkstat.ko's.
 */
#include <math.h>
#include <string.h>
#include "../../kmod/uapi/clkstat_catalog.h"
#include "overhead.h"
#include "../lib/render_common.h"

/* A figure, or "-" when not measured. */
static void cr_ovh_hd_num(FILE *out, int width, double v)
{
	if (isnan(v))
		fprintf(out, " %*s", width, "-");
	else
		fprintf(out, " %*.1f", width, v);
}

void cr_ovh_text_handlers(FILE *out, const struct cr_ovh_opts *o,
			  const struct cr_ovh_result *r)
{
	const char *unit = o->insn ? "insn" : "ns";
	const struct cr_ovh_hd_run *h;
	unsigned int i, j;

	fprintf(out, "\nhandlers: the BPF twin's programs on real wakeups, %s per run (BPF run-time statistics), clocksource %s\n",
		unit, r->hd_cs[0] ? r->hd_cs : "-");
	fprintf(out, "(%lu rounds of a two-thread ping-pong on CPU %d, a clock_gettime() syscall after each wakeup;\n"
		" floor: an empty program of the run's attach type on %s (bpf-tp: %s), what the statistics'\n"
		" clock reads and the call into a program cost; body: per run minus the floor)\n",
		o->hd_rounds, r->cpu, CLKSTAT_FUNC_TTWU, CLKSTAT_TP_TTWU);
	fprintf(out, "%-11s %-12s %-30s %-24s %9s %8s %8s\n", "variant",
		"probes", "program", "target", "runs", "per run", "body");
	for (i = 0; i < r->nhd; i++) {
		h = &r->hd[i];
		if (h->note) {
			fprintf(out, "%-11s %-12s %s\n", h->variant, h->probes,
				h->note);
			continue;
		}
		fprintf(out, "%-11s %-12s %-30s %-24s %9llu", h->variant,
			h->probes, "(floor)", "", (unsigned long long)h->floor_runs);
		cr_ovh_hd_num(out, 8, h->floor);
		fprintf(out, " %8s\n", "-");
		for (j = 0; j < h->nprogs; j++) {
			fprintf(out, "%-11s %-12s %-30s %-24s %9llu", h->variant,
				h->probes, h->progs[j].prog, h->progs[j].target,
				(unsigned long long)h->progs[j].runs);
			cr_ovh_hd_num(out, 8, h->progs[j].per_run);
			cr_ovh_hd_num(out, 8, h->progs[j].body);
			fputc('\n', out);
		}
	}
	fprintf(out, "\nhandlers without their hooks, %s per event: pair = the wakeup's and the enqueue's bodies (probes ttwu),\n"
		"triple = the same and the first read's (probes ttwu,tkread: of the read programs that ran at\n"
		"every wakeup, the dearest, which closes the interval); clkstat.ko: clkstat_hookbench's pair and\n"
		"triple, per call minus their baselines (the dispatch section's rows)\n",
		unit);
	fprintf(out, "%-11s %8s %8s  %s\n", "variant", "pair", "triple",
		"first read");
	fprintf(out, "%-11s", "clkstat.ko");
	cr_ovh_hd_num(out, 8, r->hd_mod_pair);
	cr_ovh_hd_num(out, 8, r->hd_mod_triple);
	fprintf(out, "  %s\n", r->hd_mod_note ? r->hd_mod_note : "-");
	/* One line per variant: its ttwu run's pair, its tkread run's triple. */
	for (i = 0; i < r->nhd; i++) {
		double pair = NAN, triple = NAN;
		const char *first = "-";

		for (j = 0; j < i; j++)
			if (!strcmp(r->hd[j].variant, r->hd[i].variant))
				break;
		if (j < i)
			continue;
		for (j = i; j < r->nhd; j++) {
			if (strcmp(r->hd[j].variant, r->hd[i].variant))
				continue;
			if (!isnan(r->hd[j].pair))
				pair = r->hd[j].pair;
			if (!isnan(r->hd[j].triple)) {
				triple = r->hd[j].triple;
				first = r->hd[j].first_read;
			}
		}
		fprintf(out, "%-11s", r->hd[i].variant);
		cr_ovh_hd_num(out, 8, pair);
		cr_ovh_hd_num(out, 8, triple);
		fprintf(out, "  %s\n", first);
	}
}

static int cr_ovh_json_hd_run(struct json_object *e,
			      const struct cr_ovh_hd_run *h)
{
	struct json_object *a, *p;
	unsigned int j;
	int err = 0;

	err |= cr_jadd(e, "variant", json_object_new_string(h->variant));
	err |= cr_jadd(e, "probes", json_object_new_string(h->probes));
	if (h->note)
		return err | cr_jadd(e, "note", json_object_new_string(h->note));
	err |= cr_jadd(e, "floor_runs", json_object_new_uint64(h->floor_runs));
	err |= cr_ovh_jnum(e, "floor", h->floor);
	err |= cr_ovh_jnum(e, "pair", h->pair);
	err |= cr_ovh_jnum(e, "triple", h->triple);
	if (h->first_read)
		err |= cr_jadd(e, "first_read",
			       json_object_new_string(h->first_read));
	a = json_object_new_array();
	if (err || cr_jadd(e, "programs", a))
		return -1;
	for (j = 0; j < h->nprogs && !err; j++) {
		p = json_object_new_object();
		if (cr_jappend(a, p))
			return -1;
		err |= cr_jadd(p, "program", json_object_new_string(h->progs[j].prog));
		err |= cr_jadd(p, "role", json_object_new_string(h->progs[j].role));
		err |= cr_jadd(p, "target", json_object_new_string(h->progs[j].target));
		err |= cr_jadd(p, "runs", json_object_new_uint64(h->progs[j].runs));
		err |= cr_ovh_jnum(p, "per_run", h->progs[j].per_run);
		err |= cr_ovh_jnum(p, "body", h->progs[j].body);
	}
	return err;
}

int cr_ovh_json_handlers(struct json_object *root,
			 const struct cr_ovh_result *r)
{
	struct json_object *hd = json_object_new_object(), *a, *e;
	unsigned int i;
	int err = 0;

	if (cr_jadd(root, "handlers", hd))
		return -1;
	err |= cr_jadd(hd, "clocksource", json_object_new_string(r->hd_cs));
	err |= cr_ovh_jnum(hd, "module_pair", r->hd_mod_pair);
	err |= cr_ovh_jnum(hd, "module_triple", r->hd_mod_triple);
	if (r->hd_mod_note)
		err |= cr_jadd(hd, "module_note",
			       json_object_new_string(r->hd_mod_note));
	a = json_object_new_array();
	if (err || cr_jadd(hd, "runs", a))
		return -1;
	for (i = 0; i < r->nhd && !err; i++) {
		e = json_object_new_object();
		if (cr_jappend(a, e))
			return -1;
		err |= cr_ovh_json_hd_run(e, &r->hd[i]);
	}
	return err ? -1 : 0;
}

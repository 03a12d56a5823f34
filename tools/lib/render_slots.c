// SPDX-License-Identifier: GPL-2.0
/*
 * render_slots.c - the histograms as rows of CSV or JSON Lines, one per
 * non-empty slot (render_slots.h says what each column holds), for
 * clkstat-report export.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <json.h>
#include "../../kmod/uapi/clkstat_buckets.h"
#include "render_common.h"
#include "render_slots.h"
#include "status.h"

static const char *const cr_slot_cols[] = {
	"run", "start_ns", "run_variant", "run_tags", "metric", "variant",
	"frac_bits", "cpu", "slot", "lower_ns", "upper_ns", "count", "sum",
};
#define CR_NCOLS	(sizeof(cr_slot_cols) / sizeof(cr_slot_cols[0]))

void cr_render_slots_head(FILE *out, enum cr_slots_fmt fmt)
{
	size_t i;

	if (fmt != CR_SLOTS_CSV)
		return;
	for (i = 0; i < CR_NCOLS; i++)
		fprintf(out, "%s%s", cr_slot_cols[i],
			i < CR_NCOLS - 1 ? "," : "\r\n");
}

/* The run's tags as "k=v,k=v" into buf ("" for none). */
static void cr_tags_text(const struct cr_run *r, char *buf, size_t len)
{
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < r->ntags && n < len; i++)
		n += snprintf(buf + n, len - n, "%s%s=%s", i ? "," : "",
			      r->tag_names[i], r->tag_values[i]);
}

static void cr_csv_row(FILE *out, const struct cr_run *r, const char *tags,
		       const struct cr_metric *m, const struct cr_hist *h,
		       const struct cr_slot *sl)
{
	fprintf(out, "%u,%" PRId64 ",", r->index, r->start_ns);
	cr_csv_field(out, r->variant);
	fputc(',', out);
	cr_csv_field(out, tags);
	fputc(',', out);
	cr_csv_field(out, m->name);
	fputc(',', out);
	cr_csv_field(out, m->variant);
	fprintf(out, ",%u,", m->frac_bits);
	if (h->cpu != CR_CPU_ALL)
		fprintf(out, "%u", h->cpu);
	fprintf(out, ",%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\r\n",
		sl->slot, (uint64_t)clkstat_slot_lower(sl->slot, m->frac_bits),
		(uint64_t)clkstat_slot_upper(sl->slot, m->frac_bits),
		sl->count, sl->sum);
}

static int cr_jsonl_row(FILE *out, const struct cr_run *r,
			const struct cr_metric *m, const struct cr_hist *h,
			const struct cr_slot *sl)
{
	struct json_object *o = json_object_new_object(), *t = NULL;
	uint64_t lo = clkstat_slot_lower(sl->slot, m->frac_bits);
	uint64_t hi = clkstat_slot_upper(sl->slot, m->frac_bits);
	const char *s;
	size_t i;
	int bad = !o;

	if (!bad && r->ntags) {
		t = json_object_new_object();
		for (i = 0; t && !bad && i < r->ntags; i++)
			bad = cr_jadd(t, r->tag_names[i],
				      json_object_new_string(r->tag_values[i]));
		bad = bad || !t;
	}
	bad = bad || cr_jadd(o, "run", json_object_new_uint64(r->index)) ||
	      cr_jadd(o, "start_ns", json_object_new_int64(r->start_ns)) ||
	      cr_jadd(o, "run_variant", json_object_new_string(r->variant));
	if (!bad && t) {
		bad = cr_jadd(o, "run_tags", t);
		t = NULL;
	} else if (!bad) {
		bad = json_object_object_add(o, "run_tags", NULL);
	}
	bad = bad || cr_jadd(o, "metric", json_object_new_string(m->name)) ||
	      cr_jadd(o, "variant", json_object_new_string(m->variant)) ||
	      cr_jadd(o, "frac_bits", json_object_new_uint64(m->frac_bits));
	if (!bad && h->cpu != CR_CPU_ALL)
		bad = cr_jadd(o, "cpu", json_object_new_uint64(h->cpu));
	else if (!bad)
		bad = json_object_object_add(o, "cpu", NULL);
	bad = bad || cr_jadd(o, "slot", json_object_new_uint64(sl->slot)) ||
	      cr_jadd(o, "lower_ns", json_object_new_uint64(lo)) ||
	      cr_jadd(o, "upper_ns", json_object_new_uint64(hi)) ||
	      cr_jadd(o, "count", json_object_new_uint64(sl->count)) ||
	      cr_jadd(o, "sum", json_object_new_uint64(sl->sum));
	s = bad ? NULL : json_object_to_json_string_ext(o,
				JSON_C_TO_STRING_PLAIN |
				JSON_C_TO_STRING_NOSLASHESCAPE);
	if (s)
		fprintf(out, "%s\n", s);
	json_object_put(t);
	json_object_put(o);
	return s ? CR_OK : CR_ERR;
}

int cr_render_slots_run(FILE *out, enum cr_slots_fmt fmt,
			const struct cr_run *r)
{
	char tags[CR_TAG_KEY_MAX + CR_TAG_VALUE_MAX + 2048];
	const struct cr_metric *m;
	const struct cr_hist *h;
	size_t i, c, k;

	cr_tags_text(r, tags, sizeof(tags));
	for (i = 0; i < r->nmetrics; i++) {
		m = &r->metrics[i];
		for (c = 0; c <= m->ncpus; c++) {
			h = c ? &m->cpus[c - 1] : &m->total;
			for (k = 0; k < h->nslots; k++) {
				if (fmt == CR_SLOTS_CSV)
					cr_csv_row(out, r, tags, m, h,
						   &h->slots[k]);
				else if (cr_jsonl_row(out, r, m, h,
						      &h->slots[k]))
					return CR_ERR;
			}
		}
	}
	return CR_OK;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * compare.c - clkstat-report --compare VARIANT (compare.h): which runs and
 * metrics are compared, and the errors; the statistics are bootstrap.c's, the
 * outputs compare_render.c's.
 *
 * The runs of every --input file are grouped into two strata (the
 * variant, or a factor's value, and the base), and for each metric that
 * both have, each run's all-CPU histogram is one unit of its stratum.
 * Everything is checked and computed before anything is written, so that
 * an error leaves no partial output; each metric's bootstrap starts from
 * the seed afresh.  Statuses: CR_OK, CR_USAGE, CR_ERR (status.h).
 *
 * The rules (which runs, which metrics, the errors, the factors and each
 * run's host): Documentation/clkstat-compare.rst, "Which runs are
 * compared", "Conditions as factors" and "Machines".
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "bootstrap.h"
#include "compare.h"
#include "compare_render.h"
#include "cpufreq.h"
#include "snapshot_parse.h"
#include "status.h"
#include "suggest.h"

/* Distinct strings, in order of first appearance. */
struct cr_names {
	size_t n;
	const char **v;
};

static int cr_names_has(const struct cr_names *l, const char *s)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], s))
			return 1;
	return 0;
}

static int cr_names_add(struct cr_names *l, const char *s)
{
	const char **v;

	if (cr_names_has(l, s))
		return 0;
	v = realloc(l->v, (l->n + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	l->v = v;
	v[l->n++] = s;
	return 0;
}

/* "a, b, c" on f, skipping skip (may be NULL). */
static void cr_names_print(FILE *f, const struct cr_names *l, const char *skip)
{
	const char *sep = "";
	size_t i;

	for (i = 0; i < l->n; i++) {
		if (skip && !strcmp(l->v[i], skip))
			continue;
		fprintf(f, "%s%s", sep, l->v[i]);
		sep = ", ";
	}
	if (!*sep)
		fputs("none", f);
}

/*
 * ---- factors ----
 *
 * --compare and --base may name other groups than a variant (struct
 * cr_factor): tag:KEY=VALUE and meta:FIELD=VALUE select the runs whose
 * file (cr_run_meta()) has that tag or metadata value (a run's own tag,
 * record --cstates, --load and --governors', before its file's; for
 * meta:cpufreq_governor its governor tag first), and each metric is
 * then compared per variant (NAME.VARIANT); migrated against local takes
 * every run on both sides, the NAME_migrated and NAME_local metrics.
 * VARIANT and variant:VARIANT are the code path and the messages of a
 * variant, unchanged.
 */

enum { CR_F_VARIANT, CR_F_TAG, CR_F_META, CR_F_SIDE };

/* One side of a comparison: which runs, and which metric of a run. */
struct cr_factor {
	int kind;
	char key[CR_TAG_KEY_MAX];	/* tag key, meta field */
	const char *value;		/* variant, tag or field value; SIDE:
					 * "_migrated" or "_local" */
	const char *label;		/* as given */
	char num[64];			/* a number picked as the base's value */
};

/* A compared metric: name (SIDE: without its suffix) and variant. */
struct cr_item {
	char name[CR_NAME_MAX];
	char variant[CR_VARIANT_MAX];
	char label[CR_NAME_MAX + CR_VARIANT_MAX + 1];
};

/* The metadata field key of m as text into buf; NULL: unknown. */
static const char *cr_meta_value(const struct cr_meta *m, const char *key,
				 char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < cr_nmeta_strs; i++)
		if (!strcmp(cr_meta_strs[i].key, key))
			return *cr_meta_str((struct cr_meta *)m, i);
	if (!strcmp(key, "frac_bits"))
		snprintf(buf, len, "%u", m->frac_bits);
	else if (!strcmp(key, "nr_cpus"))
		snprintf(buf, len, "%u", m->nr_cpus);
	else if (!strcmp(key, "duration_s"))
		snprintf(buf, len, "%g", m->duration_s);
	else
		return NULL;
	return buf;
}

static int cr_meta_known(const char *key)
{
	size_t i;

	for (i = 0; i < cr_nmeta_strs; i++)
		if (!strcmp(cr_meta_strs[i].key, key))
			return 1;
	return !strcmp(key, "frac_bits") || !strcmp(key, "nr_cpus") ||
	       !strcmp(key, "duration_s");
}

/* Run r's value of factor f (not SIDE); NULL: none. */
static const char *cr_run_value(const struct cr_snapshot *s,
				const struct cr_run *r,
				const struct cr_factor *f, char *buf,
				size_t len)
{
	if (f->kind == CR_F_VARIANT)
		return r->variant;
	/* The run's own tag (record --cstates, --load), else its file's. */
	if (f->kind == CR_F_TAG)
		return cr_run_tag(r, f->key) ? cr_run_tag(r, f->key) :
		       cr_meta_tag(cr_run_meta(s, r), f->key);
	/*
	 * The governor a run of record --governors ran under is its tag;
	 * the file's is what the machine had before and after.
	 */
	if (!strcmp(f->key, "cpufreq_governor") &&
	    cr_run_tag(r, CR_TAG_GOVERNOR))
		return cr_run_tag(r, CR_TAG_GOVERNOR);
	return cr_meta_value(cr_run_meta(s, r), f->key, buf, len);
}

static int cr_in_group(const struct cr_snapshot *s, const struct cr_run *r,
		       const struct cr_factor *f)
{
	const char *v;
	char buf[64];

	if (f->kind == CR_F_SIDE)
		return 1;
	v = cr_run_value(s, r, f, buf, sizeof(buf));
	return v && !strcmp(v, f->value);
}

/* The metric of item it in run r for side f, or NULL. */
static const struct cr_metric *cr_group_metric(const struct cr_run *r,
					       const struct cr_factor *f,
					       const struct cr_item *it)
{
	char n[2 * CR_NAME_MAX];

	if (f->kind == CR_F_VARIANT)
		return cr_run_find(r, it->name, f->value);
	if (f->kind != CR_F_SIDE)
		return cr_run_find(r, it->name, it->variant);
	snprintf(n, sizeof(n), "%s%s", it->name, f->value);
	return cr_run_find(r, n, it->variant);
}

/* Does some run of side f have item it? */
static int cr_group_has(const struct cr_snapshot *s, const struct cr_factor *f,
			const struct cr_item *it)
{
	size_t i;

	for (i = 0; i < s->nruns; i++)
		if (cr_in_group(s, &s->runs[i], f) &&
		    cr_group_metric(&s->runs[i], f, it))
			return 1;
	return 0;
}

/* Suffix sfx of name: its length without it, or 0 when not there. */
static size_t cr_strip(const char *name, const char *sfx)
{
	size_t n = strlen(name), k = strlen(sfx);

	return n > k && !strcmp(name + n - k, sfx) ? n - k : 0;
}

/*
 * The metrics both sides have, in order of first appearance among the
 * base's runs: *items (malloc'd, *n).
 */
static int cr_common_items(const struct cr_snapshot *s,
			   const struct cr_factor *base,
			   const struct cr_factor *var,
			   struct cr_item **items, size_t *n)
{
	const struct cr_metric *m;
	struct cr_item it, *v;
	size_t i, j, k, len;

	*items = NULL;
	*n = 0;
	for (i = 0; i < s->nruns; i++) {
		if (!cr_in_group(s, &s->runs[i], base))
			continue;
		for (j = 0; j < s->runs[i].nmetrics; j++) {
			m = &s->runs[i].metrics[j];
			memset(&it, 0, sizeof(it));
			len = strlen(m->name);
			if (base->kind == CR_F_VARIANT &&
			    strcmp(m->variant, base->value))
				continue;
			if (base->kind == CR_F_SIDE) {
				len = cr_strip(m->name, base->value);
				if (!len)
					continue;
			}
			memcpy(it.name, m->name, len);
			if (base->kind != CR_F_VARIANT)
				snprintf(it.variant, sizeof(it.variant), "%s",
					 m->variant);
			if (base->kind == CR_F_VARIANT)
				snprintf(it.label, sizeof(it.label), "%s",
					 it.name);
			else
				snprintf(it.label, sizeof(it.label), "%s.%s",
					 it.name, it.variant);
			for (k = 0; k < *n; k++)
				if (!strcmp((*items)[k].label, it.label))
					break;
			if (k < *n || !cr_group_has(s, var, &it))
				continue;
			v = realloc(*items, (*n + 1) * sizeof(*v));
			if (!v)
				return -ENOMEM;
			*items = v;
			v[(*n)++] = it;
		}
	}
	return 0;
}

/*
 * The host of run r: the run's own tag host, else its file's tag host
 * (record --tag host=NAME), else its file's meta host (record writes the
 * machine's host name), else its input file (each -i file one host).  A
 * tag is what the user said, so it wins over the name record found:
 * machines cloned with one host name are told apart by tagging them,
 * without editing the files.  The hosts are numbered over the whole input,
 * in order of first appearance (cr_host_ids()), and the numbers handed to
 * the engine with each stratum's runs: every unit reports the hosts of
 * each stratum, --unit host and host-fixed resample by them (bootstrap.c).
 * plot --kind fleet names its rows by it.
 */
const char *cr_compare_run_host(const struct cr_snapshot *s,
				const struct cr_run *r)
{
	const struct cr_meta *m = cr_run_meta(s, r);

	if (cr_run_tag(r, "host"))
		return cr_run_tag(r, "host");
	if (cr_meta_host(m))
		return cr_meta_host(m);
	return s->ninputs ? s->inputs[r->input].path : "-";
}

/* Each run's host number into *ids (malloc'd, s->nruns). */
static int cr_host_ids(const struct cr_snapshot *s, unsigned int **ids)
{
	struct cr_names hosts = { 0 };
	const char *h;
	size_t i, j;

	*ids = calloc(s->nruns ? s->nruns : 1, sizeof(**ids));
	if (!*ids)
		return -ENOMEM;
	for (i = 0; i < s->nruns; i++) {
		h = cr_compare_run_host(s, &s->runs[i]);
		if (cr_names_add(&hosts, h)) {
			free(hosts.v);
			free(*ids);
			*ids = NULL;
			return -ENOMEM;
		}
		for (j = 0; strcmp(hosts.v[j], h); j++)
			;
		(*ids)[i] = j;
	}
	free(hosts.v);
	return 0;
}

/*
 * The histograms of item it in the runs of side f into *hists (malloc'd,
 * *n of them), and with host_of (each run's host number) their hosts into
 * *hosts (malloc'd).  Return 0, -ENOMEM, or -EINVAL when frac_bits differ
 * from *ref (a line on stderr); *ref is set from the first metric when
 * *ref_run is NULL.
 */
static int cr_stratum_runs(const struct cr_snapshot *s,
			   const struct cr_factor *f, const struct cr_item *it,
			   const struct cr_hist ***hists, size_t *n,
			   const struct cr_run **ref_run, unsigned int *ref,
			   const unsigned int *host_of, unsigned int **hosts,
			   const struct cr_run ***runs)
{
	const struct cr_metric *m;
	const struct cr_hist **h;
	unsigned int *hh;
	size_t i;

	*hists = NULL;
	*n = 0;
	if (hosts) {
		*hosts = calloc(s->nruns ? s->nruns : 1, sizeof(**hosts));
		if (!*hosts)
			return -ENOMEM;
	}
	if (runs) {
		*runs = calloc(s->nruns ? s->nruns : 1, sizeof(**runs));
		if (!*runs)
			return -ENOMEM;
	}
	for (i = 0; i < s->nruns; i++) {
		if (!cr_in_group(s, &s->runs[i], f))
			continue;
		m = cr_group_metric(&s->runs[i], f, it);
		if (!m)
			continue;
		if (!*ref_run) {
			*ref_run = &s->runs[i];
			*ref = m->frac_bits;
		} else if (m->frac_bits != *ref) {
			fprintf(stderr, "clkstat-report: --compare: metric %s has frac_bits %u in run %u (variant %s) and %u in run %u (variant %s): histograms of different bucket layouts cannot be pooled\n",
				it->label, *ref, (*ref_run)->index,
				(*ref_run)->variant, m->frac_bits,
				s->runs[i].index, s->runs[i].variant);
			free(*hists);
			*hists = NULL;
			return -EINVAL;
		}
		h = realloc(*hists, (*n + 1) * sizeof(*h));
		if (!h) {
			free(*hists);
			*hists = NULL;
			return -ENOMEM;
		}
		*hists = h;
		if (hosts) {
			hh = *hosts;
			hh[*n] = host_of[i];
		}
		if (runs)
			(*runs)[*n] = &s->runs[i];
		h[(*n)++] = &m->total;
	}
	return 0;
}

/* Does some run have a metric NAME_migrated beside NAME_local? */
static int cr_has_sides(const struct cr_snapshot *s)
{
	struct cr_factor l = { .kind = CR_F_SIDE, .value = "_local" };
	struct cr_factor g = { .kind = CR_F_SIDE, .value = "_migrated" };
	struct cr_item *items;
	size_t n;
	int has;

	if (cr_common_items(s, &l, &g, &items, &n))
		return 0;
	has = n > 0;
	free(items);
	return has;
}

/*
 * The distinct values of tag or meta factor f among the runs, in order of
 * first appearance, into *vals.  A number (frac_bits, nr_cpus,
 * duration_s) is formatted into a buffer that the next run reuses, so it
 * is copied: the copies are in *owned too, for cr_names_free_owned().
 */
static int cr_factor_values(const struct cr_snapshot *s,
			    const struct cr_factor *f, struct cr_names *vals,
			    struct cr_names *owned)
{
	const char *v;
	char buf[64], *c;
	size_t i;

	for (i = 0; i < s->nruns; i++) {
		v = cr_run_value(s, &s->runs[i], f, buf, sizeof(buf));
		if (!v || cr_names_has(vals, v))
			continue;
		if (v == buf) {
			c = strdup(buf);
			if (!c)
				return -ENOMEM;
			if (cr_names_add(owned, c)) {
				free(c);
				return -ENOMEM;
			}
			v = c;
		}
		if (cr_names_add(vals, v))
			return -ENOMEM;
	}
	return 0;
}

static void cr_names_free_owned(struct cr_names *owned)
{
	size_t i;

	for (i = 0; i < owned->n; i++)
		free((char *)owned->v[i]);
	free(owned->v);
}

/* Every tag key of the input's runs and files, once each. */
static void cr_tag_keys(const struct cr_snapshot *s, struct cr_names *keys)
{
	const struct cr_meta *m;
	size_t i, j;

	for (i = 0; i < s->nruns; i++) {
		m = cr_run_meta(s, &s->runs[i]);
		for (j = 0; j < s->runs[i].ntags; j++)
			cr_names_add(keys, s->runs[i].tag_names[j]);
		for (j = 0; j < m->ntags; j++)
			cr_names_add(keys, m->tag_names[j]);
	}
}

/* The meta fields a meta: factor takes (cr_meta_known()'s). */
static void cr_meta_fields(struct cr_names *fields)
{
	size_t k;

	for (k = 0; k < cr_nmeta_strs; k++)
		cr_names_add(fields, cr_meta_strs[k].key);
	cr_names_add(fields, "frac_bits");
	cr_names_add(fields, "nr_cpus");
	cr_names_add(fields, "duration_s");
}

/*
 * " (did you mean X?)" for a factor's key: the input's tag keys for a
 * tag: factor, the meta fields for a meta: one.
 */
static void cr_suggest_key(FILE *f, const struct cr_snapshot *s, int tag,
			   const char *key)
{
	struct cr_names l = { 0 };

	if (tag)
		cr_tag_keys(s, &l);
	else
		cr_meta_fields(&l);
	cr_suggest(f, key, l.v, l.n);
	free(l.v);
}

/*
 * " (did you mean tag:...?)" for a factor whose kind, the word before
 * its colon, is none of variant, tag and meta.
 */
static void cr_suggest_kind(FILE *f, const char *spec, const char *colon)
{
	static const char *const kinds[] = { "variant", "tag", "meta" };
	char word[16];
	size_t len = (size_t)(colon - spec);

	if (len >= sizeof(word))
		return;
	memcpy(word, spec, len);
	word[len] = '\0';
	cr_suggest(f, word, kinds, sizeof(kinds) / sizeof(kinds[0]));
}

/*
 * The factors of the input on stderr, after "(factors: ": variant and
 * its values, each tag key and meta field with values, migrated/local.
 */
static void cr_print_factors(FILE *f, const struct cr_snapshot *s)
{
	struct cr_names keys = { 0 }, vals = { 0 }, owned;
	struct cr_factor fc = { .kind = CR_F_VARIANT };
	size_t i, k;
	int pass;

	fputs("variant: ", f);
	for (i = 0; i < s->nruns; i++)
		cr_names_add(&vals, s->runs[i].variant);
	cr_names_print(f, &vals, NULL);
	free(vals.v);
	cr_tag_keys(s, &keys);
	for (pass = 0; pass < 2; pass++) {
		struct cr_names *l = &keys;
		struct cr_names fields = { 0 };

		if (pass) {
			cr_meta_fields(&fields);
			l = &fields;
		}
		fc.kind = pass ? CR_F_META : CR_F_TAG;
		for (k = 0; k < l->n; k++) {
			vals = owned = (struct cr_names){ 0 };
			snprintf(fc.key, sizeof(fc.key), "%s", l->v[k]);
			/* Out of memory: the values listed so far. */
			cr_factor_values(s, &fc, &vals, &owned);
			if (vals.n) {
				fprintf(f, "; %s:%s=", pass ? "meta" : "tag",
					l->v[k]);
				cr_names_print(f, &vals, NULL);
			}
			free(vals.v);
			cr_names_free_owned(&owned);
		}
		free(fields.v);
	}
	free(keys.v);
	if (cr_has_sides(s))
		fputs("; migrated --base local", f);
}

/*
 * --compare SPEC (and --base SPEC) into f: "variant:X" or X, "tag:K=V",
 * "meta:FIELD=V", "migrated" or "local".  Return 0, or CR_USAGE after a
 * line on stderr.
 */
static int cr_parse_factor(const struct cr_snapshot *s, const char *opt,
			   const char *spec, struct cr_factor *f)
{
	const char *colon = strchr(spec, ':'), *eq;
	size_t i, klen;
	int tag;

	memset(f, 0, sizeof(*f));
	f->label = spec;
	f->kind = CR_F_VARIANT;
	f->value = spec;
	if (!colon) {
		if (!strcmp(spec, "migrated") || !strcmp(spec, "local")) {
			for (i = 0; i < s->nruns; i++)
				if (!strcmp(s->runs[i].variant, spec))
					return 0;	/* a variant of that name */
			f->kind = CR_F_SIDE;
			f->value = spec[0] == 'm' ? "_migrated" : "_local";
		}
		return 0;
	}
	if (!strncmp(spec, "variant:", 8)) {
		f->value = spec + 8;
		return 0;
	}
	tag = !strncmp(spec, "tag:", 4);
	if (!tag && strncmp(spec, "meta:", 5))
		goto unknown;
	spec = colon + 1;
	eq = strchr(spec, '=');
	klen = eq ? (size_t)(eq - spec) : strlen(spec);
	if (!eq || !klen || klen >= sizeof(f->key)) {
		fprintf(stderr, "clkstat-report: %s %s: %s:KEY=VALUE\n", opt,
			f->label, tag ? "tag" : "meta");
		return CR_USAGE;
	}
	memcpy(f->key, spec, klen);
	f->key[klen] = '\0';
	f->value = eq + 1;
	f->kind = tag ? CR_F_TAG : CR_F_META;
	if (tag || cr_meta_known(f->key))
		return 0;
unknown:
	fprintf(stderr, "clkstat-report: %s %s: no such factor", opt,
		f->label);
	if (f->kind == CR_F_META)
		cr_suggest_key(stderr, s, 0, f->key);
	else
		cr_suggest_kind(stderr, spec, colon);
	fputs(" (factors: ", stderr);
	cr_print_factors(stderr, s);
	fputs(")\n", stderr);
	return CR_USAGE;
}

/*
 * Tag, meta and side factors: the base side from --base or the one other
 * value of the key; both sides must have runs.  CR_OK, or CR_USAGE after
 * a line on stderr.
 */
static int cr_pick_base_factor(const struct cr_snapshot *s,
			       const struct cr_compare_opts *o,
			       const struct cr_factor *var,
			       struct cr_factor *base)
{
	struct cr_names vals = { 0 }, owned = { 0 };
	const char *other = NULL;
	char kind[16];
	size_t i, others;
	int st;

	if (var->kind == CR_F_SIDE) {
		if (o->base) {
			st = cr_parse_factor(s, "--base", o->base, base);
			if (st)
				return st;
			if (base->kind != CR_F_SIDE ||
			    !strcmp(base->value, var->value)) {
				fprintf(stderr, "clkstat-report: --compare %s --base %s: migrated is compared with local, on the same runs\n",
					var->label, o->base);
				return CR_USAGE;
			}
		} else {
			*base = (struct cr_factor){ .kind = CR_F_SIDE,
				.value = var->value[1] == 'm' ? "_local" :
								"_migrated",
				.label = var->value[1] == 'm' ? "local" :
								"migrated" };
		}
		if (!cr_has_sides(s)) {
			fprintf(stderr, "clkstat-report: --compare %s: no metric NAME_migrated beside a NAME_local in the input (factors: ",
				var->label);
			cr_print_factors(stderr, s);
			fputs(")\n", stderr);
			return CR_USAGE;
		}
		return CR_OK;
	}
	snprintf(kind, sizeof(kind), "%s", var->kind == CR_F_TAG ? "tag" : "meta");
	if (cr_factor_values(s, var, &vals, &owned)) {
		free(vals.v);
		cr_names_free_owned(&owned);
		fprintf(stderr, "clkstat-report: out of memory\n");
		return CR_ERR;
	}
	if (!vals.n) {
		fprintf(stderr, "clkstat-report: --compare %s: no run has %s %s",
			var->label, kind, var->key);
		cr_suggest_key(stderr, s, var->kind == CR_F_TAG, var->key);
		fputs(" (factors: ", stderr);
		cr_print_factors(stderr, s);
		fputs(")\n", stderr);
		free(vals.v);
		cr_names_free_owned(&owned);
		return CR_USAGE;
	}
	st = CR_USAGE;
	if (!cr_names_has(&vals, var->value)) {
		fprintf(stderr, "clkstat-report: --compare %s: no run with %s %s=%s",
			var->label, kind, var->key, var->value);
		cr_suggest(stderr, var->value, vals.v, vals.n);
		fputs(" (values: ", stderr);
		cr_names_print(stderr, &vals, NULL);
		fputs(")\n", stderr);
		goto out;
	}
	if (o->base) {
		st = cr_parse_factor(s, "--base", o->base, base);
		if (st)
			goto out;
		st = CR_USAGE;
		if (base->kind != var->kind || strcmp(base->key, var->key)) {
			fprintf(stderr, "clkstat-report: --compare %s --base %s: the base must be %s:%s=VALUE\n",
				var->label, o->base, kind, var->key);
			goto out;
		}
		if (!strcmp(base->value, var->value)) {
			fprintf(stderr, "clkstat-report: --compare %s --base %s: a group cannot be compared with itself\n",
				var->label, o->base);
			goto out;
		}
		if (!cr_names_has(&vals, base->value)) {
			fprintf(stderr, "clkstat-report: --base %s: no run with %s %s=%s",
				o->base, kind, base->key, base->value);
			cr_suggest(stderr, base->value, vals.v, vals.n);
			fputs(" (values: ", stderr);
			cr_names_print(stderr, &vals, NULL);
			fputs(")\n", stderr);
			goto out;
		}
		st = CR_OK;
		goto out;
	}
	for (i = 0, others = 0; i < vals.n; i++) {
		if (strcmp(vals.v[i], var->value)) {
			other = vals.v[i];
			others++;
		}
	}
	if (others != 1) {
		fprintf(stderr, "clkstat-report: --compare %s: choose the base with --base %s:%s=VALUE (values: ",
			var->label, kind, var->key);
		cr_names_print(stderr, &vals, NULL);
		fputs(")\n", stderr);
		goto out;
	}
	*base = *var;
	base->value = other;	/* points into s, or a number: copied */
	if (cr_names_has(&owned, other)) {
		snprintf(base->num, sizeof(base->num), "%s", other);
		base->value = base->num;
	}
	base->label = NULL;	/* cr_compare() names it */
	st = CR_OK;
out:
	free(vals.v);
	cr_names_free_owned(&owned);
	return st;
}

static int cr_compare_usage(const struct cr_compare_opts *o)
{
	if (!o->variant || !*o->variant) {
		fprintf(stderr, "clkstat-report: --compare needs a variant\n");
		return CR_USAGE;
	}
	if (!o->resamples) {
		fprintf(stderr, "clkstat-report: --compare: --resamples must be at least 1\n");
		return CR_USAGE;
	}
	if (!(o->level > 0 && o->level < 1)) {
		fprintf(stderr, "clkstat-report: --compare: --level must be above 0 and below 1\n");
		return CR_USAGE;
	}
	if ((o->unit_sample && o->unit_host) ||
	    (o->host_fixed && !o->unit_host)) {
		fprintf(stderr, "clkstat-report: --compare: --unit is run, sample, host or host-fixed\n");
		return CR_USAGE;
	}
	if (o->format && strcmp(o->format, "text") &&
	    strcmp(o->format, "json") && strcmp(o->format, "csv")) {
		fprintf(stderr, "clkstat-report: --compare: --format '%s': text, json or csv\n",
			o->format);
		return CR_USAGE;
	}
	return CR_OK;
}

/* The base variant, or NULL after a line on stderr. */
static const char *cr_pick_base(const struct cr_compare_opts *o,
				const struct cr_names *variants,
				const char *variant)
{
	size_t i, others = 0;
	const char *base = NULL;

	if (!cr_names_has(variants, variant)) {
		fprintf(stderr, "clkstat-report: --compare %s: no run of variant %s in the input",
			variant, variant);
		cr_suggest(stderr, variant, variants->v, variants->n);
		fputs(" (variants: ", stderr);
		cr_names_print(stderr, variants, NULL);
		fputs(")\n", stderr);
		return NULL;
	}
	if (o->base) {
		if (!strcmp(o->base, variant)) {
			fprintf(stderr, "clkstat-report: --compare %s --base %s: a variant cannot be compared with itself\n",
				variant, o->base);
			return NULL;
		}
		if (!cr_names_has(variants, o->base)) {
			fprintf(stderr, "clkstat-report: --base %s: no run of variant %s in the input",
				o->base, o->base);
			cr_suggest(stderr, o->base, variants->v, variants->n);
			fputs(" (variants: ", stderr);
			cr_names_print(stderr, variants, NULL);
			fputs(")\n", stderr);
			return NULL;
		}
		return o->base;
	}
	for (i = 0; i < variants->n; i++) {
		if (strcmp(variants->v[i], variant)) {
			base = variants->v[i];
			others++;
		}
	}
	if (others == 1)
		return base;
	if (!others) {
		fprintf(stderr, "clkstat-report: --compare %s: the input has no other variant to compare it with (variants: ",
			variant);
	} else {
		fprintf(stderr, "clkstat-report: --compare %s: the input has %zu other variants, choose the base with --base (variants: ",
			variant, others);
	}
	cr_names_print(stderr, variants, NULL);
	fputs(")\n", stderr);
	return NULL;
}

void cr_compare_data_free(struct cr_compare_data *d)
{
	size_t i;
	int k;

	for (i = 0; d->side && i < d->res.nmetrics; i++) {
		for (k = 0; k < 2; k++) {
			free(d->side[i][k].hists);
			free(d->side[i][k].runs);
			free(d->side[i][k].hosts);
		}
	}
	free(d->side);
	free(d->res.metrics);
	memset(d, 0, sizeof(*d));
}

int cr_compare_collect(const struct cr_snapshot *s,
		       const struct cr_compare_opts *o,
		       struct cr_compare_data *d)
{
	const struct cr_hist **hists[2] = { NULL, NULL };
	unsigned int *host_of = NULL;
	struct cr_compare_result *res = &d->res;
	struct cr_names variants = { 0 };
	struct cr_factor fac[2];
	struct cr_item *items = NULL;
	const struct cr_run *ref_run;
	struct cr_boot_stratum_in in[2];
	struct cr_boot_params bp;
	const char *base;
	unsigned int ref = 0;
	size_t i, j, nitems = 0, n[2];
	int st, err = 0, k;

	memset(d, 0, sizeof(*d));
	st = cr_compare_usage(o);
	if (st)
		return st;
	st = cr_parse_factor(s, "--compare", o->variant, &fac[1]);
	if (st)
		return st;
	if (fac[1].kind == CR_F_VARIANT) {
		for (i = 0; i < s->nruns; i++)
			if (cr_names_add(&variants, s->runs[i].variant))
				goto nomem;
		base = cr_pick_base(o, &variants, fac[1].value);
		if (!base) {
			st = CR_USAGE;
			goto out;
		}
		fac[0] = (struct cr_factor){ .kind = CR_F_VARIANT,
			.value = base, .label = base };
		fac[1].label = fac[1].value;
	} else {
		st = cr_pick_base_factor(s, o, &fac[1], &fac[0]);
		if (st)
			goto out;
		if (!fac[0].label) {
			snprintf(d->base_label, sizeof(d->base_label),
				 "%s:%s=%s",
				 fac[0].kind == CR_F_TAG ? "tag" : "meta",
				 fac[0].key, fac[0].value);
			fac[0].label = d->base_label;
		}
	}
	/* A label may point into fac[], which ends with this function. */
	if (fac[0].label != d->base_label)
		snprintf(d->base_label, sizeof(d->base_label), "%s",
			 fac[0].label);
	snprintf(d->variant_label, sizeof(d->variant_label), "%s",
		 fac[1].label);
	if (cr_common_items(s, &fac[0], &fac[1], &items, &nitems) ||
	    cr_host_ids(s, &host_of))
		goto nomem;
	if (o->metric) {
		/* NAME, or NAME.VARIANT of a factor other than the variant. */
		for (i = 0, j = 0; i < nitems; i++)
			if (!strcmp(items[i].label, o->metric) ||
			    (fac[1].kind != CR_F_VARIANT &&
			     !strcmp(items[i].name, o->metric)))
				items[j++] = items[i];
		if (!j) {
			fprintf(stderr, "clkstat-report: --compare: --metric %s: not a metric of both %s and %s (metrics of both: ",
				o->metric, fac[0].label, fac[1].label);
			for (i = 0; i < nitems; i++)
				fprintf(stderr, "%s%s", i ? ", " : "",
					items[i].label);
			fputs(nitems ? ")\n" : "none)\n", stderr);
			st = CR_USAGE;
			goto out;
		}
		nitems = j;
	}
	if (!nitems) {
		fprintf(stderr, "clkstat-report: --compare: no metric is in runs of both %s and %s\n",
			fac[0].label, fac[1].label);
		st = CR_ERR;
		goto out;
	}

	/* Every metric's bucket layout, before anything is computed. */
	for (i = 0; i < nitems; i++) {
		ref_run = NULL;
		for (k = 0; k < 2 && !err; k++) {
			err = cr_stratum_runs(s, &fac[k], &items[i], &hists[k],
					      &n[k], &ref_run, &ref, NULL, NULL,
					      NULL);
			free(hists[k]);
			hists[k] = NULL;
		}
		if (err == -ENOMEM)
			goto nomem;
		if (err) {
			st = CR_ERR;
			goto out;
		}
	}

	res->metrics = calloc(nitems, sizeof(*res->metrics));
	d->side = calloc(nitems, sizeof(*d->side));
	if (!res->metrics || !d->side)
		goto nomem;
	res->base = d->base_label;
	res->variant = d->variant_label;
	res->unit_sample = o->unit_sample;
	res->unit_host = o->unit_host;
	res->host_fixed = o->host_fixed;
	res->groups = fac[1].kind != CR_F_VARIANT;
	res->resamples = o->resamples;
	res->seed = o->seed;
	res->level = o->level;
	res->summary_only = o->summary_only;
	bp = (struct cr_boot_params){
		.resamples = o->resamples, .level = o->level, .seed = o->seed,
		.unit_sample = o->unit_sample, .unit_host = o->unit_host,
		.host_fixed = o->host_fixed,
		.have_threshold = o->have_threshold,
		.threshold = o->threshold,
	};
	for (i = 0; i < nitems; i++) {
		struct cr_compare_metric *cm = &res->metrics[i];
		struct cr_compare_side *sd = d->side[i];

		/* Counted first: cr_compare_data_free() frees its sides. */
		res->nmetrics++;
		ref_run = NULL;
		for (k = 0; k < 2; k++) {
			if (cr_stratum_runs(s, &fac[k], &items[i], &sd[k].hists,
					    &sd[k].n, &ref_run, &ref, host_of,
					    &sd[k].hosts, &sd[k].runs))
				goto nomem;	/* checked above: -ENOMEM */
			in[k] = (struct cr_boot_stratum_in){
				.frac_bits = ref, .nruns = sd[k].n,
				.runs = sd[k].hists, .host = sd[k].hosts,
			};
		}
		snprintf(cm->name, sizeof(cm->name), "%s", items[i].label);
		cm->frac_bits = ref;
		err = cr_boot_compare(&in[0], &in[1], &bp, &cm->r);
		if (err == -ENOMEM)
			goto nomem;
		if (err == -EOVERFLOW) {
			fprintf(stderr, "clkstat-report: --compare: metric %s: sample counts too large to resample without overflowing 64 bits\n",
				items[i].label);
			st = CR_ERR;
			goto out;
		}
		if (err) {
			fprintf(stderr, "clkstat-report: --compare: metric %s: the bootstrap refused its input (%s)\n",
				items[i].label, strerror(-err));
			st = CR_ERR;
			goto out;
		}
	}
	goto out;
nomem:
	fprintf(stderr, "clkstat-report: out of memory\n");
	st = CR_ERR;
out:
	free(host_of);
	free(variants.v);
	free(items);
	if (st)
		cr_compare_data_free(d);
	return st;
}

int cr_compare(FILE *out, const struct cr_snapshot *s,
	       const struct cr_compare_opts *o)
{
	const char *fmt = o->format ? o->format : "text";
	struct cr_compare_data d;
	int st;

	st = cr_compare_collect(s, o, &d);
	if (st)
		return st;
	if (!strcmp(fmt, "json"))
		st = cr_compare_json(out, &d.res);
	else if (!strcmp(fmt, "csv"))
		st = cr_compare_csv(out, &d.res);
	else
		st = cr_compare_text(out, &d.res);
	if (st)
		fprintf(stderr, "clkstat-report: --compare: cannot write the output\n");
	cr_compare_data_free(&d);
	return st;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * twin_model.c - the BPF twin's kernel-free logic (twin_model.h): names,
 * configuration checks, and the conversion of map values to the model.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../kmod/uapi/clkstat_buckets.h"
#include "twin_model.h"
#include "twin_shared.h"

/* In enum twin_variant's order, the catalog's. */
const char *const twin_variant_names[TV_N] = {
	CLKSTAT_TWIN_VARIANTS(CLKSTAT_CAT_VARIANT_NAME)
};

/* The module's metric names, from its catalog. */
static const char *const clkstat_metric_names[CLKSTAT_NMETRICS] =
	CLKSTAT_METRIC_NAMES_INIT;

#define TWIN_METRIC_ID(tm, id)	[tm] = CLKSTAT_METRIC_##id,
static const enum clkstat_metric_id twin_metric_ids[TM_N] = {
	TWIN_METRICS(TWIN_METRIC_ID)
};

const char *twin_metric_name(enum twin_metric m)
{
	return clkstat_metric_names[twin_metric_ids[m]];
}

int twin_metric_parts(unsigned int m, unsigned int part[2])
{
#define TWIN_FAMILY(total, a, b)	{ #total, #a, #b },
	static const char *const fam[][3] = {
		CLKSTAT_METRIC_FAMILIES(TWIN_FAMILY)
	};
#undef TWIN_FAMILY
	unsigned int f, i, j;

	if (m >= TM_N)
		return 0;
	for (f = 0; f < sizeof(fam) / sizeof(fam[0]); f++) {
		if (strcmp(fam[f][0], twin_metric_name(m)))
			continue;
		/* Both parts among the twin's metrics, or no total here. */
		for (j = 0; j < 2; j++) {
			for (i = 0; i < TM_N; i++)
				if (!strcmp(fam[f][j + 1], twin_metric_name(i)))
					break;
			if (i == TM_N)
				return 0;
			part[j] = i;
		}
		return 1;
	}
	return 0;
}

void twin_hist_add_part(void *total, const void *part, unsigned int ncpus)
{
	unsigned int c, s;

	for (c = 0; c < ncpus; c++) {
		twin_hist_t *t = (void *)((char *)total + c * TWIN_HIST_STRIDE);
		const twin_hist_t *p = (const void *)((const char *)part +
						      c * TWIN_HIST_STRIDE);

		for (s = 0; s < CLKSTAT_NSLOTS_MAX; s++) {
			t->slot[s].count += p->slot[s].count;
			t->slot[s].sum += p->slot[s].sum;
		}
		/* nmin is ~min (0: no sample): the larger is the smaller min. */
		if (p->nmin > t->nmin)
			t->nmin = p->nmin;
		if (p->max > t->max)
			t->max = p->max;
	}
}

/* The counters' names, from the module's catalog. */
static const char *const ttwu_counters[CLKSTAT_TTWU_NCOUNTERS] = {
	CLKSTAT_TTWU_COUNTERS(CLKSTAT_CAT_NAME)
};

static const char *const tkw_counters[CLKSTAT_TKW_NCOUNTERS] = {
	CLKSTAT_TKW_COUNTERS(CLKSTAT_CAT_NAME)
};

static const char *const tk_counters[CLKSTAT_TK_NFUNCS] = {
	CLKSTAT_TK_FUNCS(CLKSTAT_CAT_NAME)
};

static const char *const csw_counters[CLKSTAT_CSW_NCOUNTERS] = {
	CLKSTAT_CSW_COUNTERS(CLKSTAT_CAT_NAME)
};

int twin_variant_parse(const char *name)
{
	int i;

	for (i = 0; i < TV_N; i++)
		if (name && !strcmp(name, twin_variant_names[i]))
			return i;
	return -1;
}

static const char *const twin_trace_errors[CLKSTAT_TRACE_NERRORS] =
	CLKSTAT_TRACE_ERROR_TEXTS_INIT;

static const char *const trace_counters[CLKSTAT_TRC_NCOUNTERS] = {
	CLKSTAT_TRACE_COUNTERS(CLKSTAT_CAT_NAME)
};

/* Add the spec of len bytes at p to tr; 0, or -1 and one line. */
static int twin_trace_add(enum twin_variant v, const char *p, size_t len,
			  struct twin_traces *tr)
{
	const char *vn = twin_variant_names[v];
	struct clkstat_trace_spec *s;
	char buf[2 * CLKSTAT_NAME_MAX];
	unsigned int i;
	int err;

	if (len >= sizeof(buf)) {
		fprintf(stderr, "clkstat-report: %s: probe '%.*s': %s\n", vn,
			(int)len, p, twin_trace_errors[CLKSTAT_TRACE_E_LONG]);
		return -1;
	}
	snprintf(buf, sizeof(buf), "%.*s", (int)len, p);
	if (tr->n == CLKSTAT_TRACE_MAX) {
		fprintf(stderr, "clkstat-report: %s: probe '%s': more than %d user-defined probes\n",
			vn, buf, CLKSTAT_TRACE_MAX);
		return -1;
	}
	s = &tr->spec[tr->n];
	err = clkstat_trace_parse(buf, s);
	if (err) {
		fprintf(stderr, "clkstat-report: %s: probe '%s': %s\n", vn, buf,
			twin_trace_errors[err]);
		return -1;
	}
	for (i = 0; i < tr->n; i++) {
		if (!strcmp(tr->spec[i].name, s->name)) {
			fprintf(stderr, "clkstat-report: %s: probe '%s' given twice (as %s)\n",
				vn, buf, s->name);
			return -1;
		}
	}
	if (s->kind == CLKSTAT_TRACE_TP && v != TV_TP) {
		fprintf(stderr, "clkstat-report: %s: probe %s: only bpf-tp reaches tracepoints (tp_btf)\n",
			vn, s->name);
		return -1;
	}
	if (s->kind != CLKSTAT_TRACE_TP && v == TV_TP) {
		fprintf(stderr, "clkstat-report: bpf-tp: probe %s: bpf-tp reaches no function (use bpf-fentry or bpf-kprobe)\n",
			s->name);
		return -1;
	}
	tr->n++;
	return 0;
}

int twin_probes_parse_traces(enum twin_variant v, const char *list,
			     unsigned int *mask, struct twin_traces *tr)
{
	/* In the order of the TWIN_P_* bits. */
	static const char *const names[] = {
		"ttwu", "tkread", "csswitch", "csread", "clockoff"
	};
	const size_t nnames = sizeof(names) / sizeof(names[0]);
	const char *p = list, *e;
	size_t len, i;

	*mask = 0;
	tr->n = 0;
	while (p && *p) {
		e = strchr(p, ',');
		len = e ? (size_t)(e - p) : strlen(p);
		if (memchr(p, ':', len)) {
			if (twin_trace_add(v, p, len, tr))
				return -1;
			p = e ? e + 1 : NULL;
			continue;
		}
		for (i = 0; i < nnames; i++)
			if (len == strlen(names[i]) && !strncmp(p, names[i], len))
				break;
		if (i == nnames) {
			fprintf(stderr, "clkstat-report: %s: probe '%.*s': the BPF twin has ttwu, tkread, csswitch, csread and clockoff, and user-defined probes func:F, sec:A-B, tp:X-Y\n",
				twin_variant_names[v], (int)len, p);
			return -1;
		}
		*mask |= 1U << i;
		p = e ? e + 1 : NULL;
	}
	if (!*mask && !tr->n) {
		fprintf(stderr, "clkstat-report: %s: no probe given\n",
			twin_variant_names[v]);
		return -1;
	}
	if (v == TV_TP && (*mask & ~(TWIN_P_TTWU | TWIN_P_CLOCKOFF))) {
		unsigned int bad = *mask & ~(TWIN_P_TTWU | TWIN_P_CLOCKOFF);

		for (i = 0; !(bad & (1U << i)); i++)
			;
		fprintf(stderr, "clkstat-report: bpf-tp: probe %s cannot run there: the kernel has no tracepoint for it (use bpf-fentry or bpf-kprobe, or --probes ttwu)\n",
			names[i]);
		return -1;
	}
	if ((*mask & TWIN_P_CLOCKOFF) &&
	    !(*mask & (TWIN_P_TTWU | TWIN_P_TKREAD | TWIN_P_CSSWITCH))) {
		fprintf(stderr, "clkstat-report: %s: probe clockoff samples at the events of ttwu, tkread or csswitch: add one of them\n",
			twin_variant_names[v]);
		return -1;
	}
	return 0;
}

int twin_probes_parse(enum twin_variant v, const char *list, unsigned int *mask)
{
	struct twin_traces tr;

	return twin_probes_parse_traces(v, list, mask, &tr);
}

int twin_metric_enabled(unsigned int mask, unsigned int m)
{
	switch (m) {
	case TM_TTWU:
	case TM_TTWU_MIG:
	case TM_TTWU_LOC:
		return !!(mask & TWIN_P_TTWU);
	case TM_TKREAD:
		return !!(mask & TWIN_P_TKREAD);
	case TM_TKW:
	case TM_TKW_MIG:
	case TM_TKW_LOC:
	case TM_TKW_ENQ:
		/* As the module: the pairs need wakeups from ttwu. */
		return (mask & (TWIN_P_TTWU | TWIN_P_TKREAD)) ==
		       (TWIN_P_TTWU | TWIN_P_TKREAD);
	case TM_CSSWITCH:
		return !!(mask & TWIN_P_CSSWITCH);
	case TM_CSREAD_HPET:
	case TM_CSREAD_ACPI_PM:
		return !!(mask & TWIN_P_CSREAD);
	case TM_CSW_FIRST_READ:
		/* As the module: the gap needs both ends. */
		return (mask & (TWIN_P_CSSWITCH | TWIN_P_CSREAD)) ==
		       (TWIN_P_CSSWITCH | TWIN_P_CSREAD);
	case TM_CLOCKOFF:
	case TM_CLOCKOFF_NEG:
		return !!(mask & TWIN_P_CLOCKOFF);
	}
	return 0;
}

const char *const *twin_counter_names(unsigned int m, unsigned int *n)
{
	switch (m) {
	case TM_TTWU:
		*n = CLKSTAT_TTWU_NCOUNTERS;
		return ttwu_counters;
	case TM_TKREAD:
		*n = CLKSTAT_TK_NFUNCS;
		return tk_counters;
	case TM_TKW:
		*n = CLKSTAT_TKW_NCOUNTERS;
		return tkw_counters;
	case TM_CSSWITCH:
		*n = CLKSTAT_CSW_NCOUNTERS;
		return csw_counters;
	}
	*n = 0;
	return NULL;
}

/* Append h's non-empty slots to out, ascending; 0 or -ENOMEM. */
static int twin_hist_slots(struct cr_hist *out, const twin_hist_t *h,
			   unsigned int nslots)
{
	unsigned int s, n = 0;

	for (s = 0; s < nslots; s++)
		n += h->slot[s].count != 0;
	if (!n)
		return 0;
	out->slots = calloc(n, sizeof(*out->slots));
	if (!out->slots)
		return -ENOMEM;
	for (s = 0; s < nslots; s++) {
		if (!h->slot[s].count)
			continue;
		out->slots[out->nslots++] = (struct cr_slot){
			.slot = s, .count = h->slot[s].count,
			.sum = h->slot[s].sum,
		};
	}
	return 0;
}

/* twin_fill_metric() of a metric named name, with nc counters names. */
static int twin_fill(struct cr_metric *m, const char *name,
		     const char *const *names, unsigned int nc,
		     const char *variant, unsigned int frac_bits, int recording,
		     const void *percpu, unsigned int ncpus)
{
	unsigned int nslots = CLKSTAT_NSLOTS(frac_bits), c, i, s;
	twin_hist_t *sum;
	int err = 0;

	snprintf(m->name, sizeof(m->name), "%s", name);
	snprintf(m->variant, sizeof(m->variant), "%s", variant);
	m->frac_bits = frac_bits;
	m->recording = recording;
	m->ncounters = nc;
	for (i = 0; i < nc; i++)
		snprintf(m->counters[i].name, CR_NAME_MAX, "%s", names[i]);
	m->total = (struct cr_hist){ .cpu = CR_CPU_ALL, .min = UINT64_MAX };
	sum = calloc(1, sizeof(*sum));
	m->cpus = calloc(ncpus ? ncpus : 1, sizeof(*m->cpus));
	if (!sum || !m->cpus) {
		free(sum);
		return -ENOMEM;
	}
	for (c = 0; c < ncpus && !err; c++) {
		const twin_hist_t *h = (const void *)((const char *)percpu +
						      c * TWIN_HIST_STRIDE);
		struct cr_hist *ch;
		uint64_t n = 0;

		for (i = 0; i < nc; i++)
			m->counters[i].value += h->counter[i];
		for (s = 0; s < nslots; s++) {
			n += h->slot[s].count;
			sum->slot[s].count += h->slot[s].count;
			sum->slot[s].sum += h->slot[s].sum;
		}
		if (!n)
			continue;
		/* nmin is ~min: zeroed memory reads as "no sample". */
		ch = &m->cpus[m->ncpus++];
		*ch = (struct cr_hist){ .cpu = c, .min = ~h->nmin,
					.max = h->max };
		if (ch->min < m->total.min)
			m->total.min = ch->min;
		if (ch->max > m->total.max)
			m->total.max = ch->max;
		err = twin_hist_slots(ch, h, nslots);
	}
	if (!err)
		err = twin_hist_slots(&m->total, sum, nslots);
	free(sum);
	return err;
}

int twin_fill_metric(struct cr_metric *m, unsigned int idx,
		     const char *variant, unsigned int frac_bits, int recording,
		     const void *percpu, unsigned int ncpus)
{
	unsigned int nc;
	const char *const *names = twin_counter_names(idx, &nc);

	return twin_fill(m, twin_metric_name(idx), names, nc, variant,
			 frac_bits, recording, percpu, ncpus);
}

int twin_fill_trace_metric(struct cr_metric *m, const char *spec,
			   const char *variant, unsigned int frac_bits,
			   int recording, const void *percpu,
			   unsigned int ncpus)
{
	return twin_fill(m, spec, trace_counters, CLKSTAT_TRC_NCOUNTERS,
			 variant, frac_bits, recording, percpu, ncpus);
}

int twin_ring_size(unsigned int n, size_t page, size_t *bytes)
{
	size_t want, sz;

	if (!n || !page)
		return -1;
	want = (size_t)n * (sizeof(struct clkstat_event_rec) + 8);
	if (want > TWIN_EV_RING_MAX)
		return -1;
	for (sz = page; sz < want; sz <<= 1)
		;
	if (sz > TWIN_EV_RING_MAX)
		return -1;
	*bytes = sz;
	return 0;
}

int twin_event_add(struct cr_events *x, const void *data, size_t size)
{
	struct clkstat_event_rec e;

	if (size != sizeof(e))
		return -EINVAL;
	memcpy(&e, data, sizeof(e));
	/* The storage stays, for what comes after. */
	if (e.type == TWIN_EV_RESET) {
		x->n = 0;
		return 0;
	}
	if (e.type >= CLKSTAT_EV_NTYPES)
		return -EINVAL;
	e.text[sizeof(e.text) - 1] = '\0';
	return cr_events_add(x, &e);
}

/* Merge sort of a[0..n) by ts through tmp: stable, as qsort() is not. */
static void twin_merge_sort(struct clkstat_event_rec *a,
			    struct clkstat_event_rec *tmp, size_t n)
{
	size_t h = n / 2, i = 0, j = h, k = 0;

	if (n < 2)
		return;
	twin_merge_sort(a, tmp, h);
	twin_merge_sort(a + h, tmp, n - h);
	if (a[h - 1].ts <= a[h].ts)
		return;		/* already in order: the usual case */
	while (i < h && j < n)
		tmp[k++] = a[j].ts < a[i].ts ? a[j++] : a[i++];
	while (i < h)
		tmp[k++] = a[i++];
	while (j < n)
		tmp[k++] = a[j++];
	memcpy(a, tmp, n * sizeof(*a));
}

int twin_events_sort(struct cr_events *x)
{
	struct clkstat_event_rec *tmp;

	if (x->n < 2)
		return 0;
	tmp = malloc(x->n * sizeof(*tmp));
	if (!tmp)
		return -ENOMEM;
	twin_merge_sort(x->ev, tmp, x->n);
	free(tmp);
	return 0;
}

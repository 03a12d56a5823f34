// SPDX-License-Identifier: GPL-2.0
/*
 * model.c - building, pooling and freeing clkstat-report's in-memory
 * snapshots (model.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../kmod/shared/clkstat_hist_math.h"
#include "model.h"
#include "status.h"

void cr_hist_free(struct cr_hist *h)
{
	free(h->slots);
	h->slots = NULL;
	h->nslots = 0;
}

void cr_metric_free(struct cr_metric *m)
{
	size_t i;

	cr_hist_free(&m->total);
	for (i = 0; i < m->ncpus; i++)
		cr_hist_free(&m->cpus[i]);
	free(m->cpus);
	m->cpus = NULL;
	m->ncpus = 0;
}

void cr_run_free(struct cr_run *r)
{
	size_t i;

	for (i = 0; i < r->nmetrics; i++)
		cr_metric_free(&r->metrics[i]);
	free(r->metrics);
	r->metrics = NULL;
	r->nmetrics = 0;
	cr_events_free(&r->events);
	for (i = 0; i < r->ntags; i++) {
		free(r->tag_names[i]);
		free(r->tag_values[i]);
	}
	free(r->tag_names);
	free(r->tag_values);
	r->tag_names = NULL;
	r->tag_values = NULL;
	r->ntags = 0;
}

int cr_events_add(struct cr_events *x, const struct clkstat_event_rec *e)
{
	struct clkstat_event_rec *p;
	size_t cap;

	if (x->n == x->cap) {
		cap = x->cap ? 2 * x->cap : 256;
		p = realloc(x->ev, cap * sizeof(*p));
		if (!p)
			return -ENOMEM;
		x->ev = p;
		x->cap = cap;
	}
	x->ev[x->n++] = *e;
	return 0;
}

void cr_events_free(struct cr_events *x)
{
	free(x->ev);
	*x = (struct cr_events){ 0 };
}

static const char *const cr_event_names[CLKSTAT_EV_NTYPES] =
	CLKSTAT_EV_NAMES_INIT;

const char *cr_event_type_name(unsigned int type)
{
	return type < CLKSTAT_EV_NTYPES ? cr_event_names[type] : "?";
}

int cr_event_type_parse(const char *name)
{
	int i;

	for (i = 0; i < CLKSTAT_EV_NTYPES; i++)
		if (!strcmp(name, cr_event_names[i]))
			return i;
	return -1;
}

void cr_meta_free(struct cr_meta *m)
{
	size_t i;

	free(m->tool_version);
	free(m->module_version);
	free(m->kernel_release);
	free(m->clocksource);
	free(m->clock);
	free(m->probes);
	free(m->variants);
	free(m->command);
	free(m->machine);
	free(m->hypervisor);
	free(m->cpuidle_driver);
	free(m->cpuidle_governor);
	free(m->max_cstate);
	free(m->cmdline);
	free(m->conditions);
	free(m->host);
	free(m->cpufreq_driver);
	free(m->cpufreq_governor);
	free(m->cpufreq_boost);
	for (i = 0; i < m->nparams; i++) {
		free(m->param_names[i]);
		free(m->param_values[i]);
	}
	free(m->param_names);
	free(m->param_values);
	for (i = 0; i < m->ntags; i++) {
		free(m->tag_names[i]);
		free(m->tag_values[i]);
	}
	free(m->tag_names);
	free(m->tag_values);
	memset(m, 0, sizeof(*m));
}

int cr_meta_copy(struct cr_meta *d, const struct cr_meta *m)
{
	char **const dst[] = {
		&d->tool_version, &d->module_version, &d->kernel_release,
		&d->clocksource, &d->clock, &d->probes, &d->variants,
		&d->command, &d->machine, &d->hypervisor, &d->cpuidle_driver,
		&d->cpuidle_governor, &d->max_cstate, &d->cmdline,
		&d->conditions, &d->host, &d->cpufreq_driver,
		&d->cpufreq_governor, &d->cpufreq_boost,
	};
	const char *const src[] = {
		m->tool_version, m->module_version, m->kernel_release,
		m->clocksource, m->clock, m->probes, m->variants, m->command,
		m->machine, m->hypervisor, m->cpuidle_driver,
		m->cpuidle_governor, m->max_cstate, m->cmdline, m->conditions,
		m->host, m->cpufreq_driver, m->cpufreq_governor,
		m->cpufreq_boost,
	};
	size_t i;

	memset(d, 0, sizeof(*d));
	for (i = 0; i < sizeof(src) / sizeof(src[0]); i++)
		if (src[i] && !(*dst[i] = strdup(src[i])))
			goto nomem;
	d->frac_bits = m->frac_bits;
	d->nr_cpus = m->nr_cpus;
	d->duration_s = m->duration_s;
	d->events = m->events;
	d->cpufreq_recorded = m->cpufreq_recorded;
	for (i = 0; i < m->nparams; i++)
		if (cr_meta_add_param(d, m->param_names[i], m->param_values[i]))
			goto nomem;
	for (i = 0; i < m->ntags; i++)
		if (cr_meta_add_tag(d, m->tag_names[i], m->tag_values[i]))
			goto nomem;
	return 0;
nomem:
	cr_meta_free(d);
	return -ENOMEM;
}

void cr_snapshot_free(struct cr_snapshot *s)
{
	size_t i;

	cr_meta_free(&s->meta);
	for (i = 0; i < s->nruns; i++)
		cr_run_free(&s->runs[i]);
	free(s->runs);
	s->runs = NULL;
	s->nruns = 0;
	for (i = 0; i < s->ninputs; i++) {
		free(s->inputs[i].path);
		cr_meta_free(&s->inputs[i].meta);
		if (s->inputs[i].source)
			s->inputs[i].source->close(s->inputs[i].source);
	}
	free(s->inputs);
	s->inputs = NULL;
	s->ninputs = 0;
	if (s->source)
		s->source->close(s->source);
	s->source = NULL;
}

int cr_run_events_load(const struct cr_snapshot *s, struct cr_run *r)
{
	struct cr_snap_source *src;

	if (!r->events.lazy || r->events.ev || !r->events.n)
		return CR_OK;
	src = s->ninputs && r->input < s->ninputs ?
	      s->inputs[r->input].source : s->source;
	if (!src) {
		fprintf(stderr, "clkstat-report: run %u: its events are not at hand (no source)\n",
			r->index);
		return CR_ERR;	/* a bug, not the file */
	}
	return src->load(src, r);
}

void cr_run_events_drop(struct cr_run *r)
{
	if (!r->events.lazy)
		return;
	free(r->events.ev);
	r->events.ev = NULL;
	r->events.cap = 0;
}

const struct cr_meta *cr_run_meta(const struct cr_snapshot *s,
				  const struct cr_run *r)
{
	if (s->ninputs && r->input < s->ninputs)
		return &s->inputs[r->input].meta;
	return &s->meta;
}

const char *cr_meta_tag(const struct cr_meta *m, const char *key)
{
	size_t i;

	for (i = 0; i < m->ntags; i++)
		if (!strcmp(m->tag_names[i], key))
			return m->tag_values[i];
	return NULL;
}

const char *cr_meta_host(const struct cr_meta *m)
{
	const char *tag = cr_meta_tag(m, "host");

	return tag ? tag : m->host;
}

/* Grow *arr (n elements of size sz) by one zeroed element. */
static void *cr_append(void **arr, size_t *n, size_t sz)
{
	char *p = realloc(*arr, (*n + 1) * sz);

	if (!p)
		return NULL;
	*arr = p;
	memset(p + *n * sz, 0, sz);
	return p + (*n)++ * sz;
}

struct cr_metric *cr_run_add_metric(struct cr_run *r)
{
	struct cr_metric *m;

	m = cr_append((void **)&r->metrics, &r->nmetrics, sizeof(*m));
	if (m) {
		m->total.cpu = CR_CPU_ALL;
		m->total.min = UINT64_MAX;
	}
	return m;
}

struct cr_run *cr_snapshot_add_run(struct cr_snapshot *s)
{
	struct cr_run *r = cr_append((void **)&s->runs, &s->nruns, sizeof(*r));

	if (r) {
		r->index = s->nruns - 1;
		r->exit_status = -1;
		r->workload_only = -1;
	}
	return r;
}

int cr_meta_add_param(struct cr_meta *m, const char *name, const char *value)
{
	char **n, **v;

	n = realloc(m->param_names, (m->nparams + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	m->param_names = n;
	v = realloc(m->param_values, (m->nparams + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	m->param_values = v;
	n[m->nparams] = strdup(name);
	v[m->nparams] = strdup(value);
	if (!n[m->nparams] || !v[m->nparams]) {
		free(n[m->nparams]);
		free(v[m->nparams]);
		return -ENOMEM;
	}
	m->nparams++;
	return 0;
}

/* Add name=value to a tag list, replacing an earlier value of name. */
static int cr_tags_add(size_t *cnt, char ***names, char ***values,
		       const char *name, const char *value)
{
	char **n, **v, *nv;
	size_t i;

	for (i = 0; i < *cnt; i++) {
		if (strcmp((*names)[i], name))
			continue;
		nv = strdup(value);
		if (!nv)
			return -ENOMEM;
		free((*values)[i]);
		(*values)[i] = nv;
		return 0;
	}
	n = realloc(*names, (*cnt + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	*names = n;
	v = realloc(*values, (*cnt + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	*values = v;
	n[*cnt] = strdup(name);
	v[*cnt] = strdup(value);
	if (!n[*cnt] || !v[*cnt]) {
		free(n[*cnt]);
		free(v[*cnt]);
		return -ENOMEM;
	}
	(*cnt)++;
	return 0;
}

int cr_meta_add_tag(struct cr_meta *m, const char *name, const char *value)
{
	return cr_tags_add(&m->ntags, &m->tag_names, &m->tag_values, name,
			   value);
}

int cr_run_add_tag(struct cr_run *r, const char *name, const char *value)
{
	return cr_tags_add(&r->ntags, &r->tag_names, &r->tag_values, name,
			   value);
}

const char *cr_run_tag(const struct cr_run *r, const char *key)
{
	size_t i;

	for (i = 0; i < r->ntags; i++)
		if (!strcmp(r->tag_names[i], key))
			return r->tag_values[i];
	return NULL;
}

int cr_meta_tag_arg(struct cr_meta *m, const char *arg, char *err,
		    size_t errlen)
{
	const char *eq = strchr(arg, '='), *p;
	char key[CR_TAG_KEY_MAX];
	size_t klen;

	if (!eq || eq == arg) {
		snprintf(err, errlen, "--tag '%s': KEY=VALUE", arg);
		return -EINVAL;
	}
	klen = (size_t)(eq - arg);
	if (klen >= sizeof(key)) {
		snprintf(err, errlen, "--tag: the key is longer than %d bytes",
			 CR_TAG_KEY_MAX - 1);
		return -EINVAL;
	}
	for (p = arg; p < eq; p++) {
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_' || *p == '.' ||
		      *p == '-')) {
			snprintf(err, errlen, "--tag '%.*s': a key is letters, digits, '_', '.' and '-'",
				 (int)klen, arg);
			return -EINVAL;
		}
	}
	memcpy(key, arg, klen);
	key[klen] = '\0';
	if (!eq[1] || strlen(eq + 1) >= CR_TAG_VALUE_MAX) {
		snprintf(err, errlen, "--tag %s: the value is empty or longer than %d bytes",
			 key, CR_TAG_VALUE_MAX - 1);
		return -EINVAL;
	}
	for (p = eq + 1; *p; p++) {
		if ((unsigned char)*p < 0x20 || *p == 0x7f) {
			snprintf(err, errlen, "--tag %s: a control character in the value",
				 key);
			return -EINVAL;
		}
	}
	if (cr_meta_tag(m, key)) {
		snprintf(err, errlen, "--tag %s given twice", key);
		return -EINVAL;
	}
	return cr_meta_add_tag(m, key, eq + 1);
}

struct cr_metric *cr_run_find(const struct cr_run *r, const char *name,
			      const char *variant)
{
	size_t i;

	for (i = 0; i < r->nmetrics; i++)
		if (!strcmp(r->metrics[i].name, name) &&
		    !strcmp(r->metrics[i].variant, variant))
			return &r->metrics[i];
	return NULL;
}

/* dst += src, slot by slot (both ascending): a merge of two sorted lists. */
static int cr_hist_add(struct cr_hist *dst, const struct cr_hist *src)
{
	struct cr_slot *out;
	size_t i = 0, j = 0, n = 0;

	if (!src->nslots && src->min == UINT64_MAX)
		return 0;
	out = malloc((dst->nslots + src->nslots + 1) * sizeof(*out));
	if (!out)
		return -ENOMEM;
	while (i < dst->nslots || j < src->nslots) {
		if (j == src->nslots ||
		    (i < dst->nslots && dst->slots[i].slot < src->slots[j].slot)) {
			out[n++] = dst->slots[i++];
		} else if (i == dst->nslots ||
			   src->slots[j].slot < dst->slots[i].slot) {
			out[n++] = src->slots[j++];
		} else {
			out[n] = dst->slots[i++];
			out[n].count += src->slots[j].count;
			out[n++].sum += src->slots[j++].sum;
		}
	}
	free(dst->slots);
	dst->slots = out;
	dst->nslots = n;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	return 0;
}

int cr_metric_add(struct cr_metric *dst, const struct cr_metric *src)
{
	size_t i, j, k;

	if (cr_hist_add(&dst->total, &src->total))
		return -ENOMEM;
	for (i = 0; i < src->ncounters; i++) {
		for (j = 0; j < dst->ncounters; j++)
			if (!strcmp(dst->counters[j].name, src->counters[i].name))
				break;
		if (j == dst->ncounters) {
			if (j == CR_COUNTERS_MAX)
				continue;
			dst->counters[j] = src->counters[i];
			dst->counters[j].value = 0;
			dst->ncounters++;
		}
		dst->counters[j].value += src->counters[i].value;
	}
	dst->recording |= src->recording;
	for (i = 0; i < src->ncpus; i++) {
		const struct cr_hist *sc = &src->cpus[i];
		struct cr_hist *dc;

		for (j = 0; j < dst->ncpus && dst->cpus[j].cpu < sc->cpu; j++)
			;
		if (j == dst->ncpus || dst->cpus[j].cpu != sc->cpu) {
			dc = realloc(dst->cpus, (dst->ncpus + 1) * sizeof(*dc));
			if (!dc)
				return -ENOMEM;
			dst->cpus = dc;
			for (k = dst->ncpus; k > j; k--)
				dc[k] = dc[k - 1];
			dc[j] = (struct cr_hist){ .cpu = sc->cpu,
						  .min = UINT64_MAX };
			dst->ncpus++;
		}
		if (cr_hist_add(&dst->cpus[j], sc))
			return -ENOMEM;
	}
	return 0;
}

int cr_snapshot_pool(const struct cr_snapshot *s, struct cr_run *out)
{
	const struct cr_metric *src;
	struct cr_metric *dst;
	size_t i, j;

	memset(out, 0, sizeof(*out));
	out->exit_status = -1;
	out->workload_only = -1;
	for (i = 0; i < s->nruns; i++) {
		for (j = 0; j < s->runs[i].nmetrics; j++) {
			src = &s->runs[i].metrics[j];
			dst = cr_run_find(out, src->name, src->variant);
			if (!dst) {
				dst = cr_run_add_metric(out);
				if (!dst)
					goto nomem;
				memcpy(dst->name, src->name, sizeof(dst->name));
				memcpy(dst->variant, src->variant,
				       sizeof(dst->variant));
				dst->frac_bits = src->frac_bits;
			} else if (dst->frac_bits != src->frac_bits) {
				fprintf(stderr, "clkstat-report: %s.%s has frac_bits %u in one run and %u in another: the histograms cannot be added\n",
					src->name, src->variant,
					dst->frac_bits, src->frac_bits);
				cr_run_free(out);
				return -EINVAL;
			}
			if (cr_metric_add(dst, src))
				goto nomem;
		}
	}
	if (s->nruns == 1) {
		memcpy(out->variant, s->runs[0].variant, sizeof(out->variant));
		out->start_ns = s->runs[0].start_ns;
		out->end_ns = s->runs[0].end_ns;
		out->exit_status = s->runs[0].exit_status;
	}
	return 0;
nomem:
	cr_run_free(out);
	return -ENOMEM;
}

struct clkstat_slot *cr_hist_dense(const struct cr_hist *h,
				   unsigned int frac_bits)
{
	struct clkstat_slot *d = calloc(CLKSTAT_NSLOTS(frac_bits), sizeof(*d));
	size_t i;

	if (!d)
		return NULL;
	for (i = 0; i < h->nslots; i++) {
		if (h->slots[i].slot >= CLKSTAT_NSLOTS(frac_bits))
			continue;	/* readers validate; never index out */
		d[h->slots[i].slot].count += h->slots[i].count;
		d[h->slots[i].slot].sum += h->slots[i].sum;
	}
	return d;
}

/* All samples of a run, every metric's all-CPU histogram summed. */
uint64_t cr_run_samples(const struct cr_run *r)
{
	uint64_t n = 0;
	size_t i, j;

	for (i = 0; i < r->nmetrics; i++)
		for (j = 0; j < r->metrics[i].total.nslots; j++)
			n += r->metrics[i].total.slots[j].count;
	return n;
}

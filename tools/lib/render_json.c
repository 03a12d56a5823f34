// SPDX-License-Identifier: GPL-2.0
/*
 * render_json.c - the summaries and slots as JSON (json-c), pretty-printed:
 *
 *   {
 *     "source": "netlink",             (null when unknown)
 *     "runs_pooled": 1,
 *     "metrics": [
 *       { "name": "ttwu_enqueue", "variant": "direct", "frac_bits": 3,
 *         "cpu": "all", "count": 300, "min": 1043, "max": 15203,
 *         "p50": 4301, "p90": 9001, "p99": 12288, "p999": 15010,
 *         "mean": 5321.4166666666661, "stddev": 2110.0930000000001,
 *         "counters": { "wakeups": 300, "migrated": 12 },
 *         "buckets": [ { "lower": 1024, "upper": 1151, "count": 12 }, ... ] },
 *       ...
 *
 * One object per metric for all CPUs ("cpu": "all"), followed with
 * --per-cpu by one per CPU that has samples ("cpu": its number, no
 * "counters": the counters are the metric's, kept for all CPUs only).
 * Integers are exact u64 (json_object_new_uint64); ns throughout; mean and
 * stddev are doubles as stats.h computes them.  "buckets" are the
 * non-empty slots in ascending order, lower and upper both inclusive
 * (uapi/clkstat_buckets.h), so a sample v is in the bucket with
 * lower <= v <= upper.  min and max are 0 for an empty histogram, whose
 * "buckets" is [].
 */
#include <json.h>
#include <stdlib.h>
#include "../../kmod/uapi/clkstat_buckets.h"
#include "render_common.h"
#include "stats.h"
#include "status.h"

static struct json_object *cr_json_buckets(const struct cr_hist *h,
					   unsigned int k)
{
	struct json_object *a = json_object_new_array(), *b;
	uint32_t slot;
	size_t i;

	if (!a)
		return NULL;
	for (i = 0; i < h->nslots; i++) {
		slot = h->slots[i].slot;
		if (!h->slots[i].count || slot >= CLKSTAT_NSLOTS(k))
			continue;
		b = json_object_new_object();
		if (cr_jappend(a, b) ||
		    cr_jadd(b, "lower", json_object_new_uint64(
				clkstat_slot_lower(slot, k))) ||
		    cr_jadd(b, "upper", json_object_new_uint64(
				clkstat_slot_upper(slot, k))) ||
		    cr_jadd(b, "count",
			    json_object_new_uint64(h->slots[i].count))) {
			json_object_put(a);
			return NULL;
		}
	}
	return a;
}

static struct json_object *cr_json_hist(const struct cr_metric *m,
					const struct cr_hist *h)
{
	struct json_object *o, *c;
	struct cr_summary s;
	size_t i;

	if (cr_summarize(h, m->frac_bits, &s))
		return NULL;
	o = json_object_new_object();
	if (!o)
		return NULL;
	if (cr_jadd(o, "name", json_object_new_string(m->name)) ||
	    cr_jadd(o, "variant", json_object_new_string(m->variant)) ||
	    cr_jadd(o, "frac_bits", json_object_new_int((int)m->frac_bits)) ||
	    cr_jadd(o, "cpu", h->cpu == CR_CPU_ALL ?
			      json_object_new_string("all") :
			      json_object_new_uint64(h->cpu)) ||
	    cr_jadd(o, "count", json_object_new_uint64(s.count)) ||
	    cr_jadd(o, "min", json_object_new_uint64(s.min)) ||
	    cr_jadd(o, "max", json_object_new_uint64(s.max)) ||
	    cr_jadd(o, "p50", json_object_new_uint64(s.p50)) ||
	    cr_jadd(o, "p90", json_object_new_uint64(s.p90)) ||
	    cr_jadd(o, "p99", json_object_new_uint64(s.p99)) ||
	    cr_jadd(o, "p999", json_object_new_uint64(s.p999)) ||
	    cr_jadd(o, "mean", json_object_new_double(s.mean)) ||
	    cr_jadd(o, "stddev", json_object_new_double(s.stddev)))
		goto err;
	if (h->cpu == CR_CPU_ALL) {
		c = json_object_new_object();
		if (cr_jadd(o, "counters", c))
			goto err;
		for (i = 0; i < m->ncounters; i++)
			if (cr_jadd(c, m->counters[i].name,
				    json_object_new_uint64(m->counters[i].value)))
				goto err;
	}
	if (cr_jadd(o, "buckets", cr_json_buckets(h, m->frac_bits)))
		goto err;
	return o;
err:
	json_object_put(o);
	return NULL;
}

int cr_render_json(FILE *out, const struct cr_run *r,
		   const struct cr_render_opts *o)
{
	struct json_object *root, *metrics;
	const struct cr_metric *m;
	int st = CR_ERR;
	size_t i, c;

	root = json_object_new_object();
	if (!root)
		return CR_ERR;
	if (o->source) {
		if (cr_jadd(root, "source", json_object_new_string(o->source)))
			goto out;
	} else if (json_object_object_add(root, "source", NULL)) {
		goto out;
	}
	metrics = json_object_new_array();
	if (cr_jadd(root, "runs_pooled", json_object_new_uint64(o->nruns)) ||
	    cr_jadd(root, "metrics", metrics))
		goto out;
	for (i = 0; i < r->nmetrics; i++) {
		m = &r->metrics[i];
		if (!cr_render_wanted(m, o))
			continue;
		if (cr_jappend(metrics, cr_json_hist(m, &m->total)))
			goto out;
		for (c = 0; o->per_cpu && c < m->ncpus; c++)
			if (cr_jappend(metrics, cr_json_hist(m, &m->cpus[c])))
				goto out;
	}
	st = cr_json_print(out, root);
out:
	json_object_put(root);
	return st;
}

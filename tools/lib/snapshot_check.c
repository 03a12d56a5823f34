// SPDX-License-Identifier: GPL-2.0
/*
 * snapshot_check.c - the rules a recording is held to (snapshot_check.h),
 * shared by the JSON reader and the study reader, and the list of the
 * metadata's strings (snapshot_parse.h) that readers and writers of both
 * forms go by.
 */
#include <errno.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../kmod/uapi/clkstat_buckets.h"
#include "snapshot_check.h"
#include "snapshot_parse.h"
#include "status.h"

/* The strings of struct cr_meta, in the order they are written. */
const struct cr_meta_field cr_meta_strs[] = {
#define S(f) { #f, offsetof(struct cr_meta, f), 1 }
	S(tool_version), S(module_version), S(kernel_release), S(clocksource),
	S(clock),	/* optional (cr_meta_str_optional()) */
	S(probes), S(variants), S(command), S(machine), S(hypervisor),
	S(cpuidle_driver), S(cpuidle_governor), S(max_cstate), S(cmdline),
	S(conditions),	/* optional (cr_meta_str_optional()) */
	S(host),	/* optional (cr_meta_str_optional()), version 4 */
#undef S
	/* Version 5, study schema 2: with cpufreq_recorded. */
#define S(f) { #f, offsetof(struct cr_meta, f), 2 }
	S(cpufreq_driver), S(cpufreq_governor), S(cpufreq_boost),
#undef S
};
const size_t cr_nmeta_strs = sizeof(cr_meta_strs) / sizeof(cr_meta_strs[0]);

char **cr_meta_str(struct cr_meta *m, size_t i)
{
	return (char **)((char *)m + cr_meta_strs[i].off);
}

int cr_meta_str_cpufreq(size_t i)
{
	return cr_meta_strs[i].off == offsetof(struct cr_meta, cpufreq_driver) ||
	       cr_meta_strs[i].off == offsetof(struct cr_meta, cpufreq_governor) ||
	       cr_meta_strs[i].off == offsetof(struct cr_meta, cpufreq_boost);
}

int cr_meta_str_optional(size_t i)
{
	return cr_meta_strs[i].off == offsetof(struct cr_meta, conditions) ||
	       cr_meta_strs[i].off == offsetof(struct cr_meta, clock) ||
	       cr_meta_strs[i].off == offsetof(struct cr_meta, host) ||
	       cr_meta_str_cpufreq(i);
}

static int cr_bad(char *msg, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int cr_bad(char *msg, size_t n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, n, fmt, ap);
	va_end(ap);
	return CR_CORRUPT;
}

int cr_check_name(const char *s, size_t len, size_t size, char *msg,
		  size_t n)
{
	char buf[64];
	size_t i;

	if (!len)
		return cr_bad(msg, n, "empty name");
	if (len >= size)
		return cr_bad(msg, n, "\"%s\" is %zu bytes long, the limit is %zu",
			      cr_clean(buf, sizeof(buf), s, len), len,
			      size - 1);
	for (i = 0; i < len; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return cr_bad(msg, n, "\"%s\" has a control character",
				      cr_clean(buf, sizeof(buf), s, len));
	return CR_OK;
}

int cr_check_slot(const struct cr_hist *h, unsigned int k, uint64_t slot,
		  uint64_t count, uint64_t sum, uint64_t *total, char *msg,
		  size_t n)
{
	const uint32_t nslots = CLKSTAT_NSLOTS(k);
	unsigned __int128 smin, smax;
	unsigned int shift;
	uint64_t lo, hi;
	char how[32];

	if (slot >= nslots)
		return cr_bad(msg, n, "slot %" PRIu64 " is beyond the last slot, %u, of frac_bits %u",
			      slot, nslots - 1, k);
	if (h->nslots && slot <= h->slots[h->nslots - 1].slot)
		return cr_bad(msg, n, "slot %" PRIu64 " after slot %u: slots must be in strictly ascending order",
			      slot, h->slots[h->nslots - 1].slot);
	if (!count)
		return cr_bad(msg, n, "slot %" PRIu64 " has count 0: only non-empty slots are listed",
			      slot);
	if (count > CR_SNAP_MAX_SAMPLES - *total)
		return cr_bad(msg, n, "slot %" PRIu64 " has count %" PRIu64 ": the histogram would hold more than 2^62 samples",
			      slot, count);
	*total += count;
	lo = clkstat_slot_lower((uint32_t)slot, k);
	hi = clkstat_slot_upper((uint32_t)slot, k);
	shift = clkstat_slot_sum_shift((uint32_t)slot, k);
	smin = (unsigned __int128)count * (lo >> shift);
	smax = (unsigned __int128)count * (hi >> shift);
	if (sum >= smin && sum <= smax)
		return CR_OK;
	if (smin > UINT64_MAX)
		return cr_bad(msg, n, "count %" PRIu64 " in slot %" PRIu64 " ([%" PRIu64 ", %" PRIu64 "] ns) cannot have a 64-bit sum",
			      count, slot, lo, hi);
	how[0] = '\0';
	if (shift)
		snprintf(how, sizeof(how), ", each added >> %u", shift);
	return cr_bad(msg, n, "sum %" PRIu64 " is impossible for count %" PRIu64 " in slot %" PRIu64 " ([%" PRIu64 ", %" PRIu64 "] ns%s): it must be within [%" PRIu64 ", %" PRIu64 "]",
		      sum, count, slot, lo, hi, how, (uint64_t)smin,
		      smax > UINT64_MAX ? UINT64_MAX : (uint64_t)smax);
}

int cr_check_min_max(const struct cr_hist *h, unsigned int k, char *msg,
		     size_t n)
{
	uint64_t lo, hi;
	uint32_t s;

	if (h->min > h->max)
		return cr_bad(msg, n, "min %" PRIu64 " is above max %" PRIu64,
			      h->min, h->max);
	lo = clkstat_slot_lower(h->slots[0].slot, k);
	hi = clkstat_slot_upper(h->slots[0].slot, k);
	if (h->min < lo || h->min > hi)
		return cr_bad(msg, n, "min %" PRIu64 " is not in the first slot, %u ([%" PRIu64 ", %" PRIu64 "])",
			      h->min, h->slots[0].slot, lo, hi);
	s = h->slots[h->nslots - 1].slot;
	lo = clkstat_slot_lower(s, k);
	hi = clkstat_slot_upper(s, k);
	if (h->max < lo || h->max > hi)
		return cr_bad(msg, n, "max %" PRIu64 " is not in the last slot, %u ([%" PRIu64 ", %" PRIu64 "])",
			      h->max, s, lo, hi);
	return CR_OK;
}

int cr_check_total(const struct cr_metric *m, const char **where, char *msg,
		   size_t n)
{
	const uint32_t nslots = CLKSTAT_NSLOTS(m->frac_bits);
	const struct cr_hist *t = &m->total;
	uint64_t *cnt, *sum, mn = UINT64_MAX, mx = 0, tc, ts;
	size_t i, j;
	uint32_t s;
	int st = CR_OK;

	*where = "total";
	if (!m->ncpus)
		return CR_OK;
	cnt = calloc(2 * (size_t)nslots, sizeof(*cnt));
	if (!cnt) {
		snprintf(msg, n, "out of memory");
		return CR_ERR;
	}
	sum = cnt + nslots;
	for (i = 0; i < m->ncpus; i++) {
		const struct cr_hist *h = &m->cpus[i];

		for (j = 0; j < h->nslots; j++) {
			s = h->slots[j].slot;
			if (__builtin_add_overflow(cnt[s], h->slots[j].count,
						   &cnt[s]) ||
			    __builtin_add_overflow(sum[s], h->slots[j].sum,
						   &sum[s])) {
				*where = "cpus";
				st = cr_bad(msg, n, "slot %u: the CPUs' counts or sums add up beyond 64 bits",
					    s);
				goto out;
			}
		}
		mn = h->min < mn ? h->min : mn;
		mx = h->max > mx ? h->max : mx;
	}
	for (i = 0, j = 0; i < nslots; i++) {
		tc = ts = 0;
		if (j < t->nslots && t->slots[j].slot == i) {
			tc = t->slots[j].count;
			ts = t->slots[j++].sum;
		}
		if (tc != cnt[i] || ts != sum[i]) {
			st = cr_bad(msg, n, "slot %zu has count %" PRIu64 " and sum %" PRIu64 ", the CPUs' add up to count %" PRIu64 " and sum %" PRIu64,
				    i, tc, ts, cnt[i], sum[i]);
			goto out;
		}
	}
	if (t->min != mn || t->max != mx)
		st = cr_bad(msg, n, "min %" PRIu64 " and max %" PRIu64 ", the CPUs' are %" PRIu64 " and %" PRIu64,
			    t->min, t->max, mn, mx);
out:
	free(cnt);
	return st;
}

static int cr_cmp_metric(const void *a, const void *b)
{
	const struct cr_metric *x = *(const struct cr_metric *const *)a;
	const struct cr_metric *y = *(const struct cr_metric *const *)b;
	int r = strcmp(x->name, y->name);

	if (!r)
		r = strcmp(x->variant, y->variant);
	if (!r)		/* keep the list order: report the later one */
		r = x < y ? -1 : x > y;
	return r;
}

int cr_check_dup_metric(const struct cr_run *r, size_t *dup, size_t *first)
{
	const struct cr_metric **v;
	size_t i;
	int found = 0;

	if (r->nmetrics < 2)
		return 0;
	v = malloc(r->nmetrics * sizeof(*v));
	if (!v)
		return -1;
	for (i = 0; i < r->nmetrics; i++)
		v[i] = &r->metrics[i];
	qsort(v, r->nmetrics, sizeof(*v), cr_cmp_metric);
	for (i = 1; i < r->nmetrics; i++) {
		if (strcmp(v[i]->name, v[i - 1]->name) ||
		    strcmp(v[i]->variant, v[i - 1]->variant))
			continue;
		*dup = (size_t)(v[i] - r->metrics);
		*first = (size_t)(v[i - 1] - r->metrics);
		found = 1;
		break;
	}
	free(v);
	return found;
}

int cr_check_tag(struct cr_meta *into, const char *key, const char *val,
		 char *msg, size_t n)
{
	char arg[CR_TAG_KEY_MAX + CR_TAG_VALUE_MAX + 1];
	int st;

	if (strlen(key) >= CR_TAG_KEY_MAX || strlen(val) >= CR_TAG_VALUE_MAX)
		return cr_bad(msg, n, "a tag longer than --tag allows");
	/* --tag's own check would take what follows '=' for the value. */
	if (strchr(key, '='))
		return cr_bad(msg, n, "a key is letters, digits, '_', '.' and '-'");
	snprintf(arg, sizeof(arg), "%s=%s", key, val);
	st = cr_meta_tag_arg(into, arg, msg, n);
	if (st == -ENOMEM) {
		snprintf(msg, n, "out of memory");
		return CR_ERR;
	}
	return st ? CR_CORRUPT : CR_OK;
}

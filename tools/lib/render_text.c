// SPDX-License-Identifier: GPL-2.0
/*
 * render_text.c - clkstat-report's table: per metric a summary and a
 * histogram in bpftrace's style.
 *
 *   source: netlink  runs pooled: 1
 *
 *   ttwu_enqueue.direct  (all CPUs)
 *     count 300  min 1.04us  p50 4.30us  p90 9.00us  p99 12.3us  p99.9 15.0us  max 15.2us  mean 5.32us  stddev 2.11us
 *     wakeups 300  migrated 12
 *   [1024, 1152)          12 |@@@@@@@@@@@@@@@@                                    |
 *   ...
 *
 * Units of the summary: the integer values (min, percentiles, max) below
 * 1 us are printed exactly in ns ("999ns"); everything else with three
 * significant digits in the largest of ns, us, ms, s that keeps the number
 * at least 1 ("12.3us", "1.00ms", "4.20s"; nothing above s: "1234s").
 * 0 is "0ns".  The counters are the metric's, all CPUs (the per-CPU
 * blocks have none).  A metric without samples has no summary and no
 * histogram: its all-CPU block is its name, "no samples" and its counters
 * (tkread's reads with no wakeup to pair with, say); with --per-cpu, a
 * CPU without samples has no block.
 *
 * The histogram is bpftrace's hist(): one line per slot from the first
 * non-empty slot to the last, empty ones in between as 0 so that gaps
 * show, "[v]" for a slot of one value and "[lower, upper)" otherwise, the
 * count, and a bar of up to 52 '@' scaled to the largest count (truncated,
 * as bpftrace does).  The bounds are ns, labelled as bpftrace labels its
 * log-linear hist(x, k), which has the very layout of our slots: K, M, G,
 * T, P, E are powers of 1024 (1K = 1024 ns, 1M = 1048576 ns), never 1000.
 * As in bpftrace the suffix follows the slot's width 2^p (1024^(p / 10)),
 * so that a bound is always an exact integer times its suffix: with
 * frac_bits 3, "[4096, 4608)" (width 512) is followed higher up by
 * "[8K, 9K)" = [8192, 9216) and "[4096K, 4608K)" = [4194304, 4718592).
 * The last slot, which ends at 2^64 - 1 inclusive, prints as
 * "[lower, 16E)".  When more than 64 lines would be printed, the slots are
 * merged per power of two, i.e. the lines are those of bpftrace's plain
 * hist(): [0], [1], [2, 4), [4, 8), ..., [1K, 2K), ...
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "../../kmod/uapi/clkstat_buckets.h"
#include "render_common.h"
#include "stats.h"
#include "status.h"

#define CR_HIST_MAX_LINES	64
#define CR_BAR_WIDTH		52

/*
 * The label of a slot's lower bound as bpftrace's hist_index_label() makes
 * it (slot idx of the layout with k fractional bits; idx may be
 * CLKSTAT_NSLOTS(k), whose "lower bound" is 2^64): for a slot of width 2^p,
 * lower / 1024^(p / 10) followed by the suffix of 1024^(p / 10).
 */
static void cr_bound_label(char *buf, size_t len, unsigned int idx,
			   unsigned int k)
{
	unsigned int n = 1U << k, power, decade;

	if (idx < n) {
		snprintf(buf, len, "%u", idx);
		return;
	}
	power = (idx >> k) - 1;
	decade = power / 10;
	power -= 10 * decade;
	snprintf(buf, len, "%" PRIu64 "%.1s",
		 ((uint64_t)1 << power) * (n + (idx & (n - 1))),
		 &"\0KMGTPE"[decade]);
}

/* The histogram of h in bpftrace's style; nothing for an empty one. */
static int cr_text_hist(FILE *out, const struct cr_hist *h, unsigned int k)
{
	unsigned int first = UINT32_MAX, last = 0, kd = k, i, ds, nd;
	char lo[32], hi[32], label[72], bar[CR_BAR_WIDTH + 1];
	uint64_t *cnt, maxc = 0;
	size_t j;

	for (j = 0; j < h->nslots; j++) {
		if (!h->slots[j].count || h->slots[j].slot >= CLKSTAT_NSLOTS(k))
			continue;
		if (h->slots[j].slot < first)
			first = h->slots[j].slot;
		if (h->slots[j].slot > last)
			last = h->slots[j].slot;
	}
	if (first == UINT32_MAX)
		return 0;
	if (last - first + 1 > CR_HIST_MAX_LINES)
		kd = 0;		/* per power of two */
	nd = CLKSTAT_NSLOTS(kd);
	cnt = calloc(nd, sizeof(*cnt));
	if (!cnt)
		return -ENOMEM;
	for (j = 0; j < h->nslots; j++) {
		i = h->slots[j].slot;
		if (i >= CLKSTAT_NSLOTS(k))
			continue;
		ds = kd == k ? i :
		     clkstat_value_to_slot(clkstat_slot_lower(i, k), kd);
		cnt[ds] += h->slots[j].count;
	}
	first = clkstat_value_to_slot(clkstat_slot_lower(first, k), kd);
	last = clkstat_value_to_slot(clkstat_slot_lower(last, k), kd);
	for (i = first; i <= last; i++)
		if (cnt[i] > maxc)
			maxc = cnt[i];
	for (i = first; i <= last; i++) {
		unsigned int w = (unsigned int)((unsigned __int128)cnt[i] *
						CR_BAR_WIDTH / maxc);

		if (i < (2U << kd)) {	/* one value: the exact slots */
			snprintf(label, sizeof(label), "[%" PRIu64 "]",
				 (uint64_t)clkstat_slot_lower(i, kd));
		} else {
			cr_bound_label(lo, sizeof(lo), i, kd);
			cr_bound_label(hi, sizeof(hi), i + 1, kd);
			snprintf(label, sizeof(label), "[%s, %s)", lo, hi);
		}
		memset(bar, '@', w);
		bar[w] = '\0';
		fprintf(out, "%-16s%8" PRIu64 " |%-*s|\n", label, cnt[i],
			CR_BAR_WIDTH, bar);
	}
	free(cnt);
	return 0;
}

static int cr_text_block(FILE *out, const struct cr_metric *m,
			 const struct cr_hist *h,
			 const struct cr_render_opts *o)
{
	char v[9][32];
	struct cr_summary s;
	size_t i;

	if (cr_summarize(h, m->frac_bits, &s))
		return -ENOMEM;
	/*
	 * No sample: no summary of zeros and no histogram, only the fact
	 * and (all CPUs) the counters, which still count; a CPU without
	 * samples has nothing to show.
	 */
	if (!s.count && h->cpu != CR_CPU_ALL)
		return 0;
	fprintf(out, "\n");
	if (h->cpu == CR_CPU_ALL)
		fprintf(out, "%s.%s  (all CPUs)%s\n", m->name, m->variant,
			s.count ? "" : "  no samples");
	else
		fprintf(out, "%s.%s  (CPU %" PRIu32 ")\n", m->name, m->variant,
			h->cpu);
	if (s.count) {
		cr_fmt_ns(v[0], sizeof(v[0]), (double)s.min, 3, 1);
		cr_fmt_ns(v[1], sizeof(v[1]), (double)s.p50, 3, 1);
		cr_fmt_ns(v[2], sizeof(v[2]), (double)s.p90, 3, 1);
		cr_fmt_ns(v[3], sizeof(v[3]), (double)s.p99, 3, 1);
		cr_fmt_ns(v[4], sizeof(v[4]), (double)s.p999, 3, 1);
		cr_fmt_ns(v[5], sizeof(v[5]), (double)s.max, 3, 1);
		cr_fmt_ns(v[6], sizeof(v[6]), s.mean, 3, 0);
		cr_fmt_ns(v[7], sizeof(v[7]), s.stddev, 3, 0);
		fprintf(out, "  count %" PRIu64 "  min %s  p50 %s  p90 %s  p99 %s  p99.9 %s  max %s  mean %s  stddev %s\n",
			s.count, v[0], v[1], v[2], v[3], v[4], v[5], v[6],
			v[7]);
	}
	if (h->cpu == CR_CPU_ALL && m->ncounters) {
		for (i = 0; i < m->ncounters; i++)
			fprintf(out, "  %s %" PRIu64, m->counters[i].name,
				m->counters[i].value);
		fprintf(out, "\n");
	}
	if (s.count && !o->no_hist && cr_text_hist(out, h, m->frac_bits))
		return -ENOMEM;
	return 0;
}

int cr_render_text(FILE *out, const struct cr_run *r,
		   const struct cr_render_opts *o)
{
	const struct cr_metric *m;
	size_t i, c;

	fprintf(out, "source: %s  runs pooled: %u\n",
		o->source ? o->source : "unknown", o->nruns);
	for (i = 0; i < r->nmetrics; i++) {
		m = &r->metrics[i];
		if (!cr_render_wanted(m, o))
			continue;
		if (cr_text_block(out, m, &m->total, o))
			return CR_ERR;
		for (c = 0; o->per_cpu && c < m->ncpus; c++)
			if (cr_text_block(out, m, &m->cpus[c], o))
				return CR_ERR;
	}
	if (fflush(out) || ferror(out))
		return CR_ERR;
	return CR_OK;
}

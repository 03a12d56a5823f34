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
 *   [1.024us, 1.152us)       12 |@@@@@@@@@@@@@@@@                                    |
 *   ...
 *
 * The summary's units (three significant digits, or exact ns below 1 us,
 * or every value in --time-unit's unit), a metric without samples, and
 * the histogram's lines (one per slot from the first non-empty to the
 * last, exact decimal bounds rather than bpftrace's binary K and M, a bar
 * of up to 52 '@', merged per power of two beyond 64 lines):
 * Documentation/clkstat.rst, "The report".
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
 * A bound: three significant digits in the default units, which tell
 * every two bounds of a slot apart up to CLKSTAT_FRAC_BITS_MAX (the
 * relative width of a slot is at least 1/64, three digits resolve 1%:
 * render_test.c checks every slot), else exact.
 */
static void cr_bound(char *buf, size_t len, unsigned __int128 v,
		     enum cr_unit u)
{
	if (u == CR_UNIT_AUTO)
		cr_fmt_sig(buf, len, v, 3);
	else
		cr_fmt_exact(buf, len, v, u);
}

/* Slot i's label (layout kd): "[v]" or "[lower, upper)". */
static void cr_slot_label(char *label, size_t len, unsigned int i,
			  unsigned int kd, enum cr_unit u)
{
	char lo[48], hi[48];

	cr_bound(lo, sizeof(lo), clkstat_slot_lower(i, kd), u);
	if (i < (2U << kd)) {	/* one value: the exact slots */
		snprintf(label, len, "[%s]", lo);
		return;
	}
	cr_bound(hi, sizeof(hi),
		 (unsigned __int128)clkstat_slot_upper(i, kd) + 1, u);
	snprintf(label, len, "[%s, %s)", lo, hi);
}


/* The histogram of h in bpftrace's style; nothing for an empty one. */
static int cr_text_hist(FILE *out, const struct cr_hist *h, unsigned int k,
			enum cr_unit u)
{
	unsigned int first = UINT32_MAX, last = 0, kd = k, i, ds, nd;
	char label[112], bar[CR_BAR_WIDTH + 1];
	uint64_t *cnt, maxc = 0;
	int width = 16;
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
	for (i = first; i <= last; i++) {
		if (cnt[i] > maxc)
			maxc = cnt[i];
		/* one column for the labels, as wide as the widest */
		cr_slot_label(label, sizeof(label), i, kd, u);
		if ((int)strlen(label) + 1 > width)
			width = (int)strlen(label) + 1;
	}
	for (i = first; i <= last; i++) {
		unsigned int w = (unsigned int)((unsigned __int128)cnt[i] *
						CR_BAR_WIDTH / maxc);

		cr_slot_label(label, sizeof(label), i, kd, u);
		memset(bar, '@', w);
		bar[w] = '\0';
		fprintf(out, "%-*s%8" PRIu64 " |%-*s|\n", width, label, cnt[i],
			CR_BAR_WIDTH, bar);
	}
	free(cnt);
	return 0;
}

/* A counter of m by name; 0 when it has none of that name. */
static uint64_t cr_counter(const struct cr_metric *m, const char *name)
{
	unsigned int i;

	for (i = 0; i < m->ncounters; i++)
		if (!strcmp(m->counters[i].name, name))
			return m->counters[i].value;
	return 0;
}

/*
 * What ttwu_tkread's first numbers mislead about, said where they
 * dominate: it ends at the task's first clock read however late that is,
 * and a wakeup whose task wakes again before reading is dropped.
 */
static void cr_text_notes(FILE *out, const struct cr_metric *m,
			  const struct cr_summary *s)
{
	char p99[48], p50[48];
	uint64_t replaced;

	if (strcmp(m->name, "ttwu_tkread"))
		return;
	replaced = cr_counter(m, "replaced");
	if (s->p99 >= 1000000 && s->p99 >= 100 * s->p50) {
		cr_fmt_ns(p99, sizeof(p99), (double)s->p99, 3, 1);
		cr_fmt_ns(p50, sizeof(p50), (double)s->p50, 3, 1);
		fprintf(out, "  note: p99 %s against p50 %s: the tail is tasks that read the clock long after they woke (ttwu_tkread ends at the first read, however late), not slow wakeups: ttwu_enqueue times the wakeup\n",
			p99, p50);
	}
	if (replaced > s->count)
		fprintf(out, "  note: replaced %" PRIu64 " > count %" PRIu64 ": most wakeups' tasks woke again before reading the clock, and such a wakeup is dropped, not timed\n",
			replaced, s->count);
}

static int cr_text_block(FILE *out, const struct cr_metric *m,
			 const struct cr_hist *h,
			 const struct cr_render_opts *o)
{
	char v[8][48];
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
	if (h->cpu == CR_CPU_ALL && !s.count) {
		/* One line: the fact, and what its counters saw. */
		fprintf(out, "%s.%s  (all CPUs)  no samples", m->name,
			m->variant);
		for (i = 0; i < m->ncounters; i++)
			if (m->counters[i].value)
				break;
		if (m->ncounters && i == m->ncounters) {
			fprintf(out, "  (counters all 0)");
		} else {
			for (i = 0; i < m->ncounters; i++)
				fprintf(out, "%s%s %" PRIu64, i ? "  " : ";  ",
					m->counters[i].name,
					m->counters[i].value);
		}
		fprintf(out, "\n");
		return 0;
	}
	if (h->cpu == CR_CPU_ALL)
		fprintf(out, "%s.%s  (all CPUs)\n", m->name, m->variant);
	else
		fprintf(out, "%s.%s  (CPU %" PRIu32 ")\n", m->name, m->variant,
			h->cpu);
	if (s.count) {
		double x[8] = { (double)s.min, (double)s.p50, (double)s.p90,
				(double)s.p99, (double)s.p999, (double)s.max,
				s.mean, s.stddev };

		for (i = 0; i < 8; i++) {
			if (o->unit != CR_UNIT_AUTO)
				cr_fmt_unit(v[i], sizeof(v[i]), x[i], o->unit);
			else
				cr_fmt_ns(v[i], sizeof(v[i]), x[i], 3, i < 6);
		}
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
	if (h->cpu == CR_CPU_ALL && s.count)
		cr_text_notes(out, m, &s);
	if (s.count && !o->no_hist &&
	    cr_text_hist(out, h, m->frac_bits, o->unit))
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

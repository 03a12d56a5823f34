// SPDX-License-Identifier: GPL-2.0
/*
 * evlog.c - the event log: raw events in a per-CPU ring, for lining up
 * what the histograms summarize with what a workload did (markers).
 *
 * Writers (probe handlers, any context, NMI included) take the next index
 * of their CPU's ring with one local64 increment, which nests safely with
 * interrupts on the same CPU, and mark the slot odd while they fill it.  A
 * full ring overwrites its oldest events; the reader reports how many.
 *
 * The reader copies every ring at open(), keeps the slots whose sequence
 * says they were complete and not overwritten during the copy, and prints
 * them merged by timestamp, oldest first.
 *
 * A bare "reset" command empties the log (clkstat_evlog_reset()): each
 * ring's base moves up to its head, and readers skip the events below it.
 */
#include <linux/ctype.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/vmalloc.h>
#include <asm/local64.h>
#include "evlog.h"
#include "reentry.h"

struct clkstat_evring {
	local64_t head;			/* events ever written here */
	atomic64_t base;		/* the head at the last reset */
	struct clkstat_event ev[];
};

static struct clkstat_evring **clkstat_rings;	/* one per possible CPU */
static unsigned int clkstat_ev_entries;		/* per CPU; 0: off */
DEFINE_STATIC_KEY_FALSE(clkstat_evlog_key);
/* Correlation ids are drawn per CPU: no shared cache line on a wakeup. */
static DEFINE_PER_CPU(u64, clkstat_ev_ids);

static const char *const clkstat_ev_names[CLKSTAT_EV_NTYPES] =
	CLKSTAT_EV_NAMES_INIT;

/**
 * clkstat_evlog_init() - allocate the rings
 * @entries: events per CPU, 0 for no log
 *
 * Return: 0, or -ENOMEM.
 */
int clkstat_evlog_init(unsigned int entries)
{
	int cpu;

	if (!entries)
		return 0;
	clkstat_rings = kcalloc(nr_cpu_ids, sizeof(*clkstat_rings),
				GFP_KERNEL);
	if (!clkstat_rings)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		clkstat_rings[cpu] = vzalloc(struct_size(clkstat_rings[cpu],
							 ev, entries));
		if (!clkstat_rings[cpu]) {
			clkstat_evlog_exit();
			return -ENOMEM;
		}
	}
	clkstat_ev_entries = entries;
	static_branch_enable(&clkstat_evlog_key);
	return 0;
}

/**
 * clkstat_evlog_exit() - free the rings; no handler may be running
 */
void clkstat_evlog_exit(void)
{
	int cpu;

	static_branch_disable(&clkstat_evlog_key);
	clkstat_ev_entries = 0;
	if (!clkstat_rings)
		return;
	for_each_possible_cpu(cpu)
		vfree(clkstat_rings[cpu]);
	kfree(clkstat_rings);
	clkstat_rings = NULL;
}

/**
 * clkstat_evlog_entries() - the size of the event log
 *
 * Return: events per CPU (the events= parameter), 0 without a log.
 */
unsigned int clkstat_evlog_entries(void)
{
	return READ_ONCE(clkstat_ev_entries);
}

/**
 * clkstat_evlog_new_id() - a correlation id for a new interval
 *
 * Any context.  The id is the CPU's own count times 4096 plus the CPU
 * number (CPUs past 4095 share low bits, and may repeat an id).
 *
 * Return: a number not returned before since load, never 0.
 */
u64 notrace clkstat_evlog_new_id(void)
{
	u64 id;

	preempt_disable_notrace();
	id = this_cpu_inc_return(clkstat_ev_ids) << 12 |
	     (raw_smp_processor_id() & 0xfff);
	preempt_enable_notrace();
	return id;
}

/**
 * clkstat_evlog_add() - log one event on this CPU
 * @rec: the event; its cpu and text are set here
 * @text: a clocksource name or marker text (truncated), or NULL
 *
 * Any context.  Does nothing without an event log.
 */
void notrace clkstat_evlog_add(const struct clkstat_event_rec *rec,
			       const char *text)
{
	unsigned int n = READ_ONCE(clkstat_ev_entries);
	struct clkstat_evring *r;
	struct clkstat_event *e;
	u64 idx;

	if (!n)
		return;
	preempt_disable_notrace();
	r = clkstat_rings[raw_smp_processor_id()];
	idx = local64_inc_return(&r->head) - 1;
	e = &r->ev[idx % n];
	WRITE_ONCE(e->seq, 2 * idx + 1);
	/* Odd before the fields: pairs with the reader's first smp_rmb(). */
	smp_wmb();
	e->r = *rec;
	e->r.cpu = raw_smp_processor_id();
	if (text) {
		/* A call out: a trace may hook strscpy (reentry.h). */
		unsigned int bit = clkstat_outcall_begin();

		strscpy(e->r.text, text, sizeof(e->r.text));
		clkstat_outcall_end(bit);
	} else
		e->r.text[0] = '\0';
	/* The fields before even: pairs with the reader's second smp_rmb(). */
	smp_wmb();
	WRITE_ONCE(e->seq, 2 * idx + 2);
	preempt_enable_notrace();
}

/**
 * clkstat_evlog_reset() - empty the event log
 *
 * Process context (the control command "reset" without a metric).  Each
 * ring's base becomes its head: readers skip the events below it, and count
 * only the ones overwritten since, so a recording's run sees its own events.
 *
 * No lock against the writers, and none is needed beyond what the log
 * already has: the base only ever moves up, to a head value that the ring
 * really had.  An event claimed before the head is read here is below the
 * base and skipped even if its writer finishes later (it happened before
 * the reset); one claimed after is at or above the base and kept once its
 * sequence says it is complete, exactly as without a reset.  A writer
 * racing the reset on another CPU lands on either side of it, as any event
 * concurrent with a command would.  A reader racing the reset may see some
 * rings' new base and others' old one: the same as its copy of the rings,
 * which is not one instant across CPUs either.  The base is an atomic64_t
 * so that a reader never sees half of it on a 32-bit machine.
 */
void clkstat_evlog_reset(void)
{
	int cpu;

	if (!READ_ONCE(clkstat_ev_entries))
		return;
	for_each_possible_cpu(cpu) {
		struct clkstat_evring *r = clkstat_rings[cpu];

		atomic64_set(&r->base, local64_read(&r->head));
	}
}

static int clkstat_ev_cmp(const void *a, const void *b)
{
	const struct clkstat_event_rec *x = &((const struct clkstat_event *)a)->r;
	const struct clkstat_event_rec *y = &((const struct clkstat_event *)b)->r;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
}

/**
 * clkstat_evlog_type_name() - an event type's name, as the log prints it
 * @type: enum clkstat_event_type
 *
 * Return: the name, or "?" for a type that does not exist.
 */
const char *clkstat_evlog_type_name(unsigned int type)
{
	return type < CLKSTAT_EV_NTYPES ? clkstat_ev_names[type] : "?";
}

/**
 * clkstat_evlog_open() - copy the log for one reader
 * @priv: set to the copy, a struct clkstat_evview, for the seq_file
 *	  operations (or another reader) and clkstat_evlog_release()
 *
 * Return: 0, -ENOENT without an event log, or -ENOMEM.
 */
int clkstat_evlog_open(void **priv)
{
	unsigned int n = clkstat_ev_entries;
	struct clkstat_evview *v;
	struct clkstat_event *copy;
	u64 head, base, first, i;
	int cpu;

	if (!n)
		return -ENOENT;
	v = kvzalloc(struct_size(v, ev, (size_t)n * num_possible_cpus()),
		     GFP_KERNEL);
	copy = kvmalloc_array(n, sizeof(*copy), GFP_KERNEL);
	if (!v || !copy) {
		kvfree(v);
		kvfree(copy);
		return -ENOMEM;
	}
	for_each_possible_cpu(cpu) {
		struct clkstat_evring *r = clkstat_rings[cpu];

		head = local64_read(&r->head);
		/* A reset after the head was read: nothing of it is kept. */
		base = min_t(u64, atomic64_read(&r->base), head);
		/* Slots below head were claimed before this read. */
		smp_rmb();
		memcpy(copy, r->ev, n * sizeof(*copy));
		/*
		 * As a seqcount reader: a slot counts if its seq said complete
		 * before the copy and still says the same after it, so no
		 * writer (which first makes it odd) touched it meanwhile.
		 */
		smp_rmb();
		/* Overwritten: lost since the reset, not before it. */
		first = head > n ? head - n : 0;
		if (first < base)
			first = base;
		else
			v->overwritten += first - base;
		for (i = first; i < head; i++) {
			struct clkstat_event *e = &copy[i % n];

			/* Still being written, or overwritten meanwhile. */
			if (e->seq != 2 * i + 2 ||
			    READ_ONCE(r->ev[i % n].seq) != 2 * i + 2)
				continue;
			v->ev[v->n++] = *e;
		}
	}
	kvfree(copy);
	sort(v->ev, v->n, sizeof(v->ev[0]), clkstat_ev_cmp, NULL);
	*priv = v;
	return 0;
}

/**
 * clkstat_evlog_release() - free a reader's copy
 * @priv: from clkstat_evlog_open()
 */
void clkstat_evlog_release(void *priv)
{
	kvfree(priv);
}

/*
 * The reader's lines, through seq_file one at a time (a log can be far
 * larger than one buffer): position 0 is the header, 1..n the events,
 * n + 1 the trailer.
 */
static void *clkstat_ev_start(struct seq_file *sf, loff_t *pos)
{
	struct clkstat_evview *v = sf->private;

	return *pos <= v->n + 1 ? (void *)(uintptr_t)(*pos + 1) : NULL;
}

static void *clkstat_ev_next(struct seq_file *sf, void *p, loff_t *pos)
{
	++*pos;
	return clkstat_ev_start(sf, pos);
}

static void clkstat_ev_stop(struct seq_file *sf, void *p)
{
}

/*
 * One line per event, oldest first, fields separated by a space, "-" for
 * none: ts_ns type cpu pid corr name latency_ns migrated rq_clock_ns
 * (migrated 1 or 0 when known: exactly one of EVF_MIGRATED and EVF_LOCAL).
 */
static int clkstat_ev_show(struct seq_file *sf, void *p)
{
	struct clkstat_evview *v = sf->private;
	size_t i = (uintptr_t)p - 1;
	const struct clkstat_event_rec *e;
	unsigned int mig;

	if (i == 0) {
		seq_puts(sf, "# ts_ns type cpu pid corr name latency_ns migrated rq_clock_ns\n");
		return 0;
	}
	if (i == v->n + 1) {
		seq_printf(sf, "# events %zu overwritten %llu\n", v->n,
			   v->overwritten);
		return 0;
	}
	e = &v->ev[i - 1].r;
	seq_printf(sf, "%llu %s %u %u ", e->ts,
		   clkstat_evlog_type_name(e->type), e->cpu, e->pid);
	if (e->corr)
		seq_printf(sf, "%llu ", e->corr);
	else
		seq_puts(sf, "- ");
	seq_printf(sf, "%s ", e->text[0] ? e->text : "-");
	if (e->flags & CLKSTAT_EVF_LATENCY)
		seq_printf(sf, "%llu ", e->latency);
	else
		seq_puts(sf, "- ");
	mig = e->flags & (CLKSTAT_EVF_MIGRATED | CLKSTAT_EVF_LOCAL);
	if (mig == CLKSTAT_EVF_MIGRATED)
		seq_puts(sf, "1 ");
	else if (mig == CLKSTAT_EVF_LOCAL)
		seq_puts(sf, "0 ");
	else
		seq_puts(sf, "- ");
	if (e->flags & CLKSTAT_EVF_RQ_CLOCK)
		seq_printf(sf, "%llu\n", e->rq_clock);
	else
		seq_puts(sf, "-\n");
	return 0;
}

const struct seq_operations clkstat_evlog_seq_ops = {
	.start = clkstat_ev_start,
	.next = clkstat_ev_next,
	.stop = clkstat_ev_stop,
	.show = clkstat_ev_show,
};

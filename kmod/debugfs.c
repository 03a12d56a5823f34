// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs.c - /sys/kernel/debug/clkstat/: one read-only file per metric and
 * a control file.  Root only.
 *
 * A metric file shows, for each non-empty slot, one line per CPU that has
 * samples there and one line for all CPUs:
 *
 *   slot 80 CPU 1 lower 4096 count 12 mean 4211 p 0.120000
 *   slot 80 CPU all lower 4096 count 15 mean 4198 p 0.150000
 *
 * (p: the cumulative fraction of that CPU's, or all CPUs', samples up to and
 * including the slot), then one summary line in ns and the counters:
 *
 *   summary count 100 min 1043 mean 5321 p50 4301 p90 9001 p99 ... max ...
 *   counter wakeups 104
 *
 * The file is copied once when it is opened, so that one read shows one
 * consistent state however many read() calls it takes.
 */
#include <linux/capability.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/notifier.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include "clock.h"
#include "control_run.h"
#include "control_lang.h"
#include "debugfs.h"
#include "evlog.h"
#include "hist.h"
#include "probe_marker.h"
#include "probes.h"
#include "reentry.h"

static struct dentry *clkstat_dir;

struct clkstat_view {
	struct clkstat_snapshot snap;
	u64 *cum;	/* [(ncpus + 1) * nslots] cumulative counts */
};

static u64 *clkstat_view_cum(struct clkstat_view *v, unsigned int cpu)
{
	return v->cum + (size_t)cpu * v->snap.meta.nslots;
}

static void clkstat_view_free(struct clkstat_view *v)
{
	if (!v)
		return;
	kvfree(v->cum);
	clkstat_snapshot_free(&v->snap);
	kfree(v);
}

static struct clkstat_view *clkstat_view_take(const struct clkstat_metric *m)
{
	struct clkstat_view *v;
	unsigned int cpu, i;
	u64 *cum, acc;

	v = kzalloc(sizeof(*v), GFP_KERNEL);
	if (!v)
		return NULL;
	clkstat_probes_refresh();
	if (clkstat_snapshot_take(&v->snap, m))
		goto err;
	v->cum = kvmalloc_array(array_size(v->snap.ncpus + 1, m->nslots),
				sizeof(u64), GFP_KERNEL);
	if (!v->cum)
		goto err;
	for (cpu = 0; cpu <= v->snap.ncpus; cpu++) {
		const struct clkstat_cpu_hist *h =
			clkstat_snapshot_cpu(&v->snap, cpu);

		cum = clkstat_view_cum(v, cpu);
		for (i = 0, acc = 0; i < m->nslots; i++) {
			acc += h->slot[i].count;
			cum[i] = acc;
		}
	}
	return v;
err:
	clkstat_view_free(v);
	return NULL;
}

/* Print "p 0.123456": fraction num/den with six decimals, den != 0. */
static void clkstat_print_fraction(struct seq_file *sf, u64 num, u64 den)
{
	u64 millionths = mul_u64_u64_div_u64(num, 1000000, den);

	seq_printf(sf, " p %llu.%06llu\n", millionths / 1000000,
		   millionths % 1000000);
}

static void clkstat_show_slot(struct seq_file *sf, struct clkstat_view *v,
			      unsigned int idx)
{
	const struct clkstat_metric_meta *m = &v->snap.meta;
	unsigned int cpu, last = m->nslots - 1;

	for (cpu = 0; cpu <= v->snap.ncpus; cpu++) {
		const struct clkstat_cpu_hist *h =
			clkstat_snapshot_cpu(&v->snap, cpu);
		u64 *cum = clkstat_view_cum(v, cpu);

		if (!h->slot[idx].count)
			continue;
		seq_printf(sf, "slot %u CPU ", idx);
		if (cpu == v->snap.ncpus)
			seq_puts(sf, "all");
		else
			seq_printf(sf, "%u", cpu);
		seq_printf(sf, " lower %llu count %llu mean %llu",
			   clkstat_slot_lower(idx, m->frac_bits),
			   h->slot[idx].count,
			   clkstat_slot_mean(h->slot, idx, m->frac_bits));
		clkstat_print_fraction(sf, cum[idx], cum[last]);
	}
}

static void clkstat_show_summary(struct seq_file *sf, struct clkstat_view *v)
{
	const struct clkstat_metric_meta *m = &v->snap.meta;
	const struct clkstat_cpu_hist *all =
		clkstat_snapshot_cpu(&v->snap, v->snap.ncpus);
	struct clkstat_summary s;
	unsigned int i;

	clkstat_hist_summarize(all, m->nslots, m->frac_bits, &s);
	seq_printf(sf,
		   "summary count %llu min %llu mean %llu p50 %llu p90 %llu p99 %llu p99.9 %llu max %llu\n",
		   s.count, s.min, s.mean, s.p50, s.p90, s.p99, s.p999, s.max);
	for (i = 0; i < m->ncounters; i++)
		seq_printf(sf, "counter %s %llu\n", m->counter_names[i],
			   all->counter[i]);
}

/*
 * Positions 0..nslots-1 are slots, nslots is the summary.  The iterator is
 * the position plus one, so that position 0 is not NULL.
 */
static void *clkstat_seq_start(struct seq_file *sf, loff_t *pos)
{
	struct clkstat_view *v = sf->private;

	if (*pos > v->snap.meta.nslots)
		return NULL;
	return (void *)(uintptr_t)(*pos + 1);
}

static void *clkstat_seq_next(struct seq_file *sf, void *p, loff_t *pos)
{
	++*pos;
	return clkstat_seq_start(sf, pos);
}

static void clkstat_seq_stop(struct seq_file *sf, void *p)
{
}

static int clkstat_seq_show(struct seq_file *sf, void *p)
{
	struct clkstat_view *v = sf->private;
	const struct clkstat_metric_meta *m = &v->snap.meta;
	unsigned int pos = (uintptr_t)p - 1;

	if (pos == 0)
		seq_printf(sf, "# metric %s variant %s frac_bits %u unit ns recording %s resets %llu\n",
			   m->name, m->variant, m->frac_bits,
			   m->recording ? "on" : "off",
			   v->snap.resets);
	if (pos < m->nslots)
		clkstat_show_slot(sf, v, pos);
	else
		clkstat_show_summary(sf, v);
	return 0;
}

static const struct seq_operations clkstat_metric_seq_ops = {
	.start = clkstat_seq_start,
	.next = clkstat_seq_next,
	.stop = clkstat_seq_stop,
	.show = clkstat_seq_show,
};

static int clkstat_metric_open(struct inode *inode, struct file *file)
{
	struct clkstat_view *v;
	int ret;

	v = clkstat_view_take(inode->i_private);
	if (!v)
		return -ENOMEM;
	ret = seq_open(file, &clkstat_metric_seq_ops);
	if (ret) {
		clkstat_view_free(v);
		return ret;
	}
	((struct seq_file *)file->private_data)->private = v;
	return 0;
}

static int clkstat_metric_release(struct inode *inode, struct file *file)
{
	clkstat_view_free(((struct seq_file *)file->private_data)->private);
	return seq_release(inode, file);
}

static const struct file_operations clkstat_metric_fops = {
	.owner = THIS_MODULE,
	.open = clkstat_metric_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = clkstat_metric_release,
};

static int clkstat_control_show(struct seq_file *sf, void *unused)
{
	struct clkstat_metric *m;

	unsigned long switches;
	const char *variant = clkstat_probes_variant(&switches);

	seq_printf(sf, "variant %s switches %lu\n", variant, switches);
	seq_printf(sf, "tgid %d\n", READ_ONCE(clkstat_filter_tgid));
	/* Handlers that skipped their work: entered from inside clkstat. */
	seq_printf(sf, "reentered %lu\n", clkstat_reentries_total());
	/* Calls the variant itself could not hand to the handlers. */
	clkstat_probes_missed_show(sf);
	clkstat_registry_lock();
	list_for_each_entry(m, clkstat_registry(), node)
		seq_printf(sf, "metric %s variant %s recording %s\n", m->name,
			   m->variant,
			   clkstat_metric_recording(m) ? "on" : "off");
	clkstat_registry_unlock();
	seq_puts(sf, "# commands: start|stop|reset [METRIC], tgid N (0: all tasks), variant NAME, trace SPEC, untrace SPEC\n");
	return 0;
}

/* "traces": the user-defined probes, a line "NUMBER SPEC" each. */
static int clkstat_traces_show(struct seq_file *sf, void *unused)
{
	clkstat_probes_traces_show(sf);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(clkstat_traces);

static int clkstat_control_open(struct inode *inode, struct file *file)
{
	return single_open(file, clkstat_control_show, NULL);
}

/*
 * The last refused write to control and why ("last_error"): write(2)
 * returns only an errno, and the kernel log is not every user's to read.
 * Kept until the next refusal.
 */
static DEFINE_MUTEX(clkstat_last_error_lock);
static char clkstat_last_error[CLKSTAT_CONTROL_MAX * 4 + 256];

static void clkstat_last_error_set(const char *buf, size_t len,
				   const char *why)
{
	/* echo's newline is no part of the command. */
	while (len && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
		len--;
	mutex_lock(&clkstat_last_error_lock);
	scnprintf(clkstat_last_error, sizeof(clkstat_last_error),
		  "%*pE%s: %s\n", (int)len, buf, len ? "" : "(empty)",
		  why ?: "refused");
	mutex_unlock(&clkstat_last_error_lock);
}

static int clkstat_last_error_show(struct seq_file *sf, void *unused)
{
	mutex_lock(&clkstat_last_error_lock);
	seq_puts(sf, clkstat_last_error);
	mutex_unlock(&clkstat_last_error_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(clkstat_last_error);

static ssize_t clkstat_control_write(struct file *file, const char __user *ubuf,
				     size_t len, loff_t *ppos)
{
	struct clkstat_cmd cmd;
	char *buf;
	int ret;

	/* As netlink's CTRL: the file's mode alone lets any root process in. */
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (len > CLKSTAT_CONTROL_MAX) {
		pr_warn_ratelimited("clkstat: control: command of %zu bytes rejected (at most %d)\n",
				    len, CLKSTAT_CONTROL_MAX);
		mutex_lock(&clkstat_last_error_lock);
		scnprintf(clkstat_last_error, sizeof(clkstat_last_error),
			  "(%zu bytes): a command is %d bytes at most\n", len,
			  CLKSTAT_CONTROL_MAX);
		mutex_unlock(&clkstat_last_error_lock);
		return -EINVAL;
	}
	buf = memdup_user_nul(ubuf, len);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	ret = clkstat_control_parse_write(buf, len, &cmd);
	if (!ret)
		ret = clkstat_command(&cmd);
	if (ret) {
		pr_warn_ratelimited("clkstat: control: invalid command \"%*pE\"\n",
				    (int)len, buf);
		clkstat_last_error_set(buf, len, cmd.why);
	}
	kfree(buf);
	return ret ?: len;
}

static const struct file_operations clkstat_control_fops = {
	.owner = THIS_MODULE,
	.open = clkstat_control_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
	.write = clkstat_control_write,
};

static int clkstat_events_open(struct inode *inode, struct file *file)
{
	void *view;
	int ret;

	ret = clkstat_evlog_open(&view);
	if (ret)
		return ret;
	ret = seq_open(file, &clkstat_evlog_seq_ops);
	if (ret) {
		clkstat_evlog_release(view);
		return ret;
	}
	((struct seq_file *)file->private_data)->private = view;
	return 0;
}

static int clkstat_events_release(struct inode *inode, struct file *file)
{
	clkstat_evlog_release(((struct seq_file *)file->private_data)->private);
	return seq_release(inode, file);
}

static const struct file_operations clkstat_events_fops = {
	.owner = THIS_MODULE,
	.open = clkstat_events_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = clkstat_events_release,
};

static ssize_t clkstat_marker_fwrite(struct file *file,
				     const char __user *ubuf, size_t len,
				     loff_t *ppos)
{
	ssize_t ret = clkstat_marker_write(ubuf, len);

	if (ret == -EINVAL)
		pr_warn_ratelimited("clkstat: marker: a write of %zu bytes rejected (1..4096, not empty)\n",
				    len);
	return ret;
}

static const struct file_operations clkstat_marker_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = clkstat_marker_fwrite,
	.llseek = noop_llseek,
};

/* A metric's file, created and removed as the store says (hist.c). */
static int clkstat_debugfs_notify(struct notifier_block *nb,
				  unsigned long event, void *data)
{
	struct clkstat_metric *m = data;

	if (IS_ERR_OR_NULL(clkstat_dir))
		return NOTIFY_DONE;
	if (event == CLKSTAT_METRIC_ADDED)
		debugfs_create_file(m->id, 0400, clkstat_dir, m,
				    &clkstat_metric_fops);
	else if (event == CLKSTAT_METRIC_REMOVED)
		debugfs_lookup_and_remove(m->id, clkstat_dir);
	return NOTIFY_OK;
}

static struct notifier_block clkstat_debugfs_nb = {
	.notifier_call = clkstat_debugfs_notify,
};

/**
 * clkstat_debugfs_init() - create /sys/kernel/debug/clkstat and its files
 *
 * Creates the control file and one file per metric: those registered now
 * and, through the store's notifier, those created later (a variant's
 * metrics appear when the probes are first switched to it).  As the
 * debugfs API intends, a failure here is not fatal: it only leaves files
 * missing (and says so in the kernel log), the probes record all the same.
 */
void clkstat_debugfs_init(void)
{
	struct clkstat_metric *m;

	clkstat_dir = debugfs_create_dir("clkstat", NULL);
	if (IS_ERR(clkstat_dir))
		pr_warn("clkstat: no debugfs directory (%ld); metrics still record\n",
			PTR_ERR(clkstat_dir));
	debugfs_create_file("control", 0600, clkstat_dir, NULL,
			    &clkstat_control_fops);
	debugfs_create_file("traces", 0400, clkstat_dir, NULL,
			    &clkstat_traces_fops);
	debugfs_create_file("last_error", 0400, clkstat_dir, NULL,
			    &clkstat_last_error_fops);
	clkstat_clock_debugfs_init(clkstat_dir);
	if (clkstat_evlog_on())
		debugfs_create_file("events", 0400, clkstat_dir, NULL,
				    &clkstat_events_fops);
	if (clkstat_marker_active())
		debugfs_create_file("marker", 0200, clkstat_dir, NULL,
				    &clkstat_marker_fops);
	clkstat_metric_notifier_register(&clkstat_debugfs_nb);
	if (IS_ERR_OR_NULL(clkstat_dir))
		return;
	clkstat_registry_lock();
	list_for_each_entry(m, clkstat_registry(), node)
		debugfs_create_file(m->id, 0400, clkstat_dir, m,
				    &clkstat_metric_fops);
	clkstat_registry_unlock();
}

/**
 * clkstat_debugfs_exit() - remove the files
 *
 * Returns once no file operation is running; an open file keeps the module
 * pinned until it is closed.
 */
void clkstat_debugfs_exit(void)
{
	clkstat_metric_notifier_unregister(&clkstat_debugfs_nb);
	debugfs_remove_recursive(clkstat_dir);
	clkstat_dir = NULL;
}

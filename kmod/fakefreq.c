// SPDX-License-Identifier: GPL-2.0
/*
 * fakefreq.c - clkstat_fakefreq.ko: a cpufreq driver that changes no
 * frequency, so that the kernel's own governors can be switched for real
 * where there is no cpufreq driver (a TCG guest), for the tests of
 * clkstat-report record --governors (tools/tests/guest/suite_conditions.sh).
 *
 * One policy per CPU, so that CPUs can have different governors; a table
 * of three frequencies and a boost one; .target_index only records the
 * index it is given, per CPU, which debugfs clkstat_fakefreq/index shows
 * ("CPU INDEX" lines), so that a test sees what the governor asked for
 * (performance: the highest, powersave: the lowest); .set_boost only
 * accepts, so that the core makes cpufreq/boost.  No .exit: nothing to
 * free (its return type changed in 6.11, a difference not to carry).
 * A test instrument, built with the bench modules and never installed.
 */
#include <linux/cpufreq.h>
#include <linux/debugfs.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>

/* What a governor may wait between two changes; ondemand needs one. */
#define FAKEFREQ_LATENCY_NS	(100 * NSEC_PER_USEC)

/* kHz, ascending; the last one only with boost on. */
static struct cpufreq_frequency_table fakefreq_table[] = {
	{ .frequency = 800000 },
	{ .frequency = 1600000 },
	{ .frequency = 2400000 },
	{ .flags = CPUFREQ_BOOST_FREQ, .frequency = 3000000 },
	{ .frequency = CPUFREQ_TABLE_END },
};

/* The index .target_index was last given for each CPU (0 at .init). */
static DEFINE_PER_CPU(unsigned int, fakefreq_index);
static struct dentry *fakefreq_dir;

static int fakefreq_init(struct cpufreq_policy *policy)
{
	/* policy->cpus is this CPU alone, as the core set it. */
	policy->freq_table = fakefreq_table;
	policy->cpuinfo.transition_latency = FAKEFREQ_LATENCY_NS;
	WRITE_ONCE(per_cpu(fakefreq_index, policy->cpu), 0);
	policy->cur = fakefreq_table[0].frequency;
	return 0;
}

static int fakefreq_target_index(struct cpufreq_policy *policy,
				 unsigned int index)
{
	WRITE_ONCE(per_cpu(fakefreq_index, policy->cpu), index);
	return 0;
}

static unsigned int fakefreq_get(unsigned int cpu)
{
	return fakefreq_table[READ_ONCE(per_cpu(fakefreq_index, cpu))].frequency;
}

static int fakefreq_set_boost(struct cpufreq_policy *policy, int state)
{
	return 0;
}

static struct cpufreq_driver fakefreq_driver = {
	.name = "clkstat_fake",
	/* No delay loop depends on a frequency that never changes. */
	.flags = CPUFREQ_CONST_LOOPS,
	.init = fakefreq_init,
	.verify = cpufreq_generic_frequency_table_verify,
	.target_index = fakefreq_target_index,
	.get = fakefreq_get,
	.set_boost = fakefreq_set_boost,
};

static int fakefreq_index_show(struct seq_file *m, void *v)
{
	unsigned int cpu;

	for_each_online_cpu(cpu)
		seq_printf(m, "%u %u\n", cpu,
			   READ_ONCE(per_cpu(fakefreq_index, cpu)));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(fakefreq_index);

static int __init fakefreq_mod_init(void)
{
	int ret;

	fakefreq_dir = debugfs_create_dir("clkstat_fakefreq", NULL);
	debugfs_create_file("index", 0444, fakefreq_dir, NULL,
			    &fakefreq_index_fops);
	/* -EEXIST: another driver has the machine; -ENODEV: cpufreq off. */
	ret = cpufreq_register_driver(&fakefreq_driver);
	if (ret)
		debugfs_remove_recursive(fakefreq_dir);
	return ret;
}

static void __exit fakefreq_mod_exit(void)
{
	cpufreq_unregister_driver(&fakefreq_driver);
	debugfs_remove_recursive(fakefreq_dir);
}

module_init(fakefreq_mod_init);
module_exit(fakefreq_mod_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("clkstat test cpufreq driver: governors switchable, no frequency changed");

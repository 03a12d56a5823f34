// SPDX-License-Identifier: GPL-2.0
/*
 * bench_hooks.c - clkstat_hookbench.ko: what each hook variant adds to a
 * call of the function it hooks, driven from userspace through debugfs
 * (clkstat-report overhead), so that the module's variants and BPF's
 * attach types are measured on the same target in the same run.
 *
 * The target is clkstat_bench_target(), a noinline function of this
 * module with a tracepoint inside.  /sys/kernel/debug/clkstat_hookbench/:
 *
 *   attach     none, a variant of clkstat.ko or kretprobe, each with the
 *              same minimal handler (one per-CPU increment)
 *   run        "hot N", "cold N", "record N", "loop N", "inc N",
 *              "clock N", and the handler modes "pair N", "triple N",
 *              "pair0 N", "triple0 N" (bench_handlers.c); reading gives
 *              the last result
 *   targets    the test targets of user-defined probes (bench_targets.c)
 *   btf_proto  a function's calling convention from BTF (btf_func.c)
 *
 * What each file takes and answers, and what each run mode times:
 * Documentation/clkstat-overhead.rst, "The hookbench".
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <asm/msr.h>
#include <asm/tsc.h>
#include "bench_handlers.h"
#include "bench_targets.h"
#include "btf_func.h"
#include "direct_tramp.h"
#include "hist.h"
#include "hook.h"
#include "probes.h"

#define CREATE_TRACE_POINTS
#include "bench_hooks_trace.h"

static unsigned int evict_kb = 8192;
module_param(evict_kb, uint, 0444);
MODULE_PARM_DESC(evict_kb, "buffer streamed through before each cold call, kB (default 8192)");

#define HB_CHUNK	1000		/* hot calls between two reschedule points */
#define HB_MAX_CALLS	100000000U	/* hot and record runs */
#define HB_MAX_COLD	1000000U

static unsigned long bench_sink;
/* Handler runs, to check that each variant really fired on every call. */
static DEFINE_PER_CPU(u64, bench_hits);
static u8 *evict_buf;

noinline __noclone void clkstat_bench_target(unsigned long a0,
					     unsigned long a1,
					     unsigned long a2);

/**
 * clkstat_bench_target() - the function every variant hooks
 * @a0: a value to sum (the call's number), also the tracepoint's argument
 * @a1: a value to sum
 * @a2: a value to sum
 *
 * Not static, so that its name says that it is looked up from outside
 * (kprobes, ftrace and BPF find it in kallsyms and in the module's BTF).
 * The tracepoint inside costs a nop while nothing is attached to it.
 */
noinline __noclone void clkstat_bench_target(unsigned long a0,
					     unsigned long a1,
					     unsigned long a2)
{
	WRITE_ONCE(bench_sink, a0 + a1 + a2);
	trace_clkstat_bench_hit_tp(a0);
}

/* The same work in every variant: count the call. */
static void notrace bench_handler(unsigned long a0, unsigned long a1,
				  unsigned long a2)
{
	this_cpu_inc(bench_hits);
}

/* The direct variant's trampoline: clkstat_bench_target() has 3 arguments. */
CLKSTAT_DIRECT_TRAMP(clkstat_direct_tramp_bench, bench_handler, 3);

static struct clkstat_hook bench_hook = {
	.func = "clkstat_bench_target",
	.handler = bench_handler,
	.direct_tramp = CLKSTAT_DIRECT_TRAMP_ADDR(clkstat_direct_tramp_bench),
	.tp = &__tracepoint_clkstat_bench_hit_tp,
	.tp_owner = THIS_MODULE,
	.tp_handler = bench_handler,
};

static int notrace bench_kret_entry(struct kretprobe_instance *ri,
				    struct pt_regs *regs)
{
	this_cpu_inc(bench_hits);
	return 0;
}

static int notrace bench_kret_ret(struct kretprobe_instance *ri,
				  struct pt_regs *regs)
{
	return 0;
}

static struct kretprobe bench_kretprobe;

/* A kretprobe cannot be registered twice: fill it anew each time. */
static int bench_kretprobe_register(void)
{
	bench_kretprobe = (struct kretprobe){
		.kp.symbol_name = "clkstat_bench_target",
		.entry_handler = bench_kret_entry,
		.handler = bench_kret_ret,
		.maxactive = 4,
	};
	return register_kretprobe(&bench_kretprobe);
}

/* Index 0 is nothing attached; the last one is the kretprobe. */
static const char *const hb_variants[] = {
	"none", CLKSTAT_HOOK_VARIANTS(CLKSTAT_CAT_VARIANT_NAME) "kretprobe",
};

#define HB_NONE		0
#define HB_KRETPROBE	(ARRAY_SIZE(hb_variants) - 1)

struct hb_result {
	const char *mode;	/* hot, cold, record, pair...; NULL: no run yet */
	unsigned int calls;
	u64 ns;			/* the whole loop (hot, record), or the sum */
	u64 hits;
	int cpu;		/* where the first chunk ran */
	bool migrated;
	const char *attached;
	bool handlers;		/* a handler mode: enqueue and tkread below */
	u64 enqueue, tkread;	/* samples of ttwu_enqueue, ttwu_tkread */
};

/* Serializes attach, run and reads of the result. */
static DEFINE_MUTEX(hb_lock);
static unsigned int hb_attached = HB_NONE;
static struct hb_result hb_last;
static struct dentry *hb_dir;

static void hb_detach(void)
{
	const struct clkstat_variant *b;

	if (hb_attached == HB_KRETPROBE) {
		unregister_kretprobe(&bench_kretprobe);
	} else if (hb_attached != HB_NONE) {
		b = clkstat_variant_find(hb_variants[hb_attached]);
		if (b)
			clkstat_hooks_detach(b, &bench_hook, 1);
	}
	hb_attached = HB_NONE;
}

/* Detach what is attached, attach variant @v; on failure none is. */
static int hb_attach(unsigned int v)
{
	const struct clkstat_variant *b;
	int ret;

	if (v == hb_attached)
		return 0;
	hb_detach();
	if (v == HB_NONE)
		return 0;
	if (v == HB_KRETPROBE) {
		ret = bench_kretprobe_register();
	} else {
		b = clkstat_variant_find(hb_variants[v]);
		ret = b ? clkstat_hooks_attach(b, &bench_hook, 1) : -EINVAL;
	}
	if (ret) {
		pr_err("clkstat_hookbench: cannot attach %s: %d\n",
		       hb_variants[v], ret);
		return ret;
	}
	hb_attached = v;
	return 0;
}

static u64 bench_hits_total(void)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu(bench_hits, cpu);
	return sum;
}

/* Note where a chunk ran (called with preemption off). */
static void hb_note_cpu(struct hb_result *r, bool first)
{
	int cpu = smp_processor_id();

	if (first)
		r->cpu = cpu;
	else if (cpu != r->cpu)
		r->migrated = true;
}

static int hb_run_hot(struct hb_result *r, unsigned int n)
{
	unsigned int done, i, chunk;
	u64 t0;

	for (done = 0; done < n; done += chunk) {
		chunk = min(n - done, (unsigned int)HB_CHUNK);
		preempt_disable();
		hb_note_cpu(r, !done);
		t0 = ktime_get_ns();
		for (i = 0; i < chunk; i++)
			clkstat_bench_target(done + i, 1, 2);
		r->ns += ktime_get_ns() - t0;
		preempt_enable();
		cond_resched();
		if (fatal_signal_pending(current))
			return -EINTR;
	}
	return 0;
}

static int hb_run_cold(struct hb_result *r, unsigned int n)
{
	unsigned int i;
	u64 t0, t1;

	if (!tsc_khz) {
		pr_err("clkstat_hookbench: cold calls are timed with the TSC, and tsc_khz is 0\n");
		return -EOPNOTSUPP;
	}
	for (i = 0; i < n; i++) {
		preempt_disable();
		hb_note_cpu(r, !i);
		memset(evict_buf, i, (size_t)evict_kb << 10);
		t0 = rdtsc_ordered();
		clkstat_bench_target(i, 1, 2);
		t1 = rdtsc_ordered();
		preempt_enable();
		r->ns += clkstat_tsc_ns(t1 - t0);
		cond_resched();
		if (fatal_signal_pending(current))
			return -EINTR;
	}
	return 0;
}

/*
 * The bare record: what a probe's handler adds per sample, one slot, as
 * the handlers record (preemption already off: __clkstat_record()).
 */
static int hb_run_record(struct hb_result *r, unsigned int n)
{
	struct clkstat_metric *m;
	unsigned int done, i, chunk;
	int ret = 0;
	u64 t0;

	m = clkstat_metric_create("hookbench_record", "bench", NULL, 0);
	if (IS_ERR(m))
		return PTR_ERR(m);
	clkstat_metric_set_recording(m, true);
	for (done = 0; done < n; done += chunk) {
		chunk = min(n - done, (unsigned int)HB_CHUNK);
		preempt_disable();
		hb_note_cpu(r, !done);
		t0 = ktime_get_ns();
		for (i = 0; i < chunk; i++)
			__clkstat_record(m, 1000 + (i & 7));
		r->ns += ktime_get_ns() - t0;
		preempt_enable();
		cond_resched();
		if (fatal_signal_pending(current)) {
			ret = -EINTR;
			break;
		}
	}
	clkstat_metric_destroy(m);
	return ret;
}

/* "loop" and "inc": the baselines of the hot loop, no call in them. */
static DEFINE_PER_CPU(u64, bench_inc_sink);

static int hb_run_loop(struct hb_result *r, unsigned int n, bool inc)
{
	unsigned int done, i, chunk;
	u64 t0;

	for (done = 0; done < n; done += chunk) {
		chunk = min(n - done, (unsigned int)HB_CHUNK);
		preempt_disable();
		hb_note_cpu(r, !done);
		t0 = ktime_get_ns();
		if (inc)
			for (i = 0; i < chunk; i++)
				this_cpu_inc(bench_inc_sink);
		else
			for (i = 0; i < chunk; i++)
				barrier();
		r->ns += ktime_get_ns() - t0;
		preempt_enable();
		cond_resched();
		if (fatal_signal_pending(current))
			return -EINTR;
	}
	return 0;
}

/* The handler modes (clkstat_bench_handlers()), by name. */
static const char *const hb_handler_modes[] = {
	[CLKSTAT_HBENCH_PAIR] = "pair",
	[CLKSTAT_HBENCH_TRIPLE] = "triple",
	[CLKSTAT_HBENCH_PAIR0] = "pair0",
	[CLKSTAT_HBENCH_TRIPLE0] = "triple0",
};

/*
 * The probes' handlers, run by clkstat.ko: hits are the samples the real
 * metrics got, ttwu_enqueue's for a pair, for a triple the fewer of
 * ttwu_enqueue's and ttwu_tkread's (each run should give each one per
 * call); the baselines run empty handlers and hit nothing.
 */
static int hb_run_handlers(struct hb_result *r, unsigned int mode,
			   unsigned int n)
{
	struct clkstat_hbench_result h;
	int ret;

	ret = clkstat_bench_handlers(mode, n, &h);
	if (ret)
		return ret;
	r->ns = h.ns;
	r->cpu = h.cpu;
	r->migrated = h.migrated;
	r->handlers = true;
	r->enqueue = h.enqueue;
	r->tkread = h.tkread;
	r->hits = mode == CLKSTAT_HBENCH_PAIR0 || mode == CLKSTAT_HBENCH_TRIPLE0 ?
		  0 : mode == CLKSTAT_HBENCH_TRIPLE ? min(h.enqueue, h.tkread) :
		  h.enqueue;
	return 0;
}

/* The probes' clock read (clkstat_now()), back to back. */
static int hb_run_clock(struct hb_result *r, unsigned int n)
{
	unsigned int done, i, chunk;
	u64 t0, sum = 0;

	for (done = 0; done < n; done += chunk) {
		chunk = min(n - done, (unsigned int)HB_CHUNK);
		preempt_disable();
		hb_note_cpu(r, !done);
		t0 = ktime_get_mono_fast_ns();
		for (i = 0; i < chunk; i++)
			sum += clkstat_now();
		r->ns += ktime_get_mono_fast_ns() - t0;
		preempt_enable();
		cond_resched();
		if (fatal_signal_pending(current))
			return -EINTR;
	}
	WRITE_ONCE(bench_sink, sum);
	return 0;
}

/* Copy a short command from userspace, without its trailing newline. */
static int hb_get_cmd(char *buf, size_t size, const char __user *ubuf,
		      size_t len)
{
	if (!len || len >= size)
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	if (buf[len - 1] == '\n')
		buf[len - 1] = '\0';
	return 0;
}

static ssize_t hb_attach_write(struct file *file, const char __user *ubuf,
			       size_t len, loff_t *ppos)
{
	char buf[32];
	unsigned int v;
	int ret;

	ret = hb_get_cmd(buf, sizeof(buf), ubuf, len);
	if (ret)
		return ret;
	for (v = 0; v < ARRAY_SIZE(hb_variants); v++)
		if (!strcmp(buf, hb_variants[v]))
			break;
	if (v == ARRAY_SIZE(hb_variants))
		return -EINVAL;
	mutex_lock(&hb_lock);
	ret = hb_attach(v);
	mutex_unlock(&hb_lock);
	return ret ? ret : len;
}

static ssize_t hb_attach_read(struct file *file, char __user *ubuf,
			      size_t len, loff_t *ppos)
{
	char buf[32];
	int n;

	mutex_lock(&hb_lock);
	n = scnprintf(buf, sizeof(buf), "%s\n", hb_variants[hb_attached]);
	mutex_unlock(&hb_lock);
	return simple_read_from_buffer(ubuf, len, ppos, buf, n);
}

static ssize_t hb_run_write(struct file *file, const char __user *ubuf,
			    size_t len, loff_t *ppos)
{
	struct hb_result r = {};
	char buf[48], mode[8], extra;
	unsigned int n, max, hm;
	u64 hits0;
	int ret;

	ret = hb_get_cmd(buf, sizeof(buf), ubuf, len);
	if (ret)
		return ret;
	if (sscanf(buf, "%7s %u %c", mode, &n, &extra) != 2)
		return -EINVAL;
	if (!strcmp(mode, "hot"))
		r.mode = "hot";
	else if (!strcmp(mode, "cold"))
		r.mode = "cold";
	else if (!strcmp(mode, "record"))
		r.mode = "record";
	else if (!strcmp(mode, "clock"))
		r.mode = "clock";
	else if (!strcmp(mode, "loop"))
		r.mode = "loop";
	else if (!strcmp(mode, "inc"))
		r.mode = "inc";
	for (hm = 0; hm < ARRAY_SIZE(hb_handler_modes); hm++)
		if (!r.mode && !strcmp(mode, hb_handler_modes[hm]))
			break;
	if (hm < ARRAY_SIZE(hb_handler_modes))
		r.mode = hb_handler_modes[hm];
	if (!r.mode)
		return -EINVAL;
	max = !strcmp(r.mode, "cold") ? HB_MAX_COLD : HB_MAX_CALLS;
	if (!n || n > max)
		return -EINVAL;

	mutex_lock(&hb_lock);
	r.calls = n;
	r.attached = hb_variants[hb_attached];
	hits0 = bench_hits_total();
	if (hm < ARRAY_SIZE(hb_handler_modes))
		ret = hb_run_handlers(&r, hm, n);
	else if (r.mode[0] == 'h')
		ret = hb_run_hot(&r, n);
	else if (!strcmp(r.mode, "cold"))
		ret = hb_run_cold(&r, n);
	else if (r.mode[0] == 'c')
		ret = hb_run_clock(&r, n);
	else if (r.mode[0] == 'l' || r.mode[0] == 'i')
		ret = hb_run_loop(&r, n, r.mode[0] == 'i');
	else
		ret = hb_run_record(&r, n);
	if (!r.handlers)
		r.hits = bench_hits_total() - hits0;
	if (!ret)
		hb_last = r;
	mutex_unlock(&hb_lock);
	return ret ? ret : len;
}

static ssize_t hb_run_read(struct file *file, char __user *ubuf, size_t len,
			   loff_t *ppos)
{
	char buf[200];
	int n;

	mutex_lock(&hb_lock);
	if (!hb_last.mode)
		n = scnprintf(buf, sizeof(buf), "mode none\n");
	else
		n = scnprintf(buf, sizeof(buf),
			      "mode %s calls %u ns %llu hits %llu cpu %d migrated %d attached %s",
			      hb_last.mode, hb_last.calls, hb_last.ns,
			      hb_last.hits, hb_last.cpu, hb_last.migrated,
			      hb_last.attached);
	if (hb_last.handlers)
		n += scnprintf(buf + n, sizeof(buf) - n, " enqueue %llu tkread %llu",
			       hb_last.enqueue, hb_last.tkread);
	if (hb_last.mode)
		n += scnprintf(buf + n, sizeof(buf) - n, "\n");
	mutex_unlock(&hb_lock);
	return simple_read_from_buffer(ubuf, len, ppos, buf, n);
}

/* The last btf_proto answer: its function, and the result or error. */
static struct {
	char name[KSYM_NAME_LEN];
	struct clkstat_btf_proto p;
	int err;
} hb_btf;

/* A function's address, resolved the way clkstat does it: by a kprobe. */
static int hb_func_addr(const char *name, unsigned long *addr)
{
	struct kprobe kp = { .symbol_name = name };
	int ret;

	ret = register_kprobe(&kp);
	if (ret)
		return ret;
	*addr = (unsigned long)kp.addr;
	unregister_kprobe(&kp);
	return 0;
}

static ssize_t hb_btf_write(struct file *file, const char __user *ubuf,
			    size_t len, loff_t *ppos)
{
	char buf[KSYM_NAME_LEN];
	unsigned long addr;
	int ret;

	ret = hb_get_cmd(buf, sizeof(buf), ubuf, len);
	if (ret)
		return ret;
	if (!buf[0] || strchr(buf, ' '))
		return -EINVAL;
	mutex_lock(&hb_lock);
	strscpy(hb_btf.name, buf, sizeof(hb_btf.name));
	ret = hb_func_addr(buf, &addr);
	if (!ret)
		ret = clkstat_btf_func_proto(buf, addr, &hb_btf.p);
	hb_btf.err = ret;
	mutex_unlock(&hb_lock);
	return ret ? ret : len;
}

static ssize_t hb_btf_read(struct file *file, char __user *ubuf, size_t len,
			   loff_t *ppos)
{
	char *buf;
	ssize_t ret;
	int n;

	buf = kmalloc(KSYM_NAME_LEN + 128, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	mutex_lock(&hb_lock);
	if (!hb_btf.name[0])
		n = scnprintf(buf, KSYM_NAME_LEN + 128, "name none\n");
	else if (hb_btf.err)
		n = scnprintf(buf, KSYM_NAME_LEN + 128, "name %s error %d\n",
			      hb_btf.name, hb_btf.err);
	else
		n = scnprintf(buf, KSYM_NAME_LEN + 128,
			      "name %s arg_regs %u ret_regs %u stack %d varargs %d nfuncs %u wrappable %d\n",
			      hb_btf.name, hb_btf.p.arg_regs, hb_btf.p.ret_regs,
			      hb_btf.p.stack_args, hb_btf.p.varargs,
			      hb_btf.p.nfuncs, clkstat_btf_wrappable(&hb_btf.p));
	mutex_unlock(&hb_lock);
	ret = simple_read_from_buffer(ubuf, len, ppos, buf, n);
	kfree(buf);
	return ret;
}

static const struct file_operations hb_btf_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = hb_btf_read,
	.write = hb_btf_write,
	.llseek = default_llseek,
};

static const struct file_operations hb_attach_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = hb_attach_read,
	.write = hb_attach_write,
	.llseek = default_llseek,
};

static const struct file_operations hb_run_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = hb_run_read,
	.write = hb_run_write,
	.llseek = default_llseek,
};

static int __init hookbench_init(void)
{
	if (!evict_kb || evict_kb > 262144) {
		pr_err("clkstat_hookbench: evict_kb=%u: must be in 1..262144\n",
		       evict_kb);
		return -EINVAL;
	}
	evict_buf = vmalloc((size_t)evict_kb << 10);
	if (!evict_buf)
		return -ENOMEM;
	hb_dir = debugfs_create_dir("clkstat_hookbench", NULL);
	if (IS_ERR(hb_dir)) {
		vfree(evict_buf);
		return PTR_ERR(hb_dir);
	}
	debugfs_create_file("attach", 0600, hb_dir, NULL, &hb_attach_fops);
	debugfs_create_file("run", 0600, hb_dir, NULL, &hb_run_fops);
	clkstat_hb_targets_init(hb_dir);
	debugfs_create_file("btf_proto", 0600, hb_dir, NULL, &hb_btf_fops);
	return 0;
}

/* The files go first, so that no write can attach after the detach. */
static void __exit hookbench_exit(void)
{
	debugfs_remove_recursive(hb_dir);
	mutex_lock(&hb_lock);
	hb_detach();
	mutex_unlock(&hb_lock);
	vfree(evict_buf);
}

module_init(hookbench_init);
module_exit(hookbench_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("clkstat hook-variant overhead benchmark, driven through debugfs");

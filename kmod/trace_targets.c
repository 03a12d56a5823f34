// SPDX-License-Identifier: GPL-2.0
/*
 * trace_targets.c - the functions a user-defined probe (probe_trace.c)
 * may not hook, though the kernel may let it, and why.
 *
 * Recursion is not a reason here: a handler entered again from inside
 * clkstat is a counted miss (reentry.h), whatever it hooks.  What is left
 * is what the kernel's own tracers refuse too:
 *
 * - functions tracing and probing run on, where a hook would be entered
 *   from inside the hook mechanism itself before any handler can tell:
 *   the BPF verifier's btf_id_deny (migrate_disable, preempt_count_add,
 *   __rcu_read_lock, ...), their debug kernel companions, and the
 *   prefixes of ftrace, kprobes, rethook, fprobe, tracepoints, perf and
 *   BPF trampolines, text patching, printk and the console;
 * - for a return hook, functions that never return: the BPF verifier's
 *   noreturn_deny and objtool's global_noreturns.  bpftrace refuses
 *   kretfunc:do_exit for the same reason.  A return hook there would wait
 *   for ever; fprobe or a kretprobe would never get its return slot back.
 */
#include <linux/string.h>
#include "probe_trace.h"

/* The BPF verifier's btf_id_deny, and what debug kernels add under it. */
static const char *const clkstat_deny_exact[] = {
	"migrate_disable", "migrate_enable", "rcu_read_unlock_strict",
	"preempt_count_add", "preempt_count_sub", "__rcu_read_lock",
	"__rcu_read_unlock", "check_preemption_disabled",
	"debug_smp_processor_id", "__this_cpu_preempt_check",
	"synchronize_rcu_tasks", "usleep_range_state",
};

static const char *const clkstat_deny_prefix[] = {
	"printk", "_printk", "vprintk", "console_", "ftrace", "__ftrace",
	"arch_ftrace", "function_trace", "function_graph", "prepare_ftrace",
	"kprobe", "__kprobe", "arch_kprobe", "kretprobe", "__kretprobe",
	"rethook", "arch_rethook", "fprobe", "__fprobe", "trace_", "__trace",
	"tracing_", "tracepoint", "__traceiter_", "ring_buffer", "perf_",
	"__bpf_prog_", "bpf_trampoline", "text_poke", "int3", "do_int3",
	"exc_int3", "stop_machine", "__x86_", "preempt_schedule",
};

/*
 * Functions that do not return: the BPF verifier's noreturn_deny and
 * objtool's global_noreturns (tools/objtool/noreturns.h), as far as an
 * x86-64 kernel has them.
 */
static const char *const clkstat_noreturn[] = {
	"do_exit", "do_group_exit", "do_task_dead", "make_task_dead",
	"kthread_exit", "kthread_complete_and_exit",
	"__module_put_and_kthread_exit", "__x64_sys_exit",
	"__x64_sys_exit_group", "__ia32_sys_exit", "__ia32_sys_exit_group",
	"rewind_stack_and_make_dead", "panic", "nmi_panic_self_stop",
	"panic_smp_self_stop", "__stack_chk_fail", "fortify_panic",
	"__fortify_panic", "usercopy_abort", "machine_real_restart",
	"stop_this_cpu", "hlt_play_dead", "arch_cpu_idle_dead",
	"cpu_startup_entry", "cpu_bringup_and_idle", "rest_init",
	"start_kernel", "x86_64_start_kernel", "x86_64_start_reservations",
	"ex_handler_msr_mce", "sev_es_terminate", "snp_abort",
	"kunit_try_catch_throw", "__kunit_abort",
	"__ubsan_handle_builtin_unreachable",
};

static bool clkstat_in_list(const char *sym, const char *const *list,
			    unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (!strcmp(sym, list[i]))
			return true;
	return false;
}

/**
 * clkstat_trace_denied() - why a trace may not hook a function
 * @sym: the function's name
 * @ret: whether its return is to be hooked too
 *
 * Return: the reason, a static string, or NULL when it may be hooked.
 */
const char *clkstat_trace_denied(const char *sym, bool ret)
{
	unsigned int i;

	if (clkstat_in_list(sym, clkstat_deny_exact,
			    ARRAY_SIZE(clkstat_deny_exact)))
		return "tracing runs on it (the BPF verifier refuses it too)";
	for (i = 0; i < ARRAY_SIZE(clkstat_deny_prefix); i++)
		if (!strncmp(sym, clkstat_deny_prefix[i],
			     strlen(clkstat_deny_prefix[i])))
			return "printk, tracing and probing run on it: a hook would recurse";
	if (ret && clkstat_in_list(sym, clkstat_noreturn,
				   ARRAY_SIZE(clkstat_noreturn)))
		return "it never returns: its return cannot be timed (use sec: to its callers, or a tracepoint)";
	return NULL;
}

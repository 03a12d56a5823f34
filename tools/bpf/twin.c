// SPDX-License-Identifier: GPL-2.0
/*
 * twin.c - loading, running and reading the BPF twin (twin.h) through its
 * bpftool skeleton.
 *
 * libbpf explains its failures at length on stderr; a user of
 * clkstat-report wants one line saying what is wrong and what to do.  Its
 * messages are therefore kept quiet (shown as they come with
 * CLKSTAT_BPF_DEBUG=1 in the environment) and every failure is reported
 * by one line of ours naming the cause.  Whatever fails, the skeleton is
 * destroyed, which closes every link, program and map the open made.
 *
 * The event log (cfg->events): twin.bpf.c's records go through one BPF ring
 * buffer, submitted without waking anyone; a thread started with the
 * recording reads it every TWIN_EV_POLL_MS, so that a long run does not
 * fill it, and the stop reads what is left.  The events gather in
 * struct cr_twin until cr_twin_read() hands them to the run, sorted.
 *
 * csread and clockoff read local_clock() through one perf cpu-clock event
 * per CPU (twin.bpf.c's twin_local_clock()), opened here and put in the
 * lclock map; they need the kernel's struct bpf_event_entry and
 * hw_perf_event.prev_count, checked in its BTF before loading.
 *
 * Test hook: CLKSTAT_BPF_TARGET_OVERRIDE=func=other[,func2=other2] aims
 * the programs hooking func at other instead (fentry: the attach target
 * set before load; kprobe: the name attached to), so that the tests can
 * check what a missing target function looks like.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <linux/perf_event.h>
#include <sys/syscall.h>
#include "../../kmod/shared/clkstat_wakeup.h"
#include "../lib/status.h"
#include "twin.h"
#include "twin_maps.h"
#include "twin_model.h"
#include "twin_trace.h"
#include "twin.skel.h"

/* Which program runs which probe, in which variant, on which function. */
struct twin_prog {
	const char *prog;	/* the program's name in twin.bpf.c */
	unsigned int probe;	/* TWIN_P_* */
	enum twin_variant variant;
	const char *func;	/* function or tracepoint */
	int retprobe;
};

/* tkread's programs, as twin.bpf.c makes them from CLKSTAT_TK_FUNCS. */
#define TK(idx, fn)							\
	{ "fe_tk_" #fn, TWIN_P_TKREAD, TV_FENTRY, #fn, 0 },		\
	{ "kp_tk_" #fn, TWIN_P_TKREAD, TV_KPROBE, #fn, 0 },

static const struct twin_prog twin_progs[] = {
	{ "fe_ttwu", TWIN_P_TTWU, TV_FENTRY, CLKSTAT_FUNC_TTWU, 0 },
	{ "fe_activate", TWIN_P_TTWU, TV_FENTRY, CLKSTAT_ENQUEUE_FUNC_OLD, 0 },
	{ "kp_ttwu", TWIN_P_TTWU, TV_KPROBE, CLKSTAT_FUNC_TTWU, 0 },
	{ "kp_activate", TWIN_P_TTWU, TV_KPROBE, CLKSTAT_ENQUEUE_FUNC_OLD, 0 },
	{ "tp_waking", TWIN_P_TTWU, TV_TP, CLKSTAT_TP_TTWU, 0 },
	{ "tp_wakeup", TWIN_P_TTWU, TV_TP, CLKSTAT_TP_ENQUEUE, 0 },
	CLKSTAT_TK_FUNCS(TK)
	{ "fe_csw_enter", TWIN_P_CSSWITCH, TV_FENTRY, CLKSTAT_FUNC_CSSWITCH, 0 },
	{ "fe_csw_exit", TWIN_P_CSSWITCH, TV_FENTRY, CLKSTAT_FUNC_CSSWITCH, 1 },
	{ "kp_csw_enter", TWIN_P_CSSWITCH, TV_KPROBE, CLKSTAT_FUNC_CSSWITCH, 0 },
	{ "kp_csw_exit", TWIN_P_CSSWITCH, TV_KPROBE, CLKSTAT_FUNC_CSSWITCH, 1 },
	{ "fe_csr_hpet", TWIN_P_CSREAD, TV_FENTRY, CLKSTAT_FUNC_CSREAD_HPET, 0 },
	{ "fe_csrx_hpet", TWIN_P_CSREAD, TV_FENTRY, CLKSTAT_FUNC_CSREAD_HPET, 1 },
	{ "fe_csr_acpi_pm", TWIN_P_CSREAD, TV_FENTRY, CLKSTAT_FUNC_CSREAD_ACPI_PM, 0 },
	{ "fe_csrx_acpi_pm", TWIN_P_CSREAD, TV_FENTRY, CLKSTAT_FUNC_CSREAD_ACPI_PM, 1 },
	{ "kp_csr_hpet", TWIN_P_CSREAD, TV_KPROBE, CLKSTAT_FUNC_CSREAD_HPET, 0 },
	{ "kp_csrx_hpet", TWIN_P_CSREAD, TV_KPROBE, CLKSTAT_FUNC_CSREAD_HPET, 1 },
	{ "kp_csr_acpi_pm", TWIN_P_CSREAD, TV_KPROBE, CLKSTAT_FUNC_CSREAD_ACPI_PM, 0 },
	{ "kp_csrx_acpi_pm", TWIN_P_CSREAD, TV_KPROBE, CLKSTAT_FUNC_CSREAD_ACPI_PM, 1 },
};

#define TWIN_NPROGS	(sizeof(twin_progs) / sizeof(twin_progs[0]))

/*
 * The marker program, in every variant (fentry on vfs_write(), see
 * twin.bpf.c), with the event log.
 */
#define TWIN_MARKER_PROG	"fe_marker"
#define TWIN_MARKER_FUNC	"vfs_write"

#define TWIN_EV_POLL_MS	50

struct cr_twin {
	struct twin_bpf *skel;
	enum twin_variant variant;
	unsigned int probes;
	unsigned int frac_bits;
	unsigned int ncpus;
	int recording;
	struct bpf_link *links[TWIN_NPROGS];
	/* The kernel's recursion misses of ttwu's programs at start. */
	uint64_t misses0;
	char func[TWIN_NPROGS][64];	/* each program's target */
	int enqueue_task;	/* the enqueue programs hook enqueue_task() */
	long pcpu_hot_pc_off;	/* preempt_count in pcpu_hot (6.2-6.14), or -1 */
	int *clock_fds;		/* csread, clockoff: each CPU's cpu-clock event, -1: none */
	/* The event log (cfg->events != 0), see the top of the file. */
	unsigned int events;
	size_t ring_bytes;
	struct bpf_link *marker_link;
	int follow;		/* cfg->follow */
	struct bpf_link *control_link;
	struct ring_buffer *rb;
	struct cr_events ev;	/* read so far */
	int ev_err;		/* a record twin_event_add() refused */
	pthread_t reader;
	int reader_on;
	int reader_stop;	/* under reader_mu */
	pthread_mutex_t reader_mu;
	pthread_cond_t reader_cv;
	/* The user-defined probes: their specs, their objects (NULL: none). */
	struct twin_traces specs;
	struct twin_trace_set *traces;
};

/*
 * The byte offset of @member in the struct or union of type @id, looking
 * into anonymous members too (pcpu_hot's fields sit in an anonymous
 * struct inside an anonymous union), or -1.
 */
static long twin_member_in(const struct btf *btf, int id, const char *member,
			   int depth)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	const struct btf_member *m;
	long off;
	int i;

	if (!t || depth > 4 || !(btf_is_struct(t) || btf_is_union(t)))
		return -1;
	m = btf_members(t);
	for (i = 0; i < btf_vlen(t); i++, m++) {
		const char *name = btf__name_by_offset(btf, m->name_off);

		if (name && !strcmp(name, member))
			return btf_member_bit_offset(t, i) / 8;
		if (name && *name)
			continue;
		off = twin_member_in(btf, btf__resolve_type(btf, m->type),
				     member, depth + 1);
		if (off >= 0)
			return btf_member_bit_offset(t, i) / 8 + off;
	}
	return -1;
}

/* The byte offset of struct @st's @member in the kernel's BTF, or -1. */
static long twin_member_offset(const struct btf *vmlinux, const char *st,
			       const char *member)
{
	int id = btf__find_by_name_kind(vmlinux, st, BTF_KIND_STRUCT);

	return id < 0 ? -1 : twin_member_in(vmlinux, id, member, 0);
}

static int twin_print(enum libbpf_print_level level, const char *fmt,
		      va_list ap)
{
	static int debug = -1;

	if (debug < 0)
		debug = getenv("CLKSTAT_BPF_DEBUG") ?
			atoi(getenv("CLKSTAT_BPF_DEBUG")) + 1 : 0;
	if (!debug || (level == LIBBPF_DEBUG && debug < 2))
		return 0;
	return vfprintf(stderr, fmt, ap);
}

int cr_twin_is_variant(const char *name)
{
	return twin_variant_parse(name) >= 0;
}

/* The function a program hooks, after CLKSTAT_BPF_TARGET_OVERRIDE. */
static void twin_target(const char *func, char *out, size_t len)
{
	const char *o = getenv("CLKSTAT_BPF_TARGET_OVERRIDE"), *p, *e;
	size_t fl = strlen(func);

	snprintf(out, len, "%s", func);
	for (p = o; p && *p; p = e ? e + 1 : NULL) {
		e = strchr(p, ',');
		if (!strncmp(p, func, fl) && p[fl] == '=') {
			snprintf(out, len, "%.*s", (int)((e ? e : p + strlen(p)) -
							 (p + fl + 1)), p + fl + 1);
			return;
		}
	}
}

static void twin_reader_stop(struct cr_twin *t);

static void twin_destroy(struct cr_twin *t)
{
	size_t i;

	/* Closed while recording: the reader goes before its ring buffer. */
	twin_reader_stop(t);
	twin_traces_close(t->traces);
	for (i = 0; i < TWIN_NPROGS; i++)
		bpf_link__destroy(t->links[i]);
	bpf_link__destroy(t->marker_link);
	bpf_link__destroy(t->control_link);
	for (i = 0; t->clock_fds && i < t->ncpus; i++)
		if (t->clock_fds[i] >= 0)
			close(t->clock_fds[i]);
	free(t->clock_fds);
	ring_buffer__free(t->rb);
	cr_events_free(&t->ev);
	twin_bpf__destroy(t->skel);
	pthread_cond_destroy(&t->reader_cv);
	pthread_mutex_destroy(&t->reader_mu);
	free(t);
}

/* Is every target there, as the kernel's BTF says?  (fentry and tp_btf) */
static int twin_check_targets(struct cr_twin *t, const struct btf *vmlinux)
{
	const char *vn = twin_variant_names[t->variant];
	char tp[96];
	size_t i;

	/* Where twin.bpf.c's in_task_ctx() looks for the preempt count. */
	if (btf__find_by_name_kind(vmlinux, "__preempt_count", BTF_KIND_VAR) < 0 &&
	    t->pcpu_hot_pc_off < 0) {
		fprintf(stderr, "clkstat-report: %s: this kernel has neither __preempt_count nor pcpu_hot.preempt_count (x86's per-CPU preempt count) in its BTF: the twin cannot tell a task's clock reads from an interrupt's\n",
			vn);
		return CR_ERR;
	}
	if ((t->probes & (TWIN_P_CSREAD | TWIN_P_CLOCKOFF)) &&
	    (twin_member_offset(vmlinux, "bpf_event_entry", "event") < 0 ||
	     twin_member_offset(vmlinux, "hw_perf_event", "prev_count") < 0 ||
	     twin_member_offset(vmlinux, "bpf_array", "ptrs") < 0)) {
		fprintf(stderr, "clkstat-report: %s: csread and clockoff read local_clock() from a perf event, through struct bpf_event_entry and hw_perf_event.prev_count, which this kernel's BTF lacks\n",
			vn);
		return CR_ERR;
	}
	for (i = 0; i < TWIN_NPROGS; i++) {
		const struct twin_prog *p = &twin_progs[i];

		if (p->variant != t->variant || !(p->probe & t->probes))
			continue;
		if (p->variant == TV_FENTRY &&
		    btf__find_by_name_kind(vmlinux, t->func[i], BTF_KIND_FUNC) < 0) {
			fprintf(stderr, "clkstat-report: %s: no function %s in the kernel's BTF to attach to\n",
				vn, t->func[i]);
			return CR_ERR;
		}
		snprintf(tp, sizeof(tp), "btf_trace_%s", t->func[i]);
		if (p->variant == TV_TP &&
		    btf__find_by_name_kind(vmlinux, tp, BTF_KIND_TYPEDEF) < 0) {
			fprintf(stderr, "clkstat-report: %s: no tracepoint %s in the kernel\n",
				vn, t->func[i]);
			return CR_ERR;
		}
	}
	return CR_OK;
}

/* Why attaching program i failed, in one line. */
static int twin_attach_error(struct cr_twin *t, size_t i, int err)
{
	const char *vn = twin_variant_names[t->variant];

	if (err == EPERM) {
		fprintf(stderr, "clkstat-report: %s: attaching to %s: permission denied (run as root)\n",
			vn, t->func[i]);
		return CR_PERM;
	}
	if (t->variant == TV_FENTRY && err == EBUSY) {
		fprintf(stderr, "clkstat-report: bpf-fentry: %s already has a direct call (clkstat.ko's direct variant?): use bpf-kprobe or bpf-tp, or switch the module to another variant\n",
			t->func[i]);
		return CR_ERR;
	}
	if (t->variant == TV_KPROBE && (err == ENOENT || err == EINVAL)) {
		fprintf(stderr, "clkstat-report: bpf-kprobe: cannot probe %s: no such function in the kernel (or not probeable)\n",
			t->func[i]);
		return CR_ERR;
	}
	fprintf(stderr, "clkstat-report: %s: cannot attach to %s: %s\n", vn,
		t->func[i], strerror(err));
	return CR_ERR;
}

/* One record from the ring buffer (the reader thread, or the stop). */
static int twin_ev_cb(void *ctx, void *data, size_t size)
{
	struct cr_twin *t = ctx;
	int err = twin_event_add(&t->ev, data, size);

	if (err && !t->ev_err)
		t->ev_err = err;
	return err;
}

/* The reader thread: empty the ring buffer every TWIN_EV_POLL_MS. */
static void *twin_reader(void *arg)
{
	struct cr_twin *t = arg;
	struct timespec until;

	pthread_mutex_lock(&t->reader_mu);
	while (!t->reader_stop) {
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += TWIN_EV_POLL_MS * 1000000L;
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&t->reader_cv, &t->reader_mu, &until);
		if (t->reader_stop)
			break;
		pthread_mutex_unlock(&t->reader_mu);
		ring_buffer__consume(t->rb);
		pthread_mutex_lock(&t->reader_mu);
	}
	pthread_mutex_unlock(&t->reader_mu);
	return NULL;
}

static void twin_reader_stop(struct cr_twin *t)
{
	if (!t->reader_on)
		return;
	pthread_mutex_lock(&t->reader_mu);
	t->reader_stop = 1;
	pthread_cond_signal(&t->reader_cv);
	pthread_mutex_unlock(&t->reader_mu);
	pthread_join(t->reader, NULL);
	t->reader_on = 0;
}

/*
 * csread, clockoff: a counting cpu-clock event on every online CPU into
 * the lclock map (an offline CPU has none; twin_local_clock() then
 * returns 0 there, and nothing is recorded).
 */
static int twin_open_clocks(struct cr_twin *t)
{
	const char *vn = twin_variant_names[t->variant];
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE, .size = sizeof(a),
		.config = PERF_COUNT_SW_CPU_CLOCK, .pinned = 1,
	};
	unsigned int cpu, n = 0;
	int fd, map = bpf_map__fd(t->skel->maps.lclock);

	t->clock_fds = malloc(t->ncpus * sizeof(*t->clock_fds));
	if (!t->clock_fds) {
		fprintf(stderr, "clkstat-report: out of memory\n");
		return CR_ERR;
	}
	for (cpu = 0; cpu < t->ncpus; cpu++)
		t->clock_fds[cpu] = -1;
	for (cpu = 0; cpu < t->ncpus; cpu++) {
		fd = syscall(SYS_perf_event_open, &a, -1, (int)cpu, -1,
			     PERF_FLAG_FD_CLOEXEC);
		if (fd < 0 && errno == ENODEV)
			continue;	/* offline */
		if (fd < 0) {
			fprintf(stderr, "clkstat-report: %s: cannot open a cpu-clock perf event on CPU %u (csread and clockoff read local_clock() through it): %s\n",
				vn, cpu, strerror(errno));
			return errno == EACCES || errno == EPERM ? CR_PERM : CR_ERR;
		}
		t->clock_fds[cpu] = fd;
		if (bpf_map_update_elem(map, &cpu, &fd, BPF_ANY)) {
			fprintf(stderr, "clkstat-report: %s: cannot put CPU %u's cpu-clock event in the lclock map: %s\n",
				vn, cpu, strerror(errno));
			return CR_ERR;
		}
		n++;
	}
	if (!n) {
		fprintf(stderr, "clkstat-report: %s: no online CPU took a cpu-clock perf event\n",
			vn);
		return CR_ERR;
	}
	return CR_OK;
}

static int twin_load_attach(struct cr_twin *t, const struct cr_twin_cfg *cfg)
{
	const char *vn = twin_variant_names[t->variant];
	struct bpf_program *prog;
	size_t i;
	int err;

	t->skel = twin_bpf__open();
	if (!t->skel) {
		fprintf(stderr, "clkstat-report: %s: cannot open the BPF object: %s\n",
			vn, strerror(errno));
		return CR_ERR;
	}
	t->skel->rodata->frac_bits = cfg->frac_bits;
	t->skel->bss->filter_tgid = cfg->tgid;
	t->skel->rodata->tgid_pinned = !!cfg->tgid_pinned;
	t->skel->rodata->ncpus = t->ncpus;
	t->skel->rodata->with_tkread =
		twin_metric_enabled(t->probes, TM_TKW);
	t->skel->rodata->enqueue_task_hooked = t->enqueue_task;
	t->skel->rodata->pcpu_hot_pc_off =
		t->pcpu_hot_pc_off < 0 ? 0 : t->pcpu_hot_pc_off;
	t->skel->rodata->with_events = !!t->events;
	t->skel->rodata->with_csread = !!(t->probes & TWIN_P_CSREAD);
	t->skel->rodata->with_first_read =
		twin_metric_enabled(t->probes, TM_CSW_FIRST_READ);
	t->skel->rodata->with_clockoff = !!(t->probes & TWIN_P_CLOCKOFF);
	/*
	 * The pending hash map serves bpf-kprobe only (the others keep a
	 * task's pending wakeup in task-local storage): one entry elsewhere.
	 */
	if (t->variant != TV_KPROBE &&
	    bpf_map__set_max_entries(t->skel->maps.pend_hash, 1)) {
		fprintf(stderr, "clkstat-report: %s: cannot size the pending map\n",
			vn);
		return CR_ERR;
	}
	if (t->events &&
	    bpf_map__set_max_entries(t->skel->maps.events, t->ring_bytes)) {
		fprintf(stderr, "clkstat-report: %s: cannot size the event ring buffer (%zu bytes)\n",
			vn, t->ring_bytes);
		return CR_ERR;
	}
	prog = bpf_object__find_program_by_name(t->skel->obj, TWIN_MARKER_PROG);
	if (!prog) {
		fprintf(stderr, "clkstat-report: %s: program %s missing from the BPF object (a build problem)\n",
			vn, TWIN_MARKER_PROG);
		return CR_ERR;
	}
	bpf_program__set_autoload(prog, !!t->events);
	/* The module's window (twin_shared.h's TWIN_CONTROL_TP). */
	bpf_program__set_autoload(t->skel->progs.tw_control, t->follow);
	for (i = 0; i < TWIN_NPROGS; i++) {
		const struct twin_prog *p = &twin_progs[i];
		int want = p->variant == t->variant && (p->probe & t->probes);

		prog = bpf_object__find_program_by_name(t->skel->obj, p->prog);
		if (!prog) {
			fprintf(stderr, "clkstat-report: %s: program %s missing from the BPF object (a build problem)\n",
				vn, p->prog);
			return CR_ERR;
		}
		bpf_program__set_autoload(prog, want);
		if (want && p->variant == TV_FENTRY &&
		    strcmp(t->func[i], p->func) &&
		    bpf_program__set_attach_target(prog, 0, t->func[i])) {
			fprintf(stderr, "clkstat-report: %s: cannot aim at %s\n",
				vn, t->func[i]);
			return CR_ERR;
		}
	}
	err = twin_bpf__load(t->skel);
	if (err) {
		/* -EACCES is the verifier's refusal, not a permission. */
		if (err == -EPERM) {
			fprintf(stderr, "clkstat-report: %s: permission denied loading BPF programs (run as root: CAP_BPF and CAP_PERFMON)\n",
				vn);
			return CR_PERM;
		}
		fprintf(stderr, "clkstat-report: %s: the kernel refused the BPF programs: %s (CLKSTAT_BPF_DEBUG=1 shows libbpf's log)\n",
			vn, strerror(-err));
		return CR_ERR;
	}
	if (t->probes & (TWIN_P_CSREAD | TWIN_P_CLOCKOFF)) {
		err = twin_open_clocks(t);
		if (err)
			return err;
	}
	for (i = 0; i < TWIN_NPROGS; i++) {
		const struct twin_prog *p = &twin_progs[i];

		if (p->variant != t->variant || !(p->probe & t->probes))
			continue;
		prog = bpf_object__find_program_by_name(t->skel->obj, p->prog);
		if (p->variant == TV_KPROBE)
			t->links[i] = bpf_program__attach_kprobe(prog,
								 p->retprobe,
								 t->func[i]);
		else
			t->links[i] = bpf_program__attach(prog);
		if (!t->links[i])
			return twin_attach_error(t, i, errno);
	}
	if (t->follow) {
		t->control_link = bpf_program__attach_raw_tracepoint(
			t->skel->progs.tw_control, TWIN_CONTROL_TP);
		if (!t->control_link) {
			err = errno;
			fprintf(stderr, "clkstat-report: %s: cannot follow the module's window (its trace event %s): %s (a clkstat.ko older than this clkstat-report?)\n",
				vn, TWIN_CONTROL_TP, strerror(err));
			return err == EPERM ? CR_PERM : CR_ERR;
		}
	}
	if (!t->events)
		return CR_OK;
	t->marker_link = bpf_program__attach(t->skel->progs.fe_marker);
	if (!t->marker_link) {
		err = errno;
		fprintf(stderr, "clkstat-report: %s: cannot attach to %s for the event log's markers: %s\n",
			vn, TWIN_MARKER_FUNC, strerror(err));
		return err == EPERM ? CR_PERM : CR_ERR;
	}
	t->rb = ring_buffer__new(bpf_map__fd(t->skel->maps.events),
				 twin_ev_cb, t, NULL);
	if (!t->rb) {
		fprintf(stderr, "clkstat-report: %s: cannot map the event ring buffer: %s\n",
			vn, strerror(errno));
		return CR_ERR;
	}
	return CR_OK;
}

int cr_twin_open(const struct cr_twin_cfg *cfg, struct cr_twin **out)
{
	struct cr_twin *t;
	struct btf *vmlinux;
	int v, st, n;
	size_t i;

	*out = NULL;
	libbpf_set_print(twin_print);
	v = twin_variant_parse(cfg->variant);
	if (v < 0) {
		fprintf(stderr, "clkstat-report: '%s' is not a BPF variant (bpf-kprobe, bpf-fentry, bpf-tp)\n",
			cfg->variant ? cfg->variant : "");
		return CR_USAGE;
	}
	if (cfg->frac_bits > CLKSTAT_FRAC_BITS_MAX) {
		fprintf(stderr, "clkstat-report: %s: frac_bits %u: at most %u\n",
			cfg->variant, cfg->frac_bits, CLKSTAT_FRAC_BITS_MAX);
		return CR_USAGE;
	}
	t = calloc(1, sizeof(*t));
	if (!t) {
		fprintf(stderr, "clkstat-report: out of memory\n");
		return CR_ERR;
	}
	t->variant = v;
	t->frac_bits = cfg->frac_bits;
	t->follow = cfg->follow;
	pthread_mutex_init(&t->reader_mu, NULL);
	pthread_cond_init(&t->reader_cv, NULL);
	t->events = cfg->events;
	if (t->events &&
	    twin_ring_size(t->events, sysconf(_SC_PAGESIZE), &t->ring_bytes)) {
		fprintf(stderr, "clkstat-report: %s: events %u: at most %lu (a ring buffer of %lu MiB)\n",
			cfg->variant, cfg->events,
			TWIN_EV_RING_MAX / (sizeof(struct clkstat_event_rec) + 8),
			TWIN_EV_RING_MAX >> 20);
		free(t);
		return CR_USAGE;
	}
	if (twin_probes_parse_traces(v, cfg->probes, &t->probes, &t->specs)) {
		free(t);
		return CR_USAGE;
	}
	n = libbpf_num_possible_cpus();
	if (n <= 0) {
		fprintf(stderr, "clkstat-report: %s: cannot count the possible CPUs\n",
			cfg->variant);
		free(t);
		return CR_ERR;
	}
	t->ncpus = n;
	/* CO-RE, fentry and tp_btf all need the kernel's own BTF. */
	vmlinux = btf__load_vmlinux_btf();
	if (!vmlinux) {
		fprintf(stderr, "clkstat-report: %s: no kernel BTF (/sys/kernel/btf/vmlinux missing or unreadable): the twin needs a kernel built with CONFIG_DEBUG_INFO_BTF\n",
			cfg->variant);
		free(t);
		return CR_ERR;
	}
	/*
	 * Delayed dequeue (6.12 on) shows as sched_entity.sched_delayed: the
	 * enqueue programs are written for ttwu_do_activate() (their SEC
	 * names) and aimed at enqueue_task() there.
	 */
	t->enqueue_task = twin_member_offset(vmlinux, "sched_entity", "sched_delayed") >= 0;
	t->pcpu_hot_pc_off = twin_member_offset(vmlinux, "pcpu_hot", "preempt_count");
	for (i = 0; i < TWIN_NPROGS; i++) {
		const char *f = twin_progs[i].func;

		if (t->enqueue_task && !strcmp(f, CLKSTAT_ENQUEUE_FUNC_OLD))
			f = CLKSTAT_ENQUEUE_FUNC_NEW;
		twin_target(f, t->func[i], sizeof(t->func[i]));
	}
	st = twin_check_targets(t, vmlinux);
	btf__free(vmlinux);
	if (!st)
		st = twin_load_attach(t, cfg);
	if (!st) {
		struct twin_trace_cfg tc = {
			.variant = t->variant, .frac_bits = t->frac_bits,
			.tgid = cfg->tgid, .tgid_pinned = cfg->tgid_pinned,
			.follow = cfg->follow, .ncpus = t->ncpus,
			.events_fd = t->events ? bpf_map__fd(t->skel->maps.events) : -1,
			.ev_lost_fd = bpf_map__fd(t->skel->maps.ev_lost),
		};

		st = twin_traces_open(&tc, &t->specs, &t->traces);
	}
	if (st) {
		twin_destroy(t);
		return st;
	}
	*out = t;
	return CR_OK;
}

/* The kernel's information on program i of twin_progs[]; 0 or -1. */
static int twin_prog_info(struct cr_twin *t, size_t i,
			  struct bpf_prog_info *info)
{
	struct bpf_program *p;
	uint32_t len = sizeof(*info);

	memset(info, 0, sizeof(*info));
	p = bpf_object__find_program_by_name(t->skel->obj, twin_progs[i].prog);
	return p && !bpf_obj_get_info_by_fd(bpf_program__fd(p), info, &len) ?
	       0 : -1;
}

/* The kernel's recursion misses of ttwu's programs (fentry, tp_btf). */
static uint64_t twin_misses(struct cr_twin *t)
{
	struct bpf_prog_info info;
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < TWIN_NPROGS; i++) {
		if (!t->links[i] || twin_progs[i].probe != TWIN_P_TTWU)
			continue;
		if (!twin_prog_info(t, i, &info))
			n += info.recursion_misses;
	}
	return n;
}

/* A ttwu program opens the wakeup or closes it at the enqueue. */
static const char *twin_prog_role(const struct twin_prog *p)
{
	if (p->probe == TWIN_P_TKREAD)
		return "read";
	if (p->probe != TWIN_P_TTWU)
		return "other";
	return !strcmp(p->func, CLKSTAT_FUNC_TTWU) ||
	       !strcmp(p->func, CLKSTAT_TP_TTWU) ? "wakeup" : "enqueue";
}

int cr_twin_prog_stats(struct cr_twin *t, struct cr_twin_prog_stat *out,
		       unsigned int max, unsigned int *n)
{
	struct bpf_prog_info info;
	size_t i;

	*n = 0;
	for (i = 0; i < TWIN_NPROGS && *n < max; i++) {
		if (!t->links[i])
			continue;
		if (twin_prog_info(t, i, &info))
			return CR_ERR;
		out[*n].prog = twin_progs[i].prog;
		out[*n].role = twin_prog_role(&twin_progs[i]);
		snprintf(out[*n].target, sizeof(out[*n].target), "%s",
			 t->func[i]);
		out[*n].runs = info.run_cnt;
		out[*n].run_ns = info.run_time_ns;
		(*n)++;
	}
	return CR_OK;
}

int cr_twin_start(struct cr_twin *t)
{
	size_t sz = TWIN_HIST_STRIDE * t->ncpus;
	void *zero = calloc(1, sz);
	uint32_t k;
	int err = !zero;

	t->skel->bss->recording = 0;
	for (k = 0; !err && k < TM_N; k++)
		err = bpf_map__update_elem(t->skel->maps.hists, &k, sizeof(k),
					   zero, sz, 0);
	free(zero);
	if (!err)
		err = twin_map_clear(t->skel->maps.pend_hash) ||
		      twin_map_clear(t->skel->maps.csr_start);
	if (!err && t->events) {
		/* Nothing from before this run, no losses. */
		twin_reader_stop(t);
		ring_buffer__consume(t->rb);
		cr_events_free(&t->ev);
		t->ev_err = 0;
		err = twin_map_zero_percpu(t->skel->maps.ev_lost,
					   sizeof(uint64_t), t->ncpus);
	}
	if (err) {
		fprintf(stderr, "clkstat-report: %s: cannot reset the maps: %s\n",
			twin_variant_names[t->variant], strerror(errno));
		return CR_ERR;
	}
	if (twin_traces_start(t->traces))
		return CR_ERR;
	t->misses0 = twin_misses(t);
	t->skel->bss->csw_t0 = 0;
	t->skel->bss->csw_pending = 0;
	/* A wakeup pending from before is now of an old epoch. */
	__atomic_add_fetch(&t->skel->bss->epoch, 1, __ATOMIC_SEQ_CST);
	/* Following the module: its start opens the window. */
	if (!t->follow)
		__atomic_store_n(&t->skel->bss->recording, 1, __ATOMIC_SEQ_CST);
	t->recording = 1;
	if (t->events) {
		t->reader_stop = 0;
		errno = pthread_create(&t->reader, NULL, twin_reader, t);
		if (errno) {
			cr_twin_stop(t);
			fprintf(stderr, "clkstat-report: %s: cannot start the event log's reader: %s\n",
				twin_variant_names[t->variant], strerror(errno));
			return CR_ERR;
		}
		t->reader_on = 1;
	}
	return CR_OK;
}

int cr_twin_stop(struct cr_twin *t)
{
	__atomic_store_n(&t->skel->bss->recording, 0, __ATOMIC_SEQ_CST);
	twin_traces_stop(t->traces);
	t->recording = 0;
	if (t->events) {
		twin_reader_stop(t);
		ring_buffer__consume(t->rb);
	}
	return CR_OK;
}

/* The sum over CPUs of a one-entry per-CPU u64 array. */
static int twin_sum_percpu(struct bpf_map *m, unsigned int ncpus,
			   uint64_t *sum)
{
	/* Zeroed: valgrind does not know that bpf(2) fills it. */
	uint64_t *v = calloc(ncpus, sizeof(*v));
	uint32_t k = 0;
	unsigned int i;
	int err;

	if (!v)
		return -1;
	err = bpf_map__lookup_elem(m, &k, sizeof(k), v, ncpus * sizeof(*v), 0);
	for (*sum = 0, i = 0; !err && i < ncpus; i++)
		*sum += v[i];
	free(v);
	return err ? -1 : 0;
}

/* Hand the events read to run (see cr_twin_read()). */
static int twin_read_events(struct cr_twin *t, struct cr_run *run)
{
	const char *vn = twin_variant_names[t->variant];
	struct cr_events *x = &run->events;
	uint64_t lost;

	if (t->ev_err) {
		fprintf(stderr, "clkstat-report: %s: the event ring buffer held a record this clkstat-report cannot read (%s): a twin.bpf.c built against another clkstat_events.h?\n",
			vn, strerror(-t->ev_err));
		return CR_ERR;
	}
	if (twin_sum_percpu(t->skel->maps.ev_lost, t->ncpus, &lost)) {
		fprintf(stderr, "clkstat-report: %s: reading the events lost: %s\n",
			vn, strerror(errno));
		return CR_ERR;
	}
	if (twin_events_sort(&t->ev)) {
		fprintf(stderr, "clkstat-report: %s: out of memory\n", vn);
		return CR_ERR;
	}
	free(x->ev);
	x->ev = t->ev.ev;
	x->n = t->ev.n;
	x->cap = t->ev.cap;
	x->lost += lost;
	x->present = 1;
	t->ev.ev = NULL;
	t->ev.n = t->ev.cap = 0;
	return CR_OK;
}

/* Metric idx's per-CPU values into buf (sz bytes); one line on failure. */
static int twin_read_hist(struct cr_twin *t, uint32_t idx, void *buf,
			  size_t sz)
{
	if (!bpf_map__lookup_elem(t->skel->maps.hists, &idx, sizeof(idx), buf,
				  sz, 0))
		return CR_OK;
	fprintf(stderr, "clkstat-report: %s: reading %s: %s\n",
		twin_variant_names[t->variant], twin_metric_name(idx),
		strerror(errno));
	return CR_ERR;
}

int cr_twin_read(struct cr_twin *t, struct cr_run *run)
{
	const char *vn = twin_variant_names[t->variant];
	size_t sz = TWIN_HIST_STRIDE * t->ncpus;
	/*
	 * Zeroed although every lookup fills it: valgrind does not know that
	 * bpf(2) writes the value, and would flag every use of what it read.
	 */
	void *buf = calloc(1, sz), *pbuf = calloc(1, sz);
	unsigned int part[2], nparts, j;
	struct cr_metric *m;
	uint32_t k;

	if (!buf || !pbuf)
		goto nomem;
	for (k = 0; k < TM_N; k++) {
		if (!twin_metric_enabled(t->probes, k))
			continue;
		if (twin_read_hist(t, k, buf, sz))
			goto err;
		/* A total: its counters, and its parts' samples added up. */
		nparts = twin_metric_parts(k, part) ? 2 : 0;
		for (j = 0; j < nparts; j++) {
			if (twin_read_hist(t, part[j], pbuf, sz))
				goto err;
			twin_hist_add_part(buf, pbuf, t->ncpus);
		}
		m = cr_run_add_metric(run);
		if (!m || twin_fill_metric(m, k, vn, t->frac_bits,
					   t->recording, buf, t->ncpus))
			goto nomem;
		/*
		 * A program the kernel skipped because another of ours was
		 * running on that CPU: a wakeup or enqueue not seen, as the
		 * module's busy entry.
		 */
		if (k == TM_TTWU)
			m->counters[CLKSTAT_TTWU_BUSY].value += twin_misses(t) - t->misses0;
	}
	free(pbuf);
	free(buf);
	if (twin_traces_read(t->traces, run, t->recording))
		return CR_ERR;
	return t->events ? twin_read_events(t, run) : CR_OK;
nomem:
	fprintf(stderr, "clkstat-report: %s: out of memory\n", vn);
err:
	free(pbuf);
	free(buf);
	return CR_ERR;
}

void cr_twin_close(struct cr_twin *t)
{
	if (t)
		twin_destroy(t);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * twin_trace.c - loading, running and reading the BPF twin's user-defined
 * probes (twin_trace.h) through twin_trace.bpf.c's skeleton, one object
 * per spec.
 *
 * Each object's programs are generic: the loader picks those the spec's
 * kind needs in the variant (twin_trace_roles()), aims them (fentry,
 * fexit, tp_btf: the attach target before load, which libbpf finds in the
 * kernel's BTF or a module's; kprobe, kretprobe: the function attached
 * to), and leaves the others unloaded.  Before loading, the targets of
 * fentry and tp_btf are looked up in the kernel's and the modules' BTF,
 * so that a missing one is named in one line (libbpf's own refusal is
 * kept quiet, as twin.c keeps it).
 *
 * The event log is the twin's: each object takes the twin's ring buffer
 * and lost count (bpf_map__reuse_fd()), so trace events arrive with the
 * others, read by twin.c's reader.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "../lib/status.h"
#include "twin_maps.h"
#include "twin_trace.h"
#include "twin_trace.skel.h"

/* A program of a spec: which, on which end, at entry or return. */
struct twin_trace_role {
	const char *prog;
	int on_b;		/* hooks B (else A) */
	int retprobe;		/* kprobe variant: a kretprobe */
};

struct twin_trace_one {
	struct twin_trace_bpf *skel;
	const struct clkstat_trace_spec *spec;
	struct twin_trace_role roles[2];
	unsigned int nroles;
	struct bpf_link *links[2];
	struct bpf_link *control_link;	/* cfg.follow: tt_control */
	uint64_t misses0;	/* the programs' recursion misses at start */
};

struct twin_trace_set {
	struct twin_trace_cfg cfg;
	struct twin_traces specs;
	unsigned int n;		/* objects opened */
	struct twin_trace_one one[CLKSTAT_TRACE_MAX];
};

/* The programs spec needs in variant v (see twin_trace.bpf.c's top). */
static unsigned int twin_trace_roles(enum twin_variant v,
				     const struct clkstat_trace_spec *spec,
				     struct twin_trace_role *r)
{
	static const char *const names[TV_N][6] = {
		/* enter, exit, start, end, end at return, both */
		[TV_KPROBE] = { "kp_enter", "kr_exit", "kp_start", "kp_end",
				"kr_end", "kp_both" },
		[TV_FENTRY] = { "fe_enter", "fx_exit", "fe_start", "fe_end",
				"fx_end", "fe_both" },
		[TV_TP] = { NULL, NULL, "tp_start", "tp_end", NULL, "tp_both" },
	};
	const char *const *n = names[v];

	if (spec->kind == CLKSTAT_TRACE_FUNC) {
		r[0] = (struct twin_trace_role){ n[0], 0, 0 };
		r[1] = (struct twin_trace_role){ n[1], 0, 1 };
		return 2;
	}
	if (!strcmp(spec->a, spec->b)) {
		r[0] = (struct twin_trace_role){ n[5], 0, 0 };
		return 1;
	}
	r[0] = (struct twin_trace_role){ n[2], 0, 0 };
	r[1] = (struct twin_trace_role){ spec->b_exit ? n[4] : n[3], 1,
					 spec->b_exit };
	return 2;
}

/*
 * Is name of kind in the kernel's BTF or a module's?  1, 0, or -1 when no
 * BTF can be read (twin.c has said so already for the kernel's).
 */
static int twin_trace_in_btf(struct btf *vmlinux, const char *name, int kind)
{
	struct dirent *d;
	struct btf *mod;
	DIR *dir;
	int found = 0;

	if (btf__find_by_name_kind(vmlinux, name, kind) >= 0)
		return 1;
	dir = opendir("/sys/kernel/btf");
	if (!dir)
		return -1;
	while (!found && (d = readdir(dir))) {
		if (d->d_name[0] == '.' || !strcmp(d->d_name, "vmlinux"))
			continue;
		mod = btf__load_module_btf(d->d_name, vmlinux);
		if (!mod)
			continue;
		found = btf__find_by_name_kind(mod, name, kind) >= 0;
		btf__free(mod);
	}
	closedir(dir);
	return found;
}

/* fentry and tp_btf: every end in some BTF?  CR_OK or one line. */
static int twin_trace_check_btf(const struct twin_trace_set *s,
				struct btf *vmlinux,
				const struct clkstat_trace_spec *spec)
{
	const char *vn = twin_variant_names[s->cfg.variant];
	const char *ends[2] = { spec->a, spec->b };
	char name[CLKSTAT_NAME_MAX + 16];
	unsigned int i;
	int tp = spec->kind == CLKSTAT_TRACE_TP;

	if (s->cfg.variant == TV_KPROBE)
		return CR_OK;
	for (i = 0; i < 2 && ends[i][0]; i++) {
		snprintf(name, sizeof(name), "%s%s", tp ? "btf_trace_" : "",
			 ends[i]);
		if (twin_trace_in_btf(vmlinux, name, tp ? BTF_KIND_TYPEDEF :
				      BTF_KIND_FUNC) > 0)
			continue;
		if (tp)
			fprintf(stderr, "clkstat-report: %s: probe %s: no tracepoint %s in the kernel's or a module's BTF\n",
				vn, spec->name, ends[i]);
		else
			fprintf(stderr, "clkstat-report: %s: probe %s: no function %s in the kernel's or a module's BTF (fentry needs it: a module built without BTF, an inlined function? bpf-kprobe needs none)\n",
				vn, spec->name, ends[i]);
		return CR_ERR;
	}
	return CR_OK;
}

/* Why attaching a role of o failed, in one line. */
static int twin_trace_attach_error(const struct twin_trace_set *s,
				   const struct twin_trace_one *o,
				   const char *func, int err)
{
	const char *vn = twin_variant_names[s->cfg.variant];

	if (err == EPERM) {
		fprintf(stderr, "clkstat-report: %s: probe %s: attaching to %s: permission denied (run as root)\n",
			vn, o->spec->name, func);
		return CR_PERM;
	}
	if (s->cfg.variant == TV_FENTRY && err == EBUSY) {
		fprintf(stderr, "clkstat-report: bpf-fentry: probe %s: %s already has a direct call (clkstat.ko's direct variant?): use bpf-kprobe\n",
			o->spec->name, func);
		return CR_ERR;
	}
	/* ENOTSUPP (524, kernel-internal): the x86 trampoline's limit. */
	if (s->cfg.variant == TV_FENTRY && err == 524) {
		fprintf(stderr, "clkstat-report: bpf-fentry: probe %s: the kernel's BPF trampoline cannot hook %s (more arguments than it passes: 6 on 6.1): use bpf-kprobe\n",
			o->spec->name, func);
		return CR_ERR;
	}
	if (s->cfg.variant == TV_KPROBE && (err == ENOENT || err == EINVAL)) {
		fprintf(stderr, "clkstat-report: bpf-kprobe: probe %s: cannot probe %s: no such function in the kernel (or not probeable: notrace, inlined, the kprobe blacklist)\n",
			o->spec->name, func);
		return CR_ERR;
	}
	fprintf(stderr, "clkstat-report: %s: probe %s: cannot attach to %s: %s\n",
		vn, o->spec->name, func, strerror(err));
	return CR_ERR;
}

/* Open, aim, load and attach the object of spec i. */
static int twin_trace_open_one(struct twin_trace_set *s, unsigned int i)
{
	const char *vn = twin_variant_names[s->cfg.variant];
	struct twin_trace_one *o = &s->one[i];
	LIBBPF_OPTS(bpf_kprobe_opts, kopts);
	struct bpf_program *prog;
	const char *func;
	unsigned int r, k;
	int err;

	o->spec = &s->specs.spec[i];
	o->nroles = twin_trace_roles(s->cfg.variant, o->spec, o->roles);
	o->skel = twin_trace_bpf__open();
	if (!o->skel) {
		fprintf(stderr, "clkstat-report: %s: probe %s: cannot open the BPF object: %s\n",
			vn, o->spec->name, strerror(errno));
		return CR_ERR;
	}
	o->skel->rodata->frac_bits = s->cfg.frac_bits;
	o->skel->bss->filter_tgid = s->cfg.tgid;
	o->skel->rodata->tgid_pinned = !!s->cfg.tgid_pinned;
	o->skel->rodata->ncpus = s->cfg.ncpus;
	o->skel->rodata->by_cpu = o->spec->percpu;
	o->skel->rodata->with_events = s->cfg.events_fd >= 0;
	o->skel->rodata->trace_id = i + 1;
	for (k = 0; k + 1 < CLKSTAT_EVENT_TEXT && o->spec->name[k]; k++)
		o->skel->rodata->spec_text[k] = o->spec->name[k];
	if (s->cfg.events_fd >= 0 &&
	    (bpf_map__reuse_fd(o->skel->maps.events, s->cfg.events_fd) ||
	     bpf_map__reuse_fd(o->skel->maps.ev_lost, s->cfg.ev_lost_fd))) {
		fprintf(stderr, "clkstat-report: %s: probe %s: cannot share the twin's event ring buffer: %s\n",
			vn, o->spec->name, strerror(errno));
		return CR_ERR;
	}
	bpf_object__for_each_program(prog, o->skel->obj)
		bpf_program__set_autoload(prog, false);
	bpf_program__set_autoload(o->skel->progs.tt_control, s->cfg.follow);
	for (r = 0; r < o->nroles; r++) {
		func = o->roles[r].on_b ? o->spec->b : o->spec->a;
		prog = bpf_object__find_program_by_name(o->skel->obj,
							o->roles[r].prog);
		if (!prog) {
			fprintf(stderr, "clkstat-report: %s: program %s missing from the BPF object (a build problem)\n",
				vn, o->roles[r].prog);
			return CR_ERR;
		}
		bpf_program__set_autoload(prog, true);
		if (s->cfg.variant != TV_KPROBE &&
		    bpf_program__set_attach_target(prog, 0, func)) {
			fprintf(stderr, "clkstat-report: %s: probe %s: cannot aim at %s\n",
				vn, o->spec->name, func);
			return CR_ERR;
		}
	}
	err = twin_trace_bpf__load(o->skel);
	if (err) {
		if (err == -EPERM) {
			fprintf(stderr, "clkstat-report: %s: probe %s: permission denied loading BPF programs (run as root: CAP_BPF and CAP_PERFMON)\n",
				vn, o->spec->name);
			return CR_PERM;
		}
		/*
		 * The target is in BTF (checked): the kernel refused the
		 * attach type there (fexit of a function returning a struct,
		 * a trampoline with more arguments than it takes...).
		 */
		fprintf(stderr, "clkstat-report: %s: probe %s: the kernel refused the BPF programs: %s%s (CLKSTAT_BPF_DEBUG=1 shows libbpf's log)\n",
			vn, o->spec->name, strerror(-err),
			s->cfg.variant == TV_FENTRY && err == -EINVAL ?
			", a function fexit cannot take? (one returning a struct: use bpf-kprobe)" : "");
		return CR_ERR;
	}
	for (r = 0; r < o->nroles; r++) {
		func = o->roles[r].on_b ? o->spec->b : o->spec->a;
		prog = bpf_object__find_program_by_name(o->skel->obj,
							o->roles[r].prog);
		if (s->cfg.variant == TV_KPROBE) {
			kopts.retprobe = o->roles[r].retprobe;
			o->links[r] = bpf_program__attach_kprobe_opts(prog, func,
								      &kopts);
		} else {
			o->links[r] = bpf_program__attach(prog);
		}
		if (!o->links[r])
			return twin_trace_attach_error(s, o, func, errno);
	}
	if (s->cfg.follow) {
		o->control_link = bpf_program__attach_raw_tracepoint(
			o->skel->progs.tt_control, TWIN_CONTROL_TP);
		if (!o->control_link) {
			err = errno;
			fprintf(stderr, "clkstat-report: %s: probe %s: cannot follow the module's window (its trace event %s): %s\n",
				vn, o->spec->name, TWIN_CONTROL_TP, strerror(err));
			return err == EPERM ? CR_PERM : CR_ERR;
		}
	}
	return CR_OK;
}

int twin_traces_open(const struct twin_trace_cfg *cfg,
		     const struct twin_traces *tr, struct twin_trace_set **out)
{
	struct twin_trace_set *s;
	struct btf *vmlinux = NULL;
	unsigned int i;
	int st = CR_OK;

	*out = NULL;
	if (!tr->n)
		return CR_OK;
	s = calloc(1, sizeof(*s));
	if (!s) {
		fprintf(stderr, "clkstat-report: out of memory\n");
		return CR_ERR;
	}
	s->cfg = *cfg;
	s->specs = *tr;
	if (cfg->variant != TV_KPROBE) {
		vmlinux = btf__load_vmlinux_btf();
		if (!vmlinux) {
			fprintf(stderr, "clkstat-report: %s: no kernel BTF (/sys/kernel/btf/vmlinux missing or unreadable)\n",
				twin_variant_names[cfg->variant]);
			st = CR_ERR;
		}
	}
	for (i = 0; !st && vmlinux && i < tr->n; i++)
		st = twin_trace_check_btf(s, vmlinux, &tr->spec[i]);
	btf__free(vmlinux);
	for (i = 0; !st && i < tr->n; i++) {
		s->n = i + 1;
		st = twin_trace_open_one(s, i);
	}
	if (st) {
		twin_traces_close(s);
		return st;
	}
	*out = s;
	return CR_OK;
}

/* The kernel's recursion misses of o's programs (fentry, fexit, tp_btf). */
static uint64_t twin_trace_misses(const struct twin_trace_one *o)
{
	struct bpf_prog_info info;
	struct bpf_program *prog;
	uint64_t n = 0;
	uint32_t len;
	unsigned int r;

	for (r = 0; r < o->nroles; r++) {
		prog = bpf_object__find_program_by_name(o->skel->obj,
							o->roles[r].prog);
		memset(&info, 0, sizeof(info));
		len = sizeof(info);
		if (prog && !bpf_obj_get_info_by_fd(bpf_program__fd(prog),
						    &info, &len))
			n += info.recursion_misses;
	}
	return n;
}

int twin_traces_start(struct twin_trace_set *s)
{
	struct twin_trace_one *o;
	unsigned int i;

	if (!s)
		return CR_OK;
	for (i = 0; i < s->n; i++) {
		o = &s->one[i];
		o->skel->bss->recording = 0;
		if (twin_map_zero_percpu(o->skel->maps.hist, sizeof(twin_hist_t),
				    s->cfg.ncpus) ||
		    twin_map_zero_percpu(o->skel->maps.cpu_start,
				    bpf_map__value_size(o->skel->maps.cpu_start),
				    s->cfg.ncpus) ||
		    twin_map_clear(o->skel->maps.pending) ||
		    twin_map_clear(o->skel->maps.stacks)) {
			fprintf(stderr, "clkstat-report: %s: probe %s: cannot reset the maps: %s\n",
				twin_variant_names[s->cfg.variant],
				o->spec->name, strerror(errno));
			return CR_ERR;
		}
		o->misses0 = twin_trace_misses(o);
	}
	for (i = 0; i < s->n; i++) {
		o = &s->one[i];
		/* What is pending from before is now of an old epoch. */
		__atomic_add_fetch(&o->skel->bss->epoch, 1, __ATOMIC_SEQ_CST);
		/* Following the module: its start opens the window. */
		if (!s->cfg.follow)
			__atomic_store_n(&o->skel->bss->recording, 1,
					 __ATOMIC_SEQ_CST);
	}
	return CR_OK;
}

void twin_traces_stop(struct twin_trace_set *s)
{
	unsigned int i;

	for (i = 0; s && i < s->n; i++)
		__atomic_store_n(&s->one[i].skel->bss->recording, 0,
				 __ATOMIC_SEQ_CST);
}

int twin_traces_read(struct twin_trace_set *s, struct cr_run *run,
		     int recording)
{
	const char *vn;
	struct cr_metric *m;
	size_t sz;
	uint32_t k = 0;
	unsigned int i;
	void *buf;

	if (!s)
		return CR_OK;
	vn = twin_variant_names[s->cfg.variant];
	sz = TWIN_HIST_STRIDE * s->cfg.ncpus;
	/* Zeroed: valgrind does not know that bpf(2) fills it. */
	buf = calloc(1, sz);
	if (!buf)
		goto nomem;
	for (i = 0; i < s->n; i++) {
		struct twin_trace_one *o = &s->one[i];

		if (bpf_map__lookup_elem(o->skel->maps.hist, &k, sizeof(k),
					 buf, sz, 0)) {
			fprintf(stderr, "clkstat-report: %s: reading %s: %s\n",
				vn, o->spec->name, strerror(errno));
			free(buf);
			return CR_ERR;
		}
		m = cr_run_add_metric(run);
		if (!m || twin_fill_trace_metric(m, o->spec->name, vn,
						 s->cfg.frac_bits, recording,
						 buf, s->cfg.ncpus))
			goto nomem;
		/* A program the kernel skipped: a call or an end not seen. */
		m->counters[CLKSTAT_TRC_MISSED].value +=
			twin_trace_misses(o) - o->misses0;
	}
	free(buf);
	return CR_OK;
nomem:
	free(buf);
	fprintf(stderr, "clkstat-report: %s: out of memory\n", vn);
	return CR_ERR;
}

void twin_traces_close(struct twin_trace_set *s)
{
	unsigned int i, r;

	if (!s)
		return;
	for (i = 0; i < s->n; i++) {
		for (r = 0; r < 2; r++)
			bpf_link__destroy(s->one[i].links[r]);
		bpf_link__destroy(s->one[i].control_link);
		twin_trace_bpf__destroy(s->one[i].skel);
	}
	free(s);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * overhead_bpf.c - the BPF side of clkstat-report overhead: every
 * attach type's program on clkstat_hookbench.ko's target (and a uprobe on
 * an empty function of this program), loaded once through the bpftool
 * skeleton of tools/bench/overhead.bpf.c and attached one at a time.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "../../kmod/uapi/clkstat_catalog.h"
#include "overhead.h"
#include "overhead.skel.h"
#include "../lib/status.h"

struct cr_ovh_bpf {
	struct overhead_bpf *skel;
	struct bpf_link *link;
	int ncpus;
};

/*
 * The uprobe's target.  noinline and an empty asm so that the call and
 * the function stay; used so that the linker keeps it.
 */
__attribute__((noinline, used)) void cr_ovh_uprobe_target(void)
{
	__asm__ __volatile__("" ::: "memory");
}

/* libbpf's warnings only: its debug output would bury our one line. */
static int cr_ovh_libbpf_print(enum libbpf_print_level level,
			       const char *fmt, va_list ap)
{
	if (level != LIBBPF_WARN)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

int cr_ovh_is_bpf(const char *variant)
{
	return !strncmp(variant, "bpf-", 4);
}

int cr_ovh_bpf_open(struct cr_ovh_bpf **out)
{
	struct cr_ovh_bpf *b = calloc(1, sizeof(*b));
	int err;

	*out = NULL;
	if (!b)
		return CR_ERR;
	libbpf_set_print(cr_ovh_libbpf_print);
	b->ncpus = libbpf_num_possible_cpus();
	b->skel = overhead_bpf__open();
	if (!b->skel || b->ncpus <= 0) {
		fprintf(stderr, "clkstat-report: overhead: cannot open the BPF programs\n");
		free(b);
		return CR_ERR;
	}
	err = overhead_bpf__load(b->skel);
	if (err) {
		fprintf(stderr, "clkstat-report: overhead: cannot load the BPF programs (%s)%s\n",
			strerror(-err), err == -EPERM ? "" :
			access("/sys/kernel/btf/clkstat_hookbench", R_OK) ?
			": clkstat_hookbench.ko has no BTF (/sys/kernel/btf/clkstat_hookbench); `make` adds it with pahole" :
			"");
		overhead_bpf__destroy(b->skel);
		free(b);
		return err == -EPERM ? CR_PERM : CR_ERR;
	}
	*out = b;
	return CR_OK;
}

static struct bpf_program *cr_ovh_prog(struct cr_ovh_bpf *b, const char *v)
{
	struct overhead_bpf *s = b->skel;

	if (!strcmp(v, CLKSTAT_VNAME(BPF_KPROBE)))
		return s->progs.ovh_kprobe;
	if (!strcmp(v, CR_OVH_BPF_KRETPROBE))
		return s->progs.ovh_kretprobe;
	if (!strcmp(v, CLKSTAT_VNAME(BPF_FENTRY)))
		return s->progs.ovh_fentry;
	if (!strcmp(v, CR_OVH_BPF_FEXIT))
		return s->progs.ovh_fexit;
	if (!strcmp(v, CLKSTAT_VNAME(BPF_TP)))
		return s->progs.ovh_tp;
	if (!strcmp(v, "uprobe"))
		return s->progs.ovh_uprobe;
	return NULL;
}

int cr_ovh_bpf_attach(struct cr_ovh_bpf *b, const char *variant)
{
	LIBBPF_OPTS(bpf_uprobe_opts, uo, .func_name = "cr_ovh_uprobe_target");
	struct bpf_program *p = cr_ovh_prog(b, variant);
	char exe[PATH_MAX];
	ssize_t n;

	cr_ovh_bpf_detach(b);
	if (!p)
		return CR_USAGE;
	if (!strcmp(variant, "uprobe")) {
		/* The real file: the kernel keys uprobes by inode. */
		n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
		if (n <= 0) {
			perror("clkstat-report: overhead: /proc/self/exe");
			return CR_ERR;
		}
		exe[n] = '\0';
		b->link = bpf_program__attach_uprobe_opts(p, 0, exe, 0, &uo);
	} else {
		b->link = bpf_program__attach(p);
	}
	if (!b->link) {
		fprintf(stderr, "clkstat-report: overhead: cannot attach %s (%s)\n",
			variant, strerror(errno));
		return errno == EPERM ? CR_PERM : CR_ERR;
	}
	return CR_OK;
}

void cr_ovh_bpf_detach(struct cr_ovh_bpf *b)
{
	if (b && b->link) {
		bpf_link__destroy(b->link);
		b->link = NULL;
	}
}

int64_t cr_ovh_bpf_hits(struct cr_ovh_bpf *b)
{
	uint64_t v[b->ncpus], sum = 0;
	uint32_t key = 0;
	int i;

	if (bpf_map__lookup_elem(b->skel->maps.hits, &key, sizeof(key), v,
				 sizeof(v), 0))
		return -1;
	for (i = 0; i < b->ncpus; i++)
		sum += v[i];
	return (int64_t)sum;
}

void cr_ovh_bpf_close(struct cr_ovh_bpf *b)
{
	if (!b)
		return;
	cr_ovh_bpf_detach(b);
	overhead_bpf__destroy(b->skel);
	free(b);
}

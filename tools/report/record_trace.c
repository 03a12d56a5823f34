// SPDX-License-Identifier: GPL-2.0
/*
 * record_trace.c - --probes' user-defined probes for the module's runs
 * (record.h): checked with the module's own parser before anything runs,
 * traced before the first module run where the module has them not,
 * untraced after the last however the recording ends.
 */
#include <stdio.h>
#include <string.h>
#include "../../kmod/uapi/clkstat_catalog.h"
#include "../lib/status.h"
#include "../lib/suggest.h"
#include "record.h"

/* A built-in probe's name (probes=), not a user-defined probe's spec? */
#define CR_PROBE_NAME(id, metric, probe)	#probe,
static const char *const cr_probe_names[] = {
	CLKSTAT_METRICS(CR_PROBE_NAME) "marker"
};
#undef CR_PROBE_NAME
#define CR_NPROBE_NAMES	(sizeof(cr_probe_names) / sizeof(cr_probe_names[0]))

static int cr_builtin_probe(const char *name)
{
	size_t i;

	for (i = 0; i < CR_NPROBE_NAMES; i++)
		if (!strcmp(name, cr_probe_names[i]))
			return 1;
	return 0;
}

/*
 * A bare word near a built-in probe's name (tkred) is a typo, not the
 * function it would otherwise trace: refused, the probe named; func:NAME
 * traces such a function.
 */
static int cr_probe_typo(const char *p)
{
	char near[160] = "";
	FILE *f;

	if (strchr(p, ':'))
		return 0;
	f = fmemopen(near, sizeof(near) - 1, "w");
	if (!f)
		return 0;
	cr_suggest(f, p, cr_probe_names, CR_NPROBE_NAMES);
	fclose(f);
	if (!near[0])
		return 0;
	fprintf(stderr, "clkstat-report: record: --probes %s: no probe%s; a function of that name: func:%s\n",
		p, near, p);
	return 1;
}

/*
 * The specs of --probes (entries that are not built-in probes), checked
 * with the module's parser.  Return CR_OK or CR_USAGE with a line said.
 */
int cr_rec_traces_parse(const char *list, struct cr_rec_traces *tr)
{
	static const char *const texts[] = CLKSTAT_TRACE_ERROR_TEXTS_INIT;
	char *p, *save = NULL;
	unsigned int j;
	int e;

	tr->n = 0;
	if (!list)
		return CR_OK;
	snprintf(tr->buf, sizeof(tr->buf), "%s", list);
	for (p = strtok_r(tr->buf, ",", &save); p;
	     p = strtok_r(NULL, ",", &save)) {
		if (cr_builtin_probe(p))
			continue;
		if (cr_probe_typo(p))
			return CR_USAGE;
		if (tr->n == CLKSTAT_TRACE_MAX) {
			fprintf(stderr, "clkstat-report: record: --probes: more than %d user-defined probes\n",
				CLKSTAT_TRACE_MAX);
			return CR_USAGE;
		}
		e = clkstat_trace_parse(p, &tr->t[tr->n]);
		if (e) {
			fprintf(stderr, "clkstat-report: record: --probes %s: %s\n",
				p, e > 0 && e < CLKSTAT_TRACE_NERRORS ? texts[e] :
				"invalid");
			return CR_USAGE;
		}
		for (j = 0; j < tr->n; j++) {
			if (!strcmp(tr->t[j].name, tr->t[tr->n].name)) {
				fprintf(stderr, "clkstat-report: record: --probes %s: given twice (as %s)\n",
					p, tr->given[j]);
				return CR_USAGE;
			}
		}
		tr->given[tr->n] = p;
		tr->added[tr->n++] = 0;
	}
	return CR_OK;
}

/* Untrace what record traced (cr_rec_traces_add()), newest first. */
void cr_rec_traces_remove(struct cr_nl *nl, struct cr_rec_traces *tr)
{
	char what[CR_PROBES_MAX + 64];
	unsigned int i = tr->n;

	while (i--) {
		if (!tr->added[i])
			continue;
		snprintf(what, sizeof(what), "record: untrace %s", tr->t[i].name);
		if (!cr_nl_trace(nl, 0, tr->t[i].name, what))
			tr->added[i] = 0;
	}
}

/*
 * Trace the specs the module does not have (info: as record found it);
 * on a refusal untrace those just added and return its status.
 */
static int cr_rec_traces_add(struct cr_nl *nl, const struct cr_info *info,
			     struct cr_rec_traces *tr)
{
	char what[CR_PROBES_MAX + 64];
	unsigned int i, k;
	int st;

	for (i = 0; i < tr->n; i++) {
		for (k = 0; k < info->ntraces; k++)
			if (!strcmp(info->traces[k].spec, tr->t[i].name))
				break;
		if (k < info->ntraces)
			continue;	/* the module's already: left as found */
		snprintf(what, sizeof(what), "record: --probes %s", tr->given[i]);
		st = cr_nl_trace(nl, 1, tr->t[i].name, what);
		if (st) {
			cr_rec_traces_remove(nl, tr);
			return st;
		}
		tr->added[i] = 1;
	}
	return CR_OK;
}

/* The first module variant (not bpf-*) of names, or NULL. */
static const char *cr_first_module(char names[][CR_VARIANT_MAX],
				   unsigned int nv)
{
	unsigned int i;

	for (i = 0; i < nv; i++)
		if (!cr_twin_is_variant(names[i]))
			return names[i];
	return NULL;
}

/*
 * --probes' user-defined probes for the module's runs: traced in the
 * first module variant (a trace must be reachable by the variant attached
 * when it is added: not every variant times a return), then every other
 * module variant of the runs switched to once, so that one that cannot
 * run a trace is refused now rather than at its first run.  On failure
 * the traces added are removed again (the caller restores the variant).
 */
int cr_rec_traces_setup(struct cr_nl *nl, const struct cr_info *info,
			struct cr_rec_traces *tr,
			char names[][CR_VARIANT_MAX], unsigned int nv)
{
	const char *first = cr_first_module(names, nv);
	unsigned int i;
	int st;

	if (!tr->n || !first)
		return CR_OK;
	st = cr_nl_ctrl(nl, "variant", first);
	if (!st)
		st = cr_rec_traces_add(nl, info, tr);
	for (i = 0; !st && i < nv; i++)
		if (!cr_twin_is_variant(names[i]) && strcmp(names[i], first))
			st = cr_nl_ctrl(nl, "variant", names[i]);
	if (st)
		cr_rec_traces_remove(nl, tr);
	return st;
}

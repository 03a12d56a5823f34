// SPDX-License-Identifier: GPL-2.0
/*
 * overhead_insn.c - clkstat-report overhead --insn FILE: instructions per
 * call beside the ns of this run.  FILE is the --json output of a run with
 * --icount in a guest under QEMU's -icount shift=0,sleep=off, where one
 * ns of guest time is one instruction (tools/tests/bench.sh makes it):
 * its dispatch rows' medians are taken by variant name.  The file is
 * checked before anything runs; a bad one is one line and exit 6 (cannot
 * read) or 7 (not such a run).
 */
#include <errno.h>
#include <math.h>
#include <string.h>
#include <unistd.h>
#include <json.h>
#include "overhead.h"
#include "../lib/status.h"

static int cr_ovh_insn_bad(const char *file, const char *why)
{
	fprintf(stderr, "clkstat-report: overhead: --insn %s: %s\n", file, why);
	return CR_CORRUPT;
}

/* A number, or null (not measured: NaN); anything else is an error. */
static int cr_ovh_insn_num(struct json_object *o, const char *key, double *v)
{
	struct json_object *x;

	if (!json_object_object_get_ex(o, key, &x))
		return -1;
	if (!x) {
		*v = NAN;
		return 0;
	}
	if (!json_object_is_type(x, json_type_double) &&
	    !json_object_is_type(x, json_type_int))
		return -1;
	*v = json_object_get_double(x);
	return 0;
}

static const char *cr_ovh_insn_str(struct json_object *o, const char *key)
{
	struct json_object *x;

	if (!json_object_object_get_ex(o, key, &x) ||
	    !json_object_is_type(x, json_type_string))
		return NULL;
	return json_object_get_string(x);
}

/* Check every row of the file; with @r, copy the figures into its rows. */
static int cr_ovh_insn_rows(const char *file, struct json_object *a,
			    struct cr_ovh_result *r)
{
	struct json_object *e;
	double hot, added, q1, q3;
	const char *name;
	size_t i, n = json_object_array_length(a);
	unsigned int j;

	for (i = 0; i < n; i++) {
		e = json_object_array_get_idx(a, i);
		name = e ? cr_ovh_insn_str(e, "variant") : NULL;
		if (!name || cr_ovh_insn_num(e, "hot_ns", &hot) ||
		    cr_ovh_insn_num(e, "added_ns", &added) ||
		    cr_ovh_insn_num(e, "added_q1", &q1) ||
		    cr_ovh_insn_num(e, "added_q3", &q3))
			return cr_ovh_insn_bad(file, "a dispatch row without variant, hot_ns, added_ns, added_q1 and added_q3");
		for (j = 0; r && j < r->nrows; j++) {
			if (strcmp(r->rows[j].name, name))
				continue;
			r->rows[j].insn = hot;
			r->rows[j].insn_added = added;
			r->rows[j].insn_iqr = q3 - q1;
		}
	}
	return CR_OK;
}

int cr_ovh_insn_merge(const char *file, struct cr_ovh_result *r)
{
	struct json_object *root, *a;
	const char *unit, *s;
	double limit;
	int st;

	if (access(file, R_OK)) {
		fprintf(stderr, "clkstat-report: overhead: --insn %s: %s\n",
			file, strerror(errno));
		return CR_NO_FILE;
	}
	root = json_object_from_file(file);
	if (!root)
		return cr_ovh_insn_bad(file, "not JSON");
	unit = json_object_is_type(root, json_type_object) ?
		cr_ovh_insn_str(root, "unit") : NULL;
	if (!unit || strcmp(unit, "insn")) {
		st = cr_ovh_insn_bad(file, "not the --json output of an overhead run with --icount");
		goto out;
	}
	if (!json_object_object_get_ex(root, "dispatch", &a) ||
	    !json_object_is_type(a, json_type_array) ||
	    cr_ovh_insn_num(root, "limit", &limit)) {
		st = cr_ovh_insn_bad(file, "no dispatch table and limit");
		goto out;
	}
	st = cr_ovh_insn_rows(file, a, r);
	if (st || !r)
		goto out;
	r->limit_insn = limit;
	s = cr_ovh_insn_str(root, "kernel");
	snprintf(r->insn_kernel, sizeof(r->insn_kernel), "%s", s ? s : "-");
	s = cr_ovh_insn_str(root, "dispatch_clocksource");
	snprintf(r->insn_cs, sizeof(r->insn_cs), "%s", s ? s : "-");
out:
	json_object_put(root);
	return st;
}

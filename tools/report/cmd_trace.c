// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_trace.c - clkstat-report trace add SPEC... | del SPEC... | list: the
 * module's user-defined probes (kmod/shared/clkstat_trace.h) over netlink,
 * CTRL trace and untrace, and GET_INFO's list.  No options of its own
 * (list takes --format text or json).
 *
 * Every spec is checked with clkstat_trace_parse(), the module's own
 * parser, before anything is sent, and refused with its words.  add is all
 * or nothing: when the module refuses one spec (with its reason, the
 * extended ACK's message), those this command added before it are removed
 * again.  del checks every spec against the module's list first, so that
 * a spec not traced changes nothing.
 */
#include <string.h>
#include <json-c/json.h>
#include "../../kmod/shared/clkstat_trace.h"
#include "../lib/nl.h"
#include "../lib/status.h"
#include "args.h"
#include "cli.h"

/* At most this many specs in one add or del (the module holds fewer). */
#define CR_TRACE_ARGS_MAX	64

/* Parse every spec into t[] (canonical names), refusing bad and repeated ones. */
static int cr_trace_parse_all(const char *verb, char **specs, int n,
			      struct clkstat_trace_spec *t)
{
	static const char *const texts[] = CLKSTAT_TRACE_ERROR_TEXTS_INIT;
	int i, j, e;

	for (i = 0; i < n; i++) {
		e = clkstat_trace_parse(specs[i], &t[i]);
		if (e) {
			fprintf(stderr, "clkstat-report: trace %s %s: %s\n", verb,
				specs[i], e > 0 && e < CLKSTAT_TRACE_NERRORS ?
				texts[e] : "invalid");
			return CR_USAGE;
		}
		for (j = 0; j < i; j++) {
			if (!strcmp(t[i].name, t[j].name)) {
				fprintf(stderr, "clkstat-report: trace %s %s: given twice (as %s)\n",
					verb, specs[i], specs[j]);
				return CR_USAGE;
			}
		}
	}
	return CR_OK;
}

static int cr_trace_add(struct cr_nl *nl, char **specs, int n,
			const struct clkstat_trace_spec *t)
{
	int i, j, st;

	for (i = 0; i < n; i++) {
		st = cr_nl_trace(nl, 1, specs[i], NULL);
		if (!st)
			continue;
		/* The line above named the spec and the module's reason. */
		for (j = i - 1; j >= 0; j--) {
			if (cr_nl_trace(nl, 0, t[j].name, NULL))
				continue;
			fprintf(stderr, "clkstat-report: trace add %s: removed again (%s was refused: all or nothing)\n",
				specs[j], specs[i]);
		}
		return st;
	}
	return CR_OK;
}

static int cr_trace_del(struct cr_nl *nl, char **specs, int n,
			const struct clkstat_trace_spec *t)
{
	struct cr_info info;
	unsigned int k;
	int i, st;

	st = cr_nl_get_info(nl, &info);
	if (st)
		return st;
	for (i = 0; i < n; i++) {
		for (k = 0; k < info.ntraces; k++)
			if (!strcmp(info.traces[k].spec, t[i].name))
				break;
		if (k == info.ntraces) {
			fprintf(stderr, "clkstat-report: trace del %s: not traced\n",
				specs[i]);
			return CR_ERR;
		}
	}
	for (i = 0; i < n; i++) {
		st = cr_nl_trace(nl, 0, specs[i], NULL);
		if (st)
			return st;
	}
	return CR_OK;
}

static int cr_trace_list(struct cr_nl *nl, int json)
{
	struct json_object *o, *a, *e;
	struct cr_info info;
	const char *s;
	unsigned int k;
	int st;

	st = cr_nl_get_info(nl, &info);
	if (st)
		return st;
	if (!json) {
		for (k = 0; k < info.ntraces; k++)
			printf("%u %s\n", info.traces[k].id, info.traces[k].spec);
		return CR_OK;
	}
	o = json_object_new_object();
	a = json_object_new_array();
	if (!o || !a)
		goto nomem;
	if (json_object_object_add(o, "limit",
				   json_object_new_int64(info.trace_limit)) ||
	    json_object_object_add(o, "traces", a)) {
		json_object_put(a);
		goto nomem;
	}
	for (k = 0; k < info.ntraces; k++) {
		e = json_object_new_object();
		if (!e || json_object_array_add(a, e)) {
			json_object_put(e);
			goto nomem;
		}
		if (json_object_object_add(e, "id",
					   json_object_new_int64(info.traces[k].id)) ||
		    json_object_object_add(e, "spec",
					   json_object_new_string(info.traces[k].spec)))
			goto nomem;
	}
	s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	if (!s)
		goto nomem;
	printf("%s\n", s);
	json_object_put(o);
	return CR_OK;
nomem:
	json_object_put(o);
	fprintf(stderr, "clkstat-report: trace list: out of memory\n");
	return CR_ERR;
}

static int cr_trace_cmd(struct cr_cli *cli)
{
	struct clkstat_trace_spec t[CR_TRACE_ARGS_MAX];
	const char *verb = cli->rest[0];
	int add = !strcmp(verb, "add"), n = cli->nrest - 1, json, st;
	struct cr_nl *nl;

	json = !strcmp(cli->format, "json");
	if (!json && strcmp(cli->format, "text")) {
		fprintf(stderr, "clkstat-report: trace: --format '%s': text or json (list's)\n",
			cli->format);
		return CR_USAGE;
	}
	if (!strcmp(verb, "list")) {
		if (n) {
			fprintf(stderr, "clkstat-report: trace list: unexpected argument '%s'\n",
				cli->rest[1]);
			return CR_USAGE;
		}
	} else if (add || !strcmp(verb, "del")) {
		if (!n) {
			fprintf(stderr, "clkstat-report: trace %s: no SPEC (func:F, sec:A-B[:exit][:cpu], tp:X-Y[:cpu])\n",
				verb);
			return CR_USAGE;
		}
		if (n > CR_TRACE_ARGS_MAX) {
			fprintf(stderr, "clkstat-report: trace %s: at most %d specs at once\n",
				verb, CR_TRACE_ARGS_MAX);
			return CR_USAGE;
		}
		st = cr_trace_parse_all(verb, cli->rest + 1, n, t);
		if (st)
			return st;
	} else {
		fprintf(stderr, "clkstat-report: trace: unknown command '%s' (add, del, list)\n",
			verb);
		return CR_USAGE;
	}
	nl = cr_nl_open(&st);
	if (!nl)
		return st;
	if (add)
		st = cr_trace_add(nl, cli->rest + 1, n, t);
	else if (!strcmp(verb, "del"))
		st = cr_trace_del(nl, cli->rest + 1, n, t);
	else
		st = cr_trace_list(nl, json);
	cr_nl_close(nl);
	return st;
}

static const struct cr_optset *const cr_trace_opts[] = {
	&cr_format_opts, NULL,
};

const struct cr_command cr_cmd_trace = {
	.name = "trace",
	.summary = "add, del, list user-defined probes (live only)",
	.synopsis =
	"       clkstat-report trace add SPEC... | del SPEC... | list [--format text|json]\n",
	.opts = cr_trace_opts,
	.min_args = 1, .max_args = 65,
	.run = cr_trace_cmd,
};

/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * clkstat_trace.h - user-defined probes ("traces"): the one grammar the
 * module (probes=, the control file's trace and untrace, netlink), the BPF
 * twin and the tools parse, so that a spec means the same everywhere and
 * names the same metric.
 *
 * A spec is one word, without blanks or commas (it goes in probes=):
 *
 *   func:F          how long F runs, from its entry to its return, call by
 *                   call (a recursive call is a sample of its own, inside
 *                   its caller's); a bare F means the same (kstats' "trace F")
 *   sec:A-B         from an entry of A to the next entry of B on the same
 *                   task
 *   sec:A-B:exit    from an entry of A to the next return of B on the same
 *                   task
 *   tp:X-Y          from tracepoint X to the next tracepoint Y on the same
 *                   task
 *   ...:cpu         (sec and tp) the same CPU instead of the same task
 *
 * F, A, B are kernel functions, X and Y tracepoints (their names, without
 * a group): letters, digits and '_', not starting with a digit.  A section
 * may start and end at one function (sec:F-F: from one call of F to the
 * next), but not at its return (that is func:F).  The canonical spec,
 * options in the order exit then cpu, is the metric's name, and must fit
 * in it: at most CLKSTAT_NAME_MAX - 1 bytes.
 *
 * No includes but the catalog (which has none): the parser is plain C for
 * the kernel, the tools and the twin's loader alike.
 */
#ifndef _CLKSTAT_SHARED_TRACE_H
#define _CLKSTAT_SHARED_TRACE_H

#include "../uapi/clkstat_catalog.h"

/* User-defined probes that can exist at once. */
#define CLKSTAT_TRACE_MAX	16

enum clkstat_trace_kind {
	CLKSTAT_TRACE_FUNC,	/* func:F */
	CLKSTAT_TRACE_SEC,	/* sec:A-B */
	CLKSTAT_TRACE_TP,	/* tp:X-Y */
};

enum clkstat_trace_error {
	CLKSTAT_TRACE_ERRORS(CLKSTAT_CAT_TRACE_ERR_ENUM)
	CLKSTAT_TRACE_NERRORS
};

/* One spec, parsed. */
struct clkstat_trace_spec {
	enum clkstat_trace_kind kind;
	char a[CLKSTAT_NAME_MAX];	/* F, A or X */
	char b[CLKSTAT_NAME_MAX];	/* B or Y; "" for func */
	int b_exit;			/* sec: ends at B's return */
	int percpu;			/* sec, tp: matched by CPU, not task */
	char name[CLKSTAT_NAME_MAX];	/* the canonical spec: the metric's name */
};

enum clkstat_trace_counter {
	CLKSTAT_TRACE_COUNTERS(CLKSTAT_CAT_TRACE_ENUM)
	CLKSTAT_TRC_NCOUNTERS
};

static inline int clkstat_trace_sym_char(char c, int first)
{
	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_')
		return 1;
	return !first && c >= '0' && c <= '9';
}

/*
 * Copy the name at *s up to a byte in stop (or the end) into buf.  Return
 * CLKSTAT_TRACE_E_OK, _NAME for an empty or bad name, _LONG for one that
 * does not fit.
 */
static inline int clkstat_trace_take_sym(const char **s, const char *stop,
					 char *buf)
{
	const char *p = *s, *q;
	unsigned int n = 0;

	for (; *p; p++) {
		for (q = stop; *q && *q != *p; q++)
			;
		if (*q)
			break;
		if (!clkstat_trace_sym_char(*p, n == 0))
			return CLKSTAT_TRACE_E_NAME;
		if (n + 1 >= CLKSTAT_NAME_MAX)
			return CLKSTAT_TRACE_E_LONG;
		buf[n++] = *p;
	}
	if (!n)
		return CLKSTAT_TRACE_E_NAME;
	buf[n] = '\0';
	*s = p;
	return CLKSTAT_TRACE_E_OK;
}

/* Does s start with prefix?  Then skip it. */
static inline int clkstat_trace_skip(const char **s, const char *prefix)
{
	const char *p = *s;

	for (; *prefix; prefix++, p++)
		if (*p != *prefix)
			return 0;
	*s = p;
	return 1;
}

/* Append src to dst (of CLKSTAT_NAME_MAX bytes); 0 if it does not fit. */
static inline int clkstat_trace_cat(char *dst, unsigned int *len,
				    const char *src)
{
	for (; *src; src++) {
		if (*len + 1 >= CLKSTAT_NAME_MAX)
			return 0;
		dst[(*len)++] = *src;
	}
	dst[*len] = '\0';
	return 1;
}

/**
 * clkstat_trace_parse() - parse a spec (see the top of this file)
 * @s: the spec, NUL-terminated, no surrounding blanks
 * @t: filled in; t->name is the canonical spec
 *
 * Return: CLKSTAT_TRACE_E_OK (0), or why @s is not a spec.
 */
static inline int clkstat_trace_parse(const char *s,
				      struct clkstat_trace_spec *t)
{
	unsigned int len = 0, i;
	int ret, cpu = 0, ex = 0;

	__builtin_memset(t, 0, sizeof(*t));
	if (!*s)
		return CLKSTAT_TRACE_E_EMPTY;
	if (clkstat_trace_skip(&s, "sec:"))
		t->kind = CLKSTAT_TRACE_SEC;
	else if (clkstat_trace_skip(&s, "tp:"))
		t->kind = CLKSTAT_TRACE_TP;
	else if (clkstat_trace_skip(&s, "func:") || clkstat_trace_sym_char(*s, 1))
		t->kind = CLKSTAT_TRACE_FUNC;
	else
		return CLKSTAT_TRACE_E_KIND;

	if (t->kind == CLKSTAT_TRACE_FUNC) {
		ret = clkstat_trace_take_sym(&s, ":-", t->a);
		if (ret)
			return ret;
		/* "foo:bar" is an unknown kind, "foo-bar" a bad name. */
		if (*s == ':')
			return CLKSTAT_TRACE_E_KIND;
		if (*s)
			return CLKSTAT_TRACE_E_NAME;
	} else {
		ret = clkstat_trace_take_sym(&s, "-:", t->a);
		if (ret)
			return ret;
		if (*s != '-')
			return CLKSTAT_TRACE_E_DASH;
		s++;
		ret = clkstat_trace_take_sym(&s, ":-", t->b);
		if (ret)
			return ret;
		if (*s == '-')
			return CLKSTAT_TRACE_E_NAME;
		while (*s == ':') {
			s++;
			if (!ex && t->kind == CLKSTAT_TRACE_SEC &&
			    clkstat_trace_skip(&s, "exit"))
				ex = 1;
			else if (!cpu && clkstat_trace_skip(&s, "cpu"))
				cpu = 1;
			else
				return CLKSTAT_TRACE_E_OPTION;
			if (*s && *s != ':')
				return CLKSTAT_TRACE_E_OPTION;
		}
		if (*s)
			return CLKSTAT_TRACE_E_OPTION;
		if (ex) {
			for (i = 0; t->a[i] && t->a[i] == t->b[i]; i++)
				;
			if (t->a[i] == t->b[i])
				return CLKSTAT_TRACE_E_SAME_EXIT;
		}
	}
	t->b_exit = ex;
	t->percpu = cpu;

	if (!clkstat_trace_cat(t->name, &len,
			       t->kind == CLKSTAT_TRACE_FUNC ? "func:" :
			       t->kind == CLKSTAT_TRACE_SEC ? "sec:" : "tp:") ||
	    !clkstat_trace_cat(t->name, &len, t->a) ||
	    (t->b[0] && (!clkstat_trace_cat(t->name, &len, "-") ||
			 !clkstat_trace_cat(t->name, &len, t->b))) ||
	    (ex && !clkstat_trace_cat(t->name, &len, ":exit")) ||
	    (cpu && !clkstat_trace_cat(t->name, &len, ":cpu")))
		return CLKSTAT_TRACE_E_LONG;
	return CLKSTAT_TRACE_E_OK;
}

#endif /* _CLKSTAT_SHARED_TRACE_H */

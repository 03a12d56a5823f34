// SPDX-License-Identifier: GPL-2.0
/*
 * figure.c - the figure model of figure.h: built series by series, freed
 * whole, and its plotted data as JSON for the page (report --html), which
 * the tests also read back.  Drawing is figure_gnuplot.c's.
 */
#define _GNU_SOURCE		/* vasprintf() */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "figure.h"

static int cr_fig_dup(char **dst, const char *s)
{
	*dst = strdup(s ? s : "");
	return *dst ? 0 : -ENOMEM;
}

int cr_fig_init(struct cr_figure *f, const char *id, const char *title,
		const char *subtitle)
{
	memset(f, 0, sizeof(*f));
	if (cr_fig_dup(&f->id, id) || cr_fig_dup(&f->title, title) ||
	    cr_fig_dup(&f->subtitle, subtitle))
		return -ENOMEM;
	return 0;
}

int cr_fig_axis(struct cr_fig_axis *a, const char *label, int log)
{
	free(a->label);
	a->log = log;
	return cr_fig_dup(&a->label, label);
}

int cr_fig_tic(struct cr_fig_axis *a, const char *label, double at)
{
	struct cr_fig_tic *t;

	t = realloc(a->tics, (a->ntics + 1) * sizeof(*t));
	if (!t)
		return -ENOMEM;
	a->tics = t;
	t[a->ntics].at = at;
	if (cr_fig_dup(&t[a->ntics].label, label))
		return -ENOMEM;
	a->ntics++;
	return 0;
}

struct cr_fig_series *cr_fig_series(struct cr_figure *f, const char *title,
				    enum cr_fig_style style, int colour)
{
	struct cr_fig_series *s;

	s = realloc(f->series, (f->nseries + 1) * sizeof(*s));
	if (!s)
		return NULL;
	f->series = s;
	s = &f->series[f->nseries];
	memset(s, 0, sizeof(*s));
	if (cr_fig_dup(&s->title, title))
		return NULL;
	s->style = style;
	s->colour = colour;
	f->nseries++;
	return s;
}

int cr_fig_point(struct cr_fig_series *s, const double *cols, size_t ncols)
{
	double (*p)[CR_FIG_NCOLS];
	size_t i;

	if (s->n == s->cap) {
		p = realloc(s->pt, (s->cap ? 2 * s->cap : 64) * sizeof(*p));
		if (!p)
			return -ENOMEM;
		s->pt = p;
		s->cap = s->cap ? 2 * s->cap : 64;
	}
	for (i = 0; i < CR_FIG_NCOLS; i++)
		s->pt[s->n][i] = i < ncols ? cols[i] : NAN;
	s->n++;
	return 0;
}

int cr_fig_mark(struct cr_figure *f, const char *label, int horizontal,
		double at)
{
	struct cr_fig_mark *m;

	m = realloc(f->marks, (f->nmarks + 1) * sizeof(*m));
	if (!m)
		return -ENOMEM;
	f->marks = m;
	m[f->nmarks].horizontal = horizontal;
	m[f->nmarks].panel = 0;
	m[f->nmarks].at = at;
	if (cr_fig_dup(&m[f->nmarks].label, label))
		return -ENOMEM;
	f->nmarks++;
	return 0;
}

int cr_fig_warn(struct cr_figure *f, const char *fmt, ...)
{
	char **w, *s;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	w = realloc(f->warnings, (f->nwarnings + 1) * sizeof(*w));
	if (!w) {
		free(s);
		return -ENOMEM;
	}
	f->warnings = w;
	w[f->nwarnings++] = s;
	return 0;
}

static void cr_fig_axis_free(struct cr_fig_axis *a)
{
	size_t i;

	for (i = 0; i < a->ntics; i++)
		free(a->tics[i].label);
	free(a->tics);
	free(a->label);
}

void cr_fig_free(struct cr_figure *f)
{
	size_t i;

	for (i = 0; i < f->nseries; i++) {
		free(f->series[i].title);
		free(f->series[i].pt);
	}
	for (i = 0; i < f->nmarks; i++)
		free(f->marks[i].label);
	for (i = 0; i < f->nwarnings; i++)
		free(f->warnings[i]);
	free(f->series);
	free(f->marks);
	free(f->warnings);
	cr_fig_axis_free(&f->x);
	cr_fig_axis_free(&f->y);
	for (i = 0; i < CR_FIG_PANELS - 1; i++)
		cr_fig_axis_free(&f->more_x[i]);
	free(f->z_label);
	free(f->id);
	free(f->title);
	free(f->subtitle);
	memset(f, 0, sizeof(*f));
}

struct cr_fig_axis *cr_fig_panel_x(struct cr_figure *f, unsigned int p)
{
	if (p >= CR_FIG_PANELS)
		p = CR_FIG_PANELS - 1;
	if (f->npanels < p + 1)
		f->npanels = p + 1;
	return p ? &f->more_x[p - 1] : &f->x;
}

/* ---- JSON ---- */

static const char *const cr_fig_style_names[] = {
	[CR_FIG_LINES] = "lines", [CR_FIG_STEPS] = "steps",
	[CR_FIG_POINTS] = "points", [CR_FIG_BAND] = "band",
	[CR_FIG_XERR] = "xerr", [CR_FIG_CELLS] = "cells",
};

/* Which columns a style's points carry, in the JSON's order. */
static const char *const cr_fig_cols[][CR_FIG_NCOLS] = {
	[CR_FIG_LINES] = { "x", "y" },
	[CR_FIG_STEPS] = { "x", "y", "x2" },
	[CR_FIG_POINTS] = { "x", "y" },
	[CR_FIG_BAND] = { "x", "y", NULL, "y2" },
	[CR_FIG_XERR] = { "x", "y", "x2", NULL, "x3" },
	[CR_FIG_CELLS] = { "x", "y", "x2", "y2", NULL, "z" },
};

/* A number, or null where it is undefined (JSON has no NaN). */
static struct json_object *cr_fig_num(double v)
{
	return isfinite(v) ? json_object_new_double(v) : NULL;
}

static int cr_fig_add(struct json_object *o, const char *k,
		      struct json_object *v, int may_be_null)
{
	if (!v && !may_be_null)
		return -ENOMEM;
	if (json_object_object_add(o, k, v)) {
		json_object_put(v);
		return -ENOMEM;
	}
	return 0;
}

static struct json_object *cr_fig_axis_json(const struct cr_fig_axis *a)
{
	struct json_object *o = json_object_new_object(), *t, *e;
	size_t i;

	if (!o)
		return NULL;
	if (cr_fig_add(o, "label", json_object_new_string(a->label ? a->label : ""), 0) ||
	    cr_fig_add(o, "log", json_object_new_boolean(a->log), 0))
		goto fail;
	t = json_object_new_array();
	if (cr_fig_add(o, "tics", t, 0))
		goto fail;
	for (i = 0; i < a->ntics; i++) {
		e = json_object_new_object();
		if (!e || json_object_array_add(t, e))
			goto fail_e;
		if (cr_fig_add(e, "label", json_object_new_string(a->tics[i].label), 0) ||
		    cr_fig_add(e, "at", cr_fig_num(a->tics[i].at), 1))
			goto fail;
	}
	return o;
fail_e:
	json_object_put(e);
fail:
	json_object_put(o);
	return NULL;
}

static struct json_object *cr_fig_series_json(const struct cr_fig_series *s)
{
	struct json_object *o = json_object_new_object(), *pts, *p;
	const char *const *cols = cr_fig_cols[s->style];
	size_t i, c;

	if (!o)
		return NULL;
	if (cr_fig_add(o, "title", json_object_new_string(s->title), 0) ||
	    cr_fig_add(o, "style", json_object_new_string(cr_fig_style_names[s->style]), 0) ||
	    cr_fig_add(o, "colour", json_object_new_int(s->colour), 0) ||
	    cr_fig_add(o, "panel", json_object_new_int((int)s->panel), 0))
		goto fail;
	pts = json_object_new_array_ext((int)s->n);
	if (cr_fig_add(o, "points", pts, 0))
		goto fail;
	for (i = 0; i < s->n; i++) {
		p = json_object_new_object();
		if (!p || json_object_array_add(pts, p)) {
			json_object_put(p);
			goto fail;
		}
		for (c = 0; c < CR_FIG_NCOLS; c++)
			if (cols[c] && cr_fig_add(p, cols[c], cr_fig_num(s->pt[i][c]), 1))
				goto fail;
	}
	return o;
fail:
	json_object_put(o);
	return NULL;
}

struct json_object *cr_fig_json(const struct cr_figure *f)
{
	struct json_object *o = json_object_new_object(), *a, *e;
	size_t i;

	if (!o)
		return NULL;
	if (cr_fig_add(o, "id", json_object_new_string(f->id), 0) ||
	    cr_fig_add(o, "title", json_object_new_string(f->title), 0) ||
	    cr_fig_add(o, "subtitle", json_object_new_string(f->subtitle), 0) ||
	    cr_fig_add(o, "x", cr_fig_axis_json(&f->x), 0) ||
	    cr_fig_add(o, "y", cr_fig_axis_json(&f->y), 0))
		goto fail;
	a = json_object_new_array();
	if (cr_fig_add(o, "panels_x", a, 0))
		goto fail;
	for (i = 0; i < (f->npanels ? f->npanels : 1); i++) {
		e = cr_fig_axis_json(i ? &f->more_x[i - 1] : &f->x);
		if (!e || json_object_array_add(a, e)) {
			json_object_put(e);
			goto fail;
		}
	}
	a = json_object_new_array();
	if (cr_fig_add(o, "series", a, 0))
		goto fail;
	for (i = 0; i < f->nseries; i++) {
		e = cr_fig_series_json(&f->series[i]);
		if (!e || json_object_array_add(a, e)) {
			json_object_put(e);
			goto fail;
		}
	}
	a = json_object_new_array();
	if (cr_fig_add(o, "marks", a, 0))
		goto fail;
	for (i = 0; i < f->nmarks; i++) {
		e = json_object_new_object();
		if (!e || json_object_array_add(a, e)) {
			json_object_put(e);
			goto fail;
		}
		if (cr_fig_add(e, "label", json_object_new_string(f->marks[i].label), 0) ||
		    cr_fig_add(e, "axis", json_object_new_string(f->marks[i].horizontal ? "y" : "x"), 0) ||
		    cr_fig_add(e, "panel", json_object_new_int((int)f->marks[i].panel), 0) ||
		    cr_fig_add(e, "at", cr_fig_num(f->marks[i].at), 1))
			goto fail;
	}
	a = json_object_new_array();
	if (cr_fig_add(o, "warnings", a, 0))
		goto fail;
	for (i = 0; i < f->nwarnings; i++) {
		e = json_object_new_string(f->warnings[i]);
		if (!e || json_object_array_add(a, e)) {
			json_object_put(e);
			goto fail;
		}
	}
	return o;
fail:
	json_object_put(o);
	return NULL;
}

int cr_fig_format_of(const char *path, enum cr_fig_format *fmt)
{
	const char *dot = strrchr(path, '.');

	if (!dot || strchr(dot, '/'))
		return -1;
	if (!strcmp(dot, ".svg"))
		*fmt = CR_FIG_SVG;
	else if (!strcmp(dot, ".png"))
		*fmt = CR_FIG_PNG;
	else if (!strcmp(dot, ".pdf"))
		*fmt = CR_FIG_PDF;
	else
		return -1;
	return 0;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * render_html.h - the one-page report of a comparison (render_html.c):
 * what report --compare F --html FILE writes.
 */
#ifndef CLKSTAT_LIB_RENDER_HTML_H
#define CLKSTAT_LIB_RENDER_HTML_H

#include <stdio.h>
#include "figure.h"
#include "model.h"

struct cr_html_page {
	const char *title;
	const struct cr_snapshot *snapshot;	/* its metadata */
	const char *text;		/* the comparison as the text prints it */
	size_t nfigs;
	const struct cr_figure *const *figs;
	const char *const *svgs;	/* each figure as CR_FIG_SVG_INLINE */
	struct json_object *const *data;	/* each cr_fig_json() */
	const char *note;		/* why a figure is not there; NULL */
};

/* The page into f: 0, or -1 on a write error. */
int cr_html_page(FILE *f, const struct cr_html_page *p);

#endif

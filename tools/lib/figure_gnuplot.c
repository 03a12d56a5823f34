// SPDX-License-Identifier: GPL-2.0
/*
 * figure_gnuplot.c - a figure (figure.h) drawn by gnuplot, as fio draws
 * its graphs: the figure becomes a gnuplot script (its data inline, in
 * data blocks), gnuplot runs it and writes SVG, PNG or PDF on its
 * standard output.  Why gnuplot: a well-kept plotting program Debian
 * ships (gnuplot-nox), a C tool can drive it without a language runtime,
 * one script gives the three formats, and its SVG carries the axes'
 * ranges in data and in pixels (the "mouse" terminal option), so that a
 * test can read every plotted point back (tools/tests/plot_check.py).
 *
 * The script, gnuplot's output and its messages go through memory files
 * (memfd), not pipes: gnuplot reads the whole script before it draws, and
 * nothing can block on a full pipe.
 */
#define _GNU_SOURCE		/* memfd_create() */
#include <errno.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "figure.h"

extern char **environ;

/* Okabe and Ito's colours, told apart by the colour-blind too. */
static const char *const cr_gp_colours[] = {
	"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9",
	"#000000",
};

static const char *cr_gp_colour(int c)
{
	size_t n = sizeof(cr_gp_colours) / sizeof(cr_gp_colours[0]);

	return cr_gp_colours[(size_t)(c < 0 ? 0 : c) % n];
}

/*
 * s as a gnuplot double-quoted string (noenhanced: no markup in it);
 * fmt: a tic's label, which gnuplot takes as a format, its % doubled.
 */
static void cr_gp_str_as(FILE *f, const char *s, int fmt)
{
	fputc('"', f);
	for (; s && *s; s++) {
		if (fmt && *s == '%')
			fputc('%', f);
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		if (*s == '\n')
			fputs("\\n", f);
		else if ((unsigned char)*s >= 0x20)
			fputc(*s, f);
	}
	fputc('"', f);
}

static void cr_gp_str(FILE *f, const char *s)
{
	cr_gp_str_as(f, s, 0);
}

static void cr_gp_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.17g", v);
	else
		fputs("NaN", f);
}

static void cr_gp_axis(FILE *f, const char *name, const struct cr_fig_axis *a)
{
	size_t i;

	fprintf(f, "set %slabel ", name);
	cr_gp_str(f, a->label);
	fputc('\n', f);
	fprintf(f, "%s logscale %s\n", a->log ? "set" : "unset", name);
	if (a->have_range) {
		fprintf(f, "set %srange [", name);
		cr_gp_num(f, a->lo);
		fputc(':', f);
		cr_gp_num(f, a->hi);
		fputs("]\n", f);
	}
	if (!a->ntics)
		return;
	fprintf(f, "set %stics (", name);
	for (i = 0; i < a->ntics; i++) {
		if (i)
			fputs(", ", f);
		cr_gp_str_as(f, a->tics[i].label, 1);
		fputc(' ', f);
		cr_gp_num(f, a->tics[i].at);
	}
	fputs(")\n", f);
}

/* An axis's named tics again, unlabelled (the later panels' rows). */
static void cr_gp_blank_tics(FILE *f, const char *name,
			     const struct cr_fig_axis *a)
{
	size_t i;

	fprintf(f, "set %stics format \"\"\n", name);
	if (!a->ntics)
		return;
	fprintf(f, "set %stics (", name);
	for (i = 0; i < a->ntics; i++) {
		fputs(i ? ", \"\" " : "\"\" ", f);
		cr_gp_num(f, a->tics[i].at);
	}
	fputs(")\n", f);
}

/* The using clause and style of a series. */
static void cr_gp_plot_one(FILE *f, size_t i, const struct cr_fig_series *s)
{
	const char *c = cr_gp_colour(s->colour);

	fprintf(f, "$S%zu ", i);
	switch (s->style) {
	case CR_FIG_LINES:
		fprintf(f, "using 1:2 with lines lw 2 lc rgb \"%s\"", c);
		break;
	case CR_FIG_STEPS:
		/* A box over [x, x2): centre and width, in data. */
		fprintf(f, "using (($1+$3)/2):2:($3-$1) with boxes fs transparent solid 0.35 border lc rgb \"%s\" fc rgb \"%s\"", c, c);
		break;
	case CR_FIG_POINTS:
		fprintf(f, "using 1:2 with points pt 7 ps 0.7 lc rgb \"%s\"", c);
		break;
	case CR_FIG_BAND:
		fprintf(f, "using 1:2:4 with filledcurves fs transparent solid 0.25 noborder lc rgb \"%s\"", c);
		break;
	case CR_FIG_XERR:
		fprintf(f, "using 1:2:3:5 with xerrorbars pt 7 ps 0.8 lw 1.5 lc rgb \"%s\"", c);
		break;
	case CR_FIG_CELLS:
		fputs("using (($1+$3)/2):(($2+$4)/2):1:3:2:4:6 with boxxyerror fs solid 1.0 noborder lc palette", f);
		break;
	}
	fputs(" title ", f);
	cr_gp_str(f, s->title);
}

/* The marks of panel p: dashed lines, each with its label. */
static void cr_gp_marks(FILE *o, const struct cr_figure *f, unsigned int p,
			size_t tag)
{
	size_t i;

	for (i = 0; i < f->nmarks; i++) {
		const struct cr_fig_mark *m = &f->marks[i];

		if (m->panel != p)
			continue;
		if (m->horizontal) {
			fputs("set arrow from graph 0, first ", o);
			cr_gp_num(o, m->at);
			fputs(" to graph 1, first ", o);
			cr_gp_num(o, m->at);
		} else {
			fputs("set arrow from first ", o);
			cr_gp_num(o, m->at);
			fputs(", graph 0 to first ", o);
			cr_gp_num(o, m->at);
			fputs(", graph 1", o);
		}
		fputs(" nohead dt 2 lw 1.5 lc rgb \"#555555\" front\n", o);
		fprintf(o, "set label %zu ", tag + i);
		cr_gp_str(o, m->label);
		if (m->horizontal) {
			fputs(" at graph 0.99, first ", o);
			cr_gp_num(o, m->at);
			fputs(" right offset 0,0.6", o);
		} else {
			fputs(" at first ", o);
			cr_gp_num(o, m->at);
			fputs(", graph 0.97 rotate by 90 right offset -0.6,0", o);
		}
		fputs(" font \",9\" textcolor rgb \"#555555\" front\n", o);
	}
}

/* The plot command of panel p's series. */
static void cr_gp_plot(FILE *o, const struct cr_figure *f, unsigned int p)
{
	const char *sep = "plot ";
	size_t i;

	for (i = 0; i < f->nseries; i++) {
		if (f->series[i].panel != p)
			continue;
		fputs(sep, o);
		cr_gp_plot_one(o, i, &f->series[i]);
		sep = ", \\\n     ";
	}
	fputc('\n', o);
}

/* The whole script of f for fmt, into o. */
static void cr_gp_script(FILE *o, const struct cr_figure *f,
			 enum cr_fig_format fmt)
{
	unsigned int p, np = f->npanels > 1 ? f->npanels : 1;
	double zmax = 0;
	size_t i, j, c;
	int cells = 0;

	switch (fmt) {
	case CR_FIG_SVG:
		fputs("set terminal svg size 960,600 dynamic mouse standalone noenhanced font \"sans,11\" background rgb \"white\"\n", o);
		break;
	case CR_FIG_SVG_INLINE:
		fputs("set terminal svg size 960,600 dynamic noenhanced font \"sans,11\" background rgb \"white\"\n", o);
		break;
	case CR_FIG_PNG:
		fputs("set terminal pngcairo size 960,600 noenhanced font \"sans,10\" background rgb \"white\"\n", o);
		break;
	case CR_FIG_PDF:
		fputs("set terminal pdfcairo size 10in,6.25in noenhanced font \"sans,10\"\n", o);
		break;
	}
	/* The key outside the plot area: nothing of it lies among the data. */
	fprintf(o, "set encoding utf8\nset output\nset grid\nset key %s box\n",
		np > 1 ? "horizontal at graph 0.5, graph 1.02 center bottom" :
		"outside right top vertical");
	if (np == 1) {
		fputs("set title ", o);
		cr_gp_str(o, f->title);
		fputs(" font \",13\"\n", o);
	}
	cr_gp_axis(o, "y", &f->y);
	/* The subtitle and the warnings below the plot, warnings in red. */
	fprintf(o, "set bmargin %zu\n", 4 + f->nwarnings + 1);
	fputs("set label 1 ", o);
	cr_gp_str(o, f->subtitle);
	fputs(" at screen 0.01, screen 0.02 left font \",9\" textcolor rgb \"#444444\"\n", o);
	for (i = 0; i < f->nwarnings; i++) {
		fprintf(o, "set label %zu ", i + 2);
		cr_gp_str(o, f->warnings[i]);
		fprintf(o, " at screen 0.01, screen %.3f left font \",10\" textcolor rgb \"#B00000\"\n",
			0.05 + 0.03 * (double)(f->nwarnings - 1 - i));
	}
	for (i = 0; i < f->nseries; i++) {
		if (f->series[i].style != CR_FIG_CELLS)
			continue;
		cells = 1;
		for (j = 0; j < f->series[i].n; j++)
			if (f->series[i].pt[j][CR_FIG_Z] > zmax)
				zmax = f->series[i].pt[j][CR_FIG_Z];
	}
	if (cells) {
		/*
		 * The colours from 0, not from the fewest a cell has: a
		 * count's colour then reads the same in every figure's scale.
		 */
		fputs("set cbrange [0:", o);
		cr_gp_num(o, zmax > 0 ? zmax : 1);
		fputs("]\n", o);
		/* viridis' ends and middle */
		fputs("set palette defined (0 \"#440154\", 1 \"#3b528b\", 2 \"#21918c\", 3 \"#5ec962\", 4 \"#fde725\")\n", o);
		fputs("set cblabel ", o);
		cr_gp_str(o, f->z_label);
		fputc('\n', o);
	}
	for (i = 0; i < f->nseries; i++) {
		fprintf(o, "$S%zu << EOD\n", i);
		for (j = 0; j < f->series[i].n; j++) {
			for (c = 0; c < CR_FIG_NCOLS; c++) {
				if (c)
					fputc(' ', o);
				cr_gp_num(o, f->series[i].pt[j][c]);
			}
			fputc('\n', o);
		}
		fputs("EOD\n", o);
	}
	if (np > 1) {
		/* The title a label at the top, the panels' keys below it. */
		fputs("set multiplot\nset tmargin at screen 0.86\nset label 99 ", o);
		cr_gp_str(o, f->title);
		fputs(" at screen 0.5, screen 0.97 center font \",13\"\n", o);
	}
	for (p = 0; p < np; p++) {
		if (np > 1) {
			/*
			 * The rows' names on the left (a fifth of the width),
			 * the first panel wider than the others.
			 */
			double w = 0.78 / (np + 1), l = 0.2 + (p ? (p + 1) * w : 0);

			fprintf(o, "set lmargin at screen %.4f\nset rmargin at screen %.4f\n",
				l + (p ? 0.02 : 0), l + (p ? w : 2 * w) - 0.02);
		}
		if (p) {
			/* Drawn once, with the first panel; the rows' names too. */
			fputs("unset label\nunset arrow\nunset ylabel\n", o);
			cr_gp_blank_tics(o, "y", &f->y);
		}
		cr_gp_axis(o, "x", p ? &f->more_x[p - 1] : &f->x);
		cr_gp_marks(o, f, p, f->nwarnings + 2);
		cr_gp_plot(o, f, p);
	}
	if (np > 1)
		fputs("unset multiplot\n", o);
}

/* The contents of memory file fd (malloc'd, *len bytes, NUL after). */
static char *cr_gp_slurp(int fd, size_t *len)
{
	struct stat st;
	char *buf;
	ssize_t r;
	size_t n = 0;

	if (fstat(fd, &st) || lseek(fd, 0, SEEK_SET) < 0)
		return NULL;
	buf = malloc((size_t)st.st_size + 1);
	if (!buf)
		return NULL;
	while (n < (size_t)st.st_size) {
		r = read(fd, buf + n, (size_t)st.st_size - n);
		if (r <= 0) {
			free(buf);
			return NULL;
		}
		n += (size_t)r;
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* gnuplot's first line that says what went wrong, into err. */
static void cr_gp_why(const char *msg, char *err, size_t errlen)
{
	const char *l = msg, *best = NULL, *nl;

	for (; l && *l; l = nl ? nl + 1 : NULL) {
		nl = strchr(l, '\n');
		if (!best && strspn(l, " \t\n^") != (size_t)(nl ? nl - l : (long)strlen(l)))
			best = l;
		if (strstr(l, "rror") && (!nl || nl > l)) {
			best = l;
			break;
		}
	}
	if (!best)
		best = "no output";
	nl = strchr(best, '\n');
	snprintf(err, errlen, "gnuplot: %.*s", nl ? (int)(nl - best) :
		 (int)strlen(best), best);
}

int cr_fig_render(const struct cr_figure *f, enum cr_fig_format fmt,
		  char **out, size_t *len, char *err, size_t errlen)
{
	int fd[3] = { -1, -1, -1 }, i, status, ret = -1;
	posix_spawn_file_actions_t fa;
	char *argv[] = { "gnuplot", NULL }, *msg = NULL;
	size_t mlen;
	FILE *script;
	pid_t pid;

	*out = NULL;
	*len = 0;
	for (i = 0; i < 3; i++) {
		fd[i] = memfd_create("clkstat-plot", MFD_CLOEXEC);
		if (fd[i] < 0) {
			snprintf(err, errlen, "memfd_create: %s", strerror(errno));
			goto out;
		}
	}
	script = fdopen(dup(fd[0]), "w");
	if (!script) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	cr_gp_script(script, f, fmt);
	if (fclose(script)) {
		snprintf(err, errlen, "the gnuplot script: %s", strerror(errno));
		goto out;
	}
	lseek(fd[0], 0, SEEK_SET);
	if (posix_spawn_file_actions_init(&fa)) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	for (i = 0; i < 3; i++)
		posix_spawn_file_actions_adddup2(&fa, fd[i], i);
	i = posix_spawnp(&pid, "gnuplot", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (i) {
		snprintf(err, errlen, "cannot run gnuplot (%s): install gnuplot-nox (tools/install-deps.sh)",
			 strerror(i));
		goto out;
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			snprintf(err, errlen, "waitpid: %s", strerror(errno));
			goto out;
		}
	msg = cr_gp_slurp(fd[2], &mlen);
	*out = cr_gp_slurp(fd[1], len);
	if (!WIFEXITED(status) || WEXITSTATUS(status) || !*out || !*len ||
	    (msg && strstr(msg, "rror"))) {
		cr_gp_why(msg, err, errlen);
		free(*out);
		*out = NULL;
		*len = 0;
		goto out;
	}
	ret = 0;
out:
	free(msg);
	for (i = 0; i < 3; i++)
		if (fd[i] >= 0)
			close(fd[i]);
	return ret;
}

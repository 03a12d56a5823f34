// SPDX-License-Identifier: GPL-2.0
/*
 * xcorr_runs.c - a recording's runs binned and cross-correlated
 * (xcorr_runs.h): what xcorr prints and plot --kind xcorr draws comes
 * from here, so that the figure and the text cannot disagree.  The
 * statistics are xcorr.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "status.h"
#include "xcorr_runs.h"

/* Runs past this many bins want a wider --bin: memory, not statistics. */
#define CR_XC_MAX_BINS	100000000

/* Run r's window and series into xr: CR_OK or a status, said. */
static int cr_xc_take_one(const struct cr_snapshot *s, struct cr_run *r,
			  const struct cr_xc_take *t, struct cr_xc_run *xr)
{
	size_t nb;
	int st;

	st = cr_run_events_load(s, r);
	if (st)
		return st;
	xr->run = r;
	xr->markers = cr_xc_window(&r->events, &xr->t0, &xr->t1) == 1;
	nb = cr_xc_nbins(xr->t0, xr->t1, t->bin);
	if (nb > CR_XC_MAX_BINS) {
		cr_run_events_drop(r);
		fprintf(stderr, "clkstat-report: %s: run %u: %zu bins: a wider --bin\n",
			t->who, r->index, nb);
		return CR_USAGE;
	}
	xr->a = malloc(nb * sizeof(double));
	xr->b = malloc(nb * sizeof(double));
	if (!xr->a || !xr->b) {
		cr_run_events_drop(r);
		fprintf(stderr, "clkstat-report: out of memory\n");
		return CR_ERR;
	}
	xr->na = cr_xc_bin(&r->events, t->a, xr->t0, t->bin, nb, xr->a);
	xr->nb = cr_xc_bin(&r->events, t->b, xr->t0, t->bin, nb, xr->b);
	cr_run_events_drop(r);
	return CR_OK;
}

/* The runs t selects that have events, binned, into x->v. */
static int cr_xc_take_runs(struct cr_snapshot *s, const struct cr_xc_take *t,
			   const struct cr_run **none, struct cr_xc_runs *x)
{
	struct cr_run *r;
	size_t i, nsel = 0, nnone = 0;
	int st;

	for (i = 0; i < s->nruns; i++) {
		r = &s->runs[i];
		if ((t->run >= 0 && (size_t)t->run != i) ||
		    (t->variant && strcmp(t->variant, r->variant)))
			continue;
		nsel++;
		if (!r->events.present) {
			none[nnone++] = r;
			continue;
		}
		if (!r->events.n) {
			fprintf(stderr, "clkstat-report: %s: run %u (%s) has no events\n",
				t->who, r->index, r->variant);
			continue;
		}
		/* Counted first: cr_xc_runs_free() frees what it took. */
		x->n++;
		st = cr_xc_take_one(s, r, t, &x->v[x->n - 1]);
		if (st)
			return st;
	}
	x->no_events = nnone;
	if (t->say_no_events)
		t->say_no_events(s, none, nnone);
	if (t->run >= 0 && (size_t)t->run >= s->nruns) {
		fprintf(stderr, "clkstat-report: --run %ld: the input has %zu runs (0 to %zu)\n",
			t->run, s->nruns, s->nruns ? s->nruns - 1 : 0);
		return CR_USAGE;
	}
	if (!nsel) {
		fprintf(stderr, "clkstat-report: %s: no run of variant %s in the input\n",
			t->who, t->variant);
		return CR_USAGE;
	}
	if (!x->n) {
		fprintf(stderr, "clkstat-report: %s: no selected run has events (record them with record --events N)\n",
			t->who);
		return CR_ERR;
	}
	return CR_OK;
}

int cr_xc_runs_compute(struct cr_snapshot *s, const struct cr_xc_take *t,
		       const struct cr_xc_params *p, struct cr_xc_runs *out)
{
	struct cr_xc_series *ser = NULL;
	const struct cr_run **none = NULL;
	size_t n = s->nruns ? s->nruns : 1, i;
	int st;

	memset(out, 0, sizeof(*out));
	out->v = calloc(n, sizeof(*out->v));
	ser = calloc(n, sizeof(*ser));
	none = calloc(n, sizeof(*none));
	if (!out->v || !ser || !none) {
		fprintf(stderr, "clkstat-report: out of memory\n");
		st = CR_ERR;
		goto out;
	}
	st = cr_xc_take_runs(s, t, none, out);
	if (st)
		goto out;
	for (i = 0; i < out->n; i++)
		ser[i] = (struct cr_xc_series){
			.a = out->v[i].a, .b = out->v[i].b,
			.n = cr_xc_nbins(out->v[i].t0, out->v[i].t1, t->bin),
		};
	if (cr_xc_compute(ser, out->n, p, &out->res)) {
		fprintf(stderr, "clkstat-report: out of memory\n");
		st = CR_ERR;
	}
out:
	free(ser);
	free(none);
	return st;
}

void cr_xc_runs_free(struct cr_xc_runs *x)
{
	size_t i;

	for (i = 0; i < x->n; i++) {
		free(x->v[i].a);
		free(x->v[i].b);
	}
	free(x->v);
	cr_xc_result_free(&x->res);
	memset(x, 0, sizeof(*x));
}

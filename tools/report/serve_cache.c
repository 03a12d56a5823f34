// SPDX-License-Identifier: GPL-2.0
/*
 * serve_cache.c - the expositions clkstat-report serve answers with, kept
 * for a short while.
 *
 * A scrape reads the module (a netlink dump of every metric) and renders
 * it; a thousand scrapes arriving together would do that a thousand
 * times for the same numbers.  So a body is made at most once per
 * max_age_ms per format and shared.  Bodies are reference counted: the
 * cache holds one, and each response being sent holds one, so a slow
 * client keeps the body it was given and nothing else; memory is bounded
 * by the connection limit times a body.  A failed read is cached the
 * same way (503 and its reason), so a missing module is not asked for a
 * thousand times either.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "../lib/render.h"
#include "../lib/status.h"
#include "output.h"
#include "serve.h"

static int64_t cr_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void cr_cache_init(struct cr_cache *c, struct cr_source *src,
		   unsigned int max_age_ms)
{
	memset(c, 0, sizeof(*c));
	pthread_mutex_init(&c->lock, NULL);
	c->src = src;
	c->max_age_ms = max_age_ms;
}

static void cr_body_put_locked(struct cr_body *b)
{
	if (b && !--b->refs) {
		free(b->data);
		free(b);
	}
}

void cr_body_put(struct cr_cache *c, struct cr_body *b)
{
	pthread_mutex_lock(&c->lock);
	cr_body_put_locked(b);
	pthread_mutex_unlock(&c->lock);
}

void cr_cache_free(struct cr_cache *c)
{
	size_t i;

	for (i = 0; i < 2; i++)
		cr_body_put_locked(c->fmt[i].body);
	pthread_mutex_destroy(&c->lock);
	memset(c, 0, sizeof(*c));
}

/* A new body: the source read and rendered, or 503 and why. */
static struct cr_body *cr_cache_make(struct cr_cache *c, int prometheus_text)
{
	struct cr_render_opts *o = cr_output_render();
	struct cr_run run = { .exit_status = -1 };
	struct cr_body *b = calloc(1, sizeof(*b));
	FILE *f;
	int st;

	if (!b)
		return NULL;
	b->refs = 1;
	f = open_memstream(&b->data, &b->len);
	if (!f) {
		free(b);
		return NULL;
	}
	st = cr_source_read(c->src, &run);
	if (!st) {
		o->prometheus_text = prometheus_text;
		st = cr_render_openmetrics(f, &run, o);
		b->status = 200;
	}
	if (st) {
		/* What was rendered before a failure is not the answer. */
		rewind(f);
		fprintf(f, "%s\n", st == CR_ERR && !*c->src->why ?
			"rendering failed" : c->src->why);
		b->status = 503;
	}
	cr_run_free(&run);
	if (fclose(f)) {
		free(b->data);
		free(b);
		return NULL;
	}
	if (b->status == 503)
		b->len = strlen(b->data);
	return b;
}

struct cr_body *cr_cache_get(struct cr_cache *c, int prometheus_text)
{
	int64_t now = cr_mono_ns();
	struct cr_body *b;
	int i = !!prometheus_text;

	pthread_mutex_lock(&c->lock);
	b = c->fmt[i].body;
	if (!b || now - c->fmt[i].at_ns >= (int64_t)c->max_age_ms * 1000000) {
		b = cr_cache_make(c, i);
		if (b) {
			cr_body_put_locked(c->fmt[i].body);
			c->fmt[i].body = b;
			c->fmt[i].at_ns = now;
		}
	}
	if (b)
		b->refs++;
	pthread_mutex_unlock(&c->lock);
	return b;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * overhead_util.c - what every section of the overhead benchmark shares:
 * the monotonic time, the clocksource it ran on, quantiles of its rounds,
 * and a JSON number that is null when not measured.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <json-c/json.h>
#include "overhead.h"
#include "../lib/render_common.h"

double cr_ovh_now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

void cr_ovh_clocksource(char *buf, size_t size)
{
	FILE *f;

	snprintf(buf, size, "-");
	f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r");
	if (f && fgets(buf, size, f))
		buf[strcspn(buf, "\n")] = '\0';
	if (f)
		fclose(f);
}

static int cr_ovh_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double cr_ovh_quantile(double *v, unsigned int n, double p)
{
	double h;
	unsigned int i;

	if (!n)
		return NAN;
	qsort(v, n, sizeof(*v), cr_ovh_cmp);
	h = p * (n - 1);
	i = (unsigned int)h;
	return i + 1 < n ? v[i] + (h - i) * (v[i + 1] - v[i]) : v[n - 1];
}

void cr_ovh_quartiles(const double *v, unsigned int n, struct cr_ovh_q *q)
{
	double t[CR_OVH_MAX_ROUNDS];

	if (!n || n > CR_OVH_MAX_ROUNDS) {
		*q = (struct cr_ovh_q){ NAN, NAN, NAN };
		return;
	}
	memcpy(t, v, n * sizeof(*v));
	q->p50 = cr_ovh_quantile(t, n, 0.5);
	q->q1 = cr_ovh_quantile(t, n, 0.25);
	q->q3 = cr_ovh_quantile(t, n, 0.75);
}

int cr_ovh_jnum(struct json_object *o, const char *key, double v)
{
	if (isnan(v))
		return json_object_object_add(o, key, NULL) ? -1 : 0;
	return cr_jadd(o, key, json_object_new_double(v));
}

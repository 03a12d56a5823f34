// SPDX-License-Identifier: GPL-2.0
/*
 * render_common.c - what the renderers share (render_common.h).
 */
#include <math.h>
#include <string.h>
#include "render_common.h"
#include "status.h"

int cr_render_wanted(const struct cr_metric *m,
		     const struct cr_render_opts *o)
{
	size_t n;

	if (!o->metric)
		return 1;
	if (!strcmp(o->metric, m->name))
		return 1;
	n = strlen(m->name);
	return !strncmp(o->metric, m->name, n) && o->metric[n] == '.' &&
	       !strcmp(o->metric + n + 1, m->variant);
}

void cr_fmt_ns(char *buf, size_t len, double v, unsigned int digits,
	       int exact)
{
	static const char *const unit[] = { "ns", "us", "ms", "s" };
	/*
	 * Per digits: from where the next unit is taken (what would round
	 * to 1000), then from where 0, 1, ... decimals are printed.
	 */
	static const double lim3[] = { 999.5, 99.95, 9.995 };
	static const double lim4[] = { 999.95, 999.95, 99.995, 9.9995 };
	const double *lim = digits == 4 ? lim4 : lim3;
	double x = fabs(v);
	unsigned int u = 0;
	int dec;

	if (isnan(v)) {
		snprintf(buf, len, "n/a");
		return;
	}
	if (v == 0 || (exact && x < 1000 && v == floor(v))) {
		snprintf(buf, len, "%.0fns", v);
		return;
	}
	while (x >= lim[0] && u < 3) {
		x /= 1000;
		v /= 1000;
		u++;
	}
	for (dec = 0; dec < (int)(digits == 4 ? 3 : 2) && x < lim[dec + 1];
	     dec++)
		;
	snprintf(buf, len, "%.*f%s", dec, v, unit[u]);
}

int cr_jadd(struct json_object *o, const char *key, struct json_object *v)
{
	if (!v)
		return -1;
	if (json_object_object_add(o, key, v)) {
		json_object_put(v);
		return -1;
	}
	return 0;
}

int cr_jappend(struct json_object *a, struct json_object *v)
{
	if (!v)
		return -1;
	if (json_object_array_add(a, v)) {
		json_object_put(v);
		return -1;
	}
	return 0;
}

int cr_json_print(FILE *out, struct json_object *root)
{
	const char *text;

	text = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
					      JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!text)
		return CR_ERR;
	fputs(text, out);
	fputc('\n', out);
	return !fflush(out) && !ferror(out) ? CR_OK : CR_ERR;
}

void cr_csv_field(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * render_common.c - what the renderers share (render_common.h).
 */
#include <inttypes.h>
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

int cr_unit_parse(const char *s, enum cr_unit *u)
{
	if (!strcmp(s, "ns"))
		*u = CR_UNIT_NS;
	else if (!strcmp(s, "us"))
		*u = CR_UNIT_US;
	else if (!strcmp(s, "ms"))
		*u = CR_UNIT_MS;
	else
		return -1;
	return 0;
}

const char *cr_unit_name(enum cr_unit u)
{
	return u == CR_UNIT_US ? "us" : u == CR_UNIT_MS ? "ms" : "ns";
}

uint64_t cr_unit_ns(enum cr_unit u)
{
	return u == CR_UNIT_US ? 1000 : u == CR_UNIT_MS ? 1000000 : 1;
}

/* v / 10^(3 * p) exactly, with the suffix sfx. */
static void cr_fmt_dec(char *buf, size_t len, unsigned __int128 v,
		       unsigned int p, const char *sfx)
{
	unsigned __int128 div = 1, ip;
	char digits[48], frac[24];
	unsigned int i, nd = 3 * p;
	uint64_t f;

	for (i = 0; i < nd; i++)
		div *= 10;
	ip = v / div;
	f = (uint64_t)(v % div);
	/* the integer part: up to 2^64, more than a uint64_t at p = 0 */
	i = sizeof(digits) - 1;
	digits[i] = '\0';
	do {
		digits[--i] = (char)('0' + (unsigned int)(ip % 10));
		ip /= 10;
	} while (ip);
	if (!f) {
		snprintf(buf, len, "%s%s", &digits[i], sfx);
		return;
	}
	snprintf(frac, sizeof(frac), "%0*" PRIu64, (int)nd, f);
	for (nd = strlen(frac); nd && frac[nd - 1] == '0'; nd--)
		frac[nd - 1] = '\0';
	snprintf(buf, len, "%s.%s%s", &digits[i], frac, sfx);
}

void cr_fmt_exact(char *buf, size_t len, unsigned __int128 v, enum cr_unit u)
{
	static const char *const unit[] = { "ns", "us", "ms", "s" };
	unsigned int p = 0;

	if (u == CR_UNIT_AUTO) {
		unsigned __int128 x = v;

		while (x >= 1000 && p < 3) {
			x /= 1000;
			p++;
		}
	} else {
		p = u == CR_UNIT_US ? 1 : u == CR_UNIT_MS ? 2 : 0;
	}
	cr_fmt_dec(buf, len, v, p, unit[p]);
}

void cr_fmt_sig(char *buf, size_t len, unsigned __int128 v, unsigned int sig)
{
	static const char *const unit[] = { "ns", "us", "ms", "s" };
	long double x = (long double)v;
	unsigned int p = 0, ints;
	int dec;

	if (v < 1000) {
		snprintf(buf, len, "%uns", (unsigned int)v);
		return;
	}
	if (sig < 3)
		sig = 3;
	while (x >= 1000 && p < 3) {
		x /= 1000;
		p++;
	}
	for (;;) {
		for (ints = 1; ints < 40 && x >= powl(10, ints); ints++)
			;
		dec = sig > ints ? (int)(sig - ints) : 0;
		/* 999.96us at 3 digits is 1000us: take the next unit. */
		if (p < 3 && roundl(x * powl(10, dec)) >= 1000 * powl(10, dec)) {
			x /= 1000;
			p++;
			continue;
		}
		snprintf(buf, len, "%.*Lf%s", dec, x, unit[p]);
		return;
	}
}

void cr_fmt_unit(char *buf, size_t len, double v, enum cr_unit u)
{
	double r;

	if (isnan(v)) {
		snprintf(buf, len, "n/a");
		return;
	}
	r = round(fabs(v));
	if (v < 0 && r > 0) {
		buf[0] = '-';
		buf++;
		len--;
	}
	if (r >= 0x1p64)	/* beyond any sample: as a double */
		snprintf(buf, len, "%.0f%s", r / (double)cr_unit_ns(u),
			 cr_unit_name(u));
	else
		cr_fmt_dec(buf, len, (unsigned __int128)r,
			   u == CR_UNIT_US ? 1 : u == CR_UNIT_MS ? 2 : 0,
			   cr_unit_name(u));
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

size_t cr_utf8_len(const unsigned char *p, size_t n)
{
	size_t len, i;
	uint32_t cp;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		len = 2, cp = p[0] & 0x1f;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		len = 3, cp = p[0] & 0x0f;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		len = 4, cp = p[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return len;
}

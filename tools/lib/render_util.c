// SPDX-License-Identifier: GPL-2.0
/*
 * render_util.c - json-c and CSV helpers shared by the renderers
 * (render_util.h).
 */
#include <string.h>
#include "render_util.h"
#include "status.h"

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

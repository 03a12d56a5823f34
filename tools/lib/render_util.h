/* SPDX-License-Identifier: GPL-2.0 */
/*
 * render_util.h - small pieces every renderer of clkstat-report needs the
 * same way: adding to json-c objects without leaking on failure, printing
 * them, and quoting a CSV field (RFC 4180).
 */
#ifndef CLKSTAT_REPORT_RENDER_UTIL_H
#define CLKSTAT_REPORT_RENDER_UTIL_H

#include <stdio.h>
#include <json.h>

/*
 * Add v under key to o (json_object_object_add) or append it to the array
 * a; v is consumed either way.  Return 0, or -1 when v is NULL (out of
 * memory) or the add failed.
 */
int cr_jadd(struct json_object *o, const char *key, struct json_object *v);
int cr_jappend(struct json_object *a, struct json_object *v);

/*
 * Print root pretty, with a newline, and flush.  Return: CR_OK, or CR_ERR
 * when out of memory or the write failed.
 */
int cr_json_print(FILE *out, struct json_object *root);

/* Print s as one CSV field, quoted only when it has to be. */
void cr_csv_field(FILE *out, const char *s);

#endif

// SPDX-License-Identifier: GPL-2.0
/*
 * sysfs_line.c - one line of a kernel file (sysfs_line.h).  A file of
 * sysfs or procfs is read with one fgets(): its value is its first line.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sysfs_line.h"

char *cr_sysfs_line(const char *root, const char *path)
{
	char full[512], buf[4096];
	size_t n;
	FILE *f;

	snprintf(full, sizeof(full), "%s%s", root, path);
	f = fopen(full, "re");
	if (!f)
		return NULL;
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);
		return NULL;
	}
	fclose(f);
	n = strlen(buf);
	while (n && isspace((unsigned char)buf[n - 1]))
		buf[--n] = '\0';
	return strdup(buf);
}

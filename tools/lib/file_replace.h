/* SPDX-License-Identifier: GPL-2.0 */
/*
 * file_replace.h - a file replaced whole or not at all (file_replace.c):
 * snapshot files (record -o, export -o) and serve --textfile.
 */
#ifndef CLKSTAT_REPORT_FILE_REPLACE_H
#define CLKSTAT_REPORT_FILE_REPLACE_H

#include <stddef.h>
#include <stdio.h>

/* cr_file_replace(): replaced, but the folder's sync failed (errno). */
#define CR_FILE_NOT_SYNCED	1
/* cr_file_writable(): path is there, but not as a regular file. */
#define CR_FILE_NOT_REGULAR	(-2)

/*
 * Replace path with the len bytes of data: written to a temporary file in
 * the same folder (".NAME.XXXXXX": hidden, and not *.prom, which
 * node_exporter's textfile collector would read), mode 0644, synced,
 * renamed over path, then the folder synced so that the rename survives a
 * crash.  A reader sees the old file or the new one, never a part.
 * Return: 0; CR_FILE_NOT_SYNCED, the file replaced but perhaps not
 * durable; or -1, nothing replaced and no temporary file left, with
 * errno set and *step naming what failed ("create a temporary file",
 * "write", "chmod", "fsync", "close", "rename"; EINVAL: path is there but
 * not as a regular file, a device or a folder, and is left alone).
 */
int cr_file_replace(const char *path, const void *data, size_t len,
		    const char **step);

/*
 * The same, written piece by piece (export: a study run by run): f is a
 * temporary file beside path, which cr_file_commit() flushes, syncs and
 * renames over path (0, CR_FILE_NOT_SYNCED, or -1 with errno and *step,
 * nothing replaced and no temporary file left); cr_file_abort() removes
 * it.  cr_file_open() returns 0, or -1 with errno and *step (EINVAL: path
 * is there but not as a regular file).
 */
struct cr_file_out {
	FILE *f;
	const char *path;
	char *tmp, *dir;
};
int cr_file_open(struct cr_file_out *o, const char *path, const char **step);
int cr_file_commit(struct cr_file_out *o, const char **step);
void cr_file_abort(struct cr_file_out *o);

/*
 * Could cr_file_replace() write path?  Its temporary file made and removed
 * again, before any work whose result would go there (record).  Return 0,
 * CR_FILE_NOT_REGULAR, or -1 with errno (EROFS, EACCES, ENOENT: no such
 * folder, ...).
 */
int cr_file_writable(const char *path);

#endif

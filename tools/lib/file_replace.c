// SPDX-License-Identifier: GPL-2.0
/*
 * file_replace.c - a file replaced whole or not at all (file_replace.h):
 * what a snapshot (a crash or a full disk must not leave half of one in
 * place of the old) and node_exporter's textfile (its collector must never
 * read half a scrape) both need.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "file_replace.h"

/* All of the n bytes at p into fd; -1 with errno (EIO for a write of 0). */
static int cr_write_all(int fd, const char *p, size_t n)
{
	ssize_t w;

	while (n) {
		w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (!w)
				errno = EIO;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static int cr_fsync(int fd)
{
	int r;

	do
		r = fsync(fd);
	while (r < 0 && errno == EINTR);
	return r;
}

/*
 * path's directory part ("dir/" or "") and its last component, into
 * freshly allocated "dir/.base.XXXXXX" (base cut at 200 bytes so that the
 * name stays below NAME_MAX) and "dir" (or ".").
 */
static int cr_temp_names(const char *path, char **tmp, char **dir)
{
	const char *slash = strrchr(path, '/');
	size_t dlen = slash ? (size_t)(slash - path) + 1 : 0;
	size_t blen = strlen(path + dlen);

	if (blen > 200)
		blen = 200;
	*tmp = malloc(dlen + blen + 9);
	*dir = malloc(dlen + 2);
	if (!*tmp || !*dir) {
		free(*tmp);
		free(*dir);
		return -1;
	}
	sprintf(*tmp, "%.*s.%.*s.XXXXXX", (int)dlen, path, (int)blen,
		path + dlen);
	if (!dlen)
		strcpy(*dir, ".");
	else if (dlen == 1)
		strcpy(*dir, "/");
	else
		sprintf(*dir, "%.*s", (int)dlen - 1, path);
	return 0;
}

/*
 * Is path there as anything but a regular file (a device, a folder, a
 * FIFO)?  The rename would put a regular file in its place: as root,
 * -o /dev/null would replace the device.  A symbolic link is followed.
 */
static int cr_not_regular(const char *path)
{
	struct stat st;

	return !stat(path, &st) && !S_ISREG(st.st_mode);
}

int cr_file_replace(const char *path, const void *data, size_t len,
		    const char **step)
{
	char *tmp, *dir;
	int fd, dfd, r, e = 0;

	*step = "not a regular file, which a snapshot would replace";
	if (cr_not_regular(path)) {
		errno = EINVAL;
		return -1;
	}
	*step = "create a temporary file";
	if (cr_temp_names(path, &tmp, &dir)) {
		errno = ENOMEM;
		return -1;
	}
	fd = mkstemp(tmp);
	if (fd < 0)
		goto out_fail;
	*step = "write";
	if (cr_write_all(fd, data, len))
		goto fail;
	/* mkstemp's 0600 would keep the file from its readers. */
	*step = "chmod";
	if (fchmod(fd, 0644))
		goto fail;
	*step = "fsync";
	if (cr_fsync(fd))
		goto fail;
	*step = "close";
	r = close(fd);
	fd = -1;
	if (r)
		goto fail;
	*step = "rename";
	if (rename(tmp, path))
		goto fail;
	/* The new name itself is durable only once the directory is. */
	r = 0;
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0 || (cr_fsync(dfd) && errno != EINVAL)) {
		e = errno;
		r = CR_FILE_NOT_SYNCED;
	}
	if (dfd >= 0)
		close(dfd);
	if (r)
		errno = e;
	free(tmp);
	free(dir);
	return r;
fail:
	e = errno;
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	errno = e;
out_fail:
	e = errno;
	free(tmp);
	free(dir);
	errno = e;
	return -1;
}

int cr_file_writable(const char *path)
{
	char *tmp, *dir;
	int fd, e;

	if (cr_not_regular(path))
		return CR_FILE_NOT_REGULAR;
	if (cr_temp_names(path, &tmp, &dir)) {
		errno = ENOMEM;
		return -1;
	}
	fd = mkstemp(tmp);
	e = errno;
	if (fd >= 0) {
		close(fd);
		unlink(tmp);
	}
	free(tmp);
	free(dir);
	errno = e;
	return fd >= 0 ? 0 : -1;
}

int cr_file_open(struct cr_file_out *o, const char *path, const char **step)
{
	int fd, e;

	memset(o, 0, sizeof(*o));
	o->path = path;
	*step = "not a regular file, which the output would replace";
	if (cr_not_regular(path)) {
		errno = EINVAL;
		return -1;
	}
	*step = "create a temporary file";
	if (cr_temp_names(path, &o->tmp, &o->dir)) {
		errno = ENOMEM;
		return -1;
	}
	fd = mkstemp(o->tmp);
	if (fd >= 0) {
		o->f = fdopen(fd, "w");
		if (!o->f) {
			e = errno;
			close(fd);
			unlink(o->tmp);
			errno = e;
		}
	}
	if (!o->f) {
		e = errno;
		free(o->tmp);
		free(o->dir);
		o->tmp = o->dir = NULL;
		errno = e;
		return -1;
	}
	return 0;
}

void cr_file_abort(struct cr_file_out *o)
{
	if (o->f) {
		fclose(o->f);
		unlink(o->tmp);
	}
	free(o->tmp);
	free(o->dir);
	memset(o, 0, sizeof(*o));
}

int cr_file_commit(struct cr_file_out *o, const char **step)
{
	int fd = fileno(o->f), dfd, r, e;

	*step = "write";
	if (fflush(o->f) || ferror(o->f))
		goto fail;
	/* mkstemp's 0600 would keep the file from its readers. */
	*step = "chmod";
	if (fchmod(fd, 0644))
		goto fail;
	*step = "fsync";
	if (cr_fsync(fd))
		goto fail;
	*step = "close";
	r = fclose(o->f);
	o->f = NULL;
	if (r)
		goto fail_closed;
	*step = "rename";
	if (rename(o->tmp, o->path))
		goto fail_closed;
	r = 0;
	dfd = open(o->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0 || (cr_fsync(dfd) && errno != EINVAL)) {
		e = errno;
		r = CR_FILE_NOT_SYNCED;
	}
	if (dfd >= 0)
		close(dfd);
	free(o->tmp);
	free(o->dir);
	memset(o, 0, sizeof(*o));
	if (r)
		errno = e;
	return r;
fail_closed:
	e = errno;
	unlink(o->tmp);
	cr_file_abort(o);
	errno = e;
	return -1;
fail:
	e = errno ? errno : EIO;
	cr_file_abort(o);
	errno = e;
	return -1;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_files.h - files for the tests of snapshot and study files: a
 * temporary directory per test (teardown_dir removes it, pass or fail),
 * writing and listing files, and what a call prints on stderr captured
 * and held to one line ("clkstat-report: NAME: ...").  cmocka's asserts:
 * include it after cmocka.h.
 */
#ifndef CLKSTAT_TESTS_TEST_FILES_H
#define CLKSTAT_TESTS_TEST_FILES_H

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---------------------------------------------------------------- */
/* Files.                                                            */

/* The test's temporary directory: teardown_dir removes it, pass or fail. */
static char test_dir[64] __attribute__((unused));

static inline char *tmpdir(void)
{
	char *d;

	snprintf(test_dir, sizeof(test_dir), "/tmp/clkstat_test.XXXXXX");
	assert_non_null(mkdtemp(test_dir));
	d = strdup(test_dir);
	assert_non_null(d);
	return d;
}

static inline char *join(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = malloc(n);

	assert_non_null(p);
	snprintf(p, n, "%s/%s", dir, name);
	return p;
}

/* How many entries dir has; with only, each must be that one. */
static inline size_t dir_entries(const char *dir, const char *only)
{
	struct dirent *e;
	size_t n = 0;
	DIR *d = opendir(dir);

	assert_non_null(d);
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (only && strcmp(e->d_name, only))
			print_error("unexpected file %s/%s\n", dir, e->d_name);
		if (only)
			assert_string_equal(e->d_name, only);
		n++;
	}
	closedir(d);
	return n;
}

static inline void write_file(const char *path, const char *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, len), (ssize_t)len);
	assert_int_equal(close(fd), 0);
}

/* The whole of file p into *buf (malloc'd), *len bytes. */
static inline void read_file(const char *p, char **buf, size_t *len)
{
	struct stat sb;
	int fd = open(p, O_RDONLY);

	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &sb), 0);
	*len = (size_t)sb.st_size;
	*buf = malloc(*len ? *len : 1);
	assert_non_null(*buf);
	assert_int_equal(read(fd, *buf, *len), (ssize_t)*len);
	close(fd);
}

static inline void rm_rf(const char *dir)
{
	struct dirent *e;
	struct stat st;
	char *p;
	DIR *d = opendir(dir);

	assert_non_null(d);
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		p = join(dir, e->d_name);
		assert_int_equal(lstat(p, &st), 0);
		if (S_ISDIR(st.st_mode))
			rm_rf(p);
		else
			assert_int_equal(unlink(p), 0);
		free(p);
	}
	closedir(d);
	assert_int_equal(rmdir(dir), 0);
}

static inline int teardown_dir(void **state)
{
	(void)state;
	if (test_dir[0])
		rm_rf(test_dir);
	test_dir[0] = '\0';
	return 0;
}

/* Capture what fd 2 (or 1) gets into a file; return it (malloc'd). */
struct capture {
	int fd, saved;
	char path[64];
};

static inline void capture_begin(struct capture *c, int fd)
{
	int t;

	fflush(fd == 1 ? stdout : stderr);
	snprintf(c->path, sizeof(c->path), "/tmp/clkstat_test.cap.XXXXXX");
	c->fd = fd;
	c->saved = dup(fd);
	assert_true(c->saved >= 0);
	t = mkstemp(c->path);
	assert_true(t >= 0);
	assert_true(dup2(t, fd) >= 0);
	close(t);
}

static inline char *capture_end(struct capture *c)
{
	char *buf = calloc(1, 1 << 20);
	ssize_t n;
	int t;

	fflush(c->fd == 1 ? stdout : stderr);
	assert_true(dup2(c->saved, c->fd) >= 0);
	close(c->saved);
	assert_non_null(buf);
	t = open(c->path, O_RDONLY);
	assert_true(t >= 0);
	n = read(t, buf, (1 << 20) - 1);
	assert_true(n >= 0);
	close(t);
	unlink(c->path);
	return buf;
}

/* One line: "clkstat-report: NAME: ..." with what in it. */
static inline void assert_one_line(const char *out, const char *name,
				   const char *what)
{
	char prefix[512];

	snprintf(prefix, sizeof(prefix), "clkstat-report: %s: ", name);
	if (strncmp(out, prefix, strlen(prefix)) || !strstr(out, what))
		print_error("stderr: %s(want %s...%s)\n", out, prefix, what);
	assert_int_equal(strncmp(out, prefix, strlen(prefix)), 0);
	assert_non_null(strstr(out, what));
	assert_non_null(strchr(out, '\n'));
	assert_string_equal(strchr(out, '\n'), "\n");
}

#endif

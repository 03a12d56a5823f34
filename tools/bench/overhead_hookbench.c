// SPDX-License-Identifier: GPL-2.0
/*
 * overhead_hookbench.c - clkstat_hookbench.ko's control files, for the
 * sections that drive its target (dispatch, handlers, storm): attach a
 * variant, run a mode N times and read the result back.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "overhead.h"
#include "../lib/status.h"

static int cr_ovh_errno_status(int err)
{
	return err == EPERM || err == EACCES ? CR_PERM : CR_ERR;
}

/*
 * Write a command to a hookbench file; errors say which and why, but for
 * EINVAL when @quiet_einval (a run mode this module may not have): then
 * *@einval is set and the status is CR_ERR.
 */
int cr_ovh_hb_write_q(const char *file, const char *cmd,
			     int quiet_einval, int *einval)
{
	char path[128];
	ssize_t n;
	int fd, err;

	snprintf(path, sizeof(path), "%s/%s", CR_OVH_HB_DIR, file);
	fd = open(path, O_WRONLY);
	if (fd < 0) {
		err = errno;
		fprintf(stderr, "clkstat-report: overhead: %s: %s\n", path,
			strerror(err));
		return cr_ovh_errno_status(err);
	}
	n = write(fd, cmd, strlen(cmd));
	err = errno;
	close(fd);
	if (n < 0 && err == EINVAL && quiet_einval) {
		*einval = 1;
		return CR_ERR;
	}
	if (n != (ssize_t)strlen(cmd)) {
		fprintf(stderr, "clkstat-report: overhead: '%s' > %s: %s (see the kernel log)\n",
			cmd, path, n < 0 ? strerror(err) : "short write");
		return n < 0 ? cr_ovh_errno_status(err) : CR_ERR;
	}
	return CR_OK;
}

static int cr_ovh_hb_write(const char *file, const char *cmd)
{
	return cr_ovh_hb_write_q(file, cmd, 0, NULL);
}

int cr_ovh_hb_attach(const char *variant)
{
	return cr_ovh_hb_write("attach", variant);
}

int cr_ovh_hb_run(const char *mode, unsigned long n, uint64_t *ns,
		  uint64_t *hits, int *cpu)
{
	char cmd[64], buf[256], m[16], att[32];
	unsigned long calls;
	unsigned long long tns, th;
	int fd, st, migrated;
	ssize_t len;

	snprintf(cmd, sizeof(cmd), "%s %lu", mode, n);
	st = cr_ovh_hb_write("run", cmd);
	if (st)
		return st;
	fd = open(CR_OVH_HB_DIR "/run", O_RDONLY);
	if (fd < 0)
		return cr_ovh_errno_status(errno);
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len <= 0)
		return CR_ERR;
	buf[len] = '\0';
	if (sscanf(buf, "mode %15s calls %lu ns %llu hits %llu cpu %d migrated %d attached %31s",
		   m, &calls, &tns, &th, cpu, &migrated, att) != 7 ||
	    strcmp(m, mode) || calls != n) {
		fprintf(stderr, "clkstat-report: overhead: unexpected result '%s'\n",
			buf);
		return CR_ERR;
	}
	if (migrated) {
		fprintf(stderr, "clkstat-report: overhead: the run moved between CPUs although pinned\n");
		return CR_ERR;
	}
	*ns = tns;
	*hits = th;
	return CR_OK;
}

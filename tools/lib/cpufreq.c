// SPDX-License-Identifier: GPL-2.0
/*
 * cpufreq.c - the machine's CPU frequency scaling (cpufreq.h), read from
 * and written to sysfs: the driver, each active policy's governor, boost
 * (cpufreq/boost, or intel_pstate's no_turbo, inverted).  A latency taken
 * under powersave is not one taken under performance: the metadata says
 * which, and record --governors sets them.
 */
#define _GNU_SOURCE		/* open_memstream() */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cpufreq.h"
#include "suggest.h"
#include "sysfs_line.h"

#define CR_CPUFREQ_DIR	"/sys/devices/system/cpu/cpufreq"

/* policyN/file under root, as a path from root. */
static void cr_policy_path(char *buf, size_t len, unsigned int id,
			   const char *file)
{
	snprintf(buf, len, CR_CPUFREQ_DIR "/policy%u/%s", id, file);
}

/* affected_cpus ("0 1 2", space separated) into p; 0, -1: not a list. */
static int cr_parse_cpus(const char *s, struct cr_cpufreq_policy *p)
{
	unsigned long v;
	char *end;

	while (*s) {
		unsigned int *c;

		while (*s == ' ')
			s++;
		if (!*s)
			break;
		errno = 0;
		v = strtoul(s, &end, 10);
		if (end == s || errno || v > 1u << 30 ||
		    (*end && *end != ' '))
			return -1;
		c = realloc(p->cpus, (p->ncpus + 1) * sizeof(*c));
		if (!c)
			return -ENOMEM;
		p->cpus = c;
		p->cpus[p->ncpus++] = (unsigned int)v;
		s = end;
	}
	return 0;
}

static void cr_policy_free(struct cr_cpufreq_policy *p)
{
	free(p->cpus);
	free(p->governor);
	free(p->available);
	memset(p, 0, sizeof(*p));
}

/*
 * Policy id into p: 1 read, 0 left out (inactive, unreadable), -ENOMEM.
 * The driver, the same for every policy, into *driver once.
 */
static int cr_read_policy(const char *root, unsigned int id,
			  struct cr_cpufreq_policy *p, char **driver)
{
	char path[128], *cpus;
	int r;

	memset(p, 0, sizeof(*p));
	p->id = id;
	cr_policy_path(path, sizeof(path), id, "affected_cpus");
	cpus = cr_sysfs_line(root, path);
	cr_policy_path(path, sizeof(path), id, "scaling_governor");
	p->governor = cr_sysfs_line(root, path);
	cr_policy_path(path, sizeof(path), id, "scaling_available_governors");
	p->available = cr_sysfs_line(root, path);
	r = cpus ? cr_parse_cpus(cpus, p) : -1;
	free(cpus);
	if (r == -ENOMEM) {
		cr_policy_free(p);
		return -ENOMEM;
	}
	if (r || !p->ncpus || !p->governor || !*p->governor) {
		cr_policy_free(p);
		return 0;
	}
	if (!p->available && !(p->available = strdup("")))
		goto nomem;
	if (!*driver) {
		cr_policy_path(path, sizeof(path), id, "scaling_driver");
		*driver = cr_sysfs_line(root, path);
	}
	return 1;
nomem:
	cr_policy_free(p);
	return -ENOMEM;
}

static int cr_cmp_uint(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	return x < y ? -1 : x > y;
}

/* The policy ids of root's cpufreq folder, ascending; n of them or -1. */
static int cr_policy_ids(const char *root, unsigned int **ids)
{
	char dir[512];
	struct dirent *e;
	unsigned int *v = NULL, *t, id;
	int n = 0;
	char c;
	DIR *d;

	*ids = NULL;
	snprintf(dir, sizeof(dir), "%s" CR_CPUFREQ_DIR, root);
	d = opendir(dir);
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		if (sscanf(e->d_name, "policy%u%c", &id, &c) != 1)
			continue;
		t = realloc(v, (n + 1) * sizeof(*v));
		if (!t) {
			free(v);
			closedir(d);
			return -1;
		}
		v = t;
		v[n++] = id;
	}
	closedir(d);
	qsort(v, n, sizeof(*v), cr_cmp_uint);
	*ids = v;
	return n;
}

/* "1"/"0" from cpufreq/boost, else intel_pstate's no_turbo inverted. */
static char *cr_read_boost(const char *root)
{
	char *b = cr_sysfs_line(root, CR_CPUFREQ_DIR "/boost");

	if (b)
		return b;
	b = cr_sysfs_line(root, "/sys/devices/system/cpu/intel_pstate/no_turbo");
	if (b && (!strcmp(b, "0") || !strcmp(b, "1"))) {
		b[0] = b[0] == '0' ? '1' : '0';
		return b;
	}
	free(b);
	return NULL;
}

int cr_cpufreq_read(const char *root, struct cr_cpufreq *cf)
{
	unsigned int *ids;
	int n, i, r;

	memset(cf, 0, sizeof(*cf));
	cf->root = strdup(root);
	n = cr_policy_ids(root, &ids);
	if (!cf->root || n < 0)
		goto nomem;
	cf->p = calloc(n ? n : 1, sizeof(*cf->p));
	if (!cf->p) {
		free(ids);
		goto nomem;
	}
	for (i = 0; i < n; i++) {
		r = cr_read_policy(root, ids[i], &cf->p[cf->n], &cf->driver);
		if (r < 0) {
			free(ids);
			goto nomem;
		}
		cf->n += r;
	}
	free(ids);
	if (!cf->n) {
		/* No policy to speak of: no cpufreq, whatever is left. */
		free(cf->driver);
		cf->driver = NULL;
		return 0;
	}
	cf->boost = cr_read_boost(root);
	return 0;
nomem:
	cr_cpufreq_free(cf);
	return -ENOMEM;
}

void cr_cpufreq_free(struct cr_cpufreq *cf)
{
	size_t i;

	for (i = 0; i < cf->n; i++)
		cr_policy_free(&cf->p[i]);
	free(cf->p);
	free(cf->root);
	free(cf->driver);
	free(cf->boost);
	memset(cf, 0, sizeof(*cf));
}

/* cpus[0..n) (ascending) in the kernel's cpulist form onto f. */
static void cr_put_cpulist(FILE *f, const unsigned int *cpus, size_t n)
{
	size_t i = 0, j;

	while (i < n) {
		for (j = i; j + 1 < n && cpus[j + 1] == cpus[j] + 1; j++)
			;
		fprintf(f, "%s%u", i ? "," : "", cpus[i]);
		if (j > i)
			fprintf(f, "-%u", cpus[j]);
		i = j + 1;
	}
}

/* Policy k's lowest CPU (its list is ascending). */
static unsigned int cr_first_cpu(const struct cr_cpufreq *cf, size_t k)
{
	return cf->p[k].cpus[0];
}

char *cr_cpufreq_governors(const struct cr_cpufreq *cf, int *oom)
{
	unsigned int *cpus, lowest;
	size_t i, k, n, all = 0, len, ngov = 0;
	char *done, *text = NULL;
	FILE *f;
	int bad;

	if (!cf->n)
		return NULL;
	for (i = 1; i < cf->n && !strcmp(cf->p[i].governor,
					 cf->p[0].governor); i++)
		;
	if (i == cf->n) {
		text = strdup(cf->p[0].governor);
		if (!text)
			*oom = 1;
		return text;
	}
	for (i = 0; i < cf->n; i++)
		all += cf->p[i].ncpus;
	cpus = calloc(all, sizeof(*cpus));
	done = calloc(cf->n, 1);
	f = open_memstream(&text, &len);
	bad = !cpus || !done || !f;
	/* Each governor once, the one of the lowest CPU not yet said first. */
	while (!bad) {
		for (k = cf->n, lowest = ~0u, i = 0; i < cf->n; i++) {
			if (!done[i] && cr_first_cpu(cf, i) < lowest) {
				lowest = cr_first_cpu(cf, i);
				k = i;
			}
		}
		if (k == cf->n)
			break;
		for (n = 0, i = 0; i < cf->n; i++) {
			if (done[i] || strcmp(cf->p[i].governor,
					      cf->p[k].governor))
				continue;
			memcpy(cpus + n, cf->p[i].cpus,
			       cf->p[i].ncpus * sizeof(*cpus));
			n += cf->p[i].ncpus;
			done[i] = 1;
		}
		qsort(cpus, n, sizeof(*cpus), cr_cmp_uint);
		fprintf(f, "%s%s:", ngov++ ? " " : "", cf->p[k].governor);
		cr_put_cpulist(f, cpus, n);
	}
	if (f && fclose(f))
		bad = 1;
	if (bad) {
		free(text);
		text = NULL;
		*oom = 1;
	}
	free(cpus);
	free(done);
	return text;
}

static int cr_gov_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
	       c == '-';
}

int cr_cpufreq_parse_list(const char *list, char names[][CR_GOV_NAME],
			  size_t max, size_t *n, char *err, size_t errlen)
{
	const char *p = list, *e;
	size_t len, i, k;

	*n = 0;
	if (!*p) {
		snprintf(err, errlen, "--governors is empty");
		return -1;
	}
	for (;;) {
		e = strchr(p, ',');
		len = e ? (size_t)(e - p) : strlen(p);
		if (!len) {
			snprintf(err, errlen, "--governors '%s': an empty item",
				 list);
			return -1;
		}
		if (len >= CR_GOV_NAME) {
			snprintf(err, errlen, "--governors '%s': '%.*s' is longer than a governor's name can be (%d bytes)",
				 list, (int)len, p, CR_GOV_NAME - 1);
			return -1;
		}
		for (i = 0; i < len && cr_gov_char(p[i]); i++)
			;
		if (i < len) {
			snprintf(err, errlen, "--governors '%s': '%.*s' is not a governor's name (lowercase letters, digits, '_' and '-')",
				 list, (int)len, p);
			return -1;
		}
		if (*n == max) {
			snprintf(err, errlen, "--governors '%s': more than %zu items",
				 list, max);
			return -1;
		}
		memcpy(names[*n], p, len);
		names[*n][len] = '\0';
		for (k = 0; k < *n; k++) {
			if (!strcmp(names[k], names[*n])) {
				snprintf(err, errlen, "--governors '%s': %s twice",
					 list, names[k]);
				return -1;
			}
		}
		(*n)++;
		if (!e)
			return 0;
		p = e + 1;
	}
}

/* Is gov a word of the space separated list? */
static int cr_in_list(const char *list, const char *gov)
{
	size_t len = strlen(gov);
	const char *p = list;

	while ((p = strstr(p, gov))) {
		if ((p == list || p[-1] == ' ') &&
		    (p[len] == '\0' || p[len] == ' '))
			return 1;
		p += len;
	}
	return 0;
}

/* "no governor ..." for policy k lacking gov, into err. */
static void cr_say_missing(const struct cr_cpufreq *cf, size_t k,
			   const char *gov, char *err, size_t errlen)
{
	const char *words[64];
	char *copy = strdup(cf->p[k].available), *tok, *save = NULL;
	char *text = NULL;
	size_t nw = 0, len;
	FILE *f = open_memstream(&text, &len);

	if (!copy || !f) {
		snprintf(err, errlen, "no governor '%s' on this machine", gov);
		goto out;
	}
	for (tok = strtok_r(copy, " ", &save); tok && nw < 64;
	     tok = strtok_r(NULL, " ", &save))
		words[nw++] = tok;
	fprintf(f, "no governor '%s' on this machine", gov);
	if (cf->n > 1)
		fprintf(f, " (policy%u)", cf->p[k].id);
	cr_suggest(f, gov, words, nw);
	fprintf(f, "; it has %s (a governor built as a module is listed once loaded: modprobe cpufreq_NAME)",
		*cf->p[k].available ? cf->p[k].available : "none");
	if (fclose(f) == 0)
		snprintf(err, errlen, "%s", text);
	else
		snprintf(err, errlen, "no governor '%s' on this machine", gov);
	f = NULL;
out:
	if (f)
		fclose(f);
	free(text);
	free(copy);
}

int cr_cpufreq_check(const struct cr_cpufreq *cf, const char *gov, char *err,
		     size_t errlen)
{
	size_t k;

	if (!cf->n) {
		snprintf(err, errlen, "this machine has no cpufreq driver (no " CR_CPUFREQ_DIR "/policy* with an online CPU): no governor to set");
		return -1;
	}
	for (k = 0; k < cf->n; k++) {
		if (!cr_in_list(cf->p[k].available, gov)) {
			cr_say_missing(cf, k, gov, err, errlen);
			return -1;
		}
	}
	return 0;
}

/* Write gov into policy p's scaling_governor and read it back. */
static int cr_write_gov(const char *root, const struct cr_cpufreq_policy *p,
			const char *gov, char *err, size_t errlen)
{
	char path[128], full[640], *now;
	size_t len = strlen(gov);
	ssize_t w;
	int fd;

	cr_policy_path(path, sizeof(path), p->id, "scaling_governor");
	snprintf(full, sizeof(full), "%s%s", root, path);
	fd = open(full, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	/* One write: sysfs takes a store whole or not at all. */
	w = write(fd, gov, len);
	if (w != (ssize_t)len) {
		snprintf(err, errlen, "%s: writing %s: %s", path, gov,
			 w < 0 ? strerror(errno) : "short write");
		close(fd);
		return -1;
	}
	close(fd);
	now = cr_sysfs_line(root, path);
	if (!now || strcmp(now, gov)) {
		snprintf(err, errlen, "%s: wrote %s, reads %s", path, gov,
			 now ? now : "nothing back");
		free(now);
		return -1;
	}
	free(now);
	return 0;
}

int cr_cpufreq_set(const struct cr_cpufreq *cf, const char *gov, char *err,
		   size_t errlen)
{
	size_t k;

	for (k = 0; k < cf->n; k++)
		if (cr_write_gov(cf->root, &cf->p[k], gov, err, errlen))
			return -1;
	return 0;
}

int cr_cpufreq_restore(const struct cr_cpufreq *saved, char *err,
		       size_t errlen)
{
	char path[128], *now, msg[512];
	int ret = 0;
	size_t k;

	for (k = 0; k < saved->n; k++) {
		const struct cr_cpufreq_policy *p = &saved->p[k];

		cr_policy_path(path, sizeof(path), p->id, "scaling_governor");
		now = cr_sysfs_line(saved->root, path);
		if (now && !strcmp(now, p->governor)) {
			free(now);
			continue;
		}
		free(now);
		if (cr_write_gov(saved->root, p, p->governor, msg,
				 sizeof(msg)) && !ret) {
			snprintf(err, errlen, "%s", msg);
			ret = -1;
		}
	}
	return ret;
}

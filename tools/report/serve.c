// SPDX-License-Identifier: GPL-2.0
/*
 * serve.c - clkstat-report serve: the exporter.
 *
 *   clkstat-report serve --listen ADDR:PORT [--textfile FILE] [OPTIONS]
 *   clkstat-report serve --textfile FILE [--interval S] [OPTIONS]
 *   clkstat-report serve ... -i SNAPSHOT [--replay-interval S]
 *
 * --listen serves /metrics over HTTP (serve_http.c) until SIGINT or
 * SIGTERM; --textfile writes the Prometheus text format into FILE every
 * --interval, atomically (a temporary file in FILE's directory, renamed
 * over it: node_exporter's textfile collector never reads half a file),
 * and removes FILE while the module cannot be read, so that stale
 * numbers do not pass for current ones.  The socket is opened here, bound
 * to exactly the address given and nothing else, before anything starts:
 * a port in use or an address that cannot be bound is one line and exit
 * status 1.  Reading the module needs CAP_PERFMON (or root); nothing here
 * asks for more.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netdb.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include "../lib/status.h"
#include "cli.h"
#include "serve.h"

enum { O_LISTEN = CR_OPT_SERVE, O_TEXTFILE, O_INTERVAL, O_MAX_CONN,
       O_TIMEOUT, O_REPLAY_INTERVAL, O_CACHE };

static struct {
	const char *listen;
	const char *textfile;
	double interval;		/* --interval, s */
	unsigned long max_conn;
	unsigned long timeout;		/* s */
	double replay_interval;		/* s, 0: every run at once */
	unsigned long cache_ms;
	int given;			/* any of these options */
} cr_srv = { .interval = 15, .max_conn = 256, .timeout = 10,
	     .cache_ms = 1000 };

const char cr_serve_synopsis[] =
	"       clkstat-report serve --listen ADDR:PORT | --textfile FILE [OPTIONS]\n";

static int cr_serve_seconds(const char *opt, const char *v, double lo,
			    double *out)
{
	char *end;
	double d;

	errno = 0;
	d = strtod(v, &end);
	if (errno || *end || !*v || !(d >= lo) || d > 86400)
		return cr_bad_number(opt, v);
	*out = d;
	return CR_OK;
}

static int cr_serve_take(int c, const char *v)
{
	cr_srv.given = 1;
	switch (c) {
	case O_LISTEN:
		cr_srv.listen = v;
		return CR_OK;
	case O_TEXTFILE:
		cr_srv.textfile = v;
		return CR_OK;
	case O_INTERVAL:
		return cr_serve_seconds("--interval", v, 0.01, &cr_srv.interval);
	case O_REPLAY_INTERVAL:
		return cr_serve_seconds("--replay-interval", v, 0.001,
					&cr_srv.replay_interval);
	case O_MAX_CONN:
		return cr_parse_ulong("--max-connections", v, 1, 65536,
				      &cr_srv.max_conn);
	case O_TIMEOUT:
		return cr_parse_ulong("--timeout", v, 1, 3600, &cr_srv.timeout);
	default: /* O_CACHE */
		return cr_parse_ulong("--cache-ms", v, 0, 60000, &cr_srv.cache_ms);
	}
}

static const struct option cr_serve_table[] = {
	{ "listen", required_argument, NULL, O_LISTEN },
	{ "textfile", required_argument, NULL, O_TEXTFILE },
	{ "interval", required_argument, NULL, O_INTERVAL },
	{ "max-connections", required_argument, NULL, O_MAX_CONN },
	{ "timeout", required_argument, NULL, O_TIMEOUT },
	{ "replay-interval", required_argument, NULL, O_REPLAY_INTERVAL },
	{ "cache-ms", required_argument, NULL, O_CACHE },
	{ NULL, 0, NULL, 0 },
};

const struct cr_optset cr_serve_opts = {
	.opts = cr_serve_table,
	.take = cr_serve_take,
	.help =
	"      --listen ADDR:PORT  serve: /metrics over HTTP on exactly that address\n"
	"                      (127.0.0.1:9736, [::1]:9736, :9736 for every address)\n"
	"      --textfile FILE serve: write the Prometheus text format into FILE,\n"
	"                      atomically, every --interval S (default 15)\n"
	"      --max-connections N, --timeout S  serve: at most N connections\n"
	"                      (default 256), each closed after S s idle (default 10)\n"
	"      --cache-ms MS   serve: scrapes within MS ms share one read (default 1000)\n"
	"      --replay-interval S  serve -i: one run more every S s, then over again\n",
};

int cr_serve_check(const struct cr_cli *cli)
{
	if (strcmp(cli->cmd, "serve")) {
		if (!cr_srv.given)
			return CR_OK;
		fprintf(stderr, "clkstat-report: --listen, --textfile, --interval, --max-connections, --timeout, --cache-ms and --replay-interval are serve's\n");
		return CR_USAGE;
	}
	if (!cr_srv.listen && !cr_srv.textfile) {
		fprintf(stderr, "clkstat-report: serve: --listen ADDR:PORT, --textfile FILE, or both\n");
		return CR_USAGE;
	}
	if (strcmp(cli->format, "text")) {
		fprintf(stderr, "clkstat-report: serve: no --format (Prometheus asks for its format; the textfile is the Prometheus text format)\n");
		return CR_USAGE;
	}
	if (cr_srv.replay_interval > 0 && !cr_report_ninputs()) {
		fprintf(stderr, "clkstat-report: serve: --replay-interval replays an --input snapshot\n");
		return CR_USAGE;
	}
	if (cr_report_run() >= 0) {
		fprintf(stderr, "clkstat-report: serve: --run is not for serve (it replays every run)\n");
		return CR_USAGE;
	}
	return CR_OK;
}

int cr_serve_listen(const char *spec, int *usage)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_PASSIVE | AI_NUMERICSERV };
	char host[256], *colon, *end;
	struct addrinfo *ai = NULL;
	const char *h = host;
	unsigned long port;
	int fd, r, e;

	*usage = 1;
	colon = strrchr(spec, ':');
	if (!colon || (size_t)(colon - spec) >= sizeof(host)) {
		fprintf(stderr, "clkstat-report: serve: --listen '%s': ADDR:PORT (127.0.0.1:9736, [::1]:9736, :9736)\n",
			spec);
		return -1;
	}
	memcpy(host, spec, colon - spec);
	host[colon - spec] = '\0';
	errno = 0;
	port = strtoul(colon + 1, &end, 10);
	if (errno || *end || !colon[1] || colon[1] == '-' || port > 65535) {
		fprintf(stderr, "clkstat-report: serve: --listen '%s': the port is a number from 0 to 65535\n",
			spec);
		return -1;
	}
	if (host[0] == '[') {
		end = strchr(host, ']');
		if (!end || end[1]) {
			fprintf(stderr, "clkstat-report: serve: --listen '%s': an IPv6 address goes in brackets: [::1]:9736\n",
				spec);
			return -1;
		}
		*end = '\0';
		h = host + 1;
	} else if (strchr(host, ':')) {
		fprintf(stderr, "clkstat-report: serve: --listen '%s': an IPv6 address goes in brackets: [::1]:9736\n",
			spec);
		return -1;
	}
	if (!*h) {
		/* Every address: IPv6 and, dual-stack, IPv4 (below). */
		h = NULL;
		hints.ai_family = AF_INET6;
	}
	r = getaddrinfo(h, colon + 1, &hints, &ai);
	if (r && !h) {
		hints.ai_family = AF_INET;
		r = getaddrinfo(NULL, colon + 1, &hints, &ai);
	}
	if (r) {
		fprintf(stderr, "clkstat-report: serve: --listen '%s': %s\n",
			spec, gai_strerror(r));
		return -1;
	}
	*usage = 0;
	/* The first address only: "where it is told and nowhere else". */
	fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC,
		    ai->ai_protocol);
	if (fd >= 0) {
		/* Restart while old connections linger; not a shared port. */
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &(int){ 1 }, sizeof(int));
		if (ai->ai_family == AF_INET6)
			setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY,
				   &(int){ h != NULL }, sizeof(int));
		if (bind(fd, ai->ai_addr, ai->ai_addrlen) ||
		    listen(fd, SOMAXCONN)) {
			e = errno;
			close(fd);
			fd = -1;
			errno = e;
		}
	}
	if (fd < 0)
		fprintf(stderr, "clkstat-report: serve: cannot listen on %s: %s\n",
			spec, strerror(errno));
	freeaddrinfo(ai);
	return fd;
}

/* One textfile write: CR_OK, or a status (the file then removed). */
static int cr_serve_textfile(struct cr_cache *cache, int *said)
{
	const char *path = cr_srv.textfile;
	char tmp[PATH_MAX];
	struct cr_body *b;
	int fd, ok;

	b = cr_cache_get(cache, 1);
	if (!b)
		return CR_ERR;
	if (b->status != 200) {
		cr_body_put(cache, b);
		if (unlink(path) && errno != ENOENT && !*said) {
			fprintf(stderr, "clkstat-report: serve: cannot remove %s: %s\n",
				path, strerror(errno));
			*said = 1;
		}
		return CR_ERR;
	}
	/* Not *.prom: the collector must not read it before the rename. */
	if (snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path) >= (int)sizeof(tmp)) {
		cr_body_put(cache, b);
		return CR_ERR;
	}
	fd = mkstemp(tmp);
	ok = fd >= 0 && !fchmod(fd, 0644) &&
	     write(fd, b->data, b->len) == (ssize_t)b->len && !fsync(fd);
	if (fd >= 0 && close(fd))
		ok = 0;
	if (ok && rename(tmp, path))
		ok = 0;
	if (!ok) {
		if (!*said)
			fprintf(stderr, "clkstat-report: serve: cannot write %s: %s\n",
				path, strerror(errno));
		*said = 1;
		if (fd >= 0)
			unlink(tmp);
	} else {
		*said = 0;
	}
	cr_body_put(cache, b);
	return ok ? CR_OK : CR_ERR;
}

/* Room for every connection's descriptor, if the hard limit allows. */
static void cr_serve_nofile(unsigned long want)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur >= want)
		return;
	rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max > want ?
		      want : rl.rlim_max;
	setrlimit(RLIMIT_NOFILE, &rl);
}

int cr_serve_cmd(struct cr_cli *cli)
{
	struct cr_snapshot snap = { 0 };
	struct cr_http *http = NULL;
	struct cr_source src;
	struct cr_cache cache;
	struct timespec wait;
	int fd = -1, usage, said = 0, sig, st;
	sigset_t set;

	(void)cli;
	if (cr_report_ninputs()) {
		st = cr_report_read_inputs(&snap);
		if (st)
			return st;
	}
	st = cr_source_init(&src, cr_report_ninputs() ? &snap : NULL,
			    cr_srv.replay_interval);
	if (st)
		return st;
	if (cr_srv.listen) {
		fd = cr_serve_listen(cr_srv.listen, &usage);
		if (fd < 0) {
			cr_source_free(&src);
			return usage ? CR_USAGE : CR_ERR;
		}
	}
	cr_cache_init(&cache, &src, cr_srv.cache_ms);

	/* The signals are taken here, by sigtimedwait(): block them first,
	 * so that the server's thread inherits the mask. */
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	signal(SIGPIPE, SIG_IGN);
	st = CR_OK;
	if (fd >= 0) {
		cr_serve_nofile(cr_srv.max_conn + 64);
		http = cr_http_start(fd, &cache, cr_srv.max_conn, cr_srv.timeout);
		if (!http) {
			fprintf(stderr, "clkstat-report: serve: cannot start the HTTP server on %s\n",
				cr_srv.listen);
			close(fd);
			st = CR_ERR;
			goto out;
		}
		fprintf(stderr, "clkstat-report: serve: listening on %s\n",
			cr_srv.listen);
	}
	for (;;) {
		if (cr_srv.textfile)
			cr_serve_textfile(&cache, &said);
		wait.tv_sec = (time_t)cr_srv.interval;
		wait.tv_nsec = (long)((cr_srv.interval - (double)wait.tv_sec) * 1e9);
		sig = sigtimedwait(&set, NULL, cr_srv.textfile ? &wait : NULL);
		if (sig == SIGINT || sig == SIGTERM)
			break;
	}
	cr_http_stop(http);
	if (fd >= 0)
		close(fd);
out:
	cr_cache_free(&cache);
	cr_source_free(&src);
	return st;
}

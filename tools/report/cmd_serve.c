// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_serve.c - clkstat-report serve: the exporter.
 *
 *   clkstat-report serve --listen ADDR:PORT [--textfile FILE] [OPTIONS]
 *   clkstat-report serve --textfile FILE [--interval S] [OPTIONS]
 *   clkstat-report serve ... -i SNAPSHOT [--replay-interval S]
 *
 * --listen serves /metrics over HTTP (serve_http.c) until SIGINT or
 * SIGTERM; --textfile writes the Prometheus text format into FILE every
 * --interval, atomically (a temporary file in FILE's directory, renamed
 * over it: node_exporter's textfile collector never reads half a file),
 * and removes FILE while the module cannot be read (or FILE cannot be
 * written), so that stale numbers do not pass for current ones.  The
 * socket is opened here, bound to exactly the address given and nothing
 * else (a name: its first address this host can bind), before anything
 * starts: a port in use or an address that cannot be bound is one line
 * and exit status 1.  The address bound is said, numeric.  Reading the
 * module needs CAP_PERFMON (or root); nothing here asks for more.
 */
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include "../lib/file_replace.h"
#include "../lib/status.h"
#include "args.h"
#include "cli.h"
#include "input.h"
#include "output.h"
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
} cr_srv = { .interval = 15, .max_conn = 256, .timeout = 10,
	     .cache_ms = 1000 };

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

static const struct cr_optset cr_serve_opts = {
	.opts = cr_serve_table,
	.take = cr_serve_take,
	.help =
	"      --listen ADDR:PORT  /metrics over HTTP on exactly that address\n"
	"                      (127.0.0.1:9736, [::1]:9736, :9736 for every address;\n"
	"                      a name: its first address this host can bind)\n"
	"      --textfile FILE write the Prometheus text format into FILE,\n"
	"                      atomically, every --interval S (default 15)\n"
	"      --max-connections N, --timeout S  at most N connections\n"
	"                      (default 256), each closed after S s idle (default 10)\n"
	"      --cache-ms MS   scrapes within MS ms share one read (default 1000)\n"
	"      --replay-interval S  with -i: one run more every S s, then over again\n",
};

static int cr_serve_check(const struct cr_cli *cli)
{
	if (!cr_srv.listen && !cr_srv.textfile) {
		fprintf(stderr, "clkstat-report: serve: --listen ADDR:PORT, --textfile FILE, or both\n");
		return CR_USAGE;
	}
	if (cr_srv.replay_interval > 0 && !cr_input_count()) {
		fprintf(stderr, "clkstat-report: serve: --replay-interval replays an --input snapshot\n");
		return CR_USAGE;
	}
	if (cr_input_run() >= 0) {
		fprintf(stderr, "clkstat-report: serve: --run is not for serve (it replays every run)\n");
		return CR_USAGE;
	}
	return cr_output_check(cli);
}

/*
 * --listen's ADDR and PORT: host (brackets removed; empty for every
 * address) and the port's digits.  CR_OK, or CR_USAGE with the line said.
 */
static int cr_serve_split(const char *spec, char *host, size_t hlen,
			  unsigned int *port)
{
	const char *h = spec, *hend, *p;
	size_t n;

	if (spec[0] == '[') {
		h = spec + 1;
		hend = strchr(h, ']');
		if (!hend || hend == h) {
			fprintf(stderr, "clkstat-report: serve: --listen '%s': an IPv6 address goes in brackets: [::1]:9736\n",
				spec);
			return CR_USAGE;
		}
		if (hend[1] && hend[1] != ':')
			goto malformed;
		p = hend[1] ? hend + 2 : hend + 1;
	} else {
		hend = strrchr(spec, ':');
		if (!hend)
			goto malformed;
		if (memchr(spec, ':', hend - spec)) {
			fprintf(stderr, "clkstat-report: serve: --listen '%s': an IPv6 address goes in brackets: [::1]:9736\n",
				spec);
			return CR_USAGE;
		}
		p = hend + 1;
	}
	if ((size_t)(hend - h) >= hlen) {
		fprintf(stderr, "clkstat-report: serve: --listen '%s': the address is too long\n",
			spec);
		return CR_USAGE;
	}
	memcpy(host, h, hend - h);
	host[hend - h] = '\0';
	if (!*p) {
		fprintf(stderr, "clkstat-report: serve: --listen '%s': the port is missing: ADDR:PORT\n",
			spec);
		return CR_USAGE;
	}
	/* Digits only: no sign, no space, nothing strtoul() would skip. */
	n = strspn(p, "0123456789");
	if (p[n] || n > 5 || strtoul(p, NULL, 10) > 65535) {
		fprintf(stderr, "clkstat-report: serve: --listen '%s': the port is a number from 0 to 65535\n",
			spec);
		return CR_USAGE;
	}
	*port = (unsigned int)strtoul(p, NULL, 10);
	return CR_OK;
malformed:
	fprintf(stderr, "clkstat-report: serve: --listen '%s': ADDR:PORT (127.0.0.1:9736, [::1]:9736, :9736)\n",
		spec);
	return CR_USAGE;
}

/* A socket listening on sa, or -1 with errno set. */
static int cr_serve_bind(const struct sockaddr *sa, socklen_t len, int v6only)
{
	int fd, e;

	fd = socket(sa->sa_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	/*
	 * SO_REUSEADDR: restart while old connections linger; not a shared
	 * port.  IPV6_V6ONLY said either way, not left to the sysctl: the
	 * IPv6 wildcard takes IPv4 too (dual-stack), an address only itself.
	 */
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &(int){ 1 }, sizeof(int)) ||
	    (sa->sa_family == AF_INET6 &&
	     setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &v6only, sizeof(int))) ||
	    bind(fd, sa, len) || listen(fd, SOMAXCONN)) {
		e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

/* This host has no IPv6, or not this address: the next one may do. */
static int cr_serve_unavailable(int e)
{
	return e == EAFNOSUPPORT || e == EPROTONOSUPPORT || e == EADDRNOTAVAIL;
}

int cr_serve_listen(const char *spec, int *usage)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_NUMERICSERV };
	struct sockaddr_in6 any6 = { .sin6_family = AF_INET6,
				     .sin6_addr = IN6ADDR_ANY_INIT };
	struct sockaddr_in any4 = { .sin_family = AF_INET,
				    .sin_addr.s_addr = htonl(INADDR_ANY) };
	struct addrinfo *ai = NULL, *a;
	char host[256], serv[8];
	unsigned int port;
	int fd, r;

	*usage = 1;
	if (cr_serve_split(spec, host, sizeof(host), &port))
		return -1;
	*usage = 0;
	if (!*host) {
		/*
		 * Every address: the IPv6 wildcard, dual-stack; on a host
		 * without IPv6 (no such family, or not enabled) the IPv4 one.
		 */
		any6.sin6_port = any4.sin_port = htons(port);
		fd = cr_serve_bind((struct sockaddr *)&any6, sizeof(any6), 0);
		if (fd < 0 && cr_serve_unavailable(errno))
			fd = cr_serve_bind((struct sockaddr *)&any4,
					   sizeof(any4), 1);
	} else {
		/* In brackets: an IPv6 address, not a name. */
		if (spec[0] == '[')
			hints.ai_flags |= AI_NUMERICHOST;
		snprintf(serv, sizeof(serv), "%u", port);
		r = getaddrinfo(host, serv, &hints, &ai);
		if (r) {
			fprintf(stderr, "clkstat-report: serve: --listen '%s': %s\n",
				spec, gai_strerror(r));
			/*
			 * A name that does not exist is the user's to mend
			 * (status 2, which the unit does not restart); a
			 * resolver not answering yet, as at boot, may later.
			 */
			*usage = r == EAI_NONAME || r == EAI_SERVICE ||
				 r == EAI_FAMILY || r == EAI_BADFLAGS;
			return -1;
		}
		/*
		 * One address and nowhere else: a name's first that this
		 * host can bind (localhost: ::1, or 127.0.0.1 without IPv6).
		 * A port in use is an answer, not a reason to try the next.
		 */
		fd = -1;
		errno = EADDRNOTAVAIL;
		for (a = ai; a && fd < 0; a = a->ai_next) {
			fd = cr_serve_bind(a->ai_addr, a->ai_addrlen, 1);
			if (fd < 0 && !cr_serve_unavailable(errno))
				break;
		}
		r = errno;
		freeaddrinfo(ai);
		errno = r;
	}
	if (fd < 0)
		fprintf(stderr, "clkstat-report: serve: cannot listen on %s: %s\n",
			spec, strerror(errno));
	return fd;
}

/* The address fd listens on, numeric, as --listen takes it: "[::]:9736". */
static void cr_serve_where(int fd, char *buf, size_t len)
{
	char h[NI_MAXHOST], p[NI_MAXSERV];
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	int v6;

	if (getsockname(fd, (struct sockaddr *)&ss, &sl) ||
	    getnameinfo((struct sockaddr *)&ss, sl, h, sizeof(h), p, sizeof(p),
			NI_NUMERICHOST | NI_NUMERICSERV)) {
		snprintf(buf, len, "?");
		return;
	}
	v6 = ss.ss_family == AF_INET6;
	snprintf(buf, len, "%s%s%s:%s", v6 ? "[" : "", h, v6 ? "]" : "", p);
}

/*
 * No current numbers to write (why: the reason to say, NULL when the
 * source says it): the file goes, rather than stale numbers passing for
 * current ones; node_exporter then has no clkstat series, which an alert
 * can see.  Said once, until a write succeeds again.
 */
static void cr_serve_unpublish(const char *why, int *said)
{
	const char *path = cr_srv.textfile;

	if (why && !*said) {
		fprintf(stderr, "clkstat-report: serve: cannot write %s: %s (removed, not left stale)\n",
			path, why);
		*said = 1;
	}
	if (unlink(path) && errno != ENOENT && !*said) {
		fprintf(stderr, "clkstat-report: serve: cannot remove %s: %s\n",
			path, strerror(errno));
		*said = 1;
	}
}

/* One textfile write: CR_OK, or a status (the file then removed). */
static int cr_serve_textfile(struct cr_cache *cache, int *said)
{
	static int dir_said;
	const char *path = cr_srv.textfile;
	const char *step;
	char why[256];
	struct cr_body *b;
	int r, e;

	b = cr_cache_get(cache, 1);
	if (!b) {
		cr_serve_unpublish("out of memory", said);
		return CR_ERR;
	}
	if (b->status != 200) {
		cr_body_put(cache, b);
		cr_serve_unpublish(NULL, said);
		return CR_ERR;
	}
	r = cr_file_replace(path, b->data, b->len, &step);
	e = errno;
	cr_body_put(cache, b);
	if (r < 0) {
		snprintf(why, sizeof(why), "%s: %s", step, strerror(e));
		cr_serve_unpublish(why, said);
		return CR_ERR;
	}
	*said = 0;
	/*
	 * The file is current; a folder that cannot be synced only risks
	 * losing the rename to a crash.  Said once.
	 */
	if (r == CR_FILE_NOT_SYNCED && !dir_said) {
		fprintf(stderr, "clkstat-report: serve: cannot sync the folder of %s: %s\n",
			path, strerror(e));
		dir_said = 1;
	}
	return CR_OK;
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

static int cr_serve_cmd(struct cr_cli *cli)
{
	struct cr_snapshot snap = { 0 };
	struct cr_http *http = NULL;
	struct cr_source src;
	struct cr_cache cache;
	char where[NI_MAXHOST + NI_MAXSERV + 4];
	struct timespec wait;
	int fd = -1, usage, said = 0, sig, st;
	sigset_t set;

	(void)cli;
	if (cr_input_count()) {
		st = cr_input_read(&snap);
		if (st)
			return st;
	}
	st = cr_source_init(&src, cr_input_count() ? &snap : NULL,
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
		/* What was bound: a name's address, :0's port. */
		cr_serve_where(fd, where, sizeof(where));
		fprintf(stderr, "clkstat-report: serve: listening on %s%s%s%s\n",
			where, strcmp(where, cr_srv.listen) ? " (--listen " : "",
			strcmp(where, cr_srv.listen) ? cr_srv.listen : "",
			strcmp(where, cr_srv.listen) ? ")" : "");
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

static const struct cr_optset *const cr_serve_optsets[] = {
	&cr_input_opts, &cr_output_opts, &cr_serve_opts, NULL,
};

const struct cr_command cr_cmd_serve = {
	.name = "serve",
	.summary = "the Prometheus exporter: /metrics over HTTP, or a textfile",
	.synopsis =
	"       clkstat-report serve --listen ADDR:PORT | --textfile FILE [--interval S]\n"
	"                      [--max-connections N] [--timeout S] [--cache-ms MS]\n"
	"                      [-i FILE... [--replay-interval S]] [--metric NAME] [--per-cpu]\n"
	"                      [--grid BITS[:LO:HI]] [--host NAME]\n",
	.opts = cr_serve_optsets,
	.check = cr_serve_check,
	.run = cr_serve_cmd,
};

// SPDX-License-Identifier: GPL-2.0
/*
 * serve_door.c - the exporter's front door: it accepts the connections
 * itself and hands libmicrohttpd (MHD_add_connection()) those whose first
 * line is an HTTP request line; any other gets a 400 here.
 *
 * Why: libmicrohttpd 0.9.75 (Debian 12's) closes a connection whose first
 * line is not a request line at all ("GARBAGE", binary, no method)
 * without an answer; later versions answer 400, as every malformed request
 * must be answered.  The door only peeks (MSG_PEEK) at the first line; the
 * library reads the request itself, parses it and answers everything else
 * (400, 404, 405, 414, 431, 505).
 *
 * What a connection can hold here is bounded as in the library: at most
 * max_conn connections at once, waiting here or in the library (past that
 * the door stops accepting and the others wait in the listen backlog, as
 * they would without it), and a first line not complete within timeout_s
 * gets 408 and is closed, as the library closes an idle connection.  A
 * first line longer than CR_DOOR_LINE_MAX gets 414; one cut short by the
 * client's end of sending, 400.
 *
 * A socket waiting for its first line is polled edge-triggered: what came
 * is only peeked, so level-triggered it would be ready again at once and
 * spin while a slow client sends the rest.  An answered socket lingers
 * (CR_DOOR_LINGER_MS at most) until the client has sent all it meant to:
 * closed with unread data, it would send a reset that can destroy the
 * answer before the client reads it.
 */
/* accept4() */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <microhttpd.h>
#include "serve.h"

#define CR_DOOR_LINE_MAX	8192
#define CR_DOOR_LINGER_MS	2000
/* accept4() or its memory failed: listen again this much later. */
#define CR_DOOR_RETRY_NS	100000000

/* A connection whose first line has not come yet. */
struct cr_door_conn {
	int fd;
	int answered;			/* lingering: reading until the client's end */
	int64_t deadline_ns;		/* CLOCK_MONOTONIC */
	socklen_t alen;
	struct sockaddr_storage addr;
	struct cr_door_conn *prev, *next;
};

struct cr_door {
	int lfd, ep, efd;		/* listening socket, epoll, wake-up */
	int listening;			/* lfd is in ep */
	struct MHD_Daemon *d;
	unsigned int max_conn, timeout_s;
	unsigned int npending;
	int64_t retry_ns;		/* accept4() failed: not before this */
	atomic_uint active;		/* handed to the library, not closed yet */
	atomic_int stop;
	struct cr_door_conn *pending;
	pthread_t thread;
};

/* An answer of the door's own: a status, its reason, a line of text. */
struct cr_door_reply {
	int status;
	const char *reason, *text;
};

static const struct cr_door_reply cr_door_400 = {
	400, "Bad Request", "bad request: not an HTTP request line\n"
};
static const struct cr_door_reply cr_door_408 = {
	408, "Request Timeout", "request timeout\n"
};
static const struct cr_door_reply cr_door_414 = {
	414, "URI Too Long", "request line too long\n"
};

static int64_t cr_door_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/*
 * METHOD SP TARGET [SP HTTP/d.d]: a method of token characters (RFC 9110),
 * a target of printable characters.  Whether the library then accepts
 * them (the method, the version, the target's length) is its to say.
 */
static int cr_door_request_line(const char *s, size_t n)
{
	static const char tchar[] = "!#$%&'*+-.^_`|~";
	size_t i = 0, m;

	if (n && s[n - 1] == '\r')
		n--;
	while (i < n && (((s[i] | 0x20) >= 'a' && (s[i] | 0x20) <= 'z') ||
			 (s[i] >= '0' && s[i] <= '9') ||
			 (s[i] && strchr(tchar, s[i]))))
		i++;
	if (!i || i == n || s[i] != ' ')
		return 0;
	m = ++i;
	while (i < n && s[i] > ' ' && s[i] < 0x7f)
		i++;
	if (i == m)
		return 0;
	if (i == n)
		return 1;	/* HTTP/0.9's form: the library answers it */
	return n - i == 9 && !memcmp(s + i, " HTTP/", 6) &&
	       s[i + 6] >= '0' && s[i + 6] <= '9' && s[i + 7] == '.' &&
	       s[i + 8] >= '0' && s[i + 8] <= '9';
}

static void cr_door_unlink(struct cr_door *dr, struct cr_door_conn *c)
{
	epoll_ctl(dr->ep, EPOLL_CTL_DEL, c->fd, NULL);
	if (c->prev)
		c->prev->next = c->next;
	else
		dr->pending = c->next;
	if (c->next)
		c->next->prev = c->prev;
	dr->npending--;
}

/* Gone, or done lingering: forget it. */
static void cr_door_drop(struct cr_door *dr, struct cr_door_conn *c)
{
	cr_door_unlink(dr, c);
	close(c->fd);
	free(c);
}

/*
 * Read and drop what the client sends after its answer; at its end (or
 * an error) close.  Return whether it is closed.
 */
static int cr_door_drain(struct cr_door *dr, struct cr_door_conn *c)
{
	char sink[4096];
	ssize_t n;

	while ((n = recv(c->fd, sink, sizeof(sink), MSG_DONTWAIT)) > 0)
		;
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return 0;
	cr_door_drop(dr, c);
	return 1;
}

/* Answer, then linger until the client's end (cr_door_drain()). */
static void cr_door_answer(struct cr_door *dr, struct cr_door_conn *c,
			   const struct cr_door_reply *r)
{
	char buf[256];
	int n;

	n = snprintf(buf, sizeof(buf),
		     "HTTP/1.1 %d %s\r\nConnection: close\r\n"
		     "Content-Type: text/plain; charset=utf-8\r\n"
		     "Content-Length: %zu\r\n\r\n%s",
		     r->status, r->reason, strlen(r->text), r->text);
	/* A new socket's buffer takes it whole. */
	(void)!send(c->fd, buf, n, MSG_NOSIGNAL | MSG_DONTWAIT);
	shutdown(c->fd, SHUT_WR);
	c->answered = 1;
	c->deadline_ns = cr_door_now() + (int64_t)CR_DOOR_LINGER_MS * 1000000;
	cr_door_drain(dr, c);
}

/*
 * The first line, if it is all here: to the library, or answered.  Empty
 * lines before it are skipped, as HTTP/1.1 lets a server do (RFC 9112,
 * 2.2); the library skips them too.  hup: the client sends no more.
 */
static void cr_door_peek(struct cr_door *dr, struct cr_door_conn *c, int hup)
{
	char buf[CR_DOOR_LINE_MAX];
	const char *line, *nl;
	ssize_t n;

	if (c->answered) {
		cr_door_drain(dr, c);
		return;
	}
	n = recv(c->fd, buf, sizeof(buf), MSG_PEEK | MSG_DONTWAIT);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		/* Gone before a line: nobody to answer. */
		cr_door_drop(dr, c);
		return;
	}
	line = buf;
	while (line < buf + n && (*line == '\r' || *line == '\n'))
		line++;
	nl = memchr(line, '\n', buf + n - line);
	if (!nl) {
		if (n == (ssize_t)sizeof(buf))
			cr_door_answer(dr, c, &cr_door_414);
		else if (hup && line < buf + n)
			cr_door_answer(dr, c, &cr_door_400);
		else if (hup)
			cr_door_drop(dr, c);
		return;
	}
	if (!cr_door_request_line(line, nl - line)) {
		cr_door_answer(dr, c, &cr_door_400);
		return;
	}
	cr_door_unlink(dr, c);
	atomic_fetch_add(&dr->active, 1);
	/*
	 * It closes the socket itself when it refuses it at once (MHD_NO).
	 * MHD_YES only means queued (0.9.75, from a thread of ours): its own
	 * thread takes it later, says NOTIFY_CLOSED (cr_door_closed()) for
	 * it exactly once when it ends, and counts it until just after
	 * saying so.  Its limit (2 * max_conn + 16, serve_http.c) is well
	 * above ours plus that lag, so it never refuses a queued one for
	 * room; but out of memory for its pool, it closes one without any
	 * notification, and that slot stays counted here for good (a
	 * limitation: the library gives no word of it).
	 */
	if (MHD_add_connection(dr->d, c->fd, (struct sockaddr *)&c->addr,
			       c->alen) != MHD_YES)
		atomic_fetch_sub(&dr->active, 1);
	free(c);
}

static void cr_door_accept(struct cr_door *dr)
{
	struct epoll_event ev = { .events = EPOLLIN | EPOLLRDHUP | EPOLLET };
	struct cr_door_conn *c;
	int fd;

	while (dr->npending + atomic_load(&dr->active) < dr->max_conn) {
		c = calloc(1, sizeof(*c));
		if (!c) {
			/* As for EMFILE below: the socket stays ready. */
			dr->retry_ns = cr_door_now() + CR_DOOR_RETRY_NS;
			return;
		}
		c->alen = sizeof(c->addr);
		fd = accept4(dr->lfd, (struct sockaddr *)&c->addr, &c->alen,
			     SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0) {
			free(c);
			/*
			 * The backlog keeps it.  Out of descriptors (EMFILE,
			 * ...), the socket stays ready: not again at once.
			 */
			if (errno != EAGAIN && errno != EINTR &&
			    errno != ECONNABORTED)
				dr->retry_ns = cr_door_now() + CR_DOOR_RETRY_NS;
			return;
		}
		c->fd = fd;
		c->deadline_ns = cr_door_now() +
				 (int64_t)dr->timeout_s * 1000000000;
		ev.data.ptr = c;
		if (epoll_ctl(dr->ep, EPOLL_CTL_ADD, fd, &ev)) {
			close(fd);
			free(c);
			continue;
		}
		c->next = dr->pending;
		if (c->next)
			c->next->prev = c;
		dr->pending = c;
		dr->npending++;
	}
}

/*
 * The listening socket polled only while there is room, and not until
 * retry_ns after accept4() failed.
 */
static void cr_door_listen(struct cr_door *dr)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = &dr->lfd };
	int room = dr->npending + atomic_load(&dr->active) < dr->max_conn &&
		   cr_door_now() >= dr->retry_ns;

	if (room && !dr->listening)
		dr->listening = !epoll_ctl(dr->ep, EPOLL_CTL_ADD, dr->lfd, &ev);
	else if (!room && dr->listening)
		dr->listening = !!epoll_ctl(dr->ep, EPOLL_CTL_DEL, dr->lfd, NULL);
}

static void *cr_door_run(void *arg)
{
	struct cr_door *dr = arg;
	struct epoll_event evs[64];
	struct cr_door_conn *c, *next;
	int64_t now, first;
	uint64_t v;
	int i, n, wait;

	while (!atomic_load(&dr->stop)) {
		cr_door_listen(dr);
		now = cr_door_now();
		/* Waiting out a failed accept4(), or a first line's deadline. */
		first = !dr->listening && dr->retry_ns > now ? dr->retry_ns :
			INT64_MAX;
		for (c = dr->pending; c; c = c->next)
			if (c->deadline_ns < first)
				first = c->deadline_ns;
		wait = first == INT64_MAX ? -1 : first <= now ? 0 :
		       (int)((first - now) / 1000000 + 1);
		n = epoll_wait(dr->ep, evs, 64, wait);
		for (i = 0; i < n; i++) {
			if (evs[i].data.ptr == &dr->lfd)
				cr_door_accept(dr);
			else if (evs[i].data.ptr == &dr->efd)
				(void)!read(dr->efd, &v, sizeof(v));
			else
				cr_door_peek(dr, evs[i].data.ptr,
					     !!(evs[i].events &
						(EPOLLRDHUP | EPOLLHUP | EPOLLERR)));
		}
		now = cr_door_now();
		for (c = dr->pending; c; c = next) {
			next = c->next;
			if (c->deadline_ns > now)
				continue;
			if (c->answered)
				cr_door_drop(dr, c);
			else
				cr_door_answer(dr, c, &cr_door_408);
		}
	}
	return NULL;
}

void cr_door_closed(struct cr_door *dr)
{
	uint64_t one = 1;

	atomic_fetch_sub(&dr->active, 1);
	/* The door may be waiting for room to accept again. */
	(void)!write(dr->efd, &one, sizeof(one));
}

struct cr_door *cr_door_open(int lfd, unsigned int max_conn,
			     unsigned int timeout_s)
{
	struct epoll_event ev = { .events = EPOLLIN };
	struct cr_door *dr = calloc(1, sizeof(*dr));

	if (!dr)
		return NULL;
	dr->ep = dr->efd = -1;
	dr->lfd = lfd;
	dr->max_conn = max_conn;
	dr->timeout_s = timeout_s;
	/* accept4() in a loop until EAGAIN: the socket must not block. */
	fcntl(lfd, F_SETFL, fcntl(lfd, F_GETFL) | O_NONBLOCK);
	dr->ep = epoll_create1(EPOLL_CLOEXEC);
	dr->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	ev.data.ptr = &dr->efd;
	if (dr->ep < 0 || dr->efd < 0 ||
	    epoll_ctl(dr->ep, EPOLL_CTL_ADD, dr->efd, &ev)) {
		cr_door_free(dr);
		return NULL;
	}
	return dr;
}

int cr_door_start(struct cr_door *dr, struct MHD_Daemon *d)
{
	dr->d = d;
	return pthread_create(&dr->thread, NULL, cr_door_run, dr) ? -1 : 0;
}

void cr_door_stop(struct cr_door *dr)
{
	uint64_t one = 1;

	atomic_store(&dr->stop, 1);
	(void)!write(dr->efd, &one, sizeof(one));
	pthread_join(dr->thread, NULL);
}

void cr_door_free(struct cr_door *dr)
{
	struct cr_door_conn *c, *next;

	if (!dr)
		return;
	for (c = dr->pending; c; c = next) {
		next = c->next;
		close(c->fd);
		free(c);
	}
	if (dr->ep >= 0)
		close(dr->ep);
	if (dr->efd >= 0)
		close(dr->efd);
	free(dr);
}

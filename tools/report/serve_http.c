// SPDX-License-Identifier: GPL-2.0
/*
 * serve_http.c - clkstat-report serve's HTTP server, libmicrohttpd on a
 * socket cmd_serve.c opened (so that a port in use or an address that cannot
 * be bound is one clear line before anything starts).
 *
 *   GET /metrics   the exposition: OpenMetrics 1.0 when the Accept header
 *                  prefers application/openmetrics-text (Prometheus asks
 *                  so; cr_http_negotiate()), else the Prometheus text
 *                  format 0.0.4; 503 with the reason while the module
 *                  cannot be read
 *   GET /          a line pointing at /metrics
 *   HEAD           as GET, without the body
 *   other paths    404; other methods 405
 *
 * The front door (serve_door.c) accepts the connections and answers
 * those that do not begin with a request line; libmicrohttpd parses the
 * others (a malformed one gets its 400, an oversized header 431, without
 * reaching us), keeps at most max_conn connections with the door (the
 * rest wait in the listen backlog) and closes one idle for timeout_s,
 * which bounds what slow clients can hold.  One internal thread polls
 * every connection with poll(): 0.9.75's epoll mode left a few
 * connections of a burst of 1000 on a loaded machine unread until their
 * timeout.  The bodies come from the cache (serve_cache.c), shared, so a
 * scrape costs the module a read at most once per cache period.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <microhttpd.h>
#include "serve.h"

#define CR_CT_OPENMETRICS "application/openmetrics-text; version=1.0.0; charset=utf-8"
#define CR_CT_TEXT	"text/plain; version=0.0.4; charset=utf-8"

struct cr_http {
	struct MHD_Daemon *d;
	struct cr_door *door;
	struct cr_cache *cache;
};

struct cr_http_put {
	struct cr_cache *cache;
	struct cr_body *body;
};

/* A response's end: its reference to the body goes. */
static void cr_http_free_body(void *cls)
{
	struct cr_http_put *p = cls;

	cr_body_put(p->cache, p->body);
	free(p);
}

static enum MHD_Result cr_http_text(struct MHD_Connection *conn,
				    unsigned int status, const char *text)
{
	struct MHD_Response *r;
	enum MHD_Result ret;

	r = MHD_create_response_from_buffer(strlen(text), (void *)text,
					    MHD_RESPMEM_PERSISTENT);
	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
				"text/plain; charset=utf-8");
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	ret = MHD_queue_response(conn, status, r);
	MHD_destroy_response(r);
	return ret;
}

/*
 * Content negotiation (RFC 9110, 12.5.1): the best q, in thousandths,
 * given to OpenMetrics and to the text format over every Accept header.
 */
struct cr_http_accept {
	int om, text;
};

static const char *cr_http_ows(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* Past a token, or a quoted string (which may hold ',' and ';'). */
static const char *cr_http_word(const char *p)
{
	if (*p == '"') {
		for (p++; *p && *p != '"'; p++)
			if (*p == '\\' && p[1])
				p++;
		return *p ? p + 1 : p;
	}
	while (*p && !strchr(",;= \t\"", *p))
		p++;
	return p;
}

/* A qvalue ("0", "0.5", "1.000"): thousandths, or -1 if it is none. */
static int cr_http_qvalue(const char *p, size_t n)
{
	int q, scale = 100;
	size_t i;

	if (!n || (p[0] != '0' && p[0] != '1') || (n > 1 && p[1] != '.') ||
	    n > 5)
		return -1;
	q = (p[0] - '0') * 1000;
	for (i = 2; i < n; i++, scale /= 10) {
		if (p[i] < '0' || p[i] > '9')
			return -1;
		q += (p[i] - '0') * scale;
	}
	return q > 1000 ? -1 : q;
}

static int cr_http_is(const char *p, size_t n, const char *type)
{
	return n == strlen(type) && !strncasecmp(p, type, n);
}

/*
 * One Accept header: elements split on commas, each a media range and
 * parameters, of which only q matters here (1 when absent, 0 refuses).
 * An element with a malformed q is left out, as if it were not there.
 */
static void cr_http_accept_parse(struct cr_http_accept *a, const char *p)
{
	const char *type, *name, *val;
	size_t tlen, nlen;
	int q, bad;

	while (*p) {
		p = cr_http_ows(p);
		type = p;
		p = cr_http_word(p);
		tlen = p - type;
		q = 1000;
		bad = 0;
		for (;;) {
			p = cr_http_ows(p);
			if (*p != ';')
				break;
			name = p = cr_http_ows(p + 1);
			p = cr_http_word(p);
			nlen = p - name;
			p = cr_http_ows(p);
			if (*p != '=')
				continue;
			val = p = cr_http_ows(p + 1);
			p = cr_http_word(p);
			if (cr_http_is(name, nlen, "q")) {
				q = cr_http_qvalue(val, p - val);
				bad |= q < 0;
			}
		}
		/* Anything else before the next comma: not an element. */
		if (*p && *p != ',') {
			bad = 1;
			while (*p && *p != ',')
				p = *p == '"' ? cr_http_word(p) : p + 1;
		}
		if (*p == ',')
			p++;
		if (bad)
			continue;
		if (cr_http_is(type, tlen, "application/openmetrics-text")) {
			if (q > a->om)
				a->om = q;
		} else if (cr_http_is(type, tlen, "text/plain") ||
			   cr_http_is(type, tlen, "text/*") ||
			   cr_http_is(type, tlen, "*/*")) {
			if (q > a->text)
				a->text = q;
		}
	}
}

static enum MHD_Result cr_http_accept_cb(void *cls, enum MHD_ValueKind kind,
					 const char *key, const char *value)
{
	(void)kind;
	if (value && !strcasecmp(key, MHD_HTTP_HEADER_ACCEPT))
		cr_http_accept_parse(cls, value);
	return MHD_YES;
}

/*
 * OpenMetrics when the client names application/openmetrics-text with a
 * q above 0 and no lower than the best it gives text/plain, text/any or
 * any/any (the wildcards); else the text format, which is also the
 * answer to a client that accepts neither (as Prometheus's client
 * libraries do: a 406 would only lose a scrape).  A wildcard alone gets
 * the text format: curl's default Accept does not ask for OpenMetrics.
 */
static int cr_http_negotiate(struct MHD_Connection *conn)
{
	struct cr_http_accept a = { 0, 0 };

	/* Every Accept header: a list may be split over several. */
	MHD_get_connection_values(conn, MHD_HEADER_KIND, cr_http_accept_cb, &a);
	return a.om > 0 && a.om >= a.text;
}

static enum MHD_Result cr_http_metrics(struct cr_http *h,
				       struct MHD_Connection *conn)
{
	int om = cr_http_negotiate(conn);
	struct MHD_Response *r;
	struct cr_http_put *p;
	enum MHD_Result ret;
	struct cr_body *b;

	b = cr_cache_get(h->cache, !om);
	p = malloc(sizeof(*p));
	if (!b || !p) {
		if (b)
			cr_body_put(h->cache, b);
		free(p);
		return cr_http_text(conn, MHD_HTTP_INTERNAL_SERVER_ERROR,
				    "out of memory\n");
	}
	p->cache = h->cache;
	p->body = b;
	r = MHD_create_response_from_buffer_with_free_callback_cls(b->len,
			b->data, cr_http_free_body, p);
	if (!r) {
		cr_http_free_body(p);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
				b->status != 200 ? "text/plain; charset=utf-8" :
				om ? CR_CT_OPENMETRICS : CR_CT_TEXT);
	/* The answer depends on Accept: caches in between must know. */
	MHD_add_response_header(r, MHD_HTTP_HEADER_VARY, MHD_HTTP_HEADER_ACCEPT);
	ret = MHD_queue_response(conn, b->status, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result cr_http_request(void *cls, struct MHD_Connection *conn,
				       const char *url, const char *method,
				       const char *version,
				       const char *upload_data,
				       size_t *upload_data_size, void **con_cls)
{
	struct cr_http *h = cls;

	(void)version;
	(void)upload_data;
	(void)upload_data_size;
	(void)con_cls;
	if (strcmp(method, MHD_HTTP_METHOD_GET) &&
	    strcmp(method, MHD_HTTP_METHOD_HEAD))
		return cr_http_text(conn, MHD_HTTP_METHOD_NOT_ALLOWED,
				    "only GET and HEAD\n");
	if (!strcmp(url, "/metrics"))
		return cr_http_metrics(h, conn);
	if (!strcmp(url, "/"))
		return cr_http_text(conn, MHD_HTTP_OK,
				    "clkstat exporter: the metrics are at /metrics\n");
	return cr_http_text(conn, MHD_HTTP_NOT_FOUND, "not found: try /metrics\n");
}

/* A connection the door handed over is closed: room for another. */
static void cr_http_notify(void *cls, struct MHD_Connection *conn,
			   void **socket_context,
			   enum MHD_ConnectionNotificationCode toe)
{
	struct cr_http *h = cls;

	(void)conn;
	(void)socket_context;
	if (toe == MHD_CONNECTION_NOTIFY_CLOSED)
		cr_door_closed(h->door);
}

/* libmicrohttpd's own messages (a client's bad request, ...): not ours to print. */
static void cr_http_log(void *cls, const char *fmt, va_list ap)
{
	(void)cls;
	(void)fmt;
	(void)ap;
}

struct cr_http *cr_http_start(int fd, struct cr_cache *cache,
			      unsigned int max_conn, unsigned int timeout_s)
{
	struct cr_http *h = calloc(1, sizeof(*h));

	if (!h)
		return NULL;
	h->cache = cache;
	h->door = cr_door_open(fd, max_conn, timeout_s);
	if (!h->door) {
		free(h);
		return NULL;
	}
	/* No listening socket of its own: the door adds the connections. */
	h->d = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL |
				MHD_USE_NO_LISTEN_SOCKET | MHD_USE_ITC |
				MHD_USE_ERROR_LOG,
				0, NULL, NULL, cr_http_request, h,
				/*
				 * The door keeps to max_conn; the library
				 * counts a connection a little longer (until
				 * its cleanup, after telling the door it
				 * closed), and closes what it has no room for:
				 * room for that lag.
				 */
				MHD_OPTION_CONNECTION_LIMIT, 2 * max_conn + 16,
				MHD_OPTION_CONNECTION_TIMEOUT, timeout_s,
				/* HTTP/1.1 without Host, ...: 400, not a guess. */
				MHD_OPTION_STRICT_FOR_CLIENT, 1,
				MHD_OPTION_EXTERNAL_LOGGER, cr_http_log, NULL,
				MHD_OPTION_NOTIFY_CONNECTION, cr_http_notify, h,
				MHD_OPTION_END);
	if (!h->d || cr_door_start(h->door, h->d)) {
		if (h->d)
			MHD_stop_daemon(h->d);
		cr_door_free(h->door);
		free(h);
		return NULL;
	}
	return h;
}

void cr_http_stop(struct cr_http *h)
{
	if (!h)
		return;
	/* No more connections handed over; then the library's closed. */
	cr_door_stop(h->door);
	MHD_stop_daemon(h->d);
	cr_door_free(h->door);
	free(h);
}

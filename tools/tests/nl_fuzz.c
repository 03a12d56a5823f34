// SPDX-License-Identifier: GPL-2.0
/*
 * nl_fuzz - send N malformed requests to the clkstat generic netlink
 * family, read every answer, and check each against what the family's
 * documented policy and the netlink core say should come back.
 *
 *   nl_fuzz [--control FILE] N SEED
 *
 * Half of the requests are random, the other half hostile by
 * construction, one kind each (strings without a NUL or too long, u32
 * attributes of the wrong length or out of range, unknown attribute
 * types, nests that lie about their length, truncated headers, bad header
 * fields, CTRL requests the handler must refuse).  The oracle judges each
 * as the netlink core and the family's policy (Documentation/clkstat.rst,
 * "Generic netlink") say, in their order, and predicts its answer or that
 * it is dropped; a hostile CTRL must change nothing (the control file's
 * text with --control, else GET_INFO's state).
 *
 * Prints "sent N errors E replies R dropped D mismatches M" and exits 0;
 * 1 at the first mismatch or unanswered request.  Reproducible from the
 * seed (GSL's mt19937).  Every kind of request and what the oracle
 * predicts: Documentation/clkstat-hardening.rst, "The netlink family".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <gsl/gsl_rng.h>
#include "../../kmod/uapi/clkstat_netlink_ext.h"

#define MSG_CAP		(160 * 1024)	/* under the socket's send buffer */
#define ATTR_HUGE	65535		/* nla_len is a u16 */
#define TEXT_MAX	65536
#define METRIC_ID_MAX	(CLKSTAT_NAME_MAX + CLKSTAT_VARIANT_MAX - 1)	/* policy: characters, NUL not counted */
#define TRACE_MAX	CLKSTAT_TRACE_ARG_MAX
#define VARIANT_MAX	15
#define CTRL_TIMEOUT_MS	120000		/* no answer in that time: a hang */
#define BATCH		16		/* requests sent in one sendto() */
#define BATCH_MSG_MAX	4096		/* larger ones go alone */

static gsl_rng *rng;
static int fd, family;
static uint32_t seq;
static const char *control;
static int control_fd = -1;
static bool have_evlog;
/* Set by a generator whose CTRL names a metric that cannot exist. */
static bool hint_no_metric;

static unsigned long rnd(unsigned long n)
{
	return n ? gsl_rng_uniform_int(rng, n) : 0;
}

static bool chance(unsigned int percent)
{
	return rnd(100) < percent;
}

static int family_id(void)
{
	struct nl_sock *sk = nl_socket_alloc();
	int id = -1;

	if (sk && genl_connect(sk) == 0)
		id = genl_ctrl_resolve(sk, CLKSTAT_GENL_NAME);
	nl_socket_free(sk);
	return id;
}

/* ---- building requests ---- */

struct msg {
	unsigned char b[MSG_CAP];
	size_t len;		/* bytes to send */
};

static struct nlmsghdr *hdr(struct msg *m)
{
	return (struct nlmsghdr *)m->b;
}

static void start(struct msg *m, unsigned int cmd, uint16_t flags)
{
	struct genlmsghdr *gh;

	memset(m->b, 0, NLMSG_HDRLEN + GENL_HDRLEN);
	hdr(m)->nlmsg_type = family;
	hdr(m)->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	hdr(m)->nlmsg_seq = ++seq;
	gh = NLMSG_DATA(hdr(m));
	gh->cmd = cmd;
	gh->version = CLKSTAT_GENL_VERSION;
	m->len = NLMSG_HDRLEN + GENL_HDRLEN;
}

/* Sets nlmsg_len to the bytes built so far. */
static void finish(struct msg *m)
{
	hdr(m)->nlmsg_len = m->len;
}

/* An attribute with nla_len = header + n, padded; data NULL: zeros. */
static struct nlattr *attr(struct msg *m, uint16_t type, const void *data,
			   size_t n)
{
	struct nlattr *a = (struct nlattr *)(m->b + m->len);
	size_t total = NLA_ALIGN(NLA_HDRLEN + n);

	if (m->len + total > MSG_CAP)
		return NULL;
	memset(a, 0, total);
	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + n;
	if (data)
		memcpy((unsigned char *)a + NLA_HDRLEN, data, n);
	m->len += total;
	return a;
}

static void attr_u32(struct msg *m, uint16_t type, uint32_t v)
{
	attr(m, type, &v, sizeof(v));
}

static void attr_str(struct msg *m, uint16_t type, const char *s)
{
	attr(m, type, s, strlen(s) + 1);
}

/* Bytes that are never NUL, drawn once: long attributes copy from it. */
static unsigned char text_pool[2 * ATTR_HUGE];

static void fill_text(unsigned char *p, size_t n)
{
	size_t i;

	if (n > 64) {
		memcpy(p, text_pool + rnd(ATTR_HUGE), n);
		return;
	}
	for (i = 0; i < n; i++)
		p[i] = chance(80) ? 'a' + rnd(26) : 1 + rnd(255);
}

/* ---- the oracle ---- */

/* nla_ok() and nla_next() of the kernel (lib/nlattr.c). */
static bool attr_ok(const struct nlattr *a, int rem)
{
	return rem >= (int)sizeof(*a) && a->nla_len >= sizeof(*a) &&
	       a->nla_len <= rem;
}

static const struct nlattr *attr_next(const struct nlattr *a, int *rem)
{
	unsigned int total = NLA_ALIGN(a->nla_len);

	*rem -= total;
	return (const struct nlattr *)((const char *)a + total);
}

enum expect_kind {
	E_DROP,		/* no answer at all */
	E_ERR,		/* exactly this error (0: success) */
	E_POLICY,	/* refused by the policy: -EINVAL or -ERANGE */
	E_ANSWER,	/* the handler's business: any answer */
};

struct expect {
	enum expect_kind kind;
	int err;
	const char *why;
	bool changes_state;	/* a CTRL that may change something */
};

/*
 * The command's policy for one attribute; NULL if it passes.  CTRL's is
 * the spec's; the reads take no attribute (kmod/netlink.c refuses any,
 * as 6.1's core does for a command without a policy).
 */
static const char *policy_refuses(const struct nlattr *a, unsigned int cmd)
{
	unsigned int type = a->nla_type & NLA_TYPE_MASK;
	size_t n = a->nla_len - NLA_HDRLEN, max;
	const unsigned char *p = (const unsigned char *)a + NLA_HDRLEN;
	uint32_t v;

	if (type == 0 || type > CLKSTAT_A_MAX)
		return "unknown attribute type";
	if (cmd != CLKSTAT_CMD_CTRL)
		return "an attribute in a read, which takes none";
	if (type != CLKSTAT_A_CTRL_OP && type != CLKSTAT_A_TGID &&
	    type != CLKSTAT_A_METRIC_ID && type != CLKSTAT_A_VARIANT &&
	    type != CLKSTAT_A_TRACE)
		return "attribute not taken in requests";
	if (a->nla_type & NLA_F_NESTED)
		return "NLA_F_NESTED on an attribute that is no nest";
	if (type == CLKSTAT_A_CTRL_OP || type == CLKSTAT_A_TGID) {
		if (n != sizeof(uint32_t))
			return "u32 of the wrong length";
		memcpy(&v, p, sizeof(v));
		if (type == CLKSTAT_A_CTRL_OP && v > CLKSTAT_CTRL_MAX)
			return "control operation out of range";
		if (type == CLKSTAT_A_TGID && v > CLKSTAT_TGID_MAX)
			return "tgid out of range";
		return NULL;
	}
	/* NUL-terminated strings of at most max characters. */
	max = type == CLKSTAT_A_METRIC_ID ? METRIC_ID_MAX :
	      type == CLKSTAT_A_TRACE ? TRACE_MAX : VARIANT_MAX;
	if (!n || !memchr(p, '\0', n < max + 1 ? n : max + 1))
		return "string without a NUL within its maximum";
	if (n - (p[n - 1] == '\0') > max)
		return "string longer than its maximum";
	return NULL;
}

/* The attribute of type t in the request's attributes, or NULL. */
static const struct nlattr *find_attr(const unsigned char *p, int rem,
				      unsigned int t)
{
	const struct nlattr *a = (const struct nlattr *)p, *found = NULL;

	for (; attr_ok(a, rem); a = attr_next(a, &rem))
		if ((a->nla_type & NLA_TYPE_MASK) == t)
			found = a;	/* the last one counts, as nla_parse */
	return found;
}

static bool known_variant(const struct nlattr *a)
{
	static const char *const v[] = { "direct", "ftrace", "kprobe",
					 "kprobe-int3", "tracepoint", "off" };
	const char *s = (const char *)a + NLA_HDRLEN;
	unsigned int i;

	for (i = 0; i < sizeof(v) / sizeof(*v); i++)
		if (!strncmp(s, v[i], a->nla_len - NLA_HDRLEN) &&
		    strlen(v[i]) < (size_t)(a->nla_len - NLA_HDRLEN))
			return true;
	return false;
}

#define EXPECT(k, e, w) \
	((struct expect){ .kind = (k), .err = (e), .why = (w) })
#define EXPECT_CHANGE(k, e, w) \
	((struct expect){ .kind = (k), .err = (e), .why = (w), .changes_state = true })

static struct expect predict(const struct msg *m)
{
	const struct nlmsghdr *nh = (const struct nlmsghdr *)m->b;
	const struct genlmsghdr *gh = NLMSG_DATA(nh);
	const struct nlattr *a, *op;
	uint16_t flags;
	bool dump;
	int rem;
	uint32_t v;

	if (m->len < NLMSG_HDRLEN)
		return EXPECT(E_DROP, 0, "shorter than a netlink header");
	if (nh->nlmsg_len < NLMSG_HDRLEN || nh->nlmsg_len > m->len)
		return EXPECT(E_DROP, 0, "nlmsg_len below a header or past the bytes sent");
	if (nh->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN)
		return EXPECT(E_ERR, -EINVAL, "generic netlink header cut short");
	if (gh->reserved)
		return EXPECT(E_ERR, -EINVAL, "reserved field not 0");
	flags = nh->nlmsg_flags;
	dump = (flags & NLM_F_DUMP) == NLM_F_DUMP;
	if (dump)
		flags &= ~NLM_F_DUMP;
	if (flags & ~(NLM_F_REQUEST | NLM_F_ACK | NLM_F_ECHO))
		return EXPECT(E_ERR, -EINVAL, "unknown flags");
	if (gh->cmd < CLKSTAT_CMD_GET_INFO || gh->cmd > CLKSTAT_CMD_MAX)
		return EXPECT(E_ERR, -EOPNOTSUPP, "unknown command");
	if (dump != (gh->cmd == CLKSTAT_CMD_GET_HIST ||
		     gh->cmd == CLKSTAT_CMD_GET_EVENTS))
		return EXPECT(E_ERR, -EOPNOTSUPP, "do of a dump or dump of a do");

	rem = nh->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN;
	a = (const struct nlattr *)(m->b + NLMSG_HDRLEN + GENL_HDRLEN);
	for (; attr_ok(a, rem); a = attr_next(a, &rem)) {
		const char *why = policy_refuses(a, gh->cmd);

		if (why)
			return EXPECT(E_POLICY, 0, why);
	}
	if (rem > 0)
		return EXPECT(E_POLICY, 0, "bytes left over after the attributes");

	rem = nh->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN;
	switch (gh->cmd) {
	case CLKSTAT_CMD_GET_INFO:
	case CLKSTAT_CMD_GET_HIST:
		return EXPECT(E_ERR, 0, "a read");
	case CLKSTAT_CMD_GET_EVENTS:
		return have_evlog ? EXPECT(E_ERR, 0, "events") :
		       EXPECT(E_ERR, -ENODATA, "no event log");
	default:
		break;
	}
	/* CTRL */
	op = find_attr(m->b + NLMSG_HDRLEN + GENL_HDRLEN, rem, CLKSTAT_A_CTRL_OP);
	if (!op)
		return EXPECT(E_ERR, -EINVAL, "CTRL without its operation");
	memcpy(&v, (const unsigned char *)op + NLA_HDRLEN, sizeof(v));
	if (v == CLKSTAT_CTRL_TGID) {
		if (!find_attr(m->b + NLMSG_HDRLEN + GENL_HDRLEN, rem, CLKSTAT_A_TGID))
			return EXPECT(E_ERR, -EINVAL, "CTRL tgid without a tgid");
		return EXPECT_CHANGE(E_ERR, 0, "CTRL tgid");
	}
	if (v == CLKSTAT_CTRL_VARIANT) {
		a = find_attr(m->b + NLMSG_HDRLEN + GENL_HDRLEN, rem, CLKSTAT_A_VARIANT);
		if (!a)
			return EXPECT(E_ERR, -EINVAL, "CTRL variant without a variant");
		if (!known_variant(a))
			return EXPECT(E_ERR, -EINVAL, "CTRL variant: unknown variant");
		return EXPECT_CHANGE(E_ANSWER, 0, "CTRL variant");
	}
	if (v == CLKSTAT_CTRL_TRACE || v == CLKSTAT_CTRL_UNTRACE) {
		if (!find_attr(m->b + NLMSG_HDRLEN + GENL_HDRLEN, rem, CLKSTAT_A_TRACE))
			return EXPECT(E_ERR, -EINVAL, "CTRL trace without a spec");
		/*
		 * A random spec names no kernel function, and none is traced:
		 * refused (-EINVAL or -ENOENT, the module says why), nothing
		 * changed.
		 */
		return EXPECT(E_ANSWER, 0, "CTRL trace or untrace: refused");
	}
	if (!find_attr(m->b + NLMSG_HDRLEN + GENL_HDRLEN, rem, CLKSTAT_A_METRIC_ID))
		return EXPECT_CHANGE(E_ERR, 0, "CTRL start, stop or reset");
	if (hint_no_metric)
		return EXPECT(E_ERR, -EINVAL, "CTRL on a metric that does not exist");
	return EXPECT_CHANGE(E_ANSWER, 0, "CTRL on a metric");
}

/* ---- requests ---- */

/* The random request of the first nl_fuzz, on GSL's generator. */
static void random_request(struct msg *m)
{
	int nattr = rnd(6), i;

	start(m, rnd(CLKSTAT_CMD_MAX + 3), rnd(3) == 0 ? NLM_F_DUMP : 0);
	((struct genlmsghdr *)NLMSG_DATA(hdr(m)))->version =
		rnd(4) == 0 ? rnd(256) : CLKSTAT_GENL_VERSION;
	((struct genlmsghdr *)NLMSG_DATA(hdr(m)))->reserved =
		rnd(8) == 0 ? rnd(65536) : 0;
	for (i = 0; i < nattr; i++) {
		size_t plen = rnd(4) == 0 ? rnd(300) : rnd(24), j;
		struct nlattr *a;
		unsigned char *p;

		if (m->len + NLA_HDRLEN + plen + 4 > 8192)
			break;
		a = attr(m, rnd(CLKSTAT_A_MAX + 4), NULL, plen);
		if (rnd(10) == 0)
			a->nla_type |= NLA_F_NESTED;
		p = (unsigned char *)a + NLA_HDRLEN;
		for (j = 0; j < plen; j++)
			p[j] = rnd(4) ? rnd(256) : 0;
		/* Sometimes a length that runs past the message. */
		if (rnd(12) == 0)
			a->nla_len = NLA_HDRLEN + plen + 1 + rnd(4000);
	}
	finish(m);
}

/* A carrier for an attribute under test: GET_INFO, or a CTRL whose
 * attributes the policy refuses before the handler sees them. */
static void carrier(struct msg *m)
{
	if (chance(50)) {
		start(m, CLKSTAT_CMD_GET_INFO, 0);
	} else {
		start(m, CLKSTAT_CMD_CTRL, 0);
		attr_u32(m, CLKSTAT_A_CTRL_OP, rnd(CLKSTAT_CTRL_MAX + 1));
	}
}

static size_t some_length(size_t max_ok)
{
	switch (rnd(10)) {
	case 0:
	case 1:
	case 2:
		return 1 + rnd(max_ok + 2);
	case 3:
	case 4:
		return max_ok - 1 + rnd(4);	/* around the limit */
	case 5:
	case 6:
		return 64 << rnd(7);		/* 64 .. 4096 */
	case 7:
		return ATTR_HUGE - NLA_HDRLEN - rnd(8);
	default:
		return 1 + rnd(ATTR_HUGE - NLA_HDRLEN);
	}
}

static uint16_t string_type(size_t *max)
{
	switch (rnd(3)) {
	case 0:
		*max = METRIC_ID_MAX;
		return CLKSTAT_A_METRIC_ID;
	case 1:
		*max = TRACE_MAX;
		return CLKSTAT_A_TRACE;
	default:
		*max = VARIANT_MAX;
		return CLKSTAT_A_VARIANT;
	}
}

/* Strings without any NUL. */
static void h_unterminated(struct msg *m)
{
	size_t max, n;
	uint16_t t = string_type(&max);
	struct nlattr *a;

	carrier(m);
	n = some_length(max + 1);
	a = attr(m, t, NULL, n);
	if (a)
		fill_text((unsigned char *)a + NLA_HDRLEN, n);
	finish(m);
}

/* Terminated strings past the maximum, or with bytes after an early NUL. */
static void h_too_long(struct msg *m)
{
	size_t max, n;
	uint16_t t = string_type(&max);
	struct nlattr *a;
	unsigned char *p;

	carrier(m);
	n = max + 2 + rnd(ATTR_HUGE - NLA_HDRLEN - max - 2);
	if (chance(60))
		n = max + 2 + rnd(chance(50) ? 8 : 4096);
	a = attr(m, t, NULL, n);
	if (a) {
		p = (unsigned char *)a + NLA_HDRLEN;
		fill_text(p, n);
		if (chance(50))
			p[n - 1] = '\0';		/* NUL past the maximum */
		else
			p[rnd(max + 1)] = '\0';	/* early NUL, then junk */
	}
	finish(m);
}

/*
 * Strings the policy takes: at the limit, or a NUL inside; on a CTRL
 * tgid 0, which ignores them (and answers far sooner than GET_INFO, which
 * opens a sysfs file each time): its success shows the policy took them.
 */
static void h_strings_ok(struct msg *m)
{
	size_t max, n;
	uint16_t t = string_type(&max);
	struct nlattr *a;
	unsigned char *p;

	start(m, CLKSTAT_CMD_CTRL, 0);
	attr_u32(m, CLKSTAT_A_CTRL_OP, CLKSTAT_CTRL_TGID);
	attr_u32(m, CLKSTAT_A_TGID, 0);
	n = 1 + rnd(max + 1);		/* with its NUL: 1 .. max + 1 */
	if (chance(50))
		n = max + 1;
	a = attr(m, t, NULL, n);
	p = (unsigned char *)a + NLA_HDRLEN;
	fill_text(p, n);
	if (chance(70))
		p[n - 1] = '\0';
	else
		p[rnd(n)] = '\0';	/* a NUL inside, not at the end */
	finish(m);
}

/* u32 attributes of the wrong length, or out of range. */
static void h_u32(struct msg *m)
{
	uint16_t t = chance(50) ? CLKSTAT_A_CTRL_OP : CLKSTAT_A_TGID;
	struct nlattr *a;
	size_t n;

	carrier(m);
	if (chance(30)) {
		uint32_t v = t == CLKSTAT_A_CTRL_OP ?
			     CLKSTAT_CTRL_MAX + 1 + rnd(0xffffffffUL - CLKSTAT_CTRL_MAX) :
			     CLKSTAT_TGID_MAX + 1 + rnd(0xffffffffUL - CLKSTAT_TGID_MAX);

		if (chance(30))
			v = t == CLKSTAT_A_CTRL_OP ? CLKSTAT_CTRL_MAX + 1 :
			    CLKSTAT_TGID_MAX + 1;
		attr_u32(m, t, v);
	} else {
		n = chance(70) ? rnd(9) : some_length(8);
		if (n == sizeof(uint32_t))
			n = 0;
		a = attr(m, t, NULL, n);
		if (a)
			fill_text((unsigned char *)a + NLA_HDRLEN, n);
	}
	finish(m);
}

/* Types the request policy does not take. */
static void h_types(struct msg *m)
{
	static const uint16_t reply_only[] = {
		CLKSTAT_A_VERSION, CLKSTAT_A_ABI, CLKSTAT_A_FRAC_BITS,
		CLKSTAT_A_PROBES, CLKSTAT_A_CLOCKSOURCE, CLKSTAT_A_NR_CPUS,
		CLKSTAT_A_RECORDING, CLKSTAT_A_SWITCHES, CLKSTAT_A_METRIC,
		CLKSTAT_A_PAD, CLKSTAT_A_EV_ENTRIES, CLKSTAT_A_EV_COUNT,
		CLKSTAT_A_EV_OVERWRITTEN, CLKSTAT_A_EVENT,
		CLKSTAT_A_TRACE_INFO, CLKSTAT_A_TRACE_LIMIT,
	};
	uint16_t t;
	size_t n = chance(80) ? rnd(64) : some_length(64);
	struct nlattr *a;

	switch (rnd(3)) {
	case 0:
		t = 0;
		break;
	case 1:
		t = CLKSTAT_A_MAX + 1 + rnd(0x3fff - CLKSTAT_A_MAX);
		break;
	default:
		t = reply_only[rnd(sizeof(reply_only) / sizeof(*reply_only))];
		break;
	}
	carrier(m);
	a = attr(m, t, NULL, n);
	if (a) {
		fill_text((unsigned char *)a + NLA_HDRLEN, n);
		if (chance(30))
			a->nla_type |= NLA_F_NESTED;
	}
	finish(m);
}

/* Nests whose inner attributes lie about their length. */
static void h_nest(struct msg *m)
{
	static const uint16_t types[] = {
		CLKSTAT_A_METRIC, CLKSTAT_A_EVENT, CLKSTAT_A_CTRL_OP,
		CLKSTAT_A_METRIC_ID, CLKSTAT_A_VARIANT, CLKSTAT_A_TGID,
	};
	size_t inner = 4 + 4 * rnd(16), off;
	struct nlattr *outer, *in;
	unsigned char *p;

	carrier(m);
	outer = attr(m, types[rnd(sizeof(types) / sizeof(*types))] | NLA_F_NESTED,
		     NULL, inner);
	p = (unsigned char *)outer + NLA_HDRLEN;
	fill_text(p, inner);
	for (off = 0; off + NLA_HDRLEN <= inner; off += 4 * (1 + rnd(4))) {
		in = (struct nlattr *)(p + off);
		in->nla_type = rnd(CLKSTAT_A_M_MAX + 3) | (chance(30) ? NLA_F_NESTED : 0);
		switch (rnd(3)) {
		case 0:		/* past the end of the outer */
			in->nla_len = inner - off + 1 + rnd(ATTR_HUGE - inner);
			break;
		case 1:		/* shorter than a header */
			in->nla_len = rnd(NLA_HDRLEN);
			break;
		default:
			in->nla_len = NLA_HDRLEN + rnd(inner);
			break;
		}
	}
	/* The outer itself may claim more than the message holds. */
	if (chance(30))
		outer->nla_len = inner + NLA_HDRLEN + 1 + rnd(ATTR_HUGE - inner - NLA_HDRLEN);
	finish(m);
}

/* Headers cut short, lengths that do not add up. */
static void h_truncated(struct msg *m)
{
	struct nlattr *a;

	start(m, CLKSTAT_CMD_GET_INFO, 0);
	switch (rnd(5)) {
	case 0:		/* fewer bytes than a netlink header */
		finish(m);
		m->len = 1 + rnd(NLMSG_HDRLEN - 1);
		if (chance(50))
			hdr(m)->nlmsg_len = m->len;
		break;
	case 1:		/* nlmsg_len past the bytes sent */
		attr_str(m, CLKSTAT_A_METRIC_ID, "ttwu_enqueue");
		finish(m);
		hdr(m)->nlmsg_len = m->len + 1 + rnd(ATTR_HUGE);
		break;
	case 2:		/* nlmsg_len below a netlink header */
		finish(m);
		hdr(m)->nlmsg_len = rnd(NLMSG_HDRLEN);
		break;
	case 3:		/* the generic header cut short */
		m->len = NLMSG_HDRLEN + rnd(GENL_HDRLEN);
		finish(m);
		break;
	default:	/* attribute header cut short, or bytes left over */
		if (chance(50)) {
			attr_u32(m, CLKSTAT_A_TGID, 1);
			a = (struct nlattr *)(m->b + m->len);
			memset(a, 0, 4);
			m->len += 1 + rnd(3);
		} else {
			a = attr(m, CLKSTAT_A_VARIANT, "off", 4);
			a->nla_len = rnd(NLA_HDRLEN);
		}
		finish(m);
		break;
	}
}

/* Header fields: reserved, flags, commands, do against dump. */
static void h_header(struct msg *m)
{
	static const uint16_t bad_flags[] = { 0x10, 0x20, 0x100, 0x200,
					      0x400, 0x800, 0x1000, 0x8000 };
	struct genlmsghdr *gh;

	switch (rnd(4)) {
	case 0:
		start(m, CLKSTAT_CMD_GET_INFO, 0);
		gh = NLMSG_DATA(hdr(m));
		gh->reserved = 1 + rnd(65535);
		break;
	case 1:
		start(m, 1 + rnd(CLKSTAT_CMD_MAX),
		      bad_flags[rnd(sizeof(bad_flags) / sizeof(*bad_flags))] |
		      (chance(30) ? NLM_F_ECHO : 0));
		break;
	case 2:
		start(m, chance(20) ? 0 : CLKSTAT_CMD_MAX + 1 + rnd(256 - CLKSTAT_CMD_MAX - 1),
		      chance(30) ? NLM_F_DUMP : 0);
		break;
	default:
		if (chance(50))
			start(m, chance(50) ? CLKSTAT_CMD_GET_INFO : CLKSTAT_CMD_CTRL,
			      NLM_F_DUMP);
		else
			start(m, chance(50) ? CLKSTAT_CMD_GET_HIST : CLKSTAT_CMD_GET_EVENTS, 0);
		break;
	}
	finish(m);
}

/* CTRL requests that pass the policy and that the handler must refuse. */
static void h_ctrl(struct msg *m)
{
	static const char *const metrics[] = { "nosuch", "ttwu_enqueue.nosuch",
					       "ttwu_enqueue.", ".direct" };
	/* Unknown, some with a newline that would forge a log line. */
	static const char *const variants[] = { "nosuch", "kprobes", "Direct",
						"", "direct\n", "bpf-fentry",
						"a\nclkstat: x", "\x1b[2J" };

	start(m, CLKSTAT_CMD_CTRL, 0);
	switch (rnd(5)) {
	case 0:		/* no operation, maybe an argument */
		if (chance(50))
			attr_u32(m, CLKSTAT_A_TGID, rnd(100));
		break;
	case 1:
		attr_u32(m, CLKSTAT_A_CTRL_OP, CLKSTAT_CTRL_TGID);
		if (chance(50))
			attr_str(m, CLKSTAT_A_METRIC_ID, "ttwu_enqueue");
		break;
	case 2:
		attr_u32(m, CLKSTAT_A_CTRL_OP, CLKSTAT_CTRL_VARIANT);
		if (chance(50))
			attr_str(m, CLKSTAT_A_METRIC_ID, "direct");
		break;
	case 3:
		attr_u32(m, CLKSTAT_A_CTRL_OP, CLKSTAT_CTRL_VARIANT);
		attr_str(m, CLKSTAT_A_VARIANT, variants[rnd(sizeof(variants) / sizeof(*variants))]);
		break;
	default:
		attr_u32(m, CLKSTAT_A_CTRL_OP, rnd(CLKSTAT_CTRL_RESET + 1));
		attr_str(m, CLKSTAT_A_METRIC_ID, metrics[rnd(sizeof(metrics) / sizeof(*metrics))]);
		hint_no_metric = true;
		break;
	}
	finish(m);
}

/* ---- talking to the kernel ---- */

struct answer {
	bool got;
	int err;		/* 0 or a negative errno */
	char msg[256];		/* the kernel's extack message, if any */
};

/* The extack message of an NLMSG_ERROR, if it has one. */
static void ext_msg(const struct nlmsghdr *nh, char *out, size_t len)
{
	const struct nlmsgerr *e = NLMSG_DATA(nh);
	const struct nlattr *a;
	size_t off;
	int rem;

	out[0] = '\0';
	if (!(nh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	off = sizeof(*e);
	if (!(nh->nlmsg_flags & NLM_F_CAPPED))
		off += e->msg.nlmsg_len - sizeof(e->msg);
	if (NLMSG_HDRLEN + off > nh->nlmsg_len)
		return;
	rem = nh->nlmsg_len - NLMSG_HDRLEN - off;
	a = (const struct nlattr *)((const char *)e + off);
	for (; attr_ok(a, rem); a = attr_next(a, &rem))
		if (a->nla_type == NLMSGERR_ATTR_MSG)
			snprintf(out, len, "%.*s", (int)(a->nla_len - NLA_HDRLEN),
				 (const char *)a + NLA_HDRLEN);
}

/*
 * Read the answers to request s until its ack, error or DONE.  wait: false
 * for a request that must get none (the kernel answers before sendto()
 * returns, so nothing queued now means no answer).  A reply's payload is
 * passed to on_reply.
 */
static int read_answer(uint32_t s, bool wait, struct answer *ans,
		       void (*on_reply)(const struct nlmsghdr *, void *),
		       void *arg)
{
	static unsigned char rbuf[256 * 1024];

	memset(ans, 0, sizeof(*ans));
	for (;;) {
		struct nlmsghdr *nh = (struct nlmsghdr *)rbuf;
		/* Blocking reads time out after CTRL_TIMEOUT_MS (SO_RCVTIMEO). */
		ssize_t r = recv(fd, rbuf, sizeof(rbuf),
				 MSG_TRUNC | (wait ? 0 : MSG_DONTWAIT));

		if (r < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return 0;	/* nothing (more) to read */
			return -1;
		}
		if ((size_t)r > sizeof(rbuf)) {
			errno = EMSGSIZE;
			return -1;
		}
		for (; NLMSG_OK(nh, r); nh = NLMSG_NEXT(nh, r)) {
			if (nh->nlmsg_seq != s)
				continue;
			if (nh->nlmsg_type == NLMSG_ERROR) {
				ans->got = true;
				ans->err = ((struct nlmsgerr *)NLMSG_DATA(nh))->error;
				ext_msg(nh, ans->msg, sizeof(ans->msg));
				return 0;
			}
			if (nh->nlmsg_type == NLMSG_DONE) {
				ans->got = true;
				if (nh->nlmsg_len >= NLMSG_LENGTH(sizeof(int)))
					memcpy(&ans->err, NLMSG_DATA(nh), sizeof(int));
				return 0;
			}
			if (on_reply)
				on_reply(nh, arg);
		}
	}
}

static int send_msg(const struct msg *m)
{
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };

	return sendto(fd, m->b, m->len, 0, (struct sockaddr *)&kernel,
		      sizeof(kernel)) < 0 ? -errno : 0;
}

/* What GET_INFO says of the state, and that it says it well. */
struct info {
	bool ok;
	char version[64], variant[32];
	uint32_t abi, tgid, ev_entries;
	uint64_t switches;
	uint8_t recording;
};

static void info_reply(const struct nlmsghdr *nh, void *arg)
{
	struct info *in = arg;
	const struct nlattr *a;
	int rem;
	unsigned int seen = 0;

	if (nh->nlmsg_type != family ||
	    nh->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN)
		return;
	rem = nh->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN;
	a = (const struct nlattr *)((const char *)NLMSG_DATA(nh) + GENL_HDRLEN);
	for (; attr_ok(a, rem); a = attr_next(a, &rem)) {
		const void *p = (const char *)a + NLA_HDRLEN;
		size_t n = a->nla_len - NLA_HDRLEN;

		switch (a->nla_type) {
		case CLKSTAT_A_VERSION:
			snprintf(in->version, sizeof(in->version), "%.*s", (int)n,
				 (const char *)p);
			seen |= 1;
			break;
		case CLKSTAT_A_ABI:
			if (n == 4)
				memcpy(&in->abi, p, 4), seen |= 2;
			break;
		case CLKSTAT_A_VARIANT:
			snprintf(in->variant, sizeof(in->variant), "%.*s", (int)n,
				 (const char *)p);
			seen |= 4;
			break;
		case CLKSTAT_A_TGID:
			if (n == 4)
				memcpy(&in->tgid, p, 4), seen |= 8;
			break;
		case CLKSTAT_A_SWITCHES:
			if (n == 8)
				memcpy(&in->switches, p, 8), seen |= 16;
			break;
		case CLKSTAT_A_RECORDING:
			if (n == 1)
				memcpy(&in->recording, p, 1), seen |= 32;
			break;
		case CLKSTAT_A_EV_ENTRIES:
			if (n == 4)
				memcpy(&in->ev_entries, p, 4), seen |= 64;
			break;
		default:
			break;
		}
	}
	in->ok = seen == 127 && in->abi == CLKSTAT_GENL_VERSION &&
		 in->version[0];
}

static int get_info(struct info *in)
{
	static struct msg m;
	struct answer ans;

	memset(in, 0, sizeof(*in));
	start(&m, CLKSTAT_CMD_GET_INFO, 0);
	finish(&m);
	if (send_msg(&m) || read_answer(seq, true, &ans, info_reply, in))
		return -1;
	return ans.got && ans.err == 0 && in->ok ? 0 : -1;
}

static bool same_info(const struct info *x, const struct info *y)
{
	return !strcmp(x->variant, y->variant) && x->tgid == y->tgid &&
	       x->switches == y->switches && x->recording == y->recording;
}

/*
 * The control file's text in one pread() (as ctl_fuzz reads it): at
 * offset 0 seq_file makes it anew, all of it for a read with room.
 */
static int read_control(char *buf, size_t cap)
{
	ssize_t r = pread(control_fd, buf, cap - 1, 0);

	if (r < 0 || (size_t)r == cap - 1)
		return -1;
	buf[r] = '\0';
	return 0;
}

static void print_request(FILE *f, const struct msg *m)
{
	size_t i, shown = m->len < 96 ? m->len : 96;

	fprintf(f, "  request (%zu bytes):", m->len);
	for (i = 0; i < shown; i++)
		fprintf(f, "%s%02x", i % 32 ? " " : "\n    ", m->b[i]);
	if (shown < m->len)
		fprintf(f, " ...");
	fputc('\n', f);
}

static long errors, replies, dropped;	/* answered as predicted */

/*
 * The answer against the prediction: NULL if it is the one predicted
 * (and counted), else what differs, in why.
 */
static const char *check_answer(const struct expect *ex,
				const struct answer *ans, char *why, size_t len)
{
	if (ex->kind == E_DROP) {
		if (ans->got) {
			snprintf(why, len, "answered (%d) but should be dropped: %s",
				 ans->err, ex->why);
			return why;
		}
		dropped++;
		return NULL;
	}
	if (!ans->got) {
		snprintf(why, len, "no answer (%s)", ex->why);
		return why;
	}
	if ((ex->kind == E_ERR && ans->err != ex->err) ||
	    (ex->kind == E_POLICY && ans->err != -EINVAL &&
	     ans->err != -ERANGE)) {
		snprintf(why, len,
			 "answer %d (%s), want %s (%s); kernel says \"%s\"",
			 ans->err, strerror(-ans->err),
			 ex->kind == E_POLICY ? "-EINVAL or -ERANGE" :
			 ex->err ? strerror(-ex->err) : "success",
			 ex->why, ans->msg);
		return why;
	}
	if (ans->err)
		errors++;
	else
		replies++;
	return NULL;
}

/*
 * Requests that the netlink core takes one after another from one
 * sendto() go out up to BATCH at a time, and their answers come back
 * through recvmmsg(): two system calls for the batch instead of two a
 * request, which on the debug kernel is a third of a request's time.  A
 * request goes alone if it cannot share a buffer (the core stops at a
 * netlink header that does not add up, as it must for those predicted
 * dropped), may start a dump (one per socket at a time: a dump request
 * refused before its start shares), is large, or has the state checked
 * around it.
 */
static struct msg batch[BATCH];
static struct expect batch_ex[BATCH];
static long batch_idx[BATCH];
static int nbatch;

static bool batchable(const struct msg *m, const struct expect *ex,
		      bool check_state)
{
	const struct nlmsghdr *nh = (const struct nlmsghdr *)m->b;

	return ex->kind != E_DROP && !check_state &&
	       m->len <= BATCH_MSG_MAX && nh->nlmsg_len == m->len &&
	       (!(nh->nlmsg_flags & NLM_F_DUMP) || ex->kind == E_POLICY ||
		(ex->kind == E_ERR &&
		 (ex->err == -EINVAL || ex->err == -EOPNOTSUPP)));
}

/* Send batch[0..nb) in one buffer, their answers into ans[]. */
static int send_batch(int nb, struct answer *ans)
{
	static unsigned char buf[BATCH * BATCH_MSG_MAX];
	static unsigned char rbuf[BATCH][16384];
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	uint32_t first = hdr(&batch[0])->nlmsg_seq;
	struct mmsghdr mm[BATCH];
	struct iovec iov[BATCH];
	int k, got = 0, r;
	size_t len = 0;

	for (k = 0; k < nb; k++) {
		memcpy(buf + len, batch[k].b, batch[k].len);
		memset(buf + len + batch[k].len, 0,
		       NLMSG_ALIGN(batch[k].len) - batch[k].len);
		len += NLMSG_ALIGN(batch[k].len);
		memset(&ans[k], 0, sizeof(ans[k]));
	}
	if (sendto(fd, buf, len, 0, (struct sockaddr *)&kernel,
		   sizeof(kernel)) < 0)
		return -1;
	while (got < nb) {
		memset(mm, 0, sizeof(mm));
		for (k = 0; k < BATCH; k++) {
			iov[k] = (struct iovec){ rbuf[k], sizeof(rbuf[k]) };
			mm[k].msg_hdr.msg_iov = &iov[k];
			mm[k].msg_hdr.msg_iovlen = 1;
		}
		/* Waits for one (up to SO_RCVTIMEO), takes what is there. */
		r = recvmmsg(fd, mm, BATCH, MSG_WAITFORONE, NULL);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return 0;	/* the rest: no answer */
			return -1;
		}
		for (k = 0; k < r; k++) {
			struct nlmsghdr *nh = (struct nlmsghdr *)rbuf[k];
			int left = mm[k].msg_len;

			if (mm[k].msg_hdr.msg_flags & MSG_TRUNC) {
				errno = EMSGSIZE;
				return -1;
			}
			for (; NLMSG_OK(nh, left); nh = NLMSG_NEXT(nh, left)) {
				uint32_t i = nh->nlmsg_seq - first;

				if (i >= (uint32_t)nb || ans[i].got ||
				    nh->nlmsg_type != NLMSG_ERROR)
					continue;
				ans[i].got = true;
				ans[i].err = ((struct nlmsgerr *)NLMSG_DATA(nh))->error;
				ext_msg(nh, ans[i].msg, sizeof(ans[i].msg));
				got++;
			}
		}
	}
	return 0;
}

/*
 * Send the pending batch and check its answers: -1 if all are as
 * predicted, else the index of the first that is not (why says what).
 */
static int flush_batch(char *why, size_t len)
{
	static struct answer ans[BATCH];
	int k, n = nbatch;

	if (!n)
		return -1;
	nbatch = 0;
	if (send_batch(n, ans)) {
		snprintf(why, len, "a batch of %d: %s", n, strerror(errno));
		return 0;
	}
	for (k = 0; k < n; k++)
		if (check_answer(&batch_ex[k], &ans[k], why, len))
			return k;
	return -1;
}

static void usage(void)
{
	fprintf(stderr, "usage: nl_fuzz [--control FILE] N SEED\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "control", required_argument, NULL, 'c' },
		{ NULL, 0, NULL, 0 },
	};
	static void (*const hostile[])(struct msg *) = {
		h_unterminated, h_too_long, h_strings_ok, h_u32, h_types,
		h_nest, h_truncated, h_header, h_ctrl,
	};
	static char text_before[TEXT_MAX], text_after[TEXT_MAX];
	struct msg *m = NULL;
	long n, i, at = 0;
	unsigned long seed;
	struct info info_before, info_after;
	int one = 1, bufsize = 1 << 20, o, ret = 0;
	struct timeval timeout = { .tv_sec = CTRL_TIMEOUT_MS / 1000 };
	char why[512], *end;

	while ((o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (o != 'c')
			usage();
		control = optarg;
	}
	if (argc - optind != 2)
		usage();
	n = strtol(argv[optind], &end, 10);
	if (*end || n < 0)
		usage();
	seed = strtoul(argv[optind + 1], &end, 10);
	if (*end)
		usage();
	rng = gsl_rng_alloc(gsl_rng_mt19937);
	if (!rng)
		return 1;
	gsl_rng_set(rng, seed);
	for (i = 0; i < (long)sizeof(text_pool); i++)
		text_pool[i] = rnd(4) ? 'a' + rnd(26) : 1 + rnd(255);

	family = family_id();
	if (family < 0) {
		fprintf(stderr, "nl_fuzz: no clkstat family\n");
		return 1;
	}
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (fd < 0) {
		perror("nl_fuzz: socket");
		return 1;
	}
	/* Acks without the request echoed (some are 64 KiB), with extack. */
	setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
	/* Room for the largest request (root only; else the defaults do). */
	setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &bufsize, sizeof(bufsize));
	setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &bufsize, sizeof(bufsize));
	if (get_info(&info_before)) {
		fprintf(stderr, "nl_fuzz: GET_INFO failed before the first request\n");
		return 1;
	}
	if (control) {
		control_fd = open(control, O_RDONLY | O_CLOEXEC);
		if (control_fd < 0) {
			perror(control);
			return 1;
		}
	}
	have_evlog = info_before.ev_entries != 0;

	for (i = 0; i < n; i++) {
		bool is_hostile = chance(50), check_state;
		struct answer ans;
		struct expect ex;
		int err, k;

		/* Into the batch's next place: it may join the batch. */
		m = &batch[nbatch];
		hint_no_metric = false;
		if (is_hostile)
			hostile[rnd(sizeof(hostile) / sizeof(*hostile))](m);
		else
			random_request(m);
		ex = predict(m);
		/*
		 * A hostile CTRL changes nothing (random ones may): checked
		 * for every one the handler refuses, and for one in 20 of
		 * those the policy refuses before the handler runs; on the
		 * control file's text if there is one (it shows all of the
		 * state, and is cheaper to read than GET_INFO), else on
		 * GET_INFO's.
		 */
		check_state = is_hostile && !ex.changes_state &&
			      m->len >= NLMSG_HDRLEN + GENL_HDRLEN &&
			      ((struct genlmsghdr *)NLMSG_DATA(hdr(m)))->cmd ==
			      CLKSTAT_CMD_CTRL &&
			      (ex.kind == E_ERR || rnd(20) == 0);
		if (batchable(m, &ex, check_state)) {
			batch_ex[nbatch] = ex;
			batch_idx[nbatch++] = i;
			if (nbatch == BATCH) {
				k = flush_batch(why, sizeof(why));
				if (k >= 0) {
					at = batch_idx[k];
					m = &batch[k];
					goto mismatch;
				}
			}
			goto every_1000;
		}
		/* Alone, after the batch generated before it. */
		k = flush_batch(why, sizeof(why));
		if (k >= 0) {
			at = batch_idx[k];
			m = &batch[k];
			goto mismatch;
		}
		at = i;
		if (check_state) {
			if (control ? read_control(text_before, sizeof(text_before)) :
			    get_info(&info_before)) {
				snprintf(why, sizeof(why), "no state before the request");
				goto mismatch;
			}
		}
		err = send_msg(m);
		if (err) {
			/* The socket layer itself refused it: no answer. */
			snprintf(why, sizeof(why), "sendto: %s (%s)",
				 strerror(-err), ex.why);
			goto mismatch;
		}
		if (read_answer(hdr(m)->nlmsg_seq, ex.kind != E_DROP, &ans,
				NULL, NULL)) {
			snprintf(why, sizeof(why), "recv: %s", strerror(errno));
			goto mismatch;
		}
		if (check_answer(&ex, &ans, why, sizeof(why)))
			goto mismatch;
		if (check_state) {
			if (control ? read_control(text_after, sizeof(text_after)) :
			    get_info(&info_after)) {
				snprintf(why, sizeof(why), "no state after the request");
				goto mismatch;
			}
			if (control ? strcmp(text_before, text_after) != 0 :
			    !same_info(&info_before, &info_after)) {
				snprintf(why, sizeof(why),
					 "a refused CTRL (%s) changed the state", ex.why);
				goto mismatch;
			}
		}
every_1000:
		if ((i + 1) % 1000 == 0 || i + 1 == n) {
			k = flush_batch(why, sizeof(why));
			if (k >= 0) {
				at = batch_idx[k];
				m = &batch[k];
				goto mismatch;
			}
			at = i;
			if (get_info(&info_after)) {
				snprintf(why, sizeof(why),
					 "the family no longer answers GET_INFO");
				goto mismatch;
			}
		}
		continue;
mismatch:
		fprintf(stderr, "nl_fuzz: MISMATCH at request %ld of %ld, seed %lu: %s\n",
			at + 1, n, seed, why);
		print_request(stderr, m);
		ret = 1;
		break;
	}
	close(fd);
	if (control_fd >= 0)
		close(control_fd);
	gsl_rng_free(rng);
	printf("sent %ld errors %ld replies %ld dropped %ld mismatches %d\n",
	       errors + replies + dropped + ret, errors, replies, dropped, ret);
	return ret;
}

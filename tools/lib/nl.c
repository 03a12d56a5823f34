// SPDX-License-Identifier: GPL-2.0
/*
 * nl.c - talking to the clkstat module over generic netlink with libnl:
 * resolve the family, GET_INFO, the GET_HIST dump into the model (model.h),
 * CTRL (trace and untrace too).  The event log's dump is nl_events.c.
 * Errors are one line on stderr and an exit status from nl.h; a refusal's
 * line carries the module's reason when it gave one (the extended ACK's
 * message, NETLINK_EXT_ACK).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>
#include "../../kmod/uapi/clkstat_buckets.h"
#include "../../kmod/uapi/clkstat_netlink_ext.h"
#include "nl.h"

/* cr_nl_capture()'s buffer: the last error line goes there, not to stderr. */
static char *cr_nl_errbuf;
static size_t cr_nl_errlen;

void cr_nl_capture(char *buf, size_t len)
{
	cr_nl_errbuf = len ? buf : NULL;
	cr_nl_errlen = len;
	if (cr_nl_errbuf)
		*cr_nl_errbuf = '\0';
}

/* An error line ("clkstat-report: ...\n"): to stderr, or captured. */
static void __attribute__((format(printf, 1, 2))) cr_nl_err(const char *fmt, ...)
{
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	if (!cr_nl_errbuf) {
		vfprintf(stderr, fmt, ap);
	} else {
		vsnprintf(cr_nl_errbuf, cr_nl_errlen, fmt, ap);
		n = strlen(cr_nl_errbuf);
		if (n && cr_nl_errbuf[n - 1] == '\n')
			cr_nl_errbuf[n - 1] = '\0';
	}
	va_end(ap);
}

/*
 * How long a reply may keep us waiting: a module stuck in a dump must not
 * hang the reader (the exporter above all) for good.  A control request
 * (CTRL: variant switches, trace add, ...) waits for the module's grace
 * periods (RCU-tasks, ...), seconds on a slow or debug kernel, and has
 * no limit (cr_nl_transact()): cut short, it would be said to fail after
 * the module did it.
 */
#define CR_NL_TIMEOUT_S	5

struct cr_nl {
	struct nl_sock *sk;
	int family;
	/* The last request's refusal: the module's reason, if it gave one. */
	char why[256];
};

static int cr_status_of(struct cr_nl *nl, int nlerr, const char *what)
{
	int err = nlerr < 0 ? -nlerr : nlerr;

	if (err == NLE_PERM) {
		/* The module's own reason, where it gave one (lockdown). */
		if (nl->why[0])
			cr_nl_err("clkstat-report: %s: permission denied: %s\n",
				what, nl->why);
		else
			cr_nl_err("clkstat-report: %s: permission denied (reading needs CAP_PERFMON or CAP_SYS_ADMIN, control CAP_SYS_ADMIN)\n",
				what);
		return CR_PERM;
	}
	if (nl->why[0]) {
		cr_nl_err("clkstat-report: %s: %s\n", what, nl->why);
		return CR_ERR;
	}
	/* recvmsg()'s EAGAIN: SO_RCVTIMEO ran out. */
	if (err == NLE_AGAIN) {
		cr_nl_err("clkstat-report: %s: the module did not answer within %d s\n",
			what, CR_NL_TIMEOUT_S);
		return CR_ERR;
	}
	/* The module logs why it refused a command; the errno says little. */
	cr_nl_err("clkstat-report: %s: %s%s\n", what, nl_geterror(nlerr),
		!strncmp(what, "ctrl", 4) && err == NLE_INVAL ?
		" (the kernel log says why)" : "");
	return CR_ERR;
}

/*
 * An error reply: keep the extended ACK's message
 * (NLMSGERR_ATTR_MSG, after the request echoed unless NLM_F_CAPPED), then
 * stop: libnl returns the errno.
 */
static int cr_err_cb(struct sockaddr_nl *who, struct nlmsgerr *e, void *arg)
{
	const struct nlmsghdr *hdr = (const void *)((const char *)e -
						    NLMSG_HDRLEN);
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];
	struct cr_nl *nl = arg;
	size_t off = sizeof(*e);
	long len;

	(void)who;
	if (!(hdr->nlmsg_flags & NLM_F_ACK_TLVS))
		return NL_STOP;
	if (!(hdr->nlmsg_flags & NLM_F_CAPPED) && e->msg.nlmsg_len > NLMSG_HDRLEN)
		off += e->msg.nlmsg_len - NLMSG_HDRLEN;
	len = (long)hdr->nlmsg_len - NLMSG_HDRLEN - (long)NLMSG_ALIGN(off);
	if (len <= 0 ||
	    nla_parse(tb, NLMSGERR_ATTR_MAX,
		      (struct nlattr *)((char *)e + NLMSG_ALIGN(off)), (int)len,
		      NULL) < 0 ||
	    !tb[NLMSGERR_ATTR_MSG] || nla_len(tb[NLMSGERR_ATTR_MSG]) < 2)
		return NL_STOP;
	snprintf(nl->why, sizeof(nl->why), "%.*s",
		 nla_len(tb[NLMSGERR_ATTR_MSG]),
		 (const char *)nla_data(tb[NLMSGERR_ATTR_MSG]));
	return NL_STOP;
}

/* SO_RCVTIMEO: s seconds, or 0 for none. */
static int cr_nl_timeout(struct cr_nl *nl, int s)
{
	struct timeval tv = { .tv_sec = s };

	return setsockopt(nl_socket_get_fd(nl->sk), SOL_SOCKET, SO_RCVTIMEO,
			  &tv, sizeof(tv));
}

struct cr_nl *cr_nl_open(int *status)
{
	struct cr_nl *nl = calloc(1, sizeof(*nl));
	int err;

	*status = CR_ERR;
	if (!nl)
		return NULL;
	nl->sk = nl_socket_alloc();
	if (!nl->sk || (err = genl_connect(nl->sk)) < 0) {
		cr_nl_err("clkstat-report: cannot open a generic netlink socket\n");
		goto fail;
	}
	/* The family's resolution (the kernel's own) is bounded too. */
	if (cr_nl_timeout(nl, CR_NL_TIMEOUT_S)) {
		cr_nl_err("clkstat-report: cannot set the netlink socket's timeout: %s\n",
			strerror(errno));
		goto fail;
	}
	/*
	 * The module's reasons come in extended ACKs; the request need not
	 * be echoed back.  Kernels without them leave the errno alone.
	 */
	setsockopt(nl_socket_get_fd(nl->sk), SOL_NETLINK, NETLINK_EXT_ACK,
		   &(int){ 1 }, sizeof(int));
	setsockopt(nl_socket_get_fd(nl->sk), SOL_NETLINK, NETLINK_CAP_ACK,
		   &(int){ 1 }, sizeof(int));
	nl->family = genl_ctrl_resolve(nl->sk, CLKSTAT_GENL_NAME);
	/* From here cr_nl_msg() asks for the ACKs cr_nl_transact() awaits. */
	nl_socket_disable_auto_ack(nl->sk);
	if (nl->family == -NLE_AGAIN) {
		cr_nl_err("clkstat-report: the kernel did not resolve the generic netlink family \"%s\" within %d s\n",
			CLKSTAT_GENL_NAME, CR_NL_TIMEOUT_S);
		goto fail;
	}
	if (nl->family < 0) {
		cr_nl_err("clkstat-report: the clkstat module is not loaded (no generic netlink family \"%s\")\n",
			CLKSTAT_GENL_NAME);
		*status = CR_NOT_LOADED;
		goto fail;
	}
	*status = CR_OK;
	return nl;
fail:
	cr_nl_close(nl);
	return NULL;
}

void cr_nl_close(struct cr_nl *nl)
{
	if (!nl)
		return;
	nl_socket_free(nl->sk);
	free(nl);
}

/*
 * A do-request asks for an ACK, which comes after its reply; a dump ends
 * with DONE.  The transaction waits for that end, so that nothing of one
 * request is left in the socket for the next (libnl's nl_recvmsgs()
 * returns after a do-request's reply, before its ACK).
 */
struct nl_msg *cr_nl_msg(struct cr_nl *nl, int cmd, int flags)
{
	struct nl_msg *msg = nlmsg_alloc();

	if (!(flags & NLM_F_DUMP))
		flags |= NLM_F_ACK;
	if (msg && !genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, nl->family, 0,
				flags, cmd, CLKSTAT_GENL_VERSION)) {
		nlmsg_free(msg);
		msg = NULL;
	}
	return msg;
}

static int cr_end_cb(struct nl_msg *msg, void *arg)
{
	(void)msg;
	*(int *)arg = 1;
	return NL_STOP;
}

/* The replies to the request sent, until its ACK or DONE: a libnl error. */
static int cr_nl_wait(struct cr_nl *nl, nl_recvmsg_msg_cb_t cb, void *arg)
{
	int err, done = 0;

	nl_socket_modify_err_cb(nl->sk, NL_CB_CUSTOM, cr_err_cb, nl);
	nl_socket_modify_cb(nl->sk, NL_CB_VALID, NL_CB_CUSTOM, cb, arg);
	nl_socket_modify_cb(nl->sk, NL_CB_ACK, NL_CB_CUSTOM, cr_end_cb, &done);
	nl_socket_modify_cb(nl->sk, NL_CB_FINISH, NL_CB_CUSTOM, cr_end_cb,
			    &done);
	/*
	 * A callback that stops at a malformed reply leaves its status in
	 * arg; the loop still reads on to the ACK or DONE.
	 */
	while (!done) {
		err = nl_recvmsgs_default(nl->sk);
		if (err < 0)
			return err;
	}
	return 0;
}

int cr_nl_transact(struct cr_nl *nl, struct nl_msg *msg,
		   nl_recvmsg_msg_cb_t cb, void *arg, const char *what)
{
	int err, ctrl;

	nl->why[0] = '\0';
	if (!msg) {
		cr_nl_err("clkstat-report: %s: out of memory\n", what);
		return CR_ERR;
	}
	ctrl = genlmsg_hdr(nlmsg_hdr(msg))->cmd == CLKSTAT_CMD_CTRL;
	if (ctrl && cr_nl_timeout(nl, 0)) {
		nlmsg_free(msg);
		cr_nl_err("clkstat-report: %s: cannot lift the netlink socket's timeout: %s\n",
			what, strerror(errno));
		return CR_ERR;
	}
	err = nl_send_auto(nl->sk, msg);
	nlmsg_free(msg);
	if (err >= 0)
		err = cr_nl_wait(nl, cb, arg);
	/* Back to the readers' limit: the same call just worked here. */
	if (ctrl)
		(void)cr_nl_timeout(nl, CR_NL_TIMEOUT_S);
	return err < 0 ? cr_status_of(nl, err, what) : CR_OK;
}

struct cr_info_ctx {
	struct cr_info *info;
	int status;
};

static void cr_copy_str(char *dst, size_t len, const struct nlattr *a)
{
	if (a)
		snprintf(dst, len, "%s", (const char *)nla_data(a));
}

static int cr_info_cb(struct nl_msg *msg, void *arg)
{
	static struct nla_policy pol[CLKSTAT_A_MAX + 1] = {
		[CLKSTAT_A_VERSION] = { .type = NLA_STRING },
		[CLKSTAT_A_ABI] = { .type = NLA_U32 },
		[CLKSTAT_A_FRAC_BITS] = { .type = NLA_U32 },
		[CLKSTAT_A_PROBES] = { .type = NLA_STRING },
		[CLKSTAT_A_VARIANT] = { .type = NLA_STRING },
		[CLKSTAT_A_CLOCKSOURCE] = { .type = NLA_STRING },
		[CLKSTAT_A_NR_CPUS] = { .type = NLA_U32 },
		[CLKSTAT_A_RECORDING] = { .type = NLA_U8 },
		[CLKSTAT_A_SWITCHES] = { .type = NLA_U64 },
		[CLKSTAT_A_TGID] = { .type = NLA_U32 },
		[CLKSTAT_A_EV_ENTRIES] = { .type = NLA_U32 },
		[CLKSTAT_A_TRACE_LIMIT] = { .type = NLA_U32 },
		[CLKSTAT_A_CLOCK] = { .type = NLA_STRING },
		[CLKSTAT_A_REENTERED] = { .type = NLA_U64 },
	};
	static struct nla_policy tpol[CLKSTAT_A_T_MAX + 1] = {
		[CLKSTAT_A_T_ID] = { .type = NLA_U32 },
		[CLKSTAT_A_T_SPEC] = { .type = NLA_STRING },
	};
	struct cr_info_ctx *ctx = arg;
	struct cr_info *info = ctx->info;
	struct nlattr *tb[CLKSTAT_A_MAX + 1], *t[CLKSTAT_A_T_MAX + 1], *a;
	struct cr_trace_info *ti;
	int rem;

	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, CLKSTAT_A_MAX, pol) < 0) {
		cr_nl_err("clkstat-report: info: malformed reply\n");
		ctx->status = CR_ERR;
		return NL_STOP;
	}
	if (!tb[CLKSTAT_A_ABI] ||
	    nla_get_u32(tb[CLKSTAT_A_ABI]) != CLKSTAT_GENL_VERSION) {
		cr_nl_err("clkstat-report: the module speaks ABI %u, this tool %u: use the tool built with the module\n",
			tb[CLKSTAT_A_ABI] ? nla_get_u32(tb[CLKSTAT_A_ABI]) : 0,
			CLKSTAT_GENL_VERSION);
		ctx->status = CR_ABI;
		return NL_STOP;
	}
	info->abi = nla_get_u32(tb[CLKSTAT_A_ABI]);
	cr_copy_str(info->version, sizeof(info->version), tb[CLKSTAT_A_VERSION]);
	cr_copy_str(info->probes, sizeof(info->probes), tb[CLKSTAT_A_PROBES]);
	cr_copy_str(info->variant, sizeof(info->variant), tb[CLKSTAT_A_VARIANT]);
	cr_copy_str(info->clocksource, sizeof(info->clocksource),
		    tb[CLKSTAT_A_CLOCKSOURCE]);
	cr_copy_str(info->clock, sizeof(info->clock), tb[CLKSTAT_A_CLOCK]);
	if (tb[CLKSTAT_A_FRAC_BITS])
		info->frac_bits = nla_get_u32(tb[CLKSTAT_A_FRAC_BITS]);
	if (tb[CLKSTAT_A_NR_CPUS])
		info->nr_cpus = nla_get_u32(tb[CLKSTAT_A_NR_CPUS]);
	if (tb[CLKSTAT_A_RECORDING])
		info->recording = nla_get_u8(tb[CLKSTAT_A_RECORDING]);
	if (tb[CLKSTAT_A_SWITCHES])
		info->switches = nla_get_u64(tb[CLKSTAT_A_SWITCHES]);
	info->reentered = tb[CLKSTAT_A_REENTERED] ?
			  (int64_t)nla_get_u64(tb[CLKSTAT_A_REENTERED]) : -1;
	if (tb[CLKSTAT_A_TGID])
		info->tgid = nla_get_u32(tb[CLKSTAT_A_TGID]);
	if (tb[CLKSTAT_A_EV_ENTRIES]) {
		info->have_ev_entries = 1;
		info->ev_entries = nla_get_u32(tb[CLKSTAT_A_EV_ENTRIES]);
	}
	if (tb[CLKSTAT_A_TRACE_LIMIT])
		info->trace_limit = nla_get_u32(tb[CLKSTAT_A_TRACE_LIMIT]);
	/* The nests are top-level attributes, one per user-defined probe. */
	nlmsg_for_each_attr(a, nlmsg_hdr(msg), GENL_HDRLEN, rem) {
		if (nla_type(a) != CLKSTAT_A_TRACE_INFO)
			continue;
		if (nla_parse_nested(t, CLKSTAT_A_T_MAX, a, tpol) < 0 ||
		    !t[CLKSTAT_A_T_ID] || !t[CLKSTAT_A_T_SPEC] ||
		    nla_len(t[CLKSTAT_A_T_SPEC]) > CR_NAME_MAX ||
		    info->ntraces == CLKSTAT_TRACE_MAX) {
			cr_nl_err("clkstat-report: info: malformed reply (a user-defined probe)\n");
			ctx->status = CR_ERR;
			return NL_STOP;
		}
		ti = &info->traces[info->ntraces++];
		ti->id = nla_get_u32(t[CLKSTAT_A_T_ID]);
		cr_copy_str(ti->spec, sizeof(ti->spec), t[CLKSTAT_A_T_SPEC]);
	}
	return NL_OK;
}

int cr_nl_get_info(struct cr_nl *nl, struct cr_info *info)
{
	struct cr_info_ctx ctx = { .info = info, .status = CR_OK };
	int st;

	memset(info, 0, sizeof(*info));
	st = cr_nl_transact(nl, cr_nl_msg(nl, CLKSTAT_CMD_GET_INFO, 0),
			    cr_info_cb, &ctx, "info");
	return st ? st : ctx.status;
}

struct cr_hist_ctx {
	struct cr_run *run;
	int status;
};

/* The histogram a message continues: the metric's total or one CPU's. */
static struct cr_hist *cr_hist_of(struct cr_run *r, struct nlattr **m)
{
	const char *name = nla_get_string(m[CLKSTAT_A_M_NAME]);
	const char *variant = nla_get_string(m[CLKSTAT_A_M_VARIANT]);
	uint32_t cpu = nla_get_u32(m[CLKSTAT_A_M_CPU]);
	struct cr_metric *met;
	struct cr_hist *h;

	if (strlen(name) >= CR_NAME_MAX || strlen(variant) >= CR_VARIANT_MAX)
		return NULL;
	met = cr_run_find(r, name, variant);
	if (!met) {
		met = cr_run_add_metric(r);
		if (!met)
			return NULL;
		strcpy(met->name, name);
		strcpy(met->variant, variant);
		if (!m[CLKSTAT_A_M_FRAC_BITS] ||
		    nla_get_u32(m[CLKSTAT_A_M_FRAC_BITS]) >
		    CLKSTAT_FRAC_BITS_MAX)
			return NULL;
		met->frac_bits = nla_get_u32(m[CLKSTAT_A_M_FRAC_BITS]);
	}
	if (m[CLKSTAT_A_M_RECORDING])
		met->recording = nla_get_u8(m[CLKSTAT_A_M_RECORDING]);
	if (m[CLKSTAT_A_M_RESETS]) {
		met->has_resets = 1;
		met->resets = nla_get_u64(m[CLKSTAT_A_M_RESETS]);
	}
	if (m[CLKSTAT_A_M_CREATED_NS])
		met->created_ns = nla_get_u64(m[CLKSTAT_A_M_CREATED_NS]);
	if (cpu == CR_CPU_ALL)
		return &met->total;
	/* The dump sends CPUs in ascending order, each one's chunks together. */
	if (met->ncpus && met->cpus[met->ncpus - 1].cpu == cpu)
		return &met->cpus[met->ncpus - 1];
	if (met->ncpus && met->cpus[met->ncpus - 1].cpu > cpu)
		return NULL;
	h = realloc(met->cpus, (met->ncpus + 1) * sizeof(*h));
	if (!h)
		return NULL;
	met->cpus = h;
	h = &met->cpus[met->ncpus++];
	*h = (struct cr_hist){ .cpu = cpu, .min = UINT64_MAX };
	return h;
}

static int cr_hist_cb(struct nl_msg *msg, void *arg)
{
	static struct nla_policy mpol[CLKSTAT_A_M_MAX + 1] = {
		[CLKSTAT_A_M_NAME] = { .type = NLA_STRING },
		[CLKSTAT_A_M_VARIANT] = { .type = NLA_STRING },
		[CLKSTAT_A_M_FRAC_BITS] = { .type = NLA_U32 },
		[CLKSTAT_A_M_RECORDING] = { .type = NLA_U8 },
		[CLKSTAT_A_M_CPU] = { .type = NLA_U32 },
		[CLKSTAT_A_M_MIN_NS] = { .type = NLA_U64 },
		[CLKSTAT_A_M_MAX_NS] = { .type = NLA_U64 },
		[CLKSTAT_A_M_RESETS] = { .type = NLA_U64 },
		[CLKSTAT_A_M_CREATED_NS] = { .type = NLA_U64 },
	};
	struct cr_hist_ctx *ctx = arg;
	struct nlattr *tb[CLKSTAT_A_MAX + 1], *m[CLKSTAT_A_M_MAX + 1];
	struct nlattr *a, *c[CLKSTAT_A_C_MAX + 1];
	const struct clkstat_nl_slot *s;
	struct cr_metric *met;
	struct cr_hist *h;
	struct cr_slot *slots;
	size_t i, n;
	int rem;

	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, CLKSTAT_A_MAX, NULL) < 0 ||
	    !tb[CLKSTAT_A_METRIC] ||
	    nla_parse_nested(m, CLKSTAT_A_M_MAX, tb[CLKSTAT_A_METRIC], mpol) < 0 ||
	    !m[CLKSTAT_A_M_NAME] || !m[CLKSTAT_A_M_VARIANT] ||
	    !m[CLKSTAT_A_M_CPU] ||
	    (m[CLKSTAT_A_M_SLOTS] && nla_len(m[CLKSTAT_A_M_SLOTS]) % sizeof(*s)))
		goto bad;
	h = cr_hist_of(ctx->run, m);
	if (!h)
		goto bad;
	met = cr_run_find(ctx->run, nla_get_string(m[CLKSTAT_A_M_NAME]),
			  nla_get_string(m[CLKSTAT_A_M_VARIANT]));
	if (m[CLKSTAT_A_M_MIN_NS])
		h->min = nla_get_u64(m[CLKSTAT_A_M_MIN_NS]);
	if (m[CLKSTAT_A_M_MAX_NS])
		h->max = nla_get_u64(m[CLKSTAT_A_M_MAX_NS]);
	/* Counters come with every CPU; the model keeps the all-CPU ones. */
	if (h == &met->total) {
		nla_for_each_nested(a, tb[CLKSTAT_A_METRIC], rem) {
			if (nla_type(a) != CLKSTAT_A_M_COUNTER)
				continue;
			if (nla_parse_nested(c, CLKSTAT_A_C_MAX, a, NULL) < 0 ||
			    !c[CLKSTAT_A_C_NAME] || !c[CLKSTAT_A_C_VALUE] ||
			    met->ncounters == CR_COUNTERS_MAX)
				goto bad;
			snprintf(met->counters[met->ncounters].name, CR_NAME_MAX,
				 "%s", nla_get_string(c[CLKSTAT_A_C_NAME]));
			met->counters[met->ncounters++].value =
				nla_get_u64(c[CLKSTAT_A_C_VALUE]);
		}
	}
	if (!m[CLKSTAT_A_M_SLOTS])
		return NL_OK;
	s = nla_data(m[CLKSTAT_A_M_SLOTS]);
	n = nla_len(m[CLKSTAT_A_M_SLOTS]) / sizeof(*s);
	if (!n)
		return NL_OK;
	slots = realloc(h->slots, (h->nslots + n) * sizeof(*slots));
	if (!slots)
		goto nomem;
	h->slots = slots;
	for (i = 0; i < n; i++) {
		if (s[i].slot >= CLKSTAT_NSLOTS(met->frac_bits) ||
		    (h->nslots && s[i].slot <= h->slots[h->nslots - 1].slot))
			goto bad;
		h->slots[h->nslots++] = (struct cr_slot){
			.slot = s[i].slot, .count = s[i].count, .sum = s[i].sum,
		};
	}
	return NL_OK;
nomem:
	cr_nl_err("clkstat-report: histograms: out of memory\n");
	ctx->status = CR_ERR;
	return NL_STOP;
bad:
	cr_nl_err("clkstat-report: histograms: malformed message\n");
	ctx->status = CR_ERR;
	return NL_STOP;
}

int cr_nl_get_hist(struct cr_nl *nl, struct cr_run *out)
{
	struct cr_hist_ctx ctx = { .run = out, .status = CR_OK };
	int st;

	st = cr_nl_transact(nl, cr_nl_msg(nl, CLKSTAT_CMD_GET_HIST,
					  NLM_F_DUMP),
			    cr_hist_cb, &ctx, "histograms");
	st = st ? st : ctx.status;
	if (st)
		cr_run_free(out);
	return st;
}

static int cr_ignore_cb(struct nl_msg *msg, void *arg)
{
	(void)msg;
	(void)arg;
	return NL_OK;
}

int cr_nl_trace(struct cr_nl *nl, int add, const char *spec, const char *what)
{
	static const char *const texts[] = CLKSTAT_TRACE_ERROR_TEXTS_INIT;
	struct clkstat_trace_spec t;
	char buf[CLKSTAT_TRACE_ARG_MAX + 96];
	struct nl_msg *msg;
	int e;

	if (!what) {
		snprintf(buf, sizeof(buf), "trace %s %.*s", add ? "add" : "del",
			 CLKSTAT_TRACE_ARG_MAX, spec);
		what = buf;
	}
	/* The module's own check, with its words, before anything is sent. */
	e = clkstat_trace_parse(spec, &t);
	if (e) {
		cr_nl_err("clkstat-report: %s: %s\n", what,
			e > 0 && e < CLKSTAT_TRACE_NERRORS ? texts[e] : "invalid");
		return CR_USAGE;
	}
	msg = cr_nl_msg(nl, CLKSTAT_CMD_CTRL, 0);
	if (msg && (nla_put_u32(msg, CLKSTAT_A_CTRL_OP, add ? CLKSTAT_CTRL_TRACE :
				CLKSTAT_CTRL_UNTRACE) < 0 ||
		    nla_put_string(msg, CLKSTAT_A_TRACE, t.name) < 0)) {
		nlmsg_free(msg);
		msg = NULL;
	}
	return cr_nl_transact(nl, msg, cr_ignore_cb, NULL, what);
}

int cr_nl_ctrl(struct cr_nl *nl, const char *op, const char *arg)
{
	static const char *const ops[] = CLKSTAT_CTRL_WORDS_INIT;
	struct nl_msg *msg;
	char what[CLKSTAT_TRACE_ARG_MAX + 32];
	unsigned int i;
	char *end;
	long v;

	for (i = 0; i <= CLKSTAT_CTRL_MAX; i++)
		if (!strcmp(op, ops[i]))
			break;
	if (i > CLKSTAT_CTRL_MAX) {
		cr_nl_err("clkstat-report: ctrl: unknown command '%s' (start, stop, reset, tgid, variant, trace, untrace)\n",
			op);
		return CR_USAGE;
	}
	if ((i == CLKSTAT_CTRL_TGID || i == CLKSTAT_CTRL_VARIANT ||
	     i == CLKSTAT_CTRL_TRACE || i == CLKSTAT_CTRL_UNTRACE) && !arg) {
		cr_nl_err("clkstat-report: ctrl %s: missing argument\n", op);
		return CR_USAGE;
	}
	snprintf(what, sizeof(what), "ctrl %s%s%.*s", op, arg ? " " : "",
		 CLKSTAT_TRACE_ARG_MAX, arg ? arg : "");
	if (i == CLKSTAT_CTRL_TRACE || i == CLKSTAT_CTRL_UNTRACE)
		return cr_nl_trace(nl, i == CLKSTAT_CTRL_TRACE, arg, what);
	msg = cr_nl_msg(nl, CLKSTAT_CMD_CTRL, 0);
	if (!msg)
		return cr_nl_transact(nl, NULL, cr_ignore_cb, NULL, what);
	if (nla_put_u32(msg, CLKSTAT_A_CTRL_OP, i) < 0)
		goto full;
	if (i == CLKSTAT_CTRL_TGID) {
		errno = 0;
		v = strtol(arg, &end, 10);
		if (errno || *end || v < 0 || v > CLKSTAT_TGID_MAX) {
			cr_nl_err("clkstat-report: ctrl tgid: '%s' is not a tgid\n",
				arg);
			nlmsg_free(msg);
			return CR_USAGE;
		}
		if (nla_put_u32(msg, CLKSTAT_A_TGID, (uint32_t)v) < 0)
			goto full;
	} else if (i == CLKSTAT_CTRL_VARIANT) {
		if (nla_put_string(msg, CLKSTAT_A_VARIANT, arg) < 0)
			goto full;
	} else if (arg && nla_put_string(msg, CLKSTAT_A_METRIC_ID, arg) < 0) {
		goto full;
	}
	return cr_nl_transact(nl, msg, cr_ignore_cb, NULL, what);
full:
	nlmsg_free(msg);
	cr_nl_err("clkstat-report: ctrl: argument too long\n");
	return CR_USAGE;
}

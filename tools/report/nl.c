// SPDX-License-Identifier: GPL-2.0
/*
 * nl.c - talking to the clkstat module over generic netlink with libnl:
 * resolve the family, GET_INFO, the GET_HIST dump, CTRL.  Errors are one
 * line on stderr and an exit status from nl.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>
#include "../../kmod/uapi/clkstat_netlink.h"
#include "nl.h"

struct cr_nl {
	struct nl_sock *sk;
	int family;
};

static int cr_status_of(int nlerr, const char *what)
{
	int err = nlerr < 0 ? -nlerr : nlerr;

	if (err == NLE_PERM) {
		fprintf(stderr, "clkstat-report: %s: permission denied (reading needs CAP_PERFMON or CAP_SYS_ADMIN, control CAP_SYS_ADMIN)\n",
			what);
		return CR_PERM;
	}
	fprintf(stderr, "clkstat-report: %s: %s\n", what, nl_geterror(nlerr));
	return CR_ERR;
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
		fprintf(stderr, "clkstat-report: cannot open a generic netlink socket\n");
		goto fail;
	}
	nl->family = genl_ctrl_resolve(nl->sk, CLKSTAT_GENL_NAME);
	if (nl->family < 0) {
		fprintf(stderr, "clkstat-report: the clkstat module is not loaded (no generic netlink family \"%s\")\n",
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

/* Send a request of cmd with flags; msg attributes added by fill. */
static struct nl_msg *cr_msg(struct cr_nl *nl, int cmd, int flags)
{
	struct nl_msg *msg = nlmsg_alloc();

	if (msg && !genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, nl->family, 0,
				flags, cmd, CLKSTAT_GENL_VERSION)) {
		nlmsg_free(msg);
		msg = NULL;
	}
	return msg;
}

/* Send msg (freed) and run cb over the replies until the ack or DONE. */
static int cr_transact(struct cr_nl *nl, struct nl_msg *msg,
		       nl_recvmsg_msg_cb_t cb, void *arg, const char *what)
{
	int err;

	if (!msg) {
		fprintf(stderr, "clkstat-report: %s: out of memory\n", what);
		return CR_ERR;
	}
	err = nl_send_auto(nl->sk, msg);
	nlmsg_free(msg);
	if (err < 0)
		return cr_status_of(err, what);
	nl_socket_modify_cb(nl->sk, NL_CB_VALID, NL_CB_CUSTOM, cb, arg);
	err = nl_recvmsgs_default(nl->sk);
	if (err < 0)
		return cr_status_of(err, what);
	return CR_OK;
}

struct cr_info_ctx {
	FILE *out;
	int status;
};

static int cr_info_cb(struct nl_msg *msg, void *arg)
{
	struct cr_info_ctx *ctx = arg;
	struct nlattr *tb[CLKSTAT_A_MAX + 1];
	FILE *out = ctx->out;

	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, CLKSTAT_A_MAX, NULL) < 0) {
		fprintf(stderr, "clkstat-report: info: malformed reply\n");
		ctx->status = CR_ERR;
		return NL_STOP;
	}
	if (!tb[CLKSTAT_A_ABI] ||
	    nla_get_u32(tb[CLKSTAT_A_ABI]) != CLKSTAT_GENL_VERSION) {
		fprintf(stderr, "clkstat-report: the module speaks ABI %u, this tool %u: use the tool built with the module\n",
			tb[CLKSTAT_A_ABI] ? nla_get_u32(tb[CLKSTAT_A_ABI]) : 0,
			CLKSTAT_GENL_VERSION);
		ctx->status = CR_ABI;
		return NL_STOP;
	}
	if (tb[CLKSTAT_A_VERSION])
		fprintf(out, "version %s\n", nla_get_string(tb[CLKSTAT_A_VERSION]));
	fprintf(out, "abi %u\n", nla_get_u32(tb[CLKSTAT_A_ABI]));
	if (tb[CLKSTAT_A_FRAC_BITS])
		fprintf(out, "frac_bits %u\n", nla_get_u32(tb[CLKSTAT_A_FRAC_BITS]));
	if (tb[CLKSTAT_A_PROBES])
		fprintf(out, "probes %s\n", nla_get_string(tb[CLKSTAT_A_PROBES]));
	if (tb[CLKSTAT_A_VARIANT])
		fprintf(out, "variant %s\n", nla_get_string(tb[CLKSTAT_A_VARIANT]));
	if (tb[CLKSTAT_A_CLOCKSOURCE])
		fprintf(out, "clocksource %s\n",
			nla_get_string(tb[CLKSTAT_A_CLOCKSOURCE]));
	if (tb[CLKSTAT_A_NR_CPUS])
		fprintf(out, "nr_cpus %u\n", nla_get_u32(tb[CLKSTAT_A_NR_CPUS]));
	if (tb[CLKSTAT_A_RECORDING])
		fprintf(out, "recording %u\n", nla_get_u8(tb[CLKSTAT_A_RECORDING]));
	if (tb[CLKSTAT_A_SWITCHES])
		fprintf(out, "switches %" PRIu64 "\n",
			(uint64_t)nla_get_u64(tb[CLKSTAT_A_SWITCHES]));
	if (tb[CLKSTAT_A_TGID])
		fprintf(out, "tgid %u\n", nla_get_u32(tb[CLKSTAT_A_TGID]));
	return NL_OK;
}

int cr_nl_info(struct cr_nl *nl, FILE *out)
{
	struct cr_info_ctx ctx = { .out = out, .status = CR_OK };
	int st;

	st = cr_transact(nl, cr_msg(nl, CLKSTAT_CMD_GET_INFO, 0), cr_info_cb,
			 &ctx, "info");
	return st ? st : ctx.status;
}

struct cr_raw_ctx {
	FILE *out;
	int status;
};

static int cr_raw_cb(struct nl_msg *msg, void *arg)
{
	struct cr_raw_ctx *ctx = arg;
	struct nlattr *tb[CLKSTAT_A_MAX + 1], *m[CLKSTAT_A_M_MAX + 1];
	struct nlattr *a, *c[CLKSTAT_A_C_MAX + 1];
	const struct clkstat_nl_slot *s;
	size_t i, n;
	uint32_t cpu;
	int rem;

	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, CLKSTAT_A_MAX, NULL) < 0 ||
	    !tb[CLKSTAT_A_METRIC] ||
	    nla_parse_nested(m, CLKSTAT_A_M_MAX, tb[CLKSTAT_A_METRIC], NULL) < 0 ||
	    !m[CLKSTAT_A_M_NAME] || !m[CLKSTAT_A_M_VARIANT] ||
	    !m[CLKSTAT_A_M_CPU] || !m[CLKSTAT_A_M_SLOTS] ||
	    nla_len(m[CLKSTAT_A_M_SLOTS]) % sizeof(*s)) {
		fprintf(stderr, "clkstat-report: histograms: malformed message\n");
		ctx->status = CR_ERR;
		return NL_STOP;
	}
	cpu = nla_get_u32(m[CLKSTAT_A_M_CPU]);
	fprintf(ctx->out, "metric %s.%s cpu ",
		nla_get_string(m[CLKSTAT_A_M_NAME]),
		nla_get_string(m[CLKSTAT_A_M_VARIANT]));
	if (cpu == CLKSTAT_CPU_ALL)
		fprintf(ctx->out, "all\n");
	else
		fprintf(ctx->out, "%u\n", cpu);
	if (m[CLKSTAT_A_M_MIN] && m[CLKSTAT_A_M_MAX])
		fprintf(ctx->out, "min %" PRIu64 " max %" PRIu64 "\n",
			(uint64_t)nla_get_u64(m[CLKSTAT_A_M_MIN]),
			(uint64_t)nla_get_u64(m[CLKSTAT_A_M_MAX]));
	nla_for_each_nested(a, tb[CLKSTAT_A_METRIC], rem) {
		if (nla_type(a) != CLKSTAT_A_M_COUNTER)
			continue;
		if (nla_parse_nested(c, CLKSTAT_A_C_MAX, a, NULL) < 0 ||
		    !c[CLKSTAT_A_C_NAME] || !c[CLKSTAT_A_C_VALUE])
			continue;
		fprintf(ctx->out, "counter %s %" PRIu64 "\n",
			nla_get_string(c[CLKSTAT_A_C_NAME]),
			(uint64_t)nla_get_u64(c[CLKSTAT_A_C_VALUE]));
	}
	s = nla_data(m[CLKSTAT_A_M_SLOTS]);
	n = nla_len(m[CLKSTAT_A_M_SLOTS]) / sizeof(*s);
	for (i = 0; i < n; i++)
		fprintf(ctx->out, "slot %u count %llu sum %llu\n", s[i].slot,
			(unsigned long long)s[i].count,
			(unsigned long long)s[i].sum);
	return NL_OK;
}

int cr_nl_raw(struct cr_nl *nl, FILE *out)
{
	struct cr_raw_ctx ctx = { .out = out, .status = CR_OK };
	int st;

	st = cr_transact(nl, cr_msg(nl, CLKSTAT_CMD_GET_HIST, NLM_F_DUMP),
			 cr_raw_cb, &ctx, "histograms");
	return st ? st : ctx.status;
}

static int cr_ignore_cb(struct nl_msg *msg, void *arg)
{
	(void)msg;
	(void)arg;
	return NL_OK;
}

int cr_nl_ctrl(struct cr_nl *nl, const char *op, const char *arg)
{
	static const char *const ops[] = {
		[CLKSTAT_CTRL_START] = "start",
		[CLKSTAT_CTRL_STOP] = "stop",
		[CLKSTAT_CTRL_RESET] = "reset",
		[CLKSTAT_CTRL_TGID] = "tgid",
		[CLKSTAT_CTRL_VARIANT] = "variant",
	};
	struct nl_msg *msg;
	unsigned int i;
	char *end;
	long v;

	for (i = 0; i <= CLKSTAT_CTRL_MAX; i++)
		if (!strcmp(op, ops[i]))
			break;
	if (i > CLKSTAT_CTRL_MAX) {
		fprintf(stderr, "clkstat-report: ctrl: unknown command '%s' (start, stop, reset, tgid, variant)\n",
			op);
		return CR_USAGE;
	}
	if ((i == CLKSTAT_CTRL_TGID || i == CLKSTAT_CTRL_VARIANT) && !arg) {
		fprintf(stderr, "clkstat-report: ctrl %s: missing argument\n", op);
		return CR_USAGE;
	}
	msg = cr_msg(nl, CLKSTAT_CMD_CTRL, 0);
	if (!msg)
		return cr_transact(nl, NULL, cr_ignore_cb, NULL, "ctrl");
	if (nla_put_u32(msg, CLKSTAT_A_CTRL_OP, i) < 0)
		goto full;
	if (i == CLKSTAT_CTRL_TGID) {
		errno = 0;
		v = strtol(arg, &end, 10);
		if (errno || *end || v < 0 || v > 4194304) {
			fprintf(stderr, "clkstat-report: ctrl tgid: '%s' is not a tgid\n",
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
	return cr_transact(nl, msg, cr_ignore_cb, NULL, "ctrl");
full:
	nlmsg_free(msg);
	fprintf(stderr, "clkstat-report: ctrl: argument too long\n");
	return CR_USAGE;
}

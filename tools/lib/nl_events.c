// SPDX-License-Identifier: GPL-2.0
/*
 * nl_events.c - clkstat-report events: the event log through the GET_EVENTS
 * dump, printed byte for byte as debugfs "events" prints it (evlog.c):
 *
 *   # ts_ns type cpu pid corr name latency_ns
 *   3799862394 enqueue 1 117 47 - 302600
 *   # events 527 overwritten 0
 *
 * "-" for no correlation id (0), no text, no latency.  The caller's
 * GET_INFO tells a module without an event log (events=0) from other
 * failures, so that the error line can say so: libnl turns the dump's
 * ENODATA into an unspecific failure.
 */
#include <inttypes.h>
#include <stdio.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include "../../kmod/uapi/clkstat_netlink.h"
#include "nl.h"

struct cr_ev_ctx {
	FILE *out;
	int status;
	int started;		/* the first message (counts, header) is in */
	uint64_t count;		/* events the module announced */
	uint64_t overwritten;
	uint64_t seen;		/* events printed */
};

static struct nla_policy cr_ev_top_policy[CLKSTAT_A_MAX + 1] = {
	[CLKSTAT_A_EV_COUNT] = { .type = NLA_U64 },
	[CLKSTAT_A_EV_OVERWRITTEN] = { .type = NLA_U64 },
	[CLKSTAT_A_EVENT] = { .type = NLA_NESTED },
};

static struct nla_policy cr_ev_policy[CLKSTAT_A_E_MAX + 1] = {
	[CLKSTAT_A_E_TS] = { .type = NLA_U64 },
	[CLKSTAT_A_E_TYPE] = { .type = NLA_STRING },
	[CLKSTAT_A_E_CPU] = { .type = NLA_U32 },
	[CLKSTAT_A_E_PID] = { .type = NLA_U32 },
	[CLKSTAT_A_E_CORR] = { .type = NLA_U64 },
	[CLKSTAT_A_E_LATENCY] = { .type = NLA_U64 },
	[CLKSTAT_A_E_TEXT] = { .type = NLA_STRING },
};

/* One event's line; -1 if the nest is malformed. */
static int cr_ev_print(FILE *out, struct nlattr *nest)
{
	struct nlattr *e[CLKSTAT_A_E_MAX + 1];

	if (nla_parse_nested(e, CLKSTAT_A_E_MAX, nest, cr_ev_policy) < 0 ||
	    !e[CLKSTAT_A_E_TS] || !e[CLKSTAT_A_E_TYPE] ||
	    !e[CLKSTAT_A_E_CPU] || !e[CLKSTAT_A_E_PID] || !e[CLKSTAT_A_E_CORR])
		return -1;
	fprintf(out, "%" PRIu64 " %s %" PRIu32 " %" PRIu32 " ",
		(uint64_t)nla_get_u64(e[CLKSTAT_A_E_TS]),
		nla_get_string(e[CLKSTAT_A_E_TYPE]),
		nla_get_u32(e[CLKSTAT_A_E_CPU]),
		nla_get_u32(e[CLKSTAT_A_E_PID]));
	if (nla_get_u64(e[CLKSTAT_A_E_CORR]))
		fprintf(out, "%" PRIu64 " ",
			(uint64_t)nla_get_u64(e[CLKSTAT_A_E_CORR]));
	else
		fputs("- ", out);
	fprintf(out, "%s ", e[CLKSTAT_A_E_TEXT] &&
		*nla_get_string(e[CLKSTAT_A_E_TEXT]) ?
		nla_get_string(e[CLKSTAT_A_E_TEXT]) : "-");
	if (e[CLKSTAT_A_E_LATENCY])
		fprintf(out, "%" PRIu64 "\n",
			(uint64_t)nla_get_u64(e[CLKSTAT_A_E_LATENCY]));
	else
		fputs("-\n", out);
	return 0;
}

static int cr_ev_cb(struct nl_msg *msg, void *arg)
{
	struct cr_ev_ctx *ctx = arg;
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct nlattr *tb[CLKSTAT_A_MAX + 1], *a;
	int rem;

	/* After a malformed message, the rest of the dump is only drained. */
	if (ctx->status)
		return NL_OK;
	if (genlmsg_parse(nlh, 0, tb, CLKSTAT_A_MAX, cr_ev_top_policy) < 0)
		goto bad;
	if (!ctx->started) {
		if (!tb[CLKSTAT_A_EV_COUNT] || !tb[CLKSTAT_A_EV_OVERWRITTEN])
			goto bad;
		ctx->count = nla_get_u64(tb[CLKSTAT_A_EV_COUNT]);
		ctx->overwritten = nla_get_u64(tb[CLKSTAT_A_EV_OVERWRITTEN]);
		fputs("# ts_ns type cpu pid corr name latency_ns\n", ctx->out);
		ctx->started = 1;
	}
	nla_for_each_attr(a, genlmsg_attrdata(nlmsg_data(nlh), 0),
			  genlmsg_attrlen(nlmsg_data(nlh), 0), rem) {
		if (nla_type(a) != CLKSTAT_A_EVENT)
			continue;
		if (cr_ev_print(ctx->out, a) < 0)
			goto bad;
		ctx->seen++;
	}
	return NL_OK;
bad:
	fprintf(stderr, "clkstat-report: events: malformed message\n");
	ctx->status = CR_ERR;
	return NL_STOP;
}

int cr_nl_events(struct cr_nl *nl, const struct cr_info *info, FILE *out)
{
	struct cr_ev_ctx ctx = { .out = out, .status = CR_OK };
	int st;

	if (!info->have_ev_entries) {
		fprintf(stderr, "clkstat-report: events: this module has no event log dump (GET_EVENTS): use the module built with this tool\n");
		return CR_ERR;
	}
	if (!info->ev_entries) {
		fprintf(stderr, "clkstat-report: events: the module has no event log: load it with events=N\n");
		return CR_ERR;
	}
	st = cr_nl_transact(nl, cr_nl_msg(nl, CLKSTAT_CMD_GET_EVENTS,
					  NLM_F_DUMP),
			    cr_ev_cb, &ctx, "events");
	if (st || ctx.status)
		return st ? st : ctx.status;
	if (!ctx.started) {
		fprintf(stderr, "clkstat-report: events: the dump ended before its first message\n");
		return CR_ERR;
	}
	if (ctx.seen != ctx.count) {
		fprintf(stderr, "clkstat-report: events: the dump ended after %" PRIu64 " of %" PRIu64 " events\n",
			ctx.seen, ctx.count);
		return CR_ERR;
	}
	fprintf(out, "# events %" PRIu64 " overwritten %" PRIu64 "\n",
		ctx.count, ctx.overwritten);
	return CR_OK;
}

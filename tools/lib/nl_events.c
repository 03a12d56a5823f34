// SPDX-License-Identifier: GPL-2.0
/*
 * nl_events.c - the module's event log through the GET_EVENTS dump, into a
 * struct cr_events (model.h): every event as the module logged it
 * (uapi/clkstat_events.h), and the count of events its full rings lost.
 *
 * The caller's GET_INFO tells a module without an event log (events=0)
 * from other failures, so that the error line can say so: libnl turns the
 * dump's ENODATA into an unspecific failure.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include "../../kmod/uapi/clkstat_netlink_ext.h"
#include "nl.h"

struct cr_ev_ctx {
	struct cr_events *out;
	int status;
	int started;		/* the first message (counts) is in */
	uint64_t count;		/* events the module announced */
	uint64_t overwritten;
	uint64_t seen;		/* events received */
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
	[CLKSTAT_A_E_MIGRATED] = { .type = NLA_U8 },
	[CLKSTAT_A_E_RQ_CLOCK] = { .type = NLA_U64 },
};

/* One event's nest into e; -1 if it is malformed. */
static int cr_ev_parse(struct nlattr *nest, struct clkstat_event_rec *e)
{
	struct nlattr *a[CLKSTAT_A_E_MAX + 1];
	int type;

	if (nla_parse_nested(a, CLKSTAT_A_E_MAX, nest, cr_ev_policy) < 0 ||
	    !a[CLKSTAT_A_E_TS] || !a[CLKSTAT_A_E_TYPE] ||
	    !a[CLKSTAT_A_E_CPU] || !a[CLKSTAT_A_E_PID] || !a[CLKSTAT_A_E_CORR])
		return -1;
	type = cr_event_type_parse(nla_get_string(a[CLKSTAT_A_E_TYPE]));
	if (type < 0 || nla_get_u32(a[CLKSTAT_A_E_CPU]) > UINT16_MAX)
		return -1;
	*e = (struct clkstat_event_rec){
		.ts = nla_get_u64(a[CLKSTAT_A_E_TS]),
		.corr = nla_get_u64(a[CLKSTAT_A_E_CORR]),
		.pid = nla_get_u32(a[CLKSTAT_A_E_PID]),
		.cpu = (uint16_t)nla_get_u32(a[CLKSTAT_A_E_CPU]),
		.type = (uint8_t)type,
	};
	if (a[CLKSTAT_A_E_LATENCY]) {
		e->latency = nla_get_u64(a[CLKSTAT_A_E_LATENCY]);
		e->flags |= CLKSTAT_EVF_LATENCY;
	}
	if (a[CLKSTAT_A_E_MIGRATED])
		e->flags |= nla_get_u8(a[CLKSTAT_A_E_MIGRATED]) ?
			    CLKSTAT_EVF_MIGRATED : CLKSTAT_EVF_LOCAL;
	if (a[CLKSTAT_A_E_RQ_CLOCK]) {
		e->rq_clock = nla_get_u64(a[CLKSTAT_A_E_RQ_CLOCK]);
		e->flags |= CLKSTAT_EVF_RQ_CLOCK;
	}
	if (a[CLKSTAT_A_E_TEXT])
		snprintf(e->text, sizeof(e->text), "%s",
			 nla_get_string(a[CLKSTAT_A_E_TEXT]));
	return 0;
}

static int cr_ev_cb(struct nl_msg *msg, void *arg)
{
	struct cr_ev_ctx *ctx = arg;
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct nlattr *tb[CLKSTAT_A_MAX + 1], *a;
	struct clkstat_event_rec e;
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
		ctx->started = 1;
	}
	nla_for_each_attr(a, genlmsg_attrdata(nlmsg_data(nlh), 0),
			  genlmsg_attrlen(nlmsg_data(nlh), 0), rem) {
		if (nla_type(a) != CLKSTAT_A_EVENT)
			continue;
		if (cr_ev_parse(a, &e) < 0)
			goto bad;
		if (cr_events_add(ctx->out, &e)) {
			fprintf(stderr, "clkstat-report: events: out of memory\n");
			ctx->status = CR_ERR;
			return NL_STOP;
		}
		ctx->seen++;
	}
	return NL_OK;
bad:
	fprintf(stderr, "clkstat-report: events: malformed message\n");
	ctx->status = CR_ERR;
	return NL_STOP;
}

int cr_nl_get_events(struct cr_nl *nl, const struct cr_info *info,
		     struct cr_events *out)
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
	out->present = 1;
	out->lost += ctx.overwritten;
	return CR_OK;
}

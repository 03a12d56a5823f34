// SPDX-License-Identifier: GPL-2.0
/*
 * netlink.c - the "clkstat" generic netlink family: what debugfs shows, for
 * programs (tools/clkstat-report reads it with libnl).  The ABI is
 * kmod/uapi/clkstat_netlink_ext.h; the request policy and the operations
 * table, which name the handlers below, are generated from the spec
 * (netlink_gen.c, Documentation/netlink/specs/clkstat.yaml).
 *
 * GET_INFO (do): module version, ABI, frac_bits, probes, attached variant,
 * current clocksource, possible CPUs, whether anything records, switches,
 * the event log's size.
 * GET_HIST (dump): every metric is copied when the dump starts, so all its
 * messages describe the same instant; then one message per (metric, CPU
 * with samples, and the all-CPU sum), the slots split over as many
 * messages as it takes.  CTRL (do): the debugfs control commands.
 * GET_EVENTS (dump): the event log, copied when the dump starts, its
 * counts in the first message; -ENODATA without an event log.
 *
 * Every request is validated by its command's policy (strict): CTRL's
 * attributes, ranges and lengths as the spec's checks say; the reads take
 * no attribute.
 * Reads need CAP_PERFMON or CAP_SYS_ADMIN, control CAP_SYS_ADMIN, both
 * checked here with netlink_capable() after the policy, not with
 * GENL_ADMIN_PERM (CAP_NET_ADMIN, which grants nothing of the kind): a
 * malformed CTRL is -EINVAL (or -ERANGE) to anyone, a well-formed one
 * -EPERM to the unprivileged.  Under kernel lockdown at "integrity" or
 * above the CTRL operations that hook functions (trace, variant) are
 * refused.  Documentation/clkstat.rst, "Generic netlink", and
 * Documentation/clkstat-traces.rst, "Safety" ("One privilege model").
 */
#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <net/genetlink.h>
#include "control_run.h"
#include "compat.h"
#include "control_lang.h"
#include "reentry.h"
#include "evlog.h"
#include "hist.h"
#include "netlink.h"
#include "clock.h"
#include "probes.h"
#include "netlink_gen.h"
#include "uapi/clkstat_netlink_ext.h"
#include "uapi/clkstat_version.h"

/*
 * Slots per GET_HIST message: 3 KB, so that a message fits a page, and so
 * that the tests see histograms span messages.
 */
#define CLKSTAT_NL_SLOTS	128

static struct genl_family clkstat_nl_family;

/* The current clocksource, as userspace reads it (the kernel exports none). */
static void clkstat_nl_clocksource(char *buf, size_t len)
{
	static const char path[] =
		"/sys/devices/system/clocksource/clocksource0/current_clocksource";
	struct file *f = filp_open(path, O_RDONLY, 0);
	loff_t pos = 0;
	ssize_t n;

	strscpy(buf, "unknown", len);
	if (IS_ERR(f))
		return;
	n = kernel_read(f, buf, len - 1, &pos);
	filp_close(f, NULL);
	if (n <= 0) {
		strscpy(buf, "unknown", len);
		return;
	}
	buf[n] = '\0';
	strim(buf);
}

static bool clkstat_nl_any_recording(void)
{
	struct clkstat_metric *m;
	bool on = false;

	clkstat_registry_lock();
	list_for_each_entry(m, clkstat_registry(), node)
		on |= clkstat_metric_recording(m);
	clkstat_registry_unlock();
	return on;
}

/* The user-defined probes, a CLKSTAT_A_TRACE_INFO nest each. */
static int clkstat_nl_put_traces(struct sk_buff *msg)
{
	unsigned int ids[CLKSTAT_TRACE_MAX], n, i;
	char (*specs)[CLKSTAT_NAME_MAX];
	struct nlattr *nest;
	int ret = 0;

	/* 1 KiB: not on the stack. */
	specs = kmalloc_array(CLKSTAT_TRACE_MAX, sizeof(*specs), GFP_KERNEL);
	if (!specs)
		return -ENOMEM;
	n = clkstat_probes_traces(specs, ids, CLKSTAT_TRACE_MAX);
	for (i = 0; i < n; i++) {
		nest = nla_nest_start(msg, CLKSTAT_A_TRACE_INFO);
		if (!nest || nla_put_u32(msg, CLKSTAT_A_T_ID, ids[i]) ||
		    nla_put_string(msg, CLKSTAT_A_T_SPEC, specs[i])) {
			ret = -EMSGSIZE;
			break;
		}
		nla_nest_end(msg, nest);
	}
	kfree(specs);
	return ret;
}

/* Reads: CAP_PERFMON (or CAP_SYS_ADMIN), of the sender and the opener. */
static bool clkstat_nl_may_read(const struct sk_buff *skb)
{
	return netlink_capable(skb, CAP_PERFMON) ||
	       netlink_capable(skb, CAP_SYS_ADMIN);
}

/*
 * Hooking under lockdown: refused where debugfs is (LOCKDOWN_DEBUGFS,
 * the "integrity" level), with the reason in the reply.
 */
static bool clkstat_nl_locked_down(struct genl_info *info)
{
	if (!security_locked_down(LOCKDOWN_DEBUGFS))
		return false;
	NL_SET_ERR_MSG(info->extack,
		       "the kernel is locked down: clkstat hooks no function");
	return true;
}

/*
 * The reads take no attribute.  6.1's netlink core refuses any, with the
 * reject-all policy it gives a command that has none; 6.12's, for a split
 * operation without a policy, leaves them unparsed.  So they are refused
 * here, before the privilege check as a policy's refusal comes: -EINVAL
 * to anyone, on every kernel.
 */
static int clkstat_nl_no_attrs(const struct nlmsghdr *nlh,
			       struct netlink_ext_ack *extack)
{
	if (!nlmsg_attrlen(nlh, GENL_HDRLEN))
		return 0;
	NL_SET_ERR_MSG(extack, "clkstat: this request takes no attribute");
	return -EINVAL;
}

/**
 * clkstat_nl_get_info_doit() - GET_INFO: the module and its state
 * @skb: the request
 * @info: its attributes (none allowed) and extended ACK
 *
 * Return: 0 with the reply sent, -EINVAL for an attribute, -EPERM without
 * CAP_PERFMON or CAP_SYS_ADMIN, -ENOMEM or -EMSGSIZE.
 */
int clkstat_nl_get_info_doit(struct sk_buff *skb, struct genl_info *info)
{
	char probes[128], cs[32], clock[80];
	unsigned long switches;
	const char *variant;
	struct sk_buff *msg;
	void *hdr;

	if (clkstat_nl_no_attrs(info->nlhdr, info->extack))
		return -EINVAL;
	if (!clkstat_nl_may_read(skb))
		return -EPERM;
	msg = nlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &clkstat_nl_family, 0,
				CLKSTAT_CMD_GET_INFO);
	if (!hdr)
		goto err;
	variant = clkstat_probes_variant(&switches);
	clkstat_probes_names(probes, sizeof(probes));
	clkstat_nl_clocksource(cs, sizeof(cs));
	clkstat_clock_describe(clock, sizeof(clock));
	if (nla_put_string(msg, CLKSTAT_A_VERSION, CLKSTAT_MODULE_VERSION) ||
	    nla_put_u32(msg, CLKSTAT_A_ABI, CLKSTAT_GENL_VERSION) ||
	    nla_put_u32(msg, CLKSTAT_A_FRAC_BITS, clkstat_frac_bits) ||
	    nla_put_string(msg, CLKSTAT_A_PROBES, probes) ||
	    nla_put_string(msg, CLKSTAT_A_VARIANT, variant) ||
	    nla_put_string(msg, CLKSTAT_A_CLOCKSOURCE, cs) ||
	    nla_put_u32(msg, CLKSTAT_A_NR_CPUS, nr_cpu_ids) ||
	    nla_put_u8(msg, CLKSTAT_A_RECORDING, clkstat_nl_any_recording()) ||
	    nla_put_u64_64bit(msg, CLKSTAT_A_SWITCHES, switches,
			      CLKSTAT_A_PAD) ||
	    nla_put_u32(msg, CLKSTAT_A_TGID, READ_ONCE(clkstat_filter_tgid)) ||
	    nla_put_u32(msg, CLKSTAT_A_EV_ENTRIES, clkstat_evlog_entries()) ||
	    nla_put_u32(msg, CLKSTAT_A_TRACE_LIMIT, CLKSTAT_TRACE_MAX) ||
	    nla_put_string(msg, CLKSTAT_A_CLOCK, clock) ||
	    nla_put_u64_64bit(msg, CLKSTAT_A_REENTERED,
			      clkstat_reentries_total(), CLKSTAT_A_PAD) ||
	    clkstat_nl_put_traces(msg))
		goto err;
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
err:
	nlmsg_free(msg);
	return -EMSGSIZE;
}

/**
 * clkstat_nl_ctrl_doit() - CTRL: one control command, as the control file's
 * @skb: the request
 * @info: its attributes, validated by the spec's policy, and extended ACK,
 *	which carries the reason of a refusal
 *
 * Return: 0, -EPERM without CAP_SYS_ADMIN (or under lockdown for hooking),
 * -EINVAL for a missing attribute, or the command's error.
 */
int clkstat_nl_ctrl_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **a = info->attrs;
	struct clkstat_cmd cmd = {};
	int ret;
	u32 op;

	/* The opener of the socket as well as the sender (netlink_capable). */
	if (!netlink_capable(skb, CAP_SYS_ADMIN))
		return -EPERM;
	if (GENL_REQ_ATTR_CHECK(info, CLKSTAT_A_CTRL_OP))
		return -EINVAL;
	op = nla_get_u32(a[CLKSTAT_A_CTRL_OP]);
	/* One enum for both: the policy bounds op by CLKSTAT_CTRL_MAX. */
	cmd.op = op;
	switch (op) {
	case CLKSTAT_CTRL_TGID:
		if (GENL_REQ_ATTR_CHECK(info, CLKSTAT_A_TGID))
			return -EINVAL;
		cmd.tgid = nla_get_u32(a[CLKSTAT_A_TGID]);
		break;
	case CLKSTAT_CTRL_VARIANT:
		if (GENL_REQ_ATTR_CHECK(info, CLKSTAT_A_VARIANT))
			return -EINVAL;
		if (clkstat_nl_locked_down(info))
			return -EPERM;
		nla_strscpy(cmd.variant, a[CLKSTAT_A_VARIANT],
			    sizeof(cmd.variant));
		break;
	case CLKSTAT_CTRL_TRACE:
	case CLKSTAT_CTRL_UNTRACE:
		if (GENL_REQ_ATTR_CHECK(info, CLKSTAT_A_TRACE))
			return -EINVAL;
		if (op == CLKSTAT_CTRL_TRACE && clkstat_nl_locked_down(info))
			return -EPERM;
		nla_strscpy(cmd.trace, a[CLKSTAT_A_TRACE], sizeof(cmd.trace));
		break;
	default:
		if (a[CLKSTAT_A_METRIC_ID])
			nla_strscpy(cmd.metric, a[CLKSTAT_A_METRIC_ID],
				    sizeof(cmd.metric));
		break;
	}
	ret = clkstat_command(&cmd);
	/* The reason, for userspace to print (a static string). */
	if (ret && cmd.why)
		clkstat_extack_msg(info->extack, cmd.why);
	return ret;
}

/* A GET_HIST dump's copy of every metric, and where it is. */
struct clkstat_nl_dump {
	unsigned int n;
	unsigned int metric;	/* next to send */
	unsigned int cpu;	/* next CPU of it; ncpus: the sum */
	unsigned int slot;	/* next slot of that CPU */
	struct clkstat_snapshot snap[];
};

/**
 * clkstat_nl_hist_done() - GET_HIST dump's end: free the copy
 * @cb: the dump, cb->args[0] the copy
 *
 * Return: 0.
 */
int clkstat_nl_hist_done(struct netlink_callback *cb)
{
	struct clkstat_nl_dump *d = (struct clkstat_nl_dump *)cb->args[0];
	unsigned int i;

	if (!d)
		return 0;
	for (i = 0; i < d->n; i++)
		clkstat_snapshot_free(&d->snap[i]);
	kvfree(d);
	return 0;
}

/**
 * clkstat_nl_hist_start() - GET_HIST dump's start: copy every metric
 * @cb: the dump; cb->args[0] is set to the copy
 *
 * Return: 0, -EINVAL for an attribute, -EPERM, or -ENOMEM.
 */
int clkstat_nl_hist_start(struct netlink_callback *cb)
{
	struct clkstat_nl_dump *d;
	struct clkstat_metric *m;
	unsigned int n = 0;
	int ret = 0;

	if (clkstat_nl_no_attrs(cb->nlh, cb->extack))
		return -EINVAL;
	if (!clkstat_nl_may_read(cb->skb))
		return -EPERM;
	clkstat_probes_refresh();
	clkstat_registry_lock();
	list_for_each_entry(m, clkstat_registry(), node)
		n++;
	d = kvzalloc(struct_size(d, snap, n), GFP_KERNEL);
	if (!d) {
		clkstat_registry_unlock();
		return -ENOMEM;
	}
	list_for_each_entry(m, clkstat_registry(), node) {
		ret = clkstat_snapshot_take(&d->snap[d->n], m);
		if (ret)
			break;
		d->n++;
	}
	clkstat_registry_unlock();
	cb->args[0] = (long)d;
	/* A failed start is not followed by done: free here. */
	if (ret) {
		clkstat_nl_hist_done(cb);
		cb->args[0] = 0;
	}
	return ret;
}

static u64 clkstat_nl_total(const struct clkstat_snapshot *s, unsigned int cpu)
{
	const struct clkstat_cpu_hist *h = clkstat_snapshot_cpu(s, cpu);

	return clkstat_hist_total(h->slot, s->meta.nslots);
}

/* The metric's header, and on a CPU's first message its min, max, counters. */
static int clkstat_nl_put_head(struct sk_buff *skb,
			       const struct clkstat_snapshot *s,
			       unsigned int cpu, bool first)
{
	const struct clkstat_metric_meta *m = &s->meta;
	const struct clkstat_cpu_hist *h = clkstat_snapshot_cpu(s, cpu);
	struct nlattr *c;
	unsigned int i;

	if (nla_put_string(skb, CLKSTAT_A_M_NAME, m->name) ||
	    nla_put_string(skb, CLKSTAT_A_M_VARIANT, m->variant) ||
	    nla_put_u32(skb, CLKSTAT_A_M_FRAC_BITS, m->frac_bits) ||
	    nla_put_u8(skb, CLKSTAT_A_M_RECORDING, m->recording) ||
	    nla_put_u32(skb, CLKSTAT_A_M_CPU,
			cpu == s->ncpus ? CLKSTAT_CPU_ALL : cpu))
		return -EMSGSIZE;
	if (!first)
		return 0;
	if (nla_put_u64_64bit(skb, CLKSTAT_A_M_MIN_NS, h->min,
			      CLKSTAT_A_M_PAD) ||
	    nla_put_u64_64bit(skb, CLKSTAT_A_M_MAX_NS, h->max,
			      CLKSTAT_A_M_PAD) ||
	    nla_put_u64_64bit(skb, CLKSTAT_A_M_RESETS, s->resets,
			      CLKSTAT_A_M_PAD) ||
	    nla_put_u64_64bit(skb, CLKSTAT_A_M_CREATED_NS, s->created_ns,
			      CLKSTAT_A_M_PAD))
		return -EMSGSIZE;
	for (i = 0; i < m->ncounters; i++) {
		c = nla_nest_start(skb, CLKSTAT_A_M_COUNTER);
		if (!c || nla_put_string(skb, CLKSTAT_A_C_NAME,
					 m->counter_names[i]) ||
		    nla_put_u64_64bit(skb, CLKSTAT_A_C_VALUE, h->counter[i],
				      CLKSTAT_A_C_PAD))
			return -EMSGSIZE;
		nla_nest_end(skb, c);
	}
	return 0;
}

/*
 * One message: the head and as many non-empty slots from d->slot on as
 * fit.  Return: 1 if the CPU is done, 0 if slots remain, -EMSGSIZE if
 * nothing fit.
 */
static int clkstat_nl_put_chunk(struct sk_buff *skb,
				struct netlink_callback *cb,
				struct clkstat_nl_dump *d)
{
	const struct clkstat_snapshot *s = &d->snap[d->metric];
	const struct clkstat_cpu_hist *h = clkstat_snapshot_cpu(s, d->cpu);
	unsigned int nslots = s->meta.nslots, i, k, left = 0, room;
	struct clkstat_nl_slot *out;
	struct nlattr *nest, *attr;
	void *hdr;

	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
			  cb->nlh->nlmsg_seq, &clkstat_nl_family, NLM_F_MULTI,
			  CLKSTAT_CMD_GET_HIST);
	if (!hdr)
		return -EMSGSIZE;
	nest = nla_nest_start(skb, CLKSTAT_A_METRIC);
	if (!nest || clkstat_nl_put_head(skb, s, d->cpu, d->slot == 0))
		goto cancel;
	for (i = d->slot; i < nslots; i++)
		left += h->slot[i].count != 0;
	/* Leave room for the attribute header and the message's ends. */
	room = skb_tailroom(skb) > 64 ?
	       (skb_tailroom(skb) - 64) / sizeof(*out) : 0;
	k = min3(left, room, (unsigned int)CLKSTAT_NL_SLOTS);
	if (left && !k)
		goto cancel;
	attr = nla_reserve(skb, CLKSTAT_A_M_SLOTS, k * sizeof(*out));
	if (!attr)
		goto cancel;
	out = nla_data(attr);
	for (i = d->slot; i < nslots && k; i++) {
		if (!h->slot[i].count)
			continue;
		*out++ = (struct clkstat_nl_slot){
			.slot = i,
			.count = h->slot[i].count,
			.sum = h->slot[i].sum,
		};
		k--;
	}
	nla_nest_end(skb, nest);
	genlmsg_end(skb, hdr);
	/* Skip the empty slots up to the next non-empty one. */
	while (i < nslots && !h->slot[i].count)
		i++;
	d->slot = i;
	return i >= nslots;
cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/**
 * clkstat_nl_get_hist_dumpit() - GET_HIST: the copy, a message per call
 * @skb: the message to fill
 * @cb: the dump, its copy and where it stopped
 *
 * Return: the message's length, 0 at the end, or -EMSGSIZE.
 */
int clkstat_nl_get_hist_dumpit(struct sk_buff *skb,
			       struct netlink_callback *cb)
{
	struct clkstat_nl_dump *d = (struct clkstat_nl_dump *)cb->args[0];
	const struct clkstat_snapshot *s;
	int ret;

	while (d->metric < d->n) {
		s = &d->snap[d->metric];
		/* CPUs without samples are left out; the sum never is. */
		if (d->cpu < s->ncpus && !clkstat_nl_total(s, d->cpu)) {
			d->cpu++;
			continue;
		}
		if (d->cpu > s->ncpus) {
			d->metric++;
			d->cpu = 0;
			d->slot = 0;
			continue;
		}
		ret = clkstat_nl_put_chunk(skb, cb, d);
		if (ret < 0)
			return skb->len ?: ret;
		if (ret) {
			d->cpu++;
			d->slot = 0;
		}
	}
	return skb->len;
}

/*
 * GET_EVENTS: cb->args[0] is the copy (struct clkstat_evview), args[1] the
 * next event to send, args[2] nonzero once the first message is out.
 */
/**
 * clkstat_nl_events_done() - GET_EVENTS dump's end: release the copy
 * @cb: the dump, cb->args[0] the copy
 *
 * Return: 0.
 */
int clkstat_nl_events_done(struct netlink_callback *cb)
{
	clkstat_evlog_release((void *)cb->args[0]);
	cb->args[0] = 0;
	return 0;
}

/**
 * clkstat_nl_events_start() - GET_EVENTS dump's start: copy the event log
 * @cb: the dump; cb->args[0] is set to the copy
 *
 * Return: 0, -EINVAL for an attribute, -EPERM, -ENODATA without an event
 * log, or -ENOMEM.
 */
int clkstat_nl_events_start(struct netlink_callback *cb)
{
	void *view;
	int ret;

	if (clkstat_nl_no_attrs(cb->nlh, cb->extack))
		return -EINVAL;
	if (!clkstat_nl_may_read(cb->skb))
		return -EPERM;
	ret = clkstat_evlog_open(&view);
	if (ret)
		return ret == -ENOENT ? -ENODATA : ret;
	/* Nothing else can fail: done() frees the copy. */
	cb->args[0] = (long)view;
	return 0;
}

static int clkstat_nl_put_event(struct sk_buff *skb,
				const struct clkstat_event_rec *e)
{
	struct nlattr *nest = nla_nest_start(skb, CLKSTAT_A_EVENT);

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u64_64bit(skb, CLKSTAT_A_E_TS, e->ts, CLKSTAT_A_E_PAD) ||
	    nla_put_string(skb, CLKSTAT_A_E_TYPE,
			   clkstat_evlog_type_name(e->type)) ||
	    nla_put_u32(skb, CLKSTAT_A_E_CPU, e->cpu) ||
	    nla_put_u32(skb, CLKSTAT_A_E_PID, e->pid) ||
	    nla_put_u64_64bit(skb, CLKSTAT_A_E_CORR, e->corr,
			      CLKSTAT_A_E_PAD) ||
	    ((e->flags & CLKSTAT_EVF_LATENCY) &&
	     nla_put_u64_64bit(skb, CLKSTAT_A_E_LATENCY, e->latency,
			       CLKSTAT_A_E_PAD)) ||
	    ((e->flags & (CLKSTAT_EVF_MIGRATED | CLKSTAT_EVF_LOCAL)) &&
	     nla_put_u8(skb, CLKSTAT_A_E_MIGRATED,
			!!(e->flags & CLKSTAT_EVF_MIGRATED))) ||
	    ((e->flags & CLKSTAT_EVF_RQ_CLOCK) &&
	     nla_put_u64_64bit(skb, CLKSTAT_A_E_RQ_CLOCK, e->rq_clock,
			       CLKSTAT_A_E_PAD)) ||
	    (e->text[0] && nla_put_string(skb, CLKSTAT_A_E_TEXT, e->text))) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/**
 * clkstat_nl_get_events_dumpit() - GET_EVENTS: the copy, a message per call
 * @skb: the message to fill
 * @cb: the dump, its copy and where it stopped
 *
 * One message per call: the counts if first, then as many events as fit.
 *
 * Return: the message's length, 0 at the end, or -EMSGSIZE.
 */
int clkstat_nl_get_events_dumpit(struct sk_buff *skb,
				 struct netlink_callback *cb)
{
	const struct clkstat_evview *v = (void *)cb->args[0];
	size_t from = cb->args[1], i;
	bool first = !cb->args[2];
	void *hdr;

	if (!first && from >= v->n)
		return 0;
	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
			  cb->nlh->nlmsg_seq, &clkstat_nl_family, NLM_F_MULTI,
			  CLKSTAT_CMD_GET_EVENTS);
	if (!hdr)
		return -EMSGSIZE;
	if (first &&
	    (nla_put_u64_64bit(skb, CLKSTAT_A_EV_COUNT, v->n, CLKSTAT_A_PAD) ||
	     nla_put_u64_64bit(skb, CLKSTAT_A_EV_OVERWRITTEN, v->overwritten,
			       CLKSTAT_A_PAD)))
		goto cancel;
	for (i = from; i < v->n; i++)
		if (clkstat_nl_put_event(skb, &v->ev[i].r))
			break;
	/* Not even one event fit an empty message: it never will. */
	if (!first && i == from)
		goto cancel;
	genlmsg_end(skb, hdr);
	cb->args[1] = i;
	cb->args[2] = 1;
	return skb->len;
cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/*
 * The operations and their policies are netlink_gen.c's; the family is
 * written here: no netnsok (the initial network namespace alone) and no
 * parallel_ops (the requests run one at a time, under genl_mutex), which
 * a generated one would set.
 */
static struct genl_family clkstat_nl_family __ro_after_init = {
	.name = CLKSTAT_GENL_NAME,
	.version = CLKSTAT_GENL_VERSION,
	.module = THIS_MODULE,
	CLKSTAT_GENL_FAMILY_OPS(clkstat_nl_ops),
	/* resv_start_op 0: every command is validated strictly. */
};

/**
 * clkstat_netlink_init() - register the family
 *
 * Return: 0 or the error of genl_register_family().
 */
int clkstat_netlink_init(void)
{
	return genl_register_family(&clkstat_nl_family);
}

/**
 * clkstat_netlink_exit() - unregister the family; waits for running requests
 */
void clkstat_netlink_exit(void)
{
	genl_unregister_family(&clkstat_nl_family);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * control_lang.c - the control language (control_lang.h): parse a command,
 * and carry out what it does to the metrics (start, stop, reset, tgid).
 *
 * Parsing is separate from execution and has no side effect, so that a
 * malformed command changes nothing and KUnit can test the grammar alone.
 */
#include <linux/ctype.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include "control_lang.h"
#include "evlog.h"
#include "uapi/clkstat_netlink_ext.h"
#include "test_exports.h"

pid_t clkstat_filter_tgid;
CLKSTAT_EXPORT_FOR_TESTS(clkstat_filter_tgid);

static const char *const clkstat_op_names[] = CLKSTAT_CTRL_WORDS_INIT;

/*
 * White space as the control file's documentation defines it: space, \t,
 * \n, \v, \f, \r.  Not isspace(), whose table also holds 0xa0 (Latin-1's
 * no-break space), so that "start\xa0ttwu_enqueue" would be two words.
 */
static bool clkstat_blank(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

/* Copy the next blank-separated word of *s into buf; 0 when none is left. */
static size_t clkstat_next_word(const char **s, char *buf, size_t size)
{
	const char *p = *s;
	size_t n = 0;

	while (clkstat_blank(*p))
		p++;
	while (p[n] && !clkstat_blank(p[n]))
		n++;
	*s = p + n;
	if (n >= size)
		return size;	/* too long for any valid word */
	memcpy(buf, p, n);
	buf[n] = '\0';
	return n;
}

/**
 * clkstat_control_parse() - parse one control command
 * @buf: NUL-terminated text; surrounding white space (a trailing newline
 *       from echo) is ignored
 * @cmd: filled in on success
 *
 * Return: 0, or -EINVAL for anything that is not exactly one command of the
 * grammar in control_lang.h (unknown word, missing or extra argument, a metric
 * or variant name too long, a tgid that is not decimal digits or is above
 * CLKSTAT_TGID_MAX).
 */
int clkstat_control_parse(const char *buf, struct clkstat_cmd *cmd)
{
	char word[CLKSTAT_NAME_MAX], arg[CLKSTAT_TRACE_ARG_MAX + 1], extra[2];
	unsigned int tgid;
	size_t n, i;

	*cmd = (struct clkstat_cmd){ .why = "unknown command (start, stop, reset, tgid, variant, trace, untrace)" };
	n = clkstat_next_word(&buf, word, sizeof(word));
	if (!n) {
		cmd->why = "no command";
		return -EINVAL;
	}
	if (n >= sizeof(word))
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(clkstat_op_names); i++)
		if (!strcmp(word, clkstat_op_names[i]))
			break;
	if (i == ARRAY_SIZE(clkstat_op_names))
		return -EINVAL;

	*cmd = (struct clkstat_cmd){ .op = i };
	n = clkstat_next_word(&buf, arg, sizeof(arg));
	if (n >= sizeof(arg)) {
		cmd->why = "argument too long";
		return -EINVAL;
	}
	if (clkstat_next_word(&buf, extra, sizeof(extra))) {
		cmd->why = "one argument at most";
		return -EINVAL;
	}

	if (cmd->op == CLKSTAT_CTRL_TGID) {
		cmd->why = "tgid takes a number, 0 to 4194304";
		/* Digits only: kstrtouint() would also take "+5" (and "-0"). */
		for (i = 0; i < n; i++)
			if (!isdigit(arg[i]))
				return -EINVAL;
		if (!n || kstrtouint(arg, 10, &tgid) || tgid > CLKSTAT_TGID_MAX)
			return -EINVAL;
		cmd->why = NULL;
		cmd->tgid = tgid;
		return 0;
	}
	if (cmd->op == CLKSTAT_CTRL_VARIANT) {
		/* Whether the variant exists is the switch's to say. */
		if (!n || n >= sizeof(cmd->variant)) {
			cmd->why = n ? "no variant has so long a name" : "variant takes a name";
			return -EINVAL;
		}
		strscpy(cmd->variant, arg, sizeof(cmd->variant));
		return 0;
	}
	if (cmd->op == CLKSTAT_CTRL_TRACE || cmd->op == CLKSTAT_CTRL_UNTRACE) {
		/* Whether the spec is one is the trace's to say, and why. */
		if (!n) {
			cmd->why = "trace and untrace take a spec";
			return -EINVAL;
		}
		strscpy(cmd->trace, arg, sizeof(cmd->trace));
		return 0;
	}
	if (n >= sizeof(cmd->metric)) {
		cmd->why = "no metric has so long a name";
		return -EINVAL;
	}
	if (n)
		strscpy(cmd->metric, arg, sizeof(cmd->metric));
	return 0;
}

/**
 * clkstat_control_parse_write() - parse one write() to the control file
 * @buf: the @len bytes written, followed by a NUL
 * @len: how many bytes were written
 * @cmd: filled in on success
 *
 * A write is one command: more than CLKSTAT_CONTROL_MAX bytes, or a NUL
 * byte among them ("start\0stop" would otherwise read as "start"), is
 * refused as a whole.
 *
 * Return: 0, or -EINVAL (see also clkstat_control_parse()).
 */
int clkstat_control_parse_write(const char *buf, size_t len,
				struct clkstat_cmd *cmd)
{
	if (len > CLKSTAT_CONTROL_MAX || memchr(buf, '\0', len)) {
		*cmd = (struct clkstat_cmd){ .why = len > CLKSTAT_CONTROL_MAX ?
			"a command is 160 bytes at most" : "a NUL byte in the command" };
		return -EINVAL;
	}
	return clkstat_control_parse(buf, cmd);
}

static void clkstat_apply(struct clkstat_metric *m, enum clkstat_nl_ctrl_op op)
{
	switch (op) {
	case CLKSTAT_CTRL_START:
		clkstat_metric_set_recording(m, true);
		break;
	case CLKSTAT_CTRL_STOP:
		clkstat_metric_set_recording(m, false);
		break;
	case CLKSTAT_CTRL_RESET:
		clkstat_metric_reset(m);
		break;
	default:
		break;
	}
}

/* Whether @cmd names @m: by its identity, by its name, or all. */
static bool clkstat_cmd_names(const struct clkstat_cmd *cmd,
			      const struct clkstat_metric *m)
{
	return !cmd->metric[0] || !strcmp(m->id, cmd->metric) ||
	       !strcmp(m->name, cmd->metric);
}

/*
 * Only the attached variant's metrics can start: nothing feeds another
 * variant's, and one left "recording" would count from a half-attached
 * state when the probes are switched to it.  A switch decides their state.
 */
static bool clkstat_startable(const struct clkstat_metric *m,
			      const char *attached)
{
	return !attached || !strcmp(m->variant, attached);
}

/**
 * clkstat_control_exec() - carry out a parsed command on the metrics
 * @cmd: from clkstat_control_parse(), anything but a variant switch; its
 *	why is set when it is refused
 * @attached: the variant whose hooks are attached (probes.c's), or NULL
 *	to let any metric start (KUnit, which attaches nothing)
 *
 * A metric is named by its identity (ttwu_enqueue.direct) or by its name
 * alone (ttwu_enqueue), which means that metric in every variant.  stop
 * and reset act on every variant; start only on the attached one's.  A
 * total or one of its parts acts on the three, once.  A reset without a
 * metric also empties the event log.
 *
 * Return: 0, or -EINVAL when the command names no metric it can act on:
 * none of that name, or for start none of the attached variant (nothing
 * is changed then).
 */
int clkstat_control_exec(struct clkstat_cmd *cmd, const char *attached)
{
	struct clkstat_metric *m;
	bool found = false, named = false;

	if (cmd->op == CLKSTAT_CTRL_TGID) {
		WRITE_ONCE(clkstat_filter_tgid, cmd->tgid);
		return 0;
	}
	clkstat_registry_lock();
	list_for_each_entry(m, clkstat_registry(), node) {
		if (!clkstat_cmd_names(cmd, m))
			continue;
		named = true;
		if (cmd->op == CLKSTAT_CTRL_START && !clkstat_startable(m, attached))
			continue;
		found = true;
		/*
		 * A part acts on its family (clkstat_metric_set_parts()):
		 * when the command names its total too, the total's turn
		 * does, and a family resets once.
		 */
		if (m->total && clkstat_cmd_names(cmd, m->total))
			continue;
		clkstat_apply(m, cmd->op);
	}
	clkstat_registry_unlock();
	if (cmd->op == CLKSTAT_CTRL_RESET && !cmd->metric[0])
		clkstat_evlog_reset();
	if (!cmd->metric[0] || found)
		return 0;
	cmd->why = named ? "no metric of that name in the attached variant, the only one that can start" :
		"no metric of that name";
	return -EINVAL;
}

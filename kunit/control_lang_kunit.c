// SPDX-License-Identifier: GPL-2.0
/*
 * control_lang_kunit.c - the control language: what parses, what does not, and
 * that a command naming an unknown metric changes nothing.
 */
#include <kunit/test.h>
#include "../kmod/control_lang.h"
#include "../kmod/uapi/clkstat_netlink_ext.h"

static void control_parse_good(struct kunit *test)
{
	struct clkstat_cmd c;

	KUNIT_ASSERT_EQ(test, clkstat_control_parse("start\n", &c), 0);
	KUNIT_EXPECT_EQ(test, c.op, CLKSTAT_CTRL_START);
	KUNIT_EXPECT_STREQ(test, c.metric, "");
	KUNIT_ASSERT_EQ(test, clkstat_control_parse("stop ttwu_enqueue", &c), 0);
	KUNIT_EXPECT_EQ(test, c.op, CLKSTAT_CTRL_STOP);
	KUNIT_EXPECT_STREQ(test, c.metric, "ttwu_enqueue");
	KUNIT_ASSERT_EQ(test, clkstat_control_parse("  reset\tm1\t\n", &c), 0);
	KUNIT_EXPECT_EQ(test, c.op, CLKSTAT_CTRL_RESET);
	KUNIT_EXPECT_STREQ(test, c.metric, "m1");
	KUNIT_ASSERT_EQ(test, clkstat_control_parse("tgid 4242\n", &c), 0);
	KUNIT_EXPECT_EQ(test, c.op, CLKSTAT_CTRL_TGID);
	KUNIT_EXPECT_EQ(test, c.tgid, 4242);
	KUNIT_ASSERT_EQ(test, clkstat_control_parse("variant kprobe-int3\n", &c),
			0);
	KUNIT_EXPECT_EQ(test, c.op, CLKSTAT_CTRL_VARIANT);
	KUNIT_EXPECT_STREQ(test, c.variant, "kprobe-int3");
	/* 15 characters: the longest variant name */
	KUNIT_ASSERT_EQ(test, clkstat_control_parse("variant abcdefghijklmno", &c),
			0);
	KUNIT_EXPECT_STREQ(test, c.variant, "abcdefghijklmno");
	KUNIT_ASSERT_EQ(test, clkstat_control_parse("tgid 0", &c), 0);
	KUNIT_EXPECT_EQ(test, c.tgid, 0);
	/* 79 characters: the longest name.variant */
	KUNIT_EXPECT_EQ(test, clkstat_control_parse(
			"start abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz0.abcdefghijklmno",
			&c), 0);
	KUNIT_EXPECT_EQ(test, strlen(c.metric), (size_t)CLKSTAT_ID_MAX - 1);
	/* Every white space character of the documentation. */
	KUNIT_ASSERT_EQ(test, clkstat_control_parse("\v\fstop\r\tm2\r\n", &c),
			0);
	KUNIT_EXPECT_EQ(test, c.op, CLKSTAT_CTRL_STOP);
	KUNIT_EXPECT_STREQ(test, c.metric, "m2");
	/* tgid: decimal digits up to 4194304, leading zeros allowed */
	KUNIT_ASSERT_EQ(test, clkstat_control_parse("tgid 4194304", &c), 0);
	KUNIT_EXPECT_EQ(test, c.tgid, CLKSTAT_TGID_MAX);
	KUNIT_ASSERT_EQ(test, clkstat_control_parse("tgid 00000000000000000000042",
						    &c), 0);
	KUNIT_EXPECT_EQ(test, c.tgid, 42);
}

/* What ctl_fuzz found: inputs the grammar refuses that used to pass. */
static void control_parse_strict(struct kunit *test)
{
	static const char *const bad[] = {
		"tgid +5", "tgid -0", "tgid +0", "tgid 4194305",
		"tgid 2147483647", "tgid 4294967296",
		"start\xa0ttwu_enqueue",	/* 0xa0 is no white space */
		"\xa0start", "stop\xa0", "tgid\xa0\x37",
		"stop\x85m", "stop\x1cm",
	};
	struct clkstat_cmd c;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, clkstat_control_parse(bad[i], &c),
				    -EINVAL, "input \"%s\"", bad[i]);
}

/* Every refusal says why, in the words a reply or last_error carries. */
static void control_parse_why(struct kunit *test)
{
	static const struct { const char *in, *why; } cases[] = {
		{ "", "no command" },
		{ "bogus", "unknown command (start, stop, reset, tgid, variant, trace, untrace)" },
		{ "stop a b", "one argument at most" },
		{ "tgid -1", "tgid takes a number, 0 to 4194304" },
		{ "tgid", "tgid takes a number, 0 to 4194304" },
		{ "variant", "variant takes a name" },
		{ "variant abcdefghijklmnop", "no variant has so long a name" },
		{ "trace", "trace and untrace take a spec" },
	};
	struct clkstat_cmd c;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		KUNIT_EXPECT_EQ_MSG(test, clkstat_control_parse(cases[i].in, &c),
				    -EINVAL, "input \"%s\"", cases[i].in);
		KUNIT_EXPECT_STREQ_MSG(test, c.why, cases[i].why,
				       "input \"%s\"", cases[i].in);
	}
	KUNIT_EXPECT_EQ(test, clkstat_control_parse_write("start\0", 6, &c),
			-EINVAL);
	KUNIT_EXPECT_STREQ(test, c.why, "a NUL byte in the command");
	KUNIT_EXPECT_EQ(test, clkstat_control_parse("tgid 5", &c), 0);
	KUNIT_EXPECT_NULL(test, c.why);
}

/* One write() is one command: its length and every byte of it count. */
static void control_parse_write(struct kunit *test)
{
	char buf[CLKSTAT_CONTROL_MAX + 2];
	struct clkstat_cmd c;

	KUNIT_EXPECT_EQ(test, clkstat_control_parse_write("start\n", 6, &c), 0);
	KUNIT_EXPECT_EQ(test, c.op, CLKSTAT_CTRL_START);
	/* A NUL anywhere, the end included, refuses the write. */
	KUNIT_EXPECT_EQ(test, clkstat_control_parse_write("start\0stop", 10, &c),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, clkstat_control_parse_write("start\0", 6, &c),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, clkstat_control_parse_write("\0", 1, &c),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, clkstat_control_parse_write("", 0, &c), -EINVAL);
	/* 160 bytes pass, 161 do not, even if all but "stop" is white space. */
	memset(buf, ' ', sizeof(buf));
	memcpy(buf, "stop", 4);
	buf[CLKSTAT_CONTROL_MAX] = '\0';
	KUNIT_EXPECT_EQ(test, clkstat_control_parse_write(buf,
							  CLKSTAT_CONTROL_MAX,
							  &c), 0);
	KUNIT_EXPECT_EQ(test, c.op, CLKSTAT_CTRL_STOP);
	buf[CLKSTAT_CONTROL_MAX] = ' ';
	buf[CLKSTAT_CONTROL_MAX + 1] = '\0';
	KUNIT_EXPECT_EQ(test, clkstat_control_parse_write(buf,
							  CLKSTAT_CONTROL_MAX + 1,
							  &c), -EINVAL);
}

static void control_parse_bad(struct kunit *test)
{
	static const char *const bad[] = {
		"", "\n", "   ", "starts", "START", "st", "start a b",
		"reset m extra words", "tgid", "tgid -1", "tgid x", "tgid 12abc",
		"tgid 1 2", "tgid 99999999999", "variant", "variant a b",
		"variant abcdefghijklmnop", "VARIANT direct",
		/* 80 characters */
		"start abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz01.abcdefghijklmno",
		"a_very_long_word_that_is_no_command_at_all_really",
	};
	struct clkstat_cmd c;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, clkstat_control_parse(bad[i], &c),
				    -EINVAL, "input \"%s\"", bad[i]);
}

/*
 * trace and untrace take one word, passed on as given: whether it is a
 * spec, and why not, is the trace's to say (probe_trace.c), so that the
 * refusal names the reason.  A word longer than any spec could be is
 * refused here.
 */
static void control_parse_trace(struct kunit *test)
{
	char buf[CLKSTAT_TRACE_ARG_MAX + 16];
	struct clkstat_cmd c;

	KUNIT_EXPECT_EQ(test, clkstat_control_parse("trace func:do_nanosleep\n",
						    &c), 0);
	KUNIT_EXPECT_EQ(test, c.op, CLKSTAT_CTRL_TRACE);
	KUNIT_EXPECT_STREQ(test, c.trace, "func:do_nanosleep");
	KUNIT_EXPECT_EQ(test, clkstat_control_parse(" untrace  sec:a-b:exit ",
						    &c), 0);
	KUNIT_EXPECT_EQ(test, c.op, CLKSTAT_CTRL_UNTRACE);
	KUNIT_EXPECT_STREQ(test, c.trace, "sec:a-b:exit");
	/* Not a spec, but one word: the trace refuses it, with a reason. */
	KUNIT_EXPECT_EQ(test, clkstat_control_parse("trace sec:a", &c), 0);
	KUNIT_EXPECT_EQ(test, clkstat_control_parse("trace", &c), -EINVAL);
	KUNIT_EXPECT_EQ(test, clkstat_control_parse("untrace", &c), -EINVAL);
	KUNIT_EXPECT_EQ(test, clkstat_control_parse("trace a b", &c), -EINVAL);
	memset(buf, 'x', sizeof(buf));
	memcpy(buf, "trace ", 6);
	buf[6 + CLKSTAT_TRACE_ARG_MAX] = '\0';
	KUNIT_EXPECT_EQ(test, clkstat_control_parse(buf, &c), 0);
	buf[6 + CLKSTAT_TRACE_ARG_MAX] = 'x';
	buf[7 + CLKSTAT_TRACE_ARG_MAX] = '\0';
	KUNIT_EXPECT_EQ(test, clkstat_control_parse(buf, &c), -EINVAL);
}

static void control_exec(struct kunit *test)
{
	struct clkstat_metric *m, *m2;
	const char *attached = NULL;	/* until set: any metric starts */
	struct clkstat_cmd c;

	m = clkstat_metric_create("kunit_ctl", "test", NULL, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, m);
	m2 = clkstat_metric_create("kunit_ctl", "test2", NULL, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, m2);
	/* name.variant: that one metric */
	KUNIT_ASSERT_EQ(test, clkstat_control_parse("start kunit_ctl.test2", &c),
			0);
	KUNIT_EXPECT_EQ(test, clkstat_control_exec(&c, attached), 0);
	KUNIT_EXPECT_FALSE(test, clkstat_metric_recording(m));
	KUNIT_EXPECT_TRUE(test, clkstat_metric_recording(m2));
	/* the name alone: every variant of it */
	KUNIT_ASSERT_EQ(test, clkstat_control_parse("start kunit_ctl", &c), 0);
	KUNIT_EXPECT_EQ(test, clkstat_control_exec(&c, attached), 0);
	KUNIT_EXPECT_TRUE(test, clkstat_metric_recording(m));
	KUNIT_EXPECT_TRUE(test, clkstat_metric_recording(m2));
	/* unknown metric: -EINVAL and nothing changes */
	KUNIT_ASSERT_EQ(test, clkstat_control_parse("stop nosuch", &c), 0);
	KUNIT_EXPECT_EQ(test, clkstat_control_exec(&c, attached), -EINVAL);
	KUNIT_EXPECT_STREQ(test, c.why, "no metric of that name");
	KUNIT_EXPECT_TRUE(test, clkstat_metric_recording(m));
	/* no metric: all of them */
	KUNIT_ASSERT_EQ(test, clkstat_control_parse("stop", &c), 0);
	KUNIT_EXPECT_EQ(test, clkstat_control_exec(&c, attached), 0);
	KUNIT_EXPECT_FALSE(test, clkstat_metric_recording(m));
	KUNIT_ASSERT_EQ(test, clkstat_control_parse("tgid 17", &c), 0);
	KUNIT_EXPECT_EQ(test, clkstat_control_exec(&c, attached), 0);
	KUNIT_EXPECT_EQ(test, READ_ONCE(clkstat_filter_tgid), 17);
	clkstat_filter_tgid = 0;
	/* Only the attached variant's metrics start; stop acts on all. */
	attached = "test2";
	KUNIT_ASSERT_EQ(test, clkstat_control_parse("start", &c), 0);
	KUNIT_EXPECT_EQ(test, clkstat_control_exec(&c, attached), 0);
	KUNIT_EXPECT_FALSE(test, clkstat_metric_recording(m));
	KUNIT_EXPECT_TRUE(test, clkstat_metric_recording(m2));
	KUNIT_ASSERT_EQ(test, clkstat_control_parse("start kunit_ctl.test", &c),
			0);
	KUNIT_EXPECT_EQ(test, clkstat_control_exec(&c, attached), -EINVAL);
	KUNIT_EXPECT_STREQ(test, c.why,
			   "no metric of that name in the attached variant, the only one that can start");
	KUNIT_EXPECT_FALSE(test, clkstat_metric_recording(m));
	KUNIT_ASSERT_EQ(test, clkstat_control_parse("stop kunit_ctl", &c), 0);
	KUNIT_EXPECT_EQ(test, clkstat_control_exec(&c, attached), 0);
	KUNIT_EXPECT_FALSE(test, clkstat_metric_recording(m2));
	clkstat_metric_destroy(m2);
	clkstat_metric_destroy(m);
}

static struct kunit_case control_cases[] = {
	KUNIT_CASE(control_parse_good),
	KUNIT_CASE(control_parse_bad),
	KUNIT_CASE(control_parse_strict),
	KUNIT_CASE(control_parse_why),
	KUNIT_CASE(control_parse_write),
	KUNIT_CASE(control_parse_trace),
	KUNIT_CASE(control_exec),
	{}
};

static struct kunit_suite control_suite = {
	.name = "clkstat_control",
	.test_cases = control_cases,
};
kunit_test_suite(control_suite);

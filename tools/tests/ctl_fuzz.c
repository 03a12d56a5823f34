// SPDX-License-Identifier: GPL-2.0
/*
 * ctl_fuzz - hostile writes to clkstat's debugfs control file, each one
 * checked against an oracle.
 *
 *   ctl_fuzz [--dry-run] [--probes LIST] [--switches K] CONTROL_FILE N SEED
 *   ctl_fuzz --self-test
 *
 * Writes N inputs to CONTROL_FILE, each in one write(2): valid commands,
 * mutations of them, soups of tokens (the commands, the metrics and
 * variants the control file lists, near misses), random bytes, lengths
 * around the 160-byte limit, and huge writes of 4 KiB to 1 MiB.  The
 * oracle is the grammar as Documentation/clkstat.rst ("Control file")
 * documents it, written independently of kmod/control_lang.c, with a model of
 * the state the control file shows: an input it refuses must fail with
 * EINVAL and change nothing, one it accepts must have its documented
 * effect.  At most K switches to another variant (default 20).
 *
 * Prints "inputs N accepted A rejected R mismatches M huge H nul Z
 * switches S resets T" and exits 0, or 1 at the first mismatch, 2 for a
 * usage error, 3 if the control file cannot be used.  The inputs, the
 * oracle's rules, --dry-run, --self-test and reproducing a run:
 * Documentation/clkstat-hardening.rst, "The control file".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <gsl/gsl_rng.h>
#include "../../kmod/uapi/clkstat_catalog.h"

#define CMD_MAX		160		/* documented: bytes per command */
#define TGID_MAX	4194304LL	/* documented: PID_MAX_LIMIT */
#define HUGE_MIN	4096
#define HUGE_MAX	(1 << 20)
#define MAXM		256		/* metrics the model holds */
#define TEXT_MAX	65536		/* the control file's text */
#define NAME_LEN	(CMD_MAX + 8)	/* longer than any word of a command */

static const char *const known_variants[] = {
	"direct", "ftrace", "kprobe", "kprobe-int3", "tracepoint", "off",
};

/* Probes that the tracepoint variant cannot run (documented). */
static const char *const no_tracepoint[] = { "tkread", "csread", "csswitch" };

struct metric {
	char name[NAME_LEN];
	char variant[NAME_LEN];
	bool on;
	long long resets;	/* its file's header: resets since creation */
};

/* What the control file shows. */
struct state {
	char variant[NAME_LEN];
	unsigned long switches;
	long long tgid;
	unsigned long reentered;	/* moves by itself: not compared */
	unsigned int nm;
	struct metric m[MAXM];
};

enum op { OP_START, OP_STOP, OP_RESET, OP_TGID, OP_VARIANT, OP_TRACE,
	  OP_UNTRACE, OP_N };
static const char *const op_names[OP_N] = {
	"start", "stop", "reset", "tgid", "variant", "trace", "untrace",
};

struct verdict {
	bool ok;
	enum op op;
	char arg[CMD_MAX + 1];	/* empty: none */
	long long tgid;
	const char *why;	/* why it is refused */
	bool enoent_ok;		/* refused with ENOENT is right too */
};

static gsl_rng *rng;
static bool tracepoint_ok = true;

static unsigned long rnd(unsigned long n)
{
	return n ? gsl_rng_uniform_int(rng, n) : 0;
}

static bool chance(unsigned int percent)
{
	return rnd(100) < percent;
}

/* ---- the control file's text, parsed strictly ---- */

/* Parse TEXT into S; false (with why) if a line is not of the format. */
static bool parse_state(const char *text, struct state *s, const char **why)
{
	char line[512], a[NAME_LEN], b[NAME_LEN], onoff[8], back[512];
	const char *p = text, *nl;
	unsigned int lineno = 0;
	bool seen_comment = false;

	memset(s, 0, sizeof(*s));
	while (*p) {
		size_t n;

		nl = strchr(p, '\n');
		if (!nl) {
			*why = "last line without a newline";
			return false;
		}
		n = nl - p;
		if (n >= sizeof(line)) {
			*why = "line too long";
			return false;
		}
		memcpy(line, p, n);
		line[n] = '\0';
		p = nl + 1;
		lineno++;
		if (seen_comment) {
			*why = "a line after the comment";
			return false;
		}
		/* Each line parsed, printed back and compared: exact format. */
		if (lineno == 1) {
			if (sscanf(line, "variant %71s switches %lu", a,
				   &s->switches) != 2) {
				*why = "bad first line";
				return false;
			}
			snprintf(s->variant, sizeof(s->variant), "%s", a);
			snprintf(back, sizeof(back), "variant %s switches %lu",
				 s->variant, s->switches);
		} else if (lineno == 2) {
			if (sscanf(line, "tgid %lld", &s->tgid) != 1) {
				*why = "bad tgid line";
				return false;
			}
			snprintf(back, sizeof(back), "tgid %lld", s->tgid);
		} else if (lineno == 3) {
			/* A count the hot path moves: parsed, not compared. */
			if (sscanf(line, "reentered %lu", &s->reentered) != 1) {
				*why = "bad reentered line";
				return false;
			}
			snprintf(back, sizeof(back), "reentered %lu",
				 s->reentered);
		} else if (!strncmp(line, "# ", 2)) {
			seen_comment = true;
			continue;
		} else if (!strncmp(line, "probe ", 6)) {
			/* Misses the hot path counts: parsed, not compared. */
			unsigned long missed;

			if (s->nm || sscanf(line, "probe %71s missed %lu", a,
					    &missed) != 2) {
				*why = "bad probe line";
				return false;
			}
			snprintf(back, sizeof(back), "probe %s missed %lu", a,
				 missed);
		} else {
			struct metric *m;

			if (s->nm == MAXM) {
				*why = "too many metrics";
				return false;
			}
			m = &s->m[s->nm++];
			if (sscanf(line, "metric %71s variant %71s recording %7s",
				   a, b, onoff) != 3 ||
			    (strcmp(onoff, "on") && strcmp(onoff, "off"))) {
				*why = "bad metric line";
				return false;
			}
			snprintf(m->name, sizeof(m->name), "%s", a);
			snprintf(m->variant, sizeof(m->variant), "%s", b);
			m->on = !strcmp(onoff, "on");
			snprintf(back, sizeof(back),
				 "metric %s variant %s recording %s", m->name,
				 m->variant, m->on ? "on" : "off");
		}
		if (strcmp(back, line)) {
			*why = "a line not in the documented format";
			return false;
		}
	}
	if (lineno < 3 || !seen_comment) {
		*why = "lines missing";
		return false;
	}
	return true;
}

static const struct metric *find_metric(const struct state *s,
					const char *name, const char *variant)
{
	unsigned int i;

	for (i = 0; i < s->nm; i++)
		if (!strcmp(s->m[i].name, name) &&
		    !strcmp(s->m[i].variant, variant))
			return &s->m[i];
	return NULL;
}

/*
 * The same text but for the counts the hot path moves by itself
 * (reentered, each probe's missed): what a refused command must leave.
 */
static bool moving_line(const char *l)
{
	return !strncmp(l, "reentered ", 10) || !strncmp(l, "probe ", 6);
}

static bool same_text(const char *a, const char *b)
{
	const char *ea, *eb;

	for (;;) {
		while (*a && moving_line(a))
			a = strchr(a, '\n') ? strchr(a, '\n') + 1 : a + strlen(a);
		while (*b && moving_line(b))
			b = strchr(b, '\n') ? strchr(b, '\n') + 1 : b + strlen(b);
		if (!*a || !*b)
			return !*a && !*b;
		ea = strchr(a, '\n') ?: a + strlen(a);
		eb = strchr(b, '\n') ?: b + strlen(b);
		if (ea - a != eb - b || memcmp(a, b, ea - a))
			return false;
		a = *ea ? ea + 1 : ea;
		b = *eb ? eb + 1 : eb;
	}
}

/* Same variant, switches, tgid, and the same metrics in any order. */
static bool same_state(const struct state *x, const struct state *y,
		       char *diff, size_t len)
{
	unsigned int i;

	if (strcmp(x->variant, y->variant) || x->switches != y->switches) {
		snprintf(diff, len, "variant %s switches %lu, want %s %lu",
			 x->variant, x->switches, y->variant, y->switches);
		return false;
	}
	if (x->tgid != y->tgid) {
		snprintf(diff, len, "tgid %lld, want %lld", x->tgid, y->tgid);
		return false;
	}
	if (x->nm != y->nm) {
		snprintf(diff, len, "%u metrics, want %u", x->nm, y->nm);
		return false;
	}
	for (i = 0; i < y->nm; i++) {
		const struct metric *m = find_metric(x, y->m[i].name,
						     y->m[i].variant);

		if (!m || m->on != y->m[i].on) {
			snprintf(diff, len, "metric %s.%s %s, want %s",
				 y->m[i].name, y->m[i].variant,
				 !m ? "missing" : m->on ? "on" : "off",
				 y->m[i].on ? "on" : "off");
			return false;
		}
	}
	return true;
}

/* ---- the oracle: the documented grammar ---- */

static bool blank(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' ||
	       c == '\r';
}

/* METRIC names m: its identity NAME.VARIANT or its name alone. */
static bool names(const struct metric *m, const char *metric)
{
	size_t n = strlen(m->name);

	if (!strcmp(metric, m->name))
		return true;
	return !strncmp(metric, m->name, n) && metric[n] == '.' &&
	       !strcmp(metric + n + 1, m->variant);
}

static void judge(const unsigned char *b, size_t len, const struct state *s,
		  struct verdict *v)
{
	char word[3][CMD_MAX + 1];
	unsigned int nw = 0, i;
	size_t k = 0, wl;

	memset(v, 0, sizeof(*v));
	v->why = "";
	if (len > CMD_MAX) {
		v->why = "longer than 160 bytes";
		return;
	}
	if (memchr(b, '\0', len)) {
		v->why = "a NUL byte";
		return;
	}
	while (k < len) {
		while (k < len && blank(b[k]))
			k++;
		if (k == len)
			break;
		if (nw == 3) {
			v->why = "too many words";
			return;
		}
		for (wl = 0; k < len && !blank(b[k]); k++)
			word[nw][wl++] = b[k];
		word[nw++][wl] = '\0';
	}
	if (!nw) {
		v->why = "no command";
		return;
	}
	if (nw > 2) {
		v->why = "too many words";
		return;
	}
	for (i = 0; i < OP_N; i++)
		if (!strcmp(word[0], op_names[i]))
			break;
	if (i == OP_N) {
		v->why = "unknown command";
		return;
	}
	v->op = i;
	if (nw == 2)
		strcpy(v->arg, word[1]);
	switch (v->op) {
	case OP_START:
	case OP_STOP:
	case OP_RESET:
		if (nw == 2) {
			for (i = 0; i < s->nm; i++)
				if (names(&s->m[i], v->arg) &&
				    (v->op != OP_START ||
				     !strcmp(s->m[i].variant, s->variant)))
					break;
			if (i == s->nm) {
				v->why = v->op == OP_START ?
					 "no such metric in the attached variant" :
					 "no such metric";
				return;
			}
		}
		break;
	case OP_TGID:
		if (nw != 2 || !v->arg[0]) {
			v->why = "tgid without its number";
			return;
		}
		for (k = 0; v->arg[k]; k++) {
			if (v->arg[k] < '0' || v->arg[k] > '9') {
				v->why = "tgid not decimal digits";
				return;
			}
			v->tgid = v->tgid * 10 + (v->arg[k] - '0');
			if (v->tgid > TGID_MAX) {
				v->why = "tgid above 4194304";
				return;
			}
		}
		break;
	case OP_VARIANT:
		if (nw != 2) {
			v->why = "variant without its name";
			return;
		}
		for (i = 0; i < sizeof(known_variants) / sizeof(*known_variants); i++)
			if (!strcmp(v->arg, known_variants[i]))
				break;
		if (i == sizeof(known_variants) / sizeof(*known_variants)) {
			v->why = "unknown variant";
			return;
		}
		if (!strcmp(v->arg, "tracepoint") && !tracepoint_ok) {
			v->why = "a probe that tracepoint cannot run";
			return;
		}
		break;
	case OP_TRACE:
	case OP_UNTRACE:
		/* No word of the fuzz is a kernel function: never added. */
		v->why = nw == 2 ? "no kernel function of that name" :
				   "trace without its spec";
		v->enoent_ok = nw == 2 && v->op == OP_TRACE;
		return;
	default:
		break;
	}
	v->ok = true;
}

/* A valid switch to another variant (the slow kind). */
static bool is_switch(const struct verdict *v, const struct state *s)
{
	return v->ok && v->op == OP_VARIANT && strcmp(v->arg, s->variant);
}

/* The documented effect of an accepted command on what control shows. */
/*
 * The families of totals and parts (CLKSTAT_METRIC_FAMILIES): a metric's
 * family is named by its total, a metric of none by itself.
 */
#define FAMILY(total, a, b)	{ #total, #a, #b },
static const char *const families[][3] = {
	CLKSTAT_METRIC_FAMILIES(FAMILY)
};

static const char *family(const char *name)
{
	unsigned int f, k;

	for (f = 0; f < sizeof(families) / sizeof(families[0]); f++)
		for (k = 0; k < 3; k++)
			if (!strcmp(name, families[f][k]))
				return families[f][0];
	return name;
}

static bool same_family(const struct metric *a, const struct metric *b)
{
	return !strcmp(a->variant, b->variant) &&
	       !strcmp(family(a->name), family(b->name));
}

/*
 * Which metrics a start, stop or reset acts on: those it names (for
 * start, of the attached variant), each with its family, every family
 * once (@hit: one flag per metric).
 */
static void families_hit(const struct verdict *v, const struct state *s,
			 bool *hit)
{
	unsigned int i, j;

	memset(hit, 0, s->nm * sizeof(*hit));
	for (i = 0; i < s->nm; i++) {
		if (v->arg[0] && !names(&s->m[i], v->arg))
			continue;
		if (v->op == OP_START && strcmp(s->m[i].variant, s->variant))
			continue;
		for (j = 0; j < s->nm; j++)
			if (same_family(&s->m[i], &s->m[j]))
				hit[j] = true;
	}
}

static void apply(const struct verdict *v, struct state *s)
{
	unsigned int i, old_n = s->nm;
	char old[NAME_LEN];
	bool hit[MAXM];

	switch (v->op) {
	case OP_START:
	case OP_STOP:
		families_hit(v, s, hit);
		for (i = 0; i < s->nm; i++)
			if (hit[i])
				s->m[i].on = v->op == OP_START;
		break;
	case OP_RESET:
		/* A family resets as one: each member's count goes up by one. */
		families_hit(v, s, hit);
		for (i = 0; i < s->nm; i++)
			if (hit[i])
				s->m[i].resets++;
		break;
	case OP_TGID:
		s->tgid = v->tgid;
		break;
	case OP_VARIANT:
		if (!strcmp(v->arg, s->variant))
			break;
		snprintf(old, sizeof(old), "%s", s->variant);
		/* First time there: the new variant's metrics, stopped. */
		for (i = 0; i < old_n; i++) {
			if (strcmp(s->m[i].variant, old) ||
			    find_metric(s, s->m[i].name, v->arg) || s->nm == MAXM)
				continue;
			s->m[s->nm] = (struct metric){ .on = false };
			snprintf(s->m[s->nm].name, NAME_LEN, "%s", s->m[i].name);
			snprintf(s->m[s->nm].variant, NAME_LEN, "%s", v->arg);
			s->nm++;
		}
		/* Each new one records iff its namesake did; the old stop. */
		for (i = 0; i < s->nm; i++) {
			const struct metric *was;

			if (strcmp(s->m[i].variant, v->arg))
				continue;
			was = find_metric(s, s->m[i].name, old);
			s->m[i].on = was && was->on;
		}
		for (i = 0; i < s->nm; i++)
			if (!strcmp(s->m[i].variant, old))
				s->m[i].on = false;
		snprintf(s->variant, sizeof(s->variant), "%s", v->arg);
		s->switches++;
		break;
	default:
		break;
	}
}

/* ---- inputs ---- */

struct input {
	unsigned char *b;
	size_t len;
	size_t cap;
};

static void put(struct input *in, const void *p, size_t n)
{
	if (in->len + n > in->cap)
		n = in->cap - in->len;
	memcpy(in->b + in->len, p, n);
	in->len += n;
}

static void puts_(struct input *in, const char *s)
{
	put(in, s, strlen(s));
}

static void putc_(struct input *in, unsigned char c)
{
	put(in, &c, 1);
}

static const char *const blanks[] = { " ", " ", " ", "\t", "\n", "\v", "\f",
				      "\r", "  ", " \t ", "\r\n" };
/* Bytes that are not white space but look or behave like it somewhere. */
static const unsigned char near_blanks[] = { 0xa0, 0x85, 0x1c, 0x1d,
					     0x1e, 0x1f, 0x7f, 0x08, 0x1b };

static const char *const op_near[] = {
	"starts", "STOP", "Start", "st", "rese", "resett", "tgidd", "TGID",
	"variants", "varian", "start;", "stop,", "reset=", "-start", "stop!",
	"echo", "help", "tgid:", "start\\", "sta\\rt",
};

static const char *const variant_near[] = {
	"kprobes", "Direct", "direct-", "kprobe-int", "kprobe_int3",
	"tracepoints", "bpf-fentry", "bpf-kprobe", "none", "ON", "of",
	"abcdefghijklmno", "abcdefghijklmnop", "", "direct.", "ftrace ",
};

static const char *const numbers[] = {
	"0", "0", "0", "1", "7", "42", "4242", "-1", "-0", "+5", "+0", "007",
	"00000000000000000000000000000001", "2147483647", "2147483648",
	"4194304", "4194305", "4194303", "4294967295", "4294967296",
	"18446744073709551615", "18446744073709551616",
	"99999999999999999999999999999", "-2147483648", "-9223372036854775808",
	"0x10", "0X1", "1e3", "1.5", "1,000", "12abc", "\xd9\xa3",
	" 5", "5 ", "0b101", "010", "65535", "65536",
};

static void random_number(struct input *in)
{
	char buf[64];
	unsigned int i, n;

	switch (rnd(4)) {
	case 0:
		puts_(in, numbers[rnd(sizeof(numbers) / sizeof(*numbers))]);
		return;
	case 1:	/* a valid tgid */
		snprintf(buf, sizeof(buf), "%lu", rnd(TGID_MAX + 1));
		break;
	case 2:	/* around the limit */
		snprintf(buf, sizeof(buf), "%lld", TGID_MAX - 3 + (long)rnd(7));
		break;
	default:	/* many digits, maybe signed */
		n = 1 + rnd(30);
		i = 0;
		if (chance(20))
			buf[i++] = chance(50) ? '-' : '+';
		while (n-- && i < sizeof(buf) - 1)
			buf[i++] = '0' + rnd(10);
		buf[i] = '\0';
		break;
	}
	puts_(in, buf);
}

/* A metric name or identity from the state, or a near miss of one. */
static void random_metric(struct input *in, const struct state *s)
{
	const struct metric *m;
	char buf[2 * NAME_LEN + 8];

	if (!s->nm || chance(10)) {
		static const char *const bad[] = {
			"nosuch", "ttwu", "ttwu_enqueue.", ".direct", "*", "all",
			"ttwu_enqueue.nosuch", "TTWU_ENQUEUE", "ttwu_enqueue..direct",
			"abcdefghijklmnopqrstuvwxyz01234.abcdefghijklmno",
			"abcdefghijklmnopqrstuvwxyz012345.abcdefghijklmno",
		};
		puts_(in, bad[rnd(sizeof(bad) / sizeof(*bad))]);
		return;
	}
	m = &s->m[rnd(s->nm)];
	switch (rnd(6)) {
	case 0:
	case 1:
		snprintf(buf, sizeof(buf), "%s", m->name);
		break;
	case 2:
	case 3:
		snprintf(buf, sizeof(buf), "%s.%s", m->name, m->variant);
		break;
	case 4:	/* another variant's identity, maybe not existing */
		snprintf(buf, sizeof(buf), "%s.%s", m->name,
			 known_variants[rnd(6)]);
		break;
	default:	/* a prefix or a longer name */
		snprintf(buf, sizeof(buf), "%s", m->name);
		if (chance(50))
			buf[rnd(strlen(buf))] = '\0';
		else
			strcat(buf, chance(50) ? "_" : "x");
		break;
	}
	puts_(in, buf);
}

static void random_variant(struct input *in, const struct state *s)
{
	if (chance(40))
		puts_(in, variant_near[rnd(sizeof(variant_near) / sizeof(*variant_near))]);
	else if (chance(30))
		puts_(in, s->variant);
	else
		puts_(in, known_variants[rnd(6)]);
}

static void random_blanks(struct input *in, bool at_least_one)
{
	unsigned int n = at_least_one ? 1 + rnd(2) : rnd(3);

	if (!at_least_one && chance(50))
		return;
	while (n--)
		puts_(in, blanks[rnd(sizeof(blanks) / sizeof(*blanks))]);
}

/* A command of the grammar (maybe naming something that does not exist). */
static void well_formed(struct input *in, const struct state *s)
{
	unsigned int op = rnd(20);

	random_blanks(in, false);
	if (op < 6) {
		puts_(in, op < 3 ? "start" : "stop");
	} else if (op < 9) {
		puts_(in, "reset");
	} else if (op < 15) {
		puts_(in, "tgid");
		random_blanks(in, true);
		random_number(in);
		goto end;
	} else if (op < 16) {
		puts_(in, "variant");
		random_blanks(in, true);
		random_variant(in, s);
		goto end;
	} else {
		puts_(in, op_names[rnd(OP_N)]);
	}
	if (chance(70)) {
		random_blanks(in, true);
		random_metric(in, s);
	}
end:
	random_blanks(in, false);
	if (chance(60))
		putc_(in, '\n');
}

static unsigned char random_byte(void)
{
	switch (rnd(4)) {
	case 0:
		return near_blanks[rnd(sizeof(near_blanks))];
	case 1:
		return 1 + rnd(31);		/* control characters */
	case 2:
		return 0x20 + rnd(95);		/* printable */
	default:
		return rnd(256);
	}
}

static void mutate(struct input *in, const struct state *s)
{
	unsigned int n = 1 + rnd(4);
	struct input tok;
	unsigned char tbuf[128];

	while (n--) {
		size_t at = rnd(in->len + 1);

		switch (rnd(12)) {
		case 0:	/* replace a byte */
		case 9:
			if (in->len)
				in->b[rnd(in->len)] = random_byte();
			break;
		case 1:	/* insert a byte */
		case 10:
			if (in->len < in->cap) {
				memmove(in->b + at + 1, in->b + at, in->len - at);
				in->b[at] = random_byte();
				in->len++;
			}
			break;
		case 2:	/* delete a byte */
		case 11:
			if (in->len) {
				at = rnd(in->len);
				memmove(in->b + at, in->b + at + 1, in->len - at - 1);
				in->len--;
			}
			break;
		case 3:	/* insert a token */
			tok = (struct input){ .b = tbuf, .cap = sizeof(tbuf) };
			switch (rnd(5)) {
			case 0:
				random_metric(&tok, s);
				break;
			case 1:
				random_number(&tok);
				break;
			case 2:
				random_variant(&tok, s);
				break;
			case 3:
				puts_(&tok, op_names[rnd(OP_N)]);
				break;
			default:
				puts_(&tok, op_near[rnd(sizeof(op_near) / sizeof(*op_near))]);
				break;
			}
			if (chance(70))
				random_blanks(&tok, true);
			if (in->len + tok.len <= in->cap) {
				memmove(in->b + at + tok.len, in->b + at,
					in->len - at);
				memcpy(in->b + at, tok.b, tok.len);
				in->len += tok.len;
			}
			break;
		case 4:	/* truncate */
			in->len = at;
			break;
		case 5:	/* swap the case of a letter */
			if (in->len) {
				at = rnd(in->len);
				if ((in->b[at] | 0x20) >= 'a' && (in->b[at] | 0x20) <= 'z')
					in->b[at] ^= 0x20;
			}
			break;
		case 6:	/* a NUL somewhere, the end included */
			if (in->len < in->cap) {
				memmove(in->b + at + 1, in->b + at, in->len - at);
				in->b[at] = '\0';
				in->len++;
			}
			break;
		case 7:	/* an extra word at the end */
			random_blanks(in, true);
			if (chance(50))
				random_metric(in, s);
			else
				random_number(in);
			break;
		default:	/* drop or add the trailing newline */
			if (in->len && in->b[in->len - 1] == '\n')
				in->len--;
			else
				putc_(in, '\n');
			break;
		}
	}
}

static void token_soup(struct input *in, const struct state *s)
{
	unsigned int n = rnd(6);

	while (n--) {
		switch (rnd(6)) {
		case 0:
			puts_(in, op_names[rnd(OP_N)]);
			break;
		case 1:
			puts_(in, op_near[rnd(sizeof(op_near) / sizeof(*op_near))]);
			break;
		case 2:
			random_metric(in, s);
			break;
		case 3:
			random_number(in);
			break;
		case 4:
			random_variant(in, s);
			break;
		default:
			putc_(in, random_byte());
			break;
		}
		if (chance(85))
			random_blanks(in, true);
		else
			putc_(in, near_blanks[rnd(sizeof(near_blanks))]);
	}
}

/* A valid command padded with white space to LEN bytes (if it fits). */
static void padded(struct input *in, const struct state *s, size_t len)
{
	unsigned char cmd[CMD_MAX * 2];
	struct input c = { .b = cmd, .cap = sizeof(cmd) };
	size_t pad, before;

	well_formed(&c, s);
	if (c.len > len)
		c.len = len;
	pad = len - c.len;
	before = chance(50) ? rnd(pad + 1) : 0;
	while (before--) {
		putc_(in, " \t\n"[rnd(3)]);
		pad--;
	}
	put(in, c.b, c.len);
	while (pad--)
		putc_(in, chance(90) ? ' ' : '\t');
}

/* A metric word of about the longest length a name can have. */
static void long_word(struct input *in, const struct state *s)
{
	size_t n = 40 + rnd(20), i;

	puts_(in, op_names[rnd(3)]);
	putc_(in, ' ');
	if (s->nm && chance(50)) {
		const struct metric *m = &s->m[rnd(s->nm)];

		puts_(in, m->name);
		n = n > strlen(m->name) ? n - strlen(m->name) : 1;
	}
	for (i = 0; i < n; i++)
		putc_(in, chance(95) ? 'a' + rnd(26) : '.');
	if (chance(50))
		putc_(in, '\n');
}

static unsigned char *pool;	/* random bytes for the huge inputs */

static void huge(struct input *in, const struct state *s)
{
	/* log-uniform in 4 KiB..1 MiB */
	size_t len = HUGE_MIN << rnd(9), off;

	len += rnd(len);
	if (len > HUGE_MAX)
		len = HUGE_MAX;
	switch (rnd(4)) {
	case 0:	/* a valid command, then white space: too long only */
		well_formed(in, s);
		if (in->len < len)
			memset(in->b + in->len, ' ', len - in->len);
		break;
	case 1:	/* one unterminated word */
		memset(in->b, 'x', len);
		break;
	case 2:	/* a command then random bytes */
		well_formed(in, s);
		/* fall through */
	default:
		off = rnd(HUGE_MAX);
		if (in->len < len)
			memcpy(in->b + in->len, pool + off, len - in->len);
		break;
	}
	in->len = len;
}

enum kind { K_WELL, K_MUTATED, K_SOUP, K_RANDOM, K_LIMIT, K_NUL, K_EMPTY,
	    K_HUGE };

static enum kind make_input(struct input *in, const struct state *s)
{
	unsigned int r = rnd(1000);
	size_t n;

	in->len = 0;
	if (r < 250) {
		well_formed(in, s);
		return K_WELL;
	}
	if (r < 600) {
		well_formed(in, s);
		mutate(in, s);
		return K_MUTATED;
	}
	if (r < 700) {
		token_soup(in, s);
		return K_SOUP;
	}
	if (r < 800) {
		n = chance(80) ? rnd(CMD_MAX + 16) : rnd(300);
		while (n--)
			putc_(in, chance(50) ? random_byte() : rnd(256));
		return K_RANDOM;
	}
	if (r < 900) {
		if (chance(60))
			padded(in, s, CMD_MAX - 2 + rnd(5));	/* 62..66 */
		else
			long_word(in, s);
		return K_LIMIT;
	}
	if (r < 960) {
		well_formed(in, s);
		n = rnd(in->len + 1);
		memmove(in->b + n + 1, in->b + n, in->len - n);
		in->b[n] = '\0';
		in->len++;
		return K_NUL;
	}
	if (r < 990) {
		if (chance(50))
			random_blanks(in, true);
		return K_EMPTY;
	}
	huge(in, s);
	return K_HUGE;
}

/* ---- the control file ---- */

/*
 * The "resets N" of a metric file's header (in the control file's
 * folder): -1 if the header has none, -2 if the file cannot be read.
 */
static long long read_resets(const char *dir, const struct metric *m)
{
	char path[4 * NAME_LEN], line[512], *p;
	long long n = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.%s", dir, m->name, m->variant);
	f = fopen(path, "r");
	if (!f)
		return -2;
	if (fgets(line, sizeof(line), f) && (p = strstr(line, " resets ")))
		n = strtoll(p + 8, NULL, 10);
	fclose(f);
	return n;
}

/*
 * The control file's text, in one pread(): at offset 0 seq_file generates
 * the text anew, and a single_open() file gives all of it to a read with
 * room for it (one system call an input less than reading to EOF, which
 * counts on the debug kernel).  A text that fills buf is an error.
 */
static int read_text(int fd, char *buf, size_t cap)
{
	ssize_t r = pread(fd, buf, cap - 1, 0);

	if (r < 0 || (size_t)r == cap - 1)
		return -1;
	buf[r] = '\0';
	return 0;
}

static void print_escaped(FILE *f, const unsigned char *b, size_t len)
{
	size_t i, shown = len > 160 ? 96 : len;

	fputc('"', f);
	for (i = 0; i < shown; i++) {
		unsigned char c = b[i];

		if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c == '\\' || c == '"')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(f, "\\x%02x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
	if (shown < len)
		fprintf(f, " ... (%zu bytes in all)", len);
}

static bool probe_lacks_tracepoint(const char *list)
{
	char buf[256], *save = NULL, *p;
	unsigned int i;

	snprintf(buf, sizeof(buf), "%s", list);
	for (p = strtok_r(buf, ",\n", &save); p; p = strtok_r(NULL, ",\n", &save))
		for (i = 0; i < sizeof(no_tracepoint) / sizeof(*no_tracepoint); i++)
			if (!strcmp(p, no_tracepoint[i]))
				return true;
	return false;
}

/*
 * --self-test: the oracle on inputs whose verdict the documentation
 * states, and the model on a switch, without a module.
 */
static int self_test(void)
{
	static const char text[] =
		"variant direct switches 0\n"
		"tgid 0\n"
		"reentered 0\n"
		"metric ttwu_enqueue variant direct recording on\n"
		"metric ttwu_enqueue_local variant direct recording on\n"
		"metric tkread variant direct recording off\n"
		"metric ttwu_enqueue variant kprobe recording off\n"
		"# commands: start|stop|reset [METRIC], tgid N (0: all tasks), variant NAME, trace SPEC, untrace SPEC\n";
#define C(in, ok) { in, sizeof(in) - 1, ok }
	static const struct { const char *in; size_t len; bool ok; } cases[] = {
		C("start\n", true),
		C("stop ttwu_enqueue", true),
		C("  reset\tttwu_enqueue.kprobe\r\n", true),
		C("\v\fstart ttwu_enqueue_local\f", true),
		C("tgid 4194304", true),
		C("tgid 007", true),
		C("variant kprobe-int3\n", true),
		C("variant direct", true),
		C("start nosuch\n", false),
		C("start ttwu_enqueue.kprobe", false),	/* not attached */
		C("stop ttwu_enqueue_local.kprobe", false),
		C("start\xa0ttwu_enqueue", false),
		C("start\0", false),
		C("start\0stop", false),
		C("", false),
		C(" \n", false),
		C("START", false),
		C("stop a b", false),
		C("tgid", false),
		C("tgid -1", false),
		C("tgid +5", false),
		C("tgid -0", false),
		C("tgid 4194305", false),
		C("tgid 0x10", false),
		C("variant nosuch", false),
		C("variant tracepoint", false),	/* with tkread */
		C("variant", false),
		C("trace", false),
		C("trace func:tkread", false),
		C("untrace ttwu_enqueue", false),
		C("trace a b", false),
	};
#undef C
	unsigned char buf[CMD_MAX + 2];
	struct state s, t;
	struct verdict v;
	const char *why;
	unsigned int i, bad = 0;
	char diff[4 * NAME_LEN];

	tracepoint_ok = !probe_lacks_tracepoint("ttwu,tkread");
	if (!parse_state(text, &s, &why)) {
		fprintf(stderr, "self-test: state: %s\n", why);
		return 1;
	}
	for (i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		judge((const unsigned char *)cases[i].in, cases[i].len, &s, &v);
		if (v.ok != cases[i].ok) {
			fprintf(stderr, "self-test: case %u: %s, want %s (%s)\n", i,
				v.ok ? "accepted" : "refused",
				cases[i].ok ? "accepted" : "refused", v.why);
			bad++;
		}
	}
	/* 160 bytes pass, 161 do not. */
	memset(buf, ' ', sizeof(buf));
	memcpy(buf, "stop", 4);
	judge(buf, CMD_MAX, &s, &v);
	bad += !v.ok;
	judge(buf, CMD_MAX + 1, &s, &v);
	bad += v.ok;
	/* A part stops and starts its family, and nothing else. */
	judge((const unsigned char *)"stop ttwu_enqueue_local", 23, &s, &v);
	apply(&v, &s);
	bad += s.m[0].on || s.m[1].on || s.m[2].on;
	judge((const unsigned char *)"start ttwu_enqueue_local.direct", 31, &s, &v);
	apply(&v, &s);
	bad += !s.m[0].on || !s.m[1].on || s.m[2].on || s.m[3].on;
	/* A switch to kprobe: its ttwu_enqueue family takes over. */
	judge((const unsigned char *)"variant kprobe", 14, &s, &v);
	apply(&v, &s);
	if (!parse_state("variant kprobe switches 1\n"
			 "tgid 0\n"
			 "reentered 0\n"
			 "probe ttwu missed 1\n"
			 "metric ttwu_enqueue variant direct recording off\n"
			 "metric ttwu_enqueue_local variant direct recording off\n"
			 "metric tkread variant direct recording off\n"
			 "metric ttwu_enqueue variant kprobe recording on\n"
			 "metric ttwu_enqueue_local variant kprobe recording on\n"
			 "metric tkread variant kprobe recording off\n"
			 "# end\n", &t, &why) ||
	    !same_state(&s, &t, diff, sizeof(diff))) {
		fprintf(stderr, "self-test: switch: %s\n", diff);
		bad++;
	}
	/*
	 * reset NAME: that name in every variant, with its family; a bare
	 * reset: all, each family once.
	 */
	judge((const unsigned char *)"reset ttwu_enqueue", 18, &s, &v);
	apply(&v, &s);
	judge((const unsigned char *)"reset", 5, &s, &v);
	apply(&v, &s);
	for (i = 0; i < s.nm; i++)
		bad += s.m[i].resets !=
		       (strcmp(s.m[i].name, "tkread") ? 2 : 1);
	/* A refusal may move the counts the hot path moves, nothing else. */
	bad += !same_text("variant direct switches 0\nreentered 1\nprobe ttwu missed 0\n# c\n",
			  "variant direct switches 0\nreentered 4\nprobe ttwu missed 2\n# c\n");
	bad += same_text("variant direct switches 0\nreentered 1\n# c\n",
			 "variant direct switches 1\nreentered 1\n# c\n");
	bad += same_text("tgid 0\n# c\n", "tgid 0\n");
	printf("self-test: %zu cases, %u wrong\n",
	       sizeof(cases) / sizeof(*cases) + 9, bad);
	return bad != 0;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: ctl_fuzz [--dry-run] [--probes LIST] [--switches K] CONTROL_FILE N SEED\n"
		"       ctl_fuzz --self-test\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dry-run", no_argument, NULL, 'd' },
		{ "self-test", no_argument, NULL, 't' },
		{ "probes", required_argument, NULL, 'p' },
		{ "switches", required_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 },
	};
	static char before[TEXT_MAX], after[TEXT_MAX];
	unsigned long n, i, seed, accepted = 0, rejected = 0, nhuge = 0,
		      nnul = 0, nswitch = 0, max_switch = 20, nreset = 0;
	const char *probes = NULL, *why = NULL;
	static struct state model, seen;
	struct input in = { 0 };
	bool dry = false;
	char diff[4 * NAME_LEN];
	int fd, o, ret = 0;
	char *end, dir[PATH_MAX], *slash;
	bool check_resets;
	int bad_resets = 0;
	unsigned int m;

	while ((o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (o) {
		case 'd':
			dry = true;
			break;
		case 't':
			return self_test();
		case 'p':
			probes = optarg;
			break;
		case 's':
			max_switch = strtoul(optarg, &end, 10);
			if (*end || !*optarg)
				usage();
			break;
		default:
			usage();
		}
	}
	if (argc - optind != 3)
		usage();
	n = strtoul(argv[optind + 1], &end, 10);
	if (*end || !*argv[optind + 1])
		usage();
	seed = strtoul(argv[optind + 2], &end, 10);
	if (*end || !*argv[optind + 2])
		usage();

	if (!probes) {
		static char buf[256];
		int pf = open("/sys/module/clkstat/parameters/probes", O_RDONLY);
		ssize_t r = pf < 0 ? -1 : read(pf, buf, sizeof(buf) - 1);

		if (pf >= 0)
			close(pf);
		if (r < 0) {
			fprintf(stderr, "ctl_fuzz: no /sys/module/clkstat/parameters/probes: give --probes\n");
			return 3;
		}
		buf[r] = '\0';
		probes = buf;
	}
	tracepoint_ok = !probe_lacks_tracepoint(probes);

	fd = open(argv[optind], dry ? O_RDONLY : O_RDWR);
	if (fd < 0) {
		perror(argv[optind]);
		return 3;
	}
	if (read_text(fd, before, sizeof(before)) ||
	    !parse_state(before, &model, &why)) {
		fprintf(stderr, "ctl_fuzz: %s: unreadable state (%s)\n",
			argv[optind], why ? why : strerror(errno));
		close(fd);
		return 3;
	}
	/* The metrics' resets so far, from their files beside control. */
	check_resets = !dry;
	snprintf(dir, sizeof(dir), "%s", argv[optind]);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	else
		snprintf(dir, sizeof(dir), ".");
	for (m = 0; m < model.nm && check_resets; m++) {
		model.m[m].resets = read_resets(dir, &model.m[m]);
		check_resets = model.m[m].resets >= 0;
	}

	rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, seed);
	pool = malloc(HUGE_MAX * 2);
	in.cap = HUGE_MAX + 2 * CMD_MAX;
	in.b = malloc(in.cap);
	if (!rng || !pool || !in.b) {
		fprintf(stderr, "ctl_fuzz: out of memory\n");
		return 3;
	}
	for (i = 0; i < HUGE_MAX * 2; i++)
		pool[i] = gsl_rng_get(rng);

	for (i = 0; i < n; i++) {
		struct verdict v;
		enum kind k;
		ssize_t w;
		int err;

		/* A switch only at its turn: at most max_switch, spread out. */
		do {
			k = make_input(&in, &model);
			judge(in.b, in.len, &model, &v);
		} while (is_switch(&v, &model) &&
			 (nswitch >= max_switch ||
			  i < (nswitch + 1) * (n / (max_switch + 1))));
		nhuge += k == K_HUGE;
		nnul += memchr(in.b, '\0', in.len) != NULL;
		nswitch += is_switch(&v, &model);
		nreset += v.ok && v.op == OP_RESET;

		if (dry) {
			printf("%lu %s ", i + 1, v.ok ? "accept" : "reject");
			print_escaped(stdout, in.b, in.len);
			printf(v.ok ? "\n" : " (%s)\n", v.why);
			if (v.ok) {
				accepted++;
				apply(&v, &model);
			} else {
				rejected++;
			}
			continue;
		}

		errno = 0;
		w = write(fd, in.b, in.len);
		err = errno;
		if (read_text(fd, after, sizeof(after))) {
			fprintf(stderr, "ctl_fuzz: reading %s: %s\n",
				argv[optind], strerror(errno));
			ret = 1;
			break;
		}
		if (v.ok) {
			apply(&v, &model);
			if (w != (ssize_t)in.len) {
				snprintf(diff, sizeof(diff),
					 "valid command refused: write returned %zd (%s)",
					 w, w < 0 ? strerror(err) : "short");
				goto mismatch;
			}
			if (!parse_state(after, &seen, &why)) {
				snprintf(diff, sizeof(diff),
					 "control file after it: %s", why);
				goto mismatch;
			}
			if (!same_state(&seen, &model, diff, sizeof(diff)))
				goto mismatch;
			accepted++;
		} else {
			if (w >= 0) {
				snprintf(diff, sizeof(diff),
					 "accepted (returned %zd), but %s", w,
					 v.why);
				goto mismatch;
			}
			if (err != EINVAL && !(err == ENOENT && v.enoent_ok)) {
				snprintf(diff, sizeof(diff),
					 "refused with %s, not EINVAL (%s)",
					 strerror(err), v.why);
				goto mismatch;
			}
			if (!same_text(before, after)) {
				snprintf(diff, sizeof(diff),
					 "refused (%s) but the control file changed",
					 v.why);
				goto mismatch;
			}
			rejected++;
		}
		memcpy(before, after, strlen(after) + 1);
		continue;
mismatch:
		fprintf(stderr, "ctl_fuzz: MISMATCH at input %lu of %lu, seed %lu: %s\n  input: ",
			i + 1, n, seed, diff);
		print_escaped(stderr, in.b, in.len);
		fprintf(stderr, "\n  control file before:\n%s  control file after:\n%s",
			before, after);
		ret = 1;
		break;
	}
	/*
	 * reset shows nowhere in the control file; its count does, in each
	 * metric file's header: after all inputs, as many as the model says.
	 */
	for (m = 0; m < model.nm && check_resets && !ret; m++) {
		long long r = read_resets(dir, &model.m[m]);

		if (r != model.m[m].resets) {
			fprintf(stderr, "ctl_fuzz: MISMATCH after %lu inputs, seed %lu: metric %s.%s has %lld resets, want %lld\n",
				n, seed, model.m[m].name, model.m[m].variant, r,
				model.m[m].resets);
			bad_resets = 1;
			break;
		}
	}
	printf("inputs %lu accepted %lu rejected %lu mismatches %d huge %lu nul %lu switches %lu resets %lu%s\n",
	       accepted + rejected + (ret != 0), accepted, rejected,
	       (ret != 0) + bad_resets, nhuge, nnul, nswitch, nreset,
	       check_resets ? "" : " (resets not checked)");
	close(fd);
	gsl_rng_free(rng);
	free(pool);
	free(in.b);
	return ret || bad_resets;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * btf_func_kunit.c - a function's calling convention from hand-built BTF
 * blobs: registers, the stack, structs by value, hidden return pointers,
 * varargs, modifier chains, FUNCs of one name merged, task pointer
 * arguments, split BTF on a base,
 * floats refused, and malformed blobs (each refused, none read past its
 * end: every blob is copied into an allocation of its exact size, which
 * KASAN guards on the debug kernel).
 */
#include <kunit/test.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <uapi/linux/btf.h>
#include "../kmod/btf_func.h"

#define TB_WORDS	512
#define TB_STRS		512

/* A BTF blob being built: types, strings, then the header put before. */
struct tb {
	u32 w[TB_WORDS];		/* type section */
	unsigned int nw;
	char s[TB_STRS];		/* string section */
	unsigned int ns;
	u32 next_id;			/* id of the next type */
	u32 str_start;			/* string offsets begin here (split) */
	u8 out[32 + TB_WORDS * 4 + TB_STRS];
	size_t size;			/* of out, once built */
};

static struct tb *tb_new(struct kunit *test, const struct tb *base)
{
	struct tb *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, b);
	if (base) {
		b->next_id = base->next_id;
		b->str_start = base->ns;
	} else {
		b->next_id = 1;
		b->ns = 1;	/* "" at offset 0 */
	}
	return b;
}

static u32 tb_str(struct tb *b, const char *str)
{
	u32 off = b->ns;

	strscpy(b->s + b->ns, str, TB_STRS - b->ns);
	b->ns += strlen(str) + 1;
	return b->str_start + off;
}

static void tb_word(struct tb *b, u32 w)
{
	if (b->nw < TB_WORDS)
		b->w[b->nw++] = w;
}

/* A struct btf_type; returns its id.  The kind's extra words follow. */
static u32 tb_type(struct tb *b, const char *name, u32 kind, u32 vlen,
		   u32 size_or_type)
{
	tb_word(b, name ? tb_str(b, name) : 0);
	tb_word(b, kind << 24 | vlen);
	tb_word(b, size_or_type);
	return b->next_id++;
}

static u32 tb_int(struct tb *b, const char *name, u32 size)
{
	u32 id = tb_type(b, name, BTF_KIND_INT, 0, size);

	tb_word(b, size * 8);
	return id;
}

/* A member or a parameter: name, type (and the member's bit offset). */
static void tb_member(struct tb *b, u32 type, u32 bitoff)
{
	tb_word(b, tb_str(b, "m"));
	tb_word(b, type);
	tb_word(b, bitoff);
}

static void tb_param(struct tb *b, u32 type)
{
	tb_word(b, type ? tb_str(b, "a") : 0);
	tb_word(b, type);
}

/* A FUNC @name of a FUNC_PROTO returning @ret, with @n parameters. */
static u32 tb_func(struct tb *b, const char *name, u32 ret, unsigned int n,
		   const u32 *args)
{
	u32 proto = tb_type(b, NULL, BTF_KIND_FUNC_PROTO, n, ret);
	unsigned int i;

	for (i = 0; i < n; i++)
		tb_param(b, args[i]);
	return tb_type(b, name, BTF_KIND_FUNC, BTF_FUNC_GLOBAL, proto);
}

#define FUNC(b, name, ret, ...) \
	tb_func(b, name, ret, ARRAY_SIZE(((u32[]){ __VA_ARGS__ })), \
		(u32[]){ __VA_ARGS__ })
#define FUNC0(b, name, ret)	tb_func(b, name, ret, 0, NULL)

/*
 * The blob: header, types, strings, in b->out.  The header of every BTF
 * version is 24 bytes; 7.x's announces 32 (a layout section after the
 * strings), which tb_build_hdr() lays out, zeroed, as a newer kernel's.
 */
#define TB_HDR_V1	24

static void tb_build_hdr(struct tb *b, u32 hdr_len)
{
	struct btf_header h = {
		.magic = BTF_MAGIC, .version = BTF_VERSION,
		.hdr_len = hdr_len, .type_off = 0, .type_len = b->nw * 4,
		.str_off = b->nw * 4, .str_len = b->ns,
	};

	memset(b->out, 0, hdr_len);
	memcpy(b->out, &h, TB_HDR_V1);
	memcpy(b->out + hdr_len, b->w, b->nw * 4);
	memcpy(b->out + hdr_len + b->nw * 4, b->s, b->ns);
	b->size = hdr_len + b->nw * 4 + b->ns;
}

static void tb_build(struct tb *b)
{
	tb_build_hdr(b, TB_HDR_V1);
}

static struct btf_header *tb_hdr(struct tb *b)
{
	return (struct btf_header *)b->out;
}

/* Parse @len bytes of @b's blob from an allocation of exactly that size. */
static int tb_parse(struct kunit *test, const struct tb *b, size_t len,
		    const struct tb *base, const char *name,
		    struct clkstat_btf_proto *p)
{
	void *copy = kunit_kmalloc(test, len ? len : 1, GFP_KERNEL);
	void *bcopy = NULL;
	int ret;

	KUNIT_ASSERT_NOT_NULL(test, copy);
	memcpy(copy, b->out, len);
	if (base) {
		bcopy = kunit_kmalloc(test, base->size, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, bcopy);
		memcpy(bcopy, base->out, base->size);
	}
	ret = clkstat_btf_parse_proto(copy, len, bcopy, base ? base->size : 0,
				      name, p);
	kunit_kfree(test, copy);
	if (bcopy)
		kunit_kfree(test, bcopy);
	return ret;
}

#define EXPECT_PROTO(test, p, args, ret, stack, va, n) do {		\
	KUNIT_EXPECT_EQ(test, (p).arg_regs, (unsigned int)(args));	\
	KUNIT_EXPECT_EQ(test, (p).ret_regs, (unsigned int)(ret));	\
	KUNIT_EXPECT_EQ(test, (p).stack_args, (bool)(stack));		\
	KUNIT_EXPECT_EQ(test, (p).varargs, (bool)(va));			\
	KUNIT_EXPECT_EQ(test, (p).nfuncs, (unsigned int)(n));		\
} while (0)

/* The types most tests use. */
struct tb_ids {
	u32 l, i, p, s16, s24;
};

static void tb_common(struct tb *b, struct tb_ids *t)
{
	t->l = tb_int(b, "long", 8);
	t->i = tb_int(b, "int", 4);
	t->p = tb_type(b, NULL, BTF_KIND_PTR, 0, t->i);
	t->s16 = tb_type(b, "s16", BTF_KIND_STRUCT, 2, 16);
	tb_member(b, t->l, 0);
	tb_member(b, t->l, 64);
	t->s24 = tb_type(b, "s24", BTF_KIND_STRUCT, 3, 24);
	tb_member(b, t->l, 0);
	tb_member(b, t->l, 64);
	tb_member(b, t->l, 128);
}

static void btf_registers(struct kunit *test)
{
	struct tb *b = tb_new(test, NULL);
	struct clkstat_btf_proto p;
	struct tb_ids t;
	u32 l;

	tb_common(b, &t);
	l = t.l;
	FUNC0(b, "f_void", 0);
	FUNC(b, "f_int", t.i, t.l, t.p);
	FUNC(b, "f_six", t.l, l, l, l, l, l, l);
	FUNC(b, "f_seven", t.l, l, l, l, l, l, l, l);
	FUNC(b, "f_va", t.i, t.p, 0);
	tb_build(b);

	KUNIT_ASSERT_EQ(test, tb_parse(test, b, b->size, NULL, "f_void", &p), 0);
	EXPECT_PROTO(test, p, 0, 0, false, false, 1);
	KUNIT_EXPECT_TRUE(test, clkstat_btf_wrappable(&p));
	KUNIT_ASSERT_EQ(test, tb_parse(test, b, b->size, NULL, "f_int", &p), 0);
	EXPECT_PROTO(test, p, 2, 1, false, false, 1);
	KUNIT_EXPECT_TRUE(test, clkstat_btf_wrappable(&p));
	KUNIT_ASSERT_EQ(test, tb_parse(test, b, b->size, NULL, "f_six", &p), 0);
	EXPECT_PROTO(test, p, 6, 1, false, false, 1);
	KUNIT_EXPECT_TRUE(test, clkstat_btf_wrappable(&p));
	KUNIT_ASSERT_EQ(test, tb_parse(test, b, b->size, NULL, "f_seven", &p), 0);
	EXPECT_PROTO(test, p, 6, 1, true, false, 1);
	KUNIT_EXPECT_FALSE(test, clkstat_btf_wrappable(&p));
	KUNIT_ASSERT_EQ(test, tb_parse(test, b, b->size, NULL, "f_va", &p), 0);
	EXPECT_PROTO(test, p, 1, 1, false, true, 1);
	KUNIT_EXPECT_FALSE(test, clkstat_btf_wrappable(&p));
	/* No FUNC of that name; a prefix of one is another name. */
	KUNIT_EXPECT_EQ(test, tb_parse(test, b, b->size, NULL, "f_none", &p),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, tb_parse(test, b, b->size, NULL, "f_", &p),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, p.nfuncs, 0U);
}

static void btf_structs(struct kunit *test)
{
	struct tb *b = tb_new(test, NULL);
	struct clkstat_btf_proto p;
	struct tb_ids t;
	u32 l, u8t, packed, i128;

	tb_common(b, &t);
	l = t.l;
	u8t = tb_int(b, "u8", 1);
	/* struct __packed { u8 a; long b; }: 9 bytes, b off its alignment */
	packed = tb_type(b, "pk", BTF_KIND_STRUCT, 2, 9);
	tb_member(b, u8t, 0);
	tb_member(b, l, 8);
	i128 = tb_int(b, "__int128", 16);
	FUNC(b, "f_s16", t.s16, t.s16);
	FUNC(b, "f_s24", t.l, l, t.s24, l);
	FUNC(b, "f_s16_late", t.l, l, l, l, l, l, t.s16, l);
	FUNC(b, "f_ret24", t.s24, l);
	FUNC(b, "f_packed", t.l, packed);
	FUNC(b, "f_i128", i128, l, i128);
	tb_build(b);

	/* 16 bytes by value: two registers, and returned in rax:rdx */
	KUNIT_ASSERT_EQ(test, tb_parse(test, b, b->size, NULL, "f_s16", &p), 0);
	EXPECT_PROTO(test, p, 2, 2, false, false, 1);
	KUNIT_EXPECT_TRUE(test, clkstat_btf_wrappable(&p));
	/* 24 bytes by value: on the stack; the longs around still in regs */
	KUNIT_ASSERT_EQ(test, tb_parse(test, b, b->size, NULL, "f_s24", &p), 0);
	EXPECT_PROTO(test, p, 2, 1, true, false, 1);
	KUNIT_EXPECT_FALSE(test, clkstat_btf_wrappable(&p));
	/* 16 bytes with one register left: on the stack, r9 to the last */
	KUNIT_ASSERT_EQ(test, tb_parse(test, b, b->size, NULL, "f_s16_late",
				       &p), 0);
	EXPECT_PROTO(test, p, 6, 1, true, false, 1);
	KUNIT_EXPECT_FALSE(test, clkstat_btf_wrappable(&p));
	/* returning 24 bytes: through a hidden pointer in rdi, back in rax */
	KUNIT_ASSERT_EQ(test, tb_parse(test, b, b->size, NULL, "f_ret24", &p),
			0);
	EXPECT_PROTO(test, p, 2, 1, false, false, 1);
	KUNIT_EXPECT_TRUE(test, clkstat_btf_wrappable(&p));
	/* a packed struct is passed in memory */
	KUNIT_ASSERT_EQ(test, tb_parse(test, b, b->size, NULL, "f_packed", &p),
			0);
	EXPECT_PROTO(test, p, 0, 1, true, false, 1);
	/* __int128: two registers each way */
	KUNIT_ASSERT_EQ(test, tb_parse(test, b, b->size, NULL, "f_i128", &p), 0);
	EXPECT_PROTO(test, p, 3, 2, false, false, 1);
}

static void btf_modifiers_and_floats(struct kunit *test)
{
	struct tb *b = tb_new(test, NULL);
	struct clkstat_btf_proto p;
	struct tb_ids t;
	u32 td, c, v, r, tag, cs16, dbl, sf, loop;

	tb_common(b, &t);
	/* typedef long td; const volatile restrict tag td; const s16 */
	td = tb_type(b, "td", BTF_KIND_TYPEDEF, 0, t.l);
	c = tb_type(b, NULL, BTF_KIND_CONST, 0, td);
	v = tb_type(b, NULL, BTF_KIND_VOLATILE, 0, c);
	r = tb_type(b, NULL, BTF_KIND_RESTRICT, 0, v);
	tag = tb_type(b, "user", BTF_KIND_TYPE_TAG, 0, r);
	td = tb_type(b, "td2", BTF_KIND_TYPEDEF, 0, tag);
	cs16 = tb_type(b, NULL, BTF_KIND_CONST, 0,
		       tb_type(b, "s16_t", BTF_KIND_TYPEDEF, 0, t.s16));
	dbl = tb_type(b, "double", BTF_KIND_FLOAT, 0, 8);
	sf = tb_type(b, "sf", BTF_KIND_STRUCT, 1, 8);
	tb_member(b, dbl, 0);
	/* a typedef that names itself: a loop */
	loop = b->next_id;
	tb_type(b, "loop", BTF_KIND_TYPEDEF, 0, loop);
	FUNC(b, "f_chain", td, td, cs16, td, td, td);
	FUNC(b, "f_double", t.l, dbl);
	FUNC(b, "f_ret_double", dbl);
	FUNC(b, "f_sf", t.l, t.l, sf);
	FUNC(b, "f_loop", t.l, loop);
	tb_build(b);

	KUNIT_ASSERT_EQ(test, tb_parse(test, b, b->size, NULL, "f_chain", &p),
			0);
	EXPECT_PROTO(test, p, 6, 1, false, false, 1);
	KUNIT_EXPECT_EQ(test, tb_parse(test, b, b->size, NULL, "f_double", &p),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, tb_parse(test, b, b->size, NULL, "f_ret_double",
				       &p), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, tb_parse(test, b, b->size, NULL, "f_sf", &p),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, tb_parse(test, b, b->size, NULL, "f_loop", &p),
			-EINVAL);
}

static void btf_same_name_merged(struct kunit *test)
{
	struct tb *b = tb_new(test, NULL);
	struct clkstat_btf_proto p;
	struct tb_ids t;
	u32 l;

	tb_common(b, &t);
	l = t.l;
	/* static functions of one name in three files */
	FUNC(b, "dup", 0, l);
	FUNC(b, "dup", t.s16, l, l, l);
	FUNC(b, "other", 0, l, l, l, l, l, l, l);
	FUNC(b, "dup", t.i, l, l, l, l, l, l, l);
	tb_build(b);

	KUNIT_ASSERT_EQ(test, tb_parse(test, b, b->size, NULL, "dup", &p), 0);
	EXPECT_PROTO(test, p, 6, 2, true, false, 3);
	KUNIT_EXPECT_FALSE(test, clkstat_btf_wrappable(&p));
}

static void btf_split_on_base(struct kunit *test)
{
	struct tb *base = tb_new(test, NULL), *m;
	struct clkstat_btf_proto p;
	struct tb_ids t;
	u32 ms8, l, shared, proto;

	tb_common(base, &t);
	l = t.l;
	FUNC(base, "in_base", 0, l);
	shared = tb_str(base, "shared_name");
	tb_build(base);
	m = tb_new(test, base);
	/* a module's own struct of 8 bytes holding the base's long */
	ms8 = tb_type(m, "ms8", BTF_KIND_STRUCT, 1, 8);
	tb_member(m, l, 0);
	FUNC(m, "mod_fn", t.s16, t.s16, ms8, t.p);
	FUNC(m, "mod_stack", 0, t.s24);
	/* a FUNC of the module named by a string of the base */
	proto = tb_type(m, NULL, BTF_KIND_FUNC_PROTO, 0, 0);
	tb_word(m, shared);
	tb_word(m, BTF_KIND_FUNC << 24);
	tb_word(m, proto);
	m->next_id++;
	tb_build(m);

	KUNIT_ASSERT_EQ(test, tb_parse(test, m, m->size, base, "mod_fn", &p), 0);
	EXPECT_PROTO(test, p, 4, 2, false, false, 1);
	KUNIT_ASSERT_EQ(test, tb_parse(test, m, m->size, base, "mod_stack", &p),
			0);
	EXPECT_PROTO(test, p, 0, 0, true, false, 1);
	KUNIT_ASSERT_EQ(test, tb_parse(test, m, m->size, base, "shared_name",
				       &p), 0);
	EXPECT_PROTO(test, p, 0, 0, false, false, 1);
	/* only the module's FUNCs are searched */
	KUNIT_EXPECT_EQ(test, tb_parse(test, m, m->size, base, "in_base", &p),
			-ENOENT);
	/* without its base, its ids and names point nowhere */
	KUNIT_EXPECT_EQ(test, tb_parse(test, m, m->size, NULL, "mod_fn", &p),
			-EINVAL);
	/* a base that is itself malformed */
	tb_hdr(base)->magic = 0;
	KUNIT_EXPECT_EQ(test, tb_parse(test, m, m->size, base, "mod_fn", &p),
			-EINVAL);
}

/* A valid blob, for the malformed variants to start from. */
static struct tb *tb_valid(struct kunit *test)
{
	struct tb *b = tb_new(test, NULL);
	struct tb_ids t;

	tb_common(b, &t);
	FUNC(b, "f", t.s16, t.l, t.s16, t.p);
	tb_build(b);
	return b;
}

static void btf_malformed(struct kunit *test)
{
	struct clkstat_btf_proto p;
	struct tb *b;
	u32 *w;

	b = tb_valid(test);
	KUNIT_ASSERT_EQ(test, tb_parse(test, b, b->size, NULL, "f", &p), 0);
	EXPECT_PROTO(test, p, 4, 2, false, false, 1);

	/* a longer header (7.x's, 32 bytes) is read past its known part */
	b = tb_new(test, NULL);
	FUNC(b, "f", tb_int(b, "long", 8), 1, 1);
	tb_build_hdr(b, 32);
	KUNIT_ASSERT_EQ(test, tb_parse(test, b, b->size, NULL, "f", &p), 0);
	EXPECT_PROTO(test, p, 2, 1, false, false, 1);
	b = tb_valid(test);

	/* truncated header */
	KUNIT_EXPECT_EQ(test, tb_parse(test, b, 10, NULL, "f", &p), -EINVAL);
	/* bad magic, version, flags, header length */
	tb_hdr(b)->magic = 0x9feb;
	KUNIT_EXPECT_EQ(test, tb_parse(test, b, b->size, NULL, "f", &p), -EINVAL);
	b = tb_valid(test);
	tb_hdr(b)->version = 2;
	KUNIT_EXPECT_EQ(test, tb_parse(test, b, b->size, NULL, "f", &p), -EINVAL);
	b = tb_valid(test);
	tb_hdr(b)->hdr_len = 8;
	KUNIT_EXPECT_EQ(test, tb_parse(test, b, b->size, NULL, "f", &p), -EINVAL);
	b = tb_valid(test);
	tb_hdr(b)->hdr_len = 0xfffffff0;
	KUNIT_EXPECT_EQ(test, tb_parse(test, b, b->size, NULL, "f", &p), -EINVAL);
	/* sections past the end, offsets that wrap */
	b = tb_valid(test);
	tb_hdr(b)->str_len += 1;
	KUNIT_EXPECT_EQ(test, tb_parse(test, b, b->size, NULL, "f", &p), -EINVAL);
	b = tb_valid(test);
	tb_hdr(b)->type_off = 0xfffffffc;
	KUNIT_EXPECT_EQ(test, tb_parse(test, b, b->size, NULL, "f", &p), -EINVAL);
	/* strings not ending in a NUL, or not starting with "" */
	b = tb_valid(test);
	b->out[b->size - 1] = 'x';
	KUNIT_EXPECT_EQ(test, tb_parse(test, b, b->size, NULL, "f", &p), -EINVAL);
	b = tb_valid(test);
	b->out[TB_HDR_V1 + b->nw * 4] = 'x';
	KUNIT_EXPECT_EQ(test, tb_parse(test, b, b->size, NULL, "f", &p), -EINVAL);
	/* a type running past the end of the type section */
	b = tb_valid(test);
	tb_hdr(b)->type_len -= 4;
	KUNIT_EXPECT_EQ(test, tb_parse(test, b, b->size, NULL, "f", &p), -EINVAL);
	/* name offset out of range (the first type's) */
	b = tb_valid(test);
	w = (u32 *)(b->out + TB_HDR_V1);
	w[0] = b->ns;
	KUNIT_EXPECT_EQ(test, tb_parse(test, b, b->size, NULL, "f", &p), -EINVAL);
	/* vlen too big: s16 (words 11..) claiming 1000 members */
	b = tb_valid(test);
	w = (u32 *)(b->out + TB_HDR_V1);
	KUNIT_ASSERT_EQ(test, w[12] >> 24, (u32)BTF_KIND_STRUCT);
	w[12] = BTF_KIND_STRUCT << 24 | 1000;
	KUNIT_EXPECT_EQ(test, tb_parse(test, b, b->size, NULL, "f", &p), -EINVAL);
	/* an unknown kind */
	b = tb_valid(test);
	w = (u32 *)(b->out + TB_HDR_V1);
	w[1] = 30U << 24;
	KUNIT_EXPECT_EQ(test, tb_parse(test, b, b->size, NULL, "f", &p), -EINVAL);
	/* a parameter's type id past the last type */
	b = tb_new(test, NULL);
	FUNC(b, "f", 0, 999);
	tb_build(b);
	KUNIT_EXPECT_EQ(test, tb_parse(test, b, b->size, NULL, "f", &p), -EINVAL);
	/* a FUNC whose type is not a FUNC_PROTO; void in the middle */
	b = tb_new(test, NULL);
	tb_type(b, "f", BTF_KIND_FUNC, 0, tb_int(b, "long", 8));
	FUNC(b, "g", 0, 0, 1);
	tb_build(b);
	KUNIT_EXPECT_EQ(test, tb_parse(test, b, b->size, NULL, "f", &p), -EINVAL);
	KUNIT_EXPECT_EQ(test, tb_parse(test, b, b->size, NULL, "g", &p), -EINVAL);
	KUNIT_EXPECT_EQ(test, p.nfuncs, 0U);
}

/* Every prefix of a valid blob is refused; every byte changed, survived. */
static void btf_truncated_and_flipped(struct kunit *test)
{
	struct tb *b = tb_valid(test);
	struct clkstat_btf_proto p;
	size_t len, i;
	int ret;

	for (len = 0; len < b->size; len++)
		KUNIT_EXPECT_EQ_MSG(test, tb_parse(test, b, len, NULL, "f", &p),
				    -EINVAL, "truncated to %zu", len);
	for (i = 0; i < b->size; i++) {
		b->out[i] ^= 0xa5;
		ret = tb_parse(test, b, b->size, NULL, "f", &p);
		b->out[i] ^= 0xa5;
		KUNIT_EXPECT_TRUE_MSG(test, ret == 0 || ret == -EINVAL ||
				      ret == -ENOENT || ret == -EOPNOTSUPP,
				      "byte %zu changed: %d", i, ret);
		if (ret == 0)
			KUNIT_EXPECT_LE(test, p.arg_regs, 6U);
	}
}

/* Which arguments are task pointers, through modifiers; FUNCs merged. */
static void btf_task_args(struct kunit *test)
{
	struct tb *b = tb_new(test, NULL);
	struct clkstat_btf_proto p;
	struct tb_ids t;
	u32 task, ptask, ctask, pctask, tdef, rq, prq, other, pother, pvoid;

	tb_common(b, &t);
	task = tb_type(b, "task_struct", BTF_KIND_STRUCT, 0, 64);
	ptask = tb_type(b, NULL, BTF_KIND_PTR, 0, task);
	ctask = tb_type(b, NULL, BTF_KIND_CONST, 0, task);
	pctask = tb_type(b, NULL, BTF_KIND_PTR, 0, ctask);
	tdef = tb_type(b, "task_ptr_t", BTF_KIND_TYPEDEF, 0, ptask);
	rq = tb_type(b, "rq", BTF_KIND_STRUCT, 0, 64);
	prq = tb_type(b, NULL, BTF_KIND_PTR, 0, rq);
	/* A union of the same name is no struct task_struct. */
	other = tb_type(b, "task_struct", BTF_KIND_UNION, 0, 8);
	pother = tb_type(b, NULL, BTF_KIND_PTR, 0, other);
	pvoid = tb_type(b, NULL, BTF_KIND_PTR, 0, 0);
	FUNC(b, "ttwu", t.i, ptask, t.i, t.i);
	FUNC(b, "enq", 0, prq, pctask, t.i);
	FUNC(b, "tdef", 0, t.l, tdef);
	FUNC(b, "none", 0, ptask, pother);
	FUNC(b, "none", 0, pvoid, pother);
	FUNC(b, "va", 0, ptask, 0);
	FUNC(b, "task_itself", 0, task);
	tb_build(b);

	KUNIT_ASSERT_EQ(test, tb_parse(test, b, b->size, NULL, "ttwu", &p), 0);
	KUNIT_EXPECT_EQ(test, p.nparams, 3U);
	KUNIT_EXPECT_EQ(test, p.task_args, BIT(0));
	KUNIT_ASSERT_EQ(test, tb_parse(test, b, b->size, NULL, "enq", &p), 0);
	KUNIT_EXPECT_EQ(test, p.nparams, 3U);
	KUNIT_EXPECT_EQ(test, p.task_args, BIT(1));
	KUNIT_ASSERT_EQ(test, tb_parse(test, b, b->size, NULL, "tdef", &p), 0);
	KUNIT_EXPECT_EQ(test, p.task_args, BIT(1));
	/* Two FUNCs: a task pointer only where both have one. */
	KUNIT_ASSERT_EQ(test, tb_parse(test, b, b->size, NULL, "none", &p), 0);
	KUNIT_EXPECT_EQ(test, p.nfuncs, 2U);
	KUNIT_EXPECT_EQ(test, p.task_args, 0);
	/* "..." is no parameter. */
	KUNIT_ASSERT_EQ(test, tb_parse(test, b, b->size, NULL, "va", &p), 0);
	KUNIT_EXPECT_EQ(test, p.nparams, 1U);
	KUNIT_EXPECT_EQ(test, p.task_args, BIT(0));
	/* The struct by value is no pointer to it. */
	KUNIT_ASSERT_EQ(test, tb_parse(test, b, b->size, NULL, "task_itself",
				       &p), 0);
	KUNIT_EXPECT_EQ(test, p.task_args, 0);
}

static struct kunit_case btf_func_cases[] = {
	KUNIT_CASE(btf_registers),
	KUNIT_CASE(btf_structs),
	KUNIT_CASE(btf_modifiers_and_floats),
	KUNIT_CASE(btf_same_name_merged),
	KUNIT_CASE(btf_task_args),
	KUNIT_CASE(btf_split_on_base),
	KUNIT_CASE(btf_malformed),
	KUNIT_CASE(btf_truncated_and_flipped),
	{}
};

static struct kunit_suite btf_func_suite = {
	.name = "clkstat_btf_func",
	.test_cases = btf_func_cases,
};
kunit_test_suite(btf_func_suite);

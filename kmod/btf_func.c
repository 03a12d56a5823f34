// SPDX-License-Identifier: GPL-2.0
/*
 * btf_func.c - a kernel function's calling convention from BTF.
 *
 * A wrapper that calls a function's body itself (the direct and ftrace
 * variants' exit hooks did, before they moved to the kernel's return
 * path; the hookbench's btf_proto file still reports it), forwarding the
 * six argument registers and the two return registers, is right only
 * where nothing of the call is on the stack: no argument beyond the
 * registers, no variable arguments, no value wider than two registers.
 * BPF's fexit has the same limit and reads it from BTF
 * (btf_distill_func_proto()); so does this, by the x86-64 System V rules
 * (at btf_merge_func()).
 *
 * It also says which arguments are struct task_struct pointers: the wakeup
 * probe's handlers read the woken task from try_to_wake_up()'s and the
 * enqueue's arguments, and check at load that they are there.
 *
 * clkstat_btf_parse_proto() is pure: a blob in memory, bounds-checked
 * throughout, so that KUnit feeds it corrupt blobs.  clkstat_btf_func_proto()
 * reads the running kernel's BTF from /sys/kernel/btf/.
 */
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/kallsyms.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include <uapi/linux/btf.h>
#include "btf_func.h"
#include "test_exports.h"

/* Modifier chains and nested members deeper than this are malformed. */
#define BTF_MAX_DEPTH	32
/* Members visited per aggregate passed by value, against crafted loops. */
#define BTF_MAX_VISITS	1024
/* The largest BTF file read: vmlinux's is a few MB. */
#define BTF_MAX_FILE	(64U << 20)

/*
 * The header as every BTF blob has it: the first 24 bytes of struct
 * btf_header, which 7.x extends (a layout section's offset and length)
 * and announces in hdr_len.  A longer header's extra sections are not
 * needed here.
 */
struct btf_hdr_v1 {
	u16 magic;
	u8 version;
	u8 flags;
	u32 hdr_len;
	u32 type_off;
	u32 type_len;
	u32 str_off;
	u32 str_len;
};

/* One BTF blob: base (vmlinux) or split on it (a module). */
struct btf_blob {
	const u8 *types;	/* type section */
	u32 types_len;
	const char *strs;	/* string section */
	u32 strs_len;
	u32 *offs;		/* offs[i]: type (start_id + i) in types */
	u32 ntypes;
	u32 start_id;		/* 1, or the base's last id + 1 */
	u32 str_start;		/* 0, or the base's string section size */
};

struct btf_ctx {
	struct btf_blob base, top;
	bool has_base;
	unsigned int visits;
};

/* Bytes after struct btf_type for @info's kind, or -EINVAL. */
static long btf_extra_len(u32 info)
{
	u32 vlen = BTF_INFO_VLEN(info);

	switch (BTF_INFO_KIND(info)) {
	case BTF_KIND_INT:
	case BTF_KIND_VAR:
	case BTF_KIND_DECL_TAG:
		return sizeof(u32);
	case BTF_KIND_PTR:
	case BTF_KIND_FWD:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_FUNC:
	case BTF_KIND_FLOAT:
	case BTF_KIND_TYPE_TAG:
		return 0;
	case BTF_KIND_ARRAY:
		return sizeof(struct btf_array);
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		return (long)vlen * sizeof(struct btf_member);
	case BTF_KIND_ENUM:
		return (long)vlen * sizeof(struct btf_enum);
	case BTF_KIND_FUNC_PROTO:
		return (long)vlen * sizeof(struct btf_param);
	case BTF_KIND_DATASEC:
		return (long)vlen * sizeof(struct btf_var_secinfo);
	case BTF_KIND_ENUM64:
		return (long)vlen * sizeof(struct btf_enum64);
	default:
		return -EINVAL;
	}
}

/* Size of the vlen entries whose first word is a name offset, else 0. */
static u32 btf_named_entry(u32 info)
{
	switch (BTF_INFO_KIND(info)) {
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		return sizeof(struct btf_member);
	case BTF_KIND_ENUM:
		return sizeof(struct btf_enum);
	case BTF_KIND_FUNC_PROTO:
		return sizeof(struct btf_param);
	case BTF_KIND_ENUM64:
		return sizeof(struct btf_enum64);
	default:
		return 0;
	}
}

/*
 * Check @data's header and sections and index its types.  @start_id and
 * @str_start are where its type ids and string offsets begin (split BTF
 * continues its base's).  The blob stays the caller's; b->offs is
 * allocated here.
 */
static int btf_blob_init(struct btf_blob *b, const void *data, size_t size,
			 u32 start_id, u32 str_start)
{
	const struct btf_hdr_v1 *h = data;
	const u8 *body;
	u64 body_len;
	u32 off, n, pass;

	memset(b, 0, sizeof(*b));
	if (!data || size < sizeof(*h) || size > U32_MAX)
		return -EINVAL;
	if (h->magic != BTF_MAGIC || h->version != BTF_VERSION || h->flags)
		return -EINVAL;
	if (h->hdr_len < sizeof(*h) || h->hdr_len > size)
		return -EINVAL;
	body = (const u8 *)data + h->hdr_len;
	body_len = size - h->hdr_len;
	if ((u64)h->type_off + h->type_len > body_len ||
	    (u64)h->str_off + h->str_len > body_len)
		return -EINVAL;
	b->types = body + h->type_off;
	b->types_len = h->type_len;
	b->strs = (const char *)body + h->str_off;
	b->strs_len = h->str_len;
	if (!IS_ALIGNED((unsigned long)b->types, sizeof(u32)))
		return -EINVAL;
	/*
	 * Every name must end inside the section: its last byte is a NUL.
	 * A base's first string is "" (name offset 0); a split blob's
	 * offset 0 is its base's.
	 */
	if ((u64)str_start + b->strs_len > BTF_MAX_NAME_OFFSET + 1ULL)
		return -EINVAL;
	if (b->strs_len && b->strs[b->strs_len - 1])
		return -EINVAL;
	if (!str_start && (!b->strs_len || b->strs[0]))
		return -EINVAL;
	b->start_id = start_id;
	b->str_start = str_start;

	/* Pass 0 counts and checks, pass 1 fills the index. */
	for (pass = 0; pass < 2; pass++) {
		for (off = 0, n = 0; off < b->types_len; n++) {
			const struct btf_type *t;
			u32 ent, i;
			long extra;

			if (b->types_len - off < sizeof(*t))
				return -EINVAL;
			t = (const struct btf_type *)(b->types + off);
			extra = btf_extra_len(t->info);
			if (extra < 0 ||
			    (u64)off + sizeof(*t) + extra > b->types_len)
				return -EINVAL;
			if (pass) {
				b->offs[n] = off;
			} else {
				if (t->name_off >= str_start + b->strs_len)
					return -EINVAL;
				ent = btf_named_entry(t->info);
				for (i = 0; ent && i < BTF_INFO_VLEN(t->info); i++) {
					const u32 *name = (const u32 *)
						((const u8 *)(t + 1) + i * ent);

					if (*name >= str_start + b->strs_len)
						return -EINVAL;
				}
			}
			off += sizeof(*t) + extra;
		}
		if (!pass) {
			if ((u64)start_id + n > BTF_MAX_TYPE + 1ULL)
				return -EINVAL;
			b->ntypes = n;
			b->offs = kvmalloc_array(n ? n : 1, sizeof(*b->offs),
						 GFP_KERNEL);
			if (!b->offs)
				return -ENOMEM;
		}
	}
	return 0;
}

/* Type @id of either blob, or NULL (void, or out of range). */
static const struct btf_type *btf_type_by_id(const struct btf_ctx *c, u32 id)
{
	const struct btf_blob *b = &c->top;

	if (id < b->start_id) {
		if (!c->has_base)
			return NULL;
		b = &c->base;
		if (id < b->start_id)
			return NULL;
	}
	id -= b->start_id;
	if (id >= b->ntypes)
		return NULL;
	return (const struct btf_type *)(b->types + b->offs[id]);
}

/* The string at @off, NUL-terminated inside its section (checked at init). */
static const char *btf_name(const struct btf_ctx *c, u32 off)
{
	const struct btf_blob *b = &c->top;

	if (off < b->str_start) {
		if (!c->has_base)
			return NULL;
		b = &c->base;
	}
	off -= b->str_start;
	return off < b->strs_len ? b->strs + off : NULL;
}

/* Type @id with its modifiers looked through, or NULL: malformed. */
static const struct btf_type *btf_resolve(const struct btf_ctx *c, u32 id)
{
	const struct btf_type *t;
	int depth;

	for (depth = 0; depth < BTF_MAX_DEPTH; depth++) {
		t = btf_type_by_id(c, id);
		if (!t)
			return NULL;
		switch (BTF_INFO_KIND(t->info)) {
		case BTF_KIND_TYPEDEF:
		case BTF_KIND_VOLATILE:
		case BTF_KIND_CONST:
		case BTF_KIND_RESTRICT:
		case BTF_KIND_TYPE_TAG:
			id = t->type;
			break;
		default:
			return t;
		}
	}
	return NULL;
}

/* Whether @id is an integer narrower than its size: a bitfield's type. */
static bool btf_bitfield_int(const struct btf_ctx *c, u32 id)
{
	const struct btf_type *t = btf_resolve(c, id);
	u32 enc;

	if (!t || BTF_INFO_KIND(t->info) != BTF_KIND_INT)
		return false;
	enc = *(const u32 *)(t + 1);
	return BTF_INT_OFFSET(enc) || BTF_INT_BITS(enc) != t->size * 8;
}

/*
 * Alignment in bytes of a member of an aggregate passed by value;
 * *unaligned set where some member inside sits off its own alignment.
 * -EOPNOTSUPP for a float inside, -EINVAL if malformed.
 */
static int btf_member_align(struct btf_ctx *c, u32 id, int depth,
			    bool *unaligned)
{
	const struct btf_type *t = btf_resolve(c, id);
	const struct btf_member *m;
	int align = 1, a;
	u32 i, bitoff;

	if (!t || depth > BTF_MAX_DEPTH || ++c->visits > BTF_MAX_VISITS)
		return -EINVAL;
	switch (BTF_INFO_KIND(t->info)) {
	case BTF_KIND_INT:
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		if (!t->size || t->size > 16 || !is_power_of_2(t->size))
			return -EINVAL;
		return t->size;
	case BTF_KIND_PTR:
		return sizeof(void *);
	case BTF_KIND_FLOAT:
		return -EOPNOTSUPP;
	case BTF_KIND_ARRAY:
		return btf_member_align(c, ((const struct btf_array *)(t + 1))->type,
					depth + 1, unaligned);
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		m = (const struct btf_member *)(t + 1);
		for (i = 0; i < BTF_INFO_VLEN(t->info); i++, m++) {
			a = btf_member_align(c, m->type, depth + 1, unaligned);
			if (a < 0)
				return a;
			/* a bitfield sits at any bit */
			bitoff = m->offset;
			if (BTF_INFO_KFLAG(t->info)) {
				if (BTF_MEMBER_BITFIELD_SIZE(bitoff))
					continue;
				bitoff = BTF_MEMBER_BIT_OFFSET(bitoff);
			} else if (btf_bitfield_int(c, m->type)) {
				continue;
			}
			if (bitoff % (a * 8U))
				*unaligned = true;
			align = max(align, a);
		}
		return align;
	default:
		return -EINVAL;
	}
}

/*
 * A value of type @id passed or returned: its size in bytes (0 for
 * void), or *mem set where it goes in memory whatever the registers
 * left (its size then does not matter).
 */
static int btf_value(struct btf_ctx *c, u32 id, bool *mem)
{
	const struct btf_type *t;
	bool unaligned = false;
	int a;

	*mem = false;
	if (!id)
		return 0;
	t = btf_resolve(c, id);
	if (!t)
		return -EINVAL;
	switch (BTF_INFO_KIND(t->info)) {
	case BTF_KIND_INT:
		if (!t->size || t->size > 16 || !is_power_of_2(t->size))
			return -EINVAL;
		return t->size;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		if (!t->size || t->size > 8 || !is_power_of_2(t->size))
			return -EINVAL;
		return t->size;
	case BTF_KIND_PTR:
		return sizeof(void *);
	case BTF_KIND_FLOAT:
		return -EOPNOTSUPP;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		if (t->size > 16) {
			*mem = true;
			return 0;
		}
		c->visits = 0;
		a = btf_member_align(c, id, 0, &unaligned);
		if (a < 0)
			return a;
		*mem = unaligned;
		return t->size;
	default:
		/* a forward declaration, array, function... by value */
		return -EINVAL;
	}
}

/* Whether @id is a pointer to a struct task_struct (modifiers aside). */
static bool btf_task_ptr(const struct btf_ctx *c, u32 id)
{
	const struct btf_type *t = btf_resolve(c, id);
	const char *name;

	if (!t || BTF_INFO_KIND(t->info) != BTF_KIND_PTR)
		return false;
	t = btf_resolve(c, t->type);
	if (!t || BTF_INFO_KIND(t->info) != BTF_KIND_STRUCT)
		return false;
	name = btf_name(c, t->name_off);
	return name && !strcmp(name, "task_struct");
}

/*
 * FUNC @fn's prototype, merged into *p as the worst case so far, by the
 * x86-64 System V rules:
 *
 *  - typedef, const, volatile, restrict and type tags are looked through;
 *  - an integer, enum or pointer of up to 8 bytes takes one register;
 *  - a struct or union of up to 16 bytes (or a 16-byte integer) takes
 *    one or two registers, or goes on the stack whole if fewer are left
 *    (later arguments can still take the registers left);
 *  - a struct or union over 16 bytes, or with a member off its natural
 *    alignment (packed), goes on the stack;
 *  - a floating-point value anywhere (SSE registers, which the wrapper
 *    does not forward) is refused with -EOPNOTSUPP;
 *  - a struct returned that does not fit in rax:rdx is written through a
 *    hidden pointer the caller passes in rdi (one argument register), and
 *    that pointer comes back in rax.
 */
static int btf_merge_func(struct btf_ctx *c, const struct btf_type *fn,
			  struct clkstat_btf_proto *p)
{
	const struct btf_type *proto = btf_type_by_id(c, fn->type);
	const struct btf_param *arg;
	unsigned int used = 0, need, ret_regs;
	bool mem, stack = false, varargs = false;
	u32 i, vlen, task_args = 0;
	int size;

	if (!proto || BTF_INFO_KIND(proto->info) != BTF_KIND_FUNC_PROTO)
		return -EINVAL;
	size = btf_value(c, proto->type, &mem);
	if (size < 0)
		return size;
	if (mem) {
		/* returned through a hidden pointer, which comes back in rax */
		used = 1;
		ret_regs = 1;
	} else {
		ret_regs = DIV_ROUND_UP(size, 8);
	}
	vlen = BTF_INFO_VLEN(proto->info);
	arg = (const struct btf_param *)(proto + 1);
	for (i = 0; i < vlen; i++, arg++) {
		if (!arg->type) {
			/* "..." is a last unnamed void; void elsewhere is wrong */
			if (i != vlen - 1 || arg->name_off)
				return -EINVAL;
			varargs = true;
			break;
		}
		size = btf_value(c, arg->type, &mem);
		if (size < 0)
			return size;
		if (i < BITS_PER_TYPE(p->task_args) && btf_task_ptr(c, arg->type))
			task_args |= BIT(i);
		need = DIV_ROUND_UP(size, 8);
		if (mem || used + need > CLKSTAT_BTF_ARG_REGS)
			stack = true;
		else
			used += need;
	}
	p->arg_regs = max(p->arg_regs, used);
	p->ret_regs = max(p->ret_regs, ret_regs);
	p->nparams = max(p->nparams, varargs ? vlen - 1 : vlen);
	/* A task pointer only where every FUNC of the name has one. */
	p->task_args = p->nfuncs ? p->task_args & task_args : task_args;
	p->stack_args |= stack;
	p->varargs |= varargs;
	p->nfuncs++;
	return 0;
}

/**
 * clkstat_btf_parse_proto() - a function's calling convention from a BTF blob
 * @btf: the BTF blob (header, types, strings) the function is described in
 * @size: its size in bytes
 * @base: the blob @btf is split from (vmlinux's for a module's), or NULL
 * @base_size: its size (0 without a base)
 * @name: the function's name
 * @p: the result; with several FUNCs of that name, the worst case of all
 *
 * Pure: reads nothing but the blobs, each bounds-checked before use.
 * Only @btf's own FUNCs are searched; its types may refer to @base's.
 * Context: process context (allocates the type index).
 *
 * Return: 0; -ENOENT when @btf has no FUNC named @name; -EOPNOTSUPP when
 * a floating-point value is passed or returned; -EINVAL for a malformed
 * blob (header, section bounds, type lengths, type ids, name offsets) or
 * prototype; -ENOMEM.
 */
int clkstat_btf_parse_proto(const void *btf, size_t size,
			    const void *base, size_t base_size,
			    const char *name, struct clkstat_btf_proto *p)
{
	struct btf_ctx *c;
	const char *fn_name;
	u32 i;
	int ret;

	memset(p, 0, sizeof(*p));
	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	if (base) {
		ret = btf_blob_init(&c->base, base, base_size, 1, 0);
		if (ret)
			goto out;
		c->has_base = true;
		ret = btf_blob_init(&c->top, btf, size,
				    c->base.start_id + c->base.ntypes,
				    c->base.strs_len);
	} else {
		ret = btf_blob_init(&c->top, btf, size, 1, 0);
	}
	if (ret)
		goto out;

	ret = -ENOENT;
	for (i = 0; i < c->top.ntypes; i++) {
		const struct btf_type *t = btf_type_by_id(c, c->top.start_id + i);
		int err;

		if (BTF_INFO_KIND(t->info) != BTF_KIND_FUNC)
			continue;
		fn_name = btf_name(c, t->name_off);
		if (!fn_name || strcmp(fn_name, name))
			continue;
		err = btf_merge_func(c, t, p);
		if (err) {
			ret = err;
			break;
		}
		ret = 0;
	}
out:
	if (ret)
		memset(p, 0, sizeof(*p));
	kvfree(c->top.offs);
	kvfree(c->base.offs);
	kfree(c);
	return ret;
}

/* Read a whole BTF file of sysfs into a vmalloc()ed buffer. */
static int btf_read_file(const char *path, void **data, size_t *size)
{
	struct file *f;
	loff_t len, pos = 0;
	ssize_t n;
	void *buf;
	int ret = 0;

	f = filp_open(path, O_RDONLY, 0);
	if (IS_ERR(f))
		return PTR_ERR(f) == -ENOENT ? -ENODATA : PTR_ERR(f);
	len = i_size_read(file_inode(f));
	if (len <= 0 || len > BTF_MAX_FILE) {
		ret = len <= 0 ? -ENODATA : -EFBIG;
		goto out;
	}
	buf = vmalloc(len);
	if (!buf) {
		ret = -ENOMEM;
		goto out;
	}
	while (pos < len) {
		n = kernel_read(f, buf + pos, len - pos, &pos);
		if (n <= 0) {
			ret = n ? n : -EIO;
			vfree(buf);
			goto out;
		}
	}
	*data = buf;
	*size = len;
out:
	filp_close(f, NULL);
	return ret;
}

/*
 * The name of the module whose text holds @addr into @name: 1, or 0 for
 * the kernel's own text, or -ENOMEM.  __module_text_address() is not exported: the
 * symbol's kallsyms description ends in " [module]" for a module's.
 */
static int btf_module_of(unsigned long addr, char *name, size_t len)
{
	char *sym, *open, *end;
	int found = 0;

	sym = kmalloc(KSYM_SYMBOL_LEN, GFP_KERNEL);
	if (!sym)
		return -ENOMEM;
	sprint_symbol_no_offset(sym, addr);
	end = sym + strlen(sym);
	open = strrchr(sym, '[');
	if (open && open > sym && open[-1] == ' ' && end[-1] == ']' &&
	    end - open - 2 > 0 && end - open - 2 < len) {
		memcpy(name, open + 1, end - open - 2);
		name[end - open - 2] = '\0';
		found = 1;
	}
	kfree(sym);
	return found;
}

/**
 * clkstat_btf_func_proto() - a running kernel function's calling convention
 * @name: the function's name
 * @addr: an address in its text (its fentry site), which says whether it
 *	is the kernel's or a module's (kallsyms names the module)
 * @p: the result, as clkstat_btf_parse_proto() gives it
 *
 * Reads /sys/kernel/btf/vmlinux, and for a function of a module
 * /sys/kernel/btf/<module> too, split on it, and looks the FUNC up in
 * the one the function belongs to.
 * Context: process context; sleeps (reads a few MB).
 *
 * Return: as clkstat_btf_parse_proto(); -ENODATA when the kernel or the
 * module has no BTF; an error of reading the file.
 */
int clkstat_btf_func_proto(const char *name, unsigned long addr,
			   struct clkstat_btf_proto *p)
{
	char path[sizeof("/sys/kernel/btf/") + MODULE_NAME_LEN];
	char mod[MODULE_NAME_LEN];
	void *vmlinux = NULL, *split = NULL;
	size_t vmlinux_size, split_size;
	int ret;

	memset(p, 0, sizeof(*p));
	ret = btf_read_file("/sys/kernel/btf/vmlinux", &vmlinux, &vmlinux_size);
	if (ret)
		return ret;
	ret = btf_module_of(addr, mod, sizeof(mod));
	if (ret < 0)
		goto out;
	if (!ret) {
		ret = clkstat_btf_parse_proto(vmlinux, vmlinux_size, NULL, 0,
					      name, p);
		goto out;
	}
	snprintf(path, sizeof(path), "/sys/kernel/btf/%s", mod);
	ret = btf_read_file(path, &split, &split_size);
	if (ret)
		goto out;
	ret = clkstat_btf_parse_proto(split, split_size, vmlinux, vmlinux_size,
				      name, p);
	vfree(split);
out:
	vfree(vmlinux);
	return ret;
}
CLKSTAT_EXPORT_FOR_TESTS(clkstat_btf_func_proto);

/**
 * clkstat_btf_vmlinux_protos() - several kernel functions' conventions
 * @names: the functions' names, all of vmlinux (not of a module)
 * @n: how many
 * @p: the results, one per name, as clkstat_btf_parse_proto() gives them
 *
 * One read of /sys/kernel/btf/vmlinux for all of them.
 * Context: process context; sleeps (reads a few MB).
 *
 * Return: 0 when every name was found; else the first error, as
 * clkstat_btf_func_proto() has them (the results of the names before it
 * are filled in).
 */
int clkstat_btf_vmlinux_protos(const char *const *names, unsigned int n,
			       struct clkstat_btf_proto *p)
{
	void *vmlinux;
	size_t size;
	unsigned int i;
	int ret;

	memset(p, 0, n * sizeof(*p));
	ret = btf_read_file("/sys/kernel/btf/vmlinux", &vmlinux, &size);
	if (ret)
		return ret;
	for (i = 0; i < n && !ret; i++)
		ret = clkstat_btf_parse_proto(vmlinux, size, NULL, 0, names[i],
					      &p[i]);
	vfree(vmlinux);
	return ret;
}

/**
 * clkstat_btf_wrappable() - whether an exit wrapper may stand in for a call
 * @p: the function's calling convention
 *
 * The wrapper forwards rdi, rsi, rdx, rcx, r8 and r9 and returns rax and
 * rdx: right for a function with nothing on the stack.
 *
 * Return: true when no argument goes on the stack, there are no variable
 * arguments and the registers are those.
 */
bool clkstat_btf_wrappable(const struct clkstat_btf_proto *p)
{
	return !p->stack_args && !p->varargs &&
	       p->arg_regs <= CLKSTAT_BTF_ARG_REGS && p->ret_regs <= 2;
}
CLKSTAT_EXPORT_FOR_TESTS(clkstat_btf_wrappable);

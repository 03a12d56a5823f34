# SPDX-License-Identifier: GPL-2.0
# clkstat: `make` builds the modules (kmod/clkstat.ko, the benchmarks
# kmod/clkstat_bench.ko, kmod/clkstat_hookbench.ko, and the tests' cpufreq
# driver kmod/clkstat_fakefreq.ko) and the userspace tools; `make check` runs every test, `make demo` the
# demo in a QEMU guest, `make bench` the printed benchmarks.
#
# KVER names the kernel line to build for and to boot in the guests
# (tools/vm/kernels.sh: 6.1, 6.12, 7.3; default 6.12): `make demo KVER=6.1`.
# KDIR, the kernel build tree to build against, KIMAGE, the image the BPF
# objects and the hookbench's BTF are built for, and KRELEASE, its full
# version, are that line's unless given; never the running kernel's
# (`uname -r`): the machine that builds may run another kernel than the
# one the module is for.  The scripts make runs get the line as
# CLKSTAT_KVER.
# (A copy of Makefile, Kbuild and kmod/ alone, as tools/tests/dkms.sh
# makes for `make install KDIR=...`, has no kernels.sh: nothing to ask.)
KERNELS_SH = $(wildcard tools/vm/kernels.sh)
KVER ?= $(if $(KERNELS_SH),$(shell $(KERNELS_SH) default))
# KVER= (empty) asks no kernel line: debian/rules builds the tools so,
# with KIMAGE and KRELEASE of its own.
# Quiet: a machine without the line's kernel (the unit tests' chroot)
# needs none for the tools and the unit tests, and the module's targets
# say what is missing.
KINFO := $(if $(and $(KERNELS_SH),$(KVER)),$(shell $(KERNELS_SH) info $(KVER) 2>/dev/null))
kinfo = $(patsubst $(1)=%,%,$(filter $(1)=%,$(KINFO)))
KDIR ?= $(call kinfo,kdir)
KIMAGE ?= $(call kinfo,image)
KRELEASE ?= $(call kinfo,kver)
KCHROOT := $(filter-out '',$(call kinfo,chroot))
export CLKSTAT_KVER := $(KVER)

CC ?= gcc
CFLAGS ?= -O2 -g
CFLAGS += -Wall -Wextra -Werror
TEST_LDLIBS = -lcmocka

MHD_CFLAGS = $(shell pkg-config --cflags libmicrohttpd 2>/dev/null)
MHD_LDLIBS = $(shell pkg-config --libs libmicrohttpd 2>/dev/null)
NL_CFLAGS = $(shell pkg-config --cflags libnl-genl-3.0 2>/dev/null)
NL_LDLIBS = $(shell pkg-config --libs libnl-genl-3.0 2>/dev/null)
JSON_CFLAGS = $(shell pkg-config --cflags json-c 2>/dev/null)
JSON_LDLIBS = $(shell pkg-config --libs json-c 2>/dev/null)
GSL_CFLAGS = $(shell pkg-config --cflags gsl 2>/dev/null)
GSL_LDLIBS = $(shell pkg-config --libs gsl 2>/dev/null)
SQLITE_CFLAGS = $(shell pkg-config --cflags sqlite3 2>/dev/null)
SQLITE_LDLIBS = $(shell pkg-config --libs sqlite3 2>/dev/null || echo -lsqlite3)

BPF_CFLAGS = $(shell pkg-config --cflags libbpf 2>/dev/null)
BPF_LDLIBS = $(shell pkg-config --libs libbpf 2>/dev/null || echo -lbpf -lelf -lz)
BPFTOOL ?= $(shell command -v bpftool 2>/dev/null || echo /usr/sbin/bpftool)
CLANG ?= clang
CLKSTAT_CACHE ?= /var/cache/clkstat
EXTRACT_VMLINUX = $(CLKSTAT_CACHE)/linux-source-6.12/scripts/extract-vmlinux

TOOLS = tools/workload/clkstat-pingpong tools/clkstat-report
# The cmocka unit tests: every tools/tests/*_test.c, and buckets_test.c
# once more with the portable bit scan.  tools/tests/unit.sh runs this
# list (make list-unit-tests): a test is added by adding its file.
UNIT_TESTS = $(patsubst %.c,%,$(wildcard tools/tests/*_test.c)) \
	     tools/tests/buckets_test_portable
# The programs other tests drive: the fuzzers and the fault-injection
# loader (in the guest), expositions for promtool, the bootstrap's timing.
TEST_PROGS = tools/tests/nl_fuzz tools/tests/nl_dump_pause tools/tests/ctl_fuzz \
	     tools/tests/fault_load \
	     tools/tests/render_demo tools/tests/compare_bench tools/tests/study_bench

# The unit tests built with AddressSanitizer and UBSan over the library
# (from its sources: libclkstat.a's objects have no instrumentation):
# the study reader's fuzz.  unit.sh runs them without valgrind, which
# cannot run such builds (make list-asan-tests).
ASAN_TESTS = tools/tests/study_fuzz_test_asan
ASAN_FLAGS = -fsanitize=address,undefined -fno-sanitize-recover=all \
	     -fno-omit-frame-pointer

.PHONY: all module tools unit-tests check check-debug check-guest soak sweep demo bench clean deb list-unit-tests list-asan-tests netlink-gen
all: module tools

# struct rq's layout comes from the kernel's BTF (kmod/gen_rq_offsets.sh):
# KDIR's vmlinux where the headers ship one (6.12, 7.x), else the image's
# ELF that module-btf extracts anyway (6.1), named by CLKSTAT_BTF.
MODULE_BTF = $(if $(wildcard $(KDIR)/vmlinux),,build/bpf/vmlinux-$(KRELEASE))
module: $(MODULE_BTF)
	@test -n "$(KDIR)" || { echo "no kernel build tree for KVER=$(KVER): run tools/install-deps.sh, or set KDIR"; exit 1; }
	@test -z "$(KCHROOT)" || { echo "KVER=$(KVER) builds in a chroot, not in place: tools/vm/kernels.sh build $(KVER) OUT (tools/tests/guest.sh --kver $(KVER) does)"; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) $(if $(MODULE_BTF),CLKSTAT_BTF=$(CURDIR)/$(MODULE_BTF)) modules
	$(MAKE) module-btf

# BPF fentry, fexit and tp_btf on clkstat_hookbench.ko's target need the
# module's BTF.  Kbuild skips it where the headers have no vmlinux
# (Debian's 6.1: "unavailability of vmlinux"; 6.12's ship one and kbuild
# adds it), so pahole adds it, split against the BTF of the kernel the
# module is for, taken from that kernel's own image.
.PHONY: module-btf
module-btf: build/bpf/vmlinux-$(KRELEASE)
	@if ! readelf -S kmod/clkstat_hookbench.ko | grep -q '\.BTF'; then \
		echo "  PAHOLE  kmod/clkstat_hookbench.ko (BTF, base $<)"; \
		pahole -J --btf_base $< kmod/clkstat_hookbench.ko; \
	fi

# -fms-extensions: 7.x's vmlinux.h declares anonymous structs by tag
# inside others ("struct ns_tree;"), which clang 14 takes only as an
# extension.  -ffile-prefix-map: the objects' BTF names source files
# relative to the tree, not by the folder it was built in, which the
# skeletons would carry into clkstat-report (a package built in two
# folders would differ).
BPF_CLANG_FLAGS = -g -O2 -target bpf -D__TARGET_ARCH_x86 -Ibuild/bpf \
		  -ffile-prefix-map=$(CURDIR)=. \
		  -fms-extensions -Wno-microsoft-anon-tag $(BPF_CFLAGS) -Wall -Werror

build/bpf/overhead.bpf.o: tools/bench/overhead.bpf.c build/bpf/vmlinux.h
	$(CLANG) $(BPF_CLANG_FLAGS) -c $< -o $@

build/bpf/overhead.skel.h: build/bpf/overhead.bpf.o
	$(BPFTOOL) gen skeleton $< > $@.tmp && mv $@.tmp $@

build/bpf/overhead_floor.bpf.o: tools/bench/overhead_floor.bpf.c kmod/uapi/clkstat_catalog.h \
				build/bpf/vmlinux.h
	$(CLANG) $(BPF_CLANG_FLAGS) -c $< -o $@

build/bpf/overhead_floor.skel.h: build/bpf/overhead_floor.bpf.o
	$(BPFTOOL) gen skeleton $< > $@.tmp && mv $@.tmp $@

tools: $(TOOLS) $(UNIT_TESTS) $(ASAN_TESTS) $(TEST_PROGS)

# What make check-unit needs, and no more: no module, no kernel image, no
# clang or bpftool (tools/tests/unit-root.sh runs it in a chroot that has
# none of them).
unit-tests: $(UNIT_TESTS) $(ASAN_TESTS) tools/tests/ctl_fuzz

list-unit-tests:
	@echo $(UNIT_TESTS)

list-asan-tests:
	@echo $(ASAN_TESTS)

# The netlink family's C, made again from its spec
# (Documentation/netlink/specs/clkstat.yaml) by the kernel's ynl-gen-c.py
# of the 6.12 source in CLKSTAT_CACHE: kmod/uapi/clkstat_netlink.h and
# kmod/netlink_gen.[ch], committed; tools/tests/unit.sh checks they are
# current.  Run after changing the spec.
netlink-gen: | $(EXTRACT_VMLINUX)
	CLKSTAT_CACHE=$(CLKSTAT_CACHE) tools/netlink-gen.sh

tools/workload/clkstat-pingpong: tools/workload/clkstat-pingpong.c
	$(CC) $(CFLAGS) -pthread -o $@ $<

# The userspace tools, by job; the includes point one way, each directory
# to those before it (and to kmod/uapi/ and kmod/shared/):
#   tools/lib/     the library: model, statistics, snapshot files, metadata,
#                  netlink, renderers, --compare's bootstrap and outputs
#   tools/bpf/     the BPF twin (loader, kernel-free part, programs)
#   tools/bench/   the overhead benchmark (clkstat-report overhead)
#   tools/report/  clkstat-report: dispatch and one file per subcommand
# Two archives: build/tools/libclkstat.a, tools/lib/ and the twin's
# kernel-free part (twin_model.c), which the unit tests link, and
# build/tools/libclkstat-twin.a, the twin's loaders, which need the BPF
# objects' skeletons (clang, bpftool and a kernel image's BTF) and which
# only clkstat-report links.  Objects are built once, in build/tools/,
# with their header dependencies (-MMD: kmod/uapi/ and kmod/shared/ headers too).
TOOLS_OBJ = build/tools
LIB_SRC = $(wildcard tools/lib/*.c) tools/bpf/twin_model.c
TWIN_SRC = tools/bpf/twin.c tools/bpf/twin_trace.c tools/bpf/twin_maps.c
BENCH_SRC = $(filter-out %.bpf.c,$(wildcard tools/bench/*.c))
REPORT_SRC = $(wildcard tools/report/*.c)
tools_obj = $(patsubst tools/%.c,$(TOOLS_OBJ)/%.o,$(1))
LIBCLKSTAT = $(TOOLS_OBJ)/libclkstat.a
LIBTWIN = $(TOOLS_OBJ)/libclkstat-twin.a
TOOL_CFLAGS = $(NL_CFLAGS) $(JSON_CFLAGS) $(GSL_CFLAGS) $(SQLITE_CFLAGS) \
	      $(BPF_CFLAGS) $(MHD_CFLAGS) -Ibuild/bpf -I$(TOOLS_OBJ)
# --as-needed: each program depends on the libraries it uses, no others;
# -pthread: the twin reads its event ring buffer from a thread.
TOOL_LDLIBS = -pthread -Wl,--as-needed $(NL_LDLIBS) $(JSON_LDLIBS) $(GSL_LDLIBS) \
	      $(SQLITE_LDLIBS) $(BPF_LDLIBS) $(MHD_LDLIBS) -lm
# The unit tests and the test programs: the libraries libclkstat.a uses,
# no libbpf and no libmicrohttpd.
UNIT_CFLAGS = $(NL_CFLAGS) $(JSON_CFLAGS) $(GSL_CFLAGS) $(SQLITE_CFLAGS)
UNIT_LDLIBS = -pthread -Wl,--as-needed $(NL_LDLIBS) $(JSON_LDLIBS) $(GSL_LDLIBS) \
	      $(SQLITE_LDLIBS) -lm

# CPPFLAGS and LDFLAGS are empty here; a package build passes Debian's
# hardening flags in them (dpkg-buildflags).
$(TOOLS_OBJ)/%.o: tools/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(TOOL_CFLAGS) -MMD -MP -c -o $@ $<

# The study file's schema (tools/lib/study_schema.sql) as a C string,
# generated, never committed: study_write.c creates a study with it.
$(TOOLS_OBJ)/study_schema.h: tools/lib/study_schema.sql
	@mkdir -p $(@D)
	{ echo '/* Generated from tools/lib/study_schema.sql by the Makefile. */'; \
	  echo 'static const char cr_study_schema_sql[] ='; \
	  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/\t"/' -e 's/$$/\\n"/' $<; \
	  echo ';'; } > $@.tmp && mv $@.tmp $@
$(call tools_obj,tools/lib/study_write.c): $(TOOLS_OBJ)/study_schema.h

# The skeletons are generated headers: there before their users compile.
$(call tools_obj,tools/bpf/twin.c): build/bpf/twin.skel.h build/bpf/twin_trace.skel.h
$(call tools_obj,tools/bpf/twin_trace.c): build/bpf/twin_trace.skel.h
$(call tools_obj,tools/bench/overhead_bpf.c): build/bpf/overhead.skel.h
$(call tools_obj,tools/bench/overhead_handlers.c): build/bpf/overhead_floor.skel.h

$(LIBCLKSTAT): $(call tools_obj,$(LIB_SRC))
	rm -f $@
	$(AR) rcs $@ $^

$(LIBTWIN): $(call tools_obj,$(TWIN_SRC))
	rm -f $@
	$(AR) rcs $@ $^

tools/clkstat-report: $(call tools_obj,$(REPORT_SRC) $(BENCH_SRC)) $(LIBTWIN) $(LIBCLKSTAT)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(TOOL_LDLIBS)

# Unit tests: tools/tests/NAME from NAME.c, linked with libclkstat.a (what
# they use of it), never the twin's loaders; TEST_CPPFLAGS and
# TEST_LDFLAGS are a test's own.
TEST_LINK = $(CC) $(CFLAGS) $(UNIT_CFLAGS) $(TEST_CPPFLAGS) \
	    -MMD -MP -MF $(TOOLS_OBJ)/tests/$(@F).d -o $@ $< $(LIBCLKSTAT) \
	    $(TEST_LDFLAGS) $(UNIT_LDLIBS) $(TEST_LDLIBS)
tools/tests/%: tools/tests/%.c $(LIBCLKSTAT)
	@mkdir -p $(TOOLS_OBJ)/tests
	$(TEST_LINK)

tools/tests/buckets_test_portable: private TEST_CPPFLAGS = -DCLKSTAT_PORTABLE_MSB
tools/tests/buckets_test_portable: tools/tests/buckets_test.c $(LIBCLKSTAT)
	@mkdir -p $(TOOLS_OBJ)/tests
	$(TEST_LINK)

tools/tests/%_asan: tools/tests/%.c $(LIB_SRC) $(wildcard tools/lib/*.h) \
		   $(TOOLS_OBJ)/study_schema.h
	$(CC) $(CFLAGS) $(ASAN_FLAGS) $(UNIT_CFLAGS) -I$(TOOLS_OBJ) -o $@ $< \
		$(LIB_SRC) $(UNIT_LDLIBS) $(TEST_LDLIBS)

# -z now: no lazy symbol binding between fail-nth and the call under test.
tools/tests/fault_load: private TEST_LDFLAGS = -Wl,-z,now

-include $(wildcard $(TOOLS_OBJ)/*/*.d)

# vmlinux.h comes from the TARGET kernel's BTF (never committed, never the
# build machine's running kernel): the ELF image extracted from KIMAGE by
# the kernel's own extract-vmlinux, from Debian's linux-source (unpacked
# into CLKSTAT_CACHE by build-test-kernel.sh, as style.sh and kunit.sh do).
$(EXTRACT_VMLINUX):
	CLKSTAT_CACHE=$(CLKSTAT_CACHE) tools/vm/build-test-kernel.sh --extract-only >/dev/null

# One per kernel: a module's BTF must be split against its own kernel's.
build/bpf/vmlinux-$(KRELEASE): $(KIMAGE) | $(EXTRACT_VMLINUX)
	@test -n "$(KIMAGE)" || { echo "no kernel image for KVER=$(KVER): run tools/install-deps.sh, or set KIMAGE and KRELEASE"; exit 1; }
	@mkdir -p build/bpf
	$(EXTRACT_VMLINUX) $(KIMAGE) > $@.tmp && mv $@.tmp $@

# CO-RE: one kernel's types serve every kernel; they are KDIR's.
build/bpf/vmlinux.h: build/bpf/vmlinux-$(KRELEASE)
	$(BPFTOOL) btf dump file $< format c > $@.tmp && mv $@.tmp $@

# -mcpu=v3: atomic compare-and-swap for min and max (kernel 5.12 and on).
build/bpf/twin.bpf.o: tools/bpf/twin.bpf.c tools/bpf/twin_shared.h kmod/uapi/clkstat_buckets.h \
		     kmod/shared/clkstat_wakeup.h kmod/uapi/clkstat_catalog.h build/bpf/vmlinux.h
	$(CLANG) $(BPF_CLANG_FLAGS) -mcpu=v3 -c $< -o $@

build/bpf/twin.skel.h: build/bpf/twin.bpf.o
	$(BPFTOOL) gen skeleton $< name twin_bpf > $@.tmp && mv $@.tmp $@

# The user-defined probes: one object per spec (tools/bpf/twin_trace.c).
build/bpf/twin_trace.bpf.o: tools/bpf/twin_trace.bpf.c tools/bpf/twin_shared.h \
			   kmod/uapi/clkstat_buckets.h kmod/shared/clkstat_trace.h \
			   kmod/uapi/clkstat_events.h kmod/uapi/clkstat_catalog.h build/bpf/vmlinux.h
	$(CLANG) $(BPF_CLANG_FLAGS) -mcpu=v3 -c $< -o $@

build/bpf/twin_trace.skel.h: build/bpf/twin_trace.bpf.o
	$(BPFTOOL) gen skeleton $< name twin_trace_bpf > $@.tmp && mv $@.tmp $@

# make install: clkstat.ko alone (CLKSTAT_BENCH=0, kmod/Kbuild: the benchmark
# modules are test instruments), built for KDIR and installed by kbuild's
# modules_install into $(INSTALL_MOD_PATH)/lib/modules/KREL/updates/kmod/,
# then depmod for that kernel; make uninstall removes it
# (Documentation/clkstat-install.rst, "DKMS and make install").  KREL is the release the module is built for, as its
# vermagic says (Debian's headers have 6.1.192 in kernel.release and
# override it).  Packagers: DESTDIR or INSTALL_MOD_PATH stages the install;
# depmod runs only on a tree that holds the kernel's own modules.order, so
# not on a package's staging directory.  Kbuild's own depmod step says
# "missing 'System.map'" on Debian's headers and skips; ours follows it.
# Kbuild would also sign on install (CONFIG_MODULE_SIG_ALL) with the
# kernel's own key, which only a self-built kernel's tree has: without its
# certificate in KDIR that step is skipped instead of failing noisily.
KREL = $(shell sed -n 's/^\#define UTS_RELEASE "\(.*\)"/\1/p' $(KDIR)/include/generated/utsrelease.h 2>/dev/null)
INSTALL_MOD_PATH ?= $(DESTDIR)
MODDIR = $(INSTALL_MOD_PATH)/lib/modules/$(KREL)
NOSIGN = $(if $(wildcard $(KDIR)/certs/signing_key.x509),,CONFIG_MODULE_SIG_ALL=)
DEPMOD ?= depmod
define depmod_krel
	@if [ -e "$(MODDIR)/modules.order" ]; then \
		echo "  DEPMOD  $(KREL)"; \
		$(DEPMOD) $(if $(INSTALL_MOD_PATH),-b "$(INSTALL_MOD_PATH)") "$(KREL)"; \
	else \
		echo "  DEPMOD  skipped: no kernel modules in $(MODDIR); run depmod $(KREL) where they are"; \
	fi
endef

.PHONY: install uninstall
install:
	@test -n "$(KREL)" || { echo "no kernel build tree at KDIR=$(KDIR): install linux-headers or set KDIR"; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) CLKSTAT_BENCH=0 modules
	$(MAKE) -C $(KDIR) M=$(CURDIR) CLKSTAT_BENCH=0 KERNELRELEASE=$(KREL) \
		INSTALL_MOD_PATH=$(INSTALL_MOD_PATH) INSTALL_MOD_DIR=updates $(NOSIGN) \
		modules_install
	$(depmod_krel)

uninstall:
	@test -n "$(KREL)" || { echo "no kernel build tree at KDIR=$(KDIR): set KDIR to the one installed for"; exit 1; }
	rm -f $(foreach s,.ko .ko.xz .ko.gz .ko.zst,$(MODDIR)/updates/kmod/clkstat$(s))
	@rmdir --ignore-fail-on-non-empty $(MODDIR)/updates/kmod $(MODDIR)/updates 2>/dev/null || true
	$(depmod_krel)

# make deb: the Debian packages of debian/ (clkstat-dkms, clkstat-tools)
# and the source package, built by dpkg-buildpackage from a copy of the
# tree's files (tracked and new, no build products) in build/deb/, where
# the packages land (dpkg-buildpackage writes to the parent of the tree it
# builds: build/deb/, never the checkout's parent); then lintian on them,
# which fails the target on any error or warning.  Needs
# tools/install-deps.sh's packaging tools and the Build-Depends
# (dpkg-checkbuilddeps says which are missing).  tools/tests/deb.sh
# installs and uses what it builds.
DEB_JOBS ?= 2
DEB_VERSION = $(shell dpkg-parsechangelog -l debian/changelog -S Version)
deb:
	rm -rf build/deb
	mkdir -p build/deb/clkstat-$(DEB_VERSION)
	git ls-files -z --cached --others --exclude-standard | grep -zv '^build/' | \
		xargs -0 cp -P --parents -t build/deb/clkstat-$(DEB_VERSION)
	cd build/deb/clkstat-$(DEB_VERSION) && dpkg-buildpackage -us -uc -j$(DEB_JOBS) \
		> ../build.log 2>&1 || { tail -n 30 ../build.log; echo "dpkg-buildpackage failed: build/deb/build.log"; exit 1; }
	rm -rf build/deb/clkstat-$(DEB_VERSION)
	lintian -I --fail-on error,warning build/deb/clkstat_$(DEB_VERSION)_amd64.changes
	@ls build/deb/*.deb build/deb/*.dsc

check: all
	tools/tests/run-all.sh

# make check-STAGE: one stage of make check, for each stage that
# tools/tests/run-all.sh --list names (check-unit, check-stats,
# check-kunit, check-debug-input, ...); each ends with "N passed, N
# failed", and make check runs them all.  The whole guest suite on 6.12
# is check-guest (below); the benchmarks are make bench.
CHECK_STAGES = $(filter-out guest unit bench-%,$(shell tools/tests/run-all.sh --list | cut -d' ' -f1))
CHECK_TARGETS = $(addprefix check-,$(CHECK_STAGES))
.PHONY: $(CHECK_TARGETS) check-unit
$(CHECK_TARGETS): check-%: all
	tools/tests/run-all.sh --only $*

# The unit tests need only a C compiler and the userspace libraries.
check-unit: unit-tests
	tools/tests/run-all.sh --only unit

# The guest suite on one kernel line: all of it (make check's stage
# guest), one area suite or hardening suite (SUITE=suite_netlink.sh), or
# some of its tests (TESTS="t_netlink t_record").
GUEST_TIMEOUT ?= 3600
check-guest: all
	CLKSTAT_GUEST_TIMEOUT=$(GUEST_TIMEOUT) tools/tests/guest.sh --kver $(KVER) \
		$(if $(SUITE),--suite $(SUITE)) $(TESTS)

# The whole guest suite and the hardening suites on the debug kernel
# (KASAN, kmemleak, lockdep, UBSAN) at full length: every fault point and
# the 1000/1000 soak, which alone should take about two and a half hours
# there (at 200/200 a cycle took 7.1 s under KASAN in a TCG guest, a
# switch 0.9 s).  make check runs two parts of it, sampled
# (check-debug-input, check-debug-faults).
check-debug: all
	tools/tests/debug.sh --full

# The soak at full length on Debian's kernel: 1000 load/unload cycles and
# 1000 variant switches under a wakeup storm (about 85 minutes in a TCG
# guest; the limit leaves room for a slower machine).
soak: all
	CLKSTAT_GUEST_TIMEOUT=14400 tools/tests/guest.sh --suite hardening_soak.sh

# The whole sweep of Documentation/clkstat-traces.rst's "Safety" on Debian's
# 6.12 (make check runs a sample of it in the guest suite): 2000 sampled
# functions and every function clkstat's calls out reach, in every variant,
# and 50 tracepoint pairs.
# CLKSTAT_SWEEP_N, _GRAPH, _TP and _SEED change it.
sweep: all
	CLKSTAT_GUEST_TIMEOUT=86400 tools/tests/guest.sh --kver 6.12 --suite suite_sweep.sh

demo: all
	tools/demo.sh

bench: all
	tools/tests/bench.sh

clean:
	if [ -d "$(KDIR)" ]; then $(MAKE) -C $(KDIR) M=$(CURDIR) clean; fi
	rm -f $(TOOLS) $(UNIT_TESTS) $(ASAN_TESTS) $(TEST_PROGS)
	rm -rf build

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_exports.h - what clkstat.ko exports for its test modules, and only
 * in the build made for them
 *
 * clkstat_bench.ko and clkstat_hookbench.ko (kmod/Kbuild's benchmark
 * modules) call into clkstat.ko: the store, the hooks and the clock, and
 * the probes' handlers and state for the handler benchmark
 * (bench_handlers.c, in clkstat_hookbench.ko).  `make` builds them and
 * clkstat.ko with these exports; the product's build (make install, DKMS,
 * the Debian package: CLKSTAT_BENCH=0) exports nothing.
 */
#ifndef _CLKSTAT_TEST_EXPORTS_H
#define _CLKSTAT_TEST_EXPORTS_H

#include <linux/build_bug.h>
#include <linux/export.h>
#include <linux/percpu.h>

#ifdef CLKSTAT_TEST_EXPORTS
#define CLKSTAT_EXPORT_FOR_TESTS(sym)	EXPORT_SYMBOL_GPL(sym)
#define CLKSTAT_EXPORT_PER_CPU_FOR_TESTS(sym) EXPORT_PER_CPU_SYMBOL_GPL(sym)
#else
/* An assertion that holds: takes the semicolon, exports nothing. */
#define CLKSTAT_EXPORT_FOR_TESTS(sym)	static_assert(1, #sym)
#define CLKSTAT_EXPORT_PER_CPU_FOR_TESTS(sym) static_assert(1, #sym)
#endif

#endif /* _CLKSTAT_TEST_EXPORTS_H */

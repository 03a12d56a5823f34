// SPDX-License-Identifier: GPL-2.0
/*
 * kmod/tp_probes.c under test, apart from kmod_core.c: the tracepoint
 * headers it includes declare names that btf_func.c defines there.
 */
#include "../kmod/tp_probes.c"

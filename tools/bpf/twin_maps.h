/* SPDX-License-Identifier: GPL-2.0 */
/*
 * twin_maps.h - emptying the BPF twin's maps between runs, for the twin's
 * built-in probes (twin.c) and its user-defined ones (twin_trace.c).
 */
#ifndef CLKSTAT_TWIN_MAPS_H
#define CLKSTAT_TWIN_MAPS_H

#include <stddef.h>

struct bpf_map;

/* Delete every entry of a hash map keyed by u64: 0, or -1 (errno). */
int twin_map_clear(struct bpf_map *m);
/*
 * Zero entry 0 of a per-CPU array whose value is value_size bytes per CPU
 * (each rounded up to 8, as the kernel lays them out): 0, or non-zero.
 */
int twin_map_zero_percpu(struct bpf_map *m, size_t value_size,
			 unsigned int ncpus);

#endif

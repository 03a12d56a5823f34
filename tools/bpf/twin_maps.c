// SPDX-License-Identifier: GPL-2.0
/*
 * twin_maps.c - emptying the BPF twin's maps between runs (twin_maps.h).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <bpf/libbpf.h>
#include "twin_maps.h"

int twin_map_clear(struct bpf_map *m)
{
	uint64_t key, next;

	while (!bpf_map__get_next_key(m, NULL, &next, sizeof(next))) {
		key = next;
		if (bpf_map__delete_elem(m, &key, sizeof(key), 0) &&
		    errno != ENOENT)
			return -1;
	}
	return 0;
}

int twin_map_zero_percpu(struct bpf_map *m, size_t value_size,
			 unsigned int ncpus)
{
	size_t stride = (value_size + 7) & ~(size_t)7;
	void *zero = calloc(ncpus, stride);
	uint32_t k = 0;
	int err = !zero ||
		  bpf_map__update_elem(m, &k, sizeof(k), zero, ncpus * stride, 0);

	free(zero);
	return err;
}

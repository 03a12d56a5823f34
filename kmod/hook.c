// SPDX-License-Identifier: GPL-2.0
/*
 * hook.c - attach and detach a probe's hooks as one unit.
 */
#include "hook.h"

/**
 * clkstat_hooks_attach() - attach every hook of a probe, or none
 * @b: the backend (variant)
 * @hooks: the hooks
 * @n: how many
 *
 * On failure the hooks attached so far are detached again, in reverse
 * order, and the backend's error (already reported by it) is returned.
 *
 * Return: 0 or a negative errno.
 */
int clkstat_hooks_attach(const struct clkstat_backend *b,
			 struct clkstat_hook *hooks, unsigned int n)
{
	unsigned int i;
	int ret;

	for (i = 0; i < n; i++) {
		ret = b->attach(&hooks[i]);
		if (ret) {
			while (i--)
				b->detach(&hooks[i]);
			return ret;
		}
	}
	return 0;
}

/**
 * clkstat_hooks_detach() - detach what clkstat_hooks_attach() attached
 * @b: the backend it was attached with
 * @hooks: the hooks
 * @n: how many
 *
 * When this returns, no handler of these hooks is running or can run.
 */
void clkstat_hooks_detach(const struct clkstat_backend *b,
			  struct clkstat_hook *hooks, unsigned int n)
{
	while (n--)
		b->detach(&hooks[n]);
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * output.h - what report, info, raw and serve render, and how: --per-cpu,
 * --metric, --no-hist, --time-unit, and the expositions' --grid and
 * --host, with the labels the expositions carry.
 */
#ifndef CLKSTAT_REPORT_OUTPUT_H
#define CLKSTAT_REPORT_OUTPUT_H

#include "../lib/meta.h"
#include "../lib/render.h"
#include "cli.h"

struct cr_info;

extern const struct cr_optset cr_output_opts;
/* --format openmetrics or prometheus. */
int cr_output_exposition(const char *format);
/*
 * The options against the command and its format (--time-unit for the
 * report's text and CSV, --grid and --host for the expositions and
 * serve), the grid parsed.
 */
int cr_output_check(const struct cr_cli *cli);
/* The render options, as given and checked. */
struct cr_render_opts *cr_output_render(void);
/*
 * The expositions' host, kernel and clocksource labels: --host, else the
 * live module's machine (info: this machine's name, kernel, the module's
 * clocksource) or a snapshot's metadata (meta: its kernel, clocksource,
 * tag host); neither: only --host.
 */
void cr_output_expo_labels(const struct cr_info *info,
			   const struct cr_meta *meta);
/* The --grid the expositions render on. */
const struct cr_grid *cr_output_grid(void);

#endif

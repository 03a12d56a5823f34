// SPDX-License-Identifier: GPL-2.0
/*
 * render_html.c - the one-page report of a comparison (report --compare F
 * --html FILE; render_html.h): the recording's metadata, the comparison
 * as the text output prints it, and the figures, each an inline SVG with
 * its plotted data beside it as JSON (<script type="application/json">).
 * One file, nothing fetched: it reads offline, mailed or archived with
 * the study.  Every string from the recording is escaped (a command line
 * or a tag may hold anything); the JSON's "</" is written "<\/" so that
 * no value can close its script element.
 */
#include <string.h>
#include <json.h>
#include "render_html.h"

static void cr_html_esc(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		default:
			fputc(*s, f);
		}
	}
}

/* A JSON text inside <script>: "</" never appears as such. */
static void cr_html_json(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (s[0] == '<' && s[1] == '/')
			fputs("<\\", f);
		else
			fputc(*s, f);
	}
}

static void cr_html_row(FILE *f, const char *k, const char *v)
{
	fputs("<tr><th>", f);
	cr_html_esc(f, k);
	fputs("</th><td>", f);
	cr_html_esc(f, v ? v : "-");
	fputs("</td></tr>\n", f);
}

static void cr_html_meta(FILE *f, const struct cr_snapshot *s)
{
	const struct cr_meta *m = &s->meta;
	char num[64];
	size_t i;

	fputs("<h2>The recording</h2>\n<table class=\"meta\">\n", f);
	cr_html_row(f, "kernel", m->kernel_release);
	cr_html_row(f, "clocksource", m->clocksource);
	cr_html_row(f, "clock", m->clock);
	cr_html_row(f, "machine", m->machine);
	cr_html_row(f, "hypervisor", m->hypervisor);
	cr_html_row(f, "host", m->host);
	cr_html_row(f, "cpuidle", m->cpuidle_driver);
	cr_html_row(f, "cpuidle governor", m->cpuidle_governor);
	cr_html_row(f, "probes", m->probes);
	cr_html_row(f, "variants", m->variants);
	cr_html_row(f, "conditions", m->conditions);
	cr_html_row(f, "workload", m->command);
	snprintf(num, sizeof(num), "%u", m->frac_bits);
	cr_html_row(f, "frac_bits", num);
	snprintf(num, sizeof(num), "%u", m->nr_cpus);
	cr_html_row(f, "CPUs", num);
	snprintf(num, sizeof(num), "%zu", s->nruns);
	cr_html_row(f, "runs", num);
	cr_html_row(f, "tool", m->tool_version);
	cr_html_row(f, "module", m->module_version);
	for (i = 0; i < m->ntags; i++) {
		char k[96];

		snprintf(k, sizeof(k), "tag %s", m->tag_names[i]);
		cr_html_row(f, k, m->tag_values[i]);
	}
	fputs("</table>\n", f);
}

/* gnuplot's SVG from its <svg element on: no XML prolog inside HTML. */
static const char *cr_html_svg_body(const char *svg)
{
	const char *p = strstr(svg, "<svg");

	return p ? p : svg;
}

int cr_html_page(FILE *f, const struct cr_html_page *p)
{
	const char *js;
	size_t i;

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>", f);
	cr_html_esc(f, p->title);
	fputs("</title>\n<style>\n"
	      "body { font-family: sans-serif; margin: 2em auto; max-width: 1000px; color: #222; }\n"
	      "table.meta th { text-align: left; padding-right: 1.5em; font-weight: normal; color: #555; }\n"
	      "pre { background: #f6f6f6; padding: 1em; overflow-x: auto; font-size: 12px; }\n"
	      "figure { margin: 2em 0; }\n"
	      "figure svg { width: 100%; height: auto; }\n"
	      "figcaption { color: #555; }\n"
	      ".warning { color: #b00000; }\n"
	      "</style>\n</head>\n<body>\n<h1>", f);
	cr_html_esc(f, p->title);
	fputs("</h1>\n", f);
	cr_html_meta(f, p->snapshot);
	fputs("<h2>The comparison</h2>\n<p>As <code>clkstat-report --compare</code> prints it:</p>\n<pre id=\"compare-text\">", f);
	cr_html_esc(f, p->text);
	fputs("</pre>\n<h2>Figures</h2>\n", f);
	if (p->note) {
		fputs("<p class=\"note\">", f);
		cr_html_esc(f, p->note);
		fputs("</p>\n", f);
	}
	for (i = 0; i < p->nfigs; i++) {
		const struct cr_figure *fig = p->figs[i];
		size_t w;

		fprintf(f, "<figure id=\"fig-%s\">\n", fig->id);
		fputs(cr_html_svg_body(p->svgs[i]), f);
		fputs("\n<figcaption>", f);
		cr_html_esc(f, fig->title);
		fputs(" &mdash; ", f);
		cr_html_esc(f, fig->subtitle);
		for (w = 0; w < fig->nwarnings; w++) {
			fputs("<br><span class=\"warning\">", f);
			cr_html_esc(f, fig->warnings[w]);
			fputs("</span>", f);
		}
		fputs("</figcaption>\n", f);
		js = json_object_to_json_string_ext(p->data[i],
						    JSON_C_TO_STRING_PLAIN |
						    JSON_C_TO_STRING_NOSLASHESCAPE);
		fprintf(f, "<script type=\"application/json\" id=\"data-%s\">", fig->id);
		cr_html_json(f, js ? js : "null");
		fputs("</script>\n</figure>\n", f);
	}
	fputs("</body>\n</html>\n", f);
	return ferror(f) ? -1 : 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * meta.c - the machine a recording ran on, read from uname(2), /proc and
 * /sys, so that a snapshot says what produced its numbers: a latency taken
 * in a TCG guest with the hpet clocksource and C-states on is not one taken
 * on bare metal with the tsc and idle=poll.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif
#include "cpufreq.h"
#include "sysfs_line.h"
#include "meta.h"
#include "version.h"

/* The hypervisor's CPUID signature (leaf 0x40000000), e.g. "KVMKVMKVM". */
static char *cr_cpuid_hypervisor(int *present)
{
	*present = 0;
#if defined(__x86_64__) || defined(__i386__)
	unsigned int a, b, c, d;
	char sig[13];

	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1U << 31)))
		return NULL;
	*present = 1;
	__cpuid(0x40000000, a, b, c, d);
	memcpy(sig, &b, 4);
	memcpy(sig + 4, &c, 4);
	memcpy(sig + 8, &d, 4);
	sig[12] = '\0';
	return sig[0] ? strdup(sig) : NULL;
#else
	return NULL;
#endif
}

/* Does /proc/cpuinfo's flags line hold "hypervisor"? */
static int cr_cpuinfo_hypervisor(const char *root)
{
	char path[512], line[8192];
	int found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/cpuinfo", root);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f))
		found = !strncmp(line, "flags", 5) && strstr(line, " hypervisor");
	fclose(f);
	return found;
}

int cr_meta_machine(const char *root, char **machine, char **hypervisor)
{
	static const char *const vendors[] = {
		"QEMU", "VMware", "innotek", "Xen", "Microsoft Corporation",
		"Amazon EC2", "Google", "Parallels", "BHYVE", "KVM",
	};
	char *vendor, *sig = NULL;
	int vm = 0;
	size_t i;

	/* The CPUID bit tells the truth here; a tree under root has none. */
	if (!*root)
		sig = cr_cpuid_hypervisor(&vm);
	vm |= cr_cpuinfo_hypervisor(root);
	vendor = cr_sysfs_line(root, "/sys/class/dmi/id/sys_vendor");
	for (i = 0; vendor && i < sizeof(vendors) / sizeof(vendors[0]); i++)
		if (!strncmp(vendor, vendors[i], strlen(vendors[i])))
			vm = 1;
	*machine = strdup(vm ? "vm" : "bare-metal");
	*hypervisor = NULL;
	if (vm) {
		/* "TCGTCGTCGTCG" says more than a DMI vendor of "QEMU". */
		if (sig && vendor) {
			size_t len = strlen(sig) + strlen(vendor) + 4;

			*hypervisor = malloc(len);
			if (*hypervisor)
				snprintf(*hypervisor, len, "%s (%s)", vendor,
					 sig);
		} else {
			*hypervisor = sig ? strdup(sig) : vendor ? strdup(vendor)
							   : NULL;
		}
	}
	free(sig);
	free(vendor);
	return *machine ? 0 : -ENOMEM;
}

/* The module's parameters, as /sys/module/clkstat/parameters shows them. */
static int cr_meta_params(struct cr_meta *m, const char *root)
{
	char dir[512], path[1024];
	struct dirent **names;
	int n, i, err = 0;
	char *v;

	snprintf(dir, sizeof(dir), "%s/sys/module/clkstat/parameters", root);
	n = scandir(dir, &names, NULL, alphasort);
	if (n < 0)
		return 0;
	for (i = 0; i < n; i++) {
		if (names[i]->d_name[0] != '.' && !err) {
			snprintf(path, sizeof(path),
				 "/sys/module/clkstat/parameters/%s",
				 names[i]->d_name);
			v = cr_sysfs_line(root, path);
			if (v)
				err = cr_meta_add_param(m, names[i]->d_name, v);
			free(v);
		}
		free(names[i]);
	}
	free(names);
	return err;
}

const char *cr_meta_max_cstate(const struct cr_meta *m, char *buf,
				size_t len)
{
	const char *d = m->cpuidle_driver;

	if (!d || !*d || !strcmp(d, "none"))
		return "n/a (no cpuidle driver)";
	if (strcmp(d, "intel_idle")) {
		snprintf(buf, len, "n/a (cpuidle driver %s, not intel_idle)", d);
		return buf;
	}
	return m->max_cstate ? m->max_cstate : "-";
}

/* The cpufreq driver, governors and boost (cpufreq.h); NULL: none. */
static int cr_meta_cpufreq(struct cr_meta *m, const char *root)
{
	struct cr_cpufreq cf;
	int oom = 0;

	if (cr_cpufreq_read(root, &cf))
		return -ENOMEM;
	m->cpufreq_recorded = 1;
	m->cpufreq_governor = cr_cpufreq_governors(&cf, &oom);
	/* Taken over from cf, which is freed without them. */
	m->cpufreq_driver = cf.driver;
	m->cpufreq_boost = cf.boost;
	cf.driver = NULL;
	cf.boost = NULL;
	cr_cpufreq_free(&cf);
	return oom ? -ENOMEM : 0;
}

int cr_meta_collect(struct cr_meta *m, const struct cr_info *info,
		    const char *root)
{
	struct utsname u;

	m->tool_version = strdup(CLKSTAT_REPORT_VERSION);
	if (info) {
		m->module_version = strdup(info->version);
		m->probes = strdup(info->probes);
		m->frac_bits = info->frac_bits;
		m->nr_cpus = info->nr_cpus;
		if (*info->clock)
			m->clock = strdup(info->clock);
	}
	/*
	 * The host name (uname's nodename, what gethostname() returns) names
	 * the machine for --compare --unit host.
	 */
	if (!*root && !uname(&u)) {
		m->kernel_release = strdup(u.release);
		if (*u.nodename)
			m->host = strdup(u.nodename);
	} else {
		m->kernel_release = cr_sysfs_line(root,
						 "/proc/sys/kernel/osrelease");
		m->host = cr_sysfs_line(root, "/proc/sys/kernel/hostname");
	}
	m->clocksource = cr_sysfs_line(root,
		"/sys/devices/system/clocksource/clocksource0/current_clocksource");
	m->cpuidle_driver = cr_sysfs_line(root,
		"/sys/devices/system/cpu/cpuidle/current_driver");
	m->cpuidle_governor = cr_sysfs_line(root,
		"/sys/devices/system/cpu/cpuidle/current_governor");
	if (!m->cpuidle_governor)
		m->cpuidle_governor = cr_sysfs_line(root,
			"/sys/devices/system/cpu/cpuidle/current_governor_ro");
	/*
	 * intel_idle.max_cstate means something only where intel_idle is
	 * the cpuidle driver: with none (a guest's "none"), acpi_idle or
	 * haltpoll, intel_idle's parameter (still readable, built in) is
	 * no setting of this machine's C-states.
	 */
	if (m->cpuidle_driver && !strcmp(m->cpuidle_driver, "intel_idle"))
		m->max_cstate = cr_sysfs_line(root,
			"/sys/module/intel_idle/parameters/max_cstate");
	m->cmdline = cr_sysfs_line(root, "/proc/cmdline");
	if (!m->tool_version || (info && (!m->module_version || !m->probes ||
					  (*info->clock && !m->clock))))
		return -ENOMEM;
	if (cr_meta_cpufreq(m, root))
		return -ENOMEM;
	if (cr_meta_machine(root, &m->machine, &m->hypervisor))
		return -ENOMEM;
	return cr_meta_params(m, root);
}

#!/bin/bash
# Install what clkstat needs to build, test and run its demo on Debian 12,
# from Debian's own packages.  Run as root.  Idempotent.
set -euo pipefail
if [ "$(id -u)" != 0 ]; then
	echo "install-deps: run as root (apt-get)" >&2
	exit 1
fi
pkgs=(
	# the 6.1 line's kernel and headers (the module is built for it; the
	# other lines come from tools/vm/kernels.sh, below)
	linux-image-amd64 linux-headers-amd64
	# the QEMU guest and its initramfs
	qemu-system-x86 busybox-static cpio
	# the 7.3 line's trixie chroot (tools/vm/kernels.sh)
	debootstrap
	# the KUnit and debug test kernels, checkpatch.pl and kunit.py (from
	# linux-source-6.12, which tools/vm/kernels.sh fetch 6.12 installs)
	flex bison bc libssl-dev libelf-dev dwarves xz-utils
	# builds, checks and tests
	build-essential kmod sparse libcmocka-dev valgrind python3
	# clkstat-report: generic netlink through libnl, snapshots through json-c,
	# studies through SQLite (and its shell, for the studies' SQL)
	pkg-config libnl-3-dev libnl-genl-3-dev libjson-c-dev libsqlite3-dev sqlite3
	# the study documents' pandas examples, run by their test
	python3-pandas
	# plot and --html: the figures are drawn by gnuplot (no X, cairo's
	# PNG and PDF; Documentation/clkstat-plot.rst, "Why gnuplot")
	gnuplot-nox
	# a strict OpenMetrics parser for the exporter's test (promtool below)
	python3-prometheus-client
	# clkstat-report serve: the exporter's HTTP server; curl in its tests
	libmicrohttpd-dev curl
	# --compare: GSL's random numbers and quantiles; scipy and numpy as the
	# independent implementation its tests compare against
	libgsl-dev python3-scipy python3-numpy
	# clkstat-report plot: its figures are drawn by gnuplot (SVG, PNG, PDF)
	gnuplot-nox
	# the man page's render check; the benchmark's peak memory; the
	# documents' reStructuredText check (rst2html)
	man-db time python3-docutils
	# the netlink family's C from its spec (tools/netlink-gen.sh: the
	# kernel's ynl-gen-c.py reads YAML and checks it against the schema)
	python3-yaml python3-jsonschema
	# report --html's pages checked in a real browser
	# (tools/tests/page_check.py): headless Chromium driven by Selenium
	# through chromedriver, its fonts, PIL for the screenshots
	chromium chromium-driver python3-selenium fonts-liberation python3-pil
	# workloads and the independent counts in the guest
	rt-tests procps util-linux
	# dkms.conf's builds (tools/tests/dkms.sh: add, build, install, remove)
	dkms
	# make deb: Debian's packaging tools, and the Build-Depends of
	# debian/control not named elsewhere here (linux-source-6.1: the
	# kernel's extract-vmlinux for the package's vmlinux.h); debootstrap
	# (above) makes tools/tests/deb.sh's bookworm chroot
	dpkg-dev debhelper dh-dkms lintian pkgconf linux-source-6.1
	# a BPF fentry program for the direct-call conflict test
	bpftrace
	# BPF: clang for the BPF objects, bpftool for vmlinux.h and the
	# skeletons, libbpf to load them (libelf and zlib are libbpf's); the
	# overhead benchmark's module BTF comes from pahole (dwarves, above)
	clang llvm bpftool libbpf-dev libelf-dev zlib1g-dev
)
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	echo "install-deps: installing ${missing[*]}" >&2
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi
# promtool, Prometheus's own checker, for the OpenMetrics test.  It ships
# only in the prometheus package, whose install would also enable and start
# a Prometheus server on this machine; unpack the package instead, into
# the cache the tests look in (CLKSTAT_CACHE).
cache=${CLKSTAT_CACHE:-/var/cache/clkstat}
promdir=$cache/prometheus
if [ ! -x "$promdir/usr/bin/promtool" ] && ! command -v promtool > /dev/null; then
	echo "install-deps: unpacking promtool from Debian's prometheus package into $promdir" >&2
	mkdir -p "$(dirname "$promdir")"
	tmp=$(mktemp -d)
	( cd "$tmp" && apt-get download -qq prometheus ) >&2
	dpkg-deb -x "$tmp"/prometheus_*.deb "$promdir.new"
	rm -rf "$tmp" "$promdir" && mv "$promdir.new" "$promdir"
fi
# The kernel lines: 6.1 (above), and 6.12 from bookworm-backports,
# installed system-wide (about 1 minute on a fresh machine; seconds when
# it is there).
vm=$(dirname "$0")/vm
"$vm/kernels.sh" fetch 6.1 6.12
# Three chroots in the cache, all installations of Debian packages: 7.3's
# trixie chroot with its headers and image (tools/vm/kernels.sh), the
# bookworm root the Debian packages' test installs them into
# (tools/vm/bookworm-root.sh), and the unit tests' bookworm root
# (tools/vm/unit-root.sh), made at once, in parallel: about 6 minutes
# the first time, seconds later.  Here rather than inside make check,
# where their unpacking took the test kernels' build CPU (make check
# still makes whichever is missing, from its first second).
mkdir -p "$cache"
eval "$("$vm/kernels.sh" info "$("$vm/kernels.sh" default)")"
echo "install-deps: Debian's 7.3, the deb test's and the unit tests' bookworm chroots (logs: $cache/install-*.log)" >&2
"$vm/kernels.sh" fetch 7.3 > "$cache/install-7.3.log" 2>&1 &
p73=$!
# shellcheck disable=SC2154  # kver: kernels.sh info
"$vm/bookworm-root.sh" "$kver" > "$cache/install-bookworm.log" 2>&1 &
pbw=$!
# The unit tests' chroot (tools/vm/unit-root.sh): about a minute.
"$vm/unit-root.sh" > "$cache/install-unit.log" 2>&1 &
punit=$!
rc=0
for job in "$p73:7.3" "$pbw:bookworm" "$punit:unit"; do
	wait "${job%%:*}" && continue
	rc=1
	tail -20 "$cache/install-${job#*:}.log" >&2
	echo "install-deps: the ${job#*:} chroot failed (log: $cache/install-${job#*:}.log)" >&2
done
[ $rc = 0 ] || exit 1
echo "install-deps: all present" >&2

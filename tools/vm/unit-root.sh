#!/bin/bash
# The bookworm chroot that tools/tests/unit_chroot.sh runs `make
# check-unit` in: a C compiler (gcc: its AddressSanitizer too), make,
# the userspace libraries' -dev packages (SQLite's: study files), cmocka,
# valgrind, docutils and man-db, and nothing of a
# kernel, clang or bpftool, so that the unit tests are shown to need
# none of them (unit.sh skips the check of the generated netlink C here,
# which needs the kernel source; the host's unit stage runs it).  Made
# once (bookworm-base.sh, cached in CLKSTAT_CACHE/unit/bookworm), brought
# up to date on every call, under a lock.  tools/install-deps.sh makes
# it; make check too when missing.
#
# usage: unit-root.sh          make it, print its path on the last line
# The log goes to stdout; exit status 0 when the chroot is ready.
set -euo pipefail
top=$(realpath "$(dirname "$0")/../..")
cache=${CLKSTAT_CACHE:-/var/cache/clkstat}
base=$cache/unit/bookworm
# What building and running the unit tests takes (Makefile: UNIT_CFLAGS,
# UNIT_LDLIBS; tools/tests/unit.sh): the libraries libclkstat.a links.
pkgs=(make gcc libc6-dev pkg-config libcmocka-dev valgrind
      libnl-3-dev libnl-genl-3-dev libjson-c-dev libgsl-dev libsqlite3-dev
      python3 python3-docutils man-db)
mkdir -p "$cache/unit"


exec 8> "$cache/unit/bookworm.lock"
flock 8
"$top/tools/vm/bookworm-base.sh" "$base" "${pkgs[@]}"
echo "unit-root: ready"
echo "$base"

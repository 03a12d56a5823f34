#!/bin/bash
# Installing clkstat.ko, on the host (nothing is loaded: the host cannot
# load modules).  For every kernel with /lib/modules/*/build:
#   - DKMS: `dkms add` of a copy of the tree holding only dkms.conf, Kbuild
#     and kmod/ (the build needs nothing else), `dkms build` (a failure
#     shows make.log's tail; a warning fails too), `dkms install`, the
#     installed module's vermagic and version (modinfo), struct rq's
#     layout found where the kernel has BTF (kmod/gen_rq_offsets.sh), clkstat.ko alone
#     built and installed, `dkms status` saying installed; then `dkms
#     remove --all` leaving nothing in /var/lib/dkms, under
#     /lib/modules/*/updates/dkms, nor in modules.dep;
#   - `make install` and `make uninstall` into a temporary INSTALL_MOD_PATH
#     laid out as a kernel's module tree: the file placed, found by depmod,
#     removed (only for kernels whose DKMS build passed).
# And dkms.conf's PACKAGE_VERSION against kmod/uapi/clkstat_version.h.  Each kernel's
# times are printed.  Needs root and dkms; refuses to run where clkstat is
# already known to dkms, and leaves the machine as it found it (a trap
# removes what it added, on failure too).  Last line: "N passed, N failed".
set -uo pipefail
top=$(realpath "$(dirname "$0")/../..")
cd "$top" || exit 1
pass=0 fail=0 skip=0
ok() { pass=$((pass + 1)); echo "ok - $*"; }
not_ok() { fail=$((fail + 1)); echo "not ok - $*"; }
skipped() { skip=$((skip + 1)); echo "ok - $* # SKIP"; }
finish() {
	if [ "$skip" -gt 0 ]; then
		echo "$pass passed, $fail failed, $skip skipped"
	else
		echo "$pass passed, $fail failed"
	fi
	[ "$fail" = 0 ]
	exit
}
# now_ms, since_ms T0: wall time in milliseconds, and since T0 in seconds.
now_ms() { echo $(($(date +%s%N) / 1000000)); }
since_ms() { local d=$(($(now_ms) - $1)); printf '%d.%d' $((d / 1000)) $((d % 1000 / 100)); }
indent() { sed 's/^/#   /'; }

# One place for the version: kmod/uapi/clkstat_version.h.  dkms.conf repeats it as a
# literal (dkms.conf says why); this is the check that they agree.
ver=$(sed -n 's/^#define[[:space:]]\{1,\}CLKSTAT_MODULE_VERSION[[:space:]]\{1,\}"\(.*\)"[[:space:]]*$/\1/p' kmod/uapi/clkstat_version.h)
name=$(sed -n 's/^PACKAGE_NAME="\(.*\)"$/\1/p' dkms.conf)
conf_ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' dkms.conf)
if [ -n "$ver" ] && [ "$conf_ver" = "$ver" ] && [ "$name" = clkstat ]; then
	ok "dkms.conf: clkstat $conf_ver, kmod/uapi/clkstat_version.h's CLKSTAT_MODULE_VERSION"
else
	not_ok "dkms.conf: PACKAGE_NAME '$name', PACKAGE_VERSION '$conf_ver'; kmod/uapi/clkstat_version.h says '$ver'"
	finish
fi

# The kernel options clkstat cannot build without: kmod/Kbuild's
# clkstat-needs, which dkms.conf's BUILD_EXCLUSIVE_CONFIG repeats so that
# dkms skips such a kernel instead of failing its install.
needs=$(sed -n '/^clkstat-needs :=/,/[^\\]$/p' kmod/Kbuild | tr -d '\\' |
	sed 's/^clkstat-needs :=//' | tr -s ' \t\n' '\n' | grep . | sort | tr '\n' ' ')
excl=$(sed -n 's/^BUILD_EXCLUSIVE_CONFIG="\(.*\)"$/\1/p' dkms.conf | tr ' ' '\n' | grep . | sort | tr '\n' ' ')
if [ -n "$needs" ] && [ "$needs" = "$excl" ]; then
	ok "dkms.conf: BUILD_EXCLUSIVE_CONFIG is kmod/Kbuild's clkstat-needs ($needs)"
else
	not_ok "dkms.conf: BUILD_EXCLUSIVE_CONFIG '$excl', kmod/Kbuild's clkstat-needs '$needs'"
fi

if [ "$(id -u)" != 0 ] || ! command -v dkms > /dev/null; then
	not_ok "dkms stage needs root and dkms (tools/install-deps.sh)"
	finish
fi
kernels=()
for b in /lib/modules/*/build; do
	[ -d "$b" ] && kernels+=("$(basename "$(dirname "$b")")")
done
if [ ${#kernels[@]} = 0 ]; then
	not_ok "no kernel has /lib/modules/*/build (linux-headers)"
	finish
fi
mapfile -t kernels < <(printf '%s\n' "${kernels[@]}" | sort -V)
echo "# kernels: ${kernels[*]}; $(dkms --version)"

# What is there already is not ours to touch: a clkstat registered or
# installed by someone, or a dkms set up to load what it installs.
theirs=$(ls -d "/var/lib/dkms/$name" "/usr/src/$name-$ver" \
	/lib/modules/*/updates/dkms/"$name".ko* 2>/dev/null)
if [ -n "$theirs" ]; then
	not_ok "clkstat is already on this machine, left alone: ${theirs//$'\n'/ }"
	finish
fi
if grep -qsE '^[[:space:]]*modprobe_on_install=[^[:space:]]' \
	/etc/dkms/framework.conf /etc/dkms/framework.conf.d/*.conf; then
	not_ok "dkms's modprobe_on_install is set (/etc/dkms): it would load clkstat.ko on this host"
	finish
fi

tmp=$(mktemp -d /tmp/clkstat-dkms.XXXXXX)
# dkms makes a signing key (MOK) at its first build where there is none.
mok_new=()
for f in /var/lib/dkms/mok.key /var/lib/dkms/mok.pub; do
	[ -e "$f" ] || mok_new+=("$f")
done
# shellcheck disable=SC2317 # run by the trap
cleanup() {
	local k
	if [ -e "/var/lib/dkms/$name" ]; then
		dkms remove "$name/$ver" --all > /dev/null 2>&1
		# Whatever a failed remove left (none of it was there before).
		for k in "${kernels[@]}"; do
			if ls "/lib/modules/$k/updates/dkms/$name".ko* > /dev/null 2>&1; then
				rm -f "/lib/modules/$k/updates/dkms/$name".ko*
				depmod "$k"
			fi
		done
		rm -rf "/var/lib/dkms/$name"
	fi
	rm -rf "/usr/src/$name-$ver" "$tmp"
	[ ${#mok_new[@]} = 0 ] || rm -f "${mok_new[@]}"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

# The copy dkms gets: dkms.conf, Kbuild and kmod/ as in the work tree
# (tracked files and new ones, no build products).
src=$tmp/src
mkdir -p "$src"
if ! git ls-files -z --cached --others --exclude-standard -- dkms.conf Kbuild kmod |
	xargs -0 cp --parents -t "$src" || [ ! -f "$src/dkms.conf" ]; then
	not_ok "copy of dkms.conf, Kbuild and kmod/ (git ls-files)"
	finish
fi
if out=$(dkms add "$src" 2>&1) && [ -d "/var/lib/dkms/$name/$ver" ]; then
	ok "dkms add (a copy of dkms.conf, Kbuild and kmod/ only)"
else
	echo "$out" | indent
	not_ok "dkms add"
	finish
fi

times=()
for k in "${kernels[@]}"; do
	kdir=/lib/modules/$k/build
	t0=$(now_ms)
	out=$(dkms build "$name/$ver" -k "$k" 2>&1)
	rc=$?
	tb=$(since_ms "$t0")
	log=/var/lib/dkms/$name/$ver/$k/$(uname -m)/log/make.log
	if [ $rc = 77 ]; then
		skipped "dkms build for $k: excluded by dkms.conf's BUILD_EXCLUSIVE_*"
		times+=("$k: excluded")
		continue
	elif [ $rc != 0 ]; then
		not_ok "dkms build for $k (exit status $rc, ${tb} s); make.log's tail:"
		tail -n 25 "/var/lib/dkms/$name/$ver/build/make.log" 2>/dev/null | indent
		echo "$out" | tail -n 3 | indent
		times+=("$k: build failed after ${tb} s")
		continue
	fi
	# No warning from the build (make.log) nor from dkms, but readelf's
	# when dkms looks for a compiler note in a vmlinux that has none (6.12's
	# headers ship a BTF-only vmlinux): that one is dkms's, not ours.
	warn=$( { cat "$log"; echo "$out"; } | grep -i 'warning' |
		grep -v "readelf: Warning: Section '.comment' was not dumped")
	if [ -z "$warn" ]; then
		ok "dkms build for $k (${tb} s), no warning"
	else
		echo "$warn" | indent
		not_ok "dkms build for $k (${tb} s): warnings"
	fi
	if grep -qE 'clkstat_(hook)?bench' "$log"; then
		not_ok "dkms build for $k: only clkstat.ko (the benchmark modules were built)"
	fi

	t0=$(now_ms)
	out=$(dkms install "$name/$ver" -k "$k" 2>&1)
	rc=$?
	ti=$(since_ms "$t0")
	inst=()
	for f in "/lib/modules/$k/updates/dkms/$name"*; do
		[ -e "$f" ] && inst+=("${f##*/}")
	done
	if [ $rc = 0 ] && [ ${#inst[@]} = 1 ] && [[ ${inst[0]} == "$name".ko* ]]; then
		ok "dkms install for $k (${ti} s): /lib/modules/$k/updates/dkms/${inst[0]}, nothing else"
	else
		echo "$out" | tail -n 10 | indent
		not_ok "dkms install for $k (exit status $rc): updates/dkms holds '${inst[*]}'"
	fi
	ko=/lib/modules/$k/updates/dkms/${inst[0]:-$name.ko}
	vm=$(modinfo -F vermagic "$ko" 2>/dev/null)
	mv=$(modinfo -F version "$ko" 2>/dev/null)
	if [ "${vm%% *}" = "$k" ] && [ "$mv" = "$ver" ]; then
		ok "installed clkstat.ko for $k: vermagic $k, version $ver"
	else
		not_ok "installed clkstat.ko for $k: vermagic '$vm', version '$mv'"
	fi
	# The DKMS build ran kmod/gen_rq_offsets.sh: struct rq's layout from
	# the headers' vmlinux, or from /sys/kernel/btf for the running kernel;
	# else the module says "no BTF for KVER" at load (the rq clock off).
	case $ko in
	*.xz) unz="xz -dc" ;; *.zst) unz="zstd -dc" ;; *.gz) unz="gzip -dc" ;; *) unz=cat ;;
	esac
	if [ -e "/lib/modules/$k/build/vmlinux" ] || [ "$k" = "$(uname -r)" ]; then
		want=btf
	else
		want=none
	fi
	# (grep -c reads it all: no SIGPIPE for pipefail to see)
	got=btf
	[ "$($unz "$ko" 2>/dev/null | grep -ac "no BTF for $k")" = 0 ] || got=none
	if [ "$got" = "$want" ] && [ "$($unz "$ko" 2>/dev/null | grep -ac 'rq clock')" != 0 ]; then
		ok "installed clkstat.ko for $k: struct rq's layout: $want (kmod/gen_rq_offsets.sh ran)"
	else
		not_ok "installed clkstat.ko for $k: struct rq's layout: $got, want $want"
	fi
	# The product exports nothing and holds no test code: both are in
	# the build `make` makes for the benchmark modules (test_exports.h).
	syms=$($unz "$ko" > "$tmp/ko.o" 2>/dev/null && nm "$tmp/ko.o" 2>&1)
	nexp=$(echo "$syms" | grep -c ' __ksymtab_')
	nbench=$(echo "$syms" | grep -c 'bench')
	if [ -n "$syms" ] && [ "$nexp" = 0 ] && [ "$nbench" = 0 ] &&
	   echo "$syms" | grep -q ' clkstat_metric_create$'; then
		ok "installed clkstat.ko for $k: no exports, no benchmark code"
	else
		not_ok "installed clkstat.ko for $k: $nexp exports, $nbench benchmark symbols"
	fi
	st=$(dkms status "$name/$ver" -k "$k" 2>&1)
	if [[ $st == *"$name/$ver, $k, "*": installed"* ]]; then
		ok "dkms status for $k: installed"
	else
		not_ok "dkms status for $k: '$st'"
	fi
	if grep -q "updates/dkms/$name\.ko" "/lib/modules/$k/modules.dep"; then
		ok "modules.dep of $k has updates/dkms/clkstat.ko"
	else
		not_ok "modules.dep of $k has updates/dkms/clkstat.ko"
	fi

	# make install / uninstall, from its own copy, into a tree laid out
	# as this kernel's (modules.order and the builtin lists, so that
	# depmod runs there as on a real root).
	mi=$tmp/make-$k
	root=$tmp/root-$k
	mkdir -p "$mi" "$root/lib/modules/$k"
	git ls-files -z --cached --others --exclude-standard -- Makefile Kbuild kmod |
		xargs -0 cp --parents -t "$mi"
	cp /lib/modules/"$k"/modules.{order,builtin,builtin.modinfo} "$root/lib/modules/$k/" 2>/dev/null
	t0=$(now_ms)
	out=$(make -C "$mi" install KDIR="$kdir" INSTALL_MOD_PATH="$root" 2>&1)
	rc=$?
	tm=$(since_ms "$t0")
	f=$(ls "$root/lib/modules/$k/updates/kmod/$name".ko* 2>/dev/null)
	others=$(find "$root/lib/modules/$k/updates" -type f 2>/dev/null | grep -v "/$name\.ko")
	vm=$(modinfo -F vermagic "$f" 2>/dev/null)
	if [ $rc = 0 ] && [ -n "$f" ] && [ -z "$others" ] && [ "${vm%% *}" = "$k" ] &&
	   grep -q "^updates/kmod/$name\.ko[^:]*:" "$root/lib/modules/$k/modules.dep"; then
		ok "make install for $k (${tm} s): ${f#"$root"}, vermagic $k, in modules.dep, nothing else"
	else
		echo "$out" | tail -n 15 | indent
		not_ok "make install for $k (exit status $rc): '${f#"$root"}' vermagic '$vm', others '$others'"
	fi
	out=$(make -C "$mi" uninstall KDIR="$kdir" INSTALL_MOD_PATH="$root" 2>&1)
	rc=$?
	if [ $rc = 0 ] && [ -z "$(find "$root/lib/modules/$k" -name "$name*")" ] &&
	   ! grep -q "$name" "$root/lib/modules/$k/modules.dep"; then
		ok "make uninstall for $k: file and modules.dep entry gone"
	else
		echo "$out" | tail -n 10 | indent
		not_ok "make uninstall for $k (exit status $rc)"
	fi
	times+=("$k: dkms build ${tb} s, dkms install ${ti} s, make install ${tm} s")
done

out=$(dkms remove "$name/$ver" --all 2>&1)
rc=$?
if [ $rc = 0 ]; then
	ok "dkms remove --all"
else
	echo "$out" | tail -n 10 | indent
	not_ok "dkms remove --all (exit status $rc)"
fi
left=""
for f in "/var/lib/dkms/$name" /lib/modules/*/updates/dkms/"$name"*; do
	[ -e "$f" ] && left="$left $f"
done
for k in "${kernels[@]}"; do
	grep -qs "/$name\.ko" "/lib/modules/$k/modules.dep" && left="$left /lib/modules/$k/modules.dep"
done
if [ -z "$left" ]; then
	ok "nothing left behind: /var/lib/dkms, /lib/modules/*/updates/dkms, modules.dep"
else
	not_ok "left behind:$left"
fi

for t in "${times[@]}"; do
	echo "# time: $t"
done
finish

#!/bin/bash
# The Debian packages (debian/, `make deb`), built, installed and used,
# never on this machine itself: `make deb` and lintian; the packages
# installed with apt-get into a copy of a bookworm chroot (with the
# headers of the guest's kernel, LINE below), where DKMS builds
# clkstat.ko and the unit passes `systemd-analyze verify`; a QEMU guest on
# that kernel with the chroot as its root, which loads and reads the
# installed module; the same chroot booted with its own systemd as init,
# the unit checked at boot (tools/tests/deb_boot.sh); then `apt-get
# remove` and `apt-get purge`.  What each stage checks is said at its
# marker below; the packages: Documentation/clkstat-install.rst, "Debian
# packages".
# usage: deb.sh [LINE]   LINE: the guest's kernel line (tools/vm/kernels.sh;
#                        6.12 unless CLKSTAT_KVER says otherwise; 7.3 has no
#                        bookworm headers)
# Needs root (debootstrap, chroot, apt in the chroot), the packaging tools
# and Build-Depends of tools/install-deps.sh, which makes the chroot too
# (about 6 minutes on a fresh machine; else the first run here does);
# every run copies it.  Each stage's time is
# printed.  Last line: "N passed, N failed".
# shellcheck disable=SC2317,SC2016  # has, deps_ok: run by check(); single quotes: for dpkg-query and the chroot's shell
set -uo pipefail
top=$(realpath "$(dirname "$0")/../..")
cd "$top" || exit 1
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok - $*"; }
not_ok() { fail=$((fail + 1)); echo "not ok - $*"; }
finish() {
	echo "$pass passed, $fail failed"
	[ "$fail" = 0 ]
	exit
}
check() {	# check DESCRIPTION COMMAND...: ok if COMMAND succeeds
	local what=$1; shift
	if "$@"; then ok "$what"; else not_ok "$what"; fi
}
now_ms() { echo $(($(date +%s%N) / 1000000)); }
since_ms() { local d=$(($(now_ms) - $1)); printf '%d.%d' $((d / 1000)) $((d % 1000 / 100)); }
indent() { sed 's/^/#   /'; }
times=()

line=${1:-${CLKSTAT_KVER:-$(tools/vm/kernels.sh default)}}
case "$line" in
6.1|6.12) ;;
*) not_ok "kernel line '$line': the bookworm chroot has headers for 6.1 and 6.12 only"; finish ;;
esac
if [ "$(id -u)" != 0 ]; then
	not_ok "deb.sh needs root (debootstrap, chroot)"
	finish
fi
cache=${CLKSTAT_CACHE:-/var/cache/clkstat}
base=$cache/deb/bookworm
work=$top/build/deb-test
mkdir -p "$work" "$cache/deb"

# --- make deb ------------------------------------------------------------
# `make deb`: dpkg-buildpackage's packages in build/deb/, lintian with
# no error and no warning; what each package holds (the unit, the man
# page, the conffiles, the DKMS tree under /usr/src/clkstat-VERSION).

# Build-Depends name the package of every library the Makefile asks
# pkg-config for: a clean build (sbuild, a buildd) has nothing else, and
# make deb here would not notice a missing one, install-deps.sh having put
# every library on this machine.
builddeps=$(sed -n '/^Build-Depends:/,/^[A-Z][A-Za-z-]*:/{ /^Standards/d; p }' debian/control |
	sed 's/^Build-Depends://' | tr ',' '\n' | awk '{ print $1 }' | grep . | sort -u)
missing=
pcs=$(grep -o 'pkg-config --[a-z-]* [A-Za-z0-9._-]*' Makefile | awk '{ print $3 }' | sort -u)
for pc in $pcs; do
	pkg=$(dpkg -S "$(pkg-config --variable=pcfiledir "$pc")/$pc.pc" 2>/dev/null | cut -d: -f1)
	grep -qxF -- "${pkg:-none}" <<< "$builddeps" || missing="$missing $pc (${pkg:-no package})"
done
check "Build-Depends has the package of each of the Makefile's pkg-config libraries ($(echo $pcs))${missing:+, not of:$missing}" \
	[ -n "$pcs" -a -z "$missing" ]

ver=$(dpkg-parsechangelog -l debian/changelog -S Version)
modver=$(sed -n 's/^#define[[:space:]]*CLKSTAT_MODULE_VERSION[[:space:]]*"\(.*\)"/\1/p' kmod/uapi/clkstat_version.h)
check "debian/changelog's version $ver is the module's ($modver)" [ "$ver" = "$modver" ]
t0=$(now_ms)
if make deb > "$work/make-deb.log" 2>&1; then
	ok "make deb ($(since_ms "$t0") s)"
else
	tail -n 25 "$work/make-deb.log" | indent
	not_ok "make deb (see $work/make-deb.log)"
	finish
fi
times+=("make deb: $(since_ms "$t0") s")
# make deb fails on any error or warning already; this says which tags
# lintian printed at all (infos are allowed).
tags=$(grep -E '^[EWIPXON]: ' "$work/make-deb.log" | sed 's/^/  /')
if grep -qE '^[EW]: ' "$work/make-deb.log"; then
	echo "$tags" | indent
	not_ok "lintian: errors or warnings"
else
	[ -z "$tags" ] || echo "$tags" | indent
	ok "lintian: no error, no warning ($(echo "$tags" | grep -c . ) other tags)"
fi
dkms_deb=build/deb/clkstat-dkms_${ver}_all.deb
tools_deb=build/deb/clkstat-tools_${ver}_amd64.deb
check "the source package: build/deb/clkstat_$ver.dsc" [ -f "build/deb/clkstat_$ver.dsc" ]
for d in "$dkms_deb" "$tools_deb"; do
	[ -f "$d" ] || { not_ok "no $d"; finish; }
done

# has DEB PATH...: the package's files include each PATH.
has() {
	local deb=$1 p list; shift
	list=$(dpkg-deb -c "$deb" | awk '{ print $6 }' | sed 's|^\./|/|')
	for p in "$@"; do
		grep -qxF -- "$p" <<< "$list" || { echo "# $deb has no $p"; return 1; }
	done
}
check "clkstat-tools: /usr/bin/clkstat-report, the man page, the unit, /etc/default and /etc/modprobe.d" \
	has "$tools_deb" /usr/bin/clkstat-report /usr/share/man/man1/clkstat-report.1.gz \
	/lib/systemd/system/clkstat-exporter.service /etc/default/clkstat-exporter \
	/etc/modprobe.d/clkstat.conf
# The documents the man page's SEE ALSO names (dh_compress may have
# compressed them).
docs_ok() {
	local list f
	list=$(dpkg-deb -c "$tools_deb" | awk '{ print $6 }')
	for f in clkstat.rst clkstat-probes.rst clkstat-traces.rst \
		 clkstat-recording.rst clkstat-compare.rst clkstat-prometheus.rst \
		 clkstat-install.rst clkstat-snapshot.rst clkstat-dashboard.json \
		 clkstat.yaml; do
		grep -qE "^\./usr/share/doc/clkstat-tools/$f(\.gz)?\$" <<< "$list" ||
			{ echo "# no /usr/share/doc/clkstat-tools/$f"; return 1; }
	done
}
check "clkstat-tools: the documents of the man page's SEE ALSO in /usr/share/doc/clkstat-tools" docs_ok
conffiles=$(dpkg-deb -I "$tools_deb" conffiles 2>/dev/null | sort | xargs)
check "clkstat-tools's conffiles: $conffiles" \
	[ "$conffiles" = "/etc/default/clkstat-exporter /etc/modprobe.d/clkstat.conf" ]
# The folder the package was built in appears nowhere in its program (the
# BPF skeletons' BTF once carried it: a build elsewhere would differ).
x=$work/tools-deb-x
rm -rf "$x" && dpkg-deb -x "$tools_deb" "$x"
n=$(grep -c -a -F "$top/build/deb" "$x/usr/bin/clkstat-report")
check "clkstat-report does not name the folder it was built in ($n times)" [ "$n" = 0 ]
rm -rf "$x"
src=/usr/src/clkstat-$ver
check "clkstat-dkms: the DKMS tree $src (dkms.conf, Kbuild, kmod/, kmod/uapi/)" \
	has "$dkms_deb" "$src/dkms.conf" "$src/Kbuild" "$src/kmod/Kbuild" "$src/kmod/init.c" \
	"$src/kmod/gen_rq_offsets.sh" "$src/kmod/uapi/clkstat_version.h"
junk=$(dpkg-deb -c "$dkms_deb" | awk '{ print $6 }' |
	grep -E '\.(o|ko|cmd|mod)$|/generated/|^\./(lib|etc|usr/bin)/' || true)
check "clkstat-dkms: sources only, nothing outside /usr/src and its doc${junk:+ (has $junk)}" [ -z "$junk" ]
dep=$(dpkg-deb -f "$dkms_deb" Depends)
deps_ok() { grep -qE '(^|, )dkms( |,|$)' <<< "$dep" && grep -qE '(^|, )dwarves( |,|$)' <<< "$dep"; }
check "clkstat-dkms depends on dkms and dwarves (pahole): $dep" deps_ok

# --- the chroot ------------------------------------------------------------
# A bookworm chroot (tools/vm/bookworm-root.sh: debootstrap minbase,
# cached in CLKSTAT_CACHE/deb/, with bookworm-backports as tools/vm/apt
# says, the packages' dependencies, systemd, man-db and the headers of
# the guest's kernel, LINE below): a copy of it gets the packages
# with apt-get; DKMS built and installed
# clkstat.ko for that kernel (its version, vermagic and struct rq's
# layout), the unit is enabled and passes `systemd-analyze verify`.

eval "$(tools/vm/kernels.sh info "$line")" || { not_ok "tools/vm/kernels.sh info $line"; finish; }
# shellcheck disable=SC2154  # kver: from kernels.sh info
gkver=$kver

# in_root ROOT COMMAND...: COMMAND in the chroot ROOT (tools/vm/in-root.sh).
in_root() { "$top/tools/vm/in-root.sh" "$@"; }
flog=$work/chroot-setup.log
: > "$flog"
quietly() {
	if ! "$@" >> "$flog" 2>&1; then
		tail -n 15 "$flog" | indent
		return 1
	fi
}

# The cached chroot (tools/vm/bookworm-root.sh: made once, brought up to
# date here), with the built
# packages' dependencies (the first of each alternative) installed, so
# that the test's own install and purge are of clkstat's packages alone.
setup_base() {
	local deps
	deps=$( { dpkg-deb -f "$dkms_deb" Depends; dpkg-deb -f "$tools_deb" Depends; } |
		tr ',' '\n' | sed 's/|.*//; s/(.*)//; s/[[:space:]]//g' | grep . | sort -u)
	# shellcheck disable=SC2086  # one package a word
	quietly tools/vm/bookworm-root.sh "$gkver" $deps
}
t0=$(now_ms)
if setup_base; then
	ok "bookworm chroot $base: dkms, systemd, linux-headers-$gkver ($(since_ms "$t0") s)"
else
	not_ok "bookworm chroot $base (log: $flog)"
	finish
fi
times+=("chroot setup: $(since_ms "$t0") s")

# The copy the packages go into: the cached chroot stays as it was.
root=$work/root
cleanup() { rm -rf "$root"; }
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
rm -rf "$root"
t0=$(now_ms)
if ! { exec 8> "$cache/deb/bookworm.lock"; flock -s 8 && cp -a "$base" "$root"; exec 8>&-; }; then
	not_ok "copy of $base"
	finish
fi
times+=("chroot copy: $(since_ms "$t0") s")

# What the install may change and the purge must put back: every path of
# the tree but apt's and dpkg's own records, logs and caches.
tree() {
	(cd "$root" && find . -xdev \( -path ./proc -o -path ./dev -o -path ./tmp -o -path ./run \
		-o -path ./var/lib/dpkg -o -path ./var/lib/apt -o -path ./var/cache \
		-o -path ./var/log -o -path ./var/tmp -o -path ./var/lib/systemd/deb-systemd-helper-enabled \
		-o -path ./var/lib/systemd/deb-systemd-helper-masked \) -prune -o -print |
		grep -vxE '\./var/lib/dkms/mok\.(key|pub)' | sort)
	# (dkms's signing key, made at its first build: dkms's, for every
	# module it builds, not clkstat's)
}
tree > "$work/tree-before"
# deb-systemd-helper's own records: empty of clkstat after a purge.
dsh=$root/var/lib/systemd/deb-systemd-helper-enabled

mkdir -p "$root/tmp/debs"
cp "$dkms_deb" "$tools_deb" "$root/tmp/debs/"
t0=$(now_ms)
if in_root "$root" apt-get install -y --no-install-recommends \
	"/tmp/debs/${dkms_deb##*/}" "/tmp/debs/${tools_deb##*/}" > "$work/install.log" 2>&1; then
	ok "apt-get install clkstat-dkms clkstat-tools in the chroot ($(since_ms "$t0") s, the DKMS build included)"
else
	tail -n 25 "$work/install.log" | indent
	not_ok "apt-get install clkstat-dkms clkstat-tools in the chroot (see $work/install.log)"
	finish
fi
times+=("install (DKMS build for $gkver): $(since_ms "$t0") s")
newdeps=$(grep -E '^(Setting up|Unpacking) ' "$work/install.log" | sed -E 's/^(Setting up|Unpacking) ([^ ]+).*/\2/' |
	grep -vE '^clkstat-(dkms|tools)(:|$)' | sort -u | xargs)
check "the install installed clkstat's packages alone${newdeps:+ (and $newdeps)}" [ -z "$newdeps" ]

st=$(in_root "$root" dkms status "clkstat/$ver" -k "$gkver" 2>&1 | grep -v '^readelf: Warning')
check "dkms status in the chroot: '$st'" grep -q "clkstat/$ver, $gkver, x86_64: installed" <<< "$st"
# (compressed as the kernel's own modules are: .ko.xz on Debian's 6.12)
mods=$(cd "$root/lib/modules/$gkver/updates/dkms" 2>/dev/null && ls)
check "/lib/modules/$gkver/updates/dkms holds clkstat.ko alone ('${mods//$'\n'/ }')" \
	grep -qxE 'clkstat\.ko(\.xz|\.zst|\.gz)?' <<< "$mods"
ko=$root/lib/modules/$gkver/updates/dkms/$mods
case $ko in
*.xz) unz="xz -dc" ;; *.zst) unz="zstd -dc" ;; *.gz) unz="gzip -dc" ;; *) unz="cat" ;;
esac
vm=$(modinfo -F vermagic "$ko" 2>/dev/null) mv=$(modinfo -F version "$ko" 2>/dev/null)
check "clkstat.ko: vermagic '${vm%% *}', version '$mv'" test "${vm%% *}" = "$gkver" -a "$mv" = "$ver"
# The headers of 6.12 ship a BTF vmlinux: gen_rq_offsets.sh found struct
# rq's layout (pahole from the dwarves dependency); 6.1's have none.
if [ -e "$root/lib/modules/$gkver/build/vmlinux" ]; then
	check "clkstat.ko: struct rq's layout from the headers' BTF (no 'no BTF')" \
		test "$($unz "$ko" | grep -ac -e "no BTF for $gkver" -e 'no pahole to read')" = 0
fi
check "modules.dep of $gkver in the chroot has updates/dkms/clkstat.ko" \
	grep -q '^updates/dkms/clkstat\.ko' "$root/lib/modules/$gkver/modules.dep"
en=$(in_root "$root" systemctl is-enabled clkstat-exporter.service 2>&1)
check "clkstat-exporter.service is enabled ('$en')" [ "$en" = enabled ]
out=$(in_root "$root" systemd-analyze verify /lib/systemd/system/clkstat-exporter.service 2>&1)
rc=$?
if [ $rc = 0 ] && ! grep -q clkstat <<< "$out"; then
	ok "systemd-analyze verify clkstat-exporter.service"
else
	echo "$out" | indent
	not_ok "systemd-analyze verify clkstat-exporter.service (exit status $rc)"
fi
out=$(in_root "$root" clkstat-report --version 2>&1)
check "the installed clkstat-report runs in the chroot: '$out'" grep -q "$ver" <<< "$out"
out=$(in_root "$root" man -w clkstat-report 2>&1)
check "man finds the installed man page: $out" test "$out" = /usr/share/man/man1/clkstat-report.1.gz

# --- the guest ---------------------------------------------------------------
# A QEMU guest on that kernel with the chroot as its root
# (run-guest.sh --root): modprobe loads the installed module with the
# parameters of the conffile /etc/modprobe.d/clkstat.conf, the
# installed clkstat-report reads it (`info`, and the wakeups of a
# workload counted), then rmmod.

# The module's parameters come from the conffile, as at boot.
echo "options clkstat probes=ttwu,tkread events=64" >> "$root/etc/modprobe.d/clkstat.conf"
cat > "$root/root/deb-guest.sh" <<'EOF'
#!/bin/bash
# In the guest, with the chroot as root: the installed module and tools.
n=0
echo
ok() { echo "guest-ok - $*"; }
not_ok() { echo "guest-not-ok - $*"; }
k=$(uname -r)
f=$(modinfo -F filename clkstat 2>&1)
[[ $f == /lib/modules/$k/updates/dkms/clkstat.ko* ]] && ok "modinfo: $f" || not_ok "modinfo: $f"
if out=$(modprobe clkstat 2>&1); then ok "modprobe clkstat"; else not_ok "modprobe clkstat: $out"; exit 0; fi
p=$(cat /sys/module/clkstat/parameters/probes) e=$(cat /sys/module/clkstat/parameters/events)
[ "$p" = ttwu,tkread ] && [ "$e" = 64 ] &&
	ok "parameters from /etc/modprobe.d/clkstat.conf: probes=$p events=$e" ||
	not_ok "parameters from /etc/modprobe.d/clkstat.conf: probes=$p events=$e"
out=$(clkstat-report info 2>&1)
echo "$out" | sed 's/^/# /'
grep -q "^version $1\$" <<< "$out" && grep -q '^probes ttwu,tkread' <<< "$out" &&
	ok "clkstat-report info: version $1, probes ttwu,tkread" || not_ok "clkstat-report info"
clkstat-report ctrl reset > /dev/null 2>&1 || echo reset > /sys/kernel/debug/clkstat/control
# A workload whose wakeups the module counts: 200 sleeps, each ended by a
# timer's wakeup of this task.
for i in $(seq 200); do sleep 0.005; done
csv=$(clkstat-report --csv 2>&1)
echo "$csv" | sed 's/^/# /'
c=$(awk -F, '$1 == "ttwu_enqueue" && $3 == "all" { print $4 }' <<< "$csv")
[ "${c:-0}" -ge 200 ] 2>/dev/null && ok "clkstat-report --csv: ttwu_enqueue counted $c wakeups (>= 200 sleeps)" ||
	not_ok "clkstat-report --csv: ttwu_enqueue count '$c', want >= 200"
if out=$(rmmod clkstat 2>&1); then ok "rmmod clkstat"; else not_ok "rmmod clkstat: $out"; fi
EOF
t0=$(now_ms)
gout=$work/guest
CLKSTAT_QEMU_ARGS="" tools/vm/run-guest.sh --kver "$line" --root "$root" --out "$gout" --timeout 600 \
	-- /bin/bash /root/deb-guest.sh "$ver" > "$work/guest.log" 2>&1
rc=$?
times+=("guest: $(since_ms "$t0") s")
grep -E '^# ' "$gout/console.log" | tr -d '\r' | indent
# (a line may follow the firmware's last words on the console's line)
while IFS= read -r l; do
	case "$l" in
	guest-ok\ -\ *) ok "guest $gkver: ${l#guest-ok - }" ;;
	guest-not-ok\ -\ *) not_ok "guest $gkver: ${l#guest-not-ok - }" ;;
	esac
done < <(tr -d '\r' < "$gout/console.log" | grep -oE 'guest-(not-)?ok - .*')
n=$(grep -oE 'guest-ok - ' "$gout/console.log" | grep -c .)
if [ $rc = 0 ] && [ "$n" = 6 ]; then
	ok "guest on $gkver with the chroot as root: 6 checks passed ($(since_ms "$t0") s)"
else
	grep -v '^# ' "$gout/console.log" | tail -n 20 | indent
	not_ok "guest on $gkver: exit status $rc, $n of 6 checks passed (see $gout/console.log)"
fi
bad=$(grep -E 'BUG:|WARNING:|Oops|Call Trace' "$gout/console.log" | head -5)
check "the guest's console has no kernel complaint${bad:+: $bad}" [ -z "$bad" ]

# --- the unit at boot -----------------------------------------------------------
# The same chroot booted with its own systemd as init (run-guest.sh
# --init), with a user's /etc/default/clkstat-exporter: the unit at
# boot (the module's parameters, the dynamic user and its
# capabilities, where it listens, a scrape, stop/rmmod/start, its
# journal), checked by tools/tests/deb_boot.sh in the guest.

# The chroot boots with its own systemd as init (run-guest.sh --init), as
# a machine with the packages installed does, with a user's settings:
# the module's parameters above, and in /etc/default/clkstat-exporter a
# listen address (not the default one) and serve's --host.  A oneshot
# unit ordered after the exporter's runs deb_boot.sh (what it checks:
# there), which writes its results to the results folder; the unit then
# reboots the guest.  The test's files go again before the remove and
# purge below.
listen=127.0.0.2:19736 bhost=fleet-test-1
sed -i -e "s/^CLKSTAT_LISTEN=.*/CLKSTAT_LISTEN=$listen/" \
	-e "s/^CLKSTAT_SERVE_OPTS=.*/CLKSTAT_SERVE_OPTS=--host $bhost/" "$root/etc/default/clkstat-exporter"
cp tools/tests/deb_boot.sh "$root/root/deb_boot.sh"
bunit=$root/etc/systemd/system/clkstat-boot-test.service
bwants=$root/etc/systemd/system/multi-user.target.wants/clkstat-boot-test.service
printf '%s\n' '[Unit]' \
	'Description=clkstat-exporter.service at boot (tools/tests/deb.sh)' \
	'After=clkstat-exporter.service' 'SuccessAction=reboot' 'FailureAction=reboot' '' \
	'[Service]' 'Type=oneshot' \
	"ExecStart=/bin/bash /root/deb_boot.sh $listen $bhost ttwu,tkread 64" \
	'StandardOutput=journal+console' > "$bunit"
ln -s /etc/systemd/system/clkstat-boot-test.service "$bwants"
t0=$(now_ms)
bout=$work/boot
rm -rf "$bout"
tools/vm/run-guest.sh --kver "$line" --root "$root" --init /lib/systemd/systemd --out "$bout" \
	--timeout 600 > "$work/boot.log" 2>&1
rc=$?
times+=("boot with systemd: $(since_ms "$t0") s")
rm -f "$bunit" "$bwants" "$root/root/deb_boot.sh"
grep -E '^# ' "$bout/boot.txt" 2> /dev/null | indent
while IFS= read -r l; do
	case "$l" in
	unit-ok\ -\ *) ok "boot $gkver: ${l#unit-ok - }" ;;
	unit-not-ok\ -\ *) not_ok "boot $gkver: ${l#unit-not-ok - }" ;;
	esac
done < <(grep -E '^unit-(not-)?ok - ' "$bout/boot.txt" 2> /dev/null)
# deb_boot.sh's checks, each of which must have run and passed.
nchecks=14
n=$(grep -c '^unit-ok - ' "$bout/boot.txt" 2> /dev/null)
if [ $rc = 0 ] && [ "${n:-0}" = $nchecks ]; then
	ok "booted the chroot with systemd on $gkver: $nchecks checks of the unit passed ($(since_ms "$t0") s)"
else
	tr -d '\r' < "$bout/console.log" | tail -n 30 | indent
	not_ok "boot with systemd on $gkver: exit status $rc, ${n:-0} of $nchecks checks passed (see $bout/console.log)"
fi
bad=$(grep -E 'BUG:|WARNING:|Oops|Call Trace' "$bout/console.log" | head -5)
check "the booted guest's console has no kernel complaint${bad:+: $bad}" [ -z "$bad" ]

# --- remove and purge ---------------------------------------------------------
# `apt-get remove` (module, DKMS tree and programs gone, conffiles
# kept) and `apt-get purge` (every file as before the install).

t0=$(now_ms)
if in_root "$root" apt-get remove -y clkstat-dkms clkstat-tools > "$work/remove.log" 2>&1; then
	ok "apt-get remove clkstat-dkms clkstat-tools ($(since_ms "$t0") s)"
else
	tail -n 15 "$work/remove.log" | indent
	not_ok "apt-get remove (see $work/remove.log)"
fi
left=$(cd "$root" && ls -d var/lib/dkms/clkstat "usr/src/clkstat-$ver" usr/bin/clkstat-report \
	lib/systemd/system/clkstat-exporter.service lib/modules/*/updates/dkms/clkstat.ko* 2>/dev/null)
grep -qs clkstat "$root/lib/modules/$gkver/modules.dep" && left="$left modules.dep"
check "after remove: no module, DKMS tree, program or unit${left:+ (left: ${left//$'\n'/ })}" [ -z "$left" ]
check "after remove: the conffiles are kept" \
	test -f "$root/etc/default/clkstat-exporter" -a -f "$root/etc/modprobe.d/clkstat.conf"
t0=$(now_ms)
if in_root "$root" apt-get purge -y clkstat-dkms clkstat-tools > "$work/purge.log" 2>&1; then
	ok "apt-get purge clkstat-dkms clkstat-tools ($(since_ms "$t0") s)"
else
	tail -n 15 "$work/purge.log" | indent
	not_ok "apt-get purge (see $work/purge.log)"
fi
rm -rf "$root/tmp/debs" "$root/root/deb-guest.sh"
tree > "$work/tree-after"
d=$(diff "$work/tree-before" "$work/tree-after")
if [ -z "$d" ]; then
	ok "after purge: every file of the chroot as before the install"
else
	echo "$d" | head -20 | indent
	not_ok "after purge: the chroot differs from before the install"
fi
st=$(in_root "$root" dpkg-query -W -f='${db:Status-Abbrev}${Package}\n' clkstat-dkms clkstat-tools 2>/dev/null | grep -v '^un' || true)
check "after purge: dpkg knows no clkstat package${st:+ ($st)}" [ -z "$st" ]
hl=$(grep -rl clkstat "$dsh" 2>/dev/null)
check "after purge: deb-systemd-helper has no record of the unit${hl:+ ($hl)}" [ -z "$hl" ]

for t in "${times[@]}"; do
	echo "# time: $t"
done
finish

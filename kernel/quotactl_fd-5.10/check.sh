#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check.sh - verify the quotactl_fd(2) backport series for Linux 5.10.
#
# Fetches Debian 11's linux-source-5.10 through a private apt configuration
# (the host's apt sources are not touched), applies the series in this
# directory to a fresh copy, runs checkpatch on every patch, compiles the
# touched objects with the kernel's own build (x86_64 defconfig with x32
# added, an i386 configuration without CONFIG_BLOCK, and arm64 defconfig
# with Debian's cross compiler), checks the syscall slots in the compiled
# x86 and arm64 tables (native and compat), and regenerates the syscall
# headers and tables of every other architecture to check their numbers.
#
# Nothing here boots a patched kernel: see kernel/README.
#
# Usage: check.sh [--install-deps] [--refresh] [--offline] [--keep] [--quick]
#                 [-j N]
#
#   --install-deps  install missing Debian packages with apt-get (as root)
#   --quick         skip the i386 BLOCK=n build, arm64 and the other
#                   architectures
#   --refresh       ask the archive for a newer linux-source-5.10 now
#   --offline       use only what is already in the cache
#   --keep          keep the patched tree and build directories
#   -j N            parallel make jobs (default: number of CPUs)
#
# Environment:
#   QFD_CACHE         cache directory (default /var/cache/qfd as root; the
#                     source package is kept in its ksrc/, see kernel/lib.bash)
#   QFD_KSRC_VERSION  pin a linux-source-5.10 version, e.g. 5.10.262-1
#
# Output: TAP lines ("ok N - ...", "not ok N - ...") and a last line
# "RESULT: N passed, N failed, N skipped"; the exit status is 0 only if
# nothing failed.

set -u -o pipefail
export LC_ALL=C
# Run from "make -j2 check", we inherit make's jobserver in MAKEFLAGS: the
# kernel's own make would then warn "-jN forced in submake" into the build
# log, and the build step fails on any warning.  The kernel builds here are
# not part of the caller's job graph; they get a clean make environment.
unset MAKEFLAGS MFLAGS MAKELEVEL MAKE_TERMOUT MAKE_TERMERR

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# The cache, the release that carries 5.10 and the source download are
# kernel/lib.bash's, shared with the kernel builder and the VM.
# shellcheck source=../lib.bash
. "$HERE/../lib.bash"
CACHE=$(qfd_cache) || { echo "check.sh: cannot create the cache directory" >&2; exit 1; }
PIN=${QFD_KSRC_VERSION:-}
JOBS=$(nproc 2>/dev/null || echo 2)
INSTALL_DEPS=0
REFRESH=0
KEEP=0
QUICK=0

# Debian packages the check needs on a fresh Debian 12 machine.
DEB_PKGS="build-essential bc bison flex libssl-dev libelf-dev perl patch
	xz-utils binutils apt debian-archive-keyring gcc-aarch64-linux-gnu ccache"
# arm64's tools, from gcc-aarch64-linux-gnu (and the binutils it brings)
ARM64_CROSS=aarch64-linux-gnu-

usage() { sed -n '/^# Usage:/,/^# Output:/p' "$0" | sed 's/^# \{0,1\}//'; }

while [ $# -gt 0 ]; do
	case $1 in
	--install-deps) INSTALL_DEPS=1 ;;
	--refresh) REFRESH=1 ;;
	--offline) export QFD_OFFLINE=1 ;;
	--keep) KEEP=1 ;;
	--quick) QUICK=1 ;;
	-j) shift; JOBS=${1:?-j needs a number} ;;
	-j*) JOBS=${1#-j} ;;
	-h|--help) usage; exit 0 ;;
	*) echo "check.sh: unknown option '$1'" >&2; usage >&2; exit 2 ;;
	esac
	shift
done

PATCHES=()
for p in "$HERE"/[0-9][0-9][0-9][0-9]-*.patch; do
	[ -f "$p" ] && PATCHES+=("$p")
done

# Everything of this check lives under one directory of the cache: the
# downloads, shared by all runs (under a lock), and one run.XXXXXX
# directory per run (the tree, removed at the end, and the logs), so that
# runs at the same time do not disturb each other.
BASE=$CACHE/quotactl_fd-5.10
RUN=
WORK=
LOGS=
SRC=
OUT=
OUT_NOBLK=

T0=$(date +%s)
N=0
PASSED=0
FAILED=0
SKIPPED=0
FAILED_STEPS=()

say() { printf '%s\n' "$*"; }
note() { printf '# %s\n' "$*"; }

# run_step NAME FUNCTION: run FUNCTION with its output in a log file, print
# one TAP line with the time it took, and on failure the end of the log.
run_step() {
	local name=$1 fn=$2 t rc log
	N=$((N + 1))
	log=$LOGS/$(printf '%02d' "$N")-$fn.log
	note "step $N: $name"
	t=$(date +%s)
	"$fn" >"$log" 2>&1
	rc=$?
	t=$(($(date +%s) - t))
	if [ $rc -eq 0 ]; then
		PASSED=$((PASSED + 1))
		say "ok $N - $name (${t}s)"
		grep '^INFO: ' "$log" | sed 's/^INFO: /#   /'
	else
		FAILED=$((FAILED + 1))
		FAILED_STEPS+=("$name")
		say "not ok $N - $name (${t}s)"
		grep '^INFO: ' "$log" | sed 's/^INFO: /#   /'
		note "  last lines of $log:"
		tail -n 25 "$log" | sed 's/^/#   | /'
	fi
	return $rc
}

# skip_step NAME REASON: a step that cannot run because an earlier one
# failed counts as failed, so a broken prerequisite never looks green.
skip_step() {
	N=$((N + 1))
	FAILED=$((FAILED + 1))
	FAILED_STEPS+=("$1")
	say "not ok $N - $1 # SKIP $2"
}

# quick_skip NAME: a step left out on purpose (--quick).
quick_skip() {
	N=$((N + 1))
	SKIPPED=$((SKIPPED + 1))
	say "ok $N - $1 # SKIP --quick"
}

finish() {
	if [ $KEEP -eq 0 ]; then
		local t
		t=$(date +%s)
		rm -rf "$WORK"
		note "removed the work tree in $(($(date +%s) - t))s"
	else
		note "kept: $WORK"
	fi
	note "logs: $LOGS"
	note "total time: $(($(date +%s) - T0))s"
	say "1..$N"
	if [ $FAILED -gt 0 ]; then
		note "failed: ${FAILED_STEPS[*]}"
	fi
	say "RESULT: $PASSED passed, $FAILED failed, $SKIPPED skipped"
	[ $FAILED -eq 0 ]
	exit $?
}

# ---------------------------------------------------------------- steps

missing_pkgs() {
	local miss=() c
	for c in gcc make bc bison flex perl patch xz objdump nm cpp apt-get \
		dpkg-deb flock "${ARM64_CROSS}gcc" "${ARM64_CROSS}objdump" \
		"${ARM64_CROSS}nm"; do
		command -v "$c" >/dev/null 2>&1 || miss+=("$c")
	done
	[ -f /usr/include/libelf.h ] || miss+=("libelf.h")
	[ -f /usr/include/openssl/opensslv.h ] || miss+=("openssl/opensslv.h")
	[ -f /usr/share/keyrings/debian-archive-keyring.gpg ] ||
		miss+=("debian-archive-keyring.gpg")
	printf '%s\n' "${miss[@]}"
}

step_deps() {
	local miss
	miss=$(missing_pkgs)
	if [ -n "$miss" ] && [ $INSTALL_DEPS -eq 1 ]; then
		if [ "$(id -u)" != 0 ]; then
			echo "--install-deps needs root"
			return 1
		fi
		echo "missing: $miss; installing: $DEB_PKGS"
		export DEBIAN_FRONTEND=noninteractive
		apt-get update -q || return 1
		# shellcheck disable=SC2086
		apt-get install -y -q --no-install-recommends $DEB_PKGS ||
			return 1
		miss=$(missing_pkgs)
	fi
	if [ -n "$miss" ]; then
		echo "missing tools or headers:" $miss
		echo "install: apt-get install --no-install-recommends" $DEB_PKGS
		echo "(or run this script as root with --install-deps)"
		return 1
	fi
	if [ "$(uname -m)" != x86_64 ]; then
		echo "the build steps need an x86_64 host (this is $(uname -m))"
		return 1
	fi
	echo "INFO: gcc $(gcc -dumpfullversion), make $(make --version | sed -n '1s/.* //p'), $JOBS jobs"
	[ ${#PATCHES[@]} -gt 0 ] || { echo "no NNNN-*.patch in $HERE"; return 1; }
	echo "INFO: series: ${#PATCHES[@]} patches in $HERE"
}

step_fetch() {
	local tarball
	if [ $REFRESH -eq 1 ]; then
		qfd_apt_update 5.10 now || return 1
	fi
	tarball=$(qfd_ksource 5.10 "$PIN") || return 1
	echo "$tarball" >"$RUN/tarball"
	echo "INFO: ${tarball##*/} ($(du -m "$tarball" | cut -f1) MB)"
}

# What the checks need of the 75,000 files of the tree (about a quarter
# of them): the Kconfig files everywhere (defconfig reads them all), what
# "prepare" builds (scripts, include, the x86 tree, objtool and its
# libraries), the directories of the objects built, and the syscall
# headers and tables of the other architectures, without their C, assembly
# and device tree sources.  GNU tar's '*' also matches '/' here.
TAR_INCLUDE="Makefile Kbuild Kconfig *Kconfig* scripts include init kernel
	fs mm lib block crypto security certs usr ipc arch tools/objtool
	tools/Makefile tools/lib tools/include tools/arch/x86 tools/build
	tools/scripts"
# C and assembly of x86 and arm64 only (the two architectures compiled):
# the patterns match across "/", so "arch/[!xa]*.c" is every .c under
# arch/ but those of x86, xtensa and the a-named ones, named one by one
TAR_EXCLUDE="--exclude=*.dts --exclude=*.dtsi"
for a in '[!xa]' alpha/ arc/ arm/ xtensa/; do
	TAR_EXCLUDE+=" --exclude=linux-source-5.10/arch/$a*.c"
	TAR_EXCLUDE+=" --exclude=linux-source-5.10/arch/$a*.S"
done
unset a

step_unpack() {
	local tarball
	tarball=$(cat "$RUN/tarball") || return 1
	rm -rf "$WORK" && mkdir -p "$WORK" || return 1
	local -
	set -f	# the patterns are for tar, not for the shell
	# shellcheck disable=SC2086,SC2046
	tar -xJf "$tarball" -C "$WORK" --wildcards $TAR_EXCLUDE \
		$(printf 'linux-source-5.10/%s ' $TAR_INCLUDE) || return 1
	[ -f "$SRC/Makefile" ] || return 1
	echo "INFO: Linux $(make -s -C "$SRC" kernelversion 2>/dev/null) from ${tarball##*/}"
}

step_apply() {
	local p out
	cd "$SRC" || return 1
	for p in "${PATCHES[@]}"; do
		echo "== $(basename "$p")"
		# Strict: no fuzz, no reversed hunks; offsets are reported.
		out=$(patch -p1 -N --fuzz=0 --dry-run <"$p" 2>&1) || {
			echo "$out"
			echo "does not apply: $(basename "$p")"
			return 1
		}
		echo "$out"
		if grep -q 'offset' <<<"$out"; then
			echo "INFO: $(basename "$p") applies with offsets"
		fi
		patch -p1 -N --fuzz=0 --no-backup-if-mismatch -s <"$p" ||
			return 1
	done
	echo "INFO: all ${#PATCHES[@]} patches apply without fuzz"
}

step_checkpatch() {
	local p res err=0 e w
	cd "$SRC" || return 1
	for p in "${PATCHES[@]}"; do
		echo "== $(basename "$p")"
		res=$(perl scripts/checkpatch.pl --no-tree --color=never \
			--show-types "$p" 2>&1)
		echo "$res"
		res=$(grep -E '^total: [0-9]+ errors?, [0-9]+ warnings?' <<<"$res")
		if [ -z "$res" ]; then
			echo "checkpatch gave no verdict on $(basename "$p")"
			err=1
			continue
		fi
		e=$(sed -E 's/^total: ([0-9]+) error.*/\1/' <<<"$res")
		w=$(sed -E 's/^total: [0-9]+ errors?, ([0-9]+) warning.*/\1/' <<<"$res")
		echo "INFO: $(basename "$p"): $e errors, $w warnings"
		[ "$e" -eq 0 ] || err=1
	done
	return $err
}

# Fail on any compiler or kbuild warning: the tree builds these objects
# cleanly before the series is applied.
no_warnings() {
	if grep -nE 'warning:|error:|Error [0-9]|not implemented' "$1"; then
		echo "build printed warnings or errors (above)"
		return 1
	fi
}

X86_OBJS="fs/quota/quota.o kernel/sys_ni.o arch/x86/entry/syscall_64.o
	arch/x86/entry/syscall_32.o arch/x86/entry/syscall_x32.o"

step_build() {
	local blog=$WORK/build-defconfig.log
	cd "$SRC" || return 1
	"${KMAKE[@]}" -s O="$OUT" defconfig || return 1
	# defconfig has IA32_EMULATION but not X86_X32: add it so that the
	# x32 table is compiled too.
	scripts/config --file "$OUT/.config" --enable X86_X32 || return 1
	"${KMAKE[@]}" -s O="$OUT" olddefconfig || return 1
	grep -E '^CONFIG_(QUOTACTL|IA32_EMULATION|X86_X32|BLOCK)=y' "$OUT/.config"
	for c in QUOTACTL IA32_EMULATION X86_X32 BLOCK; do
		grep -q "^CONFIG_$c=y" "$OUT/.config" ||
			{ echo "CONFIG_$c is not set"; return 1; }
	done
	# shellcheck disable=SC2086
	"${KMAKE[@]}" -j"$JOBS" O="$OUT" $X86_OBJS >"$blog" 2>&1
	local rc=$?
	cat "$blog"
	[ $rc -eq 0 ] || return 1
	no_warnings "$blog" || return 1
	echo "INFO: built $(echo $X86_OBJS | wc -w) objects, no warnings"
}

# check_slot OBJ TABLE NR WANT: the pointer in TABLE (a symbol in OBJ) at
# index NR must be relocated against WANT.  $CROSS names the binutils of
# another architecture (the host's read only x86 relocations).
check_slot() {
	local obj=$1 table=$2 nr=$3 want=$4 base off got
	base=$("${CROSS:-}nm" "$obj" | awk -v t="$table" '$3 == t { print $1 }')
	[ -n "$base" ] || { echo "$table not in $obj"; return 1; }
	off=$(printf '%016x' $((0x$base + nr * 8)))
	got=$("${CROSS:-}objdump" -r -j .rodata "$obj" |
		awk -v o="$off" '($1 "") == (o "") { print $3 }')
	echo "$(basename "$obj") ${table}[$nr] -> ${got:-nothing}"
	[ "$got" = "$want" ]
}

step_verify_x86() {
	local gen=$OUT/arch/x86/include/generated err=0
	local e64=$OUT/arch/x86/entry/syscall_64.o
	local e32=$OUT/arch/x86/entry/syscall_32.o
	local ex32=$OUT/arch/x86/entry/syscall_x32.o
	grep -n quotactl_fd "$gen"/uapi/asm/unistd_*.h
	grep -Eq '^#define __NR_quotactl_fd[[:space:]]+443$' \
		"$gen/uapi/asm/unistd_64.h" ||
		{ echo "unistd_64.h: no __NR_quotactl_fd 443"; err=1; }
	grep -Eq '^#define __NR_quotactl_fd[[:space:]]+443$' \
		"$gen/uapi/asm/unistd_32.h" ||
		{ echo "unistd_32.h: no __NR_quotactl_fd 443"; err=1; }
	grep -Eq '^#define __NR_quotactl_fd[[:space:]]+\(__X32_SYSCALL_BIT \+ 443\)$' \
		"$gen/uapi/asm/unistd_x32.h" ||
		{ echo "unistd_x32.h: no __NR_quotactl_fd x32|443"; err=1; }
	# The compiled tables: 441 and 442 stay empty, 443 is the new call.
	check_slot "$e64" sys_call_table 441 __x64_sys_ni_syscall || err=1
	check_slot "$e64" sys_call_table 442 __x64_sys_ni_syscall || err=1
	check_slot "$e64" sys_call_table 443 __x64_sys_quotactl_fd || err=1
	check_slot "$e64" sys_call_table 179 __x64_sys_quotactl || err=1
	check_slot "$e32" ia32_sys_call_table 442 __ia32_sys_ni_syscall || err=1
	check_slot "$e32" ia32_sys_call_table 443 __ia32_sys_quotactl_fd || err=1
	check_slot "$ex32" x32_sys_call_table 443 __x64_sys_quotactl_fd || err=1
	# The object itself defines the entry points; sys_ni.o only has the
	# weak fallback for kernels built without CONFIG_QUOTACTL.
	local nm_quota nm_ni
	nm_quota=$(nm "$OUT/fs/quota/quota.o") || err=1
	nm_ni=$(nm "$OUT/kernel/sys_ni.o") || err=1
	grep quotactl_fd <<<"$nm_quota"
	grep quotactl_fd <<<"$nm_ni"
	for s in __x64_sys_quotactl_fd __ia32_sys_quotactl_fd; do
		grep -Eq " T $s\$" <<<"$nm_quota" ||
			{ echo "quota.o does not define $s"; err=1; }
		grep -Eq " W $s\$" <<<"$nm_ni" ||
			{ echo "sys_ni.o has no weak $s"; err=1; }
	done
	[ $err -eq 0 ] &&
		echo "INFO: x86_64, i386 and x32 tables: 443 -> quotactl_fd; 441, 442 empty; quota.o exports the entry points"
	return $err
}

# A second, small configuration: 32-bit x86 (no objtool needed, so cheap)
# without CONFIG_BLOCK, where quotactl(2) has no way to find a filesystem
# but quotactl_fd() must still build.
step_build_noblock() {
	local blog=$WORK/build-noblock.log rc
	cd "$SRC" || return 1
	"${KMAKE[@]}" -s O="$OUT_NOBLK" ARCH=i386 tinyconfig >/dev/null || return 1
	scripts/config --file "$OUT_NOBLK/.config" --disable BLOCK \
		--enable QUOTA --enable QUOTACTL || return 1
	"${KMAKE[@]}" -s O="$OUT_NOBLK" ARCH=i386 olddefconfig || return 1
	grep -q '^CONFIG_QUOTACTL=y' "$OUT_NOBLK/.config" &&
		grep -q '^CONFIG_X86_32=y' "$OUT_NOBLK/.config" &&
		! grep -q '^CONFIG_BLOCK=y' "$OUT_NOBLK/.config" ||
		{ echo "could not make an i386 QUOTACTL=y BLOCK=n config"; return 1; }
	"${KMAKE[@]}" -j"$JOBS" O="$OUT_NOBLK" ARCH=i386 fs/quota/quota.o >"$blog" 2>&1
	rc=$?
	cat "$blog"
	[ $rc -eq 0 ] || return 1
	no_warnings "$blog" || return 1
	nm "$OUT_NOBLK/fs/quota/quota.o" | grep ' T __ia32_sys_quotactl_fd$' ||
		{ echo "no quotactl_fd in the BLOCK=n quota.o"; return 1; }
	echo "INFO: i386, CONFIG_BLOCK=n: fs/quota/quota.o builds without warnings and defines __ia32_sys_quotactl_fd"
}

# arm64 compiled for real, with Debian's cross compiler: the generated
# headers and the preprocessor checks below say what the numbers are, this
# says what the kernel's own build makes of them.  defconfig has COMPAT,
# so both tables (sys.c's from asm-generic/unistd.h, sys32.c's from
# asm/unistd32.h) are built.
ARM64_OBJS="fs/quota/quota.o kernel/sys_ni.o arch/arm64/kernel/sys.o
	arch/arm64/kernel/sys32.o"

step_build_arm64() {
	local blog=$WORK/build-arm64.log rc c err=0
	local -a mk=(make "HOSTCC=$KCC" "CC=$CCW${ARM64_CROSS}gcc"
		O="$OUT_ARM64" ARCH=arm64 CROSS_COMPILE="$ARM64_CROSS")
	cd "$SRC" || return 1
	"${mk[@]}" -s defconfig || return 1
	for c in QUOTACTL COMPAT BLOCK; do
		grep -q "^CONFIG_$c=y" "$OUT_ARM64/.config" ||
			{ echo "arm64 defconfig: CONFIG_$c is not set"; return 1; }
	done
	# shellcheck disable=SC2086
	"${mk[@]}" -j"$JOBS" $ARM64_OBJS >"$blog" 2>&1
	rc=$?
	cat "$blog"
	[ $rc -eq 0 ] || return 1
	no_warnings "$blog" || return 1
	local k=$OUT_ARM64/arch/arm64/kernel
	CROSS=$ARM64_CROSS check_slot "$k/sys.o" sys_call_table 442 __arm64_sys_ni_syscall || err=1
	CROSS=$ARM64_CROSS check_slot "$k/sys.o" sys_call_table 443 __arm64_sys_quotactl_fd || err=1
	CROSS=$ARM64_CROSS check_slot "$k/sys.o" sys_call_table 60 __arm64_sys_quotactl || err=1
	CROSS=$ARM64_CROSS check_slot "$k/sys32.o" compat_sys_call_table 442 __arm64_sys_ni_syscall || err=1
	CROSS=$ARM64_CROSS check_slot "$k/sys32.o" compat_sys_call_table 443 __arm64_sys_quotactl_fd || err=1
	"${ARM64_CROSS}nm" "$OUT_ARM64/fs/quota/quota.o" | grep -E ' T __arm64_sys_quotactl_fd$' ||
		{ echo "arm64 quota.o does not define __arm64_sys_quotactl_fd"; err=1; }
	[ $err -eq 0 ] &&
		echo "INFO: arm64 defconfig ($("${ARM64_CROSS}gcc" -dumpfullversion)): native and compat tables 443 -> quotactl_fd, 442 empty, no warnings"
	return $err
}

# uapi_nr ARCH CPPFLAGS...: value of __NR_quotactl_fd as userspace sees it
# through <asm/unistd.h> of ARCH (after "make archheaders").
uapi_nr() {
	local a=$1 hdr=$WORK/hdr-$1 expr
	shift
	expr=$(printf '#include <asm/unistd.h>\nQFD_NR=__NR_quotactl_fd\n' |
		cpp -P -undef -nostdinc "$@" \
			-I"$hdr/arch/$a/include/generated/uapi" \
			-I"$SRC/arch/$a/include/uapi" -I"$SRC/include/uapi" - |
		sed -n 's/^QFD_NR=//p')
	case $expr in
	*[!0-9a-fA-Fx\ \(\)+]*|'') echo "?$expr"; return 1 ;;
	esac
	echo $((expr))
}

# expect_nr LABEL WANT ARCH CPPFLAGS...
expect_nr() {
	local label=$1 want=$2 got
	shift 2
	got=$(uapi_nr "$@")
	printf '%-22s __NR_quotactl_fd = %s (want %s)\n' "$label" "$got" "$want"
	[ "$got" = "$want" ]
}

# expect_tbl FILE NR: a generated kernel table puts sys_quotactl_fd at NR,
# and the two slots below it are empty.
expect_tbl() {
	local f=$1 nr=$2 err=0
	grep -Eq "^__SYSCALL\($nr, *sys_quotactl_fd[,)]" "$f" || err=1
	grep -Eq "^__SYSCALL\($((nr - 1)), *sys_nis?_syscall[,)]" "$f" || err=1
	grep -Eq "^__SYSCALL\($((nr - 2)), *sys_nis?_syscall[,)]" "$f" || err=1
	echo "$(basename "$f"): slot $nr $([ $err -eq 0 ] && echo ok || echo WRONG)"
	return $err
}

TBL_ARCHES="alpha arm ia64 m68k microblaze mips parisc powerpc s390 sh sparc
	x86 xtensa"

step_other_arches() {
	local a err=0 f gen
	cd "$SRC" || return 1
	# shellcheck disable=SC2016
	printf '%s\n' $TBL_ARCHES | xargs -P "$JOBS" -I{} sh -c \
		'make -s ARCH=$1 O="$2/hdr-$1" HOSTCC="$3" archheaders ||
			{ echo "archheaders failed for $1"; exit 1; }' _ {} "$WORK" "$KCC" ||
		err=1

	echo "== numbers seen by userspace (<asm/unistd.h>)"
	expect_nr alpha 553 alpha || err=1
	expect_nr "arm EABI" 443 arm -D__ARM_EABI__ || err=1
	expect_nr "arm OABI" $((0x900000 + 443)) arm || err=1
	expect_nr arm64 443 arm64 || err=1
	expect_nr ia64 1467 ia64 || err=1
	expect_nr m68k 443 m68k || err=1
	expect_nr microblaze 443 microblaze || err=1
	expect_nr "mips o32" 4443 mips -D_MIPS_SIM=1 || err=1
	expect_nr "mips n32" 6443 mips -D_MIPS_SIM=2 || err=1
	expect_nr "mips n64" 5443 mips -D_MIPS_SIM=3 || err=1
	expect_nr "parisc 32" 443 parisc || err=1
	expect_nr "parisc 64" 443 parisc -D__LP64__ || err=1
	expect_nr "powerpc 32" 443 powerpc || err=1
	expect_nr "powerpc 64" 443 powerpc -D__powerpc64__ || err=1
	expect_nr riscv 443 riscv || err=1
	expect_nr "s390 31" 443 s390 || err=1
	expect_nr "s390 64" 443 s390 -D__s390x__ || err=1
	expect_nr sh 443 sh || err=1
	expect_nr "sparc 32" 443 sparc || err=1
	expect_nr "sparc 64" 443 sparc -D__arch64__ || err=1
	expect_nr "x86 i386" 443 x86 -D__i386__ || err=1
	expect_nr "x86 x86_64" 443 x86 -D__x86_64__ || err=1
	expect_nr "x86 x32" $((0x40000000 + 443)) x86 -D__x86_64__ \
		-D__ILP32__ || err=1
	expect_nr xtensa 443 xtensa || err=1

	echo "== kernel tables generated from syscall*.tbl"
	for f in alpha/include/generated/asm/syscall_table.h:553 \
		ia64/include/generated/asm/syscall_table.h:1467 \
		m68k/include/generated/asm/syscall_table.h:443 \
		microblaze/include/generated/asm/syscall_table.h:443 \
		mips/include/generated/asm/syscall_table_32_o32.h:4443 \
		mips/include/generated/asm/syscall_table_64_o32.h:4443 \
		mips/include/generated/asm/syscall_table_64_n64.h:5443 \
		mips/include/generated/asm/syscall_table_64_n32.h:6443 \
		parisc/include/generated/asm/syscall_table_32.h:443 \
		parisc/include/generated/asm/syscall_table_64.h:443 \
		parisc/include/generated/asm/syscall_table_c32.h:443 \
		powerpc/include/generated/asm/syscall_table_32.h:443 \
		powerpc/include/generated/asm/syscall_table_64.h:443 \
		powerpc/include/generated/asm/syscall_table_c32.h:443 \
		powerpc/include/generated/asm/syscall_table_spu.h:443 \
		sh/include/generated/asm/syscall_table.h:443 \
		sparc/include/generated/asm/syscall_table_32.h:443 \
		sparc/include/generated/asm/syscall_table_64.h:443 \
		sparc/include/generated/asm/syscall_table_c32.h:443 \
		xtensa/include/generated/asm/syscall_table.h:443; do
		a=${f%%/*}
		gen=$WORK/hdr-$a/arch/${f%:*}
		[ -f "$gen" ] || { echo "missing $gen"; err=1; continue; }
		expect_tbl "$gen" "${f##*:}" || err=1
	done

	# arm and s390 generate their kernel tables only at archprepare,
	# which needs a cross compiler: run their generators as kbuild does.
	sh arch/arm/tools/syscalltbl.sh arch/arm/tools/syscall.tbl \
		"$WORK/arm-calls-eabi.S" common,eabi || err=1
	if grep -q '^NATIVE(443, sys_quotactl_fd)$' "$WORK/arm-calls-eabi.S"; then
		echo "arm calls-eabi.S: slot 443 ok"
	else
		echo "arm calls-eabi.S: slot 443 WRONG"; err=1
	fi
	sh arch/arm/tools/syscallnr.sh arch/arm/tools/syscall.tbl \
		"$WORK/arm-unistd-nr.h" common,oabi,eabi,compat || err=1
	grep -q '^#define __NR_syscalls 444$' "$WORK/arm-unistd-nr.h" ||
		{ echo "arm: __NR_syscalls is not 444"; err=1; }
	sh arch/s390/kernel/syscalls/syscalltbl -S \
		<arch/s390/kernel/syscalls/syscall.tbl >"$WORK/s390-table.h" ||
		err=1
	# One line per slot from 0 on: take the 442nd to 444th.
	if grep -E '^(SYSCALL|NI_SYSCALL)' "$WORK/s390-table.h" |
		sed -n '442,444p' | tr '\n' ' ' |
		grep -x >/dev/null 'NI_SYSCALL NI_SYSCALL SYSCALL(sys_quotactl_fd,sys_quotactl_fd) '; then
		echo "s390 syscall_table.h: slot 443 ok"
	else
		echo "s390 syscall_table.h: slot 443 WRONG"; err=1
	fi

	echo "== C tables built from asm-generic/unistd.h, arm64 compat"
	printf '#define __SYSCALL(nr, call) SLOT nr call\n#include <asm-generic/unistd.h>\nNR_SYSCALLS __NR_syscalls\n' |
		cpp -P -undef -nostdinc -I"$SRC/arch/riscv/include/uapi" \
			-I"$SRC/include/uapi" - >"$WORK/generic.txt" || err=1
	if grep -E '^SLOT 44[0-3] |^NR_SYSCALLS' "$WORK/generic.txt" |
		tr '\n' ' ' | grep -x >/dev/null 'SLOT 440 sys_process_madvise SLOT 441 sys_ni_syscall SLOT 442 sys_ni_syscall SLOT 443 sys_quotactl_fd NR_SYSCALLS 444 '; then
		echo "asm-generic: 441, 442 -> sys_ni_syscall, 443 -> sys_quotactl_fd, __NR_syscalls 444"
	else
		echo "asm-generic table WRONG:"; grep -E '^SLOT 44|^NR_' "$WORK/generic.txt"
		err=1
	fi
	printf '#define __SYSCALL(nr, call) SLOT nr call\n#include <asm/unistd32.h>\n#define __COMPAT_SYSCALL_NR\n#define CONFIG_COMPAT 1\n#include <asm/unistd.h>\nNR_COMPAT __NR_compat_syscalls\n' |
		cpp -P -undef -nostdinc -I"$SRC/arch/arm64/include" - \
			>"$WORK/arm64-compat.txt" || err=1
	if grep -E '^SLOT 443 |^NR_COMPAT' "$WORK/arm64-compat.txt" |
		tr '\n' ' ' | grep -x >/dev/null 'SLOT 443 sys_quotactl_fd NR_COMPAT 444 '; then
		echo "arm64 compat: 443 -> sys_quotactl_fd, __NR_compat_syscalls 444"
	else
		echo "arm64 compat table WRONG:"
		grep -E '^SLOT 44|^NR_' "$WORK/arm64-compat.txt"
		err=1
	fi
	[ $err -eq 0 ] &&
		echo "INFO: numbers and table slots right on all $(echo $TBL_ARCHES | wc -w) table architectures, asm-generic and arm64 compat"
	return $err
}

# ---------------------------------------------------------------- main

mkdir -p "$BASE" && RUN=$(mktemp -d "$BASE/run.XXXXXX") ||
	{ echo "cannot create a run directory in $BASE" >&2; exit 1; }
# ccache, when installed (bootstrap.sh installs it), keeps the compiles of
# an unchanged tree from one run to the next: the same objects and the
# same warnings (it stores each compiler's stderr with its output, so
# no_warnings still sees them), for a fraction of the CPU.  Every run
# unpacks its tree in a directory of its own, hence the base directory
# that makes the paths ccache hashes relative.  QFD_CCACHE=no compiles all.
CCW=
if [ "${QFD_CCACHE:-yes}" != no ] && command -v ccache >/dev/null 2>&1; then
	CCW="ccache "
	export CCACHE_DIR=$CACHE/ccache CCACHE_BASEDIR=$RUN CCACHE_MAXSIZE=4G
fi
KCC=${CCW}gcc
KMAKE=(make "HOSTCC=$KCC" "CC=$KCC")
WORK=$RUN/work
LOGS=$RUN/logs
SRC=$WORK/linux-source-5.10
OUT=$WORK/out-defconfig
OUT_NOBLK=$WORK/out-noblock
OUT_ARM64=$WORK/out-arm64
mkdir -p "$LOGS" || exit 1
trap '[ $KEEP -eq 1 ] || rm -rf "$WORK"; exit 130' INT TERM
# Forget the logs of runs more than two days old.
find "$BASE" -maxdepth 1 -name 'run.*' -mtime +2 -exec rm -rf {} + 2>/dev/null
note "quotactl_fd series for Linux 5.10: $HERE"
note "cache: $CACHE"

if ! run_step "dependencies present" step_deps; then
	skip_step "fetch linux-source-5.10" "dependencies missing"
	finish
fi
if ! run_step "fetch linux-source-5.10 (Debian bullseye)" step_fetch; then
	skip_step "unpack and apply" "no source package"
	finish
fi
if ! run_step "unpack a fresh source tree" step_unpack; then
	skip_step "series applies cleanly" "no source tree"
	finish
fi
if ! run_step "series applies cleanly (patch --fuzz=0)" step_apply; then
	skip_step "build" "series does not apply"
	finish
fi
run_step "checkpatch --no-tree: no ERROR" step_checkpatch
if run_step "x86_64 defconfig+X32: touched objects build without warnings" \
	step_build; then
	run_step "x86 uapi numbers, compiled table slots, exported symbols" \
		step_verify_x86
else
	skip_step "x86 uapi numbers, compiled table slots, exported symbols" \
		"build failed"
fi
if [ $QUICK -eq 1 ]; then
	quick_skip "i386 tinyconfig, CONFIG_BLOCK=n: fs/quota/quota.o builds"
	quick_skip "arm64 defconfig, cross-compiled: native and compat tables"
	quick_skip "other architectures: syscall numbers and table slots"
	finish
fi
run_step "i386 tinyconfig, CONFIG_BLOCK=n: fs/quota/quota.o builds" \
	step_build_noblock
run_step "arm64 defconfig, cross-compiled: native and compat tables" \
	step_build_arm64
run_step "other architectures: syscall numbers and table slots" \
	step_other_arches
finish

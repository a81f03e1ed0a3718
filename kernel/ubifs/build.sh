#!/bin/bash
# kernel/ubifs/build.sh: build Debian 12's UBIFS module with the quota patch
# series in kernel/ubifs/patches, out of tree, against Debian's own headers.
# With --kernel 6.12: Debian 13's, with kernel/ubifs/patches-6.12; with
# --kernel testing: Debian testing's (7.2), with kernel/ubifs/patches-7.2.
#
# It fetches (apt-get download, never installs) linux-source-6.1 and the
# headers of the matching linux-image-amd64, unpacks them under the cache,
# applies the series to a copy of fs/ubifs and runs kbuild on it. A second
# run with nothing changed only prints the path. Run with --help for usage.
set -euo pipefail
# Called from "make -j2 check" or "make demo", we would pass make's
# jobserver on to kbuild, which then warns "-jN forced in submake": the
# module build is not part of the caller's job graph.
unset MAKEFLAGS MFLAGS MAKELEVEL MAKE_TERMOUT MAKE_TERMERR

ME=${0##*/}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PATCHES=$HERE/patches
# The cache, the release of each series, its private apt configuration
# and the shared package downloads are kernel/lib.bash's.
# shellcheck source=../lib.bash
. "$HERE/../lib.bash"
CACHE=$(qfd_cache)/ubifs || { echo "$ME: error: cannot create the cache directory" >&2; exit 1; }
# Debian testing is known here (and in tests/vm/run) only, not in
# kernel/lib.bash: kernel/build-kernel.sh keys the cache of the project's
# own kernels on the whole of lib.bash, so a line there would rebuild every
# one of them.  "testing" is the suite, not a codename, as tests/vm/run
# has it; 7.2 (the name linux-source-7.2 is fetched under) is testing's
# too, for as long as testing carries 7.2 (checked below).
eval "lib_$(declare -f qfd_release)"
qfd_release() {
	case $1 in
	testing | 7.2) echo testing ;;
	*) lib_qfd_release "$1" ;;
	esac
}

usage() {
	cat <<EOF
Usage: $ME [--kernel 6.1|6.12|testing] [--check | --each] [--version DEBVER]
       [--patch FILE]... [--force] [-q]

Build ubifs.ko for Debian 12's 6.1 kernel with the UBIFS quota series
($PATCHES/*.patch) applied, and print the path of the module.

  --kernel 6.12     build for Debian 13's 6.12 kernel instead, with the
                    series in $HERE/patches-6.12 (packages from trixie,
                    through a private apt configuration in
                    \$QFD_CACHE/apt-trixie; the host's apt is untouched)
  --kernel testing  build for Debian testing's kernel (7.2.x+deb14, the
                    one tests/vm/run --kernel testing boots; "7.2" says
                    the same), with the series in $HERE/patches-7.2
                    (packages through \$QFD_CACHE/apt-testing); fails
                    once testing has moved past 7.2
  --check           only check that the series applies to the pristine
                    fs/ubifs and that checkpatch finds no errors; build
                    nothing
  --each            apply the patches 0001..k for each k and build the
                    module of every prefix (a compiler warning fails it),
                    run checkpatch on each patch (an error fails it, its
                    warnings are shown), and print one line per patch;
                    keeps no module
  --version DEBVER  Debian version of linux-image-amd64 / linux-source-6.1
                    to build for (default: apt's candidate, e.g. 6.1.192-3)
  --patch FILE      apply FILE after the series: an experiment (the
                    module is built apart from the series' own, never in
                    its place)
  --force           rebuild even if nothing changed
  -q                print only the path of the module
  -h, --help        this text

Cache: \$QFD_CACHE/ubifs (default /var/cache/qfd/ubifs): downloaded
packages, the unpacked headers and source, the build tree, and the result
\$QFD_CACHE/ubifs/ABI/STAMP/ubifs.ko (ABI like 6.1.0-57-amd64, STAMP a
hash of the patches, the test helper and this script: two checkouts that
differ never swap each other's module), with the test suite's fault
injector ubifs_qfail.ko (kernel/ubifs/qfail) beside it.  The eight most
recently used builds of an ABI are kept.

Needs: apt-get, dpkg, gcc-12, make, libc6-dev, binutils, xz-utils, git,
libelf1, libssl3 (for the prebuilt kbuild tools) and perl (checkpatch).
For 6.12 and testing also libelf-dev when their prebuilt objtool
and modpost need a newer glibc than the host's (they are then rebuilt from
the source); for 6.12 gcc-14 is used if present, gcc-12 otherwise; for
testing (made with gcc-16) gcc-12, with the settings described in this
script's comments.
Exit status: 0 on success, 1 on any failure, 2 on usage errors.
EOF
}

die() {
	echo "$ME: error: $*" >&2
	exit 1
}

note() {
	if [[ $quiet == 0 ]]; then
		echo "$ME: $*" >&2
	fi
}

check_only=0
each=0
extra=()
force=0
quiet=0
debver=
kernel=6.1
while (($#)); do
	case $1 in
	--kernel) kernel=${2:?--kernel needs a value}; shift 2 ;;
	--kernel=*) kernel=${1#*=}; shift ;;
	--check) check_only=1; shift ;;
	--each) each=1; shift ;;
	--patch) extra+=("$(realpath -e -- "${2:?--patch needs a file}")") || exit 2; shift 2 ;;
	--force) force=1; shift ;;
	--version) debver=${2:?--version needs a value}; shift 2 ;;
	--version=*) debver=${1#*=}; shift ;;
	-q) quiet=1; shift ;;
	-h | --help) usage; exit 0 ;;
	*) echo "$ME: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
	esac
done

if ((check_only && each)); then
	echo "$ME: --check and --each exclude each other" >&2
	exit 2
fi

case $kernel in
6.1) ;;
6.12) PATCHES=$HERE/patches-6.12 ;;
# "testing", as tests/vm/run and tests/vm/matrix name that kernel, so the
# same word passes through; the series is named by the version it is for.
testing | 7.2) kernel=testing PATCHES=$HERE/patches-7.2 ;;
*) echo "$ME: --kernel: 6.1, 6.12 or testing, not '$kernel'" >&2; exit 2 ;;
esac

# Tools, and the Debian packages that bring them
need=(apt-get:apt dpkg:dpkg git:git xz:xz-utils flock:util-linux)
if ((check_only || each)); then
	need+=(perl:perl)
fi
if ((!check_only)); then
	need+=(make:make gcc-12:gcc-12 strip:binutils)
fi
missing=()
for t in "${need[@]}"; do
	command -v "${t%%:*}" >/dev/null || missing+=("${t#*:}")
done
((${#missing[@]} == 0)) || die "missing tools; install: apt-get install ${missing[*]}"

shopt -s nullglob
series=("$PATCHES"/[0-9][0-9][0-9][0-9]-*.patch)
shopt -u nullglob
((${#series[@]})) || die "no patches in $PATCHES"
series+=("${extra[@]}")

# ------------------------------------------------------------ versions
# 6.12 comes from Debian 13 (trixie): apt is pointed at a private
# configuration (sources, lists and cache under $QFD_CACHE/apt-trixie, the
# one tests/vm/run uses for the VM's kernel), never at the host's.
qfd_apt "$kernel" || die "cannot set up apt for Linux $kernel"
declare -a apt_opts=("${QFD_APT[@]}")

# linux-image-amd64 (a metapackage) names the ABI in its dependency:
# linux-image-6.1.0-57-amd64 is version 6.1.192-3. linux-source-6.1 of the
# same Debian version is the source of that very kernel.
candidate() {
	apt-cache "${apt_opts[@]}" policy "$1" 2>/dev/null | awk '$1 == "Candidate:" { print $2 }'
}

if [[ -z $debver ]]; then
	debver=$(candidate linux-image-amd64)
	if [[ -z $debver || $debver == "(none)" ]]; then
		note "running apt-get update to find linux-image-amd64"
		apt-get "${apt_opts[@]}" update -qq >/dev/null || die "apt-get update failed"
		debver=$(candidate linux-image-amd64)
	fi
	[[ -n $debver && $debver != "(none)" ]] || die "apt knows no linux-image-amd64"
fi

abi=$(apt-cache "${apt_opts[@]}" show "linux-image-amd64=$debver" 2>/dev/null |
	sed -n 's/^Depends:.*linux-image-\([0-9][^ ,]*-amd64\).*/\1/p' | head -n 1)
[[ -n $abi ]] || die "cannot tell the kernel ABI of linux-image-amd64 $debver"
if [[ $kernel == 6.12 ]]; then
	# Debian 13 names the ABI after the upstream version:
	# 6.12.118+deb13-amd64, and its kbuild package after the ABI.
	series_ver=6.12
	[[ $abi == 6.12.* ]] || die "this series is for 6.12, not $abi"
	kbuild_pkg=linux-kbuild-${abi%-amd64}
elif [[ $kernel == testing ]]; then
	# Debian testing names them as 13 does: 7.2.12+deb14-amd64.  Testing
	# moves; a kernel after 7.2 needs the series ported first.
	series_ver=7.2
	[[ $abi == 7.2.* ]] || die "this series is for 7.2, not testing's $abi"
	kbuild_pkg=linux-kbuild-${abi%-amd64}
else
	series_ver=${abi%%.0-*}            # 6.1
	[[ $series_ver == 6.1 ]] || die "this series is for 6.1, not $abi"
	kbuild_pkg=linux-kbuild-$series_ver
fi

top=$CACHE/$abi
mkdir -p "$top"
exec 9>"$top/.lock"
flock 9

# fetch PKG VERSION: the .deb in the shared download directory
fetch() {
	note "fetching $1 $2"
	qfd_deb "$kernel" "$1" "$2" || die "cannot download $1 $2"
}

# ------------------------------------------------------------ unpack
# Headers: linux-headers-ABI (config, Module.symvers), its -common package
# (include/, arch/) and linux-kbuild-6.1 (scripts/, prebuilt host tools;
# for 6.12 linux-kbuild-ABI), unpacked side by side so that their relative
# symlinks resolve.
hdr=$top/root/usr/src/linux-headers-$abi

# host_cc_config: testing's kernel was made with gcc-16, and its
# configuration records what that compiler can do.  Four of these
# CONFIG_CC_HAS_* are seen by C code (include/linux/compiler_types.h) and
# name attributes gcc-12 does not know: it would warn "attribute directive
# ignored" once per use in every header (185 times for stock fs/ubifs) and
# ignore them.  They are bounds-checking and optimisation hints only
# (__counted_by on arrays and pointers, __assume, __nonstring on arrays of
# strings), no struct layout or calling convention depends on them, so the
# copy of the headers under the cache is told the truth about gcc-12
# instead: each one gcc-12 fails to compile (-Werror) is removed from
# autoconf.h and auto.conf, and compiler_types.h then defines the hint as
# nothing, as for any compiler without it.
host_cc_config() {
	local -A probe=(
		[CC_HAS_COUNTED_BY]='struct s { int n; int a[] __attribute__((__counted_by__(n))); };'
		[CC_HAS_COUNTED_BY_PTR]='struct s { int n; int *p __attribute__((__counted_by__(n))); };'
		[CC_HAS_ASSUME]='int f(int x) { __attribute__((__assume__(x > 0))); return x; }'
		[CC_HAS_MULTIDIMENSIONAL_NONSTRING]='char tag[][4] __attribute__((__nonstring__)) = { };'
	)
	local c
	for c in "${!probe[@]}"; do
		if ! gcc-12 -x c - -c -o /dev/null -Werror <<<"${probe[$c]}" >/dev/null 2>&1; then
			sed -i "/^#define CONFIG_$c 1\$/d" "$hdr/include/generated/autoconf.h"
			sed -i "/^CONFIG_$c=y\$/d" "$hdr/include/config/auto.conf"
		fi
	done
}
if [[ ! -f $top/root/.done ]]; then
	rm -rf "$top/root"
	mkdir -p "$top/root"
	for p in "linux-headers-$abi" "linux-headers-${abi%-amd64}-common" \
		"$kbuild_pkg"; do
		dpkg -x "$(fetch "$p" "$debver")" "$top/root"
	done
	# The headers' Makefile includes the -common one by absolute path;
	# testing's (7.x) also names itself as KBUILD_OUTPUT.
	sed -i "s|^include /usr/src/|include $top/root/usr/src/|
		s|^KBUILD_OUTPUT=/usr/src/|KBUILD_OUTPUT=$top/root/usr/src/|" "$hdr/Makefile"
	if [[ $kernel == testing ]]; then
		host_cc_config
	fi
	touch "$top/root/.done"
fi

# Source: only fs/ubifs, its documentation (the series describes its mount
# options there) and checkpatch (with its data files) from the 140 MB
# tarball.  A tree unpacked before the documentation was wanted is
# unpacked again.
src=$top/source
if [[ ! -f $src/.done || ! -f $src/Documentation/filesystems/ubifs.rst ]]; then
	rm -rf "$src"
	note "unpacking fs/ubifs from linux-source-$series_ver"
	tarball=$(qfd_ksource "$series_ver" "$debver") ||
		die "cannot get linux-source-$series_ver $debver"
	mkdir -p "$src"
	tar -C "$src" --strip-components=1 -xJf "$tarball" \
		"linux-source-$series_ver/fs/ubifs" \
		"linux-source-$series_ver/Documentation/filesystems/ubifs.rst" \
		"linux-source-$series_ver/scripts/checkpatch.pl" \
		"linux-source-$series_ver/scripts/spelling.txt" \
		"linux-source-$series_ver/scripts/const_structs.checkpatch"
	if [[ $kernel != 6.1 ]]; then
		# What rebuilding objtool and modpost takes (see host_tools)
		tar -C "$src" --strip-components=1 -xJf "$tarball" \
			"linux-source-$series_ver/tools" \
			"linux-source-$series_ver/scripts" \
			"linux-source-$series_ver/include" \
			"linux-source-$series_ver/arch/x86/include" \
			"linux-source-$series_ver/arch/x86/lib" \
			"linux-source-$series_ver/arch/x86/tools"
	fi
	touch "$src/.done"
fi

# ------------------------------------------------------------ check
# apply_series DIR: the patches one after the other (git apply checks a
# patch list as a whole against the tree it starts from: a patch to a file
# that an earlier one creates would not apply)
apply_series() {
	local p
	for p in "${series[@]}"; do
		(cd "$1" && git apply "$p") || { echo "${p##*/} does not apply" >&2; return 1; }
	done
}

apply_check() {
	local tmp
	tmp=$(mktemp -d)
	cp -a "$src/fs" "$src/Documentation" "$tmp/"
	if ! apply_series "$tmp"; then
		rm -rf "$tmp"
		die "the series does not apply to fs/ubifs of $debver"
	fi
	rm -rf "$tmp"
	note "series applies to fs/ubifs of linux-source-$series_ver $debver"
}

run_checkpatch() {
	local p out bad=0
	for p in "${series[@]}"; do
		out=$(perl "$src/scripts/checkpatch.pl" --no-tree -q "$p" 2>&1) || true
		if grep -q '^ERROR:' <<<"$out"; then
			echo "$out" >&2
			bad=1
		fi
		note "checkpatch ${p##*/}: $(grep -o 'total: .*' <<<"$out" || echo clean)"
	done
	((bad == 0)) || die "checkpatch found errors"
}

if ((check_only)); then
	apply_check
	run_checkpatch
	exit 0
fi

# ------------------------------------------------------------ build
# The test helper of tests/vm/suites/ubifs-quota.bats (qfail/: a kretprobe
# that makes quota file writes fail) is built with it, into
# $top/ubifs_qfail.ko.
qfail_src=("$HERE"/qfail/Kbuild "$HERE"/qfail/*.c)
stamp=$(cat "${series[@]}" "${qfail_src[@]}" "${BASH_SOURCE[0]}" | sha256sum | cut -c1-16)
outdir=$top/$stamp
out=$outdir/ubifs.ko
qfail=$outdir/ubifs_qfail.ko
if ((!force && !each)) && [[ -f $out && -f $qfail ]]; then
	touch "$outdir"
	note "up to date"
	echo "$out"
	exit 0
fi

# ------------------------------------------------------------ 6.12 on 12
# Debian 13's headers name gcc-14 and its prebuilt host tools are linked
# against its glibc (testing's, 7.2, likewise: see below for its gcc-16). On Debian 12 (gcc-12, glibc 2.36) modpost and objtool
# do not run ("GLIBC_2.38 not found"): they are rebuilt from the source of
# the same kernel into the unpacked kbuild tree (a copy under the cache),
# once. gcc-12 lacks -fmin-function-alignment, so kbuild is told the
# compiler has none and uses -falign-functions=16 instead, as it does for
# every compiler without that option; no BTF is generated for the module
# (pahole would be needed, and only BPF programs reading ubifs types use it).
declare -a kbuild_args=()

# runs_here TOOL: the prebuilt TOOL runs with the host's C library
runs_here() {
	local out
	out=$("$1" --help 2>&1 </dev/null || true)
	[[ $out != *"version \`GLIBC_"* ]]
}

host_tools() {
	local kb=$top/root/usr/lib/$kbuild_pkg mp=$top/hosttools/modpost
	local hlog=$top/hosttools.log
	if ! runs_here "$kb/tools/objtool/objtool.real-x86"; then
		note "rebuilding objtool for this host"
		[[ -f /usr/include/libelf.h ]] || die "objtool needs libelf-dev"
		make -C "$src/tools/objtool" CC=gcc-12 HOSTCC=gcc-12 -j"$(nproc)" \
			>"$hlog" 2>&1 || die "building objtool failed (log: $hlog)"
		cp "$src/tools/objtool/objtool" "$kb/tools/objtool/objtool.real-x86"
	fi
	if ! runs_here "$kb/scripts/mod/modpost.real-lsb-64"; then
		# modpost needs two generated headers: the ELF class of the
		# kernel's objects and the offsets of the device id tables, which
		# kbuild computes from the kernel's own headers and config.
		note "rebuilding modpost for this host"
		rm -rf "$mp"
		mkdir -p "$mp"
		cp "$src"/scripts/mod/*.[ch] "$mp/"
		echo 'obj-m := devicetable-offsets.o empty.o' >"$mp/Kbuild"
		make -C "$hdr" M="$mp" "${kbuild_args[@]}" \
			devicetable-offsets.s empty.o >"$hlog" 2>&1 ||
			die "building modpost's headers failed (log: $hlog)"
		(
			cd "$mp"
			gcc-12 -O2 -o mk_elfconfig mk_elfconfig.c
			./mk_elfconfig <empty.o >elfconfig.h
			{
				echo "#ifndef __DEVICETABLE_OFFSETS_H__"
				echo "#define __DEVICETABLE_OFFSETS_H__"
				# scripts/Makefile.lib's sed-offsets
				sed -ne 's:^[[:space:]]*\.ascii[[:space:]]*"\(.*\)".*:\1:
					/^->/{s:->#\(.*\):/* \1 */:
					s:^->\([^ ]*\) [\$#]*\([^ ]*\) \(.*\):#define \1 \2 /* \3 */:
					s:->::; p;}' <devicetable-offsets.s
				echo "#endif"
			} >devicetable-offsets.h
			gcc-12 -O2 -I"$src/scripts/include" -I. -o modpost \
				modpost.c file2alias.c sumversion.c symsearch.c
		) >>"$hlog" 2>&1 || die "building modpost failed (log: $hlog)"
		cp "$mp/modpost" "$kb/scripts/mod/modpost.real-lsb-64"
	fi
}

if [[ $kernel == 6.12 ]]; then
	if command -v gcc-14 >/dev/null; then
		kbuild_args=(CC=gcc-14)
	else
		kbuild_args=(CC=gcc-12 CONFIG_CC_HAS_MIN_FUNCTION_ALIGNMENT=)
	fi
	kbuild_args+=(CONFIG_DEBUG_INFO_BTF_MODULES=)
	host_tools
elif [[ $kernel == testing ]]; then
	# Debian testing (7.2) on Debian 12: as for 6.12 (gcc-14 would not do
	# better: it lacks what gcc-16 has as well), plus host_cc_config's
	# edits made at unpacking.  Its headers also compare the version of
	# pahole with the kernel's and warn on every build; with no BTF made
	# pahole is not run, so they are given the host's (0: none) to compare.
	kbuild_args=(CC=gcc-12 CONFIG_CC_HAS_MIN_FUNCTION_ALIGNMENT=)
	kbuild_args+=(CONFIG_DEBUG_INFO_BTF_MODULES=)
	# (the script prints 0 and fails when there is no pahole)
	kbuild_args+=(CONFIG_PAHOLE_VERSION="$("$hdr/scripts/pahole-version.sh" pahole || true)")
	host_tools
fi

# build_ubifs DIR LOG: kbuild on DIR/fs/ubifs with the options of Debian's
# ubifs.ko, the output in LOG
build_ubifs() {
	make -C "$hdr" M="$1/fs/ubifs" -j"$(nproc)" "${kbuild_args[@]}" \
		CONFIG_UBIFS_FS=m CONFIG_UBIFS_FS_XATTR=y CONFIG_UBIFS_FS_SECURITY=y \
		CONFIG_UBIFS_FS_LZO=y CONFIG_UBIFS_FS_ZLIB=y CONFIG_UBIFS_FS_ZSTD=y \
		CONFIG_UBIFS_FS_ADVANCED_COMPR=y modules >"$2" 2>&1
}

# each_prefix: --each. Every prefix of a series must build on its own
# (bisection, and a maintainer taking only the first patches). The patches
# go one by one into one tree, built after each: kbuild's dependency
# files recompile exactly what a patch changed, so each build is that of
# the prefix, and a warning is blamed on the patch that brought it.
each_prefix() {
	local dir=$top/each p name out bad=0
	rm -rf "$dir"
	mkdir -p "$dir"
	cp -a "$src/fs" "$src/Documentation" "$dir/"
	for p in "${series[@]}"; do
		name=${p##*/}
		(cd "$dir" && git apply "$p") || die "$name does not apply"
		if ! build_ubifs "$dir" "$top/each-${name%%-*}.log"; then
			tail -n 30 "$top/each-${name%%-*}.log" >&2
			die "$name: the build fails (log: $top/each-${name%%-*}.log)"
		fi
		if grep 'warning:' "$top/each-${name%%-*}.log" >&2; then
			bad=1
			echo "$ME: $name: FAILED, the build warns" >&2
		else
			echo "$ME: $name: builds without warnings" >&2
		fi
		out=$(perl "$src/scripts/checkpatch.pl" --no-tree -q "$p" 2>&1) || true
		grep -v -e '^total:' -e '^$' <<<"$out" >&2 || true
		grep -q '^ERROR:' <<<"$out" && bad=1
		echo "$ME: $name: checkpatch $(grep -o 'total: .*' <<<"$out" || echo clean)" >&2
	done
	rm -rf "$dir"
	((bad == 0)) || die "a prefix warns or checkpatch found errors"
	echo "$ME: every prefix of the ${#series[@]} patches builds for $abi" >&2
}

apply_check
if ((each)); then
	each_prefix
	exit 0
fi
build=$top/build
rm -rf "$build"
mkdir -p "$build"
cp -a "$src/fs" "$src/Documentation" "$build/"
apply_series "$build" || die "applying the series failed"

note "building ubifs.ko against linux-headers-$abi"
log=$top/build.log
if ! build_ubifs "$build" "$log"; then
	tail -n 30 "$log" >&2
	die "build failed (full log: $log)"
fi
if grep -q 'warning:' "$log"; then
	grep 'warning:' "$log" >&2
fi

mkdir -p "$build/qfail"
cp "${qfail_src[@]}" "$build/qfail/"
qlog=$top/build-qfail.log
if ! make -C "$hdr" M="$build/qfail" "${kbuild_args[@]}" modules >"$qlog" 2>&1; then
	tail -n 30 "$qlog" >&2
	die "building the test helper ubifs_qfail.ko failed (full log: $qlog)"
fi
if grep -q 'warning:' "$qlog"; then
	grep 'warning:' "$qlog" >&2
fi

mkdir -p "$outdir"
strip --strip-debug -o "$out.tmp" "$build/fs/ubifs/ubifs.ko"
strip --strip-debug -o "$qfail.tmp" "$build/qfail/ubifs_qfail.ko"
mv "$qfail.tmp" "$qfail"
mv "$out.tmp" "$out"
# The eight builds used last stay (a checkout of another branch, an
# experiment); older ones go.
find "$top" -mindepth 1 -maxdepth 1 -type d -regex '.*/[0-9a-f]\{16\}' -printf '%T@ %p\n' |
	sort -rn | tail -n +9 | cut -d' ' -f2- | xargs -r rm -rf --
note "built $(modinfo -F vermagic "$out" 2>/dev/null || echo "$abi")"
echo "$out"

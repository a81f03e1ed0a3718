#!/bin/bash
# kernel/ubifs/build.sh: build Debian 12's UBIFS module with the quota patch
# series in kernel/ubifs/patches, out of tree, against Debian's own headers.
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
CACHE=${QFD_CACHE:-/var/cache/qfd}/ubifs

usage() {
	cat <<EOF
Usage: $ME [--check] [--version DEBVER] [--force] [-q]

Build ubifs.ko for Debian 12's 6.1 kernel with the UBIFS quota series
($PATCHES/*.patch) applied, and print the path of the module.

  --check           only check that the series applies to the pristine
                    fs/ubifs and that checkpatch finds no errors; build
                    nothing
  --version DEBVER  Debian version of linux-image-amd64 / linux-source-6.1
                    to build for (default: apt's candidate, e.g. 6.1.192-3)
  --force           rebuild even if nothing changed
  -q                print only the path of the module
  -h, --help        this text

Cache: \$QFD_CACHE/ubifs (default /var/cache/qfd/ubifs): downloaded
packages, the unpacked headers and source, the build tree, and the result
\$QFD_CACHE/ubifs/ABI/ubifs.ko (ABI like 6.1.0-57-amd64), with the test
suite's fault injector ubifs_qfail.ko (kernel/ubifs/qfail) beside it.

Needs: apt-get, dpkg, gcc-12, make, libc6-dev, binutils, xz-utils, git,
libelf1, libssl3 (for the prebuilt kbuild tools) and perl (checkpatch).
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
force=0
quiet=0
debver=
while (($#)); do
	case $1 in
	--check) check_only=1; shift ;;
	--force) force=1; shift ;;
	--version) debver=${2:?--version needs a value}; shift 2 ;;
	--version=*) debver=${1#*=}; shift ;;
	-q) quiet=1; shift ;;
	-h | --help) usage; exit 0 ;;
	*) echo "$ME: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
	esac
done

# Tools, and the Debian packages that bring them
need=(apt-get:apt dpkg:dpkg git:git xz:xz-utils flock:util-linux)
if ((check_only)); then
	need+=(perl:perl)
else
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

# ------------------------------------------------------------ versions
# linux-image-amd64 (a metapackage) names the ABI in its dependency:
# linux-image-6.1.0-57-amd64 is version 6.1.192-3. linux-source-6.1 of the
# same Debian version is the source of that very kernel.
candidate() {
	apt-cache policy "$1" 2>/dev/null | awk '$1 == "Candidate:" { print $2 }'
}

if [[ -z $debver ]]; then
	debver=$(candidate linux-image-amd64)
	if [[ -z $debver || $debver == "(none)" ]]; then
		note "running apt-get update to find linux-image-amd64"
		apt-get update -qq >/dev/null || die "apt-get update failed"
		debver=$(candidate linux-image-amd64)
	fi
	[[ -n $debver && $debver != "(none)" ]] || die "apt knows no linux-image-amd64"
fi

abi=$(apt-cache show "linux-image-amd64=$debver" 2>/dev/null |
	sed -n 's/^Depends:.*linux-image-\([0-9][^ ,]*-amd64\).*/\1/p' | head -n 1)
[[ -n $abi ]] || die "cannot tell the kernel ABI of linux-image-amd64 $debver"
series_ver=${abi%%.0-*}            # 6.1
[[ $series_ver == 6.1 ]] || die "this series is for 6.1, not $abi"

top=$CACHE/$abi
debs=$CACHE/debs
mkdir -p "$top" "$debs"
exec 9>"$top/.lock"
flock 9

# fetch PKG VERSION: the .deb in $debs, downloading it if missing
fetch() {
	local pkg=$1 ver=$2 f
	f=$(printf '%s/%s_%s_*.deb' "$debs" "$pkg" "${ver/:/%3a}")
	# shellcheck disable=SC2086
	set -- $f
	if [[ -f $1 ]]; then
		echo "$1"
		return
	fi
	note "downloading $pkg $ver"
	(cd "$debs" && apt-get download -q "$pkg=$ver" >/dev/null 2>&1) ||
		die "apt-get download $pkg=$ver failed"
	# shellcheck disable=SC2086
	set -- $f
	[[ -f $1 ]] || die "downloaded $pkg but cannot find $f"
	echo "$1"
}

# ------------------------------------------------------------ unpack
# Headers: linux-headers-ABI (config, Module.symvers), its -common package
# (include/, arch/) and linux-kbuild-6.1 (scripts/, prebuilt host tools),
# unpacked side by side so that their relative symlinks resolve.
hdr=$top/root/usr/src/linux-headers-$abi
if [[ ! -f $top/root/.done ]]; then
	rm -rf "$top/root"
	mkdir -p "$top/root"
	for p in "linux-headers-$abi" "linux-headers-${abi%-amd64}-common" \
		"linux-kbuild-$series_ver"; do
		dpkg -x "$(fetch "$p" "$debver")" "$top/root"
	done
	# The headers' Makefile includes the -common one by absolute path.
	sed -i "s|^include /usr/src/|include $top/root/usr/src/|" "$hdr/Makefile"
	touch "$top/root/.done"
fi

# Source: only fs/ubifs and checkpatch (with its data files) from the
# 140 MB tarball.
src=$top/source
if [[ ! -f $src/.done ]]; then
	rm -rf "$src" "$top/srcdeb"
	note "unpacking fs/ubifs from linux-source-$series_ver"
	dpkg -x "$(fetch "linux-source-$series_ver" "$debver")" "$top/srcdeb"
	mkdir -p "$src"
	tar -C "$src" --strip-components=1 -xJf \
		"$top/srcdeb/usr/src/linux-source-$series_ver.tar.xz" \
		"linux-source-$series_ver/fs/ubifs" \
		"linux-source-$series_ver/scripts/checkpatch.pl" \
		"linux-source-$series_ver/scripts/spelling.txt" \
		"linux-source-$series_ver/scripts/const_structs.checkpatch"
	rm -rf "$top/srcdeb"
	touch "$src/.done"
fi

# ------------------------------------------------------------ check
apply_check() {
	local tmp
	tmp=$(mktemp -d)
	cp -a "$src/fs" "$tmp/"
	if ! (cd "$tmp" && git apply --check "${series[@]}" 2>&1 &&
		git apply "${series[@]}"); then
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
stamp=$(cat "${series[@]}" "${qfail_src[@]}" "${BASH_SOURCE[0]}" | sha256sum | cut -d' ' -f1)
out=$top/ubifs.ko
qfail=$top/ubifs_qfail.ko
if ((!force)) && [[ -f $out && -f $qfail && -f $top/.stamp && $(<"$top/.stamp") == "$stamp" ]]; then
	note "up to date"
	echo "$out"
	exit 0
fi

apply_check
build=$top/build
rm -rf "$build"
mkdir -p "$build"
cp -a "$src/fs" "$build/"
(cd "$build" && git apply "${series[@]}") || die "applying the series failed"

note "building ubifs.ko against linux-headers-$abi"
log=$top/build.log
if ! make -C "$hdr" M="$build/fs/ubifs" -j"$(nproc)" \
	CONFIG_UBIFS_FS=m CONFIG_UBIFS_FS_XATTR=y CONFIG_UBIFS_FS_SECURITY=y \
	CONFIG_UBIFS_FS_LZO=y CONFIG_UBIFS_FS_ZLIB=y CONFIG_UBIFS_FS_ZSTD=y \
	CONFIG_UBIFS_FS_ADVANCED_COMPR=y modules >"$log" 2>&1; then
	tail -n 30 "$log" >&2
	die "build failed (full log: $log)"
fi
if grep -q 'warning:' "$log"; then
	grep 'warning:' "$log" >&2
fi

mkdir -p "$build/qfail"
cp "${qfail_src[@]}" "$build/qfail/"
if ! make -C "$hdr" M="$build/qfail" modules >>"$log" 2>&1; then
	tail -n 30 "$log" >&2
	die "building the test helper ubifs_qfail.ko failed (full log: $log)"
fi
if grep -q 'warning:' "$log"; then
	grep 'warning:' "$log" >&2
fi

strip --strip-debug -o "$out.tmp" "$build/fs/ubifs/ubifs.ko"
strip --strip-debug -o "$qfail.tmp" "$build/qfail/ubifs_qfail.ko"
mv "$qfail.tmp" "$qfail"
mv "$out.tmp" "$out"
echo "$stamp" >"$top/.stamp"
note "built $(modinfo -F vermagic "$out" 2>/dev/null || echo "$abi")"
echo "$out"

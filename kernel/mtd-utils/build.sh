#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# kernel/mtd-utils/build.sh: build fsck.ubifs of mtd-utils with the
# patches in kernel/mtd-utils (fsck.ubifs leaves the quota files of the
# UBIFS quota series alone), and print the path of the program.
#
#     kernel/mtd-utils/build.sh SRC
#
# SRC is an mtd-utils source tree of release 2.3.1 (a checkout of tag
# v2.3.1 of git://git.infradead.org/mtd-utils.git, or its release
# tarball unpacked).  It is copied, never changed; the build and the
# result live in $QFD_CACHE/mtd-utils/STAMP (STAMP: a hash of the patches,
# this script and the source's version), so a second run only prints the
# path.  Needs: autoconf, automake, libtool, pkg-config, make, gcc, and
# the headers of zlib, lzo2, zstd, uuid and OpenSSL (Debian 12:
# zlib1g-dev liblzo2-dev libzstd-dev uuid-dev libssl-dev).
set -euo pipefail
{

ME=kernel/mtd-utils/build.sh
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

die() {
	echo "$ME: error: $*" >&2
	exit 1
}

case ${1-} in
-h | --help)
	sed -n '3,17s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
	exit 0 ;;
'') die "which mtd-utils source tree? (--help)" ;;
esac
src=$(realpath -e "$1") || die "no such directory: $1"
[[ -f $src/ubifs-utils/fsck.ubifs/fsck.ubifs.c ]] ||
	die "$src has no ubifs-utils/fsck.ubifs: not mtd-utils 2.3 or later"
version=$(sed -n 's/^m4_define(\[RELEASE\], *\([0-9][0-9.]*\)).*/\1/p' "$src/configure.ac" | head -n 1)
[[ -n $version ]] || version=unknown

# shellcheck source=../lib.bash
. "$HERE/../lib.bash"
cache=$(qfd_cache)/mtd-utils || die "cannot create the cache directory"
patches=("$HERE"/*.patch)
stamp=$( { cat "${patches[@]}" "${BASH_SOURCE[0]}"; echo "$version"; } | sha256sum | cut -c1-16)
out=$cache/$stamp/fsck.ubifs
if [[ -x $out ]]; then
	echo "$out"
	exit 0
fi

build=$cache/$stamp.build
rm -rf "$build"
mkdir -p "$build"
# the tree without its git metadata or an earlier build's objects
if [[ -e $src/.git ]]; then
	git -C "$src" ls-files -z
else
	(cd "$src" && find . -type f -print0)
fi | (cd "$src" && cpio -0 -pdm --quiet "$build")
for p in "${patches[@]}"; do
	patch -d "$build" -p1 --quiet --forward <"$p" || die "$(basename "$p") does not apply to $src ($version)"
done
log=$cache/$stamp.log
(
	cd "$build"
	./autogen.sh
	./configure --without-selinux --disable-unit-tests --without-tests
	make -j"$(nproc)" fsck.ubifs
) >"$log" 2>&1 || die "the build failed; its log: $log"
mkdir -p "${out%/*}"
cp "$build/fsck.ubifs" "$out.tmp"
mv "$out.tmp" "$out"
rm -rf "$build"
echo "$out"
exit 0
}

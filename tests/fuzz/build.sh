#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Build the libFuzzer targets with clang (Debian: clang, libclang-rt-14-dev)
# under AddressSanitizer and UndefinedBehaviorSanitizer.
#
#   tests/fuzz/build.sh [BUILDDIR]   BUILDDIR: where ./configure ran (config.h)
#
# Prints the directory holding the fuzz-* binaries on its last line.
set -eu

srcdir=$(cd "$(dirname "$0")/../.." && pwd)
builddir=$(cd "${1:-$srcdir}" && pwd)
out=$builddir/tests/fuzz/bin
CC=${FUZZ_CC:-clang}

if ! command -v "$CC" >/dev/null 2>&1; then
	echo "$0: $CC not found: install clang and libclang-rt-14-dev (bootstrap.sh --install-deps)" >&2
	exit 1
fi
if [ ! -f "$builddir/config.h" ]; then
	echo "$0: no config.h in $builddir: run ./configure first" >&2
	exit 1
fi

mkdir -p "$out/obj"
flags="-g -O1 -fno-sanitize-recover=all"
flags="$flags -Wall -Wextra -Wshadow -Wmissing-prototypes -Werror -Wno-missing-field-initializers"
pkgs="mount smartcols libnl-genl-3.0 json-c yajl"
# shellcheck disable=SC2086
cflags="$(pkg-config --cflags $pkgs) -include $builddir/config.h -I$srcdir/src"
# shellcheck disable=SC2086
libs=$(pkg-config --libs $pkgs)

# qfd's convenience library (Makefile.am's src/libqfd.a: every src/*.c
# but main.c), built again with clang and instrumented for the fuzzer;
# each target takes from it the objects it needs.
rm -f "$out/libqfd.a" "$out"/obj/*.o
for f in "$srcdir"/src/*.c; do
	[ "${f##*/}" = main.c ] && continue
	# shellcheck disable=SC2086
	$CC $flags -fsanitize=fuzzer-no-link,address,undefined $cflags \
		-c -o "$out/obj/$(basename "$f" .c).o" "$f"
done
ar rcs "$out/libqfd.a" "$out"/obj/*.o

for t in "$srcdir"/tests/fuzz/fuzz-*.c; do
	# shellcheck disable=SC2086
	$CC $flags -fsanitize=fuzzer,address,undefined $cflags \
		-o "$out/$(basename "$t" .c)" "$t" "$out/libqfd.a" $libs
done
echo "$out"

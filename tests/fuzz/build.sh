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

# The target, then the qfd sources it needs besides its own file.
TARGETS="units:units.c,qfd.c batch:batch.c,ids.c,units.c,qfd.c projid:ids.c,qfd.c columns:output.c,rows.c,units.c,ids.c,qfd.c apply:desired.c,jsonread.c,batch.c,ids.c,units.c,qfd.c"
export TARGETS

mkdir -p "$out"
flags="-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all"
flags="$flags -Wall -Wextra -Wshadow -Wmissing-prototypes -Werror -Wno-missing-field-initializers"
# shellcheck disable=SC2046
smartcols=$(pkg-config --cflags --libs smartcols json-c yajl)
for t in $TARGETS; do
	name=${t%%:*}
	srcs=
	for f in $(echo "${t#*:}" | tr , ' '); do
		srcs="$srcs $srcdir/src/$f"
	done
	# shellcheck disable=SC2086
	$CC $flags -include "$builddir/config.h" -I"$srcdir/src" \
		-o "$out/fuzz-$name" "$srcdir/tests/fuzz/fuzz-$name.c" $srcs $smartcols
done
echo "$out"

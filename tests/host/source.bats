#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Checks of the source itself, for mistakes the compiler does not catch:
# functions nobody calls, configure checks nobody uses, realloc() results
# assigned over the pointer they replace (which leaks it on failure).

setup() {
	SRC=${QFD_SRCDIR:-$BATS_TEST_DIRNAME/../..}
}

@test "source: every function a header of src/ declares is used outside its definition" {
	local f n min dead=
	for f in $(grep -ohE '^[a-z][a-z_ *0-9]* \**(qfd|qf)_[a-z0-9_]+\(' "$SRC"/src/*.h |
		   grep -oE '(qfd|qf)_[a-z0-9_]+' | sort -u); do
		# the definition and the declaration are two (one for a static
		# inline in the header); a use is one more
		min=3
		grep -qE "^static inline .*\b$f\(" "$SRC"/src/*.h && min=2
		n=$(cat "$SRC"/src/*.c "$SRC"/src/*.h "$SRC"/tests/unit/*.c |
		    grep -ow -- "$f" | wc -l)
		[ "$n" -ge "$min" ] || dead="$dead $f"
	done
	[ -z "$dead" ] || { echo "declared and defined, never used:$dead"; false; }
}

@test "source: every AM_CONDITIONAL and AC_PATH_PROG of configure.ac is used" {
	local v unused=
	for v in $(grep -oE '(AM_CONDITIONAL|AC_PATH_PROG)\(\[[A-Z_]+\]' "$SRC"/configure.ac |
		   sed 's/.*\[//; s/\]//'); do
		grep -qw -- "$v" "$SRC"/Makefile.am || unused="$unused $v"
	done
	[ -z "$unused" ] || { echo "unused in Makefile.am:$unused"; false; }
}

@test "source: no realloc() result is assigned over its own argument" {
	run grep -nE '\b([a-z_>*.()-]+) = realloc(array)?\(\1,' "$SRC"/src/*.c
	[ "$status" -eq 1 ] || { echo "$output"; false; }
}

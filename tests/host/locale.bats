#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Column names, JSON keys and units are ASCII in every locale.  In
# tr_TR.UTF-8, tolower('I') is 'I' (the lower case of I is the dotless ı,
# which is not one byte), so case-folding through <ctype.h> turned ID into
# "Id" and refused -o id.  The locale is compiled into a temporary
# directory (LOCPATH): the host's locales are not changed.  It needs
# localedef (libc-bin) and the tr_TR source (Debian package locales).

setup_file() {
	LOC=$BATS_FILE_TMPDIR/locales
	mkdir -p "$LOC"
	localedef -i tr_TR -f UTF-8 "$LOC/tr_TR.UTF-8" >/dev/null 2>&1 ||
		{ echo "localedef -i tr_TR failed: install the Debian package locales" >&2; return 1; }
	export LOC
}

setup() {
	: "${QFD:?QFD must name the qfd binary}"
}

in_tr() {
	LOCPATH=$LOC LC_ALL=tr_TR.UTF-8 "$@"
}

@test "tr_TR.UTF-8 is in effect: the shell's own case folding is Turkish" {
	# proves the test can fail: ${x,,} follows the locale
	x=ID
	run in_tr bash -c 'x=ID; echo "${x,,}"'
	[ "$output" != "id" ]
}

# (AddressSanitizer intercepts strncasecmp with an ASCII one of its own: the
# sanitizer build hid the -o bug, a plain build showed it.)
@test "tr_TR.UTF-8: -o takes column names in any ASCII case" {
	run in_tr "$QFD" report /proc -o id,files,Inherit
	[ "$status" -eq 2 ]
	[ "$output" = "qfd: unknown column 'Inherit': 'qfd report -H' lists the columns" ]
	run in_tr "$QFD" report /proc -o id,files,name,file-soft
	[ "$status" -eq 2 ]
	[[ $output == *"unknown column 'file-soft'"* ]]
	# known columns pass: the error is about quotas on /proc, not -o
	run in_tr "$QFD" report /proc -o id,files,space-use%,files-grace --sort id
	[ "$status" -eq 1 ]
	[ "$output" = "qfd: /proc: proc has no quota support in this kernel" ]
	run in_tr "$QFD" project show "$QFD" -o path,id,inherit
	[ "$status" -eq 0 ]
	[[ ${lines[0]} == "PATH"*" ID INHERIT" ]]
}

@test "tr_TR.UTF-8: JSON keys are the column names in ASCII lower case" {
	run in_tr "$QFD" project show "$QFD" -J -o id,inherit,path
	[ "$status" -eq 0 ]
	[[ $output == *'"id": '* ]]
	[[ $output == *'"inherit": '* ]]
	[[ $output == *'"path": '* ]]
	keys=$(grep -o '"[^"]*": ' <<<"$output" | sort -u | tr -d '\n')
	[ "$keys" = '"id": "inherit": "path": "projects": ' ]
}

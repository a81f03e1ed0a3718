#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# 'qfd project' argument handling on the host.  Assigning projects needs a
# filesystem with project ids (tests/vm/suites/project-quota.bats); what is
# refused before any change is checked here.
#
# Run: QFD=/path/to/src/qfd bats tests/host/set-project-args.bats

setup() {
	: "${QFD:?QFD must name the qfd binary}"
	D=$BATS_TEST_TMPDIR/tree
	mkdir -p "$D/sub"
	echo x >"$D/sub/file"
}

@test "project --help: usage on stdout, exit 0; listed by qfd --help" {
	run "$QFD" project --help
	[ "$status" -eq 0 ]
	[[ ${lines[0]} == "Usage: qfd project "* ]]
	[[ $output == *"--recursive"* ]]
	run "$QFD" --help
	[[ $output == *"  project "* ]]
}

@test "project without an action, or an unknown one: exit 2 with a hint" {
	run "$QFD" project
	[ "$status" -eq 2 ]
	[[ $output == *"name an action: set, clear or show"* ]]
	run "$QFD" project frobnicate /
	[ "$status" -eq 2 ]
	[[ $output == *"unknown action 'frobnicate'"* ]]
	[[ $output == *"Try 'qfd project --help'"* ]]
}

@test "project set: a bad or missing project is refused before any change" {
	run "$QFD" project set -r "$D" no-such-project
	[ "$status" -eq 2 ]
	[[ $output == *"unknown project 'no-such-project': not in /etc/projid"* ]]
	run "$QFD" project set -r "$D" 4294967295
	[ "$status" -eq 2 ]
	[[ $output == *"out of range"* ]]
	run "$QFD" project set "$D"
	[ "$status" -eq 2 ]
	run "$QFD" project set "$D" "$D/sub" 5
	[ "$status" -eq 2 ]
	[[ $output == *"one directory at a time"* ]]
}

@test "project: output options only with show; -r is --recursive, --raw is raw" {
	run "$QFD" project set -J "$D" 5
	[ "$status" -eq 2 ]
	[[ $output == *"output options go with 'show'"* ]]
	run "$QFD" project show -H
	[ "$status" -eq 0 ]
	[[ $output == *"INHERIT"* ]]
}

@test "project show names the path it cannot open" {
	run "$QFD" project show "$D/missing"
	[ "$status" -eq 1 ]
	[[ $output == *"$D/missing: cannot open: No such file or directory"* ]]
}

@test "project show -r walks a tree (where the host filesystem has project ids)" {
	run "$QFD" project show -r --raw -n -o PATH "$D"
	if [[ $output == *"cannot read the project"* ]]; then
		skip "the host's $BATS_TEST_TMPDIR has no FS_IOC_FSGETXATTR"
	fi
	[ "$status" -eq 0 ]
	[ "$(sort <<<"$output")" = "$(printf '%s\n' "$D" "$D/sub" "$D/sub/file")" ]
	run "$QFD" project show -J "$D/sub/file"
	[ "$status" -eq 0 ]
	[[ $output == *'"path": "'"$D/sub/file"'"'* ]]
}

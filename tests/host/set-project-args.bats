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

# show only reads (FS_IOC_FSGETXATTR), so the host's own filesystem serves.
# A walk holding a descriptor per level ran out of them (EMFILE) at the
# depth of the descriptor limit; fts(3) needs a few, at any depth.
@test "project show -r walks a tree deeper than the descriptor limit" {
	D=$BATS_TEST_TMPDIR/deep
	mkdir -p "$D"
	(cd "$D" && for _ in $(seq 300); do mkdir d && cd d || exit 1; done && touch f)
	run bash -c 'ulimit -n 64 && exec "$0" project show -r -n --raw -o TYPE "$1"' "$QFD" "$D"
	[ "$status" -eq 0 ] || { echo "${lines[0]}"; false; }
	[ "$(grep -c '^directory$' <<<"$output")" -eq 301 ]
	[ "$(grep -c '^file$' <<<"$output")" -eq 1 ]
}

@test "project show -r does not follow symbolic links below the top, nor leave the filesystem" {
	D=$BATS_TEST_TMPDIR/links
	mkdir -p "$D/sub"
	touch "$D/sub/f"
	ln -s /etc "$D/etc-link"
	ln -s sub "$D/sub-link"
	run "$QFD" project show -r -n --raw -o PATH "$D"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '%s\n' "$D" "$D/sub" "$D/sub/f")" ] || { echo "$output"; false; }
	# a filesystem mounted below (in a private mount namespace): not entered
	mkdir "$D/mnt"
	run unshare -m sh -c 'mount -t tmpfs none "$1/mnt" && touch "$1/mnt/x" &&
		"$0" project show -r -n --raw -o PATH "$1"' "$QFD" "$D"
	[ "$status" -eq 0 ]
	[[ $output != *"/mnt"* ]] || { echo "$output"; false; }
	[[ $output == *"$D/sub/f"* ]]
}

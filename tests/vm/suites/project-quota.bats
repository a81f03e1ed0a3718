#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-weight: 60
#
# 'qfd project' on ext4 (project feature) and XFS (pquota): assigning a
# tree, idempotence, what a recursive walk must not touch (symbolic links,
# other filesystems), clearing, and the point of it all: a tree limited by
# its project's hard limit.  Project ids are read back with 'qfd project
# show -J' and cross-checked with xfs_io, which reads the same attributes.
#
# Run: tests/vm/check tests/vm/suites/project-quota.bats

load ../lib/fs

bats_require_minimum_version 1.5.0

setup_file() {
	in_vm || skip "not inside the test VM (use tests/vm/check)"
	fs_ext4_xfs
}

teardown_file() {
	fs_teardown
}

MNTS=("$QFD_SCRATCH/e" "$QFD_SCRATCH/x")

# proj PATH: "ID INHERIT" as qfd shows them
proj() {
	"$QFD" project show -J "$1" | jq -r '.projects[0] | "\(.id) \(.inherit)"'
}

# xproj PATH: the project id as xfs_io reads it
xproj() {
	xfs_io -r -c lsproj -- "$1" | sed -n 's/^projid = //p'
}

# tree DIR: a small tree with files, subdirectories and a symbolic link
tree() {
	rm -rf -- "$1"
	mkdir -p -- "$1/a/b" "$1/c"
	echo 1 >"$1/f"
	echo 2 >"$1/a/g"
	echo 3 >"$1/a/b/h"
	ln -s ../outside "$1/c/link"
}

@test "project set DIR: DIR only, with the inherit flag; a re-run changes nothing" {
	for m in "${MNTS[@]}"; do
		tree "$m/t1"
		run "$QFD" project set --exit-changed "$m/t1" qfdp1
		[ "$status" -eq 4 ] || { echo "$m: $status $output"; false; }
		[ "$output" = "changed $m/t1: project qfdp1 (4001) on 1 of 1 file or directory" ]
		[ "$(proj "$m/t1")" = "4001 true" ]
		[ "$(xproj "$m/t1")" = 4001 ]
		[ "$(proj "$m/t1/f")" = "0 false" ]
		run "$QFD" project set --exit-changed "$m/t1" 4001
		[ "$status" -eq 0 ]
		[[ $output == "unchanged "* ]]
		# what is created below inherits it
		mkdir "$m/t1/new"
		echo x >"$m/t1/new/file"
		[ "$(proj "$m/t1/new")" = "4001 true" ]
		[ "$(proj "$m/t1/new/file")" = "4001 false" ]
	done
}

@test "project set -r: every file and directory, not symbolic links, not other filesystems" {
	for m in "${MNTS[@]}"; do
		tree "$m/t2"
		mkdir -p "$m/outside" "$m/t2/mnt"
		mount -t tmpfs -o size=1M tmpfs "$m/t2/mnt"
		echo inner >"$m/t2/mnt/inner"
		run "$QFD" project set -r "$m/t2" qfdp2
		umount "$m/t2/mnt"
		[ "$status" -eq 0 ] || { echo "$m: $output"; false; }
		# t2, a, a/b, c, f, a/g, a/b/h; not the link, not the tmpfs root
		[ "$output" = "changed $m/t2: project qfdp2 (4002) on 7 of 7 files and directories" ]
		for d in "" /a /a/b /c; do
			[ "$(proj "$m/t2$d")" = "4002 true" ] || { echo "$m/t2$d: $(proj "$m/t2$d")"; false; }
		done
		for f in /f /a/g /a/b/h; do
			[ "$(proj "$m/t2$f")" = "4002 false" ] || { echo "$m/t2$f"; false; }
			[ "$(xproj "$m/t2$f")" = 4002 ]
		done
		# the link was not followed
		[ "$(proj "$m/outside")" = "0 false" ]
		# the directory the tmpfs was mounted on was not reached either
		[ "$(proj "$m/t2/mnt")" = "0 false" ]
		# show -r lists all but the link
		run "$QFD" project show -r -J "$m/t2"
		[ "$(jq '.projects | length' <<<"$output")" -eq 8 ]
		[ "$(jq '[.projects[] | select(.id == 4002)] | length' <<<"$output")" -eq 7 ]
		[ "$(jq -r '[.projects[] | select(.path | endswith("/a/b/h"))][0].project' <<<"$output")" = qfdp2 ]
	done
}

@test "project clear -r removes ids and inherit flags" {
	for m in "${MNTS[@]}"; do
		tree "$m/t3"
		"$QFD" project set -q -r "$m/t3" qfdp3
		run "$QFD" project clear --exit-changed -r "$m/t3"
		[ "$status" -eq 4 ]
		[ "$output" = "changed $m/t3: project cleared on 7 of 7 files and directories" ]
		run "$QFD" project show -r --raw -n -o ID,INHERIT "$m/t3"
		[ "$(sort -u <<<"$output")" = "0 no" ]
		run "$QFD" project clear --exit-changed -r "$m/t3"
		[ "$status" -eq 0 ]
	done
}

@test "a bad project is refused before anything changes (exit 2)" {
	for m in "${MNTS[@]}"; do
		tree "$m/t4"
		run "$QFD" project set -r "$m/t4" nosuchproject
		[ "$status" -eq 2 ]
		[[ $output == *"unknown project 'nosuchproject'"* ]]
		run "$QFD" project set -r "$m/t4" 4294967295
		[ "$status" -eq 2 ]
		[ "$(proj "$m/t4")" = "0 false" ]
	done
}

@test "errors name the path: a symbolic link, a filesystem without project ids" {
	m=$QFD_SCRATCH/e
	ln -sfn t1 "$m/t1link"
	run "$QFD" project set "$m/t1link" qfdp1
	[ "$status" -eq 1 ]
	[[ $output == *"$m/t1link: is a symbolic link"* ]]
	np=$(fs_ext4_noquota np)
	mkdir "$np/d"
	run "$QFD" project set "$np/d" qfdp1
	[ "$status" -eq 1 ]
	[[ $output == "qfd: $np/d: cannot set the project: $np (ext4) has no project ids: make it with mkfs.ext4 -O project -I 256"* ]]
}

# untouched DIR: every directory and file in DIR has project 0 and no
# inherit flag (P), as lsattr reads them; names the first that has.
untouched() {
	local p line id flags
	while IFS= read -r -d '' p; do
		line=$(lsattr -d -p -- "$p") || return
		read -r id flags _ <<<"$line"
		if [ "$id" != 0 ] || [[ $flags == *P* ]]; then
			echo "changed: $line"
			return 1
		fi
	done < <(find "$1" \( -type d -o -type f \) -print0)
}

@test "no project ids on the filesystem: one line naming the mount, nothing changed" {
	fs_ext4_noproject np-q >/dev/null
	fs_ext4_noquota np-n >/dev/null
	fs_f2fs_noquota np-f >/dev/null
	for name in np-q np-n np-f; do
		m=$QFD_SCRATCH/$name
		case $name in
		np-f) todo="mkfs.f2fs -O extra_attr,project_quota" ;;
		*) todo="tune2fs -O project" ;;
		esac
		for r in "" -r; do
			tree "$m/t5"
			run --separate-stderr "$QFD" project set $r "$m/t5" qfdp1
			echo "$name $r: status $status, stdout '$output', stderr:"
			printf '%s\n' "${stderr_lines[@]}"
			[ "$status" -eq 1 ]
			[ -z "$output" ]
			[ "${#stderr_lines[@]}" -eq 1 ]
			[[ $stderr == "qfd: $m/t5: cannot set the project: $m "*" has no project ids"*"$todo"* ]]
			untouched "$m/t5"
		done
	done
}

@test "a project id the kernel refuses (EDQUOT) leaves the inherit flag as it was" {
	# ext4 sets the flags before it moves the inode's charge, so a
	# transfer over the project's hard limit used to leave P behind;
	# as a user: root passes the limit (CAP_SYS_RESOURCE)
	m=$QFD_SCRATCH/e
	rm -rf "$m/t6"
	mkdir "$m/t6"
	chown qfdu1 "$m/t6"
	"$QFD" set -q -p "$m" qfdp3 --bhard 1K
	run --separate-stderr as_user qfdu1 "$QFD" project set "$m/t6" qfdp3
	"$QFD" set -q -p "$m" qfdp3 --bhard 0
	echo "status $status, stderr: $stderr"
	[ "$status" -eq 1 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ $stderr == *"$m/t6: cannot set the project: the project's limits"* ]]
	untouched "$m/t6"
}

@test "a tree assigned to a project is held to the project's hard limit" {
	for m in "${MNTS[@]}"; do
		rm -rf "$m/lim"
		mkdir "$m/lim"
		chmod 1777 "$m/lim"
		"$QFD" project set -q "$m/lim" qfdp1
		run "$QFD" set -p "$m" qfdp1 --bsoft 0 --bhard 1M --isoft 0 --ihard 0
		[ "$status" -eq 0 ]
		# as a user: root may pass ext4's limits (CAP_SYS_RESOURCE)
		run write_bytes "$m/lim/big" $((2 << 20)) qfdu1
		[ "$status" -ne 0 ]
		# ext4 says EDQUOT; XFS reports a project over its limit as ENOSPC,
		# as a directory tree that is "full"
		case $m in
		*/e) [[ $output == *"Disk quota exceeded"* ]] || { echo "$output"; false; } ;;
		*/x) [[ $output == *"No space left on device"* ]] || { echo "$output"; false; } ;;
		esac
		used=$("$QFD" get -p -J "$m" qfdp1 | jq '.quotas[0].space')
		((used <= 1 << 20)) || { echo "$m: project uses $used"; false; }
		# outside the tree the same user is not limited by it
		write_bytes "$m/free.dat" $((2 << 20)) qfdu1
		rm -f "$m/lim/big" "$m/free.dat"
	done
}

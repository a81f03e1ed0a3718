#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# 'qfd apply' documents checked on the host, no VM: every bad document or
# item is one line naming the file and the place in it, exit 2, and no
# quota call is made (--debug would trace it).  Documents name /proc, which
# has no quota support (ENOSYS, exit 1): a good document gets that far and
# no further, and the host's own filesystems are never touched.
#
# Run: QFD=/path/to/src/qfd bats tests/host/apply.bats

setup() {
	: "${QFD:?QFD must name the qfd binary}"
	F=$BATS_TEST_TMPDIR/doc.json
}

# item JSON: a document with one user limits item
item() {
	printf '{"filesystems": [{"path": "/proc", "user": {"limits": [%s]}}]}\n' "$1" >"$F"
}

# refused MESSAGE: apply "$F" fails with exactly that one line, exit 2
refused() {
	run "$QFD" --debug apply "$F"
	[ "$status" -eq 2 ] || { echo "exit $status: $output"; false; }
	[ "${#lines[@]}" -eq 1 ] || { echo "not one line: $output"; false; }
	[ "$output" = "qfd: $F: $1" ] || { echo "got: $output"; false; }
}

@test "apply: a bad value names the item's place, one line, exit 2, no quota call" {
	item '{"who": "root", "space-hard": "2X"}'
	refused "filesystems[0].user.limits[0].space-hard: '2X': not a size (examples: 500M, 1.5G, 2TiB; null for no limit)"
	item '{"who": "root", "files-soft": -1}'
	refused 'filesystems[0].user.limits[0].files-soft: must be a whole number of at least 0, or a string such as "10k"'
	item '{"who": "root", "space-soft": 1.5}'
	refused 'filesystems[0].user.limits[0].space-soft: must be a whole number of at least 0, or a string such as "10G"'
	item '{"who": -1}'
	refused 'filesystems[0].user.limits[0].who: must be a name, "#ID" or a whole number of at least 0'
	item '{"who": "root", "space-hrad": 1}'
	refused 'filesystems[0].user.limits[0].space-hrad: unknown key: an item has "who", "space-soft", "space-hard", "files-soft", "files-hard", "space-grace-ends", "files-grace-ends"'
	item '{"who": "qfd-no-such-user", "space-hard": 1}'
	refused "filesystems[0].user.limits[0].who: unknown user 'qfd-no-such-user'"
	item '{"space-hard": 1}'
	refused 'filesystems[0].user.limits[0]: no "who": name the user, group or project'
	item '{"who": "root", "space-soft": "2M", "space-hard": "1M"}'
	refused 'filesystems[0].user.limits[0]: space-soft exceeds space-hard'
}

@test "apply: 0 is refused, null is no limit" {
	item '{"who": "root", "space-hard": 0}'
	refused 'filesystems[0].user.limits[0].space-hard: 0 is not a limit (the kernel reads it as none): write null for no limit'
	item '{"who": "root", "space-hard": null, "files-hard": "10k"}'
	run "$QFD" apply "$F"
	[ "$status" -eq 1 ]
	[ "$output" = "qfd: /proc: proc has no quota support in this kernel" ]
}

@test "apply: a grace time's end is seconds since 1970, not id 0's" {
	item '{"who": "root", "space-grace-ends": "7d"}'
	refused 'filesystems[0].user.limits[0].space-grace-ends: must be a time in seconds since 1970 (UTC), from 1 to 549755813887'
	item '{"who": "root", "files-grace-ends": 0}'
	refused 'filesystems[0].user.limits[0].files-grace-ends: must be a time in seconds since 1970 (UTC), from 1 to 549755813887'
	item '{"who": 0, "space-grace-ends": 1800000000}'
	refused 'filesystems[0].user.limits[0].who: id 0 has no grace time of its own (its timers are the grace periods: "grace")'
	item '{"who": "#1", "space-grace-ends": 1800000000, "files-grace-ends": 1800000001}'
	run "$QFD" apply "$F"
	[ "$status" -eq 1 ]
	[ "$output" = "qfd: /proc: proc has no quota support in this kernel" ]
}

@test "apply: not JSON names FILE:LINE:COLUMN; stdin is 'stdin'" {
	printf '{"filesystems": [\n  {"path": "/proc",\n   "user": {"enforce": tru}}]}\n' >"$F"
	run "$QFD" --debug apply "$F"
	[ "$status" -eq 2 ]
	[ "$output" = "qfd: $F:3:27: not valid JSON: not a value (true, false, null, a number, a string, an object or an array)" ]
	run "$QFD" apply - <"$F"
	[ "$output" = "qfd: stdin:3:27: not valid JSON: not a value (true, false, null, a number, a string, an object or an array)" ]
	printf '{"filesystems": []} {}' | { run "$QFD" apply -; [ "$output" = "qfd: stdin:1:22: not valid JSON: something follows the document" ]; }
	printf '{"filesystems": [' | { run "$QFD" apply -; [ "$output" = "qfd: stdin:1:18: not valid JSON: the document ends too early" ]; }
}

@test "apply: the document's shape: unknown keys, wrong types, --path with two filesystems" {
	echo '{"filesystem": []}' >"$F"
	run "$QFD" apply "$F"
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "qfd: $F: filesystem: unknown key: the document has \"filesystems\"" ]
	[ "${lines[1]}" = "qfd: $F: the document: no \"filesystems\": nothing to apply" ]
	echo '{"filesystems": [{"path": "/proc", "user": {"enforce": "yes"}}]}' >"$F"
	refused 'filesystems[0].user.enforce: must be true or false'
	echo '{"filesystems": [{"path": "/proc", "user": {"grace": {"space": "7x"}}}]}' >"$F"
	refused "filesystems[0].user.grace.space: '7x': not a duration (examples: 90s, 15m, 12h, 7d, 2w, 1d12h)"
	echo '{"filesystems": [{"path": "/proc", "user": {"grace": {"files": -60}}}]}' >"$F"
	refused 'filesystems[0].user.grace.files: must be a whole number of seconds, or a string such as "7d"'
	echo '{"filesystems": []}' >"$F"
	refused 'filesystems: empty: nothing to apply (name at least one filesystem)'
	echo '{"filesystems": [{"path": "/proc"}, {"path": "/proc"}]}' >"$F"
	run "$QFD" apply --path /proc "$F"
	[ "$status" -eq 2 ]
	[ "$output" = "qfd: $F: filesystems: --path needs a document of one filesystem, not 2" ]
	item '{"who": "root", "space-hard": 1}, {"who": 0, "space-hard": 2}'
	run "$QFD" --debug apply "$F"
	[ "$status" -eq 2 ]
	[[ $output == *"user '#0' (0) is named twice (also as 'root')"* ]]
	[[ $output != *quotactl* ]]
}

@test "apply, dump: usage errors exit 2 with the hint" {
	run "$QFD" apply
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "qfd: name the document: a FILE, or '-' for stdin" ]
	run "$QFD" apply "$BATS_TEST_TMPDIR/none.json"
	[ "$status" -eq 2 ]
	[[ $output == "qfd: $BATS_TEST_TMPDIR/none.json: No such file or directory" ]]
	run "$QFD" dump
	[ "$status" -eq 2 ]
	[ "${lines[1]}" = "Try 'qfd dump --help' for more information." ]
	run "$QFD" dump /proc
	[ "$status" -eq 1 ]
}

@test "set and apply: relative limits parse; a slip like '+-5G' is refused, exit 2" {
	run "$QFD" --debug set /proc root --bhard +-5G
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "qfd: --bhard '+-5G': not a size (examples: 0, 500M, 1.5G, 2TiB)" ]
	# a good relative limit gets as far as reading the id's limit now
	run "$QFD" --debug set --raise-only /proc root --bhard=-1G --ihard +10
	[ "$status" -eq 1 ]
	[[ $output == *"Q_GETQUOTA"* ]]
	item '{"who": "root", "space-soft": "+2M", "space-hard": "1M"}'
	run "$QFD" apply "$F"
	[ "$status" -eq 1 ]
	item '{"who": "root", "files-hard": "--3"}'
	refused "filesystems[0].user.limits[0].files-hard: '--3': not a count (examples: 1000, 10k, 2.5m; null for no limit)"
}

# dirs JSON: a document with project-dirs on /proc, which has no project
# ids: the plan refuses every item, so nothing is ever written on the host
dirs() {
	printf '{"filesystems": [{"path": "/proc", "project-dirs": %s}]}\n' "$1" >"$F"
}

@test "apply: project-dirs items are checked, each bad one named; /proc keeps no project ids" {
	dirs '[{"path": "/abs", "project": 1}]'
	refused "filesystems[0].project-dirs[0].path: '/abs': must be relative to the filesystem's mount point (\".\" for itself)"
	dirs '[{"path": "x", "project": "qfd-no-such-project"}]'
	refused "filesystems[0].project-dirs[0].project: unknown project 'qfd-no-such-project': not in /etc/projid; use a number or add it there"
	dirs '[{"path": "x", "project": 1, "inherit": 1}]'
	refused 'filesystems[0].project-dirs[0].inherit: must be true or false'
	dirs '[{"project": 1}]'
	refused 'filesystems[0].project-dirs[0]: no "path": name the directory'
	dirs '[{"path": "x"}]'
	refused 'filesystems[0].project-dirs[0]: no "project": name the project (0 for none)'
	dirs '[{"path": "x", "projet": 1}]'
	refused 'filesystems[0].project-dirs[0].projet: unknown key: a project directory has "path", "project", "inherit"'
	dirs '{}'
	refused 'filesystems[0].project-dirs: must be an array of directories'
	# the plan: every item named, with the mount point, then nothing changed
	dirs '[{"path": ".", "project": 1}, {"path": "self", "project": 2}, {"path": "qfd-none", "project": 3}]'
	run "$QFD" --debug apply "$F"
	[ "$status" -eq 2 ] || { echo "exit $status: $output"; false; }
	[ "${lines[0]}" = "qfd: /proc: project directory .: /proc (proc) has no project ids: ext4 (-O project), XFS and f2fs (-O extra_attr,project_quota) keep them" ]
	[ "${lines[1]}" = "qfd: /proc: project directory self: not a directory (symbolic links are not followed)" ]
	[ "${lines[2]}" = "qfd: /proc: project directory qfd-none: no such directory" ]
	[ "${lines[3]}" = "qfd: $F: nothing was changed" ]
	[ "${#lines[@]}" -eq 4 ]
}

# notjson TEXT: apply refuses the document TEXT as not JSON, one line
# naming the file, line and column, exit 2
notjson() {
	printf '%s' "$1" >"$F"
	run "$QFD" --debug apply "$F"
	[ "$status" -eq 2 ] || { echo "$1: exit $status: $output"; false; }
	[ "${#lines[@]}" -eq 1 ] || { echo "$1: not one line: $output"; false; }
	[[ $output == "qfd: $F:"[0-9]*:[0-9]*": not valid JSON: "* ]] ||
		{ echo "$1: got: $output"; false; }
}

@test "apply: only strict JSON (RFC 8259): no comments, trailing commas, single quotes, NaN, 010" {
	local v
	for v in 010 01 NaN -NaN Infinity -Infinity TRUE True 0x10 +1 .5 1. - "'1M'" '"1M" // no limit' \
		'"1M" /* no limit */' '"1M" # no limit' '"a	b"' '"\x41"' '"\u12"'; do
		notjson '{"filesystems": [{"path": "/proc", "user": {"limits": [{"who": "root", "space-hard": '"$v"'}]}}]}'
	done
	notjson '{"filesystems": [{"path": "/proc"},]}'
	notjson '{"filesystems": [{"path": "/proc",}]}'
	notjson '{"filesystems": [{"path": "/proc"}],}'
	notjson "{'filesystems': []}"
	notjson '{filesystems: []}'
	notjson '{"filesystems": [] "x": 1}'
	notjson '{"filesystems": []} {"filesystems": []}'
	notjson '[] []'
	# yajl lets an unfinished token after the document pass
	notjson '{"filesystems": [{"path": "/proc"}]} "abc'
	notjson '{"filesystems": [{"path": "/proc"}]}
tru'
	# yajl takes these as blanks, RFC 8259 does not
	notjson "$(printf '{"filesystems":\f[]}')"
	notjson "$(printf '{"filesystems":\v[]}')"
	# and --help says so
	run "$QFD" apply --help
	[[ $output == *"FILE is a strict JSON document (RFC 8259; '-': stdin; at most 2 GiB)"* ]]
}

@test "apply: an empty or truncated document names the file" {
	: >"$F"
	run "$QFD" apply "$F"
	[ "$status" -eq 2 ]
	[ "$output" = "qfd: $F:1:1: the document is empty" ]
	printf ' \n\n  ' >"$F"
	run "$QFD" apply "$F"
	[ "$output" = "qfd: $F:3:3: the document is empty" ]
	printf '{"filesystems": [{"path": "/pr' >"$F"
	run "$QFD" apply "$F"
	[ "$status" -eq 2 ]
	[ "$output" = "qfd: $F:1:31: not valid JSON: the document ends too early" ]
	printf '{"filesystems": [{"path": "/proc", "user": {"limits": [{"who": 0, "space-hard": 12' >"$F"
	run "$QFD" apply "$F"
	[ "$status" -eq 2 ]
	[ "$output" = "qfd: $F:1:83: not valid JSON: the document ends too early" ]
}

# refused_at TEXT AT: apply refuses the document TEXT (printf's format)
# with the one line "qfd: FILE" AT (":LINE:COL: ..."), exit 2, no quota call
refused_at() {
	printf "$1" >"$F"
	run "$QFD" --debug apply "$F"
	[ "$status" -eq 2 ] || { echo "exit $status: $output"; false; }
	[ "$output" = "qfd: $F$2" ] || { echo "got: $output"; false; }
}

@test "apply: a NUL character in any string or key is an error naming the item" {
	refused_at '{"filesystems": [{"path": "/proc", "user": {"limits": [{"who": "ro\\u0000ot", "space-hard": "1M"}]}}]}' \
		':1:76: filesystems[0].user.limits[0].who: a string holds a NUL character (\u0000): remove it'
	refused_at '{"filesystems": [{"path": "/proc\\u0000/x"}]}' \
		':1:42: filesystems[0].path: a string holds a NUL character (\u0000): remove it'
	refused_at '{"filesystems": [{"path": "/proc", "pa\\u0000th": "/"}]}' \
		':1:48: filesystems[0]: a key holds a NUL character (\u0000): remove it'
	refused_at '{"filesystems": [{"path": "/proc", "project-dirs": [{"path": "\\u0000", "project": 1}]}]}' \
		':1:70: filesystems[0].project-dirs[0].path: a string holds a NUL character (\u0000): remove it'
	refused_at '{"filesystems": [{"path": "/proc"}]}\0' ':1:37: not valid JSON: a NUL byte'
}

@test "apply: a key given twice in one object is refused, naming both places" {
	refused_at '{"filesystems": [{"path": "/proc",\n  "path": "/sys"}]}' \
		':2:9: filesystems[0].path: given twice in one object (first on line 1): keep one'
	refused_at '{"filesystems": [],\n\n "filesystems": [{"path": "/proc"}]}' \
		':3:15: filesystems: given twice in one object (first on line 1): keep one'
	refused_at '{"filesystems": [{"path": "/proc", "user": {"limits": [{"who": "root", "space-hard": "1M",\n\t\t"space-hard": null}]}}]}' \
		':2:15: filesystems[0].user.limits[0].space-hard: given twice in one object (first on line 1): keep one'
	refused_at '{"filesystems": [{"path": "/proc", "user": {"limits": [{"who": 0, "space-hard": 1}]},\n "user": {"limits": []}}]}' \
		':2:8: filesystems[0].user: given twice in one object (first on line 1): keep one'
}

@test "apply: reading stops at 2 GiB, and at the first byte that is not JSON" {
	# a sparse file larger than the limit: refused before reading
	truncate -s 3G "$F"
	run timeout 20 "$QFD" apply "$F"
	[ "$status" -eq 2 ]
	[ "$output" = "qfd: $F: larger than 2 GiB, the most apply reads: split the document (one per filesystem)" ]
	# endless input that is not JSON stops at once
	run timeout 20 "$QFD" apply /dev/zero
	[ "$status" -eq 2 ]
	[ "$output" = "qfd: /dev/zero:1:1: not valid JSON: a NUL byte" ]
	run timeout 20 sh -c 'yes | "$QFD" apply -'
	[ "$status" -eq 2 ]
	[ "$output" = "qfd: stdin:1:2: not valid JSON: a character that cannot start a value" ]
	# JSON that never ends (blanks inside the object) stops at the limit
	run timeout 120 sh -c '{ printf "{\"filesystems\": []"; tr "\\0" " " </dev/zero; } | "$QFD" apply -'
	[ "$status" -eq 2 ]
	[ "$output" = "qfd: stdin: larger than 2 GiB, the most apply reads: split the document (one per filesystem)" ]
}

@test "apply: a path that cannot be opened names the file and the item, exit 2" {
	echo '{"filesystems": [{"path": ""}]}' >"$F"
	refused 'filesystems[0].path: empty: name a path on the filesystem'
	echo '{"filesystems": [{"path": "/proc"}, {"path": "/qfd-no-such-dir"}]}' >"$F"
	refused "filesystems[1].path: '/qfd-no-such-dir': No such file or directory"
	[[ $output != *quotactl* ]]
}

@test "apply: the same filesystem twice, by one path or two, is refused naming both items" {
	echo '{"filesystems": [{"path": "/proc"}, {"path": "/proc"}]}' >"$F"
	refused "filesystems[1].path: '/proc': the same filesystem as filesystems[0] ('/proc'): name each filesystem once"
	echo '{"filesystems": [{"path": "/proc/self"}, {"path": "/sys"}, {"path": "/proc/1"}]}' >"$F"
	refused "filesystems[2].path: '/proc/1': the same filesystem as filesystems[0] ('/proc/self'): name each filesystem once"
	[[ $output != *quotactl* ]]
}

@test "apply: a string or number longer than 64 KiB is refused as it is read" {
	# yajl would keep the whole of it (and json-c copy it): 2 GiB of one
	# string would cost several GiB of memory before the 2 GiB limit
	run timeout 60 sh -c '{ printf "{\"filesystems\": [{\"path\": \"/"; tr "\\0" a </dev/zero; } | "$QFD" apply -'
	[ "$status" -eq 2 ]
	[ "$output" = "qfd: stdin:1:65564: filesystems[0].path: longer than 64 KiB, more than any field takes" ]
	printf '{"filesystems": [{"path": "/proc", "user": {"limits": [{"who": 1%070000d}]}}]}' 0 >"$F"
	run "$QFD" apply "$F"
	[ "$status" -eq 2 ]
	[ "$output" = "qfd: $F:1:65600: filesystems[0].user.limits[0].who: longer than 64 KiB, more than any field takes" ]
	# 64 KiB itself is read (and found wrong for what it is)
	printf '{"filesystems": [{"path": "/%065535d"}]}' 0 >"$F"
	run "$QFD" apply "$F"
	[ "$status" -eq 2 ]
	[[ $output == *"File name too long" ]]
}

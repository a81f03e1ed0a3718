# tests/vm/lib/qfd.bash: helpers and shared test bodies for the qfd-*.bats
# suites in tests/vm/suites, which run inside the test VM (tests/vm/check).
#
# Load it from a suite with:
#     QFD_FS=ext4            # or xfs, ubifs, f2fs: the filesystem under test
#     load ../lib/qfd
#
# It builds on lib/fs.bash (filesystems, users, as_user, as_ids, write_as)
# and adds:
#   - qfd_*   : running qfd and reading its JSON with jq;
#   - assert_*: small assertions that print what they saw when they fail
#               (bats-assert is not installed, and need not be);
#   - t_*     : test bodies shared by the per-filesystem suites.  Each
#               qfd-FS.bats names its tests and calls these, so the same
#               assertions run on ext4, XFS and (patched) UBIFS.  What
#               differs between filesystems is in qfd_fs_* below, not in
#               the bodies.
#
# Conventions of the bodies:
#   - one filesystem per suite file, made in setup_file, its mount point in
#     $MNT, its name for lib/fs.bash in $FSNAME;
#   - every test works on ids of its own (numeric uids/gids 5xxx/6xxx made
#     up on the spot: setpriv needs no passwd entry), so tests do not depend
#     on each other's usage or limits and may run alone (bats -f);
#   - data is written in multiples of 4 KiB with fsync, limits are whole
#     MiB: ext4 and XFS (4 KiB blocks) then charge exactly what is written,
#     and XFS does not round the limits.

# shellcheck source=fs.bash
source "$BATS_TEST_DIRNAME/../lib/fs.bash"

bats_require_minimum_version 1.5.0

# lib/fs.bash set QFD's default
export QFD

# The guest's devtmpfs has no /dev/fd, which bash's process substitution
# (and so lib/fs.bash's fs_teardown) needs.
if in_vm && [[ ! -e /dev/fd ]]; then
	ln -s /proc/self/fd /dev/fd 2>/dev/null || true
fi

WEEK=604800	# default grace period of ext4, XFS and UBIFS, in seconds

# ------------------------------------------------------------ running qfd

qfd() {
	"$QFD" "$@"
}

# qfd_qj MNT FLAG WHO FIELD...: the fields of WHO's quota entry of type
# FLAG (-u, -g, -p) on MNT, read with 'qfd get -J' and jq, joined by
# spaces (null for a JSON null).  Fails if qfd fails or the entry is missing.
_jq_names() {
	local f
	f=$(printf '"%s",' "$@")
	printf '[%s]' "${f%,}"
}

qfd_qj() {
	local mnt=$1 flag=$2 who=$3 json
	shift 3
	json=$("$QFD" get -J "$flag" "$mnt" "$who") || return
	jq -e -r --argjson f "$(_jq_names "$@")" \
		'.quotas | if length == 1 then .[0] else error("not one entry") end
		 | [.[$f[]]] | map(tostring) | join(" ")' <<<"$json"
}

# qfd_q: the same answer as qfd_qj, read from 'qfd get --csv -b -o FIELDS'
# instead (an empty cell is null).  jq costs far more than qfd itself under
# TCG, so the many reads that only need the numbers use this; the tests that
# are about the JSON document use qfd_qj or jq directly.
qfd_q() {
	local mnt=$1 flag=$2 who=$3 cols f out
	local -a cells
	shift 3
	for f in "$@"; do
		cols+=${cols:+,}${f^^}
	done
	out=$("$QFD" get --csv -n -b -o "$cols" "$flag" "$mnt" "$who") || return
	[[ $out != *$'\n'* && -n $out ]] || { echo "qfd_q: not one entry: $out" >&2; return 1; }
	IFS=, read -ra cells <<<"$out,"
	((${#cells[@]} == $#)) || { echo "qfd_q: $# fields wanted, got: $out" >&2; return 1; }
	for f in "${!cells[@]}"; do
		[[ -n ${cells[f]} ]] || cells[f]=null
	done
	echo "${cells[*]}"
}

# qfd_usage MNT FLAG WHO: "SPACE FILES".  qfd_limits: "BSOFT BHARD ISOFT IHARD".
qfd_usage() { qfd_q "$1" "$2" "$3" space files; }
qfd_limits() { qfd_q "$1" "$2" "$3" space-soft space-hard files-soft files-hard; }

# quota_calls TEXT: the user-quota reads and limit writes (Q_GETQUOTA,
# Q_XSETQLIM) in qfd --debug's lines of TEXT, as "CMD ID " in order, on
# one line: what order qfd issued them in.
quota_calls() {
	sed -nE 's/^qfd: debug: quotactl_fd\(.*, (Q_GETQUOTA|Q_XSETQLIM), user, ([0-9]+)\) = .*$/\1 \2/p' <<<"$1" |
		tr '\n' ' '
}

# qfd_report_q MNT FLAG ID FIELD...: like qfd_q, but from 'qfd report -J'.
qfd_report_q() {
	local mnt=$1 flag=$2 id=$3 json
	shift 3
	json=$("$QFD" report -J "$flag" "$mnt") || return
	jq -e -r --argjson id "$id" --argjson f "$(_jq_names "$@")" \
		'[.quotas[] | select(.id == $id)]
		 | if length == 1 then .[0] else error("not one entry for the id") end
		 | [.[$f[]]] | map(tostring) | join(" ")' <<<"$json"
}

# qfd_state_q MNT TYPE FIELD: one field of 'qfd state -J' for TYPE (user...).
qfd_state_q() {
	"$QFD" state -J "$1" |
		jq -e -r --arg t "$2" --arg f "$3" \
			'[.filesystems[] | select(.type == $t)] | if length == 1
			 then .[0][$f] | tostring else error("not one entry") end'
}

# ------------------------------------------------------------ assertions

# Each prints what it expected and what it got, then fails.  They work on
# bats's $status, $output, $stderr (run --separate-stderr) and $lines.

_fail() {
	printf '%s\n' "$@" >&2
	return 1
}

assert_status() {
	[[ $status -eq $1 ]] ||
		_fail "expected exit status $1, got $status" \
			"stdout: ${output-}" "stderr: ${stderr-}"
}

assert_eq() {
	[[ $1 == "$2" ]] || _fail "expected: '$2'" "got:      '$1'" "${3:+($3)}"
}

# assert_in_range VALUE LOW HIGH
assert_in_range() {
	[[ $1 =~ ^[0-9]+$ ]] && (($1 >= $2 && $1 <= $3)) ||
		_fail "expected a number in [$2, $3], got '$1'"
}

# assert_stdout_empty / assert_stderr_empty
assert_stdout_empty() {
	[[ -z $output ]] || _fail "expected no stdout, got:" "$output"
}
assert_stderr_empty() {
	[[ -z ${stderr-} ]] || _fail "expected no stderr, got:" "$stderr"
}

# assert_stderr_line LINE: stderr is exactly that one line.
assert_stderr_line() {
	[[ ${#stderr_lines[@]} -eq 1 && ${stderr_lines[0]} == "$1" ]] ||
		_fail "expected stderr to be exactly one line:" "  $1" "got:" "$stderr"
}

# assert_stderr_re REGEX: stderr is exactly one line, matching REGEX.
assert_stderr_re() {
	[[ ${#stderr_lines[@]} -eq 1 && ${stderr_lines[0]} =~ $1 ]] ||
		_fail "expected stderr to be one line matching:" "  $1" "got:" "$stderr"
}

# assert_error CHECK [ARGS...]: the last run failed as qfd reports an error
# that is not one of usage: exit 1, nothing on stdout, and what CHECK
# (assert_stderr_line LINE, assert_stderr_re REGEX, assert_quotas_off_line
# MNT) asks of stderr.
assert_error() {
	assert_status 1 || return
	assert_stdout_empty || return
	"$@"
}

# assert_edquot: the last run was a write (dd, touch) the quota refused:
# exit 1 and "Disk quota exceeded" in what it said.
assert_edquot() {
	assert_status 1 || return
	[[ $output == *"Disk quota exceeded"* ]] || _fail "it said: $output"
}

# assert_usage_error LINE: a usage error as qfd reports them: exit 2,
# nothing on stdout, LINE on stderr, optionally followed by the one
# "Try 'qfd CMD --help'..." hint and nothing else.
assert_usage_error() {
	assert_status 2 || return
	assert_stdout_empty || return
	[[ ${stderr_lines[0]-} == "$1" ]] ||
		_fail "expected stderr to start with:" "  $1" "got:" "$stderr" || return
	case ${#stderr_lines[@]} in
	1) ;;
	2) [[ ${stderr_lines[1]} =~ ^Try\ \'qfd\ [a-z]+\ --help\'\ for\ more\ information\.$ ]] ||
		_fail "unexpected second line: ${stderr_lines[1]}" ;;
	*) _fail "expected one error line (plus the hint), got:" "$stderr" ;;
	esac
}

# assert_line_ws TEXT: some line of $output equals TEXT once runs of blanks
# are squeezed to one space and leading/trailing blanks dropped (the human
# table's alignment is libsmartcols's business, its cells are qfd's).
_squeeze() {
	local -a w
	read -ra w <<<"$1"
	_sq="${w[*]}"
}

assert_line_ws() {
	local l _sq
	for l in "${lines[@]}"; do
		_squeeze "$l"
		[[ $_sq == "$1" ]] && return 0
	done
	_fail "expected a line (blanks squeezed):" "  $1" "got:" "$output"
}

# assert_line_ws_re REGEX: like assert_line_ws, the squeezed line matching
# REGEX (anchored at both ends).
assert_line_ws_re() {
	local l _sq
	for l in "${lines[@]}"; do
		_squeeze "$l"
		[[ $_sq =~ ^$1$ ]] && return 0
	done
	_fail "expected a line (blanks squeezed) matching:" "  ^$1\$" "got:" "$output"
}

# assert_output_has_line LINE: some line of $output is exactly LINE.
assert_output_has_line() {
	local l
	for l in "${lines[@]}"; do
		[[ $l == "$1" ]] && return 0
	done
	_fail "expected the line:" "  $1" "got:" "$output"
}

# ------------------------------------------------------------ filesystems

# What differs between the filesystems under test, in one place.
#   qfd_fs_make NAME     make and mount it with user, group (and project)
#                        quotas accounted and enforced; print the mount point
#   qfd_fs_has_project   true if the filesystem accounts project quotas
#   qfd_fs_dir_cost      "SPACE FILES" a new empty directory is charged
#   qfd_fs_format        FORMAT column of 'qfd state'
#   qfd_fs_project_errno the error message of a write past a project's
#                        hard limit (XFS reports projects as ENOSPC)
qfd_fs_make() {
	case $QFD_FS in
	ext4) fs_ext4 "$1" ;;
	xfs) fs_xfs "$1" -o uquota,gquota,pquota ;;
	ubifs) fs_ubifs "$1" -o "${QFD_UBIFS_OPTS:-usrquota,grpquota}" ;;
	f2fs) fs_f2fs "$1" ;;
	*) _fail "QFD_FS='$QFD_FS': want ext4, xfs, ubifs or f2fs" ;;
	esac
}

qfd_fs_has_project() {
	[[ $QFD_FS == ext4 || $QFD_FS == xfs || $QFD_FS == f2fs ]]
}

qfd_fs_dir_cost() {
	case $QFD_FS in
	ext4) echo "4096 1" ;;	# one 4 KiB block for the entries
	xfs) echo "0 1" ;;	# entries inline in the inode
	f2fs) echo "0 1" ;;	# inline dentries, in the inode block
	*) echo "unknown" ;;
	esac
}

qfd_fs_format() {
	case $QFD_FS in
	ext4 | f2fs) echo vfsv1 ;;
	xfs) echo xfs ;;
	*) echo "${QFD_UBIFS_FORMAT:-vfsv1}" ;;
	esac
}

qfd_fs_project_errno() {
	case $QFD_FS in
	xfs) echo "No space left on device" ;;
	*) echo "Disk quota exceeded" ;;
	esac
}

qfd_types() {
	if qfd_fs_has_project; then echo "user group project"; else echo "user group"; fi
}

# qfd_skip_file REASON: from setup_file, skip every test of the file.
# (bats 1.8's skip does not work in setup_file: it fails the file.)  The
# per-test setup, qfd_setup_test, does the skipping.
qfd_skip_file() {
	export QFD_SKIP_FILE=$1
}

# qfd_skip_file_without_ubifs: from setup_file, skip every test when the
# kernel has no UBIFS to test (ubifs_missing) and returns 1; under make
# check's 6.1 run (QFD_UBIFS_WANT_PATCHED=1) the suite runs and fails
# instead.
qfd_skip_file_without_ubifs() {
	local why
	why=$(ubifs_missing) || return 0
	[[ ${QFD_UBIFS_WANT_PATCHED:-0} == 1 ]] && return 0
	qfd_skip_file "$why"
	return 1
}

qfd_setup_test() {
	[[ -z ${QFD_SKIP_FILE-} ]] || skip "$QFD_SKIP_FILE"
	if [[ -n ${QFD_FAIL_FILE-} ]]; then
		echo "$QFD_FAIL_FILE" >&2
		return 1
	fi
}

# qfd_setup_common: what every qfd suite's setup_file checks first.  Returns
# 1 (after qfd_skip_file) when the file cannot run here.
qfd_setup_common() {
	export QFD_SKIP_FILE= QFD_FAIL_FILE=
	in_vm || { qfd_skip_file "not inside the test VM (use tests/vm/check)"; return 1; }
	# Without the program under test every test fails: a skip here once
	# turned a broken build into a green run.
	[[ -x $QFD ]] || { export QFD_FAIL_FILE="$QFD is not built (run make)"; return 1; }
	mkdir -p "$QFD_SCRATCH"
}

# qfd_setup_fs: setup_file of the per-filesystem suites.  Sets and exports
# FSNAME, MNT, DEV and FSTYPE.
qfd_setup_fs() {
	qfd_setup_common || return 0
	fs_teardown
	users_create
	export FSNAME=qfd-$QFD_FS
	MNT=$(qfd_fs_make "$FSNAME") || return
	export MNT DEV FSTYPE=$QFD_FS
	DEV=$(fs_dev "$FSNAME")
}

qfd_teardown_fs() {
	in_vm || return 0
	fs_teardown
}

# qfd_restore: per-test teardown: whatever a test did to the whole
# filesystem (read-only, enforcement off, namespaces) is undone even when
# it failed half way, so the next tests start from the same state.
qfd_restore() {
	[[ -n ${MNT-} ]] || return 0
	if findmnt -n -o OPTIONS --target "$MNT" | grep -qw ro; then
		fs_remount_rw "$FSNAME"
	fi
	if [[ -f $BATS_FILE_TMPDIR/enforcement-off ]]; then
		"$QFD" on "$MNT"
		rm -f "$BATS_FILE_TMPDIR/enforcement-off"
	fi
}

# ============================================================ test bodies

# ---- usage and limits, exact numbers

t_usage_exact() {
	local u=5101
	write_as $u "$MNT/u5101-big" $((1024 * 1024))
	write_as $u "$MNT/u5101-a" 4096
	write_as $u "$MNT/u5101-b" 8192
	touch_as $u $u "$MNT/u5101-e1" "$MNT/u5101-e2"

	run --separate-stderr qfd get -J "$MNT" $u
	assert_status 0
	assert_stderr_empty
	assert_eq "$(jq -c '.quotas | length' <<<"$output")" 1
	assert_eq "$(jq -r '.quotas[0] | [.target, .fstype, .type, .id, .status] | map(tostring) | join(" ")' <<<"$output")" \
		"$MNT $FSTYPE user $u ok"
	assert_eq "$(qfd_qj "$MNT" -u $u space files)" "$((1024 * 1024 + 4096 + 8192)) 5"
	assert_eq "$(qfd_qj "$MNT" -u $u space-soft space-hard files-soft files-hard)" "0 0 0 0"
	assert_eq "$(qfd_qj "$MNT" -u $u space-grace files-grace name)" "null null null"

	# Removing a file gives its space and inode back.
	rm -f "$MNT/u5101-a"
	assert_eq "$(qfd_usage "$MNT" -u $u)" "$((1024 * 1024 + 8192)) 4"
}

t_usage_named_user() {
	# a name, resolved both ways; -N keeps it numeric
	write_as 2001 "$MNT/qfdu1-data" $((2 * 1024 * 1024))
	assert_eq "$(qfd_q "$MNT" -u qfdu1 name id space files)" "qfdu1 2001 2097152 1"
	assert_eq "$(qfd_q "$MNT" -u 2001 name id)" "qfdu1 2001"
	assert_eq "$(qfd_q "$MNT" -u '#2001' name id)" "qfdu1 2001"
	run --separate-stderr qfd get -N --csv -b "$MNT" qfdu1
	assert_status 0
	assert_eq "${lines[1]}" "$MNT,$FSTYPE,user,,2001,ok,2097152,0,0,,1,0,0,"
}

t_set_and_read_back() {
	# the user whose name has a dot, a dash and a non-ASCII letter
	local w=$QFD_WEIRD_USER
	run --separate-stderr qfd set "$MNT" "$w" --bsoft 2M --bhard 4M --isoft 10 --ihard 20
	assert_status 0
	assert_stderr_empty
	assert_eq "$output" "changed user $w (2004) on $MNT: space-soft 0 -> 2M, space-hard 0 -> 4M, files-soft 0 -> 10, files-hard 0 -> 20"

	# get, JSON
	assert_eq "$(qfd_qj "$MNT" -u "$w" space-soft space-hard files-soft files-hard)" "2097152 4194304 10 20"
	assert_eq "$(qfd_q "$MNT" -u 2004 name)" "$w"
	# report, JSON
	assert_eq "$(qfd_report_q "$MNT" -u 2004 name space-soft space-hard files-soft files-hard status)" \
		"$w 2097152 4194304 10 20 ok"
	# report, CSV: the exact line
	run --separate-stderr qfd report -u --csv "$MNT"
	assert_status 0
	assert_eq "${lines[0]}" "TARGET,FSTYPE,TYPE,NAME,ID,STATUS,SPACE,SPACE-SOFT,SPACE-HARD,SPACE-GRACE,FILES,FILES-SOFT,FILES-HARD,FILES-GRACE"
	assert_output_has_line "$MNT,$FSTYPE,user,$w,2004,ok,0,2M,4M,,0,10,20,"
	# report -b, CSV: bytes
	run --separate-stderr qfd report -u -b --csv "$MNT"
	assert_output_has_line "$MNT,$FSTYPE,user,$w,2004,ok,0,2097152,4194304,,0,10,20,"
}

t_human_table() {
	qfd set -q "$MNT" qfdu3 --bsoft 1M --bhard 3M --isoft 5 --ihard 6
	write_as 2003 "$MNT/qfdu3-data" $((512 * 1024))
	# get: a heading line and one line for the user, name and numbers on
	# that one line
	run --separate-stderr qfd get "$MNT" qfdu3
	assert_status 0
	assert_line_ws "NAME ID STATUS SPACE SPACE-SOFT SPACE-HARD SPACE-GRACE FILES FILES-SOFT FILES-HARD FILES-GRACE"
	[[ ${lines[0]} == NAME* ]] || _fail "heading first: ${lines[0]}"
	assert_line_ws "qfdu3 2003 ok 512K 1M 3M 1 5 6"
	assert_eq "${#lines[@]}" 2 "heading + one row"
	run --separate-stderr qfd get -b -n "$MNT" qfdu3
	assert_status 0
	assert_eq "${#lines[@]}" 1 "one row, no heading"
	assert_line_ws "qfdu3 2003 ok 524288 1048576 3145728 1 5 6"
	# report -u: the section title names the filesystem and its device
	run --separate-stderr qfd report -u "$MNT"
	assert_status 0
	assert_eq "${lines[0]}" "user quotas on $MNT ($FSTYPE, $DEV)"
	assert_line_ws "qfdu3 2003 ok 512K 1M 3M 1 5 6"
	# raw: one line per row, single spaces, every column, an empty one "-"
	run --separate-stderr qfd get -r "$MNT" qfdu3
	assert_status 0
	assert_eq "${lines[1]}" "$MNT $FSTYPE user qfdu3 2003 ok 512K 1M 3M - 1 5 6 -"
}

# qfd_fs_round BYTES: what the filesystem keeps of a space limit of BYTES
# set through qfd: qfd rounds up to a KiB (the unit of the quota API), XFS
# then rounds up to its 4 KiB block.
qfd_fs_round() {
	local unit=1024
	[[ $QFD_FS == xfs ]] && unit=4096
	echo $(((($1 + 1023) / 1024 * 1024 + unit - 1) / unit * unit))
}

t_limits_rounding() {
	local u=5121
	# space limits round up to a KiB; the answer says what was stored
	run --separate-stderr qfd set -b "$MNT" $u --bhard 1048577
	assert_status 0
	assert_eq "$(qfd_limits "$MNT" -u $u)" "0 $(qfd_fs_round 1048577) 0 0"
	# and the same request again changes nothing
	run --separate-stderr qfd set --exit-changed "$MNT" $u --bhard 1048577
	assert_status 0
	assert_eq "$output" "unchanged user $u ($u) on $MNT"
	# decimal and binary units; fractions; k for counts
	qfd set -q "$MNT" $u --bsoft 1.5M --bhard 2MB --isoft 1.5k --ihard 2k
	assert_eq "$(qfd_limits "$MNT" -u $u)" "1572864 $(qfd_fs_round 2000000) 1500 2000"
	# 0 removes a limit, and only the limits given change
	qfd set -q "$MNT" $u --bhard 0
	assert_eq "$(qfd_limits "$MNT" -u $u)" "1572864 0 1500 2000"
}

t_several_ids() {
	run --separate-stderr qfd set "$MNT" 5123 5122 qfdu1 --ihard 7
	assert_status 0
	assert_eq "${#lines[@]}" 3
	assert_eq "${lines[0]}" "changed user 5123 (5123) on $MNT: files-hard 0 -> 7"
	assert_eq "${lines[1]}" "changed user 5122 (5122) on $MNT: files-hard 0 -> 7"
	assert_eq "${lines[2]}" "changed user qfdu1 (2001) on $MNT: files-hard 0 -> 7"
	run --separate-stderr qfd get -J "$MNT" 5123 5122 qfdu1
	assert_status 0
	assert_eq "$(jq -r '[.quotas[] | "\(.id):\(."files-hard")"] | join(" ")' <<<"$output")" \
		"5123:7 5122:7 2001:7"
}

# ---- enforcement

t_hard_space_edquot() {
	local u=5102
	qfd set -q "$MNT" $u --bhard 2M
	run write_as $u "$MNT/u5102" $((3 * 1024 * 1024))
	assert_edquot
	# charged exactly up to the hard limit, no further
	assert_eq "$(qfd_q "$MNT" -u $u space files status)" "2097152 1 hard"
	# another file cannot get a byte either
	run write_as $u "$MNT/u5102-more" 4096
	assert_edquot
	assert_eq "$(qfd_q "$MNT" -u $u space status)" "2097152 hard"
}

t_hard_files_edquot() {
	local u=5103
	qfd set -q "$MNT" $u --ihard 3
	touch_as $u $u "$MNT/u5103-1" "$MNT/u5103-2" "$MNT/u5103-3"
	run touch_as $u $u "$MNT/u5103-4"
	assert_edquot
	[[ ! -e $MNT/u5103-4 ]]
	assert_eq "$(qfd_q "$MNT" -u $u files space status)" "3 0 hard"
}

t_soft_grace() {
	local u=5104 g
	qfd set -q "$MNT" $u --bsoft 1M --bhard 8M --isoft 2 --ihard 10
	write_as $u "$MNT/u5104" $((1024 * 1024))
	# at the soft limit is not past it
	assert_eq "$(qfd_qj "$MNT" -u $u status space-grace)" "ok null"
	write_as $u "$MNT/u5104-2" 4096
	assert_eq "$(qfd_qj "$MNT" -u $u status files-grace)" "grace null"
	g=$(qfd_qj "$MNT" -u $u space-grace)
	assert_in_range "$g" $((WEEK - 60)) $WEEK
	# a third file passes the files soft limit: its timer starts too
	touch_as $u $u "$MNT/u5104-3"
	g=$(qfd_qj "$MNT" -u $u files-grace)
	assert_in_range "$g" $((WEEK - 60)) $WEEK
	# the human table shows the time left in days
	run --separate-stderr qfd get "$MNT" $u
	# (6d23h once a second has passed, 7d if none has)
	assert_line_ws_re "$u grace 1M 1M 8M (6d23h|7d) 3 2 10 (6d23h|7d)"
	# over soft, not hard
	run --separate-stderr qfd report -u -J --over soft "$MNT"
	assert_status 3
	assert_eq "$(jq -r --argjson id $u '[.quotas[] | select(.id == $id) | .status] | join(",")' <<<"$output")" grace
	run --separate-stderr qfd report -u -J --over hard "$MNT"
	assert_eq "$(jq -r --argjson id $u '[.quotas[] | select(.id == $id)] | length' <<<"$output")" 0
	# the grace period itself is the filesystem's, as state shows it
	assert_eq "$(qfd_state_q "$MNT" user space-grace) $(qfd_state_q "$MNT" user files-grace)" "$WEEK $WEEK"
}

t_report_over_exit() {
	local u=5105
	qfd set -q "$MNT" $u --bsoft 4K --bhard 1M
	write_as $u "$MNT/u5105" $((1024 * 1024))
	run --separate-stderr qfd report -u -J --over hard "$MNT"
	assert_status 3
	assert_eq "$(jq -r --argjson id $u '[.quotas[] | select(.id == $id) | .status] | join(",")' <<<"$output")" hard
	# every id listed is really past a hard limit
	assert_eq "$(jq -r '[.quotas[] | select(.status != "hard")] | length' <<<"$output")" 0
	run --separate-stderr qfd report -u --over soft -n -r -o ID,STATUS "$MNT"
	assert_status 3
	assert_output_has_line "$u hard"
}

# qfd_enforcing MNT: "TYPE=yes|no ..." for every type, from the table of
# 'qfd state' (raw, no headings).
# Types the filesystem does not account (UBIFS: project), if state lists
# them at all, are left out.
qfd_enforcing() {
	"$QFD" state -n -r -o TYPE,ACCOUNTING,ENFORCING "$1" |
		awk '$2 == "yes" { print $1 "=" $3 }' | paste -sd ' '
}

# f2fs takes enforcement from the mount options only (src/cmd-onoff.c):
# qfd refuses on and off there, in one line, and changes nothing.
QFD_F2FS_OFF="%s: cannot turn quotas off: f2fs would stop counting usage as well and leave its quota files for fsck.f2fs to repair; mount it without usrquota, grpquota and prjquota to count without enforcing"
QFD_F2FS_ON="%s: cannot turn quotas on: f2fs enforces them only from the mount options usrquota, grpquota and prjquota"

t_off_on_f2fs() {
	local u=$1 all_on=$2
	run --separate-stderr qfd off -v "$MNT"
	# shellcheck disable=SC2059 # the format is ours
	assert_error assert_stderr_line "qfd: $(printf "$QFD_F2FS_OFF" "$MNT")"
	assert_eq "$(qfd_enforcing "$MNT")" "$all_on"
	run write_as $u "$MNT/u5106" $((2 * 1024 * 1024))
	assert_edquot
	# on when already on is no error, off after that still refused
	run --separate-stderr qfd on -v "$MNT"
	assert_status 0
	assert_stderr_empty
	assert_eq "$(qfd_enforcing "$MNT")" "$all_on"
	# the quota files are still whole: after a remount, the same limits
	fs_remount "$FSNAME"
	assert_eq "$(qfd_enforcing "$MNT")" "$all_on"
	assert_eq "$(qfd_limits "$MNT" -u $u)" "0 1048576 0 0"
}

t_off_on() {
	local u=5106 t all_on="" all_off=""
	for t in $(qfd_types); do
		all_on+="${all_on:+ }$t=yes"
		all_off+="${all_off:+ }$t=no"
	done
	qfd set -q "$MNT" $u --bhard 1M
	assert_eq "$(qfd_enforcing "$MNT")" "$all_on"
	if [[ $QFD_FS == f2fs ]]; then
		t_off_on_f2fs $u "$all_on"
		return
	fi
	touch "$BATS_FILE_TMPDIR/enforcement-off"
	run --separate-stderr qfd off -v "$MNT"
	assert_status 0
	assert_stderr_empty
	for t in $(qfd_types); do
		assert_output_has_line "$MNT: $t quotas off"
	done
	assert_eq "$(qfd_enforcing "$MNT")" "$all_off"
	run --separate-stderr qfd state -u -n -r -o TYPE,ACCOUNTING,ENFORCING "$MNT"
	assert_eq "$output" "user yes no"
	# past the hard limit without complaint, and still counted
	write_as $u "$MNT/u5106" $((2 * 1024 * 1024))
	assert_eq "$(qfd_usage "$MNT" -u $u)" "2097152 1"

	run --separate-stderr qfd on -v "$MNT"
	assert_status 0
	assert_stderr_empty
	for t in $(qfd_types); do
		assert_output_has_line "$MNT: $t quotas on"
	done
	rm -f "$BATS_FILE_TMPDIR/enforcement-off"
	assert_eq "$(qfd_enforcing "$MNT")" "$all_on"
	run write_as $u "$MNT/u5106-2" 4096
	assert_edquot
	# on when already on changes nothing and is no error
	run --separate-stderr qfd on "$MNT"
	assert_status 0
	assert_stderr_empty
	assert_stdout_empty
}

t_off_one_type() {
	local want
	if [[ $QFD_FS == f2fs ]]; then
		run --separate-stderr qfd off -g "$MNT"
		assert_status 1
		# shellcheck disable=SC2059 # the format is ours
		assert_stderr_line "qfd: $(printf "$QFD_F2FS_OFF" "$MNT")"
		assert_eq "$(qfd_enforcing "$MNT")" "user=yes group=yes project=yes"
		return
	fi
	touch "$BATS_FILE_TMPDIR/enforcement-off"
	run --separate-stderr qfd off -g "$MNT"
	assert_status 0
	want="user=yes group=no"
	qfd_fs_has_project && want+=" project=yes"
	assert_eq "$(qfd_enforcing "$MNT")" "$want"
	run --separate-stderr qfd on -g "$MNT"
	assert_status 0
	rm -f "$BATS_FILE_TMPDIR/enforcement-off"
	assert_eq "$(qfd_enforcing "$MNT")" "${want/group=no/group=yes}"
}

t_state_json_enforcing() {
	# the JSON booleans follow enforcement as the table does
	assert_eq "$(qfd_state_q "$MNT" user enforcing)" true
	# f2fs: off is refused (t_off_on_f2fs); the false case is
	# t_state_json_not_enforcing, from the mount options
	[[ $QFD_FS != f2fs ]] || skip "f2fs enforces from the mount options only"
	touch "$BATS_FILE_TMPDIR/enforcement-off"
	qfd off -u "$MNT"
	assert_eq "$(qfd_enforcing "$MNT" | cut -d" " -f1)" "user=no"
	assert_eq "$(qfd_state_q "$MNT" user enforcing)" false "state -J after 'qfd off -u'"
	assert_eq "$(qfd_state_q "$MNT" user accounting)" true "state -J after 'qfd off -u'"
	qfd on -u "$MNT"
	rm -f "$BATS_FILE_TMPDIR/enforcement-off"
	assert_eq "$(qfd_state_q "$MNT" user enforcing)" true
}

t_state() {
	local t
	run --separate-stderr qfd state -J "$MNT"
	assert_status 0
	assert_eq "$(jq -r '[.filesystems[] | select(.accounting) | .type] | join(" ")' <<<"$output")" "$(qfd_types)"
	# a type not accounted, if listed, is not enforced either
	assert_eq "$(jq -r '[.filesystems[] | select(.accounting | not) | select(.enforcing)] | length' <<<"$output")" 0
	for t in $(qfd_types); do
		assert_eq "$(jq -r --arg t "$t" '.filesystems[] | select(.type == $t)
			| [.target, .fstype, .accounting, .enforcing, .format, ."space-grace", ."files-grace"]
			| map(tostring) | join(" ")' <<<"$output")" \
			"$MNT $FSTYPE true true $(qfd_fs_format) $WEEK $WEEK" "$t"
	done
	run --separate-stderr qfd state -u "$MNT"
	assert_status 0
	assert_line_ws "TARGET FSTYPE TYPE ACCOUNTING ENFORCING FORMAT SPACE-GRACE FILES-GRACE"
	assert_line_ws "$MNT $FSTYPE user yes yes $(qfd_fs_format) 7d 7d"
	# -a lists this filesystem too
	run --separate-stderr qfd state -a -u -n -r -o TARGET,TYPE
	assert_status 0
	assert_output_has_line "$MNT user"
}

t_sync() {
	run --separate-stderr qfd sync "$MNT"
	assert_status 0
	assert_stdout_empty
	assert_stderr_empty
	run --separate-stderr qfd sync -v -u "$MNT"
	assert_status 0
	assert_stderr_empty
	assert_eq "$output" "$MNT: user quotas synced"
}

# ---- group and project quotas

t_group() {
	local u=5107 g=6107
	write_as $u "$MNT/g6107-a" $((1024 * 1024)) $g
	touch_as $u $g "$MNT/g6107-b"
	assert_eq "$(qfd_usage "$MNT" -g $g)" "1048576 2"
	# the user's usage is the same data, charged to the user as well
	assert_eq "$(qfd_usage "$MNT" -u $u)" "1048576 2"
	run --separate-stderr qfd set -g "$MNT" $g --bhard 2M --ihard 5
	assert_status 0
	assert_eq "$output" "changed group $g ($g) on $MNT: space-hard 0 -> 2M, files-hard 0 -> 5"
	assert_eq "$(qfd_limits "$MNT" -g $g)" "0 2097152 0 5"
	assert_eq "$(qfd_report_q "$MNT" -g $g space space-hard files files-hard)" "1048576 2097152 2 5"
	# the group's hard limit stops a user with no limits of its own
	run write_as $u "$MNT/g6107-c" $((2 * 1024 * 1024)) $g
	assert_edquot
	assert_eq "$(qfd_q "$MNT" -g $g space status)" "2097152 hard"
	assert_eq "$(qfd_limits "$MNT" -u $u)" "0 0 0 0"
	# a named group
	qfd set -q -g "$MNT" qfdg1 --bsoft 3M
	assert_eq "$(qfd_qj "$MNT" -g qfdg1 name id space-soft)" "qfdg1 3001 3145728"
}

t_project() {
	qfd_fs_has_project || skip "$QFD_FS has no project quotas"
	local dir=$MNT/proj4001 cost
	cost=$(qfd_fs_dir_cost)
	project_dir "$dir" 4001
	assert_eq "$(qfd_usage "$MNT" -p qfdp1)" "$cost"
	write_as 5108 "$dir/a" $((1024 * 1024))
	touch_as 5108 5108 "$dir/b"
	assert_eq "$(qfd_usage "$MNT" -p 4001)" "$((${cost% *} + 1048576)) $((${cost#* } + 2))"
	assert_eq "$(qfd_qj "$MNT" -p 4001 name type space-hard)" "qfdp1 project 0"

	run --separate-stderr qfd set -p "$MNT" qfdp1 --bhard 2M
	assert_status 0
	assert_eq "$output" "changed project qfdp1 (4001) on $MNT: space-hard 0 -> 2M"
	assert_eq "$(qfd_limits "$MNT" -p 4001)" "0 2097152 0 0"
	assert_eq "$(qfd_report_q "$MNT" -p 4001 name space-hard)" "qfdp1 2097152"
	run write_as 5108 "$dir/c" $((2 * 1024 * 1024))
	assert_status 1
	[[ $output == *"$(qfd_fs_project_errno)"* ]] || _fail "dd said: $output"
	assert_eq "$(qfd_q "$MNT" -p 4001 space status)" "2097152 hard"
	# outside the directory the project does not apply
	write_as 5108 "$MNT/p-outside" $((1024 * 1024))
}

# ---- unprivileged callers

t_user_reads_own() {
	write_as 2002 "$MNT/qfdu2-own" $((1024 * 1024))
	run --separate-stderr as_user qfdu2 "$QFD" get -J "$MNT"
	assert_status 0
	assert_stderr_empty
	assert_eq "$(jq -r '.quotas[] | [.name, .id, .space, .files] | map(tostring) | join(" ")' <<<"$output")" \
		"qfdu2 2002 1048576 1"
	# and its groups (primary, then supplementary), without naming them
	run --separate-stderr as_user qfdu2 "$QFD" get -g -J "$MNT"
	assert_status 0
	assert_eq "$(jq -r '[.quotas[] | "\(.name)=\(.space)"] | join(" ")' <<<"$output")" \
		"qfdu2=1048576 qfdg1=0 qfdg2=0"
	# a group it belongs to, by name
	run --separate-stderr as_user qfdu2 "$QFD" get -g -J "$MNT" qfdg2
	assert_status 0
	assert_eq "$(jq -r '.quotas[0].id' <<<"$output")" 3002
}

t_user_reads_other_refused() {
	run --separate-stderr as_user qfdu2 "$QFD" get "$MNT" qfdu3
	assert_error assert_stderr_line "qfd: $MNT: permission denied to read user quotas: run as root (others may only read their own)"
	run --separate-stderr as_user qfdu2 "$QFD" get -g "$MNT" qfdg3
	assert_status 1
	assert_stderr_line "qfd: $MNT: permission denied to read group quotas: run as root (others may only read their own)"
}

t_user_set_refused() {
	local before
	before=$(qfd_limits "$MNT" -u qfdu3)
	run --separate-stderr as_user qfdu3 "$QFD" set "$MNT" qfdu3 --bhard 1G --ihard 1000
	assert_error assert_stderr_line "qfd: $MNT: permission denied to set limits for user quotas: run as root (others may only read their own)"
	assert_eq "$(qfd_limits "$MNT" -u qfdu3)" "$before"
	# nor may it switch enforcement off
	touch "$BATS_FILE_TMPDIR/enforcement-off"
	run --separate-stderr as_user qfdu3 "$QFD" off -u "$MNT"
	assert_status 1
	assert_stdout_empty
	assert_eq "$(qfd_enforcing "$MNT" | cut -d" " -f1)" "user=yes"
}

# ---- bad input: exit 2, one line, nothing changed

t_bad_input() {
	local u=5109 before
	qfd set -q "$MNT" $u --bsoft 1M --bhard 2M --isoft 3 --ihard 4
	before=$(qfd_limits "$MNT" -u $u)
	assert_eq "$before" "1048576 2097152 3 4"

	run --separate-stderr qfd set "$MNT" $u nosuchuser --bhard 9M
	assert_usage_error "qfd: unknown user 'nosuchuser'"
	run --separate-stderr qfd set "$MNT" $u --bhard 10Q
	assert_usage_error "qfd: --bhard '10Q': not a size (examples: 0, 500M, 1.5G, 2TiB)"
	run --separate-stderr qfd set "$MNT" $u --bsoft 99999999999999999999T
	assert_usage_error "qfd: --bsoft '99999999999999999999T': too large"
	# (-5 alone is a relative limit now: 5 less; qfd-set.8)
	run --separate-stderr qfd set "$MNT" $u --bhard --5
	[[ ${stderr_lines[0]-} == "qfd: --bhard '--5': "* ]] || _fail "got: $stderr"
	assert_status 2
	assert_stdout_empty
	run --separate-stderr qfd set "$MNT" $u --ihard --5
	[[ ${stderr_lines[0]-} == "qfd: --ihard '--5': "* ]] || _fail "got: $stderr"
	assert_status 2
	# a relative change that would go below 1 (the limit is 4)
	run --separate-stderr qfd set "$MNT" $u --ihard -5
	assert_status 2
	assert_stdout_empty
	assert_eq "${stderr_lines[0]-}" "qfd: $MNT: user $u: files hard limit: -5: would leave no limit or less (0 is none): give 0 to remove it"
	assert_eq "${stderr_lines[1]-}" "qfd: $MNT: nothing was changed"
	run --separate-stderr qfd set "$MNT" $u --isoft 3x
	assert_status 2
	[[ ${stderr_lines[0]-} == "qfd: --isoft '3x': "* ]] || _fail "got: $stderr"
	run --separate-stderr qfd set "$MNT/no/such/dir" $u --bhard 9M
	assert_usage_error "qfd: $MNT/no/such/dir: No such file or directory"
	run --separate-stderr qfd get "$MNT/no/such/dir" $u
	assert_usage_error "qfd: $MNT/no/such/dir: No such file or directory"
	run --separate-stderr qfd get "$MNT" nosuchuser
	assert_usage_error "qfd: unknown user 'nosuchuser'"
	run --separate-stderr qfd report -o ID,NOSUCHCOL "$MNT"
	assert_usage_error "qfd: unknown column 'NOSUCHCOL': 'qfd report -H' lists the columns"
	run --separate-stderr qfd report --over sideways "$MNT"
	assert_status 2
	assert_stdout_empty

	# none of it touched the limits
	assert_eq "$(qfd_limits "$MNT" -u $u)" "$before"
}

# assert_soft_hard_refused MNT WHO: stderr says WHO's soft limit would
# pass its hard limit (optionally followed by one "nothing was changed").
assert_soft_hard_refused() {
	assert_status 2 || return
	assert_stdout_empty || return
	[[ ${stderr_lines[0]-} == "qfd: $1: user $2: a soft limit would exceed its hard limit"* ]] ||
		_fail "got: $stderr" || return
	((${#stderr_lines[@]} == 1)) ||
		[[ ${#stderr_lines[@]} -eq 2 && ${stderr_lines[1]} == "qfd: $1: nothing was changed" ]] ||
		_fail "expected one line (and 'nothing was changed'), got:" "$stderr"
}

t_soft_above_hard() {
	local u=5110
	qfd set -q "$MNT" $u --bsoft 1M --bhard 4M --isoft 5 --ihard 10
	run --separate-stderr qfd set "$MNT" $u --bsoft 8M --bhard 4M
	assert_soft_hard_refused "$MNT" $u
	# against the hard limit already set
	run --separate-stderr qfd set "$MNT" $u --bsoft 5M
	assert_soft_hard_refused "$MNT" $u
	run --separate-stderr qfd set "$MNT" $u --isoft 11
	assert_soft_hard_refused "$MNT" $u
	# one bad id among several: none is changed
	run --separate-stderr qfd set "$MNT" 5111 $u --bsoft 6M
	assert_soft_hard_refused "$MNT" $u
	assert_eq "$(qfd_limits "$MNT" -u $u)" "1048576 4194304 5 10"
	assert_eq "$(qfd_limits "$MNT" -u 5111)" "0 0 0 0"
}

t_idempotent() {
	local u=5112
	run --separate-stderr qfd set --exit-changed "$MNT" $u --bsoft 1M --bhard 2M
	assert_status 4
	assert_eq "$output" "changed user $u ($u) on $MNT: space-soft 0 -> 1M, space-hard 0 -> 2M"
	run --separate-stderr qfd set --exit-changed "$MNT" $u --bsoft 1M --bhard 2M
	assert_status 0
	assert_eq "$output" "unchanged user $u ($u) on $MNT"
	run --separate-stderr qfd set "$MNT" $u --bsoft 1M --bhard 2M
	assert_status 0
	assert_eq "$output" "unchanged user $u ($u) on $MNT"
	# the same limit written another way is still unchanged
	run --separate-stderr qfd set --exit-changed "$MNT" $u --bhard 2048K
	assert_status 0
	assert_eq "$output" "unchanged user $u ($u) on $MNT"
	# -q: nothing printed, the exit status still tells
	run --separate-stderr qfd set -q --exit-changed "$MNT" $u --bhard 3M
	assert_status 4
	assert_stdout_empty
	assert_eq "$(qfd_limits "$MNT" -u $u)" "1048576 3145728 0 0"
}

t_dry_run() {
	local u=5113
	qfd set -q "$MNT" $u --bhard 2M
	run --separate-stderr qfd set --dry-run "$MNT" $u --bsoft 1M --bhard 5M
	assert_status 0
	assert_eq "$output" "would change user $u ($u) on $MNT: space-soft 0 -> 1M, space-hard 2M -> 5M"
	run --separate-stderr qfd set -n "$MNT" $u --ihard 9
	assert_status 0
	assert_eq "$(qfd_limits "$MNT" -u $u)" "0 2097152 0 0"
	# a dry run still refuses what a real run would refuse
	run --separate-stderr qfd set -n "$MNT" $u --bsoft 3M
	assert_status 2
	assert_eq "$(qfd_limits "$MNT" -u $u)" "0 2097152 0 0"
}

# ---- debug trace

t_debug_trace() {
	has_quotactl_fd || skip "kernel $(uname -r) has no quotactl_fd (see qfd-fallback.bats)"
	# (an id the filesystem has never charged is ENOENT on XFS)
	touch_as 5114 5114 "$MNT/u5114"
	run --separate-stderr qfd -d get "$MNT" 5114
	assert_status 0
	assert_stderr_line "qfd: debug: quotactl_fd($MNT, Q_GETQUOTA, user, 5114) = 0"
	run --separate-stderr qfd --debug set "$MNT" 5114 --ihard 3
	assert_status 0
	[[ $stderr == *"qfd: debug: quotactl_fd($MNT, "*", user, 5114) = 0"* ]] || _fail "got: $stderr"
	[[ $stderr != *"quotactl("* ]] || _fail "no fallback expected on $(uname -r): $stderr"
	# an error is traced with the kernel's errno text
	run --separate-stderr qfd -d report -u "$MNT"
	assert_status 0
	[[ $stderr == *"qfd: debug: quotactl_fd($MNT, Q_GETNEXTQUOTA, user, "*") = No such file or directory"* ]] ||
		_fail "got: $stderr"
}

# ---- read-only mounts

t_read_only() {
	local u=5115 before_get before_report
	qfd set -q "$MNT" $u --bsoft 1M --bhard 4M --isoft 3 --ihard 9
	write_as $u "$MNT/u5115" $((2 * 1024 * 1024))
	before_get=$(qfd get -J "$MNT" $u | jq -c '.quotas[0] | del(."space-grace")')
	before_report=$(qfd report -u -J "$MNT" | jq -c '[.quotas[] | del(."space-grace", ."files-grace")]')
	fs_remount_ro "$FSNAME"
	case $QFD_FS in
	xfs)
		# XFS answers the read-only queries: same numbers as before
		run --separate-stderr qfd get -J "$MNT" $u
		assert_status 0
		assert_eq "$(jq -c '.quotas[0] | del(."space-grace")' <<<"$output")" "$before_get"
		run --separate-stderr qfd report -u -J "$MNT"
		assert_status 0
		assert_eq "$(jq -c '[.quotas[] | del(."space-grace", ."files-grace")]' <<<"$output")" "$before_report"
		run --separate-stderr qfd set "$MNT" $u --bhard 9M
		assert_error assert_stderr_line "qfd: $MNT: read-only filesystem: cannot set limits for user quotas; remount it read-write"
		run --separate-stderr qfd state -u -n -r -o TYPE,ACCOUNTING,ENFORCING "$MNT"
		assert_status 0
		assert_eq "$output" "user yes yes"
		;;
	*)
		# ext4 suspends quotas while read-only: one line that says so
		run --separate-stderr qfd get "$MNT" $u
		assert_error assert_stderr_line "qfd: $MNT: user quotas are not active on this read-only mount ($QFD_FS suspends quotas while read-only)"
		run --separate-stderr qfd set "$MNT" $u --bhard 9M
		assert_error assert_stderr_re "^qfd: $MNT: .*read-only"
		run --separate-stderr qfd report "$MNT"
		assert_error assert_stderr_re "^qfd: $MNT: .*read-only"
		;;
	esac
	fs_remount_rw "$FSNAME"
	# nothing changed, and everything is back
	run --separate-stderr qfd get -J "$MNT" $u
	assert_status 0
	assert_eq "$(jq -c '.quotas[0] | del(."space-grace")' <<<"$output")" "$before_get"
}

# ---- the classic tools agree

# peer_limits ID: "KIB-USED KIB-SOFT KIB-HARD FILES ISOFT IHARD" of user ID
# as quota-tools (ext4, f2fs) or xfs_quota (XFS) see it, through the device.
peer_limits() {
	local id=$1
	case $QFD_FS in
	ext4 | f2fs)
		repquota -u -n -O csv "$DEV" |
			awk -F, -v id="#$id" '$1 == id { print $4, $5, $6, $8, $9, $10 }'
		;;
	xfs)
		local b i
		b=$(xfs_quota -x -c "report -u -b -N -n" "$MNT" | awk -v id="#$id" '$1 == id { print $2, $3, $4 }')
		i=$(xfs_quota -x -c "report -u -i -N -n" "$MNT" | awk -v id="#$id" '$1 == id { print $2, $3, $4 }')
		[[ -n $b && -n $i ]] && echo "$b $i"
		;;
	esac
}

t_peer_reads_qfd_limits() {
	local u=5116
	[[ $QFD_FS == ext4 || $QFD_FS == xfs || $QFD_FS == f2fs ]] || skip "no classic tool for $QFD_FS"
	write_as $u "$MNT/u5116" $((1024 * 1024))
	qfd set -q "$MNT" $u --bsoft 3M --bhard 5M --isoft 7 --ihard 9
	assert_eq "$(peer_limits $u)" "1024 3072 5120 1 7 9"
	if [[ $QFD_FS == ext4 || $QFD_FS == f2fs ]]; then
		# quota(1) of one user, through the device, the same
		run quota -u -w -v -p $u
		assert_eq "$(awk -v d="$DEV" '$1 == d { print $2, $3, $4, $6, $7, $8 }' <<<"$output")" \
			"1024 3072 5120 1 7 9"
	fi
}

t_qfd_reads_peer_limits() {
	local u=5117
	case $QFD_FS in
	ext4 | f2fs) setquota -u $u 1000 2000 30 40 "$DEV" ;;
	xfs) xfs_quota -x -c "limit -u bsoft=3m bhard=5m isoft=7 ihard=9 $u" "$MNT" ;;
	*) skip "no classic tool for $QFD_FS" ;;
	esac
	case $QFD_FS in
	ext4 | f2fs) assert_eq "$(qfd_limits "$MNT" -u $u)" "1024000 2048000 30 40" ;;
	xfs) assert_eq "$(qfd_limits "$MNT" -u $u)" "3145728 5242880 7 9" ;;
	esac
	# a group, too
	case $QFD_FS in
	ext4 | f2fs) setquota -g 6117 4096 8192 0 0 "$DEV" ;;
	xfs) xfs_quota -x -c "limit -g bsoft=4m bhard=8m 6117" "$MNT" ;;
	esac
	assert_eq "$(qfd_limits "$MNT" -g 6117)" "4194304 8388608 0 0"
}

t_peer_usage_agrees() {
	[[ $QFD_FS == ext4 || $QFD_FS == xfs || $QFD_FS == f2fs ]] || skip "no classic tool for $QFD_FS"
	write_as 5118 "$MNT/u5118" $((3 * 1024 * 1024))
	touch_as 5118 5118 "$MNT/u5118-e"
	local space files
	read -r space files < <(qfd_usage "$MNT" -u 5118)
	assert_eq "$((space / 1024)) $files" "$(peer_usage "$MNT" -u 5118)"
	assert_eq "$space $files" "3145728 2"
}

# ---- containers: no device node, bind mounts, paths deep inside

t_no_device_node() {
	local u=5119 want
	# without quotactl_fd qfd needs the node: qfd-fallback.bats checks
	# the one line it gives then
	has_quotactl_fd || skip "kernel $(uname -r) has no quotactl_fd: without the device node nothing can work (qfd-fallback.bats)"
	write_as $u "$MNT/u5119" $((1024 * 1024))
	qfd set -q "$MNT" $u --bhard 3M
	want=$(qfd report -u -J "$MNT" | jq -c '[.quotas[] | select(.id == 5119)]')
	# A new mount namespace with an empty /dev, as in a container: the
	# loop device node is gone, the filesystem is still there.
	run --separate-stderr unshare -m -- bash -c '
		mount -t tmpfs none /dev || exit 99
		[ ! -e "$DEV" ] || exit 98
		echo "== qfd"
		"$QFD" report -u -J "$MNT"; echo "qfd=$?"
		echo "== peer"
		case $QFD_FS in
		ext4 | f2fs) repquota -u "$MNT" 2>&1; echo "peer=$?" ;;
		xfs) xfs_quota -x -c "report -u -b -N -n" "$MNT" 2>&1; echo "peer=$?" ;;
		esac
		"$QFD" set -q "$MNT" 5119 --bhard 4M; echo "set=$?"
		"$QFD" get -J "$MNT" 5119 | jq -r ".quotas[0].\"space-hard\""
	'
	assert_status 0
	local qout peer
	qout=$(sed -n '/^== qfd$/,/^qfd=/p' <<<"$output" | sed '1d;$d')
	assert_output_has_line "qfd=0"
	assert_eq "$(jq -c '[.quotas[] | select(.id == 5119)]' <<<"$qout")" "$want"
	peer=$(sed -n '/^== peer$/,$p' <<<"$output")
	case $QFD_FS in
	ext4 | f2fs)
		assert_output_has_line "peer=1"
		[[ $peer == *"repquota: Cannot stat() mounted device $DEV: No such file or directory"* ]] ||
			_fail "repquota said: $peer"
		;;
	xfs)
		# xfs_quota exits 0 even then: what shows it failed is its
		# message and the missing report
		[[ $peer == *"xfs_quota: cannot setup path for mount $MNT: No such device or address"* ]] ||
			_fail "xfs_quota said: $peer"
		[[ $peer != *"#5119"* ]] || _fail "xfs_quota reported anyway: $peer"
		;;
	esac
	assert_output_has_line "set=0"
	assert_output_has_line "4194304"
	assert_eq "$(qfd_limits "$MNT" -u $u)" "0 4194304 0 0"
}

t_bind_and_deep_path() {
	local u=5125 bind=$QFD_SCRATCH/bind-$QFD_FS deep=$MNT/d1/d2/d3
	write_as $u "$MNT/u5125" $((1024 * 1024))
	mkdir -p "$deep" "$bind"
	mount --bind "$MNT/d1" "$bind"
	run --separate-stderr qfd get -J "$deep" $u
	local r1=$output s1=$status
	run --separate-stderr qfd get -J "$bind/d2" $u
	local r2=$output s2=$status
	umount "$bind"
	assert_eq "$s1 $s2" "0 0"
	assert_eq "$(jq -r '.quotas[0] | [.fstype, .space, .files] | map(tostring) | join(" ")' <<<"$r1")" "$FSTYPE 1048576 1"
	assert_eq "$(jq -r '.quotas[0] | [.fstype, .space, .files] | map(tostring) | join(" ")' <<<"$r2")" "$FSTYPE 1048576 1"
	# set through a deep path lands on the same filesystem
	qfd set -q "$deep" $u --ihard 12
	assert_eq "$(qfd_limits "$MNT" -u $u)" "0 0 0 12"
	# a file (not a directory) names its filesystem too
	assert_eq "$(qfd_q "$MNT/u5125" -u $u space)" 1048576
}

# ---- quotas not there, or accounted but not enforced

# assert_quotas_off_line MNT: stderr is one line naming MNT that says the
# quotas are off (or the filesystem was made or mounted without them), and
# does not blame the kernel, which has quota support for ext4 and XFS.
assert_quotas_off_line() {
	local m=$1
	[[ ${#stderr_lines[@]} -eq 1 && ${stderr_lines[0]} == "qfd: $m: "* ]] ||
		_fail "expected one line starting 'qfd: $m: ', got:" "$stderr" || return
	[[ ${stderr_lines[0]} =~ (are|is)\ off|not\ (on|enabled|turned\ on)|without ]] ||
		_fail "expected it to say the quotas are off / the filesystem is without them:" \
			"  ${stderr_lines[0]}" || return
	[[ ${stderr_lines[0]} != *"no quota support in this kernel"* ]] ||
		_fail "the kernel does support $QFD_FS quotas; the filesystem has them off:" \
			"  ${stderr_lines[0]}"
}

t_quotas_not_enabled() {
	local name=noq-$QFD_FS m
	case $QFD_FS in
	ext4) m=$(fs_ext4_noquota "$name") ;;
	f2fs) m=$(fs_f2fs_noquota "$name") ;;
	xfs) m=$(fs_xfs "$name" -o defaults) ;;
	*) skip "not for $QFD_FS" ;;
	esac
	run --separate-stderr qfd get "$m" 5130
	assert_error assert_quotas_off_line "$m"
	run --separate-stderr qfd report "$m"
	assert_error assert_quotas_off_line "$m"
	run --separate-stderr qfd on "$m"
	assert_error assert_quotas_off_line "$m"
	run --separate-stderr qfd set "$m" 5130 --bhard 1M
	assert_error assert_quotas_off_line "$m"
	run --separate-stderr qfd state "$m"
	assert_status 1
	assert_quotas_off_line "$m"
	fs_umount "$name"
}

t_accounting_not_enforcing() {
	local name=acc-$QFD_FS m u=5131
	case $QFD_FS in
	ext4) m=$(fs_ext4 "$name" -o defaults) ;;
	f2fs) m=$(fs_f2fs "$name" -o defaults) ;;
	xfs) m=$(fs_xfs "$name" -o uqnoenforce,gqnoenforce,pqnoenforce) ;;
	*) skip "not for $QFD_FS" ;;
	esac
	assert_eq "$(qfd_enforcing "$m")" "user=no group=no project=no"
	run --separate-stderr qfd state -n -r -o TYPE,ACCOUNTING "$m"
	assert_eq "$(paste -sd ' ' <<<"$output")" "user yes group yes project yes"
	qfd set -q "$m" $u --bhard 1M
	# counted, not enforced
	write_as $u "$m/a" $((2 * 1024 * 1024))
	assert_eq "$(qfd_q "$m" -u $u space status)" "2097152 hard"
	if [[ $QFD_FS == f2fs ]]; then
		run --separate-stderr qfd on -v -u "$m"
		assert_status 1
		# shellcheck disable=SC2059 # the format is ours
		assert_stderr_line "qfd: $(printf "$QFD_F2FS_ON" "$m")"
		assert_eq "$(qfd_enforcing "$m")" "user=no group=no project=no"
		fs_umount "$name"
		return
	fi
	run --separate-stderr qfd on -v -u "$m"
	assert_status 0
	assert_eq "$output" "$m: user quotas on"
	assert_eq "$(qfd_enforcing "$m")" "user=yes group=no project=no"
	run write_as $u "$m/b" 4096
	assert_edquot
	fs_umount "$name"
}

t_state_json_not_enforcing() {
	local name=accj-$QFD_FS m
	case $QFD_FS in
	ext4) m=$(fs_ext4 "$name" -o defaults) ;;
	f2fs) m=$(fs_f2fs "$name" -o defaults) ;;
	xfs) m=$(fs_xfs "$name" -o uqnoenforce) ;;
	*) skip "not for $QFD_FS" ;;
	esac
	assert_eq "$(qfd_enforcing "$m" | cut -d' ' -f1)" "user=no"
	assert_eq "$(qfd_state_q "$m" user accounting) $(qfd_state_q "$m" user enforcing)" "true false" \
		"state -J of a filesystem accounting without enforcing"
	fs_umount "$name"
}

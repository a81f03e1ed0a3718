#!/usr/bin/env bats
# vm-weight: 40
# quotactl_fd(2) itself, called by its number with no C library
# (lib/qfd-sys.c), natively and from a 32-bit program through the x86_64
# kernel's compat table.  On Debian's 6.1 these are upstream's answers; on
# the project's 5.10 with the backport (tests/vm/check --kernel 5.10-qfd)
# the same tests prove that the patch behaves as upstream does.  On a
# kernel without the system call (stock 5.10) the file skips.
#
# Run: tests/vm/check tests/vm/suites/quotactl-fd.bats
#      tests/vm/check --kernel 5.10-qfd tests/vm/suites/quotactl-fd.bats

QFD_FS=ext4
export QFD_FS
load ../lib/qfd

setup_file() {
	qfd_setup_common || return 0
	if ! has_quotactl_fd; then
		qfd_skip_file "kernel $(uname -r) has no quotactl_fd (the fallback is qfd-fallback.bats)"
		return 0
	fi
	fs_teardown
	users_create
	export SYS64 SYS32 E X N
	SYS64=$BATS_FILE_TMPDIR/qfd-sys64
	SYS32=$BATS_FILE_TMPDIR/qfd-sys32
	local src=$BATS_TEST_DIRNAME/../lib/qfd-sys.c
	local flags=(-Os -Wall -Wextra -Werror -ffreestanding -fno-builtin
		-fno-stack-protector -fno-pic -no-pie -nostdlib -static
		-fno-asynchronous-unwind-tables)
	cc -m64 "${flags[@]}" -o "$SYS64" "$src" || return
	cc -m32 "${flags[@]}" -o "$SYS32" "$src" || return
	E=$(fs_ext4 sc-ext4) || return
	X=$(fs_xfs sc-xfs) || return
	# ext4 without the quota feature, mounted with the old quota option:
	# its quota would live in visible files that only quotactl(2) can name
	N=$(fs_ext4_noquota sc-ext4-files -o usrquota) || return
	mkdir -m 1777 "$E/d"
	write_as 2001 "$E/d/f" $((3 * 4096))
	write_as 2001 "$X/f" $((5 * 4096))
}

teardown_file() { qfd_teardown_fs; }
setup() { qfd_setup_test; }

# field LINE NAME: the value of NAME=... in one line of qfd-sys's output
field() {
	local w
	for w in $1; do
		[[ $w == "$2="* ]] && { echo "${w#*=}"; return 0; }
	done
	_fail "no $2= in: $1"
}

@test "quotactl_fd answers as system call 443, natively and from a 32-bit program" {
	local sys
	for sys in "$SYS64" "$SYS32"; do
		run "$sys" path "$E" getinfo 0
		assert_status 0
		# not ENOSYS (-38): the slot holds the call, and quota is on
		assert_eq "$(field "$output" ret)" 0
		assert_eq "$(field "$output" bgrace)" 604800
	done
}

@test "a closed descriptor is EBADF" {
	local sys
	for sys in "$SYS64" "$SYS32"; do
		run "$sys" closed "$E" getinfo 0
		assert_status 0
		assert_eq "$output" "ret=-9"
	done
}

@test "any descriptor on the filesystem will do: O_PATH, a directory, a regular file" {
	local how path want
	want=$(jq -r '.quotas[0] | "\(.space) \(.files)"' < <(qfd get -J "$E" 2001))
	assert_eq "$want" "12288 1"
	for how in path:"$E" path:"$E/d/f" dir:"$E/d" file:"$E/d/f"; do
		path=${how#*:}
		run "$SYS64" "${how%%:*}" "$path" getquota 0 2001
		assert_status 0
		assert_eq "$(field "$output" ret)" 0
		assert_eq "$(field "$output" curspace) $(field "$output" curinodes)" "$want"
	done
}

@test "a 32-bit program gets the 68-byte if_dqblk filled, and nothing past it" {
	local sys fs
	for fs in "$E" "$X"; do
		for sys in "$SYS64" "$SYS32"; do
			run "$sys" path "$fs" getquota 0 2001
			assert_status 0
			assert_eq "$(field "$output" ret)" 0
			assert_eq "$(field "$output" tail)" intact
			assert_eq "$(field "$output" curinodes)" "$(qfd_q "$fs" -u 2001 files)"
			assert_eq "$(field "$output" curspace)" "$(qfd_q "$fs" -u 2001 space)"
		done
		assert_eq "$(field "$("$SYS32" path "$fs" getquota 0 2001)" size)" 68
		assert_eq "$(field "$("$SYS64" path "$fs" getquota 0 2001)" size)" 72
	done
}

@test "a limit a 32-bit program sets is the limit qfd reads back" {
	run "$SYS32" path "$E" setquota 0 2003 7777
	assert_status 0
	assert_eq "$output" "ret=0"
	assert_eq "$(qfd_q "$E" -u 2003 space-hard)" $((7777 * 1024))
	run "$SYS32" path "$X" setquota 0 2003 8888
	assert_eq "$output" "ret=0"
	assert_eq "$(qfd_q "$X" -u 2003 space-hard)" $((8888 * 1024))
}

@test "an unprivileged caller reads its own quota, not another's, and sets no limit" {
	local sys
	for sys in "$SYS64" "$SYS32"; do
		run as_user qfdu1 "$sys" path "$E" getquota 0 2001
		assert_eq "$(field "$output" ret)" 0
		run as_user qfdu1 "$sys" path "$E" getquota 0 2002
		assert_eq "$output" "ret=-1"
		run as_user qfdu1 "$sys" path "$E" setquota 0 2001 1
		assert_eq "$output" "ret=-1"
		run as_user qfdu1 "$sys" path "$X" setquota 0 2001 1
		assert_eq "$output" "ret=-1"
	done
	assert_eq "$(qfd_q "$E" -u 2001 space-hard)" 0
}

@test "Q_QUOTAON is EINVAL where the quota would need a file, and works with hidden quota" {
	# There is no path argument: a filesystem whose quota lives in a
	# visible file (ext4 without the quota feature) cannot be switched on.
	run "$SYS64" path "$N" quotaon 0
	assert_eq "$output" "ret=-22"
	run "$SYS32" path "$N" quotaon 0
	assert_eq "$output" "ret=-22"
	# Hidden quota inodes: off with qfd, on again by number
	qfd off -u "$E"
	assert_eq "$(qfd_state_q "$E" user enforcing)" false
	run "$SYS32" path "$E" quotaon 0
	assert_eq "$output" "ret=0"
	assert_eq "$(qfd_state_q "$E" user enforcing)" true
}

@test "qfd itself goes through quotactl_fd, not the quotactl(2) fallback" {
	run --separate-stderr qfd -d get "$E" 2001
	assert_status 0
	[[ $stderr == *"qfd: debug: quotactl_fd($E, Q_GETQUOTA, user, 2001) = 0"* ]] ||
		_fail "expected a successful quotactl_fd call in:" "$stderr"
	[[ $stderr != *"qfd: debug: quotactl("* ]] || _fail "qfd fell back to quotactl(2):" "$stderr"
}

# tests/vm/lib/fs.bash: helpers for bats suites that run inside the test VM
# (tests/vm/run, tests/vm/check).  Load it from a suite in tests/vm/suites
# with:   load ../lib/fs
#
# It makes real filesystems on loop devices (images in a tmpfs) and UBIFS on
# a simulated NAND chip, creates test users, groups and projects, and runs
# commands as those users.  Everything is real: the guest kernel does the
# accounting, nothing is mocked.
#
# This file is sourced into bats's own shell, so it sets no shell options
# (no "set -e"): each helper returns non-zero and says why on stderr, and
# bats fails the test at that command.
#
# Conventions:
#   - a filesystem is known by a short NAME: its image is $QFD_SCRATCH/NAME.img,
#     its mount point $QFD_SCRATCH/NAME (printed by the fs_* makers), and what
#     is needed to mount it again is kept in $QFD_SCRATCH/.fs/NAME;
#   - the root directory of every filesystem made here is mode 1777 and owned
#     by root, so users can create files at the top and their usage is
#     exactly what they write (no directory of theirs is charged to them);
#   - sizes are bytes; write_bytes only takes multiples of 4096 so that
#     ext4 (4 KiB blocks), XFS (4 KiB blocks) and UBIFS (4 KiB pages in the
#     page cache) all allocate exactly that.

: "${QFD_SCRATCH:=/scratch}"

# The qfd under test, for the suites: tests/vm/check exports QFD (and the
# VM passes it on); a suite started some other way tests the tree's own
# build.  Only under bats: tests/deb.test and tests/vm/demo source this
# file too and name their own qfd.
if [[ -n ${BATS_TEST_DIRNAME-} ]]; then
	: "${QFD:=$(cd "$BATS_TEST_DIRNAME/../../.." && pwd)/src/qfd}"
fi

# Test identities.  Fixed ids so that suites can compare numbers.
#   user    uid   primary group (gid)   supplementary groups
#   qfdu1   2001  qfdu1 (2001)          qfdg1
#   qfdu2   2002  qfdu2 (2002)          qfdg1 qfdg2
#   qfdu3   2003  qfdu3 (2003)          -
#   qfd.w-ü 2004  qfdu4 (2004)          qfdg3     (a name with a dot, a dash
#                                                  and a non-ASCII letter)
#   groups qfdg1 qfdg2 qfdg3 = gids 3001 3002 3003
#   projects (/etc/projid) qfdp1 qfdp2 qfdp3 = 4001 4002 4003
# shellcheck disable=SC2034 # for the suites
QFD_USERS=(qfdu1 qfdu2 qfdu3)
QFD_WEIRD_USER='qfd.w-ü'
# shellcheck disable=SC2034
QFD_GROUPS=(qfdg1 qfdg2 qfdg3)
# shellcheck disable=SC2034
QFD_PROJECTS=(qfdp1 qfdp2 qfdp3)

_fs_err() {
	echo "fs.bash: $*" >&2
	return 1
}

# ------------------------------------------------------------ identities

# users_create: the users, groups and projects above.  Idempotent, so every
# suite may call it from setup_file.
users_create() {
	local i g
	for i in 1 2 3; do
		getent group "qfdg$i" >/dev/null || groupadd -g "$((3000 + i))" "qfdg$i" || return
	done
	_user_add qfdu1 2001 qfdu1 qfdg1 || return
	_user_add qfdu2 2002 qfdu2 qfdg1,qfdg2 || return
	_user_add qfdu3 2003 qfdu3 "" || return
	_user_add "$QFD_WEIRD_USER" 2004 qfdu4 qfdg3 || return
	for i in 1 2 3; do
		g=qfdp$i
		grep -q "^$g:" /etc/projid 2>/dev/null || echo "$g:$((4000 + i))" >>/etc/projid || return
	done
}

_user_add() {
	local name=$1 uid=$2 group=$3 extra=$4
	getent passwd "$name" >/dev/null && return 0
	getent group "$group" >/dev/null || groupadd -g "$uid" "$group" || return
	# -M: no home directory (none is needed, and / is the host's, read-only
	# underneath); --badname: Debian refuses some names we want on purpose.
	useradd -M -N -g "$group" ${extra:+-G "$extra"} -u "$uid" -s /bin/sh \
		--badname "$name" 2>/dev/null ||
		useradd -M -N -g "$group" ${extra:+-G "$extra"} -u "$uid" -s /bin/sh "$name"
}

# as_user NAME CMD [ARGS...]: run CMD with NAME's uid, primary gid and
# supplementary groups (as login would set them), and no capabilities.
as_user() {
	local name=$1 gid
	shift
	gid=$(id -g -- "$name") || return
	setpriv --reuid="$(id -u -- "$name")" --regid="$gid" --init-groups -- "$@"
}

# write_bytes FILE N [USER]: write N bytes (a multiple of 4096) of zeros to
# FILE, as USER if given, and flush them, so that the blocks are allocated
# and charged when it returns.  dd's own error (for instance "Disk quota
# exceeded") is its status and stderr.
write_bytes() {
	local file=$1 n=$2 user=${3:-}
	[[ $n =~ ^[0-9]+$ ]] && ((n % 4096 == 0)) ||
		_fs_err "write_bytes: $n is not a multiple of 4096" || return
	local -a dd=(dd if=/dev/zero "of=$file" bs=4096 "count=$((n / 4096))" conv=fsync status=none)
	if [[ -n $user ]]; then
		as_user "$user" "${dd[@]}"
	else
		"${dd[@]}"
	fi
}

# as_ids UID GID CMD...: run CMD with that uid and gid, no supplementary
# groups and no capabilities.  The ids need no passwd or group entry.
as_ids() {
	local uid=$1 gid=$2
	shift 2
	setpriv --reuid="$uid" --regid="$gid" --clear-groups -- "$@"
}

# write_as UID FILE BYTES [GID]: BYTES (a multiple of 4096) of zeros into
# FILE as UID (group GID, default = UID), flushed so the blocks are charged
# when it returns.  dd's status and error line are its own.
write_as() {
	local uid=$1 file=$2 n=$3 gid=${4:-$1}
	((n % 4096 == 0)) || { echo "write_as: $n is not a multiple of 4096" >&2; return 2; }
	as_ids "$uid" "$gid" dd if=/dev/zero of="$file" bs=4096 count=$((n / 4096)) \
		conv=fsync status=none
}

# touch_as UID GID FILE...: create empty files (one inode each, no space).
touch_as() {
	local uid=$1 gid=$2
	shift 2
	as_ids "$uid" "$gid" touch -- "$@"
}

# project_dir DIR ID: make DIR (if needed) and give it project ID with the
# inherit flag, so files made below it are charged to the project.
# xfs_io's chproj/chattr use the generic FS_IOC_FSSETXATTR, which works on
# ext4 and XFS on 5.10 and 6.1 (chattr -p does not on XFS under 5.10).
project_dir() {
	local dir=$1 id=$2
	mkdir -p -- "$dir" || return
	chmod 1777 -- "$dir" || return
	xfs_io -c "chproj $id" -c "chattr +P" -- "$dir"
}

# ------------------------------------------------------------ filesystems

# fs_ext4 NAME [-s MIB] [-o MOUNTOPTS] [-- MKFSARGS...]
#   ext4 with the quota and project features (hidden quota inodes for user,
#   group and project: accounting is on as soon as it is mounted), 4 KiB
#   blocks, 256-byte inodes (project ids need them).  Default size 64 MiB,
#   default mount options usrquota,grpquota,prjquota: enforcement on.  Use
#   -o defaults for accounting without enforcement.  Prints the mount point.
fs_ext4() {
	local name=$1
	shift || return
	_fs_args fs_ext4 64 usrquota,grpquota,prjquota "$@" || return
	_fs_loop ext4 "$name" "$_fs_size" "$_fs_mopts" mkfs.ext4 -q -F -b 4096 -I 256 \
		-O quota,project -E quotatype=usrquota:grpquota:prjquota "${_fs_mkfs[@]}"
}

# _fs_args MAKER SIZE MOUNTOPTS [-s MIB] [-o MOUNTOPTS] [-- MKFSARGS...]:
# a maker's options, with its defaults SIZE and MOUNTOPTS, into _fs_size,
# _fs_mopts and the array _fs_mkfs.  MAKER names it in an error.
_fs_args() {
	local maker=$1
	_fs_size=$2 _fs_mopts=$3 _fs_mkfs=()
	shift 3
	while (($#)); do
		case $1 in
		-s) _fs_size=$2; shift 2 ;;
		-o) _fs_mopts=$2; shift 2 ;;
		--) shift; _fs_mkfs=("$@"); return 0 ;;
		*) _fs_err "$maker: unknown option $1"; return ;;
		esac
	done
}

# fs_ext4_noquota NAME [-s MIB] [-o MOUNTOPTS] [-- MKFSARGS...]: ext4 made
# without the quota feature, mounted without quota options: quotactl
# answers ESRCH there.
fs_ext4_noquota() {
	local name=$1
	shift || return
	_fs_args fs_ext4_noquota 64 defaults "$@" || return
	_fs_loop ext4 "$name" "$_fs_size" "$_fs_mopts" mkfs.ext4 -q -F -b 4096 -I 256 \
		-O ^quota "${_fs_mkfs[@]}"
}

# fs_ext4_noproject NAME: ext4 with the quota feature for users and groups
# but not the project feature, mounted usrquota,grpquota: user and group
# quotas work, project ids are refused (EOPNOTSUPP from FS_IOC_FSSETXATTR).
fs_ext4_noproject() {
	_fs_loop ext4 "$1" 64 usrquota,grpquota mkfs.ext4 -q -F -b 4096 -I 256 \
		-O quota,^project -E quotatype=usrquota:grpquota
}

# fs_xfs NAME [-s MIB] [-o MOUNTOPTS] [-- MKFSARGS...]
#   XFS (mkfs defaults, 4 KiB blocks), default 320 MiB (xfsprogs refuses
#   less than 300 MB; the image is sparse, so it costs only what is
#   written), default mount options uquota,gquota.  Pass -o pquota, or
#   -o uquota,gquota,pquota (both 5.10 and 6.1 accept all three at once), or
#   uqnoenforce etc. for accounting without enforcement.
fs_xfs() {
	local name=$1
	shift || return
	_fs_args fs_xfs 320 uquota,gquota "$@" || return
	_fs_loop xfs "$name" "$_fs_size" "$_fs_mopts" mkfs.xfs -q -f "${_fs_mkfs[@]}"
}

# fs_f2fs NAME [-s MIB] [-o MOUNTOPTS] [-- MKFSARGS...]
#   f2fs with hidden quota inodes and project ids (mkfs.f2fs -O
#   extra_attr,quota,project_quota), default 256 MiB (f2fs keeps a good
#   share of a small volume for itself; the image is sparse), default mount
#   options usrquota,grpquota,prjquota: enforcement on, as fs_ext4.
fs_f2fs() {
	local name=$1
	shift || return
	_fs_args fs_f2fs 256 usrquota,grpquota,prjquota "$@" || return
	_fs_loop f2fs "$name" "$_fs_size" "$_fs_mopts" mkfs.f2fs -q -f \
		-O extra_attr,quota,project_quota "${_fs_mkfs[@]}"
}

# fs_f2fs_noquota NAME: f2fs made without the quota feature, mounted
# without quota options.
fs_f2fs_noquota() {
	_fs_loop f2fs "$1" 256 defaults mkfs.f2fs -q -f
}

# _fs_loop TYPE NAME MIB MOUNTOPTS MKFS [ARGS...]
_fs_loop() {
	local type=$1 name=$2 size=$3 opts=$4 img dev mnt
	shift 4
	_fs_name_ok "$name" || return
	img=$QFD_SCRATCH/$name.img
	mnt=$QFD_SCRATCH/$name
	rm -f -- "$img"
	truncate -s "${size}M" -- "$img" || return
	"$@" "$img" >/dev/null || _fs_err "$1 failed for $name" || return
	dev=$(losetup -f --show -- "$img") || return
	mkdir -p -- "$mnt" || return
	_fs_save "$name" "$type" "$dev" "$opts" "$img" || return
	fs_mount "$name" || return
	chmod 1777 -- "$mnt" || return
	echo "$mnt"
}

# fs_ubifs NAME [-o MOUNTOPTS]
#   UBIFS on a simulated NAND (nandsim: 256 MiB, 2 KiB pages, 128 KiB
#   erase blocks), UBI device 0, one volume "vol" filling it.  One UBIFS at a
#   time.  The ubifs module is whichever the VM loaded (the stock one, or
#   tests/vm/run --ubifs-ko).  Prints the mount point.
fs_ubifs() {
	local name=$1 opts=defaults mtd mnt
	shift || return
	while (($#)); do
		case $1 in
		-o) opts=$2; shift 2 ;;
		*) _fs_err "fs_ubifs: unknown option $1"; return ;;
		esac
	done
	_fs_name_ok "$name" || return
	[[ ! -e /dev/ubi0 ]] || _fs_err "fs_ubifs: UBI device 0 is in use (fs_teardown first)" || return
	mtd=$(_nandsim_mtd) || return
	ubiformat -y -q "/dev/mtd$mtd" >/dev/null || return
	ubiattach -m "$mtd" -d 0 >/dev/null || return
	ubimkvol /dev/ubi0 -N vol -m >/dev/null || return
	mnt=$QFD_SCRATCH/$name
	mkdir -p -- "$mnt" || return
	_fs_save "$name" ubifs ubi0:vol "$opts" "mtd$mtd" || return
	fs_mount "$name" || return
	chmod 1777 -- "$mnt" || return
	echo "$mnt"
}

# The MTD number of the simulated NAND, loading nandsim if it is not there.
# 0x20,0xaa,0x00,0x15 is a 256 MiB chip with 2 KiB pages that nandsim knows.
_nandsim_mtd() {
	local n
	n=$(sed -n 's/^mtd\([0-9]*\):.*"NAND simulator.*/\1/p' /proc/mtd 2>/dev/null | head -n 1)
	if [[ -z $n ]]; then
		modprobe nandsim first_id_byte=0x20 second_id_byte=0xaa \
			third_id_byte=0x00 fourth_id_byte=0x15 || return
		n=$(sed -n 's/^mtd\([0-9]*\):.*"NAND simulator.*/\1/p' /proc/mtd | head -n 1)
	fi
	[[ -n $n ]] || _fs_err "nandsim made no MTD device" || return
	echo "$n"
}

# fs_ubifs_detach NAME: unmount and detach UBI device 0 from its MTD (the
# flash keeps its contents).  fs_ubifs_attach NAME: attach and mount again.
fs_ubifs_detach() {
	local name=$1
	fs_umount "$name" || return
	ubidetach -d 0
}

fs_ubifs_attach() {
	local name=$1 mtd
	_fs_load "$name" || return
	mtd=${_fs_img#mtd}
	ubiattach -m "$mtd" -d 0 >/dev/null || return
	fs_mount "$name"
}

_fs_name_ok() {
	[[ $1 =~ ^[A-Za-z0-9_][A-Za-z0-9_.-]*$ ]] || _fs_err "bad filesystem name '$1'"
}

# Record and read back what fs_mount needs: type, source, options, image.
_fs_save() {
	mkdir -p -- "$QFD_SCRATCH/.fs" || return
	printf '%s\n' "$2" "$3" "$4" "$5" >"$QFD_SCRATCH/.fs/$1"
}

_fs_load() {
	local f=$QFD_SCRATCH/.fs/$1
	[[ -f $f ]] || _fs_err "no filesystem named '$1'" || return
	{ read -r _fs_type; read -r _fs_dev; read -r _fs_opts; read -r _fs_img; } <"$f"
}

# fs_mount NAME [MOUNTOPTS]: mount NAME again (after fs_umount), with its
# recorded options or with MOUNTOPTS (which are then recorded).
fs_mount() {
	local name=$1
	_fs_load "$name" || return
	if (($# > 1)); then
		_fs_opts=$2
		_fs_save "$name" "$_fs_type" "$_fs_dev" "$_fs_opts" "$_fs_img" || return
	fi
	mount -t "$_fs_type" -o "$_fs_opts" -- "$_fs_dev" "$QFD_SCRATCH/$name"
}

# fs_umount NAME: unmount it, after writing everything back.
fs_umount() {
	sync -f -- "$QFD_SCRATCH/$1" 2>/dev/null
	umount -- "$QFD_SCRATCH/$1"
}

# fs_remount NAME [MOUNTOPTS]: unmount and mount again (a real unmount, so
# quota state is written out and read back in); with MOUNTOPTS, mount with
# those from now on.
fs_remount() {
	fs_umount "$1" || return
	fs_mount "$@"
}

# fs_remount_ro NAME / fs_remount_rw NAME: "mount -o remount,ro|rw".
fs_remount_ro() { mount -o remount,ro -- "$QFD_SCRATCH/$1"; }
fs_remount_rw() { mount -o remount,rw -- "$QFD_SCRATCH/$1"; }

# fs_fill MNT: no free block left on MNT for anyone, root included where
# the filesystem keeps no reserve for root (mkfs.ext4 -m 0): one file of
# zeros as large as will go, then small files into what is left.
fs_fill() {
	local i
	dd if=/dev/zero of="$1/fill" bs=1M 2>/dev/null || true
	for ((i = 0; i < 256; i++)); do
		head -c 4096 /dev/zero >"$1/fill.$i" 2>/dev/null || break
	done
}

# fs_dev NAME: the block device (loop) or UBI volume behind NAME; the
# classic tools (repquota, xfs_quota) want it.
fs_dev() {
	_fs_load "$1" || return
	echo "$_fs_dev"
}

# fs_ext4_xfs: what the suites that work on both ext4 and XFS set up once
# (apply, project-quota, set-provisioning): the test users, an ext4 "e"
# with every quota type and an XFS "x" mounted uquota,gquota,pquota, after
# whatever an earlier suite left behind is gone.
fs_ext4_xfs() {
	fs_teardown
	users_create
	fs_ext4 e >/dev/null
	fs_xfs x -o uquota,gquota,pquota >/dev/null
}

# fs_ext4_xfs_ubifs P: the three filesystems with quotas of the suites that
# check one command on each (check-plugin, report-prometheus, watch): ext4
# P-e, XFS P-x mounted uquota,gquota, and UBIFS P-u mounted with quotas
# where the loaded module has them (ubifs_quota_or_drop), and none on a
# kernel without UBIFS (ubifs_missing); then fs_quota_mnts P.
fs_ext4_xfs_ubifs() {
	local why
	fs_ext4 "$1-e" >/dev/null || return
	fs_xfs "$1-x" -o uquota,gquota >/dev/null || return
	if why=$(ubifs_missing) && [[ ${QFD_UBIFS_WANT_PATCHED:-0} != 1 ]]; then
		: >"$QFD_SCRATCH/$1-u.noquota"
		echo "# UBIFS left out of this suite: $why" >&3
		fs_quota_mnts "$1"
		return
	fi
	fs_ubifs "$1-u" >/dev/null || return
	ubifs_quota_or_drop "$1-u" || return
	fs_quota_mnts "$1"
}

# fs_quota_mnts P: MNTS, the mount points of fs_ext4_xfs_ubifs P that have
# quotas, and FSTYPES, their types: UBIFS only where ubifs_quota_or_drop
# kept its quotas.  A suite calls it at load time as well (each test is a
# process of its own).
# shellcheck disable=SC2034 # for the suites
fs_quota_mnts() {
	MNTS=("$QFD_SCRATCH/$1-e" "$QFD_SCRATCH/$1-x")
	FSTYPES=(ext4 xfs)
	if ubifs_quota "$1-u"; then
		MNTS+=("$QFD_SCRATCH/$1-u")
		FSTYPES+=(ubifs)
	fi
}

# fs_teardown: unmount every filesystem under $QFD_SCRATCH, detach their
# loop devices and UBI, unload nandsim, and empty $QFD_SCRATCH (images,
# mount points, and whatever else a suite left there).  Safe to call when
# nothing is there.  (Not called "teardown": that name is bats's
# per-test hook.)  Use it from teardown_file, or teardown.
fs_teardown() {
	local t dev file ubi rc=0
	sync
	# Deepest mount points first.
	while read -r t; do
		umount -- "$t" 2>/dev/null || umount -l -- "$t" || rc=1
	done < <(findmnt -rn -o TARGET | grep "^$QFD_SCRATCH/" | sort -r)
	while read -r dev file; do
		[[ $file == "$QFD_SCRATCH"/* ]] || continue
		losetup -d "$dev" || rc=1
	done < <(losetup -n -l -O NAME,BACK-FILE 2>/dev/null)
	for ubi in /sys/class/ubi/ubi[0-9]*; do
		[[ -e $ubi/mtd_num ]] || continue
		ubidetach -d "${ubi##*/ubi}" || rc=1
	done
	if [[ -d /sys/module/nandsim ]]; then
		rmmod nandsim || rc=1
	fi
	# Then everything else under the scratch directory, whoever made it,
	# so the next suite in the same VM starts from an empty /scratch.
	# --one-file-system: never descend into a mount that would not go away.
	find "$QFD_SCRATCH" -mindepth 1 -maxdepth 1 -exec rm -rf --one-file-system -- {} + || rc=1
	return "$rc"
}

# ------------------------------------------------------------ peers, kernel

# ubifs_stock_ko: a ubifs.ko for the running kernel without quota support (the
# unpatched module, from the VM runner's cache), or fail. Debian 13 ships
# it compressed (ubifs.ko.xz): that one is unpacked to a temporary file.
ubifs_stock_ko() {
	local f tmp
	while read -r f; do
		[[ $(modinfo -F vermagic "$f" 2>/dev/null) == "$(uname -r) "* ]] || continue
		if [[ $f == *.xz ]]; then
			tmp=$(mktemp --suffix=.ko) || return 1
			xz -dc "$f" >"$tmp" || continue
			f=$tmp
		fi
		grep -q usrquota "$f" && continue
		echo "$f"
		return 0
	done < <(find "${QFD_CACHE:-/var/cache/qfd}" \( -name ubifs.ko -o -name ubifs.ko.xz \) 2>/dev/null)
	return 1
}

# peer_usage MNT -u|-g|-p ID: "KIB FILES" of ID as the classic tools see it
# (repquota for ext4, xfs_quota for XFS; both go through the block device,
# not through qfd), for checking qfd's numbers against theirs.
peer_usage() {
	local mnt=$1 flag=$2 id=$3 type dev kib='' files=''
	type=$(findmnt -n -o FSTYPE --target "$mnt") || return
	dev=$(findmnt -n -o SOURCE --target "$mnt") || return
	case $type in
	ext4 | f2fs)
		# -n: numeric ids ("#2001"); CSV columns: id, BlockStatus,
		# FileStatus, BlockUsed (KiB), BlockSoft, BlockHard, BlockGrace,
		# FileUsed, ...
		# repquota spells project -P (its -p is something else).
		[[ $flag == -p ]] && flag=-P
		read -r kib files < <(repquota "$flag" -n -O csv "$dev" |
			awk -F, -v id="#$id" '$1 == id { print $4, $8 }')
		;;
	xfs)
		# One report per resource: the grace column ("[6 days]") has a
		# variable number of words, so only the first two are safe.
		kib=$(xfs_quota -x -c "report $flag -b -N -n" "$mnt" | awk -v id="#$id" '$1 == id { print $2 }')
		files=$(xfs_quota -x -c "report $flag -i -N -n" "$mnt" | awk -v id="#$id" '$1 == id { print $2 }')
		;;
	*) _fs_err "peer_usage: no peer tool for $type" || return ;;
	esac
	echo "${kib:-0} ${files:-0}"
}

# wait_for_line FILE REGEX PID: until a line of FILE matches (qfd --debug
# traces each quota call there) or PID is gone, for at most 60 s; so that
# a signal lands in the middle of a run's writes, not before them.
wait_for_line() {
	local i
	for ((i = 0; i < 6000; i++)); do
		grep -q -- "$2" "$1" 2>/dev/null && return 0
		kill -0 "$3" 2>/dev/null || return 1
		sleep 0.01
	done
	return 1
}

# kernel_at_least MAJOR MINOR: true if the running kernel is that or newer.
kernel_at_least() {
	local maj min
	IFS=. read -r maj min _ < <(uname -r)
	((maj > $1 || (maj == $1 && ${min%%[!0-9]*} >= $2)))
}

# kernel_has_modules: true if the running kernel has a module tree.  The
# project's own kernels (kernel/builds) have everything they need built in
# (kernel/configs/vm.config) and no modules at all.
kernel_has_modules() {
	[[ -d /lib/modules/$(uname -r)/kernel ]]
}

# ubifs_missing: prints why the running kernel cannot give a suite UBIFS on
# a simulated NAND, and returns 0; returns 1 if it can.  The project's own
# kernels are built without UBI, UBIFS and nandsim (kernel/configs/
# vm.config: they are there for quotactl_fd and tmpfs quotas).
ubifs_missing() {
	local m
	for m in ubi ubifs nandsim; do
		case $m in
		ubi) [[ -d /sys/class/ubi ]] && continue ;;
		ubifs) grep -qw ubifs /proc/filesystems && continue ;;
		nandsim) [[ -d /sys/module/nandsim ]] && continue ;;
		esac
		modinfo "$m" >/dev/null 2>&1 && continue
		echo "kernel $(uname -r) has no $m, built in or as a module"
		return 0
	done
	return 1
}

# has_quotactl_fd: true if the running kernel is meant to have quotactl_fd:
# 5.14 or newer, or one of the project's kernels (kernel/builds) that carry
# the backport.  Not a probe of the system call: on a kernel meant to have
# it, a call that answers ENOSYS must fail the tests that use it, not skip
# them.
has_quotactl_fd() {
	kernel_at_least 5 14 || [[ ${QFD_VM_SERIES-} == *-qfd ]]
}

# ubifs_quota_or_drop NAME: mount the UBIFS NAME again with usrquota,grpquota,
# for a suite that checks UBIFS beside ext4 and XFS.  The stock module has no
# quota and refuses those options.  Under make check on 6.1
# (QFD_UBIFS_WANT_PATCHED=1) that is a failure, as in ubifs_unpatched; on a
# kernel the UBIFS quota series has not been ported to (Debian testing's
# 7.x; kernel/ubifs has 6.1 and 6.12) the suite goes on with ext4 and XFS:
# NAME stays mounted without quotas, $QFD_SCRATCH/NAME.noquota says so to
# every test (ubifs_quota reads it: each test is a process of its own), and
# one TAP comment names what is left out and why.
ubifs_quota_or_drop() {
	local name=$1
	fs_remount "$name" usrquota,grpquota 2>/dev/null && return 0
	if [[ ${QFD_UBIFS_WANT_PATCHED:-0} == 1 ]]; then
		echo "the loaded ubifs.ko has no quota support, but the patched module was asked for (did kernel/ubifs/build.sh fail?)" >&2
		return 1
	fi
	fs_mount "$name" defaults || return
	: >"$QFD_SCRATCH/$name.noquota"
	echo "# UBIFS left out of this suite: the stock ubifs.ko of $(uname -r) has no quota support (no kernel/ubifs series for it; tests/vm/check --ubifs-ko)" >&3
}

# ubifs_quota NAME: true unless ubifs_quota_or_drop left NAME without quotas.
ubifs_quota() {
	[[ ! -e $QFD_SCRATCH/$1.noquota ]]
}

# ubifs_unpatched REASON: a test that needs the patched UBIFS module runs
# on the stock one.  A skip for a person running one suite by hand; under
# make check (tests/vm.test sets QFD_UBIFS_WANT_PATCHED=1) the series must
# have built, so it is a failure.
ubifs_unpatched() {
	if [[ ${QFD_UBIFS_WANT_PATCHED:-0} == 1 ]]; then
		echo "the loaded ubifs.ko has no quota support, but the patched module was asked for (did kernel/ubifs/build.sh fail?)" >&2
		return 1
	fi
	skip "$1"
}

# in_vm: true inside the test VM (tests/vm/run sets QFD_VM=1).  Suites use
# it to skip themselves when started on the host by mistake.
in_vm() {
	[[ ${QFD_VM:-} == 1 ]]
}

# no_leak_check CMD...: run CMD (qfd, or what starts it) without
# LeakSanitizer's check at exit, for the tests that start qfd hundreds of
# times to race it against itself.  Under TCG that check costs about a
# tenth of a second a process (it scans the sanitizer runtimes' large zeroed
# data page by page); the very same commands run with it everywhere else.
no_leak_check() {
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 "$@"
}

#!/bin/bash
# bench/ubifs-mount.sh: what a UBIFS quota mount costs in time, and what it
# writes to the flash (issue 35, item 2; the table in kernel/README, "Mount
# cost and flash wear").
#
# A benchmark, not a test: it prints numbers and fails only when it could
# not take them.  Run it from the top of the tree:
#
#     bench/ubifs-mount.sh                      # 6.1, the series' module
#     bench/ubifs-mount.sh --kernel 6.12
#     bench/ubifs-mount.sh --ubifs-ko OTHER.ko  # another module (an older
#                                               # series) on the same images
#     QFD_BENCH_FILES="1000 10000" QFD_BENCH_REPS=5 bench/ubifs-mount.sh
#
# On the host it starts itself inside the test VM (tests/vm/run, with the
# module given, default kernel/ubifs/build.sh's), holding a test-VM slot.
# In the VM, on nandsim (a 256 MiB NAND with 2 KiB pages, as the suites'),
# for each number of files N:
#
#   1. an image made by mkfs.ubifs from a directory of N empty files (in
#      100 directories, owned by 10 users and 10 groups in turn), written
#      into the UBI volume with ubiupdatevol; one mount without quota
#      options and one with, untimed (the second creates the quota files);
#   2. REPS rounds, each of four timed mounts (wall time of mount(8)),
#      each followed by an unmount:
#        plain         no quota options, after a clean unmount
#        quota         usrquota,grpquota, after a clean unmount (of a quota
#                      mount: the one before it)
#        plain-unclean no quota options, after an unclean unmount
#        quota-unclean usrquota,grpquota, after an unclean unmount
#      An unclean unmount is made with UBIFS's debugfs ro_error: a mount of
#      the same options, a file created and removed, sync(1) (a commit,
#      which with quota writes the usage table of 0007), then ro_error
#      set, then umount, which then writes nothing, as after a power cut
#      (the next mount recovers);
#   3. in each round, unmounted, every mapped LEB of the UBI volume read
#      once (UBI_IOCEBISMAP tells which; one read of a whole LEB each
#      from /dev/ubi0_0): a floor for any walk of the index, which must
#      read the index nodes and every inode node, and in an image of
#      empty files those fill nearly every mapped LEB;
#   4. during each "plain" and "quota" mount, the bytes UBI writes to the flash (a
#      tracefs kprobe on ubi_io_write(), the one function all UBI writes
#      of data, headers and wear-levelling go through; its len argument
#      summed) and the quota file node groups UBIFS writes (kprobe on
#      ubifs_jnl_write_blocks()).  The unmount before it is not counted.
#
# The table: medians over the rounds; RATIO is quota/plain after a clean
# unmount, U/P quota after an unclean unmount over plain after a clean one,
# U/P-U over plain after an unclean one (both pay UBIFS's recovery);
# READ-S the read of the mapped LEBs, R/P-U that over plain after an
# unclean unmount (a quota mount that walks costs at least 1 + R/P-U times
# a plain one: it does the plain mount's work and reads the nodes);
# PLAIN-BYTES and QUOTA-BYTES what UBI wrote during one mount without
# and with quota after a clean unmount, QNODES the quota file node groups
# the quota mount wrote, U-WALKED in how many rounds the quota mount after
# an unclean unmount walked the index (kprobe on ubifs_tnc_walk_inos(); 0
# when it trusted the usage table of 0007).  Settings (environment; tests/vm/run
# passes every QFD_* variable on):
#   QFD_BENCH_FILES="1000 10000 100000"   numbers of files
#   QFD_BENCH_REPS=3                      rounds (medians shown)
#   QFD_BENCH_TIMEOUT=3600                VM timeout, seconds (host only)
#
# Needs in the guest (from the host): mtd-utils (mkfs.ubifs, ubiformat,
# ubiattach, ubimkvol, ubiupdatevol), python3, util-linux.
set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ME=bench/ubifs-mount.sh

. "$TOP/bench/lib.bash"

if [[ ${QFD_VM:-} != 1 ]]; then
	kernel=6.1
	ko=
	while (($#)); do
		case $1 in
		--kernel) kernel=${2:?--kernel needs 6.1 or 6.12}; shift 2 ;;
		--ubifs-ko) ko=${2:?--ubifs-ko needs a path}; shift 2 ;;
		-h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
		*) die "unknown argument $1 (--help)" ;;
		esac
	done
	cd "$TOP"
	if [[ -z $ko ]]; then
		ko=$(kernel/ubifs/build.sh --kernel "$kernel" -q) || die "kernel/ubifs/build.sh failed"
	fi
	[[ -f $ko ]] || die "no such module: $ko"
	export QFD_BENCH_HOST_LOAD=${QFD_BENCH_HOST_LOAD:-$(cut -d' ' -f1-3 /proc/loadavg)}
	export QFD_BENCH_KO=$ko
	# shellcheck source=tests/vm/lib/slots.bash
	. tests/vm/lib/slots.bash
	vm_slots_take 1 "$ME"
	exec tests/vm/run --kernel "$kernel" --ubifs-ko "$ko" \
		--timeout "${QFD_BENCH_TIMEOUT:-3600}" -- "$ME"
fi
[[ $(findmnt -n -o FSTYPE /) == overlay ]] ||
	die "QFD_VM=1 but / is not the test VM's overlay; refusing to touch flash devices here"

FILES=${QFD_BENCH_FILES:-1000 10000 100000}
REPS=${QFD_BENCH_REPS:-3}
QOPTS=usrquota,grpquota
W=/scratch/bench-ubifs-mount
MNT=$W/mnt
TR=/sys/kernel/tracing
DBG=/sys/kernel/debug/ubifs
for t in mkfs.ubifs ubiformat ubiattach ubimkvol ubiupdatevol python3; do
	command -v "$t" >/dev/null || die "$t not found (mtd-utils, python3)"
done
mkdir -p "$MNT"
RES=$W/results
: >"$RES"

modprobe ubifs
modprobe nandsim first_id_byte=0x20 second_id_byte=0xaa \
	third_id_byte=0x00 fourth_id_byte=0x15
MTD=$(sed -n 's/^mtd\([0-9]*\):.*"NAND simulator.*/\1/p' /proc/mtd | head -n 1)
[[ -n $MTD ]] || die "nandsim made no MTD device"
ubiformat -y -q "/dev/mtd$MTD" >/dev/null
ubiattach -m "$MTD" -d 0 >/dev/null
ubimkvol /dev/ubi0 -N vol -m >/dev/null
LEB=$(</sys/class/ubi/ubi0_0/usable_eb_size)
LEBS=$(</sys/class/ubi/ubi0_0/reserved_ebs)
MINIO=$(</sys/class/ubi/ubi0/min_io_size)

[[ -d $DBG ]] || mount -t debugfs none /sys/kernel/debug
[[ -e $TR/kprobe_events ]] || mount -t tracefs nodev "$TR"
# shellcheck disable=SC2016 # $arg5 is tracefs's, not the shell's
echo 'p:qfdbench/ubiw ubi:ubi_io_write len=$arg5:s32' >>"$TR/kprobe_events"
echo 'p:qfdbench/qnodes ubifs:ubifs_jnl_write_blocks' >>"$TR/kprobe_events"
echo 'p:qfdbench/walk ubifs:ubifs_tnc_walk_inos' >>"$TR/kprobe_events"
cleanup() {
	echo 0 >"$TR/events/qfdbench/enable" 2>/dev/null || true
	echo '-:qfdbench/ubiw' >>"$TR/kprobe_events" 2>/dev/null || true
	echo '-:qfdbench/qnodes' >>"$TR/kprobe_events" 2>/dev/null || true
	echo '-:qfdbench/walk' >>"$TR/kprobe_events" 2>/dev/null || true
	umount "$MNT" 2>/dev/null || true
}
trap cleanup EXIT

# mnt OPTS: mount, print its wall seconds
mnt() {
	local t0=$EPOCHREALTIME t1
	mount -t ubifs -o "$1" ubi0:vol "$MNT"
	t1=$EPOCHREALTIME
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }'
}

# counted OPTS: mount; s its wall seconds, bytes what UBI wrote meanwhile,
# nodes the quota file node groups UBIFS wrote, walks the usage walks
counted() {
	: >"$TR/trace"
	echo 1 >"$TR/events/qfdbench/enable"
	s=$(mnt "$1")
	echo 0 >"$TR/events/qfdbench/enable"
	bytes=$(awk '/ ubiw: / { for (i = 1; i <= NF; i++) if ($i ~ /^len=/) s += substr($i, 5) } END { print s + 0 }' "$TR/trace")
	nodes=$(grep -c ' qnodes: ' "$TR/trace" || true)
	walks=$(grep -c ' walk: ' "$TR/trace" || true)
}

# read_mapped: read every mapped LEB of the volume once, print the seconds
# the reads took.  An unmapped LEB is not read from the flash (UBI returns
# 0xFF), but handing its 0xFF to user space is not free under emulation
# either: a dd of the whole 256 MiB volume took 1.2-2 s even with 1,000
# files, so only what is mapped is read.
read_mapped() {
	python3 - /dev/ubi0_0 "$LEB" "$LEBS" <<'PY'
import fcntl, os, sys, time
dev, leb, lebs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
UBI_IOCEBISMAP = 0x80044F05	# _IOR('O', 5, __s32): 1 when mapped
fd = os.open(dev, os.O_RDONLY)
mapped = [l for l in range(lebs)
	  if fcntl.ioctl(fd, UBI_IOCEBISMAP, bytearray(l.to_bytes(4, "little")), True) == 1]
t0 = time.perf_counter()
for l in mapped:
	if len(os.pread(fd, leb, l * leb)) != leb:
		sys.exit("short read of LEB %d" % l)
print("%.3f" % (time.perf_counter() - t0))
print("%d LEBs mapped" % len(mapped), file=sys.stderr)
PY
}

# unclean OPTS: mount with OPTS, change something and commit it (as a
# volume in use does: with quota, the commit's usage table is written),
# then leave it as a power cut would
unclean() {
	mount -t ubifs -o "$1" ubi0:vol "$MNT"
	: >"$MNT/.bench-commit"
	rm -- "$MNT/.bench-commit"
	sync -f "$MNT"
	echo 1 >"$DBG/ubi0_0/ro_error"
	umount "$MNT"
}

for n in $FILES; do
	note "$n files: image"
	src=$W/src-$n
	rm -rf "$src" "$W/img"
	python3 - "$src" "$n" <<'PY'
import os, sys
root, n = sys.argv[1], int(sys.argv[2])
os.mkdir(root)
for d in range(100):
    os.mkdir(os.path.join(root, "d%02d" % d))
for i in range(n):
    p = os.path.join(root, "d%02d" % (i % 100), "f%d" % i)
    fd = os.open(p, os.O_CREAT | os.O_WRONLY, 0o644)
    os.fchown(fd, 5000 + i % 10, 6000 + (i // 10) % 10)
    os.close(fd)
PY
	mkfs.ubifs -r "$src" -m "$MINIO" -e "$LEB" -c "$LEBS" -o "$W/img"
	rm -rf "$src"
	ubiupdatevol /dev/ubi0_0 "$W/img"
	mnt defaults >/dev/null
	umount "$MNT"
	mnt "$QOPTS" >/dev/null
	umount "$MNT"
	for ((r = 1; r <= REPS; r++)); do
		note "$n files: round $r"
		counted defaults
		umount "$MNT"
		echo "$n plain $s $bytes $nodes" >>"$RES"
		# a quota mount after the clean unmount of a quota mount
		mnt "$QOPTS" >/dev/null
		umount "$MNT"
		counted "$QOPTS"
		umount "$MNT"
		echo "$n quota $s $bytes $nodes" >>"$RES"
		unclean defaults
		s=$(mnt defaults)
		umount "$MNT"
		echo "$n plain-unclean $s" >>"$RES"
		unclean "$QOPTS"
		counted "$QOPTS"
		umount "$MNT"
		echo "$n quota-unclean $s $walks" >>"$RES"
		echo "$n read $(read_mapped)" >>"$RES"
	done
done

# the rounds as taken, for the spread: "N KIND SECONDS [BYTES QNODES]"
sed 's/^/# /' "$RES"
echo "# $ME: $(uname -r), module $(basename "$(dirname "${QFD_BENCH_KO:-?}")")/ubifs.ko, $REPS rounds, medians; host load ${QFD_BENCH_HOST_LOAD:-?}"
awk "$BENCH_AWK_MEDIAN"'
	{ n = $1; k = $2; c[n, k]++; t[n SUBSEP k, c[n, k]] = $3
	  if (k == "quota") { b[n, c[n, k]] = $4; q[n, c[n, k]] = $5 }
	  if (k == "plain") pb[n, c[n, k]] = $4
	  if (k == "quota-unclean" && $4 > 0) uw[n]++
	  if (!(n in seen)) { seen[n] = 1; order[++m] = n } }
	END {
		printf "%7s %8s %8s %6s %9s %9s %6s %6s %7s %6s %11s %11s %6s %8s\n", "FILES", "PLAIN-S", "QUOTA-S", "RATIO",
			"PLAIN-U-S", "QUOTA-U-S", "U/P", "U/P-U", "READ-S", "R/P-U", "PLAIN-BYTES", "QUOTA-BYTES", "QNODES", "U-WALKED"
		for (i = 1; i <= m; i++) {
			n = order[i]
			p = median(t, n SUBSEP "plain", c[n, "plain"])
			qq = median(t, n SUBSEP "quota", c[n, "quota"])
			up = median(t, n SUBSEP "plain-unclean", c[n, "plain-unclean"])
			uq = median(t, n SUBSEP "quota-unclean", c[n, "quota-unclean"])
			rd = median(t, n SUBSEP "read", c[n, "read"])
			printf "%7d %8.3f %8.3f %5.2fx %9.3f %9.3f %5.2fx %5.2fx %7.3f %5.2fx %11d %11d %6d %4d/%-3d\n", n, p, qq, qq / p,
				up, uq, uq / p, uq / up, rd, rd / up, median(pb, n, c[n, "plain"]),
				median(b, n, c[n, "quota"]), median(q, n, c[n, "quota"]),
				uw[n], c[n, "quota-unclean"]
		}
	}' "$RES"

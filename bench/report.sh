#!/bin/bash
# bench/report.sh: how fast, and in how much memory, "qfd report" lists
# 100,000 quota entries, next to the classic tools that do the same job:
# repquota (quota-tools) on ext4 and xfs_quota (xfsprogs) on XFS, each in
# two versions: the host's (Debian 12: 4.06 and 6.1) and the newest,
# Debian sid's (4.11 and 7.2 when this was written), which bench/peers.sh
# fetches into the cache and which run through their own dynamic loader
# in the same VM, on the same mounts, with numeric ids (-n).
#
# A benchmark, not a test: it prints numbers and fails only when it could
# not take them.  Run it from the top of the tree:
#
#     bench/report.sh
#
# On the host it starts itself inside the test VM (tests/vm/run: Debian's
# 6.1 kernel under qemu), since the host's kernel cannot do quotas; in the
# VM it does, in one run:
#
#   1. setup: a 1 GiB ext4 (quota feature, user and group quota) and a
#      1 GiB XFS (uquota,gquota) on loop devices in the guest's tmpfs; user
#      limits for N ids on each (setquota -b on ext4, batched xfs_quota
#      "limit" commands on XFS: the fastest ways found, timed); real usage
#      (one 4 KiB file) for USED of those ids;
#   2. phase 1, the guest's own few users in /etc/passwd (so name lookups
#      miss): qfd report as a table (-A), JSON (-J) and CSV (--csv), and
#      repquota -u -v on ext4 (4.06; and -v -n, 4.06 and 4.11),
#      xfs_quota -x -c 'report -u -n' on XFS (6.1 and 7.2), and
#      the floor: bench/floor.c, a bare Q_GETNEXTQUOTA loop through
#      quotactl_fd that prints seven numbers per id (what every format is
#      measured against), beside qfd -N -r and --prometheus.
#      First a check round (rows printed; with strace, for the first case
#      of each tool and filesystem, the number of quotactl calls), then
#      REPS timed rounds, output to /dev/null, wall seconds and peak RSS
#      from /usr/bin/time.  Rounds run every case once, in turn (each
#      round starting one case later), so that the load of a shared
#      machine falls on all cases alike;
#   3. phase 2, after appending N users (one per id) to the guest's
#      /etc/passwd (an overlay: the host's file is not touched): qfd's
#      table, -J, --csv and --prometheus with names and the table with -N,
#      to show what resolving 100,000 names costs, the floor with names
#      (bench/floor.c ... names: the loop after reading passwd whole
#      through nss, the least any report that names every id pays; its
#      t/floor is nss's share), and the peers with
#      names, the old and the newest: repquota once each (it takes
#      minutes), xfs_quota for QFD_BENCH_SLOW seconds each;
#   4. a table: median seconds, peak RSS (the largest of the REPS runs),
#      qfd/peer ratios (against the case named, and against the newest
#      peer's report on the same filesystem: numeric in phase 1, with
#      names in phase 2), and to the floor (phase 1's), each tool's version,
#      and whether qfd stayed under 64 MiB.
#
# Settings (environment; tests/vm/run passes every QFD_* variable on):
#   QFD_BENCH_IDS=100000       ids with a quota entry on each filesystem
#   QFD_BENCH_USED=1000        how many of them own a file
#   QFD_BENCH_REPS=3           timed runs per case (the median is shown)
#   QFD_BENCH_FIRST_ID=200000  first id (ids are consecutive)
#   QFD_BENCH_QFD=src/qfd      the qfd binary
#   QFD_BENCH_BASE=            another qfd binary (an older build) whose
#                              phase-1 cases (and in phase 2 the table and
#                              --csv with names) run in the same rounds,
#                              as tool "qfd-base": before and after under
#                              the same load
#   QFD_BENCH_SLOW=20          seconds given to xfs_quota with names (see
#                              below), after which the rate is extrapolated
#   QFD_BENCH_TIMEOUT=3600     VM timeout, seconds (host side only)
#   QFD_BENCH_SETUP=peer       "qfd": make the entries with "qfd set
#                              --batch" instead of setquota and xfs_quota
#   QFD_BENCH_NAMES=1          0: skip phase 2 (100,000 names), which
#                              is most of a full run's time
#
# Why xfs_quota is not timed to the end with names: it resolves every id
# with its own getpwuid() (nsswitch.conf, nscd socket, /etc/passwd read
# again, nss-systemd: ~30 system calls per id), which under TCG costs
# milliseconds per id: a 100,000-id report would take 7 to 15 minutes.
# The script lets it run QFD_BENCH_SLOW seconds, counts the rows it
# printed and projects the full time from that rate (marked "~").
set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ME=bench/report.sh
# shellcheck source=lib.bash
. "$TOP/bench/lib.bash"
# shellcheck source=peers.sh
. "$TOP/bench/peers.sh"

# The floor loop (bench/floor.c) is built on the host: the guest has the
# host's compiler too, but under TCG a build costs a minute.  The newest
# peers are fetched on the host too: the guest has no network.
if [[ ${QFD_VM:-} != 1 ]]; then
	cc -O2 -Wall -Werror -o "$TOP/bench/floor" "$TOP/bench/floor.c"
	# shellcheck source=../kernel/lib.bash
	. "$TOP/kernel/lib.bash"
	QFD_BENCH_PEERS=$(peers_fetch) || die "cannot fetch the sid peers (bench/peers.sh)"
	export QFD_BENCH_PEERS
fi
# Into the VM (anything the guest reads is under $TOP, which it sees at the
# same path); there, go on only on its throw-away overlay: the script
# writes /etc/passwd and makes loop devices.
bench_enter "$@"

N=${QFD_BENCH_IDS:-100000}
USED=${QFD_BENCH_USED:-1000}
REPS=${QFD_BENCH_REPS:-3}
FIRST=${QFD_BENCH_FIRST_ID:-200000}
QFD=${QFD_BENCH_QFD:-$TOP/src/qfd}
SLOW=${QFD_BENCH_SLOW:-20}
SETUP=${QFD_BENCH_SETUP:-peer}
PHASE2=${QFD_BENCH_NAMES:-1}
BASE=${QFD_BENCH_BASE:-}
for v in N USED REPS FIRST SLOW PHASE2; do
	[[ ${!v} =~ ^[0-9]+$ ]] || die "$v must be a number, not '${!v}'"
done
((N >= 1 && REPS >= 1 && USED <= N)) || die "need IDS >= 1, REPS >= 1, USED <= IDS"
[[ -x $QFD ]] || die "no qfd binary at $QFD (run make)"
for tool in mkfs.ext4 mkfs.xfs setquota repquota xfs_quota strace perl /usr/bin/time; do
	command -v "$tool" >/dev/null || die "$tool not found"
done

peers_load "${QFD_BENCH_PEERS:?}" || die "cannot run the sid peers"
QV=$("$QFD" --version 2>&1 | sed -n '1s/^qfd //p')

W=/scratch/qfd-bench
mkdir -p "$W"
EXT4=$W/ext4
XFS=$W/xfs

# Wall-clock seconds since $1 (an $EPOCHREALTIME), two decimals.
since() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }'; }

# ------------------------------------------------------------------ setup
echo "== qfd report benchmark: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
echo "kernel $(uname -r), $(nproc) vCPU, $(awk '/MemTotal/ { printf "%d MiB", $2 / 1024 }' /proc/meminfo)," \
	"$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')"
echo "qfd: $QFD ($("$QFD" --version 2>&1 | head -n 1))," \
	"tree $(git -C "$TOP" rev-parse --short HEAD 2>/dev/null || echo '?')" \
	"$(if git -C "$TOP" status --porcelain -- src 2>/dev/null | grep -q .; then echo '(src/ modified)'; fi)"
echo "peers: $(repquota -V 2>&1 | head -n 1 | sed 's/^repquota: //'); $(xfs_quota -V) (Debian 12, the host's)"
echo "newest peers: $("${REPQUOTA_NEW[@]}" -V 2>&1 | head -n 1 | sed 's/^repquota: //');" \
	"$("${XFS_QUOTA_NEW[@]}" -V) (Debian sid: $PEERS_VERSIONS; through their own loader)"
echo "ids $FIRST..$((FIRST + N - 1)) ($N), $USED with a file, $REPS timed runs per case"
bench_aslr_said
echo

t0=$EPOCHREALTIME
mkdir -p "$EXT4" "$XFS"
truncate -s 1G "$W/ext4.img" "$W/xfs.img"
mkfs.ext4 -q -F -O quota -E quotatype=usrquota:grpquota "$W/ext4.img"
mkfs.xfs -q -f "$W/xfs.img"
EXT4_DEV=$(losetup -f --show "$W/ext4.img")
XFS_DEV=$(losetup -f --show "$W/xfs.img")
mount -o usrquota,grpquota "$EXT4_DEV" "$EXT4"
mount -o uquota,gquota "$XFS_DEV" "$XFS"
echo "setup: mkfs and mount of both: $(since "$t0") s"

# Limits: 1 GiB soft, 2 GiB hard, 1000/2000 files.  Inputs are made up
# front so that only the tools are timed.
last=$((FIRST + N - 1))
seq "$FIRST" "$last" | awk '{ print $1, 1048576, 2097152, 1000, 2000 }' >"$W/setquota.in"
seq "$FIRST" "$last" | awk '{ print $1, "1G", "2G", 1000, 2000 }' >"$W/qfdset.in"
# xfs_quota takes one command per -c; xargs packs 4000 of them (8000
# arguments, about 250 KB) into each invocation.  -s keeps xargs from
# splitting a "-c" from its command.
seq "$FIRST" "$last" |
	awk '{ print "-c"; print "limit -u bsoft=1g bhard=2g isoft=1000 ihard=2000 " $1 }' >"$W/xfs_quota.in"

t0=$EPOCHREALTIME
if [[ $SETUP == qfd ]]; then
	"$QFD" set -u -q --batch "$W/qfdset.in" "$EXT4" || die "qfd set --batch on ext4 failed"
	how="qfd set --batch"
else
	setquota -u -b -c "$EXT4" <"$W/setquota.in" || die "setquota -b failed"
	how="setquota -u -b"
fi
echo "setup: $N ext4 entries ($how): $(since "$t0") s"

t0=$EPOCHREALTIME
if [[ $SETUP == qfd ]]; then
	"$QFD" set -u -q --batch "$W/qfdset.in" "$XFS" || die "qfd set --batch on XFS failed"
	how="qfd set --batch"
else
	xargs -d '\n' -n 8000 -s 1000000 -a "$W/xfs_quota.in" xfs_quota -x "$XFS" ||
		die "xfs_quota limit failed"
	how="xfs_quota -x -c 'limit ...' x 4000 per run"
fi
echo "setup: $N XFS entries ($how): $(since "$t0") s"

# Usage: USED ids spread over the range own one 4 KiB file each, on both
# filesystems.  One perl process: forking chown 2000 times is slow under TCG.
t0=$EPOCHREALTIME
if ((USED > 0)); then
	for mnt in "$EXT4" "$XFS"; do
		mkdir -p "$mnt/used"
		perl -e '
			my ($dir, $first, $step, $n) = @ARGV;
			my $buf = "x" x 4096;
			for my $i (0 .. $n - 1) {
				my $f = "$dir/f$i";
				open(my $fh, ">", $f) or die "$f: $!\n";
				print $fh $buf or die "$f: $!\n";
				close($fh) or die "$f: $!\n";
				chown($first + $i * $step, 0, $f) or die "chown $f: $!\n";
			}' "$mnt/used" "$FIRST" "$((N / USED))" "$USED"
	done
	sync
fi
echo "setup: $USED files owned by as many ids, on both: $(since "$t0") s"
echo

# ------------------------------------------------------------------ cases
# A case is one command measured REPS times.  The cases of a phase are run
# in rounds (each case once per round) rather than one case REPS times in a
# row: on a shared machine the load changes by the minute, and interleaving
# spreads that over every case alike, which keeps the ratios honest.
declare -a ORDER=() PHASE=()
declare -A TOOL VER FS FMT NAMES ROWS CALLS SECS RSS PEER NOTE CMD STRACE RUNS RSSES

# version TOOL[@VERSION]: the version of a case's tool, as the tool tells
# it (qfd --version, repquota -V, xfs_quota -V); TOOL@VERSION names it.
version() {
	case $1 in
	*@*) echo "${1#*@}" ;;
	qfd) echo "$QV" ;;
	repquota) echo "$REPQUOTA_OLD_V" ;;
	xfs_quota) echo "$XFS_QUOTA_OLD_V" ;;
	*) echo - ;;
	esac
}

# rows FORMAT: count the data rows on stdin.  JSON rows are counted by
# their id key, whatever the layout; other formats by lines.
rows() {
	if [[ $1 == json ]]; then
		grep -o -i '"id": *[0-9]' | wc -l
	elif [[ $1 == prom ]]; then
		grep -c '^qfd_quota_space_used_bytes{' || true
	else
		wc -l
	fi
}

# add KEY TOOL[@VERSION] FS FORMAT NAMES PEERKEY STRACE -- CMD [ARGS...]
#   PEERKEY: the case this one is compared with ("-": none).  STRACE=1:
#   the check run also counts quotactl/quotactl_fd calls.
add() {
	local key=$1
	ORDER+=("$key")
	PHASE+=("$key")
	VER[$key]=$(version "$2")
	TOOL[$key]=${2%@*} FS[$key]=$3 FMT[$key]=$4 NAMES[$key]=$5 PEER[$key]=$6 STRACE[$key]=$7
	shift 8
	CMD[$key]=$(printf '%q ' "$@")
	ROWS[$key]=- CALLS[$key]='' RUNS[$key]='' RSSES[$key]=''
}

# check KEY: one untimed run: rows printed and, with STRACE, quotactl
# calls.  It is also the warm-up (binaries come over 9p the first time).
check() {
	local key=$1 err=$W/err.$1
	note "$key: check: ${CMD[$key]}"
	if ((STRACE[$key])); then
		ROWS[$key]=$(eval "strace -f --seccomp-bpf -c -o $W/strace.$key \
			-e trace=quotactl,quotactl_fd ${CMD[$key]}" 2>"$err" | rows "${FMT[$key]}") ||
			note "$key: check run failed: $(head -c 300 "$err")"
		CALLS[$key]=$(awk '$NF ~ /^quotactl/ { n += $4 } END { print n + 0 }' \
			"$W/strace.$key" 2>/dev/null) || CALLS[$key]='?'
	else
		ROWS[$key]=$(eval "${CMD[$key]}" 2>"$err" | rows "${FMT[$key]}") ||
			note "$key: check run failed: $(head -c 300 "$err")"
	fi
	note "$key: ${ROWS[$key]} rows${CALLS[$key]:+, ${CALLS[$key]} quotactl calls}"
}

# timed KEY: one run, output to /dev/null, wall seconds and peak RSS.
timed() {
	local key=$1 err=$W/err.$1 e m x
	eval "/usr/bin/time -o $W/time -f '%e %M %x' ${CMD[$key]}" >/dev/null 2>"$err" || true
	read -r e m x < <(tail -n 1 "$W/time")
	[[ $x == 0 ]] || note "$key: exited with $x: $(head -c 300 "$err")"
	RUNS[$key]+=" $e" RSSES[$key]+=" $m"
	note "$key: $e s, $m KiB"
}

# phase CHECK: run the cases added since the last phase: a check round if
# CHECK is 1, then REPS timed rounds; then their medians.
phase() {
	local k r i n=${#PHASE[@]}
	if (($1)); then
		for k in "${PHASE[@]}"; do check "$k"; done
	fi
	# Each round starts one case later, so that no case always runs
	# right after the same one: in a run of 2026-12-07 the XFS floor,
	# first after the ext4 cases in every round, took 0.92 s against
	# qfd -N -r's 0.83 (0.58 and 0.74 in rotated rounds of
	# bench/names.sh; the cause was not found).
	for ((r = 1; r <= REPS; r++)); do
		note "round $r of $REPS"
		for ((i = 0; i < n; i++)); do
			timed "${PHASE[$(((i + r - 1) % n))]}"
		done
	done
	for k in "${PHASE[@]}"; do
		# shellcheck disable=SC2086
		SECS[$k]=$(printf '%s\n' ${RUNS[$k]} | sort -n | sed -n "$(((REPS + 1) / 2))p")
		# shellcheck disable=SC2086
		RSS[$k]=$(printf '%s\n' ${RSSES[$k]} | sort -n | tail -n 1)
	done
	PHASE=()
}

# once KEY TOOL FS FORMAT NAMES LIMIT -- CMD...: a single timed run, stopped
# after LIMIT seconds, for a case too slow to repeat (repquota with 100,000
# names: its name cache rescans the whole passwd database for every batch
# of ids it reports).
once() {
	local key=$1 limit=$6 e m x
	ORDER+=("$key")
	VER[$key]=$(version "$2")
	TOOL[$key]=${2%@*} FS[$key]=$3 FMT[$key]=$4 NAMES[$key]=$5 PEER[$key]=- ROWS[$key]=- CALLS[$key]=''
	shift 7
	note "$key: $* (once, at most $limit s)"
	/usr/bin/time -o "$W/time" -f '%e %M %x' timeout "$limit" "$@" >/dev/null 2>"$W/err.$key" || true
	read -r e m x < <(tail -n 1 "$W/time")
	SECS[$key]=$e RSS[$key]=$m
	NOTE[$key]="one run only (too slow to repeat)"
	if [[ $x == 124 ]]; then
		SECS[$key]=">$e" RSS[$key]=''
		NOTE[$key]="stopped after ${limit}s"
	elif [[ $x != 0 ]]; then
		note "$key: exited with $x: $(head -c 300 "$W/err.$key")"
	fi
	note "$key: $e s, $m KiB"
}

# slow KEY TOOL FS FORMAT NAMES -- CMD...: run CMD for at most $SLOW
# seconds, count the rows it printed and project the time for all of them.
slow() {
	local key=$1 t0 n e
	ORDER+=("$key")
	VER[$key]=$(version "$2")
	TOOL[$key]=${2%@*} FS[$key]=$3 FMT[$key]=$4 NAMES[$key]=$5 PEER[$key]=-
	shift 6
	note "$key: $* (at most $SLOW s)"
	t0=$EPOCHREALTIME
	n=$( { timeout "$SLOW" "$@" 2>/dev/null; echo $? >"$W/rc.$key"; } | rows "${FMT[$key]}") || true
	e=$(since "$t0")
	ROWS[$key]="$n in ${e}s"
	CALLS[$key]='' RSS[$key]=''
	if [[ $(cat "$W/rc.$key") != 124 ]]; then
		SECS[$key]=$e
		note "$key: finished: $n rows in $e s"
		return
	fi
	if ((n > 0)); then
		SECS[$key]="~$(awk -v e="$e" -v n="$n" -v all="$N" 'BEGIN { printf "%.0f", e * all / n }')"
	else
		SECS[$key]=">$e"
	fi
	NOTE[$key]="stopped after ${SLOW}s; time projected from its rate"
	note "$key: $n rows in $e s"
}

Q=$QFD
# Phase 1: the guest's own few users.  repquota needs -v to list entries
# without usage (most of ours).  xfs_quota with names is the slow one (see
# the top of the file): numeric is its timed case.
FLOOR=$TOP/bench/floor
[[ -x $FLOOR ]] || die "no $FLOOR (the host side builds it from bench/floor.c)"
add e.fl floor ext4 raw -n - 1 -- "$FLOOR" "$EXT4"
add e.rq repquota ext4 table few - 1 -- repquota -u -v "$EXT4_DEV"
add e.rqn repquota ext4 table -n - 0 -- repquota -u -v -n "$EXT4_DEV"
add e.rq2n "repquota@$REPQUOTA_NEW_V" ext4 table -n - 1 -- "${REPQUOTA_NEW[@]}" -u -v -n "$EXT4_DEV"
add e.q qfd ext4 table few e.rq 1 -- "$Q" report -u -A "$EXT4"
add e.qj qfd ext4 json few e.rq 0 -- "$Q" report -u -J "$EXT4"
add e.qc qfd ext4 csv few e.rq 0 -- "$Q" report -u --csv "$EXT4"
add e.qr qfd ext4 raw -N e.fl 0 -- "$Q" report -u -N -r "$EXT4"
add e.qp qfd ext4 prom few e.qj 0 -- "$Q" report -u --prometheus "$EXT4"
# base_cases FS MNT: QFD_BENCH_BASE's cases, beside qfd's
base_cases() {
	local f=$1 m=$2 t="qfd-base@${BASE_V-}"

	[[ -n $BASE ]] || return 0
	add "$f.bq" "$t" "$3" table few - 0 -- "$BASE" report -u -A "$m"
	add "$f.bqj" "$t" "$3" json few - 0 -- "$BASE" report -u -J "$m"
	add "$f.bqc" "$t" "$3" csv few - 0 -- "$BASE" report -u --csv "$m"
	add "$f.bqr" "$t" "$3" raw -N - 0 -- "$BASE" report -u -N -r "$m"
	add "$f.bqp" "$t" "$3" prom few - 0 -- "$BASE" report -u --prometheus "$m"
}
if [[ -n $BASE ]]; then
	[[ -x $BASE ]] || die "QFD_BENCH_BASE=$BASE is not a program"
	BASE_V=$("$BASE" --version | awk '{ print $2 }')
fi
base_cases e "$EXT4" ext4
add x.fl floor xfs raw -n - 1 -- "$FLOOR" "$XFS"
add x.xqn xfs_quota xfs table -n - 1 -- xfs_quota -x -c 'report -u -n' "$XFS"
add x.xq2n "xfs_quota@$XFS_QUOTA_NEW_V" xfs table -n - 1 -- "${XFS_QUOTA_NEW[@]}" -x -c 'report -u -n' "$XFS"
add x.q qfd xfs table few x.xq 1 -- "$Q" report -u -A "$XFS"
add x.qj qfd xfs json few x.xqn 0 -- "$Q" report -u -J "$XFS"
add x.qc qfd xfs csv few x.xqn 0 -- "$Q" report -u --csv "$XFS"
add x.qr qfd xfs raw -N x.fl 0 -- "$Q" report -u -N -r "$XFS"
add x.qp qfd xfs prom few x.qj 0 -- "$Q" report -u --prometheus "$XFS"
base_cases x "$XFS" xfs
t0=$EPOCHREALTIME
phase 1
slow x.xq xfs_quota xfs table few -- xfs_quota -x -c 'report -u' "$XFS"
echo "phase 1 (few names): $(since "$t0") s"

# Phase 2: a name for every id, appended in one go (useradd would take
# hours here).  The rows are those of phase 1; the first lines of qfd's
# table show that the names are there.
if ((PHASE2)); then
	t0=$EPOCHREALTIME
	awk -v f="$FIRST" -v n="$N" 'BEGIN {
		for (i = 0; i < n; i++)
			printf "qb%d:x:%d:100::/nonexistent:/usr/sbin/nologin\n", f + i, f + i
	}' >>/etc/passwd
	echo "setup: $N users appended to the guest's /etc/passwd ($(wc -l </etc/passwd) lines): $(since "$t0") s"
	"$Q" report -u -A "$EXT4" 2>/dev/null | sed -n '1,5p' || true
	t0=$EPOCHREALTIME
	add E.fln floor ext4 raw 100k - 0 -- "$FLOOR" "$EXT4" usr names
	add E.q qfd ext4 table 100k E.rq 0 -- "$Q" report -u -A "$EXT4"
	add E.qn qfd ext4 table -N E.rq 0 -- "$Q" report -u -A -N "$EXT4"
	add E.qj qfd ext4 json 100k E.rq 0 -- "$Q" report -u -J "$EXT4"
	add E.qc qfd ext4 csv 100k E.rq 0 -- "$Q" report -u --csv "$EXT4"
	add E.qp qfd ext4 prom 100k E.rq 0 -- "$Q" report -u --prometheus "$EXT4"
	add X.fln floor xfs raw 100k - 0 -- "$FLOOR" "$XFS" usr names
	add X.q qfd xfs table 100k X.xq 0 -- "$Q" report -u -A "$XFS"
	add X.qn qfd xfs table -N X.xq 0 -- "$Q" report -u -A -N "$XFS"
	add X.qj qfd xfs json 100k X.xq 0 -- "$Q" report -u -J "$XFS"
	add X.qc qfd xfs csv 100k X.xq 0 -- "$Q" report -u --csv "$XFS"
	add X.qp qfd xfs prom 100k X.xq 0 -- "$Q" report -u --prometheus "$XFS"
	if [[ -n $BASE ]]; then
		# the older build with the same names, in the same rounds
		add E.bq "qfd-base@$BASE_V" ext4 table 100k - 0 -- "$BASE" report -u -A "$EXT4"
		add E.bqc "qfd-base@$BASE_V" ext4 csv 100k - 0 -- "$BASE" report -u --csv "$EXT4"
		add X.bq "qfd-base@$BASE_V" xfs table 100k - 0 -- "$BASE" report -u -A "$XFS"
		add X.bqc "qfd-base@$BASE_V" xfs csv 100k - 0 -- "$BASE" report -u --csv "$XFS"
	fi
	phase 0
	once E.rq repquota ext4 table 100k 600 -- repquota -u -v "$EXT4_DEV"
	once E.rq2 "repquota@$REPQUOTA_NEW_V" ext4 table 100k 600 -- \
		"${REPQUOTA_NEW[@]}" -u -v "$EXT4_DEV"
	slow X.xq xfs_quota xfs table 100k -- xfs_quota -x -c 'report -u' "$XFS"
	slow X.xq2 "xfs_quota@$XFS_QUOTA_NEW_V" xfs table 100k -- \
		"${XFS_QUOTA_NEW[@]}" -x -c 'report -u' "$XFS"
	echo "phase 2 (100k names): $(since "$t0") s"
fi

# ------------------------------------------------------------------ table
echo
echo "names: few = only the system's own users (lookups miss), 100k = all $N ids"
echo "have a user, -n/-N = no name resolution.  seconds: median of $REPS; RSS:"
echo "largest of $REPS.  ratios: qfd / the peer case named (> 1: qfd slower"
echo "or bigger); t/floor: time / the raw Q_GETNEXTQUOTA loop (bench/floor.c) on"
echo "the same filesystem; t/newest: qfd's time / the newest peer's report on"
echo "the same filesystem (repquota $REPQUOTA_NEW_V -v -n, xfs_quota $XFS_QUOTA_NEW_V report -n;"
echo "with 100k names: -v, report; > 1: qfd slower).  calls: quotactl +"
echo "quotactl_fd calls (strace), where counted."
echo "versions: qfd $QV (tree $(git -C "$TOP" rev-parse --short HEAD 2>/dev/null || echo '?'));" \
	"${BASE:+qfd-base: $BASE;}" \
	"repquota $REPQUOTA_OLD_V, xfs_quota $XFS_QUOTA_OLD_V (Debian 12);" \
	"repquota $REPQUOTA_NEW_V, xfs_quota $XFS_QUOTA_NEW_V (Debian sid: $PEERS_VERSIONS)" | fold -s -w 78
echo
fmt='%-9s %-6s %-4s %-5s %-5s %16s %8s %9s %9s %10s %10s %8s %8s %s\n'
# shellcheck disable=SC2059
printf "$fmt" tool ver fs fmt names rows calls seconds "RSS KiB" "t qfd/peer" "RSS ratio" "t/floor" "t/newest" "peer"
for k in "${ORDER[@]}"; do
	p=${PEER[$k]}
	tr=- mr=- fr=- nr=-
	# the newest peer's report on the same filesystem: numeric in phase
	# 1, with the 100,000 names in phase 2
	case $k in
	e.*) n=e.rq2n ;;
	x.*) n=x.xq2n ;;
	E.*) n=E.rq2 ;;
	X.*) n=X.xq2 ;;
	*) n= ;;
	esac
	if [[ ${TOOL[$k]} == qfd* && -n $n && -n ${SECS[$n]:-} ]]; then
		nr=$(awk -v a="${SECS[$k]}" -v b="${SECS[$n]}" 'BEGIN {
			pre = b ~ /^~/ ? "~" : b ~ /^>/ ? "<" : ""; sub(/^[~>]/, "", b)
			if (b + 0 > 0) printf "%s%.2f", pre, a / b; else print "-" }')
	fi
	# the floor resolves no name: phase 2 is held to phase 1's
	f=${k%%.*}
	f=${f,,}.fl
	if [[ $k != "$f" && -n ${SECS[$f]:-} ]]; then
		fr=$(awk -v a="${SECS[$k]}" -v b="${SECS[$f]}" 'BEGIN {
			pre = a ~ /^~/ ? "~" : a ~ /^>/ ? ">" : ""; sub(/^[~>]/, "", a)
			if (b + 0 > 0) printf "%s%.2f", pre, a / b; else print "-" }')
	fi
	if [[ $p != - ]]; then
		tr=$(awk -v a="${SECS[$k]}" -v b="${SECS[$p]}" 'BEGIN {
			pre = b ~ /^~/ ? "~" : b ~ /^>/ ? "<" : ""; sub(/^[~>]/, "", b)
			if (b + 0 > 0) printf "%s%.2f", pre, a / b; else print "-" }')
		if [[ -n ${RSS[$p]} ]]; then
			mr=$(awk -v a="${RSS[$k]}" -v b="${RSS[$p]}" 'BEGIN { printf "%.2f", a / b }')
		fi
	fi
	# shellcheck disable=SC2059
	printf "$fmt" "${TOOL[$k]}" "${VER[$k]}" "${FS[$k]}" "${FMT[$k]}" "${NAMES[$k]}" "${ROWS[$k]}" \
		"${CALLS[$k]:--}" "${SECS[$k]}" "${RSS[$k]:--}" "$tr" "$mr" "$fr" "$nr" \
		"$([[ $p != - ]] && echo "${TOOL[$p]} ${VER[$p]} ${FMT[$p]} ${NAMES[$p]}")"
done
for k in "${ORDER[@]}"; do
	if [[ -n ${NOTE[$k]:-} ]]; then
		echo "${TOOL[$k]} ${VER[$k]} ${FS[$k]} ${NAMES[$k]}: ${NOTE[$k]}"
	fi
done

echo
max=0
for k in "${ORDER[@]}"; do
	if [[ ${TOOL[$k]} == qfd ]] && ((RSS[$k] > max)); then
		max=${RSS[$k]}
	fi
done
if ((max < 64 * 1024)); then
	echo "qfd peak RSS: $max KiB, under 64 MiB (65536 KiB) in every case: yes"
else
	echo "qfd peak RSS: $max KiB, under 64 MiB (65536 KiB) in every case: NO"
fi

umount "$EXT4" "$XFS"
losetup -d "$EXT4_DEV" "$XFS_DEV"
rm -f "$W"/*.img

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/peers.sh: the newest peers, quota-tools and xfsprogs as Debian sid
# ships them (packages "quota" and "xfsprogs"), with every library they
# load, unpacked into the cache, so that the benchmarks can run them beside
# the host's (Debian 12's) repquota/setquota 4.06 and xfs_quota 6.1 in the
# same VM, on the same mounts.
#
#     bench/peers.sh             fetch (or reuse) the tree, print its path
#                                and the programs' own version lines
#
# Sourced by bench/report.sh, bench/set-batch.sh and bench/nodev.sh: on
# the host, peers_fetch prints the tree's directory (the scripts hand it to
# the guest in QFD_BENCH_PEERS); in the guest, peers_load DIR sets the
# arrays REPQUOTA_NEW, SETQUOTA_NEW, XFS_QUOTA_NEW (each a command line to
# put arguments after) and their version strings.
#
# How, and why this way: the two packages and the library packages they
# depend on (Depends and Pre-Depends, followed as far as they name lib*
# packages: debconf, python3 and the like are for the packages' scripts,
# which never run here) are downloaded with apt-get through a private apt
# configuration of sid (lists in $QFD_CACHE/apt-sid, refreshed weekly; the
# host's own sources, lists and dpkg status are not touched) and unpacked
# with dpkg-deb -x into $QFD_CACHE/peers/quota_V+xfsprogs_V/root.  The
# programs are then started through that tree's own dynamic loader:
#
#     ROOT/usr/lib64/ld-linux-x86-64.so.2 --inhibit-cache \
#         --library-path ROOT/usr/lib/x86_64-linux-gnu --argv0 repquota \
#         ROOT/usr/sbin/repquota ...
#
# rather than in a debootstrap chroot, because:
#   - sid's programs need sid's glibc (2.43 at the time of writing; the
#     host has 2.36), which its own loader brings along, and nothing else
#     of a chroot is needed: the programs read /proc/mounts, /etc and the
#     device nodes, and these must be the guest's own, at the same paths,
#     for the comparison (and the no-device-node test, bench/nodev.sh) to
#     be about the same mounts; a chroot would need /proc, /dev and the
#     benchmark's mounts bound into it in the guest, for every run;
#   - the tree is 39 packages (23 MB of .debs, 81 MB unpacked, most of it
#     ICU and OpenSSL) where a minbase chroot is over 100 and minutes of
#     debootstrap, and debootstrap is not among the host's packages
#     (bootstrap.sh's list);
#   - the guest sees the host's root read-only over 9p at the same paths,
#     so a tree in /var/cache/qfd runs there as it is.
# --inhibit-cache keeps sid's loader from the host's /etc/ld.so.cache, and
# peers_fetch checks with the loader's --list that every library of every
# program resolves inside the tree, so that no host library (built for
# glibc 2.36) is mixed in unnoticed.  Name lookups (getpwuid) would still
# dlopen the host's NSS modules for "systemd" in nsswitch.conf; the
# benchmarks run the sid peers with numeric ids (-n) only.
#
# Settings: QFD_CACHE (see kernel/lib.bash), QFD_OFFLINE=1 (no apt-get
# update and no download: the newest tree already in the cache).

# peers_apt: PEERS_APT, the options that point apt-get and apt-cache at
# sid's lists in $QFD_CACHE/apt-sid.  The layout is kernel/lib.bash's
# debian_apt's, but that one adds a security suite, which sid has not.
peers_apt() {
	local d key=/usr/share/keyrings/debian-archive-keyring.gpg want
	d=$(qfd_cache)/apt-sid || return 1
	mkdir -p "$d"/lists/partial "$d"/cache/archives/partial "$d"/empty.d || return 1
	want="deb [signed-by=$key] http://deb.debian.org/debian sid main"
	if [[ ! -f $d/sources.list || $(<"$d/sources.list") != "$want" ]]; then
		printf '%s\n' "$want" >"$d/sources.list.$$" &&
			mv -f "$d/sources.list.$$" "$d/sources.list" || return 1
	fi
	PEERS_APT_DIR=$d
	PEERS_APT=(
		-o "Dir::Etc::sourcelist=$d/sources.list"
		-o "Dir::Etc::sourceparts=$d/empty.d"
		-o "Dir::Etc::preferences=/dev/null"
		-o "Dir::Etc::preferencesparts=$d/empty.d"
		-o "Dir::State::Lists=$d/lists"
		-o "Dir::State::status=/dev/null"
		-o "Dir::Cache=$d/cache"
		-o "Acquire::Languages=none"
		-o "APT::Sandbox::User=root"
	)
}

# peers_update: sid's lists, fetched when missing or a week old (sid
# moves daily, but a benchmark's peers should not change under it between
# two runs of the same week).  One update at a time.
peers_update() {
	local lists=$PEERS_APT_DIR/lists
	[[ ${QFD_OFFLINE:-0} != 1 ]] || return 0
	if compgen -G "$lists/*_Packages*" >/dev/null &&
		[[ -z $(find "$lists" -maxdepth 0 -mtime +7) ]]; then
		return 0
	fi
	(
		flock -w 900 8 || exit 1
		apt-get "${PEERS_APT[@]}" -o Debug::NoLocking=true -q update >&2 &&
			touch "$lists"
	) 8>"$PEERS_APT_DIR/.update.lock"
}

# peers_closure PKG...: PKG and the library packages it depends on (lib*,
# and zlib1g, the one library package named otherwise that the programs
# here load), recursively, one per line
peers_closure() {
	local -A seen=()
	local -a todo=("$@") next
	local p
	while ((${#todo[@]})); do
		next=()
		for p in "${todo[@]}"; do seen[$p]=1; done
		# Pre-Depends and Depends only; "<virtual>" names are skipped
		# (none of the libraries' real dependencies is virtual).
		while read -r p; do
			[[ -n ${seen[$p]:-} ]] || { seen[$p]=1; next+=("$p"); }
		done < <(apt-cache "${PEERS_APT[@]}" depends --no-recommends --no-suggests \
			--no-conflicts --no-breaks --no-replaces --no-enhances "${todo[@]}" |
			sed -n 's/^ *|\{0,1\}\(Pre\)\{0,1\}Depends: \(lib[^ <]*\|zlib1g\)$/\2/p' | sort -u)
		todo=("${next[@]}")
	done
	printf '%s\n' "${!seen[@]}" | sort
}

# The programs the benchmarks run, under the tree's root
PEERS_PROGRAMS="usr/sbin/repquota usr/sbin/setquota usr/bin/quota usr/sbin/xfs_quota"

# peers_loader ROOT: the tree's dynamic loader
peers_loader() {
	local f
	for f in "$1/usr/lib64/ld-linux-x86-64.so.2" "$1/lib64/ld-linux-x86-64.so.2"; do
		[[ -e $f ]] && { printf '%s\n' "$f"; return 0; }
	done
	return 1
}

# peers_libpath ROOT: the tree's library directories, for --library-path
peers_libpath() {
	local d out=
	for d in usr/lib/x86_64-linux-gnu lib/x86_64-linux-gnu; do
		[[ -d $1/$d && ! -L $1/$d ]] && out+=${out:+:}$1/$d
	done
	printf '%s\n' "$out"
}

# peers_verify ROOT PROGRAMS: every program of PROGRAMS (paths under ROOT,
# separated by spaces), started through the tree's loader, finds every
# library inside the tree
peers_verify() {
	local root=$1 programs=$2 ld lp p out bad
	ld=$(peers_loader "$root") || { echo "no dynamic loader in $root" >&2; return 1; }
	lp=$(peers_libpath "$root")
	for p in $programs; do
		[[ -x $root/$p ]] || { echo "no $p in $root" >&2; return 1; }
		out=$("$ld" --inhibit-cache --library-path "$lp" --list "$root/$p") ||
			{ echo "$p: the loader cannot list its libraries: $out" >&2; return 1; }
		# lines "libX.so.N => PATH (ADDR)"; vdso and the loader have no "=>"
		bad=$(awk -v r="$root/" '/=>/ && index($3, r) != 1' <<<"$out")
		[[ -z $bad ]] || { echo "$p: libraries from outside the tree: $bad" >&2; return 1; }
	done
}

# sid_tree PROGRAMS PKG...: the directory of a tree of sid's current PKG...
# with the libraries they load (made if missing), printed; each of
# PROGRAMS (paths under the tree's root) must find all its libraries in
# the tree.  The tree is named by the packages' versions.  Offline, or
# when sid cannot be reached, the newest tree already made of the same
# packages.
sid_tree() {
	local programs=$1 cache top dir name v p
	shift
	cache=$(qfd_cache) || return 1
	top=$cache/peers
	mkdir -p "$top/debs" || return 1
	peers_apt || return 1
	peers_update || echo "sid's package lists could not be updated; using what is there" >&2
	# the name: PKG_VERSION for each, joined by '+' (':' of an epoch
	# would confuse PATH-like lists)
	name=
	for p in "$@"; do
		v=$(apt-cache "${PEERS_APT[@]}" policy "$p" 2>/dev/null | awk '$1 == "Candidate:" { print $2 }')
		if [[ -z $v || $v == "(none)" ]]; then
			# no lists: the newest tree kept, if any
			name=$(printf '%s_*+' "$@")
			dir=$(find "$top" -mindepth 2 -maxdepth 2 -name .ok -path "$top/${name%+}/.ok" -printf '%h\n' | sort -V | tail -n 1)
			[[ -n $dir ]] || { echo "no sid package lists and no tree of $* in $top" >&2; return 1; }
			printf '%s\n' "$dir"
			return 0
		fi
		name+=${name:++}${p}_${v//:/_}
	done
	dir=$top/$name
	if [[ ! -f $dir/.ok ]]; then
		[[ ${QFD_OFFLINE:-0} != 1 ]] || { echo "QFD_OFFLINE=1 and no $dir" >&2; return 1; }
		sid_tree_make "$dir" "$programs" "$@" 8>"$top/.lock" ||
			{ echo "could not make the tree $dir" >&2; return 1; }
	fi
	printf '%s\n' "$dir"
}

# sid_tree_make DIR PROGRAMS PKG...: download (what is not in the cache
# yet) and unpack PKG... and their libraries into DIR, one writer at a
# time (the lock is on fd 8).  Every step checks its own failure: set -e
# would be ignored here, as the caller tests the exit status.
sid_tree_make() (
	local dir=$1 programs=$2 debs tmp f
	local -a pkgs files missing
	shift 2
	flock -w 900 8 || exit 1
	[[ -f $dir/.ok ]] && exit 0
	mapfile -t pkgs < <(peers_closure "$@")
	((${#pkgs[@]})) || exit 1
	echo "peers: fetching ${#pkgs[@]} packages from sid: ${pkgs[*]}" >&2
	debs=${dir%/*}/debs
	# the file names apt gives the candidates; only the missing ones are
	# downloaded (a new tree for a new xfsprogs reuses the libraries')
	mapfile -t files < <(apt-get "${PEERS_APT[@]}" -q --print-uris \
		download "${pkgs[@]}" | awk '{ print $2 }')
	((${#files[@]} == ${#pkgs[@]})) || { echo "apt found ${#files[@]} of ${#pkgs[@]} packages" >&2; exit 1; }
	missing=()
	for f in "${files[@]}"; do
		[[ -f $debs/$f ]] || missing+=("${f%%_*}")
	done
	if ((${#missing[@]})); then
		(cd "$debs" && apt-get "${PEERS_APT[@]}" -q download "${missing[@]}" >&2) || exit 1
	fi
	tmp=$dir.tmp.$$
	# a tree that failed half-way is not left behind (after the mv below
	# there is nothing at $tmp to remove)
	trap 'rm -rf "$tmp"' EXIT
	rm -rf "$tmp" && mkdir -p "$tmp/root" || exit 1
	for f in "${files[@]}"; do
		[[ -f $debs/$f ]] || { echo "downloaded, but found no $debs/$f" >&2; exit 1; }
		dpkg-deb -x "$debs/$f" "$tmp/root" || exit 1
		dpkg-deb -f "$debs/$f" Package Version | sed 's/^[^:]*: //' |
			paste -s -d ' ' >>"$tmp/packages" || exit 1
	done
	peers_verify "$tmp/root" "$programs" || exit 1
	touch "$tmp/.ok" && rm -rf "$dir" && mv "$tmp" "$dir"
)

# peers_fetch: the directory of the tree for sid's current quota and
# xfsprogs (sid_tree)
peers_fetch() {
	sid_tree "$PEERS_PROGRAMS" quota xfsprogs
}

# peers_load DIR: REPQUOTA_NEW, SETQUOTA_NEW, XFS_QUOTA_NEW (arrays: the
# command up to its arguments), and their versions as the programs tell
# them (REPQUOTA_NEW_V, XFS_QUOTA_NEW_V: "4.11", "7.2.0"); the host's
# (REPQUOTA_OLD_V, XFS_QUOTA_OLD_V) beside them; PEERS_VERSIONS (quota,
# xfsprogs and libc6 packages) and PEERS_PACKAGES (all of the tree's).
# shellcheck disable=SC2034 # all of them are for the scripts that source this
peers_load() {
	local root=$1/root ld lp
	[[ -f $1/.ok ]] || { echo "no peers tree at $1 (bench/peers.sh makes it)" >&2; return 1; }
	ld=$(peers_loader "$root") || return 1
	lp=$(peers_libpath "$root")
	REPQUOTA_NEW=("$ld" --inhibit-cache --library-path "$lp" --argv0 repquota "$root/usr/sbin/repquota")
	SETQUOTA_NEW=("$ld" --inhibit-cache --library-path "$lp" --argv0 setquota "$root/usr/sbin/setquota")
	XFS_QUOTA_NEW=("$ld" --inhibit-cache --library-path "$lp" --argv0 xfs_quota "$root/usr/sbin/xfs_quota")
	# "Quota utilities version 4.11." and "xfs_quota version 7.2.0"
	REPQUOTA_NEW_V=$("${REPQUOTA_NEW[@]}" -V 2>&1 | sed -n '1s/.*version \([^ ]*[0-9]\)\.\{0,1\}$/\1/p')
	XFS_QUOTA_NEW_V=$("${XFS_QUOTA_NEW[@]}" -V 2>&1 | sed -n '1s/.*version //p')
	REPQUOTA_OLD_V=$(repquota -V 2>&1 | sed -n '1s/.*version \([^ ]*[0-9]\)\.\{0,1\}$/\1/p')
	XFS_QUOTA_OLD_V=$(xfs_quota -V 2>&1 | sed -n '1s/.*version //p')
	[[ -n $REPQUOTA_NEW_V && -n $XFS_QUOTA_NEW_V ]] ||
		{ echo "the peers in $root do not run (repquota -V, xfs_quota -V)" >&2; return 1; }
	PEERS_PACKAGES=$(paste -s -d ',' "$1/packages" | sed 's/,/, /g')
	# the three that matter, for the tables' headings
	PEERS_VERSIONS=$(awk '$1 ~ /^(quota|xfsprogs|libc6)$/ { printf "%s%s %s", sep, $1, $2; sep = ", " }' "$1/packages")
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
	set -euo pipefail
	TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
	ME=bench/peers.sh
	# shellcheck source=lib.bash
	. "$TOP/bench/lib.bash"
	# shellcheck source=../kernel/lib.bash
	. "$TOP/kernel/lib.bash"
	dir=$(peers_fetch) || die "cannot fetch the peers"
	peers_load "$dir" || die "cannot run the peers in $dir"
	echo "$dir"
	echo "repquota/setquota $REPQUOTA_NEW_V, xfs_quota $XFS_QUOTA_NEW_V (host's: $REPQUOTA_OLD_V, $XFS_QUOTA_OLD_V)"
	echo "packages: $PEERS_PACKAGES"
fi

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# kernel/build-kernel.sh: build one of the project's own test kernels and
# print the path of its image.
#
# A kernel is named by a definition in kernel/builds/NAME: which Debian
# linux-source package (5.10 from bullseye, 6.12 from trixie...), which
# patch series, which configuration fragments from kernel/configs.  The
# configuration starts from tinyconfig, so that only what the VM suites
# need is compiled (minutes on two cores, not the hour of a distribution
# configuration), and every driver is built in: the kernel boots without a
# module tree.
#
# The result is cached under a hash of everything that decides it: the
# source package's version, the definition, its fragments and patches, this
# script and kernel/lib.bash, and the compiler.  A second run with nothing
# changed only prints the path.
set -euo pipefail
# Called from "make -j2 check", we would pass make's jobserver on to kbuild,
# which then warns "-jN forced in submake": the kernel build is not part of
# the caller's job graph.
unset MAKEFLAGS MFLAGS MAKELEVEL MAKE_TERMOUT MAKE_TERMERR
export LC_ALL=C
# The whole script is one brace group: bash reads it entirely before running
# any of it, so that editing this file during a build (which takes minutes)
# cannot derail the running copy.
{

ME=${0##*/}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib.bash
. "$HERE/lib.bash"

usage() {
	cat <<EOF
Usage: $ME [options] NAME

Build the test kernel defined in kernel/builds/NAME and print the path of
its directory in the cache, which holds vmlinux (what tests/vm/run boots),
bzImage, config, release (uname -r) and build.log.

Kernels: $(cd "$HERE/builds" && echo *)

Options:
  --version DEBVER  the linux-source package version to build (default:
                    the candidate of the release's package lists, which
                    are refreshed weekly; offline, the newest one cached)
  --force           build again even if the cache has this kernel
  --keep            keep the work tree (source, objects, build.log) in
                    \$QFD_CACHE/kbuild/NAME.work, to look into a build
  -j N              parallel jobs (default: the number of CPUs)
  -q                print nothing but the path
  -h, --help        this text

Environment: QFD_CACHE (default /var/cache/qfd as root), QFD_CCACHE=no (do
not use ccache even if installed).
Exit status: 0 built or cached, 1 on any failure, 2 on usage errors.
EOF
}

die() {
	echo "$ME: error: $*" >&2
	exit 1
}

note() {
	((quiet)) || echo "$ME: $*" >&2
}

force=0
keep=0
quiet=0
debver=
jobs=$(nproc 2>/dev/null || echo 2)
name=
while (($#)); do
	case $1 in
	--version) debver=${2:?--version needs a value}; shift 2 ;;
	--version=*) debver=${1#*=}; shift ;;
	--force) force=1; shift ;;
	--keep) keep=1; shift ;;
	-j) jobs=${2:?-j needs a count}; shift 2 ;;
	-j[0-9]*) jobs=${1#-j}; shift ;;
	-q) quiet=1; shift ;;
	-h | --help) usage; exit 0 ;;
	-*) echo "$ME: unknown option '$1'" >&2; usage >&2; exit 2 ;;
	*) [[ -z $name ]] || { echo "$ME: one kernel at a time" >&2; exit 2; }
	   name=$1; shift ;;
	esac
done
[[ -n $name ]] || { usage >&2; exit 2; }
[[ $name =~ ^[A-Za-z0-9._-]+$ && -f $HERE/builds/$name ]] ||
	{ echo "$ME: no kernel '$name' (kernel/builds has: $(cd "$HERE/builds" && echo *))" >&2; exit 2; }
[[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "$ME: -j wants a positive count" >&2; exit 2; }

# ------------------------------------------------------------ definition
# Lines "source SERIES", "patches DIR..." (under kernel/), "config
# FRAGMENT..." (under kernel/configs/); '#' starts a comment.
series=
declare -a patch_dirs=() fragments=()
while read -r key rest; do
	[[ -z $key || $key == \#* ]] && continue
	read -r -a vals <<<"$rest"
	case $key in
	source) series=$rest ;;
	patches) patch_dirs+=("${vals[@]}") ;;
	config) fragments+=("${vals[@]}") ;;
	*) die "kernel/builds/$name: unknown key '$key'" ;;
	esac
done <"$HERE/builds/$name"
[[ -n $series ]] || die "kernel/builds/$name names no source"
((${#fragments[@]})) || die "kernel/builds/$name names no config fragment"

declare -a patches=() frag_files=()
for d in "${patch_dirs[@]}"; do
	[[ -d $HERE/$d ]] || die "kernel/builds/$name: no patch directory kernel/$d"
	shopt -s nullglob
	p=("$HERE/$d"/[0-9][0-9][0-9][0-9]-*.patch)
	shopt -u nullglob
	((${#p[@]})) || die "kernel/builds/$name: no NNNN-*.patch in kernel/$d"
	patches+=("${p[@]}")
done
for f in "${fragments[@]}"; do
	[[ -f $HERE/configs/$f ]] || die "kernel/builds/$name: no kernel/configs/$f"
	frag_files+=("$HERE/configs/$f")
done

for t in make gcc bc bison flex perl xz patch flock dpkg-deb apt-get; do
	command -v "$t" >/dev/null ||
		die "'$t' not found (packages: build-essential bc bison flex perl xz-utils patch libelf-dev libssl-dev)"
done

# ------------------------------------------------------------ cache
CACHE=$(qfd_cache) || die "cannot create the cache directory"
tarball=$(qfd_ksource "$series" "$debver") ||
	die "cannot get linux-source-$series from Debian $(qfd_release "$series")"
debver=${tarball##*/linux-source-"${series}"_}
debver=${debver%.tar.xz}

key=$(
	echo "$series $debver"
	gcc --version | head -n 1
	cat "${BASH_SOURCE[0]}" "$HERE/lib.bash" "$HERE/builds/$name" \
		"${frag_files[@]}" "${patches[@]+"${patches[@]}"}"
) || die "cannot read the definition of $name"
key=$(sha256sum <<<"$key" | cut -c1-16)
top=$CACHE/kbuild
dst=$top/$name-$key
mkdir -p "$top"

if ((!force)) && [[ -f $dst/.ok ]]; then
	note "$name is built: $dst"
	echo "$dst"
	exit 0
fi

# One build of a kernel at a time; the work tree's path stays the same from
# one build to the next, so that ccache sees the same paths.
exec 9>"$top/$name.lock"
flock 9
if ((!force)) && [[ -f $dst/.ok ]]; then
	echo "$dst"
	exit 0
fi
work=$top/$name.work
src=$work/src
out=$work/out
log=$work/build.log
rm -rf "$work"
mkdir -p "$src" "$out"
((keep)) || trap 'rm -rf "$work"' EXIT
t0=$SECONDS
# The work tree goes at the end, whatever happens; a failed build's log
# stays where a person can read it.
keep_log() { cp "$log" "$top/$name.failed.log" 2>/dev/null || true; }

# ------------------------------------------------------------ source
# The whole tree but its documentation (patches may touch every
# architecture's syscall table).
note "unpacking ${tarball##*/}"
tar -xJf "$tarball" -C "$src" --strip-components=1 \
	--exclude='linux-source-*/Documentation/[!K]*' ||
	die "cannot unpack $tarball"
for p in "${patches[@]+"${patches[@]}"}"; do
	note "applying ${p#"$HERE"/}"
	# Strict: a patch that needs fuzz is a patch for another tree.
	patch -d "$src" -p1 -N --fuzz=0 --no-backup-if-mismatch -s <"$p" >>"$log" 2>&1 ||
		{ cat "$log" >&2; die "${p#"$HERE"/} does not apply to linux-source-$series $debver"; }
done

# ------------------------------------------------------------ configure
cc=gcc
if [[ ${QFD_CCACHE:-yes} != no ]] && command -v ccache >/dev/null; then
	cc="ccache gcc"
	export CCACHE_DIR=$CACHE/ccache CCACHE_BASEDIR=$work CCACHE_MAXSIZE=4G
fi
# Fixed build stamps (the source's own date): the same tree builds the
# same image, and ccache is not defeated by a date or a host name compiled
# into init/version.o.
KBUILD_BUILD_TIMESTAMP=$(date -u -r "$src/Makefile" '+%Y-%m-%d %H:%M:%S UTC')
export KBUILD_BUILD_TIMESTAMP KBUILD_BUILD_USER=qfd \
	KBUILD_BUILD_HOST=build-kernel KBUILD_BUILD_VERSION=1
kmake=(make -C "$src" O="$out" "CC=$cc" "HOSTCC=$cc")

note "configuring: tinyconfig + ${fragments[*]}"
{
	"${kmake[@]}" tinyconfig &&
		"$src/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" "${frag_files[@]}" &&
		"${kmake[@]}" olddefconfig
} >>"$log" 2>&1 || { keep_log; tail -n 30 "$log" >&2; die "configuring $name failed (log: $top/$name.failed.log)"; }

# Every option a fragment asks for must have survived olddefconfig: Kconfig
# drops an option silently when a dependency is missing.
check_config() {
	local f line opt want got bad=0
	for f in "$@"; do
		while IFS= read -r line; do
			if [[ $line =~ ^(CONFIG_[A-Za-z0-9_]+)=(.*)$ ]]; then
				opt=${BASH_REMATCH[1]} want=${BASH_REMATCH[2]}
			elif [[ $line =~ ^#\ (CONFIG_[A-Za-z0-9_]+)\ is\ not\ set ]]; then
				opt=${BASH_REMATCH[1]} want=n
			else
				continue
			fi
			got=$(sed -n "s/^$opt=//p" "$out/.config")
			[[ -n $got ]] || got=n
			if [[ $got != "$want" ]]; then
				echo "$ME: error: ${f##*/} asks for $opt=$want, but the configuration has $opt=$got (a dependency is missing?)" >&2
				bad=1
			fi
		done <"$f"
	done
	return $bad
}
check_config "${frag_files[@]}" || die "the configuration of $name lost options (above)"

# ------------------------------------------------------------ build
note "building $name with $jobs jobs (log: $log)"
if ! "${kmake[@]}" -j"$jobs" vmlinux bzImage >>"$log" 2>&1; then
	keep_log
	grep -E 'error|Error' "$log" | head -n 20 >&2
	die "building $name failed (log kept: $top/$name.failed.log)"
fi
release=$("${kmake[@]}" -s kernelrelease 2>/dev/null)

tmp=$(mktemp -d "$top/.new.XXXXXX")
chmod 755 "$tmp" # mktemp's 0700 would hide the kernel from other users
# vmlinux without debug information: qemu boots the ELF through its PVH
# entry point, which skips the decompressor (seconds under TCG).
strip --strip-debug -o "$tmp/vmlinux" "$out/vmlinux"
cp "$out/arch/x86/boot/bzImage" "$tmp/bzImage"
cp "$out/.config" "$tmp/config"
echo "$release" >"$tmp/release"
echo "$debver" >"$tmp/version"
cp "$log" "$tmp/build.log"
echo "built in $((SECONDS - t0))s with $jobs jobs, CC=$cc" >>"$tmp/build.log"
touch "$tmp/.ok"
rm -rf "$dst"
mv "$tmp" "$dst"
# Older builds of this kernel: keep the three newest.
find "$top" -mindepth 1 -maxdepth 1 -type d -name "$name-*" -printf '%T@ %p\n' |
	sort -rn | tail -n +4 | cut -d' ' -f2- | xargs -r rm -rf
note "built $name ($release) in $((SECONDS - t0))s: $dst"
echo "$dst"
exit 0
}

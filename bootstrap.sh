#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Generate ./configure.  With --install-deps (or when autoreconf is missing and
# we are root on Debian) first install what building and testing qfd needs.
set -eu

# Building qfd
BUILD_DEPS="autoconf automake libtool pkg-config make gcc libc6-dev linux-libc-dev libmount-dev libsmartcols-dev libnl-genl-3-dev libjson-c-dev libyajl-dev"
# Running the tests: bats, and the VM that boots a Debian kernel with the
# filesystems (ext4, XFS, f2fs, UBIFS), quota-tools and xfsprogs to compare against
BUILD_DEPS="$BUILD_DEPS bats jq locales clang libclang-rt-14-dev qemu-system-x86 busybox-static cpio kmod e2fsprogs xfsprogs f2fs-tools mtd-utils quota util-linux strace time"
# The Debian package (make deb, tests/deb.test; dpkg-checkbuilddeps wants
# build-essential), and the completion and systemd unit tests
BUILD_DEPS="$BUILD_DEPS build-essential dpkg-dev debhelper lintian bash-completion systemd"
# promtool (package prometheus) validates 'qfd report --prometheus'
BUILD_DEPS="$BUILD_DEPS prometheus"
# contrib/ansible: the VM suite apply.bats runs its module with ansible-playbook
BUILD_DEPS="$BUILD_DEPS ansible-core"
# Building the kernel patches in kernel/ (zstd: tests/vm/run unpacks the
# zstd-compressed kernels of 6.12 and newer, to boot them without their
# slow decompressor under TCG)
BUILD_DEPS="$BUILD_DEPS bc bison flex binutils libelf-dev libssl-dev perl python3 xz-utils zstd patch git debian-archive-keyring gcc-aarch64-linux-gnu ccache"

usage() {
	echo "Usage: $0 [--install-deps]"
	echo "Runs autoreconf; --install-deps first installs the build dependencies"
	echo "from Debian's packages: $BUILD_DEPS"
}

install_deps() {
	if [ "$(id -u)" -ne 0 ]; then
		echo "$0: installing packages needs root: run 'sudo $0 --install-deps'" >&2
		exit 1
	fi
	if ! command -v apt-get >/dev/null 2>&1; then
		echo "$0: apt-get not found: install by hand: $BUILD_DEPS" >&2
		exit 1
	fi
	apt-get update -qq
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $BUILD_DEPS
}

case "${1-}" in
--install-deps) install_deps ;;
-h|--help) usage; exit 0 ;;
"")
	if ! command -v autoreconf >/dev/null 2>&1 || ! command -v pkg-config >/dev/null 2>&1; then
		if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
			install_deps
		else
			echo "$0: autoreconf or pkg-config missing: run '$0 --install-deps' as root" >&2
			exit 1
		fi
	fi
	;;
*) usage >&2; exit 2 ;;
esac

cd "$(dirname "$0")"
mkdir -p build-aux
# automake ships the TAP driver but does not install it by itself
for d in /usr/share/automake-*; do
	[ -f "$d/tap-driver.sh" ] && cp -f "$d/tap-driver.sh" build-aux/ && break
done
autoreconf --install --force
echo "Now run ./configure && make"

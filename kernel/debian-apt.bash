# SPDX-License-Identifier: GPL-2.0-or-later
# A private apt configuration for one Debian release, so that the kernels
# and kernel sources of releases the host does not run (bullseye's 5.10,
# trixie's 6.12) can be listed and downloaded without touching the host's
# apt sources, lists, pins or dpkg status.  Sourced by tests/vm/run,
# kernel/ubifs/build.sh and kernel/quotactl_fd-5.10/check.sh, so that the
# three agree on what such a configuration is.

# debian_apt DIR RELEASE: make DIR hold RELEASE's sources.list, package
# lists and download cache, and set the array DEBIAN_APT to the options
# that point apt-get and apt-cache there.  Each caller keeps its own DIR
# and its own lock around "apt-get update".
debian_apt() {
	local d=$1 rel=$2 key=/usr/share/keyrings/debian-archive-keyring.gpg
	local want

	mkdir -p "$d"/lists/partial "$d"/cache/archives/partial "$d"/empty.d ||
		return 1
	# The security suite carries the newest builds of a release; the
	# plain suite is the fallback once security support has ended.
	want="deb [signed-by=$key] http://deb.debian.org/debian $rel main
deb [signed-by=$key] http://deb.debian.org/debian-security $rel-security main"
	# Rewritten only when it differs: concurrent runs read it.
	if [[ ! -f $d/sources.list || $(<"$d/sources.list") != "$want" ]]; then
		printf '%s\n' "$want" >"$d/sources.list.$$" &&
			mv -f "$d/sources.list.$$" "$d/sources.list" || return 1
	fi
	# The host's dpkg status and preferences are not this release's:
	# without /dev/null for them, a pin on the host could change which
	# kernel another release's candidate is.  apt drops to the _apt user
	# for downloads, who cannot write a root-owned cache.
	DEBIAN_APT=(
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

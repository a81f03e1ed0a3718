# SPDX-License-Identifier: GPL-2.0-or-later
# kernel/lib.bash: what every script that fetches or builds a kernel needs,
# written once.  Sourced (never run) by tests/vm/run, kernel/build-kernel.sh,
# kernel/ubifs/build.sh and kernel/quotactl_fd-5.10/check.sh, so that they
# agree on the cache directory, on which Debian release carries which kernel
# series, on what a private apt configuration is, and on where downloaded
# packages and kernel source tarballs are kept.
#
# Functions print their result on stdout and their complaints on stderr,
# and return non-zero on failure; none of them exits the caller.

# qfd_cache: the cache directory, created.  QFD_CACHE if set; else
# /var/cache/qfd for root and ${XDG_CACHE_HOME:-~/.cache}/qfd for others
# (root's cache is not writable by them).
qfd_cache() {
	local d
	if [[ -n ${QFD_CACHE:-} ]]; then
		d=$QFD_CACHE
	elif ((EUID == 0)); then
		d=/var/cache/qfd
	else
		d=${XDG_CACHE_HOME:-$HOME/.cache}/qfd
	fi
	mkdir -p "$d" || return 1
	realpath -- "$d"
}

# qfd_release SERIES: the Debian release whose linux-image-amd64 and
# linux-source-SERIES are that series.  Empty for a series Debian does not
# carry.
qfd_release() {
	case $1 in
	5.10) echo bullseye ;;
	6.1) echo bookworm ;;
	6.12) echo trixie ;;
	esac
}

# qfd_host_release RELEASE: true if RELEASE is the host's own, whose
# package lists are the host's (/etc/os-release says which).
qfd_host_release() {
	local codename
	codename=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
	[[ -n $codename && $codename == "$1" ]]
}

# debian_apt DIR RELEASE: make DIR hold RELEASE's sources.list, package
# lists and download cache, and set the array DEBIAN_APT to the options
# that point apt-get and apt-cache there, so that the kernels and sources
# of releases the host does not run can be listed and downloaded without
# touching the host's apt sources, lists, pins or dpkg status.
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

# qfd_apt SERIES: set QFD_APT to the apt options for SERIES's release (none
# for the host's own release) and QFD_APT_LISTS to its package lists.
qfd_apt() {
	local rel cache
	rel=$(qfd_release "$1")
	[[ -n $rel ]] || { echo "no Debian release carries Linux $1" >&2; return 1; }
	QFD_APT=()
	if qfd_host_release "$rel"; then
		QFD_APT_LISTS=/var/lib/apt/lists
		eval "$(apt-config shell QFD_APT_LISTS Dir::State::Lists/d)" 2>/dev/null || true
		return 0
	fi
	cache=$(qfd_cache) || return 1
	debian_apt "$cache/apt-$rel" "$rel" || return 1
	QFD_APT=("${DEBIAN_APT[@]}")
	QFD_APT_LISTS=$cache/apt-$rel/lists
}

# qfd_apt_update SERIES [DAYS|now]: fetch SERIES's package lists if there
# are none, or (DAYS given) if they are older than DAYS days, or now.  Never
# for the host's own lists, which are the administrator's, nor with
# QFD_OFFLINE=1.  One update at a time.
qfd_apt_update() {
	local days=${2:-} rc=0 lock
	qfd_apt "$1" || return 1
	((${#QFD_APT[@]})) || return 0
	[[ ${QFD_OFFLINE:-0} != 1 ]] || return 0
	if [[ $days != now ]] && compgen -G "$QFD_APT_LISTS/*_Packages*" >/dev/null; then
		[[ -n $days ]] || return 0
		[[ -z $(find "$QFD_APT_LISTS" -maxdepth 0 -mtime +"$days") ]] && return 0
	fi
	lock=$QFD_APT_LISTS/../.update.lock
	(
		flock -w 900 8 || { echo "cannot lock $lock" >&2; exit 1; }
		apt-get "${QFD_APT[@]}" -o Debug::NoLocking=true -q update >&2 &&
			touch "$QFD_APT_LISTS"
	) 8>"$lock" || rc=1
	((rc == 0)) || echo "apt-get update for Debian $(qfd_release "$1") failed" >&2
	return $rc
}

# qfd_candidate SERIES PKG: the version apt would install of PKG from
# SERIES's release (local lists only: no network).
qfd_candidate() {
	local v
	qfd_apt "$1" || return 1
	v=$(apt-cache "${QFD_APT[@]}" policy "$2" 2>/dev/null |
		awk '$1 == "Candidate:" { print $2 }')
	[[ -n $v && $v != "(none)" ]] || return 1
	printf '%s\n' "$v"
}

# qfd_deb SERIES PKG VERSION: the path of PKG_VERSION's .deb in the shared
# download directory $QFD_CACHE/debs, downloaded from SERIES's release if
# missing.
qfd_deb() {
	local series=$1 pkg=$2 ver=$3 dir glob f
	dir=$(qfd_cache)/debs || return 1
	mkdir -p "$dir" || return 1
	glob="$dir/${pkg}_${ver/:/%3a}_*.deb"
	for f in $glob; do
		[[ -f $f ]] && { printf '%s\n' "$f"; return 0; }
	done
	qfd_apt "$series" || return 1
	# apt-get download writes into the current directory, as root it
	# would drop to _apt (who cannot write the cache), and two runs at
	# once must not both write the same file.
	(
		flock -w 900 8 || exit 1
		for f in $glob; do [[ -f $f ]] && exit 0; done
		cd "$dir" && apt-get "${QFD_APT[@]}" -q -o APT::Sandbox::User=root \
			download "$pkg=$ver" >&2
	) 8>"$dir/.lock" || { echo "cannot download $pkg $ver" >&2; return 1; }
	for f in $glob; do
		[[ -f $f ]] && { printf '%s\n' "$f"; return 0; }
	done
	echo "downloaded $pkg $ver but found no $glob" >&2
	return 1
}

# qfd_ksource SERIES [VERSION]: the path of linux-source-SERIES's tarball
# (linux-source-SERIES.tar.xz from the package), kept in $QFD_CACHE/ksrc
# under the package's version.  Without VERSION: the candidate of lists
# refreshed weekly; with QFD_OFFLINE=1 or when the archive cannot be
# reached, the newest tarball already kept.
qfd_ksource() {
	local series=$1 ver=${2:-} dir deb out
	dir=$(qfd_cache)/ksrc || return 1
	mkdir -p "$dir" || return 1
	if [[ -z $ver ]]; then
		qfd_apt_update "$series" 7 || true
		[[ ${QFD_OFFLINE:-0} == 1 ]] ||
			ver=$(qfd_candidate "$series" "linux-source-$series") || true
		[[ -n $ver ]] || ver=$(find "$dir" -maxdepth 1 -name "linux-source-${series}_*.tar.xz" \
				-printf '%f\n' | sed "s/^linux-source-${series}_//; s/\.tar\.xz\$//" |
				sort -V | tail -n 1)
		[[ -n $ver ]] || { echo "cannot tell which linux-source-$series to use" >&2; return 1; }
	fi
	out=$dir/linux-source-${series}_$ver.tar.xz
	if [[ ! -s $out ]]; then
		deb=$(qfd_deb "$series" "linux-source-$series" "$ver") || return 1
		dpkg-deb --fsys-tarfile "$deb" |
			tar -xOf - "./usr/src/linux-source-$series.tar.xz" >"$out.$$" &&
			mv "$out.$$" "$out" || { rm -f "$out.$$"; return 1; }
	fi
	printf '%s\n' "$out"
}

# SPDX-License-Identifier: GPL-2.0-or-later
# The machine's test-VM slots, shared by tests/vm/check, tests/deb.test and
# tests/vm-console.test (sourced by each).
#
# Each test VM is one TCG thread, so the machine runs as many at once as
# it has cores (QFD_VM_SLOTS, default nproc).  Every VM of tests/vm/check
# and deb.test's one takes a slot for as long as it runs, so a core never
# idles while a test VM waits; the console test, which loads the host
# itself, takes them all.  Slot i is a flock on $QFD_VM_LOCK.i.
#
# The gate ($QFD_VM_LOCK itself) makes taking several slots one step: the
# one run inside it waits only for slots held by runs that already have
# all theirs, so two runs can never each hold a slot the other waits for.

# vm_slots_take N WHO: hold N slots (at most QFD_VM_SLOTS) until this
# shell exits; WHO names the caller in the one note printed if it waits.
vm_slots_take() {
	local want=$1 who=$2 lock=${QFD_VM_LOCK:-/tmp/qfd-vm.lock}
	local slots=${QFD_VM_SLOTS:-$(nproc)} gate fd i got=0 noted=
	local -a held=()

	[[ $slots =~ ^[1-9][0-9]*$ ]] || slots=1
	((want <= slots)) || want=$slots
	exec {gate}>"$lock"
	if ! flock -n "$gate"; then
		echo "$who: note: waiting for other test VMs to finish" >&2
		noted=1
		flock "$gate"
	fi
	while ((got < want)); do
		for ((i = 0; i < slots && got < want; i++)); do
			[[ -n ${held[i]-} ]] && continue
			exec {fd}>"$lock.$i"
			if flock -n "$fd"; then
				held[i]=$fd
				got=$((got + 1))
			else
				exec {fd}>&-
			fi
		done
		((got < want)) || break
		[[ -n $noted ]] ||
			echo "$who: note: waiting for a test VM slot" >&2
		noted=1
		sleep 1
	done
	exec {gate}>&-
}

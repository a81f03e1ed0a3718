// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Deferred termination signals (sigdefer.h).  The handler only stores the
 * signal number: everything else (the put-back, the message) happens in
 * the ordinary flow of the program, where stdio and the quota calls are
 * safe to use.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "sigdefer.h"

static const int deferred[] = { SIGINT, SIGTERM, SIGHUP };
#define NDEFERRED	(sizeof(deferred) / sizeof(deferred[0]))

static struct sigaction saved[NDEFERRED];
static volatile sig_atomic_t pending;
static int active;

static void note(int sig)
{
	if (!pending)
		pending = sig;
}

void qfd_sigdefer_begin(void)
{
	struct sigaction sa;
	size_t i;

	if (active)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = note;
	/* a quota call is not interrupted in the kernel; stdio need not be either */
	sa.sa_flags = SA_RESTART;
	sigfillset(&sa.sa_mask);
	pending = 0;
	for (i = 0; i < NDEFERRED; i++)
		sigaction(deferred[i], &sa, &saved[i]);
	active = 1;
}

int qfd_sigdefer_pending(void)
{
	return pending;
}

void qfd_sigdefer_end(void)
{
	size_t i;

	if (!active)
		return;
	for (i = 0; i < NDEFERRED; i++)
		sigaction(deferred[i], &saved[i], NULL);
	active = 0;
}

int qfd_sigdefer_raise(int sig)
{
	struct sigaction sa;
	sigset_t set;

	/* what was printed before the signal must not be lost with the process */
	fflush(stdout);
	fflush(stderr);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	return 128 + sig;
}

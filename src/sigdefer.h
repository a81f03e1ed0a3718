/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Hold SIGINT, SIGTERM and SIGHUP off while a run writes a set of changes
 * that must land whole or not at all.  The signal is only noted; the writer
 * checks between two writes, puts back what it wrote, and then dies of the
 * signal itself, so that the shell still sees a process killed by it.
 */
#ifndef QFD_SIGDEFER_H
#define QFD_SIGDEFER_H

/* Note these signals from now on instead of dying of them. */
void qfd_sigdefer_begin(void);

/* The first signal noted since qfd_sigdefer_begin(), or 0. */
int qfd_sigdefer_pending(void);

/* The dispositions from before qfd_sigdefer_begin(). */
void qfd_sigdefer_end(void);

/*
 * Die of sig with its default disposition (exit status 128 + sig in a
 * shell), stdout flushed first.  Returns only if that failed, and then
 * with 128 + sig for the caller to exit with.
 */
int qfd_sigdefer_raise(int sig);

#endif

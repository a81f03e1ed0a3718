// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * qfd watch: the kernel's quota warnings as they happen.
 *
 * With CONFIG_QUOTA_NETLINK_INTERFACE the kernel multicasts a message on
 * the generic netlink family VFS_DQUOT, group "events", whenever an id
 * crosses a soft or hard limit (and, for filesystems using the generic
 * quota code, when it goes back below).  libnl-genl resolves the family,
 * subscribes and parses the attributes; this file only names the event,
 * finds the mount point from the device numbers through libmount, and
 * prints it or hands it to --exec.
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/quota.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>

#include "cmds.h"
#include "ids.h"
#include "mnt.h"
#include "output.h"
#include "units.h"

enum { OPT_EXEC = 0x200 };

struct watch {
	bool json;
	bool numeric;
	const char *exec;	/* --exec CMD, run without a shell */
};

/* One event, resolved: what the kernel said and where that is. */
struct event {
	time_t time;
	int type;
	uint32_t id;
	uint64_t caused;	/* uid of the process that caused it */
	dev_t dev;
	char *target, *fstype;	/* NULL: nothing mounted from dev now */
	const char *name;	/* NULL: the id has none */
	const char *resource;	/* "space" or "files" */
	const char *what;
};

static const struct {
	const char *resource;
	const char *what;
} warnings[] = {
	[QUOTA_NL_IHARDWARN] = { "files", "hard" },
	[QUOTA_NL_ISOFTLONGWARN] = { "files", "grace-expired" },
	[QUOTA_NL_ISOFTWARN] = { "files", "soft" },
	[QUOTA_NL_BHARDWARN] = { "space", "hard" },
	[QUOTA_NL_BSOFTLONGWARN] = { "space", "grace-expired" },
	[QUOTA_NL_BSOFTWARN] = { "space", "soft" },
	[QUOTA_NL_IHARDBELOW] = { "files", "below-hard" },
	[QUOTA_NL_ISOFTBELOW] = { "files", "below-soft" },
	[QUOTA_NL_BHARDBELOW] = { "space", "below-hard" },
	[QUOTA_NL_BSOFTBELOW] = { "space", "below-soft" },
};

static struct nla_policy policy[QUOTA_NL_A_MAX + 1] = {
	[QUOTA_NL_A_QTYPE] = { .type = NLA_U32 },
	[QUOTA_NL_A_EXCESS_ID] = { .type = NLA_U64 },
	[QUOTA_NL_A_WARNING] = { .type = NLA_U32 },
	[QUOTA_NL_A_DEV_MAJOR] = { .type = NLA_U32 },
	[QUOTA_NL_A_DEV_MINOR] = { .type = NLA_U32 },
	[QUOTA_NL_A_CAUSED_ID] = { .type = NLA_U64 },
};

static void print_json(const struct event *e)
{
	printf("{\"time\": %lld, \"mountpoint\": ", (long long)e->time);
	if (e->target)
		qfd_json_string(e->target, stdout);
	else
		fputs("null", stdout);
	fputs(", \"fstype\": ", stdout);
	if (e->fstype)
		qfd_json_string(e->fstype, stdout);
	else
		fputs("null", stdout);
	printf(", \"device\": \"%u:%u\", \"type\": \"%s\", \"id\": %" PRIu32
	       ", \"name\": ", major(e->dev), minor(e->dev),
	       qfd_type_name(e->type), e->id);
	if (e->name)
		qfd_json_string(e->name, stdout);
	else
		fputs("null", stdout);
	printf(", \"resource\": \"%s\", \"event\": \"%s\", \"caused-by\": %" PRIu64 "}\n",
	       e->resource, e->what, e->caused);
}

static void print_line(const struct event *e)
{
	char t[QFD_FMT_LEN];

	qfd_format_time(e->time, t, sizeof(t));
	printf("%s %s %s %s %" PRIu32 " %s %s %s caused-by %" PRIu64 "\n", t,
	       e->target ? e->target : "-", e->fstype ? e->fstype : "-",
	       qfd_type_name(e->type), e->id, e->name ? e->name : "-",
	       e->resource, e->what, e->caused);
}

/* --exec: CMD with the event in its environment, waited for. */
static void run_exec(const struct watch *w, const struct event *e)
{
	char buf[64];
	sigset_t all;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		warn("--exec %s: cannot fork", w->exec);
		return;
	}
	if (pid == 0) {
		sigfillset(&all);
		sigprocmask(SIG_UNBLOCK, &all, NULL);
		snprintf(buf, sizeof(buf), "%lld", (long long)e->time);
		setenv("QFD_EVENT_TIME", buf, 1);
		setenv("QFD_EVENT_MOUNTPOINT", e->target ? e->target : "", 1);
		setenv("QFD_EVENT_FSTYPE", e->fstype ? e->fstype : "", 1);
		snprintf(buf, sizeof(buf), "%u:%u", major(e->dev), minor(e->dev));
		setenv("QFD_EVENT_DEVICE", buf, 1);
		setenv("QFD_EVENT_TYPE", qfd_type_name(e->type), 1);
		snprintf(buf, sizeof(buf), "%" PRIu32, e->id);
		setenv("QFD_EVENT_ID", buf, 1);
		setenv("QFD_EVENT_NAME", e->name ? e->name : "", 1);
		setenv("QFD_EVENT_RESOURCE", e->resource, 1);
		setenv("QFD_EVENT", e->what, 1);
		snprintf(buf, sizeof(buf), "%" PRIu64, e->caused);
		setenv("QFD_EVENT_CAUSED_BY", buf, 1);
		execlp(w->exec, w->exec, (char *)NULL);
		warn("--exec %s", w->exec);
		_exit(127);
	}
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

static bool all_there(struct nlattr **a)
{
	return a[QUOTA_NL_A_QTYPE] && a[QUOTA_NL_A_EXCESS_ID] &&
	       a[QUOTA_NL_A_WARNING] && a[QUOTA_NL_A_DEV_MAJOR] &&
	       a[QUOTA_NL_A_DEV_MINOR] && a[QUOTA_NL_A_CAUSED_ID];
}

static int on_event(struct nl_msg *msg, void *arg)
{
	const struct watch *w = arg;
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct nlattr *a[QUOTA_NL_A_MAX + 1];
	struct event e = { .time = time(NULL) };
	uint32_t warning;

	if (genlmsg_parse(nlh, 0, a, QUOTA_NL_A_MAX, policy) < 0 || !all_there(a)) {
		warnx("a malformed quota event was ignored");
		return NL_SKIP;
	}
	if (genlmsg_hdr(nlh)->cmd != QUOTA_NL_C_WARNING)
		return NL_SKIP;
	warning = nla_get_u32(a[QUOTA_NL_A_WARNING]);
	if (warning >= ARRAY_SIZE(warnings) || !warnings[warning].what)
		return NL_SKIP;
	e.type = (int)nla_get_u32(a[QUOTA_NL_A_QTYPE]);
	e.id = (uint32_t)nla_get_u64(a[QUOTA_NL_A_EXCESS_ID]);
	e.caused = nla_get_u64(a[QUOTA_NL_A_CAUSED_ID]);
	e.dev = makedev(nla_get_u32(a[QUOTA_NL_A_DEV_MAJOR]),
			nla_get_u32(a[QUOTA_NL_A_DEV_MINOR]));
	e.resource = warnings[warning].resource;
	e.what = warnings[warning].what;
	/* a filesystem unmounted since keeps its device numbers in the line */
	qfd_mnt_of_dev(e.dev, &e.target, &e.fstype);
	if (!w->numeric && e.type >= 0 && e.type < QFD_NTYPES)
		e.name = qfd_id_name(e.type, e.id);
	if (w->json)
		print_json(&e);
	else
		print_line(&e);
	if (w->exec)
		run_exec(w, &e);
	free(e.target);
	free(e.fstype);
	return NL_OK;
}

/* The socket, subscribed to the events; NULL after one line saying why. */
static struct nl_sock *subscribe(const struct watch *w)
{
	struct nl_sock *sk = nl_socket_alloc();
	int grp;

	if (!sk || genl_connect(sk)) {
		warnx("cannot open a generic netlink socket");
		goto fail;
	}
	grp = genl_ctrl_resolve_grp(sk, "VFS_DQUOT", "events");
	if (grp < 0) {
		warnx("the kernel offers no quota events (VFS_DQUOT): it lacks CONFIG_QUOTA_NETLINK_INTERFACE, or this is not the initial network namespace");
		goto fail;
	}
	/* multicast events carry no sequence numbers of ours */
	nl_socket_disable_seq_check(sk);
	nl_socket_modify_cb(sk, NL_CB_VALID, NL_CB_CUSTOM, on_event, (void *)w);
	if (nl_socket_add_membership(sk, grp)) {
		warnx("cannot subscribe to the quota events");
		goto fail;
	}
	if (qfd_debug)
		fprintf(stderr, "qfd: debug: listening to VFS_DQUOT events (group %d)\n", grp);
	return sk;
fail:
	nl_socket_free(sk);
	return NULL;
}

/* Until SIGINT or SIGTERM, which end it with status 0. */
static int watch_loop(struct nl_sock *sk, int sfd)
{
	struct pollfd p[2] = {
		{ .fd = nl_socket_get_fd(sk), .events = POLLIN },
		{ .fd = sfd, .events = POLLIN },
	};
	int rc;

	for (;;) {
		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			warn("poll");
			return QFD_EXIT_FAILURE;
		}
		if (p[1].revents)
			return QFD_EXIT_OK;
		rc = nl_recvmsgs_default(sk);
		/* the socket's buffer overflowed: say so, and go on */
		if (rc == -NLE_NOMEM)
			warnx("some quota events were lost (the socket buffer overflowed)");
		else if (rc < 0) {
			warnx("reading quota events: %s", nl_geterror(rc));
			return QFD_EXIT_FAILURE;
		}
		if (fflush(stdout) || ferror(stdout))
			return QFD_EXIT_FAILURE;
	}
}

static bool executable(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode) && !access(path, X_OK);
}

/*
 * --exec's program is looked for when watch starts, as execlp() will look
 * for it: a missing one found at the first event, maybe months later,
 * would have lost every event until then.
 */
static bool program_found(const char *prog)
{
	const char *path = getenv("PATH"), *p, *end;
	char buf[PATH_MAX];
	int n;

	if (strchr(prog, '/'))
		return executable(prog);
	/* execlp's search path when PATH is unset */
	if (!path)
		path = "/bin:/usr/bin";
	for (p = path;; p = end + 1) {
		end = strchrnul(p, ':');
		/* an empty entry is the current directory */
		n = snprintf(buf, sizeof(buf), "%.*s/%s", end == p ? 1 : (int)(end - p),
			     end == p ? "." : p, prog);
		if (n > 0 && (size_t)n < sizeof(buf) && executable(buf))
			return true;
		if (!*end)
			return false;
	}
}

static int parse(int argc, char **argv, struct watch *w)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'J' },
		{ "numeric", no_argument, NULL, 'N' },
		{ "exec", required_argument, NULL, OPT_EXEC },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int c;
	struct qfd_getopt g = { &qfd_cmd_watch, "JNh", opts, NULL, NULL };

	while ((c = qfd_getopt(&g, argc, argv)) != -1) {
		switch (c) {
		case 'J':
			w->json = true;
			break;
		case 'N':
			w->numeric = true;
			break;
		case OPT_EXEC:
			if (!*optarg)
				return qfd_opts_bad("watch", "--exec needs a command");
			if (!program_found(optarg))
				return qfd_opts_bad("watch", "--exec %s: no such program, or not executable (it is run without a shell, looked up in PATH)",
						    optarg);
			w->exec = optarg;
			break;
		default:
			return qfd_opt_default(&g, c);
		}
	}
	if (optind < argc)
		return qfd_opts_bad("watch", "watch takes no arguments: it reports every filesystem");
	return QFD_OPTS_GO;
}

static int run(int argc, char **argv)
{
	struct watch w = { 0 };
	struct nl_sock *sk;
	sigset_t set;
	int sfd, rc;

	rc = parse(argc, argv, &w);
	if (rc)
		return qfd_opts_exit(rc);
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	if (sigprocmask(SIG_BLOCK, &set, NULL) ||
	    (sfd = signalfd(-1, &set, SFD_CLOEXEC)) < 0) {
		warn("cannot catch SIGINT and SIGTERM");
		return QFD_EXIT_FAILURE;
	}
	sk = subscribe(&w);
	if (!sk) {
		close(sfd);
		return QFD_EXIT_FAILURE;
	}
	rc = watch_loop(sk, sfd);
	nl_socket_free(sk);
	close(sfd);
	return rc;
}

const struct qfd_cmd qfd_cmd_watch = {
	.name = "watch",
	.run = run,
	.args = "[-J] [-N] [--exec CMD]",
	.summary = "print the kernel's quota warnings as they happen",
	.options = "  -J, --json           one JSON object a line\n"
		   "  -N, --numeric        do not resolve ids to names\n"
		   "      --exec CMD       run CMD for each event (no shell), with\n"
		   "                       QFD_EVENT_* in its environment\n",
	.notes = "Runs until SIGINT or SIGTERM; every filesystem, every quota type.\n",
};

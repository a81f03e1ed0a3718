// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * qfd-sys: quotactl_fd(2) called by its number, with no C library.
 *
 * tests/vm/suites/quotactl-fd.bats builds it twice: as an x86_64 program
 * (the syscall instruction, the native table) and as an i386 one (int
 * $0x80, which an x86_64 kernel with IA32_EMULATION serves from its compat
 * table).  Without a C library there is no wrapper that could fall back to
 * quotactl(2), nothing to install for 32 bits, and what runs is exactly
 * the kernel's slot 443 and its handling of a 32-bit caller's structures.
 *
 * Usage: qfd-sys HOW PATH CMD [ARGS...]
 *   HOW   path: O_PATH; dir: O_RDONLY|O_DIRECTORY; file: O_RDONLY;
 *         closed: PATH opened with O_PATH and closed again (a stale number)
 *   CMD   getinfo TYPE | getquota TYPE ID | setquota TYPE ID BHARD_KIB
 *         | quotaon TYPE            (TYPE: 0 user, 1 group, 2 project)
 * Prints one line, "ret=0 ..." with the fields read, or "ret=-ERRNO", and
 * exits 0; 2 if the command line is wrong, 3 if PATH cannot be opened.
 * getquota also says whether the kernel wrote past the caller's struct
 * if_dqblk ("tail=clobbered"), which a 32-bit caller's 68-byte struct
 * would suffer if the compat path copied the native 72 bytes.
 */

#define NR_QUOTACTL_FD	443

#if defined(__x86_64__)
#define NR_WRITE	1
#define NR_OPEN		2
#define NR_CLOSE	3
#define NR_EXIT_GROUP	231

static long sys(long nr, long a, long b, long c, long d)
{
	long ret;
	register long r10 __asm__("r10") = d;

	__asm__ volatile ("syscall"
			  : "=a"(ret)
			  : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10)
			  : "rcx", "r11", "memory");
	return ret;
}

__asm__(".globl _start\n"
	"_start:\n"
	"	xor %rbp, %rbp\n"
	"	mov %rsp, %rdi\n"
	"	and $-16, %rsp\n"
	"	call qfd_sys_main\n"
	"	hlt\n");
#elif defined(__i386__)
#define NR_WRITE	4
#define NR_OPEN		5
#define NR_CLOSE	6
#define NR_EXIT_GROUP	252

static long sys(long nr, long a, long b, long c, long d)
{
	long ret;

	__asm__ volatile ("int $0x80"
			  : "=a"(ret)
			  : "a"(nr), "b"(a), "c"(b), "d"(c), "S"(d)
			  : "memory");
	return ret;
}

__asm__(".globl _start\n"
	"_start:\n"
	"	xor %ebp, %ebp\n"
	"	mov %esp, %eax\n"
	"	and $-16, %esp\n"
	"	sub $12, %esp\n"
	"	push %eax\n"
	"	call qfd_sys_main\n"
	"	hlt\n");
#else
#error "qfd-sys is for x86_64 and i386"
#endif

#define O_RDONLY	0
#define O_DIRECTORY	0200000
#define O_PATH		010000000

#define Q_QUOTAON	0x800002
#define Q_GETINFO	0x800005
#define Q_GETQUOTA	0x800007
#define Q_SETQUOTA	0x800008
#define QFMT_VFS_V1	4
#define QIF_BLIMITS	1
#define QCMD(cmd, type)	(((cmd) << 8) | ((type) & 0xff))

typedef unsigned long long u64;
typedef unsigned int u32;

/* The UAPI layout: u64 members are 8-aligned on x86_64, 4 on i386. */
struct if_dqblk {
	u64 dqb_bhardlimit;
	u64 dqb_bsoftlimit;
	u64 dqb_curspace;
	u64 dqb_ihardlimit;
	u64 dqb_isoftlimit;
	u64 dqb_curinodes;
	u64 dqb_btime;
	u64 dqb_itime;
	u32 dqb_valid;
};

struct if_dqinfo {
	u64 dqi_bgrace;
	u64 dqi_igrace;
	u32 dqi_flags;
	u32 dqi_valid;
};

#define TAIL_BYTE	0xa5

/* gcc may turn a structure's initialisation into a call of these. */
void *memset(void *s, int c, unsigned long n)
{
	unsigned char *p = s;

	while (n--)
		*p++ = (unsigned char)c;
	return s;
}

static char line[512];
static unsigned int line_len;

static void put(const char *s)
{
	while (*s && line_len < sizeof(line) - 1)
		line[line_len++] = *s++;
}

/*
 * *u /= 10, returning the remainder, in 16-bit steps: a 64-bit division
 * would need libgcc's __udivmoddi4 on i386, and there is no 32-bit libgcc
 * without gcc-multilib.
 */
static unsigned int div10(u64 *u)
{
	u64 q = 0;
	u32 r = 0, cur;
	int shift;

	for (shift = 48; shift >= 0; shift -= 16) {
		cur = (r << 16) | (u32)((*u >> shift) & 0xffff);
		q |= (u64)(cur / 10) << shift;
		r = cur % 10;
	}
	*u = q;
	return r;
}

static void put_num(long long v)
{
	char buf[24];
	int i = sizeof(buf);
	u64 u = v < 0 ? 0ULL - (u64)v : (u64)v;

	buf[--i] = 0;
	do {
		buf[--i] = (char)('0' + div10(&u));
	} while (u);
	if (v < 0)
		buf[--i] = '-';
	put(buf + i);
}

static void put_field(const char *name, long long v)
{
	if (line_len)
		put(" ");
	put(name);
	put("=");
	put_num(v);
}

static int streq(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

/* A decimal number, or -1 if s is not one. */
static long long num(const char *s)
{
	long long v = 0;

	if (!s || !*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > 100000000000000LL)
			return -1;
		v = v * 10 + (*s - '0');
	}
	return v;
}

static __attribute__((noreturn)) void finish(int status)
{
	put("\n");
	sys(NR_WRITE, 1, (long)line, line_len, 0);
	for (;;)
		sys(NR_EXIT_GROUP, status, 0, 0, 0);
}

static long open_how(const char *how, const char *path)
{
	long fd;

	if (streq(how, "path") || streq(how, "closed"))
		fd = sys(NR_OPEN, (long)path, O_PATH, 0, 0);
	else if (streq(how, "dir"))
		fd = sys(NR_OPEN, (long)path, O_RDONLY | O_DIRECTORY, 0, 0);
	else if (streq(how, "file"))
		fd = sys(NR_OPEN, (long)path, O_RDONLY, 0, 0);
	else
		return -1000;
	if (fd >= 0 && streq(how, "closed"))
		sys(NR_CLOSE, fd, 0, 0, 0);
	return fd;
}

static void getquota(long fd, long long type, long long id)
{
	struct {
		struct if_dqblk q;
		unsigned char tail[8];
	} b;
	unsigned int i;
	long ret;

	memset(&b, TAIL_BYTE, sizeof(b));
	ret = sys(NR_QUOTACTL_FD, fd, QCMD(Q_GETQUOTA, type), (long)id, (long)&b.q);
	put_field("ret", ret);
	if (ret)
		return;
	put_field("bhardlimit", (long long)b.q.dqb_bhardlimit);
	put_field("bsoftlimit", (long long)b.q.dqb_bsoftlimit);
	put_field("curspace", (long long)b.q.dqb_curspace);
	put_field("ihardlimit", (long long)b.q.dqb_ihardlimit);
	put_field("isoftlimit", (long long)b.q.dqb_isoftlimit);
	put_field("curinodes", (long long)b.q.dqb_curinodes);
	put_field("valid", b.q.dqb_valid);
	put_field("size", sizeof(b.q));
	for (i = 0; i < sizeof(b.tail); i++)
		if (b.tail[i] != TAIL_BYTE)
			break;
	put(i == sizeof(b.tail) ? " tail=intact" : " tail=clobbered");
}

static void setquota(long fd, long long type, long long id, long long bhard)
{
	struct if_dqblk q;

	memset(&q, 0, sizeof(q));
	q.dqb_bhardlimit = (u64)bhard;
	q.dqb_valid = QIF_BLIMITS;
	put_field("ret", sys(NR_QUOTACTL_FD, fd, QCMD(Q_SETQUOTA, type),
			     (long)id, (long)&q));
}

static void getinfo(long fd, long long type)
{
	struct if_dqinfo i;
	long ret;

	memset(&i, 0, sizeof(i));
	ret = sys(NR_QUOTACTL_FD, fd, QCMD(Q_GETINFO, type), 0, (long)&i);
	put_field("ret", ret);
	if (ret)
		return;
	put_field("bgrace", (long long)i.dqi_bgrace);
	put_field("igrace", (long long)i.dqi_igrace);
}

__attribute__((used)) void qfd_sys_main(long *sp)
{
	long argc = sp[0];
	char **argv = (char **)(sp + 1);
	long long type, id = 0, limit = 0;
	const char *cmd;
	long fd;

	if (argc < 5) {
		put("usage: qfd-sys path|dir|file|closed PATH getinfo|getquota|setquota|quotaon TYPE [ID [BHARD_KIB]]");
		finish(2);
	}
	cmd = argv[3];
	type = num(argv[4]);
	if (argc > 5)
		id = num(argv[5]);
	if (argc > 6)
		limit = num(argv[6]);
	if (type < 0 || id < 0 || limit < 0) {
		put("qfd-sys: TYPE, ID and BHARD_KIB are decimal numbers");
		finish(2);
	}
	fd = open_how(argv[1], argv[2]);
	if (fd == -1000) {
		put("qfd-sys: HOW is path, dir, file or closed");
		finish(2);
	}
	if (fd < 0) {
		put("qfd-sys: cannot open ");
		put(argv[2]);
		put_field("errno", -fd);
		finish(3);
	}
	if (streq(cmd, "getquota") && argc == 6) {
		getquota(fd, type, id);
	} else if (streq(cmd, "setquota") && argc == 7) {
		setquota(fd, type, id, limit);
	} else if (streq(cmd, "getinfo") && argc == 5) {
		getinfo(fd, type);
	} else if (streq(cmd, "quotaon") && argc == 5) {
		put_field("ret", sys(NR_QUOTACTL_FD, fd, QCMD(Q_QUOTAON, type),
				     QFMT_VFS_V1, 0));
	} else {
		put("qfd-sys: unknown command or wrong number of arguments");
		finish(2);
	}
	finish(0);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libnss_qfdtest.so.2: an NSS source that answers lookups by id and by
 * name but cannot be enumerated (no setpwent/getpwent), as sssd and LDAP
 * usually are.  One user, qfdnss (2601), and one group, qfdnssg (2602).
 * report-formats.bats builds it in the VM and lists it in nsswitch.conf.
 */
#include <errno.h>
#include <grp.h>
#include <nss.h>
#include <pwd.h>
#include <string.h>

#define USER	"qfdnss"
#define UID	2601
#define GROUP	"qfdnssg"
#define GID	2602

/* Copy s into the caller's buffer; NULL when it does not fit. */
static char *put(const char *s, char **buf, size_t *left)
{
	size_t n = strlen(s) + 1;
	char *p = *buf;

	if (n > *left)
		return NULL;
	memcpy(p, s, n);
	*buf += n;
	*left -= n;
	return p;
}

static enum nss_status fill_pw(struct passwd *pw, char *buf, size_t len,
			       int *errnop)
{
	pw->pw_name = put(USER, &buf, &len);
	pw->pw_passwd = put("x", &buf, &len);
	pw->pw_gecos = put("", &buf, &len);
	pw->pw_dir = put("/nonexistent", &buf, &len);
	pw->pw_shell = put("/usr/sbin/nologin", &buf, &len);
	if (!pw->pw_name || !pw->pw_passwd || !pw->pw_gecos || !pw->pw_dir ||
	    !pw->pw_shell) {
		*errnop = ERANGE;
		return NSS_STATUS_TRYAGAIN;
	}
	pw->pw_uid = UID;
	pw->pw_gid = GID;
	return NSS_STATUS_SUCCESS;
}

static enum nss_status fill_gr(struct group *gr, char *buf, size_t len,
			       int *errnop)
{
	char **mem;

	/* an empty member list, aligned for a pointer */
	if (len < sizeof(char *) * 2) {
		*errnop = ERANGE;
		return NSS_STATUS_TRYAGAIN;
	}
	mem = (char **)(void *)buf;
	mem[0] = NULL;
	buf += sizeof(char *) * 2;
	len -= sizeof(char *) * 2;
	gr->gr_mem = mem;
	gr->gr_name = put(GROUP, &buf, &len);
	gr->gr_passwd = put("x", &buf, &len);
	if (!gr->gr_name || !gr->gr_passwd) {
		*errnop = ERANGE;
		return NSS_STATUS_TRYAGAIN;
	}
	gr->gr_gid = GID;
	return NSS_STATUS_SUCCESS;
}

enum nss_status _nss_qfdtest_getpwuid_r(uid_t uid, struct passwd *pw,
					char *buf, size_t len, int *errnop)
{
	if (uid != UID)
		return NSS_STATUS_NOTFOUND;
	return fill_pw(pw, buf, len, errnop);
}

enum nss_status _nss_qfdtest_getpwnam_r(const char *name, struct passwd *pw,
					char *buf, size_t len, int *errnop)
{
	if (strcmp(name, USER))
		return NSS_STATUS_NOTFOUND;
	return fill_pw(pw, buf, len, errnop);
}

enum nss_status _nss_qfdtest_getgrgid_r(gid_t gid, struct group *gr,
					char *buf, size_t len, int *errnop)
{
	if (gid != GID)
		return NSS_STATUS_NOTFOUND;
	return fill_gr(gr, buf, len, errnop);
}

enum nss_status _nss_qfdtest_getgrnam_r(const char *name, struct group *gr,
					char *buf, size_t len, int *errnop)
{
	if (strcmp(name, GROUP))
		return NSS_STATUS_NOTFOUND;
	return fill_gr(gr, buf, len, errnop);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Users, groups and projects: names to ids and back.  Users and groups go
 * through nss one at a time, cached (one lookup per distinct id); past a
 * few dozen lookups the database is also read whole once, which answers a
 * report of many ids faster.
 */
#ifndef QFD_IDS_H
#define QFD_IDS_H

#include <stddef.h>
#include <stdint.h>

/* Where project names live, as for xfs_quota and quota-tools. */
#define QFD_PROJID_FILE	"/etc/projid"

/*
 * "alice", "1000" or "#1000" -> id.  Returns 0; -ENOENT for an unknown
 * name, -EINVAL for a malformed one, -ERANGE for an id out of range,
 * -EEXIST when a numeric name is also a different id.
 */
int qfd_id_parse(int type, const char *who, uint32_t *id);
/*
 * One line for a failed qfd_id_parse(), e.g. "unknown user 'bob'", the
 * name as qfd_shown() makes it; -ENAMETOOLONG: longer than a user or group
 * name can be.
 */
const char *qfd_id_strerror(int type, const char *who, int rc, char *buf,
			    size_t len);

/*
 * Outside text (a name, a batch field) as an error line may show it: the
 * first QFD_SHOWN_MAX bytes, "..." when there were more, and every byte
 * that could act on a terminal (control characters, DEL, C1 controls,
 * bytes that are not UTF-8) or blur the escaping (a backslash) as \xHH.
 * buf has QFD_SHOWN_LEN bytes; returns buf.
 */
/*
 * The length of the well-formed UTF-8 character at s (1 to 4 bytes), its
 * code point in *cp; 0 when s does not start one.
 */
size_t qfd_utf8_decode(const unsigned char *s, uint32_t *cp);

#define QFD_SHOWN_MAX	40
#define QFD_SHOWN_LEN	((QFD_SHOWN_MAX + 3) * 4 + 4)
char *qfd_shown(const char *s, char *buf);
/* The same for the first len bytes of s (a column in a list). */
char *qfd_shown_n(const char *s, size_t len, char *buf);

/* The name of id, or NULL when it has none; valid until qfd_ids_free(). */
const char *qfd_id_name(int type, uint32_t id);

/*
 * One line of /etc/projid, "name:id[:...]", split in place: 0, or -EINVAL
 * for a comment or a line that is not of that form (skipped).
 */
int qfd_projid_line(char *line, const char **name, uint32_t *id);

void qfd_ids_free(void);

#endif

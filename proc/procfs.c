/* procfs.c — reading /proc cheaply (procfs-private.h). */
#define G_LOG_DOMAIN "xreduce-proc"

#include "procfs-private.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The whole text of the /proc file @path in *@text (NUL-terminated);
 * FALSE, with *@text unset, if it cannot be opened or read (the process
 * is gone). */
gboolean
proc_read (const char *path, char **text)
{
  char buf[4096];
  GString *s = NULL;
  int fd = open (path, O_RDONLY | O_CLOEXEC);

  if (fd < 0)
    return FALSE;
  for (;;)
    {
      ssize_t n = read (fd, buf, sizeof buf);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          close (fd);
          if (s != NULL)
            g_string_free (s, TRUE);
          return FALSE;
        }
      if (n == 0)
        break;
      if (s == NULL)
        s = g_string_sized_new ((gsize) n + 1);
      g_string_append_len (s, buf, n);
    }
  close (fd);
  *text = s != NULL ? g_string_free (s, FALSE) : g_strdup ("");
  return TRUE;
}

struct ProcDir
{
  int fd;
  long len, at;              /* bytes in buf, the next entry's offset */
  char buf[8192];
};

ProcDir *
procdir_open (const char *path)
{
  ProcDir *dir;
  int fd = open (path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

  if (fd < 0)
    return NULL;
  dir = g_new (ProcDir, 1);
  dir->fd = fd;
  dir->len = dir->at = 0;
  return dir;
}

/* struct linux_dirent64's layout (getdents(2)). */
#define DIRENT64_RECLEN_AT 16
#define DIRENT64_NAME_AT 19

const char *
procdir_next (ProcDir *dir)
{
  for (;;)
    {
      const char *name;
      unsigned short reclen;

      if (dir->at >= dir->len)
        {
          dir->len = syscall (SYS_getdents64, dir->fd, dir->buf, sizeof dir->buf);
          dir->at = 0;
          if (dir->len <= 0)
            {
              dir->len = 0;
              return NULL;
            }
        }
      memcpy (&reclen, dir->buf + dir->at + DIRENT64_RECLEN_AT, sizeof reclen);
      name = dir->buf + dir->at + DIRENT64_NAME_AT;
      if (reclen == 0)
        {
          dir->len = 0;
          return NULL;
        }
      dir->at += reclen;
      if (!g_str_equal (name, ".") && !g_str_equal (name, ".."))
        return name;
    }
}

void
procdir_close (ProcDir *dir)
{
  close (dir->fd);
  g_free (dir);
}

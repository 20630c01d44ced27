/* session-world.c — the world the app ran in, as a session of version 2
 * says it (see session-world.h): the header lines (env, home, cwd, host,
 * date, wm), the rule for which variables are recorded and set, titles
 * that name the world, and what a replay cannot give.
 *
 * The records of what the app was given (Selection, File, Drop) are in
 * session-given.c. Start reading at session_env_name_check(): a session
 * comes from strangers, and a variable is code for many programs.
 */
#define G_LOG_DOMAIN "xreduce-sessions"

#include "session-private.h"
#include "quote.h"

#include <string.h>
#include <glib/gstdio.h>

/* ---- the header ---- */

#define GETTER(field) \
  const char *session_get_##field (const Session *session) { return session->field; } \
  void session_set_##field (Session *session, const char *value) \
  { g_free (session->field); session->field = g_strdup (value); }

GETTER (home)
GETTER (cwd)
GETTER (host)
GETTER (date)
GETTER (wm)

const char *const *
session_get_env (const Session *session)
{
  static const char *const none[] = { NULL };

  return session->env != NULL ? (const char *const *) session->env->pdata : none;
}

static gboolean
env_has (const Session *session, const char *name)
{
  gsize n = strlen (name);

  for (const char *const *e = session_get_env (session); *e != NULL; e++)
    if (strncmp (*e, name, n) == 0 && (*e)[n] == '=')
      return TRUE;
  return FALSE;
}

gboolean
session_add_env (Session *session, const char *name, const char *value, GError **error)
{
  g_autofree char *why = NULL;

  if (!session_env_name_check (name, &why))
    {
      g_set_error (error, SESSION_ERROR, SESSION_ERROR_INVALID, "%s", why);
      return FALSE;
    }
  if (!g_utf8_validate (value, -1, NULL))
    {
      g_set_error (error, SESSION_ERROR, SESSION_ERROR_INVALID,
                   "the value of %s is not valid UTF-8", name);
      return FALSE;
    }
  if (env_has (session, name))
    {
      g_set_error (error, SESSION_ERROR, SESSION_ERROR_INVALID, "%s given twice", name);
      return FALSE;
    }
  if (session->env == NULL)
    session->env = g_ptr_array_new_null_terminated (8, g_free, TRUE);
  g_ptr_array_add (session->env, g_strconcat (name, "=", value, NULL));
  return TRUE;
}

/* ---- which variables ---- */

static gboolean
in_list (const char *name, const char *const *list, gboolean prefix)
{
  for (; *list != NULL; list++)
    if (prefix ? g_str_has_prefix (name, *list) : strcmp (name, *list) == 0)
      return TRUE;
  return FALSE;
}

gboolean
session_env_name_is_default (const char *name)
{
  static const char *const exact[] = { "LANG", "LANGUAGE", "TZ", "XMODIFIERS", NULL };
  static const char *const prefixes[] = { "LC_", "GDK_", "GTK_", "QT_", "MOZ_", NULL };

  return (in_list (name, exact, FALSE) || in_list (name, prefixes, TRUE))
         && session_env_name_check (name, NULL);
}

gboolean
session_env_name_check (const char *name, char **why)
{
  /* What looks secret, wherever it stands in the name. */
  static const char *const secret[] = { "TOKEN", "KEY", "SECRET", "PASS", "AUTH", "CREDENTIAL",
                                        "COOKIE", "PRIVATE", NULL };
  static const char *const secret_prefixes[] = { "SSH_", "GPG_", "GNUPG", "DBUS_", "KRB5",
                                                 NULL };
  /* What the replay owns: its display, its sandbox's folders and bus. */
  static const char *const owned[] = {
    "DISPLAY", "WAYLAND_DISPLAY", "WAYLAND_SOCKET", "HOME", "PATH", "TMPDIR", "TMP", "TEMP",
    "USER", "LOGNAME", "SHELL", "PWD", "OLDPWD", "SESSION_MANAGER", "NO_AT_BRIDGE",
    "DESKTOP_STARTUP_ID", "XDG_ACTIVATION_TOKEN", "SHLVL", "_", NULL };
  static const char *const owned_prefixes[] = { "XDG_", "XREDUCE_", "AT_SPI_", NULL };
  /* What makes a program load code (or run it) from a path: a session
   * from a stranger names none of them. */
  static const char *const code[] = {
    "GTK_MODULES", "GTK3_MODULES", "GTK_PATH", "GTK_EXE_PREFIX", "GTK_DATA_PREFIX",
    "GTK_IM_MODULE_FILE", "GDK_PIXBUF_MODULE_FILE", "GDK_PIXBUF_MODULEDIR",
    "GIO_EXTRA_MODULES", "GIO_MODULE_DIR", "GI_TYPELIB_PATH", "GST_PLUGIN_PATH",
    "GST_PLUGIN_SYSTEM_PATH", "QT_PLUGIN_PATH", "QT_QPA_PLATFORM_PLUGIN_PATH",
    "QML_IMPORT_PATH", "QML2_IMPORT_PATH", "QT_QPA_PLATFORMTHEME_PLUGIN_PATH",
    "MOZ_PLUGIN_PATH", "MOZ_GMP_PATH", "PERL5LIB", "PERLLIB", "PERL5OPT", "RUBYLIB",
    "RUBYOPT", "NODE_OPTIONS", "NODE_PATH", "TCLLIBPATH", "TCL_LIBRARY", "TK_LIBRARY",
    "GCONV_PATH", "BASH_ENV", "ENV", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "LUA_PATH",
    "LUA_CPATH", "GLIBC_TUNABLES", "MALLOC_CONF", "LOCPATH", "NLSPATH", "HOSTALIASES",
    "RESOLV_HOST_CONF", "GDK_BACKEND_MODULE", "LIBGL_DRIVERS_PATH", "VK_ICD_FILENAMES",
    "__EGL_VENDOR_LIBRARY_FILENAMES", "LIBVA_DRIVERS_PATH", NULL };
  static const char *const code_prefixes[] = { "LD_", "PYTHON", "DYLD_", NULL };
  g_autofree char *upper = NULL;

  if (name == NULL || *name == '\0' || strlen (name) > 128 || g_ascii_isdigit (*name))
    goto bad_name;
  for (const char *p = name; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && *p != '_')
      goto bad_name;
  upper = g_ascii_strup (name, -1);
  for (const char *const *s = secret; *s != NULL; s++)
    if (strstr (upper, *s) != NULL)
      {
        if (why != NULL)
          *why = g_strdup_printf ("%s looks like a secret (its name holds %s): never recorded",
                                  name, *s);
        return FALSE;
      }
  if (in_list (upper, secret_prefixes, TRUE) || strcmp (upper, "XAUTHORITY") == 0
      || strcmp (upper, "XAUTHLOCALHOSTNAME") == 0)
    {
      if (why != NULL)
        *why = g_strdup_printf ("%s holds or finds a secret: never recorded", name);
      return FALSE;
    }
  if (in_list (name, owned, FALSE) || in_list (name, owned_prefixes, TRUE))
    {
      if (why != NULL)
        *why = g_strdup_printf ("%s is the replay's own (its display, folders or bus): never "
                                "recorded", name);
      return FALSE;
    }
  if (in_list (name, code, FALSE) || in_list (name, code_prefixes, TRUE))
    {
      if (why != NULL)
        *why = g_strdup_printf ("%s makes programs load code from a path: never recorded",
                                name);
      return FALSE;
    }
  return TRUE;

bad_name:
  if (why != NULL)
    {
      g_autofree char *shown = quote_terminal (name != NULL ? name : "");
      *why = g_strdup_printf ("'%s' is not a variable's name (letters, digits and _, at most "
                              "128)", shown);
    }
  return FALSE;
}

char *
session_env_replay_value (const char *name, const char *value)
{
  gboolean wayland = strstr (value, "wayland") != NULL || strstr (value, "Wayland") != NULL;

  if (!wayland)
    return g_strdup (value);
  /* The replay's server is X: the toolkit's X backend, as the recording,
   * which recorded an X app, must have used (a list such as
   * "wayland,x11" fell back to it). */
  if (strcmp (name, "GDK_BACKEND") == 0 || strcmp (name, "CLUTTER_BACKEND") == 0
      || strcmp (name, "SDL_VIDEODRIVER") == 0)
    return g_strdup ("x11");
  if (strcmp (name, "QT_QPA_PLATFORM") == 0)
    return g_strdup ("xcb");
  if (strcmp (name, "MOZ_ENABLE_WAYLAND") == 0)
    return NULL;
  return g_strdup (value);
}

/* ---- header lines ---- */

static gboolean
check_date (const char *date)
{
  /* YYYY-MM-DD */
  if (strlen (date) != 10 || date[4] != '-' || date[7] != '-')
    return FALSE;
  for (int i = 0; i < 10; i++)
    if (i != 4 && i != 7 && !g_ascii_isdigit (date[i]))
      return FALSE;
  return TRUE;
}

gboolean
session_world_header_key (const char *key)
{
  static const char *const keys[] = { "env", "home", "cwd", "host", "date", "wm", NULL };

  return in_list (key, keys, FALSE);
}

gboolean
session_world_parse_header (Session *session, const char *key, const char *name,
                            const char *value, char **why)
{
  char **field = g_str_equal (key, "home") ? &session->home
                 : g_str_equal (key, "cwd") ? &session->cwd
                 : g_str_equal (key, "host") ? &session->host
                 : g_str_equal (key, "date") ? &session->date
                 : g_str_equal (key, "wm") ? &session->wm : NULL;

  if (field == NULL)
    {
      g_autoptr (GError) local = NULL;

      if (session_add_env (session, name, value, &local))
        return TRUE;
      *why = g_strdup_printf ("env: %s", local->message);
      return FALSE;
    }
  if (*field != NULL)
    {
      *why = g_strdup_printf ("second '%s' line", key);
      return FALSE;
    }
  if (strlen (value) > SESSION_MAX_PATH)
    {
      *why = g_strdup_printf ("%s: longer than %d bytes", key, SESSION_MAX_PATH);
      return FALSE;
    }
  if ((field == &session->home || field == &session->cwd)
      && (!g_path_is_absolute (value) || strstr (value, "/../") != NULL
          || g_str_has_suffix (value, "/..")))
    {
      g_autofree char *shown = quote_terminal (value);
      *why = g_strdup_printf ("%s: '%s' is not an absolute path", key, shown);
      return FALSE;
    }
  if (field == &session->date && !check_date (value))
    {
      g_autofree char *shown = quote_terminal (value);
      *why = g_strdup_printf ("date: '%s' is not YYYY-MM-DD", shown);
      return FALSE;
    }
  if (*value == '\0')
    {
      *why = g_strdup_printf ("%s: empty", key);
      return FALSE;
    }
  *field = g_strdup (value);
  return TRUE;
}

/* ---- titles ---- */

typedef struct
{
  const char *from;
  char *to;                  /* owned */
} Swap;

static void
add_swap (GArray *swaps, const char *from, const char *to)
{
  Swap swap;

  /* One character ("/", "~") says nothing of the world; the same twice
   * changes nothing. */
  if (from == NULL || to == NULL || strlen (from) < 2 || strcmp (from, to) == 0)
    return;
  swap.from = from;
  swap.to = g_strdup (to);
  g_array_append_val (swaps, swap);
}

static void
swap_clear (Swap *swap)
{
  g_free (swap->to);
}

static gint
longest_first (gconstpointer a, gconstpointer b)
{
  gsize x = strlen (((const Swap *) a)->from), y = strlen (((const Swap *) b)->from);

  return (x < y) - (x > y);
}

char *
session_title_here (const Session *session, const char *title, const SessionHere *here)
{
  g_autoptr (GArray) swaps = g_array_new (FALSE, FALSE, sizeof (Swap));
  g_autofree char *cwd_tilde = NULL, *here_cwd_tilde = NULL;
  g_autofree char *short_host = NULL, *here_short_host = NULL;
  GString *out;

  if (title == NULL)
    return NULL;
  g_array_set_clear_func (swaps, (GDestroyNotify) swap_clear);
  if (here != NULL)
    {
      /* The working folder as gedit and others show it: under HOME as
       * "~/...". */
      cwd_tilde = session->cwd != NULL && session->home != NULL
                    ? session_file_path_from (session->cwd, session->home) : NULL;
      here_cwd_tilde = here->cwd != NULL && here->home != NULL
                         ? session_file_path_from (here->cwd, here->home) : NULL;
      add_swap (swaps, session->cwd, here->cwd);
      if (cwd_tilde != NULL && cwd_tilde[0] == '~' && here_cwd_tilde != NULL)
        add_swap (swaps, cwd_tilde, here_cwd_tilde);
      add_swap (swaps, session->home, here->home);
      add_swap (swaps, session->host, here->host);
      if (session->host != NULL && here->host != NULL && strchr (session->host, '.') != NULL)
        {
          short_host = g_strndup (session->host, strcspn (session->host, "."));
          here_short_host = g_strndup (here->host, strcspn (here->host, "."));
          add_swap (swaps, short_host, here_short_host);
        }
      add_swap (swaps, session->date, here->date);
      g_array_sort (swaps, longest_first);
    }
  out = g_string_new (NULL);
  for (const char *p = title; *p != '\0';)
    {
      const Swap *hit = NULL;

      for (guint i = 0; i < swaps->len && hit == NULL; i++)
        {
          const Swap *swap = &g_array_index (swaps, Swap, i);
          if (g_str_has_prefix (p, swap->from))
            hit = swap;
        }
      if (hit != NULL)
        {
          g_string_append (out, hit->to);
          p += strlen (hit->from);
        }
      else
        g_string_append_c (out, *p++);
    }
  return g_string_free (out, FALSE);
}

/* ---- in words ---- */

/* The user's data (a path, pasted text, a value): a code span in
 * Markdown, in quotes on a terminal. */
static void
append_data (GString *out, const char *text, SessionWords words)
{
  g_autofree char *quoted = words == SESSION_WORDS_MARKDOWN ? quote_markdown_code (text)
                                                             : quote_terminal (text);

  if (words == SESSION_WORDS_MARKDOWN)
    g_string_append (out, quoted);
  else
    g_string_append_printf (out, "\"%s\"", quoted);
}

static void
append_text (GString *out, const char *text, SessionWords words)
{
  g_autofree char *quoted = words == SESSION_WORDS_MARKDOWN ? quote_markdown_text (text)
                                                             : quote_terminal (text);
  g_string_append (out, quoted);
}

/* The step (phrase, from 1) of action @action, 0 if none. */
static guint
step_of (GPtrArray *phrases, guint action)
{
  for (guint p = 0; p < phrases->len; p++)
    {
      const SessionPhrase *phrase = g_ptr_array_index (phrases, p);

      for (guint i = 0; i < phrase->actions->len; i++)
        if (g_array_index (phrase->actions, guint, i) == action)
          return p + 1;
    }
  return 0;
}

static void
describe_where (const Session *session, SessionWords words, GPtrArray *lines)
{
  GString *out;

  if (session->cwd == NULL && session->host == NULL && session->date == NULL
      && session->wm == NULL)
    return;
  out = g_string_new ("Recorded");
  if (session->cwd != NULL)
    {
      g_string_append (out, " in ");
      append_data (out, session->cwd, words);
    }
  if (session->home != NULL)
    {
      g_string_append (out, " (HOME ");
      append_data (out, session->home, words);
      g_string_append (out, ")");
    }
  if (session->host != NULL)
    {
      g_string_append (out, " on ");
      append_data (out, session->host, words);
    }
  if (session->date != NULL)
    g_string_append_printf (out, ", %s", session->date);
  g_string_append (out, session->wm != NULL ? ", under the window manager " : ", with no window manager");
  if (session->wm != NULL)
    append_data (out, session->wm, words);
  g_ptr_array_add (lines, g_string_free (out, FALSE));
}

/* The files a session's description names, at most. */
#define DESCRIBED_FILES 10

static void
describe_files (const Session *session, SessionWords words, GPtrArray *lines)
{
  g_autoptr (GPtrArray) files = session_get_files (session);
  GString *out;

  if (files->len == 0)
    return;
  out = g_string_new ("Files the app read: ");
  /* The copied ones first (the replay gives the app those), then the
   * listed ones, at most DESCRIBED_FILES in all: a file chooser that read
   * the heads of 400 files of a folder is one line, not 400. */
  for (int pass = 0, n = 0; pass < 2; pass++)
    for (guint i = 0; i < files->len; i++)
      {
        const SessionEvent *file = g_ptr_array_index (files, i);

        if (file->copied != (pass == 0))
          continue;
        if (n++ == DESCRIBED_FILES)
          {
            g_string_append_printf (out, ", and %u more", files->len - DESCRIBED_FILES);
            pass = 2;
            break;
          }
        if (n > 1)
          g_string_append (out, ", ");
        append_data (out, file->path, words);
        g_string_append_printf (out, " (%" G_GUINT64_FORMAT " bytes, %s)", file->size,
                                file->copied ? "copied" : "listed only");
      }
  g_ptr_array_add (lines, g_string_free (out, FALSE));
}

static void
describe_pastes (const Session *session, SessionWords words, GPtrArray *lines)
{
  g_autoptr (GPtrArray) pastes = session_get_pastes (session);
  g_autoptr (GPtrArray) phrases = pastes->len > 0 ? session_get_phrases (session) : NULL;

  for (guint i = 0; i < pastes->len; i++)
    {
      const SessionPaste *paste = g_ptr_array_index (pastes, i);
      g_autofree char *text = session_paste_text (paste, 0);
      g_autofree char *summary = text == NULL ? session_paste_summary (paste) : NULL;
      gboolean drop = g_str_equal (paste->selection, "XdndSelection");
      guint step = paste->after_action != G_MAXUINT ? step_of (phrases, paste->after_action) : 0;
      GString *out;

      /* TARGETS alone is no paste, only the app looking. */
      if (!session_paste_has_data (paste))
        continue;
      out = g_string_new (drop ? "Dropped: " : "Pasted: ");
      if (text != NULL)
        append_data (out, text, words);
      else
        append_text (out, summary, words);
      if (!drop)
        g_string_append_printf (out, " (from %s)", paste->selection);
      if (step > 0)
        g_string_append_printf (out, " at step %u", step);
      else
        g_string_append (out, " as the app started");
      g_ptr_array_add (lines, g_string_free (out, FALSE));
    }
}

GPtrArray *
session_describe_world (const Session *session, SessionWords words)
{
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);

  describe_where (session, words, lines);
  if (session_get_env (session)[0] != NULL)
    {
      GString *out = g_string_new ("Environment:");

      for (const char *const *e = session_get_env (session); *e != NULL; e++)
        {
          const char *eq = strchr (*e, '=');

          g_string_append_printf (out, " %.*s=", (int) (eq - *e), *e);
          append_data (out, eq + 1, words);
        }
      g_ptr_array_add (lines, g_string_free (out, FALSE));
    }
  describe_files (session, words, lines);
  describe_pastes (session, words, lines);
  return lines;
}

/* ---- what a replay cannot give ---- */

/* The selections the app got data from (a SelectionNotify an owner sent,
 * with a property) that no Selection line holds: recorded with
 * --no-selections or by an xrecord of version 1. The lines come when the
 * app asks, its SelectionNotify when the owner has answered: after the
 * next action, maybe (a key's release), so a selection with lines covers
 * the notifies that follow them. */
static void
missing_pastes (const Session *session, GPtrArray *said)
{
  guint action = 0, n = 0;
  g_autoptr (GHashTable) recorded = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GHashTable) counted = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree char *first = NULL;

  for (guint i = 0; i < session_get_n_events (session); i++)
    {
      const SessionEvent *ev = session_get_event (session, i);

      if (session_event_is_action (ev))
        {
          action++;
          g_hash_table_remove_all (counted);
        }
      else if (ev->kind == SESSION_EVENT_SELECTION)
        {
          if (ev->type != NULL)
            g_hash_table_add (recorded, g_strdup (ev->selection));
          else if (n++ == 0)
            first = g_strdup_printf ("%s after action %u", ev->selection, action);
        }
      else if (ev->kind == SESSION_EVENT_SERVER && g_strcmp0 (ev->name, "SelectionNotify") == 0
               && ev->args != NULL && strstr (ev->args, "sent=1") != NULL
               && strstr (ev->args, "property=None") == NULL)
        {
          g_autofree char *selection = NULL;
          const char *s = strstr (ev->args, "selection=");

          if (s == NULL)
            continue;
          selection = g_strndup (s + 10, strcspn (s + 10, " "));
          if (!session_selection_name_check (selection)
              || g_hash_table_contains (recorded, selection)
              || g_hash_table_contains (counted, selection))
            continue;
          /* Said once per selection and action. */
          g_hash_table_add (counted, g_strdup (selection));
          if (n++ == 0)
            first = g_strdup_printf ("%s after action %u", selection, action);
        }
    }
  if (n > 0)
    g_ptr_array_add (said, g_strdup_printf ("%u paste%s whose data the session does not hold "
                                            "(the first: %s; recorded with --no-selections, "
                                            "over %u MiB, or by an older xrecord)", n,
                                            n == 1 ? "" : "s", first,
                                            SESSION_MAX_SELECTION_BYTES / (1024 * 1024)));
}

/* Whether @path holds @file's bytes: its size, and its checksum. */
static gboolean
same_bytes (const SessionEvent *file, const char *path, gboolean *differs)
{
  g_autoptr (GChecksum) sum = NULL;
  g_autoptr (GMappedFile) mapped = NULL;
  GStatBuf st;

  *differs = FALSE;
  if (g_stat (path, &st) != 0 || !S_ISREG (st.st_mode))
    return FALSE;
  if ((guint64) st.st_size != file->size)
    return (*differs = TRUE, FALSE);
  mapped = g_mapped_file_new (path, FALSE, NULL);
  if (mapped == NULL)
    return FALSE;
  sum = g_checksum_new (G_CHECKSUM_SHA256);
  g_checksum_update (sum, (const guchar *) g_mapped_file_get_contents (mapped),
                     (gssize) g_mapped_file_get_length (mapped));
  if (strcmp (g_checksum_get_string (sum), file->sha256) != 0)
    return (*differs = TRUE, FALSE);
  return TRUE;
}

/* Whether @dir holds a copy of @file (named by its checksum). */
static gboolean
copy_there (const SessionEvent *file, const char *dir, gboolean *differs)
{
  g_autofree char *path = g_build_filename (dir, file->sha256, NULL);

  return same_bytes (file, path, differs);
}

/* Whether @file, read under ~ when recorded, is in @home_dir as it was.
 * (The parser takes no path with a . or .. part: ~/ stays in @home_dir.) */
static gboolean
in_home (const SessionEvent *file, const char *home_dir)
{
  g_autofree char *path = NULL;
  gboolean differs;

  if (home_dir == NULL || !g_str_has_prefix (file->path, "~/") || file->sha256 == NULL)
    return FALSE;
  path = g_build_filename (home_dir, file->path + 2, NULL);
  return same_bytes (file, path, &differs);
}

static void
missing_files (const Session *session, const char *files_dir, const char *home_dir,
               GPtrArray *said)
{
  g_autoptr (GPtrArray) files = session_get_files (session);
  g_autoptr (GString) listed = g_string_new (NULL);
  guint n_listed = 0, n_gone = 0, n_differ = 0, n_missing = 0;

  for (guint i = 0; i < files->len; i++)
    {
      const SessionEvent *file = g_ptr_array_index (files, i);
      gboolean differs = FALSE;
      g_autofree char *shown = NULL;

      if (file->copied && files_dir != NULL && copy_there (file, files_dir, &differs))
        continue;
      if (in_home (file, home_dir))
        continue;
      n_missing++;
      if (!file->copied)
        n_listed++;
      else if (differs)
        n_differ++;
      else
        n_gone++;
      if (n_missing > 5)
        continue;
      shown = quote_terminal (file->path);
      g_string_append_printf (listed, "%s%s", listed->len > 0 ? ", " : "", shown);
    }
  if (n_missing == 0)
    return;
  if (n_missing > 5)
    g_string_append_printf (listed, " and %u more", n_missing - 5);
  g_ptr_array_add (said, g_strdup_printf (
    "%u file%s the app read %s not in the replay's sandbox: %s (%s%s%s)", n_missing,
    n_missing == 1 ? "" : "s", n_missing == 1 ? "is" : "are", listed->str,
    n_listed > 0 ? "recorded without --with-files, which copies them" : "",
    n_gone > 0 ? (n_listed > 0 ? "; copies missing from the files folder"
                                : "their copies are missing from the files folder") : "",
    n_differ > 0 ? (n_listed + n_gone > 0 ? "; copies that differ"
                                           : "their copies in the files folder differ") : ""));
}

GPtrArray *
session_world_missing (const Session *session, const char *files_dir, const char *home_dir,
                       gboolean wm_used)
{
  GPtrArray *said = g_ptr_array_new_with_free_func (g_free);

  missing_pastes (session, said);
  missing_files (session, files_dir, home_dir, said);
  for (const char *const *e = session_get_env (session); *e != NULL; e++)
    {
      const char *eq = strchr (*e, '=');
      g_autofree char *name = g_strndup (*e, (gsize) (eq - *e));
      g_autofree char *value = session_env_replay_value (name, eq + 1);

      if (g_strcmp0 (value, eq + 1) != 0)
        {
          g_autofree char *shown = quote_terminal (*e);
          g_ptr_array_add (said, g_strdup_printf ("%s was recorded; the replay on X sets %s%s",
                                                  shown, value != NULL ? name : "it",
                                                  value != NULL ? "" : " not"));
          if (value != NULL)
            {
              char *last = g_ptr_array_index (said, said->len - 1);
              g_ptr_array_index (said, said->len - 1) = g_strdup_printf ("%s=%s", last, value);
              g_free (last);
            }
        }
    }
  if (session->wm != NULL && !wm_used)
    {
      g_autofree char *shown = quote_terminal (session->wm);
      g_ptr_array_add (said, g_strdup_printf ("it was recorded under the window manager "
                                              "\"%s\", and the replays ran without one "
                                              "(--wm runs one)", shown));
    }
  return said;
}

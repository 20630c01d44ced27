/* unwind.c — a stopped thread's stack, with libdwfl (see unwind.h).
 *
 * The modules come from /proc/PID/maps (dwfl_linux_proc_report), the
 * registers and memory from ptrace, which we already hold
 * (dwfl_linux_proc_attach's assume_ptrace_stopped); each frame's pc is
 * looked up in its module: the DWARF scopes around it give the function
 * and the functions inlined into it, the line table the file and line.
 */
#define G_LOG_DOMAIN "xreduce-crashtrace"

#include "unwind.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>

/* libstdc++'s demangler (linked: C++ apps' frames read as gdb shows them). */
extern char *__cxa_demangle (const char *mangled, char *buf, size_t *len, int *status);

#define UNWIND_ERROR (unwind_error_quark ())
GQuark unwind_error_quark (void);
G_DEFINE_QUARK (xreduce-unwind-error-quark, unwind_error)

static char *no_debuginfo_path;

static const Dwfl_Callbacks callbacks = {
  .find_elf = dwfl_linux_proc_find_elf,
  .find_debuginfo = dwfl_standard_find_debuginfo,
  .debuginfo_path = &no_debuginfo_path,
};

void
unwind_frame_clear (UnwindFrame *frame)
{
  g_clear_pointer (&frame->function, g_free);
  g_clear_pointer (&frame->at, g_free);
}

/* "ns::Foo::bar(int) const" -> "ns::Foo::bar": the name as a backtrace's
 * reader looks for it (gdb prints the arguments' values there). */
static char *
without_parameters (const char *name)
{
  int angle = 0;

  for (const char *p = name; *p != '\0'; p++)
    {
      if (g_str_has_prefix (p, "(anonymous namespace)"))
        {
          p += strlen ("(anonymous namespace)") - 1;
          continue;
        }
      if (*p == '<')
        angle++;
      else if (*p == '>' && angle > 0)
        angle--;
      else if (*p == '(' && angle == 0 && p != name)
        return g_strndup (name, (gsize) (p - name));
    }
  return g_strdup (name);
}

static char *
demangled (const char *versioned)
{
  g_autofree char *name = NULL;
  int status = -1;
  char *plain;
  char *out;

  if (versioned == NULL)
    return NULL;
  /* "__libc_start_main@@GLIBC_2.34": the name without its version;
   * "worker_crash.constprop.0", "f.isra.0", "g.part.1", "h.cold": the
   * function a compiler's copy is of. */
  name = g_strndup (versioned, strcspn (versioned, "@"));
  for (char *dot = strchr (name, '.'); dot != NULL; dot = strchr (dot + 1, '.'))
    if (g_str_has_prefix (dot, ".constprop") || g_str_has_prefix (dot, ".isra")
        || g_str_has_prefix (dot, ".part") || g_str_has_prefix (dot, ".cold")
        || g_str_has_prefix (dot, ".lto_priv"))
      {
        *dot = '\0';
        break;
      }
  if (!g_str_has_prefix (name, "_Z"))
    return g_steal_pointer (&name);
  plain = __cxa_demangle (name, NULL, NULL, &status);
  if (plain == NULL || status != 0)
    {
      free (plain);
      return g_strdup (name);
    }
  out = without_parameters (plain);
  free (plain);
  return out;
}

/* A function's name from its DIE (or the DIE it was inlined from):
 * the linkage name demangled, else its name. */
static char *
die_function_name (Dwarf_Die *die)
{
  Dwarf_Attribute attr;
  const char *name = NULL;

  if (dwarf_attr_integrate (die, DW_AT_linkage_name, &attr) != NULL
      || dwarf_attr_integrate (die, DW_AT_MIPS_linkage_name, &attr) != NULL)
    name = dwarf_formstring (&attr);
  if (name != NULL)
    return demangled (name);
  name = dwarf_diename (die);
  if (name == NULL && dwarf_attr_integrate (die, DW_AT_name, &attr) != NULL)
    name = dwarf_formstring (&attr);
  return name != NULL ? g_strdup (name) : NULL;
}

/* "dir/xdemo.c", 209 -> "xdemo.c:209": no folder of the machine that
 * built it (a report says no local paths). */
static char *
place (const char *file, int line)
{
  const char *slash = file != NULL ? strrchr (file, '/') : NULL;

  if (file == NULL || line <= 0)
    return NULL;
  return g_strdup_printf ("%s:%d", slash != NULL ? slash + 1 : file, line);
}

static void
add_frame (GArray *frames, char *function, char *at, gboolean signal_frame)
{
  UnwindFrame frame = { .function = function != NULL ? function : g_strdup ("??"),
                        .at = at != NULL ? at : g_strdup (""),
                        .signal_frame = signal_frame };

  g_array_append_val (frames, frame);
}

typedef struct
{
  GArray *frames;
  guint max;
} Walk;

/* The frames one pc stands for: the functions inlined at it, innermost
 * first, then the function they are in. */
static void
frames_at_pc (Dwfl_Module *mod, Dwarf_Addr pc, GArray *frames, guint max)
{
  const char *module_path = NULL;
  g_autofree char *library = NULL;
  g_autofree char *symbol = NULL;
  GElf_Off offset = 0;
  GElf_Sym sym;
  Dwfl_Line *line;
  const char *file = NULL;
  int lineno = 0;
  Dwarf_Addr bias = 0;
  Dwarf_Die *cudie;
  guint before = frames->len;

  if (mod == NULL)
    {
      add_frame (frames, NULL, NULL, FALSE);
      return;
    }
  dwfl_module_info (mod, NULL, NULL, NULL, NULL, NULL, &module_path, NULL);
  if (module_path != NULL)
    {
      /* "libgobject-2.0.so.0.7400.6" -> "libgobject-2.0.so.0", the name
       * it is known by (its soname), as gdb says it. */
      char *so;

      library = g_path_get_basename (module_path);
      so = strstr (library, ".so.");
      if (so != NULL)
        so[4 + strspn (so + 4, "0123456789")] = '\0';
    }
  symbol = demangled (dwfl_module_addrinfo (mod, pc, &offset, &sym, NULL, NULL, NULL));
  line = dwfl_module_getsrc (mod, pc);
  if (line != NULL)
    file = dwfl_lineinfo (line, NULL, &lineno, NULL, NULL, NULL);

  cudie = dwfl_module_addrdie (mod, pc, &bias);
  if (cudie != NULL)
    {
      Dwarf_Die *scopes = NULL;
      Dwarf_Die innermost;
      int n = dwarf_getscopes (cudie, pc - bias, &scopes);
      Dwarf_Files *files = NULL;
      size_t n_files = 0;

      /* dwarf_getscopes() follows an inlined function to where it is
       * defined; the scopes it sits in, the function it was inlined into
       * among them, are dwarf_getscopes_die()'s (as eu-addr2line -i). */
      Dwarf_Addr dwarf_bias;
      Dwarf *dwarf = dwfl_module_getdwarf (mod, &dwarf_bias);

      if (n > 0 && dwarf != NULL
          && dwarf_offdie (dwarf, dwarf_dieoffset (&scopes[0]), &innermost) != NULL)
        {
          free (scopes);
          scopes = NULL;
          n = dwarf_getscopes_die (&innermost, &scopes);
        }
      dwarf_getsrcfiles (cudie, &files, &n_files);
      for (int i = 0; i < n && frames->len < max; i++)
        {
          int tag = dwarf_tag (&scopes[i]);
          Dwarf_Attribute attr;
          Dwarf_Word call_file = 0, call_line = 0;

          if (tag != DW_TAG_subprogram && tag != DW_TAG_inlined_subroutine)
            continue;
          char *function = die_function_name (&scopes[i]);

          if (function == NULL)
            function = g_strdup (symbol);
          add_frame (frames, function,
                     file != NULL ? place (file, lineno) : g_strdup (library), FALSE);
          if (tag == DW_TAG_subprogram)
            break;
          /* Inlined: the place it was called from is the next frame's. */
          file = NULL;
          lineno = 0;
          if (dwarf_formudata (dwarf_attr (&scopes[i], DW_AT_call_file, &attr), &call_file) == 0
              && dwarf_formudata (dwarf_attr (&scopes[i], DW_AT_call_line, &attr), &call_line) == 0
              && files != NULL && call_file < n_files)
            {
              file = dwarf_filesrc (files, call_file, NULL, NULL);
              lineno = (int) call_line;
            }
        }
      free (scopes);
    }
  if (frames->len == before)
    add_frame (frames, g_strdup (symbol),
               file != NULL ? place (file, lineno) : g_strdup (library), FALSE);
  if (symbol != NULL && (g_str_equal (symbol, "__restore_rt")
                         || g_str_equal (symbol, "__kernel_rt_sigreturn")))
    g_array_index (frames, UnwindFrame, before).signal_frame = TRUE;
}

static int
on_frame (Dwfl_Frame *state, void *data)
{
  Walk *walk = data;
  Dwfl *dwfl = dwfl_thread_dwfl (dwfl_frame_thread (state));
  Dwarf_Addr pc;
  bool activation = false;

  if (!dwfl_frame_pc (state, &pc, &activation))
    return DWARF_CB_ABORT;
  /* A return address is after the call: the call is the frame's place. */
  if (!activation && pc > 0)
    pc--;
  frames_at_pc (dwfl_addrmodule (dwfl, pc), pc, walk->frames, walk->max);
  /* What called main (the C library's start) is no frame of the app's,
   * as gdb stops there. */
  if (walk->frames->len > 0
      && g_str_equal (g_array_index (walk->frames, UnwindFrame, walk->frames->len - 1).function,
                      "main"))
    return DWARF_CB_ABORT;
  return walk->frames->len >= walk->max ? DWARF_CB_ABORT : DWARF_CB_OK;
}

GArray *
unwind_thread (pid_t pid, pid_t tid, guint max, GError **error)
{
  g_autoptr (GArray) frames = g_array_new (FALSE, TRUE, sizeof (UnwindFrame));
  Dwfl *dwfl = dwfl_begin (&callbacks);
  Walk walk = { frames, MAX (max, 1) };
  int err;

  g_array_set_clear_func (frames, (GDestroyNotify) unwind_frame_clear);
  if (dwfl == NULL)
    {
      g_set_error (error, UNWIND_ERROR, 0, "libdwfl: %s", dwfl_errmsg (-1));
      return NULL;
    }
  dwfl_report_begin (dwfl);
  err = dwfl_linux_proc_report (dwfl, pid);
  dwfl_report_end (dwfl, NULL, NULL);
  if (err != 0)
    {
      g_set_error (error, UNWIND_ERROR, 0,
                   "cannot read the crashed process's memory map (/proc/%d/maps): %s",
                   (int) pid, err > 0 ? g_strerror (err) : dwfl_errmsg (-1));
      dwfl_end (dwfl);
      return NULL;
    }
  err = dwfl_linux_proc_attach (dwfl, pid, true);
  if (err != 0)
    {
      g_set_error (error, UNWIND_ERROR, 0, "libdwfl cannot read process %d: %s",
                   (int) pid, err > 0 ? g_strerror (err) : dwfl_errmsg (-1));
      dwfl_end (dwfl);
      return NULL;
    }
  /* Its end (an outermost frame, or one it cannot unwind past) is not an
   * error: the frames up to it are the backtrace. */
  dwfl_getthread_frames (dwfl, tid, on_frame, &walk);
  dwfl_end (dwfl);
  if (frames->len == 0)
    {
      g_set_error (error, UNWIND_ERROR, 0,
                   "libdwfl could not unwind thread %d: %s (a process that made itself "
                   "undumpable cannot be read)", (int) tid, dwfl_errmsg (-1));
      return NULL;
    }
  return g_steal_pointer (&frames);
}

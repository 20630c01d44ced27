#!/bin/sh
# check-install.sh BUILD_ROOT: what `meson install` puts in place, in a
# temporary DESTDIR: the three programs and their --version, the helper and
# the demo in libexecdir, a man page for each (man -l renders it), bash
# completion that completes `xreduce --sa` to --same-crash, the LICENSE,
# the README and the documents it links to; xrecord --all's systemd user
# unit and XDG autostart entry, valid (systemd-analyze verify,
# desktop-file-validate), pointing at the installed xrecord, and off.
# TAP, one line a check.
set -eu
build=$1
dest=$(mktemp -d "${TMPDIR:-/tmp}/xreduce-install-XXXXXX")
trap 'rm -rf "$dest"' EXIT INT TERM
n=0
fails=0
check () {
  n=$((n + 1))
  if "$@"; then echo "ok $n $*"; else echo "not ok $n $*"; fails=$((fails + 1)); fi
}

meson install -C "$build" --destdir "$dest" --no-rebuild >/dev/null
prefix=$(meson introspect "$build" --buildoptions \
  | python3 -c 'import json,sys; print([o["value"] for o in json.load(sys.stdin) if o["name"]=="prefix"][0])')
libexecdir=$(meson introspect "$build" --buildoptions \
  | python3 -c 'import json,sys; print([o["value"] for o in json.load(sys.stdin) if o["name"]=="libexecdir"][0])')
root=$dest$prefix
man=$(meson introspect "$build" --buildoptions \
  | python3 -c 'import json,sys; print([o["value"] for o in json.load(sys.stdin) if o["name"]=="man"][0])')
sysconfdir=$(meson introspect "$build" --buildoptions \
  | python3 -c 'import json,sys; print([o["value"] for o in json.load(sys.stdin) if o["name"]=="sysconfdir"][0])')
version=$(meson introspect "$build" --projectinfo \
  | python3 -c 'import json,sys; print(json.load(sys.stdin)["version"])')

echo "1..25"
for p in xrecord xreplay xreduce; do
  check test "$("$root/bin/$p" --version)" = "$p $version"
done
check test -x "$root/$libexecdir/xreduce/xreduce-crashtrace"
check test ! -e "$root/bin/xreduce-crashtrace"
check test -x "$root/$libexecdir/xreduce/xdemo"
check test -f "$root/share/xreduce/demo.session"
check grep -q "MIT License" "$root/share/doc/xreduce/LICENSE"
# The man pages are built unless the build says -Dman=disabled: then,
# and only then, they are not looked for.
if [ "$man" != disabled ]; then
  for page in man1/xrecord.1 man1/xreplay.1 man1/xreduce.1 man5/xreduce-session.5; do
    name=$(basename "$page" | sed 's/\.[0-9]$//')
    check sh -c "MANWIDTH=80 man -l '$root/share/man/$page' 2>/dev/null | grep -q '^NAME' && MANWIDTH=80 man -l '$root/share/man/$page' 2>/dev/null | grep -q '$name'"
  done
else
  for i in 1 2 3 4; do n=$((n + 1)); echo "ok $n # SKIP built with -Dman=disabled"; done
fi
# The README and the documents it links to, where its links find them.
check test -f "$root/share/doc/xreduce/README.md"
check test -f "$root/share/doc/xreduce/docs/guide.md"
check test -f "$root/share/doc/xreduce/docs/design/search.md"
check test -f "$root/share/doc/xreduce/docs/replay.gif"
# xrecord --all with the desktop: installed, not enabled. The unit runs
# the installed xrecord; the autostart entry is Hidden (off) until the
# user turns it on. Both pass their validators: systemd-analyze verify
# (on a copy whose ExecStart is the DESTDIR's xrecord, with the DESTDIR's
# man pages; a user manager needs XDG_RUNTIME_DIR), desktop-file-validate
# (desktop-file-utils: scripts/bootstrap.sh --tests). Any warning fails.
unit=$dest$prefix/lib/systemd/user/xrecord-all.service
case $sysconfdir in /*) autostart=$dest$sysconfdir ;; *) autostart=$root/$sysconfdir ;; esac
autostart=$autostart/xdg/autostart/xrecord-all.desktop
check test -f "$unit"
check grep -qxF "ExecStart=$prefix/bin/xrecord --all -d \${DISPLAY}" "$unit"
check test -f "$autostart"
check grep -qx 'Hidden=true' "$autostart"
check grep -qxF "Exec=$prefix/bin/xrecord --all" "$autostart"
verify_unit () {
  run=$(mktemp -d "${TMPDIR:-/tmp}/xreduce-verify-XXXXXX")
  sed "s|^ExecStart=$prefix/bin/xrecord|ExecStart=$root/bin/xrecord|" "$unit" > "$run/xrecord-all.service"
  out=$(XDG_RUNTIME_DIR=$run MANPATH=$root/share/man:$(manpath 2>/dev/null) \
        systemd-analyze verify --user --man="$([ "$man" != disabled ] && echo yes || echo no)" \
        "$run/xrecord-all.service" 2>&1)
  status=$?
  rm -rf "$run"
  [ -z "$out" ] && [ "$status" -eq 0 ] || { echo "# $out"; return 1; }
}
check verify_unit
validate_desktop () {
  out=$(desktop-file-validate "$autostart" 2>&1)
  [ $? -eq 0 ] && [ -z "$out" ] || { echo "# $out"; return 1; }
}
check validate_desktop
# bash-completion is a build dependency (scripts/bootstrap.sh): where it is
# missing, this fails rather than passes unseen.
if check test -f /usr/share/bash-completion/bash_completion; then
  completed=$(PATH="$root/bin:$PATH" bash -c '
    . /usr/share/bash-completion/bash_completion
    . "$1"
    COMP_WORDS=(xreduce --sa); COMP_CWORD=1; COMP_LINE="xreduce --sa"; COMP_POINT=${#COMP_LINE}
    _xreduce_tools xreduce --sa xreduce
    echo "${COMPREPLY[*]}"' sh "$root/share/bash-completion/completions/xreduce")
  check test "$completed" = "--same-crash"
fi
[ "$fails" -eq 0 ]

#!/bin/sh
# bootstrap.sh [--tests]: what a fresh Debian 12 machine needs, installed
# with apt-get (only what is missing), then xreduce configured and built
# into build/ (or $XREDUCE_BUILD). Safe to run again: it only does what is
# missing.
#
#   scripts/bootstrap.sh           building xreduce (man pages included) and
#                                  reducing the bundled demo
#   scripts/bootstrap.sh --tests   and what only the tests need: the window
#                                  managers they record under, the toolkits
#                                  of their apps, a one-node Slurm and an
#                                  sshd for the launcher tests, xdotool...
#
# No daemon is started or enabled on this machine: apt-get runs with a
# policy-rc.d that forbids starting services, and whatever service the
# install enabled (Debian's openssh-server enables sshd on port 22,
# munge munged, slurmctld and slurmd theirs) is disabled again. The tests
# start daemons of their own, on free ports, in temporary folders.
set -eu
cd "$(dirname "$0")/.."
build=${XREDUCE_BUILD:-build}

tests=no
for arg in "$@"; do
  case $arg in
    --tests) tests=yes ;;
    -h|--help) sed -n '2,18s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) echo "bootstrap: unknown option '$arg' (--tests, --help)" >&2; exit 2 ;;
  esac
done

# Building xreduce and its man pages, and reducing the demo. One package a
# line, with what needs it.
build_packages="
meson ninja-build pkg-config gcc g++ libc6-dev
libglib2.0-dev libjson-glib-dev
libx11-dev libxtst-dev libxres-dev libxkbcommon-dev
libpng-dev libcairo2-dev libpango1.0-dev libfontconfig-dev libgif-dev
libxaw7-dev
scdoc
bash-completion
xvfb
dbus-daemon
bubblewrap
libdw-dev
fonts-dejavu-core
"
# (libxaw7-dev: the toolkit tests' Athena app, built with the rest;
# bash-completion: where the completions go; xvfb, dbus-daemon, bubblewrap:
# every replay; libdw-dev and g++ (its libstdc++.so, for
# __cxa_demangle): the report's backtrace, unwound by xreduce-crashtrace; fonts-dejavu-core: its
# captions.)

# Only the tests. A test that needs a package: add it here, one a line.
test_packages="
xdotool
xserver-xephyr
x11-utils
xterm
openbox
i3-wm
twm
fluxbox icewm xfwm4 metacity
x11-xkb-utils
tk
python3-gi gir1.2-gtk-3.0
python3-pyqt5
xclip
man-db
desktop-file-utils
munge slurmctld slurmd slurm-client
openssh-server openssh-client
"
# (xdotool: the tests' user and the exported scripts; xserver-xephyr:
# xrecord's nested server; x11-utils: xprop; xterm, openbox, i3-wm, twm:
# the desktops the toolkit and pace tests record on; fluxbox, icewm,
# xfwm4, metacity: the --wm and client-side decoration tests' window
# managers (xfwm4's and metacity's compositors); x11-xkb-utils: setxkbmap,
# the keymap test's German layout; tk, python3-gi,
# gir1.2-gtk-3.0, python3-pyqt5: their Tk, GTK 3 and Qt 5 apps; xclip:
# pasting from another app; man-db: the man pages rendered;
# desktop-file-utils: the autostart entry validated (check-install); munge,
# slurm*, openssh-*: the launcher tests' one-node Slurm and sshd.)

packages=$build_packages
[ "$tests" = no ] || packages="$packages $test_packages"

missing=""
for p in $packages; do
  status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
  [ "$status" = installed ] || missing="$missing $p"
done

# The service links that make a daemon start at boot, one a line.
service_links () {
  find /etc/systemd/system -path '*.wants/*' -type l 2>/dev/null
  find /etc/rc2.d /etc/rc3.d /etc/rc4.d /etc/rc5.d -name 'S*' -type l 2>/dev/null
}

if [ -n "$missing" ]; then
  echo "bootstrap: installing$missing" >&2
  if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
  before=$(mktemp "${TMPDIR:-/tmp}/bootstrap-XXXXXX")
  policy=""
  # invoke-rc.d and deb-systemd-invoke ask policy-rc.d before starting a
  # service: 101 is "not allowed". One already there (a container's) stays.
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    policy=/usr/sbin/policy-rc.d
    trap '$sudo rm -f "$policy"; rm -f "$before"' EXIT
    trap 'exit 130' INT TERM HUP
    printf '#!/bin/sh\n# scripts/bootstrap.sh of xreduce, while apt-get runs\nexit 101\n' \
      | $sudo tee "$policy" >/dev/null
    $sudo chmod 755 "$policy"
  else
    trap 'rm -f "$before"' EXIT
  fi
  service_links | sort > "$before"
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  # shellcheck disable=SC2086
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
  # What the install enabled, disabled again (systemd's links, and the
  # start links of sysvinit).
  service_links | sort | comm -13 "$before" - | while read -r link; do
    name=$(basename "$link")
    case $link in
      /etc/systemd/*) $sudo deb-systemd-helper disable "$name" >/dev/null 2>&1 || $sudo rm -f "$link" ;;
      *) name=${name#S[0-9][0-9]}; $sudo update-rc.d "$name" disable >/dev/null 2>&1 || $sudo rm -f "$link" ;;
    esac
    echo "bootstrap: disabled $name (the tests start their own)" >&2
  done
  if [ -n "$policy" ]; then $sudo rm -f "$policy"; fi
fi

if [ ! -f "$build/build.ninja" ]; then
  meson setup "$build" >/dev/null
elif [ -n "$missing" ]; then
  # What meson found at set-up may have changed.
  meson setup --reconfigure "$build" >/dev/null
fi
ninja -C "$build" --quiet

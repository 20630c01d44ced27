#!/bin/sh
# Everything a fresh Debian 12 machine needs to build and test xreduce
# (the toolkit tests' runtimes too: Tk, GTK 3 and Qt 5 for Debian's
# python3, the Athena widgets; the window managers the desktop tests record
# under: openbox, i3, twm; a one-node Slurm and an sshd for the launcher
# tests: munge, slurmctld, slurmd, slurm-client, openssh-server; the tests
# start daemons of their own, but on a machine with systemd Debian's
# packages start theirs: sshd on port 22, munged; slurmctld and slurmd
# fail without a configuration):
# installs the missing packages with apt-get, configures and builds into
# build/ (or $XREDUCE_BUILD). Safe to run again: it only does what is missing.
set -eu
cd "$(dirname "$0")/.."
build=${XREDUCE_BUILD:-build}

packages="meson ninja-build pkg-config gcc g++ libc6-dev libglib2.0-dev \
libx11-dev libxtst-dev libxres-dev libxkbcommon-dev libpng-dev \
libcairo2-dev libpango1.0-dev libfontconfig-dev fonts-dejavu-core libgif-dev \
libjson-glib-dev xvfb xserver-xephyr xdotool x11-xkb-utils x11-utils xauth libdw-dev \
dbus-daemon xterm bubblewrap openbox i3-wm twm \
tk python3-gi gir1.2-gtk-3.0 python3-pyqt5 libxaw7-dev \
munge slurmctld slurmd slurm-client openssh-server"

missing=""
for p in $packages; do
  status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
  [ "$status" = installed ] || missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "bootstrap: installing$missing" >&2
  if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  # shellcheck disable=SC2086
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

if [ ! -f "$build/build.ninja" ]; then
  meson setup "$build" >/dev/null
fi
ninja -C "$build" --quiet

# xvfb.sh — sourced by the scripts under tests/ and bench/: one way to start
# a private Xvfb and wait until it is ready (it writes its display number
# on -displayfd; no fixed number, no sleep).
#
#   . scripts/xvfb.sh
#   xvfb_start DIR [WxH]   # DIR: a private temporary folder of the script's
#   ... "$DISPLAY" is set, "$xvfb_pid" is the server's ...
#   xvfb_stop              # (call it from the script's EXIT trap)
#
# On failure it prints the server's own messages and exits 3.

xvfb_start () {
  _xvfb_dir=$1
  mkfifo "$_xvfb_dir/displayfd"
  Xvfb -displayfd 3 -screen 0 "${2:-1280x1024}x24" -nolisten tcp -noreset \
    3>"$_xvfb_dir/displayfd" >"$_xvfb_dir/xvfb.log" 2>&1 &
  xvfb_pid=$!
  display_number=
  read -r display_number <"$_xvfb_dir/displayfd" || true
  if [ -z "$display_number" ]; then
    echo "$0: Xvfb did not start:" >&2
    cat "$_xvfb_dir/xvfb.log" >&2
    exit 3
  fi
  DISPLAY=:$display_number
  export DISPLAY
}

xvfb_stop () {
  if [ -n "${xvfb_pid:-}" ]; then
    kill "$xvfb_pid" 2>/dev/null && wait "$xvfb_pid" 2>/dev/null
    xvfb_pid=
  fi
  return 0
}

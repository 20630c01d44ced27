# xrecord.sh — sourced, after xvfb.sh, by the scripts under tests/ and
# bench/ that record: one way to start xrecord on $DISPLAY in the
# background, wait until it records (its "xrecord: recording ..." line on
# stderr, through a fifo: no sleep), and end it.
#
#   . scripts/xvfb.sh; . scripts/xrecord.sh
#   xrecord_start DIR XRECORD OUT APP [ARGS...]
#       ... "$xrecord_pid" is xrecord's; its stderr goes to DIR/xrecord.err,
#       the app's stdout to DIR/app.out ...
#   xrecord_start_argv DIR XRECORD ARGS...   # the same, xrecord's own
#       arguments given whole (xrecord --all --save-dir D)
#   xrecord_wait [SECONDS]   # the app ended the recording (SIGTERM after
#                            # SECONDS, default 10: status 143); returns
#                            # xrecord's status
#   xrecord_stop             # SIGTERM now (xrecord writes what it has),
#                            # then as xrecord_wait
#   xrecord_kill             # from the script's EXIT trap
#   xrecord_workdir          # $tmp: a new temporary folder, and the EXIT
#                            # trap that ends xrecord and Xvfb (xvfb.sh)
#                            # and removes it; INT and TERM exit 130
#   xrecord_xterm_start XRECORD  # the recorded terminal of the scripts
#                            # that type into one: a private Xvfb, xterm
#                            # running bash --norc recorded into
#                            # $tmp/out.session; $wid is its window
#   xrecord_xterm_finish OUT COMMENT...  # waits for the recording's end,
#                            # writes OUT: the COMMENT lines as "# ", then
#                            # the log; says how many actions; succeeds if
#                            # the xterm crashed with SIGSEGV
#
# If xrecord does not start, it prints xrecord's messages and exits 3.

xrecord_start () {
  _xr_dir=$1 _xr_bin=$2 _xr_out=$3
  shift 3
  xrecord_start_argv "$_xr_dir" "$_xr_bin" -o "$_xr_out" --display "$DISPLAY" -- "$@"
}

xrecord_start_argv () {
  _xr_dir=$1 _xr_bin=$2
  shift 2
  mkfifo "$_xr_dir/xrecord.fifo"
  "$_xr_bin" "$@" >"$_xr_dir/app.out" 2>"$_xr_dir/xrecord.fifo" &
  xrecord_pid=$!
  exec 4<"$_xr_dir/xrecord.fifo"
  while read -r _xr_line <&4; do
    echo "$_xr_line" >>"$_xr_dir/xrecord.err"
    case $_xr_line in "xrecord: recording "*) break ;; esac
  done
  if ! grep -q "^xrecord: recording " "$_xr_dir/xrecord.err" 2>/dev/null; then
    echo "$0: xrecord did not start:" >&2
    cat "$_xr_dir/xrecord.err" >&2 2>/dev/null
    exit 3
  fi
  cat <&4 >>"$_xr_dir/xrecord.err" &   # keeps xrecord's stderr drained
  _xr_drain=$!
}

xrecord_wait () {
  if ! timeout "${1:-10}" tail --pid="$xrecord_pid" -f /dev/null; then
    echo "$0: the app did not end; stopping the recording" >&2
    kill -TERM "$xrecord_pid"
  fi
  wait "$xrecord_pid"
  _xr_status=$?
  xrecord_pid=
  wait "$_xr_drain"
  return "$_xr_status"
}

xrecord_stop () {
  kill -TERM "$xrecord_pid"
  xrecord_wait 10
  # 143: ended by our SIGTERM, the log complete.
  _xr_status=$?
  [ "$_xr_status" -eq 143 ] && return 0
  return "$_xr_status"
}

xrecord_kill () {
  if [ -n "${xrecord_pid:-}" ]; then
    kill -KILL "$xrecord_pid" 2>/dev/null
    xrecord_pid=
  fi
  return 0
}

xrecord_workdir () {
  tmp=$(mktemp -d)
  trap _xr_cleanup EXIT
  trap 'exit 130' INT TERM
}

xrecord_xterm_start () {
  for _xr_tool in Xvfb xdotool xterm bash timeout; do
    command -v "$_xr_tool" >/dev/null || { echo "$0: needs $_xr_tool" >&2; exit 2; }
  done
  xvfb_start "$tmp"
  # The pointer away from where the window comes.
  xdotool mousemove 900 700
  HOME=$tmp xrecord_start "$tmp" "$1" "$tmp/out.session" \
    xterm -geometry 80x24+10+10 -e bash --norc --noprofile
  wid=$(timeout 10 xdotool search --sync --onlyvisible --class xterm | head -n 1)
  [ -n "$wid" ] || { echo "$0: no xterm window" >&2; exit 3; }
}

xrecord_xterm_finish () {
  _xr_to=$1
  shift
  xrecord_wait 10
  _xr_status=$?
  {
    for _xr_line in "$@"; do echo "# $_xr_line"; done
    cat "$tmp/out.session"
  } >"$_xr_to"
  _xr_n=$(grep -c -E '^[0-9]+ (KeyPress|KeyRelease|ButtonPress|ButtonRelease|MotionNotify) ' \
          "$_xr_to")
  echo "$0: $_xr_n actions recorded, $(tail -n 1 "$_xr_to") -> $_xr_to"
  [ "$_xr_status" -eq 0 ] && tail -n 1 "$_xr_to" | grep -q "^outcome crashed SIGSEGV"
}

_xr_cleanup () {
  xrecord_kill
  xvfb_stop
  rm -rf "$tmp"
}

#!/bin/bash
# check-man.sh BUILD_ROOT: the man pages say what the programs say. For
# each of xrecord, xreplay and xreduce, its page (the scdoc source as
# built, docs/PROG.1.scd in the build folder) has an entry for every
# option of `PROG --help-all` and none that the program lacks; every
# default --help-all gives, "(default X" or "(default: X", is the page's
# default for that option; the exit statuses of the page are those of
# --help's "Exit status:"; and the page's EXAMPLES, rendered by man,
# show every line of their blocks as a line of its own (not filled into
# a paragraph). TAP.
set -u
build=$1
export LC_ALL=C.UTF-8
n=0
fails=0
ok () { n=$((n + 1)); echo "ok $n $*"; }
not_ok () { n=$((n + 1)); echo "not ok $n $*"; fails=$((fails + 1)); }
diag () { sed 's/^/# /'; }

declare -A path=([xrecord]=recorder/xrecord [xreplay]=replayer/xreplay [xreduce]=reducer/xreduce)

# An awk function: the defaults a description gives, the word after
# "(default" or "(default:", with scdoc's marks (* _ \) taken out,
# sorted, space-separated.
awk_defaults='
  function defaults(text,    out, k, i, j, t, w, list) {
    gsub(/[*_\\]/, "", text)
    k = 0
    while (match(text, /\(default:? [^ ;,:)]+/)) {
      w = substr(text, RSTART, RLENGTH); sub(/^\(default:? /, "", w)
      list[++k] = w
      text = substr(text, RSTART + RLENGTH)
    }
    for (i = 2; i <= k; i++)
      for (j = i; j > 1 && list[j - 1] > list[j]; j--) { t = list[j]; list[j] = list[j - 1]; list[j - 1] = t }
    out = ""
    for (i = 1; i <= k; i++) if (i == 1 || list[i] != list[i - 1]) out = out list[i] " "
    return out
  }'

# "NAME<TAB>DEFAULTS" for each option name of a --help text (long and
# short, --help's own left out), from its description's wrapped lines.
help_options () {
  awk "$awk_defaults"'
    function flush() {
      if (opts != "") {
        d = defaults(desc)
        k = split(opts, names, /[, ]+/)
        for (n = 1; n <= k; n++) {
          name = names[n]; sub(/=.*/, "", name)
          if (name ~ /^-/ && name !~ /^--help/ && name != "-h" && name != "-?")
            print name "\t" d
        }
      }
      opts = ""; desc = ""
    }
    /^  -/ {
      flush()
      line = $0; sub(/^ +/, "", line)
      if (match(line, /   */)) { opts = substr(line, 1, RSTART - 1); desc = substr(line, RSTART + RLENGTH) }
      else { opts = line; desc = "" }
      next
    }
    /^          *[^ ]/ && opts != "" { d = $0; sub(/^ +/, "", d); desc = desc " " d; next }
    { flush() }
    END { flush() }'
}

# The same from an scdoc page's entries: a line that starts with an option
# in bold ("*--pace*=...", "*-o*, *--output*=_OUT_"), its description the
# tab-indented lines after it.
man_options () {
  awk "$awk_defaults"'
    function flush() {
      if (head != "") {
        rest = head
        d = defaults(desc)   # (its match() moves RSTART and RLENGTH)
        while (match(rest, /\*--?[A-Za-z0-9][A-Za-z0-9-]*\*/)) {
          print substr(rest, RSTART + 1, RLENGTH - 2) "\t" d
          rest = substr(rest, RSTART + RLENGTH)
        }
      }
      head = ""; desc = ""
    }
    /^\*-/ { flush(); head = $0; next }
    /^\t/ && head != "" { d = $0; sub(/^\t+/, "", d); desc = desc " " d; next }
    { flush() }
    END { flush() }'
}

# The codes of --help's "Exit status:" section ("  0  ...", "  128+N  ...").
help_codes () {
  sed -n '/^Exit status:/,/^$/p' | grep -oE '^  [0-9]+(\+N)? ' | tr -d ' ' | sort | tr '\n' ' '
}
# The codes of a page's EXIT STATUS section ("*0*", "*128+N*").
man_codes () {
  sed -n '/^# EXIT STATUS/,/^# /p' | grep -oE '^\*[0-9]+(\+N)?\*$' | tr -d '*' | sort | tr '\n' ' '
}

for p in xrecord xreplay xreduce; do
  exe=$build/${path[$p]}
  scd=$build/docs/$p.1.scd
  page=$build/docs/$p.1
  if [ ! -f "$scd" ] || [ ! -f "$page" ]; then
    not_ok "$p: no man page in $build/docs (scdoc, -Dman=enabled)"
    continue
  fi
  help=$("$exe" --help-all)
  declare -A in_help=() in_man=() help_desc=() man_desc=()
  while IFS=$'\t' read -r name desc; do in_help[$name]=1; help_desc[$name]=$desc; done \
    < <(help_options <<< "$help")
  while IFS=$'\t' read -r name desc; do in_man[$name]=1; man_desc[$name]=$desc; done \
    < <(man_options < "$scd")
  [ "${#in_help[@]}" -gt 5 ] && ok "$p: --help-all lists ${#in_help[@]} options" \
    || not_ok "$p: --help-all lists ${#in_help[@]} options"

  missing=""; stale=""; differ=""
  for name in $(printf '%s\n' "${!in_help[@]}" | sort); do
    if [ -z "${in_man[$name]:-}" ]; then missing="$missing $name"; continue; fi
    want=${help_desc[$name]}
    have=${man_desc[$name]}
    [ "$want" = "$have" ] || differ="$differ $name (--help: ${want:-none}; man: ${have:-none})"
  done
  for name in $(printf '%s\n' "${!in_man[@]}" | sort); do
    [ -n "${in_help[$name]:-}" ] || stale="$stale $name"
  done
  [ -z "$missing" ] && ok "$p(1) has every option of $p --help-all" \
    || not_ok "$p(1) lacks options of $p --help-all:$missing"
  [ -z "$stale" ] && ok "$p(1) has no option $p lacks" \
    || not_ok "$p(1) has options $p does not take:$stale"
  [ -z "$differ" ] && ok "$p(1) gives the defaults $p --help-all gives" \
    || not_ok "$p(1) and $p --help-all differ in defaults:$differ"

  want=$(help_codes <<< "$help")
  have=$(man_codes < "$scd")
  [ -n "$want" ] && [ "$want" = "$have" ] && ok "$p(1) exit statuses: $have" \
    || not_ok "$p(1) exit statuses: '$have', --help: '$want'"

  # Every line of an EXAMPLES block is a line of the rendered page.
  rendered=$(MANWIDTH=1000 man -E ascii -l "$page" 2>/dev/null | sed -n '/^EXAMPLES/,/^[A-Z]/p')
  lines=$(sed -n '/^# EXAMPLES/,/^# /p' "$scd" | awk '/^```/ { on = !on; next } on')
  joined=0
  declare -A shown=()
  while IFS= read -r line; do [ -z "$line" ] || shown[$line]=1; done < <(sed 's/^ *//' <<< "$rendered")
  while IFS= read -r line; do
    [ -n "$line" ] || continue
    [ -n "${shown[$line]:-}" ] || { joined=$((joined + 1)); echo "$line" | diag; }
  done <<< "$lines"
  [ -n "$lines" ] && [ "$joined" -eq 0 ] && ok "$p(1) EXAMPLES: $(wc -l <<< "$lines") lines, each its own" \
    || not_ok "$p(1) EXAMPLES: $joined lines not rendered as lines (or none)"
  unset in_help in_man help_desc man_desc shown
done
echo "1..$n"
[ "$fails" -eq 0 ]

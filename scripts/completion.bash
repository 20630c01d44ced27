# bash completion for xrecord, xreplay and xreduce (installed once under
# each name, in bash-completion's completions folder).
#
# The options are the program's own, read from its --help (so they are
# never out of date); an option's argument and the session are files;
# after "--", the app's command line is completed as a command's.
_xreduce_tools ()
{
    local cur prev words cword
    _init_completion || return

    local i
    for ((i = 1; i < cword; i++)); do
        if [[ ${words[i]} == -- ]]; then
            _command_offset $((i + 1))
            return
        fi
    done

    case $prev in
        --pace) COMPREPLY=($(compgen -W 'app recorded' -- "$cur")); return ;;
        --algorithm) COMPREPLY=($(compgen -W 'hdd ddmin' -- "$cur")); return ;;
        --export) COMPREPLY=($(compgen -W 'xdotool json' -- "$cur")); return ;;
        --report | --home | -o | --output) _filedir; return ;;
        -d | --display) COMPREPLY=($(compgen -W ':0 :1' -- "$cur")); return ;;
    esac

    if [[ $cur == -* ]]; then
        local opts
        # The option tables' lines only, not the examples under them.
        opts=$("$1" --help-all 2>/dev/null \
            | grep -oE -- '^ +(-[a-zA-Z], )?--[a-z][a-z-]*' | grep -oE -- '--[a-z-]+')
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
        return
    fi
    _filedir
}
complete -F _xreduce_tools xrecord xreplay xreduce

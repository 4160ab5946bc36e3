# Shared by the fake CLIs: reads --fake-mode=M and --fake-log=F from the
# arguments, records the command line in F (one line per run, arguments
# separated by a unit separator), and acts out the modes every fake has.
mode=ok log=/dev/null
for a in "$@"; do
  case "$a" in
    --fake-mode=*) mode=${a#--fake-mode=} ;;
    --fake-log=*) log=${a#--fake-log=} ;;
  esac
done
pids=$log.pids
[ "$log" = /dev/null ] && pids=/dev/null
if [ "${1:-}" = "--version" ]; then echo "$fake_version"; exit 0; fi
# The process group a run of a fake leads, for tests that check it ends whole.
[ "$pids" != /dev/null ] && echo "group $$" >> "$pids"
{ printf '%s' "$fake_name"; for a in "$@"; do printf '\037%s' "${a//$'\n'/\\n}"; done; printf '\n'; } >> "$log"
case "$mode" in
  hang) # never exits, and leaves a child of its own running
    sleep 3600 & echo $! >> "$pids"; sleep 3600 ;;
  flood) # prints 100 MB
    head -c 104857600 /dev/zero | tr '\0' 'x'; exit 0 ;;
  stdin) # reads standard input to its end, as claude -p does, then answers
    cat > /dev/null ;;
  permission) # asks on its terminal and waits for the answer
    if { exec 3<>/dev/tty; } 2>/dev/null; then
      echo "Allow Bash(rm -rf build)? [y/N]" >&3; read -r _ <&3
    else
      echo "Allow Bash(rm -rf build)? [y/N] (waiting for an answer)" >&2
      sleep 3600 & echo $! >> "$pids"; wait
    fi ;;
esac
prompt=""
for a in "$@"; do prompt=$a; done

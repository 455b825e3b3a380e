/**
 * The POSIX sh guard every owned stdio child runs under (`sh -c GUARD owlclaw-upstream cmd args...`).
 * It leads the child's process group (setsid), so a signal to it, or the
 * parent-death signal when the gateway dies, takes the whole group down:
 * TERM, up to 2 s for the command to go, then KILL. When the command exits on
 * its own, whatever it left in the group is KILLed at once (the guard with it),
 * so no grandchild keeps the stdout pipe open: that is how the gateway sees the
 * exit. The command's status, when not 0, goes to stderr first.
 * The command gets the guard's stdin through fd 3: dash gives an async list
 * /dev/null before its own redirections run, so `<&0` alone would read /dev/null.
 */
export const CHILD_GUARD_SCRIPT = `alive() {
  IFS= read -r l 2>/dev/null < "/proc/$1/stat" || return 1
  set -- \${l##*) }
  [ "$1" != Z ]
}
stop() {
  trap '' TERM INT HUP
  kill -TERM 0 2>/dev/null
  i=0
  while [ "$i" -lt 20 ] && alive "$child"; do sleep 0.1; i=$((i + 1)); done
  kill -KILL 0
}
trap stop TERM INT HUP
exec 3<&0
"$@" <&3 3<&- &
child=$!
exec 3<&-
wait "$child"
status=$?
trap '' TERM INT HUP
[ "$status" -eq 0 ] || echo "owlclaw-upstream: command exited with status $status" >&2
kill -KILL 0`;

/** \`$0\` of the guard, which is what \`ps\` shows for it. */
export const CHILD_GUARD_NAME = 'owlclaw-upstream';

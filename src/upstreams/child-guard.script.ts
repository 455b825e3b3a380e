/**
 * The POSIX sh guard every owned stdio child runs under (`sh -c GUARD owlclaw-upstream cmd args...`).
 * It leads the child's process group (setsid), so a signal to it, or the
 * parent-death signal when the gateway dies, takes the whole group down:
 * TERM, up to 2 s for it to go, then KILL. When the command exits on its own,
 * what it left in the group gets TERM and at most 1 s before KILL, so no
 * grandchild keeps the stdout pipe open (that is how the gateway sees the exit).
 * It reads /proc to wait only while something is left, and reaps what it
 * started, so a normal exit leaves no zombie for PID 1 to collect.
 * The command gets the guard's stdin through fd 3: dash gives an async list
 * /dev/null before its own redirections run, so `<&0` alone would read /dev/null.
 */
export const CHILD_GUARD_SCRIPT = `others() {
  for f in /proc/[0-9]*/stat; do
    [ "$f" = "/proc/$$/stat" ] && continue
    IFS= read -r l 2>/dev/null < "$f" || continue
    set -- \${l##*) }
    [ "$3" = "$$" ] && [ "$1" != Z ] && return 0
  done
  return 1
}
finish() {
  trap '' TERM INT HUP
  kill -TERM 0 2>/dev/null
  i=0
  while [ "$i" -lt "$2" ] && others; do sleep 0.1; i=$((i + 1)); done
  others && kill -KILL 0
  wait
  exit "$1"
}
trap 'finish 143 20' TERM INT HUP
exec 3<&0
"$@" <&3 3<&- &
child=$!
exec 3<&-
wait "$child"
finish "$?" 10`;

/** \`$0\` of the guard, which is what \`ps\` shows for it. */
export const CHILD_GUARD_NAME = 'owlclaw-upstream';

#!/usr/bin/env bash
# One integration case of shmpirun, run by ctest: run_case.sh CASE
# Needs SHMPIRUN (the launcher) and TEST_RANK (test_rank.cpp) in the environment.
# Every case checks the exit code and the exact message, then (check_clean)
# that the session directory is gone, no rank survives, and no PMIx file was
# left in /tmp or /dev/shm.
set -u
CASE=$1
: "${SHMPIRUN:?}" "${TEST_RANK:?}"
W=$(mktemp -d /tmp/shmpirun-test.XXXXXX)
export TMPDIR=$W/tmp TEST_PID_DIR=$W/pids
mkdir -p "$TMPDIR" "$TEST_PID_DIR"
NPROC=$(nproc)
ulimit -c 0
pmix_files() { ls -a /tmp /dev/shm 2>/dev/null | grep -i pmix | sort; }
pmix_files > "$W/before"
BG=

cleanup() {
  [ -n "$BG" ] && kill -KILL "$BG" 2>/dev/null
  for f in "$TEST_PID_DIR"/rank.*; do [ -f "$f" ] && kill -KILL "$(cat "$f")" 2>/dev/null; done
  rm -rf "$W"
}
trap cleanup EXIT

fail() {
  echo "FAIL [$CASE]: $*"
  echo "--- stdout"; cat "$W/out" 2>/dev/null
  echo "--- stderr"; cat "$W/err" 2>/dev/null
  exit 1
}

# over N: --oversubscribe when N ranks exceed the CPUs
over() { [ "$1" -gt "$NPROC" ] && echo --oversubscribe; }

run() { timeout -s KILL 40 "$SHMPIRUN" "$@" >"$W/out" 2>"$W/err"; RC=$?; }
start_bg() { "$SHMPIRUN" "$@" >"$W/out" 2>"$W/err" & BG=$!; }
wait_bg() { wait "$BG"; RC=$?; BG=; }
poll() {  # poll COMMAND...: true once COMMAND succeeds; gives up only near ctest's 60 s limit, to say what is missing
  for _ in $(seq 2000); do "$@" && return 0; sleep 0.025; done
  return 1
}
ranks_started() { [ "$(ls "$TEST_PID_DIR" | wc -l)" -ge "$1" ]; }
wait_ranks() { poll ranks_started "$1" || fail "ranks did not start"; }  # wait_ranks N
wait_for_text() { poll grep -qF -- "$2" "$1" || fail "no '$2' in $1"; }  # wait_for_text FILE TEXT
pid_of() { cat "$TEST_PID_DIR/rank.$1"; }
state_of() { sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -c1; }  # R, S, T, ...
in_state() { local s; s=$(state_of "$1"); [ "$s" = "$2" ] || { [ "$2" = S ] && [ "$s" = R ]; }; }
wait_state() {  # wait_state PID STATE: until the process is in STATE (S also accepts R)
  poll in_state "$1" "$2" || fail "process $1 is in state $(state_of "$1"), expected $2"
}

expect_rc() { [ "$RC" -eq "$1" ] || fail "exit code $RC, expected $1"; }
expect_err_line() { grep -qxF -- "$1" "$W/err" || fail "missing stderr line: $1"; }
expect_err_regex() { grep -qxE -- "$1" "$W/err" || fail "no stderr line matching: $1"; }
expect_out_line() { grep -qxF -- "$1" "$W/out" || fail "missing stdout line: $1"; }
expect_lines() {  # expect_lines FILE COUNT
  local n; n=$(wc -l <"$1"); [ "$n" -eq "$2" ] || fail "$(basename "$1"): $n lines, expected $2"
}
# A bad input: exit 2, exactly one stderr line, nothing started.
expect_usage_error() {
  expect_rc 2
  expect_lines "$W/err" 1
  grep -qxF -- "$1" "$W/err" || fail "expected exactly: $1"
  [ -s "$W/out" ] && fail "stdout not empty"
  [ -z "$(ls "$TEST_PID_DIR")" ] || fail "a rank was started"
}

check_clean() {
  [ -z "$(ls -A "$TMPDIR")" ] || fail "left in TMPDIR: $(ls -A "$TMPDIR")"
  for f in "$TEST_PID_DIR"/rank.*; do
    [ -f "$f" ] || continue
    kill -0 "$(cat "$f")" 2>/dev/null && fail "rank pid $(cat "$f") still exists"
  done
  pmix_files > "$W/after"
  [ -z "$(comm -13 "$W/before" "$W/after")" ] || fail "PMIx files left: $(comm -13 "$W/before" "$W/after")"
}

hello_case() {  # hello_case N: every line of every rank, whole
  local n=$1 lines=20
  run -n "$n" $(over "$n") "$TEST_RANK" hello $lines
  expect_rc 0
  expect_lines "$W/out" $((n * lines))
  expect_lines "$W/err" $((n * lines))
  for r in $(seq 0 $((n - 1))); do
    for i in 0 $((lines - 1)); do
      expect_out_line "hello from rank $r of $n line $i"
      expect_err_line "stderr from rank $r line $i"
    done
  done
  grep -vxE "hello from rank [0-9]+ of $n line [0-9]+" "$W/out" && fail "torn stdout line"
  grep -vxE "stderr from rank [0-9]+ line [0-9]+" "$W/err" && fail "torn stderr line"
}

case "$CASE" in
  hello-1) hello_case 1 ;;
  hello-2) hello_case 2 ;;
  hello-4) hello_case 4 ;;
  hello-8) hello_case 8 ;;
  whole-lines)
    run -n 4 $(over 4) "$TEST_RANK" pieces
    expect_rc 0
    expect_lines "$W/out" $((4 * 51))
    grep -vxE "rank [0-3] piece-a piece-b [0-9]+|tail of rank [0-3]" "$W/out" && fail "torn line"
    expect_out_line "tail of rank 3" ;;
  exit-code)
    run -n 2 "$TEST_RANK" exit 3 1
    expect_rc 3
    expect_lines "$W/err" 1
    expect_err_line "shmpirun: rank 1 (pid $(pid_of 1)) exited with status 3; stopping the job" ;;
  exit-single)
    run -n 1 "$TEST_RANK" exit 7
    expect_rc 7
    expect_err_line "shmpirun: rank 0 (pid $(pid_of 0)) exited with status 7" ;;
  no-finalize)
    run -n 2 "$TEST_RANK" nofinalize
    expect_rc 1
    expect_err_line "shmpirun: rank 0 (pid $(pid_of 0)) exited with status 0 without calling MPI_Finalize; stopping the job" ;;
  segv)
    run -n 2 "$TEST_RANK" segv 1
    expect_rc 139
    expect_lines "$W/err" 1
    expect_err_regex "shmpirun: rank 1 \(pid $(pid_of 1)\) killed by signal 11 \(Segmentation fault\)(, core dumped)?; stopping the job" ;;
  killed-outside)
    start_bg -n 2 "$TEST_RANK" sleep
    wait_ranks 2
    kill -KILL "$(pid_of 0)"
    wait_bg
    expect_rc 137
    expect_err_line "shmpirun: rank 0 (pid $(pid_of 0)) killed by signal 9 (Killed); stopping the job" ;;
  abort)
    run -n 2 "$TEST_RANK" abort 5 1
    expect_rc 5
    expect_lines "$W/err" 1
    expect_err_line "shmpirun: rank 1 (pid $(pid_of 1)) called MPI_Abort with status 5: test abort message; stopping the job" ;;
  timeout-deadlock)
    run -n 2 --timeout 1 "$TEST_RANK" ring-deadlock
    expect_rc 124
    expect_err_line "shmpirun: timeout after 1 s; stopping the job"
    expect_err_regex " +rank +pid +state +call +peer +tag +bytes +ctx +blocked_s +reqs"
    expect_err_regex " +0 +$(pid_of 0) +blocked +MPI_Recv +1 +7 +8 +0 +[0-9.]+ +0"
    expect_err_regex " +1 +$(pid_of 1) +blocked +MPI_Recv +0 +8 +8 +0 +[0-9.]+ +0"
    expect_err_line "deadlock: rank 0 waits in MPI_Recv for rank 1 (tag 7); rank 1 waits in MPI_Recv for rank 0 (tag 8)" ;;
  timeout-cycle3)
    run -n 3 $(over 3) --timeout 1 "$TEST_RANK" ring-deadlock
    expect_rc 124
    expect_err_line "deadlock: rank 0 waits in MPI_Recv for rank 1 (tag 7); rank 1 waits in MPI_Recv for rank 2 (tag 8); rank 2 waits in MPI_Recv for rank 0 (tag 9)" ;;
  sigquit-report)
    start_bg -n 2 "$TEST_RANK" wait-file "$W/go"
    wait_ranks 2
    kill -QUIT "$BG"
    wait_for_text "$W/err" "deadlock: no wait-for cycle among the ranks"
    kill -0 "$BG" || fail "the job did not continue"
    touch "$W/go"
    wait_bg
    expect_rc 0
    expect_err_line "shmpirun: hang report for 2 ranks" ;;
  sigint)
    start_bg -n 2 "$TEST_RANK" sigint
    wait_ranks 2
    kill -INT "$BG"
    wait_bg
    expect_rc 130
    expect_err_line "shmpirun: received SIGINT; forwarding it to the ranks and stopping the job (Ctrl-C again kills them at once)"
    expect_lines "$W/out" 2
    expect_out_line "got SIGINT" ;;
  sigtstp)  # Ctrl-Z stops the ranks with shmpirun; SIGCONT resumes them all and the job ends normally
    start_bg -n 2 "$TEST_RANK" wait-file "$W/go"
    wait_ranks 2
    kill -TSTP "$BG"
    wait_state "$BG" T; wait_state "$(pid_of 0)" T; wait_state "$(pid_of 1)" T
    kill -CONT "$BG"
    wait_state "$(pid_of 0)" S; wait_state "$(pid_of 1)" S
    touch "$W/go"
    wait_bg
    expect_rc 0
    [ -s "$W/err" ] && fail "stderr not empty"
    true ;;
  kill-grace)
    start_bg -n 2 --kill-grace 0.3 "$TEST_RANK" ignore-term
    wait_ranks 2
    wait_for_text "$W/out" "ready"
    kill -TERM "$BG"
    wait_bg  # the ranks ignore SIGTERM: only the SIGKILL after the grace ends the job
    expect_rc 143 ;;
  sigint-twice)
    start_bg -n 2 --kill-grace 3600 "$TEST_RANK" ignore-term
    wait_ranks 2
    wait_for_text "$W/out" "ready"
    kill -INT "$BG"
    wait_for_text "$W/err" "received SIGINT"
    kill -0 "$BG" || fail "stopped before the grace period"
    kill -INT "$BG"
    wait_bg  # within the grace of an hour: only the second SIGINT can have ended it
    expect_rc 130 ;;
  stdin)
    printf 'alpha\nbeta\n' | timeout -s KILL 40 "$SHMPIRUN" -n 2 "$TEST_RANK" cat >"$W/out" 2>"$W/err"
    RC=$?
    expect_rc 0
    expect_lines "$W/out" 2
    expect_out_line "rank 0 read alpha"
    expect_out_line "rank 0 read beta" ;;
  non-mpi)
    run -n 2 "$TEST_RANK" noinit
    expect_rc 0
    run -n 2 "$TEST_RANK" noinit 4
    expect_rc 4
    run -n 2 true
    expect_rc 0 ;;
  tag-output)
    run -n 2 --tag-output "$TEST_RANK" hello 1
    expect_rc 0
    expect_out_line "[1,0]<stdout>:hello from rank 0 of 2 line 0"
    expect_out_line "[1,1]<stdout>:hello from rank 1 of 2 line 0"
    expect_err_line "[1,1]<stderr>:stderr from rank 1 line 0" ;;
  timestamp-output)
    run -n 2 --timestamp-output --tag-output "$TEST_RANK" hello 1
    expect_rc 0
    grep -qxE "[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3} \[1,1\]<stdout>:hello from rank 1 of 2 line 0" "$W/out" \
      || fail "no timestamped line" ;;
  output-filename)
    run -n 2 --output-filename "$W/o" "$TEST_RANK" hello 3
    expect_rc 0
    [ -s "$W/out" ] && fail "output went to the terminal"
    expect_lines "$W/o/1/rank.1/stdout" 3
    expect_lines "$W/o/1/rank.0/stderr" 3
    grep -qxF "hello from rank 1 of 2 line 2" "$W/o/1/rank.1/stdout" || fail "rank 1 stdout file" ;;
  export-env)
    FOO=outer run -n 2 -x FOO=bar -x HOME "$TEST_RANK" env FOO HOME
    expect_rc 0
    expect_out_line "rank 1 FOO=bar"
    expect_out_line "rank 0 HOME=$HOME" ;;
  set-tunable)
    run -n 1 --set eager_limit=8k "$TEST_RANK" env SHMPI_EAGER_LIMIT SHMPI_SESSION_DIR SHMPI_STATUS_FD PMIX_MCA_gds
    expect_rc 0
    expect_out_line "rank 0 SHMPI_EAGER_LIMIT=8k"
    grep -qxE "rank 0 SHMPI_SESSION_DIR=$TMPDIR/shmpi-[0-9]+-.{6}" "$W/out" || fail "session dir"
    grep -qxE "rank 0 SHMPI_STATUS_FD=[0-9]+" "$W/out" || fail "status fd"
    expect_out_line "rank 0 PMIX_MCA_gds=hash" ;;
  oversubscribe)
    n=$((NPROC + 1))
    run -n $n --oversubscribe "$TEST_RANK" env SHMPI_WAIT_POLICY
    expect_rc 0
    expect_out_line "rank $((n - 1)) SHMPI_WAIT_POLICY=yield"
    SHMPI_WAIT_POLICY=spin run -n $n --oversubscribe "$TEST_RANK" env SHMPI_WAIT_POLICY
    expect_out_line "rank 0 SHMPI_WAIT_POLICY=spin" ;;
  report-bindings)
    run -n 2 --report-bindings "$TEST_RANK" affinity
    expect_rc 0
    for r in 0 1; do
      expect_err_regex "\[[^]]+:[0-9]+\] MCW rank $r (bound to CPU [0-9]+ \(NUMA node [0-9]+\): \[[./B]+\]|is not bound \(or bound to all available processors\))"
    done ;;
  two-jobs-distinct-cores)
    "$SHMPIRUN" -n 1 --report-bindings "$TEST_RANK" affinity "$W/go" >"$W/out1" 2>"$W/err1" & J1=$!
    "$SHMPIRUN" -n 1 --report-bindings "$TEST_RANK" affinity "$W/go" >"$W/out2" 2>"$W/err2" & J2=$!
    wait_for_text "$W/out1" "cpus"; wait_for_text "$W/out2" "cpus"
    touch "$W/go"; wait $J1; wait $J2
    c1=$(grep -o "bound to CPU [0-9]*" "$W/err1"); c2=$(grep -o "bound to CPU [0-9]*" "$W/err2")
    [ -n "$c1" ] && [ "$c1" = "$c2" ] && fail "both jobs $c1"
    true ;;
  bad-no-program) run -n 2; expect_usage_error "shmpirun: no program to run (usage: shmpirun -n N program [args...])" ;;
  bad-not-found) run -n 2 no-such-program-xyz; expect_usage_error "shmpirun: no-such-program-xyz: command not found" ;;
  bad-not-executable)
    touch "$W/notexec"; chmod 644 "$W/notexec"
    run -n 2 "$W/notexec"; expect_usage_error "shmpirun: $W/notexec: not an executable file" ;;
  bad-zero-ranks) run -n 0 "$TEST_RANK" hello; expect_usage_error "shmpirun: -n needs a positive number of ranks, not '0'" ;;
  bad-negative-ranks) run -np -1 "$TEST_RANK" hello; expect_usage_error "shmpirun: -np needs a positive number of ranks, not '-1'" ;;
  bad-ranks-over-limit) run -n 65536 "$TEST_RANK" hello; expect_usage_error "shmpirun: -n 65536: shmpi runs at most 65535 ranks" ;;
  bad-missing-value) run -n; expect_usage_error "shmpirun: option -n needs a value" ;;
  bad-unknown-flag) run --frobnicate -n 2 "$TEST_RANK" hello; expect_usage_error "shmpirun: unknown option '--frobnicate' (see shmpirun --help)" ;;
  bad-tunable-name) run --set foo=1 -n 2 "$TEST_RANK" hello; expect_usage_error "shmpirun: unknown tunable 'foo' in --set (shmpi_info lists them)" ;;
  bad-tunable-value) run --set eager_limit=12x -n 2 "$TEST_RANK" hello; expect_usage_error "shmpirun: --set eager_limit=12x: not a byte count (e.g. 4096, 64k, 1M)" ;;
  bad-env-tunable)
    SHMPI_WAIT_POLICY=bogus run -n 2 "$TEST_RANK" hello
    expect_usage_error "shmpirun: environment SHMPI_WAIT_POLICY: wait_policy=bogus: must be one of auto|spin|yield" ;;
  bad-output-dir)
    run -n 2 --output-filename /dev/null/x "$TEST_RANK" hello
    expect_usage_error "shmpirun: --output-filename /dev/null/x: cannot create /dev/null/x/1/rank.0: Not a directory" ;;
  bad-too-many-ranks)
    run -n $((NPROC + 1)) "$TEST_RANK" hello
    expect_usage_error "shmpirun: $((NPROC + 1)) ranks but only $NPROC CPUs are available; add --oversubscribe to run more ranks than CPUs" ;;
  bad-exec-format)
    printf 'not a program\n' > "$W/garbage"; chmod +x "$W/garbage"
    run -n 2 "$W/garbage"
    expect_usage_error "shmpirun: $W/garbage: cannot execute: not a binary nor a script with a #! line" ;;
  launcher-killed)  # SIGKILL on shmpirun: ranks die with it, the next run removes its session dir
    start_bg -n 2 "$TEST_RANK" sleep
    wait_ranks 2
    kill -KILL "$BG"; wait "$BG" 2>/dev/null; BG=
    for _ in $(seq 200); do
      kill -0 "$(pid_of 0)" 2>/dev/null || kill -0 "$(pid_of 1)" 2>/dev/null || break
      sleep 0.01
    done
    [ -n "$(ls -A "$TMPDIR")" ] || fail "expected the killed job's session dir"
    run -n 1 true
    expect_rc 0 ;;
  finalize-stall)  # PMIx_server_finalize blocks (a libpmix deadlock, forced): bounded, clean exit
    SHMPIRUN_TEST_STALL_FINALIZE=1 run -n 2 "$TEST_RANK" exit 4 1
    expect_rc 4  # an unbounded stall would be killed by run's 40 s timeout (rc 137)
    expect_lines "$W/err" 1 ;;
  bind-numa)
    run -n 2 --bind-to numa --map-by numa --report-bindings "$TEST_RANK" affinity
    expect_rc 0
    expect_err_regex "\[[^]]+:[0-9]+\] MCW rank 1 (bound to CPUs? [-0-9,]+ \(NUMA node [0-9]+\): \[[./B]+\]|is not bound.*)" ;;
  version-help)
    run --version; expect_rc 0; grep -q "^shmpirun (shmpi) " "$W/out" || fail "version"
    run --help; expect_rc 0; grep -q "^usage: shmpirun" "$W/out" || fail "help" ;;
  *) fail "unknown case" ;;
esac
check_clean
echo "PASS [$CASE]"

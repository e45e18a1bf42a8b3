# Integration cases for communicators, collectives, datatypes, error
# handlers and the environment calls (included from CMakeLists.txt, which
# defines shmpi_case and SHMPI_RUN).
foreach(program coll_ops coll_pairs comm_ops handle_reuse type_contiguous env_thread env_misuse errors_fatal errors_return)
  add_executable(${program} ${program}.c)
  target_link_libraries(${program} PRIVATE shmpi)
  target_compile_options(${program} PRIVATE -Wall -Wextra $<$<BOOL:${SHMPI_WERROR}>:-Werror>)
endforeach()
target_link_libraries(env_thread PRIVATE Threads::Threads)

# Programs that print "<name>: rank R OK" on every rank, at several sizes
# (3 and 6 are not powers of two: the allreduce folds ranks first).
function(shmpi_ok_cases program timeout)
  foreach(n ${ARGN})
    set(flags)
    if(n GREATER 2)
      set(flags --oversubscribe)
    endif()
    shmpi_case(${program}.np${n} TIMEOUT ${timeout} ARGS
      --count "^${program}: rank [0-9]+ OK" ${n} --no-match "FAIL" --
      ${SHMPI_RUN} -n ${n} ${flags} $<TARGET_FILE:${program}>)
  endforeach()
endfunction()

shmpi_ok_cases(coll_ops 120 1 2 3 4 6 8)
shmpi_ok_cases(coll_pairs 60 1 2 3 5)
shmpi_ok_cases(comm_ops 60 1 2 3 4)
shmpi_ok_cases(type_contiguous 60 1 2 3)
shmpi_ok_cases(handle_reuse 60 2 3 4)
shmpi_ok_cases(errors_return 60 1 2 3 4)

# Without a launcher: a singleton runs the collectives on one rank.
shmpi_case(coll_ops.singleton ARGS
  --count "^coll_ops: rank 0 OK" 1 --no-match "FAIL" -- $<TARGET_FILE:coll_ops>)

# Thread levels: each is granted as asked, MPI_THREAD_MULTIPLE included.
foreach(level 0 1 2 3)
  set(provided ${level})
  shmpi_case(env_thread.level${level} ARGS
    --count "^env_thread: rank [0-9]+ required ${level} provided ${provided} query ${provided} main 1 worker 0$" 2
    --count "^env_thread: rank [0-9]+ OK$" 2
    --match "^env_thread: library 'shmpi 0\\.1\\.0 " --no-match "FAIL" --
    ${SHMPI_RUN} -n 2 $<TARGET_FILE:env_thread> ${level})
endforeach()

# Calls outside MPI_Init..MPI_Finalize stop the job with one clear line.
shmpi_case(env_misuse.before ARGS
  --rc-nonzero --match "^shmpi: MPI_Comm_size: called before MPI_Init$" --no-match "still running" --
  ${SHMPI_RUN} -n 2 $<TARGET_FILE:env_misuse> before)
shmpi_case(env_misuse.after ARGS
  --rc-nonzero --match "^shmpi: MPI_Bcast: called after MPI_Finalize$" --no-match "still running" --
  ${SHMPI_RUN} -n 2 $<TARGET_FILE:env_misuse> after)
shmpi_case(env_misuse.twice ARGS
  --rc-nonzero --match "^shmpi: MPI_Init: called twice$" --no-match "still running" --
  ${SHMPI_RUN} -n 2 $<TARGET_FILE:env_misuse> twice)

# The default handler: exactly one "shmpi: rank R: CALL: REASON" line, the
# job stops with a non-zero code, no rank goes on, and what the failing rank
# printed before is not lost.
function(shmpi_fatal_case mode ranks line)
  set(flags)
  if(ranks GREATER 2)
    set(flags --oversubscribe)
  endif()
  shmpi_case(errors_fatal.${mode}.np${ranks} ARGS
    --rc-nonzero --count "^shmpi: rank [0-9]+: " 1 --count "^${line}$" 1
    --count "^errors_fatal: rank [0-9]+ about to fail$" 1 --no-match "survived|finished" --
    ${SHMPI_RUN} -n ${ranks} ${flags} $<TARGET_FILE:errors_fatal> ${mode})
endfunction()
shmpi_fatal_case(rank 2 "shmpi: rank 1: MPI_Send: invalid rank 2 \\(MPI_COMM_WORLD has 2 ranks\\)")
shmpi_fatal_case(rank 3 "shmpi: rank 2: MPI_Send: invalid rank 3 \\(MPI_COMM_WORLD has 3 ranks\\)")
shmpi_fatal_case(dup-rank 2 "shmpi: rank 1: MPI_Send: invalid rank -7 \\(communicator 3 has 2 ranks\\)")
shmpi_fatal_case(root 2 "shmpi: rank 1: MPI_Bcast: invalid root 5 \\(MPI_COMM_WORLD has 2 ranks\\)")
shmpi_fatal_case(op 2 "shmpi: rank 1: MPI_Allreduce: MPI_BAND is not defined for MPI_FLOAT")
shmpi_fatal_case(uncommitted 2 "shmpi: rank 1: MPI_Send: datatype [0-9]+ is not committed \\(call MPI_Type_commit\\)")
shmpi_fatal_case(free-world 2 "shmpi: rank 1: MPI_Comm_free: MPI_COMM_WORLD cannot be freed")

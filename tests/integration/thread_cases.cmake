# Integration cases for MPI_THREAD_MULTIPLE (included from CMakeLists.txt,
# which defines shmpi_case and SHMPI_RUN). Each carries the label
# "threads" besides "integration", so a ThreadSanitizer build can run
# just these.
foreach(program thread_p2p thread_any thread_comm thread_stress thread_finalize thread_wake thread_fair)
  add_executable(${program} ${program}.c)
  target_link_libraries(${program} PRIVATE shmpi Threads::Threads)
  target_compile_options(${program} PRIVATE -Wall -Wextra $<$<BOOL:${SHMPI_WERROR}>:-Werror>)
endforeach()

# shmpi_thread_case(NAME PROGRAM ARGS...): both ranks print "<program>: rank R OK", none FAIL.
# Stand-by threads have no safety timeout: a wake-up missed hangs the case.
function(shmpi_thread_case name program)
  shmpi_case(${name} TIMEOUT 120 LABEL "integration;threads" ARGS
    --count "^${program}: rank [0-9]+ OK$" 2 --no-match "FAIL" --
    ${SHMPI_RUN} -n 2 --set test_stand_by_timeout=off $<TARGET_FILE:${program}> ${ARGN})
endfunction()

# Every size across the protocol boundaries, 4 partner threads per rank,
# and per-thread order of a burst of mixed protocols.
shmpi_thread_case(thread_p2p.4threads thread_p2p 4)
# Wildcard receives beside senders; Mprobe/Mrecv competing for one stream.
shmpi_thread_case(thread_any.np2 thread_any 300 500)
# Comm_dup/free and Request_free from every thread; a cancel by another thread.
shmpi_thread_case(thread_comm.np2 thread_comm 40)
# 100000 random messages over 4 partner-thread pairs.
shmpi_case(thread_stress.100k TIMEOUT 180 LABEL "integration;threads;stress" ARGS
  --match "^thread_stress: seed [0-9]+, 100000 messages, 4 threads per rank$"
  --count "^thread_stress: rank [0-9]+ OK$" 2 --no-match "FAIL" --
  ${SHMPI_RUN} -n 2 $<TARGET_FILE:thread_stress> 100000 4)
shmpi_thread_case(thread_stress.10k thread_stress 10000 4)

# MPI_Finalize with other threads' operations pending: both listed, then the error.
shmpi_case(thread_finalize.pending LABEL "integration;threads" ARGS
  --rc-nonzero --match "^thread_finalize: rank 0 finalizing$"
  --match "^shmpi: rank 0: MPI_Finalize: a thread is blocked in MPI_Ssend \\(peer 1, tag 8, context [0-9]+\\)$"
  --match "^shmpi: rank 0: MPI_Finalize: request [0-9]+ pending: receive from rank 1, tag 7, on MPI_COMM_WORLD$"
  --match "MPI_Finalize: .*2 operation\\(s\\) of other threads still pending \\(listed above\\): not finalizing"
  --no-match "FAIL" --
  ${SHMPI_RUN} -n 2 $<TARGET_FILE:thread_finalize> pending)
# A thread's call racing with MPI_Finalize fails with one line naming it.
shmpi_case(thread_finalize.race LABEL "integration;threads" ARGS
  --rc-nonzero --match "^shmpi: MPI_Comm_size: called after MPI_Finalize" --no-match "FAIL" --
  ${SHMPI_RUN} -n 2 $<TARGET_FILE:thread_finalize> race)

# A thread standing by is woken by another thread's MPI_Pready or
# MPI_Cancel that ends its wait.
foreach(mode pready cancel)
  shmpi_thread_case(thread_wake.${mode} thread_wake ${mode})
endforeach()

# A thread spinning on MPI_Test beside one that ping-pongs: the ping-pong
# still gets its turns (a barging lock must not let the spinner keep it).
shmpi_thread_case(thread_fair.np2 thread_fair 20000)

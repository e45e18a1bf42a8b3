# Integration cases for the run report (runtime/run_report.hpp,
# shmpirun --report): report_traffic sends known traffic and the cases
# assert the reported counts exactly. Every protocol boundary is set
# explicitly, so each size's protocol is certain: S=8 and E=512 bytes are
# eager (the fast box is off, so the ring carries them), P=8192 pipelined,
# R=65536 rendezvous; rank 1 answers each of the N+M+K+L messages, plus
# once before and once after the burst of U, with 0 bytes.
add_executable(report_traffic report_traffic.c)
target_link_libraries(report_traffic PRIVATE shmpi)
target_compile_options(report_traffic PRIVATE -Wall -Wextra $<$<BOOL:${SHMPI_WERROR}>:-Werror>)

set(report_limits --set fast_box=off --set eager_limit=1024 --set max_fragment=4096 --set rndv_threshold=16384
    --set reply_pipeline_limit=0 --set rndv_route=single_copy --set split_threshold=0)
# N=3 M=4 K=5 L=6 U=7: rank 0 sends 3+4+7+1 eager (24+2048+56 B), 5
# pipelined, 6 rendezvous; rank 1 sends 20 eager of 0 bytes.
set(report_pattern $<TARGET_FILE:report_traffic> pattern 3 4 5 6 7 8 512 8192 65536)
set(report_sent "^shmpi stats: sent: box 0 msgs 0 B; eager 35 msgs 2128 B; pipelined 5 msgs 40960 B; rendezvous 6 msgs 393216 B$")
set(report_queue "^shmpi stats: deepest unexpected queue: 7 \\(rank 1\\); time blocked: [0-9.]+ ms in all, most [0-9.]+ ms \\(rank [01]\\)$")
# Rows: rank, box, eager, pipelined, rndv-sent, single-copy, split,
# streamed, sent-msgs, sent-bytes, unexpected-peak, blocked-ms. Rank 0's
# queue: an answer that came before its receive, and rank 1's first report
# gather message beside the last answer.
set(report_rank0 "^shmpi stats: +0 +0 +15 +5 +6 +0 +0 +0 +26 +436304 +[0-2] +[0-9.]+$")

# Read by single copy; asked for with --report stats.
shmpi_case(report.stats_single_copy ARGS
  --count "^report_traffic: rank [0-9]+ OK" 2 --no-match "FAIL"
  --count "^shmpi stats: " 9
  --match "^shmpi stats: 2 ranks; eager_limit 1024, rndv_threshold 16384, max_fragment 4096, split_threshold 0, reply_pipeline_limit 0, .*fast_box off, .*rndv_route single_copy, single_copy cma"
  --match "${report_sent}"
  --match "^shmpi stats: rendezvous received: single copy 6 msgs 393216 B; split 0 msgs 0 B; streamed 0 msgs 0 B$"
  --match "^shmpi stats: decisions: rendezvous routes chosen: single copy 0, stream 0 \\(epochs timed 0\\); single-copy reads batched: 0 msgs in 0 calls; split parts written by senders: 0; replies pipelined: 0; fast-box lines chosen: no fast boxes$"
  --match "${report_queue}" --match "${report_rank0}"
  --match "^shmpi stats: +1 +0 +20 +0 +0 +6 +0 +0 +20 +0 +7 +[0-9.]+$" --
  ${SHMPI_RUN} -n 2 ${report_limits} --report stats ${report_pattern})

# Split between both sides (split_threshold = R: the later --set wins);
# asked for with SHMPI_STATS=1.
shmpi_case(report.stats_split ARGS
  --count "^report_traffic: rank [0-9]+ OK" 2 --no-match "FAIL" --match "${report_sent}"
  --match "^shmpi stats: rendezvous received: single copy 0 msgs 0 B; split 6 msgs 393216 B; streamed 0 msgs 0 B$"
  --match "; split parts written by senders: 6;" --match "${report_queue}" --match "${report_rank0}" --
  ${SHMPI_RUN} -n 2 ${report_limits} --set split_threshold=65536 -x SHMPI_STATS=1 ${report_pattern})

# Single copy refused: streamed through the ring.
shmpi_case(report.stats_streamed ARGS
  --count "^report_traffic: rank [0-9]+ OK" 2 --no-match "FAIL" --match "${report_sent}"
  --match "^shmpi stats: rendezvous received: single copy 0 msgs 0 B; split 0 msgs 0 B; streamed 6 msgs 393216 B$"
  --match "single_copy none" --match "${report_queue}" --match "${report_rank0}" --
  ${SHMPI_RUN} -n 2 ${report_limits} --set single_copy=none --report stats ${report_pattern})

# With the fast box the small messages take it whenever it is free: the
# first always is (it starts empty and held by rank 0).
shmpi_case(report.stats_fast_box ARGS
  --count "^report_traffic: rank [0-9]+ OK" 2 --no-match "FAIL"
  --match "^shmpi stats: sent: box [1-9][0-9]* msgs [0-9]+ B; eager [0-9]+ msgs [0-9]+ B; pipelined 5 msgs 40960 B; rendezvous 6 msgs 393216 B$"
  --match "fast-box lines chosen: line [0-7] x1$" --
  ${SHMPI_RUN} -n 2 --set eager_limit=1024 --set max_fragment=4096 --set rndv_threshold=16384 --set reply_pipeline_limit=0
  --report stats ${report_pattern})

# Not asked (unset, or 0): nothing gathered, nothing printed. A value not
# understood is said once and ignored.
shmpi_case(report.off ARGS
  --count "^report_traffic: rank [0-9]+ OK" 2 --no-match "FAIL" --no-match "shmpi stats" --no-match "SHMPI_STATS" --
  ${SHMPI_RUN} -n 2 ${report_limits} ${report_pattern})
shmpi_case(report.off_zero ARGS
  --count "^report_traffic: rank [0-9]+ OK" 2 --no-match "FAIL" --no-match "shmpi stats" --no-match "SHMPI_STATS" --
  ${SHMPI_RUN} -n 2 -x SHMPI_STATS=0 ${report_pattern})
shmpi_case(report.bad_value ARGS
  --count "^report_traffic: rank [0-9]+ OK" 2 --no-match "FAIL" --no-match "shmpi stats"
  --count "^shmpi: SHMPI_STATS='yes' ignored: use 1 \\(report\\) or 0$" 1 --
  ${SHMPI_RUN} -n 2 -x SHMPI_STATS=yes ${report_pattern})

# The communication matrix of 3 ranks, CSV exactly, and its heat map.
shmpi_case(report.comm_matrix ARGS
  --match "^report_matrix: OK$" --count "^report_traffic: rank [0-9]+ OK" 3 --no-match "FAIL" --
  ${CMAKE_CURRENT_SOURCE_DIR}/report_matrix.sh ${SHMPI_RUN} $<TARGET_FILE:report_traffic>)

# Bad --report input: one line, nothing started.
shmpi_case(report.bad_flag ARGS
  --rc 2 --count "^shmpirun: " 1 --match "^shmpirun: --report must be stats or comm-matrix FILE, not 'matrix'$" --
  ${SHMPI_RUN} -n 2 --report matrix $<TARGET_FILE:report_traffic> matrix)
shmpi_case(report.bad_matrix_dir ARGS
  --rc 2 --count "^shmpirun: " 1 --match "^shmpirun: --report comm-matrix /nonexistent-shmpi-dir/m.csv: no writable directory /nonexistent-shmpi-dir$" --
  ${SHMPI_RUN} -n 2 --report comm-matrix /nonexistent-shmpi-dir/m.csv $<TARGET_FILE:report_traffic> matrix)

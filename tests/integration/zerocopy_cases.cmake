# Integration cases for non-contiguous point-to-point without packing
# (pml/run_layout.hpp): zerocopy sends vector, indexed, struct and subarray
# types between contiguous and non-contiguous buffers, checking every byte
# of the receive buffer and its gaps; under the default settings, with
# single copy off or refused (the sender then packs fragment by fragment),
# and with the run report counting how the rendezvous messages moved.
add_executable(zerocopy zerocopy.c)
target_link_libraries(zerocopy PRIVATE shmpi)
target_compile_options(zerocopy PRIVATE -Wall -Wextra $<$<BOOL:${SHMPI_WERROR}>:-Werror>)

shmpi_case(zerocopy.np2 TIMEOUT 120 ARGS
  --count "^zerocopy: rank [0-9]+ OK" 2 --no-match "FAIL" --
  ${SHMPI_RUN} -n 2 $<TARGET_FILE:zerocopy>)
shmpi_case(zerocopy.np1 TIMEOUT 120 ARGS
  --count "^zerocopy: rank 0 OK" 1 --no-match "FAIL" --
  ${SHMPI_RUN} -n 1 $<TARGET_FILE:zerocopy> 1048576)
foreach(setting single_copy=none test_cma_eperm=1 eager_limit=64 rndv_route=auto)
  string(REGEX REPLACE "[=]" "_" suffix ${setting})
  shmpi_case(zerocopy.${suffix} TIMEOUT 120 ARGS
    --count "^zerocopy: rank [0-9]+ OK" 2 --no-match "FAIL" --
    ${SHMPI_RUN} -n 2 --set ${setting} $<TARGET_FILE:zerocopy> 1048576)
endforeach()

# Up to 1 MiB, every rendezvous message (64 KiB and 1 MiB, 4 types x 4
# combinations: 32 early or late from rank 0 to rank 1 and the 4 truncated
# ones, 68; and 32 each rank sends itself, 64) is read by single copy when
# it may be; with single copy off only the 64 to self are (a memcpy) and
# the 68 others stream. Rank 1 receives the 68 and its 32.
set(zerocopy_limits --set run_copy_min=0 --set rndv_threshold=32768 --set reply_pipeline_limit=0 --set rndv_route=single_copy
    --set split_threshold=0)
shmpi_case(zerocopy.stats_single_copy TIMEOUT 120 ARGS
  --count "^zerocopy: rank [0-9]+ OK" 2 --no-match "FAIL"
  --match "^shmpi stats: rendezvous received: single copy 132 msgs [0-9]+ B; split 0 msgs 0 B; streamed 0 msgs 0 B$"
  --match "^shmpi stats: +1 +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +100 +0 +0 " --
  ${SHMPI_RUN} -n 2 ${zerocopy_limits} --report stats $<TARGET_FILE:zerocopy> 1048576)
shmpi_case(zerocopy.stats_no_single_copy TIMEOUT 120 ARGS
  --count "^zerocopy: rank [0-9]+ OK" 2 --no-match "FAIL"
  --match "^shmpi stats: rendezvous received: single copy 64 msgs [0-9]+ B; split 0 msgs 0 B; streamed 68 msgs [0-9]+ B$" --
  ${SHMPI_RUN} -n 2 ${zerocopy_limits} --set single_copy=none -x SHMPI_STATS=1 $<TARGET_FILE:zerocopy> 1048576)

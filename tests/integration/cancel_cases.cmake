# Integration cases for cancelling sends that have left (pml/withdrawal.cpp):
# send_cancel under settings that put its sizes (0 B to 300 KB) in every
# protocol: the defaults; explicit eager / pipelined / rendezvous limits
# without the fast box; a tiny eager limit; rendezvous streamed (no single
# copy) and split; and a small ring, so pipelined sends are cancelled
# while their fragments are still going out. The run report's deepest
# unexpected queue shows that cancelled messages do not pile up.
add_executable(send_cancel send_cancel.c)
target_link_libraries(send_cancel PRIVATE shmpi)
target_compile_options(send_cancel PRIVATE -Wall -Wextra $<$<BOOL:${SHMPI_WERROR}>:-Werror>)

set(send_cancel_ok --count "^send_cancel: rank [0-9]+ OK" 2 --no-match "FAIL")
shmpi_case(send_cancel.default TIMEOUT 120 ARGS ${send_cancel_ok}
  --match "^shmpi stats: deepest unexpected queue: [0-9]?[0-9] \\(rank" --
  ${SHMPI_RUN} -n 2 --report stats $<TARGET_FILE:send_cancel> 100)

# Each setting: tunables separated by commas, and the case's name.
set(send_cancel_settings
  "limits:fast_box=off,eager_limit=1024,max_fragment=4096,rndv_threshold=16384,reply_pipeline_limit=0"
  "eager_64:eager_limit=64"
  "streamed:single_copy=none"
  "split:rndv_route=single_copy,split_threshold=65536"
  "small_ring:ring_size=8192,eager_limit=1024,max_fragment=1024,rndv_threshold=1048576")
foreach(entry IN LISTS send_cancel_settings)
  string(REGEX REPLACE ":.*" "" name "${entry}")
  string(REGEX REPLACE "^[^:]*:" "" tunables "${entry}")
  string(REPLACE "," ";--set;" set_args "--set;${tunables}")
  shmpi_case(send_cancel.${name} TIMEOUT 120 ARGS ${send_cancel_ok} --
    ${SHMPI_RUN} -n 2 ${set_args} $<TARGET_FILE:send_cancel> 100)
endforeach()

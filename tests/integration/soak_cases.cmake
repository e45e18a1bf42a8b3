# The seeded random-traffic soak (random_traffic.c): mixed sizes across every
# protocol, send modes, tags, wildcards and completion calls, each message
# predicted and checked. Different seeds per case, so each run covers new
# schedules while staying reproducible.
add_executable(random_traffic random_traffic.c)
target_link_libraries(random_traffic PRIVATE shmpi)
target_compile_options(random_traffic PRIVATE -Wall -Wextra $<$<BOOL:${SHMPI_WERROR}>:-Werror>)

# One case per protocol setting: defaults, the fallback forced and CMA
# refused at run time, rings small enough to fill at once, every eager size
# through the ring, single copy only, small limits (fragments and rendezvous
# at a few KiB), and rendezvous for everything but the smallest messages.
set(soak_settings
  "defaults:"
  "fallback:single_copy=none"
  "cma_refused:test_cma_eperm=1"
  "tiny_ring:eager_limit=64,ring_size=4096"
  "no_box:fast_box=off"
  "single_copy_route:rndv_route=single_copy"
  "small_limits:eager_limit=1024,max_fragment=1024,rndv_threshold=4096,split_threshold=8192"
  "rndv_from_64:ring_size=4096,eager_limit=512,rndv_threshold=64")
set(seed 101)
foreach(entry IN LISTS soak_settings)
  string(REPLACE ":" ";" entry "${entry}")
  list(GET entry 0 name)
  set(flags "")
  if(entry MATCHES ";.")
    list(GET entry 1 pairs)
    string(REPLACE "," ";" pairs "${pairs}")
    foreach(pair IN LISTS pairs)
      list(APPEND flags --set ${pair})
    endforeach()
  endif()
  foreach(n 2 4)
    shmpi_case(random_traffic.np${n}.${name} TIMEOUT 120 ARGS
      --count "^random_traffic: rank [0-9]+ OK \\([0-9]+ messages, [0-9]+ bytes\\)$" ${n} --no-match "FAIL" --
      ${SHMPI_RUN} -n ${n} --oversubscribe ${flags} $<TARGET_FILE:random_traffic> ${seed} 200)
    math(EXPR seed "${seed} + 1")
  endforeach()
endforeach()

# Many ranks on two cores: 16 with rings small enough to fill, and the
# 64-rank limit the footprint is sized for.
shmpi_case(random_traffic.np16.tiny_ring TIMEOUT 120 ARGS
  --count "^random_traffic: rank [0-9]+ OK \\([0-9]+ messages, [0-9]+ bytes\\)$" 16 --no-match "FAIL" --
  ${SHMPI_RUN} -n 16 --oversubscribe --set eager_limit=64 --set ring_size=4096
  $<TARGET_FILE:random_traffic> 201 60)
shmpi_case(random_traffic.np64 TIMEOUT 180 ARGS
  --count "^random_traffic: rank [0-9]+ OK \\([0-9]+ messages, [0-9]+ bytes\\)$" 64 --no-match "FAIL" --
  ${SHMPI_RUN} -n 64 --oversubscribe $<TARGET_FILE:random_traffic> 202 20)

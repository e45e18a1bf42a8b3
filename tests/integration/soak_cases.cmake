# The seeded random-traffic soak (random_traffic.c): mixed sizes across every
# protocol, send modes, tags, wildcards and completion calls, each message
# predicted and checked. Different seeds per case, so each run covers new
# schedules while staying reproducible.
add_executable(random_traffic random_traffic.c)
target_link_libraries(random_traffic PRIVATE shmpi)
target_compile_options(random_traffic PRIVATE -Wall -Wextra $<$<BOOL:${SHMPI_WERROR}>:-Werror>)

# random_traffic_case(NAME RANKS SEED ROUNDS TIMEOUT [shmpirun flags...]):
# every rank must report OK and none FAIL.
function(random_traffic_case name ranks seed rounds timeout)
  set(label integration)
  if(ranks GREATER 8)
    set(label "integration;stress")  # minutes under ASan: the release run covers them
  endif()
  shmpi_case(random_traffic.${name} TIMEOUT ${timeout} LABEL "${label}" ARGS
    --count "^random_traffic: rank [0-9]+ OK \\([0-9]+ messages, [0-9]+ bytes\\)$" ${ranks} --no-match "FAIL" --
    ${SHMPI_RUN} -n ${ranks} --oversubscribe ${ARGN} $<TARGET_FILE:random_traffic> ${seed} ${rounds})
endfunction()

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
    random_traffic_case(np${n}.${name} ${n} ${seed} 200 120 ${flags})
    math(EXPR seed "${seed} + 1")
  endforeach()
endforeach()

# Every built-in profile's defaults, whichever this machine takes.
set(seed 301)
foreach(profile IN LISTS SHMPI_PROFILE_NAMES)
  random_traffic_case(np2.${profile}_profile 2 ${seed} 200 120 --profile ${profile})
  math(EXPR seed "${seed} + 1")
endforeach()

# Many ranks on two cores: 16 with rings small enough to fill, and the
# 64-rank limit the footprint is sized for.
random_traffic_case(np16.tiny_ring 16 201 60 120 --set eager_limit=64 --set ring_size=4096)
random_traffic_case(np64 64 202 20 180)

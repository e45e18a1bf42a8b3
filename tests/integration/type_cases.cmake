# Integration cases for derived datatypes (issue 26): every constructor
# across the protocol boundaries, with each protocol forced in turn.
add_executable(type_ctors type_ctors.c)
target_link_libraries(type_ctors PRIVATE shmpi)
target_compile_options(type_ctors PRIVATE -Wall -Wextra $<$<BOOL:${SHMPI_WERROR}>:-Werror>)

shmpi_ok_cases(type_ctors 180 2 3)

# type_ctors_forced(SUFFIX [MATCH regex] SETTINGS name=value...): 2 ranks
# with the tunables set; MATCH is looked for in the --report stats lines, to
# show that the forced protocol carried some of the messages.
function(type_ctors_forced suffix)
  cmake_parse_arguments(PARSE_ARGV 1 FORCED "" "MATCH" "SETTINGS")
  set(sets)
  foreach(setting IN LISTS FORCED_SETTINGS)
    list(APPEND sets --set ${setting})
  endforeach()
  set(match)
  if(FORCED_MATCH)
    set(match --match ${FORCED_MATCH})
  endif()
  shmpi_case(type_ctors.${suffix} TIMEOUT 180 ARGS
    --count "^type_ctors: rank [0-9]+ OK" 2 --no-match "FAIL" ${match} --
    ${SHMPI_RUN} -n 2 --report stats ${sets} $<TARGET_FILE:type_ctors>)
endfunction()

# Rendezvous without single copy: streamed through the ring.
type_ctors_forced(single_copy_none MATCH "received: .*streamed [1-9][0-9]* msgs"
  SETTINGS single_copy=none)
# Everything above 64 bytes fragmented (pipelined).
type_ctors_forced(eager_limit_64 MATCH "sent: .*pipelined [1-9][0-9]* msgs"
  SETTINGS eager_limit=64)
type_ctors_forced(fast_box_off MATCH "sent: box 0 msgs" SETTINGS fast_box=off)
# Rendezvous by single copy, never split (by default the largest are split).
type_ctors_forced(single_copy_unsplit MATCH "received: single copy [1-9][0-9]* msgs"
  SETTINGS split_threshold=0 rndv_route=single_copy run_copy_min=0)
# Rendezvous run to run from 4 KiB, split with the sender (its half
# written by process_vm_writev into the receiver's runs or buffer).
type_ctors_forced(run_split MATCH "received: .*split [1-9][0-9]* msgs"
  SETTINGS split_threshold=4096 rndv_route=single_copy run_copy_min=0)
# Every message of 64 bytes or more by rendezvous, read run to run: the
# small Mprobe/Mrecv into a column included.
type_ctors_forced(rndv_threshold_64 MATCH "received: single copy [1-9][0-9]* msgs"
  SETTINGS rndv_threshold=64 rndv_route=single_copy run_copy_min=0)

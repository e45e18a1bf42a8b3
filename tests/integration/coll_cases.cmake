# Integration cases for the collectives (runtime/coll_*.cpp, schedule.cpp):
# every collective, blocking and nonblocking, against a local reference
# (included from CMakeLists.txt, after runtime_cases.cmake, which defines
# shmpi_ok_cases).
add_executable(coll_reference coll_reference.c)
target_link_libraries(coll_reference PRIVATE shmpi)
target_compile_options(coll_reference PRIVATE -Wall -Wextra $<$<BOOL:${SHMPI_WERROR}>:-Werror>)

shmpi_ok_cases(coll_reference 300 1 2 3 4 5 8)

# More ranks than the one-round allgather takes (runtime/coll_gather.cpp):
# recursive doubling at 16, Bruck and the ring at 12.
foreach(n 12 16)
  shmpi_case(coll_reference.np${n} TIMEOUT 300 ARGS
    --count "^coll_reference: rank [0-9]+ OK" ${n} --no-match "FAIL" --
    ${SHMPI_RUN} -n ${n} --oversubscribe $<TARGET_FILE:coll_reference> 150)
endforeach()

# Other seeds at the sizes that are not powers of two (about half of all
# cases take a datatype with gaps, coll_ref_data.h).
foreach(seed 7 99)
  shmpi_case(coll_reference.np6.seed${seed} TIMEOUT 300 ARGS
    --count "^coll_reference: rank [0-9]+ OK" 6 --no-match "FAIL" --
    ${SHMPI_RUN} -n 6 --oversubscribe $<TARGET_FILE:coll_reference> 200 ${seed})
endforeach()

# More draws of datatypes with gaps, at a power of two and with the odd rank.
foreach(seed 3 5)
  shmpi_case(coll_reference.np4.seed${seed} TIMEOUT 300 ARGS
    --count "^coll_reference: rank [0-9]+ OK" 4 --no-match "FAIL" --
    ${SHMPI_RUN} -n 4 --oversubscribe $<TARGET_FILE:coll_reference> 300 ${seed})
  shmpi_case(coll_reference.np3.seed${seed} TIMEOUT 300 ARGS
    --count "^coll_reference: rank [0-9]+ OK" 3 --no-match "FAIL" --
    ${SHMPI_RUN} -n 3 --oversubscribe $<TARGET_FILE:coll_reference> 300 ${seed})
endforeach()

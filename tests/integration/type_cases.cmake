# NOT YET INCLUDED from CMakeLists.txt: type_ctors.c has not been run to a pass yet (see the dtypes report).
# Integration cases for derived datatypes (issue 26): every constructor
# across the protocol boundaries, with each protocol forced in turn.
add_executable(type_ctors type_ctors.c)
target_link_libraries(type_ctors PRIVATE shmpi)
target_compile_options(type_ctors PRIVATE -Wall -Wextra $<$<BOOL:${SHMPI_WERROR}>:-Werror>)

shmpi_ok_cases(type_ctors 180 2 3)
foreach(setting single_copy=none eager_limit=64 fast_box=off)
  string(REGEX REPLACE "[=]" "_" suffix ${setting})
  shmpi_case(type_ctors.${suffix} TIMEOUT 180 ARGS
    --count "^type_ctors: rank [0-9]+ OK" 2 --no-match "FAIL" --
    ${SHMPI_RUN} -n 2 --set ${setting} $<TARGET_FILE:type_ctors>)
endforeach()

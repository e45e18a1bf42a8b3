# The runtime's Context, wired up as threads of one process through a
# MemoryStore (runtime/memory_store.hpp). libshmpi exports only the MPI
# names, so the test links the runtime's objects (shmpi_runtime), the ones
# libshmpi is made of.
add_executable(context_unit_tests context_test.cpp)
target_link_libraries(context_unit_tests PRIVATE shmpi_runtime GTest::gtest_main Threads::Threads shmpi_warnings)
# Release builds compile the runtime for link-time optimisation.
get_target_property(runtime_ipo shmpi_runtime INTERPROCEDURAL_OPTIMIZATION)
if(runtime_ipo)
  set_target_properties(context_unit_tests PROPERTIES INTERPROCEDURAL_OPTIMIZATION ON)
endif()
gtest_discover_tests(context_unit_tests PROPERTIES LABELS unit TIMEOUT 60)

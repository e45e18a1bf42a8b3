# The runtime's Context, wired up as threads of one process through a
# MemoryStore (runtime/memory_store.hpp). libshmpi exports only the MPI
# names, so the test builds the runtime's files from source (the entry
# points too: communicator helpers live beside the calls they serve).
file(GLOB context_sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/runtime/*.cpp)
add_executable(context_unit_tests context_test.cpp ${context_sources})
target_include_directories(context_unit_tests PRIVATE ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/include)
target_link_libraries(context_unit_tests PRIVATE shmpi_pml shmpi_datatype shmpi_contract PkgConfig::PMIX
                      GTest::gtest_main Threads::Threads shmpi_warnings)
gtest_discover_tests(context_unit_tests PROPERTIES LABELS unit TIMEOUT 60)
# The runtime's predefined attribute callbacks are aliases of noexcept
# definitions; libshmpi builds them with its own flags, this target does not.
target_compile_options(context_unit_tests PRIVATE -Wno-missing-attributes)

# The runtime's Context, wired up as threads of one process through a
# MemoryStore (runtime/memory_store.hpp). libshmpi exports only the MPI
# names, so the test builds the runtime files Context needs from source.
set(context_sources context.cpp collectives.cpp communicator_table.cpp datatype.cpp request_table.cpp
    bsend_buffer.cpp status_page.cpp wait_policy.cpp config.cpp reduce_op.cpp)
list(TRANSFORM context_sources PREPEND ${PROJECT_SOURCE_DIR}/runtime/)
add_executable(context_unit_tests context_test.cpp ${context_sources})
target_include_directories(context_unit_tests PRIVATE ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/include)
target_link_libraries(context_unit_tests PRIVATE shmpi_pml shmpi_contract GTest::gtest_main Threads::Threads
                      shmpi_warnings)
gtest_discover_tests(context_unit_tests PROPERTIES LABELS unit TIMEOUT 60)

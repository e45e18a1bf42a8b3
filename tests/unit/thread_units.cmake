# What MPI_THREAD_MULTIPLE adds below the MPI layer: the status page with
# several waiting threads (runtime/status_page.cpp, built from source) and
# the tables whose entries never move (runtime/stable_slots.hpp).
add_executable(thread_unit_tests status_page_test.cpp stable_slots_test.cpp
               ${PROJECT_SOURCE_DIR}/runtime/status_page.cpp)
target_include_directories(thread_unit_tests PRIVATE ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/include)
target_link_libraries(thread_unit_tests PRIVATE shmpi_warnings GTest::gtest_main)
gtest_discover_tests(thread_unit_tests PROPERTIES LABELS unit TIMEOUT 60)

# How the threads of a rank share the waiting (runtime/idle_threads.hpp,
# runtime/entry_lock.hpp: header-only); run under ThreadSanitizer too.
add_executable(idle_threads_unit_tests idle_threads_test.cpp)
target_include_directories(idle_threads_unit_tests PRIVATE ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/include)
target_link_libraries(idle_threads_unit_tests PRIVATE shmpi_warnings GTest::gtest_main Threads::Threads)
gtest_discover_tests(idle_threads_unit_tests PROPERTIES LABELS tsan TIMEOUT 60)  # one label: a list does not survive discovery
add_dependencies(tsan_tests idle_threads_unit_tests)

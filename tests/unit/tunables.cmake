# Unit tests of the tunables' single source: the profile format, the rule
# that chooses a profile, and every other copy of a default (btl/ring.hpp,
# docs/tunables/*.md) checked against the built-in profiles. Included from
# tests/unit/CMakeLists.txt. Header-only code: links no library. Also the
# segment budget (btl/segment_budget.hpp) with each profile's defaults.
add_executable(tunables_unit_tests ${CMAKE_CURRENT_LIST_DIR}/tunables_test.cpp
               ${CMAKE_CURRENT_LIST_DIR}/tunable_copies_test.cpp
               ${CMAKE_CURRENT_LIST_DIR}/segment_budget_test.cpp)
target_include_directories(tunables_unit_tests PRIVATE ${PROJECT_SOURCE_DIR})
target_compile_definitions(tunables_unit_tests PRIVATE SHMPI_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
target_link_libraries(tunables_unit_tests PRIVATE shmpi_contract GTest::gtest_main shmpi_warnings)
gtest_discover_tests(tunables_unit_tests PROPERTIES LABELS unit TIMEOUT 60)

# The matching engine (posted and unexpected queues). Included from
# pml/CMakeLists.txt; tests/matching includes it itself if pml has not.
add_library(shmpi_matching STATIC
  ${CMAKE_CURRENT_LIST_DIR}/matcher.cpp
  ${CMAKE_CURRENT_LIST_DIR}/match_bins.cpp)
target_compile_features(shmpi_matching PUBLIC cxx_std_20)
target_include_directories(shmpi_matching PUBLIC ${PROJECT_SOURCE_DIR})
target_link_libraries(shmpi_matching PRIVATE shmpi_warnings)

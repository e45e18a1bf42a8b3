# copy_bench: memcpy vs CMA read vs CMA write (Google Benchmark). Included
# from benchmarks/micro/CMakeLists.txt. single_copy.cpp is compiled in
# directly so the benchmark does not depend on what shmpi_btl lists.
if(NOT TARGET benchmark::benchmark)
  find_package(benchmark REQUIRED)
endif()
add_executable(copy_bench
  ${CMAKE_CURRENT_LIST_DIR}/copy_bench.cpp
  ${PROJECT_SOURCE_DIR}/btl/single_copy.cpp)
target_include_directories(copy_bench PRIVATE ${PROJECT_SOURCE_DIR})
target_link_libraries(copy_bench PRIVATE benchmark::benchmark shmpi_warnings Threads::Threads)

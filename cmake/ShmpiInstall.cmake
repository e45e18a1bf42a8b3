# Install rules and the CMake/pkg-config packages (included at the end of the
# top-level CMakeLists.txt, once every target exists).
#
#   <prefix>/include            mpi.h, shmpi.hpp, shmpi/*.hpp
#   <prefix>/lib                libshmpi.so -> .so.0 (SONAME) -> .so.0.1.0
#   <prefix>/lib/cmake/shmpi    shmpiConfig.cmake, shmpiConfigVersion.cmake,
#                               shmpiTargets*.cmake (target shmpi::mpi)
#   <prefix>/lib/pkgconfig      shmpi.pc
#   <prefix>/bin                shmpicc, shmpicxx (tools/); shmpirun and shmpi_info are
#                               installed by launcher/CMakeLists.txt
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(shmpi_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/shmpi)

set_target_properties(shmpi PROPERTIES EXPORT_NAME mpi)
install(TARGETS shmpi EXPORT shmpiTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT shmpiTargets NAMESPACE shmpi:: DESTINATION ${shmpi_cmake_dir})

install(FILES ${PROJECT_SOURCE_DIR}/include/mpi.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# shmpi.hpp (the C++ API) is optional until it lands.
install(FILES ${PROJECT_SOURCE_DIR}/include/shmpi.hpp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} OPTIONAL)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/shmpi DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.hpp" PATTERN "*.h")

configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/shmpiConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/shmpiConfig.cmake
  INSTALL_DESTINATION ${shmpi_cmake_dir}
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_BINDIR)
# 0.x: a newer patch release is compatible, a new minor one is not.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/cmake/shmpiConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/cmake/shmpiConfig.cmake
              ${PROJECT_BINARY_DIR}/cmake/shmpiConfigVersion.cmake
        DESTINATION ${shmpi_cmake_dir})

file(RELATIVE_PATH PC_TO_PREFIX "/prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/prefix")
string(REGEX REPLACE "/$" "" PC_TO_PREFIX "${PC_TO_PREFIX}")
configure_file(${CMAKE_CURRENT_LIST_DIR}/shmpi.pc.in ${PROJECT_BINARY_DIR}/cmake/shmpi.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/cmake/shmpi.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

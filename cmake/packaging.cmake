# Installing and packaging: the program (its data is built into it), a desktop entry and icon,
# AppStream metainfo, a man page made from --help, and the Debian package CPack makes of them
# (scripts/package.sh). Dependencies come from dpkg-shlibdeps, never a hand-written list.
include(GNUInstallDirs)
set(rl_pkg ${CMAKE_SOURCE_DIR}/packaging)
install(TARGETS reduction-lab RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${rl_pkg}/reduction-lab.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
install(FILES ${rl_pkg}/reduction-lab.svg DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
install(FILES ${rl_pkg}/io.github.reduction_lab.ReductionLab.metainfo.xml
        DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)
install(FILES ${rl_pkg}/copyright DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/reduction-lab)
# A native package's changelog, compressed as Debian's policy asks (gzip -9n: no name, no time).
set(rl_changelog ${CMAKE_BINARY_DIR}/changelog.gz)
add_custom_command(OUTPUT ${rl_changelog} COMMAND gzip -9nc ${rl_pkg}/changelog > ${rl_changelog}
                   DEPENDS ${rl_pkg}/changelog VERBATIM)
add_custom_target(rl_changelog ALL DEPENDS ${rl_changelog})
install(FILES ${rl_changelog} DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/reduction-lab)

# The man page: help2man over the program's own --help and --version (Debian's help2man).
find_program(REDLAB_HELP2MAN help2man)
if(REDLAB_HELP2MAN)
  set(rl_man ${CMAKE_BINARY_DIR}/reduction-lab.1.gz)
  add_custom_command(
    OUTPUT ${rl_man}
    COMMAND ${REDLAB_HELP2MAN} --no-info --no-discard-stderr --section=1
            "--name=watch GPUs reduce an array, stage by stage" $<TARGET_FILE:reduction-lab>
            | gzip -9n > ${rl_man}
    DEPENDS reduction-lab
    VERBATIM)
  add_custom_target(rl_man ALL DEPENDS ${rl_man})
  install(FILES ${rl_man} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
else()
  message(STATUS "help2man not found: no man page (scripts/setup.sh installs it)")
endif()

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME reduction-lab)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "The Reduction Lab developers")
set(CPACK_PACKAGE_CONTACT "The Reduction Lab developers <reduction-lab@users.noreply.github.com>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "watch GPUs reduce an array, stage by stage")
# The extended description; CPack puts the summary above it.
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "Reduction Lab steps through tree, warp-shuffle and cooperative-groups\nreductions over arrays and matrices. On an NVIDIA GPU it records real runs\nstage by stage and measures them against the device's peak; without one it\nruns a CPU model of the same algorithms and says so plainly.")
set(CPACK_DEBIAN_PACKAGE_SECTION education)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_COMPRESSION_TYPE xz)
include(CPack)

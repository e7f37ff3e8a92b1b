# Run by CTest (cmake -P): does BINARY carry any of the peer libraries of bench/peers?
#   EXPECT=absent   fail if it does: the `hitgrid` command, which is installed and must
#                   load the same libraries whatever tests or benchmarks were built;
#   EXPECT=present  fail if it does not: compare_peers, which links them all, so that a
#                   check that could no longer see them (a new ldd output format, a
#                   renamed package) fails instead of passing on every binary.
# A peer can reach a binary two ways, so both are looked at:
#  - as a shared library the dynamic loader maps: Box2D (libbox2d), Bullet
#    (libBulletCollision, libLinearMath) and GMP / MPFR, which CGAL's CMake target links.
#    ldd lists the whole closure, so a peer pulled in through another library counts too;
#    without ldd, `readelf -d` lists the binary's own DT_NEEDED entries.
#  - as code inside the binary: CGAL is header-only and hitgrid_peers a static library,
#    and with --as-needed the linker drops GMP when no call reaches it, so their symbol
#    names are searched (mangled, so that a help text naming a peer does not count):
#    CGAL's namespace, hitgrid::peers, Box2D's b2DynamicTree and Bullet's btDbvt. A
#    stripped binary has no such names; the dynamic check still covers Box2D and Bullet.
# Prints "check_peer_libraries: skipped" (CTest's SKIP_REGULAR_EXPRESSION) when neither
# tool is installed.
if(NOT EXISTS "${BINARY}")
  message(FATAL_ERROR "check_peer_libraries: no such binary: ${BINARY}")
endif()
if(NOT EXPECT STREQUAL "absent" AND NOT EXPECT STREQUAL "present")
  message(FATAL_ERROR "check_peer_libraries: EXPECT must be absent or present, not '${EXPECT}'")
endif()

find_program(LDD ldd)
find_program(READELF readelf)
if(LDD)
  execute_process(COMMAND ${LDD} ${BINARY} OUTPUT_VARIABLE listing ERROR_VARIABLE ldd_error RESULT_VARIABLE rc)
  set(tool "ldd")
elseif(READELF)
  execute_process(COMMAND ${READELF} -d ${BINARY} OUTPUT_VARIABLE listing ERROR_VARIABLE ldd_error RESULT_VARIABLE rc)
  set(tool "readelf -d")
else()
  message("check_peer_libraries: skipped (neither ldd nor readelf is installed)")
  return()
endif()
# Every dynamically linked C++ program here needs the C library; a listing without it
# means the tool failed in a way its exit status did not show.
if(rc OR NOT listing MATCHES "libc\\.so")
  message(FATAL_ERROR "check_peer_libraries: ${tool} ${BINARY} failed (${rc}):\n${listing}${ldd_error}")
endif()

set(found "")
string(REGEX MATCHALL "lib(box2d|BulletCollision|LinearMath|gmp|gmpxx|mpfr)[-.a-zA-Z0-9]*\\.so[.0-9]*" libraries "${listing}")
if(libraries)
  list(REMOVE_DUPLICATES libraries)
  list(APPEND found ${libraries})
endif()
file(STRINGS "${BINARY}" symbols REGEX "4CGAL|7hitgrid5peers|b2DynamicTree|btDbvt")
foreach(marker "4CGAL" "7hitgrid5peers" "b2DynamicTree" "btDbvt")
  if(symbols MATCHES "${marker}")
    list(APPEND found "symbols containing ${marker}")
  endif()
endforeach()

if(EXPECT STREQUAL "absent" AND found)
  list(JOIN found ", " found)
  message(FATAL_ERROR "check_peer_libraries: ${BINARY} carries peer libraries: ${found}\n${tool}:\n${listing}")
elseif(EXPECT STREQUAL "present" AND NOT found)
  message(FATAL_ERROR "check_peer_libraries: found no peer library in ${BINARY}, which links them; "
                      "the check cannot see them\n${tool}:\n${listing}")
endif()
if(found)
  list(JOIN found ", " found)
  message("check_peer_libraries: ${BINARY} carries ${found}, as expected")
else()
  message("check_peer_libraries: ${BINARY} carries no peer library, as expected")
endif()

// The C boundary's error handling (capi/src/guard.hpp): every C++ exception type maps to
// its status, the message and the handle are kept per thread, nothing escapes.
#include <catch2/catch.hpp>
#include <new>
#include <stdexcept>
#include <string>
#include <thread>

#include "guard.hpp"
#include "hitgrid.h"
#include "hitgrid/hitgrid.hpp"

using namespace hitgrid;
using hitgrid::capi::guarded;

namespace {

template <class E>
hitgrid_status status_of(const E& e) {
  return guarded("f", [&] { throw e; });
}

}  // namespace

TEST_CASE("Each exception type becomes its status, with the message", "[capi]") {
  CHECK(guarded("f", [] {}) == HITGRID_OK);
  CHECK(status_of(InvalidShapeError({ShapeKind::circle, 3}, "negative radius -1")) == HITGRID_INVALID_SHAPE);
  CHECK(std::string(hitgrid_last_error()) == "f: circle 3: negative radius -1");
  CHECK(status_of(InvalidHandleError({7, 2}, "move")) == HITGRID_INVALID_HANDLE);
  CHECK(std::string(hitgrid_last_error()) == "f: move: shape (slot 7, generation 2) is not a live shape");
  CHECK(hitgrid_last_error_handle() == (std::uint64_t{7} << 32 | 2));
  CHECK(status_of(ParseError("a.txt", 3, 4, "bad")) == HITGRID_PARSE_ERROR);
  CHECK(std::string(hitgrid_last_error()) == "f: a.txt:3:4: bad");
  CHECK(hitgrid_last_error_handle() == 0);
  CHECK(status_of(IoError("a.txt", "no such file")) == HITGRID_IO_ERROR);
  CHECK(status_of(Error("the world's margin must be finite and >= 0")) == HITGRID_ERROR);
  CHECK(std::string(hitgrid_last_error()) == "f: the world's margin must be finite and >= 0");
  CHECK(status_of(capi::ArgumentError("world is NULL")) == HITGRID_INVALID_ARGUMENT);
  CHECK(status_of(std::bad_alloc()) == HITGRID_OUT_OF_MEMORY);
  CHECK(std::string(hitgrid_last_error()) == "f: out of memory");
  CHECK(status_of(std::length_error("vector::_M_default_append")) == HITGRID_OUT_OF_MEMORY);  // a count too large
  CHECK(std::string(hitgrid_last_error()) == "f: out of memory: a count too large to hold");
  CHECK(status_of(std::logic_error("broken invariant")) == HITGRID_INTERNAL_ERROR);
  CHECK(std::string(hitgrid_last_error()) == "f: broken invariant");
  CHECK(status_of(42) == HITGRID_INTERNAL_ERROR);
  CHECK(std::string(hitgrid_last_error()) == "f: unknown exception");
}

TEST_CASE("The C API's calls give each status for the C++ errors behind them", "[capi]") {
  hitgrid_world* world = nullptr;
  REQUIRE(hitgrid_world_new(nullptr, &world) == HITGRID_OK);
  hitgrid_shape_def def = hitgrid_box_def(0, 0, 1, -1);  // inverted
  hitgrid_handle h = 0;
  CHECK(hitgrid_world_create(world, &def, &h) == HITGRID_INVALID_SHAPE);
  CHECK(std::string(hitgrid_last_error()).find("inverted box: miny 0 > maxy -1") != std::string::npos);
  CHECK(hitgrid_world_destroy(world, 12345) == HITGRID_INVALID_HANDLE);
  CHECK(hitgrid_last_error_handle() == 12345);
  // An ISA this machine lacks is hitgrid::Error; one that does not exist, a bad argument.
  hitgrid_find_pairs_options options;
  REQUIRE(hitgrid_find_pairs_options_init(&options) == HITGRID_OK);
  hitgrid_pair_finder* finder = nullptr;
  options.cell_size = -1;
  CHECK(hitgrid_pair_finder_new(&options, &finder) == HITGRID_ERROR);
  CHECK(finder == nullptr);
  options.cell_size = 0;
  options.method = 9;
  CHECK(hitgrid_pair_finder_new(&options, &finder) == HITGRID_INVALID_ARGUMENT);
  hitgrid_shape_arrays arrays{nullptr, 3, nullptr, 0, nullptr, 0};
  hitgrid_pair* pairs = nullptr;
  std::size_t count = 0;
  CHECK(hitgrid_find_pairs(nullptr, &arrays, &pairs, &count) == HITGRID_INVALID_ARGUMENT);
  CHECK(std::string(hitgrid_last_error()) == "hitgrid_find_pairs: shapes->segments is NULL");
  CHECK(hitgrid_world_free(world) == HITGRID_OK);
}

TEST_CASE("The last error is the calling thread's own", "[capi]") {
  CHECK(hitgrid_world_size(nullptr, nullptr) == HITGRID_INVALID_ARGUMENT);
  std::string other;
  std::thread([&] {
    other = hitgrid_last_error();  // nothing failed on this thread yet
    hitgrid_world_destroy(nullptr, 0);
  }).join();
  CHECK(other.empty());
  CHECK(std::string(hitgrid_last_error()) == "hitgrid_world_size: world is NULL");
}

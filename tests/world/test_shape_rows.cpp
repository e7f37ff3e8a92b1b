// Shape rows (hitgrid/world/shape_rows.hpp): shape_of_row reads row i of each kind at
// data[i * row_stride + j * column_stride], for packed rows, padded rows, a transposed
// (column-major) layout and rows in reverse (a negative stride), and validates nothing;
// checked_shape passes valid shapes through and throws InvalidShapeError naming the kind,
// the position given and the reason ("circle 2: r is NaN"); row_width is 4, or 3 for
// circles.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <variant>
#include <vector>

#include "hitgrid/core/error.hpp"
#include "hitgrid/world/shape_rows.hpp"

using namespace hitgrid;

namespace {

constexpr float qnan = std::numeric_limits<float>::quiet_NaN();
constexpr float inf = std::numeric_limits<float>::infinity();

/// Field j of row i in the test's tables: distinct for every (i, j).
float field(std::size_t i, std::size_t j) { return static_cast<float>(10 * i + j) + 0.5f; }

/// The shape of `kind` whose fields are field(i, 0..).
Shape expected(ShapeKind kind, std::size_t i) {
  auto f = [&](std::size_t j) { return field(i, j); };
  switch (kind) {
    case ShapeKind::segment:
      return Segment{{f(0), f(1)}, {f(2), f(3)}};
    case ShapeKind::circle:
      return Circle{{f(0), f(1)}, f(2)};
    case ShapeKind::box:
      break;
  }
  return Box{{f(0), f(1)}, {f(2), f(3)}};
}

/// Rows of `kind` laid out four ways: packed, padded, transposed and reversed.
struct Layouts {
  std::vector<float> packed, padded, transposed, reversed;
  ShapeRows packed_rows, padded_rows, transposed_rows, reversed_rows;

  Layouts(ShapeKind kind, std::size_t n) {
    const std::size_t w = row_width(kind), pad = w + 3;
    packed.assign(n * w, qnan);
    padded.assign(n * pad, qnan);  // the padding is NaN: never read
    transposed.assign(n * w, qnan);
    reversed.assign(n * w, qnan);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < w; ++j) {
        packed[i * w + j] = field(i, j);
        padded[i * pad + j] = field(i, j);
        transposed[j * n + i] = field(i, j);
        reversed[(n - 1 - i) * w + j] = field(i, j);
      }
    const auto sw = static_cast<std::ptrdiff_t>(w), sn = static_cast<std::ptrdiff_t>(n);
    packed_rows = {packed.data(), n, sw, 1};
    padded_rows = {padded.data(), n, static_cast<std::ptrdiff_t>(pad), 1};
    transposed_rows = {transposed.data(), n, 1, sn};
    reversed_rows = {reversed.data() + (n - 1) * w, n, -sw, 1};  // row 0 is the last in memory
  }
};

}  // namespace

TEST_CASE("row_width: four floats per row, three for circles", "[shape_rows]") {
  STATIC_REQUIRE(row_width(ShapeKind::segment) == 4);
  STATIC_REQUIRE(row_width(ShapeKind::circle) == 3);
  STATIC_REQUIRE(row_width(ShapeKind::box) == 4);
}

TEST_CASE("shape_of_row reads each kind's fields at the rows' strides", "[shape_rows]") {
  constexpr std::size_t n = 5;
  for (ShapeKind kind : {ShapeKind::segment, ShapeKind::circle, ShapeKind::box}) {
    const Layouts l(kind, n);
    for (const ShapeRows* rows : {&l.packed_rows, &l.padded_rows, &l.transposed_rows, &l.reversed_rows}) {
      for (std::size_t i = 0; i < n; ++i) {
        INFO(kind_name(kind) << " row " << i << ", strides " << rows->row_stride << " and " << rows->column_stride);
        const Shape got = shape_of_row(kind, *rows, i);
        CHECK(got.index() == static_cast<std::size_t>(kind));
        CHECK(got == expected(kind, i));
      }
    }
  }
  // Spelled out: a C array of circles {cx, cy, r}, and the same circles as three columns.
  const float circles[2][3] = {{1, 2, 3}, {4, 5, 6}};
  const ShapeRows by_row{&circles[0][0], 2, 3, 1};
  CHECK(shape_of_row(ShapeKind::circle, by_row, 1) == Shape(Circle{{4, 5}, 6}));
  const float columns[3][2] = {{1, 4}, {2, 5}, {3, 6}};
  const ShapeRows by_column{&columns[0][0], 2, 1, 2};
  CHECK(shape_of_row(ShapeKind::circle, by_column, 0) == Shape(Circle{{1, 2}, 3}));
  CHECK(shape_of_row(ShapeKind::circle, by_column, 1) == Shape(Circle{{4, 5}, 6}));
}

TEST_CASE("shape_of_row does not validate", "[shape_rows]") {
  const float row[4] = {qnan, inf, -1, -2};
  const ShapeRows rows{row, 1, 4, 1};
  const Shape circle = shape_of_row(ShapeKind::circle, rows, 0);
  REQUIRE(std::holds_alternative<Circle>(circle));
  CHECK(std::isnan(std::get<Circle>(circle).c.x));
  CHECK(std::get<Circle>(circle).c.y == inf);
  CHECK(std::get<Circle>(circle).r == -1);
  const Shape box = shape_of_row(ShapeKind::box, rows, 0);  // inverted in y, and NaN
  REQUIRE(std::holds_alternative<Box>(box));
  CHECK(std::get<Box>(box).max.y == -2);
}

TEST_CASE("checked_shape passes valid shapes and names invalid ones by kind and position", "[shape_rows]") {
  // Valid shapes, degenerate ones included, come back as they are (the same object).
  for (const Shape& valid : {Shape(Segment{{1, 2}, {1, 2}}), Shape(Circle{{0, 0}, 0}), Shape(Box{{3, 3}, {3, 3}}),
                             Shape(Circle{{-1e30f, 1e30f}, 1e30f})}) {
    CHECK(&checked_shape(valid, 4) == &valid);
  }
  struct Case {
    Shape shape;
    std::size_t position;
    ShapeId id;
    const char* what;
    const char* reason;
  };
  const Case cases[] = {
      {Circle{{0, 0}, qnan}, 2, {ShapeKind::circle, 2}, "circle 2: r is NaN", "r is NaN"},
      {Circle{{0, 0}, -1}, 0, {ShapeKind::circle, 0}, "circle 0: negative radius -1", "negative radius -1"},
      {Circle{{inf, 0}, 1}, 9, {ShapeKind::circle, 9}, "circle 9: cx is infinite", "cx is infinite"},
      {Segment{{0, 0}, {1, -inf}}, 0, {ShapeKind::segment, 0}, "segment 0: by is infinite", "by is infinite"},
      {Segment{{qnan, 0}, {1, 1}}, 17, {ShapeKind::segment, 17}, "segment 17: ax is NaN", "ax is NaN"},
      {Box{{2, 0}, {1, 1}},
       7,
       {ShapeKind::box, 7},
       "box 7: inverted box: minx 2 > maxx 1",
       "inverted box: minx 2 > maxx 1"},
      {Box{{0, 0}, {1, qnan}}, 3, {ShapeKind::box, 3}, "box 3: maxy is NaN", "maxy is NaN"},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    try {
      (void)checked_shape(c.shape, c.position);
      FAIL_CHECK("no exception");
    } catch (const InvalidShapeError& e) {
      CHECK(std::string(e.what()) == c.what);
      CHECK(e.id() == c.id);
      CHECK(e.reason() == c.reason);
    }
    CHECK_THROWS_AS(checked_shape(c.shape, c.position), Error);  // its base, what callers may catch
  }
}

TEST_CASE("rows read and checked one by one name the first invalid row by its position", "[shape_rows]") {
  // Boxes as a C API caller hands them over, the third one inverted.
  const float boxes[4][4] = {{0, 0, 1, 1}, {2, 2, 3, 3}, {5, 0, 4, 1}, {0, 0, qnan, 1}};
  const ShapeRows rows{&boxes[0][0], 4, 4, 1};
  std::vector<Shape> shapes;
  try {
    for (std::size_t i = 0; i < rows.count; ++i)
      shapes.push_back(checked_shape(shape_of_row(ShapeKind::box, rows, i), i));
    FAIL_CHECK("no exception");
  } catch (const InvalidShapeError& e) {
    CHECK(std::string(e.what()) == "box 2: inverted box: minx 5 > maxx 4");
    CHECK(e.id() == ShapeId(ShapeKind::box, 2));
  }
  REQUIRE(shapes.size() == 2);
  CHECK(shapes[1] == Shape(Box{{2, 2}, {3, 3}}));
}

// The SVG writer: where things land in pixels, zero-size shapes staying visible, ids and
// classes a program can read back, density rasters, animation frames, refused windows.
#include "hitgrid/draw/svg.hpp"

#include <catch2/catch.hpp>

#include <regex>
#include <string>

#include "hitgrid/core/error.hpp"

namespace hitgrid {
namespace {

int count_of(const std::string& text, const std::string& needle) {
  int n = 0;
  for (std::size_t i = text.find(needle); i != std::string::npos; i = text.find(needle, i + 1)) ++n;
  return n;
}

TEST_CASE("svg: the window maps to pixels with y up", "[draw]") {
  SvgCanvas canvas(Box{{0, 0}, {10, 5}}, 100);
  CHECK(canvas.width_px() == 100);
  CHECK(canvas.height_px() == 50);
  canvas.segment({{0, 0}, {10, 5}}, SvgStyle::line("#ff0000"), "s0");
  canvas.box({{1, 1}, {2, 3}}, SvgStyle().with_class("hit"), "b4");
  canvas.circle({{5, 2.5f}, 1}, {}, "c2");
  const std::string svg = canvas.finish();
  CHECK(svg.find("<line x1=\"0\" y1=\"50\" x2=\"100\" y2=\"0\"") != std::string::npos);
  CHECK(svg.find("data-id=\"s0\"") != std::string::npos);
  CHECK(svg.find("stroke=\"#ff0000\"") != std::string::npos);
  CHECK(svg.find("<rect x=\"10\" y=\"20\" width=\"10\" height=\"20\" data-id=\"b4\" class=\"hit\"") != std::string::npos);
  CHECK(svg.find("<circle cx=\"50\" cy=\"25\" r=\"10\" data-id=\"c2\"") != std::string::npos);
  CHECK(svg.rfind("</svg>\n") == svg.size() - 7);
}

TEST_CASE("svg: zero-size shapes are drawn as round-capped dots and lines", "[draw]") {
  SvgCanvas canvas(Box{{0, 0}, {10, 10}}, 100);
  canvas.circle({{1, 1}, 0}, {}, "c0");
  canvas.box({{2, 2}, {2, 8}}, {}, "b0");
  canvas.box({{3, 3}, {3, 3}}, {}, "b1");
  const std::string svg = canvas.finish();
  CHECK(count_of(svg, "<line ") == 3);
  CHECK(count_of(svg, "stroke-linecap=\"round\"") == 3);
  CHECK(svg.find("<line x1=\"20\" y1=\"80\" x2=\"20\" y2=\"20\" stroke-linecap=\"round\" data-id=\"b0\"") != std::string::npos);
}

TEST_CASE("svg: text is escaped, comments cannot close early", "[draw]") {
  SvgCanvas canvas(Box{{0, 0}, {1, 1}}, 100);
  canvas.title("a < b & \"c\"");
  canvas.comment("x -- y");
  canvas.label({0, 0}, "<tag>", 10, "#000");
  const std::string svg = canvas.finish();
  CHECK(svg.find("<title>a &lt; b &amp; &quot;c&quot;</title>") != std::string::npos);
  CHECK(svg.find("x - - y") != std::string::npos);
  CHECK(svg.find("&lt;tag&gt;") != std::string::npos);
}

TEST_CASE("svg: density rasters count points per closed cell", "[draw]") {
  DensityRaster r(Box{{0, 0}, {4, 2}}, 4, 2);
  r.add({0, 0});
  r.add({0.5f, 0.5f}, true);
  r.add({4, 2});      // the top right corner belongs to the last cell
  r.add({5, 1});      // outside: ignored
  r.add({1, 1.5f});
  CHECK(r.count == std::vector<std::uint32_t>{2, 0, 0, 0, 0, 1, 0, 1});
  CHECK(r.marked == std::vector<std::uint32_t>{1, 0, 0, 0, 0, 0, 0, 0});
  SvgCanvas canvas(Box{{0, 0}, {4, 2}}, 400);
  canvas.density(r, "#0000ff", "#ff0000");
  const std::string svg = canvas.finish();
  CHECK(count_of(svg, "data-count=") == 3);
  CHECK(svg.find("<rect x=\"0\" y=\"100\" width=\"100\" height=\"100\" fill=\"#ff0000\" fill-opacity=\"1\" data-count=\"2\"/>") !=
        std::string::npos);
}

TEST_CASE("svg: animation frames show one at a time, frame 0 without animation", "[draw]") {
  SvgCanvas canvas(Box{{0, 0}, {1, 1}}, 100);
  for (std::size_t i = 0; i < 4; ++i) {
    canvas.begin_frame(i, 4, 2.0);
    canvas.dot({0.5f, 0.5f}, 2, {});
    canvas.end_group();
  }
  const std::string svg = canvas.finish();
  CHECK(count_of(svg, "visibility=\"visible\"") == 1);
  CHECK(count_of(svg, "visibility=\"hidden\"") == 3);
  CHECK(svg.find("values=\"hidden;visible;hidden\" keyTimes=\"0;0.25;0.5\" dur=\"2s\"") != std::string::npos);
  CHECK(svg.find("values=\"visible;hidden\" keyTimes=\"0;0.25\"") != std::string::npos);
  CHECK(svg.find("values=\"hidden;visible\" keyTimes=\"0;0.75\"") != std::string::npos);
}

TEST_CASE("svg: groups left open are closed, grid lines have a budget", "[draw]") {
  SvgCanvas canvas(Box{{0, 0}, {10, 10}}, 100);
  canvas.begin_group("a");
  canvas.begin_clip(Box{{1, 1}, {2, 2}});
  CHECK(canvas.grid_lines(2.5, {}));        // 0, 2.5, 5, 7.5, 10 each way
  CHECK_FALSE(canvas.grid_lines(0.001, {}));  // 10001 lines: refused
  const std::string svg = canvas.finish();
  CHECK(count_of(svg, "<g") == count_of(svg, "</g>"));
  CHECK(count_of(svg, "M") == 10);
}

TEST_CASE("svg: a bad window or width is refused", "[draw]") {
  CHECK_THROWS_AS(SvgCanvas(Box{{0, 0}, {NAN, 1}}, 100), Error);
  CHECK_THROWS_AS(SvgCanvas(Box{{1, 0}, {0, 1}}, 100), Error);
  CHECK_THROWS_AS(SvgCanvas(Box{{0, 0}, {1, 1}}, 1), Error);
  SvgCanvas point(Box{{3, 3}, {3, 3}}, 100);  // a point window grows to a unit square
  CHECK(point.scale() == 100);
}

}  // namespace
}  // namespace hitgrid

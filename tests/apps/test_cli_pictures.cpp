// End-to-end tests of the picture verbs, `hitgrid draw` and `hitgrid rope`: the SVG they
// write is read back (every shape in the window present, once, coloured by its exact
// collision state; the rope's polyline is the library rope's), and bad input gives a
// located error and exit status 1, bad usage 2.

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>

#include "hitgrid/broadphase/brute_force.hpp"
#include "hitgrid/core/intersects.hpp"
#include "hitgrid/core/scene_file.hpp"
#include "hitgrid/rope/rope.hpp"
#include "support/run_command.hpp"
#include "support/scratch_dir.hpp"

namespace fs = std::filesystem;
using namespace hitgrid;

namespace {

fs::path scratch(const std::string& name) {
  static const test::ScratchDir dir("hitgrid_cli_pictures");
  return dir / name;
}

test::CommandResult hitgrid_cli(const std::string& args) { return test::run_command(HITGRID_CLI_PATH, args); }

void write(const fs::path& p, const std::string& text) { std::ofstream(p) << text; }

// data-id -> stroke colour of every element that has one.
std::map<std::string, std::string> shapes_in(const std::string& svg, int* repeats) {
  std::map<std::string, std::string> out;
  static const std::regex element(R"re(<(line|circle|rect)[^>]*data-id="([scb][0-9]+)"[^>]*stroke="([^"]*)")re");
  *repeats = 0;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), element); it != std::sregex_iterator(); ++it)
    if (!out.emplace((*it)[2], (*it)[3]).second) ++*repeats;
  return out;
}

std::string id_of(ShapeId id) {
  std::string s(1, kind_letter(id.kind()));
  s += std::to_string(id.index());
  return s;
}

}  // namespace

TEST_CASE("hitgrid draw: every shape once, colliding ones red, the rest blue", "[cli][draw]") {
  const std::string scene_path = scratch("mixed.scene").string();
  REQUIRE(hitgrid_cli("gen mixed --n 3000 --seed 4 -o '" + scene_path + "'").status == 0);
  const auto r = hitgrid_cli("draw '" + scene_path + "' --pairs");
  REQUIRE(r.status == 0);
  CHECK(r.err.empty());
  const Scene scene = read_scene_file(scene_path);
  std::set<std::string> hit;
  for (const Pair& p : brute_force_pairs(scene)) {
    hit.insert(id_of(p.first()));
    hit.insert(id_of(p.second()));
  }
  int repeats = 0;
  const auto drawn = shapes_in(r.out, &repeats);
  CHECK(repeats == 0);
  CHECK(drawn.size() == scene.size());
  std::size_t red = 0;
  for (const auto& [id, colour] : drawn) {
    INFO(id);
    CHECK(colour == (hit.count(id) ? "#d62728" : "#1f77b4"));
    red += hit.count(id);
  }
  CHECK(red == hit.size());
  CHECK(red > 100);
  CHECK(red < scene.size());
}

TEST_CASE("hitgrid draw --window: exactly the shapes touching the window, the rest a density image", "[cli][draw]") {
  const std::string scene_path = scratch("window.scene").string();
  REQUIRE(hitgrid_cli("gen uniform --n 20000 --seed 2 -o '" + scene_path + "'").status == 0);
  const Scene scene = read_scene_file(scene_path);
  const Aabb b = scene.bounds();
  const float x0 = b.min.x + (b.max.x - b.min.x) * 0.3f, x1 = b.min.x + (b.max.x - b.min.x) * 0.45f;
  const float y0 = b.min.y + (b.max.y - b.min.y) * 0.5f, y1 = b.min.y + (b.max.y - b.min.y) * 0.6f;
  const Box window{{x0, y0}, {x1, y1}};
  const std::string svg_path = scratch("window.svg").string();
  char args[256];
  std::snprintf(args, sizeof args, " --window %.9g %.9g %.9g %.9g --cells -o '", x0, y0, x1, y1);
  const auto r = hitgrid_cli("draw '" + scene_path + "'" + args + svg_path + "'");
  REQUIRE(r.status == 0);
  const std::string svg = test::slurp(svg_path);
  std::set<std::string> expected;
  for (std::uint32_t i = 0; i < scene.segment_count(); ++i)
    if (intersects(scene.segment(i), window)) expected.insert(id_of(ShapeId(ShapeKind::segment, i)));
  for (std::uint32_t i = 0; i < scene.circle_count(); ++i)
    if (intersects(scene.circle(i), window)) expected.insert(id_of(ShapeId(ShapeKind::circle, i)));
  for (std::uint32_t i = 0; i < scene.box_count(); ++i)
    if (intersects(scene.box(i), window)) expected.insert(id_of(ShapeId(ShapeKind::box, i)));
  int repeats = 0;
  std::set<std::string> drawn;
  for (const auto& [id, colour] : shapes_in(svg, &repeats)) drawn.insert(id);
  CHECK(repeats == 0);
  CHECK(drawn == expected);
  CHECK(expected.size() > 50);
  // The rest is counted in the density image: the counts add up to the shapes not drawn.
  static const std::regex count(R"re(data-count="([0-9]+)")re");
  std::size_t counted = 0;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), count); it != std::sregex_iterator(); ++it)
    counted += std::stoul((*it)[1]);
  CHECK(counted + expected.size() == scene.size());
  CHECK_THAT(svg, Catch::Contains("class=\"cells\""));
}

TEST_CASE("hitgrid draw: above the budget, a density image of every shape", "[cli][draw]") {
  const std::string scene_path = scratch("budget.scene").string();
  REQUIRE(hitgrid_cli("gen clustered --n 5000 --seed 1 -o '" + scene_path + "'").status == 0);
  const auto r = hitgrid_cli("draw '" + scene_path + "' --budget 1000");
  REQUIRE(r.status == 0);
  int repeats = 0;
  CHECK(shapes_in(r.out, &repeats).empty());
  static const std::regex count(R"re(data-count="([0-9]+)")re");
  std::size_t counted = 0;
  for (auto it = std::sregex_iterator(r.out.begin(), r.out.end(), count); it != std::sregex_iterator(); ++it)
    counted += std::stoul((*it)[1]);
  CHECK(counted == 5000);
}

TEST_CASE("hitgrid rope: the picture shows the library's rope at the chosen frames", "[cli][rope]") {
  const fs::path pegs = scratch("pegs.scene"), path = scratch("path.txt");
  write(pegs, "c 0 0 0\nc 6 2 0\nc 3 7 0\n# a box gives its corners\nb 10 6 12 8\n");
  write(path, "-10 0\n10 1\n10 -1 # swing under the first peg\n0 -10\n-10 -1\n-10 1\n0 12\n");
  const auto r = hitgrid_cli("rope '" + pegs.string() + "' '" + path.string() + "' --frames 0,2,last --stats");
  REQUIRE(r.status == 0);
  static const std::regex rope_line(R"re(<polyline points="([^"]*)"[^>]*class="rope")re");
  std::vector<std::string> ropes;
  for (auto it = std::sregex_iterator(r.out.begin(), r.out.end(), rope_line); it != std::sregex_iterator(); ++it)
    ropes.push_back((*it)[1]);
  CHECK(ropes.size() == 3);
  // The last frame's nodes, as the library has them.
  Rope rope({-10, 0}, pegs_of(read_scene_file(pegs.string())).points);
  for (Vec2 p : std::vector<Vec2>{{-10, 0}, {10, 1}, {10, -1}, {0, -10}, {-10, -1}, {-10, 1}, {0, 12}})
    rope.move_end(p);
  std::string nodes = "[";
  for (std::size_t i = 1; i < rope.nodes().size(); ++i) {
    const RopeNode& n = rope.nodes()[i];
    if (i > 1) nodes += ',';
    nodes += '[';
    nodes += std::to_string(n.peg);
    nodes += ',';
    nodes += std::to_string(n.side);
    nodes += ',';
    nodes += std::to_string(n.half_turns);
    nodes += ']';
  }
  nodes += ']';
  CHECK_THAT(r.err, Catch::Contains("\"nodes\":" + nodes));
  CHECK(nodes != "[]");
  // Its polyline has one point per node and the end.
  CHECK(std::count(ropes.back().begin(), ropes.back().end(), ',') == static_cast<long>(rope.nodes().size() + 1));

  const auto anim = hitgrid_cli("rope '" + pegs.string() + "' '" + path.string() + "' --animate");
  REQUIRE(anim.status == 0);
  std::size_t frames = 0;
  for (std::size_t i = anim.out.find("class=\"frame\""); i != std::string::npos;
       i = anim.out.find("class=\"frame\"", i + 1))
    ++frames;
  CHECK(frames == 7);
}

TEST_CASE("hitgrid rope: circle pegs are drawn as circles, the rope along their arcs", "[cli][rope]") {
  const fs::path pegs = scratch("circle_pegs.scene"), path = scratch("circle_path.txt");
  write(pegs, "c 0 0 1.25\nc 6 -2 0.75\nc 3 7 0\n");
  write(path, "-10 0\n10 3\n10 -1\n2 -10\n-10 -3\n");
  const auto r = hitgrid_cli("rope '" + pegs.string() + "' '" + path.string() + "' --stats");
  REQUIRE(r.status == 0);
  const ScenePegs sp = pegs_of(read_scene_file(pegs.string()));
  CHECK(sp.radii == std::vector<float>{1.25f, 0.75f, 0.0f});
  Rope rope({-10, 0}, sp.points, sp.radii);
  for (Vec2 p : std::vector<Vec2>{{-10, 0}, {10, 3}, {10, -1}, {2, -10}, {-10, -3}}) rope.move_end(p);
  REQUIRE(rope.nodes().size() == 3);  // around both circles
  CHECK(rope.nodes()[1].peg == 0);
  CHECK(rope.nodes()[2].peg == 1);
  std::string nodes = "[";
  for (std::size_t i = 1; i < rope.nodes().size(); ++i) {
    const RopeNode& n = rope.nodes()[i];
    nodes += (i > 1 ? ",[" : "[") + std::to_string(n.peg) + "," + std::to_string(n.side) + "," +
             std::to_string(n.half_turns) + "]";
  }
  CHECK_THAT(r.err, Catch::Contains("\"nodes\":" + nodes + "]"));
  // The two circle pegs as <circle> elements (wrapped: the hit colour), the point as a dot.
  static const std::regex peg_circle(R"re(<circle[^>]*data-id="p([0-9])")re");
  int circles = 0;
  for (auto it = std::sregex_iterator(r.out.begin(), r.out.end(), peg_circle); it != std::sregex_iterator(); ++it)
    ++circles;
  CHECK(circles == 3);
  // The rope's polyline follows the arcs: more points than nodes and ends, each on the rope
  // (within drawing precision, every point at least a circle's radius from its centre).
  static const std::regex rope_line(R"re(<polyline points="([^"]*)"[^>]*class="rope")re");
  std::smatch m;
  REQUIRE(std::regex_search(r.out, m, rope_line));
  const std::string pts = m[1];
  CHECK(std::count(pts.begin(), pts.end(), ',') > 6);
  const std::vector<Vec2> outline = rope.outline();
  for (Vec2 v : outline)
    for (std::size_t i = 0; i < 2; ++i) {
      const double dx = v.x - sp.points[i].x, dy = v.y - sp.points[i].y;
      CHECK(std::sqrt(dx * dx + dy * dy) >= sp.radii[i] * (1 - 1e-5));
    }
}

TEST_CASE("hitgrid rope and draw: bad input gives a located error, bad usage status 2", "[cli][rope][draw]") {
  const fs::path pegs = scratch("pegs2.scene"), good = scratch("good.txt");
  write(pegs, "c 0 0 0\n");
  write(good, "1 1\n2 2\n");
  std::string p = "'";  // built with += : GCC 12 warns (-Wrestrict, falsely) on "'" + string
  p += pegs.string();
  p += "' ";
  struct Case {
    std::string path_text, message;
  };
  for (const Case& c : {Case{"1 1\n2 nan\n", ":2:3: not a finite number \"nan\""},
                        Case{"1 1\n2\n", ":2:2: too few fields"}, Case{"1 1 1\n", ":1:5: too many fields"},
                        Case{"1 x\n", ":1:3: malformed number \"x\""}, Case{"# nothing\n", "no points"}}) {
    const fs::path bad = scratch("bad.txt");
    write(bad, c.path_text);
    const auto r = hitgrid_cli("rope " + p + "'" + bad.string() + "' -o " + scratch("x.svg").string());
    INFO(c.path_text);
    CHECK(r.status == 1);
    CHECK_THAT(r.err, Catch::Contains(c.message));
  }
  write(scratch("circles.scene"), "c 0 0 0\nc 1 1 2\n");
  auto r = hitgrid_cli("rope '" + scratch("circles.scene").string() + "' '" + good.string() + "'");
  CHECK(r.status == 1);
  CHECK_THAT(r.err, Catch::Contains("peg 1 (a circle at (1, 1), radius 2") && Catch::Contains("touches peg 0"));
  r = hitgrid_cli("rope " + p + "'" + good.string() + "' --frames 5");
  CHECK(r.status == 1);
  CHECK_THAT(r.err, Catch::Contains("frame 5 is past the path's last frame 1"));
  r = hitgrid_cli("rope " + p + "'" + scratch("missing.txt").string() + "'");
  CHECK(r.status == 1);
  CHECK_THAT(r.err, Catch::Contains("missing.txt"));
  r = hitgrid_cli("rope " + p);
  CHECK(r.status == 2);
  r = hitgrid_cli("draw " + p + "--window 1 2 3");
  CHECK(r.status == 2);
  r = hitgrid_cli("draw " + p + "--window 3 0 1 1");
  CHECK(r.status == 1);
  CHECK_THAT(r.err, Catch::Contains("--window"));
  write(scratch("bad.scene"), "c 0 0 0\ns 1 2 3\n");
  r = hitgrid_cli("draw '" + scratch("bad.scene").string() + "'");
  CHECK(r.status == 1);
  CHECK_THAT(r.err, Catch::Contains("bad.scene:2:"));
  for (const char* verb : {"draw", "rope"}) {
    r = hitgrid_cli(std::string(verb) + " --help");
    CHECK(r.status == 0);
    CHECK_THAT(r.out, Catch::Contains("--output"));
  }
}

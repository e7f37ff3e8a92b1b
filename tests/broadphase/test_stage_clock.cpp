// StageClock (stage_clock.hpp): laps are appended in order with copies of their names,
// each the time since the previous lap (the first since the clock was made): never
// negative, at least as long as a sleep between them, and together no longer than the
// clock's life; a clock given no list (null) records nothing.
#include <catch2/catch.hpp>
#include <chrono>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "hitgrid/core/detail/stopwatch.hpp"
#include "stage_clock.hpp"

using namespace hitgrid;

TEST_CASE("StageClock appends laps in order with their names", "[stage_clock]") {
  std::vector<StageTime> stages = {{"earlier", 123.0}};  // what a report held before
  {
    StageClock clock(&stages);
    clock.lap("cells");
    clock.lap("sort");
    std::string name = "pairs";
    clock.lap(name);
    name = "changed";  // the lap keeps its own copy of the name
    clock.lap(std::string_view("merge, with a longer name than fits a short string").substr(0, 5));
  }
  REQUIRE(stages.size() == 5);
  CHECK(stages[0].name == "earlier");
  CHECK(stages[0].ms == 123.0);
  const char* names[] = {"cells", "sort", "pairs", "merge"};
  for (std::size_t i = 0; i < 4; ++i) {
    INFO("lap " << i);
    CHECK(stages[i + 1].name == names[i]);
    CHECK(stages[i + 1].ms >= 0.0);
  }
}

TEST_CASE("StageClock times each lap since the previous one", "[stage_clock]") {
  using namespace std::chrono_literals;
  std::vector<StageTime> stages;
  Stopwatch outer;  // started before the clock, read after its last lap
  StageClock clock(&stages);
  std::this_thread::sleep_for(3ms);
  clock.lap("first");  // since the clock was made
  clock.lap("quick");
  std::this_thread::sleep_for(2ms);
  clock.lap("slow");
  const double life = outer.lap_ms();
  REQUIRE(stages.size() == 3);
  // sleep_for waits at least as long as asked, on the steady clock the laps read.
  CHECK(stages[0].ms >= 3.0);
  CHECK(stages[1].ms >= 0.0);
  CHECK(stages[2].ms >= 2.0);
  // The laps partition the clock's life, which lies within the outer watch's.
  const double sum = stages[0].ms + stages[1].ms + stages[2].ms;
  CHECK(sum <= life + 1e-6);
  CHECK(sum >= 5.0);
}

TEST_CASE("StageClock with no list records nothing", "[stage_clock]") {
  StageClock clock(nullptr);
  for (int i = 0; i < 100; ++i) clock.lap("nowhere");  // no list to write: nothing happens
  // A clock with a list next to it is unaffected.
  std::vector<StageTime> stages;
  StageClock other(&stages);
  clock.lap("still nowhere");
  other.lap("here");
  REQUIRE(stages.size() == 1);
  CHECK(stages[0].name == "here");
}

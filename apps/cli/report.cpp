#include "report.hpp"

#include <fmt/format.h>

#include "hitgrid/core/detail/json_escape.hpp"

namespace hitgrid::cli {
namespace {

double per_second(std::uint64_t n, double ms) { return ms > 0.0 ? static_cast<double>(n) / (ms / 1000.0) : 0.0; }

}  // namespace

void RunSummary::set_scene(const std::string& name, const Scene& scene) {
  scene_name = name;
  segments = scene.segment_count();
  circles = scene.circle_count();
  boxes = scene.box_count();
}

std::string stats_json(const RunSummary& run) {
  std::string stages;
  auto add = [&](const std::vector<StageTime>& list, const char* prefix) {
    for (const StageTime& s : list) {
      if (!stages.empty()) stages += ", ";
      stages += fmt::format("\"{}{}\": {:.3f}", prefix, json_escape(s.name), s.ms);
    }
  };
  add(run.before_find, "");
  add(run.find.stages, "find_pairs.");
  add(run.after_find, "");
  return fmt::format(
      "{{\"scene\": \"{}\", \"shapes\": {}, \"segments\": {}, \"circles\": {}, \"boxes\": {}, \"pairs\": {}, "
      "\"pair_hash\": {}, \"candidates\": {}, \"key_passes\": {}, \"method\": \"{}\", \"isa\": \"{}\", \"isa_requested\": \"{}\", "
      "\"threads\": {}, \"cell_size\": {}, \"runs\": {}, \"stages_ms\": {{{}}}, \"find_pairs_ms\": {:.3f}, "
      "\"find_pairs_min_ms\": {:.3f}, \"find_pairs_first_ms\": {:.3f}, \"pairs_per_s\": {:.0f}, "
      "\"peak_rss_bytes\": {}}}",
      json_escape(run.scene_name), run.segments + run.circles + run.boxes, run.segments, run.circles, run.boxes,
      run.pairs, run.pair_hash ? fmt::format("\"{:016x}\"", *run.pair_hash) : std::string("null"), run.find.candidates,
      run.find.key_passes, broad_phase_name(run.find.method), isa_name(run.find.isa),
      isa_name(run.isa_requested), run.find.threads, run.find.cell_size, run.runs, stages, run.find.total_ms,
      run.runs > 1 ? run.min_find_ms : run.find.total_ms, run.runs > 1 ? run.first_find_ms : run.find.total_ms,
      per_second(run.pairs, run.find.total_ms), run.peak_bytes);
}

void print_report(std::FILE* out, const RunSummary& run) {
  const std::uint64_t shapes = run.segments + run.circles + run.boxes;
  fmt::print(out, "scene      {}: {} shapes ({} segments, {} circles, {} boxes)\n", run.scene_name, shapes,
             run.segments, run.circles, run.boxes);
  fmt::print(out, "method     {}{}, narrow phase {} (requested {}), {} thread{}\n", broad_phase_name(run.find.method),
             run.find.cell_size > 0 ? fmt::format(" (cell {})", run.find.cell_size) : "", isa_name(run.find.isa),
             isa_name(run.isa_requested), run.find.threads, run.find.threads == 1 ? "" : "s");
  for (const StageTime& s : run.before_find) fmt::print(out, "  {:<26} {:>10.2f} ms\n", s.name, s.ms);
  for (const StageTime& s : run.find.stages) fmt::print(out, "  find_pairs.{:<15} {:>10.2f} ms\n", s.name, s.ms);
  if (run.runs > 1)
    fmt::print(out,
               "  {:<26} {:>10.2f} ms   (median of {} runs; fastest {:.2f} ms; first, on fresh memory, {:.2f} ms)\n",
               "find_pairs (total)", run.find.total_ms, run.runs, run.min_find_ms, run.first_find_ms);
  else
    fmt::print(out, "  {:<26} {:>10.2f} ms\n", "find_pairs (total)", run.find.total_ms);
  for (const StageTime& s : run.after_find) fmt::print(out, "  {:<26} {:>10.2f} ms\n", s.name, s.ms);
  fmt::print(out, "pairs      {} ({} candidates tested exactly), hash {}\n", run.pairs, run.find.candidates,
             run.pair_hash ? fmt::format("{:016x}", *run.pair_hash) : std::string("not computed"));
  fmt::print(out, "rate       {:.3g} pairs/s, {:.3g} shapes/s\n", per_second(run.pairs, run.find.total_ms),
             per_second(shapes, run.find.total_ms));
  const std::uint64_t peak = run.peak_bytes;
  if (peak > 0)
    fmt::print(out, "memory     {:.1f} MiB peak resident ({:.0f} bytes per shape)\n",
               static_cast<double>(peak) / (1 << 20),
               shapes ? static_cast<double>(peak) / static_cast<double>(shapes) : 0.0);
}

}  // namespace hitgrid::cli

#include "hitgrid/core/point_list_io.hpp"

#include "hitgrid/core/error.hpp"
#include "file_bytes.hpp"
#include "parse_float32.hpp"
#include "text_scan.hpp"

namespace hitgrid {
namespace {

[[noreturn]] void fail(const std::string& file, std::uint64_t line, std::uint64_t column, const std::string& message) {
  throw ParseError(file, line, column, message);
}

}  // namespace

std::vector<Vec2> read_points_text(std::string_view text, const std::string& filename) {
  std::vector<Vec2> points;
  detail::LineReader lines(text);
  while (lines.next()) {
    const std::uint64_t line = lines.number();
    detail::Tokenizer tokens(lines.content());
    float v[2];
    detail::Token t;
    for (int i = 0; i < 2; ++i) {
      if (!tokens.next(t)) {
        if (i == 0) break;
        fail(filename, line, tokens.end_column(), "too few fields: a point takes 2 numbers, found 1");
      }
      switch (detail::parse_float32(t.text, v[i])) {
        case detail::NumberStatus::ok: break;
        case detail::NumberStatus::malformed: fail(filename, line, t.column, "malformed number " + detail::quote(t.text));
        case detail::NumberStatus::not_finite: fail(filename, line, t.column, "not a finite number " + detail::quote(t.text));
        case detail::NumberStatus::overflow:
          fail(filename, line, t.column, "number " + detail::quote(t.text) + " is out of float32 range (largest 3.40282347e+38)");
      }
      if (i == 1) points.push_back({v[0], v[1]});
    }
    detail::Token extra;
    if (tokens.next(extra))
      fail(filename, line, extra.column, "too many fields: a point takes 2 numbers, found " + std::to_string(3 + tokens.count_rest()));
  }
  return points;
}

std::vector<Vec2> read_points_file(const std::string& path) { return read_points_text(detail::read_file_bytes(path), path); }

}  // namespace hitgrid

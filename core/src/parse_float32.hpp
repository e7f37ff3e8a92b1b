// Private: decimal text to float32, shared by the text readers (scenes, point lists).
//
// std::from_chars syntax plus an optional leading '+', rounded once, to nearest, straight
// to float32 (no detour through double). Too large for float32 ("1e39") is `overflow`;
// too small rounds to zero or a subnormal and is accepted; "nan", "inf", "infinity" are
// `not_finite`.
#pragma once

#include <charconv>
#include <cmath>
#include <cstdint>
#include <string_view>

namespace hitgrid::detail {

enum class NumberStatus { ok, malformed, not_finite, overflow };

// True if the decimal t (which std::from_chars accepted but found out of float range) has
// magnitude >= 1, i.e. it overflowed; false if it is below 1, i.e. it underflowed to zero.
// Out-of-range decimals are either above FLT_MAX or below half the smallest subnormal, so
// the place value of the first nonzero digit plus the exponent decides.
inline bool magnitude_at_least_one(std::string_view t) {
  std::size_t i = (!t.empty() && t[0] == '-') ? 1 : 0;
  std::int64_t int_digits = 0;
  std::int64_t first_nonzero_int = -1;  // index among the integer digits
  for (; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i, ++int_digits)
    if (first_nonzero_int < 0 && t[i] != '0') first_nonzero_int = int_digits;
  std::int64_t place = 0;  // place value (power of ten) of the first nonzero digit
  bool found = first_nonzero_int >= 0;
  if (found) place = int_digits - 1 - first_nonzero_int;
  if (i < t.size() && t[i] == '.') {
    ++i;
    for (std::int64_t j = 0; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i, ++j)
      if (!found && t[i] != '0') {
        found = true;
        place = -(j + 1);
      }
  }
  if (!found) return false;
  std::int64_t exponent = 0;
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    bool negative = false;
    if (i < t.size() && (t[i] == '+' || t[i] == '-')) negative = t[i++] == '-';
    // Saturate: anything past a million digits' worth is out of range either way.
    for (; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i)
      if (exponent < 1'000'000'000) exponent = exponent * 10 + (t[i] - '0');
    if (negative) exponent = -exponent;
  }
  // Lengths and exponents are far below 2^62: no overflow here.
  return place + exponent >= 0;
}

inline NumberStatus parse_float32(std::string_view t, float& out) {
  // A leading '+' is allowed before a digit or a point (from_chars takes no sign but '-').
  if (t.size() > 1 && t[0] == '+' && ((t[1] >= '0' && t[1] <= '9') || t[1] == '.')) t.remove_prefix(1);
  const char* end = t.data() + t.size();
  const auto [ptr, ec] = std::from_chars(t.data(), end, out, std::chars_format::general);
  if (ptr != end || (ec != std::errc() && ec != std::errc::result_out_of_range)) return NumberStatus::malformed;
  if (ec == std::errc::result_out_of_range) {
    if (magnitude_at_least_one(t)) return NumberStatus::overflow;
    // Below half the smallest subnormal: round-to-nearest gives zero, keeping the sign.
    out = t[0] == '-' ? -0.0f : 0.0f;
    return NumberStatus::ok;
  }
  if (!std::isfinite(out)) return NumberStatus::not_finite;
  return NumberStatus::ok;
}

}  // namespace hitgrid::detail

// Typed errors for everything a user can get wrong. Programming errors (a broken
// invariant inside hitgrid) are asserts; bad input is always one of these exceptions, and
// its what() says what is wrong and where.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "hitgrid/core/shape_id.hpp"

namespace hitgrid {

/// Base class of every error hitgrid throws on bad input or failed I/O.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A shape that is not a valid closed shape: a NaN or infinite coordinate, a negative
/// radius, an inverted box. what(): "circle 3: negative radius -1".
class InvalidShapeError : public Error {
 public:
  InvalidShapeError(ShapeId id, const std::string& reason);
  ShapeId id() const { return id_; }
  const std::string& reason() const { return reason_; }

 private:
  ShapeId id_;
  std::string reason_;
};

/// Malformed input text or bytes. For text, line and column count from 1; for binary
/// input, line is 0 and column holds the byte offset. what(): "FILE:LINE:COL: message"
/// or "FILE: byte OFFSET: message".
class ParseError : public Error {
 public:
  ParseError(std::string file, std::uint64_t line, std::uint64_t column, const std::string& message);
  static ParseError at_byte(std::string file, std::uint64_t offset, const std::string& message);

  const std::string& file() const { return file_; }
  std::uint64_t line() const { return line_; }
  std::uint64_t column() const { return column_; }
  bool is_binary() const { return line_ == 0; }
  const std::string& message() const { return message_; }

 private:
  ParseError(std::string file, std::uint64_t line, std::uint64_t column, const std::string& message,
             std::string what);
  std::string file_;
  std::uint64_t line_;
  std::uint64_t column_;
  std::string message_;
};

/// A file that cannot be opened, read or written. what(): "FILE: reason".
class IoError : public Error {
 public:
  IoError(const std::string& file, const std::string& reason);
};

}  // namespace hitgrid

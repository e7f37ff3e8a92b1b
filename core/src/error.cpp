#include "hitgrid/core/error.hpp"

#include <utility>

namespace hitgrid {

InvalidShapeError::InvalidShapeError(ShapeId id, const std::string& reason)
    : Error(std::string(kind_name(id.kind())) + " " + std::to_string(id.index()) + ": " + reason),
      id_(id),
      reason_(reason) {}

ParseError::ParseError(std::string file, std::uint64_t line, std::uint64_t column, const std::string& message)
    : ParseError(file, line, column, message,
                 file + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + message) {}

ParseError::ParseError(std::string file, std::uint64_t line, std::uint64_t column, const std::string& message,
                       std::string what)
    : Error(what), file_(std::move(file)), line_(line), column_(column), message_(message) {}

ParseError ParseError::at_byte(std::string file, std::uint64_t offset, const std::string& message) {
  std::string what = file + ": byte " + std::to_string(offset) + ": " + message;
  return ParseError(std::move(file), 0, offset, message, std::move(what));
}

IoError::IoError(const std::string& file, const std::string& reason) : Error(file + ": " + reason) {}

}  // namespace hitgrid

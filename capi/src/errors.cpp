// The thread's last error and the exception-to-status map (guard.hpp).
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>

#include "guard.hpp"
#include "hitgrid/core/error.hpp"
#include "hitgrid/world/world.hpp"

namespace hitgrid::capi {
namespace {

struct LastError {
  std::string message;
  hitgrid_handle handle = 0;
};
thread_local LastError last_error;

hitgrid_status record(hitgrid_status status, const char* function, const char* message,
                      hitgrid_handle handle) noexcept {
  last_error.handle = handle;
  try {
    last_error.message.assign(function).append(": ").append(message);
  } catch (...) {
    // No memory for the message: keep the status, and a message that needs none.
    last_error.message.clear();
    last_error.message.shrink_to_fit();
  }
  return status;
}

}  // namespace

hitgrid_status status_of_exception(const char* function) noexcept {
  try {
    throw;
  } catch (const InvalidShapeError& e) {
    return record(HITGRID_INVALID_SHAPE, function, e.what(), 0);
  } catch (const InvalidHandleError& e) {
    return record(HITGRID_INVALID_HANDLE, function, e.what(), e.handle().bits());
  } catch (const ParseError& e) {
    return record(HITGRID_PARSE_ERROR, function, e.what(), 0);
  } catch (const IoError& e) {
    return record(HITGRID_IO_ERROR, function, e.what(), 0);
  } catch (const Error& e) {
    return record(HITGRID_ERROR, function, e.what(), 0);
  } catch (const ArgumentError& e) {
    return record(HITGRID_INVALID_ARGUMENT, function, e.what(), 0);
  } catch (const std::bad_alloc&) {
    return record(HITGRID_OUT_OF_MEMORY, function, "out of memory", 0);
  } catch (const std::length_error&) {  // a count beyond what a vector can hold
    return record(HITGRID_OUT_OF_MEMORY, function, "out of memory: a count too large to hold", 0);
  } catch (const std::exception& e) {
    return record(HITGRID_INTERNAL_ERROR, function, e.what(), 0);
  } catch (...) {
    return record(HITGRID_INTERNAL_ERROR, function, "unknown exception", 0);
  }
}

}  // namespace hitgrid::capi

extern "C" {

const char* hitgrid_last_error(void) {
  const std::string& m = hitgrid::capi::last_error.message;
  return m.empty() ? "" : m.c_str();
}

hitgrid_handle hitgrid_last_error_handle(void) { return hitgrid::capi::last_error.handle; }

const char* hitgrid_status_name(hitgrid_status status) {
  switch (status) {
    case HITGRID_OK:
      return "HITGRID_OK";
    case HITGRID_ERROR:
      return "HITGRID_ERROR";
    case HITGRID_INVALID_SHAPE:
      return "HITGRID_INVALID_SHAPE";
    case HITGRID_INVALID_HANDLE:
      return "HITGRID_INVALID_HANDLE";
    case HITGRID_PARSE_ERROR:
      return "HITGRID_PARSE_ERROR";
    case HITGRID_IO_ERROR:
      return "HITGRID_IO_ERROR";
    case HITGRID_OUT_OF_MEMORY:
      return "HITGRID_OUT_OF_MEMORY";
    case HITGRID_INVALID_ARGUMENT:
      return "HITGRID_INVALID_ARGUMENT";
    case HITGRID_INTERNAL_ERROR:
      return "HITGRID_INTERNAL_ERROR";
  }
  return "unknown status";
}

const char* hitgrid_version(void) { return HITGRID_VERSION_STRING; }

}  // extern "C"

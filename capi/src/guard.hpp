// The C boundary's one rule: no C++ exception crosses it. Every exported function runs its
// body inside guarded(), which catches everything, maps the exception's type to a
// hitgrid_status (status_of_exception) and keeps its message as the thread's last error.
//
//   hitgrid::InvalidShapeError   HITGRID_INVALID_SHAPE
//   hitgrid::InvalidHandleError  HITGRID_INVALID_HANDLE (and the handle)
//   hitgrid::ParseError          HITGRID_PARSE_ERROR
//   hitgrid::IoError             HITGRID_IO_ERROR
//   hitgrid::Error (other)       HITGRID_ERROR
//   ArgumentError                HITGRID_INVALID_ARGUMENT (a NULL pointer, a bad enum value:
//                                what the C++ types cannot express, checked here)
//   std::bad_alloc               HITGRID_OUT_OF_MEMORY
//   anything else                HITGRID_INTERNAL_ERROR
#pragma once

#include <stdexcept>
#include <string>

#include "hitgrid.h"

namespace hitgrid::capi {

/// An argument the C caller got wrong that the C++ API has no type for.
class ArgumentError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// Throws ArgumentError naming the parameter unless p is non-null.
template <class T>
T* required(T* p, const char* name) {
  if (p == nullptr) throw ArgumentError(std::string(name) + " is NULL");
  return p;
}

/// Maps the exception in flight (call from a catch block only) to its status and records
/// "`function`: message" (and the handle of an InvalidHandleError) as the thread's last
/// error.
hitgrid_status status_of_exception(const char* function) noexcept;

/// Runs body(); HITGRID_OK if it returns, else the status of what it threw.
template <class Body>
hitgrid_status guarded(const char* function, Body&& body) noexcept {
  try {
    body();
    return HITGRID_OK;
  } catch (...) {
    return status_of_exception(function);
  }
}

}  // namespace hitgrid::capi

// `untrusted_decode` and `untrusted_encode` (docs/runner-protocol.md section 11).
//
// Outcomes: the library's documented refusal (rows.cpp) is "rejected"; any other exception
// is "error", std::bad_alloc included (under the orchestrator's address-space limit an
// allocation that fails throws it: an ordinary exception in C++, which leaves the heap
// usable). A fatal fault is never caught: a stack overflow or a wild read is SIGSEGV, a
// failed assertion or std::terminate is SIGABRT, and the process dies with it (no signal
// handler is installed), so the orchestrator finds the input by bisecting the batch.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <utility>

#include "untrusted/canonical.h"

namespace sb::untrusted {

// A serializer's typed model on one built-in dataset: its own encoding of a message and its
// decode of bytes, rendered against the dataset's messages.
struct TypedRow {
  virtual ~TypedRow() = default;
  virtual Bytes encode(size_t message) = 0;
  // {"$check": "equal to message k"}, or the first difference from message 0; throws what
  // the library throws. p has kPad readable bytes past n.
  virtual json decode(const uint8_t* p, size_t n) = 0;
};

class Commands {
 public:
  // The reply line of an untrusted_decode or untrusted_encode command.
  json handle(const json& command);

 private:
  // prepared once per serializer and dataset file
  std::map<std::pair<std::string, std::string>, std::unique_ptr<TypedRow>> typed_;
  TypedRow& typed(const std::string& serializer, const json& dataset);
};

}  // namespace sb::untrusted

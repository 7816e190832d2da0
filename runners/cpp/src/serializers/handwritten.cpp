#include "handwritten.h"

#include "../harness/typed_user.h"

namespace sb {
SerializerEntry reg_handwritten() {
  return typed_entry<hw::Impl>({"handwritten",
                                "handwritten-binary",
                                "none (hand-written)",
                                "1",
                                {"binary", "schema-required", "copying-decode", "handwritten"},
                                0});
}
}  // namespace sb

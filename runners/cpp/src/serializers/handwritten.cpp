#include "handwritten.h"

namespace sb {
SB_REGISTER_FN(reg_handwritten, hw::Impl,
               {"handwritten",
                "handwritten-binary",
                "none (hand-written)",
                "1",
                {"binary", "schema-required", "copying-decode", "handwritten"},
                0})
}

// The one instantiation of CellRunner per dataset type (see cell.h).
#include "cell.h"

namespace sb {
// every built-in message type of the generated model
#define SB_CELL(T) template struct CellRunner<T>;
SB_BUILTIN_MESSAGE_TYPES(SB_CELL)
#undef SB_CELL
template struct CellRunner<Value>;
}  // namespace sb

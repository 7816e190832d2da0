// The one instantiation of CellRunner per dataset type (see cell.h).
#include "cell.h"

namespace sb {
template struct CellRunner<SampleList>;
template struct CellRunner<Test1>;
template struct CellRunner<Test2>;
template struct CellRunner<Test3>;
template struct CellRunner<Test4>;
template struct CellRunner<Dict>;
template struct CellRunner<ClickMap>;
template struct CellRunner<TestClassList>;
template struct CellRunner<Value>;
}  // namespace sb

// S3 one-mb-dict for Thrift (mirrors one_mb_dict.proto).
namespace java serbench.thrift
namespace cpp serbench_thrift

struct Dict {
  1: required map<string, string> entries
}

// The types language of datasets/README.md and protocol section 7, read from a types.json:
// what turns the canonical JSON into Foundation objects and what the positional layouts and
// the hand-written codec walk (an NSDictionary does not keep a record's field order).
#import <Foundation/Foundation.h>

typedef enum {
  SBInt32,
  SBUInt32,
  SBInt64,
  SBUInt64,
  SBBigInt,
  SBBool,
  SBString,
  SBTimestamp,
  SBFloat32,
  SBFloat64,
  SBBytes,
  SBNull,
  SBAny,
  SBEnum,
  SBList,
  SBMap,
  SBOptional,
  SBRecord
} SBKind;

@interface SBType : NSObject {
 @public
  SBKind kind;
  NSString *name;       // record or enum name
  NSArray *symbols;     // enum symbols
  SBType *elem;         // list element, map value, optional inner
  NSArray *fieldNames;  // record fields, in order
  NSArray *fieldTypes;
}
// The message type of `dataset` in a types file (`message` is a type or a per-dataset map).
+ (SBType *)messageTypeOf:(NSString *)dataset inFile:(NSString *)path error:(NSString **)error;
@end

// Canonical JSON (as NSJSONSerialization reads it) -> Foundation objects, by type: integers
// as long long NSNumbers, bool as BOOL NSNumbers, enums as ordinals, timestamps as integer
// milliseconds, bytes as NSData, floats as double/float NSNumbers, null as NSNull, records
// as NSDictionary keyed by field name. Returns nil and sets *error on a value the type
// does not allow.
id SBNative(id json, SBType *type, NSString *path, NSString **error);

// Deep comparison of a decoded value with the original: nil when equal, else
// "$[0][17].age: 31 != 13". Numbers compare by value (GNUstep's JSON reader gives doubles),
// NaN equals NaN and -0.0 differs from 0.0.
NSString *SBDiff(id want, id got, NSString *path);

// A short rendering of a value for a check detail.
NSString *SBShow(id value);

BOOL SBIsFloat(NSNumber *n);
BOOL SBIsBool(NSNumber *n);
BOOL SBIsUnsignedBig(NSNumber *n);  // an unsigned value above INT64_MAX

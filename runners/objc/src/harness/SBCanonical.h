// Canonical JSON of decoded values (docs/runner-protocol.md section 11), written as text
// straight into a buffer: Foundation's JSON writer would round integers through doubles
// and cannot write a lone surrogate, so these replies have their own writer. The reader
// goes the other way for untrusted_encode, keeping integers exact.
#import <Foundation/Foundation.h>

// Values nested deeper than this render as {"$other": ...}.
#define SB_MAX_DEPTH 400

void SBJSONRaw(NSMutableData *out, const char *text);
// A JSON string; everything outside printable ASCII as \u escapes (lone surrogates too).
void SBJSONString(NSMutableData *out, NSString *s);
void SBJSONDouble(NSMutableData *out, double d);  // NaN and infinities as {"$float": ...}
void SBJSONInt(NSMutableData *out, long long v);
void SBJSONUInt(NSMutableData *out, unsigned long long v);
void SBJSONBytes(NSMutableData *out, const void *bytes, NSUInteger length);  // {"$bytes": hex}
void SBJSONOther(NSMutableData *out, NSString *what);                        // {"$other": what}
void SBJSONTooDeep(NSMutableData *out);
NSString *SBHex(const void *bytes, NSUInteger length);
// Hex to bytes; nil when the text is not an even run of hex digits.
NSData *SBUnhex(NSString *hex);

// A Foundation value tree (what NSJSONSerialization, NSPropertyListSerialization and the
// runner's typed models build) as canonical JSON; `depth` is 0 at the top.
void SBWriteCanonical(NSMutableData *out, id value, NSUInteger depth);

// Strict JSON text -> Foundation objects with exact numbers: integers as long long (or
// unsigned long long above INT64_MAX) NSNumbers, other numbers as doubles, true/false as
// BOOL NSNumbers. nil and *error on malformed text.
id SBParseJSON(const char *text, NSUInteger length, NSString **error);

// The single `$` key of a one-key object, or nil for an ordinary value.
NSString *SBCanonicalTag(id value);

// Bytes this runner did not write (docs/runner-protocol.md section 11): `untrusted_decode`
// and `untrusted_encode`. The runner keeps no policy; it reports what each library does.
#import <Foundation/Foundation.h>

// One library's generic value API (src/serializers/GenericValues.m).
typedef struct {
  // YES with the value's canonical JSON appended to `out` when the library returned a
  // value; NO with *rejected (the library's text) when it refused the input the way its
  // documentation names for bad input. Anything else raises.
  BOOL (*decode)(const uint8_t *bytes, NSUInteger length, NSMutableData *out, NSString **rejected);
  // The library's encoding of a canonical value (as SBParseJSON reads it), or nil and *why
  // when its generic tree cannot carry the value. NULL: the library has no such encode here.
  NSData *(*encode)(id canonical, NSString **why);
} SBGeneric;

// The generic value API of a serializer's library, or NULL when it decodes only a typed model.
const SBGeneric *SBGenericFor(NSString *serializer);
// Runs each library's first decode and refusal once, untimed: GNUstep's first NSError and
// first XML parse cost tens of milliseconds, which the first input would be timed with.
void SBGenericWarmUp(void);
// Why a serializer must not be given untrusted bytes at all, or nil.
NSString *SBUntrustedRefusal(NSString *serializer);

// One untrusted_decode / untrusted_encode command (`line` is its raw text, read again with
// exact numbers for a value to encode); returns the reply line's JSON text.
NSData *SBUntrusted(NSDictionary *cmd, NSData *line, NSDictionary *registry);

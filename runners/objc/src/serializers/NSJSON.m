// NSJSONSerialization: the seed's own API (S3 measured Apple's; this is GNUstep's).
#import "../harness/SBSerializer.h"

#include <math.h>

@interface SBNSJSON : SBSerializer
@end

static NSString *refuse(id v, NSString *path) {
  if ([v isKindOfClass:[NSData class]])
    return [NSString
        stringWithFormat:@"NSJSONSerialization: bytes at %@: JSON has no binary type", path];
  if ([v isKindOfClass:[NSNumber class]] && SBIsFloat(v) && !isfinite([v doubleValue]))
    return [NSString
        stringWithFormat:@"NSJSONSerialization: %@ at %@: JSON has no NaN or Infinity", v, path];
  if ([v isKindOfClass:[NSNumber class]] && SBIsFloat(v) && [v doubleValue] == 0 &&
      signbit([v doubleValue]))
    return [NSString
        stringWithFormat:@"NSJSONSerialization: -0.0 at %@ reads back as an integer 0", path];
  return nil;
}

@implementation SBNSJSON
+ (NSString *)name {
  return @"nsjsonserialization";
}
+ (NSString *)format {
  return @"json";
}
+ (NSString *)library {
  return @"GNUstep Foundation NSJSONSerialization";
}
+ (NSString *)version {
  return SB_GNUSTEP_VERSION;
}
+ (NSArray *)labels {
  return [NSArray arrayWithObjects:@"text", @"schemaless", @"copying-decode", @"map-layout",
                                   @"enum-as-ordinal", @"timestamp-as-number", nil];
}
+ (id)footprintBytes {
  return SBLibraryFootprint([NSJSONSerialization class]);
}

- (NSString *)reasonForMessage:(id)message {
  if (![message isKindOfClass:[NSArray class]] && ![message isKindOfClass:[NSDictionary class]])
    return @"NSJSONSerialization: writes only an array or an object at the top level";
  return SBFirstRefused(message, @"$", refuse);
}

- (NSData *)encode:(id)message {
  NSError *error = nil;
  NSData *out = [NSJSONSerialization dataWithJSONObject:message options:0 error:&error];
  if (!out) [NSException raise:NSInvalidArgumentException format:@"%@", error];
  return out;
}

- (id)decode:(const uint8_t *)bytes length:(NSUInteger)length error:(NSString **)error {
  NSData *in = [NSData dataWithBytesNoCopy:(void *)bytes length:length freeWhenDone:NO];
  NSError *e = nil;
  id v = [NSJSONSerialization JSONObjectWithData:in options:0 error:&e];
  if (!v) *error = [e localizedDescription] ?: @"not JSON";
  return v;
}
@end

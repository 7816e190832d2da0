// NSKeyedArchiver / NSKeyedUnarchiver: Foundation's object-graph archive. Unarchiving
// instantiates whatever classes the archive names, so it is unsafe for untrusted input.
// There is no secure-coding row: GNUstep Base 1.28 accepts requiresSecureCoding and
// -decodeObjectOfClasses:forKey: but does not enforce them (an archived class outside the
// allow-list, not even NSSecureCoding, is still instantiated), so such a row would be the
// same code with a label it does not deserve.
#import "../harness/SBSerializer.h"

// GNUstep Base 1.28's NSKeyedArchiver takes time quadratic in a message's object count
// (measured: 1,750 objects 1.3 s, 3,500 9.1 s, 7,000 30 s per encode; unarchiving is
// linear), so a message past this bound would stall the run for minutes.
static const NSUInteger kObjectLimit = 2500;

@interface SBKeyedArchiver : SBSerializer
@end

@implementation SBKeyedArchiver
+ (NSString *)name {
  return @"nskeyedarchiver";
}
+ (NSString *)format {
  return @"nskeyedarchiver";
}
+ (NSString *)library {
  return @"GNUstep Foundation NSKeyedArchiver";
}
+ (NSString *)version {
  return SB_GNUSTEP_VERSION;
}
+ (NSArray *)labels {
  return [NSArray arrayWithObjects:@"binary", @"schemaless", @"copying-decode", @"map-layout",
                                   @"reflective", @"unsafe-untrusted-input", nil];
}
+ (id)footprintBytes {
  return SBLibraryFootprint([NSKeyedArchiver class]);
}

- (NSString *)reasonForMessage:(id)message {
  NSUInteger n = SBObjectCount(message);
  if (n <= kObjectLimit) return nil;
  return
      [NSString stringWithFormat:
                    @"GNUstep Base %@'s NSKeyedArchiver takes time quadratic in the object count "
                    @"(7,000 objects: 30 s per encode); this message has %lu objects, over the "
                    @"runner's bound of %lu",
                    SB_GNUSTEP_VERSION, (unsigned long)n, (unsigned long)kObjectLimit];
}

- (NSData *)encode:(id)message {
  return [NSKeyedArchiver archivedDataWithRootObject:message];
}

- (id)decode:(const uint8_t *)bytes length:(NSUInteger)length error:(NSString **)error {
  NSData *in = [NSData dataWithBytesNoCopy:(void *)bytes length:length freeWhenDone:NO];
  id v = [NSKeyedUnarchiver unarchiveObjectWithData:in];
  if (!v) *error = @"not a keyed archive";
  return v;
}
@end

// The harness overhead: encode returns a buffer prepared before timing, decode the original
// message, through the same loop, sinks and framing as every other row.
#import "Handwritten.h"

@interface SBNoop : SBSerializer {
  NSArray *items;
  NSData *bytes;
  NSUInteger next;
}
@end

@implementation SBNoop
+ (NSString *)name {
  return @"noop";
}
+ (NSString *)format {
  return @"none";
}
+ (NSString *)library {
  return @"none";
}
+ (NSString *)version {
  return @"1";
}
+ (NSArray *)labels {
  return [NSArray arrayWithObject:@"baseline"];
}
+ (id)footprintBytes {
  return [NSNumber numberWithInt:0];
}

- (void)dealloc {
  [items release];
  [bytes release];
  [super dealloc];
}

- (void)prepareItems:(NSArray *)distinct {
  items = [distinct retain];
  bytes = [[NSData alloc] initWithBytes:"noop" length:4];
}

- (NSData *)encode:(id)message {
  return bytes;
}

- (id)decode:(const uint8_t *)data length:(NSUInteger)length error:(NSString **)error {
  id v = [items objectAtIndex:next];
  if (++next == [items count]) next = 0;
  return v;
}
@end

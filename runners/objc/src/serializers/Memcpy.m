// The copy floor: encode appends each message's prepared hand-written bytes with one
// memcpy; decode copies the bytes into a scratch buffer sized at prepare, parsing nothing
// (the check reads them with the hand-written reader).
#import "Handwritten.h"

#include <string.h>

@interface SBMemcpy : SBSerializer {
  NSMapTable *prepared;   // message (by identity) -> its hand-written bytes
  NSMutableData *reused;  // what encode writes into, so the loop allocates nothing
  uint8_t *scratch;
  NSUInteger scratchSize;
}
@end

@implementation SBMemcpy
+ (NSString *)name {
  return @"memcpy";
}
+ (NSString *)format {
  return @"handwritten";
}
+ (NSString *)library {
  return @"memcpy (copy floor)";
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
  [prepared release];
  [reused release];
  free(scratch);
  [super dealloc];
}

- (NSString *)reasonForMessage:(id)message {
  return SBHandwrittenRefusal(type, @"$");
}

- (void)prepareItems:(NSArray *)items {
  prepared = [[NSMapTable alloc]
      initWithKeyOptions:NSPointerFunctionsOpaqueMemory | NSPointerFunctionsOpaquePersonality
            valueOptions:NSPointerFunctionsStrongMemory
                capacity:[items count]];
  for (id item in items) {
    NSMutableData *bytes = [NSMutableData data];
    SBHandwrittenWrite(bytes, item, type);
    [prepared setObject:bytes forKey:item];
    if ([bytes length] > scratchSize) scratchSize = [bytes length];
  }
  scratch = malloc(scratchSize ? scratchSize : 1);
  reused = [[NSMutableData alloc] initWithCapacity:scratchSize];
}

- (NSData *)encode:(id)message {
  NSData *bytes = [prepared objectForKey:message];
  [reused setLength:0];
  [reused appendBytes:[bytes bytes] length:[bytes length]];
  return reused;
}

- (void)encode:(id)message append:(NSMutableData *)dst {
  [dst appendData:[prepared objectForKey:message]];
}

- (id)decode:(const uint8_t *)bytes length:(NSUInteger)length error:(NSString **)error {
  if (length > scratchSize) {
    *error = @"memcpy: message larger than the scratch buffer";
    return nil;
  }
  memcpy(scratch, bytes, length);
  return (id)self;  // the sink takes something; nothing was parsed
}

- (id)checkDecode:(const uint8_t *)bytes length:(NSUInteger)length error:(NSString **)error {
  const uint8_t *p = bytes;
  @try {
    id v = SBHandwrittenRead(&p, bytes + length, type);
    if (p == bytes + length) return v;
    *error = @"memcpy: bytes after the message";
  } @catch (NSException *e) {
    if (![[e name] isEqualToString:@"SBDecodeError"]) @throw;
    *error = [e reason];
  }
  return nil;
}
@end

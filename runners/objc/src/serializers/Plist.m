// NSPropertyListSerialization in its binary (bplist00) and XML forms.
#import "../harness/SBSerializer.h"

@interface SBPlist : SBSerializer
+ (NSPropertyListFormat)plistFormat;
@end

static NSString *refuse(id v, NSString *path) {
  if ([v isKindOfClass:[NSNull class]])
    return [NSString stringWithFormat:@"property lists have no null (at %@)", path];
  if ([v isKindOfClass:[NSNumber class]] && SBIsUnsignedBig(v))
    return [NSString stringWithFormat:@"property lists: %@ at %@ exceeds int64", v, path];
  return nil;
}

@implementation SBPlist
+ (NSPropertyListFormat)plistFormat {
  return NSPropertyListBinaryFormat_v1_0;
}
+ (NSString *)format {
  return @"plist";
}
+ (NSString *)library {
  return @"GNUstep Foundation NSPropertyListSerialization";
}
+ (NSString *)version {
  return SB_GNUSTEP_VERSION;
}
+ (id)footprintBytes {
  return SBLibraryFootprint([NSPropertyListSerialization class]);
}

- (NSString *)reasonForMessage:(id)message {
  return SBFirstRefused(message, @"$", refuse);
}

- (NSData *)encode:(id)message {
  NSError *error = nil;
  NSData *out = [NSPropertyListSerialization dataWithPropertyList:message
                                                           format:[[self class] plistFormat]
                                                          options:0
                                                            error:&error];
  if (!out) [NSException raise:NSInvalidArgumentException format:@"%@", error];
  return out;
}

- (id)decode:(const uint8_t *)bytes length:(NSUInteger)length error:(NSString **)error {
  NSData *in = [NSData dataWithBytesNoCopy:(void *)bytes length:length freeWhenDone:NO];
  NSError *e = nil;
  id v = [NSPropertyListSerialization propertyListWithData:in
                                                   options:NSPropertyListImmutable
                                                    format:NULL
                                                     error:&e];
  if (!v) *error = [e localizedDescription] ?: @"not a property list";
  return v;
}
@end

// GNUstep Base 1.28's binary writer takes time quadratic in a message's object count
// (measured: 1,750 objects 0.26 s, 7,000 3.0 s, 14,000 13.4 s per encode; the XML writer and
// both readers are linear), so a message past this bound would stall the run for minutes.
static const NSUInteger kBinaryObjectLimit = 4000;

@interface SBPlistBinary : SBPlist
@end
@implementation SBPlistBinary
- (NSString *)reasonForMessage:(id)message {
  NSString *why = [super reasonForMessage:message];
  NSUInteger n = why ? 0 : SBObjectCount(message);
  if (n > kBinaryObjectLimit)
    why = [NSString
        stringWithFormat:
            @"GNUstep Base %@'s binary property-list writer takes time quadratic in the "
            @"object count (14,000 objects: 13 s per encode); this message has %lu objects, "
            @"over the runner's bound of %lu: plist-xml writes it in linear time",
            SB_GNUSTEP_VERSION, (unsigned long)n, (unsigned long)kBinaryObjectLimit];
  return why;
}
+ (NSString *)name {
  return @"plist-binary";
}
+ (NSArray *)labels {
  return [NSArray arrayWithObjects:@"binary", @"schemaless", @"copying-decode", @"map-layout", nil];
}
@end

// GNUstep Base 1.28's XML writer prints a float NSNumber with 7 significant digits (a float32
// needs up to 9) and a double with 16, which its reader does not always read back as the
// same double (measured: 452,203 of the 2^20 multiples of 2^-24 in [0, 1/16), written as
// doubles, came back different), so a real may not survive. Each real of a message is
// written and read back through the library at prepare, a chunk at a time: the first one
// that changes makes the message not applicable, with its path.
static void collectReals(id v, NSMutableArray *reals) {
  if ([v isKindOfClass:[NSArray class]]) {
    for (id x in v) collectReals(x, reals);
  } else if ([v isKindOfClass:[NSDictionary class]]) {
    for (id k in v) collectReals([v objectForKey:k], reals);
  } else if ([v isKindOfClass:[NSNumber class]] && SBIsFloat(v)) {
    [reals addObject:v];
  }
}

// The path of the real `target` under `v` (the same walk as collectReals), or nil.
static NSString *pathOfReal(id v, id target, NSString *path) {
  if (v == target) return path;
  NSString *found = nil;
  if ([v isKindOfClass:[NSArray class]]) {
    NSUInteger i = 0;
    for (id x in v) {
      NSString *p = [NSString stringWithFormat:@"%@[%lu]", path, (unsigned long)i++];
      if ((found = pathOfReal(x, target, p))) break;
    }
  } else if ([v isKindOfClass:[NSDictionary class]]) {
    for (id k in v) {
      NSString *p = [NSString stringWithFormat:@"%@.%@", path, k];
      if ((found = pathOfReal([v objectForKey:k], target, p))) break;
    }
  }
  return found;
}

@interface SBPlistXML : SBPlist
@end
@implementation SBPlistXML
- (NSString *)reasonForMessage:(id)message {
  NSString *why = [super reasonForMessage:message];
  if (why) return why;
  NSMutableArray *reals = [NSMutableArray array];
  collectReals(message, reals);
  const NSUInteger chunk = 4096;
  for (NSUInteger at = 0; at < [reals count]; at += chunk) {
    NSAutoreleasePool *pool = [NSAutoreleasePool new];
    NSArray *part = [reals subarrayWithRange:NSMakeRange(at, MIN(chunk, [reals count] - at))];
    NSData *bytes = [self encode:part];
    NSString *error = nil;
    NSArray *back = [self decode:[bytes bytes] length:[bytes length] error:&error];
    for (NSUInteger i = 0; !why && i < [part count]; i++) {
      id want = [part objectAtIndex:i], got = i < [back count] ? [back objectAtIndex:i] : nil;
      if (!SBDiff(want, got, @"")) continue;
      why = [[NSString alloc]
          initWithFormat:@"GNUstep Base %@'s XML property-list writer and reader do not carry "
                         @"every real: %@ %@ reads back as %@ (%@)",
                         SB_GNUSTEP_VERSION, pathOfReal(message, want, @"$"), SBShow(want),
                         SBShow(got),
                         [want objCType][0] == 'f'
                             ? @"it writes a float with 7 significant digits, a float32 needs "
                               @"up to 9"
                             : @"it writes a double with 16 significant digits and does not "
                               @"always read them back as the same double"];
    }
    [pool drain];
    if (why) return [why autorelease];
  }
  return nil;
}
+ (NSPropertyListFormat)plistFormat {
  return NSPropertyListXMLFormat_v1_0;
}
+ (NSString *)name {
  return @"plist-xml";
}
+ (NSArray *)labels {
  return [NSArray arrayWithObjects:@"text", @"schemaless", @"copying-decode", @"map-layout", nil];
}
@end

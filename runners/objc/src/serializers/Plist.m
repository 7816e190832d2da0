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

@interface SBPlistXML : SBPlist
@end
@implementation SBPlistXML
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

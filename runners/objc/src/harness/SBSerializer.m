#define _GNU_SOURCE 1  // dladdr
#import "SBSerializer.h"

#include <dlfcn.h>
#include <sys/stat.h>

@implementation SBSerializer

- (id)initWithType:(SBType *)messageType {
  if ((self = [super init])) type = [messageType retain];
  return self;
}

- (void)dealloc {
  [type release];
  [super dealloc];
}

+ (NSString *)name {
  return [self subclassResponsibility:_cmd], nil;
}
+ (NSString *)format {
  return [self subclassResponsibility:_cmd], nil;
}
+ (NSString *)library {
  return [self subclassResponsibility:_cmd], nil;
}
+ (NSString *)version {
  return [self subclassResponsibility:_cmd], nil;
}
+ (NSArray *)labels {
  return [self subclassResponsibility:_cmd], nil;
}
+ (id)footprintBytes {
  return [NSNull null];
}
+ (NSString *)reasonForBuiltin:(NSString *)dataset {
  return nil;
}
+ (NSString *)reasonForUserDatasets {
  return nil;
}

- (NSString *)reasonForMessage:(id)message {
  return nil;
}
- (NSData *)encode:(id)message {
  return [self subclassResponsibility:_cmd], nil;
}
- (void)encode:(id)message append:(NSMutableData *)dst {
  [dst appendData:[self encode:message]];
}
- (id)decode:(const uint8_t *)bytes length:(NSUInteger)length error:(NSString **)error {
  return [self subclassResponsibility:_cmd], nil;
}
+ (BOOL)selfDelimiting {
  return NO;
}
- (id)decodeNext:(const uint8_t *)bytes
          length:(NSUInteger)length
            used:(NSUInteger *)used
           error:(NSString **)error {
  return [self subclassResponsibility:_cmd], nil;
}
- (void)prepareItems:(NSArray *)items {
}
- (id)checkDecode:(const uint8_t *)bytes length:(NSUInteger)length error:(NSString **)error {
  return [self decode:bytes length:length error:error];
}

@end

id SBLibraryFootprint(const void *symbol) {
  Dl_info info;
  struct stat st;
  if (!dladdr(symbol, &info) || !info.dli_fname || stat(info.dli_fname, &st) != 0)
    return [NSNull null];
  return [NSNumber numberWithLongLong:(long long)st.st_size];
}

NSString *SBFirstRefused(id v, NSString *path, NSString *(*refuse)(id value, NSString *path)) {
  NSString *why = refuse(v, path);
  if (why) return why;
  if ([v isKindOfClass:[NSArray class]]) {
    NSUInteger i = 0;
    for (id x in v) {
      if ((why = SBFirstRefused(x, [NSString stringWithFormat:@"%@[%lu]", path, (unsigned long)i++],
                                refuse)))
        return why;
    }
  } else if ([v isKindOfClass:[NSDictionary class]]) {
    for (id k in v) {
      if ((why = SBFirstRefused([v objectForKey:k], [NSString stringWithFormat:@"%@.%@", path, k],
                                refuse)))
        return why;
    }
  }
  return nil;
}

NSUInteger SBObjectCount(id v) {
  NSUInteger n = 1;
  if ([v isKindOfClass:[NSArray class]]) {
    for (id x in v) n += SBObjectCount(x);
  } else if ([v isKindOfClass:[NSDictionary class]]) {
    for (id k in v) n += 1 + SBObjectCount([v objectForKey:k]);
  }
  return n;
}

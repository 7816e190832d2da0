// What Objective-C can catch: @catch sees NSExceptions only. A stack overflow (SIGSEGV), an
// abort() or a failed allocation in C code is a signal or a crash, never an exception, and
// GNUstep raises NSMallocException when its own allocations fail: that one is thrown on,
// so the process dies with the reason on stderr. A dying process is the correct outcome:
// the orchestrator bisects the batch to find the input.
#import "SBUntrusted.h"
#import "SBCanonical.h"
#import "SBDataset.h"
#import "SBSerializer.h"

#include <time.h>

static const NSUInteger kErrorChars = 300;

// A serializer on a dataset through its typed model, kept for the commands that follow.
@interface SBTypedDecoder : NSObject {
 @public
  SBSerializer *ser;
  SBDataset *data;
}
@end

@implementation SBTypedDecoder
- (void)dealloc {
  [ser release];
  [data release];
  [super dealloc];
}
@end

static long long monotonicNanos(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static NSString *clip(NSString *s) {
  return [s length] > kErrorChars ? [s substringToIndex:kErrorChars] : s;
}

static NSData *errorReply(NSString *cell, NSString *code, NSString *message) {
  NSMutableData *out = [NSMutableData data];
  SBJSONRaw(out, "{\"event\": \"error\", \"code\": ");
  SBJSONString(out, code);
  SBJSONRaw(out, ", \"message\": ");
  SBJSONString(out, message);
  if (cell) {
    SBJSONRaw(out, ", \"cell\": ");
    SBJSONString(out, cell);
  }
  SBJSONRaw(out, "}");
  return out;
}

static NSString *textOf(id v) { return [v isKindOfClass:[NSString class]] ? v : nil; }

// The typed decoder of a row on a dataset, loaded once per serializer and data file.
static SBTypedDecoder *typedDecoder(Class c, NSDictionary *ds, NSString **code,
                                    NSString **message) {
  static NSMutableDictionary *cache;
  if (!cache) cache = [[NSMutableDictionary alloc] init];
  NSString *key = [NSString stringWithFormat:@"%@\n%@\n%@", [c name], [ds objectForKey:@"name"],
                                             [ds objectForKey:@"data"]];
  SBTypedDecoder *t = [cache objectForKey:key];
  if (t) return t;
  NSString *dsName = textOf([ds objectForKey:@"name"]);
  if (!dsName || !textOf([ds objectForKey:@"data"])) {
    *code = @"bad_request", *message = @"a dataset needs name and data";
    return nil;
  }
  BOOL user = [[ds objectForKey:@"kind"] isEqual:@"user"];
  NSString *why = user ? [c reasonForUserDatasets] : [c reasonForBuiltin:dsName];
  if (why) {
    *code = @"not_applicable", *message = why;
    return nil;
  }
  SBDataset *data = [SBDataset load:ds check:NO code:code message:message];
  if (!data) return nil;
  SBSerializer *ser = [[[c alloc] initWithType:data->type] autorelease];
  for (id item in data->items) {
    if ((why = [ser reasonForMessage:item])) {
      *code = @"not_applicable", *message = why;
      return nil;
    }
  }
  [ser prepareItems:data->items];
  t = [[[SBTypedDecoder alloc] init] autorelease];
  t->ser = [ser retain];
  t->data = [data retain];
  [cache setObject:t forKey:key];
  return t;
}

// A typed decode answers the first difference from the dataset's first message, as the
// harness's own round-trip check words it: deterministic, and small.
static BOOL typedDecode(SBTypedDecoder *t, const uint8_t *bytes, NSUInteger length,
                        NSMutableData *out, NSString **rejected) {
  NSString *error = nil;
  id v = [t->ser decode:bytes length:length error:&error];
  if (!v) {
    *rejected = error ?: @"no value";
    return NO;
  }
  SBJSONRaw(out, "{\"$check\": ");
  SBJSONString(out, SBDiff([t->data->items objectAtIndex:0], v, @"$") ?: @"equal");
  SBJSONRaw(out, "}");
  return YES;
}

static NSData *inputBytes(NSDictionary *input, NSString **why) {
  NSString *path = textOf([input objectForKey:@"path"]), *b64 = textOf([input objectForKey:@"b64"]);
  NSData *d = path  ? [NSData dataWithContentsOfFile:path]
              : b64 ? [[[NSData alloc] initWithBase64EncodedString:b64 options:0] autorelease]
                    : nil;
  if (!d)
    *why = path  ? [NSString stringWithFormat:@"cannot read input file %@", path]
           : b64 ? @"input b64 is not base64"
                 : @"an input needs b64 or path";
  return d;
}

static NSData *decodeAll(NSString *cell, NSArray *inputs, SBTypedDecoder *typed,
                         const SBGeneric *generic) {
  SBGenericWarmUp();
  NSMutableData *out = [NSMutableData data];
  SBJSONRaw(out, "{\"event\": \"untrusted_decoded\", \"cell\": ");
  SBJSONString(out, cell);
  SBJSONRaw(out, ", \"outcomes\": [");
  NSUInteger i = 0;
  for (NSDictionary *input in inputs) {
    NSAutoreleasePool *pool = [NSAutoreleasePool new];
    NSString *why = nil, *rejected = nil, *failed = nil;
    NSData *bytes = [input isKindOfClass:[NSDictionary class]] ? inputBytes(input, &why) : nil;
    if (!bytes) {
      NSData *reply =
          [errorReply(cell, @"bad_request", why ?: @"an input is not an object") retain];
      [pool drain];
      return [reply autorelease];
    }
    NSMutableData *value = [NSMutableData data];
    BOOL accepted = NO;
    long long start = monotonicNanos();
    @try {
      accepted = typed ? typedDecode(typed, [bytes bytes], [bytes length], value, &rejected)
                       : generic->decode([bytes bytes], [bytes length], value, &rejected);
    } @catch (NSException *e) {
      if ([[e name] isEqualToString:NSMallocException]) @throw;
      failed = [NSString stringWithFormat:@"%@: %@", [e name], [e reason]];
    }
    long long ns = monotonicNanos() - start;
    if (i++) SBJSONRaw(out, ", ");
    SBJSONRaw(out, "{\"id\": ");
    SBJSONString(out, [[input objectForKey:@"id"] description]);
    SBJSONRaw(out, failed     ? ", \"outcome\": \"error\", \"error\": "
                   : accepted ? ", \"outcome\": \"accepted\", \"value\": "
                              : ", \"outcome\": \"rejected\", \"error\": ");
    if (accepted && !failed)
      [out appendData:value];
    else
      SBJSONString(out, clip(failed ?: rejected ?: @"refused"));
    SBJSONRaw(out, ", \"ns\": ");
    SBJSONInt(out, ns);
    SBJSONRaw(out, "}");
    [pool drain];
  }
  SBJSONRaw(out, "]}");
  return out;
}

static NSData *encoded(NSString *cell, NSData *bytes) {
  NSMutableData *out = [NSMutableData data];
  SBJSONRaw(out, "{\"event\": \"untrusted_encoded\", \"cell\": ");
  SBJSONString(out, cell);
  SBJSONRaw(out, ", \"b64\": ");
  SBJSONString(out, [bytes base64EncodedStringWithOptions:0]);
  SBJSONRaw(out, "}");
  return out;
}

static NSData *encode(NSDictionary *cmd, NSString *cell, NSData *line, SBTypedDecoder *typed,
                      const SBGeneric *generic) {
  NSString *ser = [cmd objectForKey:@"serializer"];
  if (typed) {
    NSArray *items = typed->data->items;
    id m = [cmd objectForKey:@"message"];
    NSUInteger i = [m isKindOfClass:[NSNumber class]] ? [m unsignedIntegerValue] : 0;
    @try {
      return encoded(cell, [typed->ser encode:[items objectAtIndex:i % [items count]]]);
    } @catch (NSException *e) {
      return errorReply(cell, @"exception",
                        [NSString stringWithFormat:@"%@: %@", [e name], [e reason]]);
    }
  }
  if (!generic || !generic->encode)
    return errorReply(cell, @"unsupported",
                      [ser stringByAppendingString:@" does not encode generic values here"]);
  NSString *why = nil;
  NSDictionary *exact = SBParseJSON([line bytes], [line length], &why);
  if (!exact) return errorReply(cell, @"bad_request", why);
  NSData *bytes = generic->encode([exact objectForKey:@"value"] ?: [NSNull null], &why);
  if (!bytes) return errorReply(cell, @"not_applicable", why ?: @"cannot encode this value");
  return encoded(cell, bytes);
}

NSData *SBUntrusted(NSDictionary *cmd, NSData *line, NSDictionary *registry) {
  NSString *cell = textOf([cmd objectForKey:@"cell"]),
           *ser = textOf([cmd objectForKey:@"serializer"]);
  if (!cell || !ser) return errorReply(cell, @"bad_request", @"needs cell and serializer");
  Class c = [registry objectForKey:ser];
  if (!c)
    return errorReply(cell, @"unknown_serializer",
                      [NSString stringWithFormat:@"no serializer %@", ser]);
  NSString *refusal = SBUntrustedRefusal(ser);
  if (refusal) return errorReply(cell, @"unsupported", refusal);
  id ds = [cmd objectForKey:@"dataset"];
  SBTypedDecoder *typed = nil;
  if ([ds isKindOfClass:[NSDictionary class]]) {
    NSString *code = nil, *message = nil;
    @try {
      typed = typedDecoder(c, ds, &code, &message);
    } @catch (NSException *e) {
      code = @"exception", message = [NSString stringWithFormat:@"%@: %@", [e name], [e reason]];
    }
    if (!typed) return errorReply(cell, code, message);
  }
  const SBGeneric *generic = typed ? NULL : SBGenericFor(ser);
  if ([[cmd objectForKey:@"cmd"] isEqual:@"untrusted_encode"])
    return encode(cmd, cell, line, typed, generic);
  NSArray *inputs = [cmd objectForKey:@"inputs"];
  if (![inputs isKindOfClass:[NSArray class]])
    return errorReply(cell, @"bad_request", @"untrusted_decode needs inputs");
  if (!typed && !generic)
    return errorReply(
        cell, @"unsupported",
        [ser stringByAppendingString:@" has no generic-value decode: name a dataset"]);
  return decodeAll(cell, inputs, typed, generic);
}

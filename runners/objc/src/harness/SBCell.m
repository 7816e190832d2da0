#import "SBCell.h"

volatile uintptr_t SBSink;

static inline void sink(id v) { SBSink += (uintptr_t)v; }

static NSDictionary *reply(NSString *cell, NSString *status, NSString *code, NSString *message) {
  NSDictionary *error =
      code ? [NSDictionary dictionaryWithObjectsAndKeys:code, @"code", message, @"message", nil]
           : (id)[NSNull null];
  NSNull *none = [NSNull null];
  return [NSDictionary dictionaryWithObjectsAndKeys:@"prepared", @"event", cell, @"cell", status,
                                                    @"status", error, @"error", none, @"check",
                                                    none, @"messages", none, @"sizes",
                                                    [NSArray array], @"unsupported", nil];
}

@implementation SBCell

- (void)dealloc {
  [ser release];
  [data release];
  [encoded release];
  [codecs release];
  [compressed release];
  [outBuf release];
  free(scratch);
  [super dealloc];
}

- (BOOL)supports:(NSString *)op {
  if (decodeOnly) return [op isEqualToString:@"decode"];
  if ([op isEqualToString:@"encode"] || [op isEqualToString:@"decode"]) return YES;
  NSArray *parts = [op componentsSeparatedByString:@"+"];
  if ([parts count] != 2) return NO;
  NSString *codec = [[parts objectAtIndex:0] isEqual:@"encode"]   ? [parts objectAtIndex:1]
                    : [[parts objectAtIndex:1] isEqual:@"decode"] ? [parts objectAtIndex:0]
                                                                  : nil;
  return codec && [[SBCodec names] containsObject:codec];
}

static NSString *codecOf(NSString *op) {
  NSArray *parts = [op componentsSeparatedByString:@"+"];
  return [[parts objectAtIndex:0] isEqual:@"encode"] ? [parts objectAtIndex:1]
                                                     : [parts objectAtIndex:0];
}

// --- encoding -------------------------------------------------------------------------

// One whole operation's bytes into `buf` (cleared first): the message, or the framed stream;
// with a codec, each message compressed on its own (stream frames always length-prefixed).
- (void)encodeInto:(NSMutableData *)buf codec:(SBCodec *)codec {
  [buf setLength:0];
  NSArray *items = data->items;
  NSUInteger n = [items count];
  if (!data->stream) {
    NSAutoreleasePool *pool = [NSAutoreleasePool new];
    NSData *d = [ser encode:[items objectAtIndex:0]];
    if (codec)
      [codec compress:[d bytes] length:[d length] append:buf];
    else
      [buf appendData:d];
    [pool drain];
    return;
  }
  BOOL delimited = [[ser class] selfDelimiting];
  NSMutableData *one = [NSMutableData data];
  NSAutoreleasePool *pool = [NSAutoreleasePool new];
  for (NSUInteger i = 0; i < data->count; i++) {
    id msg = [items objectAtIndex:i % n];
    if (codec) {
      [one setLength:0];
      [ser encode:msg append:one];
      NSMutableData *c = [NSMutableData data];
      [codec compress:[one bytes] length:[one length] append:c];
      SBAppendVarint(buf, [c length]);
      [buf appendData:c];
    } else if (delimited) {
      [ser encode:msg append:buf];
    } else {
      NSData *d = [ser encode:msg];
      SBAppendVarint(buf, [d length]);
      [buf appendData:d];
    }
    if ((i & 255) == 255) [pool drain], pool = [NSAutoreleasePool new];
  }
  [pool drain];
}

// --- decoding -------------------------------------------------------------------------

// Decodes every message of `buf` (compressed by `codec` when given). With `against`, each
// is compared with the dataset's message; returns the first difference, a detail starting
// with "cannot decode:", or nil.
- (NSString *)decode:(NSData *)buf codec:(SBCodec *)codec against:(SBDataset *)against {
  const uint8_t *p = [buf bytes], *end = p + [buf length];
  NSUInteger n = against ? [against->items count] : 0;
  NSString *error = nil, *diff = nil;
  if (!data->stream) {
    const uint8_t *bytes = p;
    NSUInteger len = [buf length];
    if (codec)
      len = [codec decompress:p length:len into:scratch capacity:scratchSize], bytes = scratch;
    NSAutoreleasePool *pool = [NSAutoreleasePool new];
    id v = against ? [ser checkDecode:bytes length:len error:&error]
                   : [ser decode:bytes length:len error:&error];
    if (!v)
      diff = [[NSString alloc] initWithFormat:@"cannot decode: %@", error ?: @"no value"];
    else if (against)
      diff = [SBDiff([against->items objectAtIndex:0], v, @"$[0]") copy];
    sink(v);
    [pool drain];
    return [diff autorelease];
  }
  BOOL delimited = !codec && [[ser class] selfDelimiting];
  NSAutoreleasePool *pool = [NSAutoreleasePool new];
  for (NSUInteger i = 0; i < data->count && !diff; i++) {
    id v;
    if (delimited) {
      NSUInteger used = 0;
      v = [ser decodeNext:p length:end - p used:&used error:&error];
      p += used;
    } else {
      uint64_t len;
      if (!SBReadVarint(&p, end, &len) || len > (uint64_t)(end - p)) {
        diff = @"cannot decode: the stream ends inside a frame";
        break;
      }
      const uint8_t *bytes = p;
      NSUInteger size = len;
      p += len;
      if (codec)
        size = [codec decompress:bytes length:len into:scratch capacity:scratchSize],
        bytes = scratch;
      v = against ? [ser checkDecode:bytes length:size error:&error]
                  : [ser decode:bytes length:size error:&error];
    }
    if (!v) {
      diff = [NSString stringWithFormat:@"cannot decode: message %lu: %@", (unsigned long)i,
                                        error ?: @"no value"];
    } else if (against) {
      diff = SBDiff([against->items objectAtIndex:i % n], v,
                    [NSString stringWithFormat:@"$[%lu]", (unsigned long)i]);
    }
    sink(v);
    if ((i & 255) == 255 || diff) {
      [diff retain];
      [pool drain];
      pool = [NSAutoreleasePool new];
      [diff autorelease];
    }
  }
  [diff retain];
  [pool drain];
  if (!diff && p != end)
    diff = [[NSString alloc] initWithFormat:@"cannot decode: %lu bytes after the last message",
                                            (unsigned long)(end - p)];
  return [diff autorelease];
}

// --- the timed operation ------------------------------------------------------------

- (void)run:(NSString *)op iterations:(NSUInteger)iterations {
  BOOL encode = [op hasPrefix:@"encode"];
  SBCodec *codec =
      [op rangeOfString:@"+"].location == NSNotFound ? nil : [codecs objectForKey:codecOf(op)];
  NSData *input = codec ? [compressed objectForKey:codecOf(op)] : encoded;
  if (!encode && !input)  // an unverified prepare compresses for the requested c+decode only
    [NSException raise:@"SBNotPrepared" format:@"%@ was not among the prepared operations", op];
  if (encode && !data->stream && !codec) {
    // A single message: the library's own NSData is the result, nothing is copied.
    id msg = [data->items objectAtIndex:0];
    for (NSUInteger k = 0; k < iterations; k++) {
      NSAutoreleasePool *pool = [NSAutoreleasePool new];
      NSData *d = [ser encode:msg];
      SBSink += [d length];
      sink(d);
      [pool drain];
    }
    return;
  }
  for (NSUInteger k = 0; k < iterations; k++) {
    if (encode) {
      [self encodeInto:outBuf codec:codec];
      SBSink += [outBuf length];
    } else {
      [self decode:input codec:codec against:nil];
    }
  }
}

// --- prepare ---------------------------------------------------------------------------

+ (NSDictionary *)prepare:(NSDictionary *)cmd
                 registry:(NSDictionary *)registry
                     cell:(SBCell **)result {
  NSString *cellName = [cmd objectForKey:@"cell"];
  Class cls = [registry objectForKey:[cmd objectForKey:@"serializer"]];
  if (!cls) {
    NSString *names = [[[registry allKeys] sortedArrayUsingSelector:@selector(compare:)]
        componentsJoinedByString:@", "];
    return reply(cellName, @"error", @"unknown_serializer",
                 [NSString stringWithFormat:@"unknown serializer %@; this runner has: %@",
                                            [cmd objectForKey:@"serializer"], names]);
  }
  NSDictionary *desc = [cmd objectForKey:@"dataset"];
  NSString *code = nil, *message = nil;
  SBDataset *data = [SBDataset load:desc check:NO code:&code message:&message];
  if (!data)
    return reply(cellName, [code isEqual:@"not_applicable"] ? code : @"error",
                 [code isEqual:@"not_applicable"] ? @"not_applicable" : code, message);
  NSString *why = [desc objectForKey:@"kind"] && [[desc objectForKey:@"kind"] isEqual:@"user"]
                      ? [cls reasonForUserDatasets]
                      : [cls reasonForBuiltin:data->name];
  if (why) return reply(cellName, @"not_applicable", @"not_applicable", why);

  SBCell *cell = [[[SBCell alloc] init] autorelease];
  cell->data = [data retain];
  cell->ser = [[cls alloc] initWithType:data->type];
  for (id item in data->items) {
    if ((why = [cell->ser reasonForMessage:item]))
      return reply(cellName, @"not_applicable", @"not_applicable", why);
  }
  // verify: false (section 4): an earlier process of the run holds this cell's check and sizes,
  // and repeating them would only delay the measuring; decode_from's check is its point. A
  // non-boolean is ignored, like the other optional fields.
  id decodeFrom = [cmd objectForKey:@"decode_from"], verifyField = [cmd objectForKey:@"verify"];
  BOOL verify = [decodeFrom isKindOfClass:[NSString class]] ||
                !([verifyField isKindOfClass:[NSNumber class]] && SBIsBool(verifyField) &&
                  ![verifyField boolValue]);
  SBDataset *check = data;
  if (verify && [desc objectForKey:@"check_data"] &&
      ![[desc objectForKey:@"check_data"] isEqual:[desc objectForKey:@"data"]]) {
    check = [SBDataset load:desc check:YES code:&code message:&message];
    if (!check) return reply(cellName, @"error", @"bad_data", message);
  }
  [cell->ser prepareItems:data->items];

  NSMutableData *buf = [NSMutableData data];
  if ([decodeFrom isKindOfClass:[NSString class]]) {
    cell->decodeOnly = YES;
    NSData *bytes = [NSData dataWithContentsOfFile:decodeFrom];
    if (!bytes)
      return reply(cellName, @"error", @"bad_data",
                   [NSString stringWithFormat:@"cannot read %@", decodeFrom]);
    [buf appendData:bytes];
  } else {
    [cell encodeInto:buf codec:nil];
  }
  cell->encoded = [buf copy];
  cell->outBuf = [[NSMutableData alloc] initWithCapacity:[buf length]];

  NSString *detail = nil;
  @try {
    if (verify) detail = [cell decode:cell->encoded codec:nil against:check];
  } @catch (NSException *e) {
    detail = [NSString stringWithFormat:@"cannot decode: %@: %@", [e name], [e reason]];
  }
  NSString *dump = [cmd objectForKey:@"dump_path"];
  if ([dump isKindOfClass:[NSString class]]) [cell->encoded writeToFile:dump atomically:NO];

  NSMutableDictionary *sizes =
      [NSMutableDictionary dictionaryWithObject:[NSNumber numberWithUnsignedInteger:[buf length]]
                                         forKey:@"encoded"];
  NSMutableArray *unsupported = [NSMutableArray array];
  cell->codecs = [[NSMutableDictionary alloc] init];
  cell->compressed = [[NSMutableDictionary alloc] init];
  if (!detail && !cell->decodeOnly) {
    for (NSString *name in [SBCodec names]) {
      SBCodec *codec = [SBCodec codecNamed:name];
      [cell->codecs setObject:codec forKey:name];
      // unverified: compressed only as the input of a requested c+decode, and no size
      if (!verify && ![[cmd objectForKey:@"operations"]
                         containsObject:[name stringByAppendingString:@"+decode"]])
        continue;
      NSMutableData *c = [NSMutableData data];
      [cell encodeInto:c codec:codec];
      [cell->compressed setObject:c forKey:name];
      if (verify) [sizes setObject:[NSNumber numberWithUnsignedInteger:[c length]] forKey:name];
    }
  }
  if ([cell->compressed count]) {
    // The largest message bounds every decompression (its own bytes for a single message).
    NSUInteger largest = [buf length];
    if (data->stream) {
      largest = 0;
      for (id item in data->items) largest = MAX(largest, [[cell->ser encode:item] length]);
    }
    cell->scratchSize = largest + 1;
    cell->scratch = malloc(cell->scratchSize);
  }
  for (NSString *op in [cmd objectForKey:@"operations"]) {
    if (![cell supports:op]) [unsupported addObject:op];
  }
  NSDictionary *checkReply = [NSDictionary
      dictionaryWithObjectsAndKeys:[NSNumber numberWithBool:detail == nil], @"ok",
                                   detail
                                       ?: [NSString stringWithFormat:@"%lu messages equal",
                                                                     (unsigned long)data->count],
                                   @"detail", nil];
  NSMutableDictionary *r = [NSMutableDictionary
      dictionaryWithDictionary:reply(cellName, detail ? @"check_failed" : @"ok", nil, nil)];
  [r setObject:verify ? checkReply : (id)[NSNull null] forKey:@"check"];
  [r setObject:[NSNumber numberWithUnsignedInteger:data->count] forKey:@"messages"];
  [r setObject:sizes forKey:@"sizes"];
  [r setObject:unsupported forKey:@"unsupported"];
  if (!detail) *result = cell;
  return r;
}

@end

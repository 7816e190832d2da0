#import "Handwritten.h"

#include <string.h>

static void varint(NSMutableData *out, uint64_t v) {
  uint8_t buf[10];
  int n = 0;
  while (v >= 0x80) {
    buf[n++] = (uint8_t)(v | 0x80);
    v >>= 7;
  }
  buf[n++] = (uint8_t)v;
  [out appendBytes:buf length:n];
}

static void zigzag(NSMutableData *out, int64_t v) {
  varint(out, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

static void string(NSMutableData *out, NSString *s) {
  const char *utf8 = [s UTF8String];
  NSUInteger n = [s lengthOfBytesUsingEncoding:NSUTF8StringEncoding];
  varint(out, n);
  if (strlen(utf8) == n)
    [out appendBytes:utf8 length:n];
  else
    [out appendData:[s dataUsingEncoding:NSUTF8StringEncoding]];  // an embedded NUL
}

void SBHandwrittenWrite(NSMutableData *out, id v, SBType *t) {
  switch (t->kind) {
    case SBInt32:
    case SBInt64:
    case SBTimestamp:
    case SBEnum:
      zigzag(out, [v longLongValue]);
      break;
    case SBUInt32:
    case SBUInt64:
      varint(out, [v unsignedLongLongValue]);
      break;
    case SBBool: {
      uint8_t b = [v boolValue];
      [out appendBytes:&b length:1];
      break;
    }
    case SBString:
      string(out, v);
      break;
    case SBFloat32: {
      float f = [v floatValue];
      [out appendBytes:&f length:4];
      break;
    }
    case SBFloat64: {
      double d = [v doubleValue];
      [out appendBytes:&d length:8];
      break;
    }
    case SBBytes:
      varint(out, [v length]), [out appendData:v];
      break;
    case SBNull:
      break;
    case SBOptional: {
      uint8_t present = v != [NSNull null];
      [out appendBytes:&present length:1];
      if (present) SBHandwrittenWrite(out, v, t->elem);
      break;
    }
    case SBList:
      varint(out, [v count]);
      for (id x in v) SBHandwrittenWrite(out, x, t->elem);
      break;
    case SBMap:
      varint(out, [v count]);
      for (NSString *k in v) string(out, k), SBHandwrittenWrite(out, [v objectForKey:k], t -> elem);
      break;
    case SBRecord: {
      NSUInteger n = [t->fieldNames count];
      for (NSUInteger i = 0; i < n; i++)
        SBHandwrittenWrite(out, [v objectForKey:[t->fieldNames objectAtIndex:i]],
                           [t->fieldTypes objectAtIndex:i]);
      break;
    }
    default:
      [NSException raise:NSInvalidArgumentException format:@"handwritten: no form for this type"];
  }
}

static void need(const uint8_t *p, const uint8_t *end, uint64_t n) {
  if ((uint64_t)(end - p) < n)
    [NSException raise:@"SBDecodeError" format:@"handwritten: truncated input"];
}

static uint64_t readVarint(const uint8_t **p, const uint8_t *end) {
  uint64_t v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    need(*p, end, 1);
    uint8_t b = *(*p)++;
    v |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80)) return v;
  }
  [NSException raise:@"SBDecodeError" format:@"handwritten: varint too long"];
  return 0;
}

static NSString *readString(const uint8_t **p, const uint8_t *end) {
  uint64_t n = readVarint(p, end);
  need(*p, end, n);
  NSString *s = [[[NSString alloc] initWithBytes:*p length:n
                                        encoding:NSUTF8StringEncoding] autorelease];
  if (!s) [NSException raise:@"SBDecodeError" format:@"handwritten: invalid UTF-8"];
  *p += n;
  return s;
}

id SBHandwrittenRead(const uint8_t **p, const uint8_t *end, SBType *t) {
  switch (t->kind) {
    case SBInt32:
    case SBInt64:
    case SBTimestamp:
    case SBEnum: {
      uint64_t z = readVarint(p, end);
      return [NSNumber numberWithLongLong:(int64_t)(z >> 1) ^ -(int64_t)(z & 1)];
    }
    case SBUInt32:
    case SBUInt64: {
      uint64_t u = readVarint(p, end);
      return u > INT64_MAX ? [NSNumber numberWithUnsignedLongLong:u]
                           : [NSNumber numberWithLongLong:(long long)u];
    }
    case SBBool:
      need(*p, end, 1);
      return [NSNumber numberWithBool:*(*p)++ != 0];
    case SBString:
      return readString(p, end);
    case SBFloat32: {
      float f;
      need(*p, end, 4);
      memcpy(&f, *p, 4), *p += 4;
      return [NSNumber numberWithFloat:f];
    }
    case SBFloat64: {
      double d;
      need(*p, end, 8);
      memcpy(&d, *p, 8), *p += 8;
      return [NSNumber numberWithDouble:d];
    }
    case SBBytes: {
      uint64_t n = readVarint(p, end);
      need(*p, end, n);
      NSData *d = [NSData dataWithBytes:*p length:n];
      *p += n;
      return d;
    }
    case SBNull:
      return [NSNull null];
    case SBOptional:
      need(*p, end, 1);
      return *(*p)++ ? SBHandwrittenRead(p, end, t->elem) : [NSNull null];
    case SBList: {
      uint64_t n = readVarint(p, end);
      need(*p, end, n);  // every item takes at least one byte but null; a cheap bound
      NSMutableArray *out = [NSMutableArray arrayWithCapacity:n];
      for (uint64_t i = 0; i < n; i++) [out addObject:SBHandwrittenRead(p, end, t->elem)];
      return out;
    }
    case SBMap: {
      uint64_t n = readVarint(p, end);
      need(*p, end, n);
      NSMutableDictionary *out = [NSMutableDictionary dictionaryWithCapacity:n];
      for (uint64_t i = 0; i < n; i++) {
        NSString *k = readString(p, end);
        [out setObject:SBHandwrittenRead(p, end, t->elem) forKey:k];
      }
      return out;
    }
    case SBRecord: {
      NSUInteger n = [t->fieldNames count];
      NSMutableDictionary *out = [NSMutableDictionary dictionaryWithCapacity:n];
      for (NSUInteger i = 0; i < n; i++)
        [out setObject:SBHandwrittenRead(p, end, [t->fieldTypes objectAtIndex:i])
                forKey:[t->fieldNames objectAtIndex:i]];
      return out;
    }
    default:
      [NSException raise:@"SBDecodeError" format:@"handwritten: no form for this type"];
  }
  return nil;
}

NSString *SBHandwrittenRefusal(SBType *t, NSString *path) {
  if (t->kind == SBAny || t->kind == SBBigInt)
    return [NSString stringWithFormat:@"handwritten: %@ is %@, which has no field-by-field form",
                                      path, t->kind == SBAny ? @"any" : @"bigint"];
  if (t->elem) return SBHandwrittenRefusal(t->elem, [path stringByAppendingString:@"[*]"]);
  NSUInteger n = [t->fieldNames count];
  for (NSUInteger i = 0; i < n; i++) {
    NSString *why = SBHandwrittenRefusal(
        [t->fieldTypes objectAtIndex:i],
        [NSString stringWithFormat:@"%@.%@", path, [t->fieldNames objectAtIndex:i]]);
    if (why) return why;
  }
  return nil;
}

@implementation SBHandwritten
+ (NSString *)name {
  return @"handwritten";
}
+ (NSString *)format {
  return @"handwritten";
}
+ (NSString *)library {
  return @"field-by-field Objective-C (no library)";
}
+ (NSString *)version {
  return @"1";
}
+ (NSArray *)labels {
  return [NSArray arrayWithObjects:@"binary", @"schema-required", @"copying-decode", @"positional",
                                   @"handwritten", nil];
}
+ (id)footprintBytes {
  return [NSNumber numberWithInt:0];
}

- (NSString *)reasonForMessage:(id)message {
  return SBHandwrittenRefusal(type, @"$");
}

- (NSData *)encode:(id)message {
  NSMutableData *out = [NSMutableData dataWithCapacity:64];
  SBHandwrittenWrite(out, message, type);
  return out;
}

- (void)encode:(id)message append:(NSMutableData *)dst {
  SBHandwrittenWrite(dst, message, type);
}

- (id)decode:(const uint8_t *)bytes length:(NSUInteger)length error:(NSString **)error {
  const uint8_t *p = bytes, *end = bytes + length;
  id v = nil;
  @try {
    v = SBHandwrittenRead(&p, end, type);
    if (p != end) *error = @"handwritten: bytes after the message", v = nil;
  } @catch (NSException *e) {
    if (![[e name] isEqualToString:@"SBDecodeError"]) @throw;
    *error = [e reason];
  }
  return v;
}
@end

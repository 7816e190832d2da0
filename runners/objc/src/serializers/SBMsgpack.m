#import "SBMsgpack.h"

#include <string.h>

int SBMsgpackWrite(void *data, const char *buf, size_t len) {
  [(NSMutableData *)data appendBytes:buf length:len];
  return 0;
}

void SBMsgpackPackString(msgpack_packer *pk, NSString *s) {
  const char *utf8 = [s UTF8String];
  // UTF8String stops at an embedded NUL; the byte length comes from the string itself.
  NSUInteger n = [s lengthOfBytesUsingEncoding:NSUTF8StringEncoding];
  if (strlen(utf8) == n) {
    msgpack_pack_str(pk, n);
    msgpack_pack_str_body(pk, utf8, n);
  } else {
    NSData *d = [s dataUsingEncoding:NSUTF8StringEncoding];
    msgpack_pack_str(pk, [d length]);
    msgpack_pack_str_body(pk, [d bytes], [d length]);
  }
}

void SBMsgpackPackNumber(msgpack_packer *pk, NSNumber *n) {
  if (SBIsBool(n)) {
    [n boolValue] ? msgpack_pack_true(pk) : msgpack_pack_false(pk);
  } else if ([n objCType][0] == 'f') {
    msgpack_pack_float(pk, [n floatValue]);
  } else if ([n objCType][0] == 'd') {
    msgpack_pack_double(pk, [n doubleValue]);
  } else if (SBIsUnsignedBig(n)) {
    msgpack_pack_uint64(pk, [n unsignedLongLongValue]);
  } else {
    msgpack_pack_int64(pk, [n longLongValue]);  // the smallest form that holds the value
  }
}

void SBMsgpackPack(msgpack_packer *pk, id v) {
  if ([v isKindOfClass:[NSString class]]) {
    SBMsgpackPackString(pk, v);
  } else if ([v isKindOfClass:[NSNumber class]]) {
    SBMsgpackPackNumber(pk, v);
  } else if ([v isKindOfClass:[NSDictionary class]]) {
    msgpack_pack_map(pk, [v count]);
    for (id k in v) {
      SBMsgpackPack(pk, k);
      SBMsgpackPack(pk, [v objectForKey:k]);
    }
  } else if ([v isKindOfClass:[NSArray class]]) {
    msgpack_pack_array(pk, [v count]);
    for (id x in v) SBMsgpackPack(pk, x);
  } else if ([v isKindOfClass:[NSData class]]) {
    msgpack_pack_bin(pk, [v length]);
    msgpack_pack_bin_body(pk, [v bytes], [v length]);
  } else if (v == [NSNull null]) {
    msgpack_pack_nil(pk);
  } else {
    [NSException raise:NSInvalidArgumentException format:@"msgpack: cannot pack %@", [v class]];
  }
}

id SBMsgpackObject(const msgpack_object *o) {
  switch (o->type) {
    case MSGPACK_OBJECT_NIL:
      return [NSNull null];
    case MSGPACK_OBJECT_BOOLEAN:
      return [NSNumber numberWithBool:o->via.boolean];
    case MSGPACK_OBJECT_POSITIVE_INTEGER:
      return o->via.u64 > INT64_MAX ? [NSNumber numberWithUnsignedLongLong:o->via.u64]
                                    : [NSNumber numberWithLongLong:(long long)o->via.u64];
    case MSGPACK_OBJECT_NEGATIVE_INTEGER:
      return [NSNumber numberWithLongLong:o->via.i64];
    case MSGPACK_OBJECT_FLOAT32:
      return [NSNumber numberWithFloat:(float)o->via.f64];
    case MSGPACK_OBJECT_FLOAT64:
      return [NSNumber numberWithDouble:o->via.f64];
    case MSGPACK_OBJECT_STR: {
      NSString *s = [[[NSString alloc] initWithBytes:o->via.str.ptr
                                              length:o->via.str.size
                                            encoding:NSUTF8StringEncoding] autorelease];
      if (!s) [NSException raise:@"SBDecodeError" format:@"msgpack: str is not UTF-8"];
      return s;
    }
    case MSGPACK_OBJECT_BIN:
      return [NSData dataWithBytes:o->via.bin.ptr length:o->via.bin.size];
    case MSGPACK_OBJECT_ARRAY: {
      NSMutableArray *out = [NSMutableArray arrayWithCapacity:o->via.array.size];
      for (uint32_t i = 0; i < o->via.array.size; i++)
        [out addObject:SBMsgpackObject(&o->via.array.ptr[i])];
      return out;
    }
    case MSGPACK_OBJECT_MAP: {
      NSMutableDictionary *out = [NSMutableDictionary dictionaryWithCapacity:o->via.map.size];
      for (uint32_t i = 0; i < o->via.map.size; i++) {
        [out setObject:SBMsgpackObject(&o->via.map.ptr[i].val)
                forKey:SBMsgpackObject(&o->via.map.ptr[i].key)];
      }
      return out;
    }
    default:
      // a value a Foundation message does not hold: the wrapper's refusal, as a bad layout
      [NSException raise:@"SBDecodeError" format:@"msgpack: extension type %d", (int)o->type];
  }
  return nil;
}

BOOL SBMsgpackNext(msgpack_unpacked *result, const uint8_t *bytes, NSUInteger length,
                   NSUInteger *used, NSString **error) {
  size_t off = 0;
  msgpack_unpack_return r = msgpack_unpack_next(result, (const char *)bytes, length, &off);
  if (r != MSGPACK_UNPACK_SUCCESS && r != MSGPACK_UNPACK_EXTRA_BYTES) {
    *error =
        r == MSGPACK_UNPACK_CONTINUE ? @"msgpack: truncated input" : @"msgpack: malformed input";
    return NO;
  }
  *used = off;
  return YES;
}

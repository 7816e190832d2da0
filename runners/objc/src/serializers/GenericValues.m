// Each row's library decoding to its generic value and encoding one, for untrusted input
// (docs/runner-protocol.md section 11), with the library's default settings, as a caller
// that hands it bytes from the network gets them.
#import "../harness/SBCanonical.h"
#import "../harness/SBUntrusted.h"
#import "SBMsgpack.h"

#include <math.h>
#include <msgpack/timestamp.h>
#include <string.h>

// Canonical JSON -> Foundation objects ($bytes as NSData, $timestamp as NSDate, $float as
// a double), or nil and *why for a form Foundation's property trees have no object for.
static id foundation(id v, NSString **why) {
  NSString *tag = SBCanonicalTag(v);
  id inner = tag ? [v objectForKey:tag] : nil;
  if ([tag isEqual:@"$bytes"]) {
    NSData *d = SBUnhex(inner);
    if (!d) *why = @"$bytes is not hex";
    return d;
  }
  if ([tag isEqual:@"$float"]) {
    double d = [inner isEqual:@"NaN"] ? NAN : [inner isEqual:@"Infinity"] ? INFINITY : -INFINITY;
    return [NSNumber numberWithDouble:d];
  }
  if ([tag isEqual:@"$timestamp"] && [inner isKindOfClass:[NSArray class]] && [inner count] == 2)
    return [NSDate dateWithTimeIntervalSince1970:[[inner objectAtIndex:0] doubleValue] +
                                                 [[inner objectAtIndex:1] doubleValue] / 1e9];
  if (tag) {
    *why = [NSString stringWithFormat:@"%@ values have no Foundation object", tag];
    return nil;
  }
  if ([v isKindOfClass:[NSArray class]]) {
    NSMutableArray *out = [NSMutableArray arrayWithCapacity:[v count]];
    for (id x in v) {
      id y = foundation(x, why);
      if (!y) return nil;
      [out addObject:y];
    }
    return out;
  }
  if ([v isKindOfClass:[NSDictionary class]]) {
    NSMutableDictionary *out = [NSMutableDictionary dictionaryWithCapacity:[v count]];
    for (id k in v) {
      id y = foundation([v objectForKey:k], why);
      if (!y) return nil;
      [out setObject:y forKey:k];
    }
    return out;
  }
  return v;
}

// --- NSJSONSerialization ----------------------------------------------------------------
// Documented refusal: a nil return with an NSError (NSJSONSerialization.h).

static BOOL jsonDecode(const uint8_t *bytes, NSUInteger length, NSMutableData *out,
                       NSString **rejected) {
  NSData *in = [NSData dataWithBytesNoCopy:(void *)bytes length:length freeWhenDone:NO];
  NSError *e = nil;
  id v = [NSJSONSerialization JSONObjectWithData:in options:0 error:&e];
  if (!v) {
    *rejected = [e localizedDescription] ?: @"NSJSONSerialization returned nil";
    return NO;
  }
  SBWriteCanonical(out, v, 0);
  return YES;
}

static NSData *jsonEncode(id canonical, NSString **why) {
  id v = foundation(canonical, why);
  NSError *e = nil;
  NSData *out = v ? [NSJSONSerialization dataWithJSONObject:v options:0 error:&e] : nil;
  if (v && !out) *why = [e localizedDescription] ?: @"NSJSONSerialization cannot write it";
  return out;
}

// --- NSPropertyListSerialization ----------------------------------------------------------
// Documented refusal: a nil return with an NSError. The reader detects the form itself
// (binary, XML, OpenStep), whichever row calls it.

static BOOL plistDecode(const uint8_t *bytes, NSUInteger length, NSMutableData *out,
                        NSString **rejected) {
  NSData *in = [NSData dataWithBytesNoCopy:(void *)bytes length:length freeWhenDone:NO];
  NSError *e = nil;
  id v = [NSPropertyListSerialization propertyListWithData:in
                                                   options:NSPropertyListImmutable
                                                    format:NULL
                                                     error:&e];
  if (!v) {
    *rejected = [e localizedDescription] ?: @"NSPropertyListSerialization returned nil";
    return NO;
  }
  SBWriteCanonical(out, v, 0);
  return YES;
}

static NSData *plistEncode(id canonical, NSPropertyListFormat format, NSString **why) {
  id v = foundation(canonical, why);
  NSError *e = nil;
  NSData *out = v ? [NSPropertyListSerialization dataWithPropertyList:v
                                                               format:format
                                                              options:0
                                                                error:&e]
                  : nil;
  if (v && !out) *why = [e localizedDescription] ?: @"NSPropertyListSerialization cannot write it";
  return out;
}

static NSData *plistBinaryEncode(id canonical, NSString **why) {
  return plistEncode(canonical, NSPropertyListBinaryFormat_v1_0, why);
}

static NSData *plistXMLEncode(id canonical, NSString **why) {
  return plistEncode(canonical, NSPropertyListXMLFormat_v1_0, why);
}

// --- msgpack-c ------------------------------------------------------------------------
// Documented refusal: msgpack_unpack_next's return codes (msgpack/unpack.h). Its
// MSGPACK_UNPACK_NOMEM_ERROR also means "nested deeper than MSGPACK_EMBED_STACK_SIZE (32)"
// and is a return, not an abort, so it is a refusal too.

static void writeMsgpack(NSMutableData *out, const msgpack_object *o, NSUInteger depth);

static void writeStr(NSMutableData *out, const char *p, uint32_t n) {
  NSString *s = [[NSString alloc] initWithBytes:p length:n encoding:NSUTF8StringEncoding];
  if (s)
    SBJSONString(out, s);
  else  // msgpack-c does not check UTF-8: the str it returns is not text
    SBJSONOther(out, [@"str, not UTF-8: " stringByAppendingString:SBHex(p, n)]);
  [s release];
}

static BOOL isText(const msgpack_object *o) {
  if (o->type != MSGPACK_OBJECT_STR) return NO;
  NSString *s = [[NSString alloc] initWithBytes:o->via.str.ptr
                                         length:o->via.str.size
                                       encoding:NSUTF8StringEncoding];
  [s release];
  return s != nil;
}

static void writeMap(NSMutableData *out, const msgpack_object_map *m, NSUInteger depth) {
  BOOL strings = YES;
  for (uint32_t i = 0; i < m->size && strings; i++) strings = isText(&m->ptr[i].key);
  SBJSONRaw(out, strings ? "{" : "{\"$map\": [");
  for (uint32_t i = 0; i < m->size; i++) {
    if (i) SBJSONRaw(out, ", ");
    if (!strings) SBJSONRaw(out, "[");
    writeMsgpack(out, &m->ptr[i].key, depth + 1);
    SBJSONRaw(out, strings ? ": " : ", ");
    writeMsgpack(out, &m->ptr[i].val, depth + 1);
    if (!strings) SBJSONRaw(out, "]");
  }
  SBJSONRaw(out, strings ? "}" : "]}");
}

static void writeMsgpack(NSMutableData *out, const msgpack_object *o, NSUInteger depth) {
  if (depth > SB_MAX_DEPTH) return SBJSONTooDeep(out);
  msgpack_timestamp ts;
  switch (o->type) {
    case MSGPACK_OBJECT_NIL:
      return SBJSONRaw(out, "null");
    case MSGPACK_OBJECT_BOOLEAN:
      return SBJSONRaw(out, o->via.boolean ? "true" : "false");
    case MSGPACK_OBJECT_POSITIVE_INTEGER:
      return SBJSONUInt(out, o->via.u64);
    case MSGPACK_OBJECT_NEGATIVE_INTEGER:
      return SBJSONInt(out, o->via.i64);
    case MSGPACK_OBJECT_FLOAT32:
    case MSGPACK_OBJECT_FLOAT64:
      return SBJSONDouble(out, o->via.f64);
    case MSGPACK_OBJECT_STR:
      return writeStr(out, o->via.str.ptr, o->via.str.size);
    case MSGPACK_OBJECT_BIN:
      return SBJSONBytes(out, o->via.bin.ptr, o->via.bin.size);
    case MSGPACK_OBJECT_ARRAY:
      SBJSONRaw(out, "[");
      for (uint32_t i = 0; i < o->via.array.size; i++) {
        if (i) SBJSONRaw(out, ", ");
        writeMsgpack(out, &o->via.array.ptr[i], depth + 1);
      }
      return SBJSONRaw(out, "]");
    case MSGPACK_OBJECT_MAP:
      return writeMap(out, &o->via.map, depth);
    case MSGPACK_OBJECT_EXT:
      if (o->via.ext.type == -1 && msgpack_object_to_timestamp(o, &ts)) {
        SBJSONRaw(out, "{\"$timestamp\": [");
        SBJSONInt(out, ts.tv_sec);
        SBJSONRaw(out, ", ");
        SBJSONInt(out, ts.tv_nsec);
        return SBJSONRaw(out, "]}");
      }
      SBJSONRaw(out, "{\"$ext\": [");
      SBJSONInt(out, o->via.ext.type);
      SBJSONRaw(out, ", ");
      SBJSONString(out, SBHex(o->via.ext.ptr, o->via.ext.size));
      return SBJSONRaw(out, "]}");
    default:
      return SBJSONOther(out, [NSString stringWithFormat:@"msgpack object type %d", o->type]);
  }
}

static BOOL msgpackDecode(const uint8_t *bytes, NSUInteger length, NSMutableData *out,
                          NSString **rejected) {
  msgpack_unpacked result;
  msgpack_unpacked_init(&result);
  size_t used = 0;
  msgpack_unpack_return r = msgpack_unpack_next(&result, (const char *)bytes, length, &used);
  BOOL ok = (r == MSGPACK_UNPACK_SUCCESS || r == MSGPACK_UNPACK_EXTRA_BYTES) && used == length;
  if (ok)
    writeMsgpack(out, &result.data, 0);
  else if (r == MSGPACK_UNPACK_SUCCESS || r == MSGPACK_UNPACK_EXTRA_BYTES)
    *rejected = [NSString stringWithFormat:@"msgpack_unpack_next: %lu bytes after the value",
                                           (unsigned long)(length - used)];
  else
    *rejected = r == MSGPACK_UNPACK_CONTINUE ? @"msgpack_unpack_next: MSGPACK_UNPACK_CONTINUE "
                                               @"(truncated input)"
                : r == MSGPACK_UNPACK_NOMEM_ERROR
                    ? @"msgpack_unpack_next: MSGPACK_UNPACK_NOMEM_ERROR (nested deeper than 32, "
                      @"or a container too large to allocate)"
                    : @"msgpack_unpack_next: MSGPACK_UNPACK_PARSE_ERROR";
  msgpack_unpacked_destroy(&result);
  return ok;
}

static BOOL packCanonical(msgpack_packer *pk, id v, NSString **why);

static BOOL packTagged(msgpack_packer *pk, NSString *tag, id inner, NSString **why) {
  if ([tag isEqual:@"$bytes"] || [tag isEqual:@"$float"])
    return packCanonical(pk, foundation([NSDictionary dictionaryWithObject:inner forKey:tag], why),
                         why);
  if ([tag isEqual:@"$ext"] && [inner isKindOfClass:[NSArray class]] && [inner count] == 2) {
    NSData *body = SBUnhex([inner objectAtIndex:1]);
    if (!body) return *why = @"$ext body is not hex", NO;
    msgpack_pack_ext(pk, [body length], (int8_t)[[inner objectAtIndex:0] intValue]);
    msgpack_pack_ext_body(pk, [body bytes], [body length]);
    return YES;
  }
  if ([tag isEqual:@"$timestamp"] && [inner isKindOfClass:[NSArray class]] && [inner count] == 2) {
    msgpack_timestamp ts = {[[inner objectAtIndex:0] longLongValue],
                            (uint32_t)[[inner objectAtIndex:1] unsignedIntValue]};
    msgpack_pack_timestamp(pk, &ts);
    return YES;
  }
  if ([tag isEqual:@"$map"] && [inner isKindOfClass:[NSArray class]]) {
    msgpack_pack_map(pk, [inner count]);
    for (NSArray *pair in inner) {
      if (![pair isKindOfClass:[NSArray class]] || [pair count] != 2)
        return *why = @"$map holds pairs", NO;
      if (!packCanonical(pk, [pair objectAtIndex:0], why) ||
          !packCanonical(pk, [pair objectAtIndex:1], why))
        return NO;
    }
    return YES;
  }
  *why = [NSString stringWithFormat:@"MessagePack has no %@ value", tag];
  return NO;
}

static BOOL packCanonical(msgpack_packer *pk, id v, NSString **why) {
  if (!v) return NO;
  NSString *tag = SBCanonicalTag(v);
  if (tag) return packTagged(pk, tag, [v objectForKey:tag], why);
  if ([v isKindOfClass:[NSArray class]]) {
    msgpack_pack_array(pk, [v count]);
    for (id x in v)
      if (!packCanonical(pk, x, why)) return NO;
    return YES;
  }
  if ([v isKindOfClass:[NSDictionary class]]) {
    msgpack_pack_map(pk, [v count]);
    for (id k in v) {
      SBMsgpackPackString(pk, k);
      if (!packCanonical(pk, [v objectForKey:k], why)) return NO;
    }
    return YES;
  }
  SBMsgpackPack(pk, v);  // null, booleans, numbers (exact integers), strings, bytes
  return YES;
}

static NSData *msgpackEncode(id canonical, NSString **why) {
  NSMutableData *out = [NSMutableData data];
  msgpack_packer pk;
  msgpack_packer_init(&pk, out, SBMsgpackWrite);
  return packCanonical(&pk, canonical, why) ? out : nil;
}

void SBGenericWarmUp(void) {
  static BOOL done;
  if (done) return;
  done = YES;
  NSAutoreleasePool *pool = [NSAutoreleasePool new];
  NSMutableData *out = [NSMutableData data];
  NSString *rejected = nil;
  jsonDecode((const uint8_t *)"[", 1, out, &rejected);
  plistDecode((const uint8_t *)"<", 1, out, &rejected);
  const char *xml = "<?xml version=\"1.0\"?><plist version=\"1.0\"><true/></plist>";
  plistDecode((const uint8_t *)xml, strlen(xml), out, &rejected);  // the XML parser's start-up
  [pool drain];
}

// --- the rows ---------------------------------------------------------------------------

const SBGeneric *SBGenericFor(NSString *serializer) {
  static const SBGeneric json = {jsonDecode, jsonEncode}, msgpack = {msgpackDecode, msgpackEncode},
                         binary = {plistDecode, plistBinaryEncode},
                         xml = {plistDecode, plistXMLEncode};
  if ([serializer isEqual:@"nsjsonserialization"]) return &json;
  // both rows call the same library; the positional one's layout is its typed model
  if ([serializer isEqual:@"msgpack-c"] || [serializer isEqual:@"msgpack-c-positional"])
    return &msgpack;
  if ([serializer isEqual:@"plist-binary"]) return &binary;
  if ([serializer isEqual:@"plist-xml"]) return &xml;
  return NULL;
}

NSString *SBUntrustedRefusal(NSString *serializer) {
  if ([serializer isEqual:@"nskeyedarchiver"])
    return @"NSKeyedUnarchiver instantiates whatever classes an archive names (and GNUstep does "
           @"not enforce secure coding): it must not be given bytes from outside";
  if ([serializer isEqual:@"memcpy"] || [serializer isEqual:@"noop"])
    return [serializer stringByAppendingString:@" is a baseline: it parses nothing"];
  return nil;
}

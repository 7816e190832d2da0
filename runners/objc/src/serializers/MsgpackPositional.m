// msgpack-c in the seed's layout: records as arrays in types.json field order, enums as
// ordinals, timestamps as int64 ms, and a one-field record as its bare field (the seed wrote
// S2's Test3 as a bare str). The message type drives both directions, as a hand-written
// Objective-C wrapper with a field list per class would.
#import "SBMsgpack.h"

@interface SBMsgpackPositional : SBMsgpackC
@end

static void pack(msgpack_packer *pk, id v, SBType *t) {
  if (t->kind == SBOptional) {
    if (v == [NSNull null])
      msgpack_pack_nil(pk);
    else
      pack(pk, v, t->elem);
  } else if (t->kind == SBRecord) {
    NSUInteger n = [t->fieldNames count];
    if (n != 1) msgpack_pack_array(pk, n);
    for (NSUInteger i = 0; i < n; i++)
      pack(pk, [v objectForKey:[t->fieldNames objectAtIndex:i]], [t->fieldTypes objectAtIndex:i]);
  } else if (t->kind == SBList) {
    msgpack_pack_array(pk, [v count]);
    for (id x in v) pack(pk, x, t->elem);
  } else if (t->kind == SBMap) {
    msgpack_pack_map(pk, [v count]);
    for (NSString *k in v) {
      SBMsgpackPackString(pk, k);
      pack(pk, [v objectForKey:k], t -> elem);
    }
  } else {
    SBMsgpackPack(pk, v);
  }
}

static id bad(NSString *what) {
  [NSException raise:@"SBDecodeError" format:@"msgpack: expected %@", what];
  return nil;
}

static id convert(const msgpack_object *o, SBType *t) {
  switch (t->kind) {
    case SBOptional:
      return o->type == MSGPACK_OBJECT_NIL ? [NSNull null] : convert(o, t->elem);
    case SBRecord: {
      NSUInteger n = [t->fieldNames count];
      NSMutableDictionary *out = [NSMutableDictionary dictionaryWithCapacity:n];
      if (n == 1) {
        [out setObject:convert(o, [t->fieldTypes objectAtIndex:0])
                forKey:[t->fieldNames objectAtIndex:0]];
        return out;
      }
      if (o->type != MSGPACK_OBJECT_ARRAY || o->via.array.size != n)
        return bad(
            [NSString stringWithFormat:@"an array of %lu for %@", (unsigned long)n, t->name]);
      for (NSUInteger i = 0; i < n; i++) {
        [out setObject:convert(&o->via.array.ptr[i], [t->fieldTypes objectAtIndex:i])
                forKey:[t->fieldNames objectAtIndex:i]];
      }
      return out;
    }
    case SBList: {
      if (o->type != MSGPACK_OBJECT_ARRAY) return bad(@"an array");
      NSMutableArray *out = [NSMutableArray arrayWithCapacity:o->via.array.size];
      for (uint32_t i = 0; i < o->via.array.size; i++)
        [out addObject:convert(&o->via.array.ptr[i], t->elem)];
      return out;
    }
    case SBMap: {
      if (o->type != MSGPACK_OBJECT_MAP) return bad(@"a map");
      NSMutableDictionary *out = [NSMutableDictionary dictionaryWithCapacity:o->via.map.size];
      for (uint32_t i = 0; i < o->via.map.size; i++) {
        if (o->via.map.ptr[i].key.type != MSGPACK_OBJECT_STR) return bad(@"a str key");
        [out setObject:convert(&o->via.map.ptr[i].val, t->elem)
                forKey:SBMsgpackObject(&o->via.map.ptr[i].key)];
      }
      return out;
    }
    default:
      return SBMsgpackObject(o);
  }
}

@implementation SBMsgpackPositional
+ (NSString *)name {
  return @"msgpack-c-positional";
}
+ (NSArray *)labels {
  return [NSArray arrayWithObjects:@"binary", @"schemaless", @"copying-decode", @"positional",
                                   @"enum-as-ordinal", @"timestamp-as-number", nil];
}

- (void)pack:(id)message with:(msgpack_packer *)pk {
  pack(pk, message, type);
}

- (id)objectFrom:(const msgpack_object *)o {
  return convert(o, type);
}
@end

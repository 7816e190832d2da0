// msgpack-c's C API from Foundation objects: records go as maps keyed by field name, which
// is what an NSDictionary-based wrapper writes.
#import "SBMsgpack.h"

@implementation SBMsgpackC
+ (NSString *)name {
  return @"msgpack-c";
}
+ (NSString *)format {
  return @"msgpack";
}
+ (NSString *)library {
  return @"msgpack-c (C API) with Foundation objects";
}
+ (NSString *)version {
  return [NSString stringWithUTF8String:msgpack_version()];
}
+ (NSArray *)labels {
  return [NSArray arrayWithObjects:@"binary", @"schemaless", @"copying-decode", @"map-layout",
                                   @"enum-as-ordinal", @"timestamp-as-number", nil];
}
+ (id)footprintBytes {
  return SBLibraryFootprint(msgpack_version);
}

+ (BOOL)selfDelimiting {
  return YES;
}

- (NSData *)encode:(id)message {
  NSMutableData *out = [NSMutableData dataWithCapacity:64];
  [self encode:message append:out];
  return out;
}

- (void)encode:(id)message append:(NSMutableData *)dst {
  msgpack_packer pk;
  msgpack_packer_init(&pk, dst, SBMsgpackWrite);
  [self pack:message with:&pk];
}

- (void)pack:(id)message with:(msgpack_packer *)pk {
  SBMsgpackPack(pk, message);
}

- (id)objectFrom:(const msgpack_object *)o {
  return SBMsgpackObject(o);
}

- (id)decodeNext:(const uint8_t *)bytes
          length:(NSUInteger)length
            used:(NSUInteger *)used
           error:(NSString **)error {
  msgpack_unpacked result;
  msgpack_unpacked_init(&result);
  id v = nil;
  if (SBMsgpackNext(&result, bytes, length, used, error)) {
    @try {
      v = [self objectFrom:&result.data];
    } @catch (NSException *e) {
      if (![[e name] isEqualToString:@"SBDecodeError"]) @throw;
      *error = [e reason];
    }
  }
  msgpack_unpacked_destroy(&result);
  return v;
}

- (id)decode:(const uint8_t *)bytes length:(NSUInteger)length error:(NSString **)error {
  NSUInteger used;
  id v = [self decodeNext:bytes length:length used:&used error:error];
  if (v && used != length) {
    *error = [NSString
        stringWithFormat:@"msgpack: %lu bytes after the message", (unsigned long)(length - used)];
    return nil;
  }
  return v;
}
@end

// msgpack-c's C API driven from Foundation objects, shared by the two MessagePack rows:
// the packer writes straight into an NSMutableData, the unpacker reads into a zone that is
// then converted to Foundation objects (the way Objective-C MessagePack wrappers work).
#import "../harness/SBSerializer.h"

#include <msgpack.h>

// The first value under a message that MessagePack cannot carry (NSData is bin, NSNull nil:
// everything the native tree holds fits), kept for symmetry with the other formats.
void SBMsgpackPack(msgpack_packer *pk, id v);
void SBMsgpackPackString(msgpack_packer *pk, NSString *s);
void SBMsgpackPackNumber(msgpack_packer *pk, NSNumber *n);
int SBMsgpackWrite(void *data, const char *buf, size_t len);
// msgpack_object -> Foundation objects (maps to NSDictionary, nil to NSNull, bin to NSData).
id SBMsgpackObject(const msgpack_object *o);
// Unpacks the next object; *used the bytes it took; NO and *error when the bytes are not one.
BOOL SBMsgpackNext(msgpack_unpacked *result, const uint8_t *bytes, NSUInteger length,
                   NSUInteger *used, NSString **error);

// The map-layout row; the positional row overrides the two hooks with the message type.
@interface SBMsgpackC : SBSerializer
- (void)pack:(id)message with:(msgpack_packer *)pk;
// raises SBDecodeError when the object does not fit the layout
- (id)objectFrom:(const msgpack_object *)o;
@end

// The hand-written baseline's codec (the Parcelable stand-in): field-by-field binary driven
// by the message type, no library. Shared with the memcpy row, whose bytes it writes.
#import "../harness/SBSerializer.h"

void SBHandwrittenWrite(NSMutableData *out, id v, SBType *t);
// Reads one value; raises SBDecodeError on bytes it cannot read.
id SBHandwrittenRead(const uint8_t **p, const uint8_t *end, SBType *t);
// Why a type cannot be written (`any` and `bigint` have no field-by-field form), or nil.
NSString *SBHandwrittenRefusal(SBType *t, NSString *path);

@interface SBHandwritten : SBSerializer
@end

// The orchestrator's codecs: zlib (RFC 1950) level 6, zstd level 3, lz4 frame at its
// default level. One instance per cell keeps the libraries' contexts between operations.
#import <Foundation/Foundation.h>

@interface SBCodec : NSObject
+ (NSArray *)names;
+ (SBCodec *)codecNamed:(NSString *)name;
// Appends the compressed form of src to out.
- (void)compress:(const uint8_t *)src length:(NSUInteger)n append:(NSMutableData *)dst;
// Decompresses into dst (capacity cap); returns the decompressed size, raises on bad input.
- (NSUInteger)decompress:(const uint8_t *)src
                  length:(NSUInteger)n
                    into:(uint8_t *)dst
                capacity:(NSUInteger)cap;
@end

// Unsigned LEB128 framing of protocol section 6.
void SBAppendVarint(NSMutableData *out, uint64_t v);
// Reads a varint at *p (advancing it); NO when the bytes end first.
BOOL SBReadVarint(const uint8_t **p, const uint8_t *end, uint64_t *v);

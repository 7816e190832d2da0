#import "SBCodec.h"

#include <lz4frame.h>
#include <zlib.h>
#include <zstd.h>

@interface SBZlib : SBCodec
@end
@interface SBZstd : SBCodec {
  ZSTD_CCtx *cctx;
  ZSTD_DCtx *dctx;
}
@end
@interface SBLz4 : SBCodec {
  LZ4F_dctx *dctx;
}
@end

@implementation SBCodec
+ (NSArray *)names {
  return [NSArray arrayWithObjects:@"zlib", @"zstd", @"lz4", nil];
}
+ (SBCodec *)codecNamed:(NSString *)name {
  Class c = [name isEqualToString:@"zlib"]   ? [SBZlib class]
            : [name isEqualToString:@"zstd"] ? [SBZstd class]
            : [name isEqualToString:@"lz4"]  ? [SBLz4 class]
                                             : Nil;
  return c ? [[[c alloc] init] autorelease] : nil;
}
- (void)compress:(const uint8_t *)src length:(NSUInteger)n append:(NSMutableData *)dst {
  [self subclassResponsibility:_cmd];
}
- (NSUInteger)decompress:(const uint8_t *)src
                  length:(NSUInteger)n
                    into:(uint8_t *)dst
                capacity:(NSUInteger)cap {
  return [self subclassResponsibility:_cmd], 0;
}
@end

static void fail(NSString *what) { [NSException raise:@"SBCodecError" format:@"%@", what]; }

@implementation SBZlib
- (void)compress:(const uint8_t *)src length:(NSUInteger)n append:(NSMutableData *)dst {
  NSUInteger at = [dst length];
  uLongf len = compressBound(n);
  [dst setLength:at + len];
  if (compress2((Bytef *)[dst mutableBytes] + at, &len, src, n, 6) != Z_OK)
    fail(@"zlib: compress failed");
  [dst setLength:at + len];
}
- (NSUInteger)decompress:(const uint8_t *)src
                  length:(NSUInteger)n
                    into:(uint8_t *)dst
                capacity:(NSUInteger)cap {
  uLongf len = cap;
  if (uncompress(dst, &len, src, n) != Z_OK) fail(@"zlib: bad input");
  return len;
}
@end

@implementation SBZstd
- (id)init {
  if ((self = [super init])) cctx = ZSTD_createCCtx(), dctx = ZSTD_createDCtx();
  return self;
}
- (void)dealloc {
  ZSTD_freeCCtx(cctx);
  ZSTD_freeDCtx(dctx);
  [super dealloc];
}
- (void)compress:(const uint8_t *)src length:(NSUInteger)n append:(NSMutableData *)dst {
  NSUInteger at = [dst length];
  [dst setLength:at + ZSTD_compressBound(n)];
  size_t len =
      ZSTD_compressCCtx(cctx, (uint8_t *)[dst mutableBytes] + at, ZSTD_compressBound(n), src, n, 3);
  if (ZSTD_isError(len)) fail(@"zstd: compress failed");
  [dst setLength:at + len];
}
- (NSUInteger)decompress:(const uint8_t *)src
                  length:(NSUInteger)n
                    into:(uint8_t *)dst
                capacity:(NSUInteger)cap {
  size_t len = ZSTD_decompressDCtx(dctx, dst, cap, src, n);
  if (ZSTD_isError(len)) fail(@"zstd: bad input");
  return len;
}
@end

@implementation SBLz4
- (id)init {
  if ((self = [super init])) LZ4F_createDecompressionContext(&dctx, LZ4F_VERSION);
  return self;
}
- (void)dealloc {
  LZ4F_freeDecompressionContext(dctx);
  [super dealloc];
}
- (void)compress:(const uint8_t *)src length:(NSUInteger)n append:(NSMutableData *)dst {
  NSUInteger at = [dst length];
  size_t bound = LZ4F_compressFrameBound(n, NULL);
  [dst setLength:at + bound];
  size_t len = LZ4F_compressFrame((uint8_t *)[dst mutableBytes] + at, bound, src, n, NULL);
  if (LZ4F_isError(len)) fail(@"lz4: compress failed");
  [dst setLength:at + len];
}
- (NSUInteger)decompress:(const uint8_t *)src
                  length:(NSUInteger)n
                    into:(uint8_t *)dst
                capacity:(NSUInteger)cap {
  size_t done = 0, read = 0;
  for (;;) {
    size_t dstLen = cap - done, srcLen = n - read;
    size_t hint = LZ4F_decompress(dctx, dst + done, &dstLen, src + read, &srcLen, NULL);
    if (LZ4F_isError(hint)) {
      LZ4F_resetDecompressionContext(dctx);
      fail(@"lz4: bad input");
    }
    done += dstLen, read += srcLen;
    if (hint == 0) return done;
    if (read == n || (dstLen == 0 && srcLen == 0)) {
      LZ4F_resetDecompressionContext(dctx);
      fail(@"lz4: truncated input");
    }
  }
}
@end

void SBAppendVarint(NSMutableData *out, uint64_t v) {
  uint8_t buf[10];
  int n = 0;
  while (v >= 0x80) buf[n++] = (uint8_t)(v | 0x80), v >>= 7;
  buf[n++] = (uint8_t)v;
  [out appendBytes:buf length:n];
}

BOOL SBReadVarint(const uint8_t **p, const uint8_t *end, uint64_t *v) {
  uint64_t x = 0;
  for (int shift = 0; shift < 64 && *p < end; shift += 7) {
    uint8_t b = *(*p)++;
    x |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80)) {
      *v = x;
      return YES;
    }
  }
  return NO;
}

// A prepared cell: a serializer on a dataset, checked, with everything its operations need
// kept for the samples to come (protocol section 4).
#import <Foundation/Foundation.h>

#import "SBCodec.h"
#import "SBDataset.h"
#import "SBSerializer.h"

@interface SBCell : NSObject {
 @public
  SBSerializer *ser;
  SBDataset *data;
  NSData *encoded;                           // the whole encoded buffer (stream: framed)
  NSMutableDictionary *codecs, *compressed;  // codec name -> SBCodec / compressed buffer
  NSMutableData *outBuf;                     // reused by encode operations
  uint8_t *scratch;                          // decompression target, the largest message
  NSUInteger scratchSize;
  BOOL decodeOnly;  // decode_from: only decode may be sampled
}
// Prepares a cell; returns the reply (status ok or not) and, when ok, the cell in *cell.
+ (NSDictionary *)prepare:(NSDictionary *)command
                 registry:(NSDictionary *)registry
                     cell:(SBCell **)cell;
// Runs one operation `iterations` times (no clocks: the caller reads them).
- (void)run:(NSString *)operation iterations:(NSUInteger)iterations;
- (BOOL)supports:(NSString *)operation;
@end

extern volatile uintptr_t SBSink;

// One serializer: a subclass per library (src/serializers/), one line in SBRegistry.m.
// A fresh instance serves each cell, initialised with the message type of its dataset.
#import <Foundation/Foundation.h>

#import "SBType.h"

@interface SBSerializer : NSObject {
 @protected
  SBType *type;  // the type of one message
}
- (id)initWithType:(SBType *)messageType;

// What describe says.
+ (NSString *)name;
+ (NSString *)format;
+ (NSString *)library;
+ (NSString *)version;
+ (NSArray *)labels;
+ (id)footprintBytes;  // NSNumber, or NSNull when unknown
// Why this serializer cannot carry a built-in dataset, or nil.
+ (NSString *)reasonForBuiltin:(NSString *)dataset;
// Whether it takes user datasets at all, and why not.
+ (NSString *)reasonForUserDatasets;

// Why it cannot carry this native message (a format limit, naming the path), or nil.
- (NSString *)reasonForMessage:(id)message;
// One message to bytes. The default appends -encode: to `out`.
- (NSData *)encode:(id)message;
- (void)encode:(id)message append:(NSMutableData *)dst;
// One message from bytes; nil and *error when the bytes cannot be read. Exceptions a
// library raises go through: the harness reports them as the library's outcome.
- (id)decode:(const uint8_t *)bytes length:(NSUInteger)length error:(NSString **)error;
// Self-delimiting encodings (MessagePack) concatenate stream messages with no length prefix
// and read them back with -decodeNext:; describe then adds the label stream-concatenated.
+ (BOOL)selfDelimiting;
- (id)decodeNext:(const uint8_t *)bytes
          length:(NSUInteger)length
            used:(NSUInteger *)used
           error:(NSString **)error;
// Called once at prepare with the dataset's distinct messages, before anything is encoded
// (the baselines keep prepared bytes and objects).
- (void)prepareItems:(NSArray *)items;
// The decode the round-trip check uses; the copy floor overrides it with a real reader.
- (id)checkDecode:(const uint8_t *)bytes length:(NSUInteger)length error:(NSString **)error;
@end

// Containers, keys and values in a message (what GNUstep's archivers' cost grows with).
NSUInteger SBObjectCount(id message);
// Footprint of the shared library that defines `symbol` (its file's size), or NSNull.
id SBLibraryFootprint(const void *symbol);
// The first value under `message` (walked with its type) for which `refuse` gives a reason.
NSString *SBFirstRefused(id message, NSString *path, NSString *(*refuse)(id value, NSString *path));

#define SB_STR2(x) #x
#define SB_STR(x) SB_STR2(x)
// The version of the GNUstep Base library the runner was compiled against.
#define SB_GNUSTEP_VERSION (@"" SB_STR(GNUSTEP_BASE_VERSION))

// A dataset as a runner holds it: its message type and its distinct messages as Foundation
// objects, built from the canonical file outside any timed region (protocol section 3).
#import <Foundation/Foundation.h>

#import "SBType.h"

@interface SBDataset : NSObject {
 @public
  NSString *name;
  SBType *type;
  NSArray *items;    // distinct messages; message i is items[i % count]
  NSUInteger count;  // messages per operation
  BOOL stream;
}
// The built-in dataset names (every family's types.json under the datasets folder).
+ (NSArray *)builtinNames;
// The types.json of a built-in dataset's family, or nil.
+ (NSString *)builtinTypesPath:(NSString *)name;
// Loads the `data` (or, with check YES, `check_data`) file of a protocol dataset object.
// On failure returns nil with *code ("unknown_dataset", "bad_data", "not_applicable") and *message.
+ (SBDataset *)load:(NSDictionary *)descriptor
              check:(BOOL)check
               code:(NSString **)code
            message:(NSString **)message;
@end

#import "SBDataset.h"
#import "SBRegistry.h"
#import "SBSerializer.h"
#import "SBServe.h"

#ifndef SB_FLAGS
#define SB_FLAGS "unknown"
#endif

static NSDictionary *applicability(NSString *reason) {
  return reason ? [NSDictionary dictionaryWithObjectsAndKeys:[NSNumber numberWithBool:NO],
                                                             @"applicable", reason, @"reason", nil]
                : [NSDictionary dictionaryWithObject:[NSNumber numberWithBool:YES]
                                              forKey:@"applicable"];
}

// The serializer's labels, with the stream framing its class declares (protocol section 6).
static NSArray *labels(Class c) {
  return [c selfDelimiting] ? [[c labels] arrayByAddingObject:@"stream-concatenated"] : [c labels];
}

NSDictionary *SBDescribe(void) {
  NSMutableArray *serializers = [NSMutableArray array];
  for (Class c in SBSerializerClasses()) {
    NSMutableDictionary *datasets = [NSMutableDictionary dictionary];
    for (NSString *ds in [SBDataset builtinNames])
      [datasets setObject:applicability([c reasonForBuiltin:ds]) forKey:ds];
    [serializers
        addObject:[NSDictionary
                      dictionaryWithObjectsAndKeys:[c name], @"name", [c format], @"format",
                                                   [c library], @"library", [c version], @"version",
                                                   labels(c), @"labels", [c footprintBytes],
                                                   @"footprint_bytes", datasets, @"datasets",
                                                   applicability([c reasonForUserDatasets]),
                                                   @"user_datasets", nil]];
  }
  NSString *details =
      [NSString stringWithFormat:@"gcc %s (gobjc), GNU Objective-C runtime (libobjc), GNUstep Base "
                                 @"%@, manual retain/release; "
                                 @"flags: %s",
                                 __VERSION__, SB_GNUSTEP_VERSION, SB_FLAGS];
  NSDictionary *runtime = [NSDictionary
      dictionaryWithObjectsAndKeys:@"GNUstep Base (gcc Objective-C)", @"name", SB_GNUSTEP_VERSION,
                                   @"version", details, @"details", nil];
  return [NSDictionary
      dictionaryWithObjectsAndKeys:[NSNumber numberWithInt:2], @"protocol",
                                   [NSNumber numberWithInt:1], @"protocol_minor", @"objc",
                                   @"runner", @"objective-c", @"language", runtime, @"runtime",
                                   [NSArray arrayWithObjects:@"transport", @"decode_from",
                                                             @"user_datasets", @"untrusted", nil],
                                   @"capabilities", serializers, @"serializers", nil];
}

#import "SBRegistry.h"
#import "SBSerializer.h"

NSArray *SBSerializerClasses(void) {
  static NSArray *classes;
  if (!classes) {
    NSArray *names = [NSArray arrayWithObjects:@"SBNSJSON",             // nsjsonserialization
                                               @"SBPlistBinary",        // plist-binary
                                               @"SBPlistXML",           // plist-xml
                                               @"SBKeyedArchiver",      // nskeyedarchiver
                                               @"SBMsgpackC",           // msgpack-c
                                               @"SBMsgpackPositional",  // msgpack-c-positional
                                               @"SBHandwritten",        // handwritten
                                               @"SBMemcpy",             // memcpy
                                               @"SBNoop",               // noop
                                               nil];
    NSMutableArray *found = [NSMutableArray array];
    for (NSString *n in names) [found addObject:NSClassFromString(n)];
    classes = [found copy];
  }
  return classes;
}

NSDictionary *SBRegistry(void) {
  NSMutableDictionary *map = [NSMutableDictionary dictionary];
  for (Class c in SBSerializerClasses()) [map setObject:c forKey:[c name]];
  return map;
}

#import "SBDataset.h"

#ifndef SB_DATASETS_DIR
#define SB_DATASETS_DIR "../../datasets"
#endif

@implementation SBDataset

- (void)dealloc {
  [name release];
  [type release];
  [items release];
  [super dealloc];
}

// dataset name -> its family's types.json
static NSDictionary *builtinTypes(void) {
  static NSDictionary *found;
  if (found) return found;
  NSMutableDictionary *map = [NSMutableDictionary dictionary];
  NSString *dir = [NSString stringWithUTF8String:SB_DATASETS_DIR];
  for (NSString *family in [[NSFileManager defaultManager] contentsOfDirectoryAtPath:dir
                                                                               error:NULL]) {
    NSString *path =
        [[dir stringByAppendingPathComponent:family] stringByAppendingPathComponent:@"types.json"];
    NSData *data = [NSData dataWithContentsOfFile:path];
    if (!data) continue;
    id message = [[NSJSONSerialization JSONObjectWithData:data options:0
                                                    error:NULL] objectForKey:@"message"];
    if ([message isKindOfClass:[NSDictionary class]]) {
      for (NSString *ds in message) [map setObject:path forKey:ds];
    } else {
      [map setObject:path forKey:family];
    }
  }
  found = [map copy];
  return found;
}

+ (NSArray *)builtinNames {
  return [[builtinTypes() allKeys] sortedArrayUsingSelector:@selector(compare:)];
}

+ (NSString *)builtinTypesPath:(NSString *)name {
  return [builtinTypes() objectForKey:name];
}

+ (SBDataset *)load:(NSDictionary *)d
              check:(BOOL)check
               code:(NSString **)code
            message:(NSString **)message {
  NSString *dsName = [d objectForKey:@"name"];
  BOOL user = [[d objectForKey:@"kind"] isEqual:@"user"];
  NSString *typesPath = user ? [d objectForKey:@"types"] : [builtinTypes() objectForKey:dsName];
  if (![typesPath isKindOfClass:[NSString class]]) {
    *code = user ? @"bad_data" : @"unknown_dataset";
    *message =
        user ? @"a user dataset needs its types file"
             : [NSString stringWithFormat:@"unknown dataset %@; built-in datasets: %@", dsName,
                                          [[self builtinNames] componentsJoinedByString:@", "]];
    return nil;
  }
  NSString *error = nil;
  SBType *type = [SBType messageTypeOf:dsName inFile:typesPath error:&error];
  if (!type) {
    *code = @"bad_data", *message = error;
    return nil;
  }
  NSString *path = check && [d objectForKey:@"check_data"] ? [d objectForKey:@"check_data"]
                                                           : [d objectForKey:@"data"];
  NSData *raw = [path isKindOfClass:[NSString class]] ? [NSData dataWithContentsOfFile:path] : nil;
  NSDictionary *doc = raw ? [NSJSONSerialization JSONObjectWithData:raw options:0 error:NULL] : nil;
  NSArray *json = [doc isKindOfClass:[NSDictionary class]] ? [doc objectForKey:@"items"] : nil;
  if (![json isKindOfClass:[NSArray class]] || [json count] == 0) {
    *code = @"bad_data",
    *message = [NSString stringWithFormat:@"cannot read the canonical file %@", path];
    return nil;
  }
  NSMutableArray *items = [NSMutableArray arrayWithCapacity:[json count]];
  for (NSUInteger i = 0; i < [json count]; i++) {
    id v = SBNative([json objectAtIndex:i], type,
                    [NSString stringWithFormat:@"$[%lu]", (unsigned long)i], &error);
    if (!v) {
      *code =
          [error rangeOfString:@"2^53"].location != NSNotFound ? @"not_applicable" : @"bad_data";
      *message = error;
      return nil;
    }
    [items addObject:v];
  }
  SBDataset *ds = [[[SBDataset alloc] init] autorelease];
  ds->name = [dsName copy];
  ds->type = [type retain];
  ds->items = [items copy];
  ds->count = [[doc objectForKey:@"count"] unsignedIntegerValue] ?: [items count];
  ds->stream = [[doc objectForKey:@"framing"] isEqual:@"stream"];
  return ds;
}

@end

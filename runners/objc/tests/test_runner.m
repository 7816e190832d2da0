// `make test`: byte-exact sizes the seeds publish (S1, S2) in the seed's MessagePack layout,
// and a round trip of every serializer on messages built here from the datasets' types.
#import <Foundation/Foundation.h>

#import "harness/SBDataset.h"
#import "harness/SBRegistry.h"
#import "harness/SBSerializer.h"

#ifndef SB_DATASETS_DIR
#define SB_DATASETS_DIR "../../datasets"
#endif

static int passed, failed;

static void expect(BOOL ok, NSString *what) {
  printf("%s %s\n", ok ? "ok  " : "FAIL", [what UTF8String]);
  ok ? passed++ : failed++;
}

static NSNumber *num(long long v) { return [NSNumber numberWithLongLong:v]; }

static SBType *typeOf(NSString *family, NSString *dataset) {
  NSString *path = [NSString stringWithFormat:@"%s/%@/types.json", SB_DATASETS_DIR, family];
  NSString *error = nil;
  SBType *t = [SBType messageTypeOf:dataset inFile:path error:&error];
  if (!t) printf("FAIL types of %s: %s\n", [dataset UTF8String], [error UTF8String]);
  return t;
}

// A class outside any allow-list, and not NSSecureCoding: a secure unarchiver must refuse it.
@interface SBNotAllowed : NSObject <NSCoding>
@end
@implementation SBNotAllowed
- (void)encodeWithCoder:(NSCoder *)coder {
}
- (id)initWithCoder:(NSCoder *)coder {
  return [self init];
}
@end

// Why there is no secure-coding row (NOTES.md, Limits): GNUstep's unarchiver, with
// requiresSecureCoding set and an allow-list of NSString only, still instantiates the
// archived class. When this fails, GNUstep enforces secure coding: add the row.
static void secureCodingIsNotEnforced(void) {
  NSMutableData *data = [NSMutableData data];
  NSKeyedArchiver *archiver = [[NSKeyedArchiver alloc] initForWritingWithMutableData:data];
  [archiver encodeObject:[[SBNotAllowed new] autorelease] forKey:@"root"];
  [archiver finishEncoding];
  [archiver release];
  NSKeyedUnarchiver *reader = [[NSKeyedUnarchiver alloc] initForReadingWithData:data];
  [reader setRequiresSecureCoding:YES];
  id got = nil;
  @try {
    got = [[reader decodeObjectOfClasses:[NSSet setWithObject:[NSString class]]
                                  forKey:@"root"] retain];
  } @catch (NSException *e) {
    got = nil;
  }
  [reader release];
  expect([got isKindOfClass:[SBNotAllowed class]],
         @"GNUstep does not enforce secure coding: a class outside the allow-list is decoded");
  [got release];
}

// The seed's S1 list: the same 30 records the C++ runner's tests build.
static id s1(void) {
  NSMutableArray *list = [NSMutableArray array];
  for (int i = 0; i < 30; i++) {
    [list addObject:[NSDictionary
                        dictionaryWithObjectsAndKeys:num(i), @"id",
                                                     [NSString stringWithFormat:@"user %d", i],
                                                     @"name", num((i * 7) % 50), @"age",
                                                     num(i % 3 ? 1 : 0), @"gender",
                                                     [NSNumber numberWithBool:i % 2 == 0],
                                                     @"isMegane", nil]];
  }
  return list;
}

static NSDictionary *pair(long long a, long long b) {
  return [NSDictionary dictionaryWithObjectsAndKeys:num(a), @"a", num(b), @"b", nil];
}

static NSDictionary *t3(void) {
  NSString *s = [@"" stringByPaddingToLength:8192 withString:@"a" startingAtIndex:0];
  return [NSDictionary dictionaryWithObject:s forKey:@"s"];
}

static NSDictionary *t4(void) {
  return [NSDictionary
      dictionaryWithObjectsAndKeys:pair(1, 2), @"t1", pair(-1, -2), @"t2", t3(), @"t3", nil];
}

static NSDictionary *dict(void) {
  NSMutableString *a = [NSMutableString string], *b = [NSMutableString string];
  for (int i = 0; i < 3000; i++) [a appendFormat:@"%c", 'a' + i % 26];
  for (int i = 0; i < 4000; i++) [b appendFormat:@"%c", 'a' + i % 26];
  return [NSDictionary dictionaryWithObjectsAndKeys:a, @"key1", a, @"key2", b, @"key3", nil];
}

static NSDictionary *clickmap(void) {
  NSDictionary *click =
      [NSDictionary dictionaryWithObjectsAndKeys:num(87), @"x", num(2466), @"y", num(4), @"count",
                                                 num(1394156093428LL), @"lastClick",
                                                 @"button.menu > img", @"selector", nil];
  NSDictionary *viewport =
      [NSDictionary dictionaryWithObjectsAndKeys:num(768), @"width", num(1024), @"height", nil];
  return [NSDictionary dictionaryWithObjectsAndKeys:@"https://news.example.org/a", @"url",
                                                    @"2014-03-07", @"day", viewport, @"viewport",
                                                    [NSDictionary dictionaryWithObject:click
                                                                                forKey:@"87,2466"],
                                                    @"clicks", nil];
}

static id logs(void) {
  NSMutableArray *list = [NSMutableArray array];
  for (int i = 1; i <= 50; i++) {
    NSMutableArray *pairs = [NSMutableArray array];
    for (int k = 1; k <= 10; k++) {
      [pairs
          addObject:[NSDictionary dictionaryWithObjectsAndKeys:[NSString stringWithFormat:@"%d", k],
                                                               @"key",
                                                               [NSString stringWithFormat:@"%d", i],
                                                               @"value", nil]];
    }
    [list addObject:[NSDictionary
                        dictionaryWithObjectsAndKeys:[NSString stringWithFormat:@"hoge%d", i],
                                                     @"MyProperty1", num(i), @"MyProperty2",
                                                     num(944870400000LL + i * 86400000LL),
                                                     @"MyProperty3",
                                                     [NSNumber numberWithBool:i % 2 == 0],
                                                     @"MyProperty4", pairs, @"MyProperty5", nil]];
  }
  return list;
}

// Canonical JSON for a type alone: two entries per list and map, a float32 that needs 9
// digits (12,345,679 x 2^-24). With SBNative it gives every built-in dataset, also one
// added with its types.json alone, a message built the way prepare builds one.
static id canonical(SBType *t, int seed) {
  switch (t->kind) {
    case SBBool:
      return [NSNumber numberWithBool:seed % 2];
    case SBString:
    case SBAny:
      return [NSString stringWithFormat:@"s%d", seed];
    case SBFloat32:
    case SBFloat64:
      return [NSNumber numberWithDouble:(12345679 + seed) / 16777216.0];
    case SBBytes:
      return @"AAEC";
    case SBNull:
      return [NSNull null];
    case SBEnum:
      return num(seed % [t->symbols count]);
    case SBOptional:
      return canonical(t->elem, seed);
    case SBList:
      return [NSArray arrayWithObjects:canonical(t->elem, seed), canonical(t->elem, seed + 1), nil];
    case SBMap:
      return [NSDictionary dictionaryWithObjectsAndKeys:canonical(t->elem, seed), @"k0",
                                                        canonical(t->elem, seed + 1), @"k1", nil];
    case SBRecord: {
      NSMutableDictionary *r = [NSMutableDictionary dictionary];
      for (NSUInteger i = 0; i < [t->fieldNames count]; i++)
        [r setObject:canonical([t->fieldTypes objectAtIndex:i], seed + (int)i)
              forKey:[t->fieldNames objectAtIndex:i]];
      return r;
    }
    default:  // the integer kinds, timestamps
      return num(seed + 1);
  }
}

static NSUInteger size(NSString *serializer, SBType *type, id message) {
  Class cls = [SBRegistry() objectForKey:serializer];
  SBSerializer *ser = [[[cls alloc] initWithType:type] autorelease];
  return [[ser encode:message] length];
}

// Every serializer: encode, decode (and the check's decode), compare; or a stated reason.
static void roundTrips(NSString *family, NSString *dataset, id message) {
  SBType *type = typeOf(family, dataset);
  for (Class cls in SBSerializerClasses()) {
    NSString *what = [NSString stringWithFormat:@"%@ on %@", [cls name], dataset];
    SBSerializer *ser = [[[cls alloc] initWithType:type] autorelease];
    NSString *why = [cls reasonForBuiltin:dataset] ?: [ser reasonForMessage:message];
    if (why) {
      expect([why length] > 0, [what stringByAppendingFormat:@" not applicable: %@", why]);
      continue;
    }
    [ser prepareItems:[NSArray arrayWithObject:message]];
    NSData *bytes = [[[ser encode:message] copy] autorelease];
    NSString *error = nil;
    id back = [ser checkDecode:[bytes bytes] length:[bytes length] error:&error];
    id timed = [ser decode:[bytes bytes] length:[bytes length] error:&error];
    NSString *diff = back ? SBDiff(message, back, @"$[0]") : error;
    expect(!diff && timed,
           [what stringByAppendingFormat:@" round trip (%lu B)%@", (unsigned long)[bytes length],
                                         diff ? [@": " stringByAppendingString:diff] : @""]);
  }
}

int main(void) {
  NSAutoreleasePool *pool = [NSAutoreleasePool new];
  SBType *users = typeOf(@"android-users", @"android-users");
  expect(size(@"msgpack-c-positional", users, s1()) == 383,
         @"S1 msgpack (array of 5, enum as ordinal) 383 B");
  struct {
    NSString *dataset;
    id message;
    NSUInteger bytes;
  } s2[] = {{@"pb-vs-msgpack-test1", pair(1, 2), 3},
            {@"pb-vs-msgpack-test2", pair(-1, -2), 3},
            {@"pb-vs-msgpack-test3", t3(), 8195},
            {@"pb-vs-msgpack-test4", t4(), 8202}};
  for (int i = 0; i < 4; i++) {
    NSUInteger got =
        size(@"msgpack-c-positional", typeOf(@"pb-vs-msgpack", s2[i].dataset), s2[i].message);
    expect(got == s2[i].bytes,
           [NSString stringWithFormat:@"S2 %@ msgpack %lu B/msg (got %lu)", s2[i].dataset,
                                      (unsigned long)s2[i].bytes, (unsigned long)got]);
  }
  roundTrips(@"android-users", @"android-users", s1());
  for (int i = 0; i < 4; i++) roundTrips(@"pb-vs-msgpack", s2[i].dataset, s2[i].message);
  roundTrips(@"one-mb-dict", @"one-mb-dict", dict());
  roundTrips(@"click-maps", @"click-maps", clickmap());
  roundTrips(@"log-records", @"log-records", logs());
  // the seeds' eight datasets at least: more built-ins may come with their types.json alone
  NSArray *seeds =
      [NSArray arrayWithObjects:@"android-users", @"pb-vs-msgpack-test1", @"pb-vs-msgpack-test2",
                                @"pb-vs-msgpack-test3", @"pb-vs-msgpack-test4", @"one-mb-dict",
                                @"click-maps", @"log-records", nil];
  for (NSString *name in seeds)
    expect([[SBDataset builtinNames] containsObject:name], @"a seed's built-in dataset found");
  // every built-in found, from its types alone
  for (NSString *name in [SBDataset builtinNames]) {
    NSString *error = nil, *path = [SBDataset builtinTypesPath:name];
    SBType *type = [SBType messageTypeOf:name inFile:path error:&error];
    id message = type ? SBNative(canonical(type, 0), type, @"$", &error) : nil;
    expect(message != nil,
           [NSString stringWithFormat:@"a message of %@ from its types%@", name,
                                      error ? [@": " stringByAppendingString:error] : @""]);
    if (message)
      roundTrips([[path stringByDeletingLastPathComponent] lastPathComponent], name, message);
  }
  // plist-xml refuses a real its XML form loses (7 digits for a float), not every real
  Class xml = [SBRegistry() objectForKey:@"plist-xml"];
  SBSerializer *ser = [[[xml alloc] initWithType:nil] autorelease];
  expect(![ser reasonForMessage:[NSArray arrayWithObject:[NSNumber numberWithFloat:0.5f]]],
         @"plist-xml carries the float 0.5");
  expect([[ser reasonForMessage:[NSArray arrayWithObject:[NSNumber numberWithFloat:12345679 /
                                                                                   16777216.0f]]]
             hasPrefix:@"GNUstep Base"],
         @"plist-xml refuses the float 12,345,679 x 2^-24 (9 digits)");
  secureCodingIsNotEnforced();
  printf("%d passed, %d failed\n", passed, failed);
  [pool drain];
  return failed ? 1 : 0;
}

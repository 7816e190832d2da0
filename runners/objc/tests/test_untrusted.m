// `make test`, second part: the canonical JSON of section 11 and one accepted and one
// rejected input per library through the untrusted_* commands.
#import <Foundation/Foundation.h>

#import "harness/SBCanonical.h"
#import "harness/SBRegistry.h"
#import "harness/SBUntrusted.h"

#ifndef SB_DATASETS_DIR
#define SB_DATASETS_DIR "../../datasets"
#endif

static int passed, failed;

static void expect(BOOL ok, NSString *what) {
  printf("%s %s\n", ok ? "ok  " : "FAIL", [what UTF8String]);
  ok ? passed++ : failed++;
}

static NSString *text(NSData *d) {
  return [[[NSString alloc] initWithData:d encoding:NSUTF8StringEncoding] autorelease];
}

static NSString *canonical(id v) {
  NSMutableData *out = [NSMutableData data];
  SBWriteCanonical(out, v, 0);
  return text(out);
}

static void expectText(NSString *got, NSString *want, NSString *what) {
  BOOL ok = [got isEqualToString:want];
  expect(ok, ok ? what : [NSString stringWithFormat:@"%@: %@ != %@", what, got, want]);
}

static void canonicalForms(void) {
  NSArray *list = [NSArray
      arrayWithObjects:[NSNull null], [NSNumber numberWithBool:YES],
                       [NSNumber numberWithLongLong:-7],
                       [NSNumber numberWithUnsignedLongLong:UINT64_MAX],
                       [NSNumber numberWithDouble:2.5], [NSNumber numberWithDouble:-0.0],
                       [NSNumber numberWithDouble:NAN], [NSNumber numberWithDouble:-INFINITY],
                       [NSData dataWithBytes:"\x00\xff" length:2], nil];
  expectText(canonical(list),
             @"[null, true, -7, 18446744073709551615, 2.5, -0.0, {\"$float\": \"NaN\"}, "
             @"{\"$float\": \"-Infinity\"}, {\"$bytes\": \"00ff\"}]",
             @"canonical scalars, floats and bytes");
  unichar odd[] = {'"', 0xe9, 0xd83c, 0xdf7a, '\n'};
  expectText(canonical([NSString stringWithCharacters:odd length:5]),
             @"\"\\\"\\u00e9\\ud83c\\udf7a\\u000a\"", @"strings escape all but printable ASCII");
  expectText(canonical([NSDictionary dictionaryWithObject:@"v" forKey:[NSNumber numberWithInt:1]]),
             @"{\"$map\": [[1, \"v\"]]}", @"a map with a key that is not a string is $map");
  expectText(canonical([NSDate dateWithTimeIntervalSince1970:1.5]),
             @"{\"$timestamp\": [1, 500000000]}", @"a date is $timestamp");
  id deep = @"x";
  for (int i = 0; i < 402; i++) deep = [NSArray arrayWithObject:deep];
  expect([canonical(deep) rangeOfString:@"{\"$other\": \"nested deeper than 400\"}"].location !=
             NSNotFound,
         @"a value deeper than 400 is $other");
  NSString *error = nil;
  const char *json = "[18446744073709551615, -9223372036854775808, 1.0, \"\\ud83c\\udf7a\"]";
  NSArray *v = SBParseJSON(json, strlen(json), &error);
  expect([[v objectAtIndex:0] unsignedLongLongValue] == UINT64_MAX &&
             [[v objectAtIndex:1] longLongValue] == INT64_MIN &&
             [[v objectAtIndex:2] objCType][0] == 'd' &&
             [[v objectAtIndex:3] isEqualToString:@"\U0001F37A"],
         @"the reader keeps integers exact, floats as floats and surrogate pairs whole");
  expect(!SBParseJSON("[1,", 3, &error) && error, @"the reader refuses malformed text");
}

// One command through SBUntrusted, its reply parsed.
static NSDictionary *run(NSString *line) {
  NSData *bytes = [line dataUsingEncoding:NSUTF8StringEncoding];
  NSDictionary *cmd = [NSJSONSerialization JSONObjectWithData:bytes options:0 error:NULL];
  NSData *reply = SBUntrusted(cmd, bytes, SBRegistry());
  return [NSJSONSerialization JSONObjectWithData:reply options:0 error:NULL];
}

static NSString *b64(const char *bytes, NSUInteger n) {
  return [[NSData dataWithBytes:bytes length:n] base64EncodedStringWithOptions:0];
}

static NSDictionary *decodeOne(NSString *serializer, NSString *dataset, NSString *input) {
  NSDictionary *r = run([NSString
      stringWithFormat:@"{\"cmd\": \"untrusted_decode\", \"cell\": \"t\", \"serializer\": \"%@\", "
                       @"\"dataset\": %@, \"inputs\": [{\"id\": \"0\", \"b64\": \"%@\"}]}",
                       serializer, dataset, input]);
  return [[r objectForKey:@"outcomes"] lastObject];
}

static void libraries(void) {
  struct {
    NSString *serializer;
    const char *good, *bad;
    NSUInteger goodLength, badLength;  // 0: up to the NUL
  } cases[] = {
      {@"nsjsonserialization", "{\"a\": [1, 2.5]}", "[1,", 0, 0},
      {@"plist-xml", "<?xml version=\"1.0\"?><plist version=\"1.0\"><true/></plist>", "<plist", 0,
       0},
      {@"plist-binary",
       "bplist00\x09\x08\x00\x00\x00\x00\x00\x00\x01\x01\x00\x00\x00\x00\x00\x00"
       "\x00\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x09",
       "(1,", 42, 0},  // the reader takes any form: an unclosed OpenStep array
      {@"msgpack-c",
       "\x81\xa1"
       "a\xd6\xff\x00\x00\x00\x01",
       "\xdb\xff\xff\xff\xff"
       "a",
       9, 6},
      {@"msgpack-c-positional", "\xc4\x01\x07", "\xc1", 3, 1},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    NSUInteger goodLength = cases[i].goodLength ?: strlen(cases[i].good),
               badLength = cases[i].badLength ?: strlen(cases[i].bad);
    NSDictionary *good = decodeOne(cases[i].serializer, @"null", b64(cases[i].good, goodLength));
    NSDictionary *bad = decodeOne(cases[i].serializer, @"null", b64(cases[i].bad, badLength));
    expect(
        [[good objectForKey:@"outcome"] isEqual:@"accepted"],
        [NSString stringWithFormat:@"%@ accepts a valid value: %@", cases[i].serializer,
                                   [good objectForKey:@"value"] ?: [good objectForKey:@"error"]]);
    expect([[bad objectForKey:@"outcome"] isEqual:@"rejected"],
           [NSString stringWithFormat:@"%@ rejects %@: %@", cases[i].serializer,
                                      [bad objectForKey:@"outcome"], [bad objectForKey:@"error"]]);
  }
  NSDictionary *r =
      run(@"{\"cmd\": \"untrusted_encode\", \"cell\": \"t\", \"serializer\": "
          @"\"msgpack-c\", \"value\": [{\"$ext\": [1, \"10\"]}, 18446744073709551615]}");
  expectText([r objectForKey:@"b64"],
             b64("\x92\xd4\x01\x10\xcf\xff\xff\xff\xff\xff\xff\xff\xff", 13),
             @"msgpack-c encodes $ext and a uint64 exactly");
  r = run(@"{\"cmd\": \"untrusted_encode\", \"cell\": \"t\", \"serializer\": \"msgpack-c\", "
          @"\"value\": {\"$tag\": [1, 2]}}");
  expectText([r objectForKey:@"code"], @"not_applicable", @"MessagePack cannot carry a $tag");
  r = run(@"{\"cmd\": \"untrusted_decode\", \"cell\": \"t\", \"serializer\": \"nskeyedarchiver\", "
          @"\"inputs\": []}");
  expectText([r objectForKey:@"code"], @"unsupported", @"nskeyedarchiver refuses untrusted bytes");

  // typed: the runner's own encoding of a dataset message reads back equal; a truncation is
  // refused by the hand-written reader
  NSString *types = [NSString stringWithFormat:@"%s/pb-vs-msgpack/types.json", SB_DATASETS_DIR];
  NSString *data = [NSTemporaryDirectory() stringByAppendingPathComponent:@"sb-untrusted.json"];
  [@"{\"items\": [{\"a\": -1, \"b\": -2}]}" writeToFile:data atomically:YES];
  NSString *ds =
      [NSString stringWithFormat:@"{\"name\": \"pb-vs-msgpack-test2\", \"kind\": \"user\", "
                                 @"\"data\": \"%@\", \"types\": \"%@\"}",
                                 data, types];
  r = run([NSString
      stringWithFormat:@"{\"cmd\": \"untrusted_encode\", \"cell\": \"t\", \"serializer\": "
                       @"\"handwritten\", \"dataset\": %@, \"message\": 0}",
                       ds]);
  NSString *valid = [r objectForKey:@"b64"];
  NSDictionary *good = decodeOne(@"handwritten", ds, valid ?: @"");
  expect([[[good objectForKey:@"value"] objectForKey:@"$check"] isEqual:@"equal"],
         [NSString stringWithFormat:@"handwritten reads its own encoding: %@", good]);
  NSDictionary *bad = decodeOne(@"handwritten", ds, b64("\x01", 1));
  expect([[bad objectForKey:@"outcome"] isEqual:@"rejected"],
         [NSString stringWithFormat:@"handwritten rejects a truncation: %@", bad]);
}

int main(void) {
  NSAutoreleasePool *pool = [NSAutoreleasePool new];
  canonicalForms();
  libraries();
  printf("%d passed, %d failed\n", passed, failed);
  [pool drain];
  return failed ? 1 : 0;
}

#import "SBType.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

BOOL SBIsBool(NSNumber *n) {
  return strcmp([n objCType], @encode(BOOL)) == 0 &&
         [n isKindOfClass:NSClassFromString(@"NSBoolNumber")];
}
BOOL SBIsFloat(NSNumber *n) {
  char t = [n objCType][0];
  return t == 'd' || t == 'f';
}
BOOL SBIsUnsignedBig(NSNumber *n) {
  return [n objCType][0] == 'Q' && [n unsignedLongLongValue] > INT64_MAX;
}

@implementation SBType

static SBType *parseType(NSString *spec, NSDictionary *named, NSString **error);

static SBType *make(SBKind kind) {
  SBType *t = [[[SBType alloc] init] autorelease];
  t->kind = kind;
  return t;
}

static NSString *inner(NSString *spec, NSString *prefix) {
  if (![spec hasPrefix:prefix] || ![spec hasSuffix:@">"]) return nil;
  return
      [spec substringWithRange:NSMakeRange([prefix length], [spec length] - [prefix length] - 1)];
}

static SBType *parseType(NSString *spec, NSDictionary *named, NSString **error) {
  static NSDictionary *scalars;
  if (!scalars) {
    scalars = [[NSDictionary alloc]
        initWithObjectsAndKeys:[NSNumber numberWithInt:SBInt32], @"int32",
                               [NSNumber numberWithInt:SBUInt32], @"uint32",
                               [NSNumber numberWithInt:SBInt64], @"int64",
                               [NSNumber numberWithInt:SBUInt64], @"uint64",
                               [NSNumber numberWithInt:SBBigInt], @"bigint",
                               [NSNumber numberWithInt:SBBool], @"bool",
                               [NSNumber numberWithInt:SBString], @"string",
                               [NSNumber numberWithInt:SBTimestamp], @"timestamp_ms",
                               [NSNumber numberWithInt:SBFloat32], @"float32",
                               [NSNumber numberWithInt:SBFloat64], @"float64",
                               [NSNumber numberWithInt:SBBytes], @"bytes",
                               [NSNumber numberWithInt:SBNull], @"null",
                               [NSNumber numberWithInt:SBAny], @"any", nil];
  }
  spec = [spec stringByTrimmingCharactersInSet:[NSCharacterSet whitespaceCharacterSet]];
  NSNumber *scalar = [scalars objectForKey:spec];
  if (scalar) return make((SBKind)[scalar intValue]);
  NSString *in;
  if ((in = inner(spec, @"list<"))) {
    SBType *t = make(SBList);
    t->elem = [parseType(in, named, error) retain];
    return t->elem ? t : nil;
  }
  if ((in = inner(spec, @"optional<"))) {
    SBType *t = make(SBOptional);
    t->elem = [parseType(in, named, error) retain];
    return t->elem ? t : nil;
  }
  if ((in = inner(spec, @"map<string,"))) {
    SBType *t = make(SBMap);
    t->elem = [parseType(in, named, error) retain];
    return t->elem ? t : nil;
  }
  NSDictionary *def = [named objectForKey:spec];
  if (![def isKindOfClass:[NSDictionary class]]) {
    *error = [NSString stringWithFormat:@"unknown type %@", spec];
    return nil;
  }
  if ([def objectForKey:@"enum"]) {
    SBType *t = make(SBEnum);
    t->name = [spec retain];
    t->symbols = [[def objectForKey:@"enum"] retain];
    return t;
  }
  // Records refer to each other by name without cycles (datasets/README.md), so a plain
  // recursive parse terminates.
  SBType *t = make(SBRecord);
  t->name = [spec retain];
  NSMutableArray *names = [NSMutableArray array], *types = [NSMutableArray array];
  for (NSArray *field in [def objectForKey:@"record"]) {
    SBType *ft = parseType([field objectAtIndex:1], named, error);
    if (!ft) return nil;
    [names addObject:[field objectAtIndex:0]];
    [types addObject:ft];
  }
  t->fieldNames = [names copy];
  t->fieldTypes = [types copy];
  return t;
}

+ (SBType *)messageTypeOf:(NSString *)dataset inFile:(NSString *)path error:(NSString **)error {
  NSData *data = [NSData dataWithContentsOfFile:path];
  NSDictionary *doc =
      data ? [NSJSONSerialization JSONObjectWithData:data options:0 error:NULL] : nil;
  if (![doc isKindOfClass:[NSDictionary class]]) {
    *error = [NSString stringWithFormat:@"cannot read types file %@", path];
    return nil;
  }
  id message = [doc objectForKey:@"message"];
  if ([message isKindOfClass:[NSDictionary class]]) message = [message objectForKey:dataset];
  if (![message isKindOfClass:[NSString class]]) {
    *error = [NSString stringWithFormat:@"%@ names no message type for %@", path, dataset];
    return nil;
  }
  NSDictionary *named = [doc objectForKey:@"types"];
  return parseType(message, [named isKindOfClass:[NSDictionary class]] ? named : nil, error);
}

@end

static id fail(NSString **error, NSString *path, NSString *what, id json) {
  *error = [NSString stringWithFormat:@"%@: expected %@, got %@", path, what, SBShow(json)];
  return nil;
}

static NSString *keyPath(NSString *path, NSString *key) {
  return [NSString stringWithFormat:@"%@[%@]", path, SBShow(key)];
}

static id anyValue(id json) {
  // GNUstep's JSON reader gives every number as a double: an integral one becomes an integer.
  if ([json isKindOfClass:[NSNumber class]] && !SBIsBool(json)) {
    double d = [json doubleValue];
    if (d == floor(d) && fabs(d) < 9.2e18 && !(d == 0 && signbit(d)))
      return [NSNumber numberWithLongLong:(long long)d];
    return json;
  }
  if ([json isKindOfClass:[NSArray class]]) {
    NSMutableArray *out = [NSMutableArray arrayWithCapacity:[json count]];
    for (id x in json) [out addObject:anyValue(x)];
    return out;
  }
  if ([json isKindOfClass:[NSDictionary class]]) {
    NSMutableDictionary *out = [NSMutableDictionary dictionaryWithCapacity:[json count]];
    for (id k in json) [out setObject:anyValue([json objectForKey:k]) forKey:k];
    return out;
  }
  return json;
}

static id floatValue(id json, BOOL single) {
  double d;
  if ([json isKindOfClass:[NSString class]]) {
    if ([json isEqualToString:@"NaN"])
      d = NAN;
    else if ([json isEqualToString:@"Infinity"])
      d = INFINITY;
    else if ([json isEqualToString:@"-Infinity"])
      d = -INFINITY;
    else
      return nil;
  } else if ([json isKindOfClass:[NSNumber class]] && !SBIsBool(json)) {
    d = [json doubleValue];
  } else {
    return nil;
  }
  return single ? [NSNumber numberWithFloat:(float)d] : [NSNumber numberWithDouble:d];
}

id SBNative(id json, SBType *t, NSString *path, NSString **error) {
  BOOL isNumber = [json isKindOfClass:[NSNumber class]] && !SBIsBool(json);
  switch (t->kind) {
    case SBInt32:
    case SBUInt32:
    case SBInt64:
    case SBTimestamp:
    case SBEnum:
    case SBUInt64:
    case SBBigInt: {
      if (!isNumber) return fail(error, path, @"an integer", json);
      double d = [json doubleValue];
      if (d != floor(d)) return fail(error, path, @"an integer", json);
      if (fabs(d) >= 9007199254740992.0) {
        *error = [NSString
            stringWithFormat:@"%@: %@ is beyond 2^53: GNUstep's NSJSONSerialization reads "
                             @"every JSON number as a double, so the value may not be exact",
                             path, json];
        return nil;
      }
      return [NSNumber numberWithLongLong:(long long)d];
    }
    case SBBool:
      if (![json isKindOfClass:[NSNumber class]] || !SBIsBool(json))
        return fail(error, path, @"a bool", json);
      return [NSNumber numberWithBool:[json boolValue]];
    case SBString:
      if (![json isKindOfClass:[NSString class]]) return fail(error, path, @"a string", json);
      return json;
    case SBFloat32:
    case SBFloat64: {
      id v = floatValue(json, t->kind == SBFloat32);
      return v ? v : fail(error, path, @"a float", json);
    }
    case SBBytes: {
      NSData *d = [json isKindOfClass:[NSString class]]
                      ? [[[NSData alloc] initWithBase64EncodedString:json options:0] autorelease]
                      : nil;
      return d ? d : fail(error, path, @"base64", json);
    }
    case SBNull:
      return json == [NSNull null] ? json : fail(error, path, @"null", json);
    case SBAny:
      return anyValue(json);
    case SBOptional:
      return json == (id)[NSNull null] ? json : SBNative(json, t->elem, path, error);
    case SBList: {
      if (![json isKindOfClass:[NSArray class]]) return fail(error, path, @"a list", json);
      NSMutableArray *out = [NSMutableArray arrayWithCapacity:[json count]];
      NSUInteger i = 0;
      for (id x in json) {
        id v = SBNative(x, t->elem,
                        [NSString stringWithFormat:@"%@[%lu]", path, (unsigned long)i++], error);
        if (!v) return nil;
        [out addObject:v];
      }
      return out;
    }
    case SBMap: {
      if (![json isKindOfClass:[NSDictionary class]]) return fail(error, path, @"a map", json);
      NSMutableDictionary *out = [NSMutableDictionary dictionaryWithCapacity:[json count]];
      for (NSString *k in json) {
        id v = SBNative([json objectForKey:k], t -> elem, keyPath(path, k), error);
        if (!v) return nil;
        [out setObject:v forKey:k];
      }
      return out;
    }
    case SBRecord: {
      if (![json isKindOfClass:[NSDictionary class]]) return fail(error, path, @"a record", json);
      NSMutableDictionary *out = [NSMutableDictionary dictionaryWithCapacity:[t->fieldNames count]];
      NSUInteger n = [t->fieldNames count];
      for (NSUInteger i = 0; i < n; i++) {
        NSString *f = [t->fieldNames objectAtIndex:i];
        id x = [json objectForKey:f];
        if (!x) x = [NSNull null];  // a missing field is optional<T>, written as null
        id v = SBNative(x, [t->fieldTypes objectAtIndex:i],
                        [NSString stringWithFormat:@"%@.%@", path, f], error);
        if (!v) return nil;
        [out setObject:v forKey:f];
      }
      return out;
    }
  }
  return nil;
}

// GNUstep's -description prints a float with 7 significant digits, which can hide the very
// difference a check reports: this prints the shortest text that reads back as the value.
static NSString *shortestReal(NSNumber *n) {
  BOOL single = [n objCType][0] == 'f';
  double d = [n doubleValue];
  char buf[32];
  for (int digits = single ? 6 : 15; digits <= 17; digits++) {
    snprintf(buf, sizeof buf, "%.*g", digits, d);
    if (single ? strtof(buf, NULL) == (float)d : strtod(buf, NULL) == d) break;
  }
  return [NSString stringWithUTF8String:buf];
}

NSString *SBShow(id v) {
  if (v == nil) return @"nothing";
  if ([v isKindOfClass:[NSString class]]) {
    NSString *s = [v length] > 40 ? [[v substringToIndex:40] stringByAppendingString:@"..."] : v;
    NSData *j = [NSJSONSerialization dataWithJSONObject:[NSArray arrayWithObject:s]
                                                options:0
                                                  error:NULL];
    NSString *q = [[[NSString alloc] initWithData:j encoding:NSUTF8StringEncoding] autorelease];
    return [q substringWithRange:NSMakeRange(1, [q length] - 2)];
  }
  if ([v isKindOfClass:[NSNumber class]]) {
    if (SBIsBool(v)) return [v boolValue] ? @"true" : @"false";
    if (SBIsFloat(v)) return shortestReal(v);
    return [v description];
  }
  if ([v isKindOfClass:[NSNull class]]) return @"null";
  if ([v isKindOfClass:[NSArray class]])
    return [NSString stringWithFormat:@"a list of %lu", (unsigned long)[v count]];
  if ([v isKindOfClass:[NSDictionary class]])
    return [NSString stringWithFormat:@"a map of %lu", (unsigned long)[v count]];
  if ([v isKindOfClass:[NSData class]])
    return [NSString stringWithFormat:@"%lu bytes", (unsigned long)[v length]];
  return NSStringFromClass([v class]);
}

static NSString *differ(NSString *path, id want, id got) {
  return [NSString stringWithFormat:@"%@: %@ != %@", path, SBShow(got), SBShow(want)];
}

static BOOL sameNumber(NSNumber *a, NSNumber *b) {
  if (SBIsBool(a) != SBIsBool(b)) return NO;
  if (SBIsFloat(a) || SBIsFloat(b)) {
    double x = [a doubleValue], y = [b doubleValue];
    if (isnan(x) || isnan(y)) return isnan(x) && isnan(y);
    if (SBIsFloat(a) && SBIsFloat(b)) return x == y && signbit(x) == signbit(y);
    return x == y;  // an integer read back as a double (JSON) must be exact
  }
  if (SBIsUnsignedBig(a) || SBIsUnsignedBig(b))
    return SBIsUnsignedBig(a) && SBIsUnsignedBig(b) &&
           [a unsignedLongLongValue] == [b unsignedLongLongValue];
  return [a longLongValue] == [b longLongValue];
}

NSString *SBDiff(id want, id got, NSString *path) {
  if ([want isKindOfClass:[NSDictionary class]]) {
    if (![got isKindOfClass:[NSDictionary class]]) return differ(path, want, got);
    for (NSString *k in want) {
      id g = [got objectForKey:k];
      NSString *p = [NSString stringWithFormat:@"%@.%@", path, k];
      if (!g) return [NSString stringWithFormat:@"%@: missing", p];
      NSString *d = SBDiff([want objectForKey:k], g, p);
      if (d) return d;
    }
    if ([got count] != [want count])
      return [NSString stringWithFormat:@"%@: %lu entries != %lu", path, (unsigned long)[got count],
                                        (unsigned long)[want count]];
    return nil;
  }
  if ([want isKindOfClass:[NSArray class]]) {
    if (![got isKindOfClass:[NSArray class]]) return differ(path, want, got);
    if ([got count] != [want count])
      return [NSString stringWithFormat:@"%@: %lu items != %lu", path, (unsigned long)[got count],
                                        (unsigned long)[want count]];
    NSUInteger n = [want count];
    for (NSUInteger i = 0; i < n; i++) {
      NSString *d = SBDiff([want objectAtIndex:i], [got objectAtIndex:i],
                           [NSString stringWithFormat:@"%@[%lu]", path, (unsigned long)i]);
      if (d) return d;
    }
    return nil;
  }
  if ([want isKindOfClass:[NSNumber class]]) {
    return [got isKindOfClass:[NSNumber class]] && sameNumber(want, got) ? nil
                                                                         : differ(path, want, got);
  }
  if ([want isKindOfClass:[NSString class]]) {
    return [got isKindOfClass:[NSString class]] && [want isEqualToString:got]
               ? nil
               : differ(path, want, got);
  }
  if ([want isKindOfClass:[NSData class]]) {
    return [got isKindOfClass:[NSData class]] && [want isEqualToData:got] ? nil
                                                                          : differ(path, want, got);
  }
  return [want isEqual:got] ? nil : differ(path, want, got);
}

#import "SBCanonical.h"
#import "SBType.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void SBJSONRaw(NSMutableData *out, const char *text) { [out appendBytes:text length:strlen(text)]; }

void SBJSONString(NSMutableData *out, NSString *s) {
  NSUInteger n = [s length];
  unichar *chars = malloc((n ? n : 1) * sizeof(unichar));
  [s getCharacters:chars range:NSMakeRange(0, n)];
  [out appendBytes:"\"" length:1];
  char esc[8];
  for (NSUInteger i = 0; i < n; i++) {
    unichar c = chars[i];
    if (c == '"' || c == '\\') {
      esc[0] = '\\', esc[1] = (char)c;
      [out appendBytes:esc length:2];
    } else if (c >= 0x20 && c < 0x7f) {
      esc[0] = (char)c;
      [out appendBytes:esc length:1];
    } else {
      snprintf(esc, sizeof esc, "\\u%04x", c);
      [out appendBytes:esc length:6];
    }
  }
  [out appendBytes:"\"" length:1];
  free(chars);
}

void SBJSONDouble(NSMutableData *out, double d) {
  if (isnan(d)) return SBJSONRaw(out, "{\"$float\": \"NaN\"}");
  if (isinf(d))
    return SBJSONRaw(out, d > 0 ? "{\"$float\": \"Infinity\"}" : "{\"$float\": \"-Infinity\"}");
  char buf[32];
  snprintf(buf, sizeof buf, "%.17g", d);       // reads back as the same double
  if (!strpbrk(buf, ".e")) strcat(buf, ".0");  // stays a float (and -0.0 keeps its sign)
  SBJSONRaw(out, buf);
}

void SBJSONInt(NSMutableData *out, long long v) {
  char buf[24];
  snprintf(buf, sizeof buf, "%lld", v);
  SBJSONRaw(out, buf);
}

void SBJSONUInt(NSMutableData *out, unsigned long long v) {
  char buf[24];
  snprintf(buf, sizeof buf, "%llu", v);
  SBJSONRaw(out, buf);
}

NSString *SBHex(const void *bytes, NSUInteger length) {
  static const char digits[] = "0123456789abcdef";
  const uint8_t *p = bytes;
  char *text = malloc(2 * length + 1);
  for (NSUInteger i = 0; i < length; i++) {
    text[2 * i] = digits[p[i] >> 4];
    text[2 * i + 1] = digits[p[i] & 15];
  }
  NSString *s = [[[NSString alloc] initWithBytes:text
                                          length:2 * length
                                        encoding:NSASCIIStringEncoding] autorelease];
  free(text);
  return s;
}

static int hexDigit(unichar c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

NSData *SBUnhex(NSString *hex) {
  if (![hex isKindOfClass:[NSString class]] || [hex length] % 2) return nil;
  NSUInteger n = [hex length] / 2;
  NSMutableData *out = [NSMutableData dataWithLength:n];
  uint8_t *p = [out mutableBytes];
  for (NSUInteger i = 0; i < n; i++) {
    int hi = hexDigit([hex characterAtIndex:2 * i]),
        lo = hexDigit([hex characterAtIndex:2 * i + 1]);
    if (hi < 0 || lo < 0) return nil;
    p[i] = (uint8_t)(hi << 4 | lo);
  }
  return out;
}

void SBJSONBytes(NSMutableData *out, const void *bytes, NSUInteger length) {
  SBJSONRaw(out, "{\"$bytes\": ");
  SBJSONString(out, SBHex(bytes, length));
  SBJSONRaw(out, "}");
}

void SBJSONOther(NSMutableData *out, NSString *what) {
  SBJSONRaw(out, "{\"$other\": ");
  SBJSONString(out, [what length] > 200 ? [what substringToIndex:200] : what);
  SBJSONRaw(out, "}");
}

void SBJSONTooDeep(NSMutableData *out) {
  SBJSONOther(out, [NSString stringWithFormat:@"nested deeper than %d", SB_MAX_DEPTH]);
}

static void writeNumber(NSMutableData *out, NSNumber *n) {
  if (SBIsBool(n))
    SBJSONRaw(out, [n boolValue] ? "true" : "false");
  else if (SBIsFloat(n))
    SBJSONDouble(out, [n doubleValue]);
  else if (SBIsUnsignedBig(n))
    SBJSONUInt(out, [n unsignedLongLongValue]);
  else
    SBJSONInt(out, [n longLongValue]);
}

static void writeDate(NSMutableData *out, NSDate *date) {
  double t = [date timeIntervalSince1970], seconds = floor(t);
  long long ns = llround((t - seconds) * 1e9);
  if (ns >= 1000000000LL) seconds += 1, ns -= 1000000000LL;
  SBJSONRaw(out, "{\"$timestamp\": [");
  SBJSONInt(out, (long long)seconds);
  SBJSONRaw(out, ", ");
  SBJSONInt(out, ns);
  SBJSONRaw(out, "]}");
}

void SBWriteCanonical(NSMutableData *out, id v, NSUInteger depth) {
  if (depth > SB_MAX_DEPTH) return SBJSONTooDeep(out);
  if (!v || v == [NSNull null]) return SBJSONRaw(out, "null");
  if ([v isKindOfClass:[NSNumber class]]) return writeNumber(out, v);
  if ([v isKindOfClass:[NSString class]]) return SBJSONString(out, v);
  if ([v isKindOfClass:[NSData class]]) return SBJSONBytes(out, [v bytes], [v length]);
  if ([v isKindOfClass:[NSDate class]]) return writeDate(out, v);
  if ([v isKindOfClass:[NSArray class]]) {
    SBJSONRaw(out, "[");
    BOOL first = YES;
    for (id x in v) {
      if (!first) SBJSONRaw(out, ", ");
      first = NO;
      SBWriteCanonical(out, x, depth + 1);
    }
    return SBJSONRaw(out, "]");
  }
  if ([v isKindOfClass:[NSDictionary class]]) {
    BOOL strings = YES;
    for (id k in v) strings = strings && [k isKindOfClass:[NSString class]];
    SBJSONRaw(out, strings ? "{" : "{\"$map\": [");
    BOOL first = YES;
    for (id k in v) {
      if (!first) SBJSONRaw(out, ", ");
      first = NO;
      if (strings) {
        SBJSONString(out, k);
        SBJSONRaw(out, ": ");
      } else {
        SBJSONRaw(out, "[");
        SBWriteCanonical(out, k, depth + 1);
        SBJSONRaw(out, ", ");
      }
      SBWriteCanonical(out, [v objectForKey:k], depth + 1);
      if (!strings) SBJSONRaw(out, "]");
    }
    return SBJSONRaw(out, strings ? "}" : "]}");
  }
  SBJSONOther(out, NSStringFromClass([v class]));
}

NSString *SBCanonicalTag(id v) {
  if (![v isKindOfClass:[NSDictionary class]] || [v count] != 1) return nil;
  NSString *k = [[v allKeys] objectAtIndex:0];
  return [k hasPrefix:@"$"] ? k : nil;
}

// --- reading --------------------------------------------------------------------------

typedef struct {
  const char *start, *p, *end;
  NSString *error;
} Reader;

static const NSUInteger kReadDepth = 10000;  // the orchestrator's values stay far below

static void ws(Reader *r) {
  while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r')) r->p++;
}

static id fail(Reader *r, NSString *what) {
  if (!r->error)
    r->error = [NSString stringWithFormat:@"%@ at byte %ld", what, (long)(r->p - r->start)];
  return nil;
}

static BOOL literal(Reader *r, const char *word) {
  size_t n = strlen(word);
  if ((size_t)(r->end - r->p) < n || memcmp(r->p, word, n) != 0) return NO;
  r->p += n;
  return YES;
}

static NSString *readString(Reader *r) {
  r->p++;  // the opening quote
  NSMutableString *s = [NSMutableString string];
  const char *run = r->p;
  while (r->p < r->end && *r->p != '"') {
    if ((uint8_t)*r->p < 0x20) return fail(r, @"control character in a string");
    if (*r->p != '\\') {
      r->p++;
      continue;
    }
    NSString *raw = [[NSString alloc] initWithBytes:run
                                             length:r->p - run
                                           encoding:NSUTF8StringEncoding];
    if (!raw) return fail(r, @"invalid UTF-8 in a string");
    [s appendString:raw];
    [raw release];
    if (r->end - r->p < 2) return fail(r, @"truncated escape");
    char e = r->p[1];
    unichar c;
    r->p += 2;
    switch (e) {
      case '"':
        c = '"';
        break;
      case '\\':
        c = '\\';
        break;
      case '/':
        c = '/';
        break;
      case 'b':
        c = '\b';
        break;
      case 'f':
        c = '\f';
        break;
      case 'n':
        c = '\n';
        break;
      case 'r':
        c = '\r';
        break;
      case 't':
        c = '\t';
        break;
      case 'u': {
        if (r->end - r->p < 4) return fail(r, @"truncated \\u escape");
        c = 0;
        for (int i = 0; i < 4; i++) {
          int d = hexDigit((unichar)r->p[i]);
          if (d < 0) return fail(r, @"bad \\u escape");
          c = (unichar)(c << 4 | d);
        }
        r->p += 4;
        break;
      }
      default:
        return fail(r, @"bad escape");
    }
    // a surrogate pair is two escapes: they join as one string, or UTF-8 cannot carry it
    unichar pair[2] = {c, 0};
    NSUInteger n = 1;
    if (c >= 0xd800 && c < 0xdc00 && r->end - r->p >= 6 && r->p[0] == '\\' && r->p[1] == 'u') {
      unichar low = 0;
      for (int i = 2; i < 6 && hexDigit((unichar)r->p[i]) >= 0; i++)
        low = (unichar)(low << 4 | hexDigit((unichar)r->p[i])), n = i == 5 ? 2 : 1;
      if (n == 2 && low >= 0xdc00 && low < 0xe000)
        pair[1] = low, r->p += 6;
      else
        n = 1;
    }
    NSString *escaped = [NSString stringWithCharacters:pair length:n];
    if (!escaped) return fail(r, @"a lone surrogate");  // GNUstep has no string for it
    [s appendString:escaped];
    run = r->p;
  }
  if (r->p >= r->end) return fail(r, @"unterminated string");
  NSString *raw = [[NSString alloc] initWithBytes:run
                                           length:r->p - run
                                         encoding:NSUTF8StringEncoding];
  if (!raw) return fail(r, @"invalid UTF-8 in a string");
  [s appendString:raw];
  [raw release];
  r->p++;
  return s;
}

static NSNumber *readNumber(Reader *r) {
  const char *start = r->p;
  BOOL integral = YES;
  if (r->p < r->end && *r->p == '-') r->p++;
  while (r->p < r->end && strchr("0123456789.eE+-", *r->p)) {
    if (strchr(".eE", *r->p)) integral = NO;
    r->p++;
  }
  char buf[64];
  size_t n = (size_t)(r->p - start);
  if (n == 0 || n >= sizeof buf) return fail(r, @"bad number");
  memcpy(buf, start, n), buf[n] = 0;
  char *stop;
  errno = 0;
  if (integral && buf[0] == '-') {
    long long v = strtoll(buf, &stop, 10);
    if (!*stop && !errno) return [NSNumber numberWithLongLong:v];
  } else if (integral) {
    unsigned long long v = strtoull(buf, &stop, 10);
    if (!*stop && !errno)
      return v > INT64_MAX ? [NSNumber numberWithUnsignedLongLong:v]
                           : [NSNumber numberWithLongLong:(long long)v];
  }
  double d = strtod(buf, &stop);
  if (*stop) return fail(r, @"bad number");
  return [NSNumber numberWithDouble:d];
}

static id readValue(Reader *r, NSUInteger depth) {
  if (depth > kReadDepth) return fail(r, @"nested too deep");
  ws(r);
  if (r->p >= r->end) return fail(r, @"unexpected end");
  char c = *r->p;
  if (c == '"') return readString(r);
  if (c == '[') {
    r->p++;
    NSMutableArray *a = [NSMutableArray array];
    ws(r);
    if (r->p < r->end && *r->p == ']') return r->p++, a;
    for (;;) {
      id v = readValue(r, depth + 1);
      if (!v) return nil;
      [a addObject:v];
      ws(r);
      if (r->p < r->end && *r->p == ',') {
        r->p++;
        continue;
      }
      if (r->p < r->end && *r->p == ']') return r->p++, a;
      return fail(r, @"expected , or ]");
    }
  }
  if (c == '{') {
    r->p++;
    NSMutableDictionary *m = [NSMutableDictionary dictionary];
    ws(r);
    if (r->p < r->end && *r->p == '}') return r->p++, m;
    for (;;) {
      ws(r);
      if (r->p >= r->end || *r->p != '"') return fail(r, @"expected a key");
      NSString *k = readString(r);
      if (!k) return nil;
      ws(r);
      if (r->p >= r->end || *r->p != ':') return fail(r, @"expected :");
      r->p++;
      id v = readValue(r, depth + 1);
      if (!v) return nil;
      [m setObject:v forKey:k];
      ws(r);
      if (r->p < r->end && *r->p == ',') {
        r->p++;
        continue;
      }
      if (r->p < r->end && *r->p == '}') return r->p++, m;
      return fail(r, @"expected , or }");
    }
  }
  if (literal(r, "true")) return [NSNumber numberWithBool:YES];
  if (literal(r, "false")) return [NSNumber numberWithBool:NO];
  if (literal(r, "null")) return [NSNull null];
  return readNumber(r);
}

id SBParseJSON(const char *text, NSUInteger length, NSString **error) {
  Reader r = {text, text, text + length, nil};
  id v = readValue(&r, 0);
  if (v) {
    ws(&r);
    if (r.p != r.end) v = fail(&r, @"text after the value");
  }
  if (!v && error) *error = r.error;
  return v;
}

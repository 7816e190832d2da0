#import "SBServe.h"
#import "SBCell.h"
#import "SBRegistry.h"
#import "SBUntrusted.h"

#include <stdio.h>
#include <time.h>

void SBPrintLine(NSDictionary *object) {
  NSData *json = [NSJSONSerialization dataWithJSONObject:object options:0 error:NULL];
  fwrite([json bytes], 1, [json length], stdout);
  fputc('\n', stdout);
  fflush(stdout);
}

static long long nanos(clockid_t clock) {
  struct timespec ts;
  clock_gettime(clock, &ts);
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static NSDictionary *error(NSString *code, NSString *message) {
  return [NSDictionary
      dictionaryWithObjectsAndKeys:@"error", @"event", code, @"code", message, @"message", nil];
}

static BOOL isString(id v) { return [v isKindOfClass:[NSString class]]; }
static BOOL isCount(id v) {
  return [v isKindOfClass:[NSNumber class]] && [v doubleValue] >= 1 &&
         [v doubleValue] == (double)[v longLongValue];
}
// absent, or an integer >= 0
static BOOL isUntimed(id v) {
  return v == nil || ([v isKindOfClass:[NSNumber class]] && [v doubleValue] >= 0 &&
                      [v doubleValue] == (double)[v longLongValue]);
}

static NSDictionary *sample(NSDictionary *cmd, SBCell *cell) {
  NSString *op = [cmd objectForKey:@"operation"];
  NSUInteger iterations = [[cmd objectForKey:@"iterations"] unsignedIntegerValue];
  NSUInteger samples = [[cmd objectForKey:@"samples"] unsignedIntegerValue];
  NSUInteger untimed = [[cmd objectForKey:@"untimed"] unsignedIntegerValue];  // nil: 0
  if (![cell supports:op])
    return error(@"bad_request",
                 [NSString stringWithFormat:@"operation %@ is not supported by this cell", op]);
  long long *wall = calloc(samples, sizeof(long long)), *cpu = calloc(samples, sizeof(long long));
  @try {
    if (untimed > 0) [cell run:op iterations:untimed];
    for (NSUInteger s = 0; s < samples; s++) {
      long long w0 = nanos(CLOCK_MONOTONIC), c0 = nanos(CLOCK_THREAD_CPUTIME_ID);
      [cell run:op iterations:iterations];
      long long c1 = nanos(CLOCK_THREAD_CPUTIME_ID), w1 = nanos(CLOCK_MONOTONIC);
      wall[s] = w1 - w0, cpu[s] = c1 - c0;
    }
  } @catch (NSException *e) {
    free(wall), free(cpu);
    return error(@"exception", [NSString stringWithFormat:@"%@: %@", [e name], [e reason]]);
  }
  NSMutableArray *w = [NSMutableArray arrayWithCapacity:samples],
                 *c = [NSMutableArray arrayWithCapacity:samples];
  for (NSUInteger s = 0; s < samples; s++) {
    [w addObject:[NSNumber numberWithLongLong:wall[s]]];
    [c addObject:[NSNumber numberWithLongLong:cpu[s]]];
  }
  free(wall), free(cpu);
  NSNull *none = [NSNull null];
  return [NSDictionary
      dictionaryWithObjectsAndKeys:@"samples", @"event", [cmd objectForKey:@"cell"], @"cell", op,
                                   @"operation", [NSNumber numberWithUnsignedInteger:iterations],
                                   @"iterations", w, @"wall_ns", c, @"cpu_ns", none, @"alloc_bytes",
                                   none, @"alloc_count", none, @"gc_count", none, @"gc_ns", none,
                                   @"compile_ns", nil];
}

static NSDictionary *handle(NSDictionary *cmd, NSMutableDictionary *cells, NSDictionary *registry,
                            BOOL *quit) {
  NSString *name = [cmd objectForKey:@"cmd"];
  id cell = [cmd objectForKey:@"cell"];
  if ([name isEqual:@"quit"]) {
    *quit = YES;
    return [NSDictionary dictionaryWithObject:@"bye" forKey:@"event"];
  }
  if (![name isEqual:@"prepare"] && ![name isEqual:@"sample"] && ![name isEqual:@"peak_alloc"] &&
      ![name isEqual:@"release"])
    return error(@"bad_request", [NSString stringWithFormat:@"unknown command %@", SBShow(name)]);
  if (!isString(cell))
    return error(@"bad_request", [NSString stringWithFormat:@"%@ needs a cell", name]);
  if ([name isEqual:@"release"]) {
    [cells removeObjectForKey:cell];
    return [NSDictionary dictionaryWithObjectsAndKeys:@"released", @"event", cell, @"cell", nil];
  }
  if ([name isEqual:@"prepare"]) {
    NSDictionary *ds = [cmd objectForKey:@"dataset"];
    if (!isString([cmd objectForKey:@"serializer"]) || ![ds isKindOfClass:[NSDictionary class]] ||
        !isString([ds objectForKey:@"name"]) || !isString([ds objectForKey:@"data"]) ||
        ![[cmd objectForKey:@"operations"] isKindOfClass:[NSArray class]])
      return error(@"bad_request",
                   @"prepare needs serializer, dataset {name, data} and operations");
    [cells removeObjectForKey:cell];
    SBCell *prepared = nil;
    NSDictionary *reply;
    @try {
      reply = [SBCell prepare:cmd registry:registry cell:&prepared];
    } @catch (NSException *e) {
      NSDictionary *err = [NSDictionary
          dictionaryWithObjectsAndKeys:@"exception", @"code",
                                       [NSString stringWithFormat:@"%@: %@", [e name], [e reason]],
                                       @"message", nil];
      NSNull *none = [NSNull null];
      reply = [NSDictionary
          dictionaryWithObjectsAndKeys:@"prepared", @"event", cell, @"cell", @"error", @"status",
                                       err, @"error", none, @"check", none, @"messages", none,
                                       @"sizes", [NSArray array], @"unsupported", nil];
    }
    if (prepared) [cells setObject:prepared forKey:cell];
    return reply;
  }
  if (!isString([cmd objectForKey:@"operation"]))
    return error(@"bad_request", [NSString stringWithFormat:@"%@ needs an operation", name]);
  SBCell *c = [cells objectForKey:cell];
  if (!c) return error(@"unknown_cell", [NSString stringWithFormat:@"no prepared cell %@", cell]);
  if ([name isEqual:@"peak_alloc"]) {
    return [NSDictionary dictionaryWithObjectsAndKeys:@"peak_alloc", @"event", cell, @"cell",
                                                      [cmd objectForKey:@"operation"], @"operation",
                                                      [NSNull null], @"bytes", nil];
  }
  if (!isCount([cmd objectForKey:@"iterations"]) || !isCount([cmd objectForKey:@"samples"]) ||
      !isUntimed([cmd objectForKey:@"untimed"]))
    return error(@"bad_request",
                 @"sample needs positive integer iterations and samples, untimed an integer >= 0");
  return sample(cmd, c);
}

int SBServe(void) {
  NSMutableDictionary *cells = [NSMutableDictionary dictionary];
  NSDictionary *registry = SBRegistry();
  char *line = NULL;
  size_t cap = 0;
  ssize_t len;
  BOOL quit = NO;
  // What `prepare` autoreleases (the parsed dataset file, the check's decoded copy, ...)
  // lives until no cell is left, in a pool under every command's own: freed between a
  // cell's long-lived objects it would leave the heap in holes, and the timed operation's
  // allocations would come from fragmented free lists, not fresh memory (msgpack-c decoding
  // log-records ran 2x slower than the same loop in a process that kept them).
  NSAutoreleasePool *preparing = nil;
  while (!quit && (len = getline(&line, &cap, stdin)) > 0) {
    NSAutoreleasePool *pool = [NSAutoreleasePool new];
    NSData *bytes = [NSData dataWithBytesNoCopy:line length:len freeWhenDone:NO];
    id cmd = [NSJSONSerialization JSONObjectWithData:bytes options:0 error:NULL];
    BOOL isObject = [cmd isKindOfClass:[NSDictionary class]];
    NSString *name = isObject ? [cmd objectForKey:@"cmd"] : nil;
    if ([name isEqual:@"untrusted_decode"] || [name isEqual:@"untrusted_encode"]) {
      NSData *reply = SBUntrusted(cmd, bytes, registry);  // its own writer: exact numbers
      fwrite([reply bytes], 1, [reply length], stdout);
      fputc('\n', stdout);
      fflush(stdout);
    } else if ([name isEqual:@"prepare"]) {
      [cmd retain];
      [pool drain];  // the pool of prepared cells is on top again
      if (!preparing) preparing = [NSAutoreleasePool new];
      SBPrintLine(handle(cmd, cells, registry, &quit));
      [cmd release];
      continue;
    } else {
      SBPrintLine(isObject ? handle(cmd, cells, registry, &quit)
                           : error(@"bad_request", @"not a JSON object"));
    }
    [pool drain];
    if (preparing && [cells count] == 0) {
      [preparing drain];
      preparing = nil;
    }
  }
  if (preparing) [preparing drain];
  free(line);
  return 0;
}

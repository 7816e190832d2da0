// The native yardstick of bench/compare.py: the plain loop an Objective-C developer writes,
// clock_gettime around a batch of calls to the library, an autorelease pool per call. It
// binds the same serializer and the same Foundation objects as the runner, but none of the
// runner's cell, batch loop or sinks: iterations doubled until a batch takes sample-ms,
// warm-up batches, then the measured batches.
//
// usage: serbench-objc-bench SERIALIZER DATASET CANONICAL.json encode|decode WARMUP SAMPLES
// SAMPLE_MS prints {"ns_per_op": [...], "cpu_ns_per_op": [...]} (single-message datasets only)
#import <Foundation/Foundation.h>

#include <time.h>

#import "harness/SBDataset.h"
#import "harness/SBRegistry.h"
#import "harness/SBSerializer.h"

static volatile uintptr_t sink;

static double nanos(clockid_t clock) {
  struct timespec ts;
  clock_gettime(clock, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void batch(SBSerializer *ser, id msg, NSData *bytes, BOOL encode, long n) {
  for (long i = 0; i < n; i++) {
    NSAutoreleasePool *pool = [NSAutoreleasePool new];
    NSString *error = nil;
    id v =
        encode ? [ser encode:msg] : [ser decode:[bytes bytes] length:[bytes length] error:&error];
    sink += (uintptr_t)v;
    [pool drain];
  }
}

int main(int argc, char **argv) {
  NSAutoreleasePool *pool = [NSAutoreleasePool new];
  if (argc != 8) {
    fprintf(stderr, "usage: %s SERIALIZER DATASET FILE encode|decode WARMUP SAMPLES SAMPLE_MS\n",
            argv[0]);
    return 2;
  }
  NSDictionary *desc = [NSDictionary
      dictionaryWithObjectsAndKeys:[NSString stringWithUTF8String:argv[2]], @"name", @"builtin",
                                   @"kind", [NSString stringWithUTF8String:argv[3]], @"data", nil];
  NSString *code = nil, *message = nil;
  SBDataset *data = [SBDataset load:desc check:NO code:&code message:&message];
  Class cls = [SBRegistry() objectForKey:[NSString stringWithUTF8String:argv[1]]];
  if (!data || !cls || data->stream) {
    fprintf(stderr, "cannot bench %s on %s: %s\n", argv[1], argv[2],
            message ? [message UTF8String] : "single-message datasets only");
    return 1;
  }
  SBSerializer *ser = [[cls alloc] initWithType:data->type];
  id msg = [data->items objectAtIndex:0];
  [ser prepareItems:data->items];
  NSData *bytes = [[ser encode:msg] copy];
  BOOL encode = strcmp(argv[4], "encode") == 0;
  int warmup = atoi(argv[5]), samples = atoi(argv[6]);
  double target = atof(argv[7]) * 1e6;
  long n = 1;
  for (;;) {  // calibrate: double until one batch takes the sample time
    double t0 = nanos(CLOCK_MONOTONIC);
    batch(ser, msg, bytes, encode, n);
    if (nanos(CLOCK_MONOTONIC) - t0 >= target || n >= (1L << 30)) break;
    n *= 2;
  }
  for (int i = 0; i < warmup; i++) batch(ser, msg, bytes, encode, n);
  NSMutableArray *wall = [NSMutableArray array], *cpu = [NSMutableArray array];
  for (int i = 0; i < samples; i++) {
    double w0 = nanos(CLOCK_MONOTONIC), c0 = nanos(CLOCK_THREAD_CPUTIME_ID);
    batch(ser, msg, bytes, encode, n);
    double c1 = nanos(CLOCK_THREAD_CPUTIME_ID), w1 = nanos(CLOCK_MONOTONIC);
    [wall addObject:[NSNumber numberWithDouble:(w1 - w0) / n]];
    [cpu addObject:[NSNumber numberWithDouble:(c1 - c0) / n]];
  }
  NSDictionary *out =
      [NSDictionary dictionaryWithObjectsAndKeys:wall, @"ns_per_op", cpu, @"cpu_ns_per_op",
                                                 [NSNumber numberWithLong:n], @"iterations", nil];
  NSData *json = [NSJSONSerialization dataWithJSONObject:out options:0 error:NULL];
  fwrite([json bytes], 1, [json length], stdout);
  putchar('\n');
  [pool drain];
  return 0;
}

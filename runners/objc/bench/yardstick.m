// The native harness of `serbench calibrate` (docs/runner-protocol.md, section 12): the
// plain loop an Objective-C developer writes, clock_gettime around a batch of calls to the
// library, an autorelease pool per call. It binds the same serializer and the same
// Foundation objects as the runner, but none of the runner's cell, batch loop or sinks:
// warm-up for warmup-ms, then the measured batches of iterations calls.
//
// usage: serbench-objc-bench --serializer S --dataset D --dataset-file F --operation OP
//   --iterations N --samples K --warmup-ms W [--sample-ms M]
// prints one JSON line per batch: {"wall_ns": ..., "cpu_ns": ..., "iterations": N}
// (single-message datasets only)
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
  NSMutableDictionary *opts = [NSMutableDictionary dictionary];
  for (int i = 1; i + 1 < argc; i += 2)
    [opts setObject:[NSString stringWithUTF8String:argv[i + 1]]
             forKey:[[NSString stringWithUTF8String:argv[i]] substringFromIndex:2]];
  const char *required[] = {"serializer", "dataset", "dataset-file", "operation",
                            "iterations", "samples", "warmup-ms"};
  for (size_t i = 0; i < sizeof required / sizeof *required; i++) {
    if (![opts objectForKey:[NSString stringWithUTF8String:required[i]]]) {
      fprintf(stderr, "missing --%s\n", required[i]);
      return 2;
    }
  }
  NSString *serializer = [opts objectForKey:@"serializer"];
  NSDictionary *desc = [NSDictionary
      dictionaryWithObjectsAndKeys:[opts objectForKey:@"dataset"], @"name", @"builtin", @"kind",
                                   [opts objectForKey:@"dataset-file"], @"data", nil];
  NSString *code = nil, *message = nil;
  SBDataset *data = [SBDataset load:desc check:NO code:&code message:&message];
  Class cls = [SBRegistry() objectForKey:serializer];
  if (!data || !cls || data->stream) {
    fprintf(stderr, "cannot bench %s on %s: %s\n", [serializer UTF8String],
            [[opts objectForKey:@"dataset"] UTF8String],
            message ? [message UTF8String] : "single-message datasets only");
    return 1;
  }
  SBSerializer *ser = [[cls alloc] initWithType:data->type];
  id msg = [data->items objectAtIndex:0];
  [ser prepareItems:data->items];
  NSData *bytes = [[ser encode:msg] copy];
  BOOL encode = [[opts objectForKey:@"operation"] isEqualToString:@"encode"];
  long n = [[opts objectForKey:@"iterations"] longLongValue];
  int samples = [[opts objectForKey:@"samples"] intValue];
  double warmupNs = [[opts objectForKey:@"warmup-ms"] doubleValue] * 1e6;
  for (double t0 = nanos(CLOCK_MONOTONIC); nanos(CLOCK_MONOTONIC) - t0 < warmupNs;)
    batch(ser, msg, bytes, encode, 1);
  for (int i = 0; i < samples; i++) {
    double w0 = nanos(CLOCK_MONOTONIC), c0 = nanos(CLOCK_THREAD_CPUTIME_ID);
    batch(ser, msg, bytes, encode, n);
    double c1 = nanos(CLOCK_THREAD_CPUTIME_ID), w1 = nanos(CLOCK_MONOTONIC);
    printf("{\"wall_ns\": %.0f, \"cpu_ns\": %.0f, \"iterations\": %ld}\n", w1 - w0, c1 - c0, n);
  }
  [pool drain];
  return 0;
}

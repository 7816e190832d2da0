// One side of S3's loopback TCP transfer (protocol section 9): frames are a 4-byte
// big-endian length and the encoded message; the receiver answers one byte per frame.
#import "SBDataset.h"
#import "SBRegistry.h"
#import "SBSerializer.h"
#import "SBServe.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static long long now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int fail(NSString *code, NSString *message) {
  SBPrintLine([NSDictionary
      dictionaryWithObjectsAndKeys:@"error", @"event", code, @"code", message, @"message", nil]);
  return 1;
}

static BOOL readAll(int fd, void *buf, size_t n) {
  uint8_t *p = buf;
  while (n) {
    ssize_t got = read(fd, p, n);
    if (got <= 0) return NO;
    p += got, n -= got;
  }
  return YES;
}

static BOOL writeAll(int fd, const void *buf, size_t n) {
  const uint8_t *p = buf;
  while (n) {
    ssize_t put = write(fd, p, n);
    if (put <= 0) return NO;
    p += put, n -= put;
  }
  return YES;
}

static NSArray *numbers(long long *v, NSUInteger n) {
  NSMutableArray *out = [NSMutableArray arrayWithCapacity:n];
  for (NSUInteger i = 0; i < n; i++) [out addObject:[NSNumber numberWithLongLong:v[i]]];
  return out;
}

static void setTimeout(int fd, double seconds) {
  struct timeval tv = {(time_t)seconds, (suseconds_t)((seconds - (time_t)seconds) * 1e6)};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
}

static int receive(SBSerializer *ser, id message, NSDictionary *req, NSUInteger warmup,
                   NSUInteger reps) {
  int server = socket(AF_INET, SOCK_STREAM, 0), one = 1;
  setsockopt(server, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  struct sockaddr_in addr = {0};
  addr.sin_family = AF_INET;
  addr.sin_port = htons([[req objectForKey:@"port"] intValue]);
  inet_pton(AF_INET, [[req objectForKey:@"host"] UTF8String], &addr.sin_addr);
  socklen_t len = sizeof addr;
  if (bind(server, (struct sockaddr *)&addr, len) != 0 || listen(server, 1) != 0)
    return fail(@"exception", @"cannot listen");
  getsockname(server, (struct sockaddr *)&addr, &len);
  SBPrintLine([NSDictionary
      dictionaryWithObjectsAndKeys:@"listening", @"event",
                                   [NSNumber numberWithInt:ntohs(addr.sin_port)], @"port", nil]);
  int fd = accept(server, NULL, NULL);
  if (fd < 0) return fail(@"exception", @"accept failed");
  setTimeout(fd, [[req objectForKey:@"timeout"] doubleValue] ?: 120);
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  long long *recvNs = calloc(reps, sizeof(long long)), *decodeNs = calloc(reps, sizeof(long long));
  NSString *detail = nil;
  NSUInteger bytes = 0;
  for (NSUInteger i = 0; i < warmup + reps; i++) {
    uint8_t head[4];
    if (!readAll(fd, head, 4)) return fail(@"exception", @"connection closed before a frame");
    uint32_t size =
        (uint32_t)head[0] << 24 | (uint32_t)head[1] << 16 | (uint32_t)head[2] << 8 | head[3];
    NSMutableData *payload = [NSMutableData dataWithLength:size];
    NSAutoreleasePool *pool = [NSAutoreleasePool new];
    long long t0 = now();
    if (!readAll(fd, [payload mutableBytes], size))
      return fail(@"exception", @"connection closed inside a frame");
    long long t1 = now();
    NSString *error = nil;
    id v = [ser decode:[payload bytes] length:size error:&error];
    long long t2 = now();
    uint8_t ack = 1;
    writeAll(fd, &ack, 1);
    if (!detail) {
      detail =
          v ? SBDiff(message, v, @"$[0]") : [NSString stringWithFormat:@"cannot decode: %@", error];
      [detail retain];
    }
    [pool drain];
    if (i >= warmup) recvNs[i - warmup] = t1 - t0, decodeNs[i - warmup] = t2 - t1;
    bytes = size;
  }
  close(fd), close(server);
  NSDictionary *check = [NSDictionary
      dictionaryWithObjectsAndKeys:[NSNumber numberWithBool:!detail], @"ok",
                                   detail
                                       ?: [NSString
                                              stringWithFormat:@"%lu frames equal",
                                                               (unsigned long)(warmup + reps)],
                                   @"detail", nil];
  SBPrintLine([NSDictionary
      dictionaryWithObjectsAndKeys:@"transport_result", @"event", @"receive", @"role",
                                   numbers(recvNs, reps), @"receive_ns", numbers(decodeNs, reps),
                                   @"decode_ns", check, @"check",
                                   [NSNumber numberWithUnsignedInteger:bytes], @"bytes", nil]);
  return 0;
}

static int send_(SBSerializer *ser, id message, NSDictionary *req, NSUInteger warmup,
                 NSUInteger reps) {
  int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1;
  struct sockaddr_in addr = {0};
  addr.sin_family = AF_INET;
  addr.sin_port = htons([[req objectForKey:@"port"] intValue]);
  inet_pton(AF_INET, [[req objectForKey:@"host"] UTF8String], &addr.sin_addr);
  if (connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0)
    return fail(@"exception", @"cannot connect");
  setTimeout(fd, [[req objectForKey:@"timeout"] doubleValue] ?: 120);
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  long long *enc = calloc(reps, sizeof(long long)), *snd = calloc(reps, sizeof(long long)),
            *tot = calloc(reps, sizeof(long long));
  NSUInteger bytes = 0;
  for (NSUInteger i = 0; i < warmup + reps; i++) {
    NSAutoreleasePool *pool = [NSAutoreleasePool new];
    long long t0 = now();
    NSData *d = [ser encode:message];
    long long t1 = now();
    uint32_t n = (uint32_t)[d length];
    uint8_t head[4] = {n >> 24, n >> 16, n >> 8, n};
    if (!writeAll(fd, head, 4) || !writeAll(fd, [d bytes], n))
      return fail(@"exception", @"send failed");
    long long t2 = now();
    uint8_t ack;
    if (!readAll(fd, &ack, 1)) return fail(@"exception", @"no answer from the receiver");
    long long t3 = now();
    if (i >= warmup)
      enc[i - warmup] = t1 - t0, snd[i - warmup] = t2 - t1, tot[i - warmup] = t3 - t0;
    bytes = n;
    [pool drain];
  }
  close(fd);
  SBPrintLine([NSDictionary
      dictionaryWithObjectsAndKeys:@"transport_result", @"event", @"send", @"role",
                                   numbers(enc, reps), @"encode_ns", numbers(snd, reps), @"send_ns",
                                   numbers(tot, reps), @"total_ns",
                                   [NSNumber numberWithUnsignedInteger:bytes], @"bytes", nil]);
  return 0;
}

int SBTransport(void) {
  NSData *input = [[NSFileHandle fileHandleWithStandardInput] readDataToEndOfFile];
  NSDictionary *req = [NSJSONSerialization JSONObjectWithData:input options:0 error:NULL];
  if (![req isKindOfClass:[NSDictionary class]]) return fail(@"bad_request", @"not a JSON object");
  Class cls = [SBRegistry() objectForKey:[req objectForKey:@"serializer"]];
  if (!cls)
    return fail(
        @"unknown_serializer",
        [NSString stringWithFormat:@"unknown serializer %@", [req objectForKey:@"serializer"]]);
  NSString *code = nil, *message = nil;
  SBDataset *data = [SBDataset load:[req objectForKey:@"dataset"]
                              check:NO
                               code:&code
                            message:&message];
  if (!data) return fail(code, message);
  NSString *why = [[[req objectForKey:@"dataset"] objectForKey:@"kind"] isEqual:@"user"]
                      ? [cls reasonForUserDatasets]
                      : [cls reasonForBuiltin:data->name];
  SBSerializer *ser = [[[cls alloc] initWithType:data->type] autorelease];
  id msg = [data->items objectAtIndex:0];  // one message per frame: the dataset's first
  if (!why) why = [ser reasonForMessage:msg];
  if (why) return fail(@"not_applicable", why);
  [ser prepareItems:data->items];
  NSUInteger warmup = [[req objectForKey:@"warmup"] unsignedIntegerValue];
  NSUInteger reps = [[req objectForKey:@"repetitions"] unsignedIntegerValue];
  BOOL receiving = [[req objectForKey:@"role"] isEqual:@"receive"];
  return receiving ? receive(ser, msg, req, warmup, reps) : send_(ser, msg, req, warmup, reps);
}

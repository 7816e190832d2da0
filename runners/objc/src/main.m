// serbench's Objective-C runner: `describe`, `serve` and `transport` of
// docs/runner-protocol.md (version 2), on GNUstep Foundation.
#import <Foundation/Foundation.h>

#import "harness/SBServe.h"

int main(int argc, char **argv) {
  NSAutoreleasePool *pool = [NSAutoreleasePool new];
  NSString *what = argc == 2 ? [NSString stringWithUTF8String:argv[1]] : nil;
  int status = 2;
  if ([what isEqual:@"describe"]) {
    SBPrintLine(SBDescribe());
    status = 0;
  } else if ([what isEqual:@"serve"]) {
    status = SBServe();
  } else if ([what isEqual:@"transport"]) {
    status = SBTransport();
  } else {
    fprintf(stderr, "usage: %s describe|serve|transport\n", argv[0]);
  }
  [pool drain];
  return status;
}

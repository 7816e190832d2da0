#import <Foundation/Foundation.h>

// Prints one JSON object as a line on stdout and flushes it.
void SBPrintLine(NSDictionary *object);
// `describe` (protocol section 2).
NSDictionary *SBDescribe(void);
// `serve` (section 4): commands on stdin until quit or end of input.
int SBServe(void);
// `transport` (section 9).
int SBTransport(void);

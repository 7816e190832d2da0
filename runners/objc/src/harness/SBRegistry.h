#import <Foundation/Foundation.h>

// Every serializer class, in describe's order: the one list a new library is added to.
NSArray *SBSerializerClasses(void);
// name -> class
NSDictionary *SBRegistry(void);

package serbench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import serbench.harness.Buf;
import serbench.harness.Codec;
import serbench.harness.DatasetKind;
import serbench.harness.Wire;
import serbench.model.Gender;
import serbench.model.SampleData;
import serbench.model.Test1;
import serbench.model.Test2;
import serbench.model.Test3;
import serbench.model.Test4;

/** The generated handwritten codec: its bytes, and the input its reader refuses. */
class HandwrittenTest {
  private static Codec codec(String dataset) throws Exception {
    return Registry.byName("handwritten").codec(DatasetKind.byId(dataset));
  }

  private static byte[] encode(Codec c, Object m) throws Exception {
    Buf b = new Buf();
    c.encode(m, b);
    return b.toByteArray();
  }

  @Test
  void writesLittleEndianFieldsInOrder() throws Exception {
    Codec c = codec("pb-vs-msgpack-test4");
    Test4 m = new Test4(new Test1(1, 0xfffffffeL), new Test2(-1, 2), new Test3("é"));
    byte[] b = encode(c, m);
    byte[] want = {
      1, 0, 0, 0, -2, -1, -1, -1, // Test1: uint32 a, b
      -1, -1, -1, -1, 2, 0, 0, 0, // Test2: int32 a, b
      2, 0, 0, 0, (byte) 0xc3, (byte) 0xa9 // Test3: length, UTF-8
    };
    assertArrayEquals(want, b);
    assertEquals(m, c.decode(b, 0, b.length));
  }

  @Test
  void refusesTruncatedInputAndTrailingBytes() throws Exception {
    Codec c = codec("android-users");
    byte[] b = encode(c, List.of(new SampleData(7, "ab", 30, Gender.Male, true)));
    assertEquals(4 + 8 + 4 + 2 + 4 + 1 + 1, b.length);
    for (int n = 0; n < b.length; n++) {
      int len = n;
      assertThrows(Wire.Malformed.class, () -> c.decode(b, 0, len), "length " + n);
    }
    byte[] longer = Arrays.copyOf(b, b.length + 1);
    Wire.Malformed e = assertThrows(Wire.Malformed.class, () -> c.decode(longer, 0, longer.length));
    assertEquals("trailing bytes after the message: 1", e.getMessage());
    // a string length past the input, and an enum ordinal that names no symbol
    byte[] badLength = b.clone();
    badLength[12] = 100;
    assertThrows(Wire.Malformed.class, () -> c.decode(badLength, 0, badLength.length));
    byte[] badEnum = b.clone();
    badEnum[b.length - 2] = 2;
    assertThrows(Wire.Malformed.class, () -> c.decode(badEnum, 0, badEnum.length));
  }
}

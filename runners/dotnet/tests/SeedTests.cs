using Newtonsoft.Json.Linq;
using NUnit.Framework;
using Serbench.Harness;

namespace Serbench.Tests
{
    /// <summary>The seed's check column for S5, and the check itself.</summary>
    [TestFixture]
    public class SeedTests
    {
        public static readonly string[] SeedOk =
        {
            "binaryformatter", "datacontractserializer", "datacontractserializer-binary",
            "datacontractjsonserializer", "netdatacontractserializer", "json.net", "json.net-bson",
        };

        [Test]
        public void XmlSerializerSilentlyDropsThePairs()
        {
            var server = new Server();
            JObject r = Fixtures.Prepare(server, "x", "xmlserializer", "log-records", Fixtures.LogRecords(50));
            Assert.AreEqual("check_failed", (string)r["status"]);
            Assert.AreEqual(false, (bool)r["check"]["ok"]);
            Assert.AreEqual("$[0].MyProperty5[0].key: null != \"1\"", (string)r["check"]["detail"]);
            Assert.Greater((long)r["sizes"]["encoded"], 0);
            // never timed
            JObject s = server.Handle("{\"cmd\":\"sample\",\"cell\":\"x\",\"operation\":\"encode\",\"iterations\":1,\"samples\":1}");
            Assert.AreEqual("unknown_cell", (string)s["code"]);
        }

        [Test]
        public void TheSevenOthersRoundTripS5([ValueSource("SeedOk")] string serializer)
        {
            JObject r = Fixtures.Prepare(new Server(), "c", serializer, "log-records", Fixtures.LogRecords(50));
            Assert.AreEqual("ok", (string)r["status"], r.ToString());
            Assert.AreEqual("1 message(s) equal", (string)r["check"]["detail"]);
        }

        [Test]
        public void ATamperedCheckFileFailsWithThePath([ValueSource("SeedOk")] string serializer)
        {
            JObject r = Fixtures.Prepare(new Server(), "c", serializer, "log-records", Fixtures.LogRecords(20), Fixtures.LogRecords(20, 17));
            Assert.AreEqual("check_failed", (string)r["status"]);
            Assert.AreEqual("$[16].MyProperty5[2].value: \"17\" != \"18\"", (string)r["check"]["detail"]);
        }

        [Test]
        public void EveryOtherDatasetRoundTrips()
        {
            var server = new Server();
            foreach (Serializer s in Registry.All)
            {
                foreach (var ds in new[] { new[] { "android-users", Fixtures.AndroidUsers() }, new[] { "pb-vs-msgpack-test2", Fixtures.Test2Stream(7) }, new[] { "click-maps", Fixtures.ClickMaps() }, new[] { "one-mb-dict", Fixtures.OneMbDict() } })
                {
                    JObject r = Fixtures.Prepare(server, "c", s.Name, ds[0], ds[1], null, "encode", "decode", "encode+zlib", "zlib+decode", "encode+zstd", "zstd+decode", "encode+lz4", "lz4+decode");
                    string expected = s.NotApplicable(ds[0]) == null ? "ok" : "not_applicable";
                    Assert.AreEqual(expected, (string)r["status"], s.Name + " " + ds[0] + ": " + r);
                    if (expected == "ok")
                    {
                        foreach (string op in new[] { "encode", "decode", "zlib+decode", "zstd+decode", "lz4+decode" })
                        {
                            JObject sample = server.Handle("{\"cmd\":\"sample\",\"cell\":\"c\",\"operation\":\"" + op + "\",\"iterations\":2,\"samples\":3}");
                            Assert.AreEqual(3, ((JArray)sample["wall_ns"]).Count, sample.ToString());
                        }
                    }
                }
            }
        }

        [Test]
        public void XmlSerializerCannotTakeDictionaries()
        {
            // The evidence behind its two "not applicable" datasets.
            Assert.That(() => new System.Xml.Serialization.XmlSerializer(typeof(System.Collections.Generic.Dictionary<string, string>)), Throws.Exception);
            Assert.That(() => new System.Xml.Serialization.XmlSerializer(typeof(Serbench.Model.ClickMap)), Throws.Exception);
        }

        [Test]
        public void HandwrittenSizes()
        {
            // S1: 4-byte count + 30 x (8 id + 1+len name + 4 age + 1 gender + 1 flag).
            JObject r = Fixtures.Prepare(new Server(), "c", "handwritten", "android-users", Fixtures.AndroidUsers());
            int names = 0;
            for (int i = 0; i < 30; i++)
                names += ("user " + i).Length;
            Assert.AreEqual(4 + 30 * (8 + 1 + 4 + 1 + 1) + names, (long)r["sizes"]["encoded"]);
            // S2 Test2 per message: varint 1 + two int32.
            r = Fixtures.Prepare(new Server(), "c", "handwritten", "pb-vs-msgpack-test2", Fixtures.Test2Stream(7));
            Assert.AreEqual(7 * 9, (long)r["sizes"]["encoded"]);
        }
    }
}

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
            "datacontractjsonserializer", "datacontractjsonserializer-binary",
            "netdatacontractserializer", "netdatacontractserializer-binary", "json.net", "json.net-bson",
        };

        /// <summary>The seed's three "(binary)" rows.</summary>
        public static readonly string[] BinaryXmlRows =
        {
            "datacontractserializer-binary", "datacontractjsonserializer-binary", "netdatacontractserializer-binary",
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
        public void TheNineOthersRoundTripS5([ValueSource("SeedOk")] string serializer)
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
        public void TheBinaryRowsWriteTheirSerializersInfosetAsNbfx([ValueSource("BinaryXmlRows")] string serializer)
        {
            // The dump is .NET Binary XML (it opens with an [MC-NBFX] element record, 0x40-0x77),
            // and under the encoding is each serializer's own infoset: the JSON mapping's
            // <root type="array"> for DataContractJsonSerializer, z:Type/z:Assembly for
            // NetDataContractSerializer, DataContractSerializer's ArrayOfTestClass.
            string dump = System.IO.Path.Combine(System.IO.Path.GetTempPath(), "serbench-dotnet-" + serializer + ".bin");
            var cmd = JObject.Parse("{\"cmd\":\"prepare\",\"cell\":\"b\",\"operations\":[\"encode\",\"decode\"]}");
            cmd["serializer"] = serializer;
            cmd["dataset"] = new JObject { { "name", "log-records" }, { "kind", "builtin" }, { "data", Fixtures.LogRecords(5) } };
            cmd["dump_path"] = dump;
            JObject r = new Server().Handle(cmd.ToString());
            Assert.AreEqual("ok", (string)r["status"], r.ToString());
            byte[] bytes = System.IO.File.ReadAllBytes(dump);
            Assert.That(bytes[0], Is.InRange((byte)0x40, (byte)0x77), "NBFX element record");
            using (var reader = System.Xml.XmlDictionaryReader.CreateBinaryReader(bytes, System.Xml.XmlDictionaryReaderQuotas.Max))
            {
                reader.MoveToContent();
                const string z = "http://schemas.microsoft.com/2003/10/Serialization/";
                if (serializer == "datacontractjsonserializer-binary")
                {
                    Assert.AreEqual("root", reader.LocalName);
                    Assert.AreEqual("array", reader.GetAttribute("type"));
                }
                else
                {
                    Assert.AreEqual("ArrayOfTestClass", reader.LocalName);
                    Assert.AreEqual(serializer == "netdatacontractserializer-binary", reader.GetAttribute("Assembly", z) != null);
                }
            }
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
                    string expected = s.NotApplicable(Datasets.Builtin(ds[0])) == null ? "ok" : "not_applicable";
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

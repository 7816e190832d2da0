using System.IO;
using Newtonsoft.Json.Linq;
using NUnit.Framework;
using Serbench.Harness;

namespace Serbench.Tests
{
    [TestFixture]
    public class ProtocolTests
    {
        [Test]
        public void DescribeListsEveryDatasetForEverySerializer()
        {
            JObject d = Describe.Build();
            Assert.AreEqual(2, (int)d["protocol"]);
            foreach (JObject s in (JArray)d["serializers"])
            {
                foreach (string name in Datasets.Names)
                    Assert.IsNotNull(s["datasets"][name], (string)s["name"] + " " + name);
                Assert.IsNotNull(s["user_datasets"]);
            }
        }

        [Test]
        public void Float32IsCheckedAsTheModelHoldsIt()
        {
            // Read as doubles, these texts are one ulp off their float32s on Mono; the check
            // expects the float32 (the declared width), which every row round-trips exactly.
            foreach (Serializer s in Registry.All)
            {
                JObject r = Fixtures.Prepare(new Server(), "c", s.Name, "mesh", Fixtures.Mesh());
                string expected = s.NotApplicable(Datasets.Builtin("mesh")) == null ? "ok" : "not_applicable"; // the -dynamic rows
                Assert.AreEqual(expected, (string)r["status"], s.Name + ": " + r);
            }
        }

        [Test]
        public void ErrorsKeepTheServerServing()
        {
            var server = new Server();
            Assert.AreEqual("bad_request", (string)server.Handle("{not json")["code"]);
            Assert.AreEqual("bad_request", (string)server.Handle("{\"cmd\":\"dance\"}")["code"]);
            Assert.AreEqual("bad_request", (string)server.Handle("{\"cmd\":\"sample\",\"cell\":\"a\"}")["code"]);
            Assert.AreEqual("unknown_cell", (string)server.Handle("{\"cmd\":\"sample\",\"cell\":\"a\",\"operation\":\"encode\",\"iterations\":1,\"samples\":1}")["code"]);
            JObject r = Fixtures.Prepare(server, "c", "nope", "android-users", Fixtures.AndroidUsers());
            Assert.AreEqual("unknown_serializer", (string)r["error"]["code"]);
            StringAssert.Contains("json.net-bson", (string)r["error"]["message"]);
            r = Fixtures.Prepare(server, "c", "json.net", "nope", Fixtures.AndroidUsers());
            Assert.AreEqual("unknown_dataset", (string)r["error"]["code"]);
            Assert.AreEqual("released", (string)server.Handle("{\"cmd\":\"release\",\"cell\":\"c\"}")["event"]);
            Assert.AreEqual("bye", (string)server.Handle("{\"cmd\":\"quit\"}")["event"]);
        }

        [Test]
        public void SamplesAreExactlyWhatWasAsked()
        {
            var server = new Server();
            Fixtures.Prepare(server, "c", "json.net", "android-users", Fixtures.AndroidUsers());
            JObject s = server.Handle("{\"cmd\":\"sample\",\"cell\":\"c\",\"operation\":\"decode\",\"iterations\":10,\"samples\":4}");
            Assert.AreEqual(4, ((JArray)s["wall_ns"]).Count);
            Assert.AreEqual(4, ((JArray)s["cpu_ns"]).Count);
            Assert.AreEqual(4, ((JArray)s["alloc_bytes"]).Count);
            Assert.Greater((long)s["alloc_bytes"][3], 0, "decode allocates: the per-thread counter moves");
            JObject p = server.Handle("{\"cmd\":\"peak_alloc\",\"cell\":\"c\",\"operation\":\"decode\"}");
            Assert.AreEqual("peak_alloc", (string)p["event"]);
        }

        [Test]
        public void PrepareWithoutVerifySkipsTheCheckAndTheCodecSizes()
        {
            var server = new Server();
            JObject full = Fixtures.Prepare(server, "v", "json.net", "log-records", Fixtures.LogRecords(20));
            string dump = Path.Combine(Path.GetTempPath(), "serbench-dotnet-unverified.bin");
            File.Delete(dump);
            var cmd = JObject.Parse("{\"cmd\":\"prepare\",\"cell\":\"w\",\"serializer\":\"json.net\",\"verify\":false}");
            // a tampered check file would fail the check: none is made
            cmd["dataset"] = new JObject { { "name", "log-records" }, { "kind", "builtin" }, { "data", Fixtures.LogRecords(20) }, { "check_data", Fixtures.LogRecords(20, 17) } };
            cmd["operations"] = new JArray("encode", "decode", "zstd+decode");
            cmd["dump_path"] = dump;
            JObject r = server.Handle(cmd.ToString());
            Assert.AreEqual("ok", (string)r["status"], r.ToString());
            Assert.AreEqual(JTokenType.Null, r["check"].Type);
            Assert.AreEqual(new JObject { { "encoded", full["sizes"]["encoded"] } }, r["sizes"]);
            Assert.AreEqual((long)full["sizes"]["encoded"], new FileInfo(dump).Length);
            foreach (string op in new[] { "encode", "decode", "zstd+decode" })
            {
                JObject s = server.Handle("{\"cmd\":\"sample\",\"cell\":\"w\",\"operation\":\"" + op + "\",\"iterations\":2,\"samples\":3}");
                Assert.AreEqual(3, ((JArray)s["wall_ns"]).Count, op + ": " + s);
            }
        }

        [Test]
        public void DecodeFromReadsAnotherWritersBytes()
        {
            var server = new Server();
            string data = Fixtures.AndroidUsers();
            string dump = Path.Combine(Path.GetTempPath(), "serbench-dotnet-dump.bin");
            var cmd = JObject.Parse("{\"cmd\":\"prepare\",\"cell\":\"w\",\"serializer\":\"json.net\",\"operations\":[\"encode\"]}");
            cmd["dataset"] = new JObject { { "name", "android-users" }, { "kind", "builtin" }, { "data", data } };
            cmd["dump_path"] = dump;
            Assert.AreEqual("ok", (string)server.Handle(cmd.ToString())["status"]);
            cmd["cell"] = "r";
            cmd["serializer"] = "datacontractjsonserializer";
            cmd["dump_path"] = null;
            cmd["decode_from"] = dump;
            cmd["operations"] = new JArray("encode", "decode");
            JObject r = server.Handle(cmd.ToString());
            // Json.NET writes "gender":1 and property names DCJS reads back from its own
            // backing-field contract only: a real incompatibility, reported as a failed check.
            Assert.AreEqual(new JArray("encode"), r["unsupported"]);
            cmd["serializer"] = "json.net";
            r = server.Handle(cmd.ToString());
            Assert.AreEqual("ok", (string)r["status"], r.ToString());
            cmd["serializer"] = "binaryformatter";
            r = server.Handle(cmd.ToString());
            Assert.AreEqual("check_failed", (string)r["status"]);
            StringAssert.StartsWith("cannot decode:", (string)r["check"]["detail"]);
        }

        [Test]
        public void CodecsRoundTripAndSpeakTheirFormats()
        {
            byte[] data = System.Text.Encoding.ASCII.GetBytes(new string('a', 100000) + "tail");
            foreach (string name in Compressor.Names)
            {
                Compressor c = Compressor.Create(name);
                byte[] packed = null;
                int n = c.Compress(data, 0, data.Length, ref packed);
                Assert.Less(n, 2000, name);
                byte[] copy = new byte[n];
                System.Array.Copy(packed, copy, n);
                byte[] back = new byte[16];
                int m = c.Decompress(copy, 0, n, ref back);
                Assert.AreEqual(data.Length, m, name);
                Assert.AreEqual((byte)'l', back[m - 1], name);
                if (name == "zlib")
                    Assert.AreEqual(new byte[] { 0x78, 0x9C }, new[] { copy[0], copy[1] });
                if (name == "zstd")
                    Assert.AreEqual(0xFD2FB528u, System.BitConverter.ToUInt32(copy, 0));
                if (name == "lz4")
                    Assert.AreEqual(0x184D2204u, System.BitConverter.ToUInt32(copy, 0));
            }
        }
    }
}

using System;
using System.Linq;
using System.Numerics;
using System.Text;
using Newtonsoft.Json;
using Newtonsoft.Json.Linq;
using NUnit.Framework;
using Serbench.Harness;

namespace Serbench.Tests
{
    /// <summary>untrusted_decode / untrusted_encode (protocol 2.1, section 11).</summary>
    [TestFixture]
    public class UntrustedTests
    {
        static readonly string[] TypedRows =
        {
            "handwritten", "xmlserializer", "datacontractserializer", "datacontractserializer-binary",
            "datacontractjsonserializer", "datacontractjsonserializer-binary", "json.net", "json.net-bson",
        };

        static JObject Call(Server server, JObject cmd)
        {
            cmd["cell"] = "u";
            return server.Handle(cmd.ToString(Formatting.None));
        }

        static JObject Decode(Server server, string serializer, JObject dataset, params byte[][] inputs)
        {
            var items = new JArray(inputs.Select((b, i) => new JObject { { "id", i.ToString() }, { "b64", Convert.ToBase64String(b) } }));
            JObject r = Call(server, new JObject { { "cmd", "untrusted_decode" }, { "serializer", serializer }, { "dataset", dataset }, { "inputs", items } });
            Assert.AreEqual("untrusted_decoded", (string)r["event"], r.ToString());
            return r;
        }

        static JObject Outcome(JObject reply, int i)
        {
            return (JObject)reply["outcomes"][i];
        }

        static string Canonical(JToken t)
        {
            return CanonicalJson.Of(t).ToString(Formatting.None);
        }

        [Test]
        public void DescribeDeclaresProtocolMinorOne()
        {
            JObject d = Describe.Build();
            Assert.AreEqual(1, (int)d["protocol_minor"]);
            CollectionAssert.Contains(d["capabilities"].Select(c => (string)c).ToList(), "untrusted");
        }

        [Test]
        public void CanonicalJsonSpellsWhatJsonCannot()
        {
            Assert.AreEqual("[1,2.5,\"x\",null,true]", Canonical(JToken.Parse("[1,2.5,\"x\",null,true]")));
            Assert.AreEqual("{\"$float\":\"NaN\"}", Canonical(new JValue(double.NaN)));
            Assert.AreEqual("{\"$float\":\"-Infinity\"}", Canonical(new JValue(double.NegativeInfinity)));
            Assert.AreEqual("{\"$bytes\":\"00ff\"}", Canonical(new JValue(new byte[] { 0, 255 })));
            Assert.AreEqual("{\"$undefined\":true}", Canonical(JValue.CreateUndefined()));
            Assert.AreEqual("18446744073709551616", Canonical(new JValue(BigInteger.Pow(2, 64))));
            var before = new DateTime(1969, 12, 31, 23, 59, 59, 500, DateTimeKind.Utc);
            Assert.AreEqual("{\"$timestamp\":[-1,500000000]}", Canonical(new JValue(before)));
        }

        [Test]
        public void ValuesDeeperThan400AreOther()
        {
            string deep = new string('[', 402) + new string(']', 402);
            JToken c = CanonicalJson.Of(JToken.Parse(deep));
            for (int i = 0; i <= CanonicalJson.MaxDepth; i++)
                c = c[0];
            Assert.AreEqual("nested deeper than 400", (string)c["$other"]);
        }

        [Test]
        public void GenericDecodersAcceptAndRejectAsTheirLibraries()
        {
            var server = new Server();
            byte[] good = Encoding.UTF8.GetBytes("{\"a\":[1,-2.5,\"\\u00e9\"]}");
            byte[] bad = Encoding.UTF8.GetBytes("{\"a\":[1,");
            foreach (string s in new[] { "json.net", "datacontractjsonserializer" })
            {
                JObject r = Decode(server, s, null, good, bad);
                Assert.AreEqual("accepted", (string)Outcome(r, 0)["outcome"], s);
                Assert.AreEqual("{\"a\":[1,-2.5,\"é\"]}", Outcome(r, 0)["value"].ToString(Formatting.None), s);
                Assert.AreEqual("rejected", (string)Outcome(r, 1)["outcome"], s);
                Assert.GreaterOrEqual((long)Outcome(r, 1)["ns"], 0);
            }
            JObject enc = Call(server, new JObject { { "cmd", "untrusted_encode" }, { "serializer", "json.net-bson" }, { "value", JToken.Parse("{\"b\":{\"$bytes\":\"0102\"},\"n\":7}") } });
            byte[] bson = Convert.FromBase64String((string)enc["b64"]);
            JObject rb = Decode(server, "json.net-bson", null, bson, bson.Take(bson.Length - 3).ToArray());
            Assert.AreEqual("{\"b\":{\"$bytes\":\"0102\"},\"n\":7}", Outcome(rb, 0)["value"].ToString(Formatting.None));
            Assert.AreEqual("rejected", (string)Outcome(rb, 1)["outcome"], Outcome(rb, 1).ToString());
        }

        [Test]
        public void InvalidUtf8IsRejectedNotReplaced()
        {
            JObject r = Decode(new Server(), "json.net", null, new byte[] { (byte)'"', 0xff, (byte)'"' });
            Assert.AreEqual("rejected", (string)Outcome(r, 0)["outcome"]);
        }

        [Test]
        public void AnUndocumentedExceptionIsAnError()
        {
            // Json.NET 6's BsonReader answers an unknown element type with ArgumentOutOfRangeException
            byte[] doc = { 8, 0, 0, 0, 0x7e, (byte)'a', 0, 0 };
            JObject r = Decode(new Server(), "json.net-bson", null, doc);
            Assert.AreEqual("error", (string)Outcome(r, 0)["outcome"], Outcome(r, 0).ToString());
        }

        [Test]
        public void GenericEncodeOfWhatTheTreeCannotCarryIsNotApplicable()
        {
            var server = new Server();
            JObject r = Call(server, new JObject { { "cmd", "untrusted_encode" }, { "serializer", "json.net" }, { "value", JToken.Parse("{\"$float\":\"NaN\"}") } });
            Assert.AreEqual("not_applicable", (string)r["code"]);
            r = Call(server, new JObject { { "cmd", "untrusted_encode" }, { "serializer", "json.net" }, { "value", JToken.Parse("{\"a\":[1,\"x\"]}") } });
            Assert.AreEqual("{\"a\":[1,\"x\"]}", Encoding.UTF8.GetString(Convert.FromBase64String((string)r["b64"])));
        }

        [Test]
        public void EveryTypedRowReadsItsOwnEncodingAndRefusesATruncatedOne()
        {
            var server = new Server();
            var ds = new JObject { { "name", "android-users" }, { "kind", "builtin" }, { "data", Fixtures.AndroidUsers() } };
            foreach (string s in TypedRows)
            {
                JObject enc = Call(server, new JObject { { "cmd", "untrusted_encode" }, { "serializer", s }, { "dataset", ds }, { "message", 0 } });
                Assert.AreEqual("untrusted_encoded", (string)enc["event"], s + ": " + enc);
                byte[] valid = Convert.FromBase64String((string)enc["b64"]);
                JObject r = Decode(server, s, ds, valid, valid.Take(valid.Length / 2).ToArray());
                Assert.AreEqual("{\"$check\":\"equal\"}", Outcome(r, 0)["value"].ToString(Formatting.None), s);
                Assert.AreEqual("rejected", (string)Outcome(r, 1)["outcome"], s + ": " + Outcome(r, 1));
            }
        }

        [Test]
        public void UnsafeAndBaselineRowsAreUnsupported()
        {
            var server = new Server();
            foreach (string s in new[] { "binaryformatter", "netdatacontractserializer", "netdatacontractserializer-binary", "memcpy", "noop" })
            {
                JObject r = Call(server, new JObject { { "cmd", "untrusted_decode" }, { "serializer", s }, { "inputs", new JArray() } });
                Assert.AreEqual("unsupported", (string)r["code"], s);
            }
            Assert.AreEqual("unknown_serializer", (string)Call(server, new JObject { { "cmd", "untrusted_decode" }, { "serializer", "nope" }, { "inputs", new JArray() } })["code"]);
        }
    }
}

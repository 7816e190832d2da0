using System.Collections.Generic;
using System.IO;
using System.Text;
using System.Threading;
using Newtonsoft.Json.Linq;
using NUnit.Framework;
using Serbench.Harness;

namespace Serbench.Tests
{
    /// <summary>Both sides of `transport` in one process, over a real loopback socket.</summary>
    [TestFixture]
    public class TransportTests
    {
        /// <summary>Collects the JSON lines a side prints and signals its `listening` line.</summary>
        sealed class Lines : TextWriter
        {
            public readonly List<JObject> Events = new List<JObject>();
            public readonly ManualResetEventSlim Listening = new ManualResetEventSlim();

            public override Encoding Encoding
            {
                get { return Encoding.UTF8; }
            }

            public override void WriteLine(string value)
            {
                JObject e = JObject.Parse(value);
                lock (Events)
                    Events.Add(e);
                if ((string)e["event"] == "listening")
                    Listening.Set();
            }

            public JObject Last
            {
                get
                {
                    lock (Events)
                        return Events[Events.Count - 1];
                }
            }
        }

        static string Request(string role, string serializer, string data, int port)
        {
            return new JObject
            {
                { "protocol", 2 }, { "role", role }, { "serializer", serializer },
                { "dataset", new JObject { { "name", "one-mb-dict" }, { "kind", "builtin" }, { "data", data } } },
                { "host", "127.0.0.1" }, { "port", port }, { "repetitions", 3 }, { "warmup", 1 }, { "timeout", 30 },
            }.ToString();
        }

        /// <summary>Runs a receiver and a sender; their exit codes and last events.</summary>
        static int[] Pair(string sender, string senderData, string receiver, string receiverData, out JObject sent, out JObject received)
        {
            var rx = new Lines();
            var tx = new Lines();
            int rxCode = -1;
            var thread = new Thread(() => rxCode = Transport.Run(new StringReader(Request("receive", receiver, receiverData, 0)), rx));
            thread.Start();
            Assert.IsTrue(rx.Listening.Wait(30000), "the receiver printed no listening line");
            int port = (int)rx.Events[0]["port"];
            int txCode = Transport.Run(new StringReader(Request("send", sender, senderData, port)), tx);
            Assert.IsTrue(thread.Join(30000), "the receiver did not finish");
            sent = tx.Last;
            received = rx.Last;
            return new[] { txCode, rxCode };
        }

        [Test]
        public void FramesArriveDecodedAndChecked()
        {
            string data = Fixtures.OneMbDict();
            JObject sent, received;
            int[] codes = Pair("json.net", data, "json.net", data, out sent, out received);
            Assert.AreEqual(new[] { 0, 0 }, codes, sent + "\n" + received);
            Assert.AreEqual("transport_result", (string)sent["event"]);
            Assert.AreEqual(3, ((JArray)sent["total_ns"]).Count, "warm-up frames are left out");
            Assert.AreEqual(3, ((JArray)received["decode_ns"]).Count);
            Assert.AreEqual((long)sent["bytes"], (long)received["bytes"]);
            Assert.IsTrue((bool)received["check"]["ok"], received.ToString());
        }

        [Test]
        public void TheReceiverChecksWhatArrived()
        {
            JObject sent, received;
            string other = Fixtures.Write("one-mb-dict.other.json", File.ReadAllText(Fixtures.OneMbDict()).Replace("\"def\"", "\"xyz\""));
            int[] codes = Pair("json.net", other, "json.net", Fixtures.OneMbDict(), out sent, out received);
            Assert.AreEqual(0, codes[1]);
            Assert.IsFalse((bool)received["check"]["ok"]);
            StringAssert.Contains("key2", (string)received["check"]["detail"]);
        }

        [Test]
        public void BytesTheReceiverCannotReadAreAnError()
        {
            string data = Fixtures.OneMbDict();
            JObject sent, received;
            int[] codes = Pair("json.net", data, "binaryformatter", data, out sent, out received);
            Assert.AreEqual(1, codes[1]);
            Assert.AreEqual("error", (string)received["event"]);
            StringAssert.StartsWith("cannot decode frame 0", (string)received["message"]);
        }

        [Test]
        public void ABadRequestIsAnError()
        {
            var lines = new Lines();
            Assert.AreEqual(1, Transport.Run(new StringReader("{\"role\":\"dance\"}"), lines));
            Assert.AreEqual("bad_request", (string)lines.Last["code"]);
            Assert.AreEqual(1, Transport.Run(new StringReader(Request("send", "nope", Fixtures.OneMbDict(), 1)), lines));
            Assert.AreEqual("unknown_serializer", (string)lines.Last["code"]);
        }
    }
}

using System;
using System.IO;
using System.Text;
using Newtonsoft.Json;
using Newtonsoft.Json.Linq;
using Serbench.Harness;

namespace Serbench.Libraries
{
    /// <summary>
    /// Json.NET's LINQ to JSON API (JToken: JObject/JArray/JValue) on user datasets: the tree
    /// built from the canonical item with the declared types applied, written with
    /// JToken.WriteTo through a JsonTextWriter, read back with JToken.ReadFrom (no date
    /// guessing, floats as double, integers beyond 64 bits as BigInteger). Built-in datasets
    /// run on the typed row, `json.net`.
    /// </summary>
    public sealed class JsonNetDynamic : Serializer
    {
        /// <summary>Why a -dynamic row takes no built-in dataset, naming its typed twin (as the other runners' -dynamic rows do).</summary>
        public static string BuiltinReason(string typed)
        {
            return "user datasets only: on the built-in datasets " + typed + " reads the generated classes";
        }

        public override string Name { get { return "json.net-dynamic"; } }
        public override string Format { get { return "json"; } }
        public override string Library { get { return "Json.NET (Newtonsoft.Json)"; } }
        public override string Version { get { return Describe.AssemblyVersion(typeof(JsonConvert).Assembly); } }
        public override string[] Labels { get { return new[] { "text", "schemaless", "dynamic", "copying-decode", "map-layout", "enum-as-ordinal", "timestamp-as-text" }; } }
        public override string[] Assemblies { get { return new[] { typeof(JsonConvert).Assembly.Location }; } }

        public override bool GenericTree { get { return true; } }

        public override string NotApplicable(DatasetSpec spec)
        {
            return spec.User ? null : BuiltinReason("json.net");
        }

        public override Codec Bind(DatasetSpec spec)
        {
            if (!spec.User)
                throw new NotApplicableException(BuiltinReason("json.net"));
            return new JTokenCodec();
        }

        sealed class JTokenCodec : Codec
        {
            static readonly Encoding Utf8 = new UTF8Encoding(false);
            Stream lastStream;
            StreamWriter text;

            public override void Encode(object message, MemoryStream output)
            {
                if (!ReferenceEquals(output, lastStream))
                {
                    lastStream = output;
                    text = new StreamWriter(output, Utf8, 1024, true);
                }
                var w = new JsonTextWriter(text) { CloseOutput = false };
                ((JToken)message).WriteTo(w);
                w.Flush();
            }

            public override object Decode(byte[] buffer, int offset, int length)
            {
                var text = new StreamReader(new MemoryStream(buffer, offset, length, false), Utf8, false, Math.Max(128, Math.Min(length, 4096)));
                var r = new JsonTextReader(text) { DateParseHandling = DateParseHandling.None, FloatParseHandling = FloatParseHandling.Double };
                return JToken.ReadFrom(r);
            }
        }
    }
}

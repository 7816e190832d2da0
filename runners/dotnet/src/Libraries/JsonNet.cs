using System;
using System.IO;
using System.Text;
using Newtonsoft.Json;
using Serbench.Harness;

namespace Serbench.Libraries
{
    /// <summary>
    /// Json.NET (Newtonsoft.Json) with its default contract resolver on the generated classes,
    /// built-in and user datasets alike (a user dataset's classes carry [DataMember(Name =
    /// key)], which the resolver follows). Text is UTF-8 through a StreamWriter kept per output
    /// stream, as an application writing many messages to one stream would. The JToken API is
    /// the `json.net-dynamic` row.
    /// </summary>
    public sealed class JsonNet : Serializer
    {
        public override string Name { get { return "json.net"; } }
        public override string Format { get { return "json"; } }
        public override string Library { get { return "Json.NET (Newtonsoft.Json)"; } }
        public override string Version { get { return Describe.AssemblyVersion(typeof(JsonConvert).Assembly); } }
        public override string[] Labels { get { return new[] { "text", "schemaless", "reflective", "copying-decode", "map-layout", "enum-as-ordinal", "timestamp-as-text" }; } }
        public override string[] Assemblies { get { return new[] { typeof(JsonConvert).Assembly.Location }; } }

        public override Codec Bind(DatasetSpec spec)
        {
            return new JsonNetCodec(spec.RootType);
        }

        sealed class JsonNetCodec : Codec
        {
            static readonly Encoding Utf8 = new UTF8Encoding(false);
            readonly JsonSerializer json = JsonSerializer.Create(new JsonSerializerSettings { DateParseHandling = DateParseHandling.None, FloatParseHandling = FloatParseHandling.Double });
            readonly Type root;
            Stream lastStream;
            StreamWriter text;

            public JsonNetCodec(Type root)
            {
                this.root = root;
            }

            public override void Encode(object message, MemoryStream output)
            {
                if (!ReferenceEquals(output, lastStream))
                {
                    lastStream = output;
                    text = new StreamWriter(output, Utf8, 1024, true);
                }
                var w = new JsonTextWriter(text) { CloseOutput = false };
                json.Serialize(w, message);
                w.Flush();
            }

            public override object Decode(byte[] buffer, int offset, int length)
            {
                var text = new StreamReader(new MemoryStream(buffer, offset, length, false), Utf8, false, Math.Max(128, Math.Min(length, 4096)));
                return json.Deserialize(new JsonTextReader(text), root);
            }
        }
    }
}

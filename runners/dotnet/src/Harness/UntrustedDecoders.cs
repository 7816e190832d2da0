using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Runtime.Serialization;
using System.Text;
using System.Xml;
using Newtonsoft.Json;
using Newtonsoft.Json.Bson;
using Newtonsoft.Json.Linq;

namespace Serbench.Harness
{
    /// <summary>
    /// What one serializer does with bytes it did not write: the exception types its
    /// documentation names for bad input (only those answer "rejected"), its generic-value
    /// decode and encode where the library has a value tree, or why it takes no such input.
    /// </summary>
    public sealed class UntrustedDecoder
    {
        public Type[] Rejects = new Type[0];
        public Func<byte[], JToken> Generic; // bytes -> canonical JSON; null: typed only
        public Func<JToken, byte[]> Encode; // canonical JSON -> bytes; null: no generic encode
        public string Unsupported; // set: the serializer answers every untrusted command "unsupported"

        public bool IsRejection(Exception e)
        {
            return Rejects.Any(t => t.IsInstanceOfType(e));
        }
    }

    public static class UntrustedDecoders
    {
        // UTF-8 that refuses invalid bytes (DecoderFallbackException, an ArgumentException)
        // instead of replacing them: RFC 8259 text is UTF-8.
        static readonly Encoding StrictUtf8 = new UTF8Encoding(false, true);

        // Json.NET documents JsonReaderException ("an error occurs while reading JSON text")
        // and JsonSerializationException (deserializing into a type) as its errors.
        static readonly Type[] JsonNetErrors = { typeof(JsonReaderException), typeof(JsonSerializationException) };

        // XmlObjectSerializer.ReadObject documents SerializationException; the XML, binary
        // XML and JSON readers under it document XmlException for malformed input.
        static readonly Type[] DataContractErrors = { typeof(SerializationException), typeof(XmlException) };

        static readonly Dictionary<string, UntrustedDecoder> Table = new Dictionary<string, UntrustedDecoder>
        {
            // the typed rows and their -dynamic twins share the generic decode: it is the JToken API
            { "json.net", JsonNetText() },
            { "json.net-dynamic", JsonNetText() },
            { "json.net-bson", JsonNetBson() },
            { "json.net-bson-dynamic", JsonNetBson() },
            { "datacontractjsonserializer", new UntrustedDecoder { Rejects = DataContractErrors, Generic = b => JsonMapping.Read(JsonMapping.TextReader(b)) } },
            { "datacontractjsonserializer-binary", new UntrustedDecoder { Rejects = DataContractErrors, Generic = b => JsonMapping.Read(JsonMapping.BinaryReader(b)) } },
            { "datacontractserializer", new UntrustedDecoder { Rejects = DataContractErrors } },
            { "datacontractserializer-binary", new UntrustedDecoder { Rejects = DataContractErrors } },
            // XmlSerializer.Deserialize documents InvalidOperationException, the cause inside.
            { "xmlserializer", new UntrustedDecoder { Rejects = new[] { typeof(InvalidOperationException) } } },
            {
                // BinaryReader documents EndOfStreamException (an IOException) and IOException, and
                // FormatException for a bad 7-bit length; the codec's own refusal of bytes left
                // over is InvalidDataException.
                "handwritten", new UntrustedDecoder
                {
                    Rejects = new[] { typeof(IOException), typeof(FormatException), typeof(InvalidDataException) },
                }
            },
            // Microsoft's security guidance: BinaryFormatter and NetDataContractSerializer are
            // unsafe for untrusted data (the bytes name the types to instantiate).
            { "binaryformatter", Unsafe("BinaryFormatter") },
            { "netdatacontractserializer", Unsafe("NetDataContractSerializer") },
            { "netdatacontractserializer-binary", Unsafe("NetDataContractSerializer") },
            { "memcpy", new UntrustedDecoder { Unsupported = "memcpy is a baseline (a copy), not a decoder" } },
            { "noop", new UntrustedDecoder { Unsupported = "noop is a baseline (harness overhead), not a decoder" } },
        };

        public static UntrustedDecoder For(string serializer)
        {
            UntrustedDecoder d;
            return Table.TryGetValue(serializer, out d) ? d : new UntrustedDecoder { Unsupported = serializer + " does not take untrusted input in this runner yet" };
        }

        static UntrustedDecoder JsonNetText()
        {
            return new UntrustedDecoder
            {
                Rejects = JsonNetErrors.Concat(new[] { typeof(DecoderFallbackException) }).ToArray(),
                Generic = JsonText,
                Encode = v => StrictUtf8.GetBytes(CanonicalJson.ToTree(v, false).ToString(Newtonsoft.Json.Formatting.None)),
            };
        }

        // BsonReader reads through System.IO.BinaryReader, whose documented error for input
        // that ends early (EndOfStreamException) it passes on unwrapped.
        static UntrustedDecoder JsonNetBson()
        {
            return new UntrustedDecoder
            {
                Rejects = JsonNetErrors.Concat(new[] { typeof(EndOfStreamException) }).ToArray(),
                Generic = Bson,
                Encode = BsonEncode,
            };
        }

        static UntrustedDecoder Unsafe(string library)
        {
            return new UntrustedDecoder { Unsupported = library + " must not read untrusted input: its bytes name the types it instantiates (Microsoft's BinaryFormatter security guide)" };
        }

        static JsonTextReader JsonReader(byte[] b)
        {
            var text = new StreamReader(new MemoryStream(b, false), StrictUtf8, false);
            return new JsonTextReader(text) { DateParseHandling = DateParseHandling.None, FloatParseHandling = FloatParseHandling.Double };
        }

        static JToken JsonText(byte[] b)
        {
            using (JsonTextReader r = JsonReader(b))
            {
                JToken t = JToken.ReadFrom(r);
                // what JToken.Parse does with content after the value; comments may follow
                while (r.Read())
                {
                    if (r.TokenType != JsonToken.Comment)
                        throw new JsonReaderException("Additional text found in JSON after parsing content: " + r.TokenType + " at " + r.Path);
                }
                return CanonicalJson.Of(t);
            }
        }

        static JToken Bson(byte[] b)
        {
            using (var r = new BsonReader(new MemoryStream(b, false)) { DateTimeKindHandling = DateTimeKind.Utc })
                return CanonicalJson.Of(JToken.ReadFrom(r));
        }

        static byte[] BsonEncode(JToken v)
        {
            JToken tree = CanonicalJson.ToTree(v, true);
            if (tree.Type != JTokenType.Object)
                throw new NotCarriedException("a BSON document is an object, not " + tree.Type);
            var s = new MemoryStream();
            using (var w = new BsonWriter(s) { DateTimeKindHandling = DateTimeKind.Utc })
            {
                tree.WriteTo(w);
                w.Flush();
            }
            return s.ToArray();
        }
    }
}

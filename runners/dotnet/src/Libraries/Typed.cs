using System;
using System.Collections.Generic;
using System.IO;
using System.Runtime.Serialization;
using System.Xml;
using Serbench.Harness;

namespace Serbench.Libraries
{
    /// <summary>
    /// A codec over a library that writes a declared .NET type to a Stream and reads it back:
    /// what every serializer of the seed's table looks like from the outside.
    /// </summary>
    public sealed class StreamCodec : Codec
    {
        readonly Action<object, Stream> write;
        readonly Func<Stream, object> read;
        readonly Action<List<object>> prepare;

        public StreamCodec(Action<object, Stream> write, Func<Stream, object> read, Action<List<object>> prepare = null)
        {
            this.write = write;
            this.read = read;
            this.prepare = prepare;
        }

        public override void Prepare(List<object> items)
        {
            if (prepare != null)
                prepare(items);
        }

        public override void Encode(object message, MemoryStream output)
        {
            write(message, output);
        }

        public override object Decode(byte[] buffer, int offset, int length)
        {
            return read(new MemoryStream(buffer, offset, length, false));
        }
    }

    /// <summary>
    /// .NET Binary XML ([MC-NBFX], no dictionary, no session): one of the platform's
    /// XmlObjectSerializers writing through XmlDictionaryWriter.CreateBinaryWriter and reading
    /// through XmlDictionaryReader.CreateBinaryReader, as the seed's "(binary)" rows did. The
    /// serializer writes the same infoset as to its text writer (DataContractJsonSerializer
    /// its JSON mapping: a "root" element with "type" attributes); only the encoding of that
    /// infoset changes.
    /// </summary>
    public static class BinaryXml
    {
        public static StreamCodec Codec(XmlObjectSerializer serializer)
        {
            return new StreamCodec(
                (o, s) =>
                {
                    using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(s, null, null, false))
                    {
                        serializer.WriteObject(w, o);
                        w.Flush();
                    }
                },
                s =>
                {
                    using (XmlDictionaryReader r = XmlDictionaryReader.CreateBinaryReader(s, XmlDictionaryReaderQuotas.Max))
                        return serializer.ReadObject(r);
                });
        }
    }
}

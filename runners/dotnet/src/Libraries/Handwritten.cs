using System;
using System.IO;
using System.Text;
using Serbench.Harness;

namespace Serbench.Libraries
{
    /// <summary>
    /// The hand-written baseline (the seed's Parcelable stand-in): BinaryWriter/BinaryReader
    /// field by field in types.json order; strings as BinaryWriter writes them (7-bit
    /// encoded UTF-8 length, then the bytes), lists and maps as an int32 count first, enums a
    /// byte, date-times DateTime.ToBinary, optional values a bool flag first. The per-type
    /// writers and readers are generated from types.json (tools/typegen, TypedMessage.Write).
    /// </summary>
    public sealed class Handwritten : Serializer
    {
        public override string Name { get { return "handwritten"; } }
        public override string Format { get { return "handwritten"; } }
        public override string Library { get { return "System.IO.BinaryWriter/BinaryReader"; } }
        public override string Version { get { return Describe.PlatformVersion(typeof(BinaryWriter)); } }
        public override string[] Labels { get { return new[] { "binary", "handwritten", "positional", "copying-decode" }; } }

        public override string NotApplicable(DatasetSpec spec)
        {
            return spec.Typed.HandwrittenNotApplicable;
        }

        public override Codec Bind(DatasetSpec spec)
        {
            return new HandwrittenCodec(spec.Typed);
        }
    }

    public sealed class HandwrittenCodec : Codec
    {
        static readonly Encoding Utf8 = new UTF8Encoding(false);
        readonly Action<BinaryWriter, object> write;
        readonly Func<BinaryReader, object> read;
        Stream writerStream;
        BinaryWriter writer;
        byte[] readerBuffer;
        MemoryStream readerStream;
        BinaryReader reader;

        public HandwrittenCodec(TypedMessage message)
        {
            if (message.Write == null)
                throw new NotApplicableException(message.HandwrittenNotApplicable);
            write = message.Write;
            read = message.Read;
        }

        public override void Encode(object message, MemoryStream output)
        {
            if (!ReferenceEquals(output, writerStream))
            {
                writerStream = output;
                writer = new BinaryWriter(output, Utf8, true);
            }
            write(writer, message);
        }

        public override object Decode(byte[] buffer, int offset, int length)
        {
            if (!ReferenceEquals(buffer, readerBuffer))
            {
                readerBuffer = buffer;
                readerStream = new MemoryStream(buffer, 0, buffer.Length, false, true);
                reader = new BinaryReader(readerStream, Utf8, true);
            }
            readerStream.Position = offset;
            object o = read(reader);
            if (readerStream.Position != offset + length)
                throw new InvalidDataException("handwritten: " + (offset + length - readerStream.Position) + " bytes left over");
            return o;
        }
    }
}

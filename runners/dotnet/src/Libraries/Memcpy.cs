using System;
using System.Collections.Generic;
using System.IO;
using System.Runtime.CompilerServices;
using Serbench.Harness;

namespace Serbench.Libraries
{
    /// <summary>
    /// The copy floor: encode appends each message's prepared hand-written bytes with one
    /// copy; decode copies each message's bytes into a scratch buffer without parsing them
    /// (the check reads them with the hand-written reader).
    /// </summary>
    public sealed class Memcpy : Serializer
    {
        public override string Name { get { return "memcpy"; } }
        public override string Format { get { return "handwritten"; } }
        public override string Library { get { return "Buffer.BlockCopy"; } }
        public override string Version { get { return Describe.PlatformVersion(typeof(Buffer)); } }
        public override string[] Labels { get { return new[] { "baseline" }; } }

        public override string NotApplicable(DatasetSpec spec)
        {
            return spec.Typed.HandwrittenNotApplicable;
        }

        public override Codec Bind(DatasetSpec spec)
        {
            return new MemcpyCodec(new HandwrittenCodec(spec.Typed));
        }

        sealed class ByReference : IEqualityComparer<object>
        {
            public new bool Equals(object a, object b)
            {
                return ReferenceEquals(a, b);
            }

            public int GetHashCode(object o)
            {
                return RuntimeHelpers.GetHashCode(o);
            }
        }

        sealed class MemcpyCodec : Codec
        {
            readonly HandwrittenCodec reader;
            readonly Dictionary<object, byte[]> prepared = new Dictionary<object, byte[]>(new ByReference());
            byte[] single;
            byte[] scratch = new byte[1 << 12];

            public MemcpyCodec(HandwrittenCodec handwritten)
            {
                reader = handwritten;
            }

            public override void Prepare(List<object> items)
            {
                var ms = new MemoryStream();
                foreach (object o in items)
                {
                    ms.SetLength(0);
                    reader.Encode(o, ms);
                    prepared[o] = ms.ToArray();
                }
                single = items.Count == 1 ? prepared[items[0]] : null;
            }

            byte[] BytesOf(object message)
            {
                return single ?? prepared[message];
            }

            public override int KnownLength(object message)
            {
                return BytesOf(message).Length;
            }

            public override void Encode(object message, MemoryStream output)
            {
                byte[] b = BytesOf(message);
                output.Write(b, 0, b.Length);
            }

            public override object Decode(byte[] buffer, int offset, int length)
            {
                if (scratch.Length < length)
                    scratch = new byte[Math.Max(length, scratch.Length * 2)];
                Buffer.BlockCopy(buffer, offset, scratch, 0, length);
                return scratch;
            }

            public override object DecodeForCheck(byte[] buffer, int offset, int length)
            {
                return reader.Decode(buffer, offset, length);
            }
        }
    }
}

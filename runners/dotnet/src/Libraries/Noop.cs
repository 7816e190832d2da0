using System.Collections.Generic;
using System.IO;
using Serbench.Harness;

namespace Serbench.Libraries
{
    /// <summary>The harness overhead: encode writes 8 prepared bytes, decode hands back the original.</summary>
    public sealed class Noop : Serializer
    {
        public override string Name { get { return "noop"; } }
        public override string Format { get { return "none"; } }
        public override string Library { get { return "serbench"; } }
        public override string Version { get { return "1"; } }
        public override string[] Labels { get { return new[] { "baseline" }; } }

        public override bool GenericTree { get { return true; } }

        public override Codec Bind(DatasetSpec spec)
        {
            return new NoopCodec();
        }

        sealed class NoopCodec : Codec
        {
            static readonly byte[] Blob = new byte[8];
            object[] originals;
            int next;

            public override void Prepare(List<object> items)
            {
                originals = items.ToArray();
            }

            public override int KnownLength(object message)
            {
                return Blob.Length;
            }

            public override void Encode(object message, MemoryStream output)
            {
                output.Write(Blob, 0, Blob.Length);
            }

            public override object Decode(byte[] buffer, int offset, int length)
            {
                // Streams are read in order: the n-th decode returns the n-th original.
                object o = originals[next];
                if (++next == originals.Length)
                    next = 0;
                return o;
            }
        }
    }
}

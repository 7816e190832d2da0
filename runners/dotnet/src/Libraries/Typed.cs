using System;
using System.Collections.Generic;
using System.IO;
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
}

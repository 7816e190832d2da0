using System;
using System.Collections.Generic;
using System.IO;

namespace Serbench.Harness
{
    /// <summary>Every operation's result lands here, so no compiler can drop the work.</summary>
    public static class Sink
    {
        static object last;
        static long count;

        public static void Consume(object o)
        {
            last = o;
            count++;
        }

        public static long Count
        {
            get { return count + (last == null ? 0 : 1); }
        }
    }

    /// <summary>
    /// One cell's work, shared by every serializer: a single message or a framed stream
    /// (protocol section 6: unsigned LEB128 length before each message), with or without a
    /// general-purpose codec (then each message is compressed on its own).
    /// </summary>
    public sealed class Workload
    {
        readonly Codec codec;
        readonly object[] items;
        readonly int count;
        readonly bool stream;
        readonly Compressor comp;
        readonly MemoryStream output = new MemoryStream(1 << 16);
        readonly MemoryStream scratch = new MemoryStream(1 << 16);
        byte[] packed = new byte[1 << 12];

        public Workload(Codec codec, Loaded data, Compressor comp)
        {
            this.codec = codec;
            items = data.Items.ToArray();
            count = data.Count;
            stream = data.Spec.Stream;
            this.comp = comp;
        }

        public int Count
        {
            get { return count; }
        }

        /// <summary>One encode (then compress, with a codec); the buffer is reused by the next call.</summary>
        public MemoryStream Encode()
        {
            MemoryStream o = output;
            o.SetLength(0);
            if (!stream)
            {
                if (comp == null)
                {
                    codec.Encode(items[0], o);
                }
                else
                {
                    scratch.SetLength(0);
                    codec.Encode(items[0], scratch);
                    int n = comp.Compress(scratch.GetBuffer(), 0, (int)scratch.Length, ref packed);
                    o.Write(packed, 0, n);
                }
                return o;
            }
            int j = 0;
            for (int i = 0; i < count; i++)
            {
                object m = items[j];
                if (++j == items.Length)
                    j = 0;
                int known = comp == null ? codec.KnownLength(m) : -1;
                if (known >= 0)
                {
                    WriteVarint(o, known);
                    codec.Encode(m, o);
                    continue;
                }
                MemoryStream s = scratch;
                s.SetLength(0);
                codec.Encode(m, s);
                if (comp == null)
                {
                    WriteVarint(o, (int)s.Length);
                    o.Write(s.GetBuffer(), 0, (int)s.Length);
                }
                else
                {
                    int n = comp.Compress(s.GetBuffer(), 0, (int)s.Length, ref packed);
                    WriteVarint(o, n);
                    o.Write(packed, 0, n);
                }
            }
            return o;
        }

        /// <summary>
        /// The size of one encode+codec output, from the plain encoding already made (each
        /// message is compressed on its own; a stream that repeats its items compresses each
        /// distinct item once and counts it as often as it occurs).
        /// </summary>
        public long CompressedSize(byte[] encoded)
        {
            if (!stream)
                return comp.Compress(encoded, 0, encoded.Length, ref packed);
            long total = 0;
            if (items.Length >= count)
            {
                Decode(encoded, encoded.Length, true, null, (offset, length) =>
                {
                    int n = comp.Compress(encoded, offset, length, ref packed);
                    total += VarintLength(n) + n;
                });
                return total;
            }
            for (int j = 0; j < items.Length; j++)
            {
                scratch.SetLength(0);
                codec.Encode(items[j], scratch);
                int n = comp.Compress(scratch.GetBuffer(), 0, (int)scratch.Length, ref packed);
                long times = count / items.Length + (j < count % items.Length ? 1 : 0);
                total += times * (VarintLength(n) + n);
            }
            return total;
        }

        /// <summary>One decode (after decompressing, with a codec); every message goes to consumer.</summary>
        public void Decode(byte[] input, int length, bool forCheck, Action<int, object> consumer)
        {
            Decode(input, length, forCheck, consumer, null);
        }

        /// <summary>Walks the frames; with frames given, hands over each frame's bytes instead of decoding them.</summary>
        void Decode(byte[] input, int length, bool forCheck, Action<int, object> consumer, Action<int, int> frames)
        {
            if (!stream)
            {
                consumer(0, DecodeOne(input, 0, length, forCheck));
                return;
            }
            int pos = 0;
            for (int i = 0; i < count; i++)
            {
                int len = 0;
                int shift = 0;
                int b;
                do
                {
                    if (pos >= length || shift > 28)
                        throw new InvalidDataException("stream truncated at message " + i);
                    b = input[pos++];
                    len |= (b & 0x7F) << shift;
                    shift += 7;
                }
                while ((b & 0x80) != 0);
                if (len < 0 || pos + len > length)
                    throw new InvalidDataException("bad frame length " + len + " at message " + i);
                if (frames != null)
                    frames(pos, len);
                else
                    consumer(i, DecodeOne(input, pos, len, forCheck));
                pos += len;
            }
            if (pos != length)
                throw new InvalidDataException((length - pos) + " bytes left after " + count + " messages");
        }

        object DecodeOne(byte[] input, int offset, int length, bool forCheck)
        {
            if (comp != null)
            {
                length = comp.Decompress(input, offset, length, ref packed);
                input = packed;
                offset = 0;
            }
            return forCheck ? codec.DecodeForCheck(input, offset, length) : codec.Decode(input, offset, length);
        }

        static readonly Action<int, object> ToSink = (i, m) => Sink.Consume(m);

        public void DecodeToSink(byte[] input, int length)
        {
            Decode(input, length, false, ToSink);
        }

        public static void WriteVarint(Stream o, int v)
        {
            uint u = (uint)v;
            while (u >= 0x80)
            {
                o.WriteByte((byte)(u | 0x80));
                u >>= 7;
            }
            o.WriteByte((byte)u);
        }

        public static int VarintLength(int n)
        {
            return n < (1 << 7) ? 1 : n < (1 << 14) ? 2 : n < (1 << 21) ? 3 : n < (1 << 28) ? 4 : 5;
        }
    }
}

using System;
using System.Collections.Generic;
using System.IO;
using System.Text;
using Serbench.Harness;
using Serbench.Model;

namespace Serbench.Libraries
{
    /// <summary>
    /// The hand-written baseline (the seed's Parcelable stand-in): BinaryWriter/BinaryReader
    /// field by field in types.json order; strings as BinaryWriter writes them (7-bit
    /// encoded UTF-8 length, then the bytes), lists and maps as an int32 count first.
    /// </summary>
    public sealed class Handwritten : Serializer
    {
        public override string Name { get { return "handwritten"; } }
        public override string Format { get { return "handwritten"; } }
        public override string Library { get { return "System.IO.BinaryWriter/BinaryReader"; } }
        public override string Version { get { return Describe.PlatformVersion(typeof(BinaryWriter)); } }
        public override string[] Labels { get { return new[] { "binary", "handwritten", "positional", "copying-decode" }; } }

        public override Codec Bind(DatasetSpec spec)
        {
            return new HandwrittenCodec(spec.Name);
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

        public HandwrittenCodec(string dataset)
        {
            switch (dataset)
            {
                case "android-users":
                    write = (w, o) => WriteList(w, (List<SampleData>)o, WriteSampleData);
                    read = r => ReadList(r, ReadSampleData);
                    break;
                case "pb-vs-msgpack-test1":
                    write = (w, o) => WriteTest1(w, (Test1)o);
                    read = r => ReadTest1(r);
                    break;
                case "pb-vs-msgpack-test2":
                    write = (w, o) => WriteTest2(w, (Test2)o);
                    read = r => ReadTest2(r);
                    break;
                case "pb-vs-msgpack-test3":
                    write = (w, o) => w.Write(((Test3)o).s);
                    read = r => new Test3 { s = r.ReadString() };
                    break;
                case "pb-vs-msgpack-test4":
                    write = (w, o) =>
                    {
                        var t = (Test4)o;
                        WriteTest1(w, t.t1);
                        WriteTest2(w, t.t2);
                        w.Write(t.t3.s);
                    };
                    read = r => new Test4 { t1 = ReadTest1(r), t2 = ReadTest2(r), t3 = new Test3 { s = r.ReadString() } };
                    break;
                case "one-mb-dict":
                    write = (w, o) => WriteMap(w, (Dictionary<string, string>)o, (ww, v) => ww.Write(v));
                    read = r => ReadMap(r, rr => rr.ReadString());
                    break;
                case "click-maps":
                    write = (w, o) => WriteClickMap(w, (ClickMap)o);
                    read = r => ReadClickMap(r);
                    break;
                case "log-records":
                    write = (w, o) => WriteList(w, (List<TestClass>)o, WriteTestClass);
                    read = r => ReadList(r, ReadTestClass);
                    break;
                default:
                    throw new NotApplicableException("handwritten: no hand-written code for dataset " + dataset);
            }
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

        static void WriteList<T>(BinaryWriter w, List<T> list, Action<BinaryWriter, T> element)
        {
            w.Write(list.Count);
            foreach (T e in list)
                element(w, e);
        }

        static List<T> ReadList<T>(BinaryReader r, Func<BinaryReader, T> element)
        {
            int n = r.ReadInt32();
            var list = new List<T>(n);
            for (int i = 0; i < n; i++)
                list.Add(element(r));
            return list;
        }

        static void WriteMap<T>(BinaryWriter w, Dictionary<string, T> map, Action<BinaryWriter, T> value)
        {
            w.Write(map.Count);
            foreach (KeyValuePair<string, T> kv in map)
            {
                w.Write(kv.Key);
                value(w, kv.Value);
            }
        }

        static Dictionary<string, T> ReadMap<T>(BinaryReader r, Func<BinaryReader, T> value)
        {
            int n = r.ReadInt32();
            var map = new Dictionary<string, T>(n);
            for (int i = 0; i < n; i++)
            {
                string k = r.ReadString();
                map.Add(k, value(r));
            }
            return map;
        }

        static void WriteSampleData(BinaryWriter w, SampleData s)
        {
            w.Write(s.id);
            w.Write(s.name);
            w.Write(s.age);
            w.Write((byte)s.gender);
            w.Write(s.isMegane);
        }

        static SampleData ReadSampleData(BinaryReader r)
        {
            return new SampleData { id = r.ReadInt64(), name = r.ReadString(), age = r.ReadInt32(), gender = (Gender)r.ReadByte(), isMegane = r.ReadBoolean() };
        }

        static void WriteTest1(BinaryWriter w, Test1 t)
        {
            w.Write(t.a);
            w.Write(t.b);
        }

        static Test1 ReadTest1(BinaryReader r)
        {
            return new Test1 { a = r.ReadUInt32(), b = r.ReadUInt32() };
        }

        static void WriteTest2(BinaryWriter w, Test2 t)
        {
            w.Write(t.a);
            w.Write(t.b);
        }

        static Test2 ReadTest2(BinaryReader r)
        {
            return new Test2 { a = r.ReadInt32(), b = r.ReadInt32() };
        }

        static void WriteClickMap(BinaryWriter w, ClickMap m)
        {
            w.Write(m.url);
            w.Write(m.day);
            w.Write(m.viewport.width);
            w.Write(m.viewport.height);
            WriteMap(w, m.clicks, (ww, c) =>
            {
                ww.Write(c.x);
                ww.Write(c.y);
                ww.Write(c.count);
                ww.Write(c.lastClick);
                ww.Write(c.selector);
            });
        }

        static ClickMap ReadClickMap(BinaryReader r)
        {
            return new ClickMap
            {
                url = r.ReadString(),
                day = r.ReadString(),
                viewport = new Viewport { width = r.ReadInt32(), height = r.ReadInt32() },
                clicks = ReadMap(r, rr => new Click { x = rr.ReadInt32(), y = rr.ReadInt32(), count = rr.ReadInt32(), lastClick = rr.ReadInt64(), selector = rr.ReadString() }),
            };
        }

        static void WriteTestClass(BinaryWriter w, TestClass t)
        {
            w.Write(t.MyProperty1);
            w.Write(t.MyProperty2);
            w.Write(t.MyProperty3.ToBinary());
            w.Write(t.MyProperty4);
            WriteList(w, t.MyProperty5, (ww, kv) =>
            {
                ww.Write(kv.Key);
                ww.Write(kv.Value);
            });
        }

        static TestClass ReadTestClass(BinaryReader r)
        {
            return new TestClass
            {
                MyProperty1 = r.ReadString(),
                MyProperty2 = r.ReadInt32(),
                MyProperty3 = DateTime.FromBinary(r.ReadInt64()),
                MyProperty4 = r.ReadBoolean(),
                MyProperty5 = ReadList(r, rr => new KeyValuePair<string, string>(rr.ReadString(), rr.ReadString())),
            };
        }
    }
}
